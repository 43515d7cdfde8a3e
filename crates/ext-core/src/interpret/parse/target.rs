//! Which tabs some words mean: "the youtube tabs", "all but this one",
//! "tabs two and three", "the one that's playing" (windows are read in
//! `window_scope`, how long unused in `idle`, sides and positions in
//! `place`, counts and ages in `counts`).

use super::super::text::ordinal;
use super::counts::{count_of, newest, oldest, spelled_counts, stalest};
use super::group_tabs::{grouped, in_group, others_in_a_group, several_groups};
use super::idle::{idle, USED};
use super::intent::{Position, Scope, Selector, Target};
use super::kept_count::kept_count;
use super::place::{between, positions, side, side_of};
use super::window_scope::{numbered_window, scope_of, without_scope};
use super::words::*;

pub fn target_or_active(w: &[String]) -> Target {
    if w.is_empty() {
        Target::active()
    } else {
        target(w)
    }
}

pub(super) const EXCEPT: &[&[&str]] = &[
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
    // "the tabs that aren't playing": "not", as Whisper and people write it.
    &["aren't"],
    &["isn't"],
    &["arent"],
    &["isnt"],
];

/// Which tabs some words mean: "the youtube tabs", "all but this one",
/// "tabs two and three", "the one that's playing".
pub fn target(w: &[String]) -> Target {
    if let Some(target) = except_a_window(w)
        .or_else(|| this_site(w))
        .or_else(|| others_in_a_group(w))
        .or_else(|| kept_count(w))
        .or_else(|| others_of_a_kind(w))
    {
        return target;
    }
    let scope = scope_of(w);
    // "mute the other windows": every tab there.
    let window_words = [
        "the", "all", "tabs", "tab", "of", "in", "my", "every", "from", "outside",
    ];
    let named_window = w.iter().any(|x| x == "window" || x == "windows");
    if let (Some(scope), true) = (scope, named_window) {
        let rest: Vec<&String> = w
            .iter()
            .filter(|x| !window_words.contains(&x.as_str()))
            .collect();
        let said = match scope {
            Scope::Window(_) | Scope::OutsideWindow(_) => {
                numbered_window(w).map_or(0, |(_, at)| at.len())
            }
            _ => 2,
        };
        if rest.len() == said {
            return Target {
                scope,
                ..Target::of(Selector::All)
            };
        }
    }
    let w = spelled_counts(&without_title_says(&without_scope(w)));
    // "the unpinned tabs", "all unmuted tabs": every tab but those.
    if let Some(left_out) = unflagged(&w) {
        return Target {
            scope: scope.unwrap_or(Scope::Everywhere),
            except: Some(left_out),
            ..Target::of(Selector::All)
        };
    }
    // Said with a "not" that leaves nothing out: "the tabs I'm not
    // using", "every tab not in a group".
    if let Some(selector) = not_using(&w)
        .then_some(Selector::Others)
        .or_else(|| grouped(&w).map(|grouped| Selector::Grouped { grouped }))
    {
        return Target {
            scope: scope.unwrap_or(default_scope(&selector)),
            ..Target::of(selector)
        };
    }
    let mut except = None;
    let mut main: &[String] = &w;
    let mut unused_for = None;
    for e in EXCEPT {
        if let Some(i) = find_seq(&w, e) {
            // "tabs not used in a week": how long, not which to leave out.
            let says_unused =
                *e == ["not"] && w.get(i + 1).is_some_and(|x| USED.contains(&x.as_str()));
            if says_unused {
                continue;
            }
            // "all but" needs something before; "but" at the start is no "except".
            if i > 0 || e[0] == "except" || e[0] == "besides" {
                // "close the news group but keep hacker news".
                let left_out = &w[i + e.len()..];
                let left_out = strip_leading(left_out, &["keep", "leave"]);
                main = &w[..i];
                except = Some(match idle(left_out) {
                    // "all tabs except gmail that I haven't used in a day":
                    // unused is said of what closes, gmail is left out.
                    Some((named, ms)) if names_something(named) => {
                        unused_for = Some(ms);
                        selector(named).0
                    }
                    _ => selector(left_out).0,
                });
                break;
            }
        }
    }
    let (mut selector, singular) = selector(main);
    if let Some(ms) = unused_for {
        let of = Box::new(match selector {
            Selector::Active | Selector::It => Selector::All,
            of => of,
        });
        selector = Selector::Idle { of, ms };
    }
    if except.is_some() && matches!(selector, Selector::Active | Selector::It) {
        // "mute everything except this": a bare except means all.
        selector = Selector::All;
    }
    // A count matters only where the tabs are described, not listed or
    // counted out already: "the two youtube tabs", not "the first two tabs";
    // and not in how long: "tabs I haven't used in two days".
    let described = |s: &Selector| {
        matches!(
            s,
            Selector::Named(_) | Selector::InGroup(_) | Selector::Audible
        )
    };
    let count = match &selector {
        Selector::Idle { of, .. } if described(of) => count_of(idle(main).map_or(main, |i| i.0)),
        s if described(s) => count_of(main),
        _ => None,
    };
    Target {
        scope: scope.unwrap_or(default_scope(&selector)),
        selector,
        except,
        singular,
        count,
    }
}

