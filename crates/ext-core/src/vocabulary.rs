//! The words a spoken command is likely to use: the open tabs' site names
//! and the start of their titles. The speech worker gives them to Whisper
//! as its prompt, so "switch to Wikipedia" comes out spelled the way the
//! tab list spells it. Bounded: a long prompt slows every decoding step.

use crate::interpret::parse::FAMILIES;
use crate::interpret::sites::{self, SITES};
use url::Url;

/// At most this many characters (Whisper's prompt holds 223 tokens).
pub const MAX_CHARS: usize = 400;

/// The words commands are made of, the ones Whisper mishears most (it
/// writes "and group" for "ungroup", "and do" for "undo", "but mark" for
/// "bookmark" unless told to expect them).
pub const COMMAND_WORDS: &str = "Close, switch to, open, mute, unmute, pin, unpin, reload, discard, duplicate, group, ungroup, bookmark, undo, move, search, scroll, zoom, tab, tabs.";

/// [`prompt`] after the command words: what commands are transcribed with.
pub fn command_prompt<'a>(tabs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let tabs = prompt(tabs);
    let mut out = String::from(COMMAND_WORDS);
    for phrase in tabs.split(", ") {
        if out.chars().count() + 2 + phrase.chars().count() > MAX_CHARS {
            break;
        }
        out.push(' ');
        out.push_str(phrase);
        out.push(',');
    }
    out.trim_end_matches(',').to_string()
}
/// Words kept from each title.
const TITLE_WORDS: usize = 4;

/// "YouTube, GitHub, Wikipedia, …" from `(title, url)` pairs, most
/// useful first: site names, then short titles; each said once.
pub fn prompt<'a>(tabs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let tabs: Vec<(&str, &str)> = tabs.into_iter().collect();
    let sites = tabs.iter().filter_map(|(title, url)| site_name(title, url));
    let titles = tabs.iter().map(|(title, _)| short_title(title));
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for phrase in sites.chain(titles) {
        if phrase.is_empty() || !seen.insert(phrase.to_lowercase()) {
            continue;
        }
        let extra = if out.is_empty() { 0 } else { 2 };
        if out.chars().count() + extra + phrase.chars().count() > MAX_CHARS {
            continue;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&phrase);
    }
    out
}

/// A site's name as people say it: the title's spelling of the domain's
/// main label if the title has it ("YouTube" for youtube.com), else the
/// label itself. None for pages that are not websites.
fn site_name(title: &str, url: &str) -> Option<String> {
    let url = Url::parse(url).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?.trim_start_matches("www.");
    if host.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    let labels: Vec<&str> = host.split('.').collect();
    // The label before the public suffix, roughly: "mail.google.com" →
    // "google", "bbc.co.uk" → "bbc".
    let main = match labels.as_slice() {
        [.., name, second, _] if second.len() <= 3 && labels.len() >= 3 => *name,
        [.., name, _] => *name,
        [name] => *name,
        [] => return None,
    };
    let lower = title.to_lowercase();
    let spelled = lower
        .find(main)
        .and_then(|at| title.get(at..at + main.len()))
        .filter(|s| s.chars().any(char::is_uppercase));
    Some(match spelled {
        Some(s) => s.to_string(),
        None => {
            let mut c = main.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        }
    })
}

fn short_title(title: &str) -> String {
    let words: Vec<&str> = title
        .split(|c: char| c.is_whitespace() || matches!(c, '|' | '-' | '—' | '–' | '·' | ':'))
        .filter(|w| !w.is_empty())
        .take(TITLE_WORDS)
        .collect();
    words.join(" ")
}

/// Most phrases given to the worker: expanding every name into every
/// command grows fast, and each phrase costs guided hearing a little.
pub const MAX_PHRASES: usize = 3_000;

