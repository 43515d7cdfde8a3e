//! Tab Whisperer's background page: the tools, the undo journal, the action
//! log and the message API. Everything here but `web` is plain Rust that
//! builds and tests natively; `web` binds it to Firefox in wasm.

pub mod agent;
pub mod background;
pub mod browser;
pub mod corpus;
pub mod error;
pub mod interpret;
pub mod layout;
pub mod llm;
pub mod log;
pub mod memory;
pub mod page;
pub mod scope;
pub mod settings;
pub mod storage;
pub mod stored;
pub mod tab_state;
pub mod text;
pub mod tools;
pub mod undo;
pub mod vocabulary;
pub mod voice;

#[cfg(target_arch = "wasm32")]
mod web;

pub use background::Background;
pub use browser::{Browser, BrowserError};
pub use error::{ErrorCode, ToolError};
pub use memory::MemoryBrowser;
pub use tab_state::State;
