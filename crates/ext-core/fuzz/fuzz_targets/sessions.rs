//! Sequences of messages to the background, as a bad day brings them:
//! typed and spoken commands, tool calls with odd arguments, undo, yes/no,
//! voice_*, model_*, llm_* and unknown messages, settings patches, a
//! browser whose tabs change between calls (closed, moved, opened, focus
//! moving), three windows (one private) and storage that starts or stops
//! failing. Always an answer with `ok`, never a panic; a window the fuzz
//! did not empty never goes; the private window's tabs are never touched
//! by commands from normal windows.
#![no_main]

use ext_core::browser::{BrowserError, BrowserResult};
use ext_core::memory::MemoryBrowser;
use ext_core::storage::{MemoryStorage, Storage};
use ext_core::tab_state::{State, Tab, Window};
use ext_core::tools::TOOLS;
use ext_core::Background;
use ext_protocol::Request;
use libfuzzer_sys::fuzz_target;
use serde_json::{json, Value};
use std::cell::Cell;

/// Storage whose reads and writes fail while `failing` is set.
#[derive(Default)]
struct FlakyStorage {
    inner: MemoryStorage,
    failing: Cell<bool>,
}

impl Storage for FlakyStorage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>> {
        if self.failing.get() {
            return Err(BrowserError("NS_ERROR_FILE_CORRUPTED".into()));
        }
        self.inner.load(key).await
    }
    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()> {
        if self.failing.get() {
            return Err(BrowserError("QuotaExceededError".into()));
        }
        self.inner.save(key, value).await
    }
    async fn remove(&self, key: &str) -> BrowserResult<()> {
        if self.failing.get() {
            return Err(BrowserError("QuotaExceededError".into()));
        }
        self.inner.remove(key).await
    }
}

const PRIVATE_WINDOW: i64 = 3;

fn state() -> State {
    let sites = [
        ("https://www.youtube.com/watch?v=", "Cats - YouTube"),
        ("https://github.com/openai/whisper", "openai/whisper - GitHub"),
        ("https://mail.google.com/mail/u/0/", "Inbox - Gmail"),
        ("https://en.wikipedia.org/wiki/Rust", "Rust - Wikipedia"),
        ("https://docs.rs/candle-core", "candle_core - Rust"),
    ];
    let mut tabs = Vec::new();
    for id in 1..=15i64 {
        let window = 1 + id % 3;
        let (url, title) = sites[id as usize % sites.len()];
        tabs.push(Tab {
            id,
            window_id: window,
            index: id,
            url: format!("{url}{id}"),
            title: title.into(),
            active: id <= 3,
            pinned: id == 4,
            muted: false,
            audible: id == 5,
            discarded: false,
            group_id: -1,
            last_accessed: id as f64 * 1000.0,
            highlighted: false,
            incognito: window == PRIVATE_WINDOW,
        });
    }
    State {
        now: 1_780_000_000_000.0,
        windows: (1..=3)
            .map(|id| Window {
                id,
                focused: id == 1,
                incognito: id == PRIVATE_WINDOW,
            })
            .collect(),
        tabs,
        ..State::default()
    }
}

const PHRASES: &[&str] = &[
    "close all the youtube tabs",
    "group my tabs by site",
    "switch to gmail",
    "mute everything except this",
    "undo",
    "yes",
    "no",
    "close duplicate tabs",
    "pin this tab",
    "ungroup all tabs",
    "close the other tabs",
    "reload all tabs",
    "discard background tabs",
    "bookmark this",
    "open wikipedia dot org",
    "hey fox, hey fox, close tabs",
    "close tabs 1 through 9",
    "",
    "scroll down",
    "move this tab to a new window",
];

/// Reads bytes as choices; past the end, zeros.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn next(&mut self) -> u8 {
        let (first, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        *first
    }
    fn pick<'b, T>(&mut self, from: &'b [T]) -> &'b T {
        &from[self.next() as usize % from.len()]
    }
    fn id(&mut self) -> Value {
        match self.next() % 8 {
            0 => json!(-1),
            1 => json!("3"),
            2 => json!(1e300),
            3 => json!(null),
            _ => json!(self.next() % 24),
        }
    }
    fn value(&mut self) -> Value {
        match self.next() % 9 {
            0 => json!(null),
            1 => json!(true),
            2 => self.id(),
            3 => json!([self.id(), self.id(), self.id()]),
            4 => json!(self.pick(PHRASES)),
            5 => json!("x".repeat(self.next() as usize * 300)),
            6 => json!({ "a": self.id() }),
            7 => json!(*self.pick(&["red", "blue", "nope", "", "Grey"])),
            _ => json!(-0.5),
        }
    }
}

fn private_tabs(bg: &Background<MemoryBrowser, FlakyStorage>) -> Vec<(i64, String)> {
    let mut tabs: Vec<(i64, String)> = bg
        .browser()
        .state()
        .tabs
        .iter()
        .filter(|t| t.incognito)
        .map(|t| (t.id, t.url.clone()))
        .collect();
    tabs.sort();
    tabs
}

