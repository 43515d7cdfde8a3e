//! The speech worker's message loop. Audio blocks (from the AudioWorklet,
//! through a `MessagePort` the background hands over) and controls go to
//! the [`Pipeline`]; model requests fetch, keep and load files with
//! [`super::store`]. Every request that fails answers an `error` message
//! and leaves the worker as it was.

use super::store;
use crate::convert::safetensors_to_gguf;
use crate::engine::{ModelFiles, WeightFile};
use crate::error::{Error, ErrorCode, Result};
use crate::models;
use crate::pipeline::{Control, Pipeline};
use candle_core::quantized::GgmlDType;
use js_sys::{Float32Array, Reflect, Uint8Array, JSON};
use serde::Deserialize;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, MessageEvent, MessagePort};

fn scope() -> DedicatedWorkerGlobalScope {
    js_sys::global().unchecked_into()
}

thread_local! {
    /// The other speech worker, when there are two: the command model's
    /// (for the listening worker) or the listening one (for the command
    /// model's).
    static PEER: RefCell<Option<MessagePort>> = const { RefCell::new(None) };
}

fn post(mut message: Value) {
    if message["type"] == "transcribe" {
        return to_peer(message);
    }
    // What the worker holds once a model is loaded, and after each
    // utterance: for the options page and `make bench`.
    if message["state"] == "ready" || message["type"] == "command" {
        message["memory_bytes"] = memory_bytes().into();
    }
    let value = JSON::parse(&message.to_string()).unwrap_or(JsValue::NULL);
    // Posting a plain object cannot fail.
    let _ = scope().post_message(&value);
}

/// The size of the worker's wasm memory (which only grows: its peak).
fn memory_bytes() -> f64 {
    wasm_bindgen::memory()
        .unchecked_into::<js_sys::WebAssembly::Memory>()
        .buffer()
        .unchecked_into::<js_sys::ArrayBuffer>()
        .byte_length()
        .into()
}

fn get(data: &JsValue, key: &str) -> JsValue {
    Reflect::get(data, &key.into()).unwrap_or(JsValue::UNDEFINED)
}

/// Starts answering messages, then says `status` started.
#[wasm_bindgen]
pub fn serve() {
    let pipeline = Rc::new(RefCell::new(Pipeline::new()));
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        handle(&pipeline, e.data());
    });
    scope().set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
    post(json!({ "type": "status", "state": "started" }));
}

fn handle(pipeline: &Rc<RefCell<Pipeline>>, data: JsValue) {
    let kind = get(&data, "type").as_string().unwrap_or_default();
    match kind.as_str() {
        "audio" => audio(pipeline, &data),
        "peer" => peer(pipeline, &data),
        "port" => match get(&data, "port").dyn_into::<MessagePort>() {
            // The worklet's blocks then arrive through the same handler.
            Ok(port) => port.set_onmessage(scope().onmessage().as_ref()),
            Err(_) => post(error("port", Error::args("'port' needs a MessagePort"))),
        },
        "load" | "import" | "remove" | "installed" => {
            let pipeline = pipeline.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let answer = match kind.as_str() {
                    "load" => load(&pipeline, &data).await,
                    "import" => import(&pipeline, &data).await,
                    "remove" => remove(&data).await,
                    _ => installed().await,
                };
                // Every answer, success or failure, names its request.
                let mut answer = answer.unwrap_or_else(|e| error(&kind, e));
                answer["request"] = kind.as_str().into();
                post(answer);
            });
        }
        _ => {
            let control = request::<Control>(&data);
            match control {
                Ok(control) => pipeline
                    .borrow_mut()
                    .control(control)
                    .into_iter()
                    .for_each(post),
                Err(e) => post(error(&kind, e)),
            }
        }
    }
}

/// A message for the other worker. An utterance's samples go as a
/// transferred Float32Array, not as JSON numbers.
fn to_peer(mut message: Value) {
    let pcm: Vec<f32> = message["pcm"]
        .take()
        .as_array()
        .map(|a| a.iter().map(|v| v.as_f64().unwrap_or(0.0) as f32).collect())
        .unwrap_or_default();
    let value = JSON::parse(&message.to_string()).unwrap_or(JsValue::NULL);
    let samples = Float32Array::from(pcm.as_slice());
    let _ = Reflect::set(&value, &"pcm".into(), &samples);
    let sent = PEER.with(|peer| match peer.borrow().as_ref() {
        Some(port) => port
            .post_message_with_transferable(&value, &js_sys::Array::of1(&samples.buffer()))
            .is_ok(),
        None => false,
    });
    if !sent {
        post(
            json!({ "type": "error", "error": Error::new(ErrorCode::ExecutionFailed,
            "the command model's worker is not connected") }),
        );
    }
}

