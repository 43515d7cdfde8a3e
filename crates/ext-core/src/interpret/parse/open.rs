//! Opening things: "open gmail" (switching to it if it is open), "open
//! github.com", "open a new tab".

use super::intent::{Destination, Intent, Scope, Target, WindowRef};
use super::window_scope::scope_of;
use super::words::*;
use super::Parsed;
use crate::interpret::sites;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["open", "launch", "visit", "navigate", "pull"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "open a new tab",
    "open a new window",
    "open {site}",
    "open {domain}",
];

pub fn parse(w: Words) -> Parsed {
    Ok(open(w))
}

pub const OPEN: &[&[&str]] = &[
    &["open", "up"],
    &["open"],
    &["launch"],
    &["visit"],
    &["load"],
    &["browse", "to"],
    &["navigate", "to"],
    &["pull", "up"],
];

fn open(w: Words) -> Option<Intent> {
    if let Some(intent) = open_beside(w).or_else(|| open_in_window(w)) {
        return Some(intent);
    }
    // Open: a URL, a site, a tab.
    if let Some(rest) = verb(w, OPEN) {
        if let Some(intent) = this_elsewhere(rest) {
            return Some(intent);
        }
        let rest = strip_articles(rest);
        // "open reddit in a new tab", "open a new tab with reddit", "open
        // netflix in the background": a fresh tab even if one is open.
        if let Some((named, Fresh { active, window })) = in_fresh_tab(rest) {
            const KIND: &[&str] = &["website", "site", "page", "app", "tab", "video", "article"];
            let words: Vec<String> = named
                .iter()
                .filter(|x| !KIND.contains(&x.as_str()))
                .cloned()
                .collect();
            // "open a new tab in the background": a blank one.
            let blank = all_in(&words, &["new", "blank", "empty", "fresh", "for", "me"]);
            // "open the reddit tab in a new window": that tab moves there,
            // as Firefox's "Move to New Window" does.
            if window && named.iter().any(|x| x == "tab" || x == "tabs") {
                return Some(Intent::Move(
                    super::target::target(named),
                    Destination::NewWindow,
                ));
            }
            // An address in a new tab is opened below; in a new window
            // ("open github.com in a new window") it is opened here.
            if (window || url_in(named).is_none()) && !words.is_empty() && !blank {
                return Some(Intent::OpenNew {
                    words,
                    active,
                    window,
                });
            }
            if blank && !active {
                return Some(Intent::OpenNew {
                    words: Vec::new(),
                    active,
                    window,
                });
            }
        }
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
            return Some(Intent::OpenUrl(url));
        }
        if rest.is_empty() {
            return Some(Intent::NewTab);
        }
        // "open the second youtube tab", "open the last jira tab": one of
        // the tabs a name matches, by its place among them.
        let placed = rest.len() >= 2
            && (rest[0] == "last" || super::super::text::ordinal(&rest[0]).is_some())
            && rest.last().is_some_and(|x| x == "tab");
        if placed {
            return Some(Intent::Switch(super::target::target(rest)));
        }
        let words: Vec<String> = rest
            .iter()
            .filter(|x| !["tab", "website", "site", "page", "app"].contains(&x.as_str()))
            .cloned()
            .collect();
        return Some(Intent::Open(words));
    }
    None
}

/// "open bbc.com next to this one", "open a new tab beside jira", "open
/// gmail right next to slack": a new tab there. "open the tab next to
/// jira" is that tab.
pub(super) fn open_beside(w: Words) -> Option<Intent> {
    let rest = verb(w, OPEN)?;
    let (at, len) = rest
        .iter()
        .enumerate()
        .find_map(|(i, x)| match x.as_str() {
            "beside" => Some((i, 1)),
            "next" if rest.get(i + 1).is_some_and(|y| y == "to") => Some((i, 2)),
            _ => None,
        })?;
    let what = &rest[..at];
    let what = ends(what, &["right"]).unwrap_or(what);
    let reference = &rest[at + len..];
    if reference.is_empty() {
        return None;
    }
    if all_in(what, &["the", "tab", "one"]) {
        // "open the tab next to jira": a tab there, switched to.
        return Some(Intent::Switch(super::target::target(rest)));
    }
    let opened = opened_fresh(&w[0], what)?;
    let mut beside = super::target::target(reference);
    beside.singular = true;
    Some(Intent::OpenBeside {
        open: Box::new(opened),
        beside,
    })
}

/// "open youtube in the other window", "open bbc.com in window 2", "open
/// a new tab in the second window": a fresh tab in that window. "open the
/// jira tab in window 2" is that tab, moved there.
fn open_in_window(w: Words) -> Option<Intent> {
    let rest = verb(w, OPEN)?;
    let at = rest.iter().rposition(|x| x == "in" || x == "on")?;
    let (what, place) = (&rest[..at], &rest[at + 1..]);
    let window = match scope_of(place)? {
        Scope::OtherWindows => WindowRef::Other,
        Scope::Window(n) => WindowRef::Nth(n),
        _ => return None,
    };
    // Only the window is said after "in".
    let only_the_window = all_in(
        place,
        &["the", "other", "window", "second", "third", "fourth"],
    ) || (place.len() == 2 && place[0] == "window");
    if !only_the_window {
        return None;
    }
    if what.iter().any(|x| x == "tab" || x == "tabs")
        && !all_in(what, &["a", "new", "tab", "blank", "another"])
    {
        let dest = match window {
            WindowRef::Other => Destination::OtherWindow,
            WindowRef::Nth(n) => Destination::Window(n),
        };
        return Some(Intent::Move(super::target::target(what), dest));
    }
    let opened = opened_fresh(&w[0], what)?;
    Some(Intent::OpenInWindow {
        open: Box::new(opened),
        window,
    })
}

