//! Tab Whisperer's background page: the tools, the undo journal, the action
//! log and the message API. Everything here but `web` is plain Rust that
//! builds and tests natively; `web` binds it to Firefox in wasm.

pub mod api;
pub mod browser;
pub mod error;
pub mod interpret;
pub mod llm;
pub mod log;
pub mod memory;
pub mod model;
pub mod settings;
pub mod storage;
pub mod tools;
pub mod undo;
pub mod vocabulary;

#[cfg(target_arch = "wasm32")]
mod web;

pub use api::Background;
pub use browser::{Browser, BrowserError};
pub use error::{ErrorCode, ToolError};
pub use memory::MemoryBrowser;
pub use model::State;
