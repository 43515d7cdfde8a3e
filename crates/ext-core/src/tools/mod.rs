//! The tools: one function each, all running against a [`Browser`].
//!
//! A tool validates its arguments (see [`args`]), acts, and answers JSON
//! plus the undo steps that revert what it changed.

pub mod args;
mod browse;
mod groups;
mod lookup;
pub(crate) mod tabs;

use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::log::Call;
use crate::tab_state::{Group, Tab, Window};
pub use crate::text::clip;
use crate::undo::{Placement, UndoStep};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

pub use browse::{zoom_levels, zoom_range_percent, MAX_HISTORY_STEPS};
pub use tabs::normalize_url;

/// What a tool answers: its JSON result and how to revert it.
#[derive(Debug, Default)]
pub struct ToolOutput {
    pub result: Value,
    pub undo: Vec<UndoStep>,
}

impl ToolOutput {
    fn new(result: Value) -> Self {
        ToolOutput {
            result,
            undo: Vec::new(),
        }
    }
    fn with_undo(result: Value, undo: Vec<UndoStep>) -> Self {
        ToolOutput { result, undo }
    }
}

/// A tool as callers and language models see it.
pub struct ToolInfo {
    pub name: &'static str,
    pub description: &'static str,
    parameters: fn() -> Value,
}

impl ToolInfo {
    /// Its arguments' JSON schema.
    pub fn parameters(&self) -> Value {
        (self.parameters)()
    }
}

/// The one table of tools: each line gives a tool's name, its argument
/// type, the function that runs it and its description. From it come
/// [`TOOLS`] (names, descriptions, schemas), [`run_tool`] (the dispatcher)
/// and [`ToolCall`] (typed builders of planned calls).
macro_rules! tools {
    ($($name:ident($args:ty) => $run:path, $description:literal;)*) => {
        /// The 21 tools, then `browse` (the voice-browsing commands).
        pub const TOOLS: &[ToolInfo] = &[
            $(ToolInfo {
                name: stringify!($name),
                description: $description,
                parameters: parameters::<$args>,
            },)*
        ];

        /// Runs one tool by name (see [`run_tool`]).
        async fn dispatch<B: Browser>(
            b: &B,
            name: &str,
            args: &Value,
        ) -> ToolResult<ToolOutput> {
            match name {
                $(stringify!($name) => $run(b, parse::<$args>(name, args)?).await,)*
                _ => Err(ToolError::unknown(format!(
                    "There is no tool named '{}'. Tools: {}.",
                    clip(name, 60),
                    TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
                ))),
            }
        }

        /// A planned call of each tool, from its typed arguments:
        /// `Call::mute_tabs(MuteTabsArgs { .. })`.
        pub trait ToolCall {
            $(fn $name(args: $args) -> Call;)*
        }

        impl ToolCall for Call {
            $(fn $name(args: $args) -> Call {
                Call {
                    tool: stringify!($name).to_string(),
                    args: serde_json::to_value(args).unwrap_or_default(),
                }
            })*
        }
    };
}

