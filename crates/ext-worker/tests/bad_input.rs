//! Bad input gets a clear error and loses nothing: corrupt, truncated and
//! mismatched model files, audio that is empty, silent, NaN, very long or
//! not a WAV. The pipeline (what the worker runs) keeps its loaded model
//! and answers the next request after every failure. Also: GGUF weights, and
//! the `transcribe` and `quantize` binaries.

use candle_core::quantized::GgmlDType;
use ext_protocol::settings::{ListenSettings, VoiceSettings};
use ext_protocol::worker::{FromWorker, ToWorker};
use ext_worker::convert::safetensors_to_gguf;
use ext_worker::pipeline::Pipeline;
use ext_worker::{
    audio, AudioCtx, Engine, ErrorCode, ModelFiles, Projection, TranscribeOptions, WeightFile,
};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::Command;

fn model_dir(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/models")
        .join(name)
}

fn audio_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/reference/audio")
        .join(format!("{name}.wav"))
}

fn files(name: &str) -> ModelFiles {
    ModelFiles::from_dir(&model_dir(name)).unwrap()
}

fn speech() -> Vec<f32> {
    let bytes = std::fs::read(audio_path("speech")).unwrap();
    audio::to_16k(&audio::read_wav(&bytes).unwrap()).unwrap()
}

fn safetensors(files: &ModelFiles) -> &[u8] {
    match &files.weights {
        WeightFile::Safetensors(bytes) => bytes,
        WeightFile::Gguf(_) => unreachable!("the test models are safetensors"),
    }
}

fn load_error(files: &ModelFiles) -> ext_worker::Error {
    match Engine::load(files, Projection::Exact) {
        Ok(_) => panic!("a bad model loaded"),
        Err(e) => e,
    }
}

#[test]
fn truncated_or_garbage_weights_are_model_errors() {
    let good = files("tiny-random");
    let bytes = safetensors(&good).to_vec();
    for broken in [
        bytes[..bytes.len() / 2].to_vec(),
        bytes[..7].to_vec(),
        Vec::new(),
        b"<html>404 Not Found</html>".to_vec(),
    ] {
        let files = ModelFiles {
            weights: WeightFile::Safetensors(broken),
            ..files("tiny-random")
        };
        let e = load_error(&files);
        assert_eq!(e.code, ErrorCode::ModelInvalid, "{e}");
        assert!(e.message.contains("model.safetensors"), "{e}");
    }
    let e = load_error(&ModelFiles {
        weights: WeightFile::Gguf(b"GGUF but not really".to_vec()),
        ..files("tiny-random")
    });
    assert_eq!(e.code, ErrorCode::ModelInvalid, "{e}");
}

#[test]
fn a_config_that_does_not_fit_the_weights_names_the_tensor() {
    let mut config: Value = serde_json::from_slice(&files("tiny-random").config).unwrap();
    config["d_model"] = 64.into();
    let e = load_error(&ModelFiles {
        config: serde_json::to_vec(&config).unwrap(),
        ..files("tiny-random")
    });
    assert_eq!(e.code, ErrorCode::ModelInvalid, "{e}");
    assert!(e.message.contains("weight"), "{e}");

    config["d_model"] = 32.into();
    config["decoder_attention_heads"] = 3.into();
    let e = load_error(&ModelFiles {
        config: serde_json::to_vec(&config).unwrap(),
        ..files("tiny-random")
    });
    assert!(e.message.contains("heads"), "{e}");

    let e = load_error(&ModelFiles {
        config: b"{not json".to_vec(),
        ..files("tiny-random")
    });
    assert!(e.message.contains("config.json"), "{e}");
}

#[test]
fn a_tokenizer_from_another_model_is_refused() {
    let e = load_error(&ModelFiles {
        tokenizer: files("tiny-random").tokenizer,
        ..files("tiny-random.en")
    });
    assert_eq!(e.code, ErrorCode::TokenizerInvalid, "{e}");
    assert!(e.message.contains("not from the same model"), "{e}");

    let e = load_error(&ModelFiles {
        tokenizer: b"{}".to_vec(),
        ..files("tiny-random")
    });
    assert_eq!(e.code, ErrorCode::TokenizerInvalid, "{e}");
}

