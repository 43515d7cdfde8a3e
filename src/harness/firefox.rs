//! A real Firefox with the extension installed, driven by geckodriver.
//!
//! [`Firefox::start`] starts geckodriver (which starts Firefox with a fresh
//! profile), installs the `.xpi` as a temporary add-on, opens the popup page
//! in the first tab and waits until the background answers. Scripts run in
//! that extension page can use `browser.*`, which is how [`Firefox::send`]
//! talks to the background. Dropping the fixture quits Firefox and
//! geckodriver.
//!
//! Binaries and the add-on are found through environment variables:
//!
//! | what | variable | fallbacks |
//! |---|---|---|
//! | geckodriver | `GECKODRIVER` | `~/.cache/tab-whisperer/tools/bin/geckodriver`, `geckodriver` on `PATH` |
//! | Firefox | `FIREFOX_BIN` | `/usr/bin/firefox-esr`, `firefox` on `PATH` |
//! | the add-on | `TW_XPI` | `dist/tab-whisperer.xpi` in the repository |

use ext_protocol::Request;
use std::fs::File;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::{json, Map, Value};

use super::webdriver::{request, Session};
use super::{wait_for, wait_for_retrying, Error, Result};

/// The add-on's gecko id (`browser_specific_settings.gecko.id`).
pub const EXTENSION_ID: &str = "tab-whisperer@tabwhisperer.dev";
/// The fixed internal UUID (set through `extensions.webextensions.uuids`),
/// so that its pages have known `moz-extension://` URLs.
pub const EXTENSION_UUID: &str = "6f1d2a3b-7c4e-4f5a-9b8c-0d1e2f3a4b5c";
/// The page the fixture keeps open to talk to the background.
pub const POPUP_PAGE: &str = "popup.html";
/// How long the background may take to answer after (re)loading.
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);

/// `moz-extension://<EXTENSION_UUID>/<path>`
pub fn extension_url(path: &str) -> String {
    format!(
        "moz-extension://{EXTENSION_UUID}/{}",
        path.trim_start_matches('/')
    )
}

/// Prefs that keep a test browser on this machine: every host name
/// resolves to 127.0.0.1 (where the test's page server answers), with no
/// DNS-over-HTTPS, and plain http allowed for hosts on the HSTS preload
/// list. Tests and the headless demo use them, so "youtube" can be a real
/// youtube.com tab and a web search's results page loads locally.
pub fn local_only_prefs() -> Map<String, Value> {
    let prefs = json!({
        "network.dns.forceResolve": "127.0.0.1",
        "network.trr.mode": 5,
        "network.stricttransportsecurity.preloadlist": false,
        "dom.security.https_first": false,
        "dom.security.https_only_mode": false,
    });
    match prefs {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

/// How to start Firefox.
#[derive(Debug, Clone)]
pub struct Options {
    /// Run without a window (the default).
    pub headless: bool,
    /// Extra prefs; they override [`default_prefs`].
    pub prefs: Map<String, Value>,
    /// The add-on to install; `None` means [`xpi_path`].
    pub xpi: Option<PathBuf>,
    /// Install the add-on and open its popup page (the default). Without
    /// it the fixture is a plain browser: the messaging helpers fail.
    pub install_extension: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            headless: true,
            prefs: Map::new(),
            xpi: None,
            install_extension: true,
        }
    }
}

