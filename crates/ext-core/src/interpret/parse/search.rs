//! Web searches: "search for rust async", "look up tokio on Wikipedia",
//! "google webgpu".

use super::super::sites;
use super::intent::Intent;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["search", "look", "lookup", "google"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[];

pub fn parse(w: Words) -> Parsed {
    Ok(search(w))
}

/// Search engines by the names people say.
pub const ENGINE_WORDS: &[&str] = &[
    "google",
    "bing",
    "duckduckgo",
    "ddg",
    "wikipedia",
    "amazon",
    "ebay",
    "youtube",
    "yahoo",
    "qwant",
    "ecosia",
    "startpage",
];

/// Sites searched at their own search page, named only where a search
/// says so ("search github for tokio", "search for tokio on github"):
/// alone, "github tokio" names a tab.
const SEARCHED_SITES: &[&str] = &[
    "github",
    "reddit",
    "stackoverflow",
    "twitter",
    "x",
    "maps",
    "crates",
    "crates.io",
    "docs.rs",
    "npm",
    "mdn",
    "imdb",
];

fn search(w: Words) -> Option<Intent> {
    let engine_name = |x: &str| -> Option<String> {
        let x = x.trim_end_matches("'s");
        ENGINE_WORDS.contains(&x).then(|| {
            if x == "ddg" {
                "duckduckgo".into()
            } else {
                x.to_string()
            }
        })
    };
    let site_name = |x: &str| -> Option<String> {
        engine_name(x).or_else(|| SEARCHED_SITES.contains(&x).then(|| x.to_string()))
    };
    let query_of = |q: Words| join(strip_leading(q, &["the", "a", "an", "about"]));
    // "google rust async", "wikipedia tokio"; but "google docs" is a site.
    if w.len() >= 2 && sites::by_name(&join(w)).is_none() {
        if let Some(e) = engine_name(&w[0]) {
            if e != "youtube" && e != "amazon" && e != "ebay" {
                let q = starts(&w[1..], &["for"]).unwrap_or(&w[1..]);
                return Some(Intent::Search {
                    query: query_of(q),
                    engine: Some(e),
                });
            }
        }
    }
    // "find mechanical keyboards on ebay": a verb that is no search verb,
    // but an engine at the end makes it one.
    let on_engine = w.len() >= 4
        && ["on", "at", "with", "using", "via"].contains(&w[w.len() - 2].as_str())
        && engine_name(&w[w.len() - 1]).is_some();
    let rest = verb(
        w,
        &[
            &["search", "the", "web", "for"],
            &["search", "online", "for"],
            &["web", "search", "for"],
            &["web", "search"],
            &["search", "for"],
            &["search"],
            &["look", "up"],
            &["lookup"],
            &["find", "out"],
            &["query"],
        ],
    )
    .or_else(|| {
        // "look tokio up on wikipedia"
        starts(w, &["look"]).filter(|rest| rest.iter().any(|x| x == "up"))
    })
    .or_else(|| {
        on_engine
            .then(|| {
                verb(
                    w,
                    &[&["find"], &["get"], &["shop", "for"], &["buy"], &["check"]],
                )
            })
            .flatten()
    })?;
    // "search this site for async", "search this website for pricing".
    let this_site = [
        &["this", "site", "for"][..],
        &["this", "website", "for"],
        &["this", "domain", "for"],
        &["the", "site", "for"],
    ]
    .iter()
    .find_map(|lead| starts(rest, lead));
    if let Some(q) = this_site.filter(|q| !q.is_empty()) {
        return Some(Intent::SearchThisSite(query_of(q)));
    }
    // "search google maps for pizza"
    if let Some(q) = starts(rest, &["google", "maps", "for"]).filter(|q| !q.is_empty()) {
        return Some(Intent::Search {
            query: query_of(q),
            engine: Some("maps".into()),
        });
    }
    // "search Bing for rust async"
    if rest.len() >= 3 {
        if let Some(e) = site_name(&rest[0]) {
            if rest[1] == "for" {
                return Some(Intent::Search {
                    query: query_of(&rest[2..]),
                    engine: Some(e),
                });
            }
        }
    }
    // "... on Wikipedia", "... with bing", "... using duckduckgo", "look tokio up on wikipedia"
    let mut query = rest.to_vec();
    // "search for otters in a new tab": where the results go is no part
    // of the query (a search opens a tab of its own anyway).
    for place in [
        &["in", "a", "new", "tab"][..],
        &["in", "new", "tab"],
        &["in", "a", "tab"],
    ] {
        if let Some(kept) = ends(&query, place) {
            // Not when the query is about tabs: "how to open links in a new tab".
            let about_tabs = kept.last().is_some_and(|x| {
                [
                    "open", "opens", "opening", "link", "links", "it", "them", "page", "pages",
                ]
                .contains(&x.as_str())
            });
            if !about_tabs {
                query = kept.to_vec();
            }
            break;
        }
    }
    // "… on google maps": Maps, not Google.
    if let Some(kept) = ends(&query, &["google", "maps"]).filter(|k| k.len() >= 2) {
        query = [kept, &["maps".to_string()]].concat();
    }
    let mut engine = None;
    if query.len() >= 2 {
        let n = query.len();
        if ["on", "with", "using", "in", "via", "at"].contains(&query[n - 2].as_str()) {
            if let Some(e) = site_name(&query[n - 1]) {
                engine = Some(e);
                query.truncate(n - 2);
            }
        }
    }
    // "look tokio up": the "up" belongs to the verb.
    let split_look = starts(w, &["look"]).is_some() && starts(w, &["look", "up"]).is_none();
    if let Some(up) = query.iter().rposition(|x| x == "up").filter(|_| split_look) {
        query.remove(up);
    }
    if query.is_empty() {
        return None;
    }
    Some(Intent::Search {
        query: query_of(&query),
        engine,
    })
}
