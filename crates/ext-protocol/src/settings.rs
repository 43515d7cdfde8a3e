//! What a person can set on the options page, with its defaults and
//! limits. Kept in `storage.local`; a change applies at once (the next
//! command, the next log write), no restart.

use crate::error::Error;
use crate::models;
use crate::text::clip;
use serde::{Deserialize, Serialize};
use serde_json::Value;

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct Settings {
    /// Closing more tabs than this asks first.
    pub confirm_threshold: usize,
    /// The action log keeps entries this many days…
    pub log_retention_days: u32,
    /// …and at most this many.
    pub log_max_entries: usize,
    pub voice: VoiceSettings,
    /// Silence that ends an utterance while waiting for the wake word…
    pub end_silence_passive_ms: u32,
    /// …and while taking a command.
    pub end_silence_active_ms: u32,
    /// Speech model: none, one of tiny, tiny.en, base and base.en, or the
    /// name of a model imported or downloaded from elsewhere.
    pub speech_model: String,
    /// A smaller model that listens for the wake word in a worker of its
    /// own (none: the speech model does both). Two workers use both cores.
    pub speech_wake_model: String,
    /// Quantized (q8_0) weights: a quarter of the memory, as fast or faster.
    pub speech_quantized: bool,
    /// Language spoken, for multilingual models ("en", "de", …).
    pub language: String,
    pub llm: LlmSettings,
}

/// The wake word and how listening behaves: what the speech worker's voice
/// session acts on (it gets them in [`ListenSettings`]).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct VoiceSettings {
    /// Without it every utterance is a command.
    pub wake_word_enabled: bool,
    pub wake_phrase: String,
    /// How long "hey fox" alone keeps listening for the command.
    pub active_timeout_ms: f64,
    /// Show what is heard of a command while it is spoken.
    pub live_transcript: bool,
}

impl Default for VoiceSettings {
    fn default() -> Self {
        Self {
            wake_word_enabled: true,
            wake_phrase: "hey fox".into(),
            active_timeout_ms: 20_000.0,
            live_transcript: true,
        }
    }
}

/// An optional language model for open-ended requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct LlmSettings {
    /// off, openai (any OpenAI-compatible server) or ollama.
    pub provider: String,
    pub base_url: String,
    pub model: String,
    pub api_key: String,
    pub temperature: f64,
    pub max_tokens: u32,
    /// With a provider: "fallback" (the interpreter first, the model for
    /// what it cannot place) or "always" (the model for every request).
    pub mode: String,
    /// Models to rotate through, best first (empty: `model` alone).
    pub models: Vec<String>,
    /// Calls a minute each model may take (0: no limit); beyond it the
    /// next model in `models` is asked.
    pub rpm: u32,
}

impl Default for Settings {
    fn default() -> Self {
        Self {
            confirm_threshold: 10,
            log_retention_days: 30,
            log_max_entries: 500,
            voice: VoiceSettings::default(),
            end_silence_passive_ms: 300,
            end_silence_active_ms: 700,
            speech_model: models::NONE.into(),
            speech_wake_model: models::NONE.into(),
            speech_quantized: true,
            language: "en".into(),
            llm: LlmSettings::default(),
        }
    }
}

impl Default for LlmSettings {
    fn default() -> Self {
        Self {
            provider: "off".into(),
            base_url: String::new(),
            model: String::new(),
            api_key: String::new(),
            temperature: 0.0,
            max_tokens: 512,
            mode: "fallback".into(),
            models: Vec::new(),
            rpm: 0,
        }
    }
}

const PROVIDERS: &[&str] = &["off", "openai", "ollama"];

impl Settings {
    /// These settings with `patch` (any subset of the fields, nested objects
    /// merged) applied, if the result is valid.
    pub fn merged(&self, patch: &Value) -> Result<Settings, Error> {
        if !patch.is_object() {
            return Err(Error::invalid("'settings' must be an object."));
        }
        let mut whole = serde_json::to_value(self).expect("settings serialize");
        merge(&mut whole, patch);
        let mut settings: Settings = serde_json::from_value(whole)
            .map_err(|e| Error::invalid(format!("Invalid settings: {e}.")))?;
        settings.validate()?;
        // A key goes only to the server it was saved for: moving to another
        // origin without a new key forgets it.
        let new_key = patch.pointer("/llm/apiKey").is_some();
        let before = origin(&self.llm.base_url);
        if !new_key && before.is_some() && before != origin(&settings.llm.base_url) {
            settings.llm.api_key.clear();
        }
        Ok(settings)
    }

