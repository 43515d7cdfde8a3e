//! The speech workers' messages, in the style of Candle's whisper worker
//! (`WorkerInput` / `WorkerOutput`): [`ToWorker`] is everything the
//! background page (or the other worker) posts to one, [`FromWorker`]
//! everything one posts back. A few carry what JSON cannot (a
//! `MessagePort`, audio as a transferred `Float32Array`, model files as
//! `ArrayBuffer`s): those travel as fields of the same JS object, named in
//! [`PAYLOAD_FIELDS`], beside the JSON ones.

use crate::error::Error;
use crate::settings::ListenSettings;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// Fields of a worker message that are JS objects, not JSON: read (or
/// attached) by the browser bindings, never through serde.
pub const PAYLOAD_FIELDS: &[&str] = &["port", "samples", "pcm", "config", "tokenizer", "weights"];

/// Which of the (up to) two speech workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum WorkerRole {
    /// Audio, detector, wake-word session; commands too when it is alone.
    Listen,
    /// With a separate wake-word model: the command model's worker.
    Command,
}

impl WorkerRole {
    pub fn as_str(self) -> &'static str {
        match self {
            WorkerRole::Listen => "listen",
            WorkerRole::Command => "command",
        }
    }
}

/// What a speech worker is asked.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ToWorker {
    /// How to listen (the wake word, the silences that end an utterance).
    Configure {
        #[serde(flatten)]
        settings: ListenSettings,
    },
    /// Words to expect in commands (the open tabs' sites and titles):
    /// Whisper's prompt, so that names on screen are recognized. And the
    /// commands that make sense for these tabs, to hear the audio again
    /// guided to them when what was heard means nothing (see
    /// [`ToWorker::HearGuided`]).
    Vocabulary {
        prompt: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        phrases: Vec<String>,
    },
    /// Hears the last command's audio again, guided to the vocabulary's
    /// phrases (as whisper.cpp's guided command mode does): the known
    /// command it most likely says. Asked when what was heard freely means
    /// nothing. Answers [`FromWorker::HeardGuided`].
    HearGuided,
    /// The mic button or Alt+Shift+L: the next utterance is a command.
    Trigger,
    /// Back to waiting for the wake word.
    Cancel,
    /// The microphone stopped: finish the utterance under way.
    Stop,
    /// Forget the model (its memory goes back to the browser).
    Unload,
    /// Include each utterance's 16-kHz samples in its event (`pcm`): how a
    /// test checks what reached Whisper.
    Echo { audio: bool },
    /// Two workers: this one listens (the wake model) and hands commands to
    /// the command model's worker.
    Delegate { on: bool },
    /// Loads a model: bundled in the .xpi, else kept in the Cache API,
    /// else downloaded from `url` (or the hub) and kept.
    Load(LoadModel),
    /// Loads model files chosen on the options page (`config`, `tokenizer`
    /// and `weights` payloads).
    Import {
        model: String,
        #[serde(default)]
        quantize: bool,
        #[serde(default)]
        fast: bool,
    },
    /// Deletes a kept model; answers [`FromWorker::Models`].
    Remove { model: String },
    /// Lists the installed models; answers [`FromWorker::Models`].
    Installed,
    /// Lists the models bundled in the .xpi; answers [`FromWorker::Models`].
    Bundled,
    /// The AudioWorklet's port (`port` payload): its blocks arrive as
    /// [`ToWorker::Audio`].
    Port,
    /// The other worker's port (`port` payload).
    Peer { role: WorkerRole },
    /// Development only (the background sends it for `debug_worker_trap`):
    /// the worker traps, as a bug in its wasm would, to show that the
    /// background restarts it.
    DebugTrap,
    /// A block of microphone samples (`samples` payload) at `rate` Hz.
    Audio { rate: f64 },
    /// From the listening worker, in the command model's: transcribe an
    /// utterance taken as a command.
    Transcribe {
        id: u64,
        #[serde(default)]
        prompt: String,
        /// 16-kHz samples: a transferred `Float32Array` beside the JSON.
        #[serde(skip)]
        pcm: Vec<f32>,
    },
    /// The command model's answer to [`ToWorker::Transcribe`].
    Transcribed(Transcribed),
}

