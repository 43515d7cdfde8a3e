//! Draws the popup and the options page and talks to the background.

use crate::input::{message_for, History};
use crate::settings::{display, field_value, patch_for, value_at};
use crate::view::{answer_view, live_transcript, log_view, voice_status_key, EntryView};
use js_sys::{Promise, JSON};
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;

mod models;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Document, Element, Event, HtmlInputElement, HtmlSelectElement, KeyboardEvent};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(catch, js_namespace = ["browser", "runtime"], js_name = sendMessage)]
    fn send_message(msg: &JsValue) -> Result<Promise, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "runtime"], js_name = connect)]
    fn runtime_connect(info: &JsValue) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(catch, js_namespace = ["browser", "i18n"], js_name = getMessage)]
    fn get_message(key: &str) -> Result<String, JsValue>;
}

/// The text for `key` in the browser's language (`_locales`), or
/// `fallback` where there is none.
fn t(key: &str, fallback: &str) -> String {
    get_message(key)
        .ok()
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

/// Puts the translated text into every `data-i18n` element (and
/// `data-i18n-placeholder` placeholder, `data-i18n-title` title) of the
/// page.
fn translate_page() {
    for (selector, attribute) in [
        ("[data-i18n]", "data-i18n"),
        ("[data-i18n-placeholder]", "data-i18n-placeholder"),
        ("[data-i18n-title]", "data-i18n-title"),
    ] {
        let Ok(list) = document().query_selector_all(selector) else {
            continue;
        };
        for element in (0..list.length())
            .filter_map(|i| list.item(i))
            .filter_map(|n| n.dyn_into::<Element>().ok())
        {
            let key = element.get_attribute(attribute).unwrap_or_default();
            let Ok(text) = get_message(&key) else {
                continue;
            };
            if text.is_empty() {
                continue;
            }
            match attribute {
                "data-i18n" => element.set_text_content(Some(&text)),
                "data-i18n-title" => {
                    let _ = element.set_attribute("title", &text);
                }
                _ => {
                    let _ = element.set_attribute("placeholder", &text);
                }
            }
        }
    }
}

/// Sends a message to the background and answers its JSON reply.
async fn ask(message: &Value) -> Value {
    let js = JSON::parse(&message.to_string()).unwrap_or(JsValue::NULL);
    let reply = match send_message(&js) {
        Ok(p) => JsFuture::from(p).await,
        Err(e) => Err(e),
    };
    match reply {
        Ok(v) => JSON::stringify(&v)
            .ok()
            .and_then(|s| s.as_string())
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(Value::Null),
        Err(e) => json!({ "ok": false, "error": { "code": "EXECUTION_FAILED",
            "message": format!("The background page did not answer: {}", e.as_string().unwrap_or_default()) } }),
    }
}

fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a page has a document")
}

fn by_id(id: &str) -> Option<Element> {
    document().get_element_by_id(id)
}

fn element(tag: &str, class: &str, text: &str) -> Element {
    let e = document().create_element(tag).expect("valid tag");
    if !class.is_empty() {
        e.set_class_name(class);
    }
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    e
}

fn set_status(text: &str) {
    if let Some(s) = by_id("status") {
        s.set_text_content(Some(text));
    }
}

fn on(target: &Element, event: &str, f: impl FnMut(Event) + 'static) {
    let closure = Closure::<dyn FnMut(Event)>::new(f);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    // Page-lifetime listener.
    closure.forget();
}

/// One conversation or history item.
fn render_entry(view: &EntryView) -> Element {
    let li = element("li", "", "");
    if let Some(t) = view.time {
        let date = js_sys::Date::new(&JsValue::from_f64(t));
        let _ = li.append_child(&element(
            "div",
            "time",
            &String::from(date.to_locale_string("default", &JsValue::UNDEFINED)),
        ));
    }
    let _ = li.append_child(&element("div", "said", &view.said));
    let _ = li.append_child(&element(
        "div",
        if view.ok { "reply ok" } else { "reply error" },
        &view.reply,
    ));
    for call in &view.calls {
        let details = element("details", "", "");
        let _ = details.append_child(&element("summary", "", &call.tool));
        let _ = details.append_child(&element("pre", "", &format!("args {}", call.args)));
        let _ = details.append_child(&element("pre", "", &format!("result {}", call.result)));
        let _ = li.append_child(&details);
    }
    if view.needs_confirmation {
        for (key, label, class, answer) in [
            ("confirm", "Confirm", "confirm", "yes"),
            ("cancel", "Cancel", "cancel", "no"),
        ] {
            let button = element("button", class, &t(key, label));
            let _ = button.set_attribute("type", "button");
            on(&button, "click", move |_| {
                spawn_local(run(json!({ "type": "command", "text": answer })));
            });
            let _ = li.append_child(&button);
        }
    }
    if let Some(id) = view.undo_id.clone() {
        let button = element("button", "undo", &t("undo", "Undo"));
        let _ = button.set_attribute("type", "button");
        on(&button, "click", move |_| {
            let id = id.clone();
            spawn_local(async move {
                run(json!({ "type": "undo", "undo_id": id })).await;
            });
        });
        let _ = li.append_child(&button);
    }
    li
}

