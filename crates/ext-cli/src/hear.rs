//! What the extension hears in a recording, run natively: the speech
//! worker's [`Pipeline`] (resampling, voice activity detection, the
//! wake-word session, Whisper with the shipped decoding) fed the file as an
//! AudioWorklet feeds it, 128 samples at a time at the file's rate, with
//! the open tabs' names as the prompt. What it takes as a command then goes
//! to the interpreter like a typed one (see `twctl hear`).

use ext_core::interpret::{self, Addressed, Options};
use ext_core::tab_state::State;
use ext_core::vocabulary;
use ext_protocol::settings::ListenSettings;
use ext_protocol::worker::{FromWorker, Timings, ToWorker};
use ext_worker::pipeline::Pipeline;
use ext_worker::{audio, Decoding, DecodingFlags, ModelFiles};
use serde::Serialize;

/// How listening starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Listen {
    /// Waiting for the wake word ("hey fox").
    Passive,
    /// As after the mic button: the next utterance is a command.
    Active,
}

impl Listen {
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "passive" => Some(Self::Passive),
            "active" => Some(Self::Active),
            _ => None,
        }
    }
}

/// What was heard in a recording.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Hearing {
    /// The text of every utterance the detector cut, in order.
    pub heard: Vec<String>,
    /// The wake word was heard.
    pub wake: bool,
    /// The command taken, if any.
    pub command: Option<String>,
    /// The known command the audio most likely says, asked for (as the
    /// extension asks) when the command's words mean nothing.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub guided: Option<String>,
    /// Milliseconds hearing it guided took.
    #[serde(skip)]
    pub guided_ms: f64,
    /// Something in it was meant for Tab Whisperer.
    pub for_us: bool,
    /// The command's wake phrase was only likely: found by its forced
    /// score, or spelled otherwise when heard again for the command (see
    /// `CommandHeard::wake_unsure`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wake_unsure: bool,
    /// Taken after the wake phrase, not as after the mic button (`--listen
    /// active`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_wake_phrase: bool,
    /// Milliseconds spent, summed over utterances.
    #[serde(skip)]
    pub timings: Timings,
    /// Utterances whose fast pass repeated itself, and those redone at
    /// full context.
    #[serde(skip)]
    pub looped: usize,
    #[serde(skip)]
    pub fell_back: usize,
}

/// Silence fed after a recording, as the worklet goes on feeding zeros when
/// a file ends: long enough for the detector to end the last utterance.
const TRAILING_SECONDS: f32 = 2.0;

/// A loaded model behind the worker's pipeline, reused across recordings.
pub struct Ear {
    pipeline: Pipeline,
}

impl Ear {
    /// Loads a model; `flags` change the decoding shipped for it.
    pub fn new(files: ModelFiles, flags: DecodingFlags) -> Result<Self, String> {
        let mut pipeline = Pipeline::new();
        if let FromWorker::Error { error, .. } = pipeline.load(files, false) {
            return Err(error.message);
        }
        if flags.any() {
            pipeline.set_decoding(Some(flags.over(pipeline.decoding())));
        }
        let mut ear = Self { pipeline };
        ear.set_live_transcript(true);
        Ok(ear)
    }

    /// Whether commands are transcribed every second while spoken, as
    /// the extension does by default. What is heard is the same either
    /// way (the live transcript is only shown); without it, a recording
    /// costs a third to a half less time, which the bench needs.
    pub fn set_live_transcript(&mut self, on: bool) {
        let mut settings = ListenSettings::default();
        settings.voice.live_transcript = on;
        self.pipeline.control(ToWorker::Configure { settings });
    }

    /// A second model to check unsure guided hearings with, as the
    /// extension pairs any model but the bundled one with the bundled
    /// tiny.en (see `ext_worker::pipeline::SECOND_OPINION_MIN_LOGPROB`).
    pub fn set_second_opinion(&mut self, files: ModelFiles) -> Result<(), String> {
        self.pipeline
            .load_second_opinion(files)
            .map_err(|e| e.message)
    }

    /// `None`: the decoding shipped for the model.
    pub fn set_decoding(&mut self, decoding: Option<Decoding>) {
        self.pipeline.set_decoding(decoding);
    }

    pub fn decoding(&self) -> Decoding {
        self.pipeline.decoding()
    }

    /// Hears a WAV file's bytes.
    pub fn hear_wav(
        &mut self,
        wav: &[u8],
        listen: Listen,
        vocabulary: &Vocabulary,
    ) -> Result<Hearing, String> {
        let audio = audio::read_wav(wav).map_err(|e| e.message)?;
        Ok(self.hear(&audio.samples, audio.rate, listen, vocabulary))
    }

