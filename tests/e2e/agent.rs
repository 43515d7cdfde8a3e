//! The language-model agent in Firefox, against a scripted
//! OpenAI-compatible server on 127.0.0.1: the model's tool calls change
//! real tabs, the server receives the tools and the history with their
//! results, and one undo puts everything back.

use crate::util::*;
use serde_json::{json, Value};
use std::sync::{Arc, Mutex};

/// A model that lists the YouTube tabs, closes what the list answered,
/// then says so; every request body is kept.
struct ScriptedModel {
    url: String,
    seen: Arc<Mutex<Vec<Value>>>,
}

impl ScriptedModel {
    fn start() -> ScriptedModel {
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let port = server.server_addr().to_ip().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for mut request in server.incoming_requests() {
                let mut body = String::new();
                let _ = request.as_reader().read_to_string(&mut body);
                let body: Value = serde_json::from_str(&body).unwrap_or_default();
                let results: Vec<Value> = body["messages"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter(|m| m["role"] == "tool")
                    .map(|m| {
                        serde_json::from_str(m["content"].as_str().unwrap_or(""))
                            .unwrap_or_default()
                    })
                    .collect();
                log.lock().unwrap().push(body);
                let call = |name: &str, args: Value| {
                    json!({ "choices": [{ "message": { "role": "assistant", "content": "", "tool_calls": [
                        { "id": format!("call-{}", results.len()), "type": "function",
                          "function": { "name": name, "arguments": args.to_string() } }] } }] })
                };
                let answer = match results.len() {
                    0 => call("list_tabs", json!({ "query": "youtube" })),
                    1 => {
                        let ids: Vec<Value> = results[0]["result"]["tabs"]
                            .as_array()
                            .into_iter()
                            .flatten()
                            .map(|t| t["id"].clone())
                            .collect();
                        call("close_tabs", json!({ "tabIds": ids }))
                    }
                    _ => json!({ "choices": [{ "message": { "role": "assistant",
                        "content": "Closed the YouTube tabs." } }] }),
                };
                let _ = request.respond(tiny_http::Response::from_string(answer.to_string()));
            }
        });
        ScriptedModel {
            url: format!("http://127.0.0.1:{port}/v1"),
            seen,
        }
    }
}

#[test]
fn the_models_tool_calls_change_real_tabs_as_one_undoable_change() {
    let model = ScriptedModel::start();
    let env = start();
    let saved = env
        .ff
        .send(&json!({ "type": "set_settings", "settings": { "llm": {
            "provider": "openai", "baseUrl": model.url, "model": "m" } } }))
        .unwrap();
    assert_eq!(saved["ok"], true, "{saved}");
    let cats = env.on_host("www.youtube.com", "cats", "Cats - YouTube");
    let dogs = env.on_host("www.youtube.com", "dogs", "Dogs - YouTube");
    let news = env.on_host("news.example", "news", "News");
    let ids: Vec<i64> = [
        (&cats, "Cats - YouTube"),
        (&dogs, "Dogs - YouTube"),
        (&news, "News"),
    ]
    .iter()
    .map(|(url, title)| env.open_active(url, title))
    .collect();
    let before = env.tabs().len();

    let answer = env
        .ff
        .command("ask the AI to get rid of the videos")
        .unwrap();
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(answer["reply"], "Closed the YouTube tabs.");
    let open: Vec<i64> = env.tabs().iter().filter_map(|t| t["id"].as_i64()).collect();
    assert!(
        !open.contains(&ids[0]) && !open.contains(&ids[1]),
        "{open:?}"
    );
    assert!(open.contains(&ids[2]));

    let seen = model.seen.lock().unwrap().clone();
    assert_eq!(seen.len(), 3);
    assert!(seen[0]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .any(|t| t["function"]["name"] == "close_tabs"));
    assert!(seen[0]["messages"][1]["content"]
        .as_str()
        .unwrap()
        .contains("Cats - YouTube"));
    let roles: Vec<&str> = seen[2]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["role"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        roles,
        ["system", "user", "assistant", "tool", "assistant", "tool"]
    );

    // One undo brings both back.
    env.undo();
    assert_eq!(env.tabs().len(), before);
}
