//! The popup and options page. `input`, `view`, `settings` and `models`
//! are plain Rust (what a line of input means, what an answer shows, how a
//! settings field maps to a setting, which picked file is which); `web`
//! draws it with web-sys.

pub mod input;
pub mod models;
pub mod settings;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod web;
