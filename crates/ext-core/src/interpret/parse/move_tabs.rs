//! Moving tabs: "move this to the other window", "move the jira tab to
//! the end", "send the map tab to window 2".

use super::super::text::{number, ordinal};
use super::intent::{Destination, Intent, Scope, Selector, Target};
use super::place::two_tabs;
use super::target::{target, target_or_active};
use super::window_scope::scope_of;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "move", "send", "drag", "shift", "throw", "take", "bring", "merge", "combine", "gather",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "move this tab to the other window",
    "move this tab to a new window",
    "move this tab to the start",
    "move this tab to the end",
    "move the {tab} tab to the start",
    "move the {tab} tab to the end",
    "move the {tab} tab to this window",
    "move the {tab} tab to the other window",
    "move the {tab} tab to a new window",
    "move this tab next to {tab}",
    "move the {tab} tabs together",
];

pub fn parse(w: Words) -> Parsed {
    Ok(move_tabs(w))
}

fn move_tabs(w: Words) -> Option<Intent> {
    if let Some(intent) = swap(w) {
        return Some(intent);
    }
    // "pop out this tab", "detach jira": Firefox's "Move to New Window".
    if let Some(rest) = verb(w, &[&["pop", "out"], &["detach"], &["tear", "off"]]) {
        let rest = ends(rest, &["into", "a", "new", "window"])
            .or_else(|| ends(rest, &["into", "its", "own", "window"]))
            .unwrap_or(rest);
        return Some(Intent::Move(target_or_active(rest), Destination::NewWindow));
    }
    // "merge all windows", "combine the windows": every tab to this one.
    let merge = verb(w, &[&["merge"], &["combine"], &["consolidate"]]);
    if let Some(intent) = merge.and_then(two_windows_merged) {
        return Some(intent);
    }
    if merge.is_some_and(|rest| mentions(rest, &["windows"])) {
        let words = ["move", "all", "tabs", "to", "this", "window"].map(String::from);
        return move_tabs(&words);
    }
    if let Some(rest) = verb(
        w,
        &[
            &["move"],
            &["send"],
            &["put"],
            &["drag"],
            &["shift"],
            &["throw"],
            &["take"],
            &["bring"],
            &["gather"],
            &["collect"],
        ],
    ) {
        // "put all my tabs in one window": a merge into this one.
        let one_window = [
            &["in", "one", "window"][..],
            &["into", "one", "window"],
            &["in", "a", "single", "window"],
        ]
        .iter()
        .find_map(|e| ends(rest, e));
        if one_window.is_some_and(|what| {
            all_in(
                what,
                &[
                    "all",
                    "my",
                    "the",
                    "tabs",
                    "everything",
                    "of",
                    "windows",
                    "open",
                ],
            )
        }) {
            return Some(Intent::Move(
                Target::of(Selector::All),
                Destination::ThisWindow,
            ));
        }
        if let Some(intent) = together(w, rest) {
            return Some(intent);
        }
        if let Some(intent) = beside(rest) {
            return Some(intent);
        }
        if let Some((what, dest)) = places_aside(rest) {
            return Some(Intent::Move(target_or_active(what), dest));
        }
        // The last word that can lead a destination and does: "in" only
        // before a window ("put the tabs in a new window", not "put the
        // github tab in the news group").
        let leads = rest
            .iter()
            .enumerate()
            .rev()
            .filter(|(_, x)| ["to", "into", "over", "at", "in"].contains(&x.as_str()));
        for (i, lead) in leads {
            let dest = destination(&rest[i + 1..]).filter(|d| lead != "in" || is_window(d));
            if let Some(dest) = dest {
                // "move jira all the way to the right": all the way is
                // the far end, said above.
                let what = ends(&rest[..i], &["all", "the", "way"]).unwrap_or(&rest[..i]);
                let dest = match dest {
                    Destination::Left if what.len() < i => Destination::Start,
                    Destination::Right if what.len() < i => Destination::End,
                    other => other,
                };
                return Some(Intent::Move(target_or_active(what), dest));
            }
        }
        // "move this left", "move it to the right", "bring the netflix tab
        // here", "put this tab first"
        // Not "bring up the first", "take me to the last": a switch.
        let switching = starts(w, &["bring", "up"]).is_some()
            || starts(w, &["bring", "me"]).is_some()
            || starts(w, &["take", "me"]).is_some();
        let named = rest.len() >= 2 && !switching;
        // "… and move slack there too": where the clause before moved tabs.
        let there = [
            &["there", "too"][..],
            &["there", "as", "well"],
            &["over", "there"],
            &["there"],
        ]
        .iter()
        .find_map(|e| ends(rest, e));
        if let Some(what) = there.filter(|what| !what.is_empty()) {
            return Some(Intent::Move(target_or_active(what), Destination::There));
        }
        if let Some(dest) = rest.last().and_then(|x| match x.as_str() {
            "left" => Some(Destination::Left),
            "right" => Some(Destination::Right),
            "here" => Some(Destination::ThisWindow),
            "first" if named => Some(Destination::Start),
            "last" if named => Some(Destination::End),
            _ => None,
        }) {
            return Some(Intent::Move(
                target_or_active(&rest[..rest.len() - 1]),
                dest,
            ));
        }
    }
    None
}

