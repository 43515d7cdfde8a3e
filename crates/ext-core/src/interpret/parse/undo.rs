//! "undo that", "put it back", "reopen the tab I just closed": the
//! background page reverts the newest change.

use super::intent::Intent;
use super::words::*;
use super::Parsed;
use crate::interpret::text::number;

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
    "my", "most", "you", "page", "pages", "one",
];

/// "reopen the tab I just closed", "reopen last tab", "restore the closed
/// tabs": what was closed last comes back, even if other changes came after.
fn reopen(w: Words) -> Option<Intent> {
    if let Some(rest) = verb(w, &[&["reopen"], &["unclose"]]) {
        // "last" of a time is a page from history: "reopen the webgpu
        // article I read last week".
        let last_of_a_time = mentions(
            rest,
            &[
                "week", "month", "read", "reading", "looked", "visited", "saw", "watched",
            ],
        );
        let closed = mentions(rest, &["closed"])
            || (mentions(rest, &["last"]) && !last_of_a_time)
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

/// "what was the last tab I closed", "which tabs did I just close".
fn asks_what_was_closed(w: Words) -> bool {
    const ASKED: &[&str] = &[
        "was", "were", "is", "the", "last", "tab", "tabs", "i", "just", "closed", "close", "did",
        "have", "recently", "most", "page", "pages", "one", "ones", "that", "you",
    ];
    ["what", "which"].contains(&w[0].as_str())
        && mentions(w, &["closed", "close"])
        && all_in(&w[1..], ASKED)
}

fn undo(w: Words) -> Option<Intent> {
    if asks_what_was_closed(w) {
        return Some(Intent::LastClosed);
    }
    if let Some(intent) = reopen(w) {
        return Some(intent);
    }
    // "undo the undo" asks for a redo, which there is not (see `beyond`).
    if w[0] == "undo" && w[1..].iter().any(|x| x == "undo") {
        return None;
    }
    if let Some(n) = undo_times(w) {
        return Some(Intent::UndoSeveral(n));
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

/// The most changes one command undoes: more is a slip of the tongue.
pub const MOST_UNDONE: usize = 10;

/// "undo twice", "undo three times", "undo the last two changes": how
/// many of the newest changes to revert (2 to `MOST_UNDONE`).
fn undo_times(w: Words) -> Option<usize> {
    let rest = starts(w, &["undo"])?;
    let n = match rest {
        [twice] if twice == "twice" => 2,
        [n, times] if times == "times" => number(n)?,
        _ => {
            let rest = strip_leading(rest, &["the", "my", "last", "previous"]);
            match rest {
                [n, what] if CHANGES.contains(&what.as_str()) => number(n)?,
                _ => return None,
            }
        }
    };
    let n = usize::try_from(n).ok()?;
    (2..=MOST_UNDONE).contains(&n).then_some(n)
}

const CHANGES: &[&str] = &[
    "changes", "things", "actions", "steps", "commands", "moves", "edits",
];
