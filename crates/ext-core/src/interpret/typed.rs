//! Typed commands: planned as they are, else with the slips of the
//! keyboard mended ("clsoe youtube", "swtich to jira", "close all tbas").
//! Only words that are neither a command word nor part of an open tab's
//! title or address are mended, and only to a command word one slip away
//! (see [`text::close_enough`]).

use super::{parse, plan_words, read_as, text, Options, Plan};
use crate::error::ErrorCode;
use crate::tab_state::State;

/// Plans a typed command against a snapshot of the browser. A command
/// that means nothing as typed is read again with slips of the keyboard
/// mended ("clsoe youtube"), and taken as that if it means something.
pub fn plan(input: &str, state: &State, options: &Options) -> Plan {
    let first = plan_words(input, state, options);
    if !matches!(
        first.error,
        Some(ErrorCode::UnknownCommand | ErrorCode::NotFound)
    ) {
        return first;
    }
    let Some(meant) = mended(&text::words(input), state) else {
        return first;
    };
    let meant = meant.join(" ");
    let mended = plan_words(&meant, state, options);
    if mended.error.is_some() {
        return first;
    }
    read_as("Read", &meant, mended)
}

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
fn mended(words: &[String], state: &State) -> Option<Vec<String>> {
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
