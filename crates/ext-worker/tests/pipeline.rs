//! The worker's conversation, natively: microphone blocks in, `listening`,
//! `wake`, `command`, `status` and `error` out, with the committed random
//! tiny model. The session's clock is the audio heard, so timeouts are
//! tested by feeding silence, not by waiting.

use ext_protocol::settings::{ListenSettings, VoiceSettings};
use ext_protocol::worker::{FromWorker, ToWorker as Control};
use ext_worker::pipeline::Pipeline;
use ext_worker::{audio, Decoding, Engine, ModelFiles, Projection};
use serde_json::Value;
use std::path::Path;

fn model() -> ModelFiles {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/reference/models/tiny-random");
    ModelFiles::from_dir(&dir).unwrap()
}

fn speech() -> Vec<f32> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/reference/audio/speech.wav"
    );
    audio::to_16k(&audio::read_wav(&std::fs::read(path).unwrap()).unwrap()).unwrap()
}

fn loaded() -> Pipeline {
    let mut p = Pipeline::new();
    let ready = p.load(model(), false).to_json();
    assert_eq!(ready["state"], "ready", "{ready}");
    p
}

/// An event as JSON, with the samples a `transcribe` job carries beside
/// it (as a transferred array on the wire).
fn json(event: FromWorker) -> Value {
    let mut value = event.to_json();
    if let FromWorker::Transcribe { pcm, .. } = event {
        value["pcm"] = serde_json::to_value(pcm).unwrap();
    }
    value
}

fn feed(p: &mut Pipeline, samples: &[f32], rate: u32) -> Vec<Value> {
    let mut out = Vec::new();
    for block in samples.chunks(128) {
        p.audio(block, rate, &mut |m| out.push(json(m)));
    }
    out
}

fn ctl(p: &mut Pipeline, control: Control) -> Vec<Value> {
    p.control(control).into_iter().map(json).collect()
}

fn of<'a>(messages: &'a [Value], kind: &str) -> Vec<&'a Value> {
    messages.iter().filter(|m| m["type"] == kind).collect()
}

fn settings(wake_word: bool, timeout_ms: f64) -> Control {
    Control::Configure {
        settings: ListenSettings {
            voice: VoiceSettings {
                wake_word_enabled: wake_word,
                active_timeout_ms: timeout_ms,
                ..VoiceSettings::default()
            },
            ..ListenSettings::default()
        },
    }
}

/// The samples a message carries (`echo_audio`).
fn samples(message: &Value) -> Vec<f32> {
    message["pcm"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap() as f32)
        .collect()
}

/// What the engine itself makes of `pcm`, prompted and capped as given,
/// with the decoding the extension ships.
fn whisper(pcm: &[f32], prompt: &str, max_tokens: usize) -> ext_worker::Transcript {
    decoded(pcm, prompt, max_tokens, |shipped| shipped)
}

/// The live transcript of `pcm`: the model's shipped decoding as a live
/// transcript decodes it, with a live transcript's token budget.
fn live_whisper(pcm: &[f32], prompt: &str) -> ext_worker::Transcript {
    decoded(pcm, prompt, 32, |shipped| shipped.live())
}

/// `pcm` transcribed with the decoding `how` makes of the model's shipped one.
fn decoded(
    pcm: &[f32],
    prompt: &str,
    max_tokens: usize,
    how: impl Fn(Decoding) -> Decoding,
) -> ext_worker::Transcript {
    let engine = Engine::load(&model(), Projection::Exact).unwrap();
    let decoding = how(Decoding::shipped(engine.tokenizer().is_multilingual()));
    let options = decoding.options(Some(prompt.into()), max_tokens);
    engine.transcribe(pcm, &options).unwrap()
}

fn spoken() -> Vec<f32> {
    [vec![0.0; 8_000], speech(), vec![0.0; 24_000]].concat()
}

