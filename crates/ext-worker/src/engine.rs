//! A loaded model and tokenizer, ready to transcribe: what the
//! `transcribe` binary and the speech worker both call.

use crate::audio;
use crate::clock::now_ms;
use crate::decode::{self, DecodeOptions, Suppression};
use crate::error::{Error, Result};
use crate::guided::{self, GuidedReading, PhraseTree};
use crate::mel::{MelSpectrogram, HOP_LENGTH, N_FRAMES, N_SAMPLES, SAMPLE_RATE};
use crate::tokenizer::WhisperTokenizer;
use crate::whisper::{Config, DecoderState, Projection, Weights, Whisper};
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
    /// Only the audio and a second of silence after it: a 3-s command costs
    /// a tenth of the encoder time, but with real weights the decoder, which
    /// never saw a window end so soon, often repeats itself to the cap.
    Auto,
    /// The audio and at least this many seconds in all, padded with silence.
    Min(u32),
    /// The audio encoded as with [`AudioCtx::Min`] of these seconds (0:
    /// as [`AudioCtx::Auto`]), and the rest of the 30 s taken from a window
    /// of silence encoded once per model: the decoder attends to the 30 s
    /// it was trained on (so it knows where speech ends) at the encoder
    /// cost of the audio's own seconds.
    Tail(u32),
}

impl AudioCtx {
    /// The name `--audio-ctx` takes: full, auto, tail or min:SECONDS.
    pub fn parse(text: &str) -> Option<Self> {
        Some(match text {
            "full" => Self::Full,
            "auto" => Self::Auto,
            "tail" => Self::Tail(0),
            other => match other.split_once(':')? {
                ("min", s) => Self::Min(s.parse().ok()?),
                ("tail", s) => Self::Tail(s.parse().ok()?),
                _ => return None,
            },
        })
    }

    pub fn name(self) -> String {
        match self {
            Self::Full => "full".into(),
            Self::Auto => "auto".into(),
            Self::Tail(0) => "tail".into(),
            Self::Tail(s) => format!("tail:{s}"),
            Self::Min(s) => format!("min:{s}"),
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct TranscribeOptions {
    #[serde(default)]
    pub prompt: Option<String>,
    #[serde(default, alias = "maxTokens")]
    pub max_tokens: Option<usize>,
    #[serde(default, alias = "audioCtx")]
    pub audio_ctx: AudioCtx,
    /// Stop when the text starts repeating itself, keeping its first
    /// saying.
    #[serde(default, alias = "stopLoops")]
    pub stop_loops: bool,
    /// Decode again over the full 30 s when a shorter window's text looped
    /// or Whisper was unsure of it (average log-probability below −1, as
    /// openai-whisper falls back on temperature).
    #[serde(default)]
    pub fallback: bool,
    /// Guided decoding: the prompt's words nudged up by this much (in
    /// logits) at every step; 0 is free decoding.
    #[serde(default)]
    pub guide: f32,
}

/// Below this average log-probability a fast pass is redone at full
/// context (openai-whisper's `logprob_threshold`).
pub const FALLBACK_LOGPROB: f32 = -1.0;

/// How spoken utterances are decoded: the window the encoder sees and the
/// guards against a decoder that repeats itself. The extension, `twctl
/// hear` and `transcribe` use [`Decoding::shipped`] for the model loaded;
/// `make bench` charts the others.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Decoding {
    pub audio_ctx: AudioCtx,
    pub stop_loops: bool,
    pub fallback: bool,
    /// See [`TranscribeOptions::guide`].
    pub guide: f32,
}

impl Decoding {
    /// English-only models (tiny.en, base.en): the audio's own seconds
    /// encoded, the rest of the 30 s from encoded silence. Measured on the
    /// spoken-command corpus (tiny.en q8_0): as accurate as full context
    /// (74.6% against 73.8%) at a tenth of the encoder time, and no loops.
    pub const SHIPPED: Decoding = Decoding {
        audio_ctx: AudioCtx::Tail(0),
        stop_loops: true,
        fallback: false,
        guide: 0.0,
    };

    /// Multilingual models (tiny, base): with the silence tail they loop
    /// (base q8_0: 60% against 72% at full context), so at least 10 s are
    /// encoded, the audio padded with real silence: 72.4% as at full
    /// context, at a quarter of its encoder time.
    pub const SHIPPED_MULTILINGUAL: Decoding = Decoding {
        audio_ctx: AudioCtx::Min(10),
        ..Self::SHIPPED
    };

    /// How a live transcript is decoded: it is redone every second while a
    /// command is spoken and only shown, and one under way when the
    /// command's pause ends holds the command back. So never the slow
    /// fallback, and over the audio's own seconds where this decoding
    /// pads to a longer window (at least 10 s costs base three times the
    /// encoder of the audio alone, each second), stopping at repetition
    /// as the short window needs. Measured on the subset (base q8_0): WER
    /// 31.7% against 27.2%, encoder 177 ms against 604 ms.
    pub fn live(&self) -> Decoding {
        let padded = matches!(self.audio_ctx, AudioCtx::Min(_) | AudioCtx::Full);
        Decoding {
            audio_ctx: if padded {
                AudioCtx::Auto
            } else {
                self.audio_ctx
            },
            stop_loops: self.stop_loops || padded,
            fallback: false,
            guide: self.guide,
        }
    }

    /// As `speech-bench` names a scheme: "tail+stop", "min:10+stop".
    pub fn name(&self) -> String {
        let mut name = self.audio_ctx.name();
        if self.stop_loops {
            name.push_str("+stop");
        }
        if self.fallback {
            name.push_str("+fallback");
        }
        if self.guide > 0.0 {
            name.push_str(&format!("+guide:{}", self.guide));
        }
        name
    }

    /// The decoding the extension ships for a model.
    pub fn shipped(multilingual: bool) -> Decoding {
        if multilingual {
            Self::SHIPPED_MULTILINGUAL
        } else {
            Self::SHIPPED
        }
    }

    /// Options for a transcription with this decoding.
    pub fn options(&self, prompt: Option<String>, max_tokens: usize) -> TranscribeOptions {
        TranscribeOptions {
            prompt: prompt.filter(|p| !p.trim().is_empty()),
            max_tokens: Some(max_tokens),
            audio_ctx: self.audio_ctx,
            stop_loops: self.stop_loops,
            fallback: self.fallback,
            guide: self.guide,
        }
    }
}

impl Default for Decoding {
    fn default() -> Self {
        Self::SHIPPED
    }
}

/// Decoding choices given on a command line, each over the decoding
/// shipped for the model (`transcribe`, `twctl hear` and `speech-bench`
/// name a scheme the same way).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct DecodingFlags {
    pub audio_ctx: Option<AudioCtx>,
    pub stop_loops: Option<bool>,
    pub fallback: Option<bool>,
    pub guide: Option<f32>,
}

impl DecodingFlags {
    pub const USAGE: &'static str = "[--audio-ctx full|auto|tail|tail:S|min:S] \
[--stop-loops|--no-stop-loops] [--fallback|--no-fallback] [--guide BIAS]";

