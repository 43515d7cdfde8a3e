//! `make bench`, in Firefox: the engine as wasm (+simd128, one thread) in a
//! dedicated worker, as the extension runs it, next to candle-transformers'
//! whisper on the same random weights. Prints figures; asserts nothing
//! about speed. The model is generated inside the worker (nothing large is
//! shipped or downloaded). Peak memory is the worker's wasm linear memory,
//! which only grows, so each size runs in its own test binary invocation
//! (`TW_BENCH_SIZE`, set at build time by the Makefile).
#![cfg(target_arch = "wasm32")]

use candle_core::quantized::GgmlDType;
use ext_worker::bench::{self, Figures};
use ext_worker::convert::safetensors_to_gguf;
use ext_worker::random::Dims;
use ext_worker::{ModelFiles, Projection, WeightFile};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

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

fn ours(dims: Dims, weights: WeightFile, projection: Projection) -> Figures {
    let files = ModelFiles {
        config: dims.config_json(),
        tokenizer: TOKENIZER.to_vec(),
        weights,
    };
    bench::ours(files, projection).unwrap()
}

fn candle(dims: Dims, weights: WeightFile) -> Figures {
    bench::candle(&dims.config_json(), weights).unwrap()
}

/// Runs one configuration (its inputs made inside `make`), answering its
/// figures and the heap peak above what was allocated before it.
fn measured(make: impl FnOnce() -> Figures) -> (Figures, f64) {
    let base = heap::reset();
    let figures = make();
    (figures, heap::peak_since(base))
}

fn row(label: &str, f: Figures, memory: f64) {
    let f = f.to_array();
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
        "Whisper {size}, wasm +simd128 in a Firefox dedicated worker, one thread, random weights ({})",
        bench::runs_note()
    );
    // Each configuration's peak counts its own copy of the model bytes (as
    // the worker receives them) and everything it allocates.
    let safetensors = dims.safetensors(42).unwrap();
    let q8 = safetensors_to_gguf(&safetensors, GgmlDType::Q8_0).unwrap();
    let (q8_ours, m) = measured(|| ours(dims, WeightFile::Gguf(q8.clone()), Projection::Quantized));
    row(&format!("{size} q8_0 ours"), q8_ours, m);
    let files = ModelFiles {
        config: dims.config_json(),
        tokenizer: TOKENIZER.to_vec(),
        weights: WeightFile::Gguf(q8.clone()),
    };
    let wake = bench::wake_check(files, Projection::Quantized).unwrap();
    let prompted: Vec<String> = wake
        .prompted
        .iter()
        .map(|(tokens, ms)| format!("{tokens} tokens {ms:.0} ms ({:.1}x)", ms / wake.score))
        .collect();
    console_log!(
        "{size} q8_0 wake-word check of a 1.5-s utterance: phrase scoring {:.0} ms; prompted transcription {}; \
         stopped once it cannot be the wake word (the worker's way) {:.0} ms after {} tokens",
        wake.score,
        prompted.join(", "),
        wake.early_exit.0,
        wake.early_exit.1
    );
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

fn ratios(label: &str, ours: Figures, theirs: Figures) {
    let ratio: Vec<String> = ours
        .ratios(theirs)
        .iter()
        .map(|r| format!("{r:.2}x"))
        .collect();
    console_log!(
        "{label} candle/ours: load, enc 3 s, enc 30 s, ms/token, 3-s cmd = {}",
        ratio.join(", ")
    );
}
