//! The language-model agent against a scripted model (the transport
//! answers as a server would) and the in-memory browser: routing, the
//! loop, history, safety, undo and failures.

mod common;

use common::*;
use ext_core::agent::provider::HttpRequest;
use ext_core::storage::MemoryStorage;
use ext_core::{Background, MemoryBrowser};
use futures::executor::block_on;
use serde_json::{json, Value};
use std::cell::RefCell;
use std::collections::VecDeque;
use std::rc::Rc;

type Bg = Background<MemoryBrowser, MemoryStorage>;

/// A model that answers from a script (OpenAI's shape), recording what it
/// was sent; when the script runs out it answers "Done.".
#[derive(Clone, Default)]
struct Script {
    replies: Rc<RefCell<VecDeque<(u16, Value)>>>,
    seen: Rc<RefCell<Vec<HttpRequest>>>,
}

impl Script {
    fn new(replies: Vec<(u16, Value)>) -> Self {
        Script {
            replies: Rc::new(RefCell::new(replies.into())),
            seen: Rc::default(),
        }
    }
    fn install(&self, bg: &Bg) {
        let me = self.clone();
        bg.set_transport(Rc::new(move |request: HttpRequest| {
            me.seen.borrow_mut().push(request);
            let (status, body) = me
                .replies
                .borrow_mut()
                .pop_front()
                .unwrap_or((200, text("Done.")));
            Box::pin(async move { Ok((status, body.to_string())) })
        }));
    }
}

fn text(content: &str) -> Value {
    json!({ "choices": [{ "message": { "role": "assistant", "content": content } }] })
}

fn call(name: &str, args: Value) -> Value {
    json!({ "choices": [{ "message": { "role": "assistant", "content": "", "tool_calls": [
        { "id": format!("call-{name}"), "type": "function",
          "function": { "name": name, "arguments": args.to_string() } }] } }] })
}

