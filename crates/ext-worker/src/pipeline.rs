//! The speech worker's conversation with the background page: microphone
//! blocks in; `status`, `listening`, `wake`, `partial`, `command` and
//! `error` out (the messages of the voice server this replaces). The [`Service`] turns audio
//! into transcribed utterances; the [`VoiceSession`] decides which of them
//! are commands. Pure logic: the browser binding only converts messages.

use crate::engine::{AudioCtx, ModelFiles, TranscribeOptions};
use crate::service::{Request, Service, UTTERANCE_TOKENS};
use crate::session::{Outcome, VoiceSession, VoiceSettings};
use crate::vad::VadEvent;
use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::VecDeque;

/// What the background page sends besides audio and model bytes (JSON).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Control {
    /// The extension's settings (the fields the worker uses are read,
    /// the rest ignored).
    Configure {
        #[serde(flatten)]
        settings: ListenSettings,
    },
    /// Words to expect in commands (the open tabs' sites and titles):
    /// Whisper's prompt, so that names on screen are recognized.
    Vocabulary { prompt: String },
    /// The mic button or Alt+Shift+L: the next utterance is a command.
    Trigger,
    /// Back to waiting for the wake word.
    Cancel,
    /// The microphone stopped: finish the utterance under way.
    Stop,
    /// Forget the model (its memory goes back to the browser).
    Unload,
    /// Include each utterance's 16-kHz samples in its message: how a test
    /// checks what reached Whisper.
    Echo { audio: bool },
    /// Two workers: this one listens (the wake model) and hands commands
    /// to the command model's worker (`transcribe` out, `transcribed` in).
    Delegate { on: bool },
    /// In the command model's worker: transcribe an utterance the
    /// listening worker took as a command.
    Transcribe {
        id: u64,
        pcm: Vec<f32>,
        #[serde(default)]
        prompt: String,
    },
}

/// The settings the worker acts on, as the extension stores them.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListenSettings {
    pub voice: VoiceSettings,
    pub end_silence_passive_ms: usize,
    pub end_silence_active_ms: usize,
}

impl Default for ListenSettings {
    fn default() -> Self {
        Self {
            voice: VoiceSettings::default(),
            end_silence_passive_ms: 300,
            end_silence_active_ms: 700,
        }
    }
}

/// The longest vocabulary prompt, in characters. Whisper's prompt holds at
/// most 223 tokens, and a long prompt slows every decoding step.
pub const VOCABULARY_CHARS: usize = 400;

pub struct Pipeline {
    service: Service,
    session: VoiceSession,
    vocabulary: String,
    /// Audio heard so far, in ms: the session's clock. Audio time, not wall
    /// time, so a worker busy transcribing does not time out a command it
    /// has not yet heard.
    heard_ms: f64,
    /// The input level over the last [`LEVEL_MS`]: sum of squares, samples.
    level: (f64, usize),
    echo_audio: bool,
    /// When the utterance under way began: it is judged as of then, so
    /// a command begun in time is not lost to the timeout while spoken.
    speech_started_ms: f64,
    /// How much of the utterance under way the last live transcript
    /// covered, in samples.
    partial_samples: usize,
    /// Commands go to the command model's worker ([`Control::Delegate`]).
    delegate: bool,
    /// Commands handed over and not yet transcribed, oldest first.
    jobs: VecDeque<Job>,
    next_job: u64,
}

/// A command utterance handed to the command model's worker.
struct Job {
    id: u64,
    /// What the wake model heard after "hey fox" in the same breath.
    wake_rest: Option<String>,
    /// Its samples: transcribed here if the other worker goes away first.
    pcm: Vec<f32>,
    prompt: String,
}

/// How often a live transcript of a command is redone while it is spoken.
pub const PARTIAL_EVERY_MS: usize = 1_000;

/// How often the input level is reported (the popup's live meter).
pub const LEVEL_MS: f64 = 100.0;

impl Default for Pipeline {
    fn default() -> Self {
        Self::new()
    }
}

impl Pipeline {
    pub fn new() -> Self {
        let mut pipeline = Self {
            service: Service::new(),
            session: VoiceSession::new(VoiceSettings::default()),
            vocabulary: String::new(),
            heard_ms: 0.0,
            level: (0.0, 0),
            echo_audio: false,
            speech_started_ms: 0.0,
            partial_samples: 0,
            delegate: false,
            jobs: VecDeque::new(),
            next_job: 0,
        };
        pipeline.listen();
        pipeline
    }

    pub fn is_loaded(&self) -> bool {
        self.service.is_loaded()
    }

    /// Loads a model; answers `status` ready (with the model's shape) or
    /// `error`. A failed load keeps the model that was there.
    pub fn load(&mut self, files: ModelFiles, fast: bool) -> Value {
        let answer = self.service.handle(Request::Load { files, fast });
        if answer["ok"] == true {
            json!({
                "type": "status",
                "state": "ready",
                "mode": self.mode(),
                "model": answer["model"],
                "load_ms": answer["load_ms"],
            })
        } else {
            json!({ "type": "error", "error": answer["error"] })
        }
    }

