//! Which window some words mean: "in this window", "window 2", "the
//! second window", "outside window 2", "in the other windows".

use super::super::text::{number, ordinal};
use super::intent::Scope;
use super::words::*;

pub fn scope_of(w: Words) -> Option<Scope> {
    // "outside window 2", "outside this window": every other window.
    let outside = |at: usize| {
        w[..at]
            .iter()
            .rev()
            .find(|x| *x != "the" && *x != "of")
            .is_some_and(|x| x == "outside")
    };
    let this_window = [
        &["this", "window"],
        &["current", "window"],
        &["same", "window"],
    ]
    .iter()
    .find_map(|said| find_seq(w, *said));
    if let Some((n, at)) = numbered_window(w) {
        Some(match (outside(at.start), also_numbered(w, at.start + 2)) {
            (false, Some((second, _))) if second != n => Scope::Windows(n, second),
            (true, _) => Scope::OutsideWindow(n),
            _ => Scope::Window(n),
        })
    } else if let Some(at) = this_window {
        Some(if outside(at) {
            Scope::OtherWindows
        } else {
            Scope::ThisWindow
        })
    } else if find_seq(w, &["other", "window"]).is_some()
        || find_seq(w, &["other", "windows"]).is_some()
    {
        Some(Scope::OtherWindows)
    } else {
        None
    }
}

/// "window 2", "window two", "the second window": its number, and where
/// those words are ("windows 2 and 3" and "window 2 and window 3"
/// included: see [`also_numbered`]).
pub(super) fn numbered_window(w: Words) -> Option<(i64, std::ops::Range<usize>)> {
    let numbered = |at: usize| w.get(at + 1).and_then(|x| number(x.trim_end_matches("'s")));
    // "windows 2 and 3": plural only with a second number after it.
    let at = (w.iter().enumerate())
        .position(|(i, x)| x == "window" || x == "windows" && also_numbered(w, i + 2).is_some())?;
    // "window 3's youtube tabs" as well as "window 3".
    if let Some(n) = numbered(at) {
        let end = also_numbered(w, at + 2).map_or(at + 2, |(_, end)| end);
        return (n >= 1).then_some((n, at..end));
    }
    if w[at] == "windows" {
        return None;
    }
    let before = at.checked_sub(1)?;
    ordinal(&w[before]).map(|n| (n, before..at + 1))
}

/// "… and 3", "… and window 3" right after a numbered window: the
/// second window's number, and where its words end.
fn also_numbered(w: Words, at: usize) -> Option<(i64, usize)> {
    if !["and", "or", "&", "plus"].contains(&w.get(at)?.as_str()) {
        return None;
    }
    let after = at + 1 + usize::from(w.get(at + 1).is_some_and(|x| x == "window"));
    let n = number(w.get(after)?.trim_end_matches("'s")).filter(|n| *n >= 1)?;
    Some((n, after + 1))
}

/// The words that lead a window said as a scope: "in window 2".
const SCOPE_LEADS: &[&str] = &["in", "from", "on", "of", "outside"];

/// Removes "in this window", "from window 2" and the like from the words.
pub fn without_scope(w: Words) -> Vec<String> {
    if let Some((_, at)) = numbered_window(w) {
        // With the word that leads it: "from window 2", "in the second window".
        let lead = w[..at.start]
            .iter()
            .rposition(|x| !["the"].contains(&x.as_str()))
            .filter(|i| SCOPE_LEADS.contains(&w[*i].as_str()) && *i + 2 >= at.start);
        let start = lead.unwrap_or(at.start);
        let rest: Vec<String> = w[..start].iter().chain(&w[at.end..]).cloned().collect();
        return without_scope(&rest);
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        let lead = SCOPE_LEADS.contains(&w[i].as_str());
        let skip = if lead {
            let after = strip_articles(&w[i + 1..]);
            let consumed = w.len() - i - 1 - after.len();
            if starts(after, &["other", "windows"]).is_some()
                || starts(after, &["other", "window"]).is_some()
                || starts(after, &["current", "window"]).is_some()
                || starts(after, &["same", "window"]).is_some()
            {
                Some(1 + consumed + 2)
            } else if starts(after, &["window"]).is_some() {
                Some(1 + consumed + 1)
            } else {
                None
            }
        } else if w[i] == "other"
            && w.get(i + 1)
                .is_some_and(|x| x == "window" || x == "windows")
        {
            // "the other window's youtube tabs" (the "'s" gone by then).
            Some(2)
        } else {
            None
        };
        match skip {
            Some(n) => i += n,
            None => {
                out.push(w[i].clone());
                i += 1;
            }
        }
    }
    out
}
