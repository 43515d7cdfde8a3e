//! Model files in and out of the browser: bundled in the .xpi, kept in the
//! Cache API, downloaded with progress. Each function is one browser
//! round trip; what to do with the bytes is decided in `serve`.

use crate::error::{Error, ErrorCode, Result};
use crate::models::{self, Progress};
use ext_protocol::worker::FromWorker;
use js_sys::{Reflect, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use web_sys::{Cache, ReadableStreamDefaultReader, Response, ResponseInit, WorkerGlobalScope};

fn scope() -> WorkerGlobalScope {
    js_sys::global().unchecked_into()
}

fn message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| format!("{e:?}"))
}

fn storage(e: JsValue) -> Error {
    Error::new(ErrorCode::StorageFailed, message(&e))
}

async fn open_cache() -> Result<Cache> {
    let caches = scope().caches().map_err(storage)?;
    let cache = JsFuture::from(caches.open(models::CACHE_NAME))
        .await
        .map_err(storage)?;
    Ok(cache.unchecked_into())
}

async fn bytes(response: &Response) -> Result<Vec<u8>> {
    let promise = response.array_buffer().map_err(storage)?;
    let buffer = JsFuture::from(promise).await.map_err(storage)?;
    Ok(Uint8Array::new(&buffer).to_vec())
}

/// The SHA-256 of `data` in hex (Web Crypto: the browser's own code, much
/// faster than hashing in wasm).
async fn sha256(data: &[u8]) -> Result<String> {
    let subtle = scope().crypto().map_err(storage)?.subtle();
    let promise = subtle
        .digest_with_str_and_u8_array("SHA-256", data)
        .map_err(storage)?;
    let digest = JsFuture::from(promise).await.map_err(storage)?;
    Ok(models::hex(&Uint8Array::new(&digest).to_vec()))
}

/// A file of a model bundled in the .xpi, if there is one.
pub async fn bundled(id: &str, file: &str) -> Option<Vec<u8>> {
    fetch_bytes(&models::bundled_url(id, file)).await
}

/// A file of a model kept in the cache, if it is there.
pub async fn cached(id: &str, file: &str) -> Result<Option<Vec<u8>>> {
    let cache = open_cache().await?;
    let found = JsFuture::from(cache.match_with_str(&models::cache_key(id, file)))
        .await
        .map_err(storage)?;
    if found.is_undefined() || found.is_null() {
        return Ok(None);
    }
    let response: Response = found.unchecked_into();
    let recorded = response.headers().get(models::SHA256_HEADER).ok().flatten();
    let data = bytes(&response).await?;
    // Files kept by a version that recorded no hash are taken as they are.
    if let Some(recorded) = recorded {
        let actual = sha256(&data).await?;
        if let Err(e) = models::check_kept(id, file, &actual, Some(&recorded)) {
            JsFuture::from(cache.delete_with_str(&models::cache_key(id, file)))
                .await
                .map_err(storage)?;
            return Err(e);
        }
    }
    Ok(Some(data))
}

/// Keeps a new model's file aside (see [`models::staging_key`]) until it
/// loads, with its SHA-256 recorded to check whenever it is read back.
pub async fn stage(id: &str, file: &str, data: &mut [u8]) -> Result<()> {
    let cache = open_cache().await?;
    let headers = web_sys::Headers::new().map_err(storage)?;
    headers
        .set(models::SHA256_HEADER, &sha256(data).await?)
        .map_err(storage)?;
    let init = ResponseInit::new();
    init.set_headers(&headers);
    let response = Response::new_with_opt_u8_array_and_init(Some(data), &init).map_err(storage)?;
    JsFuture::from(cache.put_with_str(&models::staging_key(id, file), &response))
        .await
        .map_err(storage)?;
    Ok(())
}

/// Makes a staged model the installed one: its files replace the old
/// model's, then old files the new one lacks go.
pub async fn promote(id: &str) -> Result<()> {
    let cache = open_cache().await?;
    let mut moved = Vec::new();
    for file in models::FILES {
        let staged = models::staging_key(id, file);
        let found = JsFuture::from(cache.match_with_str(&staged))
            .await
            .map_err(storage)?;
        if found.is_undefined() || found.is_null() {
            continue;
        }
        let response: Response = found.unchecked_into();
        JsFuture::from(cache.put_with_str(&models::cache_key(id, file), &response))
            .await
            .map_err(storage)?;
        JsFuture::from(cache.delete_with_str(&staged))
            .await
            .map_err(storage)?;
        moved.push(file);
    }
    for file in models::FILES.iter().filter(|f| !moved.contains(f)) {
        JsFuture::from(cache.delete_with_str(&models::cache_key(id, file)))
            .await
            .map_err(storage)?;
    }
    Ok(())
}

/// Drops a staged model that did not load.
pub async fn unstage(id: &str) -> Result<()> {
    let cache = open_cache().await?;
    for file in models::FILES {
        JsFuture::from(cache.delete_with_str(&models::staging_key(id, file)))
            .await
            .map_err(storage)?;
    }
    Ok(())
}

/// Removes every file of a model from the cache.
pub async fn remove(id: &str) -> Result<()> {
    let cache = open_cache().await?;
    for file in [
        models::CONFIG,
        models::TOKENIZER,
        models::SAFETENSORS,
        models::GGUF,
    ] {
        JsFuture::from(cache.delete_with_str(&models::cache_key(id, file)))
            .await
            .map_err(storage)?;
    }
    Ok(())
}

/// The complete models in the cache.
/// The models bundled in the .xpi (none when it has no index).
pub async fn bundled_ids() -> Vec<String> {
    let Some(index) = fetch_bytes(models::BUNDLED_INDEX).await else {
        return Vec::new();
    };
    serde_json::from_slice(&index).unwrap_or_default()
}

