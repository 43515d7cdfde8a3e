//! Tools on tabs: list, switch, close, de-duplicate, move, create, reload,
//! discard, duplicate, pin, mute.

use super::args::*;
use super::groups::{keep_whole, whole_groups, WholeGroup};
use super::*;
use crate::tab_state::NewTab;
use crate::text::page_key;
use crate::undo::{ClosedTab, UndoEntry, UndoJournal};
use std::collections::HashMap;

pub async fn list_tabs<B: Browser>(b: &B, a: ListTabsArgs) -> ToolResult<ToolOutput> {
    if let Some(w) = a.window_id {
        check_window(&b.windows().await?, w)?;
    }
    let words: Vec<String> = a
        .query
        .as_deref()
        .unwrap_or("")
        .split_whitespace()
        .map(str::to_lowercase)
        .collect();
    let tabs: Vec<Tab> = b
        .tabs()
        .await?
        .into_iter()
        .filter(|t| a.window_id.is_none_or(|w| t.window_id == w))
        .filter(|t| {
            let hay = format!("{} {}", t.title, t.url).to_lowercase();
            words.iter().all(|w| hay.contains(w.as_str()))
        })
        .collect();
    Ok(ToolOutput::new(
        json!({ "tabs": tabs, "count": tabs.len() }),
    ))
}

pub async fn switch_tab<B: Browser>(b: &B, a: TabIdArgs) -> ToolResult<ToolOutput> {
    let tabs = b.tabs().await?;
    let tab = find_tab(&tabs, a.tab_id)?.clone();
    let windows = b.windows().await?;
    let before = active_in(&tabs, &windows);
    b.activate_tab(tab.id).await?;
    b.focus_window(tab.window_id).await?;
    let tab = reread(b, &[tab.id]).await?.pop().unwrap_or(tab);
    let undo = before
        .map(|(tab_id, window_id)| vec![UndoStep::Activate { tab_id, window_id }])
        .unwrap_or_default();
    Ok(ToolOutput::with_undo(json!({ "tab": tab }), undo))
}

/// The active tab of the focused window and that window.
fn active_in(tabs: &[Tab], windows: &[Window]) -> Option<(i64, i64)> {
    let window = focused_window(windows).ok()?;
    tabs.iter()
        .find(|t| t.window_id == window && t.active)
        .map(|t| (t.id, window))
}

/// Refuses a close that would leave a window with no tab.
pub(crate) fn check_not_emptying(all: &[Tab], closing: &[Tab]) -> ToolResult<()> {
    match emptied_windows(all, &ids_of(closing), None).first() {
        Some(&window) => {
            let open = all.iter().filter(|t| t.window_id == window).count();
            Err(ToolError::refused(format!(
                "That would close all {} of window {window}; Tab Whisperer never closes every tab of a window. Leave at least one open.",
                crate::text::plural(open, "tab")
            )))
        }
        None => Ok(()),
    }
}

/// Why all of a window's tabs do not move into a new window.
pub(crate) const EMPTYING_INTO_NEW_WINDOW: &str =
    "That would move every tab out of one of their windows; leave one there, \
     or move them into another window instead.";

/// Closes tabs and answers the undo step that reopens them.
async fn close<B: Browser>(b: &B, closing: &[Tab]) -> ToolResult<UndoStep> {
    let groups = b.groups().await?;
    let record: Vec<ClosedTab> = closing
        .iter()
        .map(|t| ClosedTab::of(t, groups.iter().find(|g| g.id == t.group_id)))
        .collect();
    b.close_tabs(&ids_of(closing)).await?;
    Ok(UndoStep::Reopen { tabs: record })
}