    fn validate(&self) -> Result<(), Error> {
        let range = |name: &str, value: f64, low: f64, high: f64| {
            if (low..=high).contains(&value) {
                Ok(())
            } else {
                Err(Error::invalid(format!(
                    "'{name}' must be between {low} and {high}, not {value}."
                )))
            }
        };
        range(
            "confirmThreshold",
            self.confirm_threshold as f64,
            1.0,
            100.0,
        )?;
        range(
            "logRetentionDays",
            self.log_retention_days as f64,
            1.0,
            365.0,
        )?;
        range("logMaxEntries", self.log_max_entries as f64, 10.0, 5000.0)?;
        range(
            "endSilencePassiveMs",
            self.end_silence_passive_ms as f64,
            200.0,
            2000.0,
        )?;
        range(
            "endSilenceActiveMs",
            self.end_silence_active_ms as f64,
            300.0,
            3000.0,
        )?;
        range(
            "voice.activeTimeoutMs",
            self.voice.active_timeout_ms,
            3000.0,
            120_000.0,
        )?;
        range("llm.temperature", self.llm.temperature, 0.0, 2.0)?;
        range("llm.maxTokens", self.llm.max_tokens as f64, 1.0, 8192.0)?;
        let one_of = |name: &str, value: &str, allowed: &[&str]| {
            if allowed.contains(&value) {
                Ok(())
            } else {
                Err(Error::invalid(format!(
                    "'{name}' must be one of {}, not '{}'.",
                    allowed.join(", "),
                    clip(value, 40)
                )))
            }
        };
        for (name, model) in [
            ("speechModel", &self.speech_model),
            ("speechWakeModel", &self.speech_wake_model),
        ] {
            if !models::is_valid_id(model) {
                return Err(Error::invalid(format!(
                    "'{name}' must be none or a model name (letters, digits, '.', '-', '_'), not '{}'.",
                    clip(model, 40)
                )));
            }
        }
        one_of("llm.provider", &self.llm.provider, PROVIDERS)?;
        one_of("llm.mode", &self.llm.mode, &["fallback", "always"])?;
        range("llm.rpm", self.llm.rpm as f64, 0.0, 10_000.0)?;
        if self.llm.models.len() > 20
            || self
                .llm
                .models
                .iter()
                .any(|m| m.chars().count() > 200 || m.chars().any(char::is_control))
        {
            return Err(Error::invalid(
                "'llm.models' must be at most 20 model names of up to 200 characters.",
            ));
        }
        let phrase = self.voice.wake_phrase.trim();
        if phrase.is_empty() || phrase.chars().count() > 40 {
            return Err(Error::invalid(
                "'voice.wakePhrase' must be 1 to 40 characters.",
            ));
        }
        let language = &self.language;
        if !(2..=3).contains(&language.len()) || !language.chars().all(|c| c.is_ascii_lowercase()) {
            return Err(Error::invalid(format!(
                "'language' must be a language code like 'en', not '{}'.",
                clip(language, 20)
            )));
        }
        // Empty is allowed, so a provider can be chosen before its
        // address is typed ("Test connection" says what is missing).
        let url = self.llm.base_url.trim();
        if !(url.is_empty() || url.starts_with("http://") || url.starts_with("https://")) {
            return Err(Error::invalid(
                "'llm.baseUrl' must be an http:// or https:// address.",
            ));
        }
        if url.starts_with("http://") && !is_loopback(url) {
            return Err(Error::invalid(
                "'llm.baseUrl': plain http:// is only for a server on this computer \
                 (localhost, 127.0.0.1); use https:// for others, so that the key and \
                 your tabs are not sent in the clear.",
            ));
        }
        Ok(())
    }

    pub fn log_max_age_ms(&self) -> f64 {
        self.log_retention_days as f64 * 24.0 * 3600.0 * 1000.0
    }
}

/// `scheme://host[:port]` of an http(s) address, lowercased (the default
/// port left out); `None` if it is not one.
pub fn origin(url: &str) -> Option<String> {
    let url = url.trim();
    let (scheme, rest) = url.split_once("://")?;
    let scheme = scheme.to_ascii_lowercase();
    if scheme != "http" && scheme != "https" {
        return None;
    }
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    // Credentials before '@' are not part of the origin.
    let host_port = authority
        .rsplit('@')
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    if host_port.is_empty() {
        return None;
    }
    let default = if scheme == "http" { ":80" } else { ":443" };
    let host_port = host_port.strip_suffix(default).unwrap_or(&host_port);
    Some(format!("{scheme}://{host_port}"))
}

