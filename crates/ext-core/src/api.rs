//! The background page's message API (see docs/tools.md): one entry point,
//! [`Background::handle`], that answers every message with JSON and never
//! panics, whatever it is sent.

use crate::browser::Browser;
use crate::error::{ToolError, ToolResult};
use crate::log::{prune, LogEntry, LoggedCall};
use crate::storage::Storage;
use crate::tools::{self, clip};
use crate::undo::{UndoEntry, UndoJournal};
use futures::lock::Mutex;
use serde_json::{json, Value};
use std::cell::{Cell, RefCell};

const LOG_KEY: &str = "actionLog";
const UNDO_KEY: &str = "undoJournal";
/// Longest command text accepted; longer text is refused, not cut.
pub const MAX_COMMAND_CHARS: usize = 10_000;

pub struct Background<B, S> {
    browser: B,
    storage: S,
    log: RefCell<Vec<LogEntry>>,
    journal: RefCell<UndoJournal>,
    loaded: Cell<bool>,
    seq: Cell<u64>,
    /// Changing work runs one message at a time, so that undo records and
    /// tab indices are never interleaved.
    busy: Mutex<()>,
}

impl<B: Browser, S: Storage> Background<B, S> {
    pub fn new(browser: B, storage: S) -> Self {
        Background {
            browser,
            storage,
            log: RefCell::default(),
            journal: RefCell::default(),
            loaded: Cell::new(false),
            seq: Cell::new(0),
            busy: Mutex::new(()),
        }
    }

    pub fn browser(&self) -> &B {
        &self.browser
    }

    /// Answers one message. Never fails: problems become `{ok: false, error}`.
    pub async fn handle(&self, msg: Value) -> Value {
        match self.dispatch(&msg).await {
            Ok(answer) => answer,
            Err(e) => json!({ "ok": false, "error": e.to_json() }),
        }
    }

