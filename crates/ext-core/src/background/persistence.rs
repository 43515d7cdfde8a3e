//! What the background page keeps in storage, the action log, the undo
//! journal and the settings: loaded once, saved after each change, and
//! kept aside rather than lost when unreadable.

use super::{Background, LOG_KEY, SETTINGS_KEY, UNDO_KEY};
use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::log::book::{self, LogIndex, LogWrite};
use crate::log::{compacted, LogBook, LogEntry, Retention};
use crate::settings::Settings;
use crate::storage::Storage;
use crate::stored;
use crate::text::clip;
use crate::undo::UndoJournal;
use serde_json::Value;

impl<B: Browser, S: Storage> Background<B, S> {
    pub(super) async fn ensure_loaded(&self) -> ToolResult<()> {
        let _reading = self.loading.lock().await;
        if self.loaded.get() {
            return Ok(());
        }
        // Unreadable stored data (a corrupt write, a format this version
        // does not know) is kept aside raw and the user is told; the
        // extension goes on with defaults. Storage that cannot be read at
        // all is tried again on the next request.
        let mut read = true;
        if !self.load_log().await {
            read = false;
        }
        match self.storage.load(SETTINGS_KEY).await {
            Ok(Some(v)) => {
                // A newer version's fields are read around, and kept.
                let shape = serde_json::to_value(Settings::default()).unwrap_or_default();
                match serde_json::from_value::<Settings>(stored::known_only(&v, &shape)) {
                    Ok(settings) => {
                        *self.settings.borrow_mut() = settings;
                        *self.settings_stored.borrow_mut() = v;
                    }
                    Err(e) => self.keep_unreadable(SETTINGS_KEY, "settings", v, e).await,
                }
            }
            Ok(None) => {}
            Err(_) => read = false,
        }
        match self.storage.load(UNDO_KEY).await {
            Ok(Some(v)) => match serde_json::from_value::<UndoJournal>(v.clone()) {
                Ok(journal) => *self.journal.borrow_mut() = journal,
                Err(e) => self.keep_unreadable(UNDO_KEY, "undo history", v, e).await,
            },
            Ok(None) => {}
            Err(_) => read = false,
        }
        self.loaded.set(read);
        if read {
            Ok(())
        } else {
            Err(ToolError::failed(
                "Could not read the saved settings, history and undo journal; nothing was changed. Try again.",
            ))
        }
    }

    /// Reads the log's pages (an older version's single array is turned
    /// into pages); false when storage could not be read at all.
    pub(super) async fn load_log(&self) -> bool {
        let stored = match self.storage.load(LOG_KEY).await {
            Ok(Some(v)) => v,
            Ok(None) => return true,
            Err(_) => return false,
        };
        if stored.is_array() {
            match serde_json::from_value::<Vec<LogEntry>>(stored.clone()) {
                Ok(entries) => {
                    let (log, writes) = LogBook::from_legacy(entries);
                    *self.log.borrow_mut() = log;
                    self.write_log(writes).await;
                }
                Err(e) => self.keep_unreadable(LOG_KEY, "action log", stored, e).await,
            }
            return true;
        }
        let index = match serde_json::from_value::<LogIndex>(stored.clone()) {
            Ok(index) => index,
            Err(e) => {
                self.keep_unreadable(LOG_KEY, "action log", stored, e).await;
                return true;
            }
        };
        let mut pages = Vec::with_capacity(index.pages.len());
        for number in index.pages {
            let key = book::page_key(number);
            let entries = match self.storage.load(&key).await {
                Ok(Some(v)) => match serde_json::from_value::<Vec<LogEntry>>(v.clone()) {
                    Ok(entries) => entries,
                    Err(e) => {
                        self.keep_unreadable(&key, "action log", v, e).await;
                        Vec::new()
                    }
                },
                Ok(None) => Vec::new(),
                Err(_) => return false,
            };
            pages.push((number, entries));
        }
        *self.log.borrow_mut() = LogBook::from_pages(pages);
        true
    }

    pub(super) async fn append_log(&self, mut entry: LogEntry) {
        if self.private.get() {
            // What is done in a private window leaves no trace.
            return;
        }
        // Answers carry results whole; the log keeps them short.
        entry.calls = entry.calls.iter().map(compacted).collect();
        let retention = {
            let settings = self.settings.borrow();
            Retention {
                now: self.browser.now_ms(),
                max_age_ms: settings.log_max_age_ms(),
                max_entries: settings.log_max_entries,
            }
        };
        let writes = self.log.borrow_mut().append(entry, retention);
        self.write_log(writes).await;
    }

    /// Makes the log's writes in order; a failure stops them (so the index
    /// never names a page that was not written) and leaves a notice.
    pub(super) async fn write_log(&self, writes: Vec<LogWrite>) {
        for write in writes {
            let done = match &write.value {
                Some(value) => self.save(&write.key, "action log", value).await.is_ok(),
                None => self.storage.remove(&write.key).await.is_ok(),
            };
            if !done {
                break;
            }
        }
    }

    pub(super) async fn save_journal(&self) -> ToolResult<()> {
        let value =
            serde_json::to_value(self.journal.borrow().for_storage()).unwrap_or(Value::Null);
        self.save(UNDO_KEY, "undo history", &value).await
    }

    /// Saves `value` under `key`; a failure is kept as a notice for the
    /// user and answered. A frozen key is never written.
    pub(super) async fn save(&self, key: &str, what: &str, value: &Value) -> ToolResult<()> {
        if self.frozen.borrow().iter().any(|k| k == key) {
            return Err(ToolError::failed(format!(
                "The saved {what} could not be read nor kept aside, so it is not overwritten."
            )));
        }
        match self.storage.save(key, value).await {
            Ok(()) => Ok(()),
            Err(e) => {
                let message = format!("Could not save the {what}: {e}");
                self.notice(&message);
                Err(ToolError::failed(message))
            }
        }
    }

    pub(super) fn notice(&self, message: &str) {
        let mut notices = self.notices.borrow_mut();
        if !notices.iter().any(|n| n == message) {
            notices.push(clip(message, 300));
        }
        // The latest few are enough to act on.
        let excess = notices.len().saturating_sub(5);
        notices.drain(..excess);
    }

    /// Keeps stored data this version cannot read under its own key (the
    /// first copy is never overwritten) and tells the user; if it cannot
    /// be kept aside, the original key is frozen instead.
    pub(super) async fn keep_unreadable(
        &self,
        key: &str,
        what: &str,
        raw: Value,
        error: serde_json::Error,
    ) {
        let backup = stored::backup_key(key);
        let kept = match self.storage.load(&backup).await {
            Ok(Some(_)) => true,
            Ok(None) => self.storage.save(&backup, &raw).await.is_ok(),
            Err(_) => false,
        };
        if kept {
            self.notice(&format!(
                "Your saved {what} could not be read ({}); it is kept as '{backup}' in the \
                 extension's storage, and a fresh one is used.",
                clip(&error.to_string(), 120)
            ));
        } else {
            self.frozen.borrow_mut().push(key.to_string());
            self.notice(&format!(
                "Your saved {what} could not be read, nor kept aside; it is left as it is \
                 and nothing new is saved over it."
            ));
        }
    }
}
