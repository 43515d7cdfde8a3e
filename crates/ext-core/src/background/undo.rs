//! Undo through the background: the newest change, a named one, or the
//! newest few; the journal entry leaves storage before it is applied.

use super::Background;
use crate::browser::Browser;
use crate::error::ToolError;
use crate::log::LogEntry;
use crate::storage::Storage;
use crate::text::plural;
use crate::undo::UndoEntry;
use ext_protocol::answer::CommandAnswer;

impl<B: Browser, S: Storage> Background<B, S> {
    /// Reverts the newest change, or the one named.
    pub async fn undo(&self, id: Option<&str>) -> CommandAnswer {
        let _guard = self.busy.lock().await;
        if let Err(e) = self.ensure_loaded().await {
            return CommandAnswer::failed(e);
        }
        self.pending.take();
        self.enter_scope().await;
        self.undo_locked(id).await
    }

    /// "undo the last two changes": the newest `times` changes, newest
    /// first, stopping at the first that cannot be undone (what was undone
    /// before it stays undone, and the reply says both).
    pub(super) async fn undo_newest(&self, times: usize) -> CommandAnswer {
        let mut replies = Vec::new();
        let mut last = CommandAnswer::default();
        for done in 0..times {
            let answer = self.undo_locked(None).await;
            if !answer.ok {
                if done == 0 {
                    return answer;
                }
                replies.push(format!("Then: {}", answer.reply));
                break;
            }
            replies.push(answer.reply.clone());
            last = answer;
        }
        CommandAnswer {
            reply: replies.join(" "),
            ..last
        }
    }

    pub(super) async fn undo_locked(&self, id: Option<&str>) -> CommandAnswer {
        let before = self.journal.borrow().clone();
        let taken = self.journal.borrow_mut().take_in(id, self.private.get());
        // The entry leaves the stored journal before it is applied: if the
        // save fails nothing is undone, and an undo that was applied is
        // never offered again after a restart.
        let outcome = match taken {
            Ok(entry) => match self.save_journal().await {
                Ok(()) => {
                    let mut journal = self.journal.take();
                    let reverted = journal.revert(&self.scoped(), &entry).await;
                    self.journal.replace(journal);
                    // Ids of reopened tabs, and what could not be reverted.
                    let _ = self.save_journal().await;
                    reverted.map(|report| (entry, report))
                }
                Err(e) => {
                    self.journal.replace(before);
                    Err(ToolError::failed(format!(
                        "{} Nothing was undone.",
                        e.message
                    )))
                }
            },
            Err(e) => Err(e),
        };
        let (answer, reply, error) = match outcome {
            Ok((entry, report)) => {
                let mut reply = format!("Undid {}", entry.label);
                if report.reopened > 0 {
                    reply += &format!(": reopened {}", plural(report.reopened, "tab"));
                }
                match report.missing {
                    0 => {}
                    1 => reply += " (1 tab or group no longer exists)",
                    n => reply += &format!(" ({n} tabs or groups no longer exist)"),
                }
                reply.push('.');
                if !report.not_reopened.is_empty() {
                    reply += &format!(
                        " Firefox does not let add-ons reopen {} of them: {}.",
                        report.not_reopened.len(),
                        report.not_reopened.join(", ")
                    );
                }
                (
                    CommandAnswer {
                        ok: true,
                        reply: reply.clone(),
                        undo_id: Some(entry.id),
                        report: serde_json::to_value(&report).ok(),
                        ..Default::default()
                    },
                    reply,
                    None,
                )
            }
            Err(e) => (
                CommandAnswer {
                    ok: false,
                    reply: e.message.clone(),
                    error: Some(e.clone()),
                    ..Default::default()
                },
                e.message.clone(),
                Some(e),
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

    /// Adds `steps` to the undo step `into` if it can still be undone,
    /// else records them as a new one.
    pub(super) async fn record_undo_into(
        &self,
        into: Option<String>,
        label: &str,
        steps: Vec<crate::undo::UndoStep>,
        time: f64,
    ) -> Option<String> {
        if let Some(id) = into {
            if steps.is_empty() {
                return Some(id);
            }
            if self.journal.borrow_mut().extend(&id, &steps) {
                let _ = self.save_journal().await;
                return Some(id);
            }
        }
        self.record_undo(label, steps, time).await
    }

    pub(super) async fn record_undo(
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
            private: self.private.get(),
            steps,
        });
        // A failed save leaves a notice; the change can still be undone
        // until the extension restarts.
        let _ = self.save_journal().await;
        Some(id)
    }
}
