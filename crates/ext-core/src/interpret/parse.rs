//! From clean words to what the person wants: an [`Intent`] with the tabs,
//! groups, places and times it refers to, still unresolved.

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
    CloseDuplicates { scope: Scope },
    Switch(Target),
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
    GroupBySite,
    GroupByTopic,
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
    CountTabs,
    ListTabs(Target),
    ListGroups,
    Browse(BrowseAction, Option<f64>),
    Undo,
    Yes,
    No,
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

const ARTICLES: &[&str] = &["the", "my", "a", "an", "our", "your", "this", "that", "these", "those"];

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
    "yes", "yeah", "yep", "yup", "confirm", "confirmed", "sure", "ok", "okay", "affirmative", "proceed",
    "correct", "absolutely",
];
const NO: &[&str] = &["no", "nope", "cancel", "nah", "nevermind", "abort", "don't"];

/// Words that end a compound's first clause when the next clause starts with a verb.
const JOINERS: &[&[&str]] = &[&["and", "then"], &["and", "also"], &["then"], &["and"], &["also"]];

/// Splits "close youtube and mute the rest" into its clauses.
pub fn clauses(words: &[String]) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut i = 0;
    while i < words.len() {
        let mut split = None;
        for j in JOINERS {
            if let Some(rest) = starts(&words[i..], j) {
                if i > start && starts_with_verb(rest) {
                    split = Some(j.len());
                    break;
                }
            }
        }
        match split {
            Some(n) => {
                out.push(words[start..i].to_vec());
                i += n;
                start = i;
            }
            None => i += 1,
        }
    }
    out.push(words[start..].to_vec());
    out.retain(|c| !c.is_empty());
    out
}

fn starts_with_verb(w: Words) -> bool {
    const VERBS: &[&str] = &[
        "close", "shut", "kill", "remove", "mute", "unmute", "pin", "unpin", "switch", "go", "open",
        "group", "ungroup", "move", "send", "reload", "refresh", "discard", "unload", "duplicate",
        "bookmark", "search", "look", "collapse", "fold", "expand", "unfold", "rename", "call",
        "scroll", "zoom", "silence", "put", "make", "get", "show", "dismiss", "suspend", "focus",
        "jump", "take", "sort", "name", "color", "colour",
    ];
    w.first().is_some_and(|first| VERBS.contains(&first.as_str()))
}