    /// Applies `flag` if it is a decoding flag (taking its value from
    /// `value`): `None` when it is not one, an error for a bad value.
    pub fn flag(
        &mut self,
        flag: &str,
        value: impl FnOnce() -> std::result::Result<String, String>,
    ) -> Option<std::result::Result<(), String>> {
        let applied = match flag {
            "--audio-ctx" => value().and_then(|v| {
                self.audio_ctx = Some(AudioCtx::parse(&v).ok_or(format!(
                    "--audio-ctx {v}: say full, auto, tail, tail:SECONDS or min:SECONDS"
                ))?);
                Ok(())
            }),
            "--stop-loops" | "--no-stop-loops" => {
                self.stop_loops = Some(flag == "--stop-loops");
                Ok(())
            }
            "--fallback" | "--no-fallback" => {
                self.fallback = Some(flag == "--fallback");
                Ok(())
            }
            "--guide" => value().and_then(|v| {
                self.guide = Some(
                    v.parse()
                        .ok()
                        .filter(|g: &f32| g.is_finite() && *g >= 0.0)
                        .ok_or(format!("--guide {v}: a logit bias of 0 or more"))?,
                );
                Ok(())
            }),
            _ => return None,
        };
        Some(applied)
    }

    /// Whether any flag was given.
    pub fn any(&self) -> bool {
        *self != Self::default()
    }