    pub fn control(&mut self, control: Control) -> Vec<Value> {
        match control {
            Control::Configure { settings } => {
                self.service.set_end_silences(
                    settings.end_silence_passive_ms,
                    settings.end_silence_active_ms,
                );
                self.session.set_settings(settings.voice);
                self.listen();
                vec![self.status()]
            }
            Control::Vocabulary { prompt } => {
                self.vocabulary = prompt.chars().take(VOCABULARY_CHARS).collect();
                self.listen();
                vec![]
            }
            Control::Trigger => {
                self.session.trigger(self.heard_ms);
                self.listen();
                vec![json!({ "type": "wake", "manual": true })]
            }
            Control::Cancel => {
                self.session.cancel();
                self.listen();
                vec![self.status()]
            }
            Control::Stop => {
                // The utterance under way goes where any other would.
                let mut out = Vec::new();
                if let Some(event) = self.service.flush() {
                    self.on_event(event, &mut |m| out.push(m));
                }
                self.session.cancel();
                self.listen();
                out.push(self.status());
                out
            }
            Control::Echo { audio } => {
                self.echo_audio = audio;
                vec![]
            }
            Control::Delegate { on } => {
                self.delegate = on;
                if on {
                    return vec![];
                }
                // Back to one worker: what was handed over and not yet
                // answered is transcribed here, not lost.
                let pending: Vec<(u64, Vec<f32>, String)> = self
                    .jobs
                    .iter()
                    .map(|j| (j.id, j.pcm.clone(), j.prompt.clone()))
                    .collect();
                pending
                    .into_iter()
                    .flat_map(|(id, pcm, prompt)| {
                        let reply = self.transcribe_for_peer(id, pcm, prompt);
                        self.transcribed(&reply)
                    })
                    .collect()
            }
            Control::Transcribe { id, pcm, prompt } => {
                vec![self.transcribe_for_peer(id, pcm, prompt)]
            }
            Control::Unload => {
                self.service.handle(Request::Unload);
                vec![json!({ "type": "status", "state": "unloaded" })]
            }
        }
    }

    /// A block of microphone samples at `rate` Hz. Messages go to `post`
    /// as they happen: `status` processing is posted before Whisper runs.
    pub fn audio(&mut self, samples: &[f32], rate: u32, post: &mut dyn FnMut(Value)) {
        if rate > 0 {
            self.heard_ms += samples.len() as f64 * 1000.0 / f64::from(rate);
            self.level.0 += samples
                .iter()
                .map(|&x| f64::from(x) * f64::from(x))
                .sum::<f64>();
            self.level.1 += samples.len();
            if self.level.1 as f64 >= LEVEL_MS / 1000.0 * f64::from(rate) {
                let rms = (self.level.0 / self.level.1 as f64).sqrt();
                let db = (20.0 * rms.max(1e-10).log10()).max(-100.0);
                post(json!({ "type": "level", "db": db, "heard_ms": self.heard_ms }));
                self.level = (0.0, 0);
            }
        }
        // No timeout while someone is speaking.
        if !self.service.in_speech() && self.session.tick(self.heard_ms) == Some(Outcome::TimedOut)
        {
            self.listen();
            post(json!({ "type": "status", "state": "passive", "reason": "timeout" }));
        }
        let events = match self.service.hear(samples, rate) {
            Ok(events) => events,
            Err(error) => return post(json!({ "type": "error", "error": error })),
        };
        for event in events {
            self.on_event(event, post);
        }
        self.live_transcript(post);
    }

    /// One detector event: `listening`, or an utterance transcribed (or
    /// handed to the command model's worker) and judged by the session.
    fn on_event(&mut self, event: VadEvent, post: &mut dyn FnMut(Value)) {
        if event == VadEvent::SpeechStarted {
            self.speech_started_ms = self.heard_ms;
            self.partial_samples = 0;
        }
        if matches!(event, VadEvent::Utterance(_)) {
            post(json!({ "type": "status", "state": "processing" }));
            if self.delegate && self.session.expects_command() {
                // A command: the command model's worker transcribes it
                // while this one goes on listening.
                self.session.take_command();
                self.listen();
                if let VadEvent::Utterance(pcm) = event {
                    post(self.job(pcm, None));
                }
                return;
            }
        }
        let Some(message) = self.service.event(&event) else {
            return;
        };
        let mut message = self.message(message);
        let VadEvent::Utterance(pcm) = event else {
            return post(message);
        };
        if self.delegate && message["type"] == "command" {
            // "Hey fox, close …" in one breath: the wake model heard the
            // wake word; the command model says the command.
            let rest = message["text"].as_str().map(String::from);
            return post(self.job(pcm, rest));
        }
        if self.echo_audio {
            message["pcm"] = pcm.into();
        }
        post(message);
    }

