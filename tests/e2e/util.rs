//! Helpers shared by the end-to-end tests.

use serde_json::{json, Value};
use std::time::Duration;
use tab_whisperer::harness::layouts::api;
use tab_whisperer::{wait_for, Firefox, PageServer};

/// How long a page on the local server may take to load.
pub const LOAD: Duration = Duration::from_secs(20);

/// Runs `script` in the options page (`page`, a window handle from
/// `Firefox::open_extension_page`) and answers its value.
pub fn on_options(ff: &Firefox, page: &str, script: &str) -> Value {
    ff.with_window(page, |session| session.execute(script, &[]))
        .unwrap()
}

/// Waits up to `timeout` for the options page's model status to change
/// from `before`; answers the new text.
pub fn model_status(ff: &Firefox, page: &str, before: &str, timeout: Duration) -> String {
    wait_for(timeout, "the model status to change", || {
        let now = on_options(
            ff,
            page,
            "return document.getElementById('model-status').textContent;",
        );
        Ok(now
            .as_str()
            .filter(|s| *s != before && !s.ends_with('…') && !s.contains('%'))
            .map(String::from))
    })
    .unwrap()
}

pub struct Env {
    pub ff: Firefox,
    pub pages: PageServer,
}

pub fn start() -> Env {
    let pages = PageServer::start().expect("local page server");
    // Every host resolves to the page server: nothing leaves this machine,
    // not even a web search's results page.
    let ff = Firefox::headless()
        .expect("Firefox with the add-on (run `make test` to build and install what it needs)");
    Env { ff, pages }
}

impl Env {
    /// Runs a tool that must succeed; answers its whole answer.
    pub fn ok(&self, name: &str, args: Value) -> Value {
        let answer = self
            .ff
            .tool(name, args.clone())
            .expect("the background answers");
        assert_eq!(answer["ok"], true, "{name}({args}) → {answer}");
        answer
    }

    /// Runs a tool that must fail; answers the error code.
    pub fn fails(&self, name: &str, args: Value) -> String {
        let answer = self
            .ff
            .tool(name, args.clone())
            .expect("the background answers");
        assert_eq!(answer["ok"], false, "{name}({args}) should fail → {answer}");
        assert!(
            answer["error"]["message"]
                .as_str()
                .is_some_and(|m| !m.is_empty()),
            "an error says why: {answer}"
        );
        answer["error"]["code"]
            .as_str()
            .unwrap_or_default()
            .to_string()
    }

    pub fn undo(&self) -> Value {
        let answer = self.ff.undo(None).expect("the background answers");
        assert_eq!(answer["ok"], true, "undo → {answer}");
        answer
    }

    /// A page of the local server under another host name (every host
    /// resolves to it), e.g. a real-looking `www.youtube.com` tab.
    pub fn on_host(&self, host: &str, slug: &str, title: &str) -> String {
        format!(
            "http://{host}:{}/page/{slug}?title={}",
            self.pages.port(),
            tab_whisperer::harness::pages::encode_component(title)
        )
    }

    /// Every tab, as `list_tabs` reports it.
    pub fn tabs(&self) -> Vec<Value> {
        self.ok("list_tabs", json!({}))["result"]["tabs"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    pub fn tab(&self, id: i64) -> Value {
        self.tabs()
            .into_iter()
            .find(|t| t["id"] == id)
            .unwrap_or_else(|| panic!("tab {id} is open"))
    }

    /// Opens a page per title in background tabs and waits until each has loaded.
    pub fn open(&self, titles: &[&str]) -> Vec<i64> {
        let ids: Vec<i64> = titles
            .iter()
            .map(|title| {
                let url = self.pages.page(title);
                let r = self.ok("create_tab", json!({ "url": url, "active": false }));
                r["result"]["tab"]["id"].as_i64().expect("tab id")
            })
            .collect();
        self.wait_titles(&ids, titles);
        ids
    }

    /// Opens `url` in a new active tab and waits for `title`.
    pub fn open_active(&self, url: &str, title: &str) -> i64 {
        let r = self.ok("create_tab", json!({ "url": url }));
        let id = r["result"]["tab"]["id"].as_i64().expect("tab id");
        self.wait_titles(&[id], &[title]);
        id
    }

    pub fn wait_titles(&self, ids: &[i64], titles: &[&str]) {
        wait_for(LOAD, "pages to load", || {
            let tabs = self.tabs();
            let loaded = ids
                .iter()
                .zip(titles)
                .all(|(id, title)| tabs.iter().any(|t| t["id"] == *id && t["title"] == *title));
            Ok(loaded.then_some(()))
        })
        .unwrap_or_else(|e| {
            let tabs: Vec<String> = self
                .tabs()
                .iter()
                .map(|t| format!("{} {}", t["url"], t["title"]))
                .collect();
            panic!("{e}: waiting for {titles:?}; tabs: {tabs:#?}")
        });
    }

    /// Waits until the tab `id` matches `check`, and answers it.
    pub fn wait_tab(&self, id: i64, what: &str, check: impl Fn(&Value) -> bool) -> Value {
        wait_for(LOAD, what, || {
            Ok(self.tabs().into_iter().find(|t| t["id"] == id && check(t)))
        })
        .unwrap_or_else(|e| {
            panic!(
                "{e}; tab now: {:?}",
                self.tabs().into_iter().find(|t| t["id"] == id)
            )
        })
    }

    /// Every window Firefox has, as `windows.getAll` answers (read
    /// directly, not through the add-on's tools).
    pub fn windows(&self) -> tab_whisperer::harness::Result<Vec<Value>> {
        let all = api(
            &self.ff,
            "return await browser.windows.getAll();",
            json!(null),
        )?;
        Ok(all.as_array().cloned().unwrap_or_default())
    }

    /// Waits until some tab has this title (a closed tab reopened).
    pub fn wait_for_title(&self, title: &str) {
        wait_for(LOAD, title, || {
            Ok(self
                .tabs()
                .iter()
                .any(|t| t["title"] == title)
                .then_some(()))
        })
        .unwrap_or_else(|e| panic!("{e}: waiting for a tab titled {title}"));
    }

    pub fn active_tab(&self, window: i64) -> Value {
        self.tabs()
            .into_iter()
            .find(|t| t["windowId"] == window && t["active"] == true)
            .expect("an active tab")
    }
}

pub fn id_list(v: &Value) -> Vec<i64> {
    v.as_array()
        .map(|a| a.iter().filter_map(Value::as_i64).collect())
        .unwrap_or_default()
}
