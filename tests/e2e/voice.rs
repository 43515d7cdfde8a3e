//! Voice, end to end in headless Firefox: a model downloaded from the
//! local server (with progress, kept across a background restart, and a
//! corrupt or cut-short download refused), sound played through the real
//! AudioContext, AudioWorklet and speech worker, and the fake microphone.
//! The model is the committed random-weight tiny model: what it hears is
//! gibberish, so the tests compare tokens, not words.

use crate::util::*;
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;
use tab_whisperer::pages::tone_wav;
use tab_whisperer::{wait_for, PageServer};

const MODEL: &str = "tiny-random";
/// Whisper in a dev-built worker on a busy 2-core machine.
const HEARD: Duration = Duration::from_secs(120);

fn model_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/ext-worker/tests/reference/models")
        .join(MODEL)
}

fn model_file(name: &str) -> Vec<u8> {
    std::fs::read(model_dir().join(name)).expect("the committed test model")
}

fn speech_samples() -> Vec<i16> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("crates/ext-worker/tests/reference/audio/speech.wav");
    pcm16(&std::fs::read(path).unwrap())
}

/// The samples of a 16-bit mono PCM WAV.
fn pcm16(wav: &[u8]) -> Vec<i16> {
    let at = wav
        .windows(4)
        .position(|w| w == b"data")
        .expect("a data chunk")
        + 8;
    wav[at..]
        .chunks_exact(2)
        .map(|b| i16::from_le_bytes([b[0], b[1]]))
        .collect()
}

fn wav(header_format: u16, bits: u16, rate: u32, data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(44 + data.len());
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data.len() as u32).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&header_format.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&rate.to_le_bytes());
    out.extend_from_slice(&(rate * u32::from(bits) / 8).to_le_bytes());
    out.extend_from_slice(&(bits / 8).to_le_bytes());
    out.extend_from_slice(&bits.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&(data.len() as u32).to_le_bytes());
    out.extend_from_slice(data);
    out
}

fn wav16(samples: &[i16], rate: u32) -> Vec<u8> {
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    wav(1, 16, rate, &data)
}

fn wav_f32(samples: &[f32], rate: u32) -> Vec<u8> {
    let data: Vec<u8> = samples.iter().flat_map(|s| s.to_le_bytes()).collect();
    wav(3, 32, rate, &data)
}

/// Speech with 0.5 s of silence before it and 1.5 s after: the detector
/// sees one utterance, start and end.
fn spoken_command() -> Vec<i16> {
    let mut samples = vec![0i16; 8_000];
    samples.extend(speech_samples());
    samples.extend(vec![0i16; 24_000]);
    samples
}

/// A page server with the test model under `/good/`, the same with
/// random weights under `/corrupt/` (and cut short from `cut_url`), and the
/// sounds the tests play.
fn serve() -> PageServer {
    let mut files = Vec::new();
    for name in ["config.json", "tokenizer.json", "model.safetensors"] {
        files.push((format!("/good/{name}"), model_file(name)));
        let corrupt = if name == "model.safetensors" {
            (0..model_file(name).len())
                .map(|i| (i * 7919 % 251) as u8)
                .collect()
        } else {
            model_file(name)
        };
        files.push((format!("/corrupt/{name}"), corrupt));
    }
    files.push(("/command-16k.wav".into(), wav16(&spoken_command(), 16_000)));
    let mut tone = vec![0u8; 0];
    let silence = |seconds: f64| wav16(&vec![0i16; (seconds * 48_000.0) as usize], 48_000);
    // 0.5 s silence, 1 s of 440 Hz, 1.5 s silence, at 48 kHz.
    let mut samples = pcm16(&silence(0.5));
    samples.extend(pcm16(&tone_wav(440.0, 1.0, 48_000)));
    samples.extend(pcm16(&silence(1.5)));
    tone.extend(wav16(&samples, 48_000));
    files.push(("/tone-48k.wav".into(), tone));
    PageServer::with_files(files).expect("local page server")
}

/// Firefox with the add-on as built but without its bundled model: these
/// tests install, replace and remove models from nothing (the bundled real
/// model is tested in `speech.rs`).
fn start_voice() -> Env {
    let pages = serve();
    let xpi = xpi_without_models();
    let ff = tab_whisperer::Firefox::start(tab_whisperer::Options {
        xpi: Some(xpi),
        prefs: tab_whisperer::firefox::local_only_prefs(),
        ..tab_whisperer::Options::default()
    })
    .expect("Firefox with the add-on");
    Env { ff, pages }
}

/// The built add-on with `models/` left out, made once per test run in
/// cargo's scratch folder for tests (under `target/`, so nothing collects in
/// the machine's /tmp).
fn xpi_without_models() -> PathBuf {
    static MADE: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    MADE.get_or_init(make_xpi_without_models).clone()
}

fn make_xpi_without_models() -> PathBuf {
    let source = tab_whisperer::firefox::xpi_path();
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&source).unwrap()).unwrap();
    let out = scratch("tw-no-models.xpi");
    let partial = out.with_extension(format!("{}.part", std::process::id()));
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&partial).unwrap());
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).unwrap();
        if !file.name().starts_with("models/") {
            writer.raw_copy_file(file).unwrap();
        }
    }
    writer.finish().unwrap();
    std::fs::rename(&partial, &out).unwrap();
    out
}

/// A path in cargo's scratch folder for integration tests (`target/tmp`).
fn scratch(name: &str) -> PathBuf {
    Path::new(env!("CARGO_TARGET_TMPDIR")).join(name)
}

