//! The engine compiled to wasm, run in headless Firefox inside a dedicated
//! Worker (as the extension runs it), through the same `WhisperWorker`
//! entry point the speech worker uses: model files as bytes in, JSON out.
//! Decoded tokens must equal the original's, and log-mel, encoder output
//! and logits agree within 1e-3; a bad model or bad audio must answer an
//! error and leave the worker working.
//!
//! `make test-wasm` runs it (wasm-bindgen-test-runner with geckodriver).
#![cfg(target_arch = "wasm32")]

use ext_worker::web::WhisperWorker;
use serde_json::Value;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_dedicated_worker);

macro_rules! reference {
    ($path:literal) => {
        include_bytes!(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/reference/",
            $path
        ))
    };
}

struct Model {
    config: &'static [u8],
    tokenizer: &'static [u8],
    weights: &'static [u8],
}

const MULTILINGUAL: Model = Model {
    config: reference!("models/tiny-random/config.json"),
    tokenizer: reference!("models/tiny-random/tokenizer.json"),
    weights: reference!("models/tiny-random/model.safetensors"),
};

const ENGLISH: Model = Model {
    config: reference!("models/tiny-random.en/config.json"),
    tokenizer: reference!("models/tiny-random.en/tokenizer.json"),
    weights: reference!("models/tiny-random.en/model.safetensors"),
};

fn load(worker: &mut WhisperWorker, model: &Model) -> Value {
    let answer = worker.load(
        model.config,
        model.tokenizer,
        model.weights,
        "safetensors",
        false,
    );
    serde_json::from_str(&answer).unwrap()
}

/// 16-kHz mono samples of a 16-bit WAV, as the AudioWorklet would deliver
/// them after resampling.
fn samples(wav: &[u8]) -> Vec<f32> {
    let audio = ext_worker::audio::read_wav(wav).unwrap();
    ext_worker::audio::to_16k(&audio).unwrap()
}

fn transcribe(worker: &mut WhisperWorker, pcm: &[f32], options: &str) -> Value {
    serde_json::from_str(&worker.transcribe(pcm, options)).unwrap()
}

fn expected_tokens(json: &[u8]) -> Value {
    let reference: Value = serde_json::from_slice(json).unwrap();
    reference["tokens"].clone()
}