    async fn dispatch(&self, msg: &Value) -> ToolResult<Value> {
        let Some(obj) = msg.as_object() else {
            return Err(ToolError::invalid(
                "A message must be an object with a 'type'.",
            ));
        };
        let kind = match obj.get("type") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => return Err(ToolError::invalid("A message's 'type' must be a string.")),
            None => return Err(ToolError::invalid("The message has no 'type'.")),
        };
        match kind {
            "schemas" => Ok(json!({ "ok": true, "schemas": tools::schemas() })),
            "tool" => {
                let name = match obj.get("name") {
                    Some(Value::String(s)) => s.clone(),
                    _ => {
                        return Err(ToolError::invalid(
                            "A tool message needs 'name', a string.",
                        ))
                    }
                };
                let args = obj.get("args").cloned().unwrap_or(Value::Null);
                Ok(self.run_tool(&name, &args).await)
            }
            "command" => {
                let text = match obj.get("text") {
                    Some(Value::String(s)) => s.clone(),
                    _ => {
                        return Err(ToolError::invalid(
                            "A command message needs 'text', a string.",
                        ))
                    }
                };
                Ok(self.run_command(&text).await)
            }
            "undo" => {
                let id = match obj.get("undo_id") {
                    None | Some(Value::Null) => None,
                    Some(Value::String(s)) => Some(s.clone()),
                    Some(_) => return Err(ToolError::invalid("'undo_id' must be a string.")),
                };
                Ok(self.undo(id.as_deref()).await)
            }
            "log" => {
                self.ensure_loaded().await;
                let limit = obj
                    .get("limit")
                    .and_then(Value::as_u64)
                    .unwrap_or(crate::log::MAX_ENTRIES as u64) as usize;
                let entries: Vec<LogEntry> =
                    self.log.borrow().iter().rev().take(limit).cloned().collect();
                Ok(json!({ "ok": true, "entries": entries }))
            }
            "clear_log" => {
                let _guard = self.busy.lock().await;
                self.ensure_loaded().await;
                self.log.borrow_mut().clear();
                self.save_log().await;
                Ok(json!({ "ok": true }))
            }
            other => Err(ToolError::unknown(format!(
                "Unknown message type '{}'. Types: tool, command, undo, schemas, log, clear_log.",
                clip(other, 40)
            ))),
        }
    }

    fn next_id(&self, prefix: &str) -> String {
        let n = self.seq.get() + 1;
        self.seq.set(n);
        format!("{prefix}-{:x}-{n}", self.browser.now_ms() as u64)
    }

    /// Runs one tool, records its undo steps and logs it.
    pub async fn run_tool(&self, name: &str, args: &Value) -> Value {
        let _guard = self.busy.lock().await;
        self.ensure_loaded().await;
        let outcome = tools::run_tool(&self.browser, name, args).await;
        let time = self.browser.now_ms();
        match outcome {
            Ok(out) => {
                let undo_id = self.record_undo(name, out.undo, time).await;
                let reply = describe(name, &out.result);
                self.append_log(LogEntry {
                    id: self.next_id("log"),
                    time,
                    command: None,
                    calls: vec![LoggedCall::new(name, args, &out.result)],
                    reply,
                    error: None,
                    undo_id: undo_id.clone(),
                })
                .await;
                let mut answer = json!({ "ok": true, "result": out.result });
                if let Some(id) = undo_id {
                    answer["undo_id"] = json!(id);
                }
                answer
            }
            Err(e) => {
                self.append_log(LogEntry {
                    id: self.next_id("log"),
                    time,
                    command: None,
                    calls: vec![LoggedCall::new(name, args, &Value::Null)],
                    reply: e.message.clone(),
                    error: Some(e.to_json()),
                    undo_id: None,
                })
                .await;
                json!({ "ok": false, "error": e.to_json() })
            }
        }
    }

    /// A typed or spoken command. The offline interpreter arrives with its
    /// own issue; until then every command is answered `UNKNOWN_COMMAND`.
    pub async fn run_command(&self, text: &str) -> Value {
        let _guard = self.busy.lock().await;
        self.ensure_loaded().await;
        let error = if text.trim().is_empty() {
            ToolError::invalid("The command is empty: say or type what to do.")
        } else if text.chars().count() > MAX_COMMAND_CHARS {
            ToolError::invalid(format!(
                "The command is longer than {MAX_COMMAND_CHARS} characters."
            ))
        } else {
            ToolError::unknown(format!(
                "I can't interpret '{}' yet; run a tool directly.",
                clip(text.trim(), 80)
            ))
        };
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time: self.browser.now_ms(),
            command: Some(clip(text, 500)),
            calls: vec![],
            reply: error.message.clone(),
            error: Some(error.to_json()),
            undo_id: None,
        })
        .await;
        json!({ "ok": false, "reply": error.message, "calls": [], "error": error.to_json() })
    }

    /// Reverts the newest change, or the one named.
    pub async fn undo(&self, id: Option<&str>) -> Value {
        let _guard = self.busy.lock().await;
        self.ensure_loaded().await;
        let mut journal = self.journal.take();
        let outcome = match journal.take(id) {
            Ok(entry) => journal
                .revert(&self.browser, &entry)
                .await
                .map(|report| (entry, report)),
            Err(e) => Err(e),
        };
        self.journal.replace(journal);
        self.save_journal().await;
        let (answer, reply, error) = match outcome {
            Ok((entry, report)) => {
                let mut reply = format!("Undid {}", entry.label);
                if report.reopened > 0 {
                    reply += &format!(": reopened {} tab(s)", report.reopened);
                }
                if report.missing > 0 {
                    reply += &format!(
                        " ({} tab(s) or group(s) no longer exist)",
                        report.missing
                    );
                }
                reply.push('.');
                (
                    json!({ "ok": true, "reply": reply, "undo_id": entry.id, "report": report }),
                    reply,
                    None,
                )
            }
            Err(e) => (
                json!({ "ok": false, "reply": e.message, "error": e.to_json() }),
                e.message.clone(),
                Some(e.to_json()),
            ),
        };
        self.append_log(LogEntry {
            id: self.next_id("log"),
            time: self.browser.now_ms(),
            command: Some("undo".to_string()),
            calls: vec![],
            reply,
            error,
            undo_id: None,
        })
        .await;
        answer
    }

    async fn record_undo(
        &self,
        label: &str,
        steps: Vec<crate::undo::UndoStep>,
        time: f64,
    ) -> Option<String> {
        if steps.is_empty() {
            return None;
        }
        let id = self.next_id("undo");
        self.journal.borrow_mut().push(UndoEntry {
            id: id.clone(),
            time,
            label: label.to_string(),
            steps,
        });
        self.save_journal().await;
        Some(id)
    }

    async fn ensure_loaded(&self) {
        if self.loaded.replace(true) {
            return;
        }
        // Unreadable stored data (an older format, a corrupt write) starts
        // afresh rather than stopping the extension.
        if let Ok(Some(v)) = self.storage.load(LOG_KEY).await {
            if let Ok(entries) = serde_json::from_value::<Vec<LogEntry>>(v) {
                *self.log.borrow_mut() = entries;
            }
        }
        if let Ok(Some(v)) = self.storage.load(UNDO_KEY).await {
            if let Ok(journal) = serde_json::from_value::<UndoJournal>(v) {
                *self.journal.borrow_mut() = journal;
            }
        }
    }

    async fn append_log(&self, entry: LogEntry) {
        {
            let mut log = self.log.borrow_mut();
            log.push(entry);
            prune(&mut log, self.browser.now_ms());
        }
        self.save_log().await;
    }

    async fn save_log(&self) {
        let value = serde_json::to_value(&*self.log.borrow()).unwrap_or(Value::Null);
        let _ = self.storage.save(LOG_KEY, &value).await;
    }

    async fn save_journal(&self) {
        let value = serde_json::to_value(&*self.journal.borrow()).unwrap_or(Value::Null);
        let _ = self.storage.save(UNDO_KEY, &value).await;
    }
}

/// A short sentence about what a tool did, for the log and notifications.
pub fn describe(tool: &str, result: &Value) -> String {
    let n = |key: &str| result.get(key).and_then(Value::as_u64).unwrap_or(0);
    let title = |key: &str| {
        result
            .get(key)
            .and_then(|v| v.get("title"))
            .and_then(Value::as_str)
            .map(|t| clip(t, 60))
            .unwrap_or_default()
    };
    match tool {
        "list_tabs" => format!("{} tab(s) open.", n("count")),
        "switch_tab" => format!("Switched to '{}'.", title("tab")),
        "close_tabs" | "close_duplicate_tabs" => format!("Closed {} tab(s).", n("count")),
        "group_tabs" => format!("Grouped tabs in '{}'.", title("group")),
        "ungroup_tabs" => format!("Ungrouped {} tab(s).", n("count")),
        "list_groups" => format!("{} group(s).", n("count")),
        "discard_tabs" => format!("Unloaded {} tab(s).", n("count")),
        "reload_tabs" => format!("Reloaded {} tab(s).", n("count")),
        "search_bookmarks" => format!("{} bookmark(s) found.", n("count")),
        "search_history" => format!("{} history item(s) found.", n("count")),
        "create_bookmark" => format!("Bookmarked '{}'.", title("bookmark")),
        "web_search" => format!(
            "Searched with {}.",
            result.get("engine").and_then(Value::as_str).unwrap_or("?")
        ),
        other => format!("Done: {other}."),
    }
}
