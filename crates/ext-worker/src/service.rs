//! What the speech worker answers, independent of the browser: load a
//! model from its files' bytes, transcribe 16-kHz samples, score a phrase.
//! Every answer is JSON, `{ok: true, …}` or `{ok: false, error: {code,
//! message}}`; a failed request leaves the worker (and any loaded model)
//! ready for the next one.

use crate::clock::now_ms;
use crate::engine::{AudioCtx, Engine, ModelFiles, TranscribeOptions};
use crate::error::{Error, ErrorCode};
use crate::whisper::Projection;
use serde_json::{json, Value};

pub enum Request {
    Load {
        files: ModelFiles,
        fast: bool,
    },
    Transcribe {
        pcm: Vec<f32>,
        options: TranscribeOptions,
    },
    Score {
        pcm: Vec<f32>,
        phrase: String,
        audio_ctx: AudioCtx,
    },
    Unload,
}

#[derive(Default)]
pub struct Service {
    engine: Option<Engine>,
}

impl Service {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_loaded(&self) -> bool {
        self.engine.is_some()
    }

    pub fn handle(&mut self, request: Request) -> Value {
        match self.run(request) {
            Ok(answer) => answer,
            Err(e) => json!({ "ok": false, "error": e }),
        }
    }

    fn engine(&self) -> Result<&Engine, Error> {
        self.engine
            .as_ref()
            .ok_or_else(|| Error::new(ErrorCode::NoModel, "no speech model is loaded"))
    }

    fn run(&mut self, request: Request) -> Result<Value, Error> {
        match request {
            Request::Load { files, fast } => {
                let start = now_ms();
                let projection = if fast {
                    Projection::Quantized
                } else {
                    Projection::Exact
                };
                // A failed load keeps the model that was there.
                let engine = Engine::load_owned(files, projection)?;
                let config = engine.config();
                let answer = json!({
                    "ok": true,
                    "model": {
                        "multilingual": engine.tokenizer().is_multilingual(),
                        "vocab_size": config.vocab_size,
                        "d_model": config.d_model,
                        "encoder_layers": config.encoder_layers,
                        "decoder_layers": config.decoder_layers,
                    },
                    "load_ms": now_ms() - start,
                });
                self.engine = Some(engine);
                Ok(answer)
            }
            Request::Transcribe { pcm, options } => {
                let transcript = self.engine()?.transcribe(&pcm, &options)?;
                let mut answer = serde_json::to_value(transcript)
                    .map_err(|e| Error::new(ErrorCode::ExecutionFailed, e.to_string()))?;
                answer["ok"] = true.into();
                Ok(answer)
            }
            Request::Score {
                pcm,
                phrase,
                audio_ctx,
            } => {
                let logprob = self.engine()?.phrase_logprob(&pcm, &phrase, audio_ctx)?;
                Ok(json!({ "ok": true, "phrase": phrase, "logprob": logprob }))
            }
            Request::Unload => {
                self.engine = None;
                Ok(json!({ "ok": true }))
            }
        }
    }
}