    /// `base` with these choices made.
    pub fn over(&self, base: Decoding) -> Decoding {
        Decoding {
            audio_ctx: self.audio_ctx.unwrap_or(base.audio_ctx),
            stop_loops: self.stop_loops.unwrap_or(base.stop_loops),
            fallback: self.fallback.unwrap_or(base.fallback),
            guide: self.guide.unwrap_or(base.guide),
        }
    }
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
    /// The first pass repeated itself or ran to the cap.
    pub looped: bool,
    /// The text is the full context's, after a fast pass that looped or
    /// was unsure.
    pub fell_back: bool,
}

/// Extra mel frames of silence kept after the audio with `AudioCtx::Auto`,
/// so the end of the last word is heard in context.
const AUTO_MARGIN_FRAMES: usize = 100;

pub struct Engine {
    model: Whisper,
    tokenizer: WhisperTokenizer,
    mel: MelSpectrogram,
    suppression: Suppression,
    /// Cross-attention keys and values of 30 s of silence, per decoder
    /// block ([`AudioCtx::Tail`]); encoded on first use.
    silence: std::cell::OnceCell<Vec<(candle_core::Tensor, candle_core::Tensor)>>,
    /// The last utterance's encoding, so that hearing it again guided (see
    /// [`Engine::hear_guided`]) does not run the encoder a second time.
    last_encoded: std::cell::RefCell<Option<Encoded>>,
}

/// An utterance's audio, the window it was encoded over, and the decoder
/// state started from that encoding (nothing fed yet).
struct Encoded {
    pcm: Vec<f32>,
    ctx: AudioCtx,
    start: DecoderState,
}

impl Encoded {
    fn is_of(&self, pcm: &[f32], ctx: AudioCtx) -> bool {
        self.ctx == ctx
            && self.pcm.len() == pcm.len()
            && self
                .pcm
                .iter()
                .zip(pcm)
                .all(|(a, b)| a.to_bits() == b.to_bits())
    }
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
        crate::whisper::validate(&config)?;
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
            silence: std::cell::OnceCell::new(),
            last_encoded: std::cell::RefCell::new(None),
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
        let audio = samples.min(N_SAMPLES).div_ceil(HOP_LENGTH) + AUTO_MARGIN_FRAMES;
        let frames = match ctx {
            AudioCtx::Full => return full,
            AudioCtx::Auto => audio,
            AudioCtx::Min(seconds) | AudioCtx::Tail(seconds) => {
                audio.max(seconds as usize * SAMPLE_RATE / HOP_LENGTH)
            }
        };
        (frames.div_ceil(2) * 2).min(full)
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
        let first = self.pass(pcm, options, options.audio_ctx, keep_going)?;
        let unsure = first.looped || first.avg_logprob < FALLBACK_LOGPROB;
        if !(options.fallback && unsure && options.audio_ctx != AudioCtx::Full) {
            return Ok(first);
        }
        let mut second = self.pass(pcm, options, AudioCtx::Full, keep_going)?;
        second.timings.mel += first.timings.mel;
        second.timings.encoder += first.timings.encoder;
        second.timings.decoder += first.timings.decoder;
        second.looped = first.looped;
        second.fell_back = true;
        Ok(second)
    }

    /// One transcription over `ctx`.
    fn pass(
        &self,
        pcm: &[f32],
        options: &TranscribeOptions,
        ctx: AudioCtx,
        keep_going: &dyn Fn(&str) -> bool,
    ) -> Result<Transcript> {
        let t0 = now_ms();
        let (mel, frames) = self.mel(pcm, ctx)?;
        let t1 = now_ms();
        let state = self.start_from_mel(&mel, frames, ctx)?;
        *self.last_encoded.borrow_mut() = Some(Encoded {
            pcm: pcm.to_vec(),
            ctx,
            start: state.clone(),
        });
        let t2 = now_ms();
        let decoded = decode::greedy(
            &self.model,
            &self.tokenizer,
            &self.suppression,
            state,
            &DecodeOptions {
                prompt: options.prompt.clone(),
                max_tokens: options.max_tokens,
                stop_loops: options.stop_loops,
                guide: self.guide_tokens(options),
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
            looped: decoded.looped,
            fell_back: false,
        })
    }

    /// The phrase of `tree` that `pcm` most likely says, with its average
    /// log-probability and that of the end of text after it (see
    /// [`crate::guided`]), over the window `ctx`.
    pub fn hear_guided(
        &self,
        pcm: &[f32],
        tree: &PhraseTree,
        ctx: AudioCtx,
    ) -> Result<Option<GuidedReading>> {
        if tree.is_empty() {
            return Ok(None);
        }
        let state = match self.last_encoded.borrow().as_ref() {
            Some(last) if last.is_of(pcm, ctx) => Some(last.start.clone()),
            _ => None,
        };
        let state = match state {
            Some(state) => state,
            None => self.start(pcm, ctx)?,
        };
        match guided::guided(&self.model, &self.tokenizer, state, tree)? {
            Some(g) => Ok(Some(GuidedReading {
                text: self.tokenizer.decode(&g.tokens)?,
                avg_logprob: g.avg_logprob,
                end_logprob: g.end_logprob,
            })),
            None => Ok(None),
        }
    }

