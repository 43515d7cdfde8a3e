//! Errors as every caller sees them: a code from the voice-browser protocol
//! and a sentence a person can act on.

use crate::browser::BrowserError;
use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    UnknownCommand,
    InvalidArgs,
    NotFound,
    /// A safety rule said no.
    Refused,
    ExecutionFailed,
}

#[derive(Clone, Debug, PartialEq)]
pub struct ToolError {
    pub code: ErrorCode,
    pub message: String,
}

impl ToolError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
        }
    }
    pub fn unknown(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::UnknownCommand, message)
    }
    pub fn invalid(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgs, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::NotFound, message)
    }
    pub fn refused(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Refused, message)
    }
    pub fn failed(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ExecutionFailed, message)
    }

    /// `{code, message}` as the message API answers it.
    pub fn to_json(&self) -> Value {
        json!({ "code": self.code, "message": self.message })
    }
}

impl fmt::Display for ToolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl From<BrowserError> for ToolError {
    fn from(e: BrowserError) -> Self {
        ToolError::failed(format!("Firefox refused: {e}"))
    }
}

pub type ToolResult<T> = Result<T, ToolError>;
