//! What the speech worker answers, independent of the browser: load a
//! model from its files' bytes, transcribe 16-kHz samples, score a phrase.
//! Every answer is JSON, `{ok: true, …}` or `{ok: false, error: {code,
//! message}}`; a failed request leaves the worker (and any loaded model)
//! ready for the next one.

use crate::clock::now_ms;
use crate::engine::{AudioCtx, Engine, ModelFiles, TranscribeOptions};
use crate::error::{Error, ErrorCode};
use crate::listener::Listener;
use crate::session::could_start_with_wake;
use crate::vad::VadEvent;
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
    /// A block of microphone audio at `rate` Hz: answers `events`.
    Audio {
        samples: Vec<f32>,
        rate: u32,
    },
    /// How to take the next utterances: as a command (longer pauses) or
    /// while waiting for the wake word, and the prompt that conditions
    /// their transcription (the wake phrase, or the open tabs' names).
    Listen {
        expects_command: bool,
        prompt: Option<String>,
        /// While waiting for the wake word: transcription stops as soon as
        /// the text cannot start with it.
        wake_phrase: Option<String>,
    },
    /// The microphone stopped: the utterance under way, if any.
    Stop,
}

/// Longest transcript of one utterance: commands are short, and a random
/// or confused model must not decode 224 tokens of noise.
pub const UTTERANCE_TOKENS: usize = 96;

/// Longest live transcript: it is redone every second while someone
/// speaks, so it must stay cheap.
const PARTIAL_TOKENS: usize = 32;

#[derive(Default)]
pub struct Service {
    engine: Option<Engine>,
    listener: Listener,
    prompt: Option<String>,
    wake_phrase: Option<String>,
}

impl Service {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn is_loaded(&self) -> bool {
        self.engine.is_some()
    }

    /// The silences that end an utterance, waiting for the wake word and
    /// taking a command.
    pub fn set_end_silences(&mut self, passive_ms: usize, active_ms: usize) {
        self.listener.set_end_silences(passive_ms, active_ms);
    }

    pub fn handle(&mut self, request: Request) -> Value {
        match self.run(request) {
            Ok(answer) => answer,
            Err(e) => json!({ "ok": false, "error": e }),
        }
    }

    /// Whether an utterance is under way.
    pub fn in_speech(&self) -> bool {
        self.listener.in_speech()
    }

    /// The 16-kHz audio of the utterance under way (empty between them).
    pub fn current(&self) -> &[f32] {
        self.listener.current()
    }

    /// A live transcript of the utterance under way: `partial`, with what
    /// Whisper makes of it so far. None between utterances or without a
    /// model: a live transcript is a courtesy, and the final one reports
    /// any error.
    pub fn partial(&self) -> Option<Value> {
        let pcm = self.listener.current();
        if pcm.is_empty() {
            return None;
        }
        let options = TranscribeOptions {
            prompt: self.prompt.clone(),
            max_tokens: Some(PARTIAL_TOKENS),
            audio_ctx: AudioCtx::Auto,
        };
        let heard = self.engine().ok()?.transcribe(pcm, &options).ok()?;
        Some(json!({
            "type": "partial",
            "text": heard.text.trim(),
            "tokens": heard.tokens,
            "seconds": heard.audio_seconds,
        }))
    }

    /// The microphone stopped: the utterance under way (if long enough),
    /// not yet transcribed.
    pub fn flush(&mut self) -> Option<VadEvent> {
        self.listener.stop()
    }

    /// What the detector makes of a block of microphone audio; each event
    /// then goes through [`Service::event`] (which transcribes utterances),
    /// so that a caller can say "processing" before the wait.
    pub fn hear(&mut self, samples: &[f32], rate: u32) -> Result<Vec<VadEvent>, Error> {
        self.listener.push(samples, rate)
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
            Request::Audio { samples, rate } => {
                let heard = self.hear(&samples, rate)?;
                let events: Vec<Value> = heard.iter().filter_map(|e| self.event(e)).collect();
                Ok(json!({ "ok": true, "events": events }))
            }
            Request::Listen {
                expects_command,
                prompt,
                wake_phrase,
            } => {
                self.listener.set_expects_command(expects_command);
                self.prompt = prompt.filter(|p| !p.trim().is_empty());
                self.wake_phrase = wake_phrase.filter(|p| !p.trim().is_empty());
                Ok(json!({ "ok": true }))
            }
            Request::Stop => {
                let events: Vec<Value> = self
                    .listener
                    .stop()
                    .and_then(|e| self.event(&e))
                    .into_iter()
                    .collect();
                Ok(json!({ "ok": true, "events": events }))
            }
        }
    }

    /// What the background hears of a detector event: `listening` when
    /// speech starts, `utterance` with its transcript when it ends (or an
    /// `error` if it cannot be transcribed); dropped sounds say nothing.
    pub fn event(&self, event: &VadEvent) -> Option<Value> {
        match event {
            VadEvent::SpeechStarted => Some(json!({ "type": "listening" })),
            VadEvent::Dropped => None,
            VadEvent::Utterance(pcm) => {
                let options = TranscribeOptions {
                    prompt: self.prompt.clone(),
                    max_tokens: Some(UTTERANCE_TOKENS),
                    audio_ctx: AudioCtx::Auto,
                };
                let heard = self.engine().and_then(|e| match &self.wake_phrase {
                    Some(phrase) => e.transcribe_while(pcm, &options, &|text| {
                        could_start_with_wake(text, phrase)
                    }),
                    None => e.transcribe(pcm, &options),
                });
                Some(match heard {
                    Ok(t) => json!({
                        "type": "utterance",
                        "text": t.text.trim(),
                        "tokens": t.tokens,
                        "no_speech_prob": t.no_speech_prob,
                        "avg_logprob": t.avg_logprob,
                        "seconds": t.audio_seconds,
                        "timings": t.timings,
                    }),
                    Err(e) => json!({ "type": "error", "error": e }),
                })
            }
        }
    }
}
