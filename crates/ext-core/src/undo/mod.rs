//! The undo journal: for every changing call, the steps that revert it.
//!
//! Firefox's sessions API remembers only 25 closed tabs and knows nothing of
//! moves or groups, so the journal keeps its own record. Reopened tabs and
//! recreated groups get new ids; the journal maps old ids to new ones so
//! that older entries still find their tabs.

mod arrange;
mod revert;

use crate::error::{ToolError, ToolResult};
use crate::tab_state::{Group, Tab};
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
    /// Whether it was its window's selected tab (moving a selected tab
    /// away selects another; undo selects it again).
    #[serde(default)]
    pub active: bool,
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
            active: tab.active,
        }
    }
}

/// A closed tab: enough to reopen it where it was.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ClosedTab {
    pub url: String,
    pub title: String,
    #[serde(flatten)]
    pub placement: Placement,
}

impl ClosedTab {
    pub fn of(tab: &Tab, group: Option<&Group>) -> Self {
        ClosedTab {
            url: tab.url.clone(),
            title: tab.title.clone(),
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
    /// Close the tab a new window opened with: the window goes with it,
    /// unless tabs were put in that window since (then only the tab).
    CloseWindow {
        tab_id: i64,
    },
    /// Put tabs back: window, position, pinned, muted, group. The windows
    /// in `closed_windows` were closed by the change moving every tab out
    /// of them; they open again for their tabs.
    Restore {
        placements: Vec<Placement>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        closed_windows: Vec<i64>,
    },
    /// Put back tabs moved into `window_id`, a window the change opened:
    /// unlike `Restore`, this may empty that window (Firefox then closes it).
    Unmove {
        window_id: i64,
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
    /// Select a tab in its window again (without focusing the window).
    Select {
        tab_id: i64,
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
    /// Puts the tab back in (or out of) reader view, if it still shows
    /// `url` (the page, not its reader view).
    ReaderView {
        tab_id: i64,
        on: bool,
        #[serde(default)]
        url: String,
    },
    /// Plays again what a pause paused (`play`), or pauses what a play
    /// started.
    Media {
        tab_id: i64,
        play: bool,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct UndoEntry {
    pub id: String,
    pub time: f64,
    /// What was done, for the reply ("close_tabs", or the command text).
    pub label: String,
    /// Made by a command in a private window: kept in memory only, and
    /// undone only from a private window.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
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
    /// A window that was gone → the window its tabs came back in.
    #[serde(default)]
    pub window_ids: BTreeMap<i64, i64>,
}

/// What an undo did.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct UndoReport {
    pub reopened: usize,
    pub restored: usize,
    /// Tabs that no longer exist and so could not be put back.
    pub missing: usize,
    /// Closed tabs Firefox does not let an add-on open (file:, view-source:,
    /// reader view, settings pages), as "title (address)": named rather
    /// than brought back blank.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub not_reopened: Vec<String>,
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
            self.window_ids.clear();
        }
    }

    /// Adds `steps` to the entry `id`, undone after them (whether it
    /// was still there).
    pub fn extend(&mut self, id: &str, steps: &[UndoStep]) -> bool {
        match self.entries.iter_mut().find(|e| e.id == id) {
            Some(entry) => {
                entry.steps.extend_from_slice(steps);
                true
            }
            None => false,
        }
    }

    /// Takes out the newest entry, or the one with `id`.
    pub fn take(&mut self, id: Option<&str>) -> ToolResult<UndoEntry> {
        self.take_in(id, false)
    }

    /// Takes out the newest entry made in a private window (`private`) or
    /// in a normal one, or the one with `id` if it was made in such.
    pub fn take_in(&mut self, id: Option<&str>, private: bool) -> ToolResult<UndoEntry> {
        let mine = |e: &&UndoEntry| e.private == private;
        let at = match id {
            None => self.entries.iter().rposition(|e| mine(&e)),
            Some(id) => self.entries.iter().position(|e| e.id == id && mine(&e)),
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

    /// The id of an entry that undoes only the newest close made in a
    /// private window (`private`) or a normal one: that entry's steps that
    /// reopen tabs, with the selection and group looks recorded with them,
    /// move to an entry of their own right after it, so that "reopen the
    /// tab I just closed" leaves what the same command did besides ("…
    /// and mute the rest").
    /// "what was the last tab I closed": the tabs of the newest change
    /// that closed any (what "reopen" brings back), and when it was.
    pub fn newest_closed(&self, private: bool) -> Option<(f64, Vec<&ClosedTab>)> {
        let entry = self.entries.iter().rev().find(|e| {
            e.private == private && e.steps.iter().any(|s| matches!(s, UndoStep::Reopen { .. }))
        })?;
        let tabs = entry
            .steps
            .iter()
            .flat_map(|s| match s {
                UndoStep::Reopen { tabs } => tabs.iter().collect(),
                _ => Vec::new(),
            })
            .collect();
        Some((entry.time, tabs))
    }

    pub fn split_newest_close(&mut self, private: bool) -> Option<String> {
        let at = self.entries.iter().rposition(|e| {
            e.private == private && e.steps.iter().any(|s| matches!(s, UndoStep::Reopen { .. }))
        })?;
        let entry = &mut self.entries[at];
        let (close, rest): (Vec<UndoStep>, Vec<UndoStep>) =
            entry.steps.iter().cloned().partition(|s| {
                matches!(
                    s,
                    UndoStep::Reopen { .. }
                        | UndoStep::Select { .. }
                        | UndoStep::Activate { .. }
                        | UndoStep::RestoreGroup { .. }
                )
            });
        if rest.is_empty() {
            return Some(entry.id.clone());
        }
        entry.steps = rest;
        let closed = UndoEntry {
            id: format!("{}-closed", entry.id),
            steps: close,
            ..entry.clone()
        };
        let id = closed.id.clone();
        self.entries.insert(at + 1, closed);
        Some(id)
    }

    /// The journal as it is stored: without what private windows did.
    pub fn for_storage(&self) -> UndoJournal {
        UndoJournal {
            entries: self
                .entries
                .iter()
                .filter(|e| !e.private)
                .cloned()
                .collect(),
            ..self.clone()
        }
    }

    fn tab(&self, id: i64) -> i64 {
        follow(&self.tab_ids, id)
    }
    fn group(&self, id: i64) -> i64 {
        follow(&self.group_ids, id)
    }
    fn window(&self, id: i64) -> i64 {
        follow(&self.window_ids, id)
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
