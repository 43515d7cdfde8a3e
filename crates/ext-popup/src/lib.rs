//! The popup and options page. `input`, `view` and `settings` are plain
//! Rust (what a line of input means, what an answer shows, how a settings
//! field maps to a setting); `web` draws it with web-sys.

pub mod input;
pub mod settings;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod web;
