//! `make bench`, in Firefox: the engine as wasm (+simd128, one thread) in a
//! dedicated worker, as the extension runs it, next to candle-transformers'
//! whisper on the same random weights. Prints figures; asserts nothing
//! about speed. The model is generated inside the worker (nothing large is
//! shipped or downloaded). Peak memory is the worker's wasm linear memory,
//! which only grows, so each size runs in its own test binary invocation
//! (`TW_BENCH_SIZE`, set at build time by the Makefile).
#![cfg(target_arch = "wasm32")]

use candle_core::quantized::GgmlDType;
use candle_core::{Device, IndexOp, Tensor};
use candle_transformers::models::whisper as cw;
use ext_worker::convert::safetensors_to_gguf;
use ext_worker::random::{voiced, Dims};
use ext_worker::{mel, AudioCtx, Engine, ModelFiles, Projection, WeightFile};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

const STEPS: usize = 8;
/// Mel frames the encoders get for 3 s of audio: ours with `audio_ctx`
/// auto keeps 1 s of silence after the speech, and Candle gets the same.
const FRAMES_3S: usize = 400;
const RUNS: usize = 3;

use ext_worker::clock::now_ms as now;

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = now();
    let out = f();
    (out, now() - start)
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

/// Counts the worker's heap: what is allocated now and the most since the
/// last reset. (Linear memory only grows and is reused, so its size says
/// little about one model.)
mod heap {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

    pub struct Counting;
    static NOW: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);

    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                let now = NOW.fetch_add(layout.size(), Relaxed) + layout.size();
                PEAK.fetch_max(now, Relaxed);
            }
            p
        }
        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            unsafe { System.dealloc(p, layout) };
            NOW.fetch_sub(layout.size(), Relaxed);
        }
    }

    /// Starts a new peak from what is allocated now; answers that.
    pub fn reset() -> usize {
        let now = NOW.load(Relaxed);
        PEAK.store(now, Relaxed);
        now
    }

    pub fn peak_since(base: usize) -> f64 {
        (PEAK.load(Relaxed) - base) as f64 / (1024.0 * 1024.0)
    }
}

#[global_allocator]
static HEAP: heap::Counting = heap::Counting;

const TOKENIZER: &[u8] = include_bytes!(concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/reference/models/tiny-random/tokenizer.json"
));

fn ours(dims: Dims, weights: WeightFile, projection: Projection) -> [f64; 5] {
    let files = ModelFiles {
        config: dims.config_json(),
        tokenizer: TOKENIZER.to_vec(),
        weights,
    };
    let (engine, load) = time(|| Engine::load_owned(files, projection).unwrap());
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
                let next = ext_worker::whisper::argmax(&logits) as u32;
                last = model.feed(&mut state, &[next]).unwrap().get(0).unwrap();
            }
        })
        .1 / STEPS as f64
    };
    let enc3 = median(
        (0..RUNS)
            .map(|_| time(|| encode(&three, AudioCtx::Auto)).1)
            .collect(),
    );
    let enc30 = time(|| encode(&thirty, AudioCtx::Full)).1;
    let features = encode(&three, AudioCtx::Auto);
    let per_token = median((0..RUNS).map(|_| decode(&features)).collect());
    let command = median(
        (0..RUNS)
            .map(|_| time(|| decode(&encode(&three, AudioCtx::Auto))).1)
            .collect(),
    );
    [load, enc3, enc30, per_token, command]
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

/// candle-transformers' whisper on the same weights: safetensors (f32) or
/// GGUF (q8_0).
fn candle(dims: Dims, weights: WeightFile) -> [f64; 5] {
    let config: cw::Config = serde_json::from_slice(&dims.config_json()).unwrap();
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
                tokens.push(ext_worker::whisper::argmax(&logits) as u32);
            }
        })
        .1 / STEPS as f64
    };
    let three = voiced(3.0);
    let enc3 = median(
        (0..RUNS)
            .map(|_| time(|| model.encode(&mel_of(&three, FRAMES_3S))).1)
            .collect(),
    );
    let enc30 = time(|| model.encode(&mel_of(&voiced(30.0), 3000))).1;
    let features = model.encode(&mel_of(&three, 3000));
    let per_token = median((0..RUNS).map(|_| decode(&mut model, &features)).collect());
    let command = time(|| {
        let features = model.encode(&mel_of(&three, 3000));
        decode(&mut model, &features)
    })
    .1;
    [load, enc3, enc30, per_token, command]
}

/// Runs one configuration (its inputs made inside `make`), answering its
/// figures and the heap peak above what was allocated before it.
fn measured(make: impl FnOnce() -> [f64; 5]) -> ([f64; 5], f64) {
    let base = heap::reset();
    let figures = make();
    (figures, heap::peak_since(base))
}

fn row(label: &str, f: [f64; 5], memory: f64) {
    console_log!(
        "{label:<22} load {:>6.0} ms | enc 3 s {:>7.1} ms | enc 30 s {:>6.0} ms | {:>6.2} ms/token | 3-s cmd {:>6.0} ms | peak heap {:>5.0} MiB",
        f[0], f[1], f[2], f[3], f[4], memory
    );
}

#[wasm_bindgen_test]
fn bench_in_a_firefox_worker() {
    let size = option_env!("TW_BENCH_SIZE").unwrap_or("tiny");
    let dims = Dims::by_name(size).unwrap();
    console_log!(
        "Whisper {size}, wasm +simd128 in a Firefox dedicated worker, one thread, random weights"
    );
    // Each configuration's peak counts its own copy of the model bytes (as
    // the worker receives them) and everything it allocates.
    let safetensors = dims.safetensors(42).unwrap();
    let q8 = safetensors_to_gguf(&safetensors, GgmlDType::Q8_0).unwrap();
    let (q8_ours, m) = measured(|| ours(dims, WeightFile::Gguf(q8.clone()), Projection::Quantized));
    row(&format!("{size} q8_0 ours"), q8_ours, m);
    let (q8_theirs, m) = measured(|| candle(dims, WeightFile::Gguf(q8.clone())));
    row(&format!("{size} q8_0 candle"), q8_theirs, m);
    ratios(&format!("{size} q8_0"), q8_ours, q8_theirs);
    drop(q8);
    let (f32_ours, m) = measured(|| {
        ours(
            dims,
            WeightFile::Safetensors(safetensors.clone()),
            Projection::Exact,
        )
    });
    row(&format!("{size} f32 ours"), f32_ours, m);
    let (f, m) = measured(|| {
        ours(
            dims,
            WeightFile::Safetensors(safetensors.clone()),
            Projection::Quantized,
        )
    });
    row(&format!("{size} f32 ours+q8proj"), f, m);
    let (f32_theirs, m) = measured(|| candle(dims, WeightFile::Safetensors(safetensors.clone())));
    row(&format!("{size} f32 candle"), f32_theirs, m);
    ratios(&format!("{size} f32"), f32_ours, f32_theirs);
}

fn ratios(label: &str, ours: [f64; 5], theirs: [f64; 5]) {
    let ratio: Vec<String> = (0..5)
        .map(|i| format!("{:.2}x", theirs[i] / ours[i]))
        .collect();
    console_log!(
        "{label} candle/ours: load, enc 3 s, enc 30 s, ms/token, 3-s cmd = {}",
        ratio.join(", ")
    );
}
