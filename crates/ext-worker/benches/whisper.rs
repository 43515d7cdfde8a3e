//! `make bench`, natively: our Whisper next to candle-transformers' own, on
//! the same full-size random weights (tiny and base; f32 and q8_0), in one
//! run. Figures and ratios only, nothing asserted.
//!
//! Each (size, weights, implementation) runs in a child process of this
//! bench, so that its peak memory (VmHWM) is its own. Models are generated
//! once into `target/bench-models/` (seeded, ~150 MB for tiny f32).
//!
//! What is measured (median of a few runs, one thread):
//! - load: model bytes → ready to transcribe
//! - enc 3 s / enc 30 s: the encoder on 3 s of audio (ours trims the
//!   padding, `audio_ctx` auto; Candle's runs on the frames it is given) and
//!   on the full 30-s window
//! - ms/token: one decoder step after the start sequence, logits included
//! - 3-s cmd: end of speech to text for a 3-s utterance of 8 tokens: mel,
//!   encoder, start sequence, 8 steps (what each implementation does for
//!   a command: Candle's pipeline encodes the padded 30 s)

use candle_core::quantized::GgmlDType;
use candle_core::{Device, IndexOp, Tensor};
use candle_transformers::models::whisper as cw;
use ext_worker::convert::safetensors_to_gguf;
use ext_worker::random::{voiced, Dims};
use ext_worker::{mel, AudioCtx, Engine, ModelFiles, Projection, TranscribeOptions};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const STEPS: usize = 8;
/// Mel frames the encoders get for 3 s of audio: ours with `audio_ctx`
/// auto keeps 1 s of silence after the speech, and Candle gets the same.
const FRAMES_3S: usize = 400;
const RUNS: usize = 3;
const ONE_ENV: &str = "TW_BENCH_ONE";

#[derive(Clone, Copy, PartialEq)]
enum Impl {
    Ours,
    OursFastProjection,
    Candle,
}

impl Impl {
    fn name(self) -> &'static str {
        match self {
            Impl::Ours => "ours",
            Impl::OursFastProjection => "ours+q8proj",
            Impl::Candle => "candle",
        }
    }

    fn parse(s: &str) -> Impl {
        match s {
            "ours" => Impl::Ours,
            "ours+q8proj" => Impl::OursFastProjection,
            _ => Impl::Candle,
        }
    }
}

fn models_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/bench-models")
}

fn tokenizer() -> Vec<u8> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/models/tiny-random/tokenizer.json");
    std::fs::read(path).expect("the test tokenizer (vocab 51865)")
}

/// Writes `<size>-<weights>/` (config, tokenizer, weights) unless present.
fn ensure_model(dims: Dims, weights: &str) -> PathBuf {
    let dir = models_dir().join(format!("{}-{weights}", dims.name));
    let file = if weights == "f32" {
        "model.safetensors".to_string()
    } else {
        format!("model-{weights}.gguf")
    };
    if dir.join(&file).exists() {
        return dir;
    }
    eprintln!("generating {}-{weights} …", dims.name);
    std::fs::create_dir_all(&dir).unwrap();
    let safetensors = dims.safetensors(42).unwrap();
    let bytes = if weights == "f32" {
        safetensors
    } else {
        safetensors_to_gguf(&safetensors, GgmlDType::Q8_0).unwrap()
    };
    std::fs::write(dir.join("config.json"), dims.config_json()).unwrap();
    std::fs::write(dir.join("tokenizer.json"), tokenizer()).unwrap();
    std::fs::write(dir.join(&file), bytes).unwrap();
    dir
}

fn median(mut xs: Vec<f64>) -> f64 {
    xs.sort_by(f64::total_cmp);
    xs[xs.len() / 2]
}

fn time<T>(f: impl FnOnce() -> T) -> (T, f64) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed().as_secs_f64() * 1000.0)
}

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

struct Figures {
    load: f64,
    enc3: f64,
    enc30: f64,
    per_token: f64,
    command: f64,
    peak: f64,
}

