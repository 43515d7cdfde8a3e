//! The speech worker's message layer, as its message loop feeds it: any
//! control message (JSON, as it arrives), and microphone blocks of any
//! length, sample rate, value (NaN, infinities, clipping) and delay in the
//! queue, in any order, with or without the committed random tiny model.
//! Never a panic.
#![no_main]

use ext_protocol::worker::{FromWorker, ToWorker};
use ext_worker::pipeline::Pipeline;
use ext_worker::ModelFiles;
use libfuzzer_sys::fuzz_target;
use std::path::Path;

const RATES: [u32; 9] = [0, 1, 8_000, 16_000, 22_050, 44_100, 48_000, 384_000, 400_000];

fn model() -> ModelFiles {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/reference/models/tiny-random");
    ModelFiles::from_dir(&dir).expect("the committed random model")
}

thread_local! {
    /// Loaded once (a load takes longer than a whole run): each run with a
    /// model starts from a new recording on it.
    static WITH_MODEL: std::cell::RefCell<Pipeline> = std::cell::RefCell::new({
        let mut p = Pipeline::new();
        let _ = p.load(model(), false);
        p
    });
}

fuzz_target!(|data: &[u8]| {
    if data.first().is_some_and(|b| b % 4 == 0) {
        WITH_MODEL.with(|p| {
            let mut p = p.borrow_mut();
            p.reset();
            run(&mut p, &data[1..]);
        });
    } else {
        run(&mut Pipeline::new(), data.get(1..).unwrap_or_default());
    }
});

fn run(p: &mut Pipeline, data: &[u8]) {
    let mut rest = data;
    let mut take = |n: usize| {
        let n = n.min(rest.len());
        let (head, tail) = rest.split_at(n);
        rest = tail;
        head
    };
    let mut post = |_: FromWorker| {};
    for _ in 0..64 {
        let Some(&op) = take(1).first() else { break };
        match op % 3 {
            0 => {
                // A control message: up to 200 bytes of JSON.
                let len = take(1).first().copied().unwrap_or(0) as usize;
                let text = take(len % 200);
                if let Ok(message) = serde_json::from_slice::<ToWorker>(text) {
                    let answers = p.control(message);
                    assert!(answers.len() < 1_000);
                }
            }
            _ => {
                // A block of audio: its rate, its delay in the queue, its
                // samples (bytes as samples, some of them odd values).
                let head = take(3);
                let rate = RATES[*head.first().unwrap_or(&3) as usize % RATES.len()];
                let queued_ms = f64::from(*head.get(1).unwrap_or(&0)) * 50.0;
                let repeat = 1 + *head.get(2).unwrap_or(&0) as usize;
                let raw = take(64);
                let mut block = Vec::with_capacity(raw.len() * repeat);
                for _ in 0..repeat {
                    block.extend(raw.iter().map(|&b| match b {
                        255 => f32::NAN,
                        254 => f32::INFINITY,
                        253 => 40.0,
                        b => (f32::from(b) - 128.0) / 128.0,
                    }));
                }
                p.audio_queued(&block, rate, queued_ms, &mut post);
            }
        }
    }
}
