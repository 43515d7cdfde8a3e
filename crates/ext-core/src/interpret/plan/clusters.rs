//! Grouping without a language model: by site, or by topic from the words
//! of titles and addresses. Short names, distinct colors, no one-tab
//! groups, pinned and already-grouped tabs left alone.

use crate::interpret::resolve::words_of;
use crate::interpret::sites::{self, host_and_path};
use crate::tab_state::{Color, State, Tab};
use std::collections::{BTreeMap, HashMap};

/// A group to make: its title, color and tabs (all in one window).
#[derive(Debug, Clone, PartialEq)]
pub struct NewGroup {
    pub title: String,
    pub color: Color,
    pub tab_ids: Vec<i64>,
    /// An existing group with that title in the window, to add to instead.
    pub existing: Option<i64>,
}

fn candidates(state: &State) -> BTreeMap<i64, Vec<&Tab>> {
    let mut by_window: BTreeMap<i64, Vec<&Tab>> = BTreeMap::new();
    for t in state.tabs.iter().filter(|t| !t.pinned && !t.is_grouped()) {
        by_window.entry(t.window_id).or_default().push(t);
    }
    for tabs in by_window.values_mut() {
        tabs.sort_by_key(|t| t.index);
    }
    by_window
}

/// Colors not yet used in the window come first.
fn colors_for(state: &State, window: i64) -> impl Iterator<Item = Color> {
    let used: Vec<Color> = state
        .groups
        .iter()
        .filter(|g| g.window_id == window)
        .map(|g| g.color)
        .collect();
    let mut order: Vec<Color> = Color::ALL
        .iter()
        .copied()
        .filter(|c| !used.contains(c))
        .collect();
    order.extend(Color::ALL.iter().copied().filter(|c| used.contains(c)));
    order.into_iter().cycle()
}

fn existing(state: &State, window: i64, title: &str) -> Option<i64> {
    state
        .groups
        .iter()
        .find(|g| g.window_id == window && g.title.eq_ignore_ascii_case(title))
        .map(|g| g.id)
}

/// One group per site with two or more tabs, per window.
pub fn by_site(state: &State) -> Vec<NewGroup> {
    let mut out = Vec::new();
    for (window, tabs) in candidates(state) {
        let mut buckets: Vec<(String, Vec<i64>)> = Vec::new();
        for t in tabs {
            if !(t.url.starts_with("http://") || t.url.starts_with("https://")) {
                continue;
            }
            let name = sites::site_key(&t.url);
            match buckets.iter_mut().find(|(n, _)| *n == name) {
                Some((_, ids)) => ids.push(t.id),
                None => buckets.push((name, vec![t.id])),
            }
        }
        let mut colors = colors_for(state, window);
        for (_, ids) in buckets.into_iter().filter(|(_, ids)| ids.len() >= 2) {
            let title = sites::display_name(
                &state
                    .tabs
                    .iter()
                    .find(|t| t.id == ids[0])
                    .map(|t| t.url.clone())
                    .unwrap_or_default(),
            );
            let existing = existing(state, window, &title);
            let color = colors.next().unwrap_or(Color::Blue);
            out.push(NewGroup {
                title,
                color,
                tab_ids: ids,
                existing,
            });
        }
    }
    out
}

/// Words that say nothing about a topic.
const STOPWORDS: &[&str] = &[
    "the",
    "and",
    "for",
    "with",
    "you",
    "your",
    "how",
    "what",
    "why",
    "when",
    "who",
    "are",
    "was",
    "this",
    "that",
    "from",
    "into",
    "about",
    "new",
    "all",
    "not",
    "but",
    "can",
    "our",
    "out",
    "its",
    "it's",
    "use",
    "using",
    "get",
    "one",
    "two",
    "page",
    "home",
    "index",
    "html",
    "htm",
    "php",
    "www",
    "com",
    "org",
    "net",
    "http",
    "https",
    "watch",
    "wiki",
    "search",
    "edit",
    "view",
    "main",
    "welcome",
    "login",
    "sign",
    "inbox",
    "untitled",
    "tab",
    "news",
    "blog",
    "docs",
    "doc",
    "com",
    "amp",
    "utm",
    "source",
    "ref",
    "best",
    "top",
    "guide",
    "introduction",
    "intro",
    "part",
    "chapter",
    "vs",
    "via",
    "more",
    "less",
    "free",
    "online",
    "official",
    "site",
    "app",
    "video",
    "videos",
    "post",
    "posts",
    "article",
    "articles",
    "de",
    "en",
    "la",
    "le",
    "le",
    "of",
    "to",
    "in",
    "on",
    "at",
    "by",
    "an",
    "is",
    "or",
    "as",
    "be",
    "do",
    "my",
    "me",
    "we",
    "us",
    "it",
];

