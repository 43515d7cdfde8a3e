//! Questions about the tabs: "how many tabs", "list my tabs", "which tab
//! is playing", "what groups do I have", "which search engines".

use super::super::text::loose_number;
use super::idle::says_idle;
use super::intent::{Intent, Scope, Selector, Target};
use super::target::target;
use super::window_scope::{scope_of, without_scope};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["how", "count", "list", "tell"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "how many tabs do I have",
    "how many tabs are open",
    "list my tabs",
    "what tabs are playing audio",
    "which tab is playing music",
    "which tab is playing audio",
    "what groups do I have",
    "how many windows do I have",
];

pub fn parse(w: Words) -> Parsed {
    Ok(questions(w))
}

/// "how many tabs", "list my tabs", "what did I read last week about webgpu".
fn questions(w: Words) -> Option<Intent> {
    if asks_for_help(w) {
        return Some(Intent::Help);
    }
    if let Some(intent) = duplicates(w)
        .or_else(|| last_used(w))
        .or_else(|| is_open(w))
        .or_else(|| count(w))
        .or_else(|| which_window(w))
        .or_else(|| which_group(w))
    {
        return Some(intent);
    }
    let list_start = ["list", "show", "what", "which", "what's", "whats", "tell"];
    // "what groups are there"; "what group do I have" as Whisper hears it.
    let groups = mentions(w, &["groups"]) || (mentions(w, &["group"]) && mentions(w, &["have"]));
    if list_start.contains(&w[0].as_str()) && groups && !w.iter().any(|x| x == "tabs") {
        return Some(Intent::ListGroups);
    }
    // "what color is the news group", "is the design group collapsed": the
    // list of groups says each one's color and whether it is collapsed.
    let looks = mentions(w, &["color", "colour", "collapsed", "expanded", "folded"]);
    let asks = ["what", "what's", "whats", "which", "is", "are"].contains(&w[0].as_str());
    if asks && looks && mentions(w, &["group", "groups"]) && !mentions(w, &["tab", "tabs"]) {
        // One group named: its look; "which groups are collapsed": all.
        const ASKED: &[&str] = &[
            "what",
            "what's",
            "whats",
            "which",
            "is",
            "are",
            "the",
            "color",
            "colour",
            "of",
            "collapsed",
            "expanded",
            "folded",
            "group",
            "groups",
            "it",
            "still",
        ];
        let named: Vec<String> = (w.iter())
            .filter(|x| !ASKED.contains(&x.as_str()))
            .cloned()
            .collect();
        let one = mentions(w, &["group"]) && !mentions(w, &["groups"]);
        if one && (!named.is_empty() || mentions(w, &["this"])) {
            let mut said = named;
            said.push("group".into());
            return Some(Intent::DescribeGroup(super::groups::group_which(&said)));
        }
        return Some(Intent::ListGroups);
    }
    if list_start.contains(&w[0].as_str()) && mentions(w, &["engine", "engines"]) {
        return Some(Intent::ListEngines);
    }
    list(w)
}

/// "help", "what can you do", "what can I say", "list the commands".
fn asks_for_help(w: Words) -> bool {
    const ASKED: &[&[&str]] = &[
        &["help"],
        &["help", "me"],
        &["what", "can", "you", "do"],
        &["what", "can", "i", "say"],
        &["what", "can", "i", "do"],
        &["what", "do", "i", "say"],
        &["what", "commands", "are", "there"],
        &["what", "are", "the", "commands"],
        &["show", "commands"],
        &["show", "the", "commands"],
        &["list", "commands"],
        &["list", "the", "commands"],
        &["how", "does", "this", "work"],
    ];
    ASKED.iter().any(|p| is(w, p))
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
    "they",
];

