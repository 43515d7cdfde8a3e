//! Stored data on a bad day: unreadable settings, log or journal are kept
//! aside and the user is told; a newer version's fields survive; a save
//! that fails is reported; an undo whose removal cannot be saved is not
//! applied (so it is never offered again after a restart).

mod common;

use common::*;
use ext_core::browser::{BrowserError, BrowserResult};
use ext_core::storage::{MemoryStorage, Storage};
use ext_core::{Background, MemoryBrowser};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::cell::Cell;

fn ask<S: Storage>(bg: &Background<MemoryBrowser, S>, message: Value) -> Value {
    block_on(bg.handle(message))
}

fn storage_with(items: &[(&str, Value)]) -> MemoryStorage {
    let storage = MemoryStorage::default();
    for (key, value) in items {
        block_on(storage.save(key, value)).unwrap();
    }
    storage
}

#[test]
fn unreadable_stored_data_is_kept_aside_and_the_user_told() {
    let corrupt_settings = json!({ "confirmThreshold": "many" });
    let corrupt_log = json!("{\"truncated");
    let corrupt_journal = json!({ "entries": 7 });
    let storage = storage_with(&[
        ("settings", corrupt_settings.clone()),
        ("actionLog", corrupt_log.clone()),
        ("undoJournal", corrupt_journal.clone()),
    ]);
    let bg = Background::new(MemoryBrowser::new(sample_state()), storage);
    let answer = ask(&bg, json!({ "type": "settings" }));
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(
        answer["settings"]["confirmThreshold"], 10,
        "defaults meanwhile"
    );
    let notices = answer["notices"].as_array().expect("notices").clone();
    assert_eq!(notices.len(), 3, "{notices:?}");
    assert!(notices[0]
        .as_str()
        .unwrap()
        .contains("actionLog.unreadable"));
    // The extension goes on: a command runs, and is logged and undoable.
    let r = ask(
        &bg,
        json!({ "type": "tool", "name": "close_tabs", "args": { "tabIds": [4] } }),
    );
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(ask(&bg, json!({ "type": "undo" }))["ok"], true);
    let (_, storage) = bg.into_parts();
    for (key, raw) in [
        ("settings.unreadable", &corrupt_settings),
        ("actionLog.unreadable", &corrupt_log),
        ("undoJournal.unreadable", &corrupt_journal),
    ] {
        assert_eq!(
            block_on(storage.load(key)).unwrap().as_ref(),
            Some(raw),
            "{key} kept raw"
        );
    }
    // A second bad start does not overwrite the first copy kept aside.
    block_on(storage.save("actionLog", &json!(42))).unwrap();
    let bg = Background::new(MemoryBrowser::new(sample_state()), storage);
    ask(&bg, json!({ "type": "log" }));
    let (_, storage) = bg.into_parts();
    assert_eq!(
        block_on(storage.load("actionLog.unreadable")).unwrap(),
        Some(corrupt_log)
    );
}

#[test]
fn a_newer_versions_settings_are_read_and_kept() {
    let storage = storage_with(&[(
        "settings",
        json!({ "confirmThreshold": 5, "agentMode": "always", "llm": { "model": "m", "topK": 3 } }),
    )]);
    let bg = Background::new(MemoryBrowser::new(sample_state()), storage);
    let answer = ask(&bg, json!({ "type": "settings" }));
    assert_eq!(answer["settings"]["confirmThreshold"], 5, "{answer}");
    assert_eq!(answer["settings"]["llm"]["model"], "m");
    assert!(answer.get("notices").is_none(), "{answer}");
    let saved = ask(
        &bg,
        json!({ "type": "set_settings", "settings": { "logMaxEntries": 50 } }),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    let (_, storage) = bg.into_parts();
    let stored = block_on(storage.load("settings")).unwrap().unwrap();
    assert_eq!(stored["agentMode"], "always", "{stored}");
    assert_eq!(stored["llm"]["topK"], 3);
    assert_eq!(stored["logMaxEntries"], 50);
}

/// Storage whose saves fail while `failing` is set.
#[derive(Default)]
struct FullStorage {
    inner: MemoryStorage,
    failing: Cell<bool>,
}

impl Storage for FullStorage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>> {
        self.inner.load(key).await
    }
    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()> {
        if self.failing.get() {
            return Err(BrowserError("QuotaExceededError: storage is full".into()));
        }
        self.inner.save(key, value).await
    }
    async fn remove(&self, key: &str) -> BrowserResult<()> {
        if self.failing.get() {
            return Err(BrowserError("QuotaExceededError: storage is full".into()));
        }
        self.inner.remove(key).await
    }
}

