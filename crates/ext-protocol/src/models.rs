//! The speech models the extension knows by name: offered on the options
//! page, downloaded from the Hugging Face hub by default, and allowed in
//! the settings. Any other name is a model imported or downloaded from an
//! address the person gave.

use crate::error::Error;
use serde::Serialize;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SpeechModel {
    /// The hub's name after `openai/whisper-`, and the settings' value.
    pub id: &'static str,
    /// The `_locales` key of its label on the options page…
    pub label_key: &'static str,
    /// …and the label where there is no translation.
    pub label: &'static str,
    /// English-only models (`.en`) hear English better at the same size.
    pub english_only: bool,
}

/// The known models, smallest first.
pub const SPEECH_MODELS: &[SpeechModel] = &[
    SpeechModel {
        id: "tiny.en",
        label_key: "modelTinyEn",
        label: "Tiny, English",
        english_only: true,
    },
    SpeechModel {
        id: "tiny",
        label_key: "modelTiny",
        label: "Tiny, multilingual",
        english_only: false,
    },
    SpeechModel {
        id: "base.en",
        label_key: "modelBaseEn",
        label: "Base, English",
        english_only: true,
    },
    SpeechModel {
        id: "base",
        label_key: "modelBase",
        label: "Base, multilingual",
        english_only: false,
    },
];

/// The settings' value for "no model".
pub const NONE: &str = "none";

/// Whether `id` is one of [`SPEECH_MODELS`].
pub fn is_known(id: &str) -> bool {
    SPEECH_MODELS.iter().any(|m| m.id == id)
}

/// Where a known model is downloaded from when no address is given.
pub fn default_source(id: &str) -> Option<String> {
    is_known(id).then(|| format!("https://huggingface.co/openai/whisper-{id}/resolve/main/"))
}

/// Whether `id` can name a model: it names a directory and a cache key, so
/// letters, digits, `.`, `-`, `_`, at most 64, not starting with a dot.
pub fn is_valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= 64
        && !id.starts_with('.')
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'))
}

/// [`is_valid_id`], as an error that says why.
pub fn check_id(id: &str) -> Result<(), Error> {
    if is_valid_id(id) {
        Ok(())
    } else {
        Err(Error::invalid(format!(
            "{id:?} is not a model name: use letters, digits, '.', '-' and '_'"
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_models_have_valid_unique_ids_and_a_hub_source() {
        for (i, m) in SPEECH_MODELS.iter().enumerate() {
            assert!(is_valid_id(m.id), "{}", m.id);
            assert!(SPEECH_MODELS[..i].iter().all(|o| o.id != m.id));
            assert_eq!(m.english_only, m.id.ends_with(".en"));
            assert!(default_source(m.id).unwrap().ends_with("/resolve/main/"));
        }
        assert_eq!(default_source("mine"), None);
        for bad in ["", ".hidden", "../large", "a b", &"x".repeat(65)] {
            assert!(check_id(bad).is_err(), "{bad}");
        }
    }
}
