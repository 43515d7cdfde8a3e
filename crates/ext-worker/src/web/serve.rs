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
use crate::pipeline::Pipeline;
use candle_core::quantized::GgmlDType;
use ext_protocol::worker::{FromWorker, LoadModel, State, Status, ToWorker, WorkerRole};
use js_sys::{Float32Array, Reflect, Uint8Array, JSON};
use serde_json::Value;
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

/// Posts an event to the background page, or (`transcribe`) a command to
/// the other worker.
fn post(mut message: FromWorker) {
    // What the worker holds once a model is loaded, and after each
    // utterance: for the options page and `make bench`.
    match &mut message {
        FromWorker::Transcribe { .. } => return to_peer(&message),
        FromWorker::Status(status) if status.state == State::Ready => {
            status.memory_bytes = Some(memory_bytes())
        }
        FromWorker::Command(command) => command.memory_bytes = Some(memory_bytes()),
        _ => {}
    }
    // Posting a plain object cannot fail.
    let _ = scope().post_message(&to_js(&message.to_json()));
}

fn to_js(value: &Value) -> JsValue {
    JSON::parse(&value.to_string()).unwrap_or(JsValue::NULL)
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
    post(FromWorker::status(State::Started));
}

fn handle(pipeline: &Rc<RefCell<Pipeline>>, data: JsValue) {
    // Audio blocks come 375 times a second: read without a JSON round trip.
    if get(&data, "type").as_string().as_deref() == Some("audio") {
        return audio(pipeline, &data);
    }
    let message = match read(&data) {
        Ok(message) => message,
        Err(e) => {
            let kind = get(&data, "type").as_string();
            return post(FromWorker::error(e.into(), kind.as_deref()));
        }
    };
    match message {
        ToWorker::Peer { role } => peer(pipeline, &data, role),
        // Only the background can post here, and only for a development
        // install (`debug_worker_trap`).
        ToWorker::DebugTrap => panic!("debug_trap: the speech worker traps"),
        ToWorker::Port => match get(&data, "port").dyn_into::<MessagePort>() {
            // The worklet's blocks then arrive through the same handler.
            Ok(port) => port.set_onmessage(scope().onmessage().as_ref()),
            Err(_) => post(FromWorker::error(
                Error::args("'port' needs a MessagePort").into(),
                Some("port"),
            )),
        },
        request @ (ToWorker::Load(_)
        | ToWorker::Import { .. }
        | ToWorker::Remove { .. }
        | ToWorker::Installed
        | ToWorker::Bundled) => {
            let pipeline = pipeline.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let kind = request.kind();
                let answer = match request {
                    ToWorker::Load(load_request) => load(&pipeline, &load_request).await,
                    ToWorker::Import {
                        model,
                        quantize,
                        fast,
                    } => import(&pipeline, &data, &model, quantize, fast).await,
                    ToWorker::Remove { model } => remove(&model).await,
                    ToWorker::Bundled => Ok(FromWorker::Models {
                        installed: store::bundled_ids().await,
                        request: None,
                    }),
                    _ => installed().await,
                };
                // Every answer, success or failure, names its request.
                post(match answer {
                    Ok(FromWorker::Status(status)) => FromWorker::Status(Status {
                        request: Some(kind.into()),
                        ..status
                    }),
                    Ok(FromWorker::Models { installed, .. }) => FromWorker::Models {
                        installed,
                        request: Some(kind.into()),
                    },
                    Ok(FromWorker::Error { error, .. }) => FromWorker::error(error, Some(kind)),
                    Ok(other) => other,
                    Err(e) => FromWorker::error(e.into(), Some(kind)),
                });
            });
        }
        control => pipeline
            .borrow_mut()
            .control(control)
            .into_iter()
            .for_each(post),
    }
}

/// A message as typed, its JS payloads (ports, samples, files) left out.
fn read(data: &JsValue) -> Result<ToWorker> {
    let copy = js_sys::Object::assign(&js_sys::Object::new(), data.unchecked_ref());
    for key in ext_protocol::worker::PAYLOAD_FIELDS {
        let _ = Reflect::delete_property(&copy, &(*key).into());
    }
    let text = JSON::stringify(&copy)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::args("the message is not JSON"))?;
    let mut message: ToWorker =
        serde_json::from_str(&text).map_err(|e| Error::args(format!("bad message: {e}")))?;
    if let ToWorker::Transcribe { pcm, .. } = &mut message {
        *pcm = samples(data, "pcm").unwrap_or_default();
    }
    Ok(message)
}

