//! "Test connection": asks the configured language-model server for its
//! models (see [`crate::llm`] for what is asked and what the answer means).

use super::voice::Bg;
use crate::agent::provider::{HttpAnswer, HttpRequest};
use crate::error::ToolError;
use crate::llm::{probe, read_models};
use crate::settings::LlmSettings;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, RequestInit, Response};

/// A server that has not answered by then is reported as unreachable.
const TIMEOUT_MS: i32 = 10_000;

/// `{type: "llm_test", llm?}`: the saved settings, with what the page
/// shows over them (a field may not have been saved yet).
pub async fn test_message(background: &Bg, shown: Option<&Value>) -> Value {
    let saved = match background.settings().await {
        Ok(settings) => settings,
        Err(e) => return json!({ "ok": false, "error": e.to_json() }),
    };
    test_connection(&saved.llm.with_shown(shown)).await
}

async fn test_connection(settings: &LlmSettings) -> Value {
    match ask(settings).await {
        Ok(answer) => answer,
        Err(e) => json!({ "ok": false, "error": e.to_json() }),
    }
}

async fn ask(settings: &LlmSettings) -> Result<Value, ToolError> {
    let probe = probe(settings)?;
    let unreachable = |detail: String| {
        ToolError::failed(format!(
            "Could not reach {}: {detail}. Is the server running, and is the base URL right?",
            probe.url
        ))
    };
    let window = web_sys::window().ok_or_else(|| unreachable("no window".into()))?;
    let init = RequestInit::new();
    init.set_method("GET");
    let headers = js_sys::Object::new();
    if let Some(authorization) = &probe.authorization {
        let _ = js_sys::Reflect::set(&headers, &"Authorization".into(), &authorization.into());
    }
    init.set_headers(&headers);
    let controller =
        AbortController::new().map_err(|_| unreachable("no AbortController".into()))?;
    init.set_signal(Some(&controller.signal()));
    let abort = Closure::once_into_js(move || controller.abort());
    let timer = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(abort.unchecked_ref(), TIMEOUT_MS)
        .ok();
    let response = JsFuture::from(window.fetch_with_str_and_init(&probe.url, &init)).await;
    let body = match response {
        Ok(response) => {
            let response: Response = response.unchecked_into();
            let text = match response.text() {
                Ok(p) => JsFuture::from(p).await.ok().and_then(|t| t.as_string()),
                Err(_) => None,
            };
            Ok((response.status(), text.unwrap_or_default()))
        }
        Err(e) => Err(e),
    };
    if let Some(timer) = timer {
        window.clear_timeout_with_handle(timer);
    }
    let (status, body) = body.map_err(|e| {
        let name = js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        unreachable(if name == "AbortError" {
            format!("no answer in {} s", TIMEOUT_MS / 1000)
        } else {
            "the connection failed".into()
        })
    })?;
    read_models(settings, &probe.url, status, &body)
}

/// A model that has not answered by then is given up on (a turn takes at
/// most ten of these).
const CHAT_TIMEOUT_MS: i32 = 60_000;

/// The agent's way to the language model: a POST of JSON with `fetch`.
pub fn transport() -> crate::agent::Transport {
    std::rc::Rc::new(|request: HttpRequest| Box::pin(async move { post_json(&request).await }))
}

async fn post_json(request: &HttpRequest) -> Result<HttpAnswer, String> {
    let window = web_sys::window().ok_or("no window")?;
    let init = RequestInit::new();
    init.set_method("POST");
    let headers = js_sys::Object::new();
    let _ = js_sys::Reflect::set(&headers, &"Content-Type".into(), &"application/json".into());
    if let Some(authorization) = &request.authorization {
        let _ = js_sys::Reflect::set(&headers, &"Authorization".into(), &authorization.into());
    }
    init.set_headers(&headers);
    init.set_body(&request.body.to_string().into());
    let controller = AbortController::new().map_err(|_| "no AbortController")?;
    init.set_signal(Some(&controller.signal()));
    let abort = Closure::once_into_js(move || controller.abort());
    let timer = window
        .set_timeout_with_callback_and_timeout_and_arguments_0(
            abort.unchecked_ref(),
            CHAT_TIMEOUT_MS,
        )
        .ok();
    let answer = async {
        let response: Response =
            JsFuture::from(window.fetch_with_str_and_init(&request.url, &init))
                .await?
                .unchecked_into();
        let retry_after = response.headers().get("Retry-After").ok().flatten();
        let text = JsFuture::from(response.text()?).await?;
        Ok::<_, JsValue>(HttpAnswer {
            status: response.status(),
            body: text.as_string().unwrap_or_default(),
            retry_after,
        })
    }
    .await;
    if let Some(timer) = timer {
        window.clear_timeout_with_handle(timer);
    }
    answer.map_err(|e| {
        let name = js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        if name == "AbortError" {
            format!("no answer in {} s", CHAT_TIMEOUT_MS / 1000)
        } else {
            "the connection failed".into()
        }
    })
}