/// The prefs every session gets: the fixed extension UUID, no network
/// traffic of Firefox's own, autoplaying audio, and fake audio devices.
pub fn default_prefs() -> Map<String, Value> {
    let uuids = json!({ EXTENSION_ID: EXTENSION_UUID }).to_string();
    let prefs = json!({
        "extensions.webextensions.uuids": uuids,
        "extensions.autoDisableScopes": 0,
        "extensions.getAddons.cache.enabled": false,
        "extensions.update.enabled": false,
        // Stay off the network.
        "app.update.auto": false,
        "app.update.enabled": false,
        "browser.search.update": false,
        "browser.safebrowsing.malware.enabled": false,
        "browser.safebrowsing.phishing.enabled": false,
        "browser.safebrowsing.blockedURIs.enabled": false,
        "browser.safebrowsing.downloads.enabled": false,
        "network.captive-portal-service.enabled": false,
        "network.connectivity-service.enabled": false,
        "toolkit.telemetry.enabled": false,
        "datareporting.policy.dataSubmissionEnabled": false,
        "datareporting.healthreport.uploadEnabled": false,
        "browser.newtabpage.enabled": false,
        "browser.startup.page": 0,
        "browser.newtabpage.activity-stream.feeds.topsites": false,
        "browser.newtabpage.activity-stream.feeds.section.topstories": false,
        "browser.ping-centre.telemetry": false,
        "network.dns.disablePrefetch": true,
        "network.prefetch-next": false,
        // Tabs: closing the last one must not close the window.
        "browser.tabs.warnOnClose": false,
        "browser.tabs.closeWindowWithLastTab": false,
        // Audio: let test pages autoplay (so tabs become audible) and give
        // headless Firefox a mock output and a fake microphone.
        "media.autoplay.default": 0,
        "media.autoplay.blocking_policy": 0,
        "media.cubeb.force_mock_context": true,
        "media.navigator.streams.fake": true,
        "media.navigator.permission.disabled": true,
    });
    match prefs {
        Value::Object(map) => map,
        _ => unreachable!(),
    }
}

/// geckodriver: `$GECKODRIVER`, else the project's tool cache, else `PATH`.
pub fn geckodriver_path() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("GECKODRIVER") {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Error::Setup(format!(
                "GECKODRIVER={} does not exist",
                path.display()
            )))
        };
    }
    if let Some(home) = std::env::var_os("HOME") {
        let cached = Path::new(&home).join(".cache/tab-whisperer/tools/bin/geckodriver");
        if cached.is_file() {
            return Ok(cached);
        }
    }
    on_path("geckodriver").ok_or_else(|| {
        Error::Setup(
            "geckodriver not found (looked at $GECKODRIVER, \
             ~/.cache/tab-whisperer/tools/bin/geckodriver and PATH); \
             `make test` installs it, or `cargo install geckodriver --locked`"
                .into(),
        )
    })
}

/// Firefox: `$FIREFOX_BIN`, else `/usr/bin/firefox-esr`, else `firefox` on `PATH`.
pub fn firefox_path() -> Result<PathBuf> {
    if let Some(path) = std::env::var_os("FIREFOX_BIN") {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(Error::Setup(format!(
                "FIREFOX_BIN={} does not exist",
                path.display()
            )))
        };
    }
    let esr = PathBuf::from("/usr/bin/firefox-esr");
    if esr.is_file() {
        return Ok(esr);
    }
    on_path("firefox").ok_or_else(|| {
        Error::Setup(
            "Firefox not found (looked at $FIREFOX_BIN, /usr/bin/firefox-esr and \
             `firefox` on PATH); `make test` installs it, or `apt-get install firefox-esr`"
                .into(),
        )
    })
}

/// The add-on package: `$TW_XPI`, else `dist/tab-whisperer.xpi` in the repository.
pub fn xpi_path() -> PathBuf {
    match std::env::var_os("TW_XPI") {
        Some(path) => PathBuf::from(path),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/tab-whisperer.xpi"),
    }
}

fn on_path(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|candidate| candidate.is_file())
}

/// A running Firefox with the extension's popup page open in one tab.
pub struct Firefox {
    // Field order matters: the session is deleted (Firefox quits) before
    // geckodriver is killed.
    session: Session,
    driver: Driver,
    /// The tab where the fixture's extension page lives.
    ext_handle: String,
}

impl Firefox {
    /// Starts a headless Firefox with the extension, kept on this machine
    /// ([`local_only_prefs`]).
    pub fn headless() -> Result<Firefox> {
        Firefox::start(Options {
            prefs: local_only_prefs(),
            ..Options::default()
        })
    }

