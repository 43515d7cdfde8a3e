//! "close all but one amazon tab", "close the youtube tabs except two":
//! how many of some tabs are kept, said as a count.

use super::super::text::{number, ordinal};
use super::intent::{Position, Selector, Target};
use super::target::{target, EXCEPT};
use super::words::*;

/// Only says how many: "all", "every", "everything".
const ALL: &[&str] = &["all", "every", "everything", "each", "of", "the", "my"];

/// "all but one amazon tab", "all but two of the youtube tabs" (the tabs
/// described, the first so many of them kept), "all the amazon tabs but
/// one" (the same). A place ("all but the last reddit tab") is not a
/// count and is read as said: every tab but that one.
pub(super) fn kept_count(w: &[String]) -> Option<Target> {
    // The words that leave tabs out and can be followed by a count: not
    // the negations ("not", "aren't"), which say which tabs.
    const NEGATIONS: &[&str] = &["not", "aren't", "isn't", "arent", "isnt"];
    let negation = |e: &[&str]| e.iter().any(|x| NEGATIONS.contains(x));
    let (i, e) = (EXCEPT.iter())
        .filter(|e| !negation(e))
        .find_map(|e| Some((find_seq(w, e)?, e.len())))?;
    let (main, left_out) = (&w[..i], strip_leading(&w[i + e..], &["keep", "leave"]));
    let (first, described) = left_out.split_first()?;
    let n = number(first).filter(|n| *n >= 1 && ordinal(first).is_none())?;
    let described = strip_leading(described, &["of", "the", "my", "those"]);
    let names = |w: &[String]| w.iter().any(|x| !STOP_WORDS.contains(&x.as_str()));
    // "all but one amazon tab" describes the tabs after the count; "the
    // amazon tabs but one" before it.
    let said = if !main.is_empty() && all_in(main, ALL) && names(described) {
        described
    } else if all_in(described, &["tab", "tabs", "one", "ones"]) && names(main) {
        main
    } else {
        return None;
    };
    let tabs = target(said);
    tabs.except.is_none().then_some(Target {
        except: Some(Selector::Positions(vec![Position::First(n)])),
        ..tabs
    })
}

/// Words that say tabs without naming any.
const STOP_WORDS: &[&str] = &[
    "all",
    "every",
    "everything",
    "each",
    "of",
    "the",
    "my",
    "tab",
    "tabs",
    "one",
    "ones",
    "open",
    "other",
    "others",
];