impl ToWorker {
    /// The message type, as written on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            ToWorker::Configure { .. } => "configure",
            ToWorker::Vocabulary { .. } => "vocabulary",
            ToWorker::HearGuided => "hear_guided",
            ToWorker::Trigger => "trigger",
            ToWorker::Cancel => "cancel",
            ToWorker::Stop => "stop",
            ToWorker::Unload => "unload",
            ToWorker::Echo { .. } => "echo",
            ToWorker::Delegate { .. } => "delegate",
            ToWorker::Load(_) => "load",
            ToWorker::Import { .. } => "import",
            ToWorker::Remove { .. } => "remove",
            ToWorker::Installed => "installed",
            ToWorker::Bundled => "bundled",
            ToWorker::Port => "port",
            ToWorker::Peer { .. } => "peer",
            ToWorker::DebugTrap => "debug_trap",
            ToWorker::Audio { .. } => "audio",
            ToWorker::Transcribe { .. } => "transcribe",
            ToWorker::Transcribed(_) => "transcribed",
        }
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LoadModel {
    pub model: String,
    /// Where to download from when the model is neither bundled nor kept.
    #[serde(default)]
    pub url: Option<String>,
    /// Keep f32 weights as q8_0 (a quarter of the memory).
    #[serde(default)]
    pub quantize: bool,
    /// The quantized output projection (faster, within 1e-2).
    #[serde(default)]
    pub fast: bool,
}

/// How an utterance was heard: the transcript's text and tokens, the
/// prompt it was conditioned on, how sure Whisper was, and how long it
/// took. Carried by the events an utterance comes to.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Heard {
    /// All that was heard (a command's `text` is what follows the wake
    /// word).
    pub heard: String,
    pub prompt: String,
    pub tokens: Vec<u32>,
    /// Seconds of audio.
    pub seconds: f32,
    pub timings: Timings,
    pub no_speech_prob: Option<f32>,
    pub avg_logprob: f32,
    /// The 16-kHz samples Whisper heard (`echo`: how a test checks them).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pcm: Option<Vec<f32>>,
    /// The fast pass repeated itself…
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub looped: bool,
    /// …or was unsure, and the text is the full window's.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub fell_back: bool,
    /// Transcribed while the end-of-command pause was still waited out
    /// (its timings were spent then, not after the pause).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub early: bool,
}

/// Milliseconds per stage of one transcription.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Timings {
    pub mel: f64,
    pub encoder: f64,
    pub decoder: f64,
}

/// The command model's transcript of a handed-over utterance.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Transcribed {
    pub id: u64,
    pub ok: bool,
    pub text: String,
    pub tokens: Vec<u32>,
    pub seconds: f32,
    pub timings: Timings,
    pub no_speech_prob: Option<f32>,
    pub avg_logprob: f32,
    pub looped: bool,
    pub fell_back: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
    /// The command worker's wasm memory after it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
}

