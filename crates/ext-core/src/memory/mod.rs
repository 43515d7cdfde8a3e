//! An in-memory browser that behaves like Firefox where the tools can tell:
//! pinned tabs stay first, indices shift, closing the active tab activates
//! its neighbour, tabs of a group stay together, and a group vanishes when
//! its last tab leaves. Native tests and `twctl` run the tools against it.

use crate::browser::{Browser, BrowserError, BrowserResult};
use crate::tab_state::{
    Bookmark, Color, Group, GroupChange, HistoryItem, HistoryQuery, NewTab, PageScript, PageText,
    SearchEngine, State, Tab, Window, NO_GROUP,
};
use std::cell::{Cell, RefCell};
use std::collections::HashMap;

/// Pretend page metrics for scrolling.
const PAGE_HEIGHT: f64 = 10_000.0;
const VIEWPORT: f64 = 800.0;

#[derive(Debug, Default)]
pub struct MemoryBrowser {
    state: RefCell<State>,
    /// Bookmark folders that exist but may hold no bookmark yet.
    folders: RefCell<Vec<String>>,
    scroll: RefCell<HashMap<i64, f64>>,
    zoom: RefCell<HashMap<i64, f64>>,
    /// What each tab's page says (`set_page`; else the STATE's `pages`,
    /// else its title).
    pages: RefCell<HashMap<i64, PageText>>,
    /// Every `search` run: (tab, engine, query).
    pub searches: RefCell<Vec<(i64, String, String)>>,
    /// The last ids handed out: Firefox never gives a closed tab's or a
    /// removed group's id to a new one, and undo relies on that.
    last_tab_id: Cell<i64>,
    last_group_id: Cell<i64>,
    /// Fails the move after this many more (once), as Firefox does when
    /// a tab closes in the middle of a command.
    fail_move_after: Cell<Option<usize>>,
}

/// An id above every id in use and every id handed out before.
fn fresh_id(in_use: &mut dyn Iterator<Item = i64>, last: &Cell<i64>) -> i64 {
    let id = in_use.max().unwrap_or(0).max(last.get()) + 1;
    last.set(id);
    id
}

fn err(msg: String) -> BrowserError {
    BrowserError(msg)
}

impl MemoryBrowser {
    pub fn new(mut state: State) -> Self {
        normalize(&mut state);
        let last_tab_id = state.tabs.iter().map(|t| t.id).max().unwrap_or(0);
        let last_group_id = state.groups.iter().map(|g| g.id).max().unwrap_or(0);
        MemoryBrowser {
            state: RefCell::new(state),
            last_tab_id: Cell::new(last_tab_id),
            last_group_id: Cell::new(last_group_id),
            ..Default::default()
        }
    }

    /// The browser's state now, in the STATE schema.
    pub fn state(&self) -> State {
        self.state.borrow().clone()
    }

    /// Changes the state as the user would (focusing a window, closing
    /// one), outside any tool.
    pub fn with_state(&self, f: impl FnOnce(&mut State)) {
        let mut state = self.state.borrow_mut();
        f(&mut state);
        normalize(&mut state);
    }

    /// Makes the move after `n` more fail, once (see `fail_move_after`).
    pub fn fail_move_after(&self, n: usize) {
        self.fail_move_after.set(Some(n));
    }

    fn injected_move_failure(&self) -> BrowserResult<()> {
        match self.fail_move_after.get() {
            Some(0) => {
                self.fail_move_after.set(None);
                Err(err("Invalid tab ID (closed while moving)".to_string()))
            }
            Some(n) => {
                self.fail_move_after.set(Some(n - 1));
                Ok(())
            }
            None => Ok(()),
        }
    }

    /// What the page of `tab_id` shows (`read_page`).
    pub fn set_page(&self, tab_id: i64, page: PageText) {
        self.pages.borrow_mut().insert(tab_id, page);
    }

    pub fn set_now(&self, now: f64) {
        self.state.borrow_mut().now = now;
    }

    fn with<T>(&self, f: impl FnOnce(&mut State) -> BrowserResult<T>) -> BrowserResult<T> {
        let mut state = self.state.borrow_mut();
        let out = f(&mut state)?;
        normalize(&mut state);
        Ok(out)
    }
}