pub async fn close_tabs<B: Browser>(b: &B, a: TabIdsArgs) -> ToolResult<ToolOutput> {
    let all = b.tabs().await?;
    let closing = find_tabs(&all, &a.tab_ids)?;
    check_not_emptying(&all, &closing)?;
    let undo = close(b, &closing).await?;
    let ids = ids_of(&closing);
    Ok(ToolOutput::with_undo(
        json!({ "closed": ids, "count": ids.len() }),
        vec![undo],
    ))
}

/// The URL with its fragment removed: two tabs on the same page are copies.
pub async fn close_duplicate_tabs<B: Browser>(
    b: &B,
    a: CloseDuplicateTabsArgs,
) -> ToolResult<ToolOutput> {
    let windows = b.windows().await?;
    if let Some(w) = a.window_id {
        check_window(&windows, w)?;
    }
    let all = b.tabs().await?;
    if let Some(ids) = &a.tab_ids {
        find_tabs(&all, ids)?;
    }
    let focused = focused_window(&windows).ok();
    let mut copies: HashMap<String, Vec<&Tab>> = HashMap::new();
    for t in all.iter().filter(|t| {
        a.window_id.is_none_or(|w| t.window_id == w)
            && a.tab_ids.as_ref().is_none_or(|ids| ids.contains(&t.id))
    }) {
        copies
            .entry(page_key(&t.url).to_string())
            .or_default()
            .push(t);
    }
    let mut kept = Vec::new();
    let mut closing: Vec<Tab> = Vec::new();
    for group in copies.values().filter(|g| g.len() > 1) {
        // Keep the active copy (the focused window's first), else a pinned
        // one, else the oldest (Firefox hands out tab ids in opening order).
        let keep = group
            .iter()
            .max_by_key(|t| {
                (
                    t.active && Some(t.window_id) == focused,
                    t.active,
                    t.pinned,
                    std::cmp::Reverse(t.id),
                )
            })
            .map(|t| t.id);
        for t in group {
            if Some(t.id) == keep || t.pinned {
                kept.push(t.id);
            } else {
                closing.push((*t).clone());
            }
        }
    }
    // Never empty a window: where every tab of a window would go, keep one.
    let mut spared = Vec::new();
    for w in &windows {
        let open = all.iter().filter(|t| t.window_id == w.id).count();
        let going: Vec<i64> = closing
            .iter()
            .filter(|t| t.window_id == w.id)
            .map(|t| t.id)
            .collect();
        if open > 0 && going.len() == open {
            spared.push(going[0]);
        }
    }
    closing.retain(|t| !spared.contains(&t.id));
    kept.extend(spared);
    closing.sort_by_key(|t| (t.window_id, t.index));
    kept.sort_unstable();
    if closing.is_empty() {
        return Ok(ToolOutput::new(
            json!({ "closed": [], "kept": kept, "count": 0 }),
        ));
    }
    let undo = close(b, &closing).await?;
    let ids = ids_of(&closing);
    Ok(ToolOutput::with_undo(
        json!({ "closed": ids, "kept": kept, "count": ids.len() }),
        vec![undo],
    ))
}

