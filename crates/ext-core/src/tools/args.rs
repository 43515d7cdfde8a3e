//! Each tool's arguments. The same types give the JSON schema (for a
//! language model and for callers) and the validation (serde rejects missing,
//! wrong-typed and unknown fields), so the two cannot drift apart.

use crate::model::Color;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoArgs {}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListTabsArgs {
    /// Only the tabs of this window.
    pub window_id: Option<i64>,
    /// Words that must all appear in the tab's title or URL (case-insensitive).
    pub query: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabIdArgs {
    /// The tab's id.
    pub tab_id: i64,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabIdsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WindowArgs {
    /// Only this window (default: every window).
    pub window_id: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupTabsArgs {
    /// Ids of the tabs to group.
    pub tab_ids: Vec<i64>,
    /// Add the tabs to this existing group instead of making a new one.
    pub group_id: Option<i64>,
    /// The group's title.
    pub title: Option<String>,
    /// The group's color.
    pub color: Option<Color>,
    /// Whether the group is shown collapsed.
    pub collapsed: Option<bool>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UngroupTabsArgs {
    /// Ids of the tabs to take out of their groups.
    pub tab_ids: Option<Vec<i64>>,
    /// Ungroup every tab of this group.
    pub group_id: Option<i64>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoveTabsArgs {
    /// Ids of the tabs to move, in the order they should end up.
    pub tab_ids: Vec<i64>,
    /// Position in the window (0 is the first; -1 the end).
    pub index: Option<i64>,
    /// Move to this window.
    pub window_id: Option<i64>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateTabArgs {
    /// Address to open ("bbc.co.uk" is read as https://bbc.co.uk/); none opens a new tab page.
    pub url: Option<String>,
    /// Window to open it in (default: the focused window).
    pub window_id: Option<i64>,
    /// Position in the window (default: the end).
    pub index: Option<i64>,
    /// Whether to switch to it (default true).
    pub active: Option<bool>,
    /// Whether to pin it.
    pub pinned: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReloadTabsArgs {
    /// Ids of the tabs to reload.
    pub tab_ids: Vec<i64>,
    /// Bypass the cache (a hard reload).
    pub bypass_cache: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PinTabsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
    /// true pins (the default), false unpins.
    pub pinned: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MuteTabsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
    /// true mutes (the default), false unmutes.
    pub muted: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CollapseGroupArgs {
    /// The group's id.
    pub group_id: i64,
    /// true collapses (the default), false expands.
    pub collapsed: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateGroupArgs {
    /// The group's id.
    pub group_id: i64,
    /// New title.
    pub title: Option<String>,
    /// New color.
    pub color: Option<Color>,
    /// Collapse or expand it.
    pub collapsed: Option<bool>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebSearchArgs {
    /// What to search for.
    pub query: String,
    /// Name of an installed search engine (default: the default engine).
    pub engine: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchBookmarksArgs {
    /// Words to find in bookmark titles and URLs.
    pub query: String,
    /// At most this many results (default 20).
    pub max_results: Option<u32>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateBookmarkArgs {
    /// Address to bookmark (default: the tab's).
    pub url: Option<String>,
    /// Title (default: the tab's).
    pub title: Option<String>,
    /// Name of the folder to put it in; created if missing.
    pub folder: Option<String>,
    /// Bookmark this tab (default: the active tab).
    pub tab_id: Option<i64>,
}

#[derive(Debug, Default, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchHistoryArgs {
    /// Words to find in titles and URLs (default: everything).
    pub query: Option<String>,
    /// Visited at or after this time, ms since the epoch.
    pub start_time: Option<f64>,
    /// Visited at or before this time, ms since the epoch.
    pub end_time: Option<f64>,
    /// At most this many results (default 50).
    pub max_results: Option<u32>,
}

/// The voice-browser protocol's commands on the active tab.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BrowseAction {
    Back,
    Forward,
    Reload,
    HardReload,
    Stop,
    ScrollUp,
    ScrollDown,
    PageUp,
    PageDown,
    Top,
    Bottom,
    ZoomIn,
    ZoomOut,
    ZoomReset,
    NextTab,
    PreviousTab,
    NewTab,
    CloseTab,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrowseArgs {
    /// What to do.
    pub action: BrowseAction,
    /// Pixels to scroll, pages to page, or zoom steps (defaults: 400 px, 1 page, 1 step).
    pub amount: Option<f64>,
    /// The tab (default: the active tab of the focused window).
    pub tab_id: Option<i64>,
}
