//! The wasm face of the speech worker: [`serve`], the message loop the
//! extension's `worker.js` starts, and `WhisperWorker`, a class a test (or
//! a page) calls with plain bytes and samples, answering the same JSON as
//! the `transcribe` binary. Conversions only; the logic is in
//! [`crate::pipeline`] and [`crate::service`].

mod serve;
mod store;

pub use serve::serve;

use crate::engine::{ModelFiles, TranscribeOptions, WeightFile};
use crate::error::Error;
use crate::service::{Request, Service};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
pub struct WhisperWorker {
    service: Service,
}

#[wasm_bindgen]
impl WhisperWorker {
    #[wasm_bindgen(constructor)]
    pub fn new() -> Self {
        Self {
            service: Service::new(),
        }
    }

    /// Loads a model: `format` is "safetensors" or "gguf"; `fast` uses a
    /// quantized output projection. Answers JSON text.
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
        self.answer(Request::Load { files, fast })
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
        self.answer(Request::Transcribe {
            pcm: pcm.to_vec(),
            options,
        })
    }

    /// The log-probability that the audio starts with `phrase`.
    pub fn score(&mut self, pcm: &[f32], phrase: &str, auto_ctx: bool) -> String {
        let audio_ctx = if auto_ctx {
            crate::AudioCtx::Auto
        } else {
            crate::AudioCtx::Full
        };
        self.answer(Request::Score {
            pcm: pcm.to_vec(),
            phrase: phrase.to_string(),
            audio_ctx,
        })
    }

    /// A block of microphone samples at `rate` Hz (any rate: resampled
    /// here); answers `{ok, events: [{type: "listening"} | {type:
    /// "utterance", text, tokens, …} | {type: "error", error}]}`.
    pub fn audio(&mut self, samples: &[f32], rate: u32) -> String {
        self.answer(Request::Audio {
            samples: samples.to_vec(),
            rate,
        })
    }

    /// Takes the next utterances as a command (longer pauses) or while
    /// waiting for the wake word, transcribed with `prompt` (may be empty).
    pub fn listen(&mut self, expects_command: bool, prompt: &str) -> String {
        self.answer(Request::Listen {
            expects_command,
            prompt: Some(prompt.to_string()),
            wake_phrase: None,
        })
    }

    /// The microphone stopped: answers the utterance under way, if any.
    pub fn stop(&mut self) -> String {
        self.answer(Request::Stop)
    }

    fn answer(&mut self, request: Request) -> String {
        self.service.handle(request).to_string()
    }
}

impl Default for WhisperWorker {
    fn default() -> Self {
        Self::new()
    }
}

fn fail(error: Error) -> String {
    serde_json::json!({ "ok": false, "error": error }).to_string()
}
