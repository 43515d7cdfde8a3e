//! What a tool call did, in a short sentence for the log and
//! notifications.

use crate::text::{clip, plural};
use serde_json::Value;

/// A short sentence about what a tool did, for the log and notifications.
pub fn describe(tool: &str, result: &Value) -> String {
    let n = |key: &str| result.get(key).and_then(Value::as_u64).unwrap_or(0) as usize;
    let title = |key: &str| {
        result
            .get(key)
            .and_then(|v| v.get("title"))
            .and_then(Value::as_str)
            .map(|t| clip(t, 60))
            .unwrap_or_default()
    };
    match tool {
        "list_tabs" => format!("{} open.", plural(n("count"), "tab")),
        "switch_tab" => format!("Switched to '{}'.", title("tab")),
        "close_tabs" | "close_duplicate_tabs" => format!("Closed {}.", plural(n("count"), "tab")),
        "group_tabs" => match result.get("groups").and_then(Value::as_array).map(Vec::len) {
            Some(windows) if windows > 1 => format!(
                "Grouped tabs in '{}', one group in each of {windows} windows (tabs stay in their window).",
                title("group")
            ),
            _ => format!("Grouped tabs in '{}'.", title("group")),
        },
        "ungroup_tabs" => format!("Ungrouped {}.", plural(n("count"), "tab")),
        "list_groups" => format!("{}.", plural(n("count"), "group")),
        "discard_tabs" => format!("Unloaded {}.", plural(n("count"), "tab")),
        "reload_tabs" => format!("Reloaded {}.", plural(n("count"), "tab")),
        "search_bookmarks" => format!("{} found.", plural(n("count"), "bookmark")),
        "search_history" => format!("{} found.", plural(n("count"), "history item")),
        "create_bookmark" => format!("Bookmarked '{}'.", title("bookmark")),
        "web_search" => format!(
            "Searched with {}.",
            result.get("engine").and_then(Value::as_str).unwrap_or("?")
        ),
        other => format!("Done: {other}."),
    }
}

/// What a query's results say, for the reply.
pub(super) fn summarize(tool: &str, result: &Value) -> Option<String> {
    let list = |key: &str| {
        result
            .get(key)
            .and_then(Value::as_array)
            .cloned()
            .unwrap_or_default()
    };
    let titles = |items: &[Value]| {
        items
            .iter()
            .take(5)
            .map(|i| {
                let t = i
                    .get("title")
                    .and_then(Value::as_str)
                    .filter(|t| !t.is_empty());
                let u = i.get("url").and_then(Value::as_str).unwrap_or("");
                format!("'{}'", clip(t.unwrap_or(u), 60))
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    match tool {
        "search_history" | "search_bookmarks" => {
            let items = list(if tool == "search_history" {
                "items"
            } else {
                "bookmarks"
            });
            Some(if items.is_empty() {
                "none found.".into()
            } else {
                format!(
                    "{}{}.",
                    titles(&items),
                    if items.len() > 5 {
                        format!(" and {} more", items.len() - 5)
                    } else {
                        String::new()
                    }
                )
            })
        }
        _ => None,
    }
}
