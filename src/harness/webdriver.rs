//! A minimal W3C WebDriver client for geckodriver, over blocking HTTP.
//!
//! Only what the harness needs: navigation, windows (each tab is a window
//! handle), script execution, screenshots, and geckodriver's add-on and
//! context extensions. The session is deleted when [`Session`] is dropped.

use std::path::Path;
use std::time::Duration;

use base64::Engine as _;
use serde_json::{json, Value};

use super::{Error, Result};

/// Script timeout set on every session (for [`Session::execute_async`]).
pub const SCRIPT_TIMEOUT: Duration = Duration::from_secs(30);
/// Page-load timeout set on every session (for [`Session::navigate`]).
pub const PAGE_LOAD_TIMEOUT: Duration = Duration::from_secs(60);

/// One WebDriver session.
pub struct Session {
    agent: ureq::Agent,
    /// `http://host:port/session/{id}`
    base: String,
    id: String,
    capabilities: Value,
    deleted: bool,
}

impl Session {
    /// Creates a session on the WebDriver server at `driver_url`
    /// (e.g. `http://127.0.0.1:4444`). `capabilities` is the
    /// `alwaysMatch` object, e.g.
    /// `{"browserName": "firefox", "moz:firefoxOptions": {...}}`.
    ///
    /// Sets the script timeout to [`SCRIPT_TIMEOUT`] and the page-load
    /// timeout to [`PAGE_LOAD_TIMEOUT`].
    pub fn new(driver_url: &str, capabilities: Value) -> Result<Session> {
        let agent = ureq::AgentBuilder::new()
            .timeout_connect(Duration::from_secs(10))
            // Longer than any WebDriver-side timeout, so that those report
            // first with a meaningful message. Starting Firefox on a busy
            // 2-core machine can also take a while.
            .timeout_read(Duration::from_secs(180))
            .build();
        let driver_url = driver_url.trim_end_matches('/');
        let body = json!({ "capabilities": { "alwaysMatch": capabilities } });
        let value = request(
            &agent,
            "POST",
            &format!("{driver_url}/session"),
            Some(&body),
        )?;
        let id = value["sessionId"]
            .as_str()
            .ok_or_else(|| Error::Io(format!("new session: no sessionId in {value}")))?
            .to_string();
        let session = Session {
            agent,
            base: format!("{driver_url}/session/{id}"),
            id,
            capabilities: value["capabilities"].clone(),
            deleted: false,
        };
        session.post(
            "timeouts",
            &json!({
                "script": SCRIPT_TIMEOUT.as_millis() as u64,
                "pageLoad": PAGE_LOAD_TIMEOUT.as_millis() as u64,
            }),
        )?;
        Ok(session)
    }

    /// The session id.
    pub fn id(&self) -> &str {
        &self.id
    }

    /// The capabilities the driver answered with (`browserVersion`,
    /// `moz:profile`, `moz:processID`, …).
    pub fn capabilities(&self) -> &Value {
        &self.capabilities
    }

    /// Navigates the current window and waits for the page load.
    pub fn navigate(&self, url: &str) -> Result<()> {
        self.post("url", &json!({ "url": url })).map(drop)
    }

    /// The URL of the current window.
    pub fn current_url(&self) -> Result<String> {
        string(self.get("url")?)
    }

    /// The document title of the current window.
    pub fn title(&self) -> Result<String> {
        string(self.get("title")?)
    }

    /// The handle of the current window (tab).
    pub fn window_handle(&self) -> Result<String> {
        string(self.get("window")?)
    }

    /// All window handles; in Firefox every tab is one.
    pub fn window_handles(&self) -> Result<Vec<String>> {
        let value = self.get("window/handles")?;
        serde_json::from_value(value.clone())
            .map_err(|e| Error::Io(format!("window handles: {e} in {value}")))
    }

