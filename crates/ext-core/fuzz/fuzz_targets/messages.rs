//! Any JSON message to the background, against the in-memory browser:
//! always an answer with `ok`, never a panic.
#![no_main]

use ext_core::memory::MemoryBrowser;
use ext_core::tab_state::{State, Tab, Window};
use ext_core::storage::MemoryStorage;
use ext_core::Background;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(msg) = serde_json::from_slice::<serde_json::Value>(data) else {
        return;
    };
    let tabs = (1..=4)
        .map(|id| Tab {
            id,
            window_id: 1,
            index: id - 1,
            url: format!("https://site{id}.example/"),
            title: format!("Site {id}"),
            active: id == 1,
            pinned: false,
            muted: false,
            audible: false,
            discarded: false,
            group_id: -1,
            last_accessed: 0.0,
            highlighted: false,
            incognito: false,
        })
        .collect();
    let state = State {
        windows: vec![Window { id: 1, focused: true, incognito: false }],
        tabs,
        ..State::default()
    };
    let bg = Background::new(MemoryBrowser::new(state), MemoryStorage::default());
    let answer = futures::executor::block_on(bg.handle(msg));
    assert!(answer.get("ok").is_some_and(|v| v.is_boolean()));
});