/// Connects this worker to the other one (`role` listen: this one hands
/// commands over; command: this one transcribes them).
fn peer(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) {
    let Ok(port) = get(data, "port").dyn_into::<MessagePort>() else {
        return post(error("peer", Error::args("'port' needs a MessagePort")));
    };
    let role = get(data, "role").as_string().unwrap_or_default();
    let from_peer = pipeline.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        peer_message(&from_peer, &e.data());
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
    PEER.with(|peer| *peer.borrow_mut() = Some(port));
    pipeline.borrow_mut().control(Control::Delegate {
        on: role == "listen",
    });
    post(json!({ "type": "status", "state": "connected", "request": "peer", "role": role }));
}

fn peer_message(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) {
    match get(data, "type").as_string().as_deref() {
        Some("transcribe") => {
            let id = get(data, "id").as_f64().unwrap_or(0.0) as u64;
            let prompt = get(data, "prompt").as_string().unwrap_or_default();
            let pcm = get(data, "pcm")
                .dyn_into::<Float32Array>()
                .map(|a| a.to_vec())
                .unwrap_or_default();
            let mut reply = pipeline.borrow_mut().transcribe_for_peer(id, pcm, prompt);
            reply["memory_bytes"] = memory_bytes().into();
            let value = JSON::parse(&reply.to_string()).unwrap_or(JsValue::NULL);
            PEER.with(|peer| {
                if let Some(port) = peer.borrow().as_ref() {
                    let _ = port.post_message(&value);
                }
            });
        }
        Some("transcribed") => {
            let reply = JSON::stringify(data)
                .ok()
                .and_then(|s| s.as_string())
                .and_then(|s| serde_json::from_str::<Value>(&s).ok())
                .unwrap_or(Value::Null);
            let done = pipeline.borrow_mut().transcribed(&reply);
            for mut message in done {
                message["command_memory_bytes"] = reply["memory_bytes"].clone();
                post(message);
            }
        }
        _ => {}
    }
}

fn error(request: &str, error: Error) -> Value {
    json!({ "type": "error", "request": request, "error": error })
}

fn audio(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) {
    let Ok(samples) = get(data, "samples").dyn_into::<Float32Array>() else {
        return post(error(
            "audio",
            Error::audio("'samples' must be a Float32Array"),
        ));
    };
    let rate = get(data, "rate").as_f64().unwrap_or(0.0);
    if !(1.0..=384_000.0).contains(&rate) {
        return post(error(
            "audio",
            Error::audio(format!("bad sample rate {rate}")),
        ));
    }
    let samples = samples.to_vec();
    pipeline
        .borrow_mut()
        .audio(&samples, rate as u32, &mut |m| post(m));
}

#[derive(Deserialize)]
struct LoadRequest {
    model: String,
    /// Where to download from when the model is neither bundled nor kept.
    #[serde(default)]
    url: Option<String>,
    /// Keep f32 weights as q8_0 (a quarter of the memory).
    #[serde(default)]
    quantize: bool,
    /// The quantized output projection (faster, within 1e-2).
    #[serde(default)]
    fast: bool,
}

fn request<T: for<'de> Deserialize<'de>>(data: &JsValue) -> Result<T> {
    let text = JSON::stringify(data)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::args("the message is not JSON"))?;
    serde_json::from_str(&text).map_err(|e| Error::args(format!("bad message: {e}")))
}

/// Where the model came from, for the options page.
#[derive(Clone, Copy, PartialEq)]
enum Source {
    Bundled,
    Cache,
    Download,
    Import,
}

impl Source {
    fn name(self) -> &'static str {
        match self {
            Source::Bundled => "bundled",
            Source::Cache => "cache",
            Source::Download => "download",
            Source::Import => "import",
        }
    }
}

/// Loads a model: bundled in the .xpi, else kept in the cache, else
/// downloaded (kept once it loads). Answers `status` ready or `error`.
async fn load(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) -> Result<Value> {
    let req: LoadRequest = request(data)?;
    models::check_id(&req.model)?;
    post(json!({ "type": "status", "state": "loading", "model": req.model }));
    let (files, source) = match find(&req.model).await? {
        Some(found) => found,
        None => (download(&req).await?, Source::Download),
    };
    install(pipeline, &req.model, files, source, req.quantize, req.fast).await
}

