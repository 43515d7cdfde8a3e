//! Where in the strip some words point: a side of a tab ("the tabs to the
//! right", "left of tab 3", "the next two tabs") and positions ("tab 2",
//! "the first and last tabs"). Read for [`super::target`].

use super::super::text::{loose_number, number, ordinal};
use super::intent::{Position, Target};
use super::target::target;

/// "everything to the right of figma", "the tab left of jira", "the two
/// tabs left of reddit": which side (true for right) of which tab, and how
/// many of the nearest, if said.
pub(super) fn side_of(w: &[String]) -> Option<(bool, Box<Target>, Option<usize>)> {
    // "the tab next to jira", "the tabs after jira", "the one before
    // figma": the tab said first.
    let tab_said = |before: &[String]| {
        before
            .iter()
            .any(|x| ["tab", "tabs", "one", "ones"].contains(&x.as_str()))
    };
    // "the tab to its right": of "it", the tab the clause before acted on.
    let its = w
        .windows(2)
        .position(|p| p[0] == "its" && (p[1] == "right" || p[1] == "left"));
    if let Some(at) = its.filter(|at| at + 2 == w.len()) {
        let right = w[at + 1] == "right";
        let mut said: Vec<String> = w[..at].to_vec();
        said.extend(["the", if right { "right" } else { "left" }, "of", "it"].map(String::from));
        return side_of(&said);
    }
    let (at, len, right) = w.iter().enumerate().find_map(|(i, x)| {
        let next = w.get(i + 1).map(String::as_str);
        match (x.as_str(), next) {
            ("right", Some("of")) => Some((i, 2, true)),
            ("left", Some("of")) => Some((i, 2, false)),
            ("next", Some("to")) if tab_said(&w[..i]) => Some((i, 2, true)),
            ("after", _) if tab_said(&w[..i]) => Some((i, 1, true)),
            ("before", _) if tab_said(&w[..i]) => Some((i, 1, false)),
            _ => None,
        }
    })?;
    let nearest = w[..at]
        .iter()
        .find_map(|x| number(x))
        .and_then(|n| usize::try_from(n).ok());
    let before_ok = w[..at].iter().all(|x| {
        number(x).is_some()
            || [
                "the",
                "tab",
                "tabs",
                "to",
                "on",
                "all",
                "every",
                "everything",
                "one",
                "ones",
            ]
            .contains(&x.as_str())
    });
    let reference = &w[at + len..];
    if !before_ok || reference.is_empty() {
        return None;
    }
    let mut tab = target(reference);
    tab.singular = true;
    Some((right, Box::new(tab), nearest))
}

/// "the tabs between slack and reddit": the two tabs either side.
pub(super) fn between(w: &[String]) -> Option<(Box<Target>, Box<Target>)> {
    let at = w.iter().position(|x| x == "between")?;
    let said = [
        "the",
        "tab",
        "tabs",
        "all",
        "every",
        "everything",
        "ones",
        "in",
    ];
    if !w[..at].iter().all(|x| said.contains(&x.as_str())) {
        return None;
    }
    two_tabs(&w[at + 1..])
}

/// "youtube and jira", as "between" says them: one tab each side of
/// "and" (the tabs between them, or the place a tab moves to).
pub(super) fn two_tabs(w: &[String]) -> Option<(Box<Target>, Box<Target>)> {
    let and = w.iter().position(|x| x == "and")?;
    let (first, second) = (&w[..and], &w[and + 1..]);
    if first.is_empty() || second.is_empty() {
        return None;
    }
    let one = |w: &[String]| {
        let mut tab = target(w);
        tab.singular = true;
        Box::new(tab)
    };
    Some((one(first), one(second)))
}

/// "the tabs to the right", "the tab on the left": which side of the
/// active tab (true for right).
pub(super) fn side(w: &[String]) -> Option<(bool, Option<usize>)> {
    let content: Vec<&str> = w
        .iter()
        .map(String::as_str)
        .filter(|x| {
            ![
                "the",
                "tab",
                "tabs",
                "to",
                "on",
                "of",
                "this",
                "one",
                "ones",
                "all",
                "every",
                "current",
                "active",
                "it",
                "my",
                "that",
                "are",
                "is",
                "hand",
                "side",
                "everything",
            ]
            .contains(x)
        })
        .collect();
    // "everything after this tab" is the right side; "the tab after this
    // one" is the next tab.
    match content.as_slice() {
        ["right"] | ["after"] => Some((true, None)),
        ["left"] | ["before"] => Some((false, None)),
        // "close the next tab": the one to the right.
        ["next"] => Some((true, Some(1))),
        ["previous"] => Some((false, Some(1))),
        // "the two tabs to the right", "the next three tabs"; not "right
        // of tab 3", a side of another tab (`side_of`).
        [a, b] if !w.iter().any(|x| x == "of") => {
            let (n, side) = if number(a).is_some() { (a, b) } else { (b, a) };
            let right = match *side {
                "right" | "after" | "next" => true,
                "left" | "before" | "previous" => false,
                _ => return None,
            };
            let n = usize::try_from(number(n)?).ok().filter(|n| *n >= 1)?;
            Some((right, Some(n)))
        }
        _ => None,
    }
}

/// "tab 3", "tabs two and three", "the third tab", "the last tab",
/// "the first two tabs", "tabs 2 to 4".
pub(super) fn positions(w: &[String]) -> Option<Vec<Position>> {
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
    // "the tab on the far right", "the rightmost tab", "the one furthest
    // to the left": the last or the first.
    let sided: Vec<&str> = (content.iter().copied())
        .filter(|x| !["on", "to", "of", "way", "all", "very"].contains(x))
        .collect();
    match sided.as_slice() {
        ["far" | "furthest" | "farthest", "right"] | ["rightmost"] => {
            return Some(vec![Position::Last])
        }
        ["far" | "furthest" | "farthest", "left"] | ["leftmost"] => {
            return Some(vec![Position::Nth(1)])
        }
        _ => {}
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
    // A trailing "to"/"too"/"for" after "tab" is a misheard number; so is
    // "do" ("tab two" voiced).
    let fixed: Vec<Option<i64>> = content
        .iter()
        .map(|x| {
            number(x).or_else(|| ordinal(x)).or(match *x {
                "to" | "too" | "do" => Some(2),
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