/// Sends one message and shows the answer at the top of the conversation.
async fn run(message: Value) {
    set_status(&t("statusThinking", "Thinking…"));
    let answer = ask(&message).await;
    show_answer(&message, &answer);
}

/// A command's answer (typed or spoken): the status line, and the entry on
/// top of the conversation.
fn show_answer(message: &Value, answer: &Value) {
    let view = answer_view(message, answer);
    set_status(&if view.ok {
        t("statusDone", "Done")
    } else {
        t("statusError", "Error")
    });
    if let Some(list) = by_id("conversation") {
        let _ = list.prepend_with_node_1(&render_entry(&view));
    }
}

/// The mic button, the input level and what was heard: the background's
/// voice events arrive over a long-lived port (which also tells it a popup
/// is open, so a finished command is shown here, not as a notification).
fn start_voice() {
    if let Some(mic) = by_id("mic") {
        on(&mic.clone(), "click", move |_| {
            let mic = mic.clone();
            spawn_local(async move {
                let answer = ask(&json!({ "type": "voice_toggle" })).await;
                show_listening(&mic, answer["listening"] == true);
                if answer["ok"] != true {
                    set_status(answer["error"]["message"].as_str().unwrap_or_default());
                }
            });
        });
    }
    connect("popup", |message| {
        if let Some(status) = message.get("status") {
            if let Some(mic) = by_id("mic") {
                show_listening(&mic, status["listening"] == true);
            }
            return;
        }
        voice_event(&message["event"]);
    });
}

/// A long-lived port to the background, named `name`: `on_message` gets
/// each message it posts (voice events, download progress) as JSON.
fn connect(name: &str, on_message: impl Fn(Value) + 'static) {
    let info = json!({ "name": name }).to_string();
    let Ok(port) = runtime_connect(&JSON::parse(&info).unwrap_or(JsValue::NULL)) else {
        return;
    };
    let on_message = Closure::<dyn Fn(JsValue)>::new(move |message: JsValue| {
        let text = JSON::stringify(&message)
            .ok()
            .and_then(|s| s.as_string())
            .unwrap_or_default();
        if let Ok(message) = serde_json::from_str::<Value>(&text) {
            on_message(message);
        }
    });
    let on_message_event =
        js_sys::Reflect::get(&port, &"onMessage".into()).unwrap_or(JsValue::NULL);
    if let Ok(add) = js_sys::Reflect::get(&on_message_event, &"addListener".into())
        .and_then(|f| f.dyn_into::<js_sys::Function>())
    {
        let _ = add.call1(&on_message_event, on_message.as_ref());
    }
    // Lives as long as the page.
    on_message.forget();
}

fn show_listening(mic: &Element, listening: bool) {
    let _ = mic.set_attribute("aria-pressed", if listening { "true" } else { "false" });
    if let Some(level) = by_id("level") {
        let _ = if listening {
            level.remove_attribute("hidden")
        } else {
            level.set_attribute("hidden", "")
        };
    }
}

fn voice_event(event: &Value) {
    if let (Some(line), Some(text)) = (by_id("heard"), live_transcript(event)) {
        line.set_text_content(Some(&text));
        let _ = if text.is_empty() {
            line.set_attribute("hidden", "")
        } else {
            line.remove_attribute("hidden")
        };
    }
    match event["type"].as_str() {
        Some("level") => {
            if let (Some(level), Some(db)) = (by_id("level"), event["db"].as_f64()) {
                let _ = level.set_attribute("value", &format!("{:.0}", db.max(-60.0)));
            }
        }
        Some("command") if event["answer"].is_object() => {
            let message = json!({ "type": "command", "text": event["text"] });
            show_answer(&message, &event["answer"]);
        }
        _ => {
            if let Some(key) = voice_status_key(event) {
                let text = match event["error"]["message"].as_str() {
                    Some(message) => message.to_string(),
                    None => t(key, key),
                };
                set_status(&text);
            }
        }
    }
}