    /// Every second of a command being spoken, what Whisper makes of it so
    /// far (`partial`), for the popup. Only for commands: passive speech is
    /// mostly not meant for us, and transcribing it all live would keep a
    /// core busy.
    fn live_transcript(&mut self, post: &mut dyn FnMut(Value)) {
        let heard = self.service.current().len();
        if !self.session.settings().live_transcript
            || !self.session.expects_command()
            || heard < self.partial_samples + PARTIAL_EVERY_MS * 16
        {
            return;
        }
        self.partial_samples = heard;
        if let Some(mut message) = self.service.partial() {
            if self.echo_audio {
                message["pcm"] = self.service.current().to_vec().into();
            }
            post(message);
        }
    }

    fn mode(&self) -> &'static str {
        if self.session.expects_command() {
            "active"
        } else {
            "passive"
        }
    }

    fn status(&self) -> Value {
        json!({ "type": "status", "state": self.mode() })
    }

    /// The detector and the prompt follow the session: while waiting for
    /// the wake word, Whisper is prompted with it (so it is spelled the
    /// way the session looks for); while taking a command, with the tabs'
    /// vocabulary.
    fn listen(&mut self) {
        let expects_command = self.session.expects_command();
        self.service.handle(Request::Listen {
            expects_command,
            prompt: Some(self.prompt()),
            wake_phrase: (!expects_command).then(|| self.session.settings().wake_phrase.clone()),
        });
    }

    /// What the next utterance is transcribed with.
    fn prompt(&self) -> String {
        if self.session.expects_command() {
            self.vocabulary.clone()
        } else {
            self.session.settings().wake_phrase.clone()
        }
    }

    /// A service event as a message: utterances go through the session.
    fn message(&mut self, event: Value) -> Value {
        match event["type"].as_str() {
            Some("utterance") => self.utterance(&event),
            _ => event,
        }
    }

    fn utterance(&mut self, event: &Value) -> Value {
        let heard = event["text"].as_str().unwrap_or_default().to_string();
        // The prompt it was transcribed with, before the session moves on.
        let prompt = self.prompt();
        let outcome = self.session.heard(&heard, self.speech_started_ms);
        self.listen();
        self.outcome_message(outcome, event, heard, prompt)
    }

    /// A command utterance for the command model's worker: `transcribe`
    /// (the worker's message loop sends it there, not to the background).
    fn job(&mut self, pcm: Vec<f32>, wake_rest: Option<String>) -> Value {
        self.next_job += 1;
        let message = json!({ "type": "transcribe", "id": self.next_job, "pcm": pcm, "prompt": self.vocabulary });
        self.jobs.push_back(Job {
            id: self.next_job,
            wake_rest,
            pcm,
            prompt: self.vocabulary.clone(),
        });
        message
    }

    /// In the command model's worker: the transcript of a handed-over
    /// utterance, `transcribed` (or its error), for the listening worker.
    pub fn transcribe_for_peer(&mut self, id: u64, pcm: Vec<f32>, prompt: String) -> Value {
        let options = TranscribeOptions {
            prompt: Some(prompt).filter(|p| !p.trim().is_empty()),
            max_tokens: Some(UTTERANCE_TOKENS),
            audio_ctx: AudioCtx::Auto,
        };
        let mut answer = self.service.handle(Request::Transcribe { pcm, options });
        answer["type"] = "transcribed".into();
        answer["seconds"] = answer["audio_seconds"].take();
        answer["id"] = id.into();
        answer
    }

    /// In the listening worker: the command model's transcript of a job,
    /// as the message the background acts on (`command`, or `wake` when
    /// nothing was said after the wake word, or `error`).
    pub fn transcribed(&mut self, reply: &Value) -> Vec<Value> {
        let Some(at) = self.jobs.iter().position(|j| reply["id"] == j.id) else {
            return vec![];
        };
        let job = self.jobs.remove(at).expect("found above");
        if reply["ok"] != true {
            return vec![json!({ "type": "error", "error": reply["error"] })];
        }
        let heard = reply["text"]
            .as_str()
            .unwrap_or_default()
            .trim()
            .to_string();
        let outcome = self
            .session
            .command_heard(&heard, job.wake_rest.as_deref(), self.heard_ms);
        self.listen();
        let mut message = self.outcome_message(outcome, reply, heard, job.prompt);
        message["model"] = "command".into();
        if self.echo_audio {
            message["pcm"] = job.pcm.into();
        }
        vec![message]
    }

    /// What an utterance came to, with what was heard and how.
    fn outcome_message(
        &self,
        outcome: Outcome,
        event: &Value,
        heard: String,
        prompt: String,
    ) -> Value {
        let mut message = match outcome {
            Outcome::Command(text) => json!({ "type": "command", "text": text }),
            Outcome::Wake => json!({ "type": "wake", "manual": false }),
            Outcome::Ignore | Outcome::TimedOut => {
                json!({ "type": "status", "state": self.mode(), "ignored": true })
            }
        };
        // What was heard and how, for the popup's transcript and for tests.
        for key in [
            "tokens",
            "seconds",
            "timings",
            "no_speech_prob",
            "avg_logprob",
        ] {
            message[key] = event[key].clone();
        }
        message["heard"] = heard.into();
        message["prompt"] = prompt.into();
        message
    }
}
