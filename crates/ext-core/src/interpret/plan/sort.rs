//! Sorting the tabs of a window by title, address or last use: one `move_tabs`
//! call per window that is out of order.

use super::{not_found, plural, refused, Refusal, Step};
use crate::interpret::parse::{GroupWhich, Scope, SortKey};
use crate::interpret::resolve::{find_group, in_strip_order, View};
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::{Group, Tab};
use crate::tools::args::MoveTabsArgs;
use crate::tools::ToolCall;
use std::collections::BTreeMap;

/// Pinned tabs stay first and grouped tabs stay in their groups: the
/// other tabs are sorted into one block right after the pinned ones.
pub fn sort(view: &View, scope: Scope, by: SortKey) -> Result<Step, Refusal> {
    let mut windows: BTreeMap<i64, Vec<&Tab>> = BTreeMap::new();
    for t in view.in_scope(scope) {
        windows.entry(t.window_id).or_default().push(t);
    }
    let mut step = Step::default();
    let mut sorted_count = 0;
    let mut loose_count = 0;
    for tabs in windows.values_mut() {
        tabs.sort_by_key(|t| t.index);
        let pinned = tabs.iter().filter(|t| t.pinned).count();
        let loose: Vec<&Tab> = tabs
            .iter()
            .copied()
            .filter(|t| !t.pinned && !t.is_grouped())
            .collect();
        loose_count += loose.len();
        let mut order = loose.clone();
        sort_by(&mut order, by);
        // In order already: sorted and one block right after the pinned.
        let in_place = order.iter().zip(&loose).all(|(a, b)| a.id == b.id)
            && loose
                .iter()
                .enumerate()
                .all(|(i, t)| t.index == (pinned + i) as i64);
        if order.len() < 2 || in_place {
            continue;
        }
        let ids: Vec<i64> = order.iter().map(|t| t.id).collect();
        sorted_count += ids.len();
        step.touched.extend(&ids);
        step.calls.push(Call::move_tabs(MoveTabsArgs {
            tab_ids: ids,
            index: Some(pinned as i64),
            window_id: None,
            new_window: None,
        }));
    }
    let how = how(by);
    step.reply = if loose_count == 0 {
        "Every tab here is pinned or in a group; sorting leaves those as they are.".into()
    } else if step.calls.is_empty() {
        format!("Your tabs are already in order {how}.")
    } else {
        format!("Sorted {} {how}.", plural(sorted_count, "tab"))
    };
    Ok(step)
}

/// A group's tabs sorted where the group is, so that it stays one group.
pub fn sort_group(view: &View, which: &GroupWhich, by: SortKey) -> Result<Step, Refusal> {
    let group = find_group(view.state, which, view).map_err(not_found)?;
    let mut tabs: Vec<&Tab> = (view.state.tabs.iter())
        .filter(|t| t.group_id == group.id)
        .collect();
    tabs.sort_by_key(|t| t.index);
    let mut order = tabs.clone();
    sort_by(&mut order, by);
    let how = how(by);
    let said = super::group_said(group);
    let mut step = Step::default();
    if order.iter().zip(&tabs).all(|(a, b)| a.id == b.id) {
        step.reply = format!("The tabs of {said} are already in order {how}.");
        return Ok(step);
    }
    let ids: Vec<i64> = order.iter().map(|t| t.id).collect();
    step.touched.extend(&ids);
    step.calls.push(Call::move_tabs(MoveTabsArgs {
        tab_ids: ids,
        index: tabs.first().map(|t| t.index),
        window_id: Some(group.window_id),
        new_window: None,
    }));
    step.reply = format!("Sorted {} of {said} {how}.", plural(tabs.len(), "tab"));
    Ok(step)
}

