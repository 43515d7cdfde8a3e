//! Streamed answers: an OpenAI-compatible server's server-sent events
//! (`data: {choices: [{delta}]}` … `data: [DONE]`, tool-call arguments in
//! fragments keyed by `index`) and Ollama's lines of JSON (`{message,
//! done}`). Read as they come, for the popup's live text, and whole, for
//! the reply. A server that ignores `stream` and answers plain JSON is read
//! as such.

use super::provider::{leaked_calls, parse_arguments, ModelCall, ModelReply};
use crate::error::{ToolError, ToolResult};
use serde_json::Value;
use std::collections::BTreeMap;

/// A tool call as its fragments arrive.
#[derive(Debug, Default)]
struct PartialCall {
    id: Option<String>,
    name: String,
    /// OpenAI: the argument text so far; Ollama: the object, whole.
    arguments: String,
    object: Option<Value>,
}

/// Reads a streamed answer chunk by chunk.
#[derive(Debug, Default)]
pub struct StreamReader {
    ollama: bool,
    /// A line not yet ended.
    pending: String,
    text: String,
    calls: BTreeMap<usize, PartialCall>,
    /// The server said it finished: `[DONE]`, `done: true`, or a
    /// `finish_reason`.
    finished: bool,
    /// It finished for tool calls (`finish_reason: "tool_calls"`).
    finished_for_tools: bool,
    /// An error event in the stream.
    error: Option<String>,
}

impl StreamReader {
    pub fn new(ollama: bool) -> Self {
        StreamReader {
            ollama,
            ..Self::default()
        }
    }

    /// Takes the next piece of the body (it may end mid-line).
    pub fn push(&mut self, chunk: &str) {
        self.pending.push_str(chunk);
        while let Some(end) = self.pending.find('\n') {
            let line: String = self.pending.drain(..=end).collect();
            self.line(line.trim());
        }
    }

    /// The answer's text so far.
    pub fn text(&self) -> &str {
        &self.text
    }

    fn line(&mut self, line: &str) {
        let data = if self.ollama {
            line
        } else {
            // Comments (": keep-alive"), `event:` and `id:` lines carry
            // nothing to read.
            match line.strip_prefix("data:") {
                Some(data) => data.trim(),
                None => return,
            }
        };
        if data.is_empty() {
            return;
        }
        if data == "[DONE]" {
            self.finished = true;
            return;
        }
        let Ok(event) = serde_json::from_str::<Value>(data) else {
            return;
        };
        if let Some(message) = event["error"]["message"]
            .as_str()
            .or(event["error"].as_str())
        {
            self.error = Some(message.to_string());
        }
        if self.ollama {
            self.ollama_event(&event);
        } else {
            self.openai_event(&event);
        }
    }

    fn openai_event(&mut self, event: &Value) {
        let choice = &event["choices"][0];
        let delta = &choice["delta"];
        if let Some(text) = delta["content"].as_str() {
            self.text.push_str(text);
        }
        for (i, fragment) in delta["tool_calls"]
            .as_array()
            .into_iter()
            .flatten()
            .enumerate()
        {
            let index = fragment["index"].as_u64().map_or(i, |n| n as usize);
            let call = self.calls.entry(index).or_default();
            if let Some(id) = fragment["id"].as_str() {
                call.id = Some(id.to_string());
            }
            let function = &fragment["function"];
            if let Some(name) = function["name"].as_str() {
                call.name.push_str(name);
            }
            match &function["arguments"] {
                Value::String(part) => call.arguments.push_str(part),
                Value::Object(_) => call.object = Some(function["arguments"].clone()),
                _ => {}
            }
        }
        if let Some(reason) = choice["finish_reason"].as_str() {
            self.finished = true;
            self.finished_for_tools |= reason == "tool_calls";
        }
    }

    fn ollama_event(&mut self, event: &Value) {
        let message = &event["message"];
        if let Some(text) = message["content"].as_str() {
            self.text.push_str(text);
        }
        for call in message["tool_calls"].as_array().into_iter().flatten() {
            let index = self.calls.len();
            let function = &call["function"];
            self.calls.insert(
                index,
                PartialCall {
                    id: None,
                    name: function["name"].as_str().unwrap_or_default().to_string(),
                    arguments: function["arguments"]
                        .as_str()
                        .unwrap_or_default()
                        .to_string(),
                    object: function["arguments"]
                        .is_object()
                        .then(|| function["arguments"].clone()),
                },
            );
        }
        if event["done"] == true {
            self.finished = true;
        }
    }

