//! The undo journal: for every changing call, the steps that revert it.
//!
//! Firefox's sessions API remembers only 25 closed tabs and knows nothing of
//! moves or groups, so the journal keeps its own record. Reopened tabs and
//! recreated groups get new ids; the journal maps old ids to new ones so
//! that older entries still find their tabs.

use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::tab_state::{Group, GroupChange, NewTab, Tab, NO_GROUP};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// Entries kept; older ones can no longer be undone.
pub const MAX_ENTRIES: usize = 100;

/// Where a tab was: enough to put it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Placement {
    pub tab_id: i64,
    pub window_id: i64,
    pub index: i64,
    pub pinned: bool,
    pub muted: bool,
    /// The group it was in, with its look (to recreate it if it vanished).
    pub group: Option<Group>,
}

impl Placement {
    pub fn of(tab: &Tab, group: Option<&Group>) -> Self {
        Placement {
            tab_id: tab.id,
            window_id: tab.window_id,
            index: tab.index,
            pinned: tab.pinned,
            muted: tab.muted,
            group: group.cloned(),
        }
    }
}

/// A closed tab: enough to reopen it where it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClosedTab {
    pub url: String,
    pub title: String,
    pub active: bool,
    #[serde(flatten)]
    pub placement: Placement,
}

impl ClosedTab {
    pub fn of(tab: &Tab, group: Option<&Group>) -> Self {
        ClosedTab {
            url: tab.url.clone(),
            title: tab.title.clone(),
            active: tab.active,
            placement: Placement::of(tab, group),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum UndoStep {
    /// Reopen closed tabs where they were.
    Reopen {
        tabs: Vec<ClosedTab>,
    },
    /// Close tabs that were opened.
    Close {
        tab_ids: Vec<i64>,
    },
    /// Put tabs back: window, position, pinned, muted, group.
    Restore {
        placements: Vec<Placement>,
    },
    /// Give a group back its title, color and collapsed state.
    RestoreGroup {
        group: Group,
    },
    /// Make a tab active again and focus its window.
    Activate {
        tab_id: i64,
        window_id: i64,
    },
    /// Load discarded tabs again.
    Reload {
        tab_ids: Vec<i64>,
    },
    RemoveBookmarks {
        ids: Vec<String>,
    },
    Zoom {
        tab_id: i64,
        zoom: f64,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UndoEntry {
    pub id: String,
    pub time: f64,
    /// What was done, for the reply ("close_tabs", or the command text).
    pub label: String,
    pub steps: Vec<UndoStep>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct UndoJournal {
    pub entries: Vec<UndoEntry>,
    /// Old tab id → the id of the tab that replaced it on undo.
    #[serde(default)]
    pub tab_ids: BTreeMap<i64, i64>,
    /// Old group id → the id of the group recreated in its place.
    #[serde(default)]
    pub group_ids: BTreeMap<i64, i64>,
}

/// What an undo did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoReport {
    pub reopened: usize,
    pub restored: usize,
    /// Tabs that no longer exist and so could not be put back.
    pub missing: usize,
}

impl UndoJournal {
    pub fn push(&mut self, entry: UndoEntry) {
        if entry.steps.is_empty() {
            return;
        }
        self.entries.push(entry);
        if self.entries.len() > MAX_ENTRIES {
            let excess = self.entries.len() - MAX_ENTRIES;
            self.entries.drain(..excess);
        }
        // The maps only serve entries that still exist; keep them small.
        if self.tab_ids.len() > 10_000 {
            self.tab_ids.clear();
            self.group_ids.clear();
        }
    }

    /// Takes out the newest entry, or the one with `id`.
    pub fn take(&mut self, id: Option<&str>) -> ToolResult<UndoEntry> {
        let at = match id {
            None => self.entries.len().checked_sub(1),
            Some(id) => self.entries.iter().position(|e| e.id == id),
        };
        match (at, id) {
            (Some(i), _) => Ok(self.entries.remove(i)),
            (None, None) => Err(ToolError::not_found("There is nothing to undo.")),
            (None, Some(id)) => Err(ToolError::not_found(format!(
                "Nothing to undo has id '{}' (it was undone already, or is too old).",
                crate::text::clip(id, 60)
            ))),
        }
    }

    fn tab(&self, id: i64) -> i64 {
        follow(&self.tab_ids, id)
    }
    fn group(&self, id: i64) -> i64 {
        follow(&self.group_ids, id)
    }

    /// Reverts one entry's steps, newest first. If a step fails, the steps
    /// not yet reverted (that one included) go back in the journal under
    /// the same id, so nothing is lost and undo can be tried again.
    pub async fn revert<B: Browser>(&mut self, b: &B, entry: &UndoEntry) -> ToolResult<UndoReport> {
        let mut report = UndoReport::default();
        for (reverted, step) in entry.steps.iter().rev().enumerate() {
            if let Err(e) = self.revert_step(b, step, &mut report).await {
                let left = entry.steps.len() - reverted;
                self.entries.push(UndoEntry {
                    steps: entry.steps[..left].to_vec(),
                    ..entry.clone()
                });
                return Err(e);
            }
        }
        Ok(report)
    }

    async fn revert_step<B: Browser>(
        &mut self,
        b: &B,
        step: &UndoStep,
        report: &mut UndoReport,
    ) -> ToolResult<()> {
        match step {
            UndoStep::Reopen { tabs } => self.reopen(b, tabs, report).await,
            UndoStep::Close { tab_ids } => {
                let open = live_ids(b, tab_ids.iter().map(|&id| self.tab(id))).await?;
                report.missing += tab_ids.len() - open.len();
                if !open.is_empty() {
                    let all = b.tabs().await?;
                    // Undoing an open must not empty a window either.
                    for t in all.iter().filter(|t| open.contains(&t.id)) {
                        let left = all
                            .iter()
                            .filter(|o| o.window_id == t.window_id && !open.contains(&o.id))
                            .count();
                        if left == 0 {
                            return Err(ToolError::refused(
                                "Undoing this would close every tab of a window.",
                            ));
                        }
                    }
                    b.close_tabs(&open).await?;
                    report.restored += open.len();
                }
                Ok(())
            }
            UndoStep::Restore { placements } => {
                let placements: Vec<Placement> = placements
                    .iter()
                    .map(|p| Placement {
                        tab_id: self.tab(p.tab_id),
                        ..p.clone()
                    })
                    .collect();
                self.restore(b, &placements, report).await
            }
            UndoStep::RestoreGroup { group } => {
                let id = self.group(group.id);
                if b.groups().await?.iter().any(|g| g.id == id) {
                    b.update_group(id, &look_of(group)).await?;
                    report.restored += 1;
                } else {
                    report.missing += 1;
                }
                Ok(())
            }
            UndoStep::Activate { tab_id, window_id } => {
                let id = self.tab(*tab_id);
                let tabs = b.tabs().await?;
                match tabs.iter().find(|t| t.id == id) {
                    Some(t) => {
                        b.activate_tab(id).await?;
                        let window = if t.window_id == *window_id {
                            *window_id
                        } else {
                            t.window_id
                        };
                        b.focus_window(window).await?;
                        report.restored += 1;
                    }
                    None => report.missing += 1,
                }
                Ok(())
            }
            UndoStep::Reload { tab_ids } => {
                for id in live_ids(b, tab_ids.iter().map(|&id| self.tab(id))).await? {
                    b.reload_tab(id, false).await?;
                    report.restored += 1;
                }
                Ok(())
            }
            UndoStep::RemoveBookmarks { ids } => {
                for id in ids {
                    b.remove_bookmark(id).await?;
                }
                report.restored += 1;
                Ok(())
            }
            UndoStep::Zoom { tab_id, zoom } => {
                let id = self.tab(*tab_id);
                if live_ids(b, [id]).await?.is_empty() {
                    report.missing += 1;
                } else {
                    b.set_zoom(id, *zoom).await?;
                    report.restored += 1;
                }
                Ok(())
            }
        }
    }

    /// Reopens closed tabs at their index, window, pinned state and group.
    async fn reopen<B: Browser>(
        &mut self,
        b: &B,
        closed: &[ClosedTab],
        report: &mut UndoReport,
    ) -> ToolResult<()> {
        let windows = b.windows().await?;
        let fallback = windows
            .iter()
            .find(|w| w.focused)
            .or(windows.first())
            .map(|w| w.id)
            .ok_or_else(|| ToolError::failed("Firefox has no open window."))?;
        let mut order: Vec<&ClosedTab> = closed.iter().collect();
        // Reopening in increasing index puts each tab back exactly where it was.
        order.sort_by_key(|c| (c.placement.window_id, c.placement.index));
        let mut placements = Vec::with_capacity(order.len());
        let mut activate = None;
        for c in order {
            let window = if windows.iter().any(|w| w.id == c.placement.window_id) {
                c.placement.window_id
            } else {
                fallback
            };
            let tab = b
                .create_tab(&NewTab {
                    url: reopenable(&c.url),
                    window_id: Some(window),
                    index: Some(c.placement.index),
                    active: false,
                    pinned: c.placement.pinned,
                    muted: c.placement.muted,
                })
                .await?;
            self.tab_ids.insert(c.placement.tab_id, tab.id);
            if c.active {
                activate = Some(tab.id);
            }
            placements.push(Placement {
                tab_id: tab.id,
                window_id: window,
                ..c.placement.clone()
            });
            report.reopened += 1;
        }
        let mut ignored = UndoReport::default();
        self.restore(b, &placements, &mut ignored).await?;
        if let Some(id) = activate {
            b.activate_tab(id).await?;
        }
        Ok(())
    }

    /// Puts tabs back in their window, position, pinned and muted state and group.
    async fn restore<B: Browser>(
        &mut self,
        b: &B,
        placements: &[Placement],
        report: &mut UndoReport,
    ) -> ToolResult<()> {
        let tabs = b.tabs().await?;
        let present: Vec<&Placement> = placements
            .iter()
            .filter(|p| tabs.iter().any(|t| t.id == p.tab_id))
            .collect();
        report.missing += placements.len() - present.len();
        report.restored += present.len();
        for p in &present {
            if let Some(t) = tabs.iter().find(|t| t.id == p.tab_id) {
                if t.pinned != p.pinned {
                    b.set_pinned(t.id, p.pinned).await?;
                }
                if t.muted != p.muted {
                    b.set_muted(t.id, p.muted).await?;
                }
            }
        }
        // Grouping can move tabs and moving can ungroup them, so settle
        // positions and groups in turn until both hold.
        for _ in 0..3 {
            let moved = self.restore_positions(b, &present).await?;
            let regrouped = self.restore_groups(b, &present).await?;
            if !moved && !regrouped {
                break;
            }
        }
        Ok(())
    }

    /// Moves tabs back to their window and index; true if anything moved.
    async fn restore_positions<B: Browser>(
        &self,
        b: &B,
        present: &[&Placement],
    ) -> ToolResult<bool> {
        let windows = b.windows().await?;
        let mut order: Vec<&&Placement> = present.iter().collect();
        order.sort_by_key(|p| (p.window_id, p.index));
        let mut any = false;
        for _ in 0..3 {
            let mut moved = false;
            for p in &order {
                let tabs = b.tabs().await?;
                let Some(t) = tabs.iter().find(|t| t.id == p.tab_id) else {
                    continue;
                };
                let window = if windows.iter().any(|w| w.id == p.window_id) {
                    p.window_id
                } else {
                    t.window_id
                };
                if t.window_id != window || t.index != p.index {
                    let to_window = (t.window_id != window).then_some(window);
                    b.move_tab(t.id, to_window, p.index).await?;
                    moved = true;
                }
            }
            any |= moved;
            if !moved {
                break;
            }
        }
        Ok(any)
    }

    /// Puts tabs back in their groups (recreating vanished ones); true if anything changed.
    async fn restore_groups<B: Browser>(
        &mut self,
        b: &B,
        present: &[&Placement],
    ) -> ToolResult<bool> {
        let tabs = b.tabs().await?;
        let current = |id: i64| tabs.iter().find(|t| t.id == id).map(|t| t.group_id);
        let mut ungroup = Vec::new();
        // Wanted group (its id when recorded) → tabs, in position order.
        let mut wanted: BTreeMap<i64, (Group, Vec<i64>)> = BTreeMap::new();
        for p in present {
            let Some(now) = current(p.tab_id) else {
                continue;
            };
            match &p.group {
                None if now != NO_GROUP => ungroup.push(p.tab_id),
                None => {}
                Some(g) if now != self.group(g.id) || now == NO_GROUP => wanted
                    .entry(g.id)
                    .or_insert_with(|| (g.clone(), Vec::new()))
                    .1
                    .push(p.tab_id),
                Some(_) => {}
            }
        }
        let changed = !ungroup.is_empty() || !wanted.is_empty();
        if !ungroup.is_empty() {
            b.ungroup_tabs(&ungroup).await?;
        }
        let groups = b.groups().await?;
        for (old_id, (look, ids)) in wanted {
            let id = self.group(old_id);
            if groups.iter().any(|g| g.id == id) {
                b.group_tabs(&ids, Some(id)).await?;
            } else {
                let new_id = b.group_tabs(&ids, None).await?;
                b.update_group(new_id, &look_of(&look)).await?;
                if new_id != old_id {
                    self.group_ids.insert(old_id, new_id);
                }
            }
        }
        Ok(changed)
    }
}

/// Follows a chain of replacements (a tab reopened, closed, reopened …).
fn follow(map: &BTreeMap<i64, i64>, mut id: i64) -> i64 {
    for _ in 0..64 {
        match map.get(&id) {
            Some(&next) if next != id => id = next,
            _ => break,
        }
    }
    id
}

fn look_of(g: &Group) -> GroupChange {
    GroupChange {
        title: Some(g.title.clone()),
        color: Some(g.color),
        collapsed: Some(g.collapsed),
    }
}

/// Firefox lets an extension open only some URLs; a closed new-tab page
/// comes back as a new tab.
fn reopenable(url: &str) -> Option<String> {
    let allowed = url.starts_with("http://")
        || url.starts_with("https://")
        || url.starts_with("moz-extension://")
        || url == "about:blank";
    allowed.then(|| url.to_string())
}

async fn live_ids<B: Browser>(b: &B, ids: impl IntoIterator<Item = i64>) -> ToolResult<Vec<i64>> {
    let tabs = b.tabs().await?;
    Ok(ids
        .into_iter()
        .filter(|id| tabs.iter().any(|t| t.id == *id))
        .collect())
}
