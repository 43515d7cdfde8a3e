//! move_tabs against the in-memory browser: within and across windows,
//! as one block, to a new window, and put back when a move fails part way.

mod common;

use common::*;
use ext_core::Browser;
use futures::executor::block_on;
use serde_json::json;

#[test]
fn move_tabs_within_and_across_windows_and_undo() {
    let f = Fixture::new();
    let before = f.layout();
    let r = f.tool("move_tabs", json!({"tabIds": [6, 5], "index": 1}));
    let moved: Vec<i64> = r["result"]["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["index"].as_i64().unwrap())
        .collect();
    assert_eq!(moved, [1, 2]);
    f.tool("move_tabs", json!({"tabIds": [2], "windowId": 2}));
    let s = f.state();
    let moved = s.tabs.iter().find(|t| t.id == 2).unwrap();
    assert_eq!((moved.window_id, moved.index, moved.group_id), (2, 2, -1));
    // All of a window's tabs into a new one would only replace it.
    assert_eq!(
        f.fails("move_tabs", json!({"tabIds": [7, 8, 2], "newWindow": true})),
        "REFUSED"
    );
    // All of them into another window: Firefox closes the emptied one, and
    // undo opens it again with its tabs where they were.
    let moved_twice = f.layout();
    let r = f.tool("move_tabs", json!({"tabIds": [7, 8, 2], "windowId": 1}));
    assert_eq!(r["result"]["closedWindows"], json!([2]));
    assert_eq!(f.state().windows.len(), 1);
    f.undo();
    assert_eq!(f.layout(), moved_twice);
    assert!(
        f.state().windows.iter().any(|w| w.id == 1 && w.focused),
        "the window in front stays in front"
    );
    f.undo();
    f.undo();
    assert_eq!(f.layout(), before);
}

#[test]
fn tabs_moved_to_their_right_stay_one_block_in_order() {
    let f = Fixture::new();
    let order = |f: &Fixture| -> Vec<i64> {
        let s = f.state();
        let mut w: Vec<_> = s.tabs.iter().filter(|t| t.window_id == 1).collect();
        w.sort_by_key(|t| t.index);
        w.iter().map(|t| t.id).collect()
    };
    // Taken from the left of where they go, one at a time: each removal
    // must not shift the ones already placed.
    f.tool("move_tabs", json!({"tabIds": [2, 3], "index": 3}));
    assert_eq!(order(&f), [1, 4, 5, 2, 3, 6]);
    // Unpinned tabs asked in front of a pinned one go right after it.
    f.tool("move_tabs", json!({"tabIds": [6, 5], "index": 0}));
    assert_eq!(order(&f), [1, 6, 5, 4, 2, 3]);
    // A pinned tab among them stays in front; the others still go where
    // they were asked.
    f.tool("move_tabs", json!({"tabIds": [1, 4], "index": -1}));
    assert_eq!(order(&f), [1, 6, 5, 2, 3, 4]);
}

#[test]
fn move_tabs_to_a_new_window_and_undo_closes_it() {
    let f = Fixture::new();
    let before = f.layout();
    let windows = f.state().windows.len();
    let r = f.tool("move_tabs", json!({"tabIds": [5, 2], "newWindow": true}));
    let made = r["result"]["windowId"].as_i64().unwrap();
    let s = f.state();
    assert_eq!(s.windows.len(), windows + 1);
    assert!(s.windows.iter().any(|w| w.id == made && w.focused));
    let there: Vec<i64> = s
        .tabs
        .iter()
        .filter(|t| t.window_id == made)
        .map(|t| t.id)
        .collect();
    assert_eq!(there, [5, 2], "in the order given");
    f.undo();
    assert_eq!(f.layout(), before, "back in place, grouped as before");
    assert_eq!(
        f.state().windows.len(),
        windows,
        "the emptied window closed"
    );

    // A tab the person put in the new window since stays there, with its window.
    let r = f.tool("move_tabs", json!({"tabIds": [3], "newWindow": true}));
    let made = r["result"]["windowId"].as_i64().unwrap();
    block_on(f.bg.browser().move_tab(4, Some(made), -1)).unwrap();
    f.undo();
    let s = f.state();
    assert_eq!(s.tabs.iter().find(|t| t.id == 3).unwrap().window_id, 1);
    assert_eq!(s.tabs.iter().find(|t| t.id == 4).unwrap().window_id, made);

    assert_eq!(
        f.fails("move_tabs", json!({"tabIds": [7, 8], "newWindow": true})),
        "REFUSED",
        "every tab of window 2"
    );
    assert_eq!(
        f.fails(
            "move_tabs",
            json!({"tabIds": [2], "newWindow": true, "windowId": 2})
        ),
        "INVALID_ARGS"
    );
}

#[test]
fn a_move_that_fails_part_way_puts_back_what_it_moved() {
    let f = Fixture::new();
    let before = f.layout();
    let windows = f.state().windows.len();
    // Within a window: the third of three moves fails.
    f.bg.browser().fail_move_after(2);
    let r = f.send(json!({"type": "tool", "name": "move_tabs",
                          "args": {"tabIds": [2, 3, 5], "index": -1}}));
    assert_eq!(r["error"]["code"], "EXECUTION_FAILED", "{r}");
    let message = r["error"]["message"].as_str().unwrap();
    assert!(message.contains("put back"), "{message}");
    assert_eq!(
        f.layout(),
        before,
        "every tab where it was, grouped as before"
    );
    // To a new window: the window opens, the second tab's move fails.
    f.bg.browser().fail_move_after(0);
    let r = f.send(json!({"type": "tool", "name": "move_tabs",
                          "args": {"tabIds": [5, 2], "newWindow": true}}));
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(f.layout(), before);
    assert_eq!(
        f.state().windows.len(),
        windows,
        "the emptied window closed"
    );
    // Nothing is left to undo.
    let r = f.send(json!({"type": "undo"}));
    assert_eq!(r["ok"], false, "{r}");
}