mod strip;
use strip::*;

fn words_match(words: &str, hay: &str) -> bool {
    let hay = hay.to_lowercase();
    words
        .split_whitespace()
        .all(|w| hay.contains(&w.to_lowercase()))
}

impl Browser for MemoryBrowser {
    fn now_ms(&self) -> f64 {
        self.state.borrow().now
    }

    /// Time passes at once: the clock moves on by `ms`.
    async fn sleep_ms(&self, ms: u32) {
        self.state.borrow_mut().now += f64::from(ms);
    }

    async fn windows(&self) -> BrowserResult<Vec<Window>> {
        Ok(self.state.borrow().windows.clone())
    }

    async fn tabs(&self) -> BrowserResult<Vec<Tab>> {
        Ok(self.state.borrow().tabs.clone())
    }

    async fn activate_tab(&self, tab_id: i64) -> BrowserResult<()> {
        self.with(|s| activate(s, tab_id))
    }

    async fn focus_window(&self, window_id: i64) -> BrowserResult<()> {
        self.with(|s| {
            check_window(s, window_id)?;
            for w in &mut s.windows {
                w.focused = w.id == window_id;
            }
            Ok(())
        })
    }

    async fn close_window(&self, window_id: i64) -> BrowserResult<()> {
        self.with(|s| {
            check_window(s, window_id)?;
            s.tabs.retain(|t| t.window_id != window_id);
            s.windows.retain(|w| w.id != window_id);
            close_empty_windows(s);
            Ok(())
        })
    }