pub async fn move_tabs<B: Browser>(b: &B, a: MoveTabsArgs) -> ToolResult<ToolOutput> {
    let new_window = a.new_window == Some(true);
    if new_window && a.window_id.is_some() {
        return Err(ToolError::invalid(
            "move_tabs: give a windowId or newWindow, not both.",
        ));
    }
    if a.index.is_none() && a.window_id.is_none() && !new_window {
        return Err(ToolError::invalid(
            "move_tabs: give an index, a windowId, newWindow, or an index with one of the two.",
        ));
    }
    if let Some(i) = a.index {
        if i < -1 {
            return Err(ToolError::invalid(format!(
                "move_tabs: index {i} is not a position (0 is the first, -1 the end)."
            )));
        }
    }
    let windows = b.windows().await?;
    if let Some(w) = a.window_id {
        check_window(&windows, w)?;
    }
    let all = b.tabs().await?;
    let moving = find_tabs(&all, &a.tab_ids)?;
    if new_window {
        // A window emptied into a new one would only be replaced by it.
        if !emptied_windows(&all, &ids_of(&moving), None).is_empty() {
            return Err(ToolError::refused(EMPTYING_INTO_NEW_WINDOW));
        }
    }
    let groups = b.groups().await?;
    let placements = placements(&moving, &groups);
    let whole = whole_groups(&all, &moving, &groups);
    if new_window {
        return move_to_new_window(b, &moving, placements, &whole).await;
    }
    // Moving every tab out of a window closes it (merging windows); undo
    // opens it again.
    let closed_windows = match a.window_id {
        Some(to) => emptied_windows(&all, &ids_of(&moving), Some(to)),
        None => Vec::new(),
    };
    let undo = UndoStep::Restore {
        placements,
        closed_windows: closed_windows.clone(),
    };
    for (tab_id, window_id, index) in block_moves(&all, &moving, a.window_id, a.index) {
        if let Err(e) = b.move_tab(tab_id, window_id, index).await {
            return Err(put_back(b, undo, e.into()).await);
        }
    }
    if let Err(e) = keep_whole(b, &whole).await {
        return Err(put_back(b, undo, e).await);
    }
    let tabs = reread(b, &ids_of(&moving)).await?;
    let mut result = json!({ "tabs": tabs });
    if !closed_windows.is_empty() {
        result["closedWindows"] = json!(closed_windows);
    }
    Ok(ToolOutput::with_undo(result, vec![undo]))
}

/// The windows (but `into`, where they go) that taking the tabs `ids`
/// away would leave with no tab, in id order.
pub(crate) fn emptied_windows(all: &[Tab], ids: &[i64], into: Option<i64>) -> Vec<i64> {
    let mut windows: Vec<i64> = all
        .iter()
        .filter(|t| ids.contains(&t.id) && Some(t.window_id) != into)
        .map(|t| t.window_id)
        .collect();
    windows.sort_unstable();
    windows.dedup();
    windows.retain(|w| {
        all.iter()
            .filter(|t| t.window_id == *w)
            .all(|t| ids.contains(&t.id))
    });
    windows
}

/// The `tabs.move` calls, in order, that leave `moving` as one block, in
/// their order, at `index` of the window (-1 or none: the end; counted
/// among the tabs that stay). Each call places one tab where the previous
/// one ended, so tabs taken from the left of the block cannot shift it.
fn block_moves(
    all: &[Tab],
    moving: &[Tab],
    window_id: Option<i64>,
    index: Option<i64>,
) -> Vec<(i64, Option<i64>, i64)> {
    let mut targets: Vec<i64> = moving
        .iter()
        .map(|t| window_id.unwrap_or(t.window_id))
        .collect();
    targets.sort_unstable();
    targets.dedup();
    let mut moves = Vec::new();
    for window in targets {
        let block: Vec<&Tab> = moving
            .iter()
            .filter(|t| window_id.unwrap_or(t.window_id) == window)
            .collect();
        let mut strip: Vec<&Tab> = all.iter().filter(|t| t.window_id == window).collect();
        strip.sort_by_key(|t| t.index);
        let mut strip: Vec<i64> = strip.iter().map(|t| t.id).collect();
        let staying: Vec<i64> = strip
            .iter()
            .copied()
            .filter(|id| !moving.iter().any(|m| m.id == *id))
            .collect();
        let at = match index {
            Some(i) if i >= 0 => (i as usize).min(staying.len()),
            _ => staying.len(),
        };
        // Pinned tabs follow one another in front, the others from the
        // place asked: a pinned tab held in front must not pull the
        // unpinned ones after it there.
        let anchor = at.checked_sub(1).map(|i| staying[i]);
        let (mut previous_pinned, mut previous_unpinned) = (anchor, anchor);
        let pinned = |id: &i64| all.iter().any(|t| t.id == *id && t.pinned);
        for t in block {
            strip.retain(|id| *id != t.id);
            let previous = if t.pinned {
                &mut previous_pinned
            } else {
                &mut previous_unpinned
            };
            let to = previous
                .and_then(|p| strip.iter().position(|id| *id == p))
                .map_or(0, |p| p + 1);
            // As Firefox does: pinned tabs stay in front of the others.
            let first_unpinned = strip.iter().take_while(|id| pinned(id)).count();
            let to = if t.pinned {
                to.min(first_unpinned)
            } else {
                to.max(first_unpinned)
            };
            strip.insert(to, t.id);
            moves.push((t.id, window_id, to as i64));
            *previous = Some(t.id);
        }
    }
    moves
}