    /// Makes `handle` the current window. Note: geckodriver also *selects*
    /// that tab in the browser, so it becomes the active tab.
    pub fn switch_to_window(&self, handle: &str) -> Result<()> {
        self.post("window", &json!({ "handle": handle })).map(drop)
    }

    /// Opens a new `"tab"` or `"window"` and returns its handle. The
    /// current window does not change.
    pub fn new_window(&self, kind: &str) -> Result<String> {
        let value = self.post("window/new", &json!({ "type": kind }))?;
        string(value["handle"].clone())
    }

    /// Closes the current window; returns the remaining handles. Switch to
    /// one of them before sending further commands.
    pub fn close_window(&self) -> Result<Vec<String>> {
        let value = self.delete_req("window")?;
        serde_json::from_value(value.clone())
            .map_err(|e| Error::Io(format!("close window: {e} in {value}")))
    }

    /// Sets the outer size of the current browser window.
    pub fn set_window_size(&self, width: u32, height: u32) -> Result<()> {
        self.post("window/rect", &json!({ "width": width, "height": height }))
            .map(drop)
    }

    /// Runs `script` as the body of a function (use `return`), with
    /// `arguments` = `args`, in the current window.
    pub fn execute(&self, script: &str, args: &[Value]) -> Result<Value> {
        self.post("execute/sync", &json!({ "script": script, "args": args }))
    }

    /// Runs `script` with a callback appended to `arguments`; the result is
    /// the value passed to that callback (within [`SCRIPT_TIMEOUT`]).
    pub fn execute_async(&self, script: &str, args: &[Value]) -> Result<Value> {
        self.post("execute/async", &json!({ "script": script, "args": args }))
    }

    /// Takes a PNG screenshot of the current window's viewport and writes
    /// it to `path` (parent directories are created).
    pub fn screenshot_png(&self, path: &Path) -> Result<()> {
        let encoded = string(self.get("screenshot")?)?;
        let png = base64::engine::general_purpose::STANDARD
            .decode(encoded.as_bytes())
            .map_err(|e| Error::Io(format!("screenshot: bad base64: {e}")))?;
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir)?;
        }
        std::fs::write(path, png).map_err(|e| Error::Io(format!("writing {}: {e}", path.display())))
    }

    /// Installs an add-on (an `.xpi` or an unpacked folder) from `path`;
    /// returns its id. Temporary add-ons need no signature and are gone
    /// when the browser quits.
    pub fn install_addon(&self, path: &Path, temporary: bool) -> Result<String> {
        let abs = std::fs::canonicalize(path)
            .map_err(|e| Error::Setup(format!("add-on {}: {e}", path.display())))?;
        let value = self.post(
            "moz/addon/install",
            &json!({
                "path": abs.to_string_lossy(),
                "temporary": temporary,
                // As a user who allows it in private windows (about:addons).
                "allowPrivateBrowsing": true,
            }),
        )?;
        string(value)
    }

    /// Uninstalls the add-on with id `addon_id`.
    pub fn uninstall_addon(&self, addon_id: &str) -> Result<()> {
        self.post("moz/addon/uninstall", &json!({ "id": addon_id }))
            .map(drop)
    }

    /// Switches script execution between `"content"` (web pages, the
    /// default) and `"chrome"` (the browser UI; needs geckodriver's
    /// `--allow-system-access`).
    pub fn set_context(&self, context: &str) -> Result<()> {
        self.post("moz/context", &json!({ "context": context }))
            .map(drop)
    }

    /// Ends the session; geckodriver then quits Firefox. Called on drop;
    /// calling it again does nothing.
    pub fn delete(&mut self) -> Result<()> {
        if self.deleted {
            return Ok(());
        }
        self.deleted = true;
        request(&self.agent, "DELETE", &self.base, None).map(drop)
    }

    /// The first element matching a CSS selector in the current window,
    /// as its WebDriver id.
    pub fn find(&self, css: &str) -> Result<String> {
        let found = self.post("element", &json!({ "using": "css selector", "value": css }))?;
        found
            .get(ELEMENT_KEY)
            .and_then(Value::as_str)
            .map(str::to_string)
            .ok_or_else(|| Error::Io(format!("find {css}: no element id in {found}")))
    }

    /// Types `text` into an element as a person would (key events);
    /// `\u{E007}` is Enter, `\u{E013}` ArrowUp, `\u{E00C}` Escape.
    pub fn send_keys(&self, element: &str, text: &str) -> Result<()> {
        self.post(
            &format!("element/{element}/value"),
            &json!({ "text": text }),
        )
        .map(|_| ())
    }

    /// Presses keys on whatever has the focus (WebDriver actions), as a
    /// person at the keyboard does: unlike [`Session::send_keys`], nothing
    /// is focused first. Each char of `keys` is pressed and released.
    pub fn press_keys(&self, keys: &str) -> Result<()> {
        let actions: Vec<Value> = keys
            .chars()
            .flat_map(|k| {
                let k = k.to_string();
                [
                    json!({ "type": "keyDown", "value": k }),
                    json!({ "type": "keyUp", "value": k }),
                ]
            })
            .collect();
        self.post(
            "actions",
            &json!({ "actions": [{ "type": "key", "id": "keyboard", "actions": actions }] }),
        )
        .map(|_| ())
    }

    /// Clicks an element (scrolled into view, as a person would).
    pub fn click(&self, element: &str) -> Result<()> {
        self.post(&format!("element/{element}/click"), &json!({}))
            .map(|_| ())
    }

    /// `GET /session/{id}/{path}`
    pub fn get(&self, path: &str) -> Result<Value> {
        request(&self.agent, "GET", &self.url(path), None)
    }

    /// `POST /session/{id}/{path}` with a JSON body.
    pub fn post(&self, path: &str, body: &Value) -> Result<Value> {
        request(&self.agent, "POST", &self.url(path), Some(body))
    }

    fn delete_req(&self, path: &str) -> Result<Value> {
        request(&self.agent, "DELETE", &self.url(path), None)
    }

    fn url(&self, path: &str) -> String {
        format!("{}/{path}", self.base)
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.delete();
    }
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session").field("base", &self.base).finish()
    }
}

