//! Bookmarks: "bookmark this in Reading", "show bookmarks about cooking",
//! "open my candle docs bookmark".

use super::intent::{Intent, Target};
use super::open::OPEN;
use super::target::target;
use super::window_scope::{scope_of, without_scope};
use super::words::*;
use super::Parsed;
use crate::interpret::text::number;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["bookmark", "star", "save", "favorite", "favourite"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "bookmark this page",
    "bookmark this tab",
    "bookmark {tab}",
    "bookmark the {tab} tab",
    "bookmark all tabs",
];

/// Words that say what a bookmark search looks for ("bookmarks about
/// cooking").
pub const TOPIC_WORDS: &[&str] = &[
    "about",
    "for",
    "on",
    "with",
    "regarding",
    "called",
    "named",
    "mentioning",
];

pub fn parse(w: Words) -> Parsed {
    Ok(bookmarks(w))
}

/// What follows "open": one bookmark ("my candle docs bookmark", "the
/// bookmark for candle"), or every match ("my cooking bookmarks", "all
/// the bookmarks in my cooking folder", "everything in the cooking
/// folder", "the cooking folder").
fn open_bookmarks(rest: Words) -> Option<Intent> {
    let at = rest
        .iter()
        .position(|x| ["bookmark", "bookmarks", "folder"].contains(&x.as_str()))?;
    let mut all = rest[at] != "bookmark";
    let mut before = strip_articles(&rest[..at]);
    let leads: [&[&str]; 5] = [
        &["everything", "in"],
        &["everything", "from"],
        &["all", "of"],
        &["all"],
        &["every"],
    ];
    if let Some(r) = leads.iter().find_map(|lead| starts(before, lead)) {
        before = strip_articles(r);
        all = true;
    }
    let after = &rest[at + 1..];
    let after = ["for", "about", "called", "named", "in", "from", "under"]
        .iter()
        .find_map(|w| starts(after, &[w]))
        .unwrap_or(after);
    let after = strip_articles(after);
    // "… in my cooking folder"
    let after = ends(after, &["folder"]).unwrap_or(after);
    let words: Vec<String> = before.iter().chain(after).cloned().collect();
    (!words.is_empty()).then_some(Intent::OpenBookmark { words, all })
}

/// "recent", "my last 5", "the ten newest", "recently": how many of the
/// bookmarks added last (10 when no count is said).
fn newest(topic: Words) -> Option<usize> {
    const NEWEST: &[&str] = &[
        "recent", "recently", "latest", "newest", "last", "new", "most", "lately", "just",
    ];
    let mut count = None;
    let mut said = false;
    for x in topic {
        match number(x).and_then(|n| usize::try_from(n).ok()) {
            Some(n) if n > 0 && count.is_none() => count = Some(n),
            _ if NEWEST.contains(&x.as_str()) => said = true,
            _ => return None,
        }
    }
    said.then(|| count.unwrap_or(10))
}

/// "is this page bookmarked", "is it in my bookmarks", "have I bookmarked
/// this already", "did I bookmark the jira tab".
fn is_bookmarked(w: Words) -> Option<Intent> {
    let rest = match starts(w, &["is"]) {
        Some(r) => ends(r, &["bookmarked"])
            .or_else(|| ends(r, &["already", "bookmarked"]))
            .or_else(|| ends(r, &["in", "my", "bookmarks"]))
            .or_else(|| ends(r, &["in", "the", "bookmarks"]))?,
        None => verb(
            w,
            &[
                &["have", "i", "bookmarked"],
                &["did", "i", "bookmark"],
                &["have", "i", "already", "bookmarked"],
                &["did", "i", "already", "bookmark"],
            ],
        )?,
    };
    let rest = ends(rest, &["already"])
        .or_else(|| ends(rest, &["yet"]))
        .or_else(|| ends(rest, &["before"]))
        .unwrap_or(rest);
    // "this", "it", "this page", "the current tab": the tab in front.
    let this = ["this", "it", "page", "tab", "site", "the", "current", "one"];
    let target = if all_in(rest, &this) {
        Target::active()
    } else {
        target(rest)
    };
    Some(Intent::IsBookmarked(target))
}

/// "what's in my cooking folder", "show me the rust folder": the
/// folder's title words.
fn folder_asked(w: Words) -> Option<String> {
    let rest = verb(
        w,
        &[
            &["what's", "in"],
            &["whats", "in"],
            &["what", "is", "in"],
            &["what", "do", "i", "have", "in"],
            &["show", "me"],
            &["show"],
            &["list"],
        ],
    )?;
    let name = ends(rest, &["folder"])?;
    let name: Vec<String> = strip_articles(name)
        .iter()
        .filter(|x| !["my", "bookmarks", "bookmark"].contains(&x.as_str()))
        .cloned()
        .collect();
    (!name.is_empty()).then(|| join(&name))
}

