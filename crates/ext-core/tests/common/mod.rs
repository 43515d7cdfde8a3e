//! A browser state to test against, and helpers to run messages.

#![allow(dead_code)]

use ext_core::memory::MemoryBrowser;
use ext_core::storage::MemoryStorage;
use ext_core::tab_state::{Bookmark, Group, HistoryItem, SearchEngine, State, Tab, Window};
use ext_core::Background;
use futures::executor::block_on;
use serde_json::{json, Value};

pub const NOW: f64 = 1_780_000_000_000.0;
pub const HOUR: f64 = 3_600_000.0;

pub fn tab(id: i64, window: i64, index: i64, url: &str, title: &str) -> Tab {
    Tab {
        id,
        window_id: window,
        index,
        url: url.into(),
        title: title.into(),
        active: false,
        pinned: false,
        muted: false,
        audible: false,
        discarded: false,
        group_id: -1,
        last_accessed: NOW - id as f64 * 1000.0,
        highlighted: false,
        incognito: false,
    }
}

/// Window 1: a pinned mail tab, YouTube ×2 (one in the "Videos" group with
/// Vimeo), docs, Rust book (active); window 2: maps (active) and news.
pub fn sample_state() -> State {
    let mut tabs = vec![
        tab(
            1,
            1,
            0,
            "https://mail.google.com/mail/u/0/",
            "Inbox - Gmail",
        ),
        tab(
            2,
            1,
            1,
            "https://www.youtube.com/watch?v=a",
            "Cats - YouTube",
        ),
        tab(3, 1, 2, "https://vimeo.com/1", "Dogs on Vimeo"),
        tab(
            4,
            1,
            3,
            "https://www.youtube.com/watch?v=b",
            "Birds - YouTube",
        ),
        tab(5, 1, 4, "https://docs.rs/candle-core", "candle_core - Rust"),
        tab(6, 1, 5, "https://doc.rust-lang.org/book/", "The Rust Book"),
        tab(7, 2, 0, "https://www.google.com/maps", "Google Maps"),
        tab(8, 2, 1, "https://news.ycombinator.com/", "Hacker News"),
    ];
    tabs[0].pinned = true;
    tabs[1].group_id = 201;
    tabs[2].group_id = 201;
    tabs[5].active = true;
    tabs[6].active = true;
    tabs[1].audible = true;
    State {
        now: NOW,
        windows: vec![
            Window {
                id: 1,
                focused: true,
                incognito: false,
            },
            Window {
                id: 2,
                focused: false,
                incognito: false,
            },
        ],
        tabs,
        groups: vec![Group {
            id: 201,
            window_id: 1,
            title: "Videos".into(),
            color: ext_core::tab_state::Color::Red,
            collapsed: false,
        }],
        bookmarks: vec![
            Bookmark {
                id: "b1".into(),
                title: "Candle docs".into(),
                url: "https://docs.rs/candle-core".into(),
                folder: "Rust".into(),
            },
            Bookmark {
                id: "b2".into(),
                title: "Easy pasta recipes".into(),
                url: "https://cooking.example/pasta".into(),
                folder: "Cooking".into(),
            },
        ],
        history: vec![
            HistoryItem {
                url: "https://webgpu.example/intro".into(),
                title: "WebGPU intro".into(),
                last_visit_time: NOW - 3.0 * 24.0 * HOUR,
                visit_count: 2,
            },
            HistoryItem {
                url: "https://webgpu.example/compute".into(),
                title: "WebGPU compute shaders".into(),
                last_visit_time: NOW - HOUR,
                visit_count: 1,
            },
            HistoryItem {
                url: "https://rust.example/async".into(),
                title: "Async Rust".into(),
                last_visit_time: NOW - 2.0 * HOUR,
                visit_count: 5,
            },
        ],
        search_engines: vec![
            SearchEngine {
                name: "Google".into(),
                is_default: true,
            },
            SearchEngine {
                name: "Bing".into(),
                is_default: false,
            },
            SearchEngine {
                name: "Wikipedia (en)".into(),
                is_default: false,
            },
        ],
        pages: Default::default(),
        paused_media: Vec::new(),
        bookmark_count: None,
    }
}

pub struct Fixture {
    pub bg: Background<MemoryBrowser, MemoryStorage>,
}

impl Fixture {
    pub fn new() -> Self {
        Self::with(sample_state())
    }

    pub fn with(state: State) -> Self {
        Fixture {
            bg: Background::new(MemoryBrowser::new(state), MemoryStorage::default()),
        }
    }

    pub fn send(&self, msg: Value) -> Value {
        block_on(self.bg.handle(msg))
    }

    /// Runs a tool and answers its result; panics with the error if it failed.
    pub fn tool(&self, name: &str, args: Value) -> Value {
        let answer = self.send(json!({"type": "tool", "name": name, "args": args}));
        assert_eq!(answer["ok"], true, "{name} {answer}");
        answer
    }

    /// Runs a tool that must fail and answers its error code.
    pub fn fails(&self, name: &str, args: Value) -> String {
        let answer = self.send(json!({"type": "tool", "name": name, "args": args}));
        assert_eq!(answer["ok"], false, "{name} should fail: {answer}");
        let message = answer["error"]["message"].as_str().unwrap_or("");
        assert!(!message.is_empty(), "an error says why: {answer}");
        answer["error"]["code"].as_str().unwrap().to_string()
    }

    pub fn undo(&self) -> Value {
        let answer = self.send(json!({"type": "undo"}));
        assert_eq!(answer["ok"], true, "undo: {answer}");
        answer
    }

    pub fn state(&self) -> State {
        self.bg.browser().state()
    }

    /// (id, window, index, pinned, group title) of every tab, in order.
    pub fn layout(&self) -> Vec<(String, i64, i64, bool, String)> {
        let s = self.state();
        s.tabs
            .iter()
            .map(|t| {
                let group = s
                    .groups
                    .iter()
                    .find(|g| g.id == t.group_id)
                    .map(|g| format!("{}:{:?}", g.title, g.color))
                    .unwrap_or_default();
                (t.url.clone(), t.window_id, t.index, t.pinned, group)
            })
            .collect()
    }
}

/// What "back in place" means for one tab: window, index, URL, pinned,
/// muted, its group's look, and whether it is its window's active tab (the
/// loaded state aside).
pub type Spot = (
    i64,
    i64,
    String,
    bool,
    bool,
    Option<(String, String, bool)>,
    bool,
);

pub fn snapshot(s: &State) -> Vec<Spot> {
    let mut tabs: Vec<&Tab> = s.tabs.iter().collect();
    tabs.sort_by_key(|t| (t.window_id, t.index));
    tabs.iter()
        .map(|t| {
            let group = s
                .groups
                .iter()
                .find(|g| g.id == t.group_id)
                .map(|g| (g.title.clone(), format!("{:?}", g.color), g.collapsed));
            (
                t.window_id,
                t.index,
                t.url.clone(),
                t.pinned,
                t.muted,
                group,
                t.active,
            )
        })
        .collect()
}