/// "everything except this window", "all tabs but the ones in window
/// 2": the tabs of the other windows.
fn except_a_window(w: &[String]) -> Option<Target> {
    const SAY_NOTHING: &[&str] = &[
        "the", "tabs", "tab", "ones", "one", "in", "from", "on", "of", "what's",
    ];
    EXCEPT.iter().find_map(|e| {
        let i = find_seq(w, e)?;
        let left_out: Vec<String> = w[i + e.len()..]
            .iter()
            .filter(|x| !SAY_NOTHING.contains(&x.as_str()))
            .cloned()
            .collect();
        let scope = match scope_of(&left_out)? {
            Scope::ThisWindow => Scope::OtherWindows,
            Scope::Window(n) => Scope::OutsideWindow(n),
            _ => return None,
        };
        // Nothing but the window is left out.
        if !without_scope(&[vec!["in".to_string()], left_out].concat()).is_empty() {
            return None;
        }
        let kept = target_or_active(&w[..i]);
        let selector = match kept.selector {
            Selector::Active | Selector::It => Selector::All,
            other => other,
        };
        Some(Target {
            scope,
            selector,
            ..kept
        })
    })
}

/// "the unpinned tabs", "unmuted ones": the tabs a flag leaves out.
fn unflagged(w: &[String]) -> Option<Selector> {
    const SAY_NOTHING: &[&str] = &["the", "all", "my", "tabs", "tab", "ones", "every", "of"];
    match besides(w, SAY_NOTHING).as_slice() {
        ["unpinned"] => Some(Selector::Pinned),
        ["unmuted"] => Some(Selector::Muted),
        _ => None,
    }
}

/// "all tabs from this site", "the other tabs on this website", "close
/// everything from the same domain": the tabs of the site in front.
fn this_site(w: &[String]) -> Option<Target> {
    const SAID: &[&[&str]] = &[
        &["this", "site"],
        &["this", "website"],
        &["this", "domain"],
        &["same", "site"],
        &["same", "website"],
        &["same", "domain"],
    ];
    // Nothing else may be said but which tabs of it, and where.
    const ALSO: &[&str] = &[
        "the",
        "all",
        "every",
        "everything",
        "tabs",
        "tab",
        "from",
        "on",
        "of",
        "in",
        "at",
        "other",
        "others",
        "my",
        "open",
        "as",
        "this",
        "one",
        "that",
        "same",
        "site",
        "website",
        "domain",
        "pages",
        "page",
        "window",
        "current",
        "else",
    ];
    SAID.iter().find_map(|said| find_seq(w, said))?;
    if !w.iter().all(|x| ALSO.contains(&x.as_str())) {
        return None;
    }
    // "the other tabs from this site": not the one in front.
    let others = w
        .iter()
        .any(|x| ["other", "others", "else"].contains(&x.as_str()));
    Some(Target {
        scope: scope_of(w).unwrap_or(Scope::Everywhere),
        except: others.then_some(Selector::Active),
        ..Target::of(Selector::ThisSite)
    })
}

/// Where a selector looks when no window is said: "the other tabs" and
/// positions are in this window.
fn default_scope(selector: &Selector) -> Scope {
    match selector {
        Selector::Others | Selector::Positions(_) | Selector::Side { .. } => Scope::ThisWindow,
        Selector::Idle { of, .. } => default_scope(of),
        _ => Scope::Everywhere,
    }
}

/// "the other reddit tabs", "the other youtube tab": those tabs but the
/// one in front ("the other tabs", "the other window" and "other than" are
/// read elsewhere).
fn others_of_a_kind(w: &[String]) -> Option<Target> {
    const NOT_A_KIND: &[&str] = &[
        "tab", "tabs", "one", "ones", "than", "window", "windows", "stuff", "things",
    ];
    let at = w.iter().position(|x| x == "other")?;
    let next = w.get(at + 1)?;
    // "close the other groups": the tabs of every group but this tab's.
    if ["groups", "group"].contains(&next.as_str())
        && all_in(&w[..at], &["the", "all", "my", "of"])
        && all_in(&w[at + 2..], &["tabs"])
    {
        return Some(Target::of(Selector::OtherGroups));
    }
    let windows = w.iter().any(|x| x == "window" || x == "windows");
    if windows
        || NOT_A_KIND.contains(&next.as_str())
        || w.iter().filter(|x| *x == "other").count() > 1
    {
        return None;
    }
    let rest: Vec<String> = w.iter().filter(|x| *x != "other").cloned().collect();
    let target = target(&rest);
    if target.except.is_some() {
        return None;
    }
    Some(Target {
        except: Some(Selector::Active),
        ..target
    })
}

