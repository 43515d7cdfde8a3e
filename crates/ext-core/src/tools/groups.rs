//! Tools on tab groups: group, ungroup, list, collapse, update.

use super::args::*;
use super::*;
use crate::tab_state::GroupChange;

pub async fn group_tabs<B: Browser>(b: &B, a: GroupTabsArgs) -> ToolResult<ToolOutput> {
    let all = b.tabs().await?;
    let tabs = find_tabs(&all, &a.tab_ids)?;
    let groups = b.groups().await?;
    if let Some(pinned) = tabs.iter().find(|t| t.pinned) {
        return Err(ToolError::refused(format!(
            "Tab {} is pinned, and pinned tabs cannot be in a group; unpin it first.",
            pinned.id
        )));
    }
    let existing = match a.group_id {
        Some(id) => Some(find_group(&groups, id)?.clone()),
        None => None,
    };
    // Grouping gathers the tabs, pushing other tabs (other groups whole)
    // aside: undo records every tab of the windows concerned, so that it
    // can move the few pushed aside back rather than all the others.
    let windows: Vec<i64> = tabs
        .iter()
        .map(|t| t.window_id)
        .chain(existing.as_ref().map(|g| g.window_id))
        .collect();
    let concerned: Vec<Tab> = all
        .iter()
        .filter(|t| windows.contains(&t.window_id))
        .cloned()
        .collect();
    // Adding the last tab of a window to a group elsewhere closes it.
    let closed_windows = existing
        .as_ref()
        .map(|g| super::tabs::emptied_windows(&all, &ids_of(&tabs), Some(g.window_id)))
        .unwrap_or_default();
    let mut undo = vec![UndoStep::Restore {
        placements: placements(&concerned, &groups),
        closed_windows,
    }];
    if let Some(g) = &existing {
        undo.push(UndoStep::RestoreGroup { group: g.clone() });
    }
    let change = GroupChange {
        title: a.title.map(|t| t.trim().to_string()),
        color: a.color,
        collapsed: a.collapsed,
    };
    // Adding to an existing group moves the tabs to its window, as asked.
    // A new group is made in each window the tabs are in (same title and
    // color): grouping never drags tabs across windows.
    let batches: Vec<(Option<i64>, Vec<i64>)> = match a.group_id {
        Some(_) => vec![(None, ids_of(&tabs))],
        None => per_window(&tabs)
            .into_iter()
            .map(|(w, ids)| (Some(w), ids))
            .collect(),
    };
    let mut made = Vec::new();
    for (window, ids) in batches {
        let group_id = b.group_tabs(&ids, a.group_id, window).await?;
        if change != GroupChange::default() {
            b.update_group(group_id, &change).await?;
        }
        made.push((group_id, ids));
    }
    let all = b.tabs().await?;
    let groups = b.groups().await?;
    let mut answers = Vec::new();
    for (group_id, ids) in &made {
        let group = find_group(&groups, *group_id)?;
        answers.push(json!({
            "group": group_json(group, &all),
            "windowId": group.window_id,
            "tabIds": ids,
        }));
    }
    let first = answers.first().cloned().unwrap_or_default();
    Ok(ToolOutput::with_undo(
        json!({ "group": first["group"], "tabIds": first["tabIds"], "groups": answers }),
        undo,
    ))
}

/// Tab ids per window, windows in the order their first tab comes.
fn per_window(tabs: &[Tab]) -> Vec<(i64, Vec<i64>)> {
    let mut out: Vec<(i64, Vec<i64>)> = Vec::new();
    for t in tabs {
        match out.iter_mut().find(|(w, _)| *w == t.window_id) {
            Some((_, ids)) => ids.push(t.id),
            None => out.push((t.window_id, vec![t.id])),
        }
    }
    out
}

pub async fn ungroup_tabs<B: Browser>(b: &B, a: UngroupTabsArgs) -> ToolResult<ToolOutput> {
    let all = b.tabs().await?;
    let groups = b.groups().await?;
    let mut tabs = match &a.tab_ids {
        Some(ids) => find_tabs(&all, ids)?,
        None => Vec::new(),
    };
    if let Some(gid) = a.group_id {
        find_group(&groups, gid)?;
        let more: Vec<Tab> = all
            .iter()
            .filter(|t| t.group_id == gid && !tabs.iter().any(|x| x.id == t.id))
            .cloned()
            .collect();
        tabs.extend(more);
    } else if a.tab_ids.is_none() {
        return Err(ToolError::invalid(
            "ungroup_tabs: give tabIds or a groupId.",
        ));
    }
    tabs.retain(|t| t.is_grouped());
    if tabs.is_empty() {
        return Ok(ToolOutput::new(json!({ "ungrouped": [], "count": 0 })));
    }
    let undo = UndoStep::Restore {
        placements: placements(&tabs, &groups),
        closed_windows: Vec::new(),
    };
    let ids = ids_of(&tabs);
    b.ungroup_tabs(&ids).await?;
    Ok(ToolOutput::with_undo(
        json!({ "ungrouped": ids, "count": ids.len() }),
        vec![undo],
    ))
}

