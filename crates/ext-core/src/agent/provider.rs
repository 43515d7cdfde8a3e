//! The two ways of asking a language model with tools: an OpenAI-compatible
//! server's `{base}/chat/completions` (the base URL ends in `/v1`; tool-call
//! arguments arrive as a JSON string) and Ollama's `{base}/api/chat`
//! (arguments arrive as an object). The history is kept in OpenAI's shape
//! and converted for Ollama. Pure logic: the binding does the POST.

use crate::error::{ToolError, ToolResult};
use crate::settings::LlmSettings;
use serde_json::{json, Value};

/// One POST to make.
#[derive(Clone, Debug, PartialEq)]
pub struct HttpRequest {
    pub url: String,
    /// `Authorization`, when there is an API key (already scoped to the
    /// origin it was saved for).
    pub authorization: Option<String>,
    pub body: Value,
}

/// What the server answered a POST with.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HttpAnswer {
    pub status: u16,
    pub body: String,
    /// The `Retry-After` header, when the server sent one.
    pub retry_after: Option<String>,
}

impl HttpAnswer {
    /// An answer without headers that matter.
    pub fn new(status: u16, body: impl Into<String>) -> Self {
        HttpAnswer {
            status,
            body: body.into(),
            retry_after: None,
        }
    }
}

/// A tool call the model asked for; arguments it sent that are not a JSON
/// object are kept as the error to answer it with.
#[derive(Clone, Debug, PartialEq)]
pub struct ModelCall {
    pub id: String,
    pub name: String,
    pub args: Result<Value, String>,
}

/// What the model answered: text, and the tools it wants to call.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ModelReply {
    pub text: String,
    pub calls: Vec<ModelCall>,
}

/// How an OpenAI-compatible server is told the answer's length: newer
/// models take `max_completion_tokens` and refuse `max_tokens`; older
/// servers know only `max_tokens`.
pub const TOKEN_PARAMS: [&str; 2] = ["max_completion_tokens", "max_tokens"];

/// Whether an answer refuses the token parameter sent (a 400 that names
/// it): then the other one is tried, and remembered for the model.
pub fn refuses_token_param(status: u16, body: &str, sent: &str) -> bool {
    status == 400 && body.contains(sent)
}

/// The chat request for `messages` (OpenAI's shape) with the tools offered;
/// `token_param` is one of [`TOKEN_PARAMS`] (OpenAI-compatible servers);
/// `stream` asks for the answer as it is written.
pub fn chat_request(
    settings: &LlmSettings,
    messages: &[Value],
    tools: &[Value],
    token_param: &str,
    stream: bool,
) -> ToolResult<HttpRequest> {
    let base = crate::llm::checked_base(settings)?;
    let key = settings.api_key.trim();
    let authorization = (!key.is_empty()).then(|| format!("Bearer {key}"));
    let model = settings.model.trim();
    if model.is_empty() {
        return Err(ToolError::invalid(
            "Choose the language model to use on the options page first.",
        ));
    }
    let (url, body) = if settings.provider == "ollama" {
        let messages: Vec<Value> = messages.iter().map(to_ollama).collect();
        (
            format!("{base}/api/chat"),
            json!({ "model": model, "messages": messages, "tools": tools, "stream": stream,
                    "options": { "temperature": settings.temperature, "num_predict": settings.max_tokens } }),
        )
    } else {
        let mut body = json!({ "model": model, "messages": messages, "tools": tools,
                               "tool_choice": "auto", "temperature": settings.temperature,
                               "stream": stream });
        body[token_param] = json!(settings.max_tokens);
        (format!("{base}/chat/completions"), body)
    };
    Ok(HttpRequest {
        url,
        authorization,
        body,
    })
}

/// An OpenAI-shaped history message as Ollama takes it: tool-call
/// arguments as objects, tool results named by tool.
fn to_ollama(message: &Value) -> Value {
    let mut m = message.clone();
    if let Some(calls) = m.get_mut("tool_calls").and_then(Value::as_array_mut) {
        for call in calls {
            let args = &mut call["function"]["arguments"];
            if let Some(text) = args.as_str() {
                *args = serde_json::from_str(text).unwrap_or_else(|_| json!({}));
            }
            if let Some(object) = call.as_object_mut() {
                object.remove("id");
                object.remove("type");
            }
        }
    }
    if m["role"] == "tool" {
        if let Some(object) = m.as_object_mut() {
            object.remove("tool_call_id");
        }
    }
    m
}

/// What the server's answer says: the reply, or why there is none.
pub fn read_reply(
    settings: &LlmSettings,
    url: &str,
    status: u16,
    body: &str,
) -> ToolResult<ModelReply> {
    crate::llm::check_status(settings, url, status)?;
    let parsed: Value = serde_json::from_str(body).map_err(|_| {
        ToolError::failed(format!(
            "{url} did not answer with JSON: is this the right server?"
        ))
    })?;
    let message = if settings.provider == "ollama" {
        &parsed["message"]
    } else {
        &parsed["choices"][0]["message"]
    };
    if !message.is_object() {
        return Err(ToolError::failed(format!(
            "{url} answered without a message: is this the right server?"
        )));
    }
    let text = message["content"].as_str().unwrap_or_default().to_string();
    let mut calls: Vec<ModelCall> = message["tool_calls"]
        .as_array()
        .into_iter()
        .flatten()
        .enumerate()
        .map(|(i, call)| {
            let function = &call["function"];
            let args = parse_arguments(&function["arguments"]);
            ModelCall {
                id: call["id"]
                    .as_str()
                    .map_or_else(|| format!("call_{i}"), str::to_string),
                name: function["name"].as_str().unwrap_or_default().to_string(),
                args,
            }
        })
        .collect();
    if calls.is_empty() {
        calls = leaked_calls(&text);
    }
    Ok(ModelReply { text, calls })
}