/// What "`verb` `what`" opens, if it opens tabs of this window that could
/// go anywhere (a site, an address, a bookmark, a blank tab): where they
/// go is said after it ("next to jira", "in the docs group").
pub(super) fn opened_fresh(verb: &str, what: Words) -> Option<Intent> {
    let said: Vec<String> = std::iter::once(verb.to_string())
        .chain(what.iter().cloned())
        .collect();
    let opened = super::parse(&said).ok()?;
    matches!(
        opened,
        Intent::Open(_)
            | Intent::OpenUrl(_)
            | Intent::OpenNew { window: false, .. }
            | Intent::NewTab
            | Intent::OpenBookmark { .. }
    )
    .then_some(opened)
}

/// "open this in a new window": the tab in front moves to one, as
/// Firefox's "Move to New Window" does; "open this in a new tab" copies it.
fn this_elsewhere(w: Words) -> Option<Intent> {
    let at = w.iter().position(|x| x == "in")?;
    let (what, place) = (&w[..at], &w[at + 1..]);
    let this = !what.is_empty() && all_in(what, &["this", "it", "tab", "page", "one", "current"]);
    if !this
        || !all_in(
            place,
            &[
                "a", "new", "another", "separate", "its", "own", "tab", "window",
            ],
        )
    {
        return None;
    }
    let target = Target::active();
    match place.last().map(String::as_str) {
        Some("window") => Some(Intent::Move(target, Destination::NewWindow)),
        Some("tab") => Some(Intent::Duplicate(target)),
        _ => None,
    }
}

/// Where a fresh tab opens.
#[derive(Clone, Copy)]
struct Fresh {
    /// It comes to the front.
    active: bool,
    /// In a new window of its own.
    window: bool,
}

const FRONT: Fresh = Fresh {
    active: true,
    window: false,
};
const BACK: Fresh = Fresh {
    active: false,
    window: false,
};
const WINDOW: Fresh = Fresh {
    active: true,
    window: true,
};

/// What to open in a fresh tab, and where: "reddit in a new tab", "a new
/// tab with reddit", "netflix in the background", "gmail in a new window".
fn in_fresh_tab(w: Words) -> Option<(Words, Fresh)> {
    const BEFORE: &[(&[&str], Fresh)] = &[
        (&["new", "tab", "with"], FRONT),
        (&["new", "tab", "for"], FRONT),
        (&["new", "tab", "to"], FRONT),
        (&["new", "tab", "and", "go", "to"], FRONT),
        (&["new", "window", "with"], WINDOW),
        (&["new", "window", "for"], WINDOW),
        (&["new", "window", "to"], WINDOW),
    ];
    const AFTER: &[(&[&str], Fresh)] = &[
        (&["in", "a", "new", "tab"], FRONT),
        (&["in", "new", "tab"], FRONT),
        (&["in", "another", "tab"], FRONT),
        (&["in", "a", "separate", "tab"], FRONT),
        (&["in", "the", "background"], BACK),
        (&["in", "a", "background", "tab"], BACK),
        (&["in", "a", "new", "background", "tab"], BACK),
        (&["in", "a", "new", "window"], WINDOW),
        (&["in", "new", "window"], WINDOW),
        (&["in", "another", "window"], WINDOW),
        (&["in", "a", "separate", "window"], WINDOW),
        (&["in", "its", "own", "window"], WINDOW),
    ];
    if let Some((named, fresh)) = BEFORE
        .iter()
        .find_map(|(lead, fresh)| starts(w, lead).map(|named| (named, *fresh)))
    {
        return Some((strip_articles(named), fresh));
    }
    AFTER
        .iter()
        .find_map(|(tail, fresh)| ends(w, tail).map(|named| (named, *fresh)))
}

/// "open gmail and slack", "open bbc.co.uk, github.com": one clause per
/// site, when every part is a known site or an address (not tab titles,
/// which one clause opens together).
pub fn each_site(clause: Words) -> Option<Vec<Vec<String>>> {
    let rest = verb(clause, OPEN)?;
    let lead = &clause[..clause.len() - rest.len()];
    let parts: Vec<Words> = rest.split(|x| x == "and").map(strip_articles).collect();
    let known = |p: Words| !p.is_empty() && (sites::by_words(p).is_some() || url_in(p).is_some());
    (parts.len() >= 2 && parts.iter().all(|p| known(p))).then(|| {
        parts
            .iter()
            .map(|p| lead.iter().chain(p.iter()).cloned().collect())
            .collect()
    })
}

/// How a web address is read out: "docs dot rs slash serde".
const SPOKEN_PUNCTUATION: &[(&str, &str)] = &[
    ("dot", "."),
    ("slash", "/"),
    ("colon", ":"),
    ("dash", "-"),
    ("hyphen", "-"),
    ("underscore", "_"),
];

/// A web address in the words ("bbc.co.uk", "https://x.org/a", and as
/// said: "bbc dot co dot uk", "docs dot rs slash serde").
pub fn url_in(w: Words) -> Option<String> {
    if w.len() != 1 {
        let spoken = |x: &str| SPOKEN_PUNCTUATION.iter().find(|(said, _)| *said == x);
        if w.len() >= 3 && w.iter().any(|x| spoken(x).is_some()) {
            let joined: String = w
                .iter()
                .map(|x| spoken(x).map_or(x.as_str(), |(_, mark)| mark))
                .collect();
            return url_in(&[joined]);
        }
        return None;
    }
    let x = &w[0];
    let looks = x.contains("://") || sites::is_address(x);
    looks.then(|| x.clone())
}