#[test]
fn odd_audio_is_refused_or_transcribed_never_a_panic() {
    let engine = Engine::load(&files("tiny-random"), Projection::Exact).unwrap();
    let options = TranscribeOptions {
        max_tokens: Some(3),
        ..TranscribeOptions::default()
    };
    for (pcm, why) in [(vec![], "no audio"), (vec![0.0, f32::NAN], "not a number")] {
        let e = engine.transcribe(&pcm, &options).unwrap_err();
        assert_eq!(e.code, ErrorCode::AudioInvalid);
        assert!(e.message.contains(why), "{e}");
    }
    let e = engine
        .transcribe(&[f32::INFINITY; 10], &options)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AudioInvalid);

    // Silence, one sample, and 45 s (trimmed to 30) all transcribe.
    for pcm in [vec![0.0; 16_000], vec![0.5], vec![0.01; 45 * 16_000]] {
        let t = engine.transcribe(&pcm, &options).unwrap();
        assert!(t.tokens.len() <= 3);
        assert!(t.audio_seconds <= 30.0);
        let t = engine
            .transcribe(
                &pcm,
                &TranscribeOptions {
                    audio_ctx: AudioCtx::Auto,
                    ..options.clone()
                },
            )
            .unwrap();
        assert!(t.audio_ctx <= 1500);
    }
    // A phrase longer than the text context cannot be scored.
    let e = engine
        .phrase_logprob(&speech(), &"fox ".repeat(500), AudioCtx::Auto)
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgs, "{e}");
    assert!(engine
        .phrase_logprob(&speech(), "  ", AudioCtx::Auto)
        .is_err());
}

#[test]
fn the_pipeline_survives_every_failure_and_keeps_its_model() {
    let mut pipeline = Pipeline::new();
    let options = TranscribeOptions {
        max_tokens: Some(5),
        ..TranscribeOptions::default()
    };
    let e = pipeline.transcribe(&speech(), &options).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoModel);

    let ready = pipeline.load(files("tiny-random"), false).to_json();
    assert_eq!(ready["state"], "ready", "{ready}");
    assert_eq!(ready["model"]["multilingual"], true);
    let first = pipeline.transcribe(&speech(), &options).unwrap();

    // A corrupt load fails and the loaded model stays.
    let failed = pipeline.load(
        ModelFiles {
            weights: WeightFile::Safetensors(vec![1, 2, 3]),
            ..files("tiny-random.en")
        },
        false,
    );
    assert_eq!(
        failed.to_json()["error"]["code"],
        "MODEL_INVALID",
        "{failed:?}"
    );
    let e = pipeline
        .transcribe(&[f32::NAN], &TranscribeOptions::default())
        .unwrap_err();
    assert_eq!(e.code, ErrorCode::AudioInvalid, "{e}");
    let again = pipeline.transcribe(&speech(), &options).unwrap();
    assert_eq!(again.tokens, first.tokens);

    let logprob = pipeline
        .score(&speech(), "hey fox", AudioCtx::Auto)
        .unwrap();
    assert!(logprob < 0.0, "{logprob}");

    let unloaded = pipeline.control(ToWorker::Unload);
    assert_eq!(unloaded[0].to_json()["state"], "unloaded");
    assert!(!pipeline.is_loaded());
    let e = pipeline.transcribe(&speech(), &options).unwrap_err();
    assert_eq!(e.code, ErrorCode::NoModel);
    // Requests that need the browser are refused here, clearly.
    let refused = pipeline.control(ToWorker::Installed);
    assert_eq!(refused[0].to_json()["error"]["code"], "INVALID_ARGS");
}

