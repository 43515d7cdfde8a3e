//! Private windows: a command given while a private window is focused
//! sees and touches only private windows' tabs, and any other command only
//! normal ones. [`Scoped`] is the browser as one command sees it; tabs,
//! windows and groups of the other kind do not exist for it (their ids
//! answer as Firefox answers an unknown id).

use crate::browser::{Browser, BrowserError, BrowserResult};
use crate::tab_state::*;
use std::cell::RefCell;
use std::collections::HashSet;

/// Whether a command given now comes from a private window: the focused
/// window is private.
pub async fn focused_is_private<B: Browser>(b: &B) -> BrowserResult<bool> {
    Ok(b.windows().await?.iter().any(|w| w.focused && w.incognito))
}

/// Ids of the other kind, read once per command.
#[derive(Default)]
struct Hidden {
    tabs: HashSet<i64>,
    windows: HashSet<i64>,
    groups: HashSet<i64>,
}

pub struct Scoped<'a, B> {
    inner: &'a B,
    private: bool,
    hidden: RefCell<Option<std::rc::Rc<Hidden>>>,
}

impl<'a, B: Browser> Scoped<'a, B> {
    pub fn new(inner: &'a B, private: bool) -> Self {
        Scoped {
            inner,
            private,
            hidden: RefCell::default(),
        }
    }

    pub fn is_private(&self) -> bool {
        self.private
    }

    async fn hidden(&self) -> BrowserResult<std::rc::Rc<Hidden>> {
        if let Some(h) = self.hidden.borrow().as_ref() {
            return Ok(h.clone());
        }
        let windows: HashSet<i64> = self
            .inner
            .windows()
            .await?
            .into_iter()
            .filter(|w| w.incognito != self.private)
            .map(|w| w.id)
            .collect();
        let tabs = self
            .inner
            .tabs()
            .await?
            .into_iter()
            .filter(|t| t.incognito != self.private || windows.contains(&t.window_id))
            .map(|t| t.id)
            .collect();
        let groups = self
            .inner
            .groups()
            .await?
            .into_iter()
            .filter(|g| windows.contains(&g.window_id))
            .map(|g| g.id)
            .collect();
        let hidden = std::rc::Rc::new(Hidden {
            tabs,
            windows,
            groups,
        });
        self.hidden.replace(Some(hidden.clone()));
        Ok(hidden)
    }

    async fn check_tabs(&self, ids: &[i64]) -> BrowserResult<()> {
        let hidden = self.hidden().await?;
        match ids.iter().find(|id| hidden.tabs.contains(id)) {
            Some(id) => Err(BrowserError(format!("Invalid tab ID: {id}"))),
            None => Ok(()),
        }
    }

    async fn check_window(&self, id: Option<i64>) -> BrowserResult<()> {
        match id {
            Some(id) if self.hidden().await?.windows.contains(&id) => {
                Err(BrowserError(format!("Invalid window ID: {id}")))
            }
            _ => Ok(()),
        }
    }

    async fn check_group(&self, id: Option<i64>) -> BrowserResult<()> {
        match id {
            Some(id) if self.hidden().await?.groups.contains(&id) => {
                Err(BrowserError(format!("No group with id: {id}")))
            }
            _ => Ok(()),
        }
    }
}

