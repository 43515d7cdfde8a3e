//! What every page shares: the browser bindings, talking to the
//! background page (typed [`Request`]s, JSON answers), translated text,
//! and small DOM helpers.

use ext_protocol::answer::Failure;
use ext_protocol::{Error, Request};
use js_sys::{Promise, JSON};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Document, Element, Event};

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
pub fn t(key: &str, fallback: &str) -> String {
    get_message(key)
        .ok()
        .filter(|m| !m.is_empty())
        .unwrap_or_else(|| fallback.to_string())
}

/// Puts the translated text into every `data-i18n` element (and
/// `data-i18n-placeholder` placeholder, `data-i18n-title` title) of the
/// page.
pub fn translate_page() {
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

/// Sends a request to the background and answers its JSON reply.
pub async fn ask(request: &Request) -> Value {
    let message = serde_json::to_value(request).unwrap_or_default();
    send(&JSON::parse(&message.to_string()).unwrap_or(JsValue::NULL)).await
}

/// Sends a message built by hand (one that carries bytes beside its JSON:
/// a model import) and answers its JSON reply.
pub async fn send(message: &JsValue) -> Value {
    let reply = match send_message(message) {
        Ok(p) => JsFuture::from(p).await,
        Err(e) => Err(e),
    };
    match reply {
        Ok(v) => JSON::stringify(&v)
            .ok()
            .and_then(|s| s.as_string())
            .and_then(|s| serde_json::from_str(&s).ok())
            .unwrap_or(Value::Null),
        Err(e) => Failure::new(Error::failed(format!(
            "The background page did not answer: {}",
            e.as_string().unwrap_or_default()
        )))
        .to_json(),
    }
}

pub fn document() -> Document {
    web_sys::window()
        .and_then(|w| w.document())
        .expect("a page has a document")
}

pub fn by_id(id: &str) -> Option<Element> {
    document().get_element_by_id(id)
}

pub fn element(tag: &str, class: &str, text: &str) -> Element {
    let e = document().create_element(tag).expect("valid tag");
    if !class.is_empty() {
        e.set_class_name(class);
    }
    if !text.is_empty() {
        e.set_text_content(Some(text));
    }
    e
}

pub fn set_status(text: &str) {
    if let Some(s) = by_id("status") {
        s.set_text_content(Some(text));
    }
}

pub fn on(target: &Element, event: &str, f: impl FnMut(Event) + 'static) {
    let closure = Closure::<dyn FnMut(Event)>::new(f);
    let _ = target.add_event_listener_with_callback(event, closure.as_ref().unchecked_ref());
    // Page-lifetime listener.
    closure.forget();
}

/// A long-lived port to the background, named `name`: `on_message` gets
/// each message it posts (voice events, download progress) as JSON.
pub fn connect(name: &str, on_message: impl Fn(Value) + 'static) {
    let info = serde_json::json!({ "name": name }).to_string();
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

/// `performance.mark("tw-interactive")`: the command box takes input now
/// (what `make bench` measures, from the page's start).
pub fn mark_interactive() {
    let performance = js_sys::Reflect::get(&js_sys::global(), &"performance".into());
    if let Ok(performance) = performance {
        if let Ok(mark) = js_sys::Reflect::get(&performance, &"mark".into()) {
            if let Some(mark) = mark.dyn_ref::<js_sys::Function>() {
                let _ = mark.call1(&performance, &"tw-interactive".into());
            }
        }
    }
}