    /// Starts geckodriver and Firefox, installs the add-on and waits until
    /// its background answers (unless `install_extension` is off).
    pub fn start(options: Options) -> Result<Firefox> {
        let geckodriver = geckodriver_path()?;
        let firefox = firefox_path()?;
        let xpi = options.xpi.clone().unwrap_or_else(xpi_path);
        if options.install_extension && !xpi.is_file() {
            return Err(Error::Setup(format!(
                "the add-on {} does not exist; build it with `make` \
                 (`make test` builds it too) or point TW_XPI at one",
                xpi.display()
            )));
        }

        let driver = Driver::start(&geckodriver, &firefox)?;

        let mut prefs = default_prefs();
        prefs.extend(options.prefs.clone());
        let mut firefox_options = json!({ "prefs": prefs, "log": { "level": "info" } });
        if options.headless {
            firefox_options["args"] = json!(["-headless"]);
        }
        let capabilities = json!({
            "browserName": "firefox",
            "moz:firefoxOptions": firefox_options,
        });
        let session = Session::new(&driver.url, capabilities).map_err(|e| {
            Error::Setup(format!(
                "starting {} through geckodriver failed: {e}\n{}",
                firefox.display(),
                driver.log_tail()
            ))
        })?;
        let ext_handle = session.window_handle()?;
        let ff = Firefox {
            session,
            driver,
            ext_handle,
        };
        if options.install_extension {
            ff.session
                .install_addon(&xpi, true)
                .map_err(|e| Error::Setup(format!("installing {}: {e}", xpi.display())))?;
            ff.load_popup()?;
            ff.wait_ready()?;
        }
        Ok(ff)
    }

    /// The WebDriver session, for anything the helpers do not cover.
    /// After switching windows, switch back to [`Firefox::extension_handle`]
    /// before using the messaging helpers.
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// The window handle of the tab with the fixture's extension page.
    pub fn extension_handle(&self) -> &str {
        &self.ext_handle
    }

    /// geckodriver's and Firefox's output (kept after a panicking test).
    pub fn log_path(&self) -> &Path {
        &self.driver.log_path
    }

    /// Sends `message` to the background with `browser.runtime.sendMessage`
    /// from the extension page and returns its answer. Fails with
    /// [`Error::Script`] if sending fails (e.g. the background is not
    /// listening yet) or nobody answers.
    pub fn send(&self, message: &Value) -> Result<Value> {
        const SEND: &str = r#"
            const done = arguments[arguments.length - 1];
            if (typeof browser === "undefined" || !browser.runtime) {
                done({ e: "not an extension page: " + location.href });
                return;
            }
            browser.runtime.sendMessage(arguments[0]).then(
                r => done(r === undefined ? { none: true } : { r }),
                e => done({ e: String(e) }),
            );
        "#;
        let answer = self
            .session
            .execute_async(SEND, std::slice::from_ref(message))?;
        if let Some(r) = answer.get("r") {
            Ok(r.clone())
        } else if let Some(e) = answer.get("e") {
            Err(Error::Script(format!(
                "sendMessage({message}): {}",
                e.as_str().unwrap_or_default()
            )))
        } else {
            Err(Error::Script(format!(
                "sendMessage({message}): no answer (undefined)"
            )))
        }
    }

    /// Sends a typed request ([`ext_protocol::Request`], as the popup
    /// does) and returns its answer.
    pub fn request(&self, request: &Request) -> Result<Value> {
        self.send(&serde_json::to_value(request).expect("a request is JSON"))
    }

    /// `{type: "tool", name, args}`; returns the whole answer (`ok`, `result`, …).
    pub fn tool(&self, name: &str, args: Value) -> Result<Value> {
        self.request(&Request::Tool {
            name: name.into(),
            args,
        })
    }

    /// Like [`Firefox::tool`], but returns `result` and turns an
    /// `ok: false` answer into an [`Error::Script`].
    pub fn tool_result(&self, name: &str, args: Value) -> Result<Value> {
        let answer = self.tool(name, args.clone())?;
        if answer["ok"] == true {
            Ok(answer["result"].clone())
        } else {
            Err(Error::Script(format!(
                "tool {name}({args}) failed: {answer}"
            )))
        }
    }