/// Each window's groups in order of their titles, each moved whole to
/// where the groups begin: the first group's place in the window. Tabs
/// in no group that were between groups end up after them.
pub fn sort_groups(view: &View, scope: Scope, by_name: bool) -> Result<Step, Refusal> {
    if !by_name {
        return Err(refused(
            "Groups are put in order by their names only: say 'sort the groups by name'.",
        ));
    }
    // Each window's groups, in tab-strip order.
    let mut windows: BTreeMap<i64, Vec<&Group>> = BTreeMap::new();
    for g in in_strip_order(view.state, view) {
        if view.in_scope(scope).iter().any(|t| t.group_id == g.id) {
            windows.entry(g.window_id).or_default().push(g);
        }
    }
    if windows.values().all(|groups| groups.len() < 2) {
        return Err(not_found(match windows.len() {
            0 => "There are no tab groups here.",
            _ => "There is only one tab group here; there is nothing to sort.",
        }));
    }
    let tabs_of = |g: &Group| -> Vec<&Tab> {
        let mut tabs: Vec<&Tab> = (view.state.tabs.iter())
            .filter(|t| t.group_id == g.id)
            .collect();
        tabs.sort_by_key(|t| t.index);
        tabs
    };
    let first_index = |g: &Group| tabs_of(g).first().map_or(i64::MAX, |t| t.index);
    let mut step = Step::default();
    let mut sorted = 0;
    for groups in windows.values().filter(|gs| gs.len() > 1) {
        let mut start = first_index(groups[0]);
        let mut order = groups.clone();
        order.sort_by_cached_key(|g| g.title.to_lowercase());
        // In order already and side by side: nothing to move.
        let mut at = start;
        let in_place = order.iter().all(|g| {
            let here = first_index(g) == at;
            at += tabs_of(g).len() as i64;
            here
        });
        if in_place {
            continue;
        }
        sorted += order.len();
        for g in order {
            let ids: Vec<i64> = tabs_of(g).iter().map(|t| t.id).collect();
            step.touched.extend(&ids);
            start += ids.len() as i64;
            step.calls.push(Call::move_tabs(MoveTabsArgs {
                index: Some(start - ids.len() as i64),
                tab_ids: ids,
                window_id: Some(g.window_id),
                new_window: None,
            }));
        }
    }
    step.reply = match sorted {
        0 => "Your groups are already in order by title.".into(),
        n => format!("Put {n} groups in order by title."),
    };
    Ok(step)
}

fn how(by: SortKey) -> &'static str {
    match by {
        SortKey::Title => "by title",
        SortKey::Address => "by address",
        SortKey::LastUsed => "by when you last used them",
    }
}

/// Titles with case and leading marks ignored ("(3) Inbox" sorts under
/// I); addresses without their scheme, "www." or query; last use, the
/// newest first.
fn sort_by(tabs: &mut [&Tab], by: SortKey) {
    match by {
        SortKey::Title => tabs.sort_by_cached_key(|t| {
            t.title
                .trim_start_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        }),
        SortKey::Address => tabs.sort_by_cached_key(|t| {
            let (host, path) = sites::host_and_path(&t.url);
            format!("{host}{}", path.to_lowercase())
        }),
        SortKey::LastUsed => tabs.sort_by(|a, b| b.last_accessed.total_cmp(&a.last_accessed)),
    }
}

#[cfg(test)]
mod tests {
    use crate::interpret::{plan, test_state, Options};

    #[test]
    fn sorting_by_last_use_puts_the_tab_used_last_first() {
        let mut state = test_state::tabs(
            &[
                ("https://a.example/", "A"),
                ("https://b.example/", "B"),
                ("https://c.example/", "C"),
            ],
            &[],
        );
        // C was used last, then A, then B.
        for (tab, used) in state.tabs.iter_mut().zip([2.0, 1.0, 3.0]) {
            tab.last_accessed = used;
        }
        state.tabs[2].active = true;
        let plan = plan(
            "sort my tabs by when I used them",
            &state,
            &Options::default(),
        );
        assert_eq!(plan.calls.len(), 1, "{}", plan.reply);
        assert_eq!(plan.calls[0].args["tabIds"], serde_json::json!([3, 1, 2]));
        assert!(
            plan.reply.contains("when you last used them"),
            "{}",
            plan.reply
        );
    }
}
