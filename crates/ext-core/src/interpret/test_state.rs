//! Tab states for the interpreter's unit tests.

use crate::tab_state::State;

/// One window of tabs, given as `(url, title)` with ids 1, 2, …, and
/// blue groups with ids 7, 8, … (no tab in them).
pub fn tabs(tabs: &[(&str, &str)], groups: &[&str]) -> State {
    let tabs: Vec<_> = (1..)
        .zip(tabs)
        .map(|(id, (url, title))| {
            serde_json::json!({"id": id, "windowId": 1, "index": id, "url": url, "title": title})
        })
        .collect();
    let groups: Vec<_> = (7..)
        .zip(groups)
        .map(|(id, title)| serde_json::json!({"id": id, "windowId": 1, "title": title, "color": "blue"}))
        .collect();
    serde_json::from_value(serde_json::json!({"tabs": tabs, "groups": groups})).unwrap()
}
