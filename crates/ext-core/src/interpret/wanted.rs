//! What a command needs the snapshot to hold before it is planned: the
//! bookmarks it names or opens, the history it opens a page from, the
//! pages' words for grouping by topic. The background reads these from
//! Firefox only when a command asks for them.

use super::parse::{self, Intent, Selector};
use super::{plan, resolve, text};
use crate::tab_state::{HistoryQuery, State};

/// What a command needs of the bookmarks, for the snapshot to hold, from
/// one reading of its clauses.
#[derive(Debug, Default, PartialEq)]
pub struct BookmarksWanted {
    /// Words to search bookmarks for ("open my candle docs bookmark",
    /// "open candle docs").
    pub words: Vec<String>,
    /// Folders whose bookmarks may be opened: "open my cooking bookmarks"
    /// names the folder "Cooking" (the words together, and each of them).
    pub folders: Vec<String>,
    /// Addresses of the tabs asked about ("is this page bookmarked").
    pub pages: Vec<String>,
    /// How many bookmarks there are ("how many bookmarks do I have").
    pub count: bool,
}

pub fn bookmarks_wanted(text: &str, state: &State) -> BookmarksWanted {
    let words = text::words(text);
    let view = resolve::View::new(state);
    let mut wanted = BookmarksWanted::default();
    for c in parse::clauses(&words) {
        match parse::parse(&c) {
            Ok(Intent::Open(w) | Intent::OpenNew { words: w, .. }) => wanted.words.extend(w),
            Ok(Intent::OpenBeside { open, .. } | Intent::OpenInGroup { open, .. }) => {
                if let Intent::Open(w)
                | Intent::OpenNew { words: w, .. }
                | Intent::OpenBookmark { words: w, .. } = *open
                {
                    wanted.words.extend(w);
                }
            }
            Ok(Intent::OpenBookmark { words, .. }) => {
                wanted.folders.push(words.join(" "));
                if words.len() > 1 {
                    wanted.folders.extend(words.iter().cloned());
                }
                wanted.words.extend(words);
            }
            Ok(Intent::CountBookmarks { folder: None }) => wanted.count = true,
            Ok(Intent::BookmarkFolder(name)) => wanted.folders.push(name),
            Ok(Intent::CountBookmarks { folder: Some(f) }) => wanted.folders.push(f.join(" ")),
            Ok(Intent::IsBookmarked(target)) => {
                let ids = resolve::resolve(&view, &target)
                    .map(|r| r.ids)
                    .unwrap_or_default();
                let tabs = ids.iter().filter_map(|id| view.tab(*id));
                wanted.pages.extend(tabs.map(|t| t.url.clone()));
                // "is the tokio tutorial bookmarked", no tab so named: the
                // bookmarks the words find.
                if let (true, Selector::Named(phrases)) = (ids.is_empty(), &target.selector) {
                    wanted.words.extend(phrases.iter().flatten().cloned());
                }
            }
            _ => {}
        }
    }
    wanted
}

/// The history a command opens a page from ("open the article about
/// webgpu from yesterday"), for the snapshot to hold: the visits that
/// match, newest first, in the time said.
pub fn history_wanted(text: &str, now: f64, tz_offset_minutes: i32) -> Option<HistoryQuery> {
    let words = text::words(text);
    parse::clauses(&words)
        .iter()
        .find_map(|c| match parse::parse(c) {
            Ok(Intent::OpenFromHistory { query, span }) => Some((query, span)),
            _ => None,
        })
        .map(|(query, span)| {
            let range = span.map(|s| plan::history::time_range(s, now, tz_offset_minutes));
            HistoryQuery {
                start_time: plan::history::search_start(range, &query),
                text: query,
                end_time: range.map(|r| r.1),
                max_results: 50,
            }
        })
}

/// Whether the words of a command group by topic: then the snapshot holds
/// what the tabs' pages say ([`State::pages`]).
pub fn needs_pages(text: &str) -> bool {
    let words = text::words(text);
    parse::clauses(&words)
        .iter()
        .any(|c| matches!(parse::parse(c), Ok(Intent::GroupByTopic(_))))
}
