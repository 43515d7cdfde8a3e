//! What the background page posts to a connected popup (port "popup") or
//! options page (port "options").

use crate::answer::VoiceStatus;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The name a page connects with.
pub const POPUP: &str = "popup";
pub const OPTIONS: &str = "options";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToPage {
    /// A voice event ([`crate::worker::FromWorker`] as the background
    /// keeps it: stamped `at_ms`, a command with its `answer`), or, on
    /// connecting, where listening stands.
    Voice {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        event: Option<Value>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        status: Option<VoiceStatus>,
    },
    /// How a language-model turn is going, as it goes.
    Agent { event: AgentEvent },
}

/// A step of a language-model turn, for the popup's live progress.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum AgentEvent {
    /// The model is asked (round 1, 2, …).
    Thinking { round: usize },
    /// What the model has written so far of its answer (streamed).
    Text { text: String },
    /// It asked for a tool call, about to run.
    Call { tool: String, args: Value },
    /// The call's outcome: `ok`, or why not.
    Result {
        tool: String,
        ok: bool,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        error: Option<String>,
    },
    /// The turn ended with this answer (also when it waits for a "yes").
    Done { reply: String },
}

impl ToPage {
    pub fn event(event: Value) -> Self {
        ToPage::Voice {
            event: Some(event),
            status: None,
        }
    }

    pub fn status(status: VoiceStatus) -> Self {
        ToPage::Voice {
            event: None,
            status: Some(status),
        }
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}
