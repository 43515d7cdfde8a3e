//! Web searches, with a named installed engine or the default one.

use super::{not_found, one_call, Refusal, Step};
use crate::interpret::resolve::View;
use crate::log::Call;
use crate::tools::args::{CreateTabArgs, WebSearchArgs};
use crate::tools::ToolCall;

/// Sites searched at their own search page when no engine of that name
/// is installed ("search youtube for lofi" with only Google and Bing):
/// the names people use, the site's name, and the page the query ends.
const SITE_SEARCHES: &[(&[&str], &str, &str)] = &[
    (
        &["youtube"],
        "YouTube",
        "https://www.youtube.com/results?search_query=",
    ),
    (&["github"], "GitHub", "https://github.com/search?q="),
    (
        &["wikipedia", "wiki"],
        "Wikipedia",
        "https://en.wikipedia.org/w/index.php?search=",
    ),
    (&["amazon"], "Amazon", "https://www.amazon.com/s?k="),
    (&["reddit"], "Reddit", "https://www.reddit.com/search/?q="),
    (
        &["stackoverflow"],
        "Stack Overflow",
        "https://stackoverflow.com/search?q=",
    ),
    (&["twitter", "x"], "X", "https://x.com/search?q="),
    (&["ebay"], "eBay", "https://www.ebay.com/sch/i.html?_nkw="),
    (
        &["maps"],
        "Google Maps",
        "https://www.google.com/maps/search/",
    ),
    (&["google"], "Google", "https://www.google.com/search?q="),
    (&["duckduckgo"], "DuckDuckGo", "https://duckduckgo.com/?q="),
    (&["bing"], "Bing", "https://www.bing.com/search?q="),
    (
        &["crates.io", "crates"],
        "crates.io",
        "https://crates.io/search?q=",
    ),
    (
        &["docs.rs"],
        "docs.rs",
        "https://docs.rs/releases/search?query=",
    ),
    (&["npm"], "npm", "https://www.npmjs.com/search?q="),
    (
        &["mdn"],
        "MDN",
        "https://developer.mozilla.org/en-US/search?q=",
    ),
    (&["imdb"], "IMDb", "https://www.imdb.com/find/?q="),
];

/// "search youtube for lofi" without a YouTube engine: its search page.
fn site_search(engine: &str, query: &str) -> Option<Step> {
    let (_, name, page) = SITE_SEARCHES
        .iter()
        .find(|(names, _, _)| names.contains(&engine))?;
    let encoded: String = url::form_urlencoded::byte_serialize(query.as_bytes()).collect();
    Some(one_call(
        Call::create_tab(CreateTabArgs {
            url: Some(format!("{page}{encoded}")),
            ..Default::default()
        }),
        format!("Searched {name} for '{query}'."),
        vec![],
    ))
}

/// "search this site for async": the default engine's results for the
/// words on the site in front (`site:`, which Google, Bing and DuckDuckGo
/// understand).
pub fn search_this_site(view: &View, query: &str) -> Result<Step, Refusal> {
    let tab = view
        .active()
        .filter(|t| t.url.starts_with("https://") || t.url.starts_with("http://"))
        .ok_or_else(|| Refusal::invalid("The tab in front shows no web site to search."))?;
    let (host, _) = crate::interpret::sites::host_and_path(&tab.url);
    let mut step = search(view, &format!("{query} site:{host}"), None)?;
    step.reply = format!("Searched {host} for '{query}'.");
    Ok(step)
}

pub fn search(view: &View, query: &str, engine: Option<&str>) -> Result<Step, Refusal> {
    let state = view.state;
    if query.trim().is_empty() {
        return Err(Refusal::invalid("What should I search for?"));
    }
    // "search for this", "google it": text selected on the page, which
    // Tab Whisperer does not see; a search for the word "this" helps no one.
    const POINTING: &[&str] = &["this", "that", "it", "this page", "this tab", "that page"];
    if POINTING.contains(&query.trim().to_lowercase().as_str()) {
        return Err(Refusal::invalid(
            "Say what to search for, as in 'search for sourdough starter'; Tab Whisperer doesn't see what you select on a page.",
        ));
    }
    let mut engine_name = state
        .search_engines
        .iter()
        .find(|e| e.is_default)
        .map(|e| e.name.clone());
    let mut named = None;
    if let Some(e) = engine {
        let found = state
            .search_engines
            .iter()
            .find(|x| x.name.to_lowercase() == e)
            .or_else(|| {
                state
                    .search_engines
                    .iter()
                    .find(|x| x.name.to_lowercase().starts_with(e))
            })
            .or_else(|| {
                // Not a letter or two: "x" is in "Yandex".
                state
                    .search_engines
                    .iter()
                    .find(|x| e.len() > 2 && x.name.to_lowercase().replace(' ', "").contains(e))
            });
        match found {
            Some(x) => {
                named = Some(x.name.clone());
                engine_name = Some(x.name.clone());
            }
            None => {
                if let Some(step) = site_search(e, query) {
                    return Ok(step);
                }
                return Err(not_found(format!(
                    "No search engine called '{e}' is installed. Installed: {}.",
                    state
                        .search_engines
                        .iter()
                        .map(|x| x.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                )));
            }
        }
    }
    let reply = match engine_name {
        Some(e) => format!("Searched {e} for '{query}'."),
        None => format!("Searched for '{query}'."),
    };
    Ok(one_call(
        Call::web_search(WebSearchArgs {
            query: query.to_string(),
            engine: named,
        }),
        reply,
        vec![],
    ))
}