fn send(env: &Env, message: Value) -> Value {
    env.ff.send(&message).expect("the background answers")
}

fn install(env: &Env, base: &str) -> Value {
    send(
        env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.url(base), "quantize": false }),
    )
}

fn installed(env: &Env) -> Value {
    let answer = send(env, json!({ "type": "model_list" }));
    assert_eq!(answer["ok"], true, "{answer}");
    answer["installed"].clone()
}

fn events(env: &Env) -> Vec<Value> {
    let status = send(env, json!({ "type": "voice_status" }));
    status["events"].as_array().cloned().unwrap_or_default()
}

/// Waits for the first event of `kind` (after `skip` earlier ones of it).
fn event(env: &Env, kind: &str) -> Value {
    wait_for(HEARD, &format!("a {kind} event"), || {
        Ok(events(env).into_iter().find(|e| e["type"] == kind))
    })
    .unwrap()
}

/// From now on the fixture's page keeps every voice event the background
/// tells open pages (`window.__twEvents`), as the popup hears them.
fn capture_events(env: &Env) {
    env.ff
        .session()
        .execute(
            r#"window.__twEvents = [];
               const port = browser.runtime.connect({ name: "test" });
               port.onMessage.addListener(m => m.event && window.__twEvents.push(m.event));
               return null;"#,
            &[],
        )
        .unwrap();
}

fn badge(env: &Env) -> String {
    let script = r#"const done = arguments[arguments.length - 1];
        browser.browserAction.getBadgeText({}).then(done, e => done("error: " + e));"#;
    env.ff
        .session()
        .execute_async(script, &[])
        .unwrap()
        .as_str()
        .unwrap_or_default()
        .to_string()
}

#[test]
fn a_model_downloads_with_progress_survives_a_restart_and_bad_downloads_are_refused() {
    let mut env = start_voice();
    assert_eq!(installed(&env), json!([]));

    let answer = send(&env, json!({ "type": "voice_start" }));
    assert_eq!(answer["error"]["code"], "NO_MODEL", "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("options page"));
    assert_eq!(badge(&env), "ERR");

    // Corrupt weights: refused, and not kept.
    let answer = install(&env, "/corrupt/");
    assert_eq!(answer["ok"], false, "{answer}");
    assert_eq!(answer["error"]["code"], "MODEL_INVALID", "{answer}");
    assert_eq!(installed(&env), json!([]));

    // A download that breaks off halfway says so.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/good/") }),
    );
    assert_eq!(answer["error"]["code"], "DOWNLOAD_FAILED", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("config.json"), "{message}");
    assert_eq!(installed(&env), json!([]));

    // An endless body that trickles in is given up on as stalled (the
    // model lock is not held for ever), and nothing is kept.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/trickle/good/") }),
    );
    assert_eq!(answer["error"]["code"], "DOWNLOAD_FAILED", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap();
    assert!(message.contains("stopped sending"), "{message}");
    assert_eq!(installed(&env), json!([]));

    // A server announcing 3 GB is refused at once, before any of it is
    // kept in memory; a plain-http address elsewhere is refused too.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/huge/good/") }),
    );
    assert_eq!(answer["error"]["code"], "DOWNLOAD_FAILED", "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("larger than any"),
        "{answer}"
    );
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": "http://192.0.2.9/whisper/" }),
    );
    assert_eq!(answer["error"]["code"], "DOWNLOAD_FAILED", "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .unwrap()
            .contains("https://"),
        "{answer}"
    );
    assert_eq!(installed(&env), json!([]));

    // A page listening on a port sees the progress as it happens.
    capture_events(&env);
    let answer = install(&env, "/good/");
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["source"], "download");
    assert_eq!(installed(&env), json!([MODEL]));
    let settings = send(&env, json!({ "type": "settings" }));
    assert_eq!(
        settings["settings"]["speechModel"], MODEL,
        "installing selects it"
    );
    let heard = env
        .ff
        .session()
        .execute("return window.__twEvents;", &[])
        .unwrap();
    let weights: Vec<(u64, u64)> = heard
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["type"] == "progress" && e["file"] == "model.safetensors")
        .map(|e| (e["loaded"].as_u64().unwrap(), e["total"].as_u64().unwrap()))
        .collect();
    let size = model_file("model.safetensors").len() as u64;
    assert!(weights.len() >= 3, "progress along the way: {weights:?}");
    assert!(weights.windows(2).all(|w| w[0].0 < w[1].0), "{weights:?}");
    assert_eq!(weights.last(), Some(&(size, size)));

    // A reinstall (an import of the same name) that fails to load leaves
    // the working model in place, in memory and in the cache.
    let answer = tab_whisperer::harness::layouts::api(
        &env.ff,
        r#"const get = async (name) => (await fetch(args[0] + name)).arrayBuffer();
           return await browser.runtime.sendMessage({
             type: "model_import", model: args[1],
             config: await get("config.json"), tokenizer: await get("tokenizer.json"),
             weights: await get("model.safetensors") });"#,
        json!([env.pages.url("/corrupt/"), MODEL]),
    )
    .unwrap();
    assert_eq!(answer["error"]["code"], "MODEL_INVALID", "{answer}");
    assert_eq!(installed(&env), json!([MODEL]));

    // Served gzip-encoded (Content-Length the compressed size), a model is
    // not mistaken for an interrupted download.
    let answer = send(&env, json!({ "type": "model_remove", "model": MODEL }));
    assert_eq!(answer["installed"], json!([]), "{answer}");
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/gzip/good/"), "quantize": false }),
    );
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["source"], "download", "{answer}");

    // A restarted background finds it kept: no server needed.
    env.ff.reload_extension().unwrap();
    assert_eq!(installed(&env), json!([MODEL]));
    let answer = send(&env, json!({ "type": "model_install", "model": MODEL }));
    assert_eq!(answer["source"], "cache", "{answer}");

    let answer = send(&env, json!({ "type": "model_remove", "model": MODEL }));
    assert_eq!(answer["installed"], json!([]), "{answer}");
    let settings = send(&env, json!({ "type": "settings" }));
    assert_eq!(settings["settings"]["speechModel"], "none");
}

