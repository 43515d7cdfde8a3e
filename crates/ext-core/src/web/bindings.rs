//! Raw `browser.*` bindings and JSON conversion. Each binding is declared
//! with exactly the arguments Tab Whisperer passes.

use crate::browser::{BrowserError, BrowserResult};
use js_sys::{Function, Promise, JSON};
use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = ["browser", "runtime", "onMessage"], js_name = addListener)]
    pub fn add_message_listener(f: &Function);

    #[wasm_bindgen(js_namespace = ["browser", "runtime", "onConnect"], js_name = addListener)]
    pub fn add_connect_listener(f: &Function);
    #[wasm_bindgen(js_namespace = ["browser", "runtime"], js_name = getURL)]
    pub fn runtime_url(path: &str) -> String;

    #[wasm_bindgen(catch, js_namespace = ["browser", "browserAction"], js_name = setBadgeText)]
    pub fn set_badge_text(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "browserAction"], js_name = setBadgeBackgroundColor)]
    pub fn set_badge_background(details: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "browserAction"], js_name = setBadgeTextColor)]
    pub fn set_badge_text_color(details: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "management"], js_name = getSelf)]
    pub fn management_get_self() -> Result<Promise, JsValue>;

    #[wasm_bindgen(js_namespace = ["browser", "commands", "onCommand"], js_name = addListener)]
    pub fn add_command_listener(f: &Function);
    #[wasm_bindgen(catch, js_namespace = ["browser", "notifications"], js_name = create)]
    pub fn notifications_create(options: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(js_namespace = ["browser", "i18n"], js_name = getMessage)]
    pub fn i18n_message(name: &str) -> String;

    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = getAll)]
    pub fn windows_get_all(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = update)]
    pub fn windows_update(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = create)]
    pub fn windows_create(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "windows"], js_name = remove)]
    pub fn windows_remove(id: f64) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = query)]
    pub fn tabs_query(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = update)]
    pub fn tabs_update(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = remove)]
    pub fn tabs_remove(ids: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = create)]
    pub fn tabs_create(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = move)]
    pub fn tabs_move(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = reload)]
    pub fn tabs_reload(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = discard)]
    pub fn tabs_discard(ids: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = duplicate)]
    pub fn tabs_duplicate(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = group)]
    pub fn tabs_group(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = ungroup)]
    pub fn tabs_ungroup(ids: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = goBack)]
    pub fn tabs_go_back(id: f64) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = goForward)]
    pub fn tabs_go_forward(id: f64) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = executeScript)]
    pub fn tabs_execute_script(id: f64, info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = getZoom)]
    pub fn tabs_get_zoom(id: f64) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = setZoom)]
    pub fn tabs_set_zoom(id: f64, factor: f64) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabs"], js_name = toggleReaderMode)]
    pub fn tabs_toggle_reader_mode(id: f64) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "tabGroups"], js_name = query)]
    pub fn tab_groups_query(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "tabGroups"], js_name = update)]
    pub fn tab_groups_update(id: f64, info: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "search"], js_name = get)]
    pub fn search_get() -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "search"], js_name = search)]
    pub fn search_search(info: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = search)]
    pub fn bookmarks_search(query: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = get)]
    pub fn bookmarks_get(ids: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = getRecent)]
    pub fn bookmarks_get_recent(count: f64) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = getTree)]
    pub fn bookmarks_get_tree() -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = create)]
    pub fn bookmarks_create(info: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "bookmarks"], js_name = remove)]
    pub fn bookmarks_remove(id: &str) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "history"], js_name = search)]
    pub fn history_search(query: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "storage", "local"], js_name = get)]
    pub fn storage_get(key: &str) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "storage", "local"], js_name = set)]
    pub fn storage_set(items: &JsValue) -> Result<Promise, JsValue>;
    #[wasm_bindgen(catch, js_namespace = ["browser", "storage", "local"], js_name = remove)]
    pub fn storage_remove(key: &str) -> Result<Promise, JsValue>;
}

/// `browser.runtime.id`: this extension's id.
pub fn runtime_id() -> String {
    let get = |target: &JsValue, key: &str| js_sys::Reflect::get(target, &key.into()).ok();
    get(&js_sys::global(), "browser")
        .and_then(|b| get(&b, "runtime"))
        .and_then(|r| get(&r, "id"))
        .and_then(|id| id.as_string())
        .unwrap_or_default()
}

/// How long a browser call may take. A call that has not settled by then
/// fails, so that nothing (a stalled page, a hung API) holds the
/// background's lock: the user gets an error and the next command runs.
pub const CALL_LIMIT_MS: i32 = 15_000;

/// Awaits a browser API call and answers its value as `T`.
pub async fn call<T: DeserializeOwned>(p: Result<Promise, JsValue>) -> BrowserResult<T> {
    call_within(p, CALL_LIMIT_MS).await
}

/// [`call`] with its own time limit.
pub async fn call_within<T: DeserializeOwned>(
    p: Result<Promise, JsValue>,
    limit_ms: i32,
) -> BrowserResult<T> {
    let value = settle(p, limit_ms).await?;
    let json = to_json(&value).map_err(BrowserError)?;
    serde_json::from_value(json).map_err(|e| BrowserError(format!("unexpected answer: {e}")))
}

/// Awaits a browser API call whose value does not matter.
pub async fn run(p: Result<Promise, JsValue>) -> BrowserResult<()> {
    settle(p, CALL_LIMIT_MS).await.map(|_| ())
}

/// Resolves after `ms` milliseconds.
pub async fn sleep(ms: i32) {
    let promise = Promise::new(&mut |resolve, _| {
        if let Some(window) = web_sys::window() {
            let _ = window.set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
        }
    });
    let _ = JsFuture::from(promise).await;
}

/// The promise's value, or an error if it rejects or takes longer than `limit_ms`.
async fn settle(p: Result<Promise, JsValue>, limit_ms: i32) -> BrowserResult<JsValue> {
    let p = p.map_err(js_error)?;
    let late = format!("Firefox did not answer within {} s", limit_ms / 1000);
    let mut timer = None;
    let deadline = Promise::new(&mut |_resolve, reject| {
        timer = web_sys::window().and_then(|w| {
            w.set_timeout_with_callback_and_timeout_and_arguments_1(
                &reject,
                limit_ms,
                &JsValue::from_str(&late),
            )
            .ok()
        });
    });
    let result = JsFuture::from(Promise::race(&js_sys::Array::of2(&p, &deadline))).await;
    if let (Some(timer), Some(w)) = (timer, web_sys::window()) {
        w.clear_timeout_with_handle(timer);
    }
    result.map_err(js_error)
}

fn js_error(e: JsValue) -> BrowserError {
    BrowserError(js_message(&e))
}

/// What a thrown JS value says.
pub fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| {
            e.dyn_ref::<web_sys::DomException>()
                .map(|e| format!("{}: {}", e.name(), e.message()))
        })
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

/// A JS value as JSON (undefined is null).
pub fn to_json(v: &JsValue) -> Result<Value, String> {
    if v.is_undefined() {
        return Ok(Value::Null);
    }
    let text = JSON::stringify(v).map_err(|e| js_error(e).0)?;
    match text.as_string() {
        Some(s) => serde_json::from_str(&s).map_err(|e| e.to_string()),
        None => Ok(Value::Null),
    }
}

pub fn to_js(v: &Value) -> JsValue {
    JSON::parse(&v.to_string()).unwrap_or(JsValue::NULL)
}