#[test]
fn failed_saves_are_reported_and_an_unsaved_undo_is_not_applied() {
    let bg = Background::new(MemoryBrowser::new(sample_state()), FullStorage::default());
    let r = ask(
        &bg,
        json!({ "type": "tool", "name": "close_tabs", "args": { "tabIds": [4, 5] } }),
    );
    assert_eq!(r["ok"], true, "{r}");
    let open = |bg: &Background<MemoryBrowser, FullStorage>| bg.browser().state().tabs.len();
    assert_eq!(open(&bg), 6);

    // Storage fills up: the undo cannot be recorded as done, so it is not done.
    let (browser, storage) = bg.into_parts();
    storage.failing.set(true);
    let bg = Background::new(browser, storage);
    let refused = ask(&bg, json!({ "type": "undo" }));
    assert_eq!(refused["ok"], false, "{refused}");
    assert!(
        refused["reply"]
            .as_str()
            .unwrap()
            .contains("Nothing was undone"),
        "{refused}"
    );
    assert_eq!(open(&bg), 6, "no tab reopened");
    let settings = ask(&bg, json!({ "type": "settings" }));
    assert!(
        settings["notices"][0]
            .as_str()
            .unwrap()
            .contains("storage is full"),
        "{settings}"
    );
    let refused = ask(
        &bg,
        json!({ "type": "set_settings", "settings": { "confirmThreshold": 3 } }),
    );
    assert_eq!(refused["ok"], false, "{refused}");

    // Space again: the undo works, once; after a restart it is not offered.
    let (browser, storage) = bg.into_parts();
    storage.failing.set(false);
    let bg = Background::new(browser, storage);
    assert_eq!(ask(&bg, json!({ "type": "undo" }))["ok"], true);
    assert_eq!(open(&bg), 8);
    let (browser, storage) = bg.into_parts();
    let bg = Background::new(browser, storage);
    let again = ask(&bg, json!({ "type": "undo" }));
    assert_eq!(again["ok"], false, "{again}");
    assert_eq!(open(&bg), 8, "nothing reopened twice");
}

/// Storage that counts the bytes each save writes.
#[derive(Default)]
struct CountingStorage {
    inner: MemoryStorage,
    written: Cell<usize>,
}

impl Storage for CountingStorage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>> {
        self.inner.load(key).await
    }
    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()> {
        self.written
            .set(self.written.get() + key.len() + value.to_string().len());
        self.inner.save(key, value).await
    }
    async fn remove(&self, key: &str) -> BrowserResult<()> {
        self.inner.remove(key).await
    }
}

#[test]
fn the_log_is_appended_not_rewritten_and_an_older_log_is_kept() {
    // An older version kept the log as one array under "actionLog".
    let now = sample_state().now;
    let old: Vec<Value> = (0..300)
        .map(|i| json!({ "id": format!("old-{i}"), "time": now - 1000.0, "command": format!("close tab {i}"), "calls": [], "reply": "Closed 1 tab(s)." }))
        .collect();
    let storage = CountingStorage::default();
    block_on(storage.inner.save("actionLog", &json!(old))).unwrap();
    let bg = Background::new(MemoryBrowser::new(sample_state()), storage);
    let command = json!({ "type": "tool", "name": "list_tabs", "args": {} });
    ask(&bg, command.clone());
    let (browser, storage) = bg.into_parts();

    // A restart reads the old entries and the new one back.
    let bg = Background::new(browser, storage);
    let log = ask(&bg, json!({ "type": "log", "limit": 1000 }));
    let entries = log["entries"].as_array().expect("entries");
    assert_eq!(entries.len(), 301, "{log}");
    assert_eq!(entries[300]["id"], "old-0");

    // One more command writes about a page, not the ~30 kB log.
    let whole = log["entries"].to_string().len();
    let (browser, storage) = bg.into_parts();
    let written_before = storage.written.get();
    let bg = Background::new(browser, storage);
    ask(&bg, command);
    let (_, storage) = bg.into_parts();
    let written = storage.written.get() - written_before;
    assert!(
        written * 5 < whole,
        "a command wrote {written} bytes; the log is {whole}"
    );
    assert!(storage
        .inner
        .keys()
        .iter()
        .any(|k| k.starts_with("actionLog.page.")));
}