    /// The reply, once the body has ended.
    pub fn finish(mut self, url: &str) -> ToolResult<StreamedReply> {
        let rest = std::mem::take(&mut self.pending);
        self.line(rest.trim());
        if let Some(error) = self.error {
            return Err(ToolError::failed(format!(
                "The language model stopped with an error: {error}"
            )));
        }
        if !self.finished && self.text.is_empty() && self.calls.is_empty() {
            return Err(ToolError::failed(format!(
                "{url} ended its streamed answer before saying anything."
            )));
        }
        let mut calls: Vec<ModelCall> = self
            .calls
            .into_iter()
            .map(|(i, call)| ModelCall {
                id: call.id.unwrap_or_else(|| format!("call_{i}")),
                name: call.name,
                args: match call.object {
                    Some(object) => Ok(object),
                    None => parse_arguments(&Value::String(call.arguments)),
                },
            })
            .collect();
        if calls.is_empty() {
            calls = leaked_calls(&self.text);
        }
        Ok(StreamedReply {
            // The stream said it was for tool calls and none came: some
            // servers drop them when streaming; ask again without.
            dropped_calls: self.finished_for_tools && calls.is_empty(),
            reply: ModelReply {
                text: self.text,
                calls,
            },
        })
    }
}

/// A streamed answer, read whole.
#[derive(Debug, PartialEq)]
pub struct StreamedReply {
    pub reply: ModelReply,
    /// Tool calls were announced but not sent.
    pub dropped_calls: bool,
}

/// Whether `body` is a stream (rather than the plain JSON of a server
/// that ignored `stream`).
pub fn is_stream(body: &str, ollama: bool) -> bool {
    let start = body.trim_start();
    if ollama {
        // One JSON object per line: a plain answer is one line.
        start.trim_end().lines().count() > 1 || start.contains("\"done\":false")
    } else {
        start.starts_with("data:") || start.starts_with(':') || start.starts_with("event:")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn sse(events: &[Value]) -> String {
        events
            .iter()
            .map(|e| format!("data: {e}\n\n"))
            .chain(["data: [DONE]\n\n".to_string()])
            .collect()
    }

    #[test]
    fn openai_fragments_are_put_together_whatever_the_chunking() {
        let body = sse(&[
            json!({"choices": [{"delta": {"role": "assistant", "content": "Closing "}}]}),
            json!({"choices": [{"delta": {"content": "them."}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "id": "c1", "type": "function",
                "function": {"name": "close_tabs", "arguments": "{\"tab"}}]}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "id": "c2",
                "function": {"name": "mute_tabs", "arguments": ""}}]}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 0, "function": {"arguments": "Ids\": [3, 4]}"}}]}}]}),
            json!({"choices": [{"delta": {"tool_calls": [{"index": 1, "function": {"arguments": "{\"tabIds\":[1]}"}}]}}]}),
            json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
        ]);
        // Every way of cutting the body into chunks reads the same.
        for size in [1, 7, 64, body.len()] {
            let mut reader = StreamReader::new(false);
            let chars: Vec<char> = body.chars().collect();
            for chunk in chars.chunks(size) {
                reader.push(&chunk.iter().collect::<String>());
            }
            assert_eq!(reader.text(), "Closing them.");
            let streamed = reader.finish("u").unwrap();
            assert!(!streamed.dropped_calls);
            let calls = &streamed.reply.calls;
            assert_eq!(calls.len(), 2, "chunks of {size}");
            assert_eq!(
                (calls[0].id.as_str(), calls[0].name.as_str()),
                ("c1", "close_tabs")
            );
            assert_eq!(calls[0].args, Ok(json!({"tabIds": [3, 4]})));
            assert_eq!(calls[1].args, Ok(json!({"tabIds": [1]})));
        }
    }

    #[test]
    fn ollama_lines_errors_and_dropped_calls() {
        let body = [
            json!({"message": {"role": "assistant", "content": "On it"}, "done": false}),
            json!({"message": {"role": "assistant", "content": "", "tool_calls": [
                {"function": {"name": "mute_tabs", "arguments": {"tabIds": [2]}}}]}, "done": false}),
            json!({"message": {"content": ""}, "done": true}),
        ]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect::<String>();
        assert!(is_stream(&body, true));
        let mut reader = StreamReader::new(true);
        reader.push(&body);
        let reply = reader.finish("u").unwrap().reply;
        assert_eq!(reply.text, "On it");
        assert_eq!(reply.calls[0].args, Ok(json!({"tabIds": [2]})));

        let mut reader = StreamReader::new(false);
        reader.push(
            ": keep-alive\n\nevent: error\ndata: {\"error\": {\"message\": \"overloaded\"}}\n\n",
        );
        let e = reader.finish("u").unwrap_err();
        assert!(e.message.contains("overloaded"), "{}", e.message);

        // Announced for tools, none sent: asked again without streaming.
        let mut reader = StreamReader::new(false);
        reader.push(&sse(&[
            json!({"choices": [{"delta": {}, "finish_reason": "tool_calls"}]}),
        ]));
        assert!(reader.finish("u").unwrap().dropped_calls);

        // Cut off before a word.
        let mut reader = StreamReader::new(false);
        reader.push(": keep-alive\n\n");
        assert!(reader
            .finish("http://x/v1")
            .unwrap_err()
            .message
            .contains("ended"));

        assert!(!is_stream("{\"choices\": []}", false));
        assert!(!is_stream("{\"message\": {}, \"done\": true}\n", true));
    }
}
