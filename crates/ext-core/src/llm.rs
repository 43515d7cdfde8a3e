//! The optional language model's connection check (the options page's
//! "Test connection"): which address to ask for the server's models, and
//! what its answer means. Pure logic; `web::llm` does the fetch.

use crate::error::{ToolError, ToolResult};
use crate::settings::LlmSettings;
use serde_json::{json, Value};

/// The request that lists a server's models.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    pub url: String,
    /// `Authorization`, when there is an API key.
    pub authorization: Option<String>,
}

/// How the server is asked: `GET {base}/models` for OpenAI-compatible
/// servers, `GET {base}/api/tags` for Ollama.
pub fn probe(settings: &LlmSettings) -> ToolResult<Probe> {
    let path = match settings.provider.as_str() {
        "openai" => "/models",
        "ollama" => "/api/tags",
        _ => {
            return Err(ToolError::invalid(
                "Choose a language-model provider (OpenAI-compatible or Ollama) first.",
            ))
        }
    };
    let base = checked_base(settings)?;
    let key = settings.api_key.trim();
    Ok(Probe {
        url: format!("{base}{path}"),
        authorization: (!key.is_empty()).then(|| format!("Bearer {key}")),
    })
}

/// The server's base URL without its last slash, if it may be asked:
/// http(s), and plain http only on this computer.
pub fn checked_base(settings: &LlmSettings) -> ToolResult<String> {
    let base = settings.base_url.trim().trim_end_matches('/');
    if !(base.starts_with("http://") || base.starts_with("https://")) || base.len() < 10 {
        return Err(ToolError::invalid(
            "Enter the server's base URL, starting with http:// or https:// \
             (for example https://api.openai.com/v1 or http://localhost:11434).",
        ));
    }
    if base.starts_with("http://") && !crate::settings::is_loopback(base) {
        return Err(ToolError::invalid(
            "Plain http:// is only for a server on this computer (localhost, 127.0.0.1); \
             use https:// for others.",
        ));
    }
    Ok(base.to_string())
}

/// Why a language-model server's HTTP status means no answer, if it does
/// (for Test connection and the agent alike).
pub fn check_status(settings: &LlmSettings, url: &str, status: u16) -> ToolResult<()> {
    match status {
        200..=299 => Ok(()),
        // Ollama has no keys: a 403 is its refusal of other origins.
        403 if settings.provider == "ollama" => Err(ToolError::refused(
            "Ollama refused the extension (403): it only answers pages it is told to. \
             Set OLLAMA_ORIGINS=moz-extension://* in Ollama's environment and restart it.",
        )),
        401 | 403 if settings.api_key.trim().is_empty() => Err(ToolError::refused(format!(
            "The server wants an API key ({status}): enter one."
        ))),
        401 | 403 => Err(ToolError::refused(format!(
            "The server refused the API key ({status}). Check the key."
        ))),
        429 | 500..=599 => Err(ToolError::failed(format!(
            "The server is busy or failing ({status}); try again later."
        ))),
        _ => Err(ToolError::failed(format!(
            "The server answered {status} at {url}. Check the base URL and the model."
        ))),
    }
}

/// What the server's answer to [`probe`] says: the models it offers and
/// whether the one configured is among them, or why it failed.
pub fn read_models(
    settings: &LlmSettings,
    url: &str,
    status: u16,
    body: &str,
) -> ToolResult<Value> {
    check_status(settings, url, status)?;
    let parsed: Value = serde_json::from_str(body).unwrap_or(Value::Null);
    let (list, field) = match settings.provider.as_str() {
        "ollama" => (&parsed["models"], "name"),
        _ => (&parsed["data"], "id"),
    };
    let Some(list) = list.as_array() else {
        return Err(ToolError::failed(format!(
            "{url} answered, but not with a list of models: is this an {} server?",
            if settings.provider == "ollama" {
                "Ollama"
            } else {
                "OpenAI-compatible"
            }
        )));
    };
    let models: Vec<&str> = list.iter().filter_map(|m| m[field].as_str()).collect();
    let wanted = settings.model.trim();
    let found = !wanted.is_empty() && models.contains(&wanted);
    let reply = if wanted.is_empty() {
        format!(
            "Connected: {} models. Choose one of them as the model.",
            models.len()
        )
    } else if found {
        format!("Connected: {} models, {wanted} among them.", models.len())
    } else {
        format!(
            "Connected, but {wanted} is not among its {} models.",
            models.len()
        )
    };
    Ok(json!({
        "ok": true,
        "reply": reply,
        "models": models.iter().take(50).collect::<Vec<_>>(),
        "count": models.len(),
        "model_found": found,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    fn settings(provider: &str, base: &str, key: &str, model: &str) -> LlmSettings {
        LlmSettings {
            provider: provider.into(),
            base_url: base.into(),
            api_key: key.into(),
            model: model.into(),
            ..LlmSettings::default()
        }
    }

    #[test]
    fn each_provider_is_asked_at_its_own_path_with_the_key() {
        let p = probe(&settings(
            "openai",
            "https://api.example.com/v1/",
            " sk-1 ",
            "",
        ))
        .unwrap();
        assert_eq!(p.url, "https://api.example.com/v1/models");
        assert_eq!(p.authorization.as_deref(), Some("Bearer sk-1"));
        let p = probe(&settings("ollama", "http://localhost:11434", "", "")).unwrap();
        assert_eq!(p.url, "http://localhost:11434/api/tags");
        assert_eq!(p.authorization, None);
    }

    #[test]
    fn no_provider_or_no_address_says_what_to_fill_in() {
        let e = probe(&settings("off", "http://localhost:1", "", "")).unwrap_err();
        assert!(e.message.contains("provider"), "{e}");
        for bad in ["", "localhost:11434", "ftp://x.example/v1"] {
            let e = probe(&settings("openai", bad, "", "")).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgs);
            assert!(e.message.contains("base URL"), "{e}");
        }
    }

    #[test]
    fn the_answer_says_whether_the_model_is_there() {
        let s = settings("openai", "http://h/v1", "", "gpt-x");
        let body = r#"{"object":"list","data":[{"id":"gpt-x"},{"id":"gpt-y"}]}"#;
        let r = read_models(&s, "http://h/v1/models", 200, body).unwrap();
        assert_eq!(r["model_found"], true);
        assert_eq!(r["count"], 2);
        assert_eq!(r["reply"], "Connected: 2 models, gpt-x among them.");
        let s = settings("ollama", "http://h", "", "llama3");
        let r = read_models(&s, "u", 200, r#"{"models":[{"name":"qwen:1b"}]}"#).unwrap();
        assert_eq!(r["model_found"], false);
        assert!(r["reply"].as_str().unwrap().contains("llama3 is not among"));
    }

    #[test]
    fn failures_say_what_to_check() {
        let s = settings("openai", "http://h/v1", "k", "m");
        let e = read_models(&s, "u", 401, "").unwrap_err();
        assert_eq!(e.code, ErrorCode::Refused);
        assert!(e.message.contains("API key"));
        let e = read_models(&s, "http://h/v1/models", 404, "").unwrap_err();
        assert!(
            e.message.contains("404") && e.message.contains("base URL"),
            "{e}"
        );
        let e = read_models(&settings("openai", "http://h/v1", "", "m"), "u", 401, "").unwrap_err();
        assert!(e.message.contains("enter one"), "{e}");
        let e = read_models(&s, "u", 503, "").unwrap_err();
        assert!(e.message.contains("try again later"), "{e}");
        let e = read_models(&s, "u", 200, "<html>").unwrap_err();
        assert!(e.message.contains("OpenAI-compatible"), "{e}");
    }
}
