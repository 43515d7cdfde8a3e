//! From clean words to what the person wants: an [`Intent`] per clause.
//!
//! Each intent family keeps its grammar in a module of its own, next to
//! its plan (`../plan/<family>.rs`) and its corpus
//! (`tests/corpus/<family>.corpus`). [`FAMILIES`] lists them in the order
//! they are tried: the first that makes sense of a clause wins. Clause
//! splitting ("close youtube and mute the rest") uses the union of the
//! families' verbs.

pub(super) mod bookmarks;
mod browse;
mod close;
mod confirm;
mod counts;
mod group_tabs;
mod grouping;
mod groups;
mod history;
mod idle;
mod intent;
mod kept_count;
mod listening;
mod media;
mod move_tabs;
pub(super) mod open;
mod place;
mod questions;
mod repeat;
pub(super) mod search;
mod switch;
mod tab_actions;
mod target;
mod undo;
mod window_scope;
mod words;

pub use intent::*;
pub use open::url_in;
pub use target::target;
pub use words::{all_in, color, Words, FUNCTION_WORDS};

use words::*;

/// What a family makes of a clause: an intent, nothing (another family
/// may know it), or a clear "not like that".
pub type Parsed = Result<Option<Intent>, NotUnderstood>;

/// One intent family's grammar.
pub struct Family {
    pub name: &'static str,
    /// The words its commands start with.
    pub verbs: &'static [&'static str],
    /// How its commands are said, with placeholders (see
    /// `vocabulary::command_phrases`).
    pub phrases: &'static [&'static str],
    pub parse: fn(Words) -> Parsed,
}

/// Every word a command starts with, family by family.
pub fn command_verbs() -> impl Iterator<Item = &'static str> + Clone {
    FAMILIES.iter().flat_map(|f| f.verbs.iter().copied())
}

macro_rules! families {
    ($($name:ident),* $(,)?) => {
        /// Every family, in the order they are tried.
        pub const FAMILIES: &[Family] = &[
            $(Family { name: stringify!($name), verbs: $name::VERBS, phrases: $name::PHRASES, parse: $name::parse },)*
        ];
    };
}

// Order matters where grammars overlap: answers before anything, the page
// in front before tabs ("reload" alone), questions before the verbs they
// share ("show", "find"), grouping by site before groups, closing before
// the other tab actions, and a bare name last.
families!(
    confirm,
    listening,
    repeat,
    browse,
    undo,
    questions,
    history,
    bookmarks,
    search,
    grouping,
    groups,
    close,
    media,
    tab_actions,
    move_tabs,
    open,
    switch,
);

/// What one clause asks for.
pub fn parse(w: Words) -> Result<Intent, NotUnderstood> {
    if w.is_empty() {
        return Err(NotUnderstood(
            "Say or type what to do with your tabs.".into(),
        ));
    }
    // "close the" lost the name it was about to say (cut off, or heard
    // only in part): taken as "close" it would act on a tab nobody named.
    // Not "a": a search may end in it ("search for vitamin a").
    if w.len() > 1
        && w.last()
            .is_some_and(|x| ["the", "an"].contains(&x.as_str()))
    {
        return Err(NotUnderstood(format!(
            "'{}' stops before saying which.",
            join(w)
        )));
    }
    for family in FAMILIES {
        if let Some(intent) = (family.parse)(w)? {
            return Ok(intent);
        }
    }
    Err(NotUnderstood(format!("I didn't understand '{}'.", join(w))))
}

/// Whether the words start a command of some family (a clause of its own).
fn starts_with_verb(w: Words) -> bool {
    w.first()
        .is_some_and(|first| FAMILIES.iter().any(|f| f.verbs.contains(&first.as_str())))
}