/// Whether an http(s) address is on this computer.
pub fn is_loopback(url: &str) -> bool {
    let Some(origin) = origin(url) else {
        return false;
    };
    let host_port = origin.split_once("://").map(|(_, h)| h).unwrap_or_default();
    let host = if let Some(v6) = host_port.strip_prefix('[') {
        v6.split(']').next().unwrap_or_default()
    } else {
        host_port.split(':').next().unwrap_or_default()
    };
    host == "localhost"
        || host.ends_with(".localhost")
        || host == "::1"
        || host.strip_prefix("127.").is_some_and(|rest| {
            rest.split('.').count() == 3 && rest.split('.').all(|p| p.parse::<u8>().is_ok())
        })
}

impl LlmSettings {
    /// These settings as "Test connection" uses them: `shown` (what the
    /// options page shows, saved or not) over them, with the saved key only
    /// if the address is still the origin it was saved for.
    pub fn with_shown(&self, shown: Option<&Value>) -> LlmSettings {
        let mut whole = serde_json::to_value(self).unwrap_or_default();
        let mut shown = shown.filter(|s| s.is_object()).cloned().unwrap_or_default();
        let typed_key = shown
            .get("apiKey")
            .and_then(Value::as_str)
            .is_some_and(|k| !k.trim().is_empty());
        if let Some(object) = shown.as_object_mut() {
            if !typed_key {
                object.remove("apiKey");
            }
        }
        merge(&mut whole, &shown);
        let mut settings: LlmSettings = serde_json::from_value(whole).unwrap_or_default();
        if !typed_key && origin(&settings.base_url) != origin(&self.base_url) {
            settings.api_key.clear();
        }
        settings
    }
}

/// Merges `patch` into `target`: objects key by key, anything else replaced.
/// `patch` written over `target`, objects merged key by key.
pub fn merge(target: &mut Value, patch: &Value) {
    match (target, patch) {
        (Value::Object(t), Value::Object(p)) => {
            for (k, v) in p {
                merge(t.entry(k.clone()).or_insert(Value::Null), v);
            }
        }
        (t, p) => *t = p.clone(),
    }
}

/// What a speech worker needs of the settings: how listening behaves, and
/// nothing else (no address, no key).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct ListenSettings {
    pub voice: VoiceSettings,
    pub end_silence_passive_ms: u32,
    pub end_silence_active_ms: u32,
}

impl Default for ListenSettings {
    fn default() -> Self {
        Settings::default().listen()
    }
}

impl Settings {
    /// The part of the settings a speech worker is given.
    pub fn listen(&self) -> ListenSettings {
        ListenSettings {
            voice: self.voice.clone(),
            end_silence_passive_ms: self.end_silence_passive_ms,
            end_silence_active_ms: self.end_silence_active_ms,
        }
    }

