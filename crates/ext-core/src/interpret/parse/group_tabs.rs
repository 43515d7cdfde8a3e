//! Tabs said by their groups: "the docs group", "the last tab of the news
//! group", "the news and docs groups", "the ungrouped tabs".

use super::intent::{Position, Selector, Target};
use super::place::positions;
use super::target::{part, STOP};
use super::words::*;

/// "the other tabs in this group", "the rest of the docs group",
/// "everything else in the news group": the group's tabs but the one in
/// front.
pub(super) fn others_in_a_group(w: &[String]) -> Option<Target> {
    const OTHERS: &[&str] = &["other", "others", "rest", "else", "remaining"];
    const SAY_NOTHING: &[&str] = &[
        "the",
        "all",
        "my",
        "tabs",
        "tab",
        "ones",
        "everything",
        "of",
    ];
    if w.last()? != "group" {
        return None;
    }
    let at = w
        .iter()
        .rposition(|x| ["in", "of", "from"].contains(&x.as_str()))?;
    let lead = &w[..at];
    let others_said = lead.iter().any(|x| OTHERS.contains(&x.as_str()));
    let only_that = lead
        .iter()
        .all(|x| OTHERS.contains(&x.as_str()) || SAY_NOTHING.contains(&x.as_str()));
    if !others_said || !only_that {
        return None;
    }
    let (selector, _) = in_group(&w[at + 1..])?;
    Some(Target {
        except: Some(Selector::Active),
        ..Target::of(selector)
    })
}

/// The tabs of a group, or places among them.
pub(super) fn in_group(w: &[String]) -> Option<(Selector, bool)> {
    // "the last tab of the docs group", "the first two tabs in the news
    // group": places among the group's tabs, not the window's.
    if let Some(g) = find(w, "group") {
        let at = w[..g].iter().rposition(|x| x == "in" || x == "of");
        if let Some((at, p)) = at.and_then(|at| Some((at, positions(&w[..at])?))) {
            let group: Vec<String> = (strip_articles(&w[at + 1..g]).iter())
                .filter(|x| !STOP.contains(&x.as_str()))
                .cloned()
                .collect();
            let singular = p.len() == 1 && matches!(p[0], Position::Nth(_) | Position::Last);
            return Some((
                Selector::InGroupAt {
                    group,
                    positions: p,
                },
                singular,
            ));
        }
    }
    if let Some(g) = find(w, "group") {
        let name: Vec<String> = strip_articles(&w[..g])
            .iter()
            .filter(|x| !STOP.contains(&x.as_str()))
            .cloned()
            .collect();
        // "this group", "the group": the one the tab in front is in (or
        // the one just made), as for "rename this group".
        let this_group = name
            .iter()
            .all(|x| ["this", "current", "same", "that"].contains(&x.as_str()));
        if this_group && g + 1 == w.len() {
            return Some((Selector::InGroup(Vec::new()), false));
        }
        if !name.is_empty() {
            return Some((Selector::InGroup(name), false));
        }
    }
    None
}

/// "the docs group and the news group", "the news and docs groups", "the
/// docs group and jira": each group's tabs (and what else is said).
pub(super) fn several_groups(w: &[String]) -> Option<Vec<Selector>> {
    let joiner = |x: &String| ["and", "&", "plus", "+"].contains(&x.as_str());
    let named = |w: &[String]| -> Vec<String> {
        (strip_articles(w).iter())
            .filter(|x| !STOP.contains(&x.as_str()))
            .cloned()
            .collect()
    };
    let (last, before) = w.split_last()?;
    if last == "groups" {
        let names: Vec<Vec<String>> = before.split(joiner).map(named).collect();
        let all_named = names.len() > 1 && names.iter().all(|n| !n.is_empty());
        return all_named.then(|| names.into_iter().map(Selector::InGroup).collect());
    }
    let parts: Vec<&[String]> = w.split(joiner).filter(|p| !p.is_empty()).collect();
    let is_group = |p: &[String]| p.last().is_some_and(|x| x == "group");
    if parts.len() < 2 || !parts.iter().any(|p| is_group(p)) {
        return None;
    }
    (parts.into_iter())
        .map(|p| match is_group(p) {
            true => Some(Selector::InGroup(named(&p[..p.len() - 1]))),
            false => part(p),
        })
        .collect()
}

/// "the ungrouped tabs", "tabs not in a group", "the tabs without a
/// group" (false); "the grouped tabs", "all groups", "the tabs in groups"
/// (true). A group's name makes it one group ("the news group").
pub(super) fn grouped(w: &[String]) -> Option<bool> {
    const NOT: &[&str] = &[
        "ungrouped",
        "without",
        "outside",
        "not",
        "arent",
        "isnt",
        "aren't",
        "isn't",
    ];
    const WORDS: &[&str] = &[
        "the", "tab", "tabs", "all", "every", "ones", "one", "my", "that", "are", "is", "in", "a",
        "any", "group", "groups", "grouped", "of", "which",
    ];
    let has = |x: &str| w.iter().any(|y| y == x);
    let known = |x: &String| WORDS.contains(&x.as_str()) || NOT.contains(&x.as_str());
    if w.is_empty() || !w.iter().all(known) {
        return None;
    }
    if NOT.iter().any(|x| has(x)) {
        (has("ungrouped") || has("group") || has("groups")).then_some(false)
    } else {
        (has("grouped") || has("groups") && (has("all") || has("every") || has("in")))
            .then_some(true)
    }
}
