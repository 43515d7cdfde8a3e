//! The background page's wasm entry point: answers `runtime.onMessage` with
//! [`Background::handle`]. Everything crosses the boundary as JSON, so a
//! malformed message becomes a clear error answer, never an exception.

mod api;
mod firefox;
mod storage;

use crate::api::Background;
use crate::error::ToolError;
use firefox::FirefoxBrowser;
use js_sys::Promise;
use serde_json::json;
use std::rc::Rc;
use storage::LocalStorage;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(start)]
pub fn start() {
    let background = Rc::new(Background::new(FirefoxBrowser, LocalStorage));
    let on_message = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(
        move |message: JsValue, _sender: JsValue| {
            let background = background.clone();
            future_to_promise(async move {
                let answer = match api::to_json(&message) {
                    Ok(msg) => background.handle(msg).await,
                    Err(e) => {
                        json!({ "ok": false, "error": ToolError::invalid(format!("The message is not JSON: {e}")).to_json() })
                    }
                };
                Ok(api::to_js(&answer))
            })
        },
    );
    api::add_message_listener(on_message.as_ref().unchecked_ref());
    // The listeners live as long as the background page.
    on_message.forget();

    let on_command = Closure::<dyn Fn(JsValue)>::new(|name: JsValue| {
        if name.as_string().as_deref() == Some("toggle-listening") {
            wasm_bindgen_futures::spawn_local(notify(api::i18n_message("voiceNotReady")));
        }
    });
    api::add_command_listener(on_command.as_ref().unchecked_ref());
    on_command.forget();
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
