//! Parity with the original implementation (openai-whisper), on the random
//! models and outputs that `tests/reference/generate.py` wrote: log-mel,
//! mel filters, encoder output, first-step logits, suppression set, decoded
//! tokens and their log-probabilities, no-speech probability, the prompt,
//! and the wake-phrase score.

use ext_worker::{audio, mel, AudioCtx, Engine, ModelFiles, Projection, TranscribeOptions};
use serde_json::Value;
use std::path::{Path, PathBuf};

const MODELS: [&str; 2] = ["tiny-random", "tiny-random.en"];
const CASES: [&str; 3] = ["tone", "noise", "speech"];

fn reference() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference")
}

/// A little-endian f32 `.npy` (what generate.py writes): its shape and data.
fn read_npy(path: &Path) -> (Vec<usize>, Vec<f32>) {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert_eq!(&bytes[..6], b"\x93NUMPY", "{} is not .npy", path.display());
    let header_len = u16::from_le_bytes([bytes[8], bytes[9]]) as usize;
    let header = std::str::from_utf8(&bytes[10..10 + header_len]).unwrap();
    assert!(header.contains("'descr': '<f4'"), "{header}");
    assert!(header.contains("'fortran_order': False"), "{header}");
    let shape_text = header
        .split("'shape': (")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let shape = shape_text
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse().unwrap())
        .collect();
    let data = bytes[10 + header_len..]
        .chunks_exact(4)
        .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    (shape, data)
}

fn read_json(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

fn pcm(case: &str) -> Vec<f32> {
    let bytes = std::fs::read(reference().join(format!("audio/{case}.wav"))).unwrap();
    audio::to_16k(&audio::read_wav(&bytes).unwrap()).unwrap()
}

fn engine(model: &str) -> Engine {
    let files = ModelFiles::from_dir(&reference().join("models").join(model)).unwrap();
    Engine::load(&files, Projection::Exact).unwrap()
}

fn max_abs_diff(ours: &[f32], theirs: &[f32]) -> f32 {
    assert_eq!(ours.len(), theirs.len(), "lengths differ");
    ours.iter()
        .zip(theirs)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max)
}

fn ids(value: &Value) -> Vec<u32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_u64().unwrap() as u32)
        .collect()
}

fn floats(value: &Value) -> Vec<f32> {
    value
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect()
}

#[test]
fn mel_filters_equal_the_originals() {
    let (shape, theirs) = read_npy(&reference().join("outputs/mel_filters.npy"));
    assert_eq!(shape, vec![80, 201]);
    let diff = max_abs_diff(&mel::mel_filters(80), &theirs);
    assert!(diff < 1e-7, "mel filters differ by {diff}");
}

#[test]
fn log_mel_is_within_1e_3_of_the_original() {
    let spectrogram = mel::MelSpectrogram::new(80);
    for case in CASES {
        let (shape, theirs) = read_npy(&reference().join(format!("outputs/mel-{case}.npy")));
        assert_eq!(shape, vec![80, mel::N_FRAMES]);
        let ours = spectrogram.compute(&pcm(case), mel::N_FRAMES);
        let diff = max_abs_diff(&ours, &theirs);
        assert!(diff < 1e-3, "{case}: log-mel differs by {diff}");
    }
}

#[test]
fn float_wav_decodes_to_the_same_samples_as_16_bit() {
    assert_eq!(pcm("float32"), pcm("tone"));
}

#[test]
fn stereo_44k_speech_resamples_to_the_16k_file_length() {
    let resampled = pcm("speech-44k-stereo");
    let direct = pcm("speech");
    let expected = direct.len() as i64;
    assert!(
        (resampled.len() as i64 - expected).abs() <= 1,
        "{} samples, not {expected}",
        resampled.len()
    );
}

#[test]
fn encoder_and_first_logits_are_within_1e_3() {
    for model in MODELS {
        let engine = engine(model);
        for case in CASES {
            let dir = reference().join("outputs").join(model);
            let (shape, theirs) = read_npy(&dir.join(format!("{case}.encoder.npy")));
            let ours: Vec<f32> = engine.encode(&pcm(case), AudioCtx::Full).unwrap().concat();
            assert_eq!(shape, vec![1500, engine.config().d_model]);
            let diff = max_abs_diff(&ours, &theirs);
            assert!(diff < 1e-3, "{model}/{case}: encoder differs by {diff}");

            let (_, theirs) = read_npy(&dir.join(format!("{case}.logits.npy")));
            let ours = engine.first_logits(&pcm(case)).unwrap();
            let diff = max_abs_diff(&ours, &theirs);
            assert!(diff < 1e-3, "{model}/{case}: logits differ by {diff}");
        }
    }
}