fuzz_target!(|data: &[u8]| {
    let mut bytes = Bytes(data);
    let bg = Background::new(MemoryBrowser::new(state()), FlakyStorage::default());
    let private_before = private_tabs(&bg);
    let mut next_tab = 100;
    for _ in 0..24 {
        if bytes.0.is_empty() {
            break;
        }
        let message = match bytes.next() % 9 {
            0 | 1 => Some(json!({ "type": "command", "text": bytes.pick(PHRASES), "spoken": bytes.next() % 2 == 0, "wake_unsure": bytes.next() % 4 == 0 })),
            2 => {
                let tool = bytes.pick(TOOLS).name;
                let mut args = serde_json::Map::new();
                for key in ["tabIds", "tabId", "windowId", "groupId", "title", "color", "url", "query", "index", "collapsed"] {
                    if bytes.next() % 3 == 0 {
                        args.insert(key.into(), bytes.value());
                    }
                }
                Some(json!({ "type": "tool", "name": tool, "args": args }))
            }
            3 => Some(json!({ "type": "undo" })),
            4 => {
                // Any message type, with odd fields.
                let kind = bytes.pick(Request::TYPES);
                Some(json!({ "type": kind, "text": bytes.value(), "model": bytes.value(),
                    "settings": { "confirmThreshold": bytes.value(), "llm": { "baseUrl": bytes.value() } },
                    "llm": bytes.value(), "limit": bytes.value(), "audio_url": bytes.value() }))
            }
            5 => {
                // The user changes the tabs between two calls.
                let choice = bytes.next();
                let pick = bytes.next();
                bg.browser().with_state(|s| {
                    let normal: Vec<i64> =
                        s.tabs.iter().filter(|t| !t.incognito).map(|t| t.id).collect();
                    match choice % 4 {
                        0 => {
                            // Close a tab its window can spare.
                            if let Some(&id) = normal.get(pick as usize % normal.len().max(1)) {
                                let window = s.tabs.iter().find(|t| t.id == id).map(|t| t.window_id);
                                if s.tabs.iter().filter(|t| Some(t.window_id) == window).count() > 1 {
                                    s.tabs.retain(|t| t.id != id);
                                }
                            }
                        }
                        1 => {
                            next_tab += 1;
                            let window = 1 + i64::from(pick % 2);
                            s.tabs.push(Tab {
                                id: next_tab,
                                window_id: window,
                                index: i64::MAX,
                                url: format!("https://news.example/{next_tab}"),
                                title: format!("News {next_tab}"),
                                active: false,
                                pinned: false,
                                muted: false,
                                audible: false,
                                discarded: false,
                                group_id: -1,
                                last_accessed: 0.0,
                                highlighted: false,
                                incognito: false,
                            });
                        }
                        2 => {
                            for w in &mut s.windows {
                                w.focused = w.id == 1 + i64::from(pick % 2);
                            }
                        }
                        _ => {
                            // Move a tab to the other normal window.
                            if let Some(&id) = normal.get(pick as usize % normal.len().max(1)) {
                                let from = s.tabs.iter().find(|t| t.id == id).map(|t| t.window_id);
                                if s.tabs.iter().filter(|t| Some(t.window_id) == from).count() > 1 {
                                    if let Some(t) = s.tabs.iter_mut().find(|t| t.id == id) {
                                        t.window_id = 3 - t.window_id;
                                        t.group_id = -1;
                                    }
                                }
                            }
                        }
                    }
                });
                None
            }
            6 => {
                bg.storage().failing.set(bytes.next() % 2 == 0);
                None
            }
            7 => Some(json!({ "type": *bytes.pick(&["log", "clear_log", "settings", "schemas"]) })),
            _ => Some(json!({ "type": "set_settings", "settings": { "confirmThreshold": bytes.value(), "logMaxEntries": bytes.value() } })),
        };
        let before = bg.browser().state();
        if let Some(message) = message {
            let answer = futures::executor::block_on(bg.handle(message.clone()));
            assert!(answer.get("ok").is_some_and(Value::is_boolean), "{message} → {answer}");
        }
        let state = bg.browser().state();
        // Only a merge empties a window: every tab it had lives on.
        for window in before.windows.iter().map(|w| w.id) {
            if !state.tabs.iter().any(|t| t.window_id == window) {
                let closed: Vec<i64> = before
                    .tabs
                    .iter()
                    .filter(|t| t.window_id == window)
                    .map(|t| t.id)
                    .filter(|id| !state.tabs.iter().any(|t| t.id == *id))
                    .collect();
                assert!(closed.is_empty(), "window {window} was emptied, closing {closed:?}");
            }
        }
        assert_eq!(private_tabs(&bg), private_before, "a private tab was touched");
    }
});
