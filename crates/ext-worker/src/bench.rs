//! What `make bench` measures of Whisper, shared by the native bench
//! (`benches/whisper.rs`) and the one in a Firefox worker
//! (`tests/worker_bench.rs`), so both time exactly the same work: ours and
//! candle-transformers' own whisper on the same weights. Figures are
//! medians of [`RUNS`] runs (Candle's slow ones: [`CANDLE_RUNS`]), in ms
//! of the page's or process's clock.

use crate::clock::now_ms;
use crate::error::{Error, Result};
use crate::random::voiced;
use crate::{mel, AudioCtx, Engine, ModelFiles, Projection, TranscribeOptions, WeightFile};
use candle_core::{Device, IndexOp, Tensor};
use candle_transformers::models::whisper as cw;

/// Decoder steps of a command (8 tokens).
pub const STEPS: usize = 8;
/// Mel frames the encoders get for 3 s of audio: ours with `audio_ctx`
/// auto keeps 1 s of silence after the speech, and Candle gets the same.
pub const FRAMES_3S: usize = 400;
pub const RUNS: usize = 3;
/// Candle's 30-s encoder, decoder steps and command are timed once: it is
/// 10-20 times slower at a command, so one run says as much as three, and
/// three took about two minutes of `make bench` in Firefox (its 3-s
/// encoder, near ours, still gets [`RUNS`]).
pub const CANDLE_RUNS: usize = 1;

/// One implementation's figures (ms).
#[derive(Debug, Clone, Copy)]
pub struct Figures {
    /// Model bytes to ready.
    pub load: f64,
    /// Encoder on 3 s of audio.
    pub enc3: f64,
    /// Encoder on the full 30-s window.
    pub enc30: f64,
    /// One decoder step, logits included.
    pub per_token: f64,
    /// End of speech to text for a 3-s command of 8 tokens.
    pub command: f64,
}

impl Figures {
    pub fn to_array(self) -> [f64; 5] {
        [
            self.load,
            self.enc3,
            self.enc30,
            self.per_token,
            self.command,
        ]
    }

    /// `other / self`, field by field (how many times faster we are).
    pub fn ratios(self, other: Figures) -> [f64; 5] {
        let (a, b) = (self.to_array(), other.to_array());
        [
            b[0] / a[0],
            b[1] / a[1],
            b[2] / a[2],
            b[3] / a[3],
            b[4] / a[4],
        ]
    }
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = now_ms();
    let out = f();
    (out, now_ms() - start)
}

