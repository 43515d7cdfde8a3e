//! `twctl`: the interpreter and tools from the command line, against a JSON
//! snapshot of the browser (the STATE schema), built from the same code as
//! the extension.
//!
//!   twctl plan  --state STATE.json "utterance"          the plan; runs nothing
//!   twctl apply --state STATE.json [--yes] "utterance"  runs it on the in-memory browser

use ext_core::interpret::{self, Options};
use ext_core::memory::MemoryBrowser;
use ext_core::storage::MemoryStorage;
use ext_core::{Background, State};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::process::ExitCode;

const USAGE: &str = "usage: twctl plan --state STATE.json \"utterance\"\n       twctl apply --state STATE.json [--yes] \"utterance\"\n(STATE.json may be - for standard input)";

struct Args {
    command: String,
    state: String,
    yes: bool,
    utterance: String,
}

fn parse_args() -> Result<Args, String> {
    let mut args = std::env::args().skip(1);
    let command = args.next().ok_or("missing command")?;
    if command != "plan" && command != "apply" {
        return Err(format!("unknown command '{command}'"));
    }
    let (mut state, mut yes, mut words) = (None, false, Vec::new());
    while let Some(a) = args.next() {
        match a.as_str() {
            "--state" => state = Some(args.next().ok_or("--state needs a file")?),
            "--yes" => yes = true,
            "-h" | "--help" => return Err(String::new()),
            _ => words.push(a),
        }
    }
    Ok(Args {
        command,
        state: state.ok_or("--state is required")?,
        yes,
        utterance: words.join(" "),
    })
}

fn read_state(path: &str) -> Result<State, String> {
    let text = if path == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("stdin: {e}"))?
    } else {
        std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?
    };
    serde_json::from_str(&text).map_err(|e| format!("{path} is not a STATE snapshot: {e}"))
}

fn main() -> ExitCode {
    let args = match parse_args() {
        Ok(a) => a,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("twctl: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    let state = match read_state(&args.state) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("twctl: {e}");
            return ExitCode::from(2);
        }
    };
    let out = match args.command.as_str() {
        "plan" => {
            let plan = interpret::plan(&args.utterance, &state, &Options::default());
            let mut v = serde_json::to_value(&plan).unwrap_or(Value::Null);
            if let Some(obj) = v.as_object_mut() {
                obj.remove("special");
            }
            v
        }
        _ => apply(state, &args.utterance, args.yes),
    };
    println!("{}", serde_json::to_string_pretty(&out).unwrap_or_default());
    ExitCode::SUCCESS
}

fn apply(state: State, utterance: &str, yes: bool) -> Value {
    let bg = Background::new(MemoryBrowser::new(state), MemoryStorage::default());
    let mut answer = block_on(bg.handle(json!({ "type": "command", "text": utterance })));
    let asked = answer["needs_confirmation"] == true;
    if asked && yes {
        answer = block_on(bg.handle(json!({ "type": "command", "text": "yes" })));
    }
    let mut out = serde_json::to_value(bg.browser().state()).unwrap_or_else(|_| json!({}));
    out["performed"] = answer["calls"].clone();
    out["reply"] = answer["reply"].clone();
    out["needs_confirmation"] = json!(asked && !yes);
    if let Some(e) = answer.get("error") {
        out["error"] = e.clone();
    }
    out
}
