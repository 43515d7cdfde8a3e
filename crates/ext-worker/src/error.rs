//! Errors the worker reports, each with a code of the one vocabulary
//! ([`ext_protocol::ErrorCode`]) the background page and the options page
//! act on. A type of the worker's own only so that Candle's errors convert
//! with `?`; it crosses to the other contexts as [`ext_protocol::Error`].

use serde::Serialize;
use std::fmt;

pub use ext_protocol::ErrorCode;

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

impl From<Error> for ext_protocol::Error {
    fn from(e: Error) -> Self {
        ext_protocol::Error::new(e.code, e.message)
    }
}

impl From<ext_protocol::Error> for Error {
    fn from(e: ext_protocol::Error) -> Self {
        Error::new(e.code, e.message)
    }
}

/// Candle errors during inference (loading maps them to `ModelInvalid`
/// with context where it happens).
impl From<candle_core::Error> for Error {
    fn from(e: candle_core::Error) -> Self {
        Self::new(ErrorCode::ExecutionFailed, e.to_string())
    }
}