pub async fn list_groups<B: Browser>(b: &B, a: WindowArgs) -> ToolResult<ToolOutput> {
    if let Some(w) = a.window_id {
        check_window(&b.windows().await?, w)?;
    }
    let tabs = b.tabs().await?;
    let groups: Vec<Value> = b
        .groups()
        .await?
        .iter()
        .filter(|g| a.window_id.is_none_or(|w| g.window_id == w))
        .map(|g| group_json(g, &tabs))
        .collect();
    Ok(ToolOutput::new(
        json!({ "count": groups.len(), "groups": groups }),
    ))
}

async fn change_group<B: Browser>(b: &B, id: i64, change: GroupChange) -> ToolResult<ToolOutput> {
    let before = find_group(&b.groups().await?, id)?.clone();
    if let Some(title) = &change.title {
        if title.chars().count() > 200 {
            return Err(ToolError::invalid(
                "A group title is at most 200 characters.",
            ));
        }
    }
    b.update_group(id, &change).await?;
    let group = find_group(&b.groups().await?, id)?.clone();
    Ok(ToolOutput::with_undo(
        json!({ "group": group_json(&group, &b.tabs().await?) }),
        vec![UndoStep::RestoreGroup { group: before }],
    ))
}

pub async fn collapse_group<B: Browser>(b: &B, a: CollapseGroupArgs) -> ToolResult<ToolOutput> {
    let change = GroupChange {
        collapsed: Some(a.collapsed.unwrap_or(true)),
        ..GroupChange::default()
    };
    change_group(b, a.group_id, change).await
}

pub async fn update_group<B: Browser>(b: &B, a: UpdateGroupArgs) -> ToolResult<ToolOutput> {
    let change = GroupChange {
        title: a.title.map(|t| t.trim().to_string()),
        color: a.color,
        collapsed: a.collapsed,
    };
    if change == GroupChange::default() {
        return Err(ToolError::invalid(
            "update_group: give a title, a color or collapsed.",
        ));
    }
    change_group(b, a.group_id, change).await
}

/// A group all of whose tabs a move takes along, with those tabs.
pub(super) struct WholeGroup {
    look: Group,
    tab_ids: Vec<i64>,
}

/// The groups every tab of which is among `moving`.
pub(super) fn whole_groups(all: &[Tab], moving: &[Tab], groups: &[Group]) -> Vec<WholeGroup> {
    groups
        .iter()
        .filter_map(|g| {
            let tab_ids: Vec<i64> = all
                .iter()
                .filter(|t| t.group_id == g.id)
                .map(|t| t.id)
                .collect();
            let whole =
                !tab_ids.is_empty() && tab_ids.iter().all(|id| moving.iter().any(|m| m.id == *id));
            whole.then(|| WholeGroup {
                look: g.clone(),
                tab_ids,
            })
        })
        .collect()
}

/// Makes the groups a move took whole groups again where they landed.
/// Firefox's `tabs.move` takes a tab out of its group when it lands
/// outside it, and puts it in a group it lands inside (Firefox 153:
/// "move the news group after the docs group" merged News into Docs), so
/// a group moved tab by tab dissolves. Its tabs go back into it if it is
/// still there, else into a new group with its title, color and state.
pub(super) async fn keep_whole<B: Browser>(b: &B, whole: &[WholeGroup]) -> ToolResult<()> {
    if whole.is_empty() {
        return Ok(());
    }
    let tabs = b.tabs().await?;
    let groups = b.groups().await?;
    for g in whole {
        let mut members: Vec<&Tab> = tabs.iter().filter(|t| g.tab_ids.contains(&t.id)).collect();
        members.sort_by_key(|t| (t.window_id, t.index));
        let Some(first) = members.first() else {
            continue;
        };
        if members.iter().all(|t| t.group_id == g.look.id) {
            continue;
        }
        let ids: Vec<i64> = members.iter().map(|t| t.id).collect();
        if groups.iter().any(|x| x.id == g.look.id) {
            b.group_tabs(&ids, Some(g.look.id), None).await?;
        } else {
            let id = b.group_tabs(&ids, None, Some(first.window_id)).await?;
            b.update_group(id, &GroupChange::look_of(&g.look)).await?;
        }
    }
    Ok(())
}
