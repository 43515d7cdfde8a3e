//! What the background page answers each [`crate::Request`]. Every answer
//! is an object with `ok`; a failure carries `error: {code, message}`.
//! Optional fields are left out when unset, as they always were on the
//! wire; reading is lenient (missing fields take their defaults), so an
//! answer from an older or newer version still reads.

use crate::error::Error;
use crate::log::{Call, LogEntry, LoggedCall};
use crate::settings::Settings;
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// `{ok: false, error}`: any request that failed before it could do
/// anything of its own.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Failure {
    pub ok: bool,
    pub error: Error,
}

impl Failure {
    pub fn new(error: Error) -> Self {
        Failure { ok: false, error }
    }

    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

/// `tool`: `{ok: true, result, undo_id?}` or a [`Failure`].
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ToolAnswer {
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_id: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
}

impl ToolAnswer {
    pub fn failed(error: Error) -> Self {
        ToolAnswer {
            ok: false,
            error: Some(error),
            ..Default::default()
        }
    }
}

/// `command` (and `undo`, and a command that says "undo"): what ran and
/// what it says.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct CommandAnswer {
    pub ok: bool,
    pub reply: String,
    /// What ran, with results.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub calls: Option<Vec<LoggedCall>>,
    /// Everything that was planned (a run that stopped part way shows
    /// what it did not get to; a question shows what "yes" would run).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub plan: Option<Vec<Call>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub needs_confirmation: Option<bool>,
    /// A risky plan waits for "yes": what to ask.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// "No", or anything but "yes", cancelled a waiting plan.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_id: Option<String>,
    /// What an undo restored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub report: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<Error>,
    /// Spoken words that were not for us after all: the wake phrase was
    /// only likely, and the interpreter cannot place what followed.
    /// Nothing ran, nothing is answered, and a question waiting for "yes"
    /// still waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub not_for_us: Option<bool>,
    /// "stop listening": whoever listens stops (the voice, if on).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop_listening: Option<bool>,
}

impl CommandAnswer {
    /// See [`CommandAnswer::not_for_us`].
    pub fn not_for_us() -> Self {
        CommandAnswer {
            ok: true,
            calls: Some(vec![]),
            not_for_us: Some(true),
            ..Default::default()
        }
    }

    /// A command that did nothing, and why.
    pub fn refused(error: Error) -> Self {
        CommandAnswer {
            ok: false,
            reply: error.message.clone(),
            calls: Some(vec![]),
            error: Some(error),
            ..Default::default()
        }
    }

    /// A request that could not even start (stored data unreadable).
    pub fn failed(error: Error) -> Self {
        CommandAnswer {
            ok: false,
            reply: error.message.clone(),
            error: Some(error),
            ..Default::default()
        }
    }

    /// A command that did nothing and needed to do nothing.
    pub fn replied(reply: impl Into<String>) -> Self {
        CommandAnswer {
            ok: true,
            reply: reply.into(),
            calls: Some(vec![]),
            ..Default::default()
        }
    }

    /// The calls that ran (none if none did).
    pub fn calls(&self) -> &[LoggedCall] {
        self.calls.as_deref().unwrap_or_default()
    }
}

/// `schemas`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SchemasAnswer {
    pub ok: bool,
    pub schemas: Vec<Value>,
}

/// `log`: newest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LogAnswer {
    pub ok: bool,
    pub entries: Vec<LogEntry>,
}

/// `settings` and `set_settings`. The API key is never sent back (its
/// field is empty); `hasKey` says whether one is saved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SettingsAnswer {
    pub ok: bool,
    pub settings: Settings,
    pub has_key: bool,
    /// What the user should know about stored data: something could not be
    /// read (and was kept aside) or saved.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub notices: Vec<String>,
}

impl SettingsAnswer {
    pub fn of(settings: &Settings) -> Self {
        let mut shown = settings.clone();
        shown.llm.api_key.clear();
        SettingsAnswer {
            ok: true,
            settings: shown,
            has_key: !settings.llm.api_key.trim().is_empty(),
            notices: Vec::new(),
        }
    }
}

/// `{ok: true}` and nothing else (`clear_log`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Done {
    pub ok: bool,
}

/// `agent_stop`: whether a language-model turn was under way.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Stopped {
    pub ok: bool,
    pub stopped: bool,
}

/// `llm_test`: whether the language-model server answers, with its models.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct LlmTestAnswer {
    pub ok: bool,
    pub reply: String,
    pub models: Vec<String>,
    pub count: usize,
    pub model_found: bool,
}

/// Which worker holds a model: the listening one, or (with a separate
/// wake-word model) the command model's.
pub use crate::worker::WorkerRole;

/// `voice_start`, `voice_stop`, `voice_trigger`, `voice_toggle` and
/// `voice_status`: where listening stands.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceStatus {
    pub ok: bool,
    pub listening: bool,
    /// passive (waiting for the wake word) or active (taking a command).
    pub mode: String,
    /// The command model.
    pub model: Option<String>,
    /// The separate wake-word model, with two workers.
    pub wake_model: Option<String>,
    pub workers: u8,
    pub memory_bytes: WorkerMemory,
    /// The input level over the last 100 ms.
    pub level_db: Option<f64>,
    /// The microphone as Firefox opened it, while listening to one.
    pub microphone: Option<MicrophoneSettings>,
    /// The latest worker events, oldest first, each stamped `at_ms`.
    pub events: Vec<Value>,
}

/// The microphone's processing: what the add-on asked of Firefox
/// (`MediaStreamTrack.getConstraints()`) and what Firefox says it applies
/// (`getSettings()`; a fake or plain device may say false to everything).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MicrophoneSettings {
    pub asked: MicrophoneProcessing,
    pub applied: MicrophoneProcessing,
    pub sample_rate: Option<f64>,
}

/// Firefox's processing of the microphone's sound; `None` where unsaid.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct MicrophoneProcessing {
    pub noise_suppression: Option<bool>,
    pub auto_gain_control: Option<bool>,
    pub echo_cancellation: Option<bool>,
}

/// Each worker's wasm memory, as it last said.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct WorkerMemory {
    pub listen: Option<f64>,
    pub command: Option<f64>,
}

/// `voice_source`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceSourceAnswer {
    pub ok: bool,
    pub audio_url: Option<String>,
}

/// `model_install` and `model_import`: the model loaded and chosen.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelLoaded {
    pub ok: bool,
    pub model: Option<String>,
    pub worker: Option<WorkerRole>,
    /// bundled, cache, download or import.
    pub source: Option<String>,
    pub load_ms: Option<f64>,
    /// `{multilingual, vocab_size, d_model, encoder_layers, decoder_layers}`.
    pub shape: Option<Value>,
    pub memory_bytes: Option<f64>,
    /// The model loaded beside it to check unsure guided hearings with.
    pub second_opinion: Option<String>,
}

/// `model_list` and `model_remove`.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ModelsAnswer {
    pub ok: bool,
    pub installed: Vec<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub loaded: Option<Option<String>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub wake_loaded: Option<Option<String>>,
}

/// Any answer, read for what every answer has: whether it worked, and if
/// not, why.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(default)]
pub struct Outcome {
    pub ok: bool,
    pub error: Option<Error>,
}

/// An answer as JSON (what the message listener returns).
pub fn to_json<T: Serialize>(answer: &T) -> Value {
    serde_json::to_value(answer).unwrap_or(Value::Null)
}