/// The words of a question without `BEING`, but keeping "in this window".
fn question_target(w: Words) -> Target {
    // "tabs I have not used in a day" needs its "I have … in".
    if says_idle(w) {
        return target(w);
    }
    let scope = scope_of(w);
    // "the last tab in the docs group" needs its "in".
    let of_a_group = mentions(w, &["group"]);
    let kept: Vec<String> = without_scope(w)
        .into_iter()
        .filter(|x| !BEING.contains(&x.as_str()) || (of_a_group && x == "in"))
        .collect();
    let kept = strip_leading(&kept, &["which", "what"]).to_vec();
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

/// "are there any duplicate tabs", "which tabs are open twice", "how many
/// duplicates do I have": the pages open more than once, closing none.
fn duplicates(w: Words) -> Option<Intent> {
    const ASKING: &[&str] = &[
        "are", "is", "do", "does", "have", "which", "what", "how", "any", "list", "show", "find",
        "count", "got",
    ];
    let dupes = mentions(
        w,
        &["duplicate", "duplicates", "duplicated", "dupes", "twice"],
    ) || find_seq(w, &["more", "than", "once"]).is_some();
    (dupes && ASKING.contains(&w[0].as_str())).then(|| Intent::ListDuplicates {
        scope: scope_of(w).unwrap_or(Scope::Everywhere),
    })
}

/// How a question about last use says "use": "use gmail", "look at slack",
/// "visit reddit".
const USED: &[&[&str]] = &[
    &["use"],
    &["used"],
    &["look", "at"],
    &["looked", "at"],
    &["go", "to"],
    &["went", "to"],
    &["switch", "to"],
    &["switched", "to"],
    &["see"],
    &["saw"],
    &["seen"],
    &["visit"],
    &["visited"],
    &["open"],
    &["opened"],
    &["check"],
    &["checked"],
    &["read"],
    &["was", "on"],
    &["was", "in"],
    &["active"],
];

/// "when did I last use gmail", "when was the jira tab last opened", "how
/// long since I looked at slack": when the tab was last in front.
fn last_used(w: Words) -> Option<Intent> {
    let asked = verb(
        w,
        &[
            &["when", "did", "i", "last"],
            &["when", "was", "i", "last"],
            &["when", "have", "i", "last"],
            &["when", "did", "i"],
            &["how", "long", "since", "i"],
            &["how", "long", "ago", "did", "i"],
            &["how", "long", "has", "it", "been", "since", "i"],
        ],
    );
    let named = match asked {
        Some(rest) => verb(strip_leading(rest, &["last"]), USED)?,
        // "when was the jira tab last used"
        None => {
            let rest = verb(w, &[&["when", "was"], &["when", "were"]])?;
            let at = find(rest, "last")?;
            verb(&rest[at + 1..], USED).filter(|after| after.is_empty())?;
            &rest[..at]
        }
    };
    let named = strip_articles(named);
    (!named.is_empty()).then(|| Intent::LastUsed(target(named)))
}

/// "is gmail open", "do I have youtube open", "is there a netflix tab",
/// "are any reddit tabs open": yes (which) or no, changing nothing.
fn is_open(said: Words) -> Option<Intent> {
    // "is the gmail tab open in window 2": the window is said apart.
    let scope = scope_of(said);
    let unscoped = without_scope(said);
    let w: Words = &unscoped;
    const PLAYING: &[&str] = &["playing", "audible", "noise", "sound", "muted", "pinned"];
    if mentions(w, PLAYING) {
        return None;
    }
    // "is there more than one window", "do I have more than two windows
    // open": how many windows there are answers it.
    let more_than = [
        &["is", "there", "more", "than"][..],
        &["are", "there", "more", "than"],
        &["do", "i", "have", "more", "than"],
    ];
    if let Some([n, rest @ ..]) = verb(w, &more_than) {
        let rest = ends(rest, &["open"]).unwrap_or(rest);
        if loose_number(n).is_some() && (is(rest, &["window"]) || is(rest, &["windows"])) {
            return Some(Intent::CountWindows);
        }
    }
    let named = if let Some(rest) = verb(w, &[&["is", "there"], &["are", "there"]]) {
        // "is there a netflix tab", "is there a tab for jira", "are there
        // any youtube tabs open"
        let rest = ends(rest, &["open"]).unwrap_or(rest);
        let rest = strip_leading(rest, &["a", "an", "any"]);
        let named = verb(rest, &[&["tab", "for"], &["tab", "with"], &["tab", "from"]])
            .or_else(|| ends(rest, &["tab"]))
            .or_else(|| ends(rest, &["tabs"]))?;
        named.to_vec()
    } else if let Some(rest) = verb(
        w,
        &[
            &["do", "i", "have"],
            &["do", "i", "still", "have"],
            &["have", "i", "got"],
            &["do", "we", "have"],
        ],
    ) {
        // "do I have youtube open"; "do I have a jira tab" (not "do I have
        // time": said of tabs, or of something open).
        let rest = strip_leading(rest, &["a", "an", "any"]);
        ends(rest, &["open"])
            .map(|named| {
                ends(named, &["tabs"])
                    .or_else(|| ends(named, &["tab"]))
                    .filter(|n| !n.is_empty())
                    .unwrap_or(named)
            })
            .or_else(|| ends(rest, &["tab"]))
            .or_else(|| ends(rest, &["tabs"]))?
            .to_vec()
    } else {
        // "is gmail open", "is the jira tab still open", "are any youtube
        // tabs open"
        let rest = verb(w, &[&["is"], &["are"]])?;
        let rest = ends(rest, &["open"])?;
        rest.iter()
            .filter(|x| !["still", "already", "any", "currently"].contains(&x.as_str()))
            .cloned()
            .collect()
    };
    let named = strip_articles(&named);
    // "is there more than one reddit tab", "are there more than two
    // youtube tabs": how many there are answers it.
    if let Some(rest) = verb(named, &[&["more", "than"]]) {
        let rest = rest.get(1..).filter(|_| loose_number(&rest[0]).is_some())?;
        let mut t = target(strip_articles(rest));
        if let Some(scope) = scope {
            t.scope = scope;
        }
        return Some(Intent::Count(t));
    }
    // "is there a way to close tabs" asks how, not whether; "is another
    // window open" asks how many windows.
    const NOT_A_NAME: &[&str] = &[
        "way", "to", "more", "than", "another", "window", "windows", "two", "three", "several",
    ];
    let asks_how = named
        .iter()
        .any(|x| NOT_A_NAME.contains(&x.as_str()) || super::command_verbs().any(|v| v == x));
    if named.is_empty() || asks_how {
        return None;
    }
    let mut t = target(named);
    if let Some(scope) = scope {
        t.scope = scope;
    }
    Some(Intent::IsOpen(t))
}

/// Asking of every window at once.
const EACH_WINDOW: &[&[&str]] = &[
    &["each", "window"],
    &["every", "window"],
    &["per", "window"],
    &["each", "of", "my", "windows"],
    &["each", "of", "the", "windows"],
];

/// "how many tabs", "count my tabs", "how many youtube tabs are open in
/// this window", "how many windows", "which window has the most tabs".
fn count(w: Words) -> Option<Intent> {
    // "which window has the most tabs", "what window has the fewest".
    if let Some(rest) = verb(w, &[&["which", "window"], &["what", "window"]]) {
        if mentions(rest, &["most", "more"]) {
            return Some(Intent::BusiestWindow { most: true });
        }
        if mentions(rest, &["fewest", "least", "fewer", "less"]) {
            return Some(Intent::BusiestWindow { most: false });
        }
    }
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
    // "how many tab groups": groups, not tabs.
    if find_seq(rest, &["tab", "groups"]).is_some() || find_seq(rest, &["tab", "group"]).is_some() {
        return Some(Intent::ListGroups);
    }
    let tabs = mentions(rest, &["tab", "tabs"]) || w[0] == "tab";
    if !tabs && mentions(rest, &["window", "windows"]) {
        return Some(Intent::CountWindows);
    }
    // "how many tabs are in each window": the windows' answer counts them;
    // "how many youtube tabs are in each window": those, window by window.
    let each = EACH_WINDOW
        .iter()
        .find_map(|said| Some((find_seq(rest, said)?, said.len())));
    if let (true, Some((at, len))) = (tabs, each) {
        let without: Vec<String> = [&rest[..at], &rest[at + len..]].concat();
        let described = question_target(strip_leading(&without, &["in", "of", "per"]));
        return Some(match described.selector {
            Selector::All => Intent::CountWindows,
            _ => Intent::CountEachWindow(described),
        });
    }
    // "how many groups do I have": the list says how many; "how many
    // tabs are in each group" too (it counts each group's tabs).
    let each_group = ["each", "every", "per"]
        .iter()
        .any(|e| find_seq(rest, &[e, "group"]).is_some());
    if (!tabs || each_group) && mentions(rest, &["group", "groups"]) {
        return Some(Intent::ListGroups);
    }
    // "how many bookmarks do I have", "how many bookmarks are in my
    // cooking folder".
    if !tabs && mentions(rest, &["bookmark", "bookmarks"]) {
        let folder = rest
            .iter()
            .position(|x| x == "in" || x == "under")
            .map(|at| {
                strip_articles(&rest[at + 1..])
                    .iter()
                    .filter(|x| !["my", "folder", "the"].contains(&x.as_str()))
                    .cloned()
                    .collect::<Vec<String>>()
            })
            .filter(|f| !f.is_empty());
        return Some(Intent::CountBookmarks { folder });
    }
    tabs.then(|| Intent::Count(question_target(rest)))
}

/// Asking for every tab without saying "tabs".
const WHAT_IS_OPEN: &[&[&str]] = &[
    &["what's", "open"],
    &["whats", "open"],
    &["what", "is", "open"],
    &["what", "do", "i", "have", "open"],
    &["what", "have", "i", "got", "open"],
];

/// "which window is netflix in", "what window has the youtube tabs",
/// "what window am I in", "where are my youtube tabs".
fn which_window(w: Words) -> Option<Intent> {
    // "where are my youtube tabs": which windows they are in. ("where is
    // the netflix tab" goes there.)
    if let Some(rest) = verb(w, &[&["where", "are"]]) {
        let rest = strip_articles(rest);
        let names_tabs = rest.last().is_some_and(|x| x == "tabs");
        return (names_tabs && rest.len() > 1).then(|| Intent::WhichWindow(target(rest)));
    }
    let rest = verb(
        w,
        &[
            &["which", "window"],
            &["what", "window"],
            &["which", "windows"],
        ],
    )?;
    const HERE: &[&[&str]] = &[
        &["am", "i", "in"],
        &["am", "i", "on"],
        &["is", "this"],
        &["is", "this", "tab", "in"],
        &["is", "this", "in"],
        &["are", "we", "in"],
        &["is", "this", "one"],
    ];
    if HERE.iter().any(|p| is(rest, p)) {
        return Some(Intent::WhichWindow(Target::active()));
    }
    let named = verb(
        rest,
        &[
            &["is"],
            &["are"],
            &["has"],
            &["have"],
            &["holds"],
            &["contains"],
        ],
    )?;
    let named = named
        .strip_suffix(&["in".to_string()])
        .or_else(|| named.strip_suffix(&["on".to_string()]))
        .unwrap_or(named);
    let named = strip_articles(named);
    (!named.is_empty()).then(|| Intent::WhichWindow(target(named)))
}

/// "which group is this tab in", "what group is gmail in", "what group
/// am I in".
fn which_group(w: Words) -> Option<Intent> {
    let rest = verb(w, &[&["which", "group"], &["what", "group"]])?;
    let rest = verb(rest, &[&["is"], &["are"], &["am"]])?;
    let named = ends(rest, &["in"]).or_else(|| ends(rest, &["part", "of"]))?;
    let named = strip_articles(named);
    if named.is_empty() || is(named, &["i"]) {
        return Some(Intent::WhichGroup(Target::active()));
    }
    Some(Intent::WhichGroup(target(named)))
}

/// Asking what plays without saying "playing".
const LISTENING_TO: &[&[&str]] = &[
    &["what", "am", "i", "listening", "to"],
    &["what", "are", "we", "listening", "to"],
    &["what", "am", "i", "hearing"],
    &["what", "is", "this", "song"],
    &["what's", "this", "song"],
    &["what", "song", "is", "this"],
    &["what", "song", "is", "on"],
    &["where", "is", "the", "music", "coming", "from"],
    &["where", "is", "that", "sound", "coming", "from"],
    &["where's", "the", "music", "coming", "from"],
    &["where's", "that", "sound", "coming", "from"],
];

/// "what's the address of this page", "what site is this", "what's the
/// url": the tab in front, whose answer says its address.
fn this_page(w: Words) -> bool {
    const SAID: &[&str] = &[
        "what", "what's", "whats", "which", "is", "the", "this", "page", "site", "website", "url",
        "address", "link", "of", "am", "i", "i'm", "on", "tab", "current", "web",
    ];
    all_in(w, SAID) && mentions(w, &["url", "address", "link", "site", "website", "page"])
}

/// Asking for the tab in front before this one.
const BEFORE_THIS: &[&[&str]] = &[
    &["what", "was", "i", "just", "looking", "at"],
    &["what", "was", "i", "looking", "at"],
    &["what", "was", "i", "just", "on"],
    &["what", "was", "i", "on", "before"],
    &["which", "tab", "was", "i", "on", "before"],
    &["what", "tab", "was", "i", "on", "before"],
    &["which", "tab", "was", "i", "just", "on"],
    &["what", "tab", "was", "i", "just", "on"],
    &["which", "tab", "did", "i", "use", "last"],
    &["what", "tab", "did", "i", "use", "last"],
    &["which", "tab", "did", "i", "just", "use"],
    &["what", "was", "the", "last", "tab", "i", "used"],
    &["what", "was", "my", "last", "tab"],
    &["what", "was", "the", "previous", "tab"],
];

/// "list my tabs", "what tabs do I have open", "which tab is playing".
fn list(w: Words) -> Option<Intent> {
    if LISTENING_TO.iter().any(|p| is(w, p)) {
        return Some(Intent::ListTabs(Target::of(Selector::Audible)));
    }
    if BEFORE_THIS.iter().any(|p| is(w, p)) {
        return Some(Intent::ListTabs(Target::of(Selector::Recent)));
    }
    // "which tab did I open last", "what did I open first".
    let opened = verb(
        w,
        &[
            &["which", "tab", "did", "i", "open"],
            &["what", "tab", "did", "i", "open"],
            &["what", "did", "i", "open"],
            &["which", "tab", "was", "opened"],
            &["what", "tab", "was", "opened"],
        ],
    );
    match opened.map(|rest| rest.iter().map(String::as_str).collect::<Vec<_>>()) {
        Some(rest) if rest == ["last"] || rest == ["most", "recently"] => {
            return Some(Intent::ListTabs(Target::of(Selector::Newest(1))))
        }
        Some(rest) if rest == ["first"] => {
            return Some(Intent::ListTabs(Target::of(Selector::Oldest(1))))
        }
        _ => {}
    }
    // "is youtube playing", "is the jira tab making noise": what plays
    // answers it, naming the tabs.
    let sound = ["playing", "audible", "noise", "sound", "music"];
    if (w[0] == "is" || w[0] == "are") && w.len() > 2 && mentions(w, &sound) {
        let scope = scope_of(w).unwrap_or(Scope::Everywhere);
        return Some(Intent::ListTabs(Target {
            scope,
            ..Target::of(Selector::Audible)
        }));
    }
    let playing = mentions(w, &["playing", "audible", "noise", "sound"]);
    let tabs = mentions(w, &["tab", "tabs"]);
    // "is anything playing", "is any tab making noise"
    let yes_no = matches!(w, [is, any, ..] if (is == "is" || is == "are")
        && ["anything", "any", "something", "there"].contains(&any.as_str()));
    let asks = yes_no || ["what", "which", "what's", "whats"].contains(&w[0].as_str());
    let about_tabs = tabs || playing;
    let in_group = asks && find(w, "in").is_some() && mentions(w, &["group"]);
    // "what's in the other window", "what's in window 2"
    let windowed = mentions(w, &["window", "windows"]) && scope_of(w).is_some();
    let in_window = asks && find(w, "in").is_some() && windowed;
    // "list my windows", "show all windows": how many, with their tabs.
    if ["list", "show"].contains(&w[0].as_str())
        && !tabs
        && all_in(&w[1..], &["me", "all", "my", "the", "windows", "open"])
        && mentions(w, &["windows"])
    {
        return Some(Intent::CountWindows);
    }
    let listing = (w[0] == "list" && about_tabs)
        // "what's in the docs group"
        || in_group
        || in_window
        // "what's open", "what do I have open"
        || (asks && WHAT_IS_OPEN.iter().any(|p| is(w, p)))
        // "what did I read": history, not tabs.
        || (asks && about_tabs && !mentions(w, &["did", "was", "were", "history"]))
        // "show me the flights tab" switches; "show all my tabs" and "show
        // me the youtube tabs" (several) list.
        || (w[0] == "show"
            && tabs
            && all_in(
                &without_scope(&w[1..]),
                &["me", "all", "my", "the", "tabs", "open", "of", "every", "tab"],
            ))
        || (w[0] == "show" && without_scope(w).last().is_some_and(|x| x == "tabs"));
    if asks && this_page(w) {
        return Some(Intent::ListTabs(Target::active()));
    }
    if !listing {
        return None;
    }
    let rest = &w[1..];
    // "what tab am I on", "which tab is this": the one in front.
    let in_front = (mentions(rest, &["am", "i'm"]) && !mentions(rest, &["tabs"]))
        || is(rest, &["tab", "is", "this"]);
    if in_front && !playing {
        return Some(Intent::ListTabs(Target::active()));
    }
    Some(Intent::ListTabs(question_target(rest)))
}