/// Page words a tab adds at most (the first of its description, keywords
/// and heading): enough to place it, too few to drown its title.
const PAGE_WORDS: usize = 12;

/// The topic words of a tab: title and path words, then the first words of
/// what its page says (if it was read), without stopwords, numbers, or the
/// name of its own site.
fn topic_words(t: &Tab, page: Option<&String>) -> Vec<String> {
    let (host, path) = host_and_path(&t.url);
    let site_words: Vec<String> = host.split('.').map(str::to_string).collect();
    let site_name = sites::site_of(&t.url).map(|s| s.display.to_lowercase());
    let mut words: Vec<String> = words_of(&t.title);
    words.extend(words_of(&path));
    let own = words.len();
    words.extend(page.map(|p| words_of(p)).unwrap_or_default());
    let mut out: Vec<String> = Vec::new();
    let mut from_page = 0;
    for (i, w) in words.into_iter().enumerate() {
        if i >= own && from_page >= PAGE_WORDS {
            break;
        }
        let w = stem(&w);
        if w.len() < 3
            || w.chars().all(|c| c.is_ascii_digit())
            || STOPWORDS.contains(&w.as_str())
            || site_words.contains(&w)
            || site_name.as_deref() == Some(w.as_str())
            || out.contains(&w)
        {
            continue;
        }
        if i >= own {
            from_page += 1;
        }
        out.push(w);
    }
    out
}

/// A light plural stem, so "recipes" and "recipe" meet.
fn stem(w: &str) -> String {
    if w.len() > 4 && w.ends_with("ies") {
        format!("{}y", &w[..w.len() - 3])
    } else if w.len() > 3 && w.ends_with('s') && !w.ends_with("ss") && !w.ends_with("us") {
        w[..w.len() - 1].to_string()
    } else {
        w.to_string()
    }
}

/// Groups by shared topic words: the word most tabs share makes a group,
/// then the next among the tabs left, while a word is shared by two or more.
pub fn by_topic(state: &State) -> Vec<NewGroup> {
    let mut out = Vec::new();
    for (window, tabs) in candidates(state) {
        let mut left: Vec<(i64, Vec<String>)> = tabs
            .iter()
            .map(|t| (t.id, topic_words(t, state.pages.get(&t.id))))
            .collect();
        let mut colors = colors_for(state, window);
        loop {
            let mut counts: HashMap<&str, usize> = HashMap::new();
            for (_, words) in &left {
                for w in words {
                    *counts.entry(w.as_str()).or_default() += 1;
                }
            }
            // Most tabs first; then the longer, then the alphabetically first word.
            let best = counts
                .into_iter()
                .filter(|(_, n)| *n >= 2)
                .max_by(|a, b| {
                    a.1.cmp(&b.1)
                        .then(a.0.len().cmp(&b.0.len()))
                        .then(b.0.cmp(a.0))
                })
                .map(|(w, _)| w.to_string());
            let Some(word) = best else { break };
            let ids: Vec<i64> = left
                .iter()
                .filter(|(_, ws)| ws.contains(&word))
                .map(|(id, _)| *id)
                .collect();
            left.retain(|(id, _)| !ids.contains(id));
            // As the titles spell it: "WebGPU", not "Webgpu".
            let grouped: Vec<&Tab> = (state.tabs.iter())
                .filter(|t| ids.contains(&t.id))
                .collect();
            let title = super::groups::spelled_as_in(&word, &grouped);
            out.push(NewGroup {
                existing: existing(state, window, &title),
                title,
                color: colors.next().unwrap_or(Color::Blue),
                tab_ids: ids,
            });
        }
    }
    out
}
