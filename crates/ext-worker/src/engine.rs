//! A loaded model and tokenizer, ready to transcribe: what the
//! `transcribe` binary and the speech worker both call.

use crate::audio;
use crate::clock::now_ms;
use crate::decode::{self, DecodeOptions, Suppression};
use crate::error::{Error, Result};
use crate::mel::{MelSpectrogram, HOP_LENGTH, N_FRAMES, N_SAMPLES, SAMPLE_RATE};
use crate::tokenizer::WhisperTokenizer;
use crate::whisper::{Config, Projection, Weights, Whisper};
use serde::{Deserialize, Serialize};

/// The files of a model directory as published on the hub.
#[derive(Clone)]
pub struct ModelFiles {
    pub config: Vec<u8>,
    pub tokenizer: Vec<u8>,
    pub weights: WeightFile,
}

#[derive(Clone)]
pub enum WeightFile {
    Safetensors(Vec<u8>),
    Gguf(Vec<u8>),
}

impl ModelFiles {
    /// Reads `config.json`, `tokenizer.json` and `model.safetensors` or the
    /// one `*.gguf` of a directory, or converts a faster-whisper directory
    /// (`model.bin`, `tokenizer.json`). (In wasm there are no files: the
    /// worker gets bytes.)
    pub fn from_dir(dir: &std::path::Path) -> Result<Self> {
        let read = |name: &str| {
            std::fs::read(dir.join(name))
                .map_err(|e| Error::model(format!("{}: {e}", dir.join(name).display())))
        };
        let safetensors = dir.join("model.safetensors");
        let model_bin = dir.join("model.bin");
        if !safetensors.exists() && model_bin.exists() {
            // A faster-whisper (CTranslate2) model, converted as it loads.
            return crate::ctranslate2::convert(&read("model.bin")?, read("tokenizer.json")?, None);
        }
        let weights = if safetensors.exists() {
            WeightFile::Safetensors(read("model.safetensors")?)
        } else {
            let gguf = std::fs::read_dir(dir)
                .map_err(|e| Error::model(format!("{}: {e}", dir.display())))?
                .filter_map(|e| e.ok().map(|e| e.path()))
                .find(|p| p.extension().is_some_and(|x| x == "gguf"))
                .ok_or_else(|| {
                    Error::model(format!(
                        "{} has neither model.safetensors nor a .gguf file",
                        dir.display()
                    ))
                })?;
            WeightFile::Gguf(
                std::fs::read(&gguf)
                    .map_err(|e| Error::model(format!("{}: {e}", gguf.display())))?,
            )
        };
        Ok(Self {
            config: read("config.json")?,
            tokenizer: read("tokenizer.json")?,
            weights,
        })
    }
}

/// How much of the 30-s window the encoder sees.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum AudioCtx {
    /// All 30 s, as the original: what parity needs.
    #[default]
    Full,
    /// Only the audio and a little silence after it: a 3-s command costs a
    /// tenth of the encoder time, at a small cost in accuracy.
    Auto,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct TranscribeOptions {
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default, alias = "maxTokens")]
    pub max_tokens: Option<usize>,
    #[serde(default, alias = "audioCtx")]
    pub audio_ctx: AudioCtx,
}

/// Milliseconds per stage.
pub use ext_protocol::worker::Timings;

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Transcript {
    pub text: String,
    pub tokens: Vec<u32>,
    pub token_logprobs: Vec<f32>,
    pub no_speech_prob: Option<f32>,
    pub avg_logprob: f32,
    /// Milliseconds per stage.
    pub timings: Timings,
    /// Encoder positions used (1500 for the full 30 s).
    pub audio_ctx: usize,
    /// Seconds of audio heard (at most 30; longer audio is trimmed).
    pub audio_seconds: f32,
}

/// Extra mel frames of silence kept after the audio with `AudioCtx::Auto`,
/// so the end of the last word is heard in context.
const AUTO_MARGIN_FRAMES: usize = 100;

pub struct Engine {
    model: Whisper,
    tokenizer: WhisperTokenizer,
    mel: MelSpectrogram,
    suppression: Suppression,
}

impl Engine {
    /// Loads a model from its files, keeping them (see [`Engine::load_owned`]).
    pub fn load(files: &ModelFiles, projection: Projection) -> Result<Self> {
        Self::load_owned(files.clone(), projection)
    }

