//! Errors as every caller sees them: a code to act on and a sentence a
//! person can act on. One vocabulary for the whole extension: the
//! voice-browser protocol's five codes, then those only speech can fail
//! with.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum ErrorCode {
    /// No tool, message type or intent by that name.
    UnknownCommand,
    /// A malformed message, request or argument.
    InvalidArgs,
    /// A tab, group, bookmark or model named that does not exist.
    NotFound,
    /// A safety rule said no.
    Refused,
    /// Firefox, storage or inference failed while doing it.
    ExecutionFailed,
    /// No speech model has been loaded yet.
    NoModel,
    /// The model files are missing, corrupt, or do not fit together.
    ModelInvalid,
    /// The tokenizer does not load or does not match the model.
    TokenizerInvalid,
    /// The audio cannot be read or is unusable (not a WAV, NaN samples…).
    AudioInvalid,
    /// A model download failed, was cut short, or is not at that address.
    DownloadFailed,
    /// The browser refused to keep or read a model (storage full, private
    /// browsing…).
    StorageFailed,
    /// The person (or Firefox) said no to the microphone.
    MicDenied,
    /// There is no microphone, or it cannot be opened.
    MicUnavailable,
}

impl ErrorCode {
    /// Every code, in the order above (for documentation checks).
    pub const ALL: &'static [ErrorCode] = &[
        ErrorCode::UnknownCommand,
        ErrorCode::InvalidArgs,
        ErrorCode::NotFound,
        ErrorCode::Refused,
        ErrorCode::ExecutionFailed,
        ErrorCode::NoModel,
        ErrorCode::ModelInvalid,
        ErrorCode::TokenizerInvalid,
        ErrorCode::AudioInvalid,
        ErrorCode::DownloadFailed,
        ErrorCode::StorageFailed,
        ErrorCode::MicDenied,
        ErrorCode::MicUnavailable,
    ];

    /// The code as it is written on the wire (`INVALID_ARGS`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownCommand => "UNKNOWN_COMMAND",
            ErrorCode::InvalidArgs => "INVALID_ARGS",
            ErrorCode::NotFound => "NOT_FOUND",
            ErrorCode::Refused => "REFUSED",
            ErrorCode::ExecutionFailed => "EXECUTION_FAILED",
            ErrorCode::NoModel => "NO_MODEL",
            ErrorCode::ModelInvalid => "MODEL_INVALID",
            ErrorCode::TokenizerInvalid => "TOKENIZER_INVALID",
            ErrorCode::AudioInvalid => "AUDIO_INVALID",
            ErrorCode::DownloadFailed => "DOWNLOAD_FAILED",
            ErrorCode::StorageFailed => "STORAGE_FAILED",
            ErrorCode::MicDenied => "MIC_DENIED",
            ErrorCode::MicUnavailable => "MIC_UNAVAILABLE",
        }
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// `{code, message}`: what every failed answer and `error` event carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
}

impl Error {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Error {
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

    /// `{code, message}` as JSON.
    pub fn to_json(&self) -> Value {
        json!({ "code": self.code, "message": self.message })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_written_as_the_protocol_spells_them() {
        for &code in ErrorCode::ALL {
            assert_eq!(
                serde_json::to_value(code).unwrap(),
                Value::String(code.as_str().into())
            );
        }
        let e = Error::refused("no");
        assert_eq!(e.to_json(), json!({"code": "REFUSED", "message": "no"}));
        assert_eq!(serde_json::to_value(&e).unwrap(), e.to_json());
    }
}