#[test]
fn downloads_match_the_announced_sha256_and_kept_files_are_checked_when_read() {
    let mut env = start_voice();
    // The server's ETag (as the Hugging Face hub sends for LFS files)
    // names another file's SHA-256: refused, nothing kept.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/badsha/good/"), "quantize": false }),
    );
    assert_eq!(answer["error"]["code"], "DOWNLOAD_FAILED", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("SHA-256"), "{message}");
    assert_eq!(installed(&env), json!([]));

    // The right SHA-256: installed.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/sha/good/"), "quantize": false }),
    );
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(installed(&env), json!([MODEL]));

    // The kept config changes behind the extension's back (one space
    // added: it would still parse). Read back after a restart, it is
    // refused as damaged and dropped, not loaded.
    tab_whisperer::harness::layouts::api(
        &env.ff,
        r#"const cache = await caches.open("tab-whisperer-models");
           const kept = await cache.match(args);
           const changed = (await kept.text()) + " ";
           await cache.put(args, new Response(changed, { headers: kept.headers }));"#,
        json!(format!(
            "https://models.tab-whisperer.invalid/{MODEL}/config.json"
        )),
    )
    .unwrap();
    env.ff.reload_extension().unwrap();
    let answer = send(&env, json!({ "type": "model_install", "model": MODEL }));
    assert_eq!(answer["error"]["code"], "MODEL_INVALID", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("damaged"), "{message}");
    assert_eq!(installed(&env), json!([]));
    // The worker is alive: a good download installs again.
    let answer = send(
        &env,
        json!({ "type": "model_install", "model": MODEL, "url": env.pages.cut_url("/sha/good/"), "quantize": false }),
    );
    assert_eq!(answer["ok"], true, "{answer}");
}

/// Installs the test model and turns the wake word off (the random model
/// never says "hey fox"), or leaves it on.
fn ready(env: &Env, wake_word: bool) {
    let answer = install(env, "/good/");
    assert_eq!(answer["ok"], true, "{answer}");
    let patch = json!({ "type": "set_settings", "settings": { "voice": { "wakeWordEnabled": wake_word } } });
    assert_eq!(send(env, patch)["ok"], true);
}

/// Starts listening (`voice_start`, or `voice_trigger` to skip the wake
/// word) to a file from the page server played through the AudioContext,
/// with what reaches Whisper echoed in the events; answers the status.
fn play(env: &Env, how: &str, file: &str, rate: u32) -> Value {
    let url = env.pages.url(file);
    let message = json!({ "type": how, "audio_url": url, "sample_rate": rate, "echo_audio": true });
    let answer = send(env, message);
    assert_eq!(answer["ok"], true, "{answer}");
    answer
}

/// The 16-kHz samples an event carries (`echo_audio`).
fn echoed(event: &Value) -> Vec<f32> {
    let samples = event["pcm"]
        .as_array()
        .expect("the event carries its samples");
    samples.iter().map(|v| v.as_f64().unwrap() as f32).collect()
}

fn transcribe(samples: &[f32], prompt: &str, max_tokens: usize) -> Value {
    transcribe_as(samples, prompt, max_tokens, &[])
}

/// A live transcript's tokens: `transcribe --live`.
fn transcribe_live(samples: &[f32], prompt: &str) -> Value {
    transcribe_as(samples, prompt, 32, &["--live"])
}

