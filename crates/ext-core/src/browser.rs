//! What the tools need from a browser. The real implementation calls the
//! WebExtension `browser.*` APIs (see `web::firefox`); native tests and
//! `twctl` use [`crate::memory::MemoryBrowser`].

use crate::tab_state::{
    Bookmark, Group, GroupChange, HistoryItem, HistoryQuery, NewTab, PageScript, PageText,
    SearchEngine, Tab, Window,
};
use std::fmt;

/// A failure reported by the browser itself (a rejected promise).
#[derive(Clone, Debug, PartialEq)]
pub struct BrowserError(pub String);

impl fmt::Display for BrowserError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

pub type BrowserResult<T> = Result<T, BrowserError>;

// The futures are not `Send`: the browser side is single-threaded wasm, and
// the tools are generic over the browser, never boxed as `dyn`.
#[allow(async_fn_in_trait)]
pub trait Browser {
    /// Milliseconds since the epoch.
    fn now_ms(&self) -> f64;

    /// Minutes to add to UTC for local time.
    fn tz_offset_minutes(&self) -> i32 {
        0
    }

    /// Resolves after `ms` milliseconds (a pause a server asked for).
    async fn sleep_ms(&self, ms: u32);

    /// Normal (not popup or devtools) windows.
    async fn windows(&self) -> BrowserResult<Vec<Window>>;
    /// Every tab of every normal window, ordered by window, then index.
    async fn tabs(&self) -> BrowserResult<Vec<Tab>>;
    async fn activate_tab(&self, tab_id: i64) -> BrowserResult<()>;
    async fn focus_window(&self, window_id: i64) -> BrowserResult<()>;
    async fn close_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()>;
    /// Closes a window with its tabs (only ever one the extension opened).
    async fn close_window(&self, window_id: i64) -> BrowserResult<()>;
    async fn create_tab(&self, spec: &NewTab) -> BrowserResult<Tab>;
    /// Opens a new normal window holding one tab made from `spec` (its
    /// `window_id` and `index` are ignored); answers that tab.
    async fn create_window(&self, spec: &NewTab) -> BrowserResult<Tab>;
    /// Moves one tab into a new normal window of its own kind (private or
    /// not), which takes the focus; answers the window's id.
    async fn move_to_new_window(&self, tab_id: i64) -> BrowserResult<i64>;
    /// Moves one tab; `index` -1 means the end of the window.
    async fn move_tab(&self, tab_id: i64, window_id: Option<i64>, index: i64) -> BrowserResult<()>;
    async fn set_pinned(&self, tab_id: i64, pinned: bool) -> BrowserResult<()>;
    async fn set_muted(&self, tab_id: i64, muted: bool) -> BrowserResult<()>;
    async fn reload_tab(&self, tab_id: i64, bypass_cache: bool) -> BrowserResult<()>;
    async fn discard_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()>;
    /// Duplicates a tab into position `index` of its window.
    async fn duplicate_tab(&self, tab_id: i64, index: i64) -> BrowserResult<Tab>;

    /// Adds the tabs to `group_id` (moving them to its window), or to a new
    /// group in `window_id`; answers the group's id. Without either, Firefox
    /// makes the group in the *focused* window and drags the tabs there, so
    /// callers that mean the tabs' own window must say so.
    async fn group_tabs(
        &self,
        tab_ids: &[i64],
        group_id: Option<i64>,
        window_id: Option<i64>,
    ) -> BrowserResult<i64>;
    async fn ungroup_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()>;
    async fn groups(&self) -> BrowserResult<Vec<Group>>;
    async fn update_group(&self, group_id: i64, change: &GroupChange) -> BrowserResult<()>;

    async fn search_engines(&self) -> BrowserResult<Vec<SearchEngine>>;
    /// Runs a search in `tab_id` with the named engine (or the default).
    async fn search(&self, query: &str, engine: Option<&str>, tab_id: i64) -> BrowserResult<()>;

    async fn search_bookmarks(&self, query: &str) -> BrowserResult<Vec<Bookmark>>;
    /// The bookmarks of exactly this address.
    async fn bookmarks_at(&self, url: &str) -> BrowserResult<Vec<Bookmark>>;
    /// The `count` bookmarks added last, newest first.
    async fn recent_bookmarks(&self, count: usize) -> BrowserResult<Vec<Bookmark>>;
    /// The bookmarks right in the folders with any of these titles
    /// (case-insensitive), not in their subfolders. Folder titles are not
    /// searched by `search_bookmarks` ("open my cooking bookmarks").
    async fn bookmarks_in_folders(&self, titles: &[String]) -> BrowserResult<Vec<Bookmark>>;
    /// How many bookmarks there are (folders and separators not counted).
    async fn bookmark_count(&self) -> BrowserResult<usize>;
    /// The id of a bookmark folder with this title (case-insensitive).
    async fn find_bookmark_folder(&self, title: &str) -> BrowserResult<Option<String>>;
    async fn create_bookmark_folder(&self, title: &str) -> BrowserResult<String>;
    async fn create_bookmark(
        &self,
        folder_id: Option<&str>,
        title: &str,
        url: &str,
    ) -> BrowserResult<Bookmark>;
    async fn remove_bookmark(&self, id: &str) -> BrowserResult<()>;

    async fn search_history(&self, query: &HistoryQuery) -> BrowserResult<Vec<HistoryItem>>;

    async fn go_back(&self, tab_id: i64) -> BrowserResult<()>;
    async fn go_forward(&self, tab_id: i64) -> BrowserResult<()>;
    /// Runs a page action and answers the page's vertical scroll offset after it.
    async fn run_page_script(&self, tab_id: i64, script: PageScript) -> BrowserResult<f64>;
    /// The text the tab's page shows (see [`PageText`]).
    async fn read_page(&self, tab_id: i64) -> BrowserResult<PageText>;
    async fn zoom(&self, tab_id: i64) -> BrowserResult<f64>;
    async fn set_zoom(&self, tab_id: i64, factor: f64) -> BrowserResult<()>;
    /// Turns reader view on or off (Firefox's `tabs.toggleReaderMode`); it
    /// fails for a page Firefox finds no article in.
    async fn toggle_reader_view(&self, tab_id: i64) -> BrowserResult<()>;
}