/// A `Float32Array` field as samples.
fn samples(data: &JsValue, key: &str) -> Option<Vec<f32>> {
    get(data, key)
        .dyn_into::<Float32Array>()
        .ok()
        .map(|a| a.to_vec())
}

/// A command for the other worker. Its samples go as a transferred
/// Float32Array, not as JSON numbers.
fn to_peer(message: &FromWorker) {
    let FromWorker::Transcribe { pcm, .. } = message else {
        return;
    };
    let value = to_js(&message.to_json());
    let samples = Float32Array::from(pcm.as_slice());
    let _ = Reflect::set(&value, &"pcm".into(), &samples);
    let sent = PEER.with(|peer| match peer.borrow().as_ref() {
        Some(port) => port
            .post_message_with_transferable(&value, &js_sys::Array::of1(&samples.buffer()))
            .is_ok(),
        None => false,
    });
    if !sent {
        post(FromWorker::error(
            Error::new(
                ErrorCode::ExecutionFailed,
                "the command model's worker is not connected",
            )
            .into(),
            None,
        ));
    }
}

/// Connects this worker to the other one (`role` listen: this one hands
/// commands over; command: this one transcribes them).
fn peer(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue, role: WorkerRole) {
    let Ok(port) = get(data, "port").dyn_into::<MessagePort>() else {
        return post(FromWorker::error(
            Error::args("'port' needs a MessagePort").into(),
            Some("peer"),
        ));
    };
    let from_peer = pipeline.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent)>::new(move |e: MessageEvent| {
        peer_message(&from_peer, &e.data());
    });
    port.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // Lives as long as the worker.
    on_message.forget();
    PEER.with(|peer| *peer.borrow_mut() = Some(port));
    pipeline.borrow_mut().control(ToWorker::Delegate {
        on: role == WorkerRole::Listen,
    });
    post(FromWorker::Status(Status {
        request: Some("peer".into()),
        role: Some(role),
        ..Status::new(State::Connected)
    }));
}

/// From the other worker: a command to transcribe, or its transcript.
fn peer_message(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) {
    match read(data) {
        Ok(ToWorker::Transcribe { id, prompt, pcm }) => {
            let mut reply = pipeline.borrow_mut().transcribe_for_peer(id, &pcm, &prompt);
            reply.memory_bytes = Some(memory_bytes());
            let reply = to_js(&ToWorker::Transcribed(reply).to_json());
            PEER.with(|peer| {
                if let Some(port) = peer.borrow().as_ref() {
                    let _ = port.post_message(&reply);
                }
            });
        }
        Ok(ToWorker::Transcribed(reply)) => {
            let done = pipeline.borrow_mut().transcribed(&reply);
            done.into_iter().for_each(post);
        }
        _ => {}
    }
}