/// A tool call's arguments: a JSON object, or a string holding one
/// (nothing means none); anything else is the error to answer the model
/// with.
pub fn parse_arguments(arguments: &Value) -> Result<Value, String> {
    match arguments {
        Value::String(s) if s.trim().is_empty() => Ok(json!({})),
        Value::String(s) => match serde_json::from_str::<Value>(s) {
            Ok(v) if v.is_object() => Ok(v),
            _ => Err(format!(
                "the arguments are not a JSON object: {}",
                crate::text::clip(s, 200)
            )),
        },
        Value::Object(_) => Ok(arguments.clone()),
        Value::Null => Ok(json!({})),
        other => Err(format!("the arguments are not a JSON object: {other}")),
    }
}

/// Tool calls some models write into their text instead of `tool_calls`:
/// `<tool_call>{"name": …, "arguments": …}</tool_call>`, or the whole text
/// being such an object. Recognised, so they are run (or refused) rather
/// than silently ignored.
pub fn leaked_calls(text: &str) -> Vec<ModelCall> {
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find("<tool_call>") {
        let after = &rest[start + "<tool_call>".len()..];
        let end = after.find("</tool_call>").unwrap_or(after.len());
        found.push(after[..end].trim().to_string());
        rest = &after[end..];
    }
    if found.is_empty() {
        let trimmed = text
            .trim()
            .trim_start_matches("```json")
            .trim_matches('`')
            .trim();
        if trimmed.starts_with('{') {
            found.push(trimmed.to_string());
        }
    }
    found
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let v: Value = serde_json::from_str(s).ok()?;
            let name = v["name"].as_str()?.to_string();
            let args = match v.get("arguments").or_else(|| v.get("parameters")) {
                Some(object @ Value::Object(_)) => Ok(object.clone()),
                Some(Value::String(s)) => serde_json::from_str::<Value>(s)
                    .ok()
                    .filter(Value::is_object)
                    .ok_or_else(|| "the arguments are not a JSON object".to_string()),
                _ => Ok(json!({})),
            };
            Some(ModelCall {
                id: format!("text_call_{i}"),
                name,
                args,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(provider: &str) -> LlmSettings {
        LlmSettings {
            provider: provider.into(),
            base_url: "http://127.0.0.1:9/v1".into(),
            model: "m".into(),
            api_key: "sk-1".into(),
            ..LlmSettings::default()
        }
    }

    #[test]
    fn openai_requests_carry_the_tools_and_read_string_arguments() {
        let s = settings("openai");
        let r = chat_request(
            &s,
            &[json!({"role": "user", "content": "hi"})],
            &[json!({"type": "function"})],
            "max_tokens",
            true,
        )
        .unwrap();
        assert_eq!(r.body["stream"], true);
        assert_eq!(r.url, "http://127.0.0.1:9/v1/chat/completions");
        assert_eq!(r.authorization.as_deref(), Some("Bearer sk-1"));
        assert_eq!(r.body["tools"][0]["type"], "function");
        assert_eq!(r.body["max_tokens"], 512);
        let body = json!({"choices": [{"message": {"content": null, "tool_calls": [
            {"id": "c1", "type": "function", "function": {"name": "close_tabs", "arguments": "{\"tabIds\": [3]}"}},
            {"id": "c2", "type": "function", "function": {"name": "list_tabs", "arguments": "{bad"}}]}}]});
        let reply = read_reply(&s, &r.url, 200, &body.to_string()).unwrap();
        assert_eq!(reply.calls[0].args, Ok(json!({"tabIds": [3]})));
        assert_eq!(reply.calls[0].id, "c1");
        assert!(reply.calls[1].args.is_err());
    }

    #[test]
    fn ollama_gets_object_arguments_and_a_403_says_what_to_set() {
        let s = settings("ollama");
        let history = [
            json!({"role": "assistant", "content": "", "tool_calls": [{"id": "c1", "type": "function",
                "function": {"name": "list_tabs", "arguments": "{\"query\": \"x\"}"}}]}),
            json!({"role": "tool", "tool_call_id": "c1", "name": "list_tabs", "content": "{}"}),
        ];
        let r = chat_request(&s, &history, &[], TOKEN_PARAMS[0], false).unwrap();
        assert_eq!(r.url, "http://127.0.0.1:9/v1/api/chat");
        assert_eq!(
            r.body["messages"][0]["tool_calls"][0]["function"]["arguments"],
            json!({"query": "x"})
        );
        assert_eq!(r.body["stream"], false);
        let body = json!({"message": {"role": "assistant", "content": "", "tool_calls": [
            {"function": {"name": "mute_tabs", "arguments": {"tabIds": [1]}}}]}});
        let reply = read_reply(&s, &r.url, 200, &body.to_string()).unwrap();
        assert_eq!(reply.calls[0].name, "mute_tabs");
        assert_eq!(reply.calls[0].args, Ok(json!({"tabIds": [1]})));
        let e = read_reply(&s, &r.url, 403, "").unwrap_err();
        assert!(e.message.contains("OLLAMA_ORIGINS"), "{}", e.message);
    }

    #[test]
    fn tool_calls_written_in_the_text_are_recognised() {
        let calls = leaked_calls("Sure. <tool_call>{\"name\": \"close_tabs\", \"arguments\": {\"tabIds\": [2]}}</tool_call>");
        assert_eq!(calls.len(), 1);
        assert_eq!(calls[0].name, "close_tabs");
        let calls = leaked_calls("```json\n{\"name\": \"list_tabs\", \"parameters\": {}}\n```");
        assert_eq!(calls[0].name, "list_tabs");
        assert!(leaked_calls("All done: I closed 3 tabs.").is_empty());
    }
}