/// The commands that make sense for these tabs and groups, as people say
/// them: each intent family's phrases with `{tab}` (the tabs' names),
/// `{group}`, `{site}` (sites "open" knows), `{domain}` (theirs and the
/// tabs'), `{color}` and `{number}`
/// filled in. The speech worker hears a command again, guided to them,
/// when what it heard means nothing.
pub fn command_phrases<'a>(
    tabs: impl IntoIterator<Item = (&'a str, &'a str)>,
    groups: impl IntoIterator<Item = &'a str>,
) -> Vec<String> {
    let tabs: Vec<(&str, &str)> = tabs.into_iter().collect();
    let domains = domains(tabs.iter().map(|(_, url)| *url));
    let tabs: Vec<String> = unique(
        tabs.into_iter()
            .flat_map(|(title, url)| tab_names(title, url)),
    );
    let groups: Vec<String> = unique(groups.into_iter().map(|g| g.trim().to_string()));
    let sites: Vec<String> = unique(SITES.iter().map(|s| s.display.to_string()));
    let slots: Slots = [
        ("tab", tabs),
        ("group", groups),
        ("site", sites),
        ("domain", domains),
        ("color", COLORS.iter().map(|c| c.to_string()).collect()),
        ("number", NUMBERS.iter().map(|n| n.to_string()).collect()),
    ]
    .into_iter()
    .collect();
    let templates: Vec<&str> = FAMILIES
        .iter()
        .flat_map(|f| f.phrases.iter().copied())
        .collect();
    let mut out: Vec<String> = Vec::new();
    // Fixed phrases first, so the cap only ever drops expansions.
    let (fixed, open): (Vec<&str>, Vec<&str>) =
        templates.into_iter().partition(|t| !t.contains('{'));
    out.extend(fixed.iter().map(|t| t.to_string()));
    for template in open {
        expand(template, &slots, &mut out);
    }
    let mut seen = std::collections::HashSet::new();
    out.retain(|p| seen.insert(p.to_lowercase()));
    out.truncate(MAX_PHRASES);
    out
}

const COLORS: &[&str] = &[
    "grey", "blue", "red", "yellow", "green", "pink", "purple", "cyan", "orange",
];
const NUMBERS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
];

/// Every way of filling `template`'s first slot, recursively; a slot
/// named twice ("group {tab} and {tab}") takes two different names.
type Slots = std::collections::HashMap<&'static str, Vec<String>>;

fn expand(template: &str, slots: &Slots, out: &mut Vec<String>) {
    if out.len() >= MAX_PHRASES * 2 {
        return;
    }
    let Some(open) = template.find('{') else {
        out.push(template.to_string());
        return;
    };
    let Some(close) = template[open..].find('}').map(|c| open + c) else {
        return;
    };
    let Some(names) = slots.get(&template[open + 1..close]) else {
        return;
    };
    for name in names {
        let filled = format!("{}{}{}", &template[..open], name, &template[close + 1..]);
        if template[..open].contains(name.as_str()) {
            continue;
        }
        expand(&filled, slots, out);
    }
}

/// Each name once, in first-seen order, ignoring case.
/// The domains "open" is likely to be said with: the known sites' and the
/// open tabs'. Whisper writes a spoken "github dot com" as "github.com",
/// so a guided hearing that knew only "open GitHub" found the audio going
/// on after it, and took none.
fn domains<'a>(urls: impl Iterator<Item = &'a str>) -> Vec<String> {
    let open = urls
        .map(|url| sites::host_and_path(url).0)
        .filter(|host| sites::is_address(host))
        .map(|host| sites::base_domain(&host));
    unique(sites::known_site_domains().chain(open))
}

fn unique(names: impl Iterator<Item = String>) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    names
        .filter(|n| !n.is_empty() && seen.insert(n.to_lowercase()))
        .collect()
}

/// Title words kept as names of a tab.
const TITLE_NAMES: usize = 3;

/// Words too common in titles to name a tab by.
const PLAIN_WORDS: &[&str] = &[
    "about", "from", "home", "inbox", "into", "page", "that", "this", "what", "when", "with",
    "your", "their", "there", "which", "where",
];

