//! "Test connection": asks the configured language-model server for its
//! models (see [`crate::llm`] for what is asked and what the answer means).

use super::voice::Bg;
use crate::agent::provider::{HttpAnswer, HttpRequest};
use crate::agent::OnChunk;
use crate::error::ToolError;
use crate::llm::{probe, read_models};
use crate::settings::LlmSettings;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
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
/// most ten of these)…
const CHAT_TIMEOUT_MS: i32 = 60_000;
/// …and a streamed answer that, once begun, sends nothing for this long has
/// stalled (one that keeps sending may take until [`STREAM_LIMIT_MS`]).
const STREAM_STALL_MS: i32 = 20_000;
const STREAM_LIMIT_MS: i32 = 300_000;

/// The agent's way to the language model: a POST of JSON with `fetch`; a
/// streamed body is read piece by piece.
pub fn transport() -> crate::agent::Transport {
    Rc::new(|request: HttpRequest, on_chunk: OnChunk| {
        Box::pin(async move { post_json(&request, &on_chunk).await })
    })
}

/// Aborts a fetch when its time is up; [`Deadline::extend`] moves the
/// stall limit on (each piece of a stream).
struct Deadline {
    window: web_sys::Window,
    abort: JsValue,
    timers: RefCell<Vec<i32>>,
    /// Why the fetch was aborted, once it was.
    why: Rc<RefCell<Option<String>>>,
}

impl Deadline {
    fn new(window: web_sys::Window, controller: AbortController) -> Deadline {
        let why: Rc<RefCell<Option<String>>> = Rc::default();
        let abort = Closure::<dyn Fn()>::new(move || controller.abort()).into_js_value();
        Deadline {
            window,
            abort,
            timers: RefCell::default(),
            why,
        }
    }

    /// Aborts in `ms` (saying `why`), unless cleared or extended first.
    fn arm(&self, ms: i32, why: String) -> Option<i32> {
        let note = self.why.clone();
        let abort: js_sys::Function = self.abort.clone().unchecked_into();
        let fire = Closure::once_into_js(move || {
            note.borrow_mut().get_or_insert(why);
            let _ = abort.call0(&JsValue::NULL);
        });
        self.window
            .set_timeout_with_callback_and_timeout_and_arguments_0(fire.unchecked_ref(), ms)
            .ok()
    }

    /// The stall limit starts again, `ms` from now (the first timer, the
    /// total, stays).
    fn extend(&self, ms: i32, why: String) {
        let mut timers = self.timers.borrow_mut();
        while timers.len() > 1 {
            if let Some(t) = timers.pop() {
                self.window.clear_timeout_with_handle(t);
            }
        }
        drop(timers);
        if let Some(t) = self.arm(ms, why) {
            self.timers.borrow_mut().push(t);
        }
    }

    fn clear(&self) {
        for t in self.timers.borrow_mut().drain(..) {
            self.window.clear_timeout_with_handle(t);
        }
    }
}

async fn post_json(request: &HttpRequest, on_chunk: &OnChunk) -> Result<HttpAnswer, String> {
    let window = web_sys::window().ok_or("no window")?;
    let streaming = request.body["stream"] == true;
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
    let deadline = Deadline::new(window.clone(), controller);
    let (limit, why) = if streaming {
        (STREAM_LIMIT_MS, "the stream did not end")
    } else {
        (CHAT_TIMEOUT_MS, "no answer")
    };
    if let Some(t) = deadline.arm(limit, format!("{why} in {} s", limit / 1000)) {
        deadline.timers.borrow_mut().push(t);
    }
    if streaming {
        // The first word may take as long as a whole answer (a local model
        // reading a long prompt); after it, a pause means a stall.
        deadline.extend(
            CHAT_TIMEOUT_MS,
            format!("no answer in {} s", CHAT_TIMEOUT_MS / 1000),
        );
    }
    let answer = async {
        let response: Response =
            JsFuture::from(window.fetch_with_str_and_init(&request.url, &init))
                .await?
                .unchecked_into();
        let retry_after = response.headers().get("Retry-After").ok().flatten();
        let body = match response.body().filter(|_| streaming && response.ok()) {
            Some(stream) => read_stream(&stream, on_chunk, &deadline).await?,
            None => JsFuture::from(response.text()?)
                .await?
                .as_string()
                .unwrap_or_default(),
        };
        Ok::<_, JsValue>(HttpAnswer {
            status: response.status(),
            body,
            retry_after,
        })
    }
    .await;
    deadline.clear();
    answer.map_err(|e| {
        let name = js_sys::Reflect::get(&e, &"name".into())
            .ok()
            .and_then(|n| n.as_string())
            .unwrap_or_default();
        match deadline.why.borrow().clone() {
            Some(why) if name == "AbortError" => why,
            _ => "the connection failed".into(),
        }
    })
}

/// A streamed body, handed to `on_chunk` piece by piece and answered whole.
async fn read_stream(
    stream: &web_sys::ReadableStream,
    on_chunk: &OnChunk,
    deadline: &Deadline,
) -> Result<String, JsValue> {
    let reader: web_sys::ReadableStreamDefaultReader = stream.get_reader().unchecked_into();
    let decoder = web_sys::TextDecoder::new()?;
    let options = web_sys::TextDecodeOptions::new();
    options.set_stream(true);
    let mut whole = String::new();
    loop {
        let read = JsFuture::from(reader.read()).await?;
        if js_sys::Reflect::get(&read, &"done".into())?.is_truthy() {
            break;
        }
        let bytes: js_sys::Uint8Array =
            js_sys::Reflect::get(&read, &"value".into())?.unchecked_into();
        let text = decoder.decode_with_js_u8_array_and_options(&bytes, &options)?;
        deadline.extend(
            STREAM_STALL_MS,
            format!(
                "the stream stalled: nothing for {} s",
                STREAM_STALL_MS / 1000
            ),
        );
        on_chunk(&text);
        whole.push_str(&text);
    }
    Ok(whole)
}