/// A move that failed part way (a tab closed meanwhile) would leave tabs
/// moved with nothing to undo them: they go back before the error is told.
async fn put_back<B: Browser>(b: &B, undo: UndoStep, e: ToolError) -> ToolError {
    let entry = UndoEntry {
        id: String::new(),
        time: 0.0,
        label: "move_tabs".into(),
        private: false,
        steps: vec![undo],
    };
    let note = match UndoJournal::default().revert(b, &entry).await {
        Ok(_) => "The tabs already moved were put back.",
        Err(_) => "Some tabs had already moved and could not all be put back.",
    };
    ToolError {
        message: format!("{} {note}", e.message),
        ..e
    }
}

/// The first tab opens the window, the others follow it in order. Undo
/// puts them back and so empties the window, which Firefox then closes;
/// what the person opened there since stays.
async fn move_to_new_window<B: Browser>(
    b: &B,
    moving: &[Tab],
    placements: Vec<Placement>,
    whole: &[WholeGroup],
) -> ToolResult<ToolOutput> {
    let (first, rest) = moving
        .split_first()
        .ok_or_else(|| ToolError::invalid("move_tabs: tabIds is empty."))?;
    let window_id = b.move_to_new_window(first.id).await?;
    let undo = UndoStep::Unmove {
        window_id,
        placements,
    };
    for t in rest {
        if let Err(e) = b.move_tab(t.id, Some(window_id), -1).await {
            return Err(put_back(b, undo, e.into()).await);
        }
    }
    if let Err(e) = keep_whole(b, whole).await {
        return Err(put_back(b, undo, e).await);
    }
    let tabs = reread(b, &ids_of(moving)).await?;
    Ok(ToolOutput::with_undo(
        json!({ "tabs": tabs, "windowId": window_id }),
        vec![undo],
    ))
}

/// Reads what a person typed as an address Firefox lets an extension open.
pub fn normalize_url(input: &str) -> ToolResult<String> {
    let text = input.trim();
    if text.is_empty() {
        return Err(ToolError::invalid("The URL is empty."));
    }
    if text == "about:blank" {
        return Ok(text.to_string());
    }
    let with_scheme = if text.contains("://") {
        text.to_string()
    } else {
        let host = text.split(['/', '?', '#']).next().unwrap_or("");
        let local = host.starts_with("localhost") || host.starts_with("127.");
        format!("{}://{text}", if local { "http" } else { "https" })
    };
    let parsed = url::Url::parse(&with_scheme)
        .map_err(|e| ToolError::invalid(format!("'{}' is not an address: {e}.", clip(text, 80))))?;
    match parsed.scheme() {
        "http" | "https" => {}
        other => {
            return Err(ToolError::invalid(format!(
                "Extensions may not open {other}: addresses; use http or https."
            )))
        }
    }
    let host = parsed.host_str().unwrap_or("");
    if !(host.contains('.') || host == "localhost" || host.starts_with('[')) {
        return Err(ToolError::invalid(format!(
            "'{}' does not look like a web address.",
            clip(text, 80)
        )));
    }
    Ok(parsed.to_string())
}

