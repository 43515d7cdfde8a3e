//! From an intent to tool calls against a snapshot of the browser: which
//! tabs it means, what to call, what to say, and whether to ask first.
//! [`plan_intent`] sends each intent to its family's module; nothing here
//! runs anything.

mod bookmarks;
mod browse;
mod close;
pub mod clusters;
mod grouping;
mod groups;
pub(super) mod history;
mod media;
mod move_tabs;
mod open;
mod questions;
mod search;
mod sort;
mod switch;
mod tab_actions;

pub use history::time_range;

use super::parse::{Intent, Selector, Target};
use super::resolve::{resolve, Resolved, View};
use super::Options;
use crate::error::{ErrorCode, ToolError};
use crate::log::Call;
use crate::memory::MemoryBrowser;
use crate::tab_state::State;
use crate::text::clip;
use crate::tools;
use futures::FutureExt;
use serde_json::Value;

/// What a clause comes to.
#[derive(Debug, Default)]
pub struct Step {
    pub calls: Vec<Call>,
    pub reply: String,
    /// Why to ask first, if it is risky.
    pub confirm: Option<String>,
    /// Tabs acted on, for "the rest" in the next clause.
    pub touched: Vec<i64>,
    /// Each call stands alone: one that finds nothing is passed over
    /// (see [`crate::interpret::Plan::passable`]).
    pub sweep: bool,
}

/// A clause that cannot be planned: the code to answer and what to say.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub reply: String,
}

/// "the 'News' group", or "the untitled group": Firefox lets a group
/// have no name.
pub(super) fn group_said(g: &crate::tab_state::Group) -> String {
    if g.title.trim().is_empty() {
        "the untitled group".into()
    } else {
        format!("the '{}' group", g.title)
    }
}

pub(super) fn not_found(reply: impl Into<String>) -> Refusal {
    Refusal {
        code: ErrorCode::NotFound,
        reply: reply.into(),
    }
}

pub(super) fn refused(reply: impl Into<String>) -> Refusal {
    Refusal {
        code: ErrorCode::Refused,
        reply: reply.into(),
    }
}

/// One tab by its title, several by their number: "'Gmail'", "3 tabs".
pub(super) fn tabs_said(view: &View, ids: &[i64]) -> String {
    match ids {
        [one] => format!("'{}'", title(view, *one)),
        _ => plural(ids.len(), "tab"),
    }
}

pub(super) use crate::text::plural;

pub(super) fn title(view: &View, id: i64) -> String {
    view.tab(id)
        .map(|t| {
            let text = if t.title.trim().is_empty() {
                &t.url
            } else {
                &t.title
            };
            clip(text, 50)
        })
        .unwrap_or_default()
}