/// The model's files, bundled or kept, if it has them all.
async fn find(id: &str) -> Result<Option<(ModelFiles, Source)>> {
    if let (Some(config), Some(tokenizer)) = (
        store::bundled(id, models::CONFIG).await,
        store::bundled(id, models::TOKENIZER).await,
    ) {
        let weights = match store::bundled(id, models::GGUF).await {
            Some(w) => Some(WeightFile::Gguf(w)),
            None => store::bundled(id, models::SAFETENSORS)
                .await
                .map(WeightFile::Safetensors),
        };
        if let Some(weights) = weights {
            let files = ModelFiles {
                config,
                tokenizer,
                weights,
            };
            return Ok(Some((files, Source::Bundled)));
        }
    }
    let (Some(config), Some(tokenizer)) = (
        store::cached(id, models::CONFIG).await?,
        store::cached(id, models::TOKENIZER).await?,
    ) else {
        return Ok(None);
    };
    let weights = match store::cached(id, models::GGUF).await? {
        Some(w) => WeightFile::Gguf(w),
        None => match store::cached(id, models::SAFETENSORS).await? {
            Some(w) => WeightFile::Safetensors(w),
            None => return Ok(None),
        },
    };
    Ok(Some((
        ModelFiles {
            config,
            tokenizer,
            weights,
        },
        Source::Cache,
    )))
}

async fn download(req: &LoadRequest) -> Result<ModelFiles> {
    let base = req
        .url
        .clone()
        .filter(|u| !u.trim().is_empty())
        .or_else(|| models::default_source(&req.model))
        .ok_or_else(|| {
            Error::new(
                ErrorCode::NoModel,
                format!("{} is not installed and has no download address", req.model),
            )
        })?;
    let get = |file: &'static str| {
        let url = models::file_url(&base, file);
        let id = req.model.clone();
        async move { store::download(&url, &id, file, &post).await }
    };
    let config = get(models::CONFIG).await?;
    let tokenizer = get(models::TOKENIZER).await?;
    let weights = WeightFile::Safetensors(get(models::SAFETENSORS).await?);
    Ok(ModelFiles {
        config,
        tokenizer,
        weights,
    })
}

/// Loads `files` into the pipeline, first keeping downloaded or imported
/// ones in the cache (and quantizing them if asked). Files that do not
/// load are removed again, so a corrupt download is never "installed".
async fn install(
    pipeline: &Rc<RefCell<Pipeline>>,
    id: &str,
    mut files: ModelFiles,
    source: Source,
    quantize: bool,
    fast: bool,
) -> Result<Value> {
    let new = matches!(source, Source::Download | Source::Import);
    if new {
        if let (true, WeightFile::Safetensors(bytes)) = (quantize, &files.weights) {
            post(json!({ "type": "status", "state": "quantizing", "model": id }));
            files.weights = WeightFile::Gguf(safetensors_to_gguf(bytes, GgmlDType::Q8_0)?);
        }
        store::remove(id).await?;
        store::keep(id, models::CONFIG, &mut files.config).await?;
        store::keep(id, models::TOKENIZER, &mut files.tokenizer).await?;
        let name = models::weight_name(&files.weights);
        let (WeightFile::Gguf(w) | WeightFile::Safetensors(w)) = &mut files.weights;
        store::keep(id, name, w).await?;
    }
    let mut answer = pipeline.borrow_mut().load(files, fast);
    if answer["type"] == "error" && new {
        store::remove(id).await?;
    }
    answer["model_id"] = id.into();
    answer["source"] = source.name().into();
    Ok(answer)
}

/// Model files chosen on the options page.
async fn import(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) -> Result<Value> {
    let id = get(data, "model").as_string().unwrap_or_default();
    models::check_id(&id)?;
    let bytes = |key: &str| -> Result<Vec<u8>> {
        let value = get(data, key);
        if value.is_instance_of::<js_sys::ArrayBuffer>() || value.is_instance_of::<Uint8Array>() {
            Ok(Uint8Array::new(&value).to_vec())
        } else {
            Err(Error::args(format!("'{key}' must be the file's bytes")))
        }
    };
    let files = ModelFiles {
        config: bytes("config")?,
        tokenizer: bytes("tokenizer")?,
        weights: models::weight_file(bytes("weights")?),
    };
    let quantize = get(data, "quantize").as_bool().unwrap_or(false);
    let fast = get(data, "fast").as_bool().unwrap_or(false);
    install(pipeline, &id, files, Source::Import, quantize, fast).await
}

async fn remove(data: &JsValue) -> Result<Value> {
    let id = get(data, "model").as_string().unwrap_or_default();
    models::check_id(&id)?;
    if store::bundled_ids().await.contains(&id) {
        return Err(Error::args(format!(
            "{id} comes with the extension and cannot be removed"
        )));
    }
    store::remove(&id).await?;
    Ok(json!({ "type": "models", "installed": store::installed().await? }))
}

async fn installed() -> Result<Value> {
    Ok(json!({ "type": "models", "installed": store::installed().await? }))
}
