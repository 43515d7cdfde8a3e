//! "undo that", "put it back", "reopen the tab I just closed": the
//! background page reverts the newest change.

use super::intent::Intent;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["undo", "revert", "oops", "reopen", "restore", "unclose"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "undo",
    "undo that",
    "reopen the tab I just closed",
    "reopen the last tab",
];

pub fn parse(w: Words) -> Parsed {
    Ok(undo(w))
}

/// "reopen the tab I just closed", "restore them", "reopen last tab".
fn reopen(w: Words) -> bool {
    let Some(rest) = verb(w, &[&["reopen"], &["restore"], &["unclose"]]) else {
        return false;
    };
    mentions(rest, &["closed", "last"])
        || all_in(rest, &["it", "them", "that", "those", "tab", "tabs", "the"])
}

fn undo(w: Words) -> Option<Intent> {
    let undo = w[0] == "undo"
        || w[0] == "revert"
        || w[0] == "oops"
        || is(w, &["put", "it", "back"])
        || is(w, &["put", "them", "back"])
        || is(w, &["bring", "it", "back"])
        || is(w, &["bring", "them", "back"])
        || is(w, &["take", "that", "back"])
        || reopen(w);
    undo.then_some(Intent::Undo)
}
