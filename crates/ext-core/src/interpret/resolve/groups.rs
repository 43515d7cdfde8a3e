//! Groups by the words said of them ("the docs group", "this group").

use super::super::parse::GroupWhich;
use super::names::{match_tabs, word_in, words_of};
use super::{spoken_list, View};
use crate::interpret::text::ordinal;
use crate::tab_state::{Group, State, Tab};
use crate::text::plural;

/// The group some words name, or the active tab's group.
pub fn find_group<'a>(
    state: &'a State,
    which: &GroupWhich,
    view: &View,
) -> Result<&'a Group, String> {
    match which {
        GroupWhich::AllBut(_) | GroupWhich::Several(_) => {
            Err("That is said of one group at a time; say which.".into())
        }
        GroupWhich::Current | GroupWhich::All => {
            // Right after "group youtube tabs", "the group" is that one.
            let previous: Vec<i64> = view
                .previous
                .iter()
                .filter_map(|id| view.tab(*id))
                .map(|t| t.group_id)
                .collect();
            if let Some(first) = previous.first().filter(|g| **g != -1) {
                if previous.iter().all(|g| g == first) {
                    if let Some(g) = state.groups.iter().find(|g| g.id == *first) {
                        return Ok(g);
                    }
                }
            }
            let active = view.active().ok_or("No tab is active.")?;
            state
                .groups
                .iter()
                .find(|g| g.id == active.group_id)
                .ok_or_else(|| "This tab is not in a group.".to_string())
        }
        GroupWhich::Named(words) => {
            let joined = words.join(" ");
            let by_title = |typos: bool| -> Vec<&Group> {
                state
                    .groups
                    .iter()
                    .filter(|g| {
                        let title = words_of(&g.title);
                        !title.is_empty()
                            && (g.title.to_lowercase() == joined
                                || words.iter().all(|w| word_in(w, &title, typos)))
                    })
                    .collect()
            };
            let exact = by_title(false);
            if let (true, Some(g)) = (exact.is_empty(), at_place(state, view, words)?) {
                return Ok(g);
            }
            let candidates = if exact.is_empty() {
                by_title(true)
            } else {
                exact
            };
            if let [g] = candidates.as_slice() {
                return Ok(g);
            }
            if candidates.len() > 1 {
                // Prefer the focused window's.
                if let Some(g) = candidates
                    .iter()
                    .find(|g| g.window_id == view.focused_window)
                {
                    return Ok(g);
                }
                return Ok(candidates[0]);
            }
            // An untitled group named by what it holds: "the youtube group".
            let tabs: Vec<&Tab> = state.tabs.iter().filter(|t| t.group_id != -1).collect();
            let matched = match_tabs(words, &tabs);
            let mut groups: Vec<i64> = matched
                .iter()
                .filter_map(|id| state.tabs.iter().find(|t| t.id == *id))
                .map(|t| t.group_id)
                .collect();
            groups.dedup();
            match groups.as_slice() {
                [g] => state
                    .groups
                    .iter()
                    .find(|x| x.id == *g)
                    .ok_or_else(|| no_group(view, &joined)),
                _ => Err(no_group(view, &joined)),
            }
        }
    }
}

/// Every group in tab-strip order: window by window (as "window 2"
/// numbers them), then where each group's first tab is.
pub fn in_strip_order<'a>(state: &'a State, view: &View) -> Vec<&'a Group> {
    let first_tab = |g: &Group| {
        (state.tabs.iter())
            .filter(|t| t.group_id == g.id)
            .map(|t| t.index)
            .min()
    };
    let mut groups: Vec<&Group> = state.groups.iter().collect();
    groups.sort_by_key(|g| (view.window_number(g.window_id), first_tab(g)));
    groups
}

/// "the first group", "the last group", "the second group": a group by
/// its place among this window's groups (none: the words say no place).
fn at_place<'a>(
    state: &'a State,
    view: &View,
    words: &[String],
) -> Result<Option<&'a Group>, String> {
    let nth = match words {
        [w] if w == "last" => -1,
        [w] => match ordinal(w) {
            Some(n) => n,
            None => return Ok(None),
        },
        _ => return Ok(None),
    };
    let here: Vec<&Group> = (in_strip_order(state, view).into_iter())
        .filter(|g| g.window_id == view.focused_window)
        .collect();
    let at = if nth < 0 {
        here.len().checked_sub(1)
    } else {
        Some(nth as usize - 1)
    };
    match at.and_then(|i| here.get(i)) {
        Some(g) => Ok(Some(g)),
        None => Err(match here.len() {
            0 => "There are no tab groups in this window.".into(),
            n => format!("This window has only {}.", plural(n, "tab group")),
        }),
    }
}

/// "No group is called 'work'; yours are News, Docs and Design."
fn no_group(view: &View, said: &str) -> String {
    let titles: Vec<String> = view
        .state
        .groups
        .iter()
        .filter(|g| !g.title.trim().is_empty())
        .map(|g| format!("'{}'", g.title))
        .collect();
    match (view.state.groups.len(), titles.as_slice()) {
        (0, _) => format!("No group is called '{said}'; you have no tab groups."),
        (_, []) => format!("No group is called '{said}'."),
        (1, [only]) => format!("No group is called '{said}'; your only group is {only}."),
        (_, titles) if titles.len() > 8 => format!(
            "No group is called '{said}'; yours include {}.",
            spoken_list(&titles[..8])
        ),
        (_, titles) => format!(
            "No group is called '{said}'; yours are {}.",
            spoken_list(titles)
        ),
    }
}