    async fn close_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.with(|s| {
            for id in tab_ids {
                tab(s, *id)?;
            }
            let closing: std::collections::HashSet<i64> = tab_ids.iter().copied().collect();
            let was_active: Vec<(i64, i64)> = s
                .tabs
                .iter()
                .filter(|t| t.active && closing.contains(&t.id))
                .map(|t| (t.window_id, t.index))
                .collect();
            s.tabs.retain(|t| !closing.contains(&t.id));
            // Firefox selects the tab to the right of a closed active tab, else the left.
            for (window, index) in was_active {
                let next = s
                    .tabs
                    .iter()
                    .filter(|t| t.window_id == window)
                    .min_by_key(|t| {
                        (
                            t.index < index,
                            if t.index > index { t.index } else { -t.index },
                        )
                    })
                    .map(|t| t.id);
                if let Some(next) = next {
                    activate(s, next)?;
                }
            }
            close_empty_windows(s);
            Ok(())
        })
    }

    async fn create_tab(&self, spec: &NewTab) -> BrowserResult<Tab> {
        self.with(|s| {
            check_new_tab(spec)?;
            let window = match spec.window_id {
                Some(w) => {
                    check_window(s, w)?;
                    w
                }
                None => focused(s)?,
            };
            let id = fresh_id(&mut s.tabs.iter().map(|t| t.id), &self.last_tab_id);
            s.tabs.push(new_tab(s, id, window, spec));
            insert(s, window, id, spec.index.unwrap_or(-1));
            if !spec.pinned {
                settle_group(s, id);
                // A tab opened inside a collapsed group expands it.
                let group = tab(s, id)?.group_id;
                if let Some(g) = s.groups.iter_mut().find(|g| g.id == group) {
                    g.collapsed = false;
                }
            }
            if spec.active {
                activate(s, id)?;
            }
            Ok(tab(s, id)?.clone())
        })
    }

    async fn create_window(&self, spec: &NewTab) -> BrowserResult<Tab> {
        self.with(|s| {
            if spec.discarded {
                return Err(err("windows.create cannot open a discarded tab".into()));
            }
            let window = open_window(s, spec.incognito);
            let id = fresh_id(&mut s.tabs.iter().map(|t| t.id), &self.last_tab_id);
            s.tabs.push(Tab {
                active: true,
                index: 0,
                ..new_tab(s, id, window, spec)
            });
            Ok(tab(s, id)?.clone())
        })
    }

    async fn move_to_new_window(&self, tab_id: i64) -> BrowserResult<i64> {
        self.with(|s| {
            let incognito = tab(s, tab_id)?.incognito;
            let window = open_window(s, incognito);
            move_across(s, tab_id, window, 0)?;
            activate(s, tab_id)?;
            Ok(window)
        })
    }

    async fn move_tab(&self, tab_id: i64, window_id: Option<i64>, index: i64) -> BrowserResult<()> {
        self.injected_move_failure()?;
        self.with(|s| {
            let window = window_id.unwrap_or(tab(s, tab_id)?.window_id);
            move_across(s, tab_id, window, index)
        })
    }

    async fn set_pinned(&self, tab_id: i64, pinned: bool) -> BrowserResult<()> {
        self.with(|s| {
            let t = tab_mut(s, tab_id)?;
            if t.pinned == pinned {
                return Ok(());
            }
            t.pinned = pinned;
            t.group_id = NO_GROUP;
            let window = t.window_id;
            let ids: Vec<i64> = order(s, window)
                .into_iter()
                .filter(|x| *x != tab_id)
                .collect();
            // Pinning puts a tab at the end of the pinned tabs; unpinning
            // puts it first among the others.
            let at = pinned_count(s, &ids) as i64;
            insert(s, window, tab_id, at);
            Ok(())
        })
    }

    async fn set_muted(&self, tab_id: i64, muted: bool) -> BrowserResult<()> {
        self.with(|s| {
            tab_mut(s, tab_id)?.muted = muted;
            Ok(())
        })
    }

    async fn reload_tab(&self, tab_id: i64, _bypass_cache: bool) -> BrowserResult<()> {
        self.with(|s| {
            tab_mut(s, tab_id)?.discarded = false;
            Ok(())
        })
    }

    async fn discard_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.with(|s| {
            for id in tab_ids {
                let t = tab_mut(s, *id)?;
                if !t.active {
                    t.discarded = true;
                }
            }
            Ok(())
        })
    }

    async fn duplicate_tab(&self, tab_id: i64, index: i64) -> BrowserResult<Tab> {
        self.with(|s| {
            let orig = tab(s, tab_id)?.clone();
            let id = fresh_id(&mut s.tabs.iter().map(|t| t.id), &self.last_tab_id);
            s.tabs.push(Tab {
                id,
                index: i64::MAX,
                active: false,
                discarded: false,
                audible: false,
                last_accessed: s.now,
                highlighted: false,
                ..orig.clone()
            });
            insert(s, orig.window_id, id, index);
            activate(s, id)?;
            Ok(tab(s, id)?.clone())
        })
    }

    async fn group_tabs(
        &self,
        tab_ids: &[i64],
        group_id: Option<i64>,
        window_id: Option<i64>,
    ) -> BrowserResult<i64> {
        self.with(|s| {
            let first = tab(s, *tab_ids.first().ok_or_else(|| err("No tabs".into()))?)?.clone();
            for id in tab_ids {
                if tab(s, *id)?.pinned {
                    return Err(err(format!("Cannot group pinned tab {id}")));
                }
            }
            let (gid, window) = match group_id {
                Some(g) => {
                    let group = s
                        .groups
                        .iter()
                        .find(|x| x.id == g)
                        .ok_or_else(|| err(format!("No group with id: {g}")))?;
                    (g, group.window_id)
                }
                None => {
                    // Without a window, Firefox makes the group in the
                    // focused window and drags the tabs there.
                    let window = match window_id {
                        Some(w) => {
                            check_window(s, w)?;
                            w
                        }
                        None => focused(s)?,
                    };
                    let used: Vec<Color> = s
                        .groups
                        .iter()
                        .filter(|g| g.window_id == window)
                        .map(|g| g.color)
                        .collect();
                    let color = Color::ALL
                        .iter()
                        .find(|c| !used.contains(c))
                        .copied()
                        .unwrap_or(Color::Blue);
                    let id = fresh_id(
                        &mut s.groups.iter().map(|g| g.id).chain([100]),
                        &self.last_group_id,
                    );
                    s.groups.push(Group {
                        id,
                        window_id: window,
                        title: String::new(),
                        color,
                        collapsed: false,
                    });
                    (id, window)
                }
            };
            // Join after the group's last tab (a new group: where the first tab is).
            let before = order(s, window);
            let strip: Vec<i64> = before
                .iter()
                .copied()
                .filter(|id| !tab_ids.contains(id))
                .collect();
            let last_member = strip
                .iter()
                .rposition(|id| s.tabs.iter().any(|t| t.id == *id && t.group_id == gid));
            let anchor = match (last_member, before.iter().position(|x| *x == first.id)) {
                (Some(last), _) => last + 1,
                (None, Some(at)) => before[..at]
                    .iter()
                    .filter(|id| !tab_ids.contains(id))
                    .count(),
                (None, None) => strip.len(),
            };
            for id in tab_ids {
                remove_from_strip(s, *id);
                let t = tab_mut(s, *id)?;
                if t.window_id != window {
                    t.active = false;
                    t.window_id = window;
                }
            }
            let mut ids = strip;
            for (k, id) in tab_ids.iter().enumerate() {
                ids.insert(anchor + k, *id);
            }
            set_order(s, window, &ids);
            for id in tab_ids {
                tab_mut(s, *id)?.group_id = gid;
            }
            // A window whose tabs all left closes.
            let tabs = &s.tabs;
            s.windows
                .retain(|w| tabs.iter().any(|t| t.window_id == w.id));
            Ok(gid)
        })
    }

    async fn ungroup_tabs(&self, tab_ids: &[i64]) -> BrowserResult<()> {
        self.with(|s| {
            for id in tab_ids {
                let t = tab(s, *id)?.clone();
                if t.group_id == NO_GROUP {
                    continue;
                }
                tab_mut(s, *id)?.group_id = NO_GROUP;
                // An ungrouped tab leaves the group's span: it goes after it.
                let ids = order(s, t.window_id);
                let last_member = ids.iter().rposition(|x| {
                    s.tabs
                        .iter()
                        .any(|o| o.id == *x && o.group_id == t.group_id)
                });
                if let Some(last) = last_member {
                    if last > t.index as usize {
                        let mut ids: Vec<i64> = ids.into_iter().filter(|x| x != id).collect();
                        ids.insert(last, *id);
                        set_order(s, t.window_id, &ids);
                    }
                }
            }
            Ok(())
        })
    }

    async fn groups(&self) -> BrowserResult<Vec<Group>> {
        Ok(self.state.borrow().groups.clone())
    }

    async fn update_group(&self, group_id: i64, change: &GroupChange) -> BrowserResult<()> {
        self.with(|s| {
            let g = s
                .groups
                .iter_mut()
                .find(|g| g.id == group_id)
                .ok_or_else(|| err(format!("No group with id: {group_id}")))?;
            if let Some(t) = &change.title {
                g.title = t.clone();
            }
            if let Some(c) = change.color {
                g.color = c;
            }
            if let Some(c) = change.collapsed {
                g.collapsed = c;
            }
            Ok(())
        })
    }

    async fn search_engines(&self) -> BrowserResult<Vec<SearchEngine>> {
        Ok(self.state.borrow().search_engines.clone())
    }

    async fn search(&self, query: &str, engine: Option<&str>, tab_id: i64) -> BrowserResult<()> {
        let name = {
            let s = self.state.borrow();
            match engine {
                Some(e) => s
                    .search_engines
                    .iter()
                    .find(|x| x.name == e)
                    .map(|x| x.name.clone())
                    .ok_or_else(|| err(format!("No search engine named {e}")))?,
                None => s
                    .search_engines
                    .iter()
                    .find(|x| x.is_default)
                    .map(|x| x.name.clone())
                    .ok_or_else(|| err("No default search engine".into()))?,
            }
        };
        self.with(|s| {
            let t = tab_mut(s, tab_id)?;
            let slug: String = name
                .to_lowercase()
                .chars()
                .filter(|c| c.is_alphanumeric())
                .collect();
            t.url = format!(
                "https://{slug}.example/search?q={}",
                query.replace(' ', "+")
            );
            t.title = format!("{query} - {name}");
            Ok(())
        })?;
        self.searches
            .borrow_mut()
            .push((tab_id, name, query.to_string()));
        Ok(())
    }

    async fn search_bookmarks(&self, query: &str) -> BrowserResult<Vec<Bookmark>> {
        Ok(self
            .state
            .borrow()
            .bookmarks
            .iter()
            .filter(|b| words_match(query, &format!("{} {}", b.title, b.url)))
            .cloned()
            .collect())
    }

    async fn bookmarks_at(&self, url: &str) -> BrowserResult<Vec<Bookmark>> {
        let s = self.state.borrow();
        Ok(s.bookmarks
            .iter()
            .filter(|b| b.url == url)
            .cloned()
            .collect())
    }

    /// The snapshot's bookmarks are in the order they were added.
    async fn recent_bookmarks(&self, count: usize) -> BrowserResult<Vec<Bookmark>> {
        Ok(self
            .state
            .borrow()
            .bookmarks
            .iter()
            .rev()
            .take(count)
            .cloned()
            .collect())
    }

    async fn bookmarks_in_folders(&self, titles: &[String]) -> BrowserResult<Vec<Bookmark>> {
        Ok(self
            .state
            .borrow()
            .bookmarks
            .iter()
            .filter(|b| titles.iter().any(|t| b.folder.eq_ignore_ascii_case(t)))
            .cloned()
            .collect())
    }

    async fn bookmark_count(&self) -> BrowserResult<usize> {
        Ok(self.state.borrow().bookmarks.len())
    }

    async fn find_bookmark_folder(&self, title: &str) -> BrowserResult<Option<String>> {
        let s = self.state.borrow();
        let exists = s
            .bookmarks
            .iter()
            .any(|b| b.folder.eq_ignore_ascii_case(title))
            || self
                .folders
                .borrow()
                .iter()
                .any(|f| f.eq_ignore_ascii_case(title));
        Ok(exists.then(|| format!("folder:{}", title.to_lowercase())))
    }

    async fn create_bookmark_folder(&self, title: &str) -> BrowserResult<String> {
        self.folders.borrow_mut().push(title.to_string());
        Ok(format!("folder:{}", title.to_lowercase()))
    }

    async fn create_bookmark(
        &self,
        folder_id: Option<&str>,
        title: &str,
        url: &str,
    ) -> BrowserResult<Bookmark> {
        let folder = match folder_id {
            Some(id) => {
                let key = id.trim_start_matches("folder:");
                let s = self.state.borrow();
                s.bookmarks
                    .iter()
                    .map(|b| b.folder.clone())
                    .chain(self.folders.borrow().iter().cloned())
                    .find(|f| f.to_lowercase() == key)
                    .ok_or_else(|| err(format!("No folder {id}")))?
            }
            None => "Other Bookmarks".to_string(),
        };
        self.with(|s| {
            let n = s.bookmarks.len() + 1;
            let bookmark = Bookmark {
                id: format!("bm{n}-{}", s.now as u64),
                title: title.to_string(),
                url: url.to_string(),
                folder,
            };
            s.bookmarks.push(bookmark.clone());
            Ok(bookmark)
        })
    }

    async fn remove_bookmark(&self, id: &str) -> BrowserResult<()> {
        if let Some(key) = id.strip_prefix("folder:") {
            self.folders
                .borrow_mut()
                .retain(|f| f.to_lowercase() != key);
            return Ok(());
        }
        self.with(|s| {
            let before = s.bookmarks.len();
            s.bookmarks.retain(|b| b.id != id);
            if s.bookmarks.len() == before {
                return Err(err(format!("Bookmark not found: {id}")));
            }
            Ok(())
        })
    }

    async fn search_history(&self, q: &HistoryQuery) -> BrowserResult<Vec<HistoryItem>> {
        let s = self.state.borrow();
        let mut items: Vec<HistoryItem> = s
            .history
            .iter()
            .filter(|h| words_match(&q.text, &format!("{} {}", h.title, h.url)))
            .filter(|h| q.start_time.is_none_or(|t| h.last_visit_time >= t))
            .filter(|h| q.end_time.is_none_or(|t| h.last_visit_time <= t))
            .cloned()
            .collect();
        items.sort_by(|a, b| b.last_visit_time.total_cmp(&a.last_visit_time));
        items.truncate(q.max_results as usize);
        Ok(items)
    }

    async fn go_back(&self, tab_id: i64) -> BrowserResult<()> {
        tab(&self.state.borrow(), tab_id).map(|_| ())
    }

    async fn go_forward(&self, tab_id: i64) -> BrowserResult<()> {
        tab(&self.state.borrow(), tab_id).map(|_| ())
    }

    async fn run_page_script(&self, tab_id: i64, script: PageScript) -> BrowserResult<f64> {
        tab(&self.state.borrow(), tab_id)?;
        let mut guard = self.state.borrow_mut();
        let state: &mut State = &mut guard;
        let ours = state.paused_media.contains(&tab_id);
        let playing = state
            .tabs
            .iter_mut()
            .find(|t| t.id == tab_id)
            .ok_or_else(|| err(format!("Invalid tab ID: {tab_id}")))?;
        // A pause silences what plays (noting it as ours); a play resumes
        // what we paused, or (unless only that is asked) whatever the page
        // holds paused, as Firefox's page script does with its first.
        let media = match script {
            PageScript::PauseMedia if playing.audible => {
                playing.audible = false;
                state.paused_media.push(tab_id);
                Some(1.0)
            }
            PageScript::PlayMedia { resume_only } if ours || !resume_only && !playing.audible => {
                playing.audible = true;
                state.paused_media.retain(|id| *id != tab_id);
                Some(1.0)
            }
            PageScript::PauseMedia | PageScript::PlayMedia { .. } => Some(0.0),
            _ => None,
        };
        if let Some(changed) = media {
            return Ok(changed);
        }
        drop(guard);
        let mut scroll = self.scroll.borrow_mut();
        let y = scroll.entry(tab_id).or_insert(0.0);
        let max = PAGE_HEIGHT - VIEWPORT;
        *y = match script {
            PageScript::ScrollBy(dy) => *y + dy as f64,
            PageScript::ScrollPages(n) => *y + n as f64 * VIEWPORT,
            PageScript::Top => 0.0,
            PageScript::Bottom => max,
            PageScript::Stop
            | PageScript::HistoryGo(_)
            | PageScript::PauseMedia
            | PageScript::PlayMedia { .. } => *y,
        }
        .clamp(0.0, max);
        Ok(*y)
    }

    async fn read_page(&self, tab_id: i64) -> BrowserResult<PageText> {
        let t = tab(&self.state.borrow(), tab_id)?.clone();
        // A STATE's `pages` (what a twctl user wrote) read as descriptions.
        let described = self.state.borrow().pages.get(&tab_id).map(|text| PageText {
            meta: vec![("description".into(), text.clone())],
            ..PageText::default()
        });
        match self.pages.borrow().get(&tab_id).cloned().or(described) {
            Some(page) => Ok(page),
            None if crate::page::readable(&t.url) => Ok(PageText {
                body: t.title.clone(),
                ..PageText::default()
            }),
            None => Err(err(format!("Cannot read the page of tab {tab_id}"))),
        }
    }

    async fn zoom(&self, tab_id: i64) -> BrowserResult<f64> {
        tab(&self.state.borrow(), tab_id)?;
        Ok(*self.zoom.borrow().get(&tab_id).unwrap_or(&1.0))
    }

    async fn set_zoom(&self, tab_id: i64, factor: f64) -> BrowserResult<()> {
        tab(&self.state.borrow(), tab_id)?;
        self.zoom.borrow_mut().insert(tab_id, factor);
        Ok(())
    }

    /// Web pages have an article here; others (about:, files) do not, as
    /// Firefox finds none in them.
    async fn toggle_reader_view(&self, tab_id: i64) -> BrowserResult<()> {
        let mut state = self.state.borrow_mut();
        let t = state
            .tabs
            .iter_mut()
            .find(|t| t.id == tab_id)
            .ok_or_else(|| err(format!("Invalid tab ID: {tab_id}")))?;
        t.url = match crate::text::reader_source(&t.url) {
            Some(source) => source,
            None if t.url.starts_with("http") => crate::text::reader_url(&t.url),
            None => {
                return Err(err(
                    "The specified tab cannot be placed into reader mode.".to_string()
                ))
            }
        };
        Ok(())
    }
}