    /// Hears mono samples at `rate` Hz, `vocabulary` being what commands
    /// are transcribed with.
    pub fn hear(
        &mut self,
        samples: &[f32],
        rate: u32,
        listen: Listen,
        vocabulary: &Vocabulary,
    ) -> Hearing {
        let p = &mut self.pipeline;
        p.reset();
        p.control(ToWorker::Vocabulary {
            prompt: vocabulary.prompt.clone(),
            phrases: vocabulary.phrases.clone(),
        });
        if listen == Listen::Active {
            p.control(ToWorker::Trigger);
        }
        let mut events = Vec::new();
        let silence = vec![0.0; (TRAILING_SECONDS * rate as f32) as usize];
        for block in samples.chunks(128).chain(silence.chunks(128)) {
            p.audio(block, rate, &mut |e| events.push(e));
        }
        judge(&events, listen)
    }
}

impl Ear {
    /// As the extension does when a command's words mean nothing for the
    /// tabs of `state`: asks the worker which known command the audio most
    /// likely says.
    pub fn hear_guided_if_needed(&mut self, hearing: &mut Hearing, state: &State) {
        let Some(command) = &hearing.command else {
            return;
        };
        if !interpret::needs_guided(command, state, &Options::default()) {
            return;
        }
        for answer in self.pipeline.control(ToWorker::HearGuided) {
            if let FromWorker::HeardGuided { command, ms, .. } = answer {
                hearing.guided = command;
                hearing.guided_ms = ms;
            }
        }
    }
}

/// As the background page does with a spoken command the interpreter
/// cannot place (guided hearing included), with no language model set up:
/// if its wake phrase was only likely, or it came after the wake phrase
/// (not the mic button) and names nothing of the tabs, nothing in the
/// recording was for us (see `Plan::is_room_talk`). A wake phrase heard
/// as written stays heard.
pub fn drop_room_talk(hearing: &mut Hearing, state: &State) {
    let Some(command) = hearing.command.as_deref() else {
        return;
    };
    let plan = interpret::plan_spoken(
        command,
        hearing.guided.as_deref(),
        state,
        &Options::default(),
    );
    let addressed = Addressed {
        wake_unsure: hearing.wake_unsure,
        by_wake_phrase: hearing.by_wake_phrase,
        model_set_up: false,
    };
    if plan.is_room_talk(command, state, addressed) {
        hearing.command = None;
        hearing.wake &= !hearing.wake_unsure;
        hearing.for_us = false;
    }
}

/// What the worker is told to expect in commands.
#[derive(Clone, Debug, Default)]
pub struct Vocabulary {
    /// Whisper's prompt: the command words, then the tabs' names.
    pub prompt: String,
    /// The commands that make sense for the tabs, for guided hearing.
    pub phrases: Vec<String>,
}

/// What the extension gives the worker for the tabs of a snapshot (the
/// background page sends the same for the live tabs).
pub fn vocabulary_of(state: &State) -> Vocabulary {
    let tabs = || {
        state
            .tabs
            .iter()
            .map(|t| (t.title.as_str(), t.url.as_str()))
    };
    Vocabulary {
        prompt: vocabulary::command_prompt(tabs()),
        phrases: vocabulary::command_phrases(tabs(), state.groups.iter().map(|g| g.title.as_str())),
    }
}

/// What a recording's worker events come to.
pub fn judge(events: &[FromWorker], listen: Listen) -> Hearing {
    let mut h = Hearing::default();
    let add = |h: &mut Hearing, heard: &ext_protocol::worker::Heard| {
        h.heard.push(heard.heard.clone());
        h.timings.mel += heard.timings.mel;
        h.timings.encoder += heard.timings.encoder;
        h.timings.decoder += heard.timings.decoder;
        h.looped += usize::from(heard.looped);
        h.fell_back += usize::from(heard.fell_back);
    };
    for event in events {
        match event {
            FromWorker::Command(c) => {
                add(&mut h, &c.heard);
                if h.command.is_none() {
                    h.command = Some(c.text.clone());
                    h.wake_unsure = c.wake_unsure;
                    h.by_wake_phrase = c.by_wake_phrase;
                }
                // While waiting for the wake word, a command means it was
                // heard ("hey fox, close …" in one breath).
                if listen == Listen::Passive {
                    h.wake = true;
                }
            }
            FromWorker::Wake {
                manual: false,
                heard,
            } => {
                if let Some(heard) = heard {
                    add(&mut h, heard);
                }
                h.wake = true;
            }
            FromWorker::Status(s) => {
                if let Some(heard) = &s.heard {
                    add(&mut h, heard);
                }
            }
            _ => {}
        }
    }
    h.for_us = h.wake || h.command.is_some();
    h
}