fn transcribe_as(samples: &[f32], prompt: &str, max_tokens: usize, flags: &[&str]) -> Value {
    let dir = scratch("tw-voice");
    std::fs::create_dir_all(&dir).unwrap();
    let audio = dir.join("heard.wav");
    std::fs::write(&audio, wav_f32(samples, 16_000)).unwrap();
    let mut cmd = Command::new(env!("CARGO"));
    cmd.args([
        "run",
        "--quiet",
        "-p",
        "ext-worker",
        "--bin",
        "transcribe",
        "--",
    ])
    .arg("--model")
    .arg(model_dir())
    .arg("--audio")
    .arg(&audio)
    // Without decoding flags, transcribe decodes as the worker does.
    .args(["--json", "--max-tokens"])
    .arg(max_tokens.to_string())
    .args(flags);
    if !prompt.trim().is_empty() {
        cmd.args(["--prompt", prompt]);
    }
    let out = cmd.output().expect("cargo runs transcribe");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn speech_through_the_audio_context_reaches_whisper_intact_and_runs_as_a_command() {
    let env = start_voice();
    ready(&env, false);
    let answer = play(&env, "voice_start", "/command-16k.wav", 16000);
    assert_eq!(answer["listening"], true);
    assert_eq!(badge(&env), "MIC");

    // One utterance, run as a command once its answer is in.
    let command = wait_for(HEARD, "the command's answer", || {
        Ok(events(&env)
            .into_iter()
            .find(|e| e["type"] == "command" && e["answer"].is_object()))
    })
    .unwrap();
    let pcm = echoed(&command);
    // The file's samples inside what reached Whisper, to within one step
    // of 16-bit audio (Firefox's WAV decoder scales by 1/32767, not
    // 1/32768), with the detector's lead-in and tail of silence around.
    let speech: Vec<f32> = speech_samples()
        .iter()
        .map(|&s| f32::from(s) / 32768.0)
        .collect();
    let first = speech.iter().position(|&s| s != 0.0).unwrap();
    let n = speech.len() - first;
    let (at, off) = (0..pcm.len().saturating_sub(n))
        .map(|at| {
            let d = pcm[at..at + n]
                .iter()
                .zip(&speech[first..])
                .map(|(a, b)| (a - b).abs())
                .fold(0.0f32, f32::max);
            (at, d)
        })
        .min_by(|a, b| a.1.total_cmp(&b.1))
        .expect("an utterance longer than the speech");
    assert!(
        off <= 1.0 / 32768.0,
        "the speech arrives altered: off by {off} at best ({at})"
    );
    assert!(at > 0, "some lead-in is kept");
    let tail = pcm.len() - at - n;
    assert!(
        tail <= 16_000 * 72 / 100,
        "ends within a 700-ms pause after the speech: {tail} samples"
    );

    // Exactly the tokens the transcribe binary gives for those samples.
    let prompt = command["prompt"].as_str().unwrap_or_default();
    let expected = transcribe(&pcm, prompt, 96);
    assert_eq!(command["tokens"], expected["tokens"], "{command:#}");
    assert!(!command["tokens"].as_array().unwrap().is_empty());

    // While it was spoken, a live transcript of the speech so far (the
    // latest is kept): Whisper's for a prefix of the same samples.
    let partial = events(&env)
        .into_iter()
        .find(|e| e["type"] == "partial")
        .expect("a live transcript while speaking");
    assert!(partial["at_ms"].as_f64() < command["at_ms"].as_f64());
    let heard_so_far = echoed(&partial);
    assert!(heard_so_far.len() >= 16_000 && heard_so_far.len() < pcm.len());
    assert_eq!(&pcm[..heard_so_far.len()], &heard_so_far[..]);
    let expected = transcribe_live(&heard_so_far, prompt);
    assert_eq!(partial["tokens"], expected["tokens"], "{partial:#}");

    // And it ran: the log's only entry is the command, under what was
    // heard (the log shortens long commands).
    let text = command["text"].as_str().unwrap();
    let log = send(&env, json!({ "type": "log" }));
    let logged = log["entries"].as_array().unwrap();
    assert_eq!(logged.len(), 1, "{log}");
    let start: String = text.chars().take(40).collect();
    assert!(
        logged[0]["command"].as_str().unwrap().starts_with(&start),
        "{log}"
    );
    assert_eq!(
        command["answer"]["error"]["code"], "UNKNOWN_COMMAND",
        "gibberish is not a command"
    );
    assert_eq!(badge(&env), "MIC", "listening again");

    let answer = send(&env, json!({ "type": "voice_stop" }));
    assert_eq!(answer["listening"], false);
    assert_eq!(badge(&env), "");
}

#[test]
fn at_48_khz_the_stream_reaching_whisper_is_resampled_to_16_khz_without_aliasing() {
    let env = start_voice();
    ready(&env, false);
    play(&env, "voice_start", "/tone-48k.wav", 48000);
    // Whatever the random model makes of a tone, the samples come along.
    let heard = wait_for(HEARD, "the tone as an utterance", || {
        Ok(events(&env)
            .into_iter()
            .find(|e| e["type"] == "command" && e["pcm"].is_array()))
    })
    .unwrap();
    let pcm = echoed(&heard);
    // The tone lasts 1 s: 16,000 samples at full level, within a frame.
    let loud = pcm.iter().filter(|s| s.abs() > 0.05).count();
    let expected_peaks = 16_000.0 * (1.0 - (0.05f64 / 0.3).asin() / std::f64::consts::FRAC_PI_2);
    assert!(
        (loud as f64 - expected_peaks).abs() < 400.0,
        "{loud} samples above 0.05; a 1-s tone at 16 kHz has about {expected_peaks:.0}"
    );
    // Its energy is at 440 Hz, none of it folded elsewhere.
    let power = |freq: f64| {
        let (mut re, mut im) = (0.0, 0.0);
        for (i, &s) in pcm.iter().enumerate() {
            let phase = 2.0 * std::f64::consts::PI * freq * i as f64 / 16_000.0;
            re += f64::from(s) * phase.cos();
            im += f64::from(s) * phase.sin();
        }
        re * re + im * im
    };
    let at_440 = power(440.0);
    for other in [220.0, 880.0, 1_760.0, 4_000.0, 7_000.0] {
        assert!(power(other) < at_440 * 1e-3, "{other} Hz vs 440 Hz");
    }
    let _ = send(&env, json!({ "type": "voice_stop" }));
}

#[test]
fn the_fake_microphone_delivers_frames_and_waits_for_the_wake_word() {
    let env = start_voice();
    ready(&env, true);
    // Everything the background tells an open page, kept.
    capture_events(&env);
    let answer = send(&env, json!({ "type": "voice_start" }));
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["mode"], "passive");
    // The fake microphone's tone (peak 0.1, about -23 dBFS) comes through.
    let level = wait_for(HEARD, "an input level", || {
        let status = send(&env, json!({ "type": "voice_status" }));
        Ok(status["level_db"].as_f64())
    })
    .unwrap();
    assert!((-30.0..-15.0).contains(&level), "level {level} dBFS");
    // Opened without Firefox's noise suppression and automatic gain, which
    // cost Whisper more than the noise does (docs/speech.md). The fake
    // microphone applies no processing whatever it is asked, so what was
    // asked is what can be checked here.
    let status = send(&env, json!({ "type": "voice_status" }));
    let asked = &status["microphone"]["asked"];
    assert_eq!(asked["noise_suppression"], false, "{status}");
    assert_eq!(asked["auto_gain_control"], false, "{status}");
    assert_eq!(badge(&env), "MIC");
    // Three seconds of it (by the audio's own clock): the detector takes a
    // steady tone for the room's noise, not for speech.
    wait_for(HEARD, "3 s of microphone audio", || {
        let heard = env.ff.session().execute(
            "return Math.max(0, ...window.__twEvents.filter(e => e.type === 'level').map(e => e.heard_ms));",
            &[],
        )?;
        Ok(heard.as_f64().filter(|ms| *ms >= 3_000.0))
    })
    .unwrap();
    let kinds = env
        .ff
        .session()
        .execute("return window.__twEvents.map(e => e.type);", &[])
        .unwrap();
    let kinds: Vec<String> = serde_json::from_value(kinds).unwrap();
    assert!(kinds.iter().all(|k| k != "listening"), "{kinds:?}");
    let _ = send(&env, json!({ "type": "voice_stop" }));
    assert_eq!(badge(&env), "");
}

