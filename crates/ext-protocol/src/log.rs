//! Tool calls as commands' answers and the action log carry them, and the
//! log's entries (the `log` answer, the popup's History).

use crate::error::Error;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// A planned tool call: a tool's name and its JSON arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Call {
    pub tool: String,
    pub args: Value,
}

/// A call that ran, with what it answered (null when it failed).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LoggedCall {
    pub tool: String,
    pub args: Value,
    pub result: Value,
}

impl LoggedCall {
    pub fn new(tool: &str, args: &Value, result: &Value) -> Self {
        LoggedCall {
            tool: tool.to_string(),
            args: args.clone(),
            result: result.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LogEntry {
    pub id: String,
    /// ms since the epoch.
    pub time: f64,
    /// What the person typed or said; `None` for a direct tool call.
    pub command: Option<String>,
    pub calls: Vec<LoggedCall>,
    pub reply: String,
    /// Set when it failed.
    pub error: Option<Error>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undo_id: Option<String>,
}