/// What a speech worker says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum FromWorker {
    Status(Status),
    /// Speech began.
    Listening,
    /// The input level over the last 100 ms (the popup's meter).
    Level {
        db: f64,
        heard_ms: f64,
        /// Passive audio dropped so far because the worker fell behind
        /// the microphone (see the worker's backlog bound).
        #[serde(default, skip_serializing_if = "crate::worker::is_zero")]
        dropped_ms: f64,
    },
    /// The wake word alone (or the mic button: `manual`): the next
    /// utterance is a command.
    Wake {
        manual: bool,
        #[serde(flatten, skip_serializing_if = "Option::is_none")]
        heard: Option<Heard>,
    },
    /// What is heard so far of a command being spoken, every second.
    Partial {
        text: String,
        tokens: Vec<u32>,
        seconds: f32,
        /// The samples it heard (`echo`: tests).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        pcm: Option<Vec<f32>>,
    },
    /// A command to run.
    Command(CommandHeard),
    /// Answers [`ToWorker::HearGuided`]: the known command heard (without
    /// the wake phrase), or none if the audio says none convincingly; the
    /// words of the command it heard again (so a late answer is not taken
    /// for another command's); and the milliseconds it took.
    HeardGuided {
        command: Option<String>,
        #[serde(default)]
        said: String,
        ms: f64,
    },
    /// A model file downloading.
    Progress {
        model: String,
        file: String,
        /// Bytes so far, and of the whole file if the server said.
        loaded: u64,
        total: Option<u64>,
    },
    Error {
        error: Error,
        /// The request it answers, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
    },
    /// The installed models (answers `remove` and `installed`).
    Models {
        installed: Vec<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        request: Option<String>,
    },
    /// To the other worker: transcribe this command.
    Transcribe {
        id: u64,
        prompt: String,
        /// 16-kHz samples: a transferred `Float32Array` beside the JSON.
        #[serde(skip)]
        pcm: Vec<f32>,
    },
    /// To the other worker: [`ToWorker::Transcribed`].
    Transcribed(Transcribed),
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CommandHeard {
    pub text: String,
    #[serde(flatten)]
    pub heard: Heard,
    /// The wake phrase was only likely: not in the transcript but found
    /// by forcing it on the start of the audio, or spelled otherwise
    /// when the utterance was heard again for the command ("Hey Philova,
    /// are you coming tonight?"). Such an utterance is taken for us only
    /// if the interpreter can place the command: else it was room talk,
    /// and nothing is answered, cancelled or asked of a language model.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub wake_unsure: bool,
    /// Taken after the wake phrase, not the mic button or the keyboard
    /// shortcut (nor with the wake word turned off): maybe not said to us,
    /// so with no language model set up, words that name nothing of the
    /// tabs are room talk (see `ext_core::interpret::Plan::is_room_talk`).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub by_wake_phrase: bool,
    /// "command" when the command model's worker transcribed it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<String>,
    /// The command worker's memory after it (two workers).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command_memory_bytes: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
}

/// Where a worker stands.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Status {
    pub state: State,
    /// When a model is ready: passive or active.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mode: Option<String>,
    /// The model's name (loading, quantizing, ready).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_id: Option<String>,
    /// Loading and quantizing name the model here; ready gives its shape.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub load_ms: Option<f64>,
    /// bundled, cache, download or import.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub memory_bytes: Option<f64>,
    /// Ready: the model loaded beside it to check unsure guided hearings
    /// with (the bundled tiny.en beside any other model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub second_opinion: Option<String>,
    /// The request this answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub request: Option<String>,
    /// `connected`: which end this worker is.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub role: Option<WorkerRole>,
    /// Why the mode changed ("timeout").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    /// An utterance that was not for us.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub ignored: Option<bool>,
    /// `processing`: how long ago (ms) the audio that ended the utterance
    /// left the microphone, when the worker was busy (hearing a command
    /// during its pause) and came to it late. The end of speech a user
    /// waits from is this much before the message.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub behind_ms: Option<f64>,
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub heard: Option<Heard>,
}

impl Status {
    pub fn new(state: State) -> Self {
        Status {
            state,
            ..Default::default()
        }
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum State {
    /// The worker's message loop runs.
    #[default]
    Started,
    Loading,
    Quantizing,
    /// A model is loaded.
    Ready,
    Unloaded,
    /// Waiting for the wake word.
    Passive,
    /// Taking a command.
    Active,
    /// Transcribing an utterance.
    Processing,
    /// Connected to the other worker.
    Connected,
    /// (The background page's own) listening began…
    Listening,
    /// …and stopped.
    Stopped,
}

impl FromWorker {
    /// The message type, as written on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            FromWorker::Status(_) => "status",
            FromWorker::Listening => "listening",
            FromWorker::Level { .. } => "level",
            FromWorker::Wake { .. } => "wake",
            FromWorker::Partial { .. } => "partial",
            FromWorker::Command(_) => "command",
            FromWorker::HeardGuided { .. } => "heard_guided",
            FromWorker::Progress { .. } => "progress",
            FromWorker::Error { .. } => "error",
            FromWorker::Models { .. } => "models",
            FromWorker::Transcribe { .. } => "transcribe",
            FromWorker::Transcribed(_) => "transcribed",
        }
    }

