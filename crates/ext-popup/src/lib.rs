//! The popup and options page. `input` and `view` are plain Rust (what a
//! line of input means, what an answer shows); `web` draws it with web-sys.

pub mod input;
pub mod view;

#[cfg(target_arch = "wasm32")]
mod web;