/// "merge window 2 into window 3" (into the one after "into"), "merge
/// windows 2 and 3" (into the first said): one window's tabs moved to the
/// other's end.
fn two_windows_merged(rest: Words) -> Option<Intent> {
    let whole = |scope: Scope| Target {
        scope,
        ..Target::of(Selector::All)
    };
    if let Some(at) = find(rest, "into").or_else(|| find(rest, "with")) {
        let (from, to) = (&rest[..at], &rest[at + 1..]);
        let from = match scope_of(from)? {
            scope @ (Scope::ThisWindow | Scope::Window(_)) => scope,
            _ => return None,
        };
        let to = destination(to).filter(is_window)?;
        return Some(Intent::Move(whole(from), to));
    }
    match scope_of(rest)? {
        Scope::Windows(first, second) => Some(Intent::Move(
            whole(Scope::Window(second)),
            Destination::Window(first),
        )),
        _ => None,
    }
}

/// "swap gmail and slack", "swap this tab with the next one", "switch
/// the places of jira and confluence", "swap these two tabs": two tabs
/// trade places.
fn swap(w: Words) -> Option<Intent> {
    let rest = verb(
        w,
        &[
            &["swap"],
            &["exchange"],
            &["switch", "places", "of"],
            &["switch", "the", "places", "of"],
            &["switch", "the", "positions", "of"],
            &["trade", "places", "of"],
        ],
    )?;
    let rest = starts(rest, &["places", "of"])
        .or_else(|| starts(rest, &["the", "places", "of"]))
        .or_else(|| starts(rest, &["the", "positions", "of"]))
        .or_else(|| starts(rest, &["positions", "of"]))
        .unwrap_or(rest);
    let rest = ends(rest, &["around"]).unwrap_or(rest);
    // "swap these two tabs", "swap the two youtube tabs": both in one.
    let two = |x: &String| x == "two" || x == "2" || x == "both";
    if let Some(i) = rest.iter().position(|x| x == "with").or_else(|| {
        rest.iter()
            .position(|x| x == "and")
            .filter(|_| !rest.iter().any(two))
    }) {
        let (first, second) = (&rest[..i], &rest[i + 1..]);
        if first.is_empty() || second.is_empty() {
            return None;
        }
        let mut other = target(second);
        other.singular = true;
        let mut moving = target_or_active(first);
        moving.singular = true;
        return Some(Intent::Move(
            moving,
            Destination::SwapWith(Some(Box::new(other))),
        ));
    }
    // "swap tabs", "swap them": the two selected, if two are.
    let selected = all_in(rest, &["the", "tabs", "these", "them", "those"]);
    let both = if selected {
        Target::of(Selector::Highlighted { all: false })
    } else {
        rest.iter().any(two).then(|| target(rest))?
    };
    Some(Intent::Move(
        Target {
            count: Some(2),
            ..both
        },
        Destination::SwapWith(None),
    ))
}

/// "move the reddit tabs together", "put the youtube tabs next to each
/// other", "gather the docs tabs into one window".
fn together(w: Words, rest: Words) -> Option<Intent> {
    const ENDINGS: &[&[&str]] = &[
        &["together"],
        &["next", "to", "each", "other"],
        &["beside", "each", "other"],
        &["side", "by", "side"],
        &["into", "one", "window"],
        &["in", "one", "window"],
        &["into", "one", "place"],
        &["in", "one", "place"],
    ];
    let what = ENDINGS
        .iter()
        .find_map(|e| ends(rest, e))
        .map(|what| ends(what, &["all"]).unwrap_or(what))
        .or_else(|| {
            // "gather the youtube tabs": together is what gathering means,
            // unless a place is said ("… into a new window").
            let gathering = ["gather", "collect"].contains(&w[0].as_str());
            let place = mentions(
                rest,
                &["to", "into", "in", "onto", "after", "before", "next"],
            );
            (gathering && !place).then_some(rest)
        })?;
    if what.is_empty() {
        return None;
    }
    Some(Intent::Move(target(what), Destination::Together))
}

