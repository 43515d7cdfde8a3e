//! Every message that crosses a boundary in Tab Whisperer, defined once.
//!
//! - [`request`]: what the popup, the options page and tests send the
//!   background page (`runtime.sendMessage`), and [`answer`]: what it
//!   answers.
//! - [`worker`]: what the background page posts to a speech worker
//!   ([`worker::ToWorker`]) and what a worker posts back
//!   ([`worker::FromWorker`]), including between the two workers.
//! - [`port`]: what the background page posts to a connected popup or
//!   options page.
//! - [`settings`]: the stored settings, their defaults and limits;
//!   [`settings::VoiceSettings`] is the one definition the worker reads too.
//! - [`error`]: the one [`ErrorCode`] vocabulary and the `{code, message}`
//!   every failure carries.
//! - [`models`]: the speech models the extension knows by name.
//!
//! The JSON is the wire format; these types only give it names. Serde only,
//! no wasm: every crate and the native test harness share it.

pub mod answer;
pub mod error;
pub mod log;
pub mod models;
pub mod port;
pub mod request;
pub mod sender;
pub mod settings;
pub mod text;
pub mod worker;

pub use error::{Error, ErrorCode};
pub use request::Request;
