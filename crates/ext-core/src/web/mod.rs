//! The background page's wasm entry point: answers `runtime.onMessage` with
//! [`Background::handle`]. Everything crosses the boundary as JSON, so a
//! malformed message becomes a clear error answer, never an exception.

mod api;
mod firefox;
mod llm;
mod speech_worker;
mod storage;
mod voice;

use crate::api::Background;
use crate::error::ToolError;
use firefox::FirefoxBrowser;
use js_sys::Promise;
use serde_json::{json, Value};
use std::rc::Rc;
use storage::LocalStorage;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(start)]
pub fn start() {
    let background = Rc::new(Background::new(FirefoxBrowser, LocalStorage));
    let voice = voice::Voice::new(background.clone());
    let listener_voice = voice.clone();
    let on_message = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(
        move |message: JsValue, _sender: JsValue| {
            let background = background.clone();
            let voice = listener_voice.clone();
            future_to_promise(async move {
                let kind = js_sys::Reflect::get(&message, &"type".into())
                    .ok()
                    .and_then(|t| t.as_string())
                    .unwrap_or_default();
                if voice::Voice::handles(&kind) {
                    return Ok(api::to_js(&voice.handle(&kind, message).await));
                }
                if kind == "llm_test" {
                    let message = api::to_json(&message).unwrap_or(Value::Null);
                    return Ok(api::to_js(&llm::test_message(&background, &message).await));
                }
                let answer = match api::to_json(&message) {
                    Ok(msg) => background.handle(msg).await,
                    Err(e) => {
                        json!({ "ok": false, "error": ToolError::invalid(format!("The message is not JSON: {e}")).to_json() })
                    }
                };
                if kind == "set_settings" && answer["ok"] == true {
                    voice.settings_changed(&answer["settings"]);
                }
                Ok(api::to_js(&answer))
            })
        },
    );
    api::add_message_listener(on_message.as_ref().unchecked_ref());
    // The listeners live as long as the background page.
    on_message.forget();

    let command_voice = voice.clone();
    let on_command = Closure::<dyn Fn(JsValue)>::new(move |name: JsValue| {
        if name.as_string().as_deref() == Some("toggle-listening") {
            let voice = command_voice.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let answer = voice.handle("voice_toggle", JsValue::UNDEFINED).await;
                if answer["ok"] != true {
                    let message = answer["error"]["message"].as_str().unwrap_or_default();
                    notify(message.to_string()).await;
                }
            });
        }
    });
    api::add_command_listener(on_command.as_ref().unchecked_ref());
    on_command.forget();

    let on_connect = Closure::<dyn Fn(JsValue)>::new(move |port: JsValue| voice.connect(port));
    api::add_connect_listener(on_connect.as_ref().unchecked_ref());
    on_connect.forget();
}

/// Shows a desktop notification (best effort: a failure is not actionable).
async fn notify(message: String) {
    let options = json!({
        "type": "basic",
        "title": "Tab Whisperer",
        "message": message,
        "iconUrl": "icons/icon.svg",
    });
    let _ = api::run(api::notifications_create(&api::to_js(&options))).await;
}