/// The key under which WebDriver answers an element reference.
const ELEMENT_KEY: &str = "element-6066-11e4-a52e-4f735466cecf";

/// Sends one WebDriver command and returns the `value` of the answer, or
/// the WebDriver error it carries.
pub(crate) fn request(
    agent: &ureq::Agent,
    method: &str,
    url: &str,
    body: Option<&Value>,
) -> Result<Value> {
    let req = agent.request(method, url);
    let result = match body {
        Some(body) => req.send_json(body),
        // POSTs always carry a body; WebDriver wants `{}` at least.
        None if method == "POST" => req.send_json(json!({})),
        None => req.call(),
    };
    let what = || format!("{method} {url}");
    match result {
        Ok(resp) => {
            let answer: Value = resp
                .into_json()
                .map_err(|e| Error::Io(format!("{}: unreadable answer: {e}", what())))?;
            Ok(answer.get("value").cloned().unwrap_or(Value::Null))
        }
        Err(ureq::Error::Status(status, resp)) => {
            let text = resp.into_string().unwrap_or_default();
            match serde_json::from_str::<Value>(&text) {
                Ok(answer) if answer["value"]["error"].is_string() => Err(Error::WebDriver {
                    error: answer["value"]["error"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    message: answer["value"]["message"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                }),
                _ => Err(Error::Io(format!("{}: HTTP {status}: {text}", what()))),
            }
        }
        Err(e) => Err(Error::Io(format!("{}: {e}", what()))),
    }
}

fn string(value: Value) -> Result<String> {
    match value {
        Value::String(s) => Ok(s),
        other => Err(Error::Io(format!("expected a string, got {other}"))),
    }
}
