//! Privacy: with default settings the extension's own pages and workers
//! make no network request while handling typed and spoken commands. Every
//! HTTP(S) and WebSocket channel Firefox opens is watched from its chrome
//! context and attributed by the principal that caused it; pages the user
//! asks to open (top-level documents) don't count. A language model set
//! up on a remote host is the control: its request is seen.

use crate::util::*;
use serde_json::{json, Value};
use std::time::Duration;
use tab_whisperer::{wait_for, EXTENSION_UUID};

/// Starts recording every channel: its address, the origin of the
/// principal that caused it, and whether it is a top-level page.
const WATCH: &str = r#"
    const seen = [];
    const observer = { observe(subject) {
        const channel = subject.QueryInterface(Ci.nsIChannel);
        const info = channel.loadInfo;
        const principal = info && (info.triggeringPrincipal || info.loadingPrincipal);
        seen.push({
            url: channel.URI.spec,
            by: principal && !principal.isSystemPrincipal ? principal.origin : "system",
            page: !!info && info.externalContentPolicyType === Ci.nsIContentPolicy.TYPE_DOCUMENT,
        });
    } };
    Services.obs.addObserver(observer, "http-on-modify-request");
    window.__twNetwork = seen;
    return null;"#;

fn requests(env: &Env) -> Vec<Value> {
    let seen = env.ff.chrome("return window.__twNetwork;").unwrap();
    seen.as_array().cloned().unwrap_or_default()
}

/// What the extension itself asked for, pages the user opened aside.
fn by_the_extension(env: &Env) -> Vec<Value> {
    let ours = format!("moz-extension://{EXTENSION_UUID}");
    requests(env)
        .into_iter()
        .filter(|r| r["by"].as_str().is_some_and(|by| by.starts_with(&ours)) && r["page"] != true)
        .collect()
}

#[test]
fn default_settings_make_no_network_request_for_typed_and_spoken_commands() {
    let env = start();
    env.ff.chrome(WATCH).unwrap();
    let news = env.on_host("news.example", "news", "News");
    env.open_active(&news, "News");
    env.ff.open_extension_page("options.html").unwrap();

    for command in [
        "mute all tabs",
        "group my tabs by site",
        "list my tabs",
        "undo",
        "open wikipedia dot org",
        "tidy up my research tabs",
        "ask the AI to close everything",
    ] {
        let answer = env.ff.command(command).unwrap();
        assert!(answer["reply"].is_string(), "{command}: {answer}");
    }
    // Listening: the bundled model loads into the worker and the fake
    // microphone's audio flows through it.
    let answer = env.ff.send(&json!({ "type": "voice_start" })).unwrap();
    assert_eq!(answer["ok"], true, "{answer}");
    wait_for(Duration::from_secs(90), "microphone audio", || {
        let status = env.ff.send(&json!({ "type": "voice_status" }))?;
        Ok(status["level_db"].as_f64())
    })
    .unwrap();
    let _ = env.ff.send(&json!({ "type": "voice_stop" }));

    assert!(
        requests(&env).iter().any(|r| r["url"]
            .as_str()
            .unwrap_or_default()
            .contains("wikipedia.org")),
        "the page asked for is opened, and seen: {:?}",
        requests(&env)
    );
    assert_eq!(by_the_extension(&env), Vec::<Value>::new());

    // The control: a model on a remote host is asked, and that is seen.
    let saved = env
        .ff
        .send(&json!({ "type": "set_settings", "settings": { "llm": {
            "provider": "openai", "baseUrl": "https://llm.example/v1", "model": "m" } } }))
        .unwrap();
    assert_eq!(saved["ok"], true, "{saved}");
    let answer = env.ff.command("ask the AI to tidy up").unwrap();
    assert_eq!(answer["ok"], false, "nothing answers there: {answer}");
    let seen = by_the_extension(&env);
    assert!(
        seen.iter()
            .any(|r| r["url"] == "https://llm.example/v1/chat/completions"),
        "{seen:?}"
    );
}