async fn fetch_bytes(url: &str) -> Option<Vec<u8>> {
    let response: Response = JsFuture::from(scope().fetch_with_str(url))
        .await
        .ok()?
        .unchecked_into();
    if !response.ok() {
        return None;
    }
    bytes(&response).await.ok()
}

/// The models at hand: bundled or kept in the cache, sorted.
pub async fn installed() -> Result<Vec<String>> {
    let mut all = cached_ids().await?;
    all.extend(bundled_ids().await);
    all.sort();
    all.dedup();
    Ok(all)
}

async fn cached_ids() -> Result<Vec<String>> {
    let cache = open_cache().await?;
    let requests = JsFuture::from(cache.keys()).await.map_err(storage)?;
    let keys: Vec<String> = js_sys::Array::from(&requests)
        .iter()
        .filter_map(|r| r.dyn_into::<web_sys::Request>().ok())
        .map(|r| r.url())
        .collect();
    Ok(models::installed(&keys))
}

/// Resolves with `undefined` after `ms`: raced against a step of a
/// download, it tells a stalled server from a slow one.
fn timer(ms: i32) -> js_sys::Promise {
    js_sys::Promise::new(&mut |resolve, _| {
        let _ = scope().set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, ms);
    })
}

/// `promise`, or `None` if it has not settled within [`models::STALL_MS`].
async fn within_stall_limit(
    promise: js_sys::Promise,
) -> std::result::Result<Option<JsValue>, JsValue> {
    let race = js_sys::Promise::race(&js_sys::Array::of2(&promise, &timer(models::STALL_MS)));
    let settled = JsFuture::from(race).await?;
    Ok((!settled.is_undefined()).then_some(settled))
}

/// Downloads `url`, posting progress as it arrives. A refused address, an
/// HTTP error, a body cut short or a server that stops sending (no byte
/// for [`models::STALL_MS`]: the download is aborted, so the model lock is
/// not held for ever) is a `DOWNLOAD_FAILED` saying which.
pub async fn download(
    url: &str,
    id: &str,
    file: &str,
    post: &dyn Fn(FromWorker),
) -> Result<Vec<u8>> {
    let failed = |what: String| Error::new(ErrorCode::DownloadFailed, format!("{url}: {what}"));
    let stalled = |received: usize| {
        failed(format!(
            "the server stopped sending after {received} bytes (nothing for {} s); try again",
            models::STALL_MS / 1000
        ))
    };
    let controller = web_sys::AbortController::new().map_err(storage)?;
    let init = web_sys::RequestInit::new();
    init.set_signal(Some(&controller.signal()));
    let response: Response =
        match within_stall_limit(scope().fetch_with_str_and_init(url, &init)).await {
            Ok(Some(response)) => response.unchecked_into(),
            Ok(None) => {
                controller.abort();
                return Err(stalled(0));
            }
            Err(e) => return Err(failed(message(&e))),
        };
    if !response.ok() {
        return Err(failed(format!(
            "the server answered {} {}",
            response.status(),
            response.status_text()
        )));
    }
    let header = |name: &str| response.headers().get(name).ok().flatten();
    let announced = models::expected_length(
        file,
        header("content-length").and_then(|v| v.trim().parse::<u64>().ok()),
        header("content-encoding").as_deref(),
    )?;
    let mut progress = Progress::new(id, file, announced);
    post(progress.message());
    let body = response.body().ok_or_else(|| failed("no body".into()))?;
    let reader: ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    // The announced size is only a hint: reserved if it can be, and the
    // body never grows past the largest model file whatever it says.
    let mut data = Vec::new();
    if let Some(n) = announced {
        data.try_reserve_exact(n as usize)
            .map_err(|_| failed(format!("no memory for {n} bytes")))?;
    }
    let mut watch = models::StallWatch::new(js_sys::Date::now());
    loop {
        let chunk = match within_stall_limit(reader.read()).await {
            Ok(Some(chunk)) => chunk,
            Ok(None) => {
                let _ = reader.cancel();
                controller.abort();
                return Err(stalled(data.len()));
            }
            Err(e) => {
                return Err(failed(format!(
                    "interrupted after {} bytes ({})",
                    data.len(),
                    message(&e)
                )))
            }
        };
        let done = Reflect::get(&chunk, &"done".into()).map_err(storage)?;
        if done.as_bool() == Some(true) {
            break;
        }
        let value: Uint8Array = Reflect::get(&chunk, &"value".into())
            .map_err(storage)?
            .unchecked_into();
        if !watch.arrived(value.length() as usize, js_sys::Date::now()) {
            let _ = reader.cancel();
            controller.abort();
            return Err(stalled(data.len()));
        }
        let start = data.len();
        let end = start as u64 + value.length() as u64;
        if end > models::MAX_FILE_BYTES {
            let _ = reader.cancel();
            return Err(models::too_large(file, end));
        }
        data.try_reserve(value.length() as usize)
            .map_err(|_| failed(format!("no memory after {start} bytes")))?;
        data.resize(start + value.length() as usize, 0);
        value.copy_to(&mut data[start..]);
        if let Some(m) = progress.advance(value.length().into()) {
            post(m);
        }
    }
    models::check_complete(file, progress.received(), announced)?;
    let etag = header("x-linked-etag").or_else(|| header("etag"));
    if let Some(expected) = models::announced_sha256(etag.as_deref()) {
        let actual = sha256(&data).await?;
        models::check_announced(file, &actual, Some(&expected))?;
    }
    Ok(data)
}
