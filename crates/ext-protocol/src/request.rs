//! What the popup, the options page, keyboard shortcuts and tests ask the
//! background page: `browser.runtime.sendMessage({type, ...})`. Each
//! variant's answer is in [`crate::answer`]; docs/tools.md lists them all
//! (a test checks that it does).

use crate::text::clip;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Request {
    /// Runs one tool directly: `{ok, result, undo_id?}`.
    Tool {
        name: String,
        #[serde(default)]
        args: Value,
    },
    /// A typed or spoken command, through the offline interpreter. A
    /// spoken one (`spoken: true`) may be mended where Whisper misheard it.
    Command {
        text: String,
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        spoken: bool,
        /// Spoken: the known command the audio most likely says, tried
        /// when `text` means nothing.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        guided: Option<String>,
        /// Spoken: the wake phrase was only likely (see
        /// `worker::CommandHeard::wake_unsure`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        wake_unsure: bool,
        /// Spoken after the wake phrase (see
        /// `worker::CommandHeard::by_wake_phrase`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        by_wake_phrase: bool,
    },
    /// Reverts the newest change, or the one named.
    Undo {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        undo_id: Option<String>,
    },
    /// Every tool's function-calling schema.
    Schemas,
    /// The action log, newest first.
    Log {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        limit: Option<u64>,
    },
    ClearLog,
    Settings,
    /// Any subset of the settings; nested objects are merged.
    SetSettings {
        #[serde(default)]
        settings: Value,
    },
    /// Asks the language-model server for its models, with `llm`'s fields
    /// over the saved ones.
    LlmTest {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        llm: Option<Value>,
    },
    /// The popup's Stop: ends the language-model turn under way (what it
    /// did stays, as its undo step). `{ok, stopped}`: whether one was.
    AgentStop,
    /// Starts listening: the microphone, or a sound file.
    VoiceStart(#[serde(default)] VoiceSource),
    /// Finishes the utterance under way and stops listening.
    VoiceStop,
    /// The mic button: listen, and take the next utterance as a command.
    VoiceTrigger(#[serde(default)] VoiceSource),
    /// Alt+Shift+L: stop when listening, else as `voice_trigger`.
    VoiceToggle(#[serde(default)] VoiceSource),
    VoiceStatus,
    /// The sound file listening plays when it starts without one (tests
    /// and demos drive the mic button with it); no file: the microphone.
    VoiceSource(#[serde(default)] VoiceSource),
    /// Finds (bundled, cached) or downloads a model, loads it and makes it
    /// the speech model.
    ModelInstall {
        model: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        url: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        quantize: Option<bool>,
    },
    /// The same from files: their bytes travel beside this (as the
    /// `config`, `tokenizer` and `weights` ArrayBuffers of the message),
    /// which JSON cannot carry.
    ModelImport {
        model: String,
        #[serde(default)]
        quantize: bool,
    },
    /// Development only (a temporarily installed add-on, as the tests
    /// install it): panics in the background page while it holds its lock,
    /// to show that it recovers. Refused in a normal install.
    DebugPanic,
    /// Development only, as `debug_panic`: the listening speech worker
    /// traps, to show that it is restarted with its model.
    DebugWorkerTrap,
    ModelRemove {
        model: String,
    },
    ModelList,
}

/// Where listening takes its sound from: the microphone by default, or a
/// sound file played through the same AudioContext and worklet.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct VoiceSource {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub audio_url: Option<String>,
    /// The AudioContext's rate (the device's by default).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sample_rate: Option<f64>,
    /// Each utterance's 16-kHz samples in its event (tests).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub echo_audio: Option<bool>,
}

impl VoiceSource {
    /// A sound file is only taken from the add-on itself (`extension_origin`,
    /// `moz-extension://<uuid>/`) or a server on this computer: the hook
    /// that tests, the demo and the bench use never fetches other sites.
    pub fn check_audio_url(&self, extension_origin: &str) -> Result<(), crate::Error> {
        let Some(url) = self.audio_url.as_deref().filter(|u| !u.is_empty()) else {
            return Ok(());
        };
        // `is_loopback` holds only for http(s) addresses.
        if crate::sender::is_under(url, extension_origin) || crate::settings::is_loopback(url) {
            Ok(())
        } else {
            Err(crate::Error::refused(format!(
                "audio_url must be a file in the add-on or on this computer (localhost), not '{}'.",
                clip(url, 80)
            )))
        }
    }

    /// This source with `fallback`'s fields where it has none.
    pub fn or(&self, fallback: &VoiceSource) -> VoiceSource {
        VoiceSource {
            audio_url: self
                .audio_url
                .clone()
                .or_else(|| fallback.audio_url.clone()),
            sample_rate: self.sample_rate.or(fallback.sample_rate),
            echo_audio: self.echo_audio.or(fallback.echo_audio),
        }
    }
}

impl Request {
    /// Every message type, as written on the wire.
    pub const TYPES: &'static [&'static str] = &[
        "tool",
        "command",
        "undo",
        "schemas",
        "log",
        "clear_log",
        "settings",
        "set_settings",
        "llm_test",
        "agent_stop",
        "voice_start",
        "voice_stop",
        "voice_trigger",
        "voice_toggle",
        "voice_status",
        "voice_source",
        "model_install",
        "model_import",
        "model_remove",
        "model_list",
        "debug_panic",
        "debug_worker_trap",
    ];

    /// Reads a message, saying clearly what is wrong with a bad one.
    pub fn parse(message: &Value) -> Result<Request, crate::Error> {
        let Some(object) = message.as_object() else {
            return Err(crate::Error::invalid(
                "A message must be an object with a 'type'.",
            ));
        };
        let kind = match object.get("type") {
            Some(Value::String(s)) => s.as_str(),
            Some(_) => {
                return Err(crate::Error::invalid(
                    "A message's 'type' must be a string.",
                ))
            }
            None => return Err(crate::Error::invalid("The message has no 'type'.")),
        };
        if !Self::TYPES.contains(&kind) {
            return Err(crate::Error::unknown(format!(
                "Unknown message type '{}'. Types: {}.",
                clip(kind, 40),
                Self::TYPES.join(", ")
            )));
        }
        serde_json::from_value(message.clone())
            .map_err(|e| crate::Error::invalid(format!("A '{kind}' message: {e}.")))
    }

    /// The message type, as written on the wire.
    pub fn kind(&self) -> &'static str {
        match self {
            Request::Tool { .. } => "tool",
            Request::Command { .. } => "command",
            Request::Undo { .. } => "undo",
            Request::Schemas => "schemas",
            Request::Log { .. } => "log",
            Request::ClearLog => "clear_log",
            Request::Settings => "settings",
            Request::SetSettings { .. } => "set_settings",
            Request::LlmTest { .. } => "llm_test",
            Request::AgentStop => "agent_stop",
            Request::VoiceStart(_) => "voice_start",
            Request::VoiceStop => "voice_stop",
            Request::VoiceTrigger(_) => "voice_trigger",
            Request::VoiceToggle(_) => "voice_toggle",
            Request::VoiceStatus => "voice_status",
            Request::VoiceSource(_) => "voice_source",
            Request::ModelInstall { .. } => "model_install",
            Request::ModelImport { .. } => "model_import",
            Request::ModelRemove { .. } => "model_remove",
            Request::ModelList => "model_list",
            Request::DebugPanic => "debug_panic",
            Request::DebugWorkerTrap => "debug_worker_trap",
        }
    }

    /// Whether the voice coordinator answers it (rather than the tools,
    /// interpreter, log and settings).
    pub fn is_voice(&self) -> bool {
        let kind = self.kind();
        kind.starts_with("voice_") || kind.starts_with("model_")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_type_round_trips_with_its_wire_name() {
        let examples = [
            json!({"type": "tool", "name": "list_tabs", "args": {}}),
            json!({"type": "command", "text": "close youtube"}),
            json!({"type": "undo"}),
            json!({"type": "undo", "undo_id": "undo-1"}),
            json!({"type": "schemas"}),
            json!({"type": "log", "limit": 5}),
            json!({"type": "clear_log"}),
            json!({"type": "settings"}),
            json!({"type": "set_settings", "settings": {"confirmThreshold": 3}}),
            json!({"type": "llm_test", "llm": {"provider": "ollama"}}),
            json!({"type": "agent_stop"}),
            json!({"type": "voice_start", "audio_url": "a.wav", "sample_rate": 48000.0}),
            json!({"type": "voice_stop"}),
            json!({"type": "voice_trigger"}),
            json!({"type": "voice_toggle"}),
            json!({"type": "voice_status"}),
            json!({"type": "voice_source", "audio_url": "a.wav"}),
            json!({"type": "model_install", "model": "tiny.en"}),
            json!({"type": "model_import", "model": "mine", "quantize": false}),
            json!({"type": "model_remove", "model": "mine"}),
            json!({"type": "model_list"}),
            json!({"type": "debug_panic"}),
            json!({"type": "debug_worker_trap"}),
        ];
        let mut seen = std::collections::BTreeSet::new();
        for example in examples {
            let request = Request::parse(&example).unwrap();
            assert_eq!(example["type"], request.kind());
            seen.insert(request.kind());
            assert_eq!(serde_json::to_value(&request).unwrap(), example);
        }
        assert_eq!(seen.len(), Request::TYPES.len());
    }

    #[test]
    fn fields_beside_the_json_are_left_to_whoever_reads_them() {
        // A model import's files (ArrayBuffers, `{}` once stringified).
        let import = json!({"type": "model_import", "model": "mine", "config": {}, "weights": {}});
        assert_eq!(
            Request::parse(&import).unwrap(),
            Request::ModelImport {
                model: "mine".into(),
                quantize: false
            }
        );
    }

    #[test]
    fn bad_messages_say_what_is_wrong() {
        for (message, code, says) in [
            (json!("close"), "INVALID_ARGS", "must be an object"),
            (json!({"text": "x"}), "INVALID_ARGS", "no 'type'"),
            (json!({"type": 3}), "INVALID_ARGS", "must be a string"),
            (
                json!({"type": "fly"}),
                "UNKNOWN_COMMAND",
                "Unknown message type 'fly'",
            ),
            (
                json!({"type": "command"}),
                "INVALID_ARGS",
                "missing field `text`",
            ),
            (
                json!({"type": "command", "text": 3}),
                "INVALID_ARGS",
                "'command'",
            ),
            (
                json!({"type": "undo", "undo_id": 3}),
                "INVALID_ARGS",
                "'undo'",
            ),
        ] {
            let e = Request::parse(&message).unwrap_err();
            assert_eq!(e.code.as_str(), code, "{message}");
            assert!(e.message.contains(says), "{message}: {}", e.message);
        }
    }
}

#[cfg(test)]
mod audio_url_tests {
    use super::VoiceSource;

    #[test]
    fn sound_files_come_only_from_the_add_on_or_this_computer() {
        let origin = "moz-extension://6f1d2a3b/";
        let source = |url: &str| VoiceSource {
            audio_url: Some(url.into()),
            ..Default::default()
        };
        for ok in [
            "moz-extension://6f1d2a3b/demo/close.wav",
            "http://127.0.0.1:8080/command.wav",
            "http://localhost/x.wav",
        ] {
            assert!(source(ok).check_audio_url(origin).is_ok(), "{ok}");
        }
        for bad in [
            "https://evil.example/x.wav",
            "http://127.0.0.1.evil.example/x.wav",
            "moz-extension://other-uuid/x.wav",
            "moz-extension://6f1d2a3b.evil/x.wav",
            "file:///etc/passwd",
            "data:audio/wav;base64,AAAA",
            "demo/close.wav",
        ] {
            let e = source(bad).check_audio_url(origin).unwrap_err();
            assert!(e.message.contains("audio_url"), "{bad}: {}", e.message);
        }
        assert!(
            VoiceSource::default().check_audio_url(origin).is_ok(),
            "the microphone"
        );
    }
}
