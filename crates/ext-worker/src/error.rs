//! Errors the worker reports, each with a code the background page and the
//! options page can act on.

use serde::Serialize;
use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// The model files are missing, corrupt, or do not fit together.
    ModelInvalid,
    /// No model has been loaded yet.
    NoModel,
    /// A model download failed, was cut short, or is not at that address.
    DownloadFailed,
    /// The browser refused to keep or read a model (storage full, private
    /// browsing…).
    StorageFailed,
    /// The tokenizer does not load or does not match the model.
    TokenizerInvalid,
    /// The audio cannot be read or is unusable (not a WAV, NaN samples…).
    AudioInvalid,
    /// A malformed request or option.
    InvalidArgs,
    /// Inference itself failed.
    ExecutionFailed,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

pub type Result<T> = std::result::Result<T, Error>;

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }

    pub fn model(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::ModelInvalid, message)
    }

    pub fn tokenizer(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::TokenizerInvalid, message)
    }

    pub fn audio(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::AudioInvalid, message)
    }

    pub fn args(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgs, message)
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

/// Candle errors during inference (loading maps them to `ModelInvalid`
/// with context where it happens).
impl From<candle_core::Error> for Error {
    fn from(e: candle_core::Error) -> Self {
        Self::new(ErrorCode::ExecutionFailed, e.to_string())
    }
}
