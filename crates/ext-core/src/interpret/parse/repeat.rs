//! "duplicate this tab twice", "open three new tabs": a command that makes
//! tabs, done several times.

use super::super::text::number;
use super::intent::Intent;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[];

/// None among the guided-hearing phrases: a phrase there changes what
/// guided hearing makes of other commands (see docs/speech.md).
pub const PHRASES: &[&str] = &[];

pub fn parse(w: Words) -> Parsed {
    Ok(repeat(w))
}

fn repeat(w: Words) -> Option<Intent> {
    // "open three new tabs", "open 2 blank tabs".
    if let Some([n, kind @ .., tabs]) = verb(w, &[&["open"], &["create"], &["make"]]) {
        let blank = all_in(kind, &["new", "blank", "empty", "fresh"]);
        if let (Some(n), true, "tabs") = (number(n), blank, tabs.as_str()) {
            return Some(Intent::Repeat(Box::new(Intent::NewTab), n));
        }
    }
    // "duplicate jira twice", "duplicate this tab three times".
    let (said, times) = match w {
        [said @ .., last] if last == "twice" => (said, 2),
        [said @ .., n, last] if last == "times" => (said, number(n)?),
        _ => return None,
    };
    let done = super::parse(said).ok()?;
    matches!(done, Intent::Duplicate(_) | Intent::NewTab)
        .then(|| Intent::Repeat(Box::new(done), times))
}