    pub fn status(state: State) -> Self {
        FromWorker::Status(Status::new(state))
    }

    pub fn error(error: Error, request: Option<&str>) -> Self {
        FromWorker::Error {
            error,
            request: request.map(str::to_string),
        }
    }

    /// The request this message answers, if it answers one.
    pub fn answers(&self) -> Option<&str> {
        match self {
            FromWorker::Status(Status {
                state: State::Started,
                ..
            }) => Some("started"),
            FromWorker::Status(s) => s.request.as_deref(),
            FromWorker::Error { request, .. } | FromWorker::Models { request, .. } => {
                request.as_deref()
            }
            FromWorker::HeardGuided { .. } => Some("hear_guided"),
            _ => None,
        }
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn is_zero(x: &f64) -> bool {
    *x == 0.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn controls_read_as_they_are_written() {
        for message in [
            json!({"type": "configure", "voice": {"wakeWordEnabled": true, "wakePhrase": "hey fox",
                "activeTimeoutMs": 20000.0, "liveTranscript": true},
                "endSilencePassiveMs": 300, "endSilenceActiveMs": 700}),
            json!({"type": "vocabulary", "prompt": "YouTube, Gmail"}),
            json!({"type": "trigger"}),
            json!({"type": "echo", "audio": true}),
            json!({"type": "delegate", "on": false}),
            json!({"type": "load", "model": "tiny.en", "url": null, "quantize": true, "fast": false}),
            json!({"type": "remove", "model": "mine"}),
            json!({"type": "peer", "role": "listen"}),
            json!({"type": "audio", "rate": 48000.0}),
            json!({"type": "transcribe", "id": 3, "prompt": "Gmail"}),
            json!({"type": "cancel"}),
        ] {
            let control: ToWorker = serde_json::from_value(message.clone()).unwrap();
            assert_eq!(control.kind(), message["type"]);
            assert_eq!(control.to_json(), message);
        }
        // Settings the worker does not use are ignored, not refused.
        let whole = json!({"type": "configure", "confirmThreshold": 3, "llm": {"apiKey": "k"}});
        assert!(matches!(
            serde_json::from_value::<ToWorker>(whole).unwrap(),
            ToWorker::Configure { .. }
        ));
    }

    #[test]
    fn events_keep_their_wire_shape() {
        let heard = Heard {
            heard: "hey fox close youtube".into(),
            prompt: "hey fox".into(),
            tokens: vec![1, 2],
            seconds: 2.5,
            ..Default::default()
        };
        let command = FromWorker::Command(CommandHeard {
            text: "close youtube".into(),
            heard: heard.clone(),
            ..Default::default()
        });
        let wire = command.to_json();
        assert_eq!(wire["type"], "command");
        assert_eq!(wire["text"], "close youtube");
        assert_eq!(wire["heard"], "hey fox close youtube");
        assert_eq!(wire["tokens"], json!([1, 2]));
        assert!(wire.get("model").is_none());
        assert_eq!(serde_json::from_value::<FromWorker>(wire).unwrap(), command);

        let manual = FromWorker::Wake {
            manual: true,
            heard: None,
        };
        assert_eq!(manual.to_json(), json!({"type": "wake", "manual": true}));
        let ready = FromWorker::Status(Status {
            state: State::Ready,
            request: Some("load".into()),
            ..Default::default()
        });
        assert_eq!(ready.answers(), Some("load"));
        assert_eq!(
            ready.to_json(),
            json!({"type": "status", "state": "ready", "request": "load"})
        );
        assert_eq!(
            FromWorker::status(State::Started).answers(),
            Some("started")
        );
        let ignored = FromWorker::Status(Status {
            state: State::Passive,
            ignored: Some(true),
            heard: Some(heard),
            ..Default::default()
        });
        let wire = ignored.to_json();
        assert_eq!(wire["heard"], "hey fox close youtube");
        assert_eq!(serde_json::from_value::<FromWorker>(wire).unwrap(), ignored);
    }
}