pub(super) const STOP: &[&str] = &[
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
    "everything",
    "stuff",
    "instance",
    "instances",
    "also",
    "too",
    "both",
    "two",
    "three",
    "four",
    "five",
];

/// Words that only say how many: "both youtube tabs", "all of them".
const QUANTIFIERS: &[&str] = &[
    "every", "all", "each", "both", "any", "two", "three", "four", "five",
];

/// Words that name the kind of thing a tab shows, not which: "the dogs
/// video". Dropped when other words remain.
const GENERIC: &[&str] = &[
    "video",
    "videos",
    "article",
    "articles",
    "about",
    "regarding",
    // "the lofi stream", "the daft punk song": what a page plays.
    "stream",
    "livestream",
    "song",
    "clip",
    "episode",
];

/// How people say which words a title has: "tabs called rust", "with the
/// word rust", "whose title contains rust", "with rust in the title".
/// Dropped as phrases, so that "microsoft word" keeps its "word".
const TITLE_SAYS: &[&[&str]] = &[
    &["whose", "title", "contains"],
    &["whose", "titles", "contain"],
    &["whose", "name", "contains"],
    &["with", "the", "words"],
    &["with", "the", "word"],
    &["that", "mention"],
    &["that", "mentions"],
    &["mentioning"],
    &["containing"],
    &["related", "to"],
    &["relating", "to"],
    &["called"],
    &["named"],
    &["titled"],
    &["in", "the", "title"],
    &["in", "the", "name"],
    &["in", "their", "title"],
    &["in", "its", "title"],
];

/// The words without `TITLE_SAYS` phrases (when something is left).
fn without_title_says(w: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < w.len() {
        match TITLE_SAYS.iter().find(|p| starts(&w[i..], p).is_some()) {
            Some(p) => i += p.len(),
            None => {
                out.push(w[i].clone());
                i += 1;
            }
        }
    }
    if out.iter().any(|x| !STOP.contains(&x.as_str())) {
        out
    } else {
        w.to_vec()
    }
}

/// Whether words name tabs rather than only say "tabs": "gmail", not
/// "the tabs", "the ones".
fn names_something(w: &[String]) -> bool {
    w.iter().any(|x| {
        !STOP.contains(&x.as_str())
            && !["that", "which", "i", "ones", "everything"].contains(&x.as_str())
    })
}

