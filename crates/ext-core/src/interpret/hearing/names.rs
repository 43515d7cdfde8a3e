//! The names people call the open tabs and groups by, and words heard for
//! them matched by sound ("jithab" for GitHub).

use crate::interpret::sites;
use crate::interpret::sounds::sound_distance;
use crate::tab_state::State;

/// Words that are never a name to fix by sound.
const NOT_NAMES: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "my",
    "all",
    "every",
    "tab",
    "tabs",
    "to",
    "in",
    "on",
    "of",
    "for",
    "and",
    "or",
    "with",
    "group",
    "groups",
    "window",
    "windows",
    "other",
    "close",
    "switch",
    "go",
    "open",
    "mute",
    "unmute",
    "pin",
    "unpin",
    "reload",
    "discard",
    "duplicate",
    "bookmark",
    "move",
    "search",
    "it",
    "is",
    "site",
    "page",
    "new",
    "start",
    "end",
    "left",
    "right",
    "except",
    "but",
    "not",
    "playing",
    "what",
    "which",
    "how",
    "many",
    "do",
    "i",
    "have",
    "by",
    "me",
    "up",
    "down",
    "back",
    "top",
    "bottom",
    "next",
    "previous",
    "last",
    "first",
    "yes",
    "no",
    "undo",
    "please",
    "red",
    "blue",
    "green",
];

/// One-word names of the open tabs' sites and groups (how people say them).
pub fn names(state: &State) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = name.to_lowercase();
        if name.chars().count() >= 3 && !names.contains(&name) {
            names.push(name);
        }
    };
    for t in &state.tabs {
        match sites::site_of(&t.url) {
            Some(site) => {
                for n in site.names.iter().filter(|n| !n.contains(' ')) {
                    add(n);
                }
            }
            None => add(&sites::display_name(&t.url)),
        }
        // The site a title names at its end ("Sprint board - Jira", "general
        // | Acme - Slack"): what people call a tab when its address does
        // not say (a self-hosted Jira).
        if let Some(site) = t
            .title
            .rsplit([' ', '|', '-', '–', '—', '·'])
            .find(|w| !w.is_empty())
        {
            let titled = t.title.trim_end_matches(site).trim_end();
            if titled.ends_with(['-', '|', '–', '—', '·'])
                && site.chars().all(char::is_alphanumeric)
            {
                add(site);
            }
        }
        // A title that spells the site's address in words ("The Verge" at
        // theverge.com) is its name: people say its last word.
        let spelled: String = t.title.split_whitespace().collect();
        if spelled.eq_ignore_ascii_case(&sites::display_name(&t.url)) {
            if let Some(last) = t.title.split_whitespace().last() {
                add(last);
            }
        }
    }
    for g in &state.groups {
        for w in g.title.split_whitespace() {
            add(w);
        }
    }
    names
}

/// Candidates with one run of up to three words replaced by a name that
/// sounds like it, closest first: a sound key may be one edit off for four
/// to six sounds, two for seven or more, none when shorter ("jithab" and
/// "github", "yira" and "jira" are near; "slack" and "stack" are not).
pub fn by_sound(words: &[String], names: &[String]) -> Vec<(f32, Vec<String>)> {
    let mut found: Vec<(f32, Vec<String>)> = Vec::new();
    for start in 0..words.len() {
        for len in 1..=3.min(words.len() - start) {
            let span = &words[start..start + len];
            // A name may be heard as several words ("spoke of my" for
            // Spotify): small words inside, but it starts on a word that
            // can be a name, and never takes in "tab" or "group".
            let small =
                |w: &String| ["i", "a", "my", "of", "the", "to", "for"].contains(&w.as_str());
            let edge_ok = |w: &String, last: bool| {
                !NOT_NAMES.contains(&w.as_str()) || (last && len > 1 && small(w))
            };
            // A name heard right stays.
            if span.iter().any(|w| names.contains(w)) {
                continue;
            }
            if !edge_ok(&span[0], false)
                || !edge_ok(&span[len - 1], true)
                || span
                    .iter()
                    .any(|w| ["tab", "tabs", "group", "window"].contains(&w.as_str()))
            {
                continue;
            }
            let heard = span.concat();
            // "Switch to Chat" for ChatGPT: Whisper writes the part of a
            // run-together name that is a word, and drops the rest. The
            // start of one name alone, and long enough, is as sure as a
            // name that sounds the same.
            if let [only] = starting_with(&heard, names).as_slice() {
                let mut candidate = words[..start].to_vec();
                candidate.push((*only).clone());
                candidate.extend_from_slice(&words[start + len..]);
                found.push((0.0, candidate));
            }
            for name in names {
                if let Some(distance) = sound_distance(&heard, name) {
                    let mut candidate = words[..start].to_vec();
                    candidate.push(name.clone());
                    candidate.extend_from_slice(&words[start + len..]);
                    found.push((distance, candidate));
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    found
}

/// The names that start with `heard` and go on for two letters or more,
/// when it has four letters or more.
pub(super) fn starting_with<'a>(heard: &str, names: &'a [String]) -> Vec<&'a String> {
    if heard.chars().count() < 4 {
        return Vec::new();
    }
    names
        .iter()
        .filter(|n| n.starts_with(heard) && n.len() >= heard.len() + 2)
        .collect()
}