tools! {
    list_tabs(args::ListTabsArgs) => tabs::list_tabs, "List open tabs, in every window or one, optionally only those whose title or URL contains all the query words.";
    switch_tab(args::TabIdArgs) => tabs::switch_tab, "Switch to a tab and focus its window.";
    close_tabs(args::TabIdsArgs) => tabs::close_tabs, "Close tabs. Refuses to close every tab of a window. Undoable.";
    close_duplicate_tabs(args::CloseDuplicateTabsArgs) => tabs::close_duplicate_tabs, "Close tabs showing the same URL (ignoring #fragments), keeping the active, else pinned, else oldest copy; with tabIds, only copies among those tabs. Pinned copies are never closed. Undoable.";
    group_tabs(args::GroupTabsArgs) => groups::group_tabs, "Put tabs in a new group with a title and color, or add them to an existing group. Undoable.";
    ungroup_tabs(args::UngroupTabsArgs) => groups::ungroup_tabs, "Take tabs (or every tab of a group) out of their groups. Undoable.";
    list_groups(args::WindowArgs) => groups::list_groups, "List tab groups with their tabs.";
    move_tabs(args::MoveTabsArgs) => tabs::move_tabs, "Move tabs to a position and/or another window. Undoable.";
    create_tab(args::CreateTabArgs) => tabs::create_tab, "Open a new tab, optionally at a URL, position or window.";
    reload_tabs(args::ReloadTabsArgs) => tabs::reload_tabs, "Reload tabs, optionally bypassing the cache.";
    discard_tabs(args::TabIdsArgs) => tabs::discard_tabs, "Unload tabs from memory without closing them (the active tab is skipped).";
    duplicate_tab(args::TabIdArgs) => tabs::duplicate_tab, "Duplicate a tab.";
    pin_tabs(args::PinTabsArgs) => tabs::pin_tabs, "Pin or unpin tabs. Undoable.";
    mute_tabs(args::MuteTabsArgs) => tabs::mute_tabs, "Mute or unmute tabs. Undoable.";
    collapse_group(args::CollapseGroupArgs) => groups::collapse_group, "Collapse or expand a tab group. Undoable.";
    update_group(args::UpdateGroupArgs) => groups::update_group, "Rename, recolor, collapse or expand a tab group. Undoable.";
    web_search(args::WebSearchArgs) => lookup::web_search, "Search the web with a named installed engine or the default one; results open in a new tab.";
    list_search_engines(args::NoArgs) => lookup::list_search_engines, "List the installed search engines.";
    search_bookmarks(args::SearchBookmarksArgs) => lookup::search_bookmarks, "Find bookmarks by words in their title or URL, or (no query) list the newest.";
    create_bookmark(args::CreateBookmarkArgs) => lookup::create_bookmark, "Bookmark a tab or URL, optionally into a named folder (created if missing).";
    search_history(args::SearchHistoryArgs) => lookup::search_history, "Search browsing history by text and time range.";
    browse(args::BrowseArgs) => browse::browse, "Act on the active tab: back, forward, reload, hard_reload, stop, scroll_up, scroll_down, page_up, page_down, top, bottom, zoom_in, zoom_out, zoom_reset, zoom_to, reader_view, exit_reader_view, pause_media, play_media, next_tab, previous_tab, new_tab, close_tab, new_window.";
}
/// Runs one tool by name. A changing call's undo also puts back what
/// Firefox changed on its own: the tab each window had selected (closing
/// or moving the selected tab selects another) and the look of groups
/// (selecting a tab in a collapsed group expands it).
pub async fn run_tool<B: Browser>(b: &B, name: &str, args: &Value) -> ToolResult<ToolOutput> {
    let before = Aside::of(b).await;
    let mut out = dispatch(b, name, args).await?;
    if !out.undo.is_empty() {
        let after = Aside::of(b).await;
        let reselect = before
            .selected
            .into_iter()
            .filter(|(window, tab)| after.selected.get(window) != Some(tab))
            .map(|(_, tab_id)| UndoStep::Select { tab_id });
        let relook = before
            .groups
            .into_iter()
            .filter(|g| after.groups.iter().any(|a| a.id == g.id && a != g))
            .map(|group| UndoStep::RestoreGroup { group });
        // First in the list, so that undo does them last: groups after
        // selection, as selecting can expand a group.
        let first: Vec<UndoStep> = relook.chain(reselect).collect();
        out.undo.splice(0..0, first);
    }
    Ok(out)
}

/// What a call can change as a side effect; empty if the browser cannot say.
struct Aside {
    /// Window → its selected tab.
    selected: std::collections::BTreeMap<i64, i64>,
    groups: Vec<Group>,
}

impl Aside {
    async fn of<B: Browser>(b: &B) -> Aside {
        Aside {
            selected: b
                .tabs()
                .await
                .unwrap_or_default()
                .iter()
                .filter(|t| t.active)
                .map(|t| (t.window_id, t.id))
                .collect(),
            groups: b.groups().await.unwrap_or_default(),
        }
    }
}

/// The OpenAI function-calling schema of one argument type.
fn parameters<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .with(|s| s.inline_subschemas = true)
        .into_generator();
    let mut schema = generator.into_root_schema_for::<T>().to_value();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object.remove("description");
        object.entry("properties").or_insert_with(|| json!({}));
    }
    schema
}