#[test]
fn a_speech_worker_that_traps_while_listening_is_restarted_with_its_model_and_the_microphone() {
    let env = start_voice();
    ready(&env, true);
    capture_events(&env);
    let answer = send(&env, json!({ "type": "voice_start" }));
    assert_eq!(answer["ok"], true, "{answer}");
    // The worker's wasm traps (as a bug in it would).
    let answer = send(&env, json!({ "type": "debug_worker_trap" }));
    assert_eq!(answer["ok"], true, "{answer}");
    // The popup hears that it failed, then that it runs again.
    let order = wait_for(HEARD, "the worker restarted", || {
        let kinds = env.ff.session().execute(
            "return window.__twEvents.map(e => e.reason === 'restarted' ? 'restarted' : e.type);",
            &[],
        )?;
        let kinds: Vec<String> = serde_json::from_value(kinds).unwrap_or_default();
        Ok(kinds.iter().any(|k| k == "restarted").then_some(kinds))
    })
    .unwrap();
    let failed = order.iter().position(|k| k == "error");
    let restarted = order.iter().position(|k| k == "restarted");
    assert!(failed < restarted && failed.is_some(), "{order:?}");
    // Its model is back (from the cache, no download) and the fake
    // microphone reaches the new worker: its own clock starts again.
    let status = send(&env, json!({ "type": "voice_status" }));
    assert_eq!(status["model"], MODEL, "{status}");
    wait_for(HEARD, "the microphone heard by the new worker", || {
        let heard = env.ff.session().execute(
            r#"const all = window.__twEvents;
               const at = all.findIndex(e => e.reason === 'restarted');
               return Math.max(0, ...all.slice(at).filter(e => e.type === 'level').map(e => e.heard_ms));"#,
            &[],
        )?;
        Ok(heard.as_f64().filter(|ms| *ms >= 1_000.0))
    })
    .unwrap();
    assert_eq!(badge(&env), "MIC");
    let _ = send(&env, json!({ "type": "voice_stop" }));
}

#[test]
fn passive_listening_ignores_speech_without_the_wake_word_and_the_mic_button_skips_it() {
    let env = start_voice();
    ready(&env, true);
    // Passive: the random model's gibberish is not "hey fox".
    play(&env, "voice_start", "/command-16k.wav", 16000);
    let ignored = wait_for(HEARD, "the utterance to be judged", || {
        Ok(events(&env)
            .into_iter()
            .find(|e| e["type"] == "status" && e["ignored"] == true))
    })
    .unwrap();
    assert_eq!(
        ignored["prompt"], "hey fox",
        "passive transcription is prompted with the wake word"
    );
    assert!(events(&env).iter().all(|e| e["type"] != "command"));
    send(&env, json!({ "type": "voice_stop" }));

    // The mic button: the same sound is taken as a command.
    play(&env, "voice_trigger", "/command-16k.wav", 16000);
    let command = event(&env, "command");
    assert!(!command["text"].as_str().unwrap().is_empty(), "{command}");
    assert!(events(&env)
        .iter()
        .any(|e| e["type"] == "wake" && e["manual"] == true));
    send(&env, json!({ "type": "voice_stop" }));
}

/// "stop listening", typed while the voice listens, stops it as a second
/// press of the mic button would.
#[test]
fn stop_listening_typed_stops_the_voice() {
    let env = start_voice();
    ready(&env, true);
    play(&env, "voice_start", "/command-16k.wav", 16000);
    let status = || send(&env, json!({ "type": "voice_status" }));
    assert_eq!(status()["listening"], true);
    let answer = send(&env, json!({ "type": "command", "text": "stop listening" }));
    assert_eq!(answer["stop_listening"], true, "{answer}");
    assert!(answer["reply"]
        .as_str()
        .unwrap()
        .starts_with("Stopped listening."));
    assert_eq!(status()["listening"], false, "{answer}");
    assert_eq!(badge(&env), "");
}