#[test]
fn gguf_weights_load_f32_exactly_and_q8_0_closely() {
    let reference = Engine::load(&files("tiny-random.en"), Projection::Exact).unwrap();
    let options = TranscribeOptions::default();
    let expected = reference.transcribe(&speech(), &options).unwrap();

    let bytes = safetensors(&files("tiny-random.en")).to_vec();
    let f32_gguf = safetensors_to_gguf(&bytes, GgmlDType::F32).unwrap();
    let engine = Engine::load(
        &ModelFiles {
            weights: WeightFile::Gguf(f32_gguf),
            ..files("tiny-random.en")
        },
        Projection::Exact,
    )
    .unwrap();
    assert_eq!(
        engine.transcribe(&speech(), &options).unwrap().tokens,
        expected.tokens
    );

    let q8 = safetensors_to_gguf(&bytes, GgmlDType::Q8_0).unwrap();
    assert!(
        q8.len() < bytes.len(),
        "q8_0 {} vs f16 {} bytes",
        q8.len(),
        bytes.len()
    );
    let engine = Engine::load(
        &ModelFiles {
            weights: WeightFile::Gguf(q8),
            ..files("tiny-random.en")
        },
        Projection::Quantized,
    )
    .unwrap();
    let quantized = engine.first_logits(&speech()).unwrap();
    let exact = reference.first_logits(&speech()).unwrap();
    let diff = quantized
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    let scale = exact.iter().map(|x| x.abs()).fold(0.0, f32::max);
    assert!(diff > 0.0, "q8_0 cannot be bit-exact");
    assert!(
        diff < 0.05 * scale,
        "q8_0 logits differ by {diff} of {scale}"
    );

    // q4_0 (and the k-quants, for rows of 256) load and decode the same way.
    let q4 = safetensors_to_gguf(&bytes, GgmlDType::Q4_0).unwrap();
    let engine = Engine::load(
        &ModelFiles {
            weights: WeightFile::Gguf(q4),
            ..files("tiny-random.en")
        },
        Projection::Quantized,
    )
    .unwrap();
    let transcript = engine.transcribe(&speech(), &options).unwrap();
    assert!(!transcript.tokens.is_empty());
    let q4_logits = engine.first_logits(&speech()).unwrap();
    let diff = q4_logits
        .iter()
        .zip(&exact)
        .map(|(a, b)| (a - b).abs())
        .fold(0.0, f32::max);
    assert!(
        diff < 0.25 * scale,
        "q4_0 logits differ by {diff} of {scale}"
    );
}

