//! `make bench`, natively: our Whisper next to candle-transformers' own, on
//! the same full-size random weights (tiny and base; f32 and q8_0), in one
//! run. Figures and ratios only, nothing asserted.
//!
//! Each (size, weights, implementation) runs in a child process of this
//! bench, so that its peak memory (VmHWM) is its own. Models are generated
//! once into `target/bench-models/` (seeded, ~150 MB for tiny f32).
//!
//! What is measured is `ext_worker::bench`, the same code the Firefox
//! bench runs: load, encoder on 3 s and 30 s, ms per decoder step, and end
//! of speech to text for a 3-s command of 8 tokens; here also peak RSS.

use candle_core::quantized::GgmlDType;
use ext_worker::bench;
use ext_worker::convert::safetensors_to_gguf;
use ext_worker::random::Dims;
use ext_worker::{ModelFiles, Projection};
use std::path::{Path, PathBuf};
use std::process::Command;

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

fn peak_rss_mib() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find(|l| l.starts_with("VmHWM:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|kb| kb.parse::<f64>().ok())
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// In a child process: one configuration, printed as one line of numbers.
fn child(spec: &str) {
    let parts: Vec<&str> = spec.split(':').collect();
    let (dims, weights, which) = (
        Dims::by_name(parts[0]).unwrap(),
        parts[1],
        Impl::parse(parts[2]),
    );
    let files = ModelFiles::from_dir(&ensure_model(dims, weights)).unwrap();
    let figures = match which {
        Impl::Ours if weights == "f32" => bench::ours(files, Projection::Exact),
        Impl::Ours | Impl::OursFastProjection => bench::ours(files, Projection::Quantized),
        Impl::Candle => bench::candle(&files.config.clone(), files.weights),
    }
    .unwrap();
    let f = figures.to_array();
    println!(
        "{} {} {} {} {} {}",
        f[0],
        f[1],
        f[2],
        f[3],
        f[4],
        peak_rss_mib()
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
        "\nWhisper, native, one thread, random weights ({}); ratio = candle / ours",
        bench::runs_note()
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
