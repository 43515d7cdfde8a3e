//! The browser as the interpreter sees it for one command: tabs, windows
//! and groups, and only what the command needs of pages, history and
//! bookmarks.

use super::Background;
use crate::browser::Browser;
use crate::error::ToolResult;
use crate::interpret;
use crate::storage::Storage;
use crate::tab_state::{Bookmark, State};

impl<B: Browser, S: Storage> Background<B, S> {
    /// The browser as the interpreter needs to see it.
    pub(super) async fn snapshot(&self, text: &str) -> ToolResult<State> {
        let b = &self.scoped();
        let mut state = State {
            now: b.now_ms(),
            windows: b.windows().await?,
            tabs: b.tabs().await?,
            groups: b.groups().await?,
            // A browser without search engines still manages tabs.
            search_engines: b.search_engines().await.unwrap_or_default(),
            ..State::default()
        };
        // Paused by a command, and neither closed nor playing again since.
        let still_paused = |id: &&i64| state.tabs.iter().any(|t| t.id == **id && !t.audible);
        state.paused_media = self
            .paused_media
            .borrow()
            .iter()
            .filter(still_paused)
            .copied()
            .collect();
        if interpret::needs_pages(text) {
            state.pages = read_topics(b, &state.tabs).await;
        }
        let tz = b.tz_offset_minutes();
        if let Some(query) = interpret::history_wanted(text, state.now, tz) {
            state.history = b.search_history(&query).await.unwrap_or_default();
        }
        let wanted = interpret::bookmarks_wanted(text, &state);
        if !wanted.words.is_empty() {
            let words = &wanted.words;
            let queries = std::iter::once(words.join(" ")).chain(words.iter().cloned());
            for q in queries.filter(|q| q.chars().count() >= 2) {
                add_bookmarks(&mut state, b.search_bookmarks(&q).await.unwrap_or_default());
                if state.bookmarks.len() > 500 {
                    break;
                }
            }
        }
        // "is this page bookmarked": the bookmarks of exactly that address.
        for url in &wanted.pages {
            add_bookmarks(&mut state, b.bookmarks_at(url).await.unwrap_or_default());
        }
        if !wanted.folders.is_empty() {
            let found = b.bookmarks_in_folders(&wanted.folders).await;
            add_bookmarks(&mut state, found.unwrap_or_default());
        }
        if wanted.count {
            state.bookmark_count = b.bookmark_count().await.ok();
        }
        Ok(state)
    }
}

/// At most this many pages are read for "group by topic".
const MAX_TOPIC_PAGES: usize = 60;

/// What the pages of the tabs that could be grouped say about their topic,
/// read together; pages that cannot be read (not web pages, unloaded tabs
/// that reading would load, ones that do not answer) are left out.
async fn read_topics(
    browser: &impl Browser,
    tabs: &[crate::tab_state::Tab],
) -> std::collections::BTreeMap<i64, String> {
    let wanted: Vec<i64> = tabs
        .iter()
        .filter(|t| !t.pinned && !t.is_grouped() && !t.discarded && crate::page::readable(&t.url))
        .map(|t| t.id)
        .take(MAX_TOPIC_PAGES)
        .collect();
    let read = futures::future::join_all(wanted.iter().map(|&id| browser.read_page(id))).await;
    wanted
        .into_iter()
        .zip(read)
        .filter_map(|(id, page)| Some((id, crate::page::topic_text(&page.ok()?))))
        .filter(|(_, text)| !text.is_empty())
        .collect()
}

/// Adds bookmarks to a snapshot, each once.
fn add_bookmarks(state: &mut State, found: Vec<Bookmark>) {
    for f in found {
        if !state.bookmarks.iter().any(|x| x.id == f.id) {
            state.bookmarks.push(f);
        }
    }
}