/// Our engine, step by step (8 decoder steps whatever the argmax is).
fn run_ours(dir: &Path, projection: Projection) -> Figures {
    let (engine, load) = time(|| {
        let files = ModelFiles::from_dir(dir).unwrap();
        Engine::load_owned(files, projection).unwrap()
    });
    let (three, thirty) = (voiced(3.0), voiced(30.0));
    let model = engine.model();
    let start_tokens = engine.tokenizer().start_sequence();
    let decode = |features: &Tensor| -> f64 {
        let mut state = model.start(features).unwrap();
        let hidden = model.feed(&mut state, &start_tokens).unwrap();
        let mut last = hidden.get(start_tokens.len() - 1).unwrap();
        let (_, ms) = time(|| {
            for _ in 0..STEPS {
                let logits = model.logits(&last).unwrap();
                let next = ext_worker::whisper::argmax(&logits) as u32;
                last = model.feed(&mut state, &[next]).unwrap().get(0).unwrap();
            }
        });
        ms / STEPS as f64
    };
    let encode = |pcm: &[f32], ctx: AudioCtx| {
        let (mel, frames) = engine.mel(pcm, ctx).unwrap();
        model.encode(&mel, frames).unwrap()
    };
    let mut figures = Figures {
        load,
        enc3: median(
            (0..RUNS)
                .map(|_| time(|| encode(&three, AudioCtx::Auto)).1)
                .collect(),
        ),
        enc30: median(
            (0..RUNS)
                .map(|_| time(|| encode(&thirty, AudioCtx::Full)).1)
                .collect(),
        ),
        per_token: 0.0,
        command: 0.0,
        peak: 0.0,
    };
    let features = encode(&three, AudioCtx::Auto);
    figures.per_token = median((0..RUNS).map(|_| decode(&features)).collect());
    figures.command = median(
        (0..RUNS)
            .map(|_| {
                time(|| {
                    let features = encode(&three, AudioCtx::Auto);
                    decode(&features)
                })
                .1
            })
            .collect(),
    );
    // Sanity: the engine's own path runs on this model too.
    let options = TranscribeOptions {
        audio_ctx: AudioCtx::Auto,
        max_tokens: Some(STEPS),
        ..TranscribeOptions::default()
    };
    engine.transcribe(&three, &options).unwrap();
    figures.peak = peak_rss_mib();
    figures
}

/// candle-transformers' whisper as its example drives it: its mel, the
/// padded 30-s window, and the whole prefix re-fed at every step.
fn run_candle(dir: &Path, quantized: bool) -> Figures {
    let config: cw::Config =
        serde_json::from_slice(&std::fs::read(dir.join("config.json")).unwrap()).unwrap();
    enum Model {
        F32(cw::model::Whisper),
        Q(cw::quantized_model::Whisper),
    }
    let (mut model, load) = time(|| {
        if quantized {
            let path = dir.join("model-q8_0.gguf");
            let vb = candle_transformers::quantized_var_builder::VarBuilder::from_gguf(
                &path,
                &Device::Cpu,
            )
            .unwrap();
            Model::Q(cw::quantized_model::Whisper::load(&vb, config.clone()).unwrap())
        } else {
            let bytes = std::fs::read(dir.join("model.safetensors")).unwrap();
            let vb = candle_nn::VarBuilder::from_buffered_safetensors(
                bytes,
                candle_core::DType::F32,
                &Device::Cpu,
            )
            .unwrap();
            Model::F32(cw::model::Whisper::load(&vb, config.clone()).unwrap())
        }
    });
    let filters = mel::mel_filters(80);
    let mel_of = |pcm: &[f32], frames: usize| -> Tensor {
        let mel = cw::audio::pcm_to_mel(&config, pcm, &filters);
        let total = mel.len() / 80;
        let mel = Tensor::from_vec(mel, (1, 80, total), &Device::Cpu).unwrap();
        mel.narrow(2, 0, frames.min(total)).unwrap()
    };
    let encode = |model: &mut Model, mel: &Tensor| match model {
        Model::F32(m) => m.encoder.forward(mel, true).unwrap(),
        Model::Q(m) => m.encoder.forward(mel, true).unwrap(),
    };
    let start: Vec<u32> = vec![50258, 50259, 50359, 50363];
    let decode = |model: &mut Model, features: &Tensor| -> f64 {
        let mut tokens = start.clone();
        let (_, ms) = time(|| {
            for step in 0..STEPS {
                let input = Tensor::new(tokens.as_slice(), &Device::Cpu)
                    .unwrap()
                    .unsqueeze(0)
                    .unwrap();
                let flush = step == 0;
                let (hidden, logits_of) = match model {
                    Model::F32(m) => {
                        let h = m.decoder.forward(&input, features, flush).unwrap();
                        let last = h.i((.., h.dim(1).unwrap() - 1..)).unwrap();
                        (last.clone(), m.decoder.final_linear(&last).unwrap())
                    }
                    Model::Q(m) => {
                        let h = m.decoder.forward(&input, features, flush).unwrap();
                        let last = h.i((.., h.dim(1).unwrap() - 1..)).unwrap();
                        (last.clone(), m.decoder.final_linear(&last).unwrap())
                    }
                };
                drop(hidden);
                let logits: Vec<f32> = logits_of.flatten_all().unwrap().to_vec1().unwrap();
                tokens.push(ext_worker::whisper::argmax(&logits) as u32);
            }
        });
        ms / STEPS as f64
    };
    let (three, thirty) = (voiced(3.0), voiced(30.0));
    let frames_3s = FRAMES_3S;
    let mut enc3 = Vec::new();
    let mut enc30 = Vec::new();
    for _ in 0..RUNS {
        let m = mel_of(&three, frames_3s);
        enc3.push(time(|| encode(&mut model, &m)).1);
        let m = mel_of(&thirty, 3000);
        enc30.push(time(|| encode(&mut model, &m)).1);
    }
    let features = encode(&mut model, &mel_of(&three, 3000));
    let per_token = median((0..RUNS).map(|_| decode(&mut model, &features)).collect());
    let command = median(
        (0..RUNS)
            .map(|_| {
                time(|| {
                    let features = encode(&mut model, &mel_of(&three, 3000));
                    decode(&mut model, &features)
                })
                .1
            })
            .collect(),
    );
    Figures {
        load,
        enc3: median(enc3),
        enc30: median(enc30),
        per_token,
        command,
        peak: peak_rss_mib(),
    }
}

