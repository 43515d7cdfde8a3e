//! The page in front: back and forward, reload, stop, scrolling, zoom,
//! the next or previous tab, a new tab.

use super::super::text::{loose_number, number};
use super::intent::Intent;
use super::words::*;
use super::Parsed;
use crate::tools::args::BrowseAction;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "back", "forward", "go", "scroll", "page", "zoom", "stop", "reload", "refresh", "next",
    "previous",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "scroll down",
    "scroll up",
    "go back",
    "go forward",
    "go back a page",
    "go forward a page",
    "zoom in",
    "zoom out",
    "reset the zoom",
    "go to the top of the page",
    "go to the bottom of the page",
    "page down",
    "page up",
    "next tab",
    "previous tab",
    "go to the next tab",
    "go to the previous tab",
    "reload",
    "reload this tab",
    "stop loading",
    "open a new window",
    "open reader view",
    "exit reader view",
];

pub fn parse(w: Words) -> Parsed {
    Ok(browse(w))
}

/// How much to scroll: "a bit", "a lot", "300" (pixels) or "3" (screens).
fn amount_in(w: Words) -> Option<f64> {
    if w.iter().any(|x| x == "lot" || x == "lots") {
        return Some(1200.0);
    }
    if w.iter().any(|x| x == "bit" || x == "little") {
        return Some(200.0);
    }
    w.iter().find_map(|x| number(x)).map(|n| n as f64)
}

/// How many times: "twice", "3 times", "two steps", "a lot".
fn times_in(w: Words) -> Option<f64> {
    if w.iter().any(|x| x == "twice") {
        return Some(2.0);
    }
    if w.iter().any(|x| x == "thrice") {
        return Some(3.0);
    }
    if w.iter().any(|x| x == "lot" || x == "lots") {
        return Some(3.0);
    }
    w.iter().find_map(|x| number(x)).map(|n| n as f64)
}

/// Words that mean "the page in front" and nothing more.
const PAGE_WORDS: &[&str] = &[
    "the", "this", "page", "current", "website", "site", "webpage", "please", "again",
];

/// Words that ask to skip the cache.
const CACHE_WORDS: &[&str] = &[
    "without",
    "cache",
    "cached",
    "bypassing",
    "bypass",
    "ignoring",
    "ignore",
    "skipping",
    "skip",
    "the",
    "hard",
    "force",
    "forced",
    "no",
    "clearing",
    "clear",
];

fn browse(w: Words) -> Option<Intent> {
    use BrowseAction::*;
    let action = |a: BrowseAction| Some(Intent::Browse(a, None));
    if let Some((a, times)) = history_steps(w) {
        return Some(Intent::Browse(a, times));
    }
    if let Some(a) = reload_page(w) {
        return action(a);
    }
    if is(w, &["stop"])
        || (w[0] == "stop" && all_in(&w[1..], &["loading", "the", "page", "it", "this"]))
    {
        return action(Stop);
    }
    if let Some(intent) = scroll(w) {
        return Some(intent);
    }
    if let Some(intent) = zoom(w) {
        return Some(intent);
    }
    if let Some(a) = neighbour_tab(w) {
        return action(a);
    }
    if let Some(a) = reader_view(w) {
        return action(a);
    }
    if new_one(w, "window") {
        return action(BrowseAction::NewWindow);
    }
    new_one(w, "tab").then_some(Intent::NewTab)
}

/// "open reader view", "reader mode", "exit reader view".
fn reader_view(w: Words) -> Option<BrowseAction> {
    let named = ["reader", "reading"]
        .iter()
        .any(|x| w.contains(&x.to_string()));
    let view = ["view", "mode"].iter().any(|x| w.contains(&x.to_string()));
    if !named || !view {
        return None;
    }
    let leave = verb(
        w,
        &[
            &["exit"],
            &["leave"],
            &["close"],
            &["quit"],
            &["turn", "off"],
            &["switch", "off"],
            &["get", "out", "of"],
            &["go", "out", "of"],
            &["stop"],
        ],
    );
    let enter = verb(
        w,
        &[
            &["open"],
            &["enter"],
            &["show"],
            &["use"],
            &["turn", "on"],
            &["switch", "on"],
            &["switch", "to"],
            &["go", "to"],
            &["go", "into"],
            &["put", "it", "in"],
            &["put", "this", "in"],
            &["show", "it", "in"],
            &["show", "this", "in"],
            &["read", "it", "in"],
            &["read", "this", "in"],
            &["start"],
        ],
    )
    .or_else(|| Some(w).filter(|w| ["reader", "reading"].contains(&w[0].as_str())));
    let only_the_view = |rest: Words| {
        all_in(
            rest,
            &[
                "the", "reader", "reading", "view", "mode", "in", "for", "this", "page", "tab",
                "on", "off",
            ],
        )
    };
    match (leave, enter) {
        (Some(rest), _) if only_the_view(rest) => Some(BrowseAction::ExitReaderView),
        (_, Some(rest)) if only_the_view(rest) => {
            // "reader mode off" said without a verb.
            if w.last().is_some_and(|x| x == "off") {
                Some(BrowseAction::ExitReaderView)
            } else {
                Some(BrowseAction::ReaderView)
            }
        }
        _ => None,
    }
}