    /// Loads a model, consuming its files: the weight bytes are freed as
    /// soon as the tensors are built, which keeps peak memory near one copy
    /// of the model plus the file (the worker's case).
    pub fn load_owned(files: ModelFiles, projection: Projection) -> Result<Self> {
        let config: Config = serde_json::from_slice(&files.config)
            .map_err(|e| Error::model(format!("config.json is not a Whisper config: {e}")))?;
        let tokenizer = WhisperTokenizer::from_bytes(&files.tokenizer)?;
        if tokenizer.vocab_size() != config.vocab_size {
            return Err(Error::tokenizer(format!(
                "tokenizer.json has {} tokens but the model has {}: they are not from the same model",
                tokenizer.vocab_size(),
                config.vocab_size
            )));
        }
        let weights = match files.weights {
            WeightFile::Safetensors(bytes) => Weights::safetensors(bytes)?,
            WeightFile::Gguf(bytes) => Weights::gguf(&bytes)?,
        };
        let mel = MelSpectrogram::new(config.num_mel_bins);
        let model = Whisper::load(&weights, config, projection)?;
        drop(weights);
        Ok(Self {
            suppression: Suppression::new(&tokenizer)?,
            model,
            tokenizer,
            mel,
        })
    }

    pub fn tokenizer(&self) -> &WhisperTokenizer {
        &self.tokenizer
    }

    pub fn config(&self) -> &Config {
        &self.model.config
    }

    /// The model itself, for step-by-step use (`make bench`).
    pub fn model(&self) -> &Whisper {
        &self.model
    }

    pub fn suppressed_tokens(&self) -> &[u32] {
        self.suppression.always()
    }

    /// Mel frames the encoder gets for `samples` samples.
    fn frames_for(&self, samples: usize, ctx: AudioCtx) -> usize {
        let full = N_FRAMES.min(2 * self.model.config.max_source_positions);
        match ctx {
            AudioCtx::Full => full,
            AudioCtx::Auto => {
                let frames = samples.min(N_SAMPLES).div_ceil(HOP_LENGTH) + AUTO_MARGIN_FRAMES;
                (frames.div_ceil(2) * 2).min(full)
            }
        }
    }

    /// The log-mel `[n_mels, frames]` the encoder gets for 16-kHz `pcm`.
    pub fn mel(&self, pcm: &[f32], ctx: AudioCtx) -> Result<(Vec<f32>, usize)> {
        audio::validate(pcm)?;
        let frames = self.frames_for(pcm.len(), ctx);
        Ok((self.mel.compute(pcm, frames), frames))
    }

    pub fn transcribe(&self, pcm: &[f32], options: &TranscribeOptions) -> Result<Transcript> {
        self.transcribe_while(pcm, options, &|_| true)
    }

    /// [`Engine::transcribe`], stopping as soon as `keep_going` says no to
    /// the text so far.
    pub fn transcribe_while(
        &self,
        pcm: &[f32],
        options: &TranscribeOptions,
        keep_going: &dyn Fn(&str) -> bool,
    ) -> Result<Transcript> {
        let t0 = now_ms();
        let (mel, frames) = self.mel(pcm, options.audio_ctx)?;
        let t1 = now_ms();
        let features = self.model.encode(&mel, frames)?;
        let t2 = now_ms();
        let decoded = decode::greedy(
            &self.model,
            &self.tokenizer,
            &self.suppression,
            &features,
            &DecodeOptions {
                prompt: options.prompt.clone(),
                max_tokens: options.max_tokens,
            },
            &mut |tokens| keep_going(&self.tokenizer.decode(tokens).unwrap_or_default()),
        )?;
        let t3 = now_ms();
        Ok(Transcript {
            text: self.tokenizer.decode(&decoded.tokens)?,
            tokens: decoded.tokens,
            token_logprobs: decoded.token_logprobs,
            no_speech_prob: decoded.no_speech_prob,
            avg_logprob: decoded.avg_logprob,
            timings: Timings {
                mel: t1 - t0,
                encoder: t2 - t1,
                decoder: t3 - t2,
            },
            audio_ctx: frames / 2,
            audio_seconds: pcm.len().min(N_SAMPLES) as f32 / SAMPLE_RATE as f32,
        })
    }

    /// Log-probability that `pcm` starts with `phrase` (the wake word).
    pub fn phrase_logprob(&self, pcm: &[f32], phrase: &str, ctx: AudioCtx) -> Result<f32> {
        let (mel, frames) = self.mel(pcm, ctx)?;
        let features = self.model.encode(&mel, frames)?;
        decode::phrase_logprob(&self.model, &self.tokenizer, &features, phrase)
    }

    /// Audio features `[frames / 2, d]`, for tests against the reference.
    pub fn encode(&self, pcm: &[f32], ctx: AudioCtx) -> Result<Vec<Vec<f32>>> {
        let (mel, frames) = self.mel(pcm, ctx)?;
        Ok(self.model.encode(&mel, frames)?.squeeze(0)?.to_vec2()?)
    }

    /// Logits after the start sequence, for tests against the reference.
    pub fn first_logits(&self, pcm: &[f32]) -> Result<Vec<f32>> {
        let (mel, frames) = self.mel(pcm, AudioCtx::Full)?;
        let features = self.model.encode(&mel, frames)?;
        let start = self.tokenizer.start_sequence();
        let mut state = self.model.start(&features)?;
        let hidden = self.model.feed(&mut state, &start)?;
        self.model.logits(&hidden.get(start.len() - 1)?)
    }
}