    /// `{type: "command", text}`
    pub fn command(&self, text: &str) -> Result<Value> {
        self.request(&Request::Command {
            text: text.into(),
            spoken: false,
            guided: None,
            wake_unsure: false,
            by_wake_phrase: false,
        })
    }

    /// `{type: "undo"}`, or `{type: "undo", undo_id}` for a named change.
    pub fn undo(&self, undo_id: Option<&str>) -> Result<Value> {
        self.request(&Request::Undo {
            undo_id: undo_id.map(str::to_string),
        })
    }

    /// Waits (up to [`READY_TIMEOUT`]) until `{type: "schemas"}` answers
    /// `ok: true`: the wasm background may still be loading.
    pub fn wait_ready(&self) -> Result<()> {
        let mut last = Value::Null;
        let result = wait_for_retrying(READY_TIMEOUT, "the background to answer", || {
            let answer = self.request(&Request::Schemas)?;
            if answer["ok"] == true {
                return Ok(Some(()));
            }
            last = answer;
            Ok(None)
        });
        match result {
            Err(Error::Timeout(m)) if !last.is_null() => {
                Err(Error::Timeout(format!("{m}; last answer: {last}")))
            }
            r => r,
        }
    }

    /// Restarts the extension (and so its background) with
    /// `browser.runtime.reload()`, then opens the popup page again and
    /// waits until the background answers.
    ///
    /// Firefox closes the extension's tabs on reload; the popup page is
    /// reopened in the old tab if it survived, else in a new tab (at the
    /// end of the window). [`Firefox::extension_handle`] may change.
    pub fn reload_extension(&mut self) -> Result<()> {
        // Reload from a timer so that this command returns before the page
        // goes away; the marker tells when the old page is gone.
        self.session.execute(
            r#"window.__twBeforeReload = true;
               setTimeout(() => { try { browser.runtime.reload(); } catch (e) {} }, 0);
               return null;"#,
            &[],
        )?;
        let tab_survived = wait_for(READY_TIMEOUT, "the extension page to unload", || {
            if !self.session.window_handles()?.contains(&self.ext_handle) {
                return Ok(Some(false));
            }
            // The tab is still listed: wait until its old page is gone.
            match self
                .session
                .execute("return window.__twBeforeReload === true", &[])
            {
                Ok(Value::Bool(true)) => Ok(None),
                Ok(_) => Ok(Some(true)),
                // Between pages, or the tab is closing: look again.
                Err(_) => Ok(None),
            }
        })?;
        // A tab that outlived the wait may still close as the add-on goes.
        if !tab_survived || self.session.switch_to_window(&self.ext_handle).is_err() {
            // New Window needs a live current context: any remaining tab.
            if let Some(any) = self.session.window_handles()?.first() {
                self.session.switch_to_window(any)?;
            }
            self.ext_handle = self.session.new_window("tab")?;
            self.session.switch_to_window(&self.ext_handle)?;
        }
        self.load_popup()?;
        self.wait_ready()
    }

    /// Opens the extension page `path` (e.g. `"options.html"`) in a new tab
    /// and returns its handle; the current window stays the fixture's page.
    /// Use [`Firefox::with_window`] to run scripts there.
    pub fn open_extension_page(&self, path: &str) -> Result<String> {
        let handle = self.session.new_window("tab")?;
        let url = extension_url(path);
        self.with_window(&handle, |session| session.navigate(&url))?;
        Ok(handle)
    }

    /// Runs `f` with `handle` as the current window, then switches back to
    /// the extension page. geckodriver selects a tab it switches to; the
    /// previously selected tab of every window is selected again afterwards
    /// so the browser's active tabs do not change.
    pub fn with_window<T>(&self, handle: &str, f: impl FnOnce(&Session) -> Result<T>) -> Result<T> {
        let selected = self.selected_tabs()?;
        self.session.switch_to_window(handle)?;
        let result = f(&self.session);
        let back = self.session.switch_to_window(&self.ext_handle);
        let restored = self.select_tabs(&selected);
        let value = result?;
        back?;
        restored?;
        Ok(value)
    }

