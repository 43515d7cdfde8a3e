//! The tools: one function each, all running against a [`Browser`].
//!
//! A tool validates its arguments (see [`args`]), acts, and answers JSON
//! plus the undo steps that revert what it changed.

pub mod args;
mod browse;
mod groups;
mod lookup;
mod tabs;

use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::model::{Group, Tab, Window};
use crate::undo::{Placement, UndoStep};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

pub use browse::zoom_levels;
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

pub struct ToolInfo {
    pub name: &'static str,
    pub description: &'static str,
    parameters: fn() -> Value,
}

macro_rules! tool {
    ($name:literal, $args:ty, $description:literal) => {
        ToolInfo {
            name: $name,
            description: $description,
            parameters: parameters::<$args>,
        }
    };
}

/// The 21 tools, then `browse` (the voice-browsing commands).
pub const TOOLS: &[ToolInfo] = &[
    tool!("list_tabs", args::ListTabsArgs, "List open tabs, in every window or one, optionally only those whose title or URL contains all the query words."),
    tool!("switch_tab", args::TabIdArgs, "Switch to a tab and focus its window."),
    tool!("close_tabs", args::TabIdsArgs, "Close tabs. Refuses to close every tab of a window. Undoable."),
    tool!("close_duplicate_tabs", args::WindowArgs, "Close tabs showing the same URL (ignoring #fragments), keeping the active, else pinned, else oldest copy. Pinned copies are never closed. Undoable."),
    tool!("group_tabs", args::GroupTabsArgs, "Put tabs in a new group with a title and color, or add them to an existing group. Undoable."),
    tool!("ungroup_tabs", args::UngroupTabsArgs, "Take tabs (or every tab of a group) out of their groups. Undoable."),
    tool!("list_groups", args::WindowArgs, "List tab groups with their tabs."),
    tool!("move_tabs", args::MoveTabsArgs, "Move tabs to a position and/or another window. Undoable."),
    tool!("create_tab", args::CreateTabArgs, "Open a new tab, optionally at a URL, position or window."),
    tool!("reload_tabs", args::ReloadTabsArgs, "Reload tabs, optionally bypassing the cache."),
    tool!("discard_tabs", args::TabIdsArgs, "Unload tabs from memory without closing them (the active tab is skipped)."),
    tool!("duplicate_tab", args::TabIdArgs, "Duplicate a tab."),
    tool!("pin_tabs", args::PinTabsArgs, "Pin or unpin tabs. Undoable."),
    tool!("mute_tabs", args::MuteTabsArgs, "Mute or unmute tabs. Undoable."),
    tool!("collapse_group", args::CollapseGroupArgs, "Collapse or expand a tab group. Undoable."),
    tool!("update_group", args::UpdateGroupArgs, "Rename, recolor, collapse or expand a tab group. Undoable."),
    tool!("web_search", args::WebSearchArgs, "Search the web with a named installed engine or the default one; results open in a new tab."),
    tool!("list_search_engines", args::NoArgs, "List the installed search engines."),
    tool!("search_bookmarks", args::SearchBookmarksArgs, "Find bookmarks by words in their title or URL."),
    tool!("create_bookmark", args::CreateBookmarkArgs, "Bookmark a tab or URL, optionally into a named folder (created if missing)."),
    tool!("search_history", args::SearchHistoryArgs, "Search browsing history by text and time range."),
    tool!("browse", args::BrowseArgs, "Act on the active tab: back, forward, reload, hard_reload, stop, scroll_up, scroll_down, page_up, page_down, top, bottom, zoom_in, zoom_out, zoom_reset, next_tab, previous_tab, new_tab, close_tab."),
];

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
                    "parameters": (t.parameters)(),
                }
            })
        })
        .collect()
}

/// Runs one tool by name.
pub async fn run_tool<B: Browser>(b: &B, name: &str, args: &Value) -> ToolResult<ToolOutput> {
    match name {
        "list_tabs" => tabs::list_tabs(b, parse(name, args)?).await,
        "switch_tab" => tabs::switch_tab(b, parse(name, args)?).await,
        "close_tabs" => tabs::close_tabs(b, parse(name, args)?).await,
        "close_duplicate_tabs" => tabs::close_duplicate_tabs(b, parse(name, args)?).await,
        "move_tabs" => tabs::move_tabs(b, parse(name, args)?).await,
        "create_tab" => tabs::create_tab(b, parse(name, args)?).await,
        "reload_tabs" => tabs::reload_tabs(b, parse(name, args)?).await,
        "discard_tabs" => tabs::discard_tabs(b, parse(name, args)?).await,
        "duplicate_tab" => tabs::duplicate_tab(b, parse(name, args)?).await,
        "pin_tabs" => tabs::pin_tabs(b, parse(name, args)?).await,
        "mute_tabs" => tabs::mute_tabs(b, parse(name, args)?).await,
        "group_tabs" => groups::group_tabs(b, parse(name, args)?).await,
        "ungroup_tabs" => groups::ungroup_tabs(b, parse(name, args)?).await,
        "list_groups" => groups::list_groups(b, parse(name, args)?).await,
        "collapse_group" => groups::collapse_group(b, parse(name, args)?).await,
        "update_group" => groups::update_group(b, parse(name, args)?).await,
        "web_search" => lookup::web_search(b, parse(name, args)?).await,
        "list_search_engines" => {
            parse::<args::NoArgs>(name, args)?;
            lookup::list_search_engines(b).await
        }
        "search_bookmarks" => lookup::search_bookmarks(b, parse(name, args)?).await,
        "create_bookmark" => lookup::create_bookmark(b, parse(name, args)?).await,
        "search_history" => lookup::search_history(b, parse(name, args)?).await,
        "browse" => browse::browse(b, parse(name, args)?).await,
        _ => Err(ToolError::unknown(format!(
            "There is no tool named '{}'. Tools: {}.",
            clip(name, 60),
            TOOLS.iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        ))),
    }
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

/// At most `max` characters of `s`, for echoing user input in messages.
pub fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_string()
    } else {
        let mut out: String = s.chars().take(max).collect();
        out.push('…');
        out
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