/// What a tab is called in a command, spelled as its title spells it: the
/// site ("Gmail" for mail.google.com, "YouTube"), the site a title names at
/// its end ("Sprint board - Jira" on a self-hosted Jira), and the first
/// words of the title ("the cats tab" for "Cats compilation - YouTube").
fn tab_names(title: &str, url: &str) -> Vec<String> {
    let mut names = Vec::new();
    match sites::site_of(url) {
        Some(site) => names.push(site.display.to_string()),
        None => names.extend(site_name(title, url)),
    }
    let separators = ['|', '-', '–', '—', '·', ':'];
    let mut page = title;
    if let Some(last) = title
        .rsplit([' ', '|', '-', '–', '—', '·'])
        .find(|w| !w.is_empty())
    {
        let before = title.trim_end_matches(last).trim_end();
        if before.ends_with(separators) && last.chars().all(char::is_alphanumeric) {
            names.push(last.to_string());
            page = before.trim_end_matches(separators);
        }
    }
    let words = page
        .split(|c: char| c.is_whitespace() || separators.contains(&c) || c == '/')
        .filter(|w| w.chars().count() >= 4 && w.chars().all(char::is_alphabetic))
        .filter(|w| !PLAIN_WORDS.contains(&w.to_lowercase().as_str()));
    names.extend(words.take(TITLE_NAMES).map(str::to_string));
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_come_first_spelled_as_their_titles_spell_them() {
        let p = prompt([
            ("Funny cats - YouTube", "https://www.youtube.com/watch?v=1"),
            (
                "rust-lang/rust: Empowering everyone",
                "https://github.com/rust-lang/rust",
            ),
            (
                "Inbox (3) - me@example.com - Gmail",
                "https://mail.google.com/mail/u/0",
            ),
            ("BBC News", "https://www.bbc.co.uk/news"),
            ("New Tab", "about:newtab"),
        ]);
        assert!(
            p.starts_with("YouTube, Github, Google, BBC, Funny cats YouTube"),
            "{p}"
        );
        assert!(p.contains("New Tab"), "{p}");
    }

    #[test]
    fn each_phrase_once_and_the_whole_bounded() {
        let tabs: Vec<(String, String)> = (0..500)
            .map(|i| {
                (
                    format!("Page number {i} of many"),
                    format!("https://site{i}.example/"),
                )
            })
            .collect();
        let p = prompt(tabs.iter().map(|(t, u)| (t.as_str(), u.as_str())));
        assert!(p.chars().count() <= MAX_CHARS);
        assert!(p.starts_with("Site0, Site1"), "{p}");
        let same = prompt([
            ("Docs", "https://a.example/"),
            ("Docs", "https://a.example/x"),
        ]);
        assert_eq!(same, "A, Docs");
        assert_eq!(prompt(std::iter::empty()), "");
    }

    #[test]
    fn phrases_name_the_open_tabs_and_groups() {
        let phrases = command_phrases(
            [
                (
                    "Dogs at the beach - YouTube",
                    "https://www.youtube.com/watch?v=1",
                ),
                ("Sprint board - Jira", "https://tracker.example.com/board"),
                ("Inbox - Gmail", "https://mail.google.com/mail/u/0"),
            ],
            ["News"],
        );
        for said in [
            "undo",
            "close the YouTube tab",
            "switch to Jira",
            "unpin Gmail",
            "make the News group red",
            "group Jira and Gmail",
            "switch to tab three",
            // Addresses as Whisper writes them spoken: known sites' and the
            // tabs' domains.
            "open github.com",
            "open example.com",
        ] {
            assert!(phrases.iter().any(|p| p == said), "{said}");
        }
        assert!(!phrases.iter().any(|p| p.contains('{')));
        assert!(!phrases.iter().any(|p| p == "group Jira and Jira"));
        // No tabs, no groups: the fixed phrases and the sites to open.
        let bare = command_phrases(std::iter::empty(), std::iter::empty());
        assert!(bare.iter().any(|p| p == "open YouTube"));
        assert!(!bare.iter().any(|p| p.contains("close the  tab")));
    }

    #[test]
    fn every_phrase_means_something_to_the_interpreter() {
        use crate::interpret::{plan, Options};
        let state: crate::tab_state::State =
            serde_json::from_str(include_str!("../../../tests/speech/state.json")).unwrap();
        let phrases = command_phrases(
            state
                .tabs
                .iter()
                .map(|t| (t.title.as_str(), t.url.as_str())),
            state.groups.iter().map(|g| g.title.as_str()),
        );
        assert!(phrases.len() > 200, "{}", phrases.len());
        assert!(phrases.len() <= MAX_PHRASES);
        let unknown: Vec<&String> = phrases
            .iter()
            .filter(|p| {
                let planned = plan(p, &state, &Options::default());
                planned.error == Some(ext_protocol::ErrorCode::UnknownCommand)
            })
            .collect();
        assert!(unknown.is_empty(), "{unknown:?}");
    }

    #[test]
    fn odd_addresses_and_titles_do_not_break_it() {
        let p = prompt([
            ("", "http://127.0.0.1:8000/"),
            ("  ", "not a url"),
            ("🦊 Ünïcödé title here now", "https://xn--nxasmq6b.example/"),
            ("x", "file:///tmp/a"),
        ]);
        assert!(p.contains("🦊 Ünïcödé title here"), "{p}");
        assert!(!p.contains("127"), "{p}");
    }
}