    /// The handle of the first tab whose URL contains `url_part` (found
    /// from the chrome context, without switching tabs).
    pub fn find_window(&self, url_part: &str) -> Result<String> {
        let tabs = self.chrome(&format!(
            r#"{HANDLES}
               const tabs = [];
               for (const win of Services.wm.getEnumerator("navigator:browser")) {{
                 for (const tab of win.gBrowser.tabs) {{
                   tabs.push([handleOf(tab.linkedBrowser), tab.linkedBrowser.currentURI.spec]);
                 }}
               }}
               return tabs;"#
        ))?;
        let tabs: Vec<(String, String)> = serde_json::from_value(tabs.clone())
            .map_err(|e| Error::Io(format!("tab list {tabs}: {e}")))?;
        tabs.iter()
            .find(|(_, url)| url.contains(url_part))
            .map(|(handle, _)| handle.clone())
            .ok_or_else(|| {
                let urls: Vec<&str> = tabs.iter().map(|(_, u)| u.as_str()).collect();
                Error::Script(format!(
                    "no tab with a URL containing {url_part:?}; tabs: {urls:?}"
                ))
            })
    }

    /// Runs `script` (a function body; use `return`) in the first tab whose
    /// URL contains `url_part`, without going through the extension. The
    /// browser's active tabs do not change (see [`Firefox::with_window`]).
    pub fn page_eval(&self, url_part: &str, script: &str) -> Result<Value> {
        let handle = self.find_window(url_part)?;
        self.with_window(&handle, |session| session.execute(script, &[]))
    }

    /// Runs `script` (a function body) in the browser's privileged chrome
    /// context (`Services`, `gBrowser`, …), then returns to content.
    pub fn chrome(&self, script: &str) -> Result<Value> {
        self.session.set_context("chrome")?;
        let result = self.session.execute(script, &[]);
        self.session.set_context("content")?;
        result
    }

    /// The handles of each window's selected tab.
    fn selected_tabs(&self) -> Result<Vec<String>> {
        let handles = self.chrome(&format!(
            r#"{HANDLES}
               return Array.from(Services.wm.getEnumerator("navigator:browser"),
                                 win => handleOf(win.gBrowser.selectedBrowser));"#
        ))?;
        serde_json::from_value(handles.clone())
            .map_err(|e| Error::Io(format!("selected tabs {handles}: {e}")))
    }

    /// Selects the tabs with these handles, each in its window.
    fn select_tabs(&self, handles: &[String]) -> Result<()> {
        self.chrome(&format!(
            r#"{HANDLES}
               const wanted = {};
               for (const win of Services.wm.getEnumerator("navigator:browser")) {{
                 const tab = win.gBrowser.tabs.find(t => wanted.includes(handleOf(t.linkedBrowser)));
                 if (tab && win.gBrowser.selectedTab !== tab) win.gBrowser.selectedTab = tab;
               }}
               return null;"#,
            json!(handles)
        ))
        .map(drop)
    }

    /// Waits until the add-on is running, then navigates the current tab to
    /// the popup page, retrying until the page sees `browser`.
    fn load_popup(&self) -> Result<()> {
        // Navigating to a moz-extension:// URL nobody serves hangs until the
        // page-load timeout, so first wait for the extension itself.
        let host = wait_for(READY_TIMEOUT, "the add-on to be running", || {
            let host = self.chrome(&format!(
                r#"const policy = WebExtensionPolicy.getByID({});
                   return policy && policy.active ? policy.mozExtensionHostname : null;"#,
                json!(EXTENSION_ID)
            ))?;
            Ok(host.as_str().map(str::to_string))
        })?;
        if host != EXTENSION_UUID {
            return Err(Error::Setup(format!(
                "{EXTENSION_ID} runs as moz-extension://{host}, not {EXTENSION_UUID}; \
                 is the pref extensions.webextensions.uuids overridden?"
            )));
        }
        let url = extension_url(POPUP_PAGE);
        wait_for_retrying(
            READY_TIMEOUT,
            &format!("{url} to load with `browser` available"),
            || {
                self.session.navigate(&url)?;
                let ok = self
                    .session
                    .execute("return typeof browser !== 'undefined'", &[])?;
                Ok((ok == true).then_some(()))
            },
        )
    }
}