#[test]
fn without_the_wake_word_an_utterance_is_a_command_transcribed_with_the_tabs_vocabulary() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    ctl(
        &mut p,
        Control::Vocabulary {
            prompt: "YouTube, GitHub".into(),
            phrases: vec![],
        },
    );
    ctl(&mut p, Control::Echo { audio: true });
    let out = feed(&mut p, &spoken(), 16_000);
    assert_eq!(of(&out, "listening").len(), 1);
    let processing = out.iter().position(|m| m["state"] == "processing").unwrap();
    let command = out.iter().position(|m| m["type"] == "command").unwrap();
    assert!(
        processing < command,
        "processing is said before Whisper runs"
    );
    let command = &out[command];
    assert_eq!(command["prompt"], "YouTube, GitHub");
    // The tokens are Whisper's for exactly the samples it was given.
    let expected = whisper(&samples(command), "YouTube, GitHub", 96);
    assert_eq!(
        command["tokens"],
        serde_json::to_value(&expected.tokens).unwrap()
    );
    // Levels every 100 ms of audio (in whole 128-sample blocks: 104 ms).
    let levels = of(&out, "level");
    assert_eq!(levels.len(), spoken().len() / 1_664);
    assert!(levels.iter().any(|l| l["db"].as_f64().unwrap() > -40.0));
}

#[test]
fn the_mic_button_takes_a_command_and_silence_past_the_timeout_goes_back_to_passive() {
    let mut p = loaded();
    ctl(&mut p, settings(true, 2_000.0));
    let out = ctl(&mut p, Control::Trigger);
    assert_eq!(out[0]["type"], "wake");
    assert_eq!(out[0]["manual"], true);
    // A command heard while active runs, whatever the random model says.
    let out = feed(&mut p, &spoken(), 16_000);
    assert_eq!(of(&out, "command").len(), 1, "{out:?}");
    // Passive again: the same speech (not "hey fox") is ignored.
    let out = feed(&mut p, &spoken(), 16_000);
    assert!(of(&out, "command").is_empty());
    assert_eq!(out.iter().filter(|m| m["ignored"] == true).count(), 1);
    // Active, then nothing: back to passive after the timeout (2 s here),
    // measured in audio heard, at 48 kHz as well.
    ctl(&mut p, Control::Trigger);
    let out = feed(&mut p, &vec![0.0; 48_000], 48_000);
    assert!(out.iter().all(|m| m["reason"] != "timeout"));
    let out = feed(&mut p, &vec![0.0; 48_000 + 4_800], 48_000);
    assert_eq!(out.iter().filter(|m| m["reason"] == "timeout").count(), 1);
}

#[test]
fn bad_blocks_are_reported_and_listening_goes_on() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    let mut out = Vec::new();
    p.audio(&[0.0; 128], 0, &mut |m| out.push(json(m)));
    assert_eq!(out[0]["type"], "error", "{out:?}");
    let out = feed(&mut p, &spoken(), 16_000);
    assert_eq!(of(&out, "command").len(), 1);
    // NaN and infinities (a broken source) at any rate are silence: they
    // once made the resampler panic (found by `make fuzz`).
    for rate in [8_000, 44_100, 48_000, 384_000] {
        let broken = [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, 0.5].repeat(2_048);
        let out = feed(&mut p, &broken, rate);
        assert!(of(&out, "command").is_empty(), "{out:?}");
    }
    let out = feed(&mut p, &spoken(), 16_000);
    assert_eq!(of(&out, "command").len(), 1);
    // Stopping mid-utterance still answers it.
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    feed(&mut p, &[vec![0.0; 8_000], speech()].concat(), 16_000);
    let out = ctl(&mut p, Control::Stop);
    assert_eq!(of(&out, "command").len(), 1, "{out:?}");
}

#[test]
fn without_a_model_an_utterance_is_a_clear_error() {
    let mut p = Pipeline::new();
    ctl(&mut p, settings(false, 20_000.0));
    let out = feed(&mut p, &spoken(), 16_000);
    let errors = of(&out, "error");
    assert_eq!(errors.len(), 1, "{out:?}");
    assert_eq!(errors[0]["error"]["code"], "NO_MODEL");
}

