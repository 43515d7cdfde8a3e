//! What a line typed into the command box asks the background for.

use serde_json::{json, Value};

/// The message for one line of input: a command, or `/tool_name {json}` to
/// run a tool directly. `None` for an empty line.
pub fn message_for(line: &str) -> Result<Option<Value>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    if line == "/undo" {
        return Ok(Some(json!({ "type": "undo" })));
    }
    let Some(rest) = line.strip_prefix('/') else {
        return Ok(Some(json!({ "type": "command", "text": line })));
    };
    let (name, args) = match rest.find(|c: char| c.is_whitespace()) {
        Some(at) => (&rest[..at], rest[at..].trim()),
        None => (rest, ""),
    };
    let args: Value = if args.is_empty() {
        json!({})
    } else {
        serde_json::from_str(args).map_err(|e| format!("The arguments are not JSON: {e}"))?
    };
    Ok(Some(json!({ "type": "tool", "name": name, "args": args })))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_a_command() {
        assert_eq!(
            message_for("  close youtube ").unwrap(),
            Some(json!({"type": "command", "text": "close youtube"}))
        );
        assert_eq!(message_for("   ").unwrap(), None);
    }

    #[test]
    fn slash_runs_a_tool() {
        assert_eq!(
            message_for("/close_tabs {\"tabIds\": [3]}").unwrap(),
            Some(json!({"type": "tool", "name": "close_tabs", "args": {"tabIds": [3]}}))
        );
        assert_eq!(
            message_for("/list_tabs").unwrap(),
            Some(json!({"type": "tool", "name": "list_tabs", "args": {}}))
        );
        assert_eq!(message_for("/undo").unwrap(), Some(json!({"type": "undo"})));
        assert!(message_for("/close_tabs {oops")
            .unwrap_err()
            .contains("not JSON"));
    }
}
