//! Tabs and bookmarks by the names said of them: sites by their names,
//! words of titles and addresses, typos and sound-alikes allowed where
//! the exact words match nothing.

use super::super::parse::{all_in, FUNCTION_WORDS};
use super::super::sites::{self, host_and_path};
use super::super::sounds::sound_distance;
use super::super::text::close_enough;
use crate::tab_state::{Bookmark, State, Tab};

pub(super) fn name_label(words: &[String]) -> String {
    let joined = words.join(" ");
    sites::by_name(&joined)
        .or_else(|| sites::by_name(&words.concat()))
        .map(|s| s.display.to_string())
        .unwrap_or(joined)
}

/// Lower-case words of a title or URL.
pub fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// "close news" with a group titled "News": its tabs, unless the words name a
/// known site that is open ("youtube" is every YouTube tab, grouped or not).
pub(super) fn group_named(state: &State, words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    let name = words.join(" ");
    if !match_site_by_name(&name, tabs).is_empty() {
        return Vec::new();
    }
    let Some(group) = state
        .groups
        .iter()
        .find(|g| g.title.eq_ignore_ascii_case(&name))
    else {
        return Vec::new();
    };
    tabs.iter()
        .filter(|t| t.group_id == group.id)
        .map(|t| t.id)
        .collect()
}

/// Tabs of the known site called `name`, if there is one.
fn match_site_by_name(name: &str, tabs: &[&Tab]) -> Vec<i64> {
    let compact = name.replace(' ', "");
    sites::by_name(name)
        .or_else(|| sites::by_name(&compact))
        .map(|site| {
            tabs.iter()
                .filter(|t| sites::hosts(site, &t.url))
                .map(|t| t.id)
                .collect()
        })
        .unwrap_or_default()
}

/// Tabs of the sites that each word names, when every word names one
/// ("slack jira"); nothing otherwise. Only sites and domains count: title
/// words said in a row belong together.
pub(super) fn match_each_site(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    let mut all = Vec::new();
    for id in sites_of_each_word(words, tabs)
        .into_iter()
        .flatten()
        .flatten()
    {
        if !all.contains(&id) {
            all.push(id);
        }
    }
    all
}

/// Whether a name's words are each another site's and not one tab's
/// ("trello guardian"): several tabs, where one was wanted.
pub fn names_several_sites(words: &[String], tabs: &[&Tab]) -> bool {
    sites_of_each_word(words, tabs).is_some_and(|each| each.iter().any(|found| *found != each[0]))
        && match_tabs(words, tabs).is_empty()
}

/// The tabs of the site each of two or more words names, if every word
/// names one.
fn sites_of_each_word(words: &[String], tabs: &[&Tab]) -> Option<Vec<Vec<i64>>> {
    if words.len() < 2 {
        return None;
    }
    words
        .iter()
        .map(|w| Some(match_site(std::slice::from_ref(w), tabs)).filter(|found| !found.is_empty()))
        .collect()
}

/// Tabs of a known site ("gmail", "hacker news") or a domain or host label
/// ("bbc.co.uk", "kayak").
fn match_site(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    let compact = words.concat();
    let found = match_site_by_name(&words.join(" "), tabs);
    if !found.is_empty() {
        return found;
    }
    tabs.iter()
        .filter(|t| {
            let (host, _) = host_and_path(&t.url);
            if compact.contains('.') {
                host == compact || host.ends_with(&format!(".{compact}"))
            } else {
                host.split('.').any(|label| label == compact)
            }
        })
        .map(|t| t.id)
        .collect()
}

/// Tabs a name refers to, best kind of match only: a known site or domain,
/// else all words in the title or address, else the same with typos.
pub fn match_tabs(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    // "r/rust" is the words of a title ("r", "rust"), unless it is an address.
    let words: Vec<String> = words
        .iter()
        .flat_map(|w| {
            if w.contains('/') && !w.contains('.') {
                w.split('/')
                    .filter(|x| !x.is_empty())
                    .map(str::to_string)
                    .collect()
            } else {
                vec![w.clone()]
            }
        })
        .collect();
    let words = words.as_slice();
    let compact = words.concat();
    // A known site ("gmail", "hacker news"), a domain or a host label.
    let found = match_site(words, tabs);
    if !found.is_empty() {
        return found;
    }
    // "do" names nothing, though "How do I exit Vim?" has it: it is a
    // misheard word ("switch to tab do"), not a tab.
    if all_in(words, FUNCTION_WORDS) {
        return Vec::new();
    }
    // Every word in the title or URL.
    let haystacks: Vec<(i64, Vec<String>)> = tabs
        .iter()
        .map(|t| {
            let mut w = words_of(&t.title);
            w.extend(words_of(&t.url));
            (t.id, w)
        })
        .collect();
    let exact: Vec<i64> = haystacks
        .iter()
        .filter(|(_, hay)| words.iter().all(|w| word_in(w, hay, false)))
        .map(|(id, _)| *id)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    // A known site misspelt: "youtub".
    if let Some(site) = sites::SITES.iter().find(|s| {
        s.names
            .iter()
            .any(|n| n.len() >= 4 && close_enough(&compact, n))
    }) {
        let found: Vec<i64> = tabs
            .iter()
            .filter(|t| sites::hosts(site, &t.url))
            .map(|t| t.id)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    let misspelt: Vec<i64> = haystacks
        .iter()
        .filter(|(_, hay)| words.iter().all(|w| word_in(w, hay, true)))
        .map(|(id, _)| *id)
        .collect();
    if !misspelt.is_empty() {
        return misspelt;
    }
    // A word heard as another that sounds the same ("the rest docs" for
    // the Rust docs), vouched for by another word of the same tab heard
    // as it is. Alone, a word that sounds like a title's word names
    // nothing: "the rest tab" is not r/rust.
    haystacks
        .iter()
        .filter(|(_, hay)| {
            words.len() >= 2
                && words
                    .iter()
                    .any(|w| w.chars().count() >= 3 && word_in(w, hay, false))
                && words
                    .iter()
                    .all(|w| word_in(w, hay, true) || sounds_like_one_of(w, hay))
        })
        .map(|(id, _)| *id)
        .collect()
}

fn sounds_like_one_of(word: &str, hay: &[String]) -> bool {
    hay.iter()
        .any(|h| h.chars().count() >= 3 && sound_distance(word, h).is_some())
}

/// Whether a spoken word is among the words, as a whole word, a plural, or
/// (with `typos`) misspelt.
pub(super) fn word_in(word: &str, hay: &[String], typos: bool) -> bool {
    let singular = word.strip_suffix('s').filter(|s| s.len() >= 3);
    hay.iter().any(|h| {
        h == word
            || Some(h.as_str()) == singular
            || h.strip_suffix('s') == Some(word)
            || (typos && close_enough(word, h))
    })
}

/// Bookmarks whose title or address has all the words (typos allowed).
pub fn match_bookmarks<'a>(words: &[String], bookmarks: &'a [Bookmark]) -> Vec<&'a Bookmark> {
    let words: Vec<String> = words
        .iter()
        .filter(|w| !["my", "the", "bookmark", "bookmarks", "page", "site"].contains(&w.as_str()))
        .cloned()
        .collect();
    for typos in [false, true] {
        let found: Vec<&Bookmark> = bookmarks
            .iter()
            .filter(|b| {
                let mut hay = words_of(&b.title);
                hay.extend(words_of(&b.url));
                hay.extend(words_of(&b.folder));
                !words.is_empty() && words.iter().all(|w| word_in(w, &hay, typos))
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}