/// The median of `runs` figures that `f` measures.
fn median_of(runs: usize, mut f: impl FnMut() -> f64) -> f64 {
    let mut xs: Vec<f64> = (0..runs).map(|_| f()).collect();
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// What the figures are medians of, for the benches' headings.
pub fn runs_note() -> String {
    format!("median of {RUNS}; candle's 30-s encoder, ms/token and 3-s cmd of {CANDLE_RUNS}")
}

/// The median time of `RUNS` runs of `f`.
fn timed(f: impl FnMut()) -> f64 {
    timed_runs(RUNS, f)
}

/// The median time of `runs` runs of `f`.
fn timed_runs(runs: usize, mut f: impl FnMut()) -> f64 {
    median_of(runs, || time(&mut f).1)
}

/// Our engine, step by step: 8 decoder steps whatever the argmax is.
pub fn ours(files: ModelFiles, projection: Projection) -> Result<Figures> {
    let (engine, load) = time(|| Engine::load_owned(files, projection));
    let engine = engine?;
    let model = engine.model();
    let start = engine.tokenizer().start_sequence();
    let (three, thirty) = (voiced(3.0), voiced(30.0));
    let encode = |pcm: &[f32], ctx| {
        let (mel, frames) = engine.mel(pcm, ctx).unwrap();
        model.encode(&mel, frames).unwrap()
    };
    let decode = |features: &Tensor| {
        let mut state = model.start(features).unwrap();
        let hidden = model.feed(&mut state, &start).unwrap();
        let mut last = hidden.get(start.len() - 1).unwrap();
        time(|| {
            for _ in 0..STEPS {
                let logits = model.logits(&last).unwrap();
                let next = crate::whisper::argmax(&logits) as u32;
                last = model.feed(&mut state, &[next]).unwrap().get(0).unwrap();
            }
        })
        .1 / STEPS as f64
    };
    let features = encode(&three, AudioCtx::Auto);
    Ok(Figures {
        load,
        enc3: timed(|| drop(encode(&three, AudioCtx::Auto))),
        enc30: timed(|| drop(encode(&thirty, AudioCtx::Full))),
        per_token: median_of(RUNS, || decode(&features)),
        command: timed(|| {
            decode(&encode(&three, AudioCtx::Auto));
        }),
    })
}

/// The two ways of checking a passive utterance for the wake word (ms).
#[derive(Debug, Clone, Copy)]
pub struct WakeFigures {
    /// Forced-phrase scoring: encoder, then "hey fox" fed as the decoder's
    /// tokens, its log-probability read off.
    pub score: f64,
    /// Transcription prompted with the wake phrase, for utterances of 4, 8
    /// and 24 tokens (a random model never stops early, so each decodes
    /// exactly that many).
    pub prompted: [(usize, f64); 3],
    /// The same, stopped as soon as the text cannot start with the wake
    /// phrase (what the worker does): ms and tokens decoded.
    pub early_exit: (f64, usize),
}

/// What each wake-word check costs on a 1.5-s utterance.
pub fn wake_check(files: ModelFiles, projection: Projection) -> Result<WakeFigures> {
    let engine = Engine::load_owned(files, projection)?;
    let utterance = voiced(1.5);
    let score = timed(|| {
        engine
            .phrase_logprob(&utterance, "hey fox", AudioCtx::Auto)
            .unwrap();
    });
    let prompted = [4, 8, 24].map(|tokens| {
        let options = TranscribeOptions {
            prompt: Some("hey fox".into()),
            max_tokens: Some(tokens),
            audio_ctx: AudioCtx::Auto,
            ..TranscribeOptions::default()
        };
        let ms = timed(|| {
            engine.transcribe(&utterance, &options).unwrap();
        });
        (tokens, ms)
    });
    let options = TranscribeOptions {
        prompt: Some("hey fox".into()),
        max_tokens: Some(24),
        audio_ctx: AudioCtx::Auto,
        ..TranscribeOptions::default()
    };
    let keep_going = |text: &str| crate::session::could_start_with_wake(text, "hey fox");
    let mut tokens = 0;
    let early = timed(|| {
        tokens = engine
            .transcribe_while(&utterance, &options, &keep_going)
            .unwrap()
            .tokens
            .len();
    });
    Ok(WakeFigures {
        score,
        prompted,
        early_exit: (early, tokens),
    })
}

enum CandleModel {
    F32(cw::model::Whisper),
    Q(cw::quantized_model::Whisper),
}

impl CandleModel {
    fn encode(&mut self, mel: &Tensor) -> Tensor {
        match self {
            Self::F32(m) => m.encoder.forward(mel, true).unwrap(),
            Self::Q(m) => m.encoder.forward(mel, true).unwrap(),
        }
    }

    /// Candle's example decoding: the whole prefix again at every step.
    fn logits(&mut self, tokens: &Tensor, features: &Tensor, flush: bool) -> Vec<f32> {
        let logits = match self {
            Self::F32(m) => {
                let h = m.decoder.forward(tokens, features, flush).unwrap();
                let last = h.i((.., h.dim(1).unwrap() - 1..)).unwrap();
                m.decoder.final_linear(&last).unwrap()
            }
            Self::Q(m) => {
                let h = m.decoder.forward(tokens, features, flush).unwrap();
                let last = h.i((.., h.dim(1).unwrap() - 1..)).unwrap();
                m.decoder.final_linear(&last).unwrap()
            }
        };
        logits.flatten_all().unwrap().to_vec1().unwrap()
    }
}

/// candle-transformers' whisper on the same weights (safetensors or GGUF),
/// driven as its example does: the padded 30-s window, and the whole
/// prefix fed again at every step. It gets our mel: its `pcm_to_mel`
/// spawns threads, which a wasm worker cannot.
pub fn candle(config: &[u8], weights: WeightFile) -> Result<Figures> {
    let config: cw::Config =
        serde_json::from_slice(config).map_err(|e| Error::model(format!("config.json: {e}")))?;
    let (mut model, load) = time(|| match weights {
        WeightFile::Safetensors(bytes) => {
            let vb = candle_nn::VarBuilder::from_buffered_safetensors(
                bytes,
                candle_core::DType::F32,
                &Device::Cpu,
            )
            .unwrap();
            CandleModel::F32(cw::model::Whisper::load(&vb, config.clone()).unwrap())
        }
        WeightFile::Gguf(bytes) => {
            let vb = candle_transformers::quantized_var_builder::VarBuilder::from_gguf_buffer(
                &bytes,
                &Device::Cpu,
            )
            .unwrap();
            CandleModel::Q(cw::quantized_model::Whisper::load(&vb, config.clone()).unwrap())
        }
    });
    // Candle's pcm_to_mel spawns threads, which a wasm worker cannot; its
    // model gets our mel (a few ms either way).
    let spectrogram = mel::MelSpectrogram::new(80);
    let mel_of = |pcm: &[f32], frames: usize| {
        Tensor::from_vec(
            spectrogram.compute(pcm, frames),
            (1, 80, frames),
            &Device::Cpu,
        )
        .unwrap()
    };
    let start: Vec<u32> = vec![50258, 50259, 50359, 50363];
    let decode = |model: &mut CandleModel, features: &Tensor| {
        let mut tokens = start.clone();
        time(|| {
            for step in 0..STEPS {
                let input = Tensor::new(tokens.as_slice(), &Device::Cpu)
                    .unwrap()
                    .unsqueeze(0)
                    .unwrap();
                let logits = model.logits(&input, features, step == 0);
                tokens.push(crate::whisper::argmax(&logits) as u32);
            }
        })
        .1 / STEPS as f64
    };
    let (three, thirty) = (voiced(3.0), voiced(30.0));
    let enc3 = timed(|| drop(model.encode(&mel_of(&three, FRAMES_3S))));
    let enc30 = timed_runs(CANDLE_RUNS, || drop(model.encode(&mel_of(&thirty, 3000))));
    let features = model.encode(&mel_of(&three, 3000));
    let per_token = median_of(CANDLE_RUNS, || decode(&mut model, &features));
    let command = timed_runs(CANDLE_RUNS, || {
        let features = model.encode(&mel_of(&three, 3000));
        decode(&mut model, &features);
    });
    Ok(Figures {
        load,
        enc3,
        enc30,
        per_token,
        command,
    })
}