/// The selector some words mean, and whether one tab is meant.
fn selector(w: &[String]) -> (Selector, bool) {
    if let Some((before, ms)) = idle(w) {
        let (of, singular) = match selector(before) {
            // "the tab older than a day" is no more the tab in front than "the tabs".
            (Selector::Active | Selector::It, _) => (Selector::All, false),
            described => described,
        };
        let of = Box::new(of);
        return (Selector::Idle { of, ms }, singular);
    }
    let w: Vec<String> = w.to_vec();
    let has = |x: &str| w.iter().any(|y| y == x);
    let only = |allowed: &[&str]| w.iter().all(|x| allowed.contains(&x.as_str()));
    // "… and mute them", "… and pin all of them"
    if has("them") && only(&["them", "all", "of", "both", "each"]) {
        return (Selector::Them, false);
    }
    if let Some(selected) = selection(&w) {
        return (selected, false);
    }
    // "… and close it": the tabs the clause before acted on, if any.
    if w == ["it"] {
        return (Selector::It, true);
    }
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
        "other",
        "tabs",
        "the",
        "all",
        "ones",
        "others",
        "every",
        "tab",
        "my",
        "background",
        "inactive",
    ]) && (has("other") || has("others") || has("background") || has("inactive"))
    {
        // "the background tabs": every tab but the one in front.
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
        "anything",
    ]) || is(&w, &["it", "all"])
    {
        // "close it all" too.
        return (Selector::All, false);
    }
    if let Some(n) = newest(&w) {
        return (Selector::Newest(n), n == 1);
    }
    if let Some(n) = oldest(&w) {
        return (Selector::Oldest(n), n == 1);
    }
    if let Some(n) = stalest(&w) {
        return (Selector::Stalest(n), n == 1);
    }
    let quantified = QUANTIFIERS.iter().any(|q| has(q));
    // "one" counts, but not in "this one" ("the tabs after this one").
    let one_said = w.iter().enumerate().any(|(i, x)| {
        x == "one" && !(i > 0 && ["this", "that", "current", "active"].contains(&w[i - 1].as_str()))
    });
    let one_tab = !quantified && !has("everything") && (has("tab") && !has("tabs") || one_said);
    if let Some((right, nearest)) = side(&w) {
        return (Selector::Side { right, nearest }, one_tab);
    }
    if let Some((right, tab, nearest)) = side_of(&w) {
        let one_tab = one_tab && nearest.is_none_or(|n| n == 1);
        return (
            Selector::SideOf {
                right,
                tab,
                nearest,
            },
            one_tab,
        );
    }
    if let Some((first, second)) = between(&w) {
        return (Selector::Between(first, second), false);
    }
    if has("playing")
        || has("audible")
        || has("noisy")
        || has("loud")
        || has("noise")
        || has("sound")
        || has("music")
        // "mute the video", "pause this song": what plays, with no name.
        || (only(&["the", "this", "that", "video", "song", "podcast"])
            && (has("video") || has("song") || has("podcast")))
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
    if let Some(grouped) = grouped(&w) {
        return (Selector::Grouped { grouped }, false);
    }
    if let Some(p) = positions(&w) {
        let singular = p.len() == 1 && matches!(p[0], Position::Nth(_) | Position::Last);
        return (Selector::Positions(p), singular);
    }
    if let Some(groups) = several_groups(&w) {
        return (Selector::Union(groups), false);
    }
    if let Some(in_group) = in_group(&w) {
        return in_group;
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

/// "these tabs", "the selected tabs", "all of these": the tabs selected
/// together.
fn selection(w: &[String]) -> Option<Selector> {
    const SAID: &[&str] = &[
        "these",
        "tabs",
        "the",
        "selected",
        "highlighted",
        "all",
        "of",
        "ones",
        "marked",
        "both",
        "two",
        "three",
        "four",
        "five",
    ];
    let has = |x: &str| w.iter().any(|y| y == x);
    let said = !w.is_empty()
        && all_in(w, SAID)
        && (has("these")
            || ((has("tabs") || has("ones")) && (has("selected") || has("highlighted"))));
    said.then_some(Selector::Highlighted { all: has("all") })
}

/// One item of a list: "this tab", "tab 2", "the flights tab".
pub(super) fn part(w: &[String]) -> Option<Selector> {
    // "the selected tabs and the youtube tabs".
    if let Some(selected) = selection(w) {
        return Some(selected);
    }
    // "this one and the one to the right": a side, one tab unless "tabs".
    // Only with the tab said: "close the tab and to the right" is a
    // mishearing of "the tabs to the right", not two items.
    let tab_said = w
        .iter()
        .any(|x| ["one", "ones", "tab", "tabs", "everything"].contains(&x.as_str()));
    if let Some((right, nearest)) = side(w).filter(|_| tab_said) {
        let many = w
            .iter()
            .any(|x| ["tabs", "ones", "everything", "all"].contains(&x.as_str()));
        let nearest = nearest.or((!many).then_some(1));
        return Some(Selector::Side { right, nearest });
    }
    // Before the stop words: "tab two" would lose its number to them.
    if let Some(p) = positions(w) {
        return Some(Selector::Positions(p));
    }
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
    if words.iter().any(|x| !GENERIC.contains(&x.as_str())) {
        words.retain(|x| !GENERIC.contains(&x.as_str()));
    }
    let nth = match words[0].as_str() {
        "last" => Some(-1),
        first => ordinal(first),
    };
    if let (Some(nth), true) = (nth, words.len() > 1) {
        return Some(Selector::NthOf { nth, words });
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

/// "the tabs I'm not using": the ones not in front.
fn not_using(w: &[String]) -> bool {
    const NOT_USING: &[&[&str]] = &[
        &["i'm", "not", "using"],
        &["im", "not", "using"],
        &["i", "am", "not", "using"],
        &["i'm", "not", "looking", "at"],
        &["i", "am", "not", "looking", "at"],
        &["i'm", "not", "on"],
    ];
    let not_using = NOT_USING.iter().find_map(|p| ends(w, p)).map(|head| {
        ends(head, &["that"])
            .or_else(|| ends(head, &["which"]))
            .unwrap_or(head)
    });
    not_using.is_some_and(|head| {
        all_in(
            head,
            &[
                "the",
                "tabs",
                "all",
                "my",
                "other",
                "ones",
                "everything",
                "every",
                "tab",
            ],
        )
    })
}