pub async fn create_tab<B: Browser>(b: &B, a: CreateTabArgs) -> ToolResult<ToolOutput> {
    let url = a.url.as_deref().map(normalize_url).transpose()?;
    if let Some(group_id) = a.group_id {
        return create_in_group(b, url, group_id, a).await;
    }
    if a.new_window == Some(true) {
        return create_in_new_window(b, url, a).await;
    }
    let windows = b.windows().await?;
    let window = match a.window_id {
        Some(w) => {
            check_window(&windows, w)?;
            w
        }
        None => focused_window(&windows)?,
    };
    check_index(a.index)?;
    let tab = b
        .create_tab(&NewTab {
            url,
            window_id: Some(window),
            index: a.index,
            active: a.active.unwrap_or(true),
            pinned: a.pinned.unwrap_or(false),
            ..NewTab::default()
        })
        .await?;
    Ok(ToolOutput::with_undo(
        json!({ "tab": tab }),
        vec![UndoStep::Close {
            tab_ids: vec![tab.id],
        }],
    ))
}

fn check_index(index: Option<i64>) -> ToolResult<()> {
    match index {
        Some(i) if i < 0 => Err(ToolError::invalid(format!(
            "create_tab: index {i} is not a position (0 is the first)."
        ))),
        _ => Ok(()),
    }
}

/// `create_tab` with `groupId`: the tab opens after the group's last tab
/// and joins it. Undone by closing the tab and giving the group back its
/// look (an active tab joining a collapsed group expands it).
async fn create_in_group<B: Browser>(
    b: &B,
    url: Option<String>,
    group_id: i64,
    a: CreateTabArgs,
) -> ToolResult<ToolOutput> {
    if a.new_window == Some(true) {
        return Err(ToolError::invalid(
            "create_tab: a tab in a new window cannot join a group of another window.",
        ));
    }
    if a.pinned == Some(true) {
        return Err(ToolError::refused(
            "Pinned tabs cannot be in a group, so the tab cannot be both.",
        ));
    }
    let groups = b.groups().await?;
    let group = super::find_group(&groups, group_id)?.clone();
    if a.window_id.is_some_and(|w| w != group.window_id) {
        return Err(ToolError::invalid(format!(
            "create_tab: group {group_id} is in window {}, not window {}.",
            group.window_id,
            a.window_id.unwrap_or_default()
        )));
    }
    check_index(a.index)?;
    let after_group = b
        .tabs()
        .await?
        .iter()
        .filter(|t| t.group_id == group_id)
        .map(|t| t.index + 1)
        .max();
    let tab = b
        .create_tab(&NewTab {
            url,
            window_id: Some(group.window_id),
            index: a.index.or(after_group),
            active: a.active.unwrap_or(true),
            ..NewTab::default()
        })
        .await?;
    // A tab opened but not grouped is not what was asked: close it again.
    if let Err(e) = b.group_tabs(&[tab.id], Some(group_id), None).await {
        b.close_tabs(&[tab.id]).await.ok();
        return Err(e.into());
    }
    let tab = reread(b, &[tab.id]).await?.pop().unwrap_or(tab);
    Ok(ToolOutput::with_undo(
        json!({ "tab": tab }),
        vec![
            UndoStep::Close {
                tab_ids: vec![tab.id],
            },
            UndoStep::RestoreGroup { group },
        ],
    ))
}

/// `create_tab` with `newWindow`: a window of its own, undone by closing
/// that window.
async fn create_in_new_window<B: Browser>(
    b: &B,
    url: Option<String>,
    a: CreateTabArgs,
) -> ToolResult<ToolOutput> {
    if a.window_id.is_some() || a.index.is_some() {
        return Err(ToolError::invalid(
            "create_tab: a tab in a new window has no windowId or index to say.",
        ));
    }
    if a.active == Some(false) {
        return Err(ToolError::invalid(
            "create_tab: a new window comes to the front, so its tab cannot open in the background.",
        ));
    }
    let (tab, undo) = open_window(
        b,
        &NewTab {
            url,
            active: true,
            pinned: a.pinned.unwrap_or(false),
            ..NewTab::default()
        },
    )
    .await?;
    Ok(ToolOutput::with_undo(json!({ "tab": tab }), vec![undo]))
}