/// Words that end a compound's first clause when the next clause starts with a verb.
const JOINERS: &[&[&str]] = &[
    &[",", "but"],
    &["but"],
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

/// "keep gmail" then "close the rest" ("mute the others", "close
/// everything else"): "close everything except gmail". "keep" alone asks
/// nothing of the tabs.
fn keep_then_the_rest(keep: &[String], then: &[String]) -> Option<Vec<String>> {
    const THE_REST: &[&str] = &[
        "the",
        "rest",
        "others",
        "other",
        "everything",
        "else",
        "all",
        "tabs",
        "of",
        "them",
        "ones",
        // "… in this window"
        "in",
        "this",
        "current",
        "window",
        "here",
    ];
    let kept = verb(keep, &[&["keep"], &["leave"]])?;
    let kept = kept.strip_suffix(&["open".to_string()]).unwrap_or(kept);
    let rest_at = then
        .iter()
        .rposition(|x| !THE_REST.contains(&x.as_str()))
        .map_or(0, |i| i + 1);
    let (verb_words, rest) = then.split_at(rest_at);
    let says_rest = rest
        .iter()
        .any(|x| ["rest", "others", "other", "else"].contains(&x.as_str()));
    if kept.is_empty() || verb_words.is_empty() || !says_rest || !starts_with_verb(then) {
        return None;
    }
    let scope = rest
        .iter()
        .position(|x| x == "in" || x == "here")
        .map_or(&[][..], |at| &rest[at..]);
    Some(
        (verb_words.iter().map(String::as_str))
            .chain(["everything", "except"])
            .chain(kept.iter().map(String::as_str))
            .chain(scope.iter().map(String::as_str))
            .map(str::to_string)
            .collect(),
    )
}

/// "close the youtube tabs and bookmark them", "close all tabs but save
/// them first": the tabs are bookmarked first, then closed (once closed,
/// "them" is no tab).
/// "mute and pin youtube", "bookmark and close the youtube tabs": a verb
/// said alone before "and" shares the next clause's tabs ("mute youtube",
/// "pin them"). Closing goes last ("close and bookmark slack" bookmarks
/// Slack, then closes it).
fn share_the_tabs(clauses: &mut [Vec<String>]) {
    const SHARED: &[&str] = &[
        "mute",
        "unmute",
        "pin",
        "unpin",
        "close",
        "bookmark",
        "reload",
        "refresh",
        "duplicate",
        "discard",
        "unload",
        "group",
        "ungroup",
    ];
    let shares = |w: &str| SHARED.contains(&w);
    for i in 1..clauses.len() {
        let (before, after) = clauses.split_at_mut(i);
        let (alone, next) = (&mut before[i - 1], &mut after[0]);
        let [lone] = alone.as_slice() else { continue };
        let Some((second, tabs)) = next.split_first() else {
            continue;
        };
        if !shares(lone) || !shares(second) || tabs.is_empty() {
            continue;
        }
        let (first, then) = match lone.as_str() {
            "close" => (second.clone(), lone.clone()),
            _ => (lone.clone(), second.clone()),
        };
        *alone = std::iter::once(first).chain(tabs.iter().cloned()).collect();
        *next = vec![then, "them".into()];
    }
}

fn bookmark_before_closing(clauses: &mut [Vec<String>]) {
    for i in 1..clauses.len() {
        let (before, after) = clauses.split_at_mut(i);
        let (close, keep) = (&mut before[i - 1], &mut after[0]);
        let bookmark = verb(keep, &[&["bookmark"], &["save"], &["star"]]).is_some_and(|rest| {
            let rest = ends(rest, &["first"]).unwrap_or(rest);
            let rest = ends(rest, &["before"]).unwrap_or(rest);
            is(rest, &["them"]) || is(rest, &["it"]) || is(rest, &["those"])
        });
        let closed = verb(close, &[&["close"], &["kill"], &["shut"]]);
        if let (true, Some(what)) = (bookmark, closed) {
            let (verb_word, what) = ("bookmark".to_string(), what.to_vec());
            *keep = vec![close[0].clone(), "them".into()];
            *close = std::iter::once(verb_word).chain(what).collect();
        }
    }
}

/// "open youtube and search for cats", "go to github and search for
/// tokio": one search, on that site ("search youtube for cats"), where
/// the site can be searched; else none (the two clauses stay as said).
fn search_on_the_site_opened(open: &[String], search: &[String]) -> Option<Vec<String>> {
    let site = verb(open, &[&["open"], &["go", "to"]])?;
    let query = verb(search, &[&["search", "for"], &["search"], &["look", "up"]])?;
    if site.is_empty() || query.is_empty() {
        return None;
    }
    let one: Vec<String> = std::iter::once("search")
        .chain(site.iter().map(String::as_str))
        .chain(std::iter::once("for"))
        .chain(query.iter().map(String::as_str))
        .map(str::to_string)
        .collect();
    matches!(
        parse(&one),
        Ok(Intent::Search {
            engine: Some(_),
            ..
        })
    )
    .then_some(one)
}

/// Each clause that `join` makes one with the clause before it, joined.
fn join_pairs(
    clauses: Vec<Vec<String>>,
    join: fn(&[String], &[String]) -> Option<Vec<String>>,
) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    for clause in clauses {
        match out.last().and_then(|before| join(before, &clause)) {
            Some(one) => *out.last_mut().expect("a clause before") = one,
            None => out.push(clause),
        }
    }
    out
}