/// The installed list as the options page shows it: (name, in use).
fn shown_models(env: &Env, page: &str) -> Vec<(String, bool)> {
    let shown = on_options(
        &env.ff,
        page,
        "return [...document.querySelectorAll('#installed-models li[data-model]')]
            .map(li => [li.dataset.model, !!li.querySelector('.in-use')]);",
    );
    serde_json::from_value(shown).unwrap()
}

#[test]
fn the_options_page_downloads_quantizes_imports_and_removes_models() {
    let env = start_voice();
    let page = env.ff.open_extension_page("options.html").unwrap();
    env.ff
        .with_window(&page, |s| s.set_window_size(900, 1600))
        .unwrap();
    wait_for(LOAD, "the empty list", || {
        let text = on_options(
            &env.ff,
            &page,
            "return document.getElementById('installed-models').textContent;",
        );
        Ok((text == "No model installed yet.").then_some(()))
    })
    .unwrap();

    // Nothing chosen: Download says what to do first.
    env.ff
        .with_window(&page, |s| s.click(&s.find("#model-download")?))
        .unwrap();
    let said = model_status(&env.ff, &page, "", HEARD);
    assert_eq!(said, "Choose a speech model first.");

    // Tiny (English) from the local server, quantized as the setting says.
    env.ff
        .with_window(&page, |s| {
            s.execute(
                "const m = document.querySelector(\"[data-setting='speechModel']\");
                 m.value = 'tiny.en'; m.dispatchEvent(new Event('change', { bubbles: true }));
                 return null;",
                &[],
            )?;
            s.send_keys(&s.find("#model-url")?, &env.pages.url("/good/"))?;
            s.click(&s.find("#model-download")?)
        })
        .unwrap();
    let said = model_status(&env.ff, &page, &said, HEARD);
    assert_eq!(said, "Installed and in use: tiny.en (download)");
    assert_eq!(shown_models(&env, &page), vec![("tiny.en".into(), true)]);
    // The bar ends full: the last file, all of it.
    let bar = on_options(
        &env.ff,
        &page,
        "const b = document.getElementById('model-progress'); return [b.hidden, b.value, b.max];",
    );
    let size = model_file("model.safetensors").len();
    assert_eq!(bar, json!([false, size, size]));
    // Kept as 8-bit GGUF, not as the f32 file downloaded.
    let kept = wait_for(LOAD, "the cache's keys", || {
        let keys = env.ff.with_window(&page, |s| {
            s.execute_async(
                "const done = arguments[arguments.length - 1];
                 caches.open('tab-whisperer-models').then(c => c.keys())
                   .then(k => done(k.map(r => r.url.split('/').slice(-2).join('/'))), e => done(String(e)));",
                &[],
            )
        })?;
        Ok(keys.as_array().map(|_| keys.clone()))
    })
    .unwrap();
    let mut kept: Vec<String> = serde_json::from_value(kept).unwrap();
    kept.sort();
    assert_eq!(
        kept,
        [
            "tiny.en/config.json",
            "tiny.en/model-q8_0.gguf",
            "tiny.en/tokenizer.json"
        ]
    );
    let status = send(&env, json!({ "type": "voice_status" }));
    assert_eq!(status["model"], "tiny.en", "the quantized model loaded");

    // Import: files from disk under a name. Missing files are named first.
    let file = |name: &str| model_dir().join(name).display().to_string();
    env.ff
        .with_window(&page, |s| {
            s.send_keys(&s.find("#import-name")?, "my-tiny")?;
            s.send_keys(&s.find("#import-files")?, &file("config.json"))?;
            s.click(&s.find("#model-import")?)
        })
        .unwrap();
    let said = model_status(&env.ff, &page, &said, HEARD);
    assert!(
        said.contains("missing: tokenizer.json, the weights"),
        "{said}"
    );
    // A name the worker refuses: said, and the page is usable again.
    env.ff
        .with_window(&page, |s| {
            s.execute(
                "document.getElementById('import-name').value = 'my tiny';
                 document.getElementById('import-files').value = ''; return null;",
                &[],
            )?;
            let all = [
                file("config.json"),
                file("tokenizer.json"),
                file("model.safetensors"),
            ];
            s.send_keys(&s.find("#import-files")?, &all.join("\n"))?;
            s.click(&s.find("#model-import")?)
        })
        .unwrap();
    let said = model_status(&env.ff, &page, &said, HEARD);
    assert!(said.contains("is not a model name"), "{said}");
    let enabled = on_options(&env.ff,
        &page,
        "return !document.getElementById('model-import').disabled && !document.getElementById('model-download').disabled;",
    );
    assert_eq!(enabled, true);
    on_options(
        &env.ff,
        &page,
        "document.getElementById('import-name').value = 'my-tiny'; return null;",
    );
    env.ff
        .with_window(&page, |s| {
            let input = s.find("#import-files")?;
            s.execute(
                "document.getElementById('import-files').value = ''; return null;",
                &[],
            )?;
            let all = [
                file("config.json"),
                file("tokenizer.json"),
                file("model.safetensors"),
            ];
            s.send_keys(&input, &all.join("\n"))?;
            s.click(&s.find("#model-import")?)
        })
        .unwrap();
    let said = model_status(&env.ff, &page, &said, HEARD);
    // No second opinion here: this add-on is packed without its bundled
    // model, so there is none to load beside the import.
    assert_eq!(said, "Installed and in use: my-tiny");
    assert_eq!(
        shown_models(&env, &page),
        vec![("my-tiny".into(), true), ("tiny.en".into(), false)]
    );
    let chosen = on_options(
        &env.ff,
        &page,
        "return document.querySelector(\"[data-setting='speechModel']\").value;",
    );
    assert_eq!(chosen, "my-tiny", "an imported model is offered and chosen");
    env.ff
        .with_window(&page, |s| {
            s.screenshot_png(
                &Path::new(env!("CARGO_MANIFEST_DIR"))
                    .join("target/screenshots/options-models.png"),
            )
        })
        .unwrap();

    // Remove: gone from the list, and no model is in use any more.
    env.ff
        .with_window(&page, |s| {
            s.click(&s.find("#installed-models li[data-model='my-tiny'] button.remove")?)
        })
        .unwrap();
    let said = model_status(&env.ff, &page, &said, HEARD);
    assert_eq!(said, "Removed: my-tiny");
    assert_eq!(shown_models(&env, &page), vec![("tiny.en".into(), false)]);
    assert_eq!(installed(&env), json!(["tiny.en"]));
    let settings = send(&env, json!({ "type": "settings" }));
    assert_eq!(settings["settings"]["speechModel"], "none");
}

