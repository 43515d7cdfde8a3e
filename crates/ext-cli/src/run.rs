//! Running a command on an in-memory browser, as `twctl plan` and `twctl
//! apply` print it.

use ext_core::interpret::{self, Options};
use ext_core::memory::MemoryBrowser;
use ext_core::storage::MemoryStorage;
use ext_core::{Background, State};
use futures::executor::block_on;
use serde_json::{json, Value};

/// What the interpreter would do: the plan, running nothing. A spoken
/// utterance (`heard`: `Some` with what the worker heard guided, if any) may be
/// mended where Whisper misheard it, as the extension mends what its speech
/// worker hears.
pub fn plan(state: &State, utterance: &str, heard: Option<Option<&str>>) -> Value {
    let plan = if let Some(guided) = heard {
        interpret::plan_spoken(utterance, guided, state, &Options::default())
    } else {
        interpret::plan(utterance, state, &Options::default())
    };
    let mut v = serde_json::to_value(&plan).unwrap_or(Value::Null);
    if let Some(obj) = v.as_object_mut() {
        obj.remove("special");
    }
    v
}

/// Runs it: the state after, with what was performed and answered.
pub fn apply(state: State, utterance: &str, yes: bool, heard: Option<Option<&str>>) -> Value {
    let bg = Background::new(MemoryBrowser::new(state), MemoryStorage::default());
    let mut message = json!({ "type": "command", "text": utterance, "spoken": heard.is_some() });
    if let Some(Some(guided)) = heard {
        message["guided"] = json!(guided);
    }
    let mut answer = block_on(bg.handle(message));
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
