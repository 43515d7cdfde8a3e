//! Slips of the keyboard in a typed command: "clsoe youtube", "swtich
//! to jira", "close all tbas". Only words that are neither a command word
//! nor part of an open tab's title or address are mended, and only to a
//! command word one slip away (see [`text::close_enough`]).

use super::parse;
use super::text;
use crate::tab_state::State;

/// Words of commands besides their verbs.
const COMMAND_WORDS: &[&str] = &[
    "tab",
    "tabs",
    "window",
    "windows",
    "group",
    "groups",
    "all",
    "every",
    "everything",
    "other",
    "others",
    "except",
    "right",
    "left",
    "first",
    "last",
    "next",
    "previous",
    "these",
    "this",
];

/// The words with each slip mended, if any was.
pub(super) fn mended(words: &[String], state: &State) -> Option<Vec<String>> {
    let known: Vec<&str> = parse::command_verbs()
        .chain(COMMAND_WORDS.iter().copied())
        .collect();
    let titled = |w: &str| {
        (state.tabs.iter()).any(|t| t.title.to_lowercase().contains(w) || t.url.contains(w))
    };
    let mut changed = false;
    let mended = (words.iter())
        .map(|w| {
            let as_is = known.contains(&w.as_str()) || w.chars().count() < 4 || titled(w);
            match known.iter().find(|k| !as_is && text::close_enough(w, k)) {
                Some(k) => {
                    changed = true;
                    k.to_string()
                }
                None => w.clone(),
            }
        })
        .collect();
    changed.then_some(mended)
}