/// Splits "close youtube and mute the rest" into its clauses.
pub fn clauses(words: &[String]) -> Vec<Vec<String>> {
    // "yes, close them" answers a question; it is not two commands.
    if confirm::short_answer(&as_and(words)).is_some() {
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
    // of the one before. Unless the one before means the same with it: "move
    // jira to a new window and move slack over yonder" would do the first
    // half and drop the rest unsaid, where the rest should be refused.
    let mut merged: Vec<Vec<String>> = Vec::new();
    for (joiner, clause) in out {
        let alone = as_and(&clause);
        let stands =
            !clause.is_empty() && matches!(parse(&alone), Ok(i) if !matches!(i, Intent::Bare(_)));
        match merged.last_mut() {
            Some(last) if !stands => {
                let before = parse(&as_and(last));
                let joined = [last.as_slice(), &joiner, &clause].concat();
                let lost = clause.len() > 1 && before.is_ok() && parse(&as_and(&joined)) == before;
                if lost {
                    merged.push(clause);
                } else {
                    *last = joined;
                }
            }
            _ => merged.push(clause),
        }
    }
    merged.retain(|c| !c.is_empty());
    // "keep gmail and close the rest": one clause, "close everything
    // except gmail".
    let mut kept = join_pairs(merged, keep_then_the_rest);
    share_the_tabs(&mut kept);
    bookmark_before_closing(&mut kept);
    let kept = join_pairs(kept, search_on_the_site_opened);
    kept.iter()
        .map(|c| as_and(c))
        .flat_map(|c| open::each_site(&c).unwrap_or_else(|| vec![c]))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::super::text::words;
    use super::*;
    use crate::tab_state::Color;

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
    fn keeping_some_tabs_then_acting_on_the_rest_is_one_clause() {
        let one = |s: &str| {
            clauses(&words(s))
                .into_iter()
                .map(|c| c.join(" "))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            one("keep gmail and close the rest"),
            ["close everything except gmail"]
        );
        assert_eq!(
            one("leave jira open and mute the others in this window"),
            ["mute everything except jira in this window"]
        );
        // Not the rest: two clauses, as said.
        assert_eq!(one("keep gmail and close youtube").len(), 2);
    }

    #[test]
    fn every_familys_verbs_split_clauses() {
        assert_eq!(
            clauses(&words("close youtube and dissolve the news group")).len(),
            2
        );
        assert_eq!(
            clauses(&words("mute jira then retitle the docs group to specs")).len(),
            2
        );
        for family in FAMILIES {
            for verb in family.verbs {
                let w = words(&format!("close youtube and {verb} it"));
                assert!(starts_with_verb(&w[3..]), "{}: {verb}", family.name);
            }
        }
    }

    #[test]
    fn targets() {
        assert_eq!(
            p("close tabs two and three"),
            Intent::Close(Target {
                selector: Selector::Positions(vec![Position::Nth(2), Position::Nth(3)]),
                except: None,
                scope: Scope::ThisWindow,
                singular: false,
                count: None
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
                    singular: true,
                    count: None
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
                folder: Some("Reading".into()),
                title: None,
            }
        );
        assert_eq!(
            p("show bookmarks about cooking"),
            Intent::FindBookmarks("cooking".into())
        );
        assert_eq!(
            p("open my candle docs bookmark"),
            Intent::OpenBookmark {
                words: vec!["candle".into(), "docs".into()],
                all: false
            }
        );
        assert_eq!(p("open bbc.co.uk"), Intent::OpenUrl("bbc.co.uk".into()));
        assert_eq!(
            p("how many tabs are open"),
            Intent::Count(Target::of(Selector::All))
        );
        assert_eq!(p("undo that"), Intent::Undo);
        assert_eq!(p("undo twice"), Intent::UndoSeveral(2));
        assert_eq!(p("undo three times"), Intent::UndoSeveral(3));
        assert_eq!(p("undo the last 2 changes"), Intent::UndoSeveral(2));
        assert_eq!(p("undo my last three actions"), Intent::UndoSeveral(3));
        assert_eq!(p("undo the last change"), Intent::Undo);
        assert_eq!(p("undo 50 times"), Intent::Undo, "a slip, not a request");
        assert!(matches!(
            p("send the map tab to the other window"),
            Intent::Move(_, Destination::OtherWindow)
        ));
    }
}