#[test]
fn a_command_being_spoken_is_transcribed_live_every_second() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    ctl(
        &mut p,
        Control::Vocabulary {
            prompt: "YouTube".into(),
            phrases: vec![],
        },
    );
    ctl(&mut p, Control::Echo { audio: true });
    let out = feed(&mut p, &spoken(), 16_000);
    let command = out.iter().position(|m| m["type"] == "command").unwrap();
    let partials = of(&out, "partial");
    // 2.2 s of speech: live transcripts after its first and second second.
    assert_eq!(partials.len(), 2, "{out:?}");
    let whole = samples(&out[command]);
    let mut last = 0;
    for partial in &partials {
        let at = out.iter().position(|m| m == *partial).unwrap();
        assert!(at < command, "live text comes while speaking");
        // Each is Whisper's transcript of the utterance so far, with the
        // vocabulary prompt, a short token budget and the live decoding
        // (this random model is multilingual: the audio alone, where a
        // command is heard over at least 10 s).
        let pcm = samples(partial);
        assert!(pcm.len() >= last + 16_000, "a second apart");
        last = pcm.len();
        assert_eq!(&whole[..pcm.len()], &pcm[..], "a prefix of the command");
        let expected = live_whisper(&pcm, "YouTube");
        assert_ne!(
            expected.audio_ctx,
            whisper(&pcm, "YouTube", 32).audio_ctx,
            "a shorter window than the command's"
        );
        assert_eq!(
            partial["tokens"],
            serde_json::to_value(&expected.tokens).unwrap()
        );
        assert_eq!(partial["text"], expected.text.trim());
    }
}

#[test]
fn no_live_transcript_starts_once_the_speaker_has_paused() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    // Two sentences 200 ms apart (the recording ends in 280 ms of quiet):
    // live transcripts while they are spoken…
    let gap = vec![0.0; 16 * 200];
    let spoken = [vec![0.0; 8_000], speech(), gap, speech()].concat();
    let out = feed(&mut p, &spoken, 16_000);
    assert!(of(&out, "partial").len() >= 3, "{out:?}");
    // …but none in the closing pause, though one is due a second after
    // the last: it would hold the worker when the pause is heard.
    let out = feed(&mut p, &vec![0.0; 16_000], 16_000);
    assert!(of(&out, "partial").is_empty(), "{out:?}");
    assert_eq!(of(&out, "command").len(), 1, "{out:?}");
}

#[test]
fn no_live_transcript_while_waiting_for_the_wake_word_or_when_turned_off() {
    let mut p = loaded();
    ctl(&mut p, settings(true, 20_000.0));
    let out = feed(&mut p, &spoken(), 16_000);
    assert!(of(&out, "partial").is_empty());
    ctl(
        &mut p,
        Control::Configure {
            settings: ListenSettings {
                voice: VoiceSettings {
                    wake_word_enabled: false,
                    live_transcript: false,
                    ..VoiceSettings::default()
                },
                ..ListenSettings::default()
            },
        },
    );
    let out = feed(&mut p, &spoken(), 16_000);
    assert_eq!(of(&out, "command").len(), 1);
    assert!(of(&out, "partial").is_empty());
}

