//! Private windows in real Firefox: a command given in a private window
//! touches only private tabs and leaves nothing in the log or storage; one
//! given in a normal window never sees private tabs.

use crate::util::*;
use serde_json::{json, Value};
use tab_whisperer::harness::layouts::api;
use tab_whisperer::wait_for;

/// Every tab Firefox has, private ones included (read directly, not
/// through the add-on's tools, which see one kind at a time).
fn all_tabs(env: &Env) -> Vec<Value> {
    api(&env.ff, "return await browser.tabs.query({});", json!(null))
        .expect("tabs.query")
        .as_array()
        .cloned()
        .unwrap_or_default()
}

fn titles(env: &Env) -> Vec<(String, bool)> {
    let mut t: Vec<(String, bool)> = all_tabs(env)
        .iter()
        .map(|t| {
            (
                t["title"].as_str().unwrap_or_default().to_string(),
                t["incognito"] == true,
            )
        })
        .filter(|(title, _)| title.contains("YouTube"))
        .collect();
    t.sort();
    t
}

#[test]
fn a_private_window_is_kept_apart_and_leaves_no_trace() {
    let env = start();
    env.open_active(
        &env.on_host("www.youtube.com", "cats", "Cats - YouTube"),
        "Cats - YouTube",
    );
    // The tests install the add-on allowed in private windows, as a user
    // allows it in about:addons.
    let secret = env.on_host("www.youtube.com", "secret", "Secret - YouTube");
    let private_window = api(
        &env.ff,
        "return (await browser.windows.create({ incognito: true, url: args })).id;",
        json!(secret),
    )
    .expect("a private window");
    // With a second tab: the last tab of a window is never closed.
    api(
        &env.ff,
        "await browser.tabs.create({ windowId: args[0], url: args[1] });",
        json!([
            private_window,
            env.on_host("notes.example", "notes", "Notes")
        ]),
    )
    .unwrap();
    wait_for(LOAD, "the private page to load", || {
        Ok(titles(&env)
            .contains(&("Secret - YouTube".to_string(), true))
            .then_some(()))
    })
    .unwrap();

    // Given in the private window (it has the focus): only its tab closes.
    let r = env.ff.command("close all youtube tabs").unwrap();
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(titles(&env), [("Cats - YouTube".to_string(), false)]);
    let listed = env.ok("list_tabs", json!({}));
    assert!(
        listed["result"]["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .all(|t| !t["url"].as_str().unwrap_or_default().contains("cats")),
        "a private window's command lists no normal tab: {listed}"
    );
    // Undo from the private window brings it back there.
    env.undo();
    wait_for(LOAD, "the private tab back", || {
        Ok(titles(&env)
            .contains(&("Secret - YouTube".to_string(), true))
            .then_some(()))
    })
    .unwrap();

    // Nothing of it was logged or stored.
    let log = env.ff.send(&json!({ "type": "log" })).unwrap().to_string();
    for trace in ["Secret", "close all youtube tabs", r#""command":"undo""#] {
        assert!(!log.contains(trace), "'{trace}' logged: {log}");
    }
    let stored = api(
        &env.ff,
        "return JSON.stringify(await browser.storage.local.get(null));",
        json!(null),
    )
    .unwrap();
    let stored = stored.as_str().unwrap_or_default().to_lowercase();
    for secret in ["secret", "close all youtube"] {
        assert!(!stored.contains(secret), "'{secret}' stored: {stored}");
    }

    // Back in a normal window, the private tab does not exist.
    api(
        &env.ff,
        "const [w] = await browser.windows.getAll({ windowTypes: ['normal'] }).then(ws => ws.filter(w => !w.incognito)); await browser.windows.update(w.id, { focused: true });",
        json!(null),
    )
    .unwrap();
    wait_for(LOAD, "the normal window to have the focus", || {
        Ok(env
            .windows()?
            .iter()
            .any(|w| w["focused"] == true && w["incognito"] == false)
            .then_some(()))
    })
    .unwrap();
    let r = env.ff.command("close all youtube tabs").unwrap();
    assert_eq!(r["ok"], true, "{r}");
    assert_eq!(titles(&env), [("Secret - YouTube".to_string(), true)]);
    let log = env.ff.send(&json!({ "type": "log" })).unwrap();
    assert!(log.to_string().contains("close all youtube tabs"), "{log}");
    api(
        &env.ff,
        "await browser.windows.remove(args);",
        json!(private_window),
    )
    .unwrap();
}
