//! Closing tabs: "close the YouTube tabs", "close all but this one",
//! "close duplicate tabs", "close this window" (which is refused).

use super::super::text::{number, ordinal};
use super::intent::{Intent, Scope, Selector, Target};
use super::target::target_or_active;
use super::window_scope::{scope_of, without_scope};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "close",
    "shut",
    "kill",
    "remove",
    "dismiss",
    "nuke",
    "exit",
    "quit",
    "trash",
    "ditch",
    "dedupe",
    "deduplicate",
    "get",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "close {tab}",
    "close the {tab} tab",
    "close the {tab} tabs",
    "close all the {tab} tabs",
    "close this tab",
    "close the tab that's playing",
    "close the tabs to the right",
    "close the tabs to the left",
    "close the last tab",
    "close duplicate tabs",
    "close the other tabs",
    "close all tabs except this one",
    "close this window",
];

pub fn parse(w: Words) -> Parsed {
    Ok(close(w))
}

const CLOSE: &[&[&str]] = &[
    &["closed"],
    &["close", "out"],
    &["close", "down"],
    &["close"],
    &["shut", "down"],
    &["shut"],
    &["kill"],
    &["get", "rid", "of"],
    &["remove"],
    &["dismiss"],
    &["trash"],
    &["ditch"],
    &["nuke"],
    &["exit"],
    &["quit"],
    &["x", "out"],
    &["lose"],
    // Firefox's own "Delete group" closes its tabs.
    &["delete"],
];

fn close(w: Words) -> Option<Intent> {
    // Duplicates first: "close duplicate tabs", "remove dupes", "deduplicate",
    // "close the tabs I have open twice".
    let dupes = mentions(
        w,
        &[
            "duplicate",
            "duplicates",
            "deduplicate",
            "dedupe",
            "duplicated",
            "twice",
            "doubles",
        ],
    ) || find_seq(w, &["more", "than", "once"]).is_some();
    // "keep one of each duplicate", "keep one copy of each page".
    let one_of_each = verb(w, &[&["keep"], &["leave"], &["only", "keep"]])
        .is_some_and(|rest| starts(rest, &["one"]).is_some() && mentions(rest, &["each"]));
    if (dupes || one_of_each)
        && (verb(w, CLOSE).is_some()
            || one_of_each
            || w[0] == "deduplicate"
            || w[0] == "dedupe"
            || is(w, &["duplicates"]))
    {
        let scope = scope_of(w).unwrap_or(Scope::Everywhere);
        // "close the duplicate youtube tabs": those named, if any are.
        const SAID: &[&str] = &[
            "close",
            "remove",
            "kill",
            "get",
            "rid",
            "of",
            "deduplicate",
            "dedupe",
            "the",
            "all",
            "my",
            "any",
            "every",
            "duplicate",
            "duplicates",
            "duplicated",
            "twice",
            "doubles",
            "tab",
            "tabs",
            "page",
            "pages",
            "that",
            "are",
            "open",
            "more",
            "than",
            "once",
            "copies",
            "copy",
            "extra",
            "i",
            "have",
            "got",
            "which",
            "ones",
            // "… but keep one", "keep one of each".
            "but",
            "keep",
            "leave",
            "only",
            "one",
            "each",
            "original",
            "originals",
        ];
        let said = verb(w, CLOSE).unwrap_or(w);
        let named: Vec<String> = without_scope(said)
            .into_iter()
            .filter(|x| !SAID.contains(&x.as_str()))
            .collect();
        let of = (!named.is_empty()).then(|| super::target::target(&named));
        return Some(Intent::CloseDuplicates { scope, of });
    }
    // "shut up youtube" silences it: a tab action, not a close.
    if starts(w, &["shut", "up"]).is_some() {
        return None;
    }
    if let Some(kept) = keep_only(w) {
        return Some(Intent::Close(kept));
    }
    if let Some(rest) = verb(w, CLOSE) {
        if let Some(t) = whole_window(rest) {
            return Some(Intent::Close(t));
        }
        return Some(Intent::Close(target_or_active(rest)));
    }
    None
}

/// "keep only gmail", "only keep gmail and slack open", "leave only this
/// tab": close the rest,
/// as "close everything except gmail and slack" does.
fn keep_only(w: Words) -> Option<Target> {
    const KEEP_ONLY: &[&[&str]] = &[
        &["keep", "only"],
        &["keep", "just"],
        &["only", "keep"],
        &["just", "keep"],
        &["leave", "only"],
        &["leave", "just"],
    ];
    let rest = verb(w, KEEP_ONLY)?;
    let rest = rest.strip_suffix(&["open".to_string()]).unwrap_or(rest);
    // "just keep playing", "keep going": not a tab named.
    let state_only = all_in(rest, &["playing", "going", "it", "on", "up", "them"]);
    if rest.is_empty() || state_only {
        return None;
    }
    let except: Vec<String> = ["everything", "except"]
        .iter()
        .map(|x| x.to_string())
        .chain(rest.iter().cloned())
        .collect();
    Some(target_or_active(&except))
}

/// "this window", "the whole window", "the other window", "window 2":
/// every tab of it.
fn whole_window(w: Words) -> Option<Target> {
    // "the window with the maps tab", "the window that has jira": a whole
    // window too, which is refused as any is (not the one tab named).
    let with = [
        &["the", "window", "with"][..],
        &["the", "window", "that", "has"],
    ]
    .iter()
    .find_map(|lead| starts(w, lead));
    if with.is_some_and(|named| !named.is_empty()) {
        return Some(Target::of(Selector::WholeWindow));
    }
    if let Some(scope @ (Scope::Window(_) | Scope::Windows(..))) = scope_of(w) {
        let numbered = ["the", "window", "windows", "and", "whole", "entire", "both"];
        let only_the_window = w
            .iter()
            .all(|x| numbered.contains(&x.as_str()) || number(x).is_some() || ordinal(x).is_some());
        if only_the_window {
            return Some(Target {
                scope,
                ..Target::of(Selector::WholeWindow)
            });
        }
    }
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| {
            // "close all tabs in this window" is about tabs, not the window.
            !["the", "this", "current", "whole", "entire", "other", "my"].contains(x)
        })
        .collect();
    if content != ["window"] && content != ["windows"] {
        return None;
    }
    let other = w.iter().any(|x| x == "other");
    Some(Target {
        selector: Selector::WholeWindow,
        except: None,
        scope: if other {
            Scope::OtherWindows
        } else {
            Scope::ThisWindow
        },
        singular: false,
        count: None,
    })
}