/// Chrome-context prelude: `handleOf(browser)` gives a tab's WebDriver
/// window handle (geckodriver's handles are the remote agent's ids).
const HANDLES: &str = r#"
    const { NavigableManager } = ChromeUtils.importESModule(
        "chrome://remote/content/shared/NavigableManager.sys.mjs");
    const handleOf = browser => NavigableManager.getIdForBrowser(browser);
"#;

impl std::fmt::Debug for Firefox {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Firefox")
            .field("driver", &self.driver.url)
            .field("log", &self.driver.log_path)
            .finish()
    }
}

/// The geckodriver process, in its own process group so that killing the
/// group also takes any Firefox process left behind.
struct Driver {
    child: Child,
    url: String,
    log_path: PathBuf,
}

impl Driver {
    fn start(geckodriver: &Path, firefox: &Path) -> Result<Driver> {
        use std::os::unix::process::CommandExt as _;

        let port = std::net::TcpListener::bind("127.0.0.1:0")?
            .local_addr()?
            .port();
        let log_path = std::env::temp_dir().join(format!(
            "tab-whisperer-geckodriver-{}-{port}.log",
            std::process::id()
        ));
        let log = File::create(&log_path)
            .map_err(|e| Error::Io(format!("creating {}: {e}", log_path.display())))?;
        let child = Command::new(geckodriver)
            .arg("--host=127.0.0.1")
            .arg(format!("--port={port}"))
            .arg("--allow-system-access")
            .arg("--binary")
            .arg(firefox)
            .stdin(Stdio::null())
            .stdout(log.try_clone()?)
            .stderr(log)
            .process_group(0)
            .spawn()
            .map_err(|e| Error::Setup(format!("cannot run {}: {e}", geckodriver.display())))?;
        let mut driver = Driver {
            child,
            url: format!("http://127.0.0.1:{port}"),
            log_path,
        };
        let agent = ureq::AgentBuilder::new()
            .timeout(Duration::from_secs(2))
            .build();
        let status_url = format!("{}/status", driver.url);
        wait_for(Duration::from_secs(30), "geckodriver to be ready", || {
            if let Some(status) = driver.child.try_wait()? {
                return Err(Error::Setup(format!(
                    "{} exited ({status})\n{}",
                    geckodriver.display(),
                    driver.log_tail()
                )));
            }
            match request(&agent, "GET", &status_url, None) {
                Ok(value) if value["ready"] == true => Ok(Some(())),
                _ => Ok(None),
            }
        })?;
        Ok(driver)
    }

    /// The end of the log, for error messages.
    fn log_tail(&self) -> String {
        let mut text = String::new();
        if let Ok(mut f) = File::open(&self.log_path) {
            let _ = f.read_to_string(&mut text);
        }
        let lines: Vec<&str> = text.lines().collect();
        let tail = lines[lines.len().saturating_sub(30)..].join("\n");
        format!("--- end of {} ---\n{tail}", self.log_path.display())
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        // The session is gone by now (Firefox has quit); end geckodriver and
        // anything still in its process group, then reap it.
        let group = format!("-{}", self.child.id());
        let killed = Command::new("kill")
            .args(["-KILL", "--", &group])
            .stderr(Stdio::null())
            .status();
        if !matches!(killed, Ok(s) if s.success()) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
        if std::thread::panicking() {
            eprintln!(
                "geckodriver/Firefox log kept at {}",
                self.log_path.display()
            );
        } else {
            let _ = std::fs::remove_file(&self.log_path);
        }
    }
}