/// "go back twice", "go back two pages", "forward 3 times": a step through
/// history, and how many when more than one.
fn history_steps(w: Words) -> Option<(BrowseAction, Option<f64>)> {
    let Some((at, times, said)) = count_said(w, &["pages", "times", "steps"]) else {
        return history_step(w).map(|a| (a, None));
    };
    let rest: Vec<String> = [&w[..at], &w[at + said..]].concat();
    let a = history_step(&rest)?;
    Some((a, (times > 1).then_some(times as f64)))
}

/// "back", "go back a page", "go forward".
fn history_step(w: Words) -> Option<BrowseAction> {
    let w = verb(w, &[&["go"], &["navigate"], &["move"], &["take", "me"]]).unwrap_or(w);
    let (first, rest) = w.split_first()?;
    let filler = &["a", "one", "the", "page", "please", "to", "in", "history"];
    match first.as_str() {
        "back"
            if all_in(rest, filler) || all_in(rest, &["to", "the", "previous", "last", "page"]) =>
        {
            Some(BrowseAction::Back)
        }
        "backward" | "backwards" if all_in(rest, filler) => Some(BrowseAction::Back),
        "forward" | "forwards"
            if all_in(rest, filler) || all_in(rest, &["to", "the", "next", "page"]) =>
        {
            Some(BrowseAction::Forward)
        }
        "previous" if is(rest, &["page"]) => Some(BrowseAction::Back),
        "next" if is(rest, &["page"]) => Some(BrowseAction::Forward),
        "page" if is(rest, &["back"]) => Some(BrowseAction::Back),
        "page" if is(rest, &["forward"]) => Some(BrowseAction::Forward),
        _ => None,
    }
}

/// "reload", "refresh the page", "hard reload", "reload without cache":
/// the page in front. With a tab named it is a tab action instead.
fn reload_page(w: Words) -> Option<BrowseAction> {
    let hard_lead = verb(
        w,
        &[
            &["hard", "reload"],
            &["hard", "refresh"],
            &["force", "reload"],
            &["force", "refresh"],
        ],
    );
    if let Some(rest) = hard_lead {
        return all_in(rest, PAGE_WORDS).then_some(BrowseAction::HardReload);
    }
    let rest = verb(w, &[&["reload"], &["refresh"]])?;
    if all_in(rest, PAGE_WORDS) {
        return Some(BrowseAction::Reload);
    }
    let cache = rest
        .iter()
        .any(|x| ["cache", "cached", "hard", "force"].contains(&x.as_str()));
    let page_only = rest
        .iter()
        .all(|x| PAGE_WORDS.contains(&x.as_str()) || CACHE_WORDS.contains(&x.as_str()));
    (cache && page_only).then_some(BrowseAction::HardReload)
}

/// "scroll down a bit", "scroll up two pages", "page down", "go to the top".
fn scroll(w: Words) -> Option<Intent> {
    use BrowseAction::*;
    let action = |a: BrowseAction| Some(Intent::Browse(a, None));
    let end_words = [
        "the",
        "top",
        "bottom",
        "of",
        "page",
        "start",
        "end",
        "beginning",
        "very",
        "way",
        "all",
        "on",
    ];
    let to_end = |w: Words| -> Option<BrowseAction> {
        if !all_in(w, &end_words) {
            return None;
        }
        if w.iter()
            .any(|x| ["top", "start", "beginning"].contains(&x.as_str()))
        {
            Some(Top)
        } else if w.iter().any(|x| ["bottom", "end"].contains(&x.as_str())) {
            Some(Bottom)
        } else {
            None
        }
    };
    let leads: &[&[&str]] = &[
        &["go", "to"],
        &["scroll", "to"],
        &["jump", "to"],
        &["back", "to"],
        &["take", "me", "to"],
        &["scroll", "all", "the", "way", "to"],
        &["go", "all", "the", "way", "to"],
    ];
    if let Some(a) = verb(w, leads).and_then(to_end).or_else(|| to_end(w)) {
        return action(a);
    }
    if is(w, &["page", "down"]) || is(w, &["next", "screen"]) {
        return action(PageDown);
    }
    if is(w, &["page", "up"]) || is(w, &["previous", "screen"]) {
        return action(PageUp);
    }
    let rest = starts(w, &["scroll"])?;
    let up = rest.iter().any(|x| x == "up");
    let down = rest.iter().any(|x| x == "down") || rest.is_empty();
    if up == down {
        return None;
    }
    let more: Vec<String> = rest
        .iter()
        .filter(|x| *x != "up" && *x != "down")
        .cloned()
        .collect();
    let more = more.as_slice();
    if find_seq(more, &["all", "the", "way"]).is_some() {
        return action(if up { Top } else { Bottom });
    }
    // "scroll down two pages": whole screens.
    if more
        .iter()
        .any(|x| ["page", "pages", "screen", "screens", "screenful"].contains(&x.as_str()))
    {
        let pages = more.iter().find_map(|x| loose_number(x)).map(|n| n as f64);
        return Some(Intent::Browse(if up { PageUp } else { PageDown }, pages));
    }
    let amount = amount_in(more).map(|n| if n < 20.0 { n * 400.0 } else { n });
    Some(Intent::Browse(
        if up { ScrollUp } else { ScrollDown },
        amount,
    ))
}

