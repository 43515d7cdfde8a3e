//! What the UI shows for an answer or a log entry, as plain data.

use ext_protocol::text::clip;
use ext_protocol::Request;
use serde_json::Value;

#[derive(Debug, Clone, PartialEq)]
pub struct CallView {
    pub tool: String,
    /// Pretty JSON of the arguments and of the result.
    pub args: String,
    pub result: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct EntryView {
    /// What was asked ("close youtube", or the tool's name).
    pub said: String,
    pub reply: String,
    pub ok: bool,
    pub calls: Vec<CallView>,
    pub undo_id: Option<String>,
    /// ms since the epoch, for history entries.
    pub time: Option<f64>,
    /// The reply is a question: Confirm or Cancel.
    pub needs_confirmation: bool,
}

fn pretty(v: &Value) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default()
}

fn text(v: &Value, key: &str) -> Option<String> {
    v.get(key).and_then(Value::as_str).map(str::to_string)
}

fn calls(v: &Value) -> Vec<CallView> {
    v.get("calls")
        .and_then(Value::as_array)
        .map(|calls| {
            calls
                .iter()
                .map(|c| CallView {
                    tool: text(c, "tool").unwrap_or_default(),
                    args: pretty(c.get("args").unwrap_or(&Value::Null)),
                    result: pretty(c.get("result").unwrap_or(&Value::Null)),
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The view of the background's answer to `message`.
pub fn answer_view(request: &Request, answer: &Value) -> EntryView {
    let ok = answer.get("ok").and_then(Value::as_bool).unwrap_or(false);
    let error = answer
        .get("error")
        .and_then(|e| e.get("message"))
        .and_then(Value::as_str);
    let said = match request {
        Request::Tool { name, .. } => format!("/{name}"),
        Request::Undo { .. } => "undo".to_string(),
        Request::Command { text, .. } => text.clone(),
        other => other.kind().to_string(),
    };
    let mut calls = calls(answer);
    if let (true, Request::Tool { name, args }) = (calls.is_empty(), request) {
        calls.push(CallView {
            tool: name.clone(),
            args: pretty(args),
            result: pretty(answer.get("result").unwrap_or(&Value::Null)),
        });
    }
    let reply = text(answer, "reply")
        .filter(|r| !r.is_empty())
        .or_else(|| error.map(str::to_string))
        .unwrap_or_else(|| if ok { "Done.".into() } else { "Failed.".into() });
    EntryView {
        reply,
        ok,
        calls,
        // An undo's answer names the change it reverted: nothing to undo.
        undo_id: text(answer, "undo_id").filter(|_| said != "undo"),
        time: None,
        needs_confirmation: answer.get("needs_confirmation").and_then(Value::as_bool) == Some(true),
        said,
    }
}

/// The view of one action-log entry.
pub fn log_view(entry: &Value) -> EntryView {
    let calls = calls(entry);
    let said = text(entry, "command")
        .or_else(|| calls.first().map(|c| format!("/{}", c.tool)))
        .unwrap_or_default();
    EntryView {
        said,
        reply: text(entry, "reply").unwrap_or_default(),
        ok: entry.get("error").is_none_or(Value::is_null),
        calls,
        undo_id: text(entry, "undo_id"),
        time: entry.get("time").and_then(Value::as_f64),
        needs_confirmation: false,
    }
}

/// How many entries the history shows, as the status line says it.
pub fn entries_count(n: usize) -> String {
    match n {
        1 => "1 entry".into(),
        n => format!("{n} entries"),
    }
}

/// The status line's text (a `_locales` key) for a speech worker event
/// the background passes on; None for events that do not change it.
pub fn voice_status_key(event: &Value) -> Option<&'static str> {
    Some(match (event["type"].as_str()?, event["state"].as_str()) {
        ("status", _) if event["reason"] == "restarted" => "voiceRestarted",
        ("listening", _) => "voiceHearing",
        ("wake", _) => "voiceAwake",
        ("status", Some("processing")) => "statusThinking",
        ("status", Some("listening" | "passive")) if event["ignored"] != true => "voiceListening",
        ("status", Some("active")) => "voiceAwake",
        ("status", Some("stopped")) => "statusReady",
        ("status", Some("loading")) => "voiceLoading",
        ("progress", _) => "voiceDownloading",
        ("error", _) => "statusError",
        _ => return None,
    })
}

/// What the live transcript line shows after a voice event: the words
/// heard so far of a command being spoken (`Some(text)`), cleared once the
/// utterance is over (`Some("")`), or left as it is (`None`).
pub fn live_transcript(event: &Value) -> Option<String> {
    match event["type"].as_str()? {
        "partial" => Some(format!(
            "{}…",
            event["text"].as_str().unwrap_or_default().trim()
        )),
        "command" | "wake" | "error" => Some(String::new()),
        "status" if event["state"] != "processing" => Some(String::new()),
        _ => None,
    }
}

/// How a language-model turn's step shows while it runs: the status
/// line's text and, for a tool call or its outcome, the line of the live
/// list. `AgentEvent` as JSON.
pub fn agent_progress(event: &Value) -> (Option<String>, Option<String>) {
    let tool = event["tool"].as_str().unwrap_or_default();
    match event["kind"].as_str() {
        Some("thinking") => {
            let round = event["round"].as_u64().unwrap_or(1);
            let status = if round <= 1 {
                "Asking the language model…".to_string()
            } else {
                format!("Asking the language model (round {round})…")
            };
            (Some(status), None)
        }
        Some("call") => {
            let args = clip(&event["args"].to_string(), 160);
            (
                Some(format!("Running {tool}…")),
                Some(format!("→ {tool} {args}")),
            )
        }
        Some("text") => (
            event["text"]
                .as_str()
                .map(|text| format!("“{}”", text.trim())),
            None,
        ),
        Some("result") if event["ok"] == true => (None, Some(format!("✓ {tool}"))),
        Some("result") => {
            let why = event["error"].as_str().unwrap_or("failed");
            (None, Some(format!("✗ {tool}: {why}")))
        }
        _ => (None, None),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_history_count_is_said_in_the_singular_for_one_entry() {
        assert_eq!(entries_count(0), "0 entries");
        assert_eq!(entries_count(1), "1 entry");
        assert_eq!(entries_count(2), "2 entries");
    }

    #[test]
    fn a_turn_shows_its_steps_as_they_come() {
        use serde_json::json;
        let (status, line) = agent_progress(&json!({"kind": "thinking", "round": 2}));
        assert_eq!(status.unwrap(), "Asking the language model (round 2)…");
        assert_eq!(line, None);
        let (status, line) =
            agent_progress(&json!({"kind": "call", "tool": "close_tabs", "args": {"tabIds": [3]}}));
        assert_eq!(status.unwrap(), "Running close_tabs…");
        assert_eq!(line.unwrap(), "→ close_tabs {\"tabIds\":[3]}");
        let (_, line) = agent_progress(
            &json!({"kind": "result", "tool": "close_tabs", "ok": false, "error": "No tab 3"}),
        );
        assert_eq!(line.unwrap(), "✗ close_tabs: No tab 3");
        assert_eq!(
            agent_progress(&json!({"kind": "done", "reply": "x"})),
            (None, None)
        );
        let (status, _) = agent_progress(&json!({"kind": "text", "text": "Closing the "}));
        assert_eq!(status.unwrap(), "“Closing the”");
    }

    use super::*;

    fn req(v: Value) -> Request {
        serde_json::from_value(v).unwrap()
    }
    use serde_json::json;

    #[test]
    fn a_failed_tool_shows_its_error() {
        let v = answer_view(
            &req(json!({"type": "tool", "name": "close_tabs", "args": {"tabIds": [9]}})),
            &json!({"ok": false, "error": {"code": "NOT_FOUND", "message": "No tab has id 9."}}),
        );
        assert!(!v.ok);
        assert_eq!(v.said, "/close_tabs");
        assert_eq!(v.reply, "No tab has id 9.");
        assert_eq!(v.calls.len(), 1);
    }

    #[test]
    fn an_undo_offers_no_undo_of_its_own() {
        let v = answer_view(
            &req(json!({"type": "undo"})),
            &json!({"ok": true, "reply": "Undid close_tabs.", "undo_id": "undo-3"}),
        );
        assert_eq!(v.said, "undo");
        assert_eq!(v.undo_id, None);
        let closed = answer_view(
            &req(json!({"type": "command", "text": "close youtube"})),
            &json!({"ok": true, "reply": "Closed 2 tabs.", "undo_id": "undo-4"}),
        );
        assert_eq!(closed.undo_id.as_deref(), Some("undo-4"));
    }

    #[test]
    fn a_question_asks_for_confirmation() {
        let v = answer_view(
            &req(json!({"type": "command", "text": "close all youtube tabs"})),
            &json!({"ok": true, "reply": "Close 12 tabs?", "question": "Close 12 tabs?",
                "needs_confirmation": true, "calls": []}),
        );
        assert!(v.needs_confirmation);
        assert_eq!(v.reply, "Close 12 tabs?");
        let done = answer_view(
            &req(json!({"type": "command", "text": "yes"})),
            &json!({"ok": true}),
        );
        assert!(!done.needs_confirmation);
    }

    #[test]
    fn a_log_entry_keeps_its_undo() {
        let v = log_view(
            &json!({"id": "1", "time": 5.0, "command": null, "reply": "Closed 2 tab(s).",
            "calls": [{"tool": "close_tabs", "args": {"tabIds": [1, 2]}, "result": {"count": 2}}],
            "error": null, "undo_id": "undo-1"}),
        );
        assert!(v.ok);
        assert_eq!(v.said, "/close_tabs");
        assert_eq!(v.undo_id.as_deref(), Some("undo-1"));
        assert_eq!(v.time, Some(5.0));
    }

    #[test]
    fn voice_events_say_what_the_microphone_is_doing() {
        use serde_json::json;
        let key = |e: Value| voice_status_key(&e);
        assert_eq!(key(json!({"type": "listening"})), Some("voiceHearing"));
        assert_eq!(
            key(json!({"type": "wake", "manual": true})),
            Some("voiceAwake")
        );
        assert_eq!(
            key(json!({"type": "status", "state": "processing"})),
            Some("statusThinking")
        );
        assert_eq!(
            key(json!({"type": "status", "state": "passive", "ignored": true})),
            None
        );
        assert_eq!(
            key(json!({"type": "error", "error": {}})),
            Some("statusError")
        );
        assert_eq!(
            key(json!({"type": "status", "state": "passive", "reason": "restarted"})),
            Some("voiceRestarted")
        );
        assert_eq!(key(json!({"type": "level", "db": -20})), None);
        assert_eq!(key(json!({"nonsense": 1})), None);
    }

    #[test]
    fn the_live_transcript_shows_while_speaking_and_clears_after() {
        let shown = |e: Value| live_transcript(&e);
        assert_eq!(
            shown(json!({"type": "partial", "text": " close the "})),
            Some("close the…".into())
        );
        assert_eq!(shown(json!({"type": "level", "db": -30.0})), None);
        assert_eq!(
            shown(json!({"type": "status", "state": "processing"})),
            None
        );
        assert_eq!(
            shown(json!({"type": "command", "text": "close the tabs"})),
            Some(String::new())
        );
        assert_eq!(
            shown(json!({"type": "status", "state": "passive", "ignored": true})),
            Some(String::new())
        );
    }
}