fn bookmarks(w: Words) -> Option<Intent> {
    if let Some(asked) = is_bookmarked(w) {
        return Some(asked);
    }
    let mentions = w
        .iter()
        .any(|x| ["bookmark", "bookmarks", "favorites", "favourites"].contains(&x.as_str()));
    if let Some(rest) = verb(w, OPEN).or_else(|| verb(w, &[&["go", "to"], &["switch", "to"]])) {
        // "open my candle docs bookmark next to this one": opened there.
        if let Some(beside) = super::open::open_beside(w) {
            return Some(beside);
        }
        if let Some(open) = open_bookmarks(rest) {
            return Some(open);
        }
    }
    if let Some(folder) = folder_asked(w) {
        return Some(Intent::BookmarkFolder(folder));
    }
    // "save this page for later", "save it for later", "save all tabs",
    // "save them": a bookmark (an add-on cannot save a page to disk).
    let later = w[0] == "save" && (ends(w, &["for", "later"]).is_some() || says_tabs(&w[1..]));
    if !mentions && !later && !["star", "favorite", "favourite"].contains(&w[0].as_str()) {
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
        // "show my rust bookmarks": a folder, if one is so named.
        let folder = topic.is_empty();
        if let Some(i) = topic.iter().position(|x| TOPIC_WORDS.contains(&x.as_str())) {
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
        if let Some(count) = newest(&topic) {
            return Some(Intent::RecentBookmarks(count));
        }
        if folder && !topic.is_empty() {
            return Some(Intent::BookmarkFolder(join(&topic)));
        }
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
    let rest = if later {
        ends(rest, &["for", "later"]).unwrap_or(rest)
    } else {
        rest
    };
    if !mentions && !starring.contains(&w[0].as_str()) && !later {
        return None;
    }
    // The tab comes first; each "in/to/under/as ..." after it may name the
    // folder, and the last one that does wins. Of one tab, "as …" is the
    // bookmark's name: "bookmark this as lasagne".
    let (what, mut folders) = tabs_and_folders(rest);
    const SAY_NOTHING: &[&str] = &[
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
        "favorites",
        "favourites",
        "favorite",
        "favourite",
    ];
    let named = |f: &[String]| {
        let f: Vec<String> = (f.iter())
            .filter(|x| !SAY_NOTHING.contains(&x.as_str()))
            .cloned()
            .collect();
        title_case(&f)
    };
    let one_tab = what.is_empty() || target(&what).singular;
    let named_as = folders
        .iter()
        .position(|f| one_tab && f.first().is_some_and(|x| x == "as"));
    let title = named_as
        .map(|at| named(&folders.remove(at)[1..]))
        .filter(|n| !n.is_empty());
    let folder = folders
        .into_iter()
        .map(|f| named(&f[1..]))
        .rfind(|f| !f.is_empty());
    let target = if what.is_empty() {
        Target::active()
    } else {
        target(&what)
    };
    Some(Intent::Bookmark {
        target,
        folder,
        title,
    })
}

/// "this page", "all tabs", "them", "the youtube tabs": what "save" can
/// be said of to mean a bookmark.
fn says_tabs(rest: Words) -> bool {
    const TABS: &[&str] = &[
        "tab", "tabs", "page", "pages", "them", "it", "this", "these",
    ];
    let rest = ends(rest, &["first"]).unwrap_or(rest);
    rest.first().is_some_and(|x| {
        TABS.contains(&x.as_str()) || x == "all" || x == "every" || x == "the" || x == "my"
    }) && rest.iter().any(|x| TABS.contains(&x.as_str()))
}

/// Splits "all tabs in this window into Reading" at each "in/to/under/as"
/// into the tabs ("all tabs in this window") and the folders named after
/// them ("Reading"). A window said after "in" or "on" says which tabs, not
/// a folder: "save the tabs in window 2 for later"; so does a group said
/// after "in": "bookmark all tabs in the travel group".
fn tabs_and_folders(rest: Words) -> (Vec<String>, Vec<Vec<String>>) {
    const MARKS: &[&str] = &["in", "into", "to", "under", "on", "as", "inside"];
    let is_mark = |x: &String| MARKS.contains(&x.as_str());
    let first = rest.iter().position(is_mark).unwrap_or(rest.len());
    let mut what = rest[..first].to_vec();
    let mut folders = Vec::new();
    let mut at = first;
    while at < rest.len() {
        let end = rest[at + 1..]
            .iter()
            .position(is_mark)
            .map_or(rest.len(), |n| at + 1 + n);
        let part = &rest[at..end];
        // "all tabs in the travel group": which tabs, as a window says.
        let a_group = part[0] == "in" && part.last().is_some_and(|x| x == "group");
        if a_group || (scope_of(part).is_some() && without_scope(part).is_empty()) {
            what.extend_from_slice(part);
        } else {
            folders.push(part.to_vec());
        }
        at = end;
    }
    (what, folders)
}
