//! Tab Whisperer's host-side code: the real-Firefox harness used by the
//! `demo` binary (`make run`) and the end-to-end tests (`--features e2e`).
//!
//! Nothing here is compiled to wasm.

pub mod harness;

pub use harness::firefox::{self, extension_url, Firefox, Options, EXTENSION_ID, EXTENSION_UUID};
pub use harness::listen::{Heard, Listening};
pub use harness::pages::{self, PageServer};
pub use harness::webdriver::{self, Session};
pub use harness::{wait_for, Error, Result};
