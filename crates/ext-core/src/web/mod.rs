//! The background page's wasm entry point. Every message arrives here and
//! is routed in one place: voice and model requests to [`voice::Voice`],
//! `llm_test` to [`llm`], everything else to [`Background`]. A malformed
//! message becomes a clear error answer, never an exception.

mod bindings;
mod firefox;
mod llm;
mod speech_worker;
mod storage;
mod voice;

use crate::background::Background;
use ext_protocol::answer::Failure;
use ext_protocol::port::{AgentEvent, ToPage};
use ext_protocol::{Error, Request};
use firefox::FirefoxBrowser;
use js_sys::Promise;
use serde_json::{json, Value};
use std::rc::Rc;
use storage::LocalStorage;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(restart_after_panic));
    let background = Rc::new(Background::new(FirefoxBrowser, LocalStorage));
    background.set_transport(llm::transport());
    let voice = voice::Voice::new(background.clone());
    let pages = voice.clone();
    background.set_progress(Rc::new(move |event: AgentEvent| {
        // With the popup closed, a turn's answer comes as a notification.
        if let AgentEvent::Done { reply } = &event {
            if !pages.has_page(ext_protocol::port::POPUP) {
                wasm_bindgen_futures::spawn_local(notify(reply.clone()));
            }
        }
        pages.broadcast(&ToPage::Agent { event });
    }));
    let listener_voice = voice.clone();
    let on_message = Closure::<dyn Fn(JsValue, JsValue) -> Promise>::new(
        move |message: JsValue, sender: JsValue| {
            let background = background.clone();
            let voice = listener_voice.clone();
            let own = from_own_page(&sender);
            future_to_promise(async move {
                let answer = if own {
                    route(&background, &voice, message).await
                } else {
                    Failure::new(Error::refused(
                        "Tab Whisperer takes messages only from its own pages.",
                    ))
                    .to_json()
                };
                Ok(bindings::to_js(&answer))
            })
        },
    );
    bindings::add_message_listener(on_message.as_ref().unchecked_ref());
    // The listeners live as long as the background page.
    on_message.forget();

    let command_voice = voice.clone();
    let on_command = Closure::<dyn Fn(JsValue)>::new(move |name: JsValue| {
        if name.as_string().as_deref() == Some("toggle-listening") {
            let voice = command_voice.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let request = Request::VoiceToggle(Default::default());
                let answer = voice.handle(request, JsValue::UNDEFINED).await;
                if answer["ok"] != true {
                    let message = answer["error"]["message"].as_str().unwrap_or_default();
                    notify(message.to_string()).await;
                }
            });
        }
    });
    bindings::add_command_listener(on_command.as_ref().unchecked_ref());
    on_command.forget();

    let on_connect = Closure::<dyn Fn(JsValue)>::new(move |port: JsValue| {
        let sender = js_sys::Reflect::get(&port, &"sender".into()).unwrap_or(JsValue::NULL);
        if from_own_page(&sender) {
            voice.connect(port);
        } else if let Ok(disconnect) = js_sys::Reflect::get(&port, &"disconnect".into()) {
            if let Ok(disconnect) = disconnect.dyn_into::<js_sys::Function>() {
                let _ = disconnect.call0(&port);
            }
        }
    });
    bindings::add_connect_listener(on_connect.as_ref().unchecked_ref());
    on_connect.forget();
}

/// Whether a message or port comes from one of the extension's own pages.
fn from_own_page(sender: &JsValue) -> bool {
    let sender = bindings::to_json(sender).unwrap_or(Value::Null);
    ext_protocol::sender::is_own_page(
        &sender,
        &bindings::runtime_id(),
        &bindings::runtime_url("/"),
    )
}

/// Reads a message and sends it where it is answered.
async fn route(
    background: &Rc<Background<FirefoxBrowser, LocalStorage>>,
    voice: &Rc<voice::Voice>,
    message: JsValue,
) -> Value {
    let json = match bindings::to_json(&message) {
        Ok(json) => json,
        Err(e) => {
            return Failure::new(Error::invalid(format!("The message is not JSON: {e}"))).to_json()
        }
    };
    let request = match Request::parse(&json) {
        Ok(request) => request,
        Err(e) => return Failure::new(e).to_json(),
    };
    match request {
        request if request.is_voice() => voice.handle(request, message).await,
        Request::DebugPanic => {
            if installed_for_development().await {
                background.panic_holding_the_lock().await;
            }
            Failure::new(Error::refused(
                "debug_panic is only for a temporarily installed (development) add-on.",
            ))
            .to_json()
        }
        Request::DebugWorkerTrap => {
            if installed_for_development().await {
                voice.debug_trap();
                return serde_json::json!({ "ok": true });
            }
            Failure::new(Error::refused(
                "debug_worker_trap is only for a temporarily installed (development) add-on.",
            ))
            .to_json()
        }
        Request::LlmTest { llm } => llm::test_message(background, llm.as_ref()).await,
        request => {
            let changes_settings = matches!(request, Request::SetSettings { .. });
            let answer = background.answer(request).await;
            // "stop listening" typed: the voice stops too.
            if answer["stop_listening"] == true {
                voice.stop();
            }
            if changes_settings && answer["ok"] == true {
                if let Ok(settings) = background.settings().await {
                    voice.settings_changed(&settings);
                }
            }
            answer
        }
    }
}

/// Whether the add-on was installed temporarily (about:debugging, web-ext,
/// the test harness), not by a user from an .xpi.
async fn installed_for_development() -> bool {
    let me: Value = bindings::call(bindings::management_get_self())
        .await
        .unwrap_or_default();
    me["installType"] == "development"
}

/// Where the time of the last restart after a panic is kept (the page's
/// session storage outlives a reload).
const RESTARTED_AT: &str = "tw-restarted-after-panic-at";

/// A panic leaves this wasm instance mid-operation (the busy lock held, a
/// cell borrowed): nothing after it can be trusted, and release builds
/// abort. Say what happened, and reload the background page: settings,
/// log and undo history are in storage, and the next message is answered
/// by a fresh instance. Not twice within a minute, so a panic while
/// starting cannot loop.
fn restart_after_panic(info: &std::panic::PanicHookInfo) {
    web_sys::console::error_1(&format!("Tab Whisperer: {info}").into());
    let Some(window) = web_sys::window() else {
        return;
    };
    let now = js_sys::Date::now();
    let session = window.session_storage().ok().flatten();
    let last = session
        .as_ref()
        .and_then(|s| s.get_item(RESTARTED_AT).ok().flatten())
        .and_then(|t| t.parse::<f64>().ok());
    if crate::background::restart_due(last, now) {
        if let Some(s) = &session {
            let _ = s.set_item(RESTARTED_AT, &now.to_string());
        }
        let _ = window.location().reload();
    }
}

/// Shows a desktop notification (best effort: a failure is not actionable).
async fn notify(message: String) {
    let options = json!({
        "type": "basic",
        "title": "Tab Whisperer",
        "message": message,
        "iconUrl": "icons/icon.svg",
    });
    let _ = bindings::run(bindings::notifications_create(&bindings::to_js(&options))).await;
}
