//! The language-model server over `fetch`: "Test connection" asks it for
//! its models (see [`crate::llm`] for what is asked and what the answer
//! means), and the agent's requests go through [`transport`].

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
    let request = HttpRequest {
        url: probe.url.clone(),
        authorization: probe.authorization,
        body: Value::Null,
    };
    let ignore: OnChunk = Rc::new(|_: &str| {});
    let answer = fetch(&request, TIMEOUT_MS, &ignore)
        .await
        .map_err(|detail| {
            ToolError::failed(format!(
                "Could not reach {}: {detail}. Is the server running, and is the base URL right?",
                probe.url
            ))
        })?;
    read_models(settings, &probe.url, answer.status, &answer.body)
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
        Box::pin(async move { fetch(&request, CHAT_TIMEOUT_MS, &on_chunk).await })
    })
}

/// What a deadline's timer calls when it fires: abort the fetch.
type OnTimeout = Closure<dyn FnMut()>;

/// Aborts a fetch when its time is up; [`Deadline::extend`] moves the
/// stall limit on (each piece of a stream).
struct Deadline {
    window: web_sys::Window,
    controller: AbortController,
    /// The total limit first, then the stall limit, if any: each timer
    /// with the closure it calls, dropped when the timer is cleared (a
    /// closure given away with `once_into_js` leaks when its timer never
    /// fires, once per piece of a stream).
    timers: RefCell<Vec<(i32, OnTimeout)>>,
    /// Why the fetch was aborted, once it was.
    why: Rc<RefCell<Option<String>>>,
}

impl Deadline {
    /// Aborts in `ms` (saying `why`), unless cleared or extended first.
    fn arm(&self, ms: i32, why: String) {
        let (note, controller) = (self.why.clone(), self.controller.clone());
        let fire = OnTimeout::new(move || {
            note.borrow_mut().get_or_insert_with(|| why.clone());
            controller.abort();
        });
        if let Ok(timer) = self
            .window
            .set_timeout_with_callback_and_timeout_and_arguments_0(
                fire.as_ref().unchecked_ref(),
                ms,
            )
        {
            self.timers.borrow_mut().push((timer, fire));
        }
    }

    /// The stall limit starts again, `ms` from now (the total stays).
    fn extend(&self, ms: i32, why: String) {
        for (t, _fire) in self.timers.borrow_mut().drain(1..) {
            self.window.clear_timeout_with_handle(t);
        }
        self.arm(ms, why);
    }

    fn clear(&self) {
        for (t, _fire) in self.timers.borrow_mut().drain(..) {
            self.window.clear_timeout_with_handle(t);
        }
    }
}

/// A timer must not outlive the closure it calls, whichever way the
/// fetch ends.
impl Drop for Deadline {
    fn drop(&mut self) {
        self.clear();
    }
}

/// Fetches `request`: a GET when it has no body, else a POST of its JSON;
/// no answer in `limit_ms` is given up on. A streamed answer (`stream:
/// true`) is read piece by piece: `limit_ms` for its first word, then a
/// stall is [`STREAM_STALL_MS`] of silence, and [`STREAM_LIMIT_MS`] ends it.
async fn fetch(
    request: &HttpRequest,
    limit_ms: i32,
    on_chunk: &OnChunk,
) -> Result<HttpAnswer, String> {
    let window = web_sys::window().ok_or("no window")?;
    let streaming = request.body["stream"] == true;
    let init = RequestInit::new();
    let headers = js_sys::Object::new();
    if request.body.is_null() {
        init.set_method("GET");
    } else {
        init.set_method("POST");
        let _ = js_sys::Reflect::set(&headers, &"Content-Type".into(), &"application/json".into());
        init.set_body(&request.body.to_string().into());
    }
    if let Some(authorization) = &request.authorization {
        let _ = js_sys::Reflect::set(&headers, &"Authorization".into(), &authorization.into());
    }
    init.set_headers(&headers);
    let controller = AbortController::new().map_err(|_| "no AbortController")?;
    init.set_signal(Some(&controller.signal()));
    let deadline = Deadline {
        window: window.clone(),
        controller,
        timers: RefCell::default(),
        why: Rc::default(),
    };
    let no_answer = format!("no answer in {} s", limit_ms / 1000);
    if streaming {
        // The first word may take as long as a whole answer (a local model
        // reading a long prompt); after it, a pause means a stall.
        deadline.arm(
            STREAM_LIMIT_MS,
            format!("the stream did not end in {} s", STREAM_LIMIT_MS / 1000),
        );
        deadline.extend(limit_ms, no_answer);
    } else {
        deadline.arm(limit_ms, no_answer);
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