#[test]
fn with_two_workers_the_listener_hands_commands_to_the_command_model_and_keeps_listening() {
    let mut listener = loaded();
    let mut commander = loaded();
    ctl(&mut listener, settings(true, 20_000.0));
    ctl(
        &mut listener,
        Control::Vocabulary {
            prompt: "YouTube, GitHub".into(),
            phrases: vec![],
        },
    );
    ctl(&mut listener, Control::Echo { audio: true });
    ctl(&mut listener, Control::Delegate { on: true });
    ctl(&mut listener, Control::Trigger);
    let out = feed(&mut listener, &spoken(), 16_000);
    assert!(of(&out, "command").is_empty(), "not transcribed here");
    let jobs = of(&out, "transcribe");
    assert_eq!(jobs.len(), 1, "{out:?}");
    let job = jobs[0].clone();
    assert_eq!(job["prompt"], "YouTube, GitHub");

    // While the command worker works, the listener goes on: the next
    // utterance is judged against the wake word again (and ignored).
    let meanwhile = feed(&mut listener, &spoken(), 16_000);
    assert!(of(&meanwhile, "transcribe").is_empty());
    assert_eq!(meanwhile.iter().filter(|m| m["ignored"] == true).count(), 1);

    // The job as the command worker receives it (the wire format, its
    // samples beside it).
    let reply = &answer(&mut commander, &job);
    let done: Vec<Value> = listener.transcribed(reply).into_iter().map(json).collect();
    assert_eq!(done.len(), 1);
    let command = &done[0];
    assert_eq!(command["model"], "command");
    assert_eq!(command["prompt"], "YouTube, GitHub");
    let pcm = samples(command);
    assert_eq!(serde_json::to_value(&pcm).unwrap(), job["pcm"]);
    let expected = whisper(&pcm, "YouTube, GitHub", 96);
    assert_eq!(
        command["tokens"],
        serde_json::to_value(&expected.tokens).unwrap()
    );
    // The random model says something: a command (or, were it silent, the
    // session would keep listening for one).
    assert!(command["type"] == "command" || command["type"] == "wake");
    // A reply to nothing (a job already answered) is dropped.
    assert!(listener.transcribed(reply).is_empty());
}

/// The command worker's answer to a `transcribe` job, as it gets it.
fn answer(commander: &mut Pipeline, job: &Value) -> ext_protocol::worker::Transcribed {
    let mut control: Control = serde_json::from_value(job.clone()).unwrap();
    if let Control::Transcribe { pcm, .. } = &mut control {
        *pcm = samples(job);
    }
    match commander.control(control).as_slice() {
        [FromWorker::Transcribed(reply)] => reply.clone(),
        other => panic!("{other:?}"),
    }
}

#[test]
fn with_two_workers_a_command_is_handed_over_during_its_pause_and_taken_at_its_end() {
    let mut listener = loaded();
    let mut commander = loaded();
    ctl(&mut listener, settings(false, 20_000.0));
    ctl(&mut listener, Control::Echo { audio: true });
    ctl(&mut listener, Control::Delegate { on: true });
    // The recording ends in 280 ms of quiet; 200 ms more is past the
    // 300 ms after which the command is handed over, short of the 700 ms
    // that end it.
    let gap = || vec![0.0; 16 * 200];
    let out = feed(
        &mut listener,
        &[vec![0.0; 8_000], speech(), gap()].concat(),
        16_000,
    );
    let jobs = of(&out, "transcribe");
    assert_eq!(jobs.len(), 1, "{out:?}");
    assert!(out.iter().all(|m| m["state"] != "processing"), "{out:?}");
    let job = jobs[0].clone();
    // Its transcript, back before the pause ended, waits for the end.
    let reply = answer(&mut commander, &job);
    assert!(listener.transcribed(&reply).is_empty());
    let out = feed(&mut listener, &vec![0.0; 24_000], 16_000);
    assert!(of(&out, "transcribe").is_empty(), "not handed over twice");
    let commands = of(&out, "command");
    assert_eq!(commands.len(), 1, "{out:?}");
    let command = commands[0];
    assert_eq!(command["model"], "command");
    assert_eq!(command["early"], true, "{command}");
    // The samples handed over are the utterance's, and the transcript is
    // Whisper's for exactly them.
    assert_eq!(serde_json::to_value(samples(command)).unwrap(), job["pcm"]);
    let expected = whisper(&samples(command), "", 96);
    assert_eq!(
        command["tokens"],
        serde_json::to_value(&expected.tokens).unwrap()
    );

    // Speech that resumes after the pause began: what was handed over then
    // is dropped, and the whole command is handed over at its own pause.
    let out = feed(
        &mut listener,
        &[vec![0.0; 8_000], speech(), gap()].concat(),
        16_000,
    );
    let first = of(&out, "transcribe")[0].clone();
    let out = feed(
        &mut listener,
        &[speech(), vec![0.0; 24_000]].concat(),
        16_000,
    );
    let jobs = of(&out, "transcribe");
    assert_eq!(jobs.len(), 1, "{out:?}");
    let whole = jobs[0].clone();
    assert!(of(&out, "command").is_empty(), "{out:?}");
    assert!(listener
        .transcribed(&answer(&mut commander, &first))
        .is_empty());
    let done: Vec<Value> = listener
        .transcribed(&answer(&mut commander, &whole))
        .into_iter()
        .map(json)
        .collect();
    assert_eq!(done.len(), 1, "{done:?}");
    assert_eq!(done[0]["early"], true);
    assert!(samples(&done[0]).len() > 2 * speech().len());
}

