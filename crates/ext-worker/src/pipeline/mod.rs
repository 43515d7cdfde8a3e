//! The speech worker's one front door: microphone blocks and
//! [`ToWorker`] controls in; [`FromWorker`] events out (`status`,
//! `listening`, `level`, `wake`, `partial`, `command`, `error`: the
//! messages of the voice server this replaces). The service turns audio
//! into transcribed utterances; the [`VoiceSession`] decides which of them
//! are commands. Pure logic: the browser binding (`web/serve.rs`) only
//! converts messages, and fetches and keeps model files.

use crate::engine::{AudioCtx, Decoding, ModelFiles, TranscribeOptions, Transcript};
use crate::error::{Error, Result};
use crate::service::{Heard, Service, UTTERANCE_TOKENS};
use crate::session::{self, Outcome, VoiceSession, VoiceSettings};
use crate::vad::VadEvent;
use ext_protocol::settings::ListenSettings;
use ext_protocol::worker::{self, CommandHeard, FromWorker, State, Status, ToWorker, Transcribed};
use std::collections::VecDeque;

mod guided;
mod wake;
pub use guided::{
    GUIDED_CLOSE_MIN_LOGPROB, GUIDED_CLOSE_SPELLING, GUIDED_MIN_END_LOGPROB, GUIDED_MIN_LOGPROB,
    SECOND_OPINION_MIN_LOGPROB,
};
use wake::{ForcedWake, WAKE_WITH_MORE_MIN_MS};

/// The longest vocabulary prompt, in characters. Whisper's prompt holds at
/// most 223 tokens, and a long prompt slows every decoding step.
pub const VOCABULARY_CHARS: usize = 400;

/// Most command phrases kept for guided hearing, and their longest (a command
/// is a sentence; anything longer is not one).
pub const MAX_PHRASES: usize = 4_000;
pub const MAX_PHRASE_CHARS: usize = 120;

pub struct Pipeline {
    service: Service,
    session: VoiceSession,
    vocabulary: String,
    /// The commands that make sense for the open tabs (for guided hearing).
    phrases: Vec<String>,
    /// The last command's words and audio (for guided hearing).
    last_command: Option<(String, Vec<f32>)>,
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
    /// Commands go to the command model's worker ([`ToWorker::Delegate`]).
    delegate: bool,
    /// Commands handed over and not yet transcribed, oldest first.
    jobs: VecDeque<Job>,
    /// A command handed over during its closing pause, before it is known
    /// to be over (see [`Pipeline::hand_over`]).
    early_job: Option<EarlyJob>,
    next_job: u64,
    /// Passive audio dropped because the worker fell behind, in ms.
    dropped_ms: f64,
    /// How long the block being heard waited in the worker's queue, in ms.
    queued_ms: f64,
}

/// A command utterance handed to the command model's worker.
struct Job {
    id: u64,
    /// What the wake model heard after "hey fox" in the same breath.
    wake_rest: Option<String>,
    /// Its samples: transcribed here if the other worker goes away first.
    pcm: Vec<f32>,
    prompt: String,
    /// Handed over during the closing pause.
    early: bool,
    /// See [`CommandHeard::wake_unsure`].
    wake_unsure: bool,
    /// See [`CommandHeard::by_wake_phrase`].
    by_wake_phrase: bool,
}

/// A command's utterance as it will be if the closing pause ends with no
/// more speech, handed to the command model's worker at the pause
/// ([`VadEvent::Pausing`]) to be heard while the rest is waited out.
struct EarlyJob {
    job: Job,
    /// Its transcript, if that came before the pause ended.
    reply: Option<Transcribed>,
}

/// How often a live transcript of a command is redone while it is spoken.
pub const PARTIAL_EVERY_MS: usize = 1_000;
/// No live transcript starts once the speaker has been quiet this long: it
/// would show nothing new, and would hold the worker when the pause's own
/// hearing is due (see [`VadEvent::Pausing`]). One due in a gap between
/// words waits for the next word.
pub const PARTIAL_QUIET_MS: usize = 100;

/// While the worker transcribes, the microphone's blocks wait in its
/// message queue. Passive audio (no command under way) that waited longer
/// than this is dropped between utterances, so that a worker slower than
/// real time catches up instead of falling ever further behind, and the
/// queue (its memory) stays bounded.
pub const PASSIVE_BACKLOG_MS: f64 = 2_000.0;

