//! What a line typed into the command box asks the background for.

use ext_protocol::Request;
use serde_json::{json, Value};

/// The request for one line of input: a command, or `/tool_name {json}` to
/// run a tool directly. `None` for an empty line.
pub fn message_for(line: &str) -> Result<Option<Request>, String> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    if line == "/undo" {
        return Ok(Some(Request::Undo { undo_id: None }));
    }
    let Some(rest) = line.strip_prefix('/') else {
        return Ok(Some(Request::Command {
            text: line.into(),
            spoken: false,
            guided: None,
            wake_unsure: false,
            by_wake_phrase: false,
        }));
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
    Ok(Some(Request::Tool {
        name: name.into(),
        args,
    }))
}

/// The commands typed before, walked with Up and Down as in a shell:
/// Up goes to older ones, Down back towards what was being typed.
#[derive(Debug, Default, Clone)]
pub struct History {
    /// Oldest first, no two the same in a row.
    entries: Vec<String>,
    /// Where Up/Down is: `None` while editing a new line.
    at: Option<usize>,
    /// The line being typed when Up was first pressed.
    draft: String,
}

impl History {
    /// From earlier commands, newest first (as the action log lists them).
    pub fn from_newest_first<'a>(commands: impl IntoIterator<Item = &'a str>) -> Self {
        let mut history = Self::default();
        let mut commands: Vec<&str> = commands.into_iter().collect();
        commands.reverse();
        for c in commands {
            history.push(c);
        }
        history
    }

    /// Remembers a command that was run, and starts a new line.
    pub fn push(&mut self, line: &str) {
        let line = line.trim();
        if !line.is_empty() && self.entries.last().map(String::as_str) != Some(line) {
            self.entries.push(line.to_string());
        }
        self.at = None;
        self.draft.clear();
    }

    /// Up: the next older command (staying at the oldest).
    pub fn older(&mut self, current: &str) -> Option<&str> {
        let at = match self.at {
            None if self.entries.is_empty() => return None,
            None => {
                self.draft = current.to_string();
                self.entries.len() - 1
            }
            Some(at) => at.saturating_sub(1),
        };
        self.at = Some(at);
        Some(&self.entries[at])
    }

    /// Down: the next newer command, then the line that was being typed.
    pub fn newer(&mut self) -> Option<&str> {
        let at = self.at?;
        if at + 1 < self.entries.len() {
            self.at = Some(at + 1);
            Some(&self.entries[at + 1])
        } else {
            self.at = None;
            Some(&self.draft)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(v: Value) -> Request {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn up_and_down_walk_the_history_like_a_shell() {
        let mut h =
            History::from_newest_first(["mute all", "close youtube", "close youtube", "next tab"]);
        assert_eq!(h.newer(), None, "down with nothing recalled does nothing");
        assert_eq!(h.older("switch to gm"), Some("mute all"));
        assert_eq!(h.older(""), Some("close youtube"));
        assert_eq!(h.older(""), Some("next tab"));
        assert_eq!(h.older(""), Some("next tab"), "stays at the oldest");
        assert_eq!(h.newer(), Some("close youtube"));
        assert_eq!(h.newer(), Some("mute all"));
        assert_eq!(h.newer(), Some("switch to gm"), "back to the draft");
        assert_eq!(h.newer(), None);
        h.push("pin this");
        assert_eq!(h.older(""), Some("pin this"));
        assert!(History::default().older("x").is_none());
    }

    #[test]
    fn plain_text_is_a_command() {
        assert_eq!(
            message_for("  close youtube ").unwrap(),
            Some(req(json!({"type": "command", "text": "close youtube"})))
        );
        assert_eq!(message_for("   ").unwrap(), None);
    }

    #[test]
    fn slash_runs_a_tool() {
        assert_eq!(
            message_for("/close_tabs {\"tabIds\": [3]}").unwrap(),
            Some(req(
                json!({"type": "tool", "name": "close_tabs", "args": {"tabIds": [3]}})
            ))
        );
        assert_eq!(
            message_for("/list_tabs").unwrap(),
            Some(req(
                json!({"type": "tool", "name": "list_tabs", "args": {}})
            ))
        );
        assert_eq!(
            message_for("/undo").unwrap(),
            Some(req(json!({"type": "undo"})))
        );
        assert!(message_for("/close_tabs {oops")
            .unwrap_err()
            .contains("not JSON"));
    }
}
