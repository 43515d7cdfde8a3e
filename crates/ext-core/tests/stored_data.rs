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