/// "move slack next to gmail", "put this tab after jira", "move the maps
/// tab before kayak": beside one tab, named as any tab is.
fn beside(rest: Words) -> Option<Intent> {
    // "put slack between youtube and jira".
    if let Some(at) = find(rest, "between") {
        let (first, second) = two_tabs(&rest[at + 1..])?;
        let between = Destination::Between(first, second);
        return Some(Intent::Move(target_or_active(&rest[..at]), between));
    }
    let (at, len, after) = rest
        .iter()
        .enumerate()
        .find_map(|(i, x)| match x.as_str() {
            "after" | "beside" => Some((i, 1, true)),
            "before" => Some((i, 1, false)),
            "next" if rest.get(i + 1).is_some_and(|y| y == "to") => Some((i, 2, true)),
            "right" if rest.get(i + 1).is_some_and(|y| y == "after") => Some((i, 2, true)),
            "right" if rest.get(i + 1).is_some_and(|y| y == "before") => Some((i, 2, false)),
            _ => None,
        })?;
    let reference = &rest[at + len..];
    // "take me to the tab next to gmail" is a switch; "move everything
    // after jira to a new window" names its destination after the tab.
    let leads_elsewhere = rest.first().is_some_and(|x| x == "me" || x == "up")
        || mentions(reference, &["to", "into"]);
    if reference.is_empty() || leads_elsewhere {
        return None;
    }
    let mut tab = target(reference);
    tab.singular = true;
    Some(Intent::Move(
        target_or_active(&rest[..at]),
        Destination::Beside {
            tab: Box::new(tab),
            after,
        },
    ))
}

/// "this tab two places to the left", "slack 3 spots right", "this left
/// twice": what moves, and how far.
fn places_aside(rest: Words) -> Option<(Words, Destination)> {
    const PLACES: &[&str] = &[
        "places",
        "place",
        "spots",
        "spot",
        "positions",
        "position",
        "steps",
        "step",
        "tabs",
        "tab",
    ];
    const SIDE: &[&str] = &[
        "to", "the", "over", "further", "more", "left", "right", "twice", "thrice",
    ];
    let (at, n, said) = count_said(rest, PLACES)?;
    let (what, side) = match said {
        // "this left twice": the side before the count.
        1 => {
            let side_at = rest[..at]
                .iter()
                .rposition(|x| x == "left" || x == "right")?;
            let side = &rest[side_at..at];
            let lead = rest[..side_at]
                .iter()
                .rposition(|x| !SIDE.contains(&x.as_str()))
                .map_or(0, |i| i + 1);
            (&rest[..lead], [side, &rest[at + said..]].concat())
        }
        _ => (&rest[..at], rest[at + said..].to_vec()),
    };
    if !all_in(&side, SIDE) {
        return None;
    }
    let right = match (
        side.iter().any(|x| x == "left"),
        side.iter().any(|x| x == "right"),
    ) {
        (true, false) => false,
        (false, true) => true,
        _ => return None,
    };
    let dest = match n {
        1 if right => Destination::Right,
        1 => Destination::Left,
        n => Destination::Places { right, n },
    };
    Some((what, dest))
}

fn is_window(d: &Destination) -> bool {
    matches!(
        d,
        Destination::NewWindow
            | Destination::OtherWindow
            | Destination::ThisWindow
            | Destination::Window(_)
    )
}

fn destination(w: Words) -> Option<Destination> {
    let has = |x: &str| w.iter().any(|y| y == x);
    if has("window") || has("windows") {
        // "to that window", "to the same window": the one the clause before
        // moved tabs to (else this one, as before).
        if has("that") || has("same") {
            return Some(Destination::There);
        }
        if has("this") || has("current") || has("here") {
            return Some(Destination::ThisWindow);
        }
        if has("new") || has("separate") || has("own") {
            return Some(Destination::NewWindow);
        }
        if has("other") || has("next") {
            return Some(Destination::OtherWindow);
        }
        // "any window": Whisper's usual spelling of "a new window" ("any
        // other window" is the other one, above).
        if has("any") {
            return Some(Destination::NewWindow);
        }
        if let Some(n) = w.iter().find_map(|x| number(x).or_else(|| ordinal(x))) {
            return Some(Destination::Window(n));
        }
        return Some(Destination::OtherWindow);
    }
    if is(w, &["here"]) {
        return Some(Destination::ThisWindow);
    }
    let w = strip_articles(w);
    let has = |x: &str| w.iter().any(|y| y == x);
    // "the far right", "all the way to the left": the end of the strip.
    let far = has("far") || has("way") || has("very");
    if has("end") || has("back") && !has("front") || has("last") || has("rightmost") {
        return Some(Destination::End);
    }
    if has("start") || has("beginning") || has("front") || has("first") || has("leftmost") {
        return Some(Destination::Start);
    }
    if far && has("left") {
        return Some(Destination::Start);
    }
    if far && has("right") {
        return Some(Destination::End);
    }
    if has("left") {
        return Some(Destination::Left);
    }
    if has("right") {
        return Some(Destination::Right);
    }
    if let Some(n) = w.iter().find_map(|x| number(x).or_else(|| ordinal(x))) {
        return Some(Destination::Position(n));
    }
    None
}
