//! Errors as every caller sees them: the protocol's `{code, message}`
//! ([`ext_protocol::Error`]), and how a browser failure becomes one.

use crate::browser::BrowserError;

pub use ext_protocol::error::{Error as ToolError, ErrorCode};

impl From<BrowserError> for ToolError {
    fn from(e: BrowserError) -> Self {
        ToolError::failed(format!("Firefox refused: {e}"))
    }
}

pub type ToolResult<T> = Result<T, ToolError>;