fn run(bin: &str, args: &[&str]) -> (bool, String, String) {
    let output = Command::new(bin).args(args).output().unwrap();
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

#[test]
fn transcribe_binary_prints_the_engines_json() {
    let model = model_dir("tiny-random.en");
    let (ok, out, err) = run(
        env!("CARGO_BIN_EXE_transcribe"),
        &[
            "--model",
            model.to_str().unwrap(),
            "--audio",
            audio_path("speech-44k-stereo").to_str().unwrap(),
            "--json",
            "--max-tokens",
            "6",
            "--prompt",
            "hey fox",
        ],
    );
    assert!(ok, "{err}");
    let json: Value = serde_json::from_str(&out).unwrap();
    for field in [
        "text",
        "tokens",
        "token_logprobs",
        "no_speech_prob",
        "avg_logprob",
    ] {
        assert!(json.get(field).is_some(), "no {field} in {out}");
    }
    for stage in ["mel", "encoder", "decoder"] {
        assert!(json["timings"][stage].as_f64().unwrap() >= 0.0);
    }
    let tokens = json["tokens"].as_array().unwrap();
    assert_eq!(
        tokens.len(),
        json["token_logprobs"].as_array().unwrap().len()
    );
    assert!(tokens.len() <= 6);

    let (ok, _, err) = run(
        env!("CARGO_BIN_EXE_transcribe"),
        &[
            "--model",
            model.to_str().unwrap(),
            "--audio",
            model.join("config.json").to_str().unwrap(),
        ],
    );
    assert!(!ok);
    assert!(err.contains("not a readable WAV"), "{err}");
    let (ok, _, err) = run(env!("CARGO_BIN_EXE_transcribe"), &["--audio-ctx", "half"]);
    assert!(!ok);
    assert!(err.contains("--audio-ctx half: say full, auto"), "{err}");
}

#[test]
fn quantize_binary_writes_a_model_transcribe_loads() {
    let out = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join("tw-quantize");
    let model = model_dir("tiny-random");
    let (ok, printed, err) = run(
        env!("CARGO_BIN_EXE_quantize"),
        &[
            "--model",
            model.to_str().unwrap(),
            "--type",
            "q8_0",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(ok, "{err}");
    assert!(printed.trim().ends_with("model-q8_0.gguf"), "{printed}");
    let (ok, text, err) = run(
        env!("CARGO_BIN_EXE_transcribe"),
        &[
            "--model",
            out.to_str().unwrap(),
            "--audio",
            audio_path("tone").to_str().unwrap(),
            "--max-tokens",
            "3",
        ],
    );
    assert!(ok, "{err}");
    assert!(!text.trim().is_empty());
    std::fs::remove_dir_all(&out).unwrap();
}

/// The 44.1-kHz stereo recording as an AudioWorklet would deliver it:
/// mono blocks of 128 samples, with silence before and after.
fn microphone_blocks() -> Vec<Vec<f32>> {
    let bytes = std::fs::read(audio_path("speech-44k-stereo")).unwrap();
    let wav = audio::read_wav(&bytes).unwrap();
    assert_eq!(wav.rate, 44_100);
    let quiet = vec![0.0005f32; 44_100];
    [quiet.clone(), wav.samples, quiet]
        .concat()
        .chunks(128)
        .map(<[f32]>::to_vec)
        .collect()
}

#[test]
fn listening_turns_microphone_blocks_into_heard_commands() {
    let mut pipeline = Pipeline::new();
    let listen = |pipeline: &mut Pipeline| -> Vec<Value> {
        let mut events = Vec::new();
        for samples in microphone_blocks() {
            pipeline.audio(&samples, 44_100, &mut |e| events.push(e.to_json()));
        }
        events.retain(|e| {
            e["type"] != "level" && e["type"] != "partial" && e["state"] != "processing"
        });
        events
    };
    // No wake word: every utterance is a command, prompted with the tabs.
    pipeline.control(ToWorker::Configure {
        settings: ListenSettings {
            voice: VoiceSettings {
                wake_word_enabled: false,
                ..VoiceSettings::default()
            },
            ..ListenSettings::default()
        },
    });
    pipeline.control(ToWorker::Vocabulary {
        prompt: "youtube gmail".into(),
        phrases: vec!["close YouTube".into()],
    });
    // Nothing heard yet: nothing to hear again, and no model needed to say so.
    let answer = pipeline.control(ToWorker::HearGuided);
    assert!(
        matches!(
            answer.as_slice(),
            [FromWorker::HeardGuided { command: None, .. }]
        ),
        "{answer:?}"
    );
    // No model yet: the utterance is reported as an error, nothing breaks.
    let events = listen(&mut pipeline);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listening", "error"], "{events:?}");
    assert_eq!(events[1]["error"]["code"], "NO_MODEL");

    pipeline.load(files("tiny-random.en"), false);
    let events = listen(&mut pipeline);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listening", "command"], "{events:?}");
    let heard = &events[1];
    assert_eq!(heard["prompt"], "youtube gmail");
    let seconds = heard["seconds"].as_f64().unwrap();
    // The 2.17 s of speech, with pre-roll and the 700-ms tail.
    assert!((2.1..=3.2).contains(&seconds), "{seconds} s");
    let tokens = heard["tokens"].as_array().unwrap();
    assert!(!tokens.is_empty() && tokens.len() <= 96, "{heard}");

    // A rate of 0 is refused; stopping with nothing under way says only
    // where the session stands.
    let mut out = Vec::new();
    pipeline.audio(&[0.0; 128], 0, &mut |e| out.push(e));
    assert!(
        matches!(out.as_slice(), [FromWorker::Error { .. }]),
        "{out:?}"
    );
    let stopped = pipeline.control(ToWorker::Stop);
    assert_eq!(stopped.len(), 1, "{stopped:?}");
    assert_eq!(stopped[0].kind(), "status");

    // Hostile phrases (too many, a megabyte long, odd text) are bounded,
    // and hearing the last command again guided answers and breaks nothing.
    let mut phrases: Vec<String> = (0..10_000).map(|i| format!("close tab {i}")).collect();
    phrases.extend([
        "x".repeat(1_000_000),
        "🦊 ünïcödé \u{200b}".into(),
        String::new(),
    ]);
    pipeline.control(ToWorker::Vocabulary {
        prompt: "youtube".into(),
        phrases,
    });
    let answer = pipeline.control(ToWorker::HearGuided);
    assert!(
        matches!(answer.as_slice(), [FromWorker::HeardGuided { ms, .. }] if *ms >= 0.0),
        "{answer:?}"
    );
    let events = listen(&mut pipeline);
    let kinds: Vec<&str> = events.iter().map(|e| e["type"].as_str().unwrap()).collect();
    assert_eq!(kinds, ["listening", "command"], "{events:?}");
}

#[test]
fn an_absurd_config_is_refused_before_anything_is_allocated() {
    let base: Value = serde_json::from_slice(&files("tiny-random").config).unwrap();
    for (field, value) in [
        ("num_mel_bins", 1_000_000_000u64),
        ("d_model", 6_000_000_000),
        ("max_source_positions", 1_000_000_000),
        ("decoder_layers", 100_000),
        ("vocab_size", 4_000_000_000),
    ] {
        let mut config = base.clone();
        config[field] = value.into();
        if field == "d_model" {
            // Still split into the heads, so only the size can refuse it.
            config["encoder_attention_heads"] = 1.into();
            config["decoder_attention_heads"] = 1.into();
        }
        let e = load_error(&ModelFiles {
            config: serde_json::to_vec(&config).unwrap(),
            ..files("tiny-random")
        });
        assert_eq!(e.code, ErrorCode::ModelInvalid, "{field}: {e}");
        assert!(e.message.contains(field), "{field}: {e}");
    }
}

/// A GGUF file with one more metadata entry, `general.alignment` = `value`
/// (u32), spliced into the header of `gguf` (version 2 or 3, none before).
fn with_alignment(gguf: &[u8], value: u32) -> Vec<u8> {
    assert_eq!(&gguf[..4], b"GGUF");
    let entries = u64::from_le_bytes(gguf[16..24].try_into().unwrap());
    let mut out = gguf[..16].to_vec();
    out.extend_from_slice(&(entries + 1).to_le_bytes());
    let key = b"general.alignment";
    out.extend_from_slice(&(key.len() as u64).to_le_bytes());
    out.extend_from_slice(key);
    out.extend_from_slice(&4u32.to_le_bytes());
    out.extend_from_slice(&value.to_le_bytes());
    out.extend_from_slice(&gguf[24..]);
    out
}

#[test]
fn a_gguf_alignment_of_zero_is_an_error_not_a_trap() {
    let bytes = safetensors(&files("tiny-random.en")).to_vec();
    let gguf = safetensors_to_gguf(&bytes, GgmlDType::Q8_0).unwrap();
    assert_eq!(ext_worker::whisper::gguf_alignment(&gguf), None);
    let zero = with_alignment(&gguf, 0);
    assert_eq!(ext_worker::whisper::gguf_alignment(&zero), Some(0));
    let e = load_error(&ModelFiles {
        weights: WeightFile::Gguf(zero),
        ..files("tiny-random.en")
    });
    assert_eq!(e.code, ErrorCode::ModelInvalid, "{e}");
    assert!(e.message.contains("alignment"), "{e}");
    // Truncated headers are read as "no alignment", leaving Candle to say
    // what is wrong.
    for cut in [3, 10, 30, 60] {
        let e = load_error(&ModelFiles {
            weights: WeightFile::Gguf(gguf[..cut].to_vec()),
            ..files("tiny-random.en")
        });
        assert_eq!(e.code, ErrorCode::ModelInvalid, "{cut}: {e}");
    }
}
