//! Bookmarking a tab, finding bookmarks, opening one.

use super::{not_found, one_call, one_tab, plural, target_ids, title, Refusal, Step};
use crate::interpret::parse::{Selector, Target};
use crate::interpret::resolve::{match_bookmarks, View};
use crate::interpret::Options;
use crate::log::Call;
use crate::tab_state::Bookmark;
use crate::text::clip;
use crate::tools::args::{CreateBookmarkArgs, CreateTabArgs, SearchBookmarksArgs};
use crate::tools::ToolCall;

pub fn bookmark(
    view: &View,
    target: &Target,
    folder: Option<&str>,
    named: Option<&str>,
) -> Result<Step, Refusal> {
    if !target.singular {
        let r = target_ids(view, target)?;
        if r.ids.len() > 1 {
            return bookmark_each(view, &r.ids, folder);
        }
    }
    let id = one_tab(view, target, true)?;
    let said = match named {
        Some(name) => format!("'{}' as '{name}'", title(view, id)),
        None => format!("'{}'", title(view, id)),
    };
    let reply = match folder {
        Some(f) => format!("Bookmarked {said} in {f}."),
        None => format!("Bookmarked {said}."),
    };
    Ok(one_call(
        Call::create_bookmark(CreateBookmarkArgs {
            tab_id: Some(id),
            folder: folder.map(str::to_string),
            title: named.map(str::to_string),
            ..Default::default()
        }),
        reply,
        vec![id],
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

/// "what's in my cooking folder", "show my rust bookmarks": the folder
/// so named, its bookmarks as the snapshot holds them (Firefox's search
/// reads only titles and addresses); without one, a search.
pub fn bookmark_folder(view: &View, name: &str) -> Result<Step, Refusal> {
    let inside = in_folder(view, name);
    if let Some(first) = inside.first() {
        let titles: Vec<String> = (inside.iter().take(10))
            .map(|b| format!("'{}'", clip(&b.title, 60)))
            .collect();
        let more = if inside.len() > 10 { ", …" } else { "" };
        return Ok(Step {
            reply: format!(
                "Your '{}' folder has {}: {}{more}.",
                first.folder,
                plural(inside.len(), "bookmark"),
                titles.join(", ")
            ),
            ..Step::default()
        });
    }
    find_bookmarks(name)
}

/// The bookmarks right in the folder of that title, any case.
fn in_folder<'a>(view: &View<'a>, title: &str) -> Vec<&'a Bookmark> {
    (view.state.bookmarks.iter())
        .filter(|b| b.folder.eq_ignore_ascii_case(title.trim()))
        .collect()
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

/// "show my recent bookmarks": the bookmarks added last (a search with no
/// words), newest first.
pub fn recent_bookmarks(count: usize) -> Step {
    one_call(
        Call::search_bookmarks(SearchBookmarksArgs {
            query: String::new(),
            max_results: Some(count.min(1000) as u32),
        }),
        "Your newest bookmarks:".into(),
        vec![],
    )
}

/// "is this page bookmarked": answered from the bookmarks of the tabs'
/// addresses, which the snapshot holds ([`crate::interpret::bookmarks_wanted`]).
pub fn is_bookmarked(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = match (target_ids(view, target), &target.selector) {
        (Ok(r), _) => r,
        // No tab so named: a bookmark may be ("is the tokio tutorial
        // bookmarked").
        (Err(e), Selector::Named(phrases)) => {
            let words: Vec<String> = phrases.iter().flatten().cloned().collect();
            return match match_bookmarks(&words, &view.state.bookmarks).first() {
                Some(b) if !b.folder.is_empty() => Ok(answer(format!(
                    "Yes, you have a bookmark '{}', in {}.",
                    clip(&b.title, 60),
                    b.folder
                ))),
                Some(b) => Ok(answer(format!(
                    "Yes, you have a bookmark '{}'.",
                    clip(&b.title, 60)
                ))),
                None if e.code == crate::error::ErrorCode::NotFound => Err(not_found(format!(
                    "No tab or bookmark matches '{}'.",
                    words.join(" ")
                ))),
                None => Err(e),
            };
        }
        (Err(e), _) => return Err(e),
    };
    let answers: Vec<String> = r
        .ids
        .iter()
        .filter_map(|id| view.tab(*id))
        .map(|tab| {
            let name = clip(&tab.title, 60);
            let found = view.state.bookmarks.iter().find(|b| b.url == tab.url);
            match found {
                Some(b) if !b.folder.is_empty() => {
                    format!("Yes, '{name}' is bookmarked, in {}.", b.folder)
                }
                Some(_) => format!("Yes, '{name}' is bookmarked."),
                None => format!("No, '{name}' is not bookmarked."),
            }
        })
        .collect();
    Ok(Step {
        calls: vec![Call::list_tabs(Default::default())],
        reply: answers.join(" "),
        touched: r.ids,
        ..Step::default()
    })
}

/// A reply that changes nothing.
fn answer(reply: String) -> Step {
    Step {
        reply,
        ..Step::default()
    }
}

/// "how many bookmarks do I have": the count the snapshot read; "how
/// many bookmarks are in my cooking folder": those right in it.
pub fn count_bookmarks(view: &View, folder: Option<&[String]>) -> Step {
    let reply = match folder {
        Some(words) => {
            let title = words.join(" ");
            let inside = in_folder(view, &title);
            match inside.first() {
                None => format!("No bookmark folder called '{title}' has bookmarks in it."),
                Some(b) => format!(
                    "You have {} in '{}'.",
                    plural(inside.len(), "bookmark"),
                    b.folder
                ),
            }
        }
        None => match view.state.bookmark_count {
            Some(0) => "You have no bookmarks.".to_string(),
            Some(n) => format!("You have {}.", plural(n, "bookmark")),
            None => "Firefox did not say how many bookmarks you have.".to_string(),
        },
    };
    Step {
        reply,
        ..Step::default()
    }
}

/// "open my candle docs bookmark": the best match. "open my cooking
/// bookmarks", "open the cooking folder" (`all`): every match a tab can
/// show, each address once, the first in front, as Firefox's "Open All in
/// Tabs" does; more than closing would take unasked, asks first.
pub fn open_bookmark(
    view: &View,
    words: &[String],
    all: bool,
    options: &Options,
) -> Result<Step, Refusal> {
    let found = match_bookmarks(words, &view.state.bookmarks);
    let said = words.join(" ");
    let none = || not_found(format!("No bookmark matches '{said}'."));
    if !all {
        let b = found.first().ok_or_else(none)?;
        return Ok(open_one(b));
    }
    if found.is_empty() {
        return Err(none());
    }
    let mut openable: Vec<&Bookmark> = Vec::new();
    for b in found {
        let web = b.url.starts_with("https://") || b.url.starts_with("http://");
        if web && !openable.iter().any(|o| o.url == b.url) {
            openable.push(b);
        }
    }
    match openable.as_slice() {
        [] => Err(Refusal::invalid(format!(
            "None of the bookmarks matching '{said}' is a web page."
        ))),
        [one] => Ok(open_one(one)),
        many => {
            let calls = many
                .iter()
                .enumerate()
                .map(|(i, b)| {
                    Call::create_tab(CreateTabArgs {
                        url: Some(b.url.clone()),
                        active: (i > 0).then_some(false),
                        ..Default::default()
                    })
                })
                .collect();
            let folder = &many[0].folder;
            let what = if !folder.is_empty() && many.iter().all(|b| &b.folder == folder) {
                format!("the {} bookmarks in '{folder}'", many.len())
            } else {
                format!("{} bookmarks matching '{said}'", many.len())
            };
            Ok(Step {
                calls,
                reply: format!("Opened {what}."),
                confirm: (many.len() > options.confirm_threshold)
                    .then(|| format!("Open {what}? Say yes to confirm.")),
                touched: vec![],
                sweep: false,
            })
        }
    }
}

fn open_one(b: &Bookmark) -> Step {
    one_call(
        Call::create_tab(CreateTabArgs {
            url: Some(b.url.clone()),
            ..Default::default()
        }),
        format!("Opened your bookmark '{}'.", clip(&b.title, 60)),
        vec![],
    )
}

#[cfg(test)]
mod tests {
    use crate::interpret::{bookmarks_wanted, plan, test_state, Options};
    use crate::tab_state::Bookmark;

    fn reading_list(count: usize) -> crate::tab_state::State {
        let mut state = test_state::tabs(&[("https://example.org/", "Example")], &[]);
        state.bookmarks = (1..=count)
            .map(|i| Bookmark {
                id: format!("b{i}"),
                title: format!("Essay {i}"),
                url: format!("https://essays.example/{i}"),
                folder: "Reading".into(),
            })
            .collect();
        state
    }

    #[test]
    fn opening_more_bookmarks_than_closing_takes_unasked_asks_first() {
        let options = Options::default();
        let few = plan("open my reading folder", &reading_list(10), &options);
        assert_eq!(few.question, None, "{}", few.reply);
        assert_eq!(few.calls.len(), 10);
        let many = plan("open my reading folder", &reading_list(11), &options);
        assert_eq!(
            many.question.as_deref(),
            Some("Open the 11 bookmarks in 'Reading'? Say yes to confirm.")
        );
    }

    #[test]
    fn a_folder_is_asked_for_only_when_bookmarks_are_opened() {
        let bookmark_folders_wanted =
            |text: &str| bookmarks_wanted(text, &test_state::tabs(&[], &[])).folders;
        assert_eq!(
            bookmark_folders_wanted("open all my candle docs bookmarks"),
            ["candle docs", "candle", "docs"]
        );
        assert_eq!(
            bookmark_folders_wanted("open the cooking folder"),
            ["cooking"]
        );
        assert!(bookmark_folders_wanted("open cooking").is_empty());
        assert!(bookmark_folders_wanted("show bookmarks about cooking").is_empty());
    }
}
