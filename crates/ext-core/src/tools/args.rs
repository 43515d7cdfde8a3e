//! Each tool's arguments. The same types give the JSON schema (for a
//! language model and for callers), the validation (serde rejects missing,
//! wrong-typed and unknown fields) and the interpreter's planned calls
//! (`Call::mute_tabs(MuteTabsArgs { .. })`), so the three cannot drift
//! apart. Unset options are left out of a planned call's JSON.

use crate::tab_state::Color;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NoArgs {}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ListTabsArgs {
    /// Only the tabs of this window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
    /// Words that must all appear in the tab's title or URL (case-insensitive).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabIdArgs {
    /// The tab's id.
    pub tab_id: i64,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TabIdsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WindowArgs {
    /// Only this window (default: every window).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CloseDuplicateTabsArgs {
    /// Only this window (default: every window).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
    /// Only copies among these tabs ("close the duplicate youtube tabs");
    /// default: every tab.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_ids: Option<Vec<i64>>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GroupTabsArgs {
    /// Ids of the tabs to group.
    pub tab_ids: Vec<i64>,
    /// Add the tabs to this existing group instead of making a new one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<i64>,
    /// The group's title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// The group's color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Whether the group is shown collapsed.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<bool>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UngroupTabsArgs {
    /// Ids of the tabs to take out of their groups.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_ids: Option<Vec<i64>>,
    /// Ungroup every tab of this group.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MoveTabsArgs {
    /// Ids of the tabs to move, in the order they should end up.
    pub tab_ids: Vec<i64>,
    /// Position in the window (0 is the first; -1 the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// Move to this window.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
    /// Move them, in order, into a new window (instead of a windowId).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_window: Option<bool>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateTabArgs {
    /// Address to open ("bbc.co.uk" is read as https://bbc.co.uk/); none opens a new tab page.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Window to open it in (default: the focused window).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub window_id: Option<i64>,
    /// Position in the window (default: the end).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub index: Option<i64>,
    /// Whether to switch to it (default true).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Whether to pin it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
    /// Open it as the first tab of a new window, which comes to the front
    /// (then windowId and index are not said).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub new_window: Option<bool>,
    /// Open it in this tab group: in the group's window, after its last
    /// tab unless index says where.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub group_id: Option<i64>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReloadTabsArgs {
    /// Ids of the tabs to reload.
    pub tab_ids: Vec<i64>,
    /// Bypass the cache (a hard reload).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bypass_cache: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PinTabsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
    /// true pins (the default), false unpins.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pinned: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MuteTabsArgs {
    /// Ids of the tabs.
    pub tab_ids: Vec<i64>,
    /// true mutes (the default), false unmutes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub muted: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CollapseGroupArgs {
    /// The group's id.
    pub group_id: i64,
    /// true collapses (the default), false expands.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct UpdateGroupArgs {
    /// The group's id.
    pub group_id: i64,
    /// New title.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// New color.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// Collapse or expand it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collapsed: Option<bool>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct WebSearchArgs {
    /// What to search for.
    pub query: String,
    /// Name of an installed search engine (default: the default engine).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub engine: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchBookmarksArgs {
    /// Words to find in bookmark titles and URLs; none lists the bookmarks
    /// added last, newest first.
    #[serde(default)]
    pub query: String,
    /// At most this many results (default 20).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub max_results: Option<u32>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreateBookmarkArgs {
    /// Address to bookmark (default: the tab's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// Title (default: the tab's).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Name of the folder to put it in; created if missing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// Bookmark this tab (default: the active tab).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<i64>,
}

#[derive(Debug, Default, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SearchHistoryArgs {
    /// Words to find in titles and URLs (default: everything).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub query: Option<String>,
    /// Visited at or after this time, ms since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_time: Option<f64>,
    /// Visited at or before this time, ms since the epoch.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub end_time: Option<f64>,
    /// At most this many results (default 50).
    #[serde(skip_serializing_if = "Option::is_none")]
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
    /// Zoom to `amount` percent (30-500), as Firefox's zoom menu allows.
    ZoomTo,
    /// Show the page in Firefox's reader view (nothing if it is already).
    ReaderView,
    /// Leave reader view (nothing if the page is not in it).
    ExitReaderView,
    /// Pause the audio and video playing in the tab.
    PauseMedia,
    /// Play again what `pause_media` paused, else the tab's first paused
    /// audio or video.
    PlayMedia,
    NextTab,
    PreviousTab,
    NewTab,
    CloseTab,
    NewWindow,
}

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BrowseArgs {
    /// What to do.
    pub action: BrowseAction,
    /// Pixels to scroll, pages to page, zoom steps (defaults: 400 px, 1 page, 1 step),
    /// or the zoom in percent for zoom_to (30-500, required).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub amount: Option<f64>,
    /// The tab (default: the active tab of the focused window).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tab_id: Option<i64>,
}
