//! Private windows: a command given in a normal window never sees or
//! touches private tabs; one given in a private window touches only
//! private tabs; nothing done in a private window is logged or stored.

mod common;

use common::*;
use ext_core::storage::{MemoryStorage, Storage};
use ext_core::tab_state::{State, Tab, Window};
use ext_core::{Background, MemoryBrowser};
use futures::executor::block_on;
use serde_json::{json, Value};

/// A normal window (1) and a private one (2), both with YouTube and
/// Wikipedia; `private_focused` says which has the focus.
fn state(private_focused: bool) -> State {
    let private = |t: Tab| Tab {
        incognito: true,
        ..t
    };
    State {
        now: NOW,
        windows: vec![
            Window {
                id: 1,
                focused: !private_focused,
                incognito: false,
            },
            Window {
                id: 2,
                focused: private_focused,
                incognito: true,
            },
        ],
        tabs: vec![
            tab(
                1,
                1,
                0,
                "https://www.youtube.com/watch?v=a",
                "Cats - YouTube",
            ),
            tab(
                2,
                1,
                1,
                "https://en.wikipedia.org/wiki/Rust",
                "Rust - Wikipedia",
            ),
            private(tab(
                3,
                2,
                0,
                "https://www.youtube.com/watch?v=b",
                "Secret - YouTube",
            )),
            private(tab(
                4,
                2,
                1,
                "https://en.wikipedia.org/wiki/Gift",
                "Gift ideas - Wikipedia",
            )),
        ],
        ..State::default()
    }
}

fn ask(bg: &Background<MemoryBrowser, MemoryStorage>, message: Value) -> Value {
    block_on(bg.handle(message))
}

fn open_ids(bg: &Background<MemoryBrowser, MemoryStorage>) -> Vec<i64> {
    let mut ids: Vec<i64> = bg.browser().state().tabs.iter().map(|t| t.id).collect();
    ids.sort();
    ids
}

fn focus(bg: &Background<MemoryBrowser, MemoryStorage>, window: i64) {
    bg.browser().with_state(|s| {
        for w in &mut s.windows {
            w.focused = w.id == window;
        }
    });
}

/// Everything stored, as one string.
fn stored(storage: &MemoryStorage) -> String {
    storage
        .keys()
        .iter()
        .map(|k| format!("{k}={}", block_on(storage.load(k)).unwrap().unwrap()))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_normal_windows_command_never_sees_private_tabs() {
    let bg = Background::new(MemoryBrowser::new(state(false)), MemoryStorage::default());
    let r = ask(
        &bg,
        json!({ "type": "command", "text": "close all youtube tabs" }),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(open_ids(&bg), [2, 3, 4]);
    let listed = ask(
        &bg,
        json!({ "type": "tool", "name": "list_tabs", "args": {} }),
    );
    assert_eq!(listed["result"]["count"], 1, "{listed}");
    assert!(!listed.to_string().contains("Secret"), "{listed}");
    // A private tab's id is as unknown as a closed one's.
    let r = ask(
        &bg,
        json!({ "type": "tool", "name": "close_tabs", "args": { "tabIds": [2, 4] } }),
    );
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(open_ids(&bg), [2, 3, 4]);
    // The log has what the normal window did.
    let log = ask(&bg, json!({ "type": "log" }));
    assert!(log.to_string().contains("close all youtube tabs"), "{log}");
}

#[test]
fn a_private_windows_command_touches_only_private_tabs_and_leaves_no_trace() {
    let bg = Background::new(MemoryBrowser::new(state(true)), MemoryStorage::default());
    let r = ask(
        &bg,
        json!({ "type": "command", "text": "close all youtube tabs" }),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(open_ids(&bg), [1, 2, 4]);
    let r = ask(
        &bg,
        json!({ "type": "command", "text": "switch to gift ideas" }),
    );
    assert_eq!(r["ok"], true, "{r}");

    // Nothing of it is logged or stored.
    let log = ask(&bg, json!({ "type": "log" }));
    assert_eq!(log["entries"], json!([]), "{log}");

    // Undo from a normal window does not undo what the private one did.
    focus(&bg, 1);
    let r = ask(&bg, json!({ "type": "undo" }));
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(open_ids(&bg), [1, 2, 4]);

    // From the private window it does, in the private window.
    focus(&bg, 2);
    for _ in ["switch to gift ideas", "close all youtube tabs"] {
        let r = ask(&bg, json!({ "type": "undo" }));
        assert_eq!(r["ok"], true, "{r}");
    }
    let state = bg.browser().state();
    let back = state
        .tabs
        .iter()
        .find(|t| t.url.contains("v=b"))
        .expect("reopened");
    assert_eq!((back.window_id, back.incognito), (2, true));

    let (_, storage) = bg.into_parts();
    let everything = stored(&storage);
    for secret in ["Secret", "v=b", "Gift", "youtube"] {
        assert!(
            !everything.contains(secret),
            "{secret} stored:\n{everything}"
        );
    }
}

#[test]
fn a_private_windows_gone_window_comes_back_private() {
    let bg = Background::new(MemoryBrowser::new(state(true)), MemoryStorage::default());
    let r = ask(
        &bg,
        json!({ "type": "tool", "name": "close_tabs", "args": { "tabIds": [3] } }),
    );
    assert_eq!(r["ok"], true, "{r}");
    // The user closes the private window and opens another.
    bg.browser().with_state(|s| {
        s.windows.retain(|w| w.id != 2);
        s.tabs.retain(|t| t.window_id != 2);
        for w in &mut s.windows {
            w.focused = false;
        }
        s.windows.push(Window {
            id: 9,
            focused: true,
            incognito: true,
        });
        s.tabs.push(Tab {
            incognito: true,
            ..tab(20, 9, 0, "about:privatebrowsing", "Private Browsing")
        });
    });
    let r = ask(&bg, json!({ "type": "undo" }));
    assert_eq!(r["ok"], true, "{r}");
    let state = bg.browser().state();
    let back: Vec<&Tab> = state
        .tabs
        .iter()
        .filter(|t| t.url.contains("v=b"))
        .collect();
    assert_eq!(back.len(), 1, "{state:?}");
    assert!(back[0].incognito);
    assert!(state
        .windows
        .iter()
        .any(|w| w.id == back[0].window_id && w.incognito));
}