fn start_popup() {
    start_voice();
    let (Some(form), Some(input)) = (by_id("command-form"), by_id("command")) else {
        return;
    };
    let Ok(input) = input.dyn_into::<HtmlInputElement>() else {
        return;
    };
    let _ = input.focus();
    let history = Rc::new(RefCell::new(History::default()));
    // Earlier sessions' commands, from the action log.
    spawn_local({
        let history = Rc::clone(&history);
        async move {
            let log = ask(&json!({ "type": "log", "limit": 100 })).await;
            let commands: Vec<String> = log["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["command"].as_str().map(str::to_string))
                .filter(|c| c != "undo")
                .collect();
            *history.borrow_mut() = History::from_newest_first(commands.iter().map(String::as_str));
        }
    });
    on(&form, "submit", {
        let (input, history) = (input.clone(), Rc::clone(&history));
        move |event| {
            event.prevent_default();
            match message_for(&input.value()) {
                Ok(Some(message)) => {
                    history.borrow_mut().push(&input.value());
                    input.set_value("");
                    spawn_local(run(message));
                }
                Ok(None) => {}
                Err(e) => set_status(&e),
            }
        }
    });
    on(&input.clone().into(), "keydown", move |event| {
        let Some(key) = event.dyn_ref::<KeyboardEvent>().map(KeyboardEvent::key) else {
            return;
        };
        let recalled = match key.as_str() {
            "ArrowUp" => history
                .borrow_mut()
                .older(&input.value())
                .map(str::to_string),
            "ArrowDown" => history.borrow_mut().newer().map(str::to_string),
            "Escape" if !input.value().is_empty() => {
                // Clears the line; a second Escape closes the popup.
                history.borrow_mut().push("");
                Some(String::new())
            }
            _ => None,
        };
        if let Some(line) = recalled {
            event.prevent_default();
            input.set_value(&line);
        }
    });
    if let (Some(button), Some(panel)) = (by_id("show-history"), by_id("history-panel")) {
        on(&button.clone(), "click", move |_| {
            let open = panel.has_attribute("hidden");
            if open {
                let _ = panel.remove_attribute("hidden");
                spawn_local(show_history());
            } else {
                let _ = panel.set_attribute("hidden", "");
            }
            let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
        });
    }
    start_clear_history();
    mark_interactive();
}

/// `performance.mark("tw-interactive")`: the command box takes input now
/// (what `make bench` measures, from the page's start).
fn mark_interactive() {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into());
    if let Ok(performance) = performance {
        if let Ok(mark) = js_sys::Reflect::get(&performance, &"mark".into()) {
            if let Some(mark) = mark.dyn_ref::<js_sys::Function>() {
                let _ = mark.call1(&performance, &"tw-interactive".into());
            }
        }
    }
}

fn start_clear_history() {
    if let Some(button) = by_id("clear-history") {
        on(&button, "click", |_| {
            spawn_local(async {
                ask(&json!({ "type": "clear_log" })).await;
                show_history().await;
            });
        });
    }
}

async fn show_history() {
    let answer = ask(&json!({ "type": "log" })).await;
    let Some(list) = by_id("history") else {
        return;
    };
    list.set_text_content(None);
    let entries = answer
        .get("entries")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    set_status(&format!("{} entries", entries.len()));
    for entry in &entries {
        let _ = list.append_child(&render_entry(&log_view(entry)));
    }
}

fn start_options() {
    spawn_local(show_history());
    start_clear_history();
    start_settings();
    models::start();
}

fn settings_status(text: &str, error: bool) {
    if let Some(s) = by_id("settings-status") {
        s.set_text_content(Some(text));
        s.set_class_name(if error { "error" } else { "" });
    }
}

/// The `[data-setting]` fields of the options page.
fn setting_fields() -> Vec<Element> {
    let Ok(list) = document().query_selector_all("[data-setting]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

/// Shows `settings` in the fields.
fn fill_settings(settings: &Value) {
    fill_fields(settings, None);
}

/// Shows `settings` in the fields, or only in the one for `only`: after a
/// save, the others may hold what is being typed and not yet saved.
fn fill_fields(settings: &Value, only: Option<&str>) {
    for field in setting_fields() {
        let path = field.get_attribute("data-setting").unwrap_or_default();
        if only.is_some_and(|only| only != path) {
            continue;
        }
        let Some(value) = value_at(settings, &path) else {
            continue;
        };
        if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
            if input.type_() == "checkbox" {
                input.set_checked(value.as_bool().unwrap_or(false));
            } else {
                input.set_value(&display(value));
            }
        } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
            select.set_value(&display(value));
        }
    }
}

/// Saves one field's change; on a refusal, says why and shows the setting
/// as it still is.
async fn save_setting(field: Element) {
    let path = field.get_attribute("data-setting").unwrap_or_default();
    let (kind, raw, checked) = if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
        (input.type_(), input.value(), input.checked())
    } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
        ("select".to_string(), select.value(), false)
    } else {
        return;
    };
    let answer = match field_value(&kind, &raw, checked) {
        Ok(value) => {
            ask(&json!({ "type": "set_settings", "settings": patch_for(&path, value) })).await
        }
        Err(e) => json!({ "ok": false, "error": { "message": e } }),
    };
    if answer["ok"] == true {
        settings_status(&t("settingsSaved", "Saved."), false);
        fill_fields(&answer["settings"], Some(&path));
    } else {
        // The field goes back first, so that when the reason is announced
        // the form already shows what is still set.
        let current = ask(&json!({ "type": "settings" })).await;
        fill_fields(&current["settings"], Some(&path));
        let message = answer["error"]["message"].as_str().unwrap_or("Not saved.");
        settings_status(message, true);
    }
}