    /// The decoder state started from `pcm` encoded over `ctx`.
    fn start(&self, pcm: &[f32], ctx: AudioCtx) -> Result<DecoderState> {
        let (mel, frames) = self.mel(pcm, ctx)?;
        self.start_from_mel(&mel, frames, ctx)
    }

    fn start_from_mel(&self, mel: &[f32], frames: usize, ctx: AudioCtx) -> Result<DecoderState> {
        let features = self.model.encode(mel, frames)?;
        match ctx {
            AudioCtx::Tail(_) => self.model.start_with_tail(&features, self.silence()?),
            _ => self.model.start(&features),
        }
    }

    /// The tokens of the prompt's words, spelled as Whisper may write them
    /// (with and without a space before, lower case and capitalized), each
    /// with the guide's boost.
    fn guide_tokens(&self, options: &TranscribeOptions) -> Vec<(u32, f32)> {
        let Some(prompt) = options.prompt.as_deref().filter(|_| options.guide != 0.0) else {
            return Vec::new();
        };
        let mut tokens: Vec<u32> = Vec::new();
        for word in prompt
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .filter(|w| w.chars().count() >= 2)
        {
            let lower = word.to_lowercase();
            let mut capital = lower.chars();
            let capital: String = capital
                .next()
                .map(|f| f.to_uppercase().chain(capital).collect())
                .unwrap_or_default();
            for spelling in [word, &lower, &capital] {
                for text in [format!(" {spelling}"), spelling.to_string()] {
                    tokens.extend(self.tokenizer.encode(&text).unwrap_or_default());
                }
            }
        }
        tokens.sort_unstable();
        tokens.dedup();
        tokens.into_iter().map(|t| (t, options.guide)).collect()
    }

    /// The silence tail's keys and values, encoded on first use.
    fn silence(&self) -> Result<&[(candle_core::Tensor, candle_core::Tensor)]> {
        if let Some(kv) = self.silence.get() {
            return Ok(kv);
        }
        let (mel, frames) = self.mel(&[0.0; HOP_LENGTH], AudioCtx::Full)?;
        let features = self.model.encode(&mel, frames)?;
        let kv = self.model.cross_keys_values(&features)?;
        Ok(self.silence.get_or_init(|| kv))
    }

    /// Encodes the silence tail now (it is otherwise encoded on the first
    /// [`AudioCtx::Tail`] transcription): when a model loads, so a command
    /// does not wait for it.
    pub fn prepare_tail(&self) -> Result<()> {
        self.silence().map(|_| ())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_decoding_depends_on_whether_the_model_is_multilingual() {
        assert_eq!(Decoding::shipped(false).name(), "tail+stop");
        assert_eq!(Decoding::shipped(true).name(), "min:10+stop");
    }

    #[test]
    fn a_live_transcript_hears_the_audio_alone_and_never_falls_back() {
        assert_eq!(Decoding::shipped(false).live().name(), "tail+stop");
        assert_eq!(Decoding::shipped(true).live().name(), "auto+stop");
        let full = Decoding {
            audio_ctx: AudioCtx::Full,
            stop_loops: false,
            fallback: true,
            guide: 1.0,
        };
        assert_eq!(full.live().name(), "auto+stop+guide:1");
        let tail = Decoding {
            fallback: true,
            ..Decoding::SHIPPED
        };
        assert_eq!(tail.live(), Decoding::SHIPPED);
    }

    #[test]
    fn decoding_flags_change_only_what_they_name() {
        let mut flags = DecodingFlags::default();
        assert!(!flags.any());
        assert_eq!(flags.over(Decoding::SHIPPED), Decoding::SHIPPED);
        let value = |v: &str| {
            let v = v.to_string();
            move || Ok(v)
        };
        assert_eq!(flags.flag("--audio-ctx", value("full")), Some(Ok(())));
        assert_eq!(flags.flag("--fallback", value("")), Some(Ok(())));
        assert_eq!(flags.flag("--model", value("x")), None);
        let bad = flags.flag("--audio-ctx", value("half")).unwrap();
        assert!(bad.unwrap_err().contains("--audio-ctx half"));
        assert!(flags.flag("--guide", value("-1")).unwrap().is_err());
        let d = flags.over(Decoding::SHIPPED_MULTILINGUAL);
        assert_eq!(d.name(), "full+stop+fallback");
        assert_eq!(flags.flag("--no-stop-loops", value("")), Some(Ok(())));
        assert_eq!(flags.over(Decoding::SHIPPED).name(), "full+fallback");
    }
}