    /// The separate wake-word model, if any: none, or the speech model
    /// itself, means one worker does both.
    pub fn wake_model(&self) -> Option<&str> {
        let wake = self.speech_wake_model.as_str();
        (wake != models::NONE && wake != self.speech_model).then_some(wake)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_patch_changes_only_what_it_names() {
        let s = Settings::default()
            .merged(&json!({"confirmThreshold": 20, "voice": {"wakePhrase": "computer"}}))
            .unwrap();
        assert_eq!(s.confirm_threshold, 20);
        assert_eq!(s.voice.wake_phrase, "computer");
        assert!(s.voice.wake_word_enabled, "untouched");
        assert_eq!(s.log_retention_days, 30);
    }

    #[test]
    fn bad_values_and_unknown_names_are_refused_with_reasons() {
        let d = Settings::default();
        for (patch, says) in [
            (json!({"confirmThreshold": 0}), "between 1 and 100"),
            (json!({"confirmThreshold": "ten"}), "Invalid settings"),
            (
                json!({"speechModel": "../large"}),
                "must be none or a model name",
            ),
            (json!({"voice": {"wakePhrase": "  "}}), "1 to 40"),
            (json!({"llm": {"baseUrl": "localhost:11434"}}), "baseUrl"),
            (json!({"language": "English"}), "language code"),
            (json!({"colour": "red"}), "unknown field"),
            (json!("all"), "must be an object"),
        ] {
            let e = d.merged(&patch).unwrap_err();
            assert!(e.message.contains(says), "{patch}: {}", e.message);
        }
        let ok = d
            .merged(&json!({"llm": {"provider": "ollama", "baseUrl": "http://127.0.0.1:11434"}}))
            .unwrap();
        assert_eq!(ok.llm.provider, "ollama");
        // A provider first, its address after.
        let first = d.merged(&json!({"llm": {"provider": "openai"}})).unwrap();
        assert_eq!(first.llm.base_url, "");
    }

    #[test]
    fn origins_and_loopback() {
        assert_eq!(
            origin("HTTPS://Api.OpenAI.com/v1").as_deref(),
            Some("https://api.openai.com")
        );
        assert_eq!(
            origin("https://api.openai.com:443/v1"),
            origin("https://api.openai.com/v2")
        );
        assert_eq!(
            origin("http://u:p@127.0.0.1:8080/x").as_deref(),
            Some("http://127.0.0.1:8080")
        );
        assert_ne!(
            origin("http://127.0.0.1:8080"),
            origin("http://127.0.0.1:8081")
        );
        assert_ne!(origin("http://localhost"), origin("https://localhost"));
        assert_eq!(origin("ftp://x"), None);
        assert_eq!(origin("localhost:11434"), None);
        for url in [
            "http://localhost:11434",
            "http://127.0.0.1",
            "http://127.1.2.3:5/v1",
            "http://[::1]:8000/v1",
            "http://a.localhost",
        ] {
            assert!(is_loopback(url), "{url}");
        }
        for url in [
            "http://192.168.1.5:11434",
            "http://localhost.evil.com",
            "http://127.0.0.1.evil.com",
            "http://evil.com/127.0.0.1",
            "http://evil@x.com",
        ] {
            assert!(!is_loopback(url), "{url}");
        }
    }

    #[test]
    fn the_key_goes_only_to_the_origin_it_was_saved_for() {
        let saved = Settings::default()
            .merged(&json!({"llm": {"provider": "openai", "baseUrl": "https://api.one.example/v1", "apiKey": "sk-1"}}))
            .unwrap();
        // Test connection with what the page shows.
        let same = saved.llm.with_shown(Some(
            &json!({"baseUrl": "https://api.one.example/v1", "apiKey": ""}),
        ));
        assert_eq!(same.api_key, "sk-1", "an empty field keeps the saved key");
        let other = saved
            .llm
            .with_shown(Some(&json!({"baseUrl": "https://api.two.example/v1"})));
        assert_eq!(other.api_key, "", "never to another origin");
        let typed = saved.llm.with_shown(Some(
            &json!({"baseUrl": "https://api.two.example/v1", "apiKey": "sk-2"}),
        ));
        assert_eq!(typed.api_key, "sk-2");
        // Saving another origin without a new key forgets the old one.
        let moved = saved
            .merged(&json!({"llm": {"baseUrl": "https://api.two.example/v1"}}))
            .unwrap();
        assert_eq!(moved.llm.api_key, "");
        let path = saved
            .merged(&json!({"llm": {"baseUrl": "https://api.one.example/v2"}}))
            .unwrap();
        assert_eq!(path.llm.api_key, "sk-1", "the same origin keeps it");
        // What the speech workers are sent never carries it.
        let to_workers = serde_json::to_string(&saved.listen()).unwrap();
        assert!(!to_workers.contains("sk-1"), "{to_workers}");
        // Plain http only to this computer.
        let e = saved
            .merged(&json!({"llm": {"baseUrl": "http://192.168.1.5:11434"}}))
            .unwrap_err();
        assert!(e.message.contains("plain http"), "{}", e.message);
        assert!(saved
            .merged(&json!({"llm": {"baseUrl": "http://localhost:11434"}}))
            .is_ok());
        // Answers never carry it.
        let answer = serde_json::to_string(&crate::answer::SettingsAnswer::of(&saved)).unwrap();
        assert!(
            !answer.contains("sk-1") && answer.contains("\"hasKey\":true"),
            "{answer}"
        );
    }

    #[test]
    fn workers_get_only_how_to_listen() {
        let mut s = Settings::default();
        s.llm.api_key = "secret".into();
        let listen = serde_json::to_string(&s.listen()).unwrap();
        assert!(!listen.contains("secret"), "{listen}");
        assert_eq!(s.listen().voice.wake_phrase, "hey fox");
        assert_eq!(ListenSettings::default(), s.listen());
        s.speech_model = "base.en".into();
        assert_eq!(s.wake_model(), None);
        s.speech_wake_model = "tiny.en".into();
        assert_eq!(s.wake_model(), Some("tiny.en"));
        s.speech_wake_model = "base.en".into();
        assert_eq!(s.wake_model(), None, "the same model: one worker");
    }

    #[test]
    fn stored_settings_from_an_older_version_fill_in_defaults() {
        let s: Settings = serde_json::from_value(json!({"confirmThreshold": 5})).unwrap();
        assert_eq!(s.confirm_threshold, 5);
        assert_eq!(s.log_max_entries, 500);
    }
}