/// Runs `script` in the fixture's page (the popup).
fn popup(env: &Env, script: &str) -> Value {
    env.ff
        .session()
        .execute(script, &[])
        .expect("the popup answers")
}

#[test]
fn the_popup_mic_button_listens_shows_the_level_and_live_text_then_runs_what_was_heard() {
    let env = start_voice();
    ready(&env, true);
    // The mic button listens to this file instead of a microphone.
    let source = json!({ "type": "voice_source", "audio_url": env.pages.url("/command-16k.wav"), "sample_rate": 16000 });
    assert_eq!(send(&env, source)["ok"], true);
    env.ff.session().set_window_size(400, 600).unwrap();
    let pressed = "return document.getElementById('mic').getAttribute('aria-pressed');";
    assert_eq!(popup(&env, pressed), "false");
    // Everything the meter and the live-text line show, as they change.
    popup(
        &env,
        "window.__heard = []; window.__levels = [];
         const heard = document.getElementById('heard'), level = document.getElementById('level');
         new MutationObserver(() => { if (!heard.hidden && heard.textContent) window.__heard.push(heard.textContent); })
           .observe(heard, { childList: true, characterData: true, subtree: true, attributes: true });
         new MutationObserver(() => { if (!level.hidden) window.__levels.push(level.value); })
           .observe(level, { attributes: true });
         return null;",
    );
    let mic = env.ff.session().find("#mic").unwrap();
    env.ff.session().click(&mic).unwrap();
    wait_for(LOAD, "the mic button to show listening", || {
        Ok((popup(&env, pressed) == "true").then_some(()))
    })
    .unwrap();
    assert!(["MIC", "..."].contains(&badge(&env).as_str()));
    // The mic button skips the wake word: the speech is a command, shown
    // as it is spoken, then run like a typed one.
    let reply = wait_for(HEARD, "the spoken command's reply", || {
        let reply = popup(&env, "const r = document.querySelector('#conversation > li .reply'); return r && r.textContent;");
        Ok(reply.as_str().map(String::from))
    })
    .unwrap();
    // The random model's gibberish is not a command: said so, like typed.
    let error = popup(
        &env,
        "return document.querySelector('#conversation > li .reply').className;",
    );
    assert_eq!(error, "reply error", "{reply}");
    assert_eq!(popup(&env, pressed), "true", "still listening");
    let heard: Vec<String> = serde_json::from_value(popup(&env, "return window.__heard;")).unwrap();
    assert!(!heard.is_empty(), "live text while speaking");
    assert!(heard.iter().all(|h| h.ends_with('…')), "{heard:?}");
    assert_eq!(
        popup(&env, "return document.getElementById('heard').hidden;"),
        true,
        "cleared after"
    );
    let levels: Vec<f64> = serde_json::from_value(popup(&env, "return window.__levels;")).unwrap();
    let loudest = levels.iter().copied().fold(f64::MIN, f64::max);
    assert!(
        loudest > -40.0 && levels.contains(&-60.0),
        "the meter follows speech and silence: {levels:?}"
    );
    screenshot_popup(&env, "popup-voice-light");
    // Click again: stopped.
    env.ff.session().click(&mic).unwrap();
    wait_for(LOAD, "the mic button to show stopped", || {
        Ok((popup(&env, pressed) == "false").then_some(()))
    })
    .unwrap();
    assert_eq!(badge(&env), "");
    let log = send(&env, json!({ "type": "log" }));
    assert_eq!(log["entries"].as_array().unwrap().len(), 1, "{log}");
}

fn screenshot_popup(env: &Env, name: &str) {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("target/screenshots/{name}.png"));
    env.ff.session().screenshot_png(&path).unwrap();
}

