//! The wasm face of the speech worker: [`serve`], the message loop the
//! extension's `worker.js` starts, and `WhisperWorker`, a class a test (or
//! a page) calls with plain bytes and samples. Both go through the one
//! [`Pipeline`]; conversions only.

mod serve;
mod store;

pub use serve::serve;

use crate::engine::{ModelFiles, TranscribeOptions, WeightFile};
use crate::error::Error;
use crate::pipeline::Pipeline;
use crate::AudioCtx;
use ext_protocol::worker::{FromWorker, ToWorker};
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;

/// The pipeline as a class a test (or a page) calls with plain bytes and
/// samples; every method answers JSON text.
#[wasm_bindgen]
pub struct WhisperWorker {
    pipeline: Pipeline,
}

#[wasm_bindgen]
impl WhisperWorker {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self {
            pipeline: Pipeline::new(),
        }
    }

    /// Loads a model: `format` is "safetensors" or "gguf"; `fast` uses a
    /// quantized output projection. Answers `{ok, model, load_ms}` or
    /// `{ok: false, error}`.
    pub fn load(
        &mut self,
        config: &[u8],
        tokenizer: &[u8],
        weights: &[u8],
        format: &str,
        fast: bool,
    ) -> String {
        let weights = match format {
            "safetensors" => WeightFile::Safetensors(weights.to_vec()),
            "gguf" => WeightFile::Gguf(weights.to_vec()),
            other => {
                return fail(Error::args(format!(
                    "unknown weight format {other:?}: say safetensors or gguf"
                )))
            }
        };
        let files = ModelFiles {
            config: config.to_vec(),
            tokenizer: tokenizer.to_vec(),
            weights,
        };
        match self.pipeline.load(files, fast) {
            FromWorker::Status(s) => {
                json!({ "ok": true, "model": s.model, "load_ms": s.load_ms }).to_string()
            }
            FromWorker::Error { error, .. } => fail(error.into()),
            other => fail(Error::args(format!("unexpected {}", other.kind()))),
        }
    }

    /// Transcribes 16-kHz mono samples; `options` is JSON text
    /// (`{prompt, max_tokens, audio_ctx: "full" | "auto"}`) or empty.
    pub fn transcribe(&mut self, pcm: &[f32], options: &str) -> String {
        let options = if options.trim().is_empty() {
            TranscribeOptions::default()
        } else {
            match serde_json::from_str(options) {
                Ok(o) => o,
                Err(e) => return fail(Error::args(format!("bad transcribe options: {e}"))),
            }
        };
        match self.pipeline.transcribe(pcm, &options) {
            Ok(t) => {
                let mut answer = serde_json::to_value(t).unwrap_or(Value::Null);
                answer["ok"] = true.into();
                answer.to_string()
            }
            Err(e) => fail(e),
        }
    }

    /// The log-probability that the audio starts with `phrase`.
    pub fn score(&mut self, pcm: &[f32], phrase: &str, auto_ctx: bool) -> String {
        let audio_ctx = if auto_ctx {
            AudioCtx::Auto
        } else {
            AudioCtx::Full
        };
        match self.pipeline.score(pcm, phrase, audio_ctx) {
            Ok(logprob) => json!({ "ok": true, "phrase": phrase, "logprob": logprob }).to_string(),
            Err(e) => fail(e),
        }
    }

    /// A control, as the background page posts it (JSON text): answers
    /// the events it comes to, as a JSON array.
    pub fn control(&mut self, message: &str) -> String {
        match serde_json::from_str::<ToWorker>(message) {
            Ok(control) => events(self.pipeline.control(control)),
            Err(e) => fail(Error::args(format!("bad control: {e}"))),
        }
    }

    /// A block of microphone samples at `rate` Hz (any rate: resampled
    /// here): answers the events it comes to (`listening`, `level`,
    /// `command`, …), as a JSON array.
    pub fn audio(&mut self, samples: &[f32], rate: u32) -> String {
        let mut out = Vec::new();
        self.pipeline.audio(samples, rate, &mut |m| out.push(m));
        events(out)
    }

    /// The same for a block that waited `queued_ms` in the worker's queue
    /// (see [`crate::pipeline::PASSIVE_BACKLOG_MS`]).
    pub fn audio_queued(&mut self, samples: &[f32], rate: u32, queued_ms: f64) -> String {
        let mut out = Vec::new();
        self.pipeline
            .audio_queued(samples, rate, queued_ms, &mut |m| out.push(m));
        events(out)
    }
}

impl Default for WhisperWorker {
    fn default() -> Self {
        Self::new()
    }
}

fn events(events: Vec<FromWorker>) -> String {
    Value::Array(events.iter().map(FromWorker::to_json).collect()).to_string()
}

fn fail(error: Error) -> String {
    json!({ "ok": false, "error": error }).to_string()
}
