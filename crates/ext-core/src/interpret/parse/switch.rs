//! Switching: "switch to Gmail", "go to tab 3", "switch to the other
//! window", and a bare name ("jira"), which switches if it names a tab.

use super::super::text::{number, ordinal};
use super::intent::{Intent, NotUnderstood, Selector, Target, WindowRef};
use super::open::url_in;
use super::target::target;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "switch", "go", "goto", "jump", "focus", "select", "activate", "change", "return", "show",
    "find",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "switch to {tab}",
    "go to {tab}",
    "switch to the {tab} tab",
    "go to the {tab} tab",
    "switch to tab {number}",
    "go to tab {number}",
    "go to the last tab",
    "go to the first tab",
    "go to the other window",
    "switch to the other window",
    "go back to the tab I was on",
    "switch back",
];

pub fn parse(w: Words) -> Parsed {
    // "switch back", "go back to the last tab", "the tab I was on".
    if is(w, &["switch", "back"]) {
        return Ok(Some(Intent::Switch(recent())));
    }
    if let Some(rest) = verb(w, SWITCH) {
        let back = w.iter().take(3).any(|x| x == "back" || x == "return");
        if was_on(rest) || back && is_back_to_last(rest) {
            return Ok(Some(Intent::Switch(recent())));
        }
        let rest_stripped = strip_articles(rest);
        if let Some(url) = url_in(rest_stripped) {
            return Ok(Some(Intent::OpenUrl(url)));
        }
        if rest.is_empty() {
            return Err(NotUnderstood(
                "Which tab? Say for example 'switch to Gmail' or 'go to tab 3'.".into(),
            ));
        }
        if let Some(window) = window_ref(rest) {
            return Ok(Some(Intent::SwitchWindow(window)));
        }
        let mut t = target(rest);
        t.singular = true;
        return Ok(Some(Intent::Switch(t)));
    }
    if let Some(window) = starts(w, &["switch"]).and_then(window_ref) {
        return Ok(Some(Intent::SwitchWindow(window)));
    }
    // A bare site or tab name: "gmail", "tab 3".
    if w.len() <= 3 {
        let t = target(w);
        if matches!(t.selector, Selector::Positions(_) | Selector::Named(_)) {
            return Ok(Some(Intent::Bare(Target {
                singular: true,
                ..t
            })));
        }
    }
    Ok(None)
}

fn recent() -> Target {
    Target {
        singular: true,
        ..Target::of(Selector::Recent)
    }
}

/// "the tab I was on", "the last tab I used", "my previous tab".
fn was_on(w: Words) -> bool {
    if is(w, &["my", "previous", "tab"]) || is(w, &["my", "last", "tab"]) {
        return true;
    }
    let w = strip_articles(w);
    // "the tab I was on before", "… a moment ago": said of the same tab.
    const BEFORE: &[&[&str]] = &[
        &["before"],
        &["earlier"],
        &["previously"],
        &["just", "now"],
        &["a", "moment", "ago"],
        &["a", "minute", "ago"],
        &["a", "second", "ago"],
    ];
    let w = BEFORE.iter().find_map(|tail| ends(w, tail)).unwrap_or(w);
    let said = |p: &[&str]| is(w, p);
    said(&["tab", "i", "was", "on"])
        || said(&["tab", "i", "was", "just", "on"])
        || said(&["tab", "i", "was", "using"])
        || said(&["tab", "i", "was", "in"])
        || said(&["last", "tab", "i", "used"])
        || said(&["last", "tab", "i", "was", "on"])
        || said(&["tab", "i", "used", "last"])
        || said(&["last", "used", "tab"])
        || said(&["most", "recent", "tab"])
}

/// After "go back to": "the last tab", "the previous tab", "the previous one".
fn is_back_to_last(w: Words) -> bool {
    let w = strip_articles(w);
    matches!(w, [x, y] if (x == "last" || x == "previous") && (y == "tab" || y == "one"))
}

const SWITCH: &[&[&str]] = &[
    &["switch", "back", "to"],
    &["switch", "over", "to"],
    &["switch", "me", "over", "to"],
    &["switch", "me", "to"],
    &["switch", "to"],
    &["switch"],
    &["go", "back", "to"],
    &["go", "to"],
    &["goto"],
    &["jump", "to"],
    &["take", "me", "to"],
    &["bring", "up"],
    &["bring", "me", "to"],
    &["focus", "on"],
    &["focus"],
    &["select"],
    &["activate"],
    &["change", "to"],
    &["back", "to"],
    &["return", "to"],
    &["i", "want", "to", "see"],
    &["i", "want", "to", "go", "to"],
    &["let", "me", "see"],
    // "I want to see my email", as the words read without "I want to".
    &["see", "my"],
    &["see", "the"],
    &["show", "me"],
    &["show"],
    &["where", "is"],
    &["where's"],
    &["find"],
    &["look", "for"],
    // "check my email", "check slack": look at what is already open.
    &["check", "on"],
    &["check"],
    &["look", "at"],
];

/// "the other window", "window 2", "the second window", "windows".
fn window_ref(w: Words) -> Option<WindowRef> {
    let w = strip_articles(w);
    let (last, before) = w.split_last()?;
    if last == "window" || last == "windows" {
        return match before {
            [] if last == "windows" => Some(WindowRef::Other),
            [x] if x == "other" || x == "next" || x == "previous" => Some(WindowRef::Other),
            [x] => ordinal(x).map(WindowRef::Nth),
            _ => None,
        };
    }
    match w {
        [x, n] if x == "window" => number(n).or_else(|| ordinal(n)).map(WindowRef::Nth),
        _ => None,
    }
}
