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

/// The words of "the tab I just closed", "the last closed tabs again".
const CLOSED_TAB: &[&str] = &[
    "the", "tab", "tabs", "i", "just", "closed", "last", "again", "that", "those", "recently",
    "my", "most", "you",
];

/// "reopen the tab I just closed", "reopen last tab", "restore the closed
/// tabs": what was closed last comes back, even if other changes came after.
fn reopen(w: Words) -> Option<Intent> {
    if let Some(rest) = verb(w, &[&["reopen"], &["unclose"]]) {
        let closed = mentions(rest, &["closed", "last"])
            || all_in(rest, &["it", "them", "that", "those", "tab", "tabs", "the"]);
        return closed.then_some(Intent::Reopen);
    }
    // "bring back the tab I closed", "open the last closed tab again".
    let closed_by_name = mentions(w, &["closed"])
        && (verb(w, &[&["bring", "back"]]).is_some()
            || verb(w, &[&["open"]]).is_some_and(|rest| all_in(rest, CLOSED_TAB)));
    if closed_by_name {
        return Some(Intent::Reopen);
    }
    let rest = verb(w, &[&["restore"]])?;
    if mentions(rest, &["closed"]) {
        Some(Intent::Reopen)
    } else if mentions(rest, &["last"])
        || all_in(rest, &["it", "them", "that", "those", "tab", "tabs", "the"])
    {
        // "restore it" after a move means put it back.
        Some(Intent::Undo)
    } else {
        None
    }
}

fn undo(w: Words) -> Option<Intent> {
    if let Some(intent) = reopen(w) {
        return Some(intent);
    }
    // "undo the undo" asks for a redo, which there is not (see `beyond`).
    if w[0] == "undo" && w[1..].iter().any(|x| x == "undo") {
        return None;
    }
    let undo = w[0] == "undo"
        || w[0] == "revert"
        || w[0] == "oops"
        || is(w, &["put", "it", "back"])
        || is(w, &["put", "them", "back"])
        || is(w, &["bring", "it", "back"])
        || is(w, &["bring", "them", "back"])
        || is(w, &["take", "that", "back"]);
    undo.then_some(Intent::Undo)
}