/// Every tool's schema, `{type: "function", function: {name, description, parameters}}`.
pub fn schemas() -> Vec<Value> {
    TOOLS
        .iter()
        .map(|t| {
            json!({
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters(),
                }
            })
        })
        .collect()
}

/// Arguments as a tool's type; absent or null arguments mean `{}`.
fn parse<T: DeserializeOwned>(tool: &str, args: &Value) -> ToolResult<T> {
    let args = match args {
        Value::Null => json!({}),
        Value::Object(_) => args.clone(),
        other => {
            return Err(ToolError::invalid(format!(
                "{tool}: arguments must be an object, not {}",
                json_kind(other)
            )))
        }
    };
    serde_json::from_value(args).map_err(|e| ToolError::invalid(format!("{tool}: {e}")))
}

fn json_kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

// ---- helpers shared by the tools ----

fn find_tab(tabs: &[Tab], id: i64) -> ToolResult<&Tab> {
    tabs.iter()
        .find(|t| t.id == id)
        .ok_or_else(|| ToolError::not_found(format!("No tab has id {id}.")))
}

/// The named tabs, each once, in the order given; all must exist.
fn find_tabs(tabs: &[Tab], ids: &[i64]) -> ToolResult<Vec<Tab>> {
    if ids.is_empty() {
        return Err(ToolError::invalid(
            "tabIds is empty: name at least one tab.",
        ));
    }
    let mut found: Vec<Tab> = Vec::with_capacity(ids.len());
    let mut missing = Vec::new();
    for &id in ids {
        match tabs.iter().find(|t| t.id == id) {
            Some(t) if !found.iter().any(|f| f.id == id) => found.push(t.clone()),
            Some(_) => {}
            None => missing.push(id.to_string()),
        }
    }
    if !missing.is_empty() {
        return Err(ToolError::not_found(format!(
            "No tab has id {}.",
            missing.join(", ")
        )));
    }
    Ok(found)
}

fn check_window(windows: &[Window], id: i64) -> ToolResult<()> {
    if windows.iter().any(|w| w.id == id) {
        Ok(())
    } else {
        Err(ToolError::not_found(format!("No window has id {id}.")))
    }
}

fn focused_window(windows: &[Window]) -> ToolResult<i64> {
    windows
        .iter()
        .find(|w| w.focused)
        .or_else(|| windows.first())
        .map(|w| w.id)
        .ok_or_else(|| ToolError::failed("Firefox has no open window."))
}

/// The active tab of the focused window.
async fn active_tab<B: Browser>(b: &B) -> ToolResult<Tab> {
    let window = focused_window(&b.windows().await?)?;
    b.tabs()
        .await?
        .into_iter()
        .find(|t| t.window_id == window && t.active)
        .ok_or_else(|| ToolError::not_found("The focused window has no active tab."))
}

fn find_group(groups: &[Group], id: i64) -> ToolResult<&Group> {
    groups
        .iter()
        .find(|g| g.id == id)
        .ok_or_else(|| ToolError::not_found(format!("No tab group has id {id}.")))
}

/// Where each tab is now, so that an undo can put it back.
fn placements(tabs: &[Tab], groups: &[Group]) -> Vec<Placement> {
    tabs.iter()
        .map(|t| Placement::of(t, groups.iter().find(|g| g.id == t.group_id)))
        .collect()
}

fn group_json(g: &Group, tabs: &[Tab]) -> Value {
    let mut v = serde_json::to_value(g).unwrap_or_else(|_| json!({}));
    let ids: Vec<i64> = tabs
        .iter()
        .filter(|t| t.group_id == g.id)
        .map(|t| t.id)
        .collect();
    v["tabIds"] = json!(ids);
    v
}

fn ids_of(tabs: &[Tab]) -> Vec<i64> {
    tabs.iter().map(|t| t.id).collect()
}

/// Fresh copies of the named tabs after a change (missing ones left out).
async fn reread<B: Browser>(b: &B, ids: &[i64]) -> ToolResult<Vec<Tab>> {
    let all = b.tabs().await?;
    Ok(ids
        .iter()
        .filter_map(|id| all.iter().find(|t| t.id == *id).cloned())
        .collect())
}