/// What one clause asks for.
pub fn parse(w: Words) -> Result<Intent, NotUnderstood> {
    let sorry = || NotUnderstood(format!("I didn't understand '{}'.", join(w)));
    if w.is_empty() {
        return Err(NotUnderstood("Say or type what to do with your tabs.".into()));
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

fn short_answer(w: Words) -> Option<Intent> {
    let yes = is(w, &["do", "it"])
        || is(w, &["go", "ahead"])
        || is(w, &["yes", "please"])
        || is(w, &["yes", "do", "it"])
        || (w.len() <= 2 && YES.contains(&w[0].as_str()));
    if yes {
        return Some(Intent::Yes);
    }
    let no = is(w, &["never", "mind"])
        || is(w, &["no", "thanks"])
        || is(w, &["don't", "do", "it"])
        || (w.len() <= 2 && NO.contains(&w[0].as_str()));
    no.then_some(Intent::No)
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
        || starts(w, &["reopen", "the", "closed"]).is_some()
        || starts(w, &["restore", "the", "closed"]).is_some()
        || is(w, &["restore", "them"])
        || is(w, &["restore", "it"])
        || starts(w, &["reopen", "closed"]).is_some();
    undo.then_some(Intent::Undo)
}

fn amount_in(w: Words) -> Option<f64> {
    if w.iter().any(|x| x == "lot" || x == "lots") {
        return Some(1200.0);
    }
    if w.iter().any(|x| x == "bit" || x == "little") {
        return Some(200.0);
    }
    w.iter().find_map(|x| number(x)).map(|n| n as f64)
}

fn browse(w: Words) -> Option<Intent> {
    use BrowseAction::*;
    let action = |a: BrowseAction| Some(Intent::Browse(a, None));
    if is(w, &["back"]) || is(w, &["go", "back"]) || is(w, &["previous", "page"]) || is(w, &["go", "back", "a", "page"]) || is(w, &["page", "back"]) {
        return action(Back);
    }
    if is(w, &["forward"]) || is(w, &["go", "forward"]) || is(w, &["next", "page"]) || is(w, &["page", "forward"]) {
        return action(Forward);
    }
    let hard = w.iter().any(|x| x == "hard" || x == "force" || x == "cache");
    if matches!(w[0].as_str(), "reload" | "refresh") && (w.len() == 1 || is(&w[1..], &["the", "page"]) || is(&w[1..], &["page"]) || (hard && w.len() <= 4)) {
        return action(if hard { HardReload } else { Reload });
    }
    if is(w, &["hard", "reload"]) || is(w, &["hard", "refresh"]) || is(w, &["force", "reload"]) {
        return action(HardReload);
    }
    if is(w, &["stop"]) || is(w, &["stop", "loading"]) || is(w, &["stop", "the", "page"]) || is(w, &["stop", "loading", "the", "page"]) {
        return action(Stop);
    }
    let to_end = |w: Words| -> Option<BrowseAction> {
        let w = strip_articles(w);
        match w.first().map(String::as_str) {
            Some("top") | Some("start") | Some("beginning") => Some(Top),
            Some("bottom") | Some("end") => Some(Bottom),
            _ => None,
        }
    };
    for lead in [&["go", "to"][..], &["scroll", "to"], &["jump", "to"], &["back", "to"], &["scroll", "all", "the", "way", "to"]] {
        if let Some(rest) = starts(w, lead) {
            let page_words = rest.iter().all(|x| ["the", "top", "bottom", "of", "page", "start", "end", "beginning"].contains(&x.as_str()));
            if page_words {
                if let Some(a) = to_end(rest) {
                    return action(a);
                }
            }
        }
    }
    if is(w, &["top"]) || is(w, &["top", "of", "the", "page"]) || is(w, &["scroll", "up", "all", "the", "way"]) {
        return action(Top);
    }
    if is(w, &["bottom"]) || is(w, &["bottom", "of", "the", "page"]) || is(w, &["scroll", "down", "all", "the", "way"]) {
        return action(Bottom);
    }
    if let Some(rest) = starts(w, &["scroll"]) {
        let up = rest.first().is_some_and(|x| x == "up");
        let down = rest.first().is_some_and(|x| x == "down") || rest.is_empty();
        if up || down {
            let amount = amount_in(rest).map(|n| if n < 20.0 { n * 400.0 } else { n });
            return Some(Intent::Browse(if up { ScrollUp } else { ScrollDown }, amount));
        }
    }
    if is(w, &["page", "down"]) || is(w, &["next", "screen"]) {
        return action(PageDown);
    }
    if is(w, &["page", "up"]) || is(w, &["previous", "screen"]) {
        return action(PageUp);
    }
    if let Some(rest) = starts(w, &["zoom"]) {
        let steps = rest.iter().find_map(|x| number(x)).map(|n| n as f64);
        return match rest.first().map(String::as_str) {
            Some("in") => Some(Intent::Browse(ZoomIn, steps)),
            Some("out") => Some(Intent::Browse(ZoomOut, steps)),
            Some("reset") | Some("normal") | Some("back") => action(ZoomReset),
            None => action(ZoomIn),
            _ => None,
        };
    }
    if is(w, &["reset", "zoom"]) || is(w, &["reset", "the", "zoom"]) || is(w, &["actual", "size"]) || is(w, &["normal", "size"]) {
        return action(ZoomReset);
    }
    if is(w, &["make", "it", "bigger"]) || is(w, &["bigger"]) || is(w, &["enlarge"]) {
        return action(ZoomIn);
    }
    if is(w, &["make", "it", "smaller"]) || is(w, &["smaller"]) {
        return action(ZoomOut);
    }
    let next = ["next", "right"];
    let previous = ["previous", "prev", "left"];
    let tab_word = |x: &str| x == "tab" || x == "one";
    if w.len() <= 4 {
        let w2 = strip_articles(starts(w, &["go", "to"]).or_else(|| starts(w, &["switch", "to"])).unwrap_or(w));
        if w2.len() == 2 && tab_word(&w2[1]) && next.contains(&w2[0].as_str()) || is(w2, &["next"]) {
            return action(NextTab);
        }
        if w2.len() == 2 && tab_word(&w2[1]) && previous.contains(&w2[0].as_str()) || is(w2, &["previous"]) {
            return action(PreviousTab);
        }
        if is(w2, &["tab", "to", "the", "right"]) {
            return action(NextTab);
        }
    }
    if is(w, &["new", "tab"]) || is(w, &["open", "a", "new", "tab"]) || is(w, &["open", "new", "tab"]) || is(w, &["open", "a", "tab"]) || is(w, &["open", "tab"]) || is(w, &["open", "a", "blank", "tab"]) || is(w, &["blank", "tab"]) || is(w, &["new", "blank", "tab"]) || is(w, &["open", "an", "empty", "tab"]) || is(w, &["create", "a", "new", "tab"]) {
        return Some(Intent::NewTab);
    }
    None
}

/// "how many tabs", "list my tabs", "what did I read last week about webgpu".
fn questions(w: Words) -> Option<Intent> {
    if starts(w, &["how", "many"]).is_some() && w.iter().any(|x| x == "tabs" || x == "tab") {
        return Some(Intent::CountTabs);
    }
    if (starts(w, &["count"]).is_some() || starts(w, &["number", "of"]).is_some()) && w.iter().any(|x| x == "tabs") {
        return Some(Intent::CountTabs);
    }
    let list_start = ["list", "show", "what", "which"];
    if list_start.contains(&w[0].as_str()) && w.iter().any(|x| x == "groups") && !w.iter().any(|x| x == "tabs") {
        return Some(Intent::ListGroups);
    }
    if (is(w, &["list", "tabs"]) || is(w, &["list", "my", "tabs"]) || is(w, &["list", "all", "tabs"]) || is(w, &["list", "all", "my", "tabs"]) || is(w, &["list", "the", "tabs"]))
        || (["what", "which"].contains(&w[0].as_str()) && w.iter().any(|x| x == "tabs") && w.iter().any(|x| x == "open" || x == "have"))
        || is(w, &["show", "all", "tabs"]) || is(w, &["show", "my", "tabs"]) || is(w, &["show", "all", "my", "tabs"])
    {
        return Some(Intent::ListTabs(Target::of(Selector::All)));
    }
    history(w)
}

const READ_VERBS: &[&str] = &["read", "visit", "visited", "see", "saw", "seen", "look", "looked", "watch", "watched", "open", "opened", "browse", "browsed", "check", "checked", "find", "found", "view", "viewed"];

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
        } else if starts(rest, &["tonight"]).is_some() || starts(rest, &["this", "evening"]).is_some() {
            Some((TimeSpan::Tonight, if rest[0] == "tonight" { 1 } else { 2 }))
        } else if starts(rest, &["this", "week"]).is_some() {
            Some((TimeSpan::ThisWeek, 2))
        } else if starts(rest, &["last", "week"]).is_some() || starts(rest, &["past", "week"]).is_some() {
            Some((TimeSpan::LastWeek, 2))
        } else if starts(rest, &["last", "month"]).is_some() || starts(rest, &["past", "month"]).is_some() {
            Some((TimeSpan::LastMonth, 2))
        } else if let Some(after) = starts(rest, &["in", "the", "last"]).or_else(|| starts(rest, &["in", "the", "past"])).or_else(|| starts(rest, &["over", "the", "last"])).or_else(|| starts(rest, &["the", "last"])).or_else(|| starts(rest, &["last"])).or_else(|| starts(rest, &["past"])) {
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
            ms.map(|ms| (TimeSpan::Recent(n * ms), rest.len() - after.len() + used + 1))
        } else if let (Some(n), Some(unit), Some("ago")) = (rest.first().and_then(|x| loose_number(x)), rest.get(1).map(String::as_str), rest.get(2).map(String::as_str)) {
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
    let topic_at = rest
        .iter()
        .position(|x| ["about", "regarding", "on", "for", "of", "with", "called", "mentioning"].contains(&x.as_str()));
    let query: Vec<String> = match topic_at {
        Some(i) => rest.split_off(i + 1),
        None => {
            const NOISE: &[&str] = &["what", "which", "did", "i", "do", "show", "me", "my", "the", "history", "search", "find", "pages", "page", "sites", "was", "were", "that", "from", "in", "browsing", "have", "a", "an", "all", "articles", "article", "stuff", "things", "list", "web"];
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
        if let Some(at) = rest.iter().position(|x| x == "bookmark" || x == "bookmarks") {
            let before = strip_articles(&rest[..at]);
            let after = &rest[at + 1..];
            let after = starts(after, &["for"]).or_else(|| starts(after, &["about"])).or_else(|| starts(after, &["called"])).or_else(|| starts(after, &["named"])).unwrap_or(after);
            let words: Vec<String> = before.iter().chain(strip_articles(after)).cloned().collect();
            if !words.is_empty() {
                return Some(Intent::OpenBookmark(words));
            }
        }
    }
    if !mentions && !starts(w, &["star"]).is_some() && !starts(w, &["save"]).is_some() && !starts(w, &["add"]).is_some() {
        return None;
    }
    // Find bookmarks: "show bookmarks about cooking", "search my bookmarks for pasta".
    let finding = ["show", "find", "search", "list", "what", "which", "any", "do", "bookmarks", "look", "get"];
    if finding.contains(&w[0].as_str()) && mentions {
        let at = w.iter().position(|x| x == "bookmark" || x == "bookmarks").unwrap_or(0);
        let mut topic: Vec<String> = w[at + 1..].to_vec();
        if let Some(i) = topic.iter().position(|x| ["about", "for", "on", "with", "regarding", "called", "named", "mentioning"].contains(&x.as_str())) {
            topic = topic.split_off(i + 1);
        } else if topic.is_empty() {
            // "find cooking bookmarks"
            topic = strip_articles(&w[1..at]).iter().filter(|x| *x != "me" && *x != "my" && *x != "for").cloned().collect();
        }
        let topic: Vec<String> = topic.into_iter().filter(|x| !["do", "i", "have", "the", "my"].contains(&x.as_str())).collect();
        return Some(Intent::FindBookmarks(join(&topic)));
    }
    // Make one: "bookmark this in Reading", "save this to my Reading bookmarks", "add this to bookmarks".
    let rest = verb(w, &[&["bookmark"], &["star"], &["save"], &["add"]])?;
    let into = rest.iter().position(|x| ["in", "into", "to", "under", "on"].contains(&x.as_str()));
    let (what, folder) = match into {
        Some(i) => (&rest[..i], Some(&rest[i + 1..])),
        None => (rest, None),
    };
    let folder = folder.map(|f| {
        let f = strip_articles(f);
        let f: Vec<String> = f
            .iter()
            .filter(|x| !["folder", "bookmarks", "bookmark", "my", "the", "list"].contains(&x.as_str()))
            .cloned()
            .collect();
        title_case(&f)
    });
    let folder = folder.filter(|f| !f.is_empty());
    if w[0] != "bookmark" && !mentions {
        return None;
    }
    let target = if what.is_empty() { Target::active() } else { target(what) };
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

const ENGINE_WORDS: &[&str] = &["google", "bing", "duckduckgo", "ddg", "wikipedia", "amazon", "ebay", "youtube", "yahoo", "qwant", "ecosia", "startpage"];

fn search(w: Words) -> Option<Intent> {
    let engine_name = |x: &str| -> Option<String> {
        let x = x.trim_end_matches("'s");
        ENGINE_WORDS.contains(&x).then(|| if x == "ddg" { "duckduckgo".into() } else { x.to_string() })
    };
    // "google rust async", "bing it", "wikipedia tokio"
    if w.len() >= 2 {
        if let Some(e) = engine_name(&w[0]) {
            if e != "youtube" && e != "amazon" && e != "ebay" {
                let q = starts(&w[1..], &["for"]).unwrap_or(&w[1..]);
                return Some(Intent::Search { query: join(q), engine: Some(e) });
            }
        }
    }
    let rest = verb(w, &[&["search", "the", "web", "for"], &["search", "online", "for"], &["web", "search", "for"], &["web", "search"], &["search", "for"], &["search"], &["look", "up"], &["lookup"], &["find", "out"], &["query"]])?;
    // "search Bing for rust async"
    if rest.len() >= 3 {
        if let Some(e) = engine_name(&rest[0]) {
            if rest[1] == "for" {
                return Some(Intent::Search { query: join(&rest[2..]), engine: Some(e) });
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
    if query.last().is_some_and(|x| x == "up") {
        query.pop();
    }
    if query.is_empty() {
        return None;
    }
    Some(Intent::Search { query: join(&query), engine })
}

/// "the docs group", "group docs", "this group".
fn group_which(w: Words) -> GroupWhich {
    let w = strip_articles(w);
    let words: Vec<String> = w
        .iter()
        .filter(|x| !["group", "groups", "tab", "tabs", "called", "named"].contains(&x.as_str()))
        .cloned()
        .collect();
    if words.is_empty() || is(&words, &["current"]) || is(&words, &["this", "one"]) {
        GroupWhich::Current
    } else if words.iter().all(|x| x == "all" || x == "every" || x == "everything" || x == "each") {
        GroupWhich::All
    } else {
        GroupWhich::Named(words)
    }
}

fn groups(w: Words) -> Option<Intent> {
    let mentions_group = w.iter().any(|x| x == "group" || x == "groups");
    // By site or topic.
    let by = find(w, "by");
    if let Some(i) = by {
        let lead = ["group", "sort", "organize", "organise", "arrange", "cluster", "put"];
        if lead.contains(&w[0].as_str()) {
            let what = &w[i + 1..];
            if what.iter().any(|x| ["site", "sites", "website", "websites", "domain", "domains", "host"].contains(&x.as_str())) {
                return Some(Intent::GroupBySite);
            }
            if what.iter().any(|x| ["topic", "topics", "subject", "subjects", "theme", "themes", "content", "category", "categories"].contains(&x.as_str())) {
                return Some(Intent::GroupByTopic);
            }
        }
    }
    // Ungroup.
    if let Some(rest) = verb(w, &[&["ungroup"], &["dissolve"], &["disband"], &["break", "up"]]) {
        if rest.is_empty() || rest.iter().all(|x| ["all", "everything", "every", "the", "tabs", "groups", "my", "of"].contains(&x.as_str())) && !rest.is_empty() {
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
                return Some(Intent::UngroupTabs(if what.is_empty() { Target::active() } else { target(what) }));
            }
        }
    }
    // Collapse / expand: "fold the docs group", "expand all groups".
    let collapse = verb(w, &[&["collapse"], &["fold"], &["minimize"], &["minimise"], &["hide"], &["shrink"]]);
    let expand = verb(w, &[&["expand"], &["unfold"], &["uncollapse"], &["unhide"], &["open"], &["show"]]);
    if let Some((rest, collapsed)) = collapse.map(|r| (r, true)).or(expand.map(|r| (r, false))) {
        if mentions_group || collapse.is_some() {
            return Some(Intent::CollapseGroup(group_which(rest), collapsed));
        }
    }
    // Rename: "call the news group Reading", "rename the news group to Reading".
    if let Some(rest) = verb(w, &[&["rename"], &["call"], &["name"], &["retitle"]]) {
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
            let name = starts(name, &["to"]).or_else(|| starts(name, &["as"])).unwrap_or(name);
            if !name.is_empty() {
                return Some(Intent::RenameGroup(group_which(which), title_case(name)));
            }
        }
    }
    // Recolor: "make the news group blue", "color the docs group red", "change the news group color to green".
    if let Some(rest) = verb(w, &[&["make"], &["color"], &["colour"], &["turn"], &["paint"], &["change"], &["set"]]) {
        if let Some(g) = find(rest, "group") {
            if let Some(c) = rest[g + 1..].iter().rev().find_map(|x| color(x)) {
                if !rest[..g].iter().any(|x| x == "a" || x == "new") {
                    return Some(Intent::RecolorGroup(group_which(&rest[..g]), c));
                }
            }
        }
    }
    // New group: "put my Jira and Confluence tabs in a group called Sprint",
    // "make a purple group named Travel with the flights tab", "group youtube tabs".
    let named = |w: Words| -> (Option<String>, usize) {
        match w.iter().position(|x| ["called", "named", "titled", "labelled", "labeled", "as"].contains(&x.as_str())) {
            Some(i) => {
                let end = w[i + 1..].iter().position(|x| ["with", "for", "containing"].contains(&x.as_str())).map(|j| i + 1 + j).unwrap_or(w.len());
                let name: Vec<String> = w[i + 1..end].iter().filter(|x| color(x).is_none() || end - i - 1 == 1).cloned().collect();
                (Some(title_case(&name)).filter(|n| !n.is_empty()), i)
            }
            None => (None, w.len()),
        }
    };
    if let Some(rest) = verb(w, &[&["make"], &["create"], &["start"], &["new"]]) {
        if mentions_group {
            let g = find(rest, "group").unwrap_or(0);
            let color_word = rest[..g].iter().find_map(|x| color(x)).or_else(|| rest.iter().find_map(|x| color(x)));
            let (name, _) = named(rest);
            let name = name.or_else(|| {
                // "make a travel group with the flights tab"
                let before: Vec<String> = strip_articles(&rest[..g]).iter().filter(|x| color(x).is_none() && *x != "new" && *x != "tab").cloned().collect();
                Some(title_case(&before)).filter(|n| !n.is_empty())
            });
            let with = rest.iter().position(|x| ["with", "for", "containing", "from", "of"].contains(&x.as_str()));
            let target = match with {
                Some(i) => target(&rest[i + 1..]),
                None => Target::active(),
            };
            return Some(Intent::Group { target, name, color: color_word });
        }
    }
    if let Some(rest) = verb(w, &[&["put"], &["move"], &["add"], &["stick"], &["place"], &["throw"]]) {
        if let Some(i) = rest.iter().position(|x| x == "in" || x == "into" || x == "to").filter(|i| rest[*i + 1..].iter().any(|x| x == "group")) {
            let what = &rest[..i];
            let dest = &rest[i + 1..];
            let g = find(dest, "group").unwrap_or(0);
            let (name, _) = named(dest);
            let color_word = dest.iter().find_map(|x| color(x));
            let target = if what.is_empty() { Target::active() } else { target(what) };
            // "put this in the docs group": an existing group, by name.
            let existing = !dest[..g].iter().any(|x| x == "a" || x == "new") && name.is_none();
            if existing {
                let which = group_which(&dest[..g]);
                return Some(Intent::Group { target, name: match which { GroupWhich::Named(n) => Some(title_case(&n)), _ => None }, color: color_word });
            }
            return Some(Intent::Group { target, name, color: color_word });
        }
    }
    if let Some(rest) = verb(w, &[&["group"], &["bundle"], &["cluster"]]) {
        if rest.is_empty() {
            return Some(Intent::GroupBySite);
        }
        let (name, at) = named(rest);
        let color_word = rest[at.min(rest.len())..].iter().find_map(|x| color(x));
        let what = &rest[..at];
        let what: Vec<String> = what
            .iter()
            .filter(|x| !["together", "in", "into", "a", "group"].contains(&x.as_str()))
            .cloned()
            .collect();
        let target = if what.is_empty() { Target::active() } else { target(&what) };
        return Some(Intent::Group { target, name, color: color_word });
    }
    None
}

fn destination(w: Words) -> Option<Destination> {
    let w = strip_articles(w);
    let has = |x: &str| w.iter().any(|y| y == x);
    if has("window") {
        if has("other") || has("second") && !has("window") || has("next") {
            return Some(Destination::OtherWindow);
        }
        if let Some(n) = w.iter().find_map(|x| number(x).or_else(|| ordinal(x))) {
            return Some(Destination::Window(n));
        }
        if has("other") {
            return Some(Destination::OtherWindow);
        }
        return Some(Destination::OtherWindow);
    }
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
    // Duplicates first: "close duplicate tabs", "remove dupes", "deduplicate".
    let dupes = w.iter().any(|x| x == "duplicate" || x == "duplicates" || x == "deduplicate" || x == "dedupe" || x == "duplicated");
    if dupes && (verb(w, CLOSE).is_some() || w[0] == "deduplicate" || w[0] == "dedupe" || is(w, &["duplicates"])) {
        let scope = scope_of(w).unwrap_or(Scope::Everywhere);
        return Ok(Some(Intent::CloseDuplicates { scope }));
    }
    if let Some(rest) = verb(w, CLOSE) {
        if rest.is_empty() {
            return Ok(Some(Intent::Close(Target::active())));
        }
        return Ok(Some(Intent::Close(target(rest))));
    }
    if let Some(rest) = verb(w, &[&["unmute"], &["turn", "on", "the", "sound", "of"], &["turn", "on", "sound", "for"], &["turn", "the", "sound", "back", "on", "for"]]) {
        return Ok(Some(Intent::Mute(target_or_active(rest), false)));
    }
    if let Some(rest) = verb(w, &[&["mute"], &["silence"], &["quiet"], &["hush"], &["shush"], &["turn", "off", "the", "sound", "of"], &["turn", "off", "sound", "for"]]) {
        return Ok(Some(Intent::Mute(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, &[&["unpin"], &["unstick"]]) {
        return Ok(Some(Intent::Pin(target_or_active(rest), false)));
    }
    if let Some(rest) = verb(w, &[&["pin"], &["stick"]]) {
        return Ok(Some(Intent::Pin(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, &[&["hard", "reload"], &["hard", "refresh"], &["force", "reload"]]) {
        return Ok(Some(Intent::Reload(target_or_active(rest), true)));
    }
    if let Some(rest) = verb(w, &[&["reload"], &["refresh"], &["update"]]) {
        let hard = rest.iter().any(|x| x == "cache" || x == "hard");
        let rest: Vec<String> = rest.iter().filter(|x| !["without", "cache", "the", "hard", "bypassing"].contains(&x.as_str()) || x.as_str() == "the").cloned().collect();
        return Ok(Some(Intent::Reload(target_or_active(&rest), hard)));
    }
    if let Some(rest) = verb(w, &[&["discard"], &["unload"], &["suspend"], &["hibernate"], &["sleep"], &["put", "to", "sleep"], &["snooze"], &["free", "up", "memory", "from"], &["free", "memory", "from"]]) {
        let rest: Vec<String> = rest.iter().filter(|x| !["to", "sleep"].contains(&x.as_str())).cloned().collect();
        let t = if rest.is_empty() { Target { scope: Scope::Everywhere, ..Target::of(Selector::Others) } } else { target(&rest) };
        return Ok(Some(Intent::Discard(t)));
    }
    if is(w, &["free", "up", "memory"]) || is(w, &["free", "memory"]) || is(w, &["save", "memory"]) {
        return Ok(Some(Intent::Discard(Target::of(Selector::Others))));
    }
    if let Some(rest) = verb(w, &[&["duplicate"], &["clone"], &["copy"]]) {
        return Ok(Some(Intent::Duplicate(target_or_active(rest))));
    }
    if let Some(rest) = verb(w, &[&["move"], &["send"], &["put"], &["drag"], &["shift"], &["throw"], &["take"]]) {
        let to = rest.iter().rposition(|x| x == "to" || x == "into" || x == "over");
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
            return Ok(Some(Intent::Move(target_or_active(&rest[..rest.len() - 1]), dest)));
        }
    }
    // Open: a URL, a site, a tab.
    if let Some(rest) = verb(w, OPEN) {
        let rest = strip_articles(rest);
        if let Some(url) = url_in(rest) {
            return Ok(Some(Intent::OpenUrl(url)));
        }
        if rest.is_empty() {
            return Ok(Some(Intent::NewTab));
        }
        let words: Vec<String> = rest.iter().filter(|x| !["tab", "website", "site", "page", "app"].contains(&x.as_str())).cloned().collect();
        return Ok(Some(Intent::Open(words)));
    }
    if let Some(rest) = verb(w, SWITCH) {
        let rest_stripped = strip_articles(rest);
        if let Some(url) = url_in(rest_stripped) {
            return Ok(Some(Intent::OpenUrl(url)));
        }
        if rest.is_empty() {
            return Err(NotUnderstood("Which tab? Say for example 'switch to Gmail' or 'go to tab 3'.".into()));
        }
        let mut t = target(rest);
        t.singular = true;
        return Ok(Some(Intent::Switch(t)));
    }
    // A bare site or tab name: "gmail", "tab 3".
    if w.len() <= 3 {
        let t = target(w);
        if matches!(t.selector, Selector::Positions(_) | Selector::Named(_)) {
            return Ok(Some(Intent::Switch(Target { singular: true, ..t })));
        }
    }
    Ok(None)
}

/// A web address in the words ("bbc.co.uk", "https://x.org/a").
fn url_in(w: Words) -> Option<String> {
    if w.len() != 1 {
        // "bbc dot co dot uk"
        if w.iter().any(|x| x == "dot") && w.len() >= 3 {
            let joined: String = w.iter().map(|x| if x == "dot" { "." } else { x.as_str() }).collect();
            return url_in(&[joined]);
        }
        return None;
    }
    let x = &w[0];
    let looks = x.contains("://")
        || (x.contains('.')
            && !x.ends_with('.')
            && x.split('.').next_back().is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic())));
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
    if find_seq(w, &["this", "window"]).is_some() || find_seq(w, &["current", "window"]).is_some() || find_seq(w, &["same", "window"]).is_some() {
        Some(Scope::ThisWindow)
    } else if find_seq(w, &["other", "window"]).is_some() || find_seq(w, &["other", "windows"]).is_some() {
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
            if starts(after, &["other", "windows"]).is_some() || starts(after, &["other", "window"]).is_some() || starts(after, &["current", "window"]).is_some() || starts(after, &["same", "window"]).is_some() {
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

const EXCEPT: &[&[&str]] = &[&["except", "for"], &["except"], &["but", "not"], &["but"], &["other", "than"], &["apart", "from"], &["besides"], &["save", "for"], &["excluding"], &["not"]];

/// Which tabs some words mean: "the youtube tabs", "all but this one",
/// "tabs two and three", "the one that's playing".
pub fn target(w: &[String]) -> Target {
    let scope = scope_of(w);
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
        Selector::Others | Selector::Positions(_) => Scope::ThisWindow,
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
    "the", "my", "a", "an", "tab", "tabs", "page", "pages", "site", "sites", "website", "websites",
    "one", "ones", "of", "that", "which", "is", "are", "open", "opened", "with", "window",
    "windows", "for", "from", "on", "at", "to", "in", "all", "every", "any", "those", "these",
    "them", "thing", "things", "stuff", "instance", "instances", "also", "too",
];

/// The selector some words mean, and whether one tab is meant.
fn selector(w: &[String]) -> (Selector, bool) {
    let w: Vec<String> = w.to_vec();
    let has = |x: &str| w.iter().any(|y| y == x);
    let only = |allowed: &[&str]| w.iter().all(|x| allowed.contains(&x.as_str()));
    if w.is_empty() || only(&["this", "it", "current", "tab", "one", "the", "page", "here", "that", "this's", "active", "selected"]) {
        return (Selector::Active, true);
    }
    if only(&["the", "rest", "of", "them", "tabs", "everything", "else", "all", "others", "remaining", "ones", "other"]) && (has("rest") || has("else") || has("remaining") || is(&w, &["the", "others"])) {
        return (Selector::Rest, false);
    }
    if only(&["other", "tabs", "the", "all", "ones", "others", "every", "tab", "my"]) && (has("other") || has("others")) {
        return (Selector::Others, false);
    }
    if only(&["all", "every", "everything", "each", "tabs", "tab", "the", "my", "of", "open", "them", "single", "one", "everyone"]) {
        return (Selector::All, false);
    }
    if has("playing") || has("audible") || has("noisy") || has("loud") || has("noise") || has("sound") || has("music") || (has("making") && has("noise")) {
        return (Selector::Audible, true);
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
        let name: Vec<String> = strip_articles(&w[..g]).iter().filter(|x| !STOP.contains(&x.as_str())).cloned().collect();
        if !name.is_empty() {
            return (Selector::InGroup(name), false);
        }
    }
    let quantified = has("every") || has("all") || has("each") || has("both") || has("any");
    let singular = !quantified && (has("tab") && !has("tabs") || has("one"));
    // Several names: "jira and confluence", "twitter, reddit or facebook".
    let mut phrases: Vec<Vec<String>> = vec![Vec::new()];
    for x in &w {
        if ["and", "or", "&", "plus", "+", "nor"].contains(&x.as_str()) {
            phrases.push(Vec::new());
        } else if !STOP.contains(&x.as_str()) && !["this", "that", "which", "whose", "where", "it's", "its", "they're"].contains(&x.as_str()) {
            if let Some(last) = phrases.last_mut() {
                last.push(x.trim_end_matches("'s").to_string());
            }
        }
    }
    phrases.retain(|p| !p.is_empty());
    if phrases.is_empty() {
        return (Selector::Active, true);
    }
    (Selector::Named(phrases), singular)
}

/// "tab 3", "tabs two and three", "the third tab", "the last tab",
/// "the first two tabs", "tabs 2 to 4".
fn positions(w: &[String]) -> Option<Vec<Position>> {
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| !["the", "tab", "tabs", "number", "and", "one", "ones", ",", "my", "positions", "position", "at"].contains(x) || number(x).is_some())
        .collect();
    if content.is_empty() {
        return None;
    }
    // "last", "last two", "first three"
    if content[0] == "last" || content[0] == "first" {
        if content.len() == 1 {
            return Some(vec![if content[0] == "last" { Position::Last } else { Position::Nth(1) }]);
        }
        if content.len() == 2 {
            if let Some(n) = loose_number(content[1]) {
                return Some(vec![if content[0] == "last" { Position::LastN(n) } else { Position::First(n) }]);
            }
        }
        return None;
    }
    // "2 to 4", "two through five"
    if content.len() == 3 && ["to", "through", "thru", "till", "until"].contains(&content[1]) {
        if let (Some(a), Some(b)) = (number(content[0]).or_else(|| ordinal(content[0])), number(content[2]).or_else(|| ordinal(content[2]))) {
            return Some(vec![Position::Range(a.min(b), a.max(b))]);
        }
    }
    // A trailing "to"/"too"/"for" after "tab" is a misheard number.
    let fixed: Vec<Option<i64>> = content
        .iter()
        .map(|x| number(x).or_else(|| ordinal(x)).or(match *x {
            "to" | "too" => Some(2),
            "for" => Some(4),
            "won" => Some(1),
            "last" => Some(-1),
            _ => None,
        }))
        .collect();
    if !w.iter().any(|x| x == "tab" || x == "tabs") && !content.iter().all(|x| ordinal(x).is_some()) {
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
        assert_eq!(clauses(&words("put my jira and confluence tabs in a group")).len(), 1);
    }

    #[test]
    fn targets() {
        assert_eq!(p("close tabs two and three"), Intent::Close(Target { selector: Selector::Positions(vec![Position::Nth(2), Position::Nth(3)]), except: None, scope: Scope::ThisWindow, singular: false }));
        assert!(matches!(p("mute all but this one"), Intent::Mute(Target { selector: Selector::All, except: Some(Selector::Active), .. }, true)));
        assert!(matches!(p("close every reddit tab"), Intent::Close(Target { selector: Selector::Named(_), .. })));
        assert!(matches!(p("mute the one that's playing"), Intent::Mute(Target { selector: Selector::Audible, .. }, true)));
        assert!(matches!(p("shut the other tabs"), Intent::Close(Target { selector: Selector::Others, .. })));
    }

    #[test]
    fn groups_and_more() {
        assert_eq!(p("make a purple group named Travel with the flights tab"), Intent::Group { target: Target { selector: Selector::Named(vec![vec!["flights".into()]]), except: None, scope: Scope::Everywhere, singular: true }, name: Some("Travel".into()), color: Some(Color::Purple) });
        assert_eq!(p("call the news group Reading"), Intent::RenameGroup(GroupWhich::Named(vec!["news".into()]), "Reading".into()));
        assert_eq!(p("fold the docs group"), Intent::CollapseGroup(GroupWhich::Named(vec!["docs".into()]), true));
        assert_eq!(p("ungroup all"), Intent::Ungroup(GroupWhich::All));
        assert_eq!(p("group my tabs by site"), Intent::GroupBySite);
        assert_eq!(p("search Bing for rust async"), Intent::Search { query: "rust async".into(), engine: Some("bing".into()) });
        assert_eq!(p("look up tokio on Wikipedia"), Intent::Search { query: "tokio".into(), engine: Some("wikipedia".into()) });
        assert_eq!(p("what did I read last week about webgpu"), Intent::History { query: "webgpu".into(), span: Some(TimeSpan::LastWeek) });
        assert_eq!(p("bookmark this in Reading"), Intent::Bookmark { target: Target::active(), folder: Some("Reading".into()) });
        assert_eq!(p("show bookmarks about cooking"), Intent::FindBookmarks("cooking".into()));
        assert_eq!(p("open my candle docs bookmark"), Intent::OpenBookmark(vec!["candle".into(), "docs".into()]));
        assert_eq!(p("open bbc.co.uk"), Intent::OpenUrl("bbc.co.uk".into()));
        assert_eq!(p("how many tabs are open"), Intent::CountTabs);
        assert_eq!(p("undo that"), Intent::Undo);
        assert!(matches!(p("send the map tab to the other window"), Intent::Move(_, Destination::OtherWindow)));
    }
}
