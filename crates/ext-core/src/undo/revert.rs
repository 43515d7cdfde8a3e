//! Undoing an entry: each step reverted against the browser as it is now,
//! closed tabs reopened in batches, moved tabs put back in one planned
//! pass, groups given back their look.

use super::arrange::{plan_moves, Spot};
use super::{ClosedTab, Placement, UndoEntry, UndoJournal, UndoReport, UndoStep};
use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::tab_state::{Group, GroupChange, NewTab, PageScript, Tab};
use crate::text::{in_reader_view, reader_source};
use futures::future::join_all;
use std::collections::BTreeMap;

impl UndoJournal {
    /// Reverts one entry's steps, newest first. If a step fails, the steps
    /// not yet reverted (that one included) go back in the journal under
    /// the same id, so nothing is lost and undo can be tried again.
    pub async fn revert<B: Browser>(&mut self, b: &B, entry: &UndoEntry) -> ToolResult<UndoReport> {
        let mut report = UndoReport::default();
        let groups_before = b.groups().await.unwrap_or_default();
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
        // Moving tabs back can make Firefox expand a collapsed group the
        // entry never touched (seen in Firefox): such a group gets the
        // look it had before the undo.
        let named: Vec<i64> = entry
            .steps
            .iter()
            .flat_map(|step| match step {
                UndoStep::RestoreGroup { group } => vec![self.group(group.id)],
                UndoStep::Restore { placements, .. } | UndoStep::Unmove { placements, .. } => {
                    placements
                        .iter()
                        .filter_map(|p| p.group.as_ref().map(|g| self.group(g.id)))
                        .collect()
                }
                UndoStep::Reopen { tabs } => tabs
                    .iter()
                    .filter_map(|c| c.placement.group.as_ref().map(|g| self.group(g.id)))
                    .collect(),
                _ => Vec::new(),
            })
            .collect();
        let groups_after = b.groups().await.unwrap_or_default();
        for g in groups_before.iter().filter(|g| !named.contains(&g.id)) {
            if groups_after.iter().any(|a| a.id == g.id && a != g) {
                b.update_group(g.id, &GroupChange::look_of(g)).await?;
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
            UndoStep::CloseWindow { tab_id } => {
                let id = self.tab(*tab_id);
                let tabs = b.tabs().await?;
                let Some(tab) = tabs.iter().find(|t| t.id == id) else {
                    report.missing += 1;
                    return Ok(());
                };
                // Closing a window's last tab leaves the window open when
                // browser.tabs.closeWindowWithLastTab is off: close the window,
                // unless it is the last one (that would end the session).
                if tabs.iter().filter(|t| t.window_id == tab.window_id).count() == 1 {
                    if b.windows().await?.len() <= 1 {
                        return Err(ToolError::refused(
                            "Undoing this would close your last window.",
                        ));
                    }
                    b.close_window(tab.window_id).await?;
                } else {
                    b.close_tabs(&[id]).await?;
                }
                report.restored += 1;
                Ok(())
            }
            UndoStep::Restore {
                placements,
                closed_windows,
            } => {
                let placements = self.placements_now(placements);
                self.reopen_windows(b, &placements, closed_windows).await?;
                self.restore(b, &placements, &[], report).await
            }
            UndoStep::Unmove {
                window_id,
                placements,
            } => {
                let placements = self.placements_now(placements);
                let made = self.window(*window_id);
                self.restore(b, &placements, &[made], report).await
            }
            UndoStep::RestoreGroup { group } => {
                let id = self.group(group.id);
                if b.groups().await?.iter().any(|g| g.id == id) {
                    b.update_group(id, &GroupChange::look_of(group)).await?;
                    report.restored += 1;
                } else {
                    report.missing += 1;
                }
                Ok(())
            }
            UndoStep::Activate { tab_id, .. } => {
                let id = self.tab(*tab_id);
                // The tab's window now: it may have been moved since.
                match tab_now(b, id).await? {
                    Some(t) => {
                        b.activate_tab(id).await?;
                        b.focus_window(t.window_id).await?;
                        report.restored += 1;
                    }
                    None => report.missing += 1,
                }
                Ok(())
            }
            UndoStep::Select { tab_id } => {
                let id = self.tab(*tab_id);
                match tab_now(b, id).await? {
                    Some(t) if !t.active => b.activate_tab(id).await?,
                    Some(_) => {}
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
            UndoStep::ReaderView { tab_id, on, url } => {
                let id = self.tab(*tab_id);
                match tab_now(b, id).await? {
                    None => report.missing += 1,
                    // Left or entered by hand since: already as it was.
                    Some(t) if in_reader_view(&t.url) == *on => report.restored += 1,
                    Some(t) => {
                        let page = reader_source(&t.url).unwrap_or_else(|| t.url.clone());
                        // Gone on to another page, or Firefox will not
                        // toggle it: nothing to put back, and the rest of
                        // the undo still runs.
                        if page != *url || b.toggle_reader_view(id).await.is_err() {
                            report.missing += 1;
                        } else {
                            report.restored += 1;
                        }
                    }
                }
                Ok(())
            }
            UndoStep::Media { tab_id, play } => {
                let id = self.tab(*tab_id);
                let script = if *play {
                    PageScript::PlayMedia { resume_only: true }
                } else {
                    PageScript::PauseMedia
                };
                // Gone, gone on to another page, or already as it was:
                // nothing to put back, and the rest of the undo still runs.
                match b.run_page_script(id, script).await {
                    Ok(n) if n > 0.0 => report.restored += 1,
                    _ => report.missing += 1,
                }
                Ok(())
            }
        }
    }

    /// Reopens closed tabs at their index, window, pinned and muted state
    /// and group, and selects again each window's tab that was active.
    /// Tabs come back in parallel batches; background tabs come back
    /// unloaded (Firefox's lazy tabs, titled), so only the active ones load.
    /// Tabs of a window that is gone come back together in one new window.
    async fn reopen<B: Browser>(
        &mut self,
        b: &B,
        closed: &[ClosedTab],
        report: &mut UndoReport,
    ) -> ToolResult<()> {
        let windows = b.windows().await?;
        let open = |w: i64| windows.iter().any(|x| x.id == w);
        let (reopening, refused): (Vec<&ClosedTab>, Vec<&ClosedTab>) = closed
            .iter()
            .partition(|c| reopen_address(&c.url).is_some());
        report.not_reopened.extend(refused.iter().map(|c| {
            format!(
                "{} ({})",
                crate::text::clip(&c.title, 60),
                crate::text::clip(&c.url, 100)
            )
        }));
        let mut order: Vec<ClosedTab> = reopening
            .into_iter()
            .map(|c| {
                let mut c = c.clone();
                c.placement.window_id = self.window(c.placement.window_id);
                c
            })
            .collect();
        // Reopening in increasing index puts each tab back where it was.
        order.sort_by_key(|c| (c.placement.window_id, c.placement.index));
        let (mut stay, mut homeless): (Vec<ClosedTab>, Vec<ClosedTab>) =
            order.into_iter().partition(|c| open(c.placement.window_id));
        let mut made: Vec<(ClosedTab, Tab)> = Vec::with_capacity(closed.len());
        if !homeless.is_empty() {
            // Pinned tabs first, then the rest, each in their old order.
            homeless.sort_by_key(|c| !c.placement.pinned);
            let first = homeless.remove(0);
            let tab = b
                .create_window(&NewTab {
                    url: reopenable(&first.url),
                    pinned: first.placement.pinned,
                    muted: first.placement.muted,
                    ..NewTab::default()
                })
                .await?;
            for c in homeless.iter().chain([&first]) {
                self.window_ids.insert(c.placement.window_id, tab.window_id);
            }
            for (i, c) in homeless.iter_mut().enumerate() {
                c.placement.window_id = tab.window_id;
                c.placement.index = i as i64 + 1;
            }
            let mut first = first;
            first.placement.window_id = tab.window_id;
            first.placement.index = 0;
            made.push((first, tab));
            stay.extend(homeless);
        }
        let mut failure = None;
        for batch in stay.chunks(REOPEN_BATCH) {
            let specs: Vec<NewTab> = batch.iter().map(reopen_spec).collect();
            let created = join_all(specs.iter().map(|spec| b.create_tab(spec))).await;
            for (c, tab) in batch.iter().zip(created) {
                match tab {
                    Ok(tab) => made.push((c.clone(), tab)),
                    Err(e) => failure = failure.or(Some(e)),
                }
            }
        }
        let mut placements = Vec::with_capacity(made.len());
        for (c, tab) in &made {
            self.tab_ids.insert(c.placement.tab_id, tab.id);
            placements.push(Placement {
                tab_id: tab.id,
                ..c.placement.clone()
            });
            report.reopened += 1;
        }
        if let Some(e) = failure {
            return Err(e.into());
        }
        // Putting them in place also selects again each window's tab that was active.
        let mut ignored = UndoReport::default();
        self.restore(b, &placements, &[], &mut ignored).await
    }

    /// Opens again each window in `closed` (closed by a change that moved
    /// every tab out of it) with the first of its tabs still open;
    /// `restore` then brings the others. The window in front stays so.
    async fn reopen_windows<B: Browser>(
        &mut self,
        b: &B,
        placements: &[Placement],
        closed: &[i64],
    ) -> ToolResult<()> {
        if closed.is_empty() {
            return Ok(());
        }
        let focused = b.windows().await?.into_iter().find(|w| w.focused);
        let mut opened = false;
        for &old in closed {
            let (windows, tabs) = (b.windows().await?, b.tabs().await?);
            if windows.iter().any(|w| w.id == self.window(old)) {
                continue;
            }
            let first = placements
                .iter()
                .filter(|p| p.window_id == old)
                .filter_map(|p| Some((p, tabs.iter().find(|t| t.id == p.tab_id)?)))
                .min_by_key(|(p, _)| p.index);
            let Some((first, now)) = first else {
                continue;
            };
            // A window holding only the closed window's tabs (its own
            // closed since) stands in for it; one is never emptied.
            let only_theirs = tabs
                .iter()
                .filter(|t| t.window_id == now.window_id)
                .all(|t| {
                    placements
                        .iter()
                        .any(|p| p.window_id == old && p.tab_id == t.id)
                });
            if only_theirs {
                self.window_ids.insert(old, now.window_id);
                continue;
            }
            let made = b.move_to_new_window(first.tab_id).await?;
            self.window_ids.insert(old, made);
            opened = true;
        }
        if let Some(w) = focused.filter(|_| opened) {
            b.focus_window(w.id).await?;
        }
        Ok(())
    }

    /// The placements with each tab's id as it is now (reopened tabs have new ones).
    fn placements_now(&self, placements: &[Placement]) -> Vec<Placement> {
        placements
            .iter()
            .map(|p| Placement {
                tab_id: self.tab(p.tab_id),
                ..p.clone()
            })
            .collect()
    }

    /// Puts tabs back in their window, position, pinned and muted state and
    /// group. Only the windows in `may_empty` may be left with no tab.
    async fn restore<B: Browser>(
        &mut self,
        b: &B,
        placements: &[Placement],
        may_empty: &[i64],
        report: &mut UndoReport,
    ) -> ToolResult<()> {
        let tabs = b.tabs().await?;
        let present: Vec<Placement> = placements
            .iter()
            .filter(|p| tabs.iter().any(|t| t.id == p.tab_id))
            .map(|p| Placement {
                window_id: self.window(p.window_id),
                ..p.clone()
            })
            .collect();
        report.missing += placements.len() - present.len();
        report.restored += present.len();
        // Pinned tabs sit first in their window, so settle pinning before positions.
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
        let spots: Vec<Spot> = present
            .iter()
            .map(|p| Spot {
                tab_id: p.tab_id,
                window_id: p.window_id,
                index: p.index,
            })
            .collect();
        // Grouping can move tabs and moving can ungroup them, so settle
        // positions and groups in turn until both hold (each round plans
        // from one snapshot).
        for _ in 0..4 {
            let moves = plan_moves(&b.tabs().await?, &spots, may_empty);
            for m in &moves {
                b.move_tab(m.tab_id, m.window_id, m.index).await?;
            }
            let regrouped = self.restore_groups(b, &present).await?;
            if moves.is_empty() && !regrouped {
                break;
            }
        }
        let tabs = b.tabs().await?;
        for p in present.iter().filter(|p| p.active) {
            if tabs.iter().any(|t| t.id == p.tab_id && !t.active) {
                b.activate_tab(p.tab_id).await?;
            }
        }
        Ok(())
    }

    /// Puts tabs back in their groups (recreating vanished ones in the
    /// tabs' own window); true if anything changed.
    async fn restore_groups<B: Browser>(
        &mut self,
        b: &B,
        present: &[Placement],
    ) -> ToolResult<bool> {
        let tabs = b.tabs().await?;
        let current = |id: i64| tabs.iter().find(|t| t.id == id);
        let mut ungroup = Vec::new();
        // Each recorded group → its window and all its tabs in position
        // order, and whether any of them is out of it. All are grouped
        // again together, so that they keep their order within the group
        // (a tab added alone would go to the group's end).
        let mut wanted: BTreeMap<i64, (Group, i64, Vec<i64>, bool)> = BTreeMap::new();
        let mut sorted: Vec<&Placement> = present.iter().collect();
        sorted.sort_by_key(|p| (p.window_id, p.index));
        for p in sorted {
            let Some(now) = current(p.tab_id) else {
                continue;
            };
            match &p.group {
                None if now.is_grouped() => ungroup.push(p.tab_id),
                None => {}
                Some(g) => {
                    let entry = wanted
                        .entry(g.id)
                        .or_insert_with(|| (g.clone(), now.window_id, Vec::new(), false));
                    entry.2.push(p.tab_id);
                    entry.3 |= !now.is_grouped() || now.group_id != self.group(g.id);
                }
            }
        }
        let changed = !ungroup.is_empty() || wanted.values().any(|w| w.3);
        if !ungroup.is_empty() {
            b.ungroup_tabs(&ungroup).await?;
        }
        let groups = b.groups().await?;
        for (old_id, (look, window, ids, astray)) in wanted {
            let id = self.group(old_id);
            let id = match groups.iter().find(|g| g.id == id) {
                Some(_) if !astray => id,
                Some(_) => b.group_tabs(&ids, Some(id), None).await?,
                None => {
                    let new_id = b.group_tabs(&ids, None, Some(window)).await?;
                    if new_id != old_id {
                        self.group_ids.insert(old_id, new_id);
                    }
                    new_id
                }
            };
            // Its look too: a tab opened inside a collapsed group expands
            // it, and so may tabs joining it from another window (seen in
            // Firefox), after the snapshot above: set it after any change.
            let now = groups.iter().find(|g| g.id == id);
            if astray
                || now.is_none_or(|g| {
                    (&g.title, g.color, g.collapsed) != (&look.title, look.color, look.collapsed)
                })
            {
                b.update_group(id, &GroupChange::look_of(&look)).await?;
            }
        }
        Ok(changed)
    }
}

/// Tabs reopened at once: enough to keep Firefox busy, few enough that a
/// failure leaves little half done.
const REOPEN_BATCH: usize = 50;

/// How a closed tab is opened again: unloaded (with its title) unless it
/// was active or pinned or is not a web page, which Firefox cannot open
/// unloaded.
fn reopen_spec(c: &ClosedTab) -> NewTab {
    let url = reopenable(&c.url);
    let lazy = !c.placement.active
        && !c.placement.pinned
        && url
            .as_deref()
            .is_some_and(|u| u.starts_with("http://") || u.starts_with("https://"));
    NewTab {
        url,
        window_id: Some(c.placement.window_id),
        index: Some(c.placement.index),
        active: false,
        pinned: c.placement.pinned,
        muted: c.placement.muted,
        discarded: lazy,
        title: (lazy && !c.title.trim().is_empty()).then(|| c.title.clone()),
        // A gone private window comes back private: the scope decides.
        incognito: false,
    }
}

/// The address a closed tab reopens at: `Some(None)` for a new-tab page
/// (it comes back as a new tab), `None` for what Firefox does not let an
/// add-on open.
fn reopen_address(url: &str) -> Option<Option<String>> {
    let web = url.starts_with("http://")
        || url.starts_with("https://")
        || url.starts_with("moz-extension://")
        || url == "about:blank";
    let new_tab =
        url.is_empty() || ["about:newtab", "about:home", "about:privatebrowsing"].contains(&url);
    match (web, new_tab) {
        (true, _) => Some(Some(url.to_string())),
        (false, true) => Some(None),
        (false, false) => None,
    }
}

fn reopenable(url: &str) -> Option<String> {
    reopen_address(url).flatten()
}

/// The tab `id` as it is now, if it is still open.
async fn tab_now<B: Browser>(b: &B, id: i64) -> ToolResult<Option<Tab>> {
    Ok(b.tabs().await?.into_iter().find(|t| t.id == id))
}

async fn live_ids<B: Browser>(b: &B, ids: impl IntoIterator<Item = i64>) -> ToolResult<Vec<i64>> {
    let tabs = b.tabs().await?;
    Ok(ids
        .into_iter()
        .filter(|id| tabs.iter().any(|t| t.id == *id))
        .collect())
}
