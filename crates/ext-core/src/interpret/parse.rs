//! From clean words to what the person wants: an [`Intent`] with the tabs,
//! groups, places and times it refers to, still unresolved.

use super::sites;
use super::text::{loose_number, number, ordinal};
use crate::model::Color;
use crate::tools::args::BrowseAction;

/// Which tabs a command is about.
#[derive(Clone, Debug, PartialEq)]
pub enum Selector {
    /// "this", "it", "the current tab".
    Active,
    /// "all", "every tab", "everything".
    All,
    /// "the other tabs": the focused window's tabs but the active one.
    Others,
    /// "the rest", "everything else": what the previous clause did not touch.
    Rest,
    /// "tab 3", "the last two tabs": positions in the focused window.
    Positions(Vec<Position>),
    /// "the one that's playing".
    Audible,
    Muted,
    Pinned,
    /// Names of sites, words of titles: "youtube", "the flights tab".
    Named(Vec<Vec<String>>),
    /// The tabs of a group: "the docs group".
    InGroup(Vec<String>),
    /// "the tabs to the right": beside the active tab in its window (only
    /// the next one when one tab is meant: "the tab on the left").
    Side {
        right: bool,
    },
    /// Every tab of a window: "this window", "the other window".
    WholeWindow,
    /// Several kinds at once: "this tab and jira".
    Union(Vec<Selector>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Position {
    /// 1-based.
    Nth(i64),
    Last,
    /// The first n / the last n.
    First(i64),
    LastN(i64),
    Range(i64, i64),
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Scope {
    Everywhere,
    ThisWindow,
    OtherWindows,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Target {
    pub selector: Selector,
    pub except: Option<Selector>,
    pub scope: Scope,
    /// "the X tab": one tab is meant.
    pub singular: bool,
}

impl Target {
    pub fn of(selector: Selector) -> Self {
        Target {
            selector,
            except: None,
            scope: Scope::Everywhere,
            singular: false,
        }
    }
    pub fn active() -> Self {
        Target {
            singular: true,
            ..Target::of(Selector::Active)
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Destination {
    OtherWindow,
    /// The focused window: "to this window".
    ThisWindow,
    /// "to a new window", which no tool can make.
    NewWindow,
    Window(i64),
    Start,
    End,
    Left,
    Right,
    Position(i64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum GroupWhich {
    /// "ungroup all".
    All,
    /// "the docs group".
    Named(Vec<String>),
    /// "this group": the active tab's group.
    Current,
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub enum TimeSpan {
    Today,
    Yesterday,
    ThisMorning,
    ThisAfternoon,
    Tonight,
    ThisWeek,
    LastWeek,
    LastMonth,
    /// The last n milliseconds.
    Recent(f64),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Intent {
    Close(Target),
    CloseDuplicates {
        scope: Scope,
    },
    Switch(Target),
    /// A bare name ("jira", "tab 3"): switch to it if it is a tab, else
    /// the words were not understood.
    Bare(Target),
    /// "switch to the other window", "go to window 2".
    SwitchWindow(WindowRef),
    /// "open gmail": switch to it if open, else open the site.
    Open(Vec<String>),
    OpenUrl(String),
    OpenBookmark(Vec<String>),
    NewTab,
    Mute(Target, bool),
    Pin(Target, bool),
    Reload(Target, bool),
    Discard(Target),
    Duplicate(Target),
    Group {
        target: Target,
        name: Option<String>,
        color: Option<Color>,
    },
    GroupBySite(Scope),
    GroupByTopic(Scope),
    RenameGroup(GroupWhich, String),
    RecolorGroup(GroupWhich, Color),
    CollapseGroup(GroupWhich, bool),
    Ungroup(GroupWhich),
    UngroupTabs(Target),
    Move(Target, Destination),
    Search {
        query: String,
        engine: Option<String>,
    },
    Bookmark {
        target: Target,
        folder: Option<String>,
    },
    FindBookmarks(String),
    History {
        query: String,
        span: Option<TimeSpan>,
    },
    /// "how many tabs", "how many youtube tabs are open in this window".
    Count(Target),
    CountWindows,
    ListTabs(Target),
    ListGroups,
    /// "which search engines do I have".
    ListEngines,
    Browse(BrowseAction, Option<f64>),
    Undo,
    Yes,
    No,
}

/// A window named in a command.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum WindowRef {
    Other,
    /// 1-based, in the order of window ids.
    Nth(i64),
}

/// Why a clause was not understood.
#[derive(Clone, Debug, PartialEq)]
pub struct NotUnderstood(pub String);

type Words<'a> = &'a [String];

fn is(w: Words, phrase: &[&str]) -> bool {
    w.len() == phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b)
}

fn starts<'a>(w: Words<'a>, phrase: &[&str]) -> Option<Words<'a>> {
    (w.len() >= phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b))
        .then(|| &w[phrase.len()..])
}

/// The rest after the first of `verbs` that starts `w`.
fn verb<'a>(w: Words<'a>, verbs: &[&[&str]]) -> Option<Words<'a>> {
    verbs.iter().find_map(|v| starts(w, v))
}

fn find(w: Words, word: &str) -> Option<usize> {
    w.iter().position(|x| x == word)
}

fn find_seq(w: Words, seq: &[&str]) -> Option<usize> {
    (0..w.len()).find(|&i| starts(&w[i..], seq).is_some())
}

fn join(w: Words) -> String {
    w.join(" ")
}

const ARTICLES: &[&str] = &[
    "the", "my", "a", "an", "our", "your", "this", "that", "these", "those",
];

fn strip_articles(mut w: Words) -> Words {
    while let Some(first) = w.first() {
        if ARTICLES.contains(&first.as_str()) {
            w = &w[1..];
        } else {
            break;
        }
    }
    w
}

pub fn color(word: &str) -> Option<Color> {
    Some(match word {
        "grey" | "gray" => Color::Grey,
        "blue" => Color::Blue,
        "red" => Color::Red,
        "yellow" => Color::Yellow,
        "green" => Color::Green,
        "pink" => Color::Pink,
        "purple" | "violet" => Color::Purple,
        "cyan" | "teal" | "turquoise" => Color::Cyan,
        "orange" => Color::Orange,
        _ => return None,
    })
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
];
const SWITCH: &[&[&str]] = &[
    &["switch", "over", "to"],
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
    &["show", "me"],
    &["show"],
    &["where", "is"],
    &["where's"],
    &["find"],
];
const OPEN: &[&[&str]] = &[
    &["open", "up"],
    &["open"],
    &["launch"],
    &["visit"],
    &["load"],
    &["browse", "to"],
    &["navigate", "to"],
    &["pull", "up"],
];
const YES: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "confirm",
    "confirmed",
    "sure",
    "ok",
    "okay",
    "affirmative",
    "proceed",
    "correct",
    "absolutely",
];
const NO: &[&str] = &["no", "nope", "cancel", "nah", "nevermind", "abort", "don't"];

/// Words that end a compound's first clause when the next clause starts with a verb.
const JOINERS: &[&[&str]] = &[
    &[",", "and", "then"],
    &[",", "then"],
    &[",", "and"],
    &[",", "also"],
    &[","],
    &["and", "then"],
    &["and", "also"],
    &["then"],
    &["and"],
    &["also"],
];

/// A comma inside a clause lists things, like "and" ("close jira, confluence").
fn as_and(clause: &[String]) -> Vec<String> {
    clause
        .iter()
        .map(|x| if x == "," { "and" } else { x.as_str() })
        .map(str::to_string)
        .collect()
}

/// Splits "close youtube and mute the rest" into its clauses.
pub fn clauses(words: &[String]) -> Vec<Vec<String>> {
    // "yes, close them" answers a question; it is not two commands.
    if short_answer(&as_and(words)).is_some() {
        return vec![as_and(words)];
    }
    // Each clause with the joiner words that came before it.
    let mut out: Vec<(Vec<String>, Vec<String>)> = Vec::new();
    let mut joiner = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < words.len() {
        let split = JOINERS.iter().find(|j| {
            starts(&words[i..], j).is_some_and(|rest| i > start && starts_with_verb(rest))
        });
        match split {
            Some(j) => {
                out.push((std::mem::take(&mut joiner), words[start..i].to_vec()));
                joiner = words[i..i + j.len()].to_vec();
                i += j.len();
                start = i;
            }
            None => i += 1,
        }
    }
    out.push((joiner, words[start..].to_vec()));
    // "search for rust and go": a clause that means nothing alone was part
    // of the one before.
    let mut merged: Vec<Vec<String>> = Vec::new();
    for (joiner, clause) in out {
        let alone = as_and(&clause);
        let stands =
            !clause.is_empty() && matches!(parse(&alone), Ok(i) if !matches!(i, Intent::Bare(_)));
        match merged.last_mut() {
            Some(last) if !stands => {
                last.extend(joiner);
                last.extend(clause);
            }
            _ => merged.push(clause),
        }
    }
    merged.retain(|c| !c.is_empty());
    merged.iter().map(|c| as_and(c)).collect()
}

fn starts_with_verb(w: Words) -> bool {
    const VERBS: &[&str] = &[
        "close",
        "shut",
        "kill",
        "remove",
        "mute",
        "unmute",
        "pin",
        "unpin",
        "switch",
        "go",
        "open",
        "group",
        "ungroup",
        "move",
        "send",
        "reload",
        "refresh",
        "discard",
        "unload",
        "duplicate",
        "bookmark",
        "search",
        "look",
        "collapse",
        "fold",
        "expand",
        "unfold",
        "rename",
        "call",
        "scroll",
        "zoom",
        "silence",
        "put",
        "make",
        "get",
        "show",
        "dismiss",
        "suspend",
        "focus",
        "jump",
        "take",
        "sort",
        "name",
        "color",
        "colour",
        "pull",
        "bring",
        "unload",
        "hibernate",
        "sleep",
        "uncollapse",
        "hide",
        "minimize",
        "star",
        "save",
        "turn",
        "paint",
        "change",
        "undo",
        "find",
        "list",
        "count",
        "dedupe",
        "deduplicate",
        "stop",
        "clone",
        "nuke",
        "exit",
        "dismiss",
        "visit",
        "launch",
        "navigate",
        "reopen",
        "restore",
    ];
    w.first()
        .is_some_and(|first| VERBS.contains(&first.as_str()))
}

/// What one clause asks for.
pub fn parse(w: Words) -> Result<Intent, NotUnderstood> {
    let sorry = || NotUnderstood(format!("I didn't understand '{}'.", join(w)));
    if w.is_empty() {
        return Err(NotUnderstood(
            "Say or type what to do with your tabs.".into(),
        ));
    }
    if let Some(intent) = short_answer(w) {
        return Ok(intent);
    }
    if let Some(intent) = browse(w) {
        return Ok(intent);
    }
    if let Some(intent) = undo(w) {
        return Ok(intent);
    }
    if let Some(intent) = questions(w) {
        return Ok(intent);
    }
    if let Some(intent) = bookmarks(w) {
        return Ok(intent);
    }
    if let Some(intent) = search(w) {
        return Ok(intent);
    }
    if let Some(intent) = groups(w) {
        return Ok(intent);
    }
    if let Some(intent) = tab_actions(w)? {
        return Ok(intent);
    }
    Err(sorry())
}

/// "yes", "yeah do it", "yes close them", "no thanks", "never mind": an
/// answer to a question, not a command of its own.
pub fn short_answer(w: Words) -> Option<Intent> {
    // Words that may follow a yes without making it a new command.
    const AFTER_YES: &[&str] = &[
        "please",
        "do",
        "it",
        "go",
        "ahead",
        "close",
        "them",
        "those",
        "that",
        "all",
        "sure",
        "i'm",
        "im",
        "confirm",
        "confirmed",
        "yes",
        "proceed",
        "and",
        "of",
        "the",
        "tabs",
        "absolutely",
        "ok",
        "okay",
        "that's",
        "thats",
        "right",
        "fine",
        "i",
        "am",
        "thanks",
    ];
    const AFTER_NO: &[&str] = &[
        "thanks", "thank", "you", "don't", "do", "it", "that", "please", "cancel", "stop", "wait",
        "never", "mind", "keep", "them", "no", "and",
    ];
    let first = w.first()?.as_str();
    let rest = &w[1..];
    let only = |allowed: &[&str]| rest.iter().all(|x| allowed.contains(&x.as_str()));
    if is(w, &["do", "it"]) || is(w, &["go", "ahead"]) || (YES.contains(&first) && only(AFTER_YES))
    {
        return Some(Intent::Yes);
    }
    let no = starts(w, &["never", "mind"]).is_some() || (NO.contains(&first) && only(AFTER_NO));
    no.then_some(Intent::No)
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

/// Whether every word is one of `allowed`.
fn all_in(w: Words, allowed: &[&str]) -> bool {
    w.iter().all(|x| allowed.contains(&x.as_str()))
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
    if let Some(a) = history_step(w) {
        return action(a);
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
    new_tab(w).then_some(Intent::NewTab)
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

/// "zoom in twice", "make the text bigger", "reset the zoom".
fn zoom(w: Words) -> Option<Intent> {
    use BrowseAction::*;
    let action = |a: BrowseAction| Some(Intent::Browse(a, None));
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

/// "new tab", "open another tab", "give me a blank tab".
fn new_tab(w: Words) -> bool {
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
        && last == "tab"
        && all_in(
            before,
            &[
                "a", "an", "new", "blank", "empty", "another", "fresh", "one", "more",
            ],
        )
}

/// "how many tabs", "list my tabs", "what did I read last week about webgpu".
fn questions(w: Words) -> Option<Intent> {
    if let Some(intent) = count(w) {
        return Some(intent);
    }
    let list_start = ["list", "show", "what", "which", "what's", "whats", "tell"];
    if list_start.contains(&w[0].as_str())
        && w.iter().any(|x| x == "groups")
        && !w.iter().any(|x| x == "tabs")
    {
        return Some(Intent::ListGroups);
    }
    if list_start.contains(&w[0].as_str()) && mentions(w, &["engine", "engines"]) {
        return Some(Intent::ListEngines);
    }
    if let Some(intent) = list(w) {
        return Some(intent);
    }
    history(w)
}

/// Words of a question that say nothing about which tabs it is about.
const BEING: &[&str] = &[
    "is",
    "are",
    "do",
    "does",
    "i",
    "have",
    "got",
    "there",
    "currently",
    "right",
    "now",
    "total",
    "in",
    "me",
    "we",
    "you",
    "still",
];

/// The words of a question without `BEING`, but keeping "in this window".
fn question_target(w: Words) -> Target {
    let scope = scope_of(w);
    let kept: Vec<String> = without_scope(w)
        .into_iter()
        .filter(|x| !BEING.contains(&x.as_str()))
        .collect();
    let mut t = if kept.is_empty() {
        Target::of(Selector::All)
    } else {
        target(&kept)
    };
    if let Some(scope) = scope {
        t.scope = scope;
    }
    t
}

fn mentions(w: Words, words: &[&str]) -> bool {
    w.iter().any(|x| words.contains(&x.as_str()))
}

/// "how many tabs", "count my tabs", "how many youtube tabs are open in
/// this window", "how many windows".
fn count(w: Words) -> Option<Intent> {
    let rest = verb(
        w,
        &[
            &["how", "many"],
            &["count"],
            &["number", "of"],
            &["total", "number", "of"],
            &["tab", "count"],
        ],
    )?;
    let tabs = mentions(rest, &["tab", "tabs"]) || w[0] == "tab";
    if !tabs && mentions(rest, &["window", "windows"]) {
        return Some(Intent::CountWindows);
    }
    tabs.then(|| Intent::Count(question_target(rest)))
}

/// "list my tabs", "what tabs do I have open", "which tab is playing".
fn list(w: Words) -> Option<Intent> {
    let playing = mentions(w, &["playing", "audible", "noise", "sound"]);
    let tabs = mentions(w, &["tab", "tabs"]);
    let asks = ["what", "which", "what's", "whats"].contains(&w[0].as_str());
    let about_tabs = tabs || playing;
    let in_group = asks && find(w, "in").is_some() && mentions(w, &["group"]);
    let listing = (w[0] == "list" && about_tabs)
        // "what's in the docs group"
        || in_group
        // "what did I read": history, not tabs.
        || (asks && about_tabs && !mentions(w, &["did", "was", "were", "history"]))
        // "show me the flights tab" switches; "show all my tabs" lists.
        || (w[0] == "show"
            && tabs
            && all_in(
                &w[1..],
                &["me", "all", "my", "the", "tabs", "open", "of", "every", "tab"],
            ));
    if !listing {
        return None;
    }
    let rest = &w[1..];
    Some(Intent::ListTabs(question_target(rest)))
}

const READ_VERBS: &[&str] = &[
    "read", "reading", "visit", "visited", "visiting", "see", "saw", "seen", "look", "looked",
    "looking", "watch", "watched", "watching", "open", "opened", "browse", "browsed", "browsing",
    "check", "checked", "checking", "find", "found", "view", "viewed", "viewing",
];

/// A time phrase inside the words: its span and where it sat.
fn time_span(w: Words) -> Option<(TimeSpan, usize, usize)> {
    let hour = 3_600_000.0;
    let day = 24.0 * hour;
    for i in 0..w.len() {
        let rest = &w[i..];
        let found = if starts(rest, &["yesterday"]).is_some() {
            Some((TimeSpan::Yesterday, 1))
        } else if starts(rest, &["today"]).is_some() {
            Some((TimeSpan::Today, 1))
        } else if starts(rest, &["this", "morning"]).is_some() {
            Some((TimeSpan::ThisMorning, 2))
        } else if starts(rest, &["this", "afternoon"]).is_some() {
            Some((TimeSpan::ThisAfternoon, 2))
        } else if starts(rest, &["tonight"]).is_some()
            || starts(rest, &["this", "evening"]).is_some()
        {
            Some((TimeSpan::Tonight, if rest[0] == "tonight" { 1 } else { 2 }))
        } else if starts(rest, &["this", "week"]).is_some() {
            Some((TimeSpan::ThisWeek, 2))
        } else if starts(rest, &["last", "week"]).is_some()
            || starts(rest, &["past", "week"]).is_some()
        {
            Some((TimeSpan::LastWeek, 2))
        } else if starts(rest, &["last", "month"]).is_some()
            || starts(rest, &["past", "month"]).is_some()
        {
            Some((TimeSpan::LastMonth, 2))
        } else if let Some(after) = starts(rest, &["in", "the", "last"])
            .or_else(|| starts(rest, &["in", "the", "past"]))
            .or_else(|| starts(rest, &["over", "the", "last"]))
            .or_else(|| starts(rest, &["the", "last"]))
            .or_else(|| starts(rest, &["last"]))
            .or_else(|| starts(rest, &["past"]))
        {
            let (n, used) = match after.first().and_then(|x| loose_number(x)) {
                Some(n) => (n as f64, 1),
                None => (1.0, 0),
            };
            let unit = after.get(used).map(String::as_str);
            let ms = match unit {
                Some("minute" | "minutes" | "min" | "mins") => Some(60_000.0),
                Some("hour" | "hours") => Some(hour),
                Some("day" | "days") => Some(day),
                Some("week" | "weeks") => Some(7.0 * day),
                _ => None,
            };
            ms.map(|ms| {
                (
                    TimeSpan::Recent(n * ms),
                    rest.len() - after.len() + used + 1,
                )
            })
        } else if let (Some(n), Some(unit), Some("ago")) = (
            rest.first().and_then(|x| loose_number(x)),
            rest.get(1).map(String::as_str),
            rest.get(2).map(String::as_str),
        ) {
            let ms = match unit {
                "hour" | "hours" => Some(hour),
                "day" | "days" => Some(day),
                "minute" | "minutes" => Some(60_000.0),
                "week" | "weeks" => Some(7.0 * day),
                _ => None,
            };
            // "two days ago": anything since then, with a little slack.
            ms.map(|ms| (TimeSpan::Recent(n as f64 * ms * 1.5), 3))
        } else {
            None
        };
        if let Some((span, len)) = found {
            return Some((span, i, i + len));
        }
    }
    None
}

fn history(w: Words) -> Option<Intent> {
    let mentions_history = w.iter().any(|x| x == "history");
    let asks_what_read = (w[0] == "what" || w[0] == "which" || w[0] == "find" || w[0] == "show")
        && w.iter().any(|x| READ_VERBS.contains(&x.as_str()))
        && w.iter().any(|x| x == "i");
    if !mentions_history && !asks_what_read {
        return None;
    }
    let span = time_span(w);
    let mut rest: Vec<String> = match span {
        Some((_, a, b)) => w[..a].iter().chain(&w[b..]).cloned().collect(),
        None => w.to_vec(),
    };
    // The topic is what follows "about", "on", "for", "of", "regarding".
    let topic_at = rest.iter().position(|x| {
        [
            "about",
            "regarding",
            "on",
            "for",
            "of",
            "with",
            "called",
            "mentioning",
        ]
        .contains(&x.as_str())
    });
    let query: Vec<String> = match topic_at {
        Some(i) => {
            // "about async cancellation I read": the topic ends where the
            // sentence about reading starts again.
            let mut topic = rest.split_off(i + 1);
            if let Some(end) = topic
                .iter()
                .skip(1)
                .position(|x| ["i", "that", "which", "i've", "i'd", "we"].contains(&x.as_str()))
            {
                topic.truncate(end + 1);
            }
            topic
        }
        None => {
            const NOISE: &[&str] = &[
                "what", "which", "did", "i", "do", "show", "me", "my", "the", "history", "search",
                "find", "pages", "page", "sites", "was", "were", "that", "from", "in", "browsing",
                "have", "a", "an", "all", "articles", "article", "stuff", "things", "list", "web",
                "at", "been", "websites", "site", "website", "had",
            ];
            rest.into_iter()
                .filter(|x| !NOISE.contains(&x.as_str()) && !READ_VERBS.contains(&x.as_str()))
                .collect()
        }
    };
    let query: Vec<String> = query
        .into_iter()
        .filter(|x| !["the", "a", "an", "from", "in"].contains(&x.as_str()))
        .collect();
    Some(Intent::History {
        query: join(&query),
        span: span.map(|(s, _, _)| s),
    })
}

fn bookmarks(w: Words) -> Option<Intent> {
    let mentions = w.iter().any(|x| x == "bookmark" || x == "bookmarks");
    // Open a bookmark: "open my candle docs bookmark", "open the bookmark for candle".
    if let Some(rest) = verb(w, OPEN).or_else(|| verb(w, &[&["go", "to"], &["switch", "to"]])) {
        if let Some(at) = rest
            .iter()
            .position(|x| x == "bookmark" || x == "bookmarks")
        {
            let before = strip_articles(&rest[..at]);
            let after = &rest[at + 1..];
            let after = starts(after, &["for"])
                .or_else(|| starts(after, &["about"]))
                .or_else(|| starts(after, &["called"]))
                .or_else(|| starts(after, &["named"]))
                .unwrap_or(after);
            let words: Vec<String> = before
                .iter()
                .chain(strip_articles(after))
                .cloned()
                .collect();
            if !words.is_empty() {
                return Some(Intent::OpenBookmark(words));
            }
        }
    }
    if !mentions && !["star", "favorite", "favourite"].contains(&w[0].as_str()) {
        return None;
    }
    // Find bookmarks: "show bookmarks about cooking", "search my bookmarks for pasta".
    let finding = [
        "show",
        "find",
        "search",
        "list",
        "what",
        "which",
        "any",
        "do",
        "bookmarks",
        "look",
        "get",
    ];
    if finding.contains(&w[0].as_str()) && mentions {
        let at = w
            .iter()
            .position(|x| x == "bookmark" || x == "bookmarks")
            .unwrap_or(0);
        let mut topic: Vec<String> = w[at + 1..].to_vec();
        if let Some(i) = topic.iter().position(|x| {
            [
                "about",
                "for",
                "on",
                "with",
                "regarding",
                "called",
                "named",
                "mentioning",
            ]
            .contains(&x.as_str())
        }) {
            topic = topic.split_off(i + 1);
        } else if topic.is_empty() {
            // "find cooking bookmarks"
            topic = strip_articles(w.get(1..at).unwrap_or_default())
                .iter()
                .filter(|x| *x != "me" && *x != "my" && *x != "for")
                .cloned()
                .collect();
        }
        let topic: Vec<String> = topic
            .into_iter()
            .filter(|x| !["do", "i", "have", "the", "my"].contains(&x.as_str()))
            .collect();
        return Some(Intent::FindBookmarks(join(&topic)));
    }
    // Make one: "bookmark this in Reading", "save this to my Cooking
    // bookmarks", "add this page to my bookmarks under travel", "star this".
    let starring = ["bookmark", "star", "favorite", "favourite"];
    let rest = verb(
        w,
        &[
            &["bookmark"],
            &["star"],
            &["favorite"],
            &["favourite"],
            &["save"],
            &["add"],
        ],
    )?;
    if !mentions && !starring.contains(&w[0].as_str()) {
        return None;
    }
    // The tab comes first; each "in/to/under/as ..." after it may name the
    // folder, and the last one that does wins.
    let marks = ["in", "into", "to", "under", "on", "as", "inside"];
    let mut parts = rest.split(|x| marks.contains(&x.as_str()));
    let what = parts.next().unwrap_or_default();
    let folder = parts
        .map(|f| {
            let f: Vec<String> = f
                .iter()
                .filter(|x| {
                    ![
                        "folder",
                        "bookmarks",
                        "bookmark",
                        "my",
                        "the",
                        "list",
                        "a",
                        "an",
                        "called",
                        "named",
                        "new",
                        "your",
                    ]
                    .contains(&x.as_str())
                })
                .cloned()
                .collect();
            title_case(&f)
        })
        .rfind(|f| !f.is_empty());
    let target = if what.is_empty() {
        Target::active()
    } else {
        target(what)
    };
    Some(Intent::Bookmark { target, folder })
}

fn title_case(w: &[String]) -> String {
    w.iter()
        .map(|x| {
            let mut c = x.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

const ENGINE_WORDS: &[&str] = &[
    "google",
    "bing",
    "duckduckgo",
    "ddg",
    "wikipedia",
    "amazon",
    "ebay",
    "youtube",
    "yahoo",
    "qwant",
    "ecosia",
    "startpage",
];

fn search(w: Words) -> Option<Intent> {
    let engine_name = |x: &str| -> Option<String> {
        let x = x.trim_end_matches("'s");
        ENGINE_WORDS.contains(&x).then(|| {
            if x == "ddg" {
                "duckduckgo".into()
            } else {
                x.to_string()
            }
        })
    };
    let query_of = |q: Words| join(strip_leading(q, &["the", "a", "an", "about"]));
    // "google rust async", "wikipedia tokio"; but "google docs" is a site.
    if w.len() >= 2 && sites::by_name(&join(w)).is_none() {
        if let Some(e) = engine_name(&w[0]) {
            if e != "youtube" && e != "amazon" && e != "ebay" {
                let q = starts(&w[1..], &["for"]).unwrap_or(&w[1..]);
                return Some(Intent::Search {
                    query: query_of(q),
                    engine: Some(e),
                });
            }
        }
    }
    // "find mechanical keyboards on ebay": a verb that is no search verb,
    // but an engine at the end makes it one.
    let on_engine = w.len() >= 4
        && ["on", "at", "with", "using", "via"].contains(&w[w.len() - 2].as_str())
        && engine_name(&w[w.len() - 1]).is_some();
    let rest = verb(
        w,
        &[
            &["search", "the", "web", "for"],
            &["search", "online", "for"],
            &["web", "search", "for"],
            &["web", "search"],
            &["search", "for"],
            &["search"],
            &["look", "up"],
            &["lookup"],
            &["find", "out"],
            &["query"],
        ],
    )
    .or_else(|| {
        // "look tokio up on wikipedia"
        starts(w, &["look"]).filter(|rest| rest.iter().any(|x| x == "up"))
    })
    .or_else(|| {
        on_engine
            .then(|| {
                verb(
                    w,
                    &[&["find"], &["get"], &["shop", "for"], &["buy"], &["check"]],
                )
            })
            .flatten()
    })?;
    // "search Bing for rust async"
    if rest.len() >= 3 {
        if let Some(e) = engine_name(&rest[0]) {
            if rest[1] == "for" {
                return Some(Intent::Search {
                    query: query_of(&rest[2..]),
                    engine: Some(e),
                });
            }
        }
    }
    // "... on Wikipedia", "... with bing", "... using duckduckgo", "look tokio up on wikipedia"
    let mut query = rest.to_vec();
    let mut engine = None;
    if query.len() >= 2 {
        let n = query.len();
        if ["on", "with", "using", "in", "via", "at"].contains(&query[n - 2].as_str()) {
            if let Some(e) = engine_name(&query[n - 1]) {
                engine = Some(e);
                query.truncate(n - 2);
            }
        }
    }
    // "look tokio up": the "up" belongs to the verb.
    let split_look = starts(w, &["look"]).is_some() && starts(w, &["look", "up"]).is_none();
    if let Some(up) = query.iter().rposition(|x| x == "up").filter(|_| split_look) {
        query.remove(up);
    }
    if query.is_empty() {
        return None;
    }
    Some(Intent::Search {
        query: query_of(&query),
        engine,
    })
}

/// The words without any of `lead` at their start.
fn strip_leading<'a>(mut w: Words<'a>, lead: &[&str]) -> Words<'a> {
    while w.first().is_some_and(|x| lead.contains(&x.as_str())) {
        w = &w[1..];
    }
    w
}

/// "the docs group", "group docs", "this group".
fn group_which(w: Words) -> GroupWhich {
    let w = strip_articles(w);
    let words: Vec<String> = w
        .iter()
        .filter(|x| !["group", "groups", "tab", "tabs", "called", "named"].contains(&x.as_str()))
        .cloned()
        .collect();
    let this = ["current", "this", "one", "it", "its", "that", "them"];
    if words.iter().all(|x| this.contains(&x.as_str())) {
        GroupWhich::Current
    } else if words
        .iter()
        .all(|x| x == "all" || x == "every" || x == "everything" || x == "each")
    {
        GroupWhich::All
    } else {
        GroupWhich::Named(words)
    }
}

/// "group my tabs by site", "sort the tabs in this window into topics",
/// "group similar tabs together".
fn group_by(w: Words) -> Option<Intent> {
    const LEADS: &[&str] = &[
        "group", "sort", "organize", "organise", "arrange", "cluster", "put", "split", "divide",
        "bundle", "order",
    ];
    const SITE: &[&str] = &[
        "site", "sites", "website", "websites", "domain", "domains", "host", "hosts",
    ];
    const TOPIC: &[&str] = &[
        "topic",
        "topics",
        "subject",
        "subjects",
        "theme",
        "themes",
        "content",
        "category",
        "categories",
    ];
    if !LEADS.contains(&w[0].as_str()) {
        return None;
    }
    let by = mentions(w, &["by", "into", "per", "according"]);
    let scope = scope_of(w).unwrap_or(Scope::Everywhere);
    if by && mentions(w, SITE) {
        return Some(Intent::GroupBySite(scope));
    }
    let similar = mentions(w, &["similar", "related"]);
    ((by && mentions(w, TOPIC)) || similar).then_some(Intent::GroupByTopic(scope))
}

fn groups(w: Words) -> Option<Intent> {
    let mentions_group = w.iter().any(|x| x == "group" || x == "groups");
    if let Some(intent) = group_by(w) {
        return Some(intent);
    }
    // Ungroup.
    if let Some(rest) = verb(
        w,
        &[&["ungroup"], &["dissolve"], &["disband"], &["break", "up"]],
    ) {
        if rest.is_empty() {
            // "ungroup" alone: the group of the tab in front.
            return Some(Intent::Ungroup(GroupWhich::Current));
        }
        if all_in(
            rest,
            &[
                "all",
                "everything",
                "every",
                "the",
                "tabs",
                "groups",
                "my",
                "of",
            ],
        ) {
            return Some(Intent::Ungroup(GroupWhich::All));
        }
        if rest.iter().any(|x| x == "group" || x == "groups") {
            return Some(Intent::Ungroup(group_which(rest)));
        }
        return Some(Intent::UngroupTabs(target(rest)));
    }
    if let Some(rest) = verb(w, &[&["remove"], &["take"]]) {
        if let Some(i) = find_seq(rest, &["out", "of"]).or_else(|| find(rest, "from")) {
            if rest[i..].iter().any(|x| x == "group") {
                let what = &rest[..i];
                return Some(Intent::UngroupTabs(if what.is_empty() {
                    Target::active()
                } else {
                    target(what)
                }));
            }
        }
    }
    // Collapse / expand: "fold the docs group", "expand all groups".
    let collapse = verb(
        w,
        &[
            &["collapse"],
            &["fold", "up"],
            &["fold"],
            &["minimize"],
            &["minimise"],
            &["hide"],
            &["shrink"],
        ],
    );
    let expand = verb(
        w,
        &[
            &["expand"],
            &["unfold"],
            &["uncollapse"],
            &["unhide"],
            &["open"],
            &["show"],
        ],
    );
    // Only groups fold; "open" and "show" mean a group when they say so.
    let group_verb = !["open", "show"].contains(&w[0].as_str());
    if let Some((rest, collapsed)) = collapse.map(|r| (r, true)).or(expand.map(|r| (r, false))) {
        if mentions_group || group_verb {
            return Some(Intent::CollapseGroup(group_which(rest), collapsed));
        }
    }
    // Rename: "call the news group Reading", "rename the news group to
    // Reading", "rename news to reading" (only groups have names to change).
    let renaming = &[
        &["rename"][..],
        &["retitle"],
        &["change", "the", "name", "of"],
        &["change", "the", "title", "of"],
    ];
    if let Some(rest) = verb(w, renaming) {
        if find(rest, "group").is_none() {
            if let Some(t) = rest.iter().rposition(|x| x == "to" || x == "as") {
                let (which, name) = (&rest[..t], &rest[t + 1..]);
                if !which.is_empty() && !name.is_empty() {
                    return Some(Intent::RenameGroup(group_which(which), title_case(name)));
                }
            }
        }
    }
    if let Some(rest) = verb(w, renaming).or_else(|| verb(w, &[&["call"], &["name"]])) {
        if let Some(g) = find(rest, "group") {
            let mut name = &rest[g + 1..];
            let mut which = &rest[..g];
            if which.is_empty() || is(strip_articles(which), &[]) {
                // "rename group news to reading"
                if let Some(t) = find(name, "to") {
                    which = &name[..t];
                    name = &name[t + 1..];
                }
            }
            let name = starts(name, &["to"])
                .or_else(|| starts(name, &["as"]))
                .unwrap_or(name);
            if !name.is_empty() {
                return Some(Intent::RenameGroup(group_which(which), title_case(name)));
            }
        }
    }
    // Recolor: "make the news group blue", "color the docs group red", "change the news group color to green".
    if let Some(rest) = verb(
        w,
        &[
            &["make"],
            &["color"],
            &["colour"],
            &["turn"],
            &["paint"],
            &["change"],
            &["set"],
        ],
    ) {
        if let Some(g) = find(rest, "group") {
            if let Some(c) = rest[g + 1..].iter().rev().find_map(|x| color(x)) {
                if !rest[..g].iter().any(|x| x == "a" || x == "new") {
                    return Some(Intent::RecolorGroup(group_which(&rest[..g]), c));
                }
            }
        }
    }
    // "color it red", "paint news blue": only groups have colors.
    if let Some(rest) = verb(w, &[&["color"], &["colour"], &["paint"]]) {
        if let Some((last, which)) = rest.split_last() {
            if let (Some(c), false) = (color(last), which.is_empty()) {
                return Some(Intent::RecolorGroup(group_which(which), c));
            }
        }
    }
    // New group: "put my Jira and Confluence tabs in a group called Sprint",
    // "make a purple group named Travel with the flights tab", "group youtube tabs".
    let named = |w: Words| -> (Option<String>, usize) {
        match w.iter().position(|x| {
            ["called", "named", "titled", "labelled", "labeled", "as"].contains(&x.as_str())
        }) {
            Some(i) => {
                let end = w[i + 1..]
                    .iter()
                    .position(|x| ["with", "for", "containing"].contains(&x.as_str()))
                    .map(|j| i + 1 + j)
                    .unwrap_or(w.len());
                let name: Vec<String> = w[i + 1..end]
                    .iter()
                    .filter(|x| color(x).is_none() || end - i - 1 == 1)
                    .cloned()
                    .collect();
                (Some(title_case(&name)).filter(|n| !n.is_empty()), i)
            }
            None => (None, w.len()),
        }
    };
    if let Some(rest) = verb(w, &[&["make"], &["create"], &["start"], &["new"]]) {
        if mentions_group {
            let g = find(rest, "group").unwrap_or(0);
            let color_word = rest[..g]
                .iter()
                .find_map(|x| color(x))
                .or_else(|| rest.iter().find_map(|x| color(x)));
            let (name, _) = named(rest);
            let name = name.or_else(|| {
                // "make a travel group with the flights tab"
                let before: Vec<String> = strip_articles(&rest[..g])
                    .iter()
                    .filter(|x| color(x).is_none() && *x != "new" && *x != "tab")
                    .cloned()
                    .collect();
                Some(title_case(&before)).filter(|n| !n.is_empty())
            });
            let with = rest
                .iter()
                .position(|x| ["with", "for", "containing", "from", "of"].contains(&x.as_str()));
            let target = match with {
                Some(i) => target(&rest[i + 1..]),
                None => Target::active(),
            };
            return Some(Intent::Group {
                target,
                name,
                color: color_word,
            });
        }
    }
    if let Some(rest) = verb(
        w,
        &[
            &["put"],
            &["move"],
            &["add"],
            &["stick"],
            &["place"],
            &["throw"],
        ],
    ) {
        if let Some(i) = rest
            .iter()
            .position(|x| x == "in" || x == "into" || x == "to")
            .filter(|i| rest[*i + 1..].iter().any(|x| x == "group"))
        {
            let what = &rest[..i];
            let dest = &rest[i + 1..];
            let g = find(dest, "group").unwrap_or(0);
            let (name, _) = named(dest);
            let color_word = dest.iter().find_map(|x| color(x));
            let target = if what.is_empty() {
                Target::active()
            } else {
                target(what)
            };
            // "put this in the docs group": an existing group, by name.
            let existing = !dest[..g].iter().any(|x| x == "a" || x == "new") && name.is_none();
            if existing {
                let which = group_which(&dest[..g]);
                return Some(Intent::Group {
                    target,
                    name: match which {
                        GroupWhich::Named(n) => Some(title_case(&n)),
                        _ => None,
                    },
                    color: color_word,
                });
            }
            return Some(Intent::Group {
                target,
                name,
                color: color_word,
            });
        }
    }
    if let Some(rest) = verb(w, &[&["group"], &["bundle"], &["cluster"]]) {
        if rest.is_empty() {
            return Some(Intent::GroupBySite(Scope::Everywhere));
        }
        let (name, at) = named(rest);
        let color_word = rest[at.min(rest.len())..].iter().find_map(|x| color(x));
        let what = &rest[..at];
        // "group this tab with jira": "with" lists, like "and".
        let what: Vec<String> = what
            .iter()
            .filter(|x| !["together", "in", "into", "a", "group"].contains(&x.as_str()))
            .map(|x| {
                if x == "with" {
                    "and".to_string()
                } else {
                    x.clone()
                }
            })
            .collect();
        let target = if what.is_empty() {
            Target::active()
        } else {
            target(&what)
        };
        return Some(Intent::Group {
            target,
            name,
            color: color_word,
        });
    }
    None
}

fn destination(w: Words) -> Option<Destination> {
    let has = |x: &str| w.iter().any(|y| y == x);
    if has("window") || has("windows") {
        if has("this") || has("current") || has("same") || has("here") {
            return Some(Destination::ThisWindow);
        }
        if has("new") || has("separate") || has("own") {
            return Some(Destination::NewWindow);
        }
        if has("other") || has("next") {
            return Some(Destination::OtherWindow);
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
    if has("end") || has("back") && !has("front") || has("last") {
        return Some(Destination::End);
    }
    if has("start") || has("beginning") || has("front") || has("first") {
        return Some(Destination::Start);
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

fn tab_actions(w: Words) -> Result<Option<Intent>, NotUnderstood> {
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
    if dupes
        && (verb(w, CLOSE).is_some()
            || w[0] == "deduplicate"
            || w[0] == "dedupe"
            || is(w, &["duplicates"]))
    {
        let scope = scope_of(w).unwrap_or(Scope::Everywhere);
        return Ok(Some(Intent::CloseDuplicates { scope }));
    }
    // "shut up youtube" silences it; it is no "shut".
    if let Some(rest) = starts(w, &["shut", "up"]) {
        return Ok(Some(Intent::Mute(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, CLOSE) {
        if let Some(t) = whole_window(rest) {
            return Ok(Some(Intent::Close(t)));
        }
        return Ok(Some(Intent::Close(target_or_active(rest))));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["unmute"],
            &["turn", "on", "the", "sound", "of"],
            &["turn", "on", "sound", "for"],
            &["turn", "the", "sound", "back", "on", "for"],
        ],
    ) {
        return Ok(Some(Intent::Mute(target_or_active(rest), false)));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["mute"],
            &["silence"],
            &["quiet"],
            &["hush"],
            &["shush"],
            &["turn", "off", "the", "sound", "of"],
            &["turn", "off", "the", "sound", "on"],
            &["turn", "off", "sound", "for"],
            &["turn", "off", "sound", "on"],
            &["turn", "the", "sound", "off", "on"],
            &["turn", "the", "sound", "off", "for"],
        ],
    ) {
        return Ok(Some(Intent::Mute(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, &[&["unpin"], &["unstick"]]) {
        return Ok(Some(Intent::Pin(target_or_active(rest), false)));
    }
    if let Some(rest) = verb(w, &[&["pin"], &["stick"]]) {
        return Ok(Some(Intent::Pin(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["hard", "reload"],
            &["hard", "refresh"],
            &["force", "reload"],
        ],
    ) {
        return Ok(Some(Intent::Reload(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, &[&["reload"], &["refresh"], &["update"]]) {
        let hard = rest.iter().any(|x| x == "cache" || x == "hard");
        let rest: Vec<String> = rest
            .iter()
            .filter(|x| {
                !["without", "cache", "the", "hard", "bypassing"].contains(&x.as_str())
                    || x.as_str() == "the"
            })
            .cloned()
            .collect();
        return Ok(Some(Intent::Reload(target_or_active(&rest), hard)));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["discard"],
            &["unload"],
            &["suspend"],
            &["hibernate"],
            &["sleep"],
            &["put", "to", "sleep"],
            &["snooze"],
            &["free", "up", "memory", "from"],
            &["free", "memory", "from"],
        ],
    ) {
        let rest: Vec<String> = rest
            .iter()
            .filter(|x| !["to", "sleep"].contains(&x.as_str()))
            .cloned()
            .collect();
        let t = if rest.is_empty() {
            Target {
                scope: Scope::Everywhere,
                ..Target::of(Selector::Others)
            }
        } else {
            target(&rest)
        };
        return Ok(Some(Intent::Discard(t)));
    }
    if is(w, &["free", "up", "memory"]) || is(w, &["free", "memory"]) || is(w, &["save", "memory"])
    {
        return Ok(Some(Intent::Discard(Target::of(Selector::Others))));
    }
    // "put the jira tab to sleep"
    if let Some(rest) = verb(w, &[&["put"], &["send"]]) {
        if let Some(what) = rest.strip_suffix(&["to".to_string(), "sleep".to_string()]) {
            return Ok(Some(Intent::Discard(target_or_active(what))));
        }
    }
    if let Some(rest) = verb(
        w,
        &[
            &["duplicate"],
            &["clone"],
            &["copy"],
            &["make", "a", "copy", "of"],
            &["make", "a", "duplicate", "of"],
        ],
    ) {
        return Ok(Some(Intent::Duplicate(target_or_active(rest))));
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
        ],
    ) {
        let to = rest
            .iter()
            .rposition(|x| ["to", "into", "over", "at"].contains(&x.as_str()));
        if let Some(i) = to {
            if let Some(dest) = destination(&rest[i + 1..]) {
                let what = &rest[..i];
                return Ok(Some(Intent::Move(target_or_active(what), dest)));
            }
        }
        // "move this left", "move it to the right"
        if let Some(dest) = rest.last().and_then(|x| match x.as_str() {
            "left" => Some(Destination::Left),
            "right" => Some(Destination::Right),
            _ => None,
        }) {
            return Ok(Some(Intent::Move(
                target_or_active(&rest[..rest.len() - 1]),
                dest,
            )));
        }
    }
    // Open: a URL, a site, a tab.
    if let Some(rest) = verb(w, OPEN) {
        let rest = strip_articles(rest);
        // "open github.com in a new tab": opening is always in a new tab.
        let rest = ["tab", "window"]
            .iter()
            .find_map(|last| {
                let at = rest.iter().rposition(|x| x == "in")?;
                let tail = &rest[at + 1..];
                (tail.last().is_some_and(|x| x == last)
                    && all_in(&tail[..tail.len() - 1], &["a", "new", "another", "this"]))
                .then(|| &rest[..at])
            })
            .unwrap_or(rest);
        if let Some(url) = url_in(rest) {
            return Ok(Some(Intent::OpenUrl(url)));
        }
        if rest.is_empty() {
            return Ok(Some(Intent::NewTab));
        }
        let words: Vec<String> = rest
            .iter()
            .filter(|x| !["tab", "website", "site", "page", "app"].contains(&x.as_str()))
            .cloned()
            .collect();
        return Ok(Some(Intent::Open(words)));
    }
    if let Some(rest) = verb(w, SWITCH) {
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

/// "this window", "the whole window", "the other window": every tab of it.
fn whole_window(w: Words) -> Option<Target> {
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
    })
}

/// A web address in the words ("bbc.co.uk", "https://x.org/a").
fn url_in(w: Words) -> Option<String> {
    if w.len() != 1 {
        // "bbc dot co dot uk"
        if w.iter().any(|x| x == "dot") && w.len() >= 3 {
            let joined: String = w
                .iter()
                .map(|x| if x == "dot" { "." } else { x.as_str() })
                .collect();
            return url_in(&[joined]);
        }
        return None;
    }
    let x = &w[0];
    let looks = x.contains("://")
        || (x.contains('.')
            && !x.ends_with('.')
            && x.split('.')
                .next_back()
                .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())));
    looks.then(|| x.clone())
}

fn target_or_active(w: &[String]) -> Target {
    if w.is_empty() {
        Target::active()
    } else {
        target(w)
    }
}

fn scope_of(w: Words) -> Option<Scope> {
    if find_seq(w, &["this", "window"]).is_some()
        || find_seq(w, &["current", "window"]).is_some()
        || find_seq(w, &["same", "window"]).is_some()
    {
        Some(Scope::ThisWindow)
    } else if find_seq(w, &["other", "window"]).is_some()
        || find_seq(w, &["other", "windows"]).is_some()
    {
        Some(Scope::OtherWindows)
    } else {
        None
    }
}

/// Removes "in this window" and the like from the words.
fn without_scope(w: Words) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        let lead = ["in", "from", "on", "of"].contains(&w[i].as_str());
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

const EXCEPT: &[&[&str]] = &[
    &["except", "for"],
    &["except"],
    &["but", "not"],
    &["but"],
    &["other", "than"],
    &["apart", "from"],
    &["besides"],
    &["save", "for"],
    &["excluding"],
    &["not"],
];

/// Which tabs some words mean: "the youtube tabs", "all but this one",
/// "tabs two and three", "the one that's playing".
pub fn target(w: &[String]) -> Target {
    let scope = scope_of(w);
    // "mute the other windows": every tab there.
    let window_words = ["the", "all", "tabs", "tab", "of", "in", "my", "every"];
    let named_window = w.iter().any(|x| x == "window" || x == "windows");
    if let (Some(scope), true) = (scope, named_window) {
        let rest: Vec<&String> = w
            .iter()
            .filter(|x| !window_words.contains(&x.as_str()))
            .collect();
        if rest.len() == 2 {
            return Target {
                scope,
                ..Target::of(Selector::All)
            };
        }
    }
    let w = without_scope(w);
    let mut except = None;
    let mut main: &[String] = &w;
    for e in EXCEPT {
        if let Some(i) = find_seq(&w, e) {
            // "all but" needs something before; "but" at the start is no "except".
            if i > 0 || e[0] == "except" || e[0] == "besides" {
                except = Some(selector(&w[i + e.len()..]).0);
                main = &w[..i];
                break;
            }
        }
    }
    let (mut selector, singular) = selector(main);
    if except.is_some() && matches!(selector, Selector::Active) {
        // "mute everything except this": a bare except means all.
        selector = Selector::All;
    }
    let default_scope = match selector {
        Selector::Others | Selector::Positions(_) | Selector::Side { .. } => Scope::ThisWindow,
        _ => Scope::Everywhere,
    };
    Target {
        selector,
        except,
        scope: scope.unwrap_or(default_scope),
        singular,
    }
}

const STOP: &[&str] = &[
    "the",
    "my",
    "a",
    "an",
    "tab",
    "tabs",
    "page",
    "pages",
    "site",
    "sites",
    "website",
    "websites",
    "one",
    "ones",
    "of",
    "that",
    "which",
    "is",
    "are",
    "open",
    "opened",
    "with",
    "window",
    "windows",
    "for",
    "from",
    "on",
    "at",
    "to",
    "in",
    "all",
    "every",
    "any",
    "those",
    "these",
    "them",
    "thing",
    "things",
    "stuff",
    "instance",
    "instances",
    "also",
    "too",
    "both",
];

/// Words that only say how many: "both youtube tabs", "all of them".
const QUANTIFIERS: &[&str] = &["every", "all", "each", "both", "any"];

/// Words that name the kind of thing a tab shows, not which: "the dogs
/// video". Dropped when other words remain.
const GENERIC: &[&str] = &[
    "video",
    "videos",
    "article",
    "articles",
    "about",
    "regarding",
];

/// The selector some words mean, and whether one tab is meant.
fn selector(w: &[String]) -> (Selector, bool) {
    let w: Vec<String> = w.to_vec();
    let has = |x: &str| w.iter().any(|y| y == x);
    let only = |allowed: &[&str]| w.iter().all(|x| allowed.contains(&x.as_str()));
    // "this", "the current tab", "the tab I'm on".
    if w.is_empty()
        || only(&[
            "this",
            "it",
            "current",
            "tab",
            "one",
            "the",
            "page",
            "here",
            "that",
            "this's",
            "active",
            "selected",
            "i'm",
            "im",
            "i",
            "am",
            "on",
            "at",
            "looking",
            "viewing",
            "reading",
            "now",
            "currently",
        ])
    {
        return (Selector::Active, true);
    }
    if only(&[
        "the",
        "rest",
        "of",
        "them",
        "tabs",
        "everything",
        "else",
        "all",
        "others",
        "remaining",
        "ones",
        "other",
    ]) && (has("rest") || has("else") || has("remaining") || is(&w, &["the", "others"]))
    {
        return (Selector::Rest, false);
    }
    if only(&[
        "other", "tabs", "the", "all", "ones", "others", "every", "tab", "my",
    ]) && (has("other") || has("others"))
    {
        return (Selector::Others, false);
    }
    if only(&[
        "all",
        "every",
        "everything",
        "each",
        "tabs",
        "tab",
        "the",
        "my",
        "of",
        "open",
        "them",
        "single",
        "one",
        "everyone",
        "both",
    ]) {
        return (Selector::All, false);
    }
    let quantified = QUANTIFIERS.iter().any(|q| has(q));
    let one_tab = !quantified && (has("tab") && !has("tabs") || has("one"));
    if let Some(right) = side(&w) {
        return (Selector::Side { right }, one_tab);
    }
    if has("playing")
        || has("audible")
        || has("noisy")
        || has("loud")
        || has("noise")
        || has("sound")
        || has("music")
    {
        return (
            Selector::Audible,
            !quantified && !has("tabs") && !has("everything"),
        );
    }
    if only(&["the", "muted", "tabs", "tab", "all", "ones", "one", "my"]) && has("muted") {
        return (Selector::Muted, false);
    }
    if only(&["the", "pinned", "tabs", "tab", "all", "ones", "one", "my"]) && has("pinned") {
        return (Selector::Pinned, false);
    }
    if let Some(p) = positions(&w) {
        let singular = p.len() == 1 && matches!(p[0], Position::Nth(_) | Position::Last);
        return (Selector::Positions(p), singular);
    }
    if let Some(g) = find(&w, "group") {
        let name: Vec<String> = strip_articles(&w[..g])
            .iter()
            .filter(|x| !STOP.contains(&x.as_str()))
            .cloned()
            .collect();
        if !name.is_empty() {
            return (Selector::InGroup(name), false);
        }
    }
    // Several things: "jira and confluence", "this tab and reddit", "tab 2
    // and the flights tab".
    let parts: Vec<Selector> = w
        .split(|x| ["and", "or", "&", "plus", "+", "nor"].contains(&x.as_str()))
        .filter(|part| !part.is_empty())
        .filter_map(part)
        .collect();
    let single = parts.len() == 1;
    (merge(parts), single && one_tab)
}

/// One item of a list: "this tab", "tab 2", "the flights tab".
fn part(w: &[String]) -> Option<Selector> {
    let mut words: Vec<String> = w
        .iter()
        .filter(|x| {
            !STOP.contains(&x.as_str())
                && ![
                    "this", "that", "which", "whose", "where", "it's", "its", "they're",
                ]
                .contains(&x.as_str())
        })
        .map(|x| x.trim_end_matches("'s").to_string())
        .filter(|x| !x.is_empty())
        .collect();
    if words.is_empty() {
        // Only "this", "it", "the current tab": the active tab; nothing at all: no item.
        let active = w
            .iter()
            .any(|x| ["this", "it", "current", "active", "here"].contains(&x.as_str()));
        return active.then_some(Selector::Active);
    }
    if let Some(p) = positions(w) {
        return Some(Selector::Positions(p));
    }
    if words.iter().any(|x| !GENERIC.contains(&x.as_str())) {
        words.retain(|x| !GENERIC.contains(&x.as_str()));
    }
    Some(Selector::Named(vec![words]))
}

/// Items of a list as one selector: names stay one list of names.
fn merge(parts: Vec<Selector>) -> Selector {
    if parts.is_empty() {
        return Selector::Active;
    }
    if parts.iter().all(|p| matches!(p, Selector::Named(_))) {
        let phrases = parts
            .into_iter()
            .flat_map(|p| match p {
                Selector::Named(ph) => ph,
                _ => Vec::new(),
            })
            .collect();
        return Selector::Named(phrases);
    }
    match <[Selector; 1]>::try_from(parts) {
        Ok([one]) => one,
        Err(parts) => Selector::Union(parts),
    }
}

/// "the tabs to the right", "the tab on the left": which side of the
/// active tab (true for right).
fn side(w: &[String]) -> Option<bool> {
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| {
            ![
                "the", "tab", "tabs", "to", "on", "of", "this", "one", "ones", "all", "every",
                "current", "active", "it", "my", "that", "are", "is", "hand", "side",
            ]
            .contains(x)
        })
        .collect();
    match content.as_slice() {
        ["right"] => Some(true),
        ["left"] => Some(false),
        _ => None,
    }
}

/// "tab 3", "tabs two and three", "the third tab", "the last tab",
/// "the first two tabs", "tabs 2 to 4".
fn positions(w: &[String]) -> Option<Vec<Position>> {
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| {
            ![
                "the",
                "tab",
                "tabs",
                "number",
                "and",
                "one",
                "ones",
                ",",
                "my",
                "positions",
                "position",
                "at",
            ]
            .contains(x)
                || number(x).is_some()
        })
        .collect();
    if content.is_empty() {
        return None;
    }
    // "last", "last two", "first three"
    if content[0] == "last" || content[0] == "first" {
        if content.len() == 1 {
            return Some(vec![if content[0] == "last" {
                Position::Last
            } else {
                Position::Nth(1)
            }]);
        }
        if content.len() == 2 {
            if let Some(n) = loose_number(content[1]) {
                return Some(vec![if content[0] == "last" {
                    Position::LastN(n)
                } else {
                    Position::First(n)
                }]);
            }
        }
        return None;
    }
    // "2 to 4", "two through five"
    if content.len() == 3 && ["to", "through", "thru", "till", "until"].contains(&content[1]) {
        if let (Some(a), Some(b)) = (
            number(content[0]).or_else(|| ordinal(content[0])),
            number(content[2]).or_else(|| ordinal(content[2])),
        ) {
            return Some(vec![Position::Range(a.min(b), a.max(b))]);
        }
    }
    // A trailing "to"/"too"/"for" after "tab" is a misheard number.
    let fixed: Vec<Option<i64>> = content
        .iter()
        .map(|x| {
            number(x).or_else(|| ordinal(x)).or(match *x {
                "to" | "too" => Some(2),
                "for" => Some(4),
                "won" => Some(1),
                "tree" => Some(3),
                "ate" => Some(8),
                "last" => Some(-1),
                _ => None,
            })
        })
        .collect();
    if !w.iter().any(|x| x == "tab" || x == "tabs") && !content.iter().all(|x| ordinal(x).is_some())
    {
        return None;
    }
    if fixed.iter().all(Option::is_some) {
        return Some(
            fixed
                .into_iter()
                .map(|n| match n {
                    Some(-1) => Position::Last,
                    Some(n) => Position::Nth(n),
                    None => Position::Last,
                })
                .collect(),
        );
    }
    None
}

#[cfg(test)]
mod tests {
    use super::super::text::words;
    use super::*;

    fn p(s: &str) -> Intent {
        parse(&words(s)).unwrap_or_else(|e| panic!("{s}: {e:?}"))
    }

    #[test]
    fn clauses_split_on_verbs_only() {
        assert_eq!(clauses(&words("close youtube and mute the rest")).len(), 2);
        assert_eq!(
            clauses(&words("put my jira and confluence tabs in a group")).len(),
            1
        );
    }

    #[test]
    fn targets() {
        assert_eq!(
            p("close tabs two and three"),
            Intent::Close(Target {
                selector: Selector::Positions(vec![Position::Nth(2), Position::Nth(3)]),
                except: None,
                scope: Scope::ThisWindow,
                singular: false
            })
        );
        assert!(matches!(
            p("mute all but this one"),
            Intent::Mute(
                Target {
                    selector: Selector::All,
                    except: Some(Selector::Active),
                    ..
                },
                true
            )
        ));
        assert!(matches!(
            p("close every reddit tab"),
            Intent::Close(Target {
                selector: Selector::Named(_),
                ..
            })
        ));
        assert!(matches!(
            p("mute the one that's playing"),
            Intent::Mute(
                Target {
                    selector: Selector::Audible,
                    ..
                },
                true
            )
        ));
        assert!(matches!(
            p("shut the other tabs"),
            Intent::Close(Target {
                selector: Selector::Others,
                ..
            })
        ));
    }

    #[test]
    fn groups_and_more() {
        assert_eq!(
            p("make a purple group named Travel with the flights tab"),
            Intent::Group {
                target: Target {
                    selector: Selector::Named(vec![vec!["flights".into()]]),
                    except: None,
                    scope: Scope::Everywhere,
                    singular: true
                },
                name: Some("Travel".into()),
                color: Some(Color::Purple)
            }
        );
        assert_eq!(
            p("call the news group Reading"),
            Intent::RenameGroup(GroupWhich::Named(vec!["news".into()]), "Reading".into())
        );
        assert_eq!(
            p("fold the docs group"),
            Intent::CollapseGroup(GroupWhich::Named(vec!["docs".into()]), true)
        );
        assert_eq!(p("ungroup all"), Intent::Ungroup(GroupWhich::All));
        assert_eq!(
            p("group my tabs by site"),
            Intent::GroupBySite(Scope::Everywhere)
        );
        assert_eq!(
            p("search Bing for rust async"),
            Intent::Search {
                query: "rust async".into(),
                engine: Some("bing".into())
            }
        );
        assert_eq!(
            p("look up tokio on Wikipedia"),
            Intent::Search {
                query: "tokio".into(),
                engine: Some("wikipedia".into())
            }
        );
        assert_eq!(
            p("what did I read last week about webgpu"),
            Intent::History {
                query: "webgpu".into(),
                span: Some(TimeSpan::LastWeek)
            }
        );
        assert_eq!(
            p("bookmark this in Reading"),
            Intent::Bookmark {
                target: Target::active(),
                folder: Some("Reading".into())
            }
        );
        assert_eq!(
            p("show bookmarks about cooking"),
            Intent::FindBookmarks("cooking".into())
        );
        assert_eq!(
            p("open my candle docs bookmark"),
            Intent::OpenBookmark(vec!["candle".into(), "docs".into()])
        );
        assert_eq!(p("open bbc.co.uk"), Intent::OpenUrl("bbc.co.uk".into()));
        assert_eq!(
            p("how many tabs are open"),
            Intent::Count(Target::of(Selector::All))
        );
        assert_eq!(p("undo that"), Intent::Undo);
        assert!(matches!(
            p("send the map tab to the other window"),
            Intent::Move(_, Destination::OtherWindow)
        ));
    }
}