fn audio(pipeline: &Rc<RefCell<Pipeline>>, data: &JsValue) {
    let Some(samples) = samples(data, "samples") else {
        return post(FromWorker::error(
            Error::audio("'samples' must be a Float32Array").into(),
            Some("audio"),
        ));
    };
    let rate = get(data, "rate").as_f64().unwrap_or(0.0);
    if !(1.0..=384_000.0).contains(&rate) {
        return post(FromWorker::error(
            Error::audio(format!("bad sample rate {rate}")).into(),
            Some("audio"),
        ));
    }
    // When the worklet sent it (ms since the epoch): how long it waited
    // here while the worker was busy.
    let queued_ms = get(data, "sent")
        .as_f64()
        .map_or(0.0, |sent| (js_sys::Date::now() - sent).max(0.0));
    pipeline
        .borrow_mut()
        .audio_queued(&samples, rate as u32, queued_ms, &mut post);
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
async fn load(pipeline: &Rc<RefCell<Pipeline>>, req: &LoadModel) -> Result<FromWorker> {
    models::check_id(&req.model)?;
    post(FromWorker::Status(Status {
        model: Some(req.model.clone().into()),
        ..Status::new(State::Loading)
    }));
    let (files, source) = match find(&req.model).await? {
        Some(found) => found,
        None => (download(req).await?, Source::Download),
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

async fn download(req: &LoadModel) -> Result<ModelFiles> {
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
    models::check_source(&base)?;
    let get = |file: &'static str| {
        let url = models::file_url(&base, file);
        let id = req.model.clone();
        async move { store::download(&url, &id, file, &|m| post(m)).await }
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
) -> Result<FromWorker> {
    let new = matches!(source, Source::Download | Source::Import);
    if new {
        if let (true, WeightFile::Safetensors(bytes)) = (quantize, &files.weights) {
            post(FromWorker::Status(Status {
                model: Some(id.into()),
                ..Status::new(State::Quantizing)
            }));
            files.weights = WeightFile::Gguf(safetensors_to_gguf(bytes, GgmlDType::Q8_0)?);
        }
        // Aside first: the model installed now stays until this one loads.
        store::unstage(id).await?;
        store::stage(id, models::CONFIG, &mut files.config).await?;
        store::stage(id, models::TOKENIZER, &mut files.tokenizer).await?;
        let name = models::weight_name(&files.weights);
        let (WeightFile::Gguf(w) | WeightFile::Safetensors(w)) = &mut files.weights;
        store::stage(id, name, w).await?;
    }
    let answer = pipeline.borrow_mut().load(files, fast);
    match answer {
        FromWorker::Status(status) => {
            if new {
                store::promote(id).await?;
            }
            let second_opinion = load_second_opinion(pipeline, id).await;
            Ok(FromWorker::Status(Status {
                model_id: Some(id.into()),
                source: Some(source.name().into()),
                second_opinion,
                ..status
            }))
        }
        error => {
            if new {
                store::unstage(id).await?;
            }
            Ok(error)
        }
    }
}

/// Beside `id`, the model that checks its unsure guided hearings
/// ([`models::second_opinion_for`]), loaded from the .xpi; its id. One
/// that does not load is left out: the model works without it.
async fn load_second_opinion(pipeline: &Rc<RefCell<Pipeline>>, id: &str) -> Option<String> {
    // The one there before goes first: two at once would hold memory
    // the browser may not have.
    pipeline.borrow_mut().drop_second_opinion();
    let bundled = store::bundled_ids().await;
    let second = models::second_opinion_for(id, &bundled)?.to_string();
    let (files, _) = find(&second).await.ok().flatten()?;
    pipeline.borrow_mut().load_second_opinion(files).ok()?;
    Some(second)
}

/// Model files chosen on the options page.
async fn import(
    pipeline: &Rc<RefCell<Pipeline>>,
    data: &JsValue,
    id: &str,
    quantize: bool,
    fast: bool,
) -> Result<FromWorker> {
    models::check_id(id)?;
    let bytes = |key: &str| -> Result<Vec<u8>> {
        let value = get(data, key);
        if value.is_instance_of::<js_sys::ArrayBuffer>() || value.is_instance_of::<Uint8Array>() {
            Ok(Uint8Array::new(&value).to_vec())
        } else {
            Err(Error::args(format!("'{key}' must be the file's bytes")))
        }
    };
    let weights = bytes("weights")?;
    if crate::ctranslate2::is_model_bin(&weights) {
        // A faster-whisper directory: converted here (its config.json is
        // not a Hugging Face one, and is not needed).
        if quantize {
            post(FromWorker::Status(Status {
                model: Some(id.into()),
                ..Status::new(State::Quantizing)
            }));
        }
        let dtype = quantize.then_some(GgmlDType::Q8_0);
        let files = crate::ctranslate2::convert(&weights, bytes("tokenizer")?, dtype)?;
        drop(weights);
        return install(pipeline, id, files, Source::Import, false, fast).await;
    }
    let files = ModelFiles {
        config: bytes("config")?,
        tokenizer: bytes("tokenizer")?,
        weights: models::weight_file(weights),
    };
    install(pipeline, id, files, Source::Import, quantize, fast).await
}

async fn remove(id: &str) -> Result<FromWorker> {
    models::check_id(id)?;
    if store::bundled_ids().await.iter().any(|b| b == id) {
        return Err(Error::args(format!(
            "{id} comes with the extension and cannot be removed"
        )));
    }
    store::remove(id).await?;
    installed().await
}

async fn installed() -> Result<FromWorker> {
    Ok(FromWorker::Models {
        installed: store::installed().await?,
        request: None,
    })
}
