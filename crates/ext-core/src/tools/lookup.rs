//! Tools that look things up: web search, search engines, bookmarks, history.

use super::args::*;
use super::tabs::normalize_url;
use super::*;
use crate::tab_state::{HistoryQuery, NewTab};

/// Longest query or title accepted, in characters.
const MAX_TEXT: usize = 2000;

fn check_text(what: &str, text: &str) -> ToolResult<String> {
    let text = text.trim();
    if text.is_empty() {
        return Err(ToolError::invalid(format!("{what} is empty.")));
    }
    if text.chars().count() > MAX_TEXT {
        return Err(ToolError::invalid(format!(
            "{what} is longer than {MAX_TEXT} characters."
        )));
    }
    Ok(text.to_string())
}

pub async fn web_search<B: Browser>(b: &B, a: WebSearchArgs) -> ToolResult<ToolOutput> {
    let query = check_text("The search query", &a.query)?;
    let engines = b.search_engines().await?;
    let engine = match a.engine.as_deref().map(str::trim).filter(|e| !e.is_empty()) {
        Some(name) => engines
            .iter()
            .find(|e| e.name.eq_ignore_ascii_case(name))
            .or_else(|| {
                let name = name.to_lowercase();
                engines
                    .iter()
                    .find(|e| e.name.to_lowercase().starts_with(&name))
            })
            .ok_or_else(|| {
                ToolError::not_found(format!(
                    "No search engine is called '{}'. Installed: {}.",
                    clip(name, 60),
                    engines
                        .iter()
                        .map(|e| e.name.as_str())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })?
            .name
            .clone(),
        None => engines
            .iter()
            .find(|e| e.is_default)
            .or(engines.first())
            .map(|e| e.name.clone())
            .ok_or_else(|| ToolError::failed("Firefox has no search engine installed."))?,
    };
    let window = focused_window(&b.windows().await?)?;
    let tab = b
        .create_tab(&NewTab {
            window_id: Some(window),
            active: true,
            ..NewTab::default()
        })
        .await?;
    let undo = vec![UndoStep::Close {
        tab_ids: vec![tab.id],
    }];
    if let Err(e) = b.search(&query, Some(&engine), tab.id).await {
        // Don't leave an empty tab behind a failed search.
        let _ = b.close_tabs(&[tab.id]).await;
        return Err(e.into());
    }
    let tab = reread(b, &[tab.id]).await?.pop().unwrap_or(tab);
    Ok(ToolOutput::with_undo(
        json!({ "tab": tab, "engine": engine }),
        undo,
    ))
}

pub async fn list_search_engines<B: Browser>(b: &B, _: NoArgs) -> ToolResult<ToolOutput> {
    let engines = b.search_engines().await?;
    Ok(ToolOutput::new(json!({ "engines": engines })))
}

pub async fn search_bookmarks<B: Browser>(b: &B, a: SearchBookmarksArgs) -> ToolResult<ToolOutput> {
    let max = a.max_results.unwrap_or(20).clamp(1, 1000) as usize;
    let mut found = if a.query.trim().is_empty() {
        b.recent_bookmarks(max).await?
    } else {
        b.search_bookmarks(&check_text("The bookmark query", &a.query)?)
            .await?
    };
    found.truncate(max);
    Ok(ToolOutput::new(
        json!({ "count": found.len(), "bookmarks": found }),
    ))
}

pub async fn create_bookmark<B: Browser>(b: &B, a: CreateBookmarkArgs) -> ToolResult<ToolOutput> {
    let tab = match a.tab_id {
        Some(id) => Some(find_tab(&b.tabs().await?, id)?.clone()),
        None if a.url.is_none() => Some(active_tab(b).await?),
        None => None,
    };
    let url = match (&a.url, &tab) {
        (Some(u), _) => normalize_url(u)?,
        (None, Some(t)) => {
            if !(t.url.starts_with("http://") || t.url.starts_with("https://")) {
                return Err(ToolError::invalid(format!(
                    "Tab {} shows '{}', which is not a web page to bookmark.",
                    t.id,
                    clip(&t.url, 80)
                )));
            }
            t.url.clone()
        }
        (None, None) => {
            return Err(ToolError::invalid(
                "create_bookmark: give a url or a tabId.",
            ))
        }
    };
    let title = match (&a.title, &tab) {
        (Some(t), _) => check_text("The bookmark title", t)?,
        (None, Some(t)) if !t.title.trim().is_empty() => t.title.clone(),
        _ => url.clone(),
    };
    let mut undo_ids = Vec::new();
    let mut folder_created = false;
    let folder_id = match a.folder.as_deref() {
        Some(name) => {
            let name = check_text("The folder name", name)?;
            match b.find_bookmark_folder(&name).await? {
                Some(id) => Some(id),
                None => {
                    let id = b.create_bookmark_folder(&name).await?;
                    folder_created = true;
                    undo_ids.push(id.clone());
                    Some(id)
                }
            }
        }
        None => None,
    };
    let bookmark = b
        .create_bookmark(folder_id.as_deref(), &title, &url)
        .await?;
    // Remove the bookmark before the folder it sits in.
    undo_ids.insert(0, bookmark.id.clone());
    Ok(ToolOutput::with_undo(
        json!({ "bookmark": bookmark, "folderCreated": folder_created }),
        vec![UndoStep::RemoveBookmarks { ids: undo_ids }],
    ))
}

pub async fn search_history<B: Browser>(b: &B, a: SearchHistoryArgs) -> ToolResult<ToolOutput> {
    let text = a.query.as_deref().unwrap_or("").trim().to_string();
    if text.chars().count() > MAX_TEXT {
        return Err(ToolError::invalid(format!(
            "The history query is longer than {MAX_TEXT} characters."
        )));
    }
    for (name, t) in [("startTime", a.start_time), ("endTime", a.end_time)] {
        if let Some(t) = t {
            if !t.is_finite() || t < 0.0 {
                return Err(ToolError::invalid(format!(
                    "search_history: {name} must be milliseconds since the epoch."
                )));
            }
        }
    }
    if let (Some(s), Some(e)) = (a.start_time, a.end_time) {
        if s > e {
            return Err(ToolError::invalid(
                "search_history: startTime is after endTime.",
            ));
        }
    }
    let items = b
        .search_history(&HistoryQuery {
            text,
            // Firefox searches only the last 24 hours unless told otherwise.
            start_time: Some(a.start_time.unwrap_or(0.0)),
            end_time: a.end_time,
            max_results: a.max_results.unwrap_or(50).clamp(1, 1000),
        })
        .await?;
    Ok(ToolOutput::new(
        json!({ "count": items.len(), "items": items }),
    ))
}
