//! Drive a real Firefox with the extension installed.
//!
//! - [`webdriver`]: a minimal W3C WebDriver client (plus geckodriver's
//!   `moz/…` extensions) over plain HTTP.
//! - [`firefox`]: starts geckodriver + Firefox, installs the `.xpi` as a
//!   temporary add-on and talks to the background page.
//! - [`pages`]: a local HTTP server with test pages (titles, long pages,
//!   audible pages, a search echo page).
//! - [`listen`]: recordings played into the voice pipeline, and what they
//!   came to.

pub mod firefox;
pub mod layouts;
pub mod listen;
pub mod pages;
pub mod webdriver;

use std::fmt;
use std::time::{Duration, Instant};

/// Everything the harness can fail with.
#[derive(Debug, Clone, PartialEq)]
pub enum Error {
    /// The WebDriver endpoint answered with an error; `error` is the W3C
    /// error code (`"no such window"`, `"javascript error"`, …).
    WebDriver { error: String, message: String },
    /// A script in the browser reported a failure, e.g. the promise of
    /// `browser.runtime.sendMessage` rejected.
    Script(String),
    /// A condition did not become true before its deadline.
    Timeout(String),
    /// Something needed to start is missing (binary, `.xpi`, …).
    Setup(String),
    /// Transport, I/O or protocol-level problems.
    Io(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::WebDriver { error, message } => {
                write!(f, "WebDriver error `{error}`: {message}")
            }
            Error::Script(m) => write!(f, "script error: {m}"),
            Error::Timeout(m) => write!(f, "timeout: {m}"),
            Error::Setup(m) => write!(f, "setup: {m}"),
            Error::Io(m) => write!(f, "I/O: {m}"),
        }
    }
}

impl std::error::Error for Error {}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e.to_string())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// How often [`wait_for`] re-checks its condition.
pub const POLL_INTERVAL: Duration = Duration::from_millis(100);

/// Calls `check` until it returns `Ok(Some(value))` and returns that value.
///
/// `Ok(None)` means "not yet": it is retried every [`POLL_INTERVAL`] until
/// `timeout` has passed, then this fails with [`Error::Timeout`] naming
/// `what`. An `Err` from `check` is returned at once.
pub fn wait_for<T>(
    timeout: Duration,
    what: &str,
    mut check: impl FnMut() -> Result<Option<T>>,
) -> Result<T> {
    let deadline = Instant::now() + timeout;
    loop {
        if let Some(value) = check()? {
            return Ok(value);
        }
        if Instant::now() >= deadline {
            return Err(Error::Timeout(format!("waited {timeout:?} for {what}")));
        }
        std::thread::sleep(POLL_INTERVAL);
    }
}

/// Like [`wait_for`], but an `Err` from `check` also means "not yet"; the
/// last one is included in the timeout message.
pub fn wait_for_retrying<T>(
    timeout: Duration,
    what: &str,
    mut check: impl FnMut() -> Result<Option<T>>,
) -> Result<T> {
    let mut last: Option<Error> = None;
    let result = wait_for(timeout, what, || match check() {
        Ok(v) => Ok(v),
        Err(e) => {
            last = Some(e);
            Ok(None)
        }
    });
    match (result, last) {
        (Err(Error::Timeout(m)), Some(e)) => Err(Error::Timeout(format!("{m}; last error: {e}"))),
        (r, _) => r,
    }
}
