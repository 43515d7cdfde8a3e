//! Any text, against a small browser: planning never panics and always
//! answers something to say.
#![no_main]

use ext_core::interpret::{plan, Options};
use ext_core::tab_state::{State, Tab, Window};
use libfuzzer_sys::fuzz_target;

fn state() -> State {
    let tab = |id: i64, index: i64, url: &str, title: &str| Tab {
        id,
        window_id: 1 + id % 2,
        index,
        url: url.into(),
        title: title.into(),
        active: index == 0,
        pinned: id == 1,
        muted: false,
        audible: id == 3,
        discarded: false,
        group_id: if id == 4 { 7 } else { -1 },
        last_accessed: id as f64,
        highlighted: false,
        incognito: false,
    };
    State {
        now: 1_780_000_000_000.0,
        windows: vec![Window { id: 1, focused: true, incognito: false }, Window { id: 2, focused: false, incognito: false }],
        tabs: vec![
            tab(1, 0, "https://mail.google.com/", "Inbox - Gmail"),
            tab(2, 0, "https://www.youtube.com/watch?v=1", "Cats - YouTube"),
            tab(3, 1, "https://www.youtube.com/watch?v=2", "Dogs - YouTube"),
            tab(4, 1, "https://docs.rs/candle", "candle - Rust"),
            tab(5, 2, "about:blank", ""),
        ],
        groups: vec![ext_core::tab_state::Group {
            id: 7,
            window_id: 2,
            title: "Docs".into(),
            color: ext_core::tab_state::Color::Blue,
            collapsed: false,
        }],
        ..State::default()
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let p = plan(&text, &state(), &Options::default());
    assert!(p.special.is_some() || !p.reply.is_empty() || !p.calls.is_empty());
});
