//! Bookmarking a tab, finding bookmarks, opening one.

use super::{not_found, one_call, one_tab, plural, target_ids, title, Refusal, Step};
use crate::interpret::parse::Target;
use crate::interpret::resolve::{match_bookmarks, View};
use crate::log::Call;
use crate::text::clip;
use crate::tools::args::{CreateBookmarkArgs, CreateTabArgs, SearchBookmarksArgs};
use crate::tools::ToolCall;

pub fn bookmark(view: &View, target: &Target, folder: Option<&str>) -> Result<Step, Refusal> {
    if !target.singular {
        let r = target_ids(view, target)?;
        if r.ids.len() > 1 {
            return bookmark_each(view, &r.ids, folder);
        }
    }
    let id = one_tab(view, target, true)?;
    let reply = match folder {
        Some(f) => format!("Bookmarked '{}' in {f}.", title(view, id)),
        None => format!("Bookmarked '{}'.", title(view, id)),
    };
    Ok(one_call(
        Call::create_bookmark(CreateBookmarkArgs {
            tab_id: Some(id),
            folder: folder.map(str::to_string),
            ..Default::default()
        }),
        reply,
        vec![],
    ))
}

/// "bookmark all tabs", "bookmark the youtube tabs in Videos": one
/// bookmark per web page (a settings or new-tab page has nothing to keep),
/// undone together.
fn bookmark_each(view: &View, ids: &[i64], folder: Option<&str>) -> Result<Step, Refusal> {
    let web: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| {
            view.tab(*id)
                .is_some_and(|t| t.url.starts_with("http://") || t.url.starts_with("https://"))
        })
        .collect();
    if web.is_empty() {
        return Err(Refusal::invalid(
            "None of those tabs shows a web page to bookmark.",
        ));
    }
    let calls = web
        .iter()
        .map(|id| {
            Call::create_bookmark(CreateBookmarkArgs {
                tab_id: Some(*id),
                folder: folder.map(str::to_string),
                ..Default::default()
            })
        })
        .collect();
    let what = plural(web.len(), "tab");
    Ok(Step {
        calls,
        reply: match folder {
            Some(f) => format!("Bookmarked {what} in {f}."),
            None => format!("Bookmarked {what}."),
        },
        confirm: None,
        touched: web,
        sweep: false,
    })
}

pub fn find_bookmarks(query: &str) -> Result<Step, Refusal> {
    if query.trim().is_empty() {
        return Err(Refusal::invalid(
            "What should I look for in your bookmarks?",
        ));
    }
    Ok(one_call(
        Call::search_bookmarks(SearchBookmarksArgs {
            query: query.to_string(),
            max_results: None,
        }),
        format!("Bookmarks about '{query}':"),
        vec![],
    ))
}

pub fn open_bookmark(view: &View, words: &[String]) -> Result<Step, Refusal> {
    let found = match_bookmarks(words, &view.state.bookmarks);
    let b = found
        .first()
        .ok_or_else(|| not_found(format!("No bookmark matches '{}'.", words.join(" "))))?;
    Ok(one_call(
        Call::create_tab(CreateTabArgs {
            url: Some(b.url.clone()),
            ..Default::default()
        }),
        format!("Opened your bookmark '{}'.", clip(&b.title, 60)),
        vec![],
    ))
}