#[test]
fn waiting_for_the_wake_word_transcription_stops_once_it_cannot_be_the_wake_word() {
    let mut p = loaded();
    ctl(&mut p, settings(true, 20_000.0));
    ctl(&mut p, Control::Echo { audio: true });
    let out = feed(&mut p, &spoken(), 16_000);
    let ignored: Vec<&Value> = out.iter().filter(|m| m["ignored"] == true).collect();
    assert_eq!(ignored.len(), 1, "{out:?}");
    let heard: Vec<u32> = serde_json::from_value(ignored[0]["tokens"].clone()).unwrap();
    // The whole transcript of the same samples, prompted the same way: what
    // was decoded is its start, cut where the text left the wake phrase.
    let whole = whisper(&samples(ignored[0]), "hey fox", 96);
    assert!(
        heard.len() < whole.tokens.len(),
        "{heard:?} vs {:?}",
        whole.tokens
    );
    assert_eq!(&whole.tokens[..heard.len()], &heard[..]);
    let text = ignored[0]["heard"].as_str().unwrap();
    assert!(
        !ext_worker::session::could_start_with_wake(text, "hey fox"),
        "{text}"
    );
}

#[test]
fn commands_handed_over_are_not_lost_when_the_second_worker_goes_away() {
    let mut listener = loaded();
    ctl(&mut listener, settings(false, 20_000.0));
    ctl(&mut listener, Control::Delegate { on: true });
    let out = feed(&mut listener, &spoken(), 16_000);
    assert_eq!(of(&out, "transcribe").len(), 1, "{out:?}");
    // Back to one worker before the answer came: transcribed here.
    let out = ctl(&mut listener, Control::Delegate { on: false });
    assert_eq!(out.len(), 1, "{out:?}");
    assert!(
        out[0]["type"] == "command" || out[0]["type"] == "wake",
        "{out:?}"
    );
    assert!(!out[0]["tokens"].as_array().unwrap().is_empty());
    // Stopping mid-command hands the utterance over too.
    ctl(&mut listener, Control::Delegate { on: true });
    feed(
        &mut listener,
        &[vec![0.0; 8_000], speech()].concat(),
        16_000,
    );
    let out = ctl(&mut listener, Control::Stop);
    assert_eq!(of(&out, "transcribe").len(), 1, "{out:?}");
    assert!(of(&out, "command").is_empty());
}

/// Feeds blocks that each waited `queued_ms` in the worker's queue.
fn feed_queued(p: &mut Pipeline, samples: &[f32], rate: u32, queued_ms: f64) -> Vec<Value> {
    let mut out = Vec::new();
    for block in samples.chunks(2048) {
        p.audio_queued(block, rate, queued_ms, &mut |m| out.push(json(m)));
    }
    out
}