/// A new window with one tab, and the undo step that closes it.
pub(super) async fn open_window<B: Browser>(b: &B, spec: &NewTab) -> ToolResult<(Tab, UndoStep)> {
    let tab = b.create_window(spec).await?;
    let undo = UndoStep::CloseWindow { tab_id: tab.id };
    Ok((tab, undo))
}

pub async fn reload_tabs<B: Browser>(b: &B, a: ReloadTabsArgs) -> ToolResult<ToolOutput> {
    let tabs = find_tabs(&b.tabs().await?, &a.tab_ids)?;
    for t in &tabs {
        b.reload_tab(t.id, a.bypass_cache.unwrap_or(false)).await?;
    }
    let ids = ids_of(&tabs);
    Ok(ToolOutput::new(
        json!({ "reloaded": ids, "count": ids.len() }),
    ))
}

pub async fn discard_tabs<B: Browser>(b: &B, a: TabIdsArgs) -> ToolResult<ToolOutput> {
    let tabs = find_tabs(&b.tabs().await?, &a.tab_ids)?;
    let (skipped, going): (Vec<Tab>, Vec<Tab>) = tabs.into_iter().partition(|t| t.active);
    let ids = ids_of(&going);
    if !ids.is_empty() {
        b.discard_tabs(&ids).await?;
    }
    let undo = if ids.is_empty() {
        vec![]
    } else {
        vec![UndoStep::Reload {
            tab_ids: ids.clone(),
        }]
    };
    Ok(ToolOutput::with_undo(
        json!({ "discarded": ids, "skipped": ids_of(&skipped), "count": ids.len() }),
        undo,
    ))
}

pub async fn duplicate_tab<B: Browser>(b: &B, a: TabIdArgs) -> ToolResult<ToolOutput> {
    let original = find_tab(&b.tabs().await?, a.tab_id)?.clone();
    // Right after the original (Firefox would put it after the selected tab).
    let tab = b.duplicate_tab(a.tab_id, original.index + 1).await?;
    Ok(ToolOutput::with_undo(
        json!({ "tab": tab }),
        vec![UndoStep::Close {
            tab_ids: vec![tab.id],
        }],
    ))
}

pub async fn pin_tabs<B: Browser>(b: &B, a: PinTabsArgs) -> ToolResult<ToolOutput> {
    let pinned = a.pinned.unwrap_or(true);
    let tabs = find_tabs(&b.tabs().await?, &a.tab_ids)?;
    let undo = UndoStep::Restore {
        placements: placements(&tabs, &b.groups().await?),
        closed_windows: Vec::new(),
    };
    for t in tabs.iter().filter(|t| t.pinned != pinned) {
        b.set_pinned(t.id, pinned).await?;
    }
    let tabs = reread(b, &ids_of(&tabs)).await?;
    Ok(ToolOutput::with_undo(json!({ "tabs": tabs }), vec![undo]))
}

pub async fn mute_tabs<B: Browser>(b: &B, a: MuteTabsArgs) -> ToolResult<ToolOutput> {
    let muted = a.muted.unwrap_or(true);
    let tabs = find_tabs(&b.tabs().await?, &a.tab_ids)?;
    let undo = UndoStep::Restore {
        placements: placements(&tabs, &b.groups().await?),
        closed_windows: Vec::new(),
    };
    for t in tabs.iter().filter(|t| t.muted != muted) {
        b.set_muted(t.id, muted).await?;
    }
    let tabs = reread(b, &ids_of(&tabs)).await?;
    Ok(ToolOutput::with_undo(json!({ "tabs": tabs }), vec![undo]))
}