fn with_model(mode: &str) -> Bg {
    let bg = Background::new(MemoryBrowser::new(sample_state()), MemoryStorage::default());
    let saved = block_on(bg.handle(json!({ "type": "set_settings", "settings": { "llm": {
        "provider": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m", "apiKey": "sk-1", "mode": mode } } })));
    assert_eq!(saved["ok"], true, "{saved}");
    bg
}

fn command(bg: &Bg, text: &str) -> Value {
    block_on(bg.handle(json!({ "type": "command", "text": text })))
}

fn open(bg: &Bg) -> Vec<i64> {
    bg.browser().state().tabs.iter().map(|t| t.id).collect()
}

#[test]
fn what_the_interpreter_cannot_place_goes_to_the_model_as_one_undoable_change() {
    let bg = with_model("fallback");
    let script = Script::new(vec![
        (200, call("list_tabs", json!({ "query": "rust" }))),
        (200, call("close_tabs", json!({ "tabIds": [5, 6] }))),
        (200, text("Closed your two Rust tabs.")),
    ]);
    script.install(&bg);
    let answer = command(&bg, "tidy up my research tabs");
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["reply"], "Closed your two Rust tabs.");
    assert_eq!(open(&bg), [1, 2, 3, 4, 7, 8]);
    let seen = script.seen.borrow();
    assert_eq!(seen.len(), 3);
    let first = &seen[0];
    assert_eq!(first.url, "http://127.0.0.1:9/v1/chat/completions");
    assert_eq!(first.authorization.as_deref(), Some("Bearer sk-1"));
    assert!(first.body["tools"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["function"]["name"] == "close_tabs"));
    let user = first.body["messages"][1]["content"].as_str().unwrap();
    assert!(user.contains("Cats - YouTube") && user.ends_with("Request: tidy up my research tabs"));
    // The history sent back holds the call and its result.
    let last = seen[2].body["messages"].as_array().unwrap();
    let roles: Vec<&str> = last.iter().map(|m| m["role"].as_str().unwrap()).collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "assistant", "tool"]
    );
    assert_eq!(last[2]["tool_calls"][0]["function"]["name"], "list_tabs");
    assert!(last[5]["content"].as_str().unwrap().contains("\"ok\":true"));
    drop(seen);
    // One undo puts everything back; the log shows the calls.
    let log = block_on(bg.handle(json!({ "type": "log" })));
    assert_eq!(
        log["entries"][0]["calls"].as_array().map(Vec::len),
        Some(2),
        "{log}"
    );
    assert_eq!(command(&bg, "undo")["ok"], true);
    assert_eq!(open(&bg).len(), 8);
}

#[test]
fn known_commands_stay_offline_unless_always_or_asked() {
    let bg = with_model("fallback");
    let script = Script::new(vec![]);
    script.install(&bg);
    assert_eq!(command(&bg, "close the vimeo tab")["ok"], true);
    assert!(
        script.seen.borrow().is_empty(),
        "no request for a known command"
    );
    command(&bg, "ask the AI to close the vimeo tabs");
    assert_eq!(script.seen.borrow().len(), 1);
    let sent = script.seen.borrow()[0].body["messages"][1]["content"].clone();
    assert!(sent
        .as_str()
        .unwrap()
        .ends_with("Request: close the vimeo tabs"));

    let bg = with_model("always");
    let script = Script::new(vec![]);
    script.install(&bg);
    command(&bg, "close the gmail tab");
    assert_eq!(script.seen.borrow().len(), 1);
    assert_eq!(open(&bg).len(), 8, "the model said Done, nothing else");

    // Off (the default): no model, and "ask the AI" says how to set one up.
    let bg = Background::new(MemoryBrowser::new(sample_state()), MemoryStorage::default());
    let script = Script::new(vec![]);
    script.install(&bg);
    let answer = command(&bg, "ask the ai to tidy up");
    assert_eq!(answer["ok"], false);
    assert!(answer["reply"].as_str().unwrap().contains("options page"));
    command(&bg, "tidy up my research tabs");
    assert!(script.seen.borrow().is_empty());
}

#[test]
fn bad_calls_are_answered_to_the_model_and_risky_ones_are_not_run() {
    let bg = with_model("fallback");
    let bad_json = json!({ "choices": [{ "message": { "content": "", "tool_calls": [
        { "id": "c1", "type": "function", "function": { "name": "close_tabs", "arguments": "{tabIds: [2" } },
        { "id": "c2", "type": "function", "function": { "name": "no_such_tool", "arguments": "{}" } }] } }] });
    let script = Script::new(vec![
        (200, bad_json),
        // Two windows at once, and an audible tab: needs a "yes".
        (200, call("close_tabs", json!({ "tabIds": [2, 8] }))),
        (200, text("I need your confirmation.")),
    ]);
    script.install(&bg);
    let answer = command(&bg, "ask the AI to get rid of the noise");
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(open(&bg).len(), 8, "nothing closed");
    let seen = script.seen.borrow();
    let second = seen[1].body["messages"].as_array().unwrap();
    let errors: Vec<&str> = second[3..]
        .iter()
        .map(|m| m["content"].as_str().unwrap())
        .collect();
    assert!(errors[0].contains("Bad arguments"), "{errors:?}");
    assert!(errors[1].contains("no_such_tool"), "{errors:?}");
    let third = seen[2].body["messages"].as_array().unwrap();
    assert!(third.last().unwrap()["content"]
        .as_str()
        .unwrap()
        .contains("confirmation"));
}

#[test]
fn a_repeating_model_is_stopped_and_a_failing_one_leaves_the_offline_answer() {
    let bg = with_model("fallback");
    let same = call("list_tabs", json!({}));
    let script = Script::new(vec![(200, same.clone()), (200, same.clone()), (200, same)]);
    script.install(&bg);
    let answer = command(&bg, "tidy up my research tabs");
    assert_eq!(answer["ok"], false, "{answer}");
    assert!(
        answer["reply"].as_str().unwrap().contains("same list_tabs"),
        "{answer}"
    );

    // Ten rounds at most.
    let bg = with_model("fallback");
    let calls = (0..20)
        .map(|i| (200, call("list_tabs", json!({ "query": format!("q{i}") }))))
        .collect();
    let script = Script::new(calls);
    script.install(&bg);
    let answer = command(&bg, "tidy up my research tabs");
    assert!(
        answer["reply"].as_str().unwrap().contains("10 rounds"),
        "{answer}"
    );
    assert_eq!(script.seen.borrow().len(), 10);

    // A server error: the interpreter's answer and the reason.
    let bg = with_model("fallback");
    let script = Script::new(vec![(503, json!({ "error": "overloaded" }))]);
    script.install(&bg);
    let answer = command(&bg, "tidy up my research tabs");
    assert_eq!(answer["ok"], false);
    let reply = answer["reply"].as_str().unwrap();
    assert!(
        reply.contains("could not help") && reply.contains("503"),
        "{reply}"
    );
    assert_eq!(open(&bg).len(), 8);

    // A leaked call in the text runs.
    let bg = with_model("fallback");
    let script = Script::new(vec![(
        200,
        text("<tool_call>{\"name\": \"mute_tabs\", \"arguments\": {\"tabIds\": [2]}}</tool_call>"),
    )]);
    script.install(&bg);
    let answer = command(&bg, "quiet the cat video please");
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(bg.browser().state().tabs[1].muted);
}

#[test]
fn a_400_naming_the_token_parameter_switches_to_the_other_and_is_remembered() {
    let bg = with_model("fallback");
    let refusal = json!({ "error": { "message": "Unsupported parameter: 'max_completion_tokens'. Use 'max_tokens'." } });
    let script = Script::new(vec![(400, refusal), (200, text("Nothing to do."))]);
    script.install(&bg);
    let answer = command(&bg, "tidy up my research tabs");
    assert_eq!(answer["ok"], true, "{answer}");
    command(&bg, "tidy up my research tabs again");
    let seen = script.seen.borrow();
    let params: Vec<bool> = seen
        .iter()
        .map(|r| r.body.get("max_completion_tokens").is_some())
        .collect();
    // Tried first, refused, then max_tokens, remembered for the next turn.
    assert_eq!(params, [true, false, false]);
    assert_eq!(seen[1].body["max_tokens"], 512);
}
