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
    let mut undo = vec![UndoStep::Restore {
        placements: placements(&tabs, &groups),
    }];
    if let Some(g) = &existing {
        undo.push(UndoStep::RestoreGroup { group: g.clone() });
    }
    let group_id = b.group_tabs(&ids_of(&tabs), a.group_id).await?;
    let change = GroupChange {
        title: a.title.map(|t| t.trim().to_string()),
        color: a.color,
        collapsed: a.collapsed,
    };
    if change != GroupChange::default() {
        b.update_group(group_id, &change).await?;
    }
    let all = b.tabs().await?;
    let group = find_group(&b.groups().await?, group_id)?.clone();
    Ok(ToolOutput::with_undo(
        json!({ "group": group_json(&group, &all), "tabIds": ids_of(&tabs) }),
        undo,
    ))
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
