//! `twctl plan` and `apply` as a user runs them: typed text as typed, and
//! with `--spoken` as the extension reads Whisper's transcript of speech.

use serde_json::Value;
use std::process::Command;

fn twctl(args: &[&str]) -> Value {
    let state = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/speech/state.json");
    let out = Command::new(env!("CARGO_BIN_EXE_twctl"))
        .args(args)
        .args(["--state", state])
        .output()
        .expect("twctl runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("twctl prints JSON")
}

#[test]
fn spoken_text_is_mended_and_typed_text_is_not() {
    // Whisper writes "tag" for "tab"; typed, "tag" is a word like any.
    let typed = twctl(&["plan", "pin the slack tag"]);
    assert_eq!(typed["error"], "NOT_FOUND", "{typed}");
    assert!(
        typed["calls"].as_array().is_none_or(Vec::is_empty),
        "{typed}"
    );

    let spoken = twctl(&["plan", "--spoken", "pin the slack tag"]);
    assert!(spoken.get("error").is_none_or(Value::is_null), "{spoken}");
    assert_eq!(spoken["calls"][0]["tool"], "pin_tabs", "{spoken}");
    assert!(
        spoken["reply"]
            .as_str()
            .unwrap()
            .starts_with("(Heard as “pin the slack tab”.)"),
        "{spoken}"
    );

    // After "this", always "tab": typed, "pin this time" names no tab.
    let typed = twctl(&["plan", "pin this time"]);
    assert_eq!(typed["error"], "NOT_FOUND", "{typed}");
    let spoken = twctl(&["plan", "--spoken", "pin this time"]);
    assert_eq!(spoken["calls"][0]["tool"], "pin_tabs", "{spoken}");
}

#[test]
fn spoken_text_applies_to_the_tabs() {
    let out = twctl(&["apply", "--spoken", "pin this time"]);
    let pinned: Vec<i64> = out["tabs"]
        .as_array()
        .expect("the state after")
        .iter()
        .filter(|t| t["pinned"] == true)
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    let active = out["tabs"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["active"] == true)
        .and_then(|t| t["id"].as_i64())
        .unwrap();
    assert!(pinned.contains(&active), "{out}");
}