fn start_settings() {
    let Some(form) = by_id("settings-form") else {
        return;
    };
    spawn_local(async {
        let answer = ask(&json!({ "type": "settings" })).await;
        fill_settings(&answer["settings"]);
    });
    on(&form, "change", |event| {
        if let Some(field) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) {
            if field.has_attribute("data-setting") {
                spawn_local(save_setting(field));
            }
        }
    });
    on(&form, "submit", |event| event.prevent_default());
    let (Some(reveal), Some(key)) = (
        by_id("reveal-key"),
        document()
            .query_selector("[data-setting='llm.apiKey']")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok()),
    ) else {
        return;
    };
    start_llm_test();
    on(&reveal.clone(), "click", move |_| {
        let shown = key.type_() == "text";
        key.set_type(if shown { "password" } else { "text" });
        let label = if shown {
            t("showKey", "Show key")
        } else {
            t("hideKey", "Hide key")
        };
        reveal.set_text_content(Some(&label));
        let _ = reveal.set_attribute("aria-pressed", if shown { "false" } else { "true" });
    });
}

/// "Test connection": asks the language-model server (as the fields show
/// it, saved or not) for its models.
fn start_llm_test() {
    let Some(button) = by_id("llm-test") else {
        return;
    };
    on(&button.clone(), "click", move |_| {
        let say = |text: &str, error: bool| {
            if let Some(s) = by_id("llm-status") {
                s.set_text_content(Some(text));
                s.set_class_name(if error { "error" } else { "" });
            }
        };
        let mut shown = serde_json::Map::new();
        for field in setting_fields() {
            let path = field.get_attribute("data-setting").unwrap_or_default();
            let Some(key) = path.strip_prefix("llm.") else {
                continue;
            };
            let value = if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
                input.value()
            } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
                select.value()
            } else {
                continue;
            };
            if matches!(key, "provider" | "baseUrl" | "model" | "apiKey") {
                shown.insert(key.to_string(), value.into());
            }
        }
        say(&t("llmTesting", "Asking the server for its models…"), false);
        // One test at a time: an older answer must not overwrite a newer.
        let _ = button.set_attribute("disabled", "");
        let button = button.clone();
        spawn_local(async move {
            let answer = ask(&json!({ "type": "llm_test", "llm": shown })).await;
            let _ = button.remove_attribute("disabled");
            match answer["reply"].as_str() {
                Some(reply) if answer["ok"] == true => say(reply, false),
                _ => say(
                    answer["error"]["message"].as_str().unwrap_or("Failed."),
                    true,
                ),
            }
        });
    });
}

/// The one-time microphone page: Firefox asks here (a tab can show the
/// prompt; the background page cannot), and remembers the answer for the
/// whole extension.
fn start_permission() {
    let status = document().get_element_by_id("permission-status");
    let say = move |key: &str, fallback: &str| {
        if let Some(s) = &status {
            s.set_text_content(Some(&t(key, fallback)));
        }
    };
    wasm_bindgen_futures::spawn_local(async move {
        let constraints = web_sys::MediaStreamConstraints::new();
        constraints.set_audio(&JsValue::TRUE);
        let asked = web_sys::window()
            .and_then(|w| w.navigator().media_devices().ok())
            .and_then(|d| d.get_user_media_with_constraints(&constraints).ok());
        let Some(asked) = asked else {
            return say(
                "permissionUnavailable",
                "This Firefox has no microphone access.",
            );
        };
        match wasm_bindgen_futures::JsFuture::from(asked).await {
            Ok(stream) => {
                let stream: web_sys::MediaStream = stream.unchecked_into();
                for track in stream.get_tracks().iter() {
                    if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                        track.stop();
                    }
                }
                say("permissionGranted", "Microphone allowed. Close this tab and start listening again.");
            }
            Err(_) => say(
                "permissionDenied",
                "The microphone was not allowed. Allow it from the microphone icon in the address bar, then reload this page.",
            ),
        }
    });
}

#[wasm_bindgen(start)]
pub fn start() {
    let page = document()
        .body()
        .and_then(|b| b.get_attribute("data-page"))
        .unwrap_or_default();
    translate_page();
    match page.as_str() {
        "options" => start_options(),
        "permission" => start_permission(),
        _ => start_popup(),
    }
}