#[test]
fn with_a_wake_word_model_a_second_worker_transcribes_the_commands() {
    let env = start_voice();
    // The test model under two names: the wake-word model and the
    // command model (installing selects the command model).
    for name in ["wake-random", MODEL] {
        let answer = send(
            &env,
            json!({ "type": "model_install", "model": name, "url": env.pages.url("/good/"), "quantize": false }),
        );
        assert_eq!(answer["ok"], true, "{answer}");
    }
    let patch = json!({ "type": "set_settings", "settings": { "speechWakeModel": "wake-random" } });
    assert_eq!(send(&env, patch)["ok"], true);

    // The mic button: the next utterance is a command, handed by the
    // listening worker to the command model's.
    let answer = play(&env, "voice_trigger", "/command-16k.wav", 16000);
    assert_eq!(answer["workers"], 2, "{answer}");
    assert_eq!(answer["model"], MODEL);
    assert_eq!(answer["wake_model"], "wake-random");
    let command = wait_for(HEARD, "the command's answer", || {
        Ok(events(&env)
            .into_iter()
            .find(|e| e["type"] == "command" && e["answer"].is_object()))
    })
    .unwrap();
    assert_eq!(command["model"], "command", "{command:#}");
    // Handed over during the closing pause, as one worker hears it then.
    assert_eq!(command["early"], true, "{command:#}");
    let pcm = echoed(&command);
    let expected = transcribe(&pcm, command["prompt"].as_str().unwrap_or_default(), 96);
    assert_eq!(command["tokens"], expected["tokens"], "{command:#}");
    // Both workers hold a model: each has its own memory.
    let status = send(&env, json!({ "type": "voice_status" }));
    let memory = &status["memory_bytes"];
    assert!(memory["listen"].as_f64().unwrap() > 0.0, "{status}");
    assert!(memory["command"].as_f64().unwrap() > 0.0, "{status}");
    send(&env, json!({ "type": "voice_stop" }));

    // Without a separate wake-word model, one worker again.
    let patch = json!({ "type": "set_settings", "settings": { "speechWakeModel": "none" } });
    assert_eq!(send(&env, patch)["ok"], true);
    let answer = play(&env, "voice_start", "/command-16k.wav", 16000);
    assert_eq!(answer["workers"], 1, "{answer}");
    assert_eq!(answer["model"], MODEL);
    send(&env, json!({ "type": "voice_stop" }));
}

/// The add-on with the test model bundled under `models/`, as `make model`
/// then `make` pack one (with the packer's index of bundled models).
fn xpi_with_bundled_model() -> PathBuf {
    use std::io::Write;
    let source = tab_whisperer::firefox::xpi_path();
    let mut archive = zip::ZipArchive::new(std::fs::File::open(&source).unwrap()).unwrap();
    let out = scratch("tw-bundled.xpi");
    let mut writer = zip::ZipWriter::new(std::fs::File::create(&out).unwrap());
    for i in 0..archive.len() {
        let file = archive.by_index_raw(i).unwrap();
        if !file.name().starts_with("models/") {
            writer.raw_copy_file(file).unwrap();
        }
    }
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Stored);
    for name in ["config.json", "tokenizer.json", "model.safetensors"] {
        writer
            .start_file(format!("models/{MODEL}/{name}"), options)
            .unwrap();
        writer.write_all(&model_file(name)).unwrap();
    }
    let index = ext_worker::models::bundled_index(&[
        format!("models/{MODEL}/config.json"),
        format!("models/{MODEL}/tokenizer.json"),
        format!("models/{MODEL}/model.safetensors"),
    ]);
    writer
        .start_file(ext_worker::models::BUNDLED_INDEX, options)
        .unwrap();
    writer
        .write_all(&serde_json::to_vec(&index).unwrap())
        .unwrap();
    writer.finish().unwrap();
    out
}

#[test]
fn a_model_bundled_in_the_xpi_is_listed_loads_without_a_download_and_stays() {
    let xpi = xpi_with_bundled_model();
    let pages = serve();
    let ff = tab_whisperer::Firefox::start(tab_whisperer::Options {
        xpi: Some(xpi.clone()),
        prefs: tab_whisperer::firefox::local_only_prefs(),
        ..tab_whisperer::Options::default()
    })
    .expect("Firefox with the add-on");
    let env = Env { ff, pages };
    assert_eq!(installed(&env), json!([MODEL]), "listed before any use");
    // No address: it can only come from the .xpi.
    let answer = send(&env, json!({ "type": "model_install", "model": MODEL }));
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["source"], "bundled");
    let patch =
        json!({ "type": "set_settings", "settings": { "voice": { "wakeWordEnabled": false } } });
    assert_eq!(send(&env, patch)["ok"], true);
    play(&env, "voice_start", "/command-16k.wav", 16000);
    let command = event(&env, "command");
    assert!(!command["tokens"].as_array().unwrap().is_empty());
    send(&env, json!({ "type": "voice_stop" }));
    // Part of the extension: it cannot be removed.
    let answer = send(&env, json!({ "type": "model_remove", "model": MODEL }));
    assert_eq!(answer["ok"], false, "{answer}");
    assert!(answer["error"]["message"]
        .as_str()
        .unwrap()
        .contains("comes with the extension"));
    assert_eq!(installed(&env), json!([MODEL]));
    drop(env);
    let _ = std::fs::remove_file(xpi);
}

#[test]
fn the_microphone_permission_page_asks_and_says_it_is_allowed() {
    let env = start_voice();
    let page = env.ff.open_extension_page("permission.html").unwrap();
    let said = wait_for(LOAD, "the permission page's answer", || {
        let text = env.ff.with_window(&page, |s| {
            s.execute(
                "return document.getElementById('permission-status').textContent;",
                &[],
            )
        })?;
        Ok(text
            .as_str()
            .filter(|t| t.contains("allowed"))
            .map(String::from))
    })
    .unwrap();
    // The test profile grants the fake microphone without a prompt.
    assert!(said.starts_with("Microphone allowed"), "{said}");
}