/// "zoom to 150 percent", "set the zoom to 120%", "zoom 80": the percent.
fn zoom_percent(w: Words) -> Option<f64> {
    let rest = starts(w, &["zoom"])
        .or_else(|| starts(w, &["set", "zoom"]))
        .or_else(|| starts(w, &["set", "the", "zoom"]))
        .or_else(|| starts(w, &["change", "the", "zoom"]))
        .or_else(|| starts(w, &["change", "zoom"]))?;
    let skip = rest
        .iter()
        .take_while(|x| ["level", "to", "at"].contains(&x.as_str()))
        .count();
    let (number, unit) = rest[skip..].split_first()?;
    if !all_in(unit, &["percent", "per", "cent"]) {
        return None;
    }
    // Whisper writes "150%", typed "150 %"; both come here as "150".
    number.parse::<f64>().ok().filter(|p| *p > 0.0)
}

/// "zoom in twice", "make the text bigger", "reset the zoom".
fn zoom(w: Words) -> Option<Intent> {
    use BrowseAction::*;
    let action = |a: BrowseAction| Some(Intent::Browse(a, None));
    if let Some(percent) = zoom_percent(w) {
        return Some(Intent::Browse(ZoomTo, Some(percent)));
    }
    if let Some(rest) = starts(w, &["zoom"]) {
        let steps = times_in(rest);
        return match rest.first().map(String::as_str) {
            Some("in") => Some(Intent::Browse(ZoomIn, steps)),
            Some("out") => Some(Intent::Browse(ZoomOut, steps)),
            Some("reset" | "normal" | "back") => action(ZoomReset),
            None => action(ZoomIn),
            _ => None,
        };
    }
    if w[0] == "reset" && all_in(&w[1..], &["the", "zoom", "level", "page"]) && w.len() > 1 {
        return action(ZoomReset);
    }
    if is(w, &["actual", "size"]) || is(w, &["normal", "size"]) || is(w, &["default", "zoom"]) {
        return action(ZoomReset);
    }
    // "make it bigger", "make the text smaller", "enlarge", "bigger".
    let rest = verb(w, &[&["make"]]).unwrap_or(w);
    let (last, object) = rest.split_last()?;
    let object_ok = all_in(
        object,
        &[
            "it",
            "the",
            "text",
            "page",
            "font",
            "everything",
            "this",
            "a",
            "bit",
            "little",
        ],
    );
    match last.as_str() {
        "bigger" | "larger" if object_ok => action(ZoomIn),
        "smaller" if object_ok => action(ZoomOut),
        "enlarge" if object.is_empty() => action(ZoomIn),
        _ => None,
    }
}

/// "next tab", "go to the previous tab", "the tab on the left".
fn neighbour_tab(w: Words) -> Option<BrowseAction> {
    let w = verb(
        w,
        &[
            &["go", "to"],
            &["switch", "to"],
            &["move", "to"],
            &["jump", "to"],
            &["go"],
            &["switch"],
        ],
    )
    .unwrap_or(w);
    // Only "tab" words may accompany the direction.
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| !["the", "tab", "one", "please", "a", "over"].contains(x))
        .collect();
    let has_tab = w.iter().any(|x| x == "tab" || x == "one");
    match content.as_slice() {
        ["next"] => Some(BrowseAction::NextTab),
        ["right"] | ["to", "right"] | ["on", "right"] if has_tab => Some(BrowseAction::NextTab),
        ["previous"] | ["prev"] if has_tab || w.len() == 1 => Some(BrowseAction::PreviousTab),
        ["left"] | ["to", "left"] | ["on", "left"] if has_tab || w.len() == 1 => {
            Some(BrowseAction::PreviousTab)
        }
        _ => None,
    }
}

/// "new tab", "open another tab", "give me a blank tab" (`thing` "tab"),
/// "open a new window" ("window").
fn new_one(w: Words, thing: &str) -> bool {
    let rest = verb(
        w,
        &[
            &["open", "up"],
            &["open"],
            &["create"],
            &["give", "me"],
            &["make"],
            &["add"],
            &["start"],
            &["i", "need"],
            &["get", "me"],
        ],
    )
    .unwrap_or(w);
    let (last, before) = match rest.split_last() {
        Some(x) => x,
        None => return false,
    };
    // "tab" alone is not a new tab: it names the active one.
    w.len() > 1
        && last == thing
        && all_in(
            before,
            &[
                "a", "an", "the", "new", "blank", "empty", "another", "fresh", "one", "more",
                // "open any window": Whisper's spelling of "a new window".
                "any",
            ],
        )
}