impl<B: Browser> Browser for Scoped<'_, B> {
    fn now_ms(&self) -> f64 {
        self.inner.now_ms()
    }
    fn tz_offset_minutes(&self) -> i32 {
        self.inner.tz_offset_minutes()
    }
    async fn sleep_ms(&self, ms: u32) {
        self.inner.sleep_ms(ms).await
    }
    async fn windows(&self) -> BrowserResult<Vec<Window>> {
        let mut windows = self.inner.windows().await?;
        windows.retain(|w| w.incognito == self.private);
        Ok(windows)
    }
    async fn tabs(&self) -> BrowserResult<Vec<Tab>> {
        let mut tabs = self.inner.tabs().await?;
        tabs.retain(|t| t.incognito == self.private);
        Ok(tabs)
    }
    async fn activate_tab(&self, tab_id: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.activate_tab(tab_id).await
    }
    async fn focus_window(&self, window_id: i64) -> BrowserResult<()> {
        self.check_window(Some(window_id)).await?;
        self.inner.focus_window(window_id).await
    }
    async fn close_window(&self, window_id: i64) -> BrowserResult<()> {
        self.check_window(Some(window_id)).await?;
        self.inner.close_window(window_id).await
    }
    async fn close_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.check_tabs(tab_ids).await?;
        self.inner.close_tabs(tab_ids).await
    }
    async fn create_tab(&self, spec: &NewTab) -> BrowserResult<Tab> {
        match spec.window_id {
            Some(_) => self.check_window(spec.window_id).await?,
            // Without a window Firefox opens the tab in the focused one,
            // which may be of the other kind by now: name one of ours.
            None => {
                let ours = self.windows().await?;
                let window = ours.iter().find(|w| w.focused).or(ours.first());
                if let Some(w) = window {
                    let spec = NewTab {
                        window_id: Some(w.id),
                        ..spec.clone()
                    };
                    return self.inner.create_tab(&spec).await;
                }
                return self.create_window(spec).await;
            }
        }
        self.inner.create_tab(spec).await
    }
    async fn create_window(&self, spec: &NewTab) -> BrowserResult<Tab> {
        let spec = NewTab {
            incognito: self.private,
            ..spec.clone()
        };
        self.inner.create_window(&spec).await
    }
    async fn move_to_new_window(&self, tab_id: i64) -> BrowserResult<i64> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.move_to_new_window(tab_id).await
    }
    async fn move_tab(&self, tab_id: i64, window_id: Option<i64>, index: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.check_window(window_id).await?;
        self.inner.move_tab(tab_id, window_id, index).await
    }
    async fn set_pinned(&self, tab_id: i64, pinned: bool) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.set_pinned(tab_id, pinned).await
    }
    async fn set_muted(&self, tab_id: i64, muted: bool) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.set_muted(tab_id, muted).await
    }
    async fn reload_tab(&self, tab_id: i64, bypass_cache: bool) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.reload_tab(tab_id, bypass_cache).await
    }
    async fn discard_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.check_tabs(tab_ids).await?;
        self.inner.discard_tabs(tab_ids).await
    }
    async fn duplicate_tab(&self, tab_id: i64, index: i64) -> BrowserResult<Tab> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.duplicate_tab(tab_id, index).await
    }
    async fn group_tabs(
        &self,
        tab_ids: &[i64],
        group_id: Option<i64>,
        window_id: Option<i64>,
    ) -> BrowserResult<i64> {
        self.check_tabs(tab_ids).await?;
        self.check_group(group_id).await?;
        self.check_window(window_id).await?;
        self.inner.group_tabs(tab_ids, group_id, window_id).await
    }
    async fn ungroup_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.check_tabs(tab_ids).await?;
        self.inner.ungroup_tabs(tab_ids).await
    }
    async fn groups(&self) -> BrowserResult<Vec<Group>> {
        let ours: HashSet<i64> = self.windows().await?.iter().map(|w| w.id).collect();
        let mut groups = self.inner.groups().await?;
        groups.retain(|g| ours.contains(&g.window_id));
        Ok(groups)
    }
    async fn update_group(&self, group_id: i64, change: &GroupChange) -> BrowserResult<()> {
        self.check_group(Some(group_id)).await?;
        self.inner.update_group(group_id, change).await
    }
    async fn search_engines(&self) -> BrowserResult<Vec<SearchEngine>> {
        self.inner.search_engines().await
    }
    async fn search(&self, query: &str, engine: Option<&str>, tab_id: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.search(query, engine, tab_id).await
    }
    async fn search_bookmarks(&self, query: &str) -> BrowserResult<Vec<Bookmark>> {
        self.inner.search_bookmarks(query).await
    }
    async fn bookmarks_at(&self, url: &str) -> BrowserResult<Vec<Bookmark>> {
        self.inner.bookmarks_at(url).await
    }
    async fn recent_bookmarks(&self, count: usize) -> BrowserResult<Vec<Bookmark>> {
        self.inner.recent_bookmarks(count).await
    }
    async fn bookmarks_in_folders(&self, titles: &[String]) -> BrowserResult<Vec<Bookmark>> {
        self.inner.bookmarks_in_folders(titles).await
    }
    async fn bookmark_count(&self) -> BrowserResult<usize> {
        self.inner.bookmark_count().await
    }
    async fn find_bookmark_folder(&self, title: &str) -> BrowserResult<Option<String>> {
        self.inner.find_bookmark_folder(title).await
    }
    async fn create_bookmark_folder(&self, title: &str) -> BrowserResult<String> {
        self.inner.create_bookmark_folder(title).await
    }
    async fn create_bookmark(
        &self,
        folder_id: Option<&str>,
        title: &str,
        url: &str,
    ) -> BrowserResult<Bookmark> {
        self.inner.create_bookmark(folder_id, title, url).await
    }
    async fn remove_bookmark(&self, id: &str) -> BrowserResult<()> {
        self.inner.remove_bookmark(id).await
    }
    async fn search_history(&self, query: &HistoryQuery) -> BrowserResult<Vec<HistoryItem>> {
        self.inner.search_history(query).await
    }
    async fn go_back(&self, tab_id: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.go_back(tab_id).await
    }
    async fn go_forward(&self, tab_id: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.go_forward(tab_id).await
    }
    async fn run_page_script(&self, tab_id: i64, script: PageScript) -> BrowserResult<f64> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.run_page_script(tab_id, script).await
    }
    async fn read_page(&self, tab_id: i64) -> BrowserResult<PageText> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.read_page(tab_id).await
    }
    async fn zoom(&self, tab_id: i64) -> BrowserResult<f64> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.zoom(tab_id).await
    }
    async fn set_zoom(&self, tab_id: i64, factor: f64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.set_zoom(tab_id, factor).await
    }
    async fn toggle_reader_view(&self, tab_id: i64) -> BrowserResult<()> {
        self.check_tabs(&[tab_id]).await?;
        self.inner.toggle_reader_view(tab_id).await
    }
}