/// Past this wait passive audio is dropped even mid-utterance (speech not
/// meant for us that never pauses, a TV): the utterance under way goes.
/// A command under way is never dropped (it ends within its timeout).
pub const MAX_PASSIVE_BACKLOG_MS: f64 = 8_000.0;

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
            service: Service::default(),
            session: VoiceSession::new(VoiceSettings::default()),
            vocabulary: String::new(),
            phrases: Vec::new(),
            last_command: None,
            heard_ms: 0.0,
            level: (0.0, 0),
            echo_audio: false,
            speech_started_ms: 0.0,
            partial_samples: 0,
            delegate: false,
            jobs: VecDeque::new(),
            early_job: None,
            next_job: 0,
            dropped_ms: 0.0,
            queued_ms: 0.0,
        };
        pipeline.configure(ListenSettings::default());
        pipeline
    }

    pub fn is_loaded(&self) -> bool {
        self.service.is_loaded()
    }

    /// Loads a model; answers `status` ready (with the model's shape) or
    /// `error`. A failed load keeps the model that was there.
    pub fn load(&mut self, files: ModelFiles, fast: bool) -> FromWorker {
        let loaded = self.service.load(files, fast);
        self.set_phrases();
        match loaded {
            Ok((shape, load_ms)) => FromWorker::Status(Status {
                state: State::Ready,
                mode: Some(self.mode().to_string()),
                model: Some(shape),
                load_ms: Some(load_ms),
                ..Default::default()
            }),
            Err(e) => FromWorker::error(e.into(), None),
        }
    }

    /// Loads a second model, which unsure guided hearings are checked with
    /// (see [`SECOND_OPINION_MIN_LOGPROB`]). A failed load keeps the one
    /// that was there.
    pub fn load_second_opinion(&mut self, files: ModelFiles) -> Result<()> {
        self.service.load_second_opinion(files)?;
        self.set_phrases();
        Ok(())
    }

    /// No second model.
    pub fn drop_second_opinion(&mut self) {
        self.service.drop_second_opinion();
    }

    /// A new recording: nothing heard, waiting for the wake word, no
    /// command handed over; the model, settings and vocabulary stay.
    pub fn reset(&mut self) {
        self.session.cancel();
        self.heard_ms = 0.0;
        self.level = (0.0, 0);
        self.speech_started_ms = 0.0;
        self.partial_samples = 0;
        self.jobs.clear();
        self.early_job = None;
        self.last_command = None;
        self.service.reset_listener(self.session.expects_command());
        self.listen();
    }

    /// How utterances are decoded: `None` (the default) for the decoding
    /// shipped for the model loaded, or one chosen to compare.
    pub fn set_decoding(&mut self, decoding: Option<Decoding>) {
        self.service.set_decoding(decoding);
    }

    /// The decoding utterances get now.
    pub fn decoding(&self) -> Decoding {
        self.service.decoding()
    }

    /// Transcribes 16-kHz samples with the loaded model, as asked.
    pub fn transcribe(&self, pcm: &[f32], options: &TranscribeOptions) -> Result<Transcript> {
        self.service.transcribe(pcm, options)
    }

    /// The log-probability that the audio starts with `phrase`.
    pub fn score(&self, pcm: &[f32], phrase: &str, audio_ctx: AudioCtx) -> Result<f32> {
        self.service.score(pcm, phrase, audio_ctx)
    }

    /// A control; answers what it comes to. Model files, ports and audio
    /// need the browser: the message loop handles those.
    pub fn control(&mut self, control: ToWorker) -> Vec<FromWorker> {
        match control {
            ToWorker::Configure { settings } => {
                self.configure(settings);
                vec![self.status()]
            }
            ToWorker::Vocabulary { prompt, phrases } => {
                self.vocabulary = prompt.chars().take(VOCABULARY_CHARS).collect();
                self.phrases = phrases
                    .into_iter()
                    .filter(|p| p.chars().count() <= MAX_PHRASE_CHARS)
                    .take(MAX_PHRASES)
                    .collect();
                self.set_phrases();
                self.listen();
                vec![]
            }
            ToWorker::HearGuided => vec![self.heard_guided()],
            ToWorker::Trigger => {
                self.session.trigger(self.heard_ms);
                self.listen();
                vec![FromWorker::Wake {
                    manual: true,
                    heard: None,
                }]
            }
            ToWorker::Cancel => {
                self.session.cancel();
                self.listen();
                vec![self.status()]
            }
            ToWorker::Stop => {
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
            ToWorker::Echo { audio } => {
                self.echo_audio = audio;
                vec![]
            }
            ToWorker::Delegate { on } => {
                self.delegate = on;
                // An utterance still under way is heard wherever it ends up.
                self.early_job = None;
                if on {
                    return vec![];
                }
                // Back to one worker: what was handed over and not yet
                // answered is transcribed here, not lost (now, not during
                // its pause).
                for job in &mut self.jobs {
                    job.early = false;
                }
                let pending: Vec<(u64, Vec<f32>, String)> = self
                    .jobs
                    .iter()
                    .map(|j| (j.id, j.pcm.clone(), j.prompt.clone()))
                    .collect();
                pending
                    .into_iter()
                    .flat_map(|(id, pcm, prompt)| {
                        let reply = self.transcribe_for_peer(id, &pcm, &prompt);
                        self.transcribed(&reply)
                    })
                    .collect()
            }
            ToWorker::Transcribe { id, prompt, pcm } => {
                vec![FromWorker::Transcribed(
                    self.transcribe_for_peer(id, &pcm, &prompt),
                )]
            }
            ToWorker::Transcribed(reply) => self.transcribed(&reply),
            ToWorker::Unload => {
                self.service.unload();
                vec![FromWorker::status(State::Unloaded)]
            }
            other => vec![FromWorker::error(
                Error::args(format!(
                    "'{}' needs the worker's message loop, not the pipeline",
                    other.kind()
                ))
                .into(),
                Some(other.kind()),
            )],
        }
    }

    fn configure(&mut self, settings: ListenSettings) {
        self.service.set_end_silences(
            settings.end_silence_passive_ms as usize,
            settings.end_silence_active_ms as usize,
        );
        self.session.set_settings(settings.voice);
        self.set_phrases();
        self.listen();
    }

    /// The phrases, as tokens of the model loaded, with the wake phrase.
    fn set_phrases(&mut self) {
        let wake = self.session.settings().wake_phrase.clone();
        self.service.set_phrases(&self.phrases, &wake);
    }

    /// A command's audio, to hear again guided if its words mean nothing.
    fn keep_command(&mut self, outcome: &Outcome, pcm: &[f32]) {
        if let Outcome::Command(text) = outcome {
            self.last_command = Some((text.clone(), pcm.to_vec()));
        }
    }

    /// A block that waited `queued_ms` in the worker's queue: dropped if
    /// it is passive audio the worker is too far behind on (see
    /// [`PASSIVE_BACKLOG_MS`]), else heard as [`Pipeline::audio`] does.
    pub fn audio_queued(
        &mut self,
        samples: &[f32],
        rate: u32,
        queued_ms: f64,
        post: &mut dyn FnMut(FromWorker),
    ) {
        self.queued_ms = queued_ms;
        let passive = !self.session.expects_command();
        let in_speech = self.service.in_speech();
        let behind =
            queued_ms > MAX_PASSIVE_BACKLOG_MS || (queued_ms > PASSIVE_BACKLOG_MS && !in_speech);
        if !(passive && behind && rate > 0) {
            return self.audio(samples, rate, post);
        }
        if in_speech {
            self.service.reset_listener(false);
        }
        let ms = samples.len() as f64 * 1000.0 / f64::from(rate);
        self.heard_ms += ms;
        self.dropped_ms += ms;
    }

    /// Passive audio dropped so far because the worker fell behind, in ms.
    pub fn dropped_ms(&self) -> f64 {
        self.dropped_ms
    }

    /// A block of microphone samples at `rate` Hz. Messages go to `post`
    /// as they happen: `status` processing is posted before Whisper runs.
    pub fn audio(&mut self, samples: &[f32], rate: u32, post: &mut dyn FnMut(FromWorker)) {
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
                post(FromWorker::Level {
                    db,
                    heard_ms: self.heard_ms,
                    dropped_ms: self.dropped_ms,
                });
                self.level = (0.0, 0);
            }
        }
        // No timeout while someone is speaking.
        if !self.service.in_speech() && self.session.tick(self.heard_ms) == Some(Outcome::TimedOut)
        {
            self.listen();
            post(FromWorker::Status(Status {
                reason: Some("timeout".into()),
                ..Status::new(State::Passive)
            }));
        }
        let events = match self.service.hear(samples, rate) {
            Ok(events) => events,
            Err(error) => return post(FromWorker::error(error.into(), None)),
        };
        for event in events {
            self.on_event(event, post);
        }
        self.live_transcript(post);
    }

    /// One detector event: `listening`, or an utterance transcribed (or
    /// handed to the command model's worker) and judged by the session.
    fn on_event(&mut self, event: VadEvent, post: &mut dyn FnMut(FromWorker)) {
        if event == VadEvent::SpeechStarted {
            self.speech_started_ms = self.heard_ms;
            self.partial_samples = 0;
        }
        if let VadEvent::Pausing(pcm) = event {
            if !self.delegate {
                self.service.hear_early(pcm);
            } else if self.session.expects_command() {
                // With two workers, commands are the command model's to
                // hear: it gets this one now, as this worker would hear it.
                let (job, message) = self.new_job(pcm, None);
                self.early_job = Some(EarlyJob {
                    job: Job { early: true, ..job },
                    reply: None,
                });
                post(message);
            }
            return;
        }
        if matches!(event, VadEvent::Utterance(_)) {
            post(FromWorker::Status(Status {
                behind_ms: Some(self.queued_ms),
                ..Status::new(State::Processing)
            }));
            if self.delegate && self.session.expects_command() {
                // A command: the command model's worker transcribes it
                // while this one goes on listening.
                self.session.take_command();
                self.listen();
                if let VadEvent::Utterance(pcm) = event {
                    self.hand_over(pcm, post);
                }
                return;
            }
        }
        let Some(heard) = self.service.event(&event) else {
            return;
        };
        let (mut transcript, early) = match heard {
            Heard::Started => return post(FromWorker::Listening),
            Heard::Failed(e) => return post(FromWorker::error(e.into(), None)),
            Heard::Utterance { transcript, early } => (transcript, early),
        };
        let VadEvent::Utterance(pcm) = event else {
            return;
        };
        let mut text = transcript.text.trim().to_string();
        // The prompt it was transcribed with, before the session moves on.
        let mut prompt = self.prompt();
        let passive = !self.session.expects_command();
        let mut outcome = self.session.heard(&text, self.speech_started_ms);
        let forced = match (passive, &outcome) {
            (true, Outcome::Ignore) => self.forced_wake(&pcm),
            _ => ForcedWake::No,
        };
        if forced != ForcedWake::No {
            outcome = self.session.wake(self.speech_started_ms);
        }
        self.listen();
        let wake_with_more = passive
            && !self.delegate
            && outcome == Outcome::Wake
            && pcm.len() / 16 > WAKE_WITH_MORE_MIN_MS
            && forced != ForcedWake::WithCommand;
        // The wake phrase was found by its forced score, or the transcript
        // heard again for the command after it spells it otherwise.
        let mut wake_unsure = forced != ForcedWake::No;
        if wake_with_more {
            wake_unsure |= self.hear_wake_with_more(
                &pcm,
                &mut text,
                &mut transcript,
                &mut prompt,
                &mut outcome,
            );
        }
        if forced == ForcedWake::WithCommand {
            // "Hey fox, switch to tab three" with the phrase left unwritten:
            // the whole utterance again, as a command.
            if self.delegate {
                self.session.take_command();
                self.listen();
                let (job, message) = self.new_job(pcm, None);
                self.jobs.push_back(Job {
                    wake_unsure: true,
                    ..job
                });
                return post(message);
            }
            let (command_prompt, again) = self.transcribe_as_command(&pcm);
            prompt = command_prompt;
            if let Some((again_text, again)) = again {
                text = again_text;
                transcript = again;
                let phrase = &self.session.settings().wake_phrase;
                let command = session::after_forced_wake(&text, phrase);
                outcome = self
                    .session
                    .heard(command.as_deref().unwrap_or(&text), self.speech_started_ms);
                self.listen();
            }
        }
        if self.delegate {
            if let Outcome::Command(rest) = outcome {
                // "Hey fox, close …" in one breath: the wake model heard the
                // wake word; the command model says the command.
                return post(self.job(pcm, Some(rest)));
            }
        }
        self.keep_command(&outcome, &pcm);
        // Heard again above only while passive, never heard early: `early`
        // still describes `transcript`.
        let heard = self.heard(text, prompt, &transcript, pcm, early);
        let mut message = self.outcome_message(outcome, heard);
        if let FromWorker::Command(command) = &mut message {
            command.wake_unsure = wake_unsure;
        }
        post(message);
    }

    /// Every second of a command being spoken, what Whisper makes of it so
    /// far (`partial`), for the popup. Only for commands: passive speech is
    /// mostly not meant for us, and transcribing it all live would keep a
    /// core busy.
    fn live_transcript(&mut self, post: &mut dyn FnMut(FromWorker)) {
        let heard = self.service.current().len();
        // The utterance under way starts later once its words outsound a
        // breath before them (see `VadConfig::span_db`).
        self.partial_samples = self.partial_samples.min(heard);
        if !self.session.settings().live_transcript
            || !self.session.expects_command()
            || heard < self.partial_samples + PARTIAL_EVERY_MS * 16
            || self.service.quiet_ms() >= PARTIAL_QUIET_MS
        {
            return;
        }
        self.partial_samples = heard;
        if let Some(t) = self.service.partial() {
            post(FromWorker::Partial {
                text: t.text.trim().to_string(),
                tokens: t.tokens,
                seconds: t.audio_seconds,
                pcm: self.echo_audio.then(|| self.service.current().to_vec()),
            });
        }
    }

    fn mode(&self) -> &'static str {
        if self.session.expects_command() {
            "active"
        } else {
            "passive"
        }
    }

    fn status(&self) -> FromWorker {
        FromWorker::status(if self.session.expects_command() {
            State::Active
        } else {
            State::Passive
        })
    }

    /// The detector and the prompt follow the session: while waiting for
    /// the wake word, Whisper is prompted with it (so it is spelled the
    /// way the session looks for); while taking a command, with the tabs'
    /// vocabulary.
    fn listen(&mut self) {
        let expects_command = self.session.expects_command();
        let prompt = self.prompt();
        let wake_phrase = self.session.settings().wake_phrase.clone();
        self.service.listen(
            expects_command,
            &prompt,
            (!expects_command).then_some(wake_phrase.as_str()),
        );
    }

    /// What the next utterance is transcribed with.
    fn prompt(&self) -> String {
        if self.session.expects_command() {
            self.vocabulary.clone()
        } else {
            self.session.settings().wake_phrase.clone()
        }
    }

    /// A command utterance for the command model's worker: `transcribe`
    /// (the worker's message loop sends it there, not to the background).
    fn job(&mut self, pcm: Vec<f32>, wake_rest: Option<String>) -> FromWorker {
        let (job, message) = self.new_job(pcm, wake_rest);
        self.jobs.push_back(job);
        message
    }

    /// A new job for `pcm`, and the message that hands it over.
    fn new_job(&mut self, pcm: Vec<f32>, wake_rest: Option<String>) -> (Job, FromWorker) {
        self.next_job += 1;
        let message = FromWorker::Transcribe {
            id: self.next_job,
            prompt: self.vocabulary.clone(),
            pcm: pcm.clone(),
        };
        let job = Job {
            id: self.next_job,
            wake_rest,
            pcm,
            prompt: self.vocabulary.clone(),
            early: false,
            wake_unsure: false,
            by_wake_phrase: self.session.by_wake_phrase(),
        };
        (job, message)
    }

    /// A command utterance that ended, for the command model's worker: if
    /// it is what was handed over at its pause (speech did not resume,
    /// the tabs' names did not change), that job stands and its transcript
    /// is taken as soon as it is there; else it is handed over now.
    fn hand_over(&mut self, pcm: Vec<f32>, post: &mut dyn FnMut(FromWorker)) {
        let vocabulary = &self.vocabulary;
        let early = self
            .early_job
            .take()
            .filter(|e| e.job.pcm == pcm && e.job.prompt == *vocabulary);
        let Some(early) = early else {
            return post(self.job(pcm, None));
        };
        self.jobs.push_back(early.job);
        if let Some(reply) = early.reply {
            for message in self.transcribed(&reply) {
                post(message);
            }
        }
    }

    /// In the command model's worker: the transcript of a handed-over
    /// utterance (or its error), for the listening worker.
    pub fn transcribe_for_peer(&mut self, id: u64, pcm: &[f32], prompt: &str) -> Transcribed {
        let options = self
            .service
            .decoding()
            .options(Some(prompt.to_string()), UTTERANCE_TOKENS);
        match self.service.transcribe(pcm, &options) {
            Ok(t) => Transcribed {
                id,
                ok: true,
                text: t.text.trim().to_string(),
                tokens: t.tokens,
                seconds: t.audio_seconds,
                timings: t.timings.clone(),
                no_speech_prob: t.no_speech_prob,
                avg_logprob: t.avg_logprob,
                looped: t.looped,
                fell_back: t.fell_back,
                error: None,
                memory_bytes: None,
            },
            Err(e) => Transcribed {
                id,
                ok: false,
                error: Some(e.into()),
                ..Default::default()
            },
        }
    }

    /// In the listening worker: the command model's transcript of a job,
    /// as the event the background acts on (`command`, or `wake` when
    /// nothing was said after the wake word, or `error`).
    pub fn transcribed(&mut self, reply: &Transcribed) -> Vec<FromWorker> {
        if let Some(early) = self.early_job.as_mut().filter(|e| e.job.id == reply.id) {
            // Heard before the pause ended: kept until it does.
            early.reply = Some(reply.clone());
            return vec![];
        }
        let Some(at) = self.jobs.iter().position(|j| j.id == reply.id) else {
            return vec![];
        };
        let job = self.jobs.remove(at).expect("found above");
        if !reply.ok {
            let error = reply
                .error
                .clone()
                .unwrap_or_else(|| ext_protocol::Error::failed("the command model failed"));
            return vec![FromWorker::error(error, None)];
        }
        let text = reply.text.trim().to_string();
        let outcome = self
            .session
            .command_heard(&text, job.wake_rest.as_deref(), self.heard_ms);
        self.listen();
        self.keep_command(&outcome, &job.pcm);
        let heard = worker::Heard {
            heard: text,
            prompt: job.prompt,
            tokens: reply.tokens.clone(),
            seconds: reply.seconds,
            timings: reply.timings.clone(),
            no_speech_prob: reply.no_speech_prob,
            avg_logprob: reply.avg_logprob,
            pcm: self.echo_audio.then_some(job.pcm),
            looped: reply.looped,
            fell_back: reply.fell_back,
            early: job.early,
        };
        let mut message = self.outcome_message(outcome, heard);
        if let FromWorker::Command(command) = &mut message {
            command.wake_unsure = job.wake_unsure;
            command.by_wake_phrase = job.by_wake_phrase;
            command.model = Some("command".into());
            command.command_memory_bytes = reply.memory_bytes;
        }
        vec![message]
    }

    /// How an utterance was heard, for the popup's transcript and tests.
    fn heard(
        &self,
        text: String,
        prompt: String,
        t: &Transcript,
        pcm: Vec<f32>,
        early: bool,
    ) -> worker::Heard {
        worker::Heard {
            heard: text,
            prompt,
            tokens: t.tokens.clone(),
            seconds: t.audio_seconds,
            timings: t.timings.clone(),
            no_speech_prob: t.no_speech_prob,
            avg_logprob: t.avg_logprob,
            pcm: self.echo_audio.then_some(pcm),
            looped: t.looped,
            fell_back: t.fell_back,
            early,
        }
    }

    /// What an utterance came to, with what was heard and how.
    fn outcome_message(&self, outcome: Outcome, heard: worker::Heard) -> FromWorker {
        match outcome {
            Outcome::Command(text) => FromWorker::Command(CommandHeard {
                text,
                heard,
                by_wake_phrase: self.session.by_wake_phrase(),
                ..Default::default()
            }),
            Outcome::Wake => FromWorker::Wake {
                manual: false,
                heard: Some(heard),
            },
            Outcome::Ignore | Outcome::TimedOut => FromWorker::Status(Status {
                ignored: Some(true),
                heard: Some(heard),
                ..Status::new(if self.session.expects_command() {
                    State::Active
                } else {
                    State::Passive
                })
            }),
        }
    }
}