#[test]
fn a_worker_behind_the_microphone_drops_old_passive_audio_but_never_a_command() {
    use ext_worker::pipeline::{MAX_PASSIVE_BACKLOG_MS, PASSIVE_BACKLOG_MS};
    let mut p = loaded();
    ctl(&mut p, settings(true, 20_000.0));
    let seconds = spoken().len() as f64 / 16.0;

    // Passive speech that waited too long is dropped, not transcribed.
    let late = PASSIVE_BACKLOG_MS + 1_000.0;
    let out = feed_queued(&mut p, &spoken(), 16_000, late);
    assert!(of(&out, "listening").is_empty(), "{out:?}");
    assert!(of(&out, "command").is_empty());
    assert!((p.dropped_ms() - seconds).abs() < 1.0, "{}", p.dropped_ms());
    // Caught up, the same speech is heard (and ignored: no wake word);
    // the meter says how much was dropped.
    let out = feed_queued(&mut p, &spoken(), 16_000, 0.0);
    assert_eq!(out.iter().filter(|m| m["ignored"] == true).count(), 1);
    assert!(of(&out, "level")
        .iter()
        .all(|l| (l["dropped_ms"].as_f64().unwrap_or(0.0) - seconds).abs() < 1.0));

    // An utterance under way is finished, unless far behind.
    let all = spoken();
    let (start, rest) = all.split_at(8_000 + 8_000);
    feed_queued(&mut p, start, 16_000, 0.0);
    let out = feed_queued(&mut p, rest, 16_000, late);
    assert_eq!(out.iter().filter(|m| m["ignored"] == true).count(), 1);
    feed_queued(&mut p, start, 16_000, 0.0);
    let out = feed_queued(&mut p, rest, 16_000, MAX_PASSIVE_BACKLOG_MS + 1_000.0);
    assert!(out.iter().all(|m| m["ignored"] != true), "{out:?}");

    // A command is never dropped, however late.
    ctl(&mut p, Control::Trigger);
    let dropped = p.dropped_ms();
    let out = feed_queued(&mut p, &spoken(), 16_000, 60_000.0);
    assert_eq!(of(&out, "command").len(), 1, "{out:?}");
    // Only the silence after it, passive again, may go.
    assert!(p.dropped_ms() - dropped <= 24_000.0 / 16.0);
}

#[test]
fn a_command_is_heard_during_its_pause_and_taken_at_its_end() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    ctl(&mut p, Control::Echo { audio: true });
    let out = feed(&mut p, &spoken(), 16_000);
    let commands = of(&out, "command");
    assert_eq!(commands.len(), 1, "{out:?}");
    assert_eq!(commands[0]["early"], true, "{}", commands[0]);
    // What was heard early is Whisper's for exactly the samples taken.
    let expected = whisper(&samples(commands[0]), "", 96);
    assert_eq!(
        commands[0]["tokens"],
        serde_json::to_value(&expected.tokens).unwrap()
    );

    // Speech that resumes after the pause began (the recording ends in
    // 280 ms of quiet; 200 ms more): stopped before a pause of its own,
    // the command is the whole of it, heard anew.
    let gap = vec![0.0; 16 * 200];
    let resumed = [vec![0.0; 8_000], speech(), gap, speech()].concat();
    let out = feed(&mut p, &resumed, 16_000);
    assert!(of(&out, "command").is_empty(), "{out:?}");
    let out = ctl(&mut p, Control::Stop);
    let commands = of(&out, "command");
    assert_eq!(commands.len(), 1, "{out:?}");
    assert!(commands[0].get("early").is_none(), "{}", commands[0]);
    assert!(samples(commands[0]).len() > 2 * speech().len());
    let expected = whisper(&samples(commands[0]), "", 96);
    assert_eq!(
        commands[0]["tokens"],
        serde_json::to_value(&expected.tokens).unwrap()
    );
}

#[test]
fn a_command_taken_late_says_how_long_its_end_waited() {
    let mut p = loaded();
    ctl(&mut p, settings(false, 20_000.0));
    let out = feed_queued(&mut p, &spoken(), 16_000, 250.0);
    let processing: Vec<_> = out.iter().filter(|m| m["state"] == "processing").collect();
    assert_eq!(processing.len(), 1, "{out:?}");
    assert_eq!(processing[0]["behind_ms"], 250.0);
}