#[wasm_bindgen_test]
fn decodes_the_originals_tokens_in_a_worker() {
    let speech = samples(reference!("audio/speech.wav"));
    let mut worker = WhisperWorker::new();
    let loaded = load(&mut worker, &MULTILINGUAL);
    assert_eq!(loaded["ok"], true, "{loaded}");
    let answer = transcribe(&mut worker, &speech, "");
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(
        answer["tokens"],
        expected_tokens(reference!("outputs/tiny-random/speech.json"))
    );
    let prompted = transcribe(&mut worker, &speech, r#"{"prompt": "hey fox"}"#);
    assert_eq!(
        prompted["tokens"],
        expected_tokens(reference!("outputs/tiny-random/prompt-speech.json"))
    );

    let loaded = load(&mut worker, &ENGLISH);
    assert_eq!(loaded["model"]["multilingual"], false, "{loaded}");
    let tone = samples(reference!("audio/tone.wav"));
    assert_eq!(
        transcribe(&mut worker, &tone, "")["tokens"],
        expected_tokens(reference!("outputs/tiny-random.en/tone.json"))
    );
}

#[wasm_bindgen_test]
fn bad_input_answers_an_error_and_the_worker_keeps_working() {
    let mut worker = WhisperWorker::new();
    let tone = samples(reference!("audio/tone.wav"));
    let answer = transcribe(&mut worker, &tone, "");
    assert_eq!(answer["error"]["code"], "NO_MODEL", "{answer}");

    assert_eq!(load(&mut worker, &ENGLISH)["ok"], true);
    let truncated = &ENGLISH.weights[..ENGLISH.weights.len() / 3];
    let answer: Value = serde_json::from_str(&worker.load(
        ENGLISH.config,
        ENGLISH.tokenizer,
        truncated,
        "safetensors",
        false,
    ))
    .unwrap();
    assert_eq!(answer["error"]["code"], "MODEL_INVALID", "{answer}");
    let answer: Value = serde_json::from_str(&worker.load(
        ENGLISH.config,
        MULTILINGUAL.tokenizer,
        ENGLISH.weights,
        "safetensors",
        false,
    ))
    .unwrap();
    assert_eq!(answer["error"]["code"], "TOKENIZER_INVALID", "{answer}");
    let answer: Value = serde_json::from_str(&worker.load(b"", b"", b"", "onnx", false)).unwrap();
    assert_eq!(answer["error"]["code"], "INVALID_ARGS", "{answer}");

    for (pcm, options, code) in [
        (vec![], "", "AUDIO_INVALID"),
        (vec![f32::NAN; 100], "", "AUDIO_INVALID"),
        (tone.clone(), "{not json", "INVALID_ARGS"),
        (tone.clone(), r#"{"audio_ctx": "half"}"#, "INVALID_ARGS"),
    ] {
        let answer = transcribe(&mut worker, &pcm, options);
        assert_eq!(answer["error"]["code"], code, "{answer}");
    }
    // The model loaded before the failures still answers, and exactly.
    assert_eq!(
        transcribe(&mut worker, &tone, "")["tokens"],
        expected_tokens(reference!("outputs/tiny-random.en/tone.json"))
    );
    let score: Value = serde_json::from_str(&worker.score(&tone, "hey fox", true)).unwrap();
    assert!(score["logprob"].as_f64().unwrap() < 0.0, "{score}");
}

/// A little-endian f32 `.npy` as generate.py writes it: the data only.
fn npy(bytes: &[u8]) -> Vec<f32> {
    assert_eq!(&bytes[..6], b"\x93NUMPY");
    let header = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    bytes[10 + header..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn max_abs_diff(ours: &[f32], theirs: &[f32]) -> f32 {
    assert_eq!(ours.len(), theirs.len());
    ours.iter()
        .zip(theirs)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

#[wasm_bindgen_test]
fn mel_encoder_and_logits_are_within_1e_3_in_wasm() {
    use ext_worker::{AudioCtx, Engine, ModelFiles, Projection, WeightFile};
    let speech = samples(reference!("audio/speech.wav"));
    let ours = ext_worker::mel::MelSpectrogram::new(80).compute(&speech, ext_worker::mel::N_FRAMES);
    let diff = max_abs_diff(&ours, &npy(reference!("outputs/mel-speech.npy")));
    assert!(diff < 1e-3, "log-mel differs by {diff}");

    let files = ModelFiles {
        config: ENGLISH.config.to_vec(),
        tokenizer: ENGLISH.tokenizer.to_vec(),
        weights: WeightFile::Safetensors(ENGLISH.weights.to_vec()),
    };
    let engine = Engine::load(&files, Projection::Exact).unwrap();
    let encoded = engine.encode(&speech, AudioCtx::Full).unwrap().concat();
    let diff = max_abs_diff(
        &encoded,
        &npy(reference!("outputs/tiny-random.en/speech.encoder.npy")),
    );
    assert!(diff < 1e-3, "encoder differs by {diff}");
    let logits = engine.first_logits(&speech).unwrap();
    let diff = max_abs_diff(
        &logits,
        &npy(reference!("outputs/tiny-random.en/speech.logits.npy")),
    );
    assert!(diff < 1e-3, "logits differ by {diff}");
}

#[wasm_bindgen_test]
fn microphone_blocks_at_44_khz_become_a_heard_command() {
    let wav = ext_worker::audio::read_wav(reference!("audio/speech-44k-stereo.wav")).unwrap();
    let quiet = vec![0.0005f32; 44_100];
    let audio = [quiet.clone(), wav.samples, quiet].concat();
    let mut worker = WhisperWorker::new();
    assert_eq!(load(&mut worker, &ENGLISH)["ok"], true);
    // No wake word: every utterance is a command, prompted with the tabs.
    let configure = r#"{"type": "configure", "voice": {"wakeWordEnabled": false}}"#;
    let answer: Value = serde_json::from_str(&worker.control(configure)).unwrap();
    assert_eq!(answer[0]["state"], "active", "{answer}");
    worker.control(r#"{"type": "vocabulary", "prompt": "youtube"}"#);
    let mut kinds = Vec::new();
    for block in audio.chunks(128) {
        let events: Value = serde_json::from_str(&worker.audio(block, 44_100)).unwrap();
        for event in events.as_array().unwrap() {
            if event["type"] == "level" || event["type"] == "partial" {
                continue;
            }
            kinds.push(event["type"].as_str().unwrap().to_string());
            if event["type"] == "command" {
                assert!(!event["tokens"].as_array().unwrap().is_empty(), "{event}");
                assert_eq!(event["prompt"], "youtube");
            }
        }
    }
    assert_eq!(kinds, ["listening", "status", "command"]);
}

/// The wasm memory's size, in bytes (it only grows).
fn wasm_memory_bytes() -> f64 {
    use wasm_bindgen::JsCast;
    wasm_bindgen::memory()
        .dyn_into::<js_sys::WebAssembly::Memory>()
        .map(|m| {
            m.buffer()
                .unchecked_into::<js_sys::ArrayBuffer>()
                .byte_length() as f64
        })
        .unwrap_or(0.0)
}

#[wasm_bindgen_test]
fn audio_fed_faster_than_real_time_keeps_the_backlog_and_memory_bounded() {
    let speech = samples(reference!("audio/speech.wav"));
    let pause = vec![0.0f32; 16_000];
    let mut worker = WhisperWorker::new();
    assert_eq!(load(&mut worker, &ENGLISH)["ok"], true);
    // Waiting for the wake word (passive).
    let configure = r#"{"type": "configure", "voice": {"wakeWordEnabled": true}}"#;
    worker.control(configure);
    let feed = |worker: &mut WhisperWorker, utterances: usize, queued_ms: f64| {
        let mut heard = 0;
        for _ in 0..utterances {
            for part in [&pause, &speech, &pause] {
                for block in part.chunks(2_048) {
                    let events: Value =
                        serde_json::from_str(&worker.audio_queued(block, 16_000, queued_ms))
                            .unwrap();
                    heard += events
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter(|e| e["type"] == "listening")
                        .count();
                }
            }
        }
        heard
    };
    // In time, each utterance is heard (and transcribed: passive speech
    // without the wake word is ignored).
    assert_eq!(feed(&mut worker, 5, 0.0), 5);
    let settled = wasm_memory_bytes();
    // Ten more, as fast as the loop runs, still in time: memory settled.
    assert_eq!(feed(&mut worker, 10, 0.0), 10);
    // A backlog (each block waited 5 s): minutes of passive speech are
    // dropped, not queued for Whisper, and memory does not grow.
    let utterances = (10.0 * 60.0 / (2.0 + speech.len() as f64 / 16_000.0)) as usize;
    assert_eq!(feed(&mut worker, utterances, 5_000.0), 0);
    assert!(
        wasm_memory_bytes() <= settled + 4.0 * 1024.0 * 1024.0,
        "{} bytes after, {settled} before",
        wasm_memory_bytes()
    );
    // Caught up: heard again.
    assert_eq!(feed(&mut worker, 1, 0.0), 1);
}