/// Compares one decode with the original's JSON.
fn check_decode(model: &str, case: &str, audio: &str, prompt: Option<&str>) {
    let engine = engine(model);
    let expected = read_json(&reference().join(format!("outputs/{model}/{case}.json")));
    assert_eq!(
        expected["options"]["prompt"].as_str(),
        prompt,
        "{model}/{case}: the reference was made with another prompt"
    );
    let transcript = engine
        .transcribe(
            &pcm(audio),
            &TranscribeOptions {
                prompt: prompt.map(String::from),
                ..TranscribeOptions::default()
            },
        )
        .unwrap();
    let label = format!("{model}/{case}");
    assert_eq!(
        transcript.tokens,
        ids(&expected["tokens"]),
        "{label}: tokens"
    );
    assert_eq!(
        transcript.text,
        expected["text_unstripped"].as_str().unwrap(),
        "{label}: text"
    );
    let logprob_diff = max_abs_diff(
        &transcript.token_logprobs,
        &floats(&expected["token_logprobs"]),
    );
    assert!(
        logprob_diff < 1e-3,
        "{label}: token log-probs differ by {logprob_diff}"
    );
    let avg = expected["avg_logprob"].as_f64().unwrap() as f32;
    assert!(
        (transcript.avg_logprob - avg).abs() < 1e-3,
        "{label}: avg_logprob {} vs {avg}",
        transcript.avg_logprob
    );
    let no_speech = expected["no_speech_prob"].as_f64().unwrap() as f32;
    let ours = transcript
        .no_speech_prob
        .expect("both vocabularies have <|nospeech|>");
    assert!(
        (ours - no_speech).abs() < 1e-3,
        "{label}: no_speech_prob {ours} vs {no_speech}"
    );
    assert_eq!(transcript.audio_ctx, 1500);
}

#[test]
fn decoded_tokens_equal_the_originals() {
    for model in MODELS {
        for case in CASES {
            check_decode(model, case, case, None);
        }
    }
}

#[test]
fn prompted_decoding_equals_the_original() {
    for model in MODELS {
        check_decode(model, "prompt-speech", "speech", Some("hey fox"));
    }
}

#[test]
fn suppression_set_equals_the_originals() {
    for model in MODELS {
        let engine = engine(model);
        let expected = read_json(&reference().join(format!("outputs/{model}/speech.json")));
        assert_eq!(
            engine.suppressed_tokens(),
            &ids(&expected["suppress_tokens"])[..],
            "{model}"
        );
        let initial = ids(&expected["initial_tokens"]);
        assert_eq!(engine.tokenizer().start_sequence(), initial, "{model}");
    }
}

#[test]
fn wake_phrase_score_equals_the_originals() {
    for model in MODELS {
        let engine = engine(model);
        for case in CASES {
            let expected = read_json(&reference().join(format!("outputs/{model}/{case}.json")));
            let wake = &expected["wake_phrase"];
            let phrase = wake["text"].as_str().unwrap();
            let theirs = wake["sum_logprob"].as_f64().unwrap() as f32;
            let ours = engine
                .phrase_logprob(&pcm(case), phrase, AudioCtx::Full)
                .unwrap();
            // Sums of two log-probs around -100: relative agreement.
            assert!(
                (ours - theirs).abs() < 1e-3 * theirs.abs().max(1.0),
                "{model}/{case}: {ours} vs {theirs}"
            );
        }
    }
}

#[test]
fn quantized_projection_and_auto_context_still_decode() {
    // Not parity (both trade exactness for speed), but they must work and
    // stay close: the same first token on speech.
    let files = ModelFiles::from_dir(&reference().join("models/tiny-random")).unwrap();
    let fast = Engine::load(&files, Projection::Quantized).unwrap();
    let exact = engine("tiny-random");
    let speech = pcm("speech");
    let options = TranscribeOptions {
        audio_ctx: AudioCtx::Auto,
        max_tokens: Some(4),
        ..TranscribeOptions::default()
    };
    let short = exact.transcribe(&speech, &options).unwrap();
    // 2.17 s of audio is 218 frames; plus the margin, halved by conv2.
    assert!(
        short.audio_ctx < 200 && short.audio_ctx > 100,
        "{}",
        short.audio_ctx
    );
    assert!(short.tokens.len() <= 4);
    let quantized = fast
        .transcribe(&speech, &TranscribeOptions::default())
        .unwrap();
    let full = exact
        .transcribe(&speech, &TranscribeOptions::default())
        .unwrap();
    assert_eq!(quantized.tokens[0], full.tokens[0]);
}