pub(super) fn target_ids(view: &View, target: &Target) -> Result<Resolved, Refusal> {
    let r = resolve(view, target).map_err(not_found)?;
    match target.count {
        // "close the two youtube tabs" with three open: which two is not
        // known, and acting on all three would do more than was said.
        Some(said) if r.ids.len() > said => Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: format!(
                "{} tabs {}, not {said}: {}. Say which, or say 'all'.",
                r.ids.len(),
                match target.selector {
                    Selector::Audible => "are playing".to_string(),
                    Selector::InGroup(_) => format!("are in the {}", r.label),
                    _ => format!("match '{}'", r.label),
                },
                r.ids
                    .iter()
                    .take(5)
                    .map(|id| format!("'{}'", title(view, *id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        _ => Ok(r),
    }
}

/// The one tab a singular reference means, or a question if it is not clear.
pub(super) fn one_tab(view: &View, target: &Target, destructive: bool) -> Result<i64, Refusal> {
    let r = target_ids(view, target)?;
    match r.ids.as_slice() {
        [] => Err(not_found(format!("No tab matches {}.", r.label))),
        [id] => Ok(*id),
        ids if destructive => Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: format!(
                "{} tabs match {}: {}. Which one?",
                ids.len(),
                r.label,
                ids.iter()
                    .take(5)
                    .map(|id| format!("'{}'", title(view, *id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        ids => {
            // Not destructive: the most recently used, not the one in front.
            let active = view.active().map(|t| t.id);
            let best = ids
                .iter()
                .filter_map(|id| view.tab(*id))
                .max_by(|a, b| {
                    (Some(a.id) != active)
                        .cmp(&(Some(b.id) != active))
                        .then(a.last_accessed.total_cmp(&b.last_accessed))
                })
                .map(|t| t.id)
                .unwrap_or(ids[0]);
            Ok(best)
        }
    }
}

pub(super) fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

/// Window ids in order, those with tabs only.
pub(super) fn window_ids(state: &State) -> Vec<i64> {
    let mut w: Vec<i64> = state.tabs.iter().map(|t| t.window_id).collect();
    w.sort_unstable();
    w.dedup();
    w
}

pub(super) fn windows_with_tabs(state: &State) -> usize {
    window_ids(state).len()
}

impl Refusal {
    pub(super) fn invalid(reply: impl Into<String>) -> Refusal {
        Refusal {
            code: ErrorCode::InvalidArgs,
            reply: reply.into(),
        }
    }
}

impl From<ToolError> for Refusal {
    fn from(e: ToolError) -> Self {
        Refusal {
            code: e.code,
            reply: e.message,
        }
    }
}

/// The calls, reply and question for one intent, from its family.
pub fn plan_intent(intent: &Intent, view: &View, options: &Options) -> Result<Step, Refusal> {
    match intent {
        Intent::Close(target) => close::close(view, target, options),
        Intent::CloseDuplicates { scope, of } => {
            close::close_duplicates(view, *scope, of.as_ref(), options)
        }
        Intent::Switch(target) => switch::switch(view, target),
        Intent::Bare(target) => switch::bare(view, target),
        Intent::SwitchWindow(which) => switch::switch_window(view, *which),
        Intent::Open(words) => open::open(view, words),
        Intent::OpenNew {
            words,
            active,
            window,
        } => open::open_new(view, words, *active, *window),
        Intent::OpenUrl(url) => open::open_url(url),
        Intent::OpenBeside { open, beside } => open::open_beside(view, open, beside, options),
        Intent::OpenInGroup { open, group } => open::open_in_group(view, open, group, options),
        Intent::OpenInWindow { open, window } => open::open_in_window(view, open, *window, options),
        Intent::OpenBookmark { words, all } => bookmarks::open_bookmark(view, words, *all, options),
        Intent::NewTab => Ok(browse::new_tab()),
        Intent::Mute(target, mute) => tab_actions::mute(view, target, *mute),
        Intent::Media {
            target,
            play: false,
        } => media::pause(view, target.as_ref()),
        Intent::Media { target, play: true } => media::play(view, target.as_ref()),
        Intent::Pin(target, pin) => tab_actions::pin(view, target, *pin),
        Intent::Reload(target, hard) => tab_actions::reload(view, target, *hard),
        Intent::Discard(target) => tab_actions::discard(view, target),
        Intent::Duplicate(target) => tab_actions::duplicate(view, target),
        Intent::Repeat(done, times) => tab_actions::repeat(view, done, *times, options),
        Intent::GroupBySite(scope) => grouping::by_site(view, *scope),
        Intent::Sort {
            group: Some(which),
            by,
            ..
        } => sort::sort_group(view, which, *by),
        Intent::Sort { scope, by, .. } => sort::sort(view, *scope, *by),
        Intent::SortGroups { scope, by_name } => sort::sort_groups(view, *scope, *by_name),
        Intent::GroupByTopic(scope) => grouping::by_topic(view, *scope),
        Intent::Group {
            target,
            name,
            color,
        } => groups::group(view, target, name.as_deref(), *color),
        Intent::RenameGroup(which, name) => groups::rename(view, which, name),
        Intent::RecolorGroup(which, color) => groups::recolor(view, which, *color),
        Intent::CollapseGroup(which, collapsed) => groups::collapse(view, which, *collapsed),
        Intent::Ungroup(which) => groups::ungroup(view, which),
        Intent::MergeGroups(which) => groups::merge(view, which),
        Intent::UngroupTabs(target, from) => groups::ungroup_tabs(view, target, from.as_ref()),
        Intent::Move(target, dest) => move_tabs::move_tabs(view, target, dest),
        Intent::Search { query, engine } => search::search(view, query, engine.as_deref()),
        Intent::SearchThisSite(query) => search::search_this_site(view, query),
        Intent::Bookmark {
            target,
            folder,
            title,
        } => bookmarks::bookmark(view, target, folder.as_deref(), title.as_deref()),
        Intent::FindBookmarks(query) => bookmarks::find_bookmarks(query),
        Intent::BookmarkFolder(name) => bookmarks::bookmark_folder(view, name),
        Intent::RecentBookmarks(count) => Ok(bookmarks::recent_bookmarks(*count)),
        Intent::IsBookmarked(target) => bookmarks::is_bookmarked(view, target),
        Intent::History { query, span } => history::history(view, query, *span, options),
        Intent::OpenFromHistory { query, span } => {
            history::open_from_history(view, query, *span, options)
        }
        Intent::Count(target) => questions::count(view, target),
        Intent::CountWindows => Ok(questions::count_windows(view)),
        Intent::CountEachWindow(target) => questions::count_each_window(view, target),
        Intent::CountBookmarks { folder } => {
            Ok(bookmarks::count_bookmarks(view, folder.as_deref()))
        }
        Intent::WhichWindow(target) => questions::which_window(view, target),
        Intent::WhichGroup(target) => questions::which_group(view, target),
        Intent::BusiestWindow { most } => Ok(questions::busiest_window(view, *most)),
        Intent::ListTabs(target) => questions::list(view, target),
        Intent::IsOpen(target) => questions::is_open(view, target),
        Intent::LastUsed(target) => questions::last_used(view, target),
        Intent::ListDuplicates { scope } => questions::list_duplicates(view, *scope),
        Intent::ListEngines => Ok(questions::list_engines(view)),
        Intent::Help => Ok(questions::help()),
        Intent::ListGroups => Ok(questions::list_groups(view)),
        Intent::DescribeGroup(which) => questions::describe_group(view, which),
        Intent::Browse(action, amount) => browse::browse(view, *action, *amount, options),
        // The background page answers these itself.
        Intent::Undo
        | Intent::UndoSeveral(_)
        | Intent::Reopen
        | Intent::LastClosed
        | Intent::StopListening
        | Intent::Yes
        | Intent::No => Ok(Step::default()),
    }
}

/// A step of one call.
pub(super) fn one_call(call: Call, reply: String, touched: Vec<i64>) -> Step {
    Step {
        calls: vec![call],
        reply,
        confirm: None,
        touched,
        sweep: false,
    }
}

/// Runs a step's calls on the simulated browser, so the next clause sees
/// their effect; answers each call's result.
pub fn simulate(sim: &MemoryBrowser, calls: &[Call]) -> Vec<Result<Value, ToolError>> {
    calls
        .iter()
        .map(|c| {
            tools::run_tool(sim, &c.tool, &c.args)
                .now_or_never()
                .unwrap_or_else(|| Err(ToolError::failed("the simulation did not finish")))
                .map(|out| out.result)
        })
        .collect()
}

/// The state a snapshot gives the simulation (windows may be missing in a hand-written STATE).
pub fn with_windows(mut state: State) -> State {
    for t in &state.tabs {
        if !state.windows.iter().any(|w| w.id == t.window_id) {
            let focused = state.windows.is_empty();
            state.windows.push(crate::tab_state::Window {
                id: t.window_id,
                focused,
                incognito: false,
            });
        }
    }
    state
}