/// In a child process: one configuration, printed as one line of numbers.
fn child(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let (dims, weights, which) = (
        Dims::by_name(parts[0]).unwrap(),
        parts[1],
        Impl::parse(parts[2]),
    );
    let dir = ensure_model(dims, weights);
    let f = match which {
        Impl::Ours => run_ours(
            &dir,
            if weights == "f32" {
                Projection::Exact
            } else {
                Projection::Quantized
            },
        ),
        Impl::OursFastProjection => run_ours(&dir, Projection::Quantized),
        Impl::Candle => run_candle(&dir, weights != "f32"),
    };
    println!(
        "{} {} {} {} {} {}",
        f.load, f.enc3, f.enc30, f.per_token, f.command, f.peak
    );
}

fn measure(size: &str, weights: &str, which: Impl) -> Option<Vec<f64>> {
    let exe = std::env::current_exe().unwrap();
    // One thread, as in the browser (Candle's CPU kernels follow rayon's
    // variable).
    let out = Command::new(exe)
        .env("RAYON_NUM_THREADS", "1")
        .env(ONE_ENV, format!("{size}:{weights}:{}", which.name()))
        .output()
        .unwrap();
    if !out.status.success() {
        eprintln!(
            "{size} {weights} {}: failed\n{}",
            which.name(),
            String::from_utf8_lossy(&out.stderr)
        );
        return None;
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .last()?
        .split_whitespace()
        .map(|x| x.parse().ok())
        .collect()
}

fn main() {
    if let Ok(spec) = std::env::var(ONE_ENV) {
        child(&spec);
        return;
    }
    if std::env::args().any(|a| a == "--list") {
        return;
    }
    let sizes: Vec<String> = std::env::var("TW_BENCH_SIZES")
        .unwrap_or_else(|_| "tiny base".into())
        .split_whitespace()
        .map(String::from)
        .collect();
    for size in &sizes {
        for weights in ["f32", "q8_0"] {
            ensure_model(Dims::by_name(size).unwrap(), weights);
        }
    }
    println!(
        "\nWhisper, native, one thread, random weights (median of {RUNS}); ratio = candle / ours"
    );
    println!(
        "{:<5} {:<5} {:<12} {:>8} {:>9} {:>9} {:>9} {:>9} {:>9}",
        "size", "wts", "impl", "load ms", "enc 3 s", "enc 30 s", "ms/token", "3-s cmd", "peak MiB"
    );
    for size in &sizes {
        for weights in ["f32", "q8_0"] {
            let mut rows = Vec::new();
            let impls: &[Impl] = if weights == "f32" {
                &[Impl::Ours, Impl::OursFastProjection, Impl::Candle]
            } else {
                &[Impl::Ours, Impl::Candle]
            };
            for &which in impls {
                if let Some(f) = measure(size, weights, which) {
                    println!(
                        "{size:<5} {weights:<5} {:<12} {:>8.0} {:>9.1} {:>9.0} {:>9.2} {:>9.0} {:>9.0}",
                        which.name(),
                        f[0], f[1], f[2], f[3], f[4], f[5]
                    );
                    rows.push((which, f));
                }
            }
            let ours = rows
                .iter()
                .find(|(w, _)| *w == Impl::Ours)
                .map(|(_, f)| f.clone());
            let candle = rows
                .iter()
                .find(|(w, _)| *w == Impl::Candle)
                .map(|(_, f)| f.clone());
            if let (Some(o), Some(c)) = (ours, candle) {
                println!(
                    "{size:<5} {weights:<5} {:<12} {:>7.2}x {:>8.2}x {:>8.2}x {:>8.2}x {:>8.2}x {:>8.2}x",
                    "ratio",
                    c[0] / o[0], c[1] / o[1], c[2] / o[2], c[3] / o[3], c[4] / o[4], c[5] / o[5]
                );
            }
        }
    }
}
