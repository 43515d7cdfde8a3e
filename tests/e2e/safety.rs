//! Errors, safety rules, undo of a big close, and the persistent log.

use crate::util::*;
use serde_json::{json, Value};
use tab_whisperer::wait_for;

#[test]
fn errors_are_answered_and_the_background_survives() {
    let env = start();
    let ids = env.open(&["Keep me"]);
    let count = env.tabs().len();

    assert_eq!(env.fails("no_such_tool", json!({})), "UNKNOWN_COMMAND");
    assert_eq!(env.fails("close_tabs", json!({})), "INVALID_ARGS");
    assert_eq!(
        env.fails("close_tabs", json!({ "tabIds": "all" })),
        "INVALID_ARGS"
    );
    assert_eq!(
        env.fails("switch_tab", json!({ "tabId": "first" })),
        "INVALID_ARGS"
    );
    assert_eq!(
        env.fails("group_tabs", json!({ "tabIds": ids, "color": "plaid" })),
        "INVALID_ARGS"
    );
    assert_eq!(
        env.fails("close_tabs", json!({ "tabIds": [987654] })),
        "NOT_FOUND"
    );
    assert_eq!(
        env.fails("switch_tab", json!({ "tabId": 987654 })),
        "NOT_FOUND"
    );
    assert_eq!(
        env.fails("update_group", json!({ "groupId": 987654, "title": "x" })),
        "NOT_FOUND"
    );
    assert_eq!(
        env.fails("create_tab", json!({ "url": "javascript:alert(1)" })),
        "INVALID_ARGS"
    );

    // Closing every tab of a window is refused, and nothing closes.
    let window = env.tab(ids[0])["windowId"].clone();
    let whole: Vec<Value> = env
        .tabs()
        .iter()
        .filter(|t| t["windowId"] == window)
        .map(|t| t["id"].clone())
        .collect();
    assert_eq!(
        env.fails("close_tabs", json!({ "tabIds": whole })),
        "REFUSED"
    );
    assert_eq!(env.tabs().len(), count);

    // Malformed messages of every shape get an error answer.
    for msg in [
        json!(null),
        json!(42),
        json!("close everything"),
        json!([1, 2]),
        json!({}),
        json!({ "type": 3 }),
        json!({ "type": "tool" }),
        json!({ "type": "tool", "name": "list_tabs", "args": "all" }),
        json!({ "type": "command" }),
        json!({ "type": "command", "text": "x".repeat(200_000) }),
        json!({ "type": "undo", "undo_id": 5 }),
        json!({ "type": "undo", "undo_id": "never-was" }),
        json!({ "type": "explode" }),
    ] {
        let answer = env.ff.send(&msg).expect("an answer");
        assert_eq!(answer["ok"], false, "{answer}");
        assert!(answer["error"]["code"].is_string(), "{answer}");
    }
    // Words that are no command, and a site that no tab is on: a clear
    // answer, nothing done.
    let answer = env.ff.command("purple monkey dishwasher").unwrap();
    assert_eq!(answer["error"]["code"], "UNKNOWN_COMMAND", "{answer}");
    let answer = env.ff.command("close the netflix tabs").unwrap();
    assert_eq!(answer["error"]["code"], "NOT_FOUND", "{answer}");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.to_lowercase().contains("netflix")),
        "{answer}"
    );
    // Still alive and unchanged.
    assert_eq!(env.tabs().len(), count);
}

/// What must come back after an undo: (url, index, pinned, group title, group color).
fn layout(env: &Env) -> Vec<(String, i64, bool, String, String)> {
    let groups = env.ok("list_groups", json!({}))["result"]["groups"].clone();
    env.tabs()
        .iter()
        .map(|t| {
            let g = groups
                .as_array()
                .unwrap()
                .iter()
                .find(|g| g["id"] == t["groupId"]);
            (
                t["url"].as_str().unwrap().to_string(),
                t["index"].as_i64().unwrap(),
                t["pinned"].as_bool().unwrap(),
                g.map(|g| g["title"].as_str().unwrap().to_string())
                    .unwrap_or_default(),
                g.map(|g| g["color"].as_str().unwrap().to_string())
                    .unwrap_or_default(),
            )
        })
        .collect()
}

#[test]
fn closing_thirty_tabs_then_undo_restores_all_in_place() {
    let env = start();
    let titles: Vec<String> = (1..=32).map(|i| format!("Batch page {i}")).collect();
    let refs: Vec<&str> = titles.iter().map(String::as_str).collect();
    let ids = env.open(&refs);
    env.ok("pin_tabs", json!({ "tabIds": [ids[0], ids[1]] }));
    env.ok(
        "group_tabs",
        json!({ "tabIds": &ids[5..10], "title": "Batch", "color": "orange" }),
    );
    env.ok(
        "group_tabs",
        json!({ "tabIds": &ids[20..23], "title": "Other", "color": "green" }),
    );
    env.ok("mute_tabs", json!({ "tabIds": [ids[12]] }));
    let before = layout(&env);

    let closing = &ids[..30];
    let r = env.ok("close_tabs", json!({ "tabIds": closing }));
    assert_eq!(r["result"]["count"], 30);
    assert_eq!(env.tabs().len(), before.len() - 30);
    assert_eq!(env.ok("list_groups", json!({}))["result"]["count"], 0);

    let answer = env.undo();
    assert!(
        answer["reply"].as_str().unwrap().contains("reopened 30"),
        "{answer}"
    );
    wait_for(LOAD, "all 30 tabs back in place", || {
        Ok((layout(&env) == before).then_some(()))
    })
    .unwrap_or_else(|e| panic!("{e}\nbefore: {before:?}\nafter:  {:?}", layout(&env)));
    let muted = env
        .tabs()
        .into_iter()
        .filter(|t| t["muted"] == true)
        .count();
    assert_eq!(muted, 1, "muted state comes back too");
}

#[test]
fn the_log_survives_restarting_the_background() {
    let mut env = start();
    let ids = env.open(&["Logged page"]);
    env.ok("mute_tabs", json!({ "tabIds": ids }));
    let _ = env.ff.tool("close_tabs", json!({ "tabIds": [123456] }));
    let log = env.ff.send(&json!({ "type": "log" })).unwrap();
    let entries = log["entries"].as_array().unwrap().clone();
    assert!(entries.len() >= 3, "{log}");
    let newest = &entries[0];
    assert_eq!(newest["calls"][0]["tool"], "close_tabs");
    assert_eq!(newest["error"]["code"], "NOT_FOUND");
    for key in ["id", "time", "command", "calls", "reply", "error"] {
        assert!(
            newest.get(key).is_some(),
            "log entries have {key}: {newest}"
        );
    }

    env.ff.reload_extension().unwrap();

    let after = env.ff.send(&json!({ "type": "log" })).unwrap();
    let after = after["entries"].as_array().unwrap().clone();
    assert_eq!(
        after[..entries.len()],
        entries[..],
        "the same entries after a restart"
    );
    // The undo journal survives too: unmute the tab muted before the restart.
    env.undo();
    assert_eq!(env.tab(ids[0])["muted"], false);

    let cleared = env.ff.send(&json!({ "type": "clear_log" })).unwrap();
    assert_eq!(cleared["ok"], true);
    let empty = env.ff.send(&json!({ "type": "log" })).unwrap();
    assert_eq!(empty["entries"].as_array().unwrap().len(), 0);
}

#[test]
fn a_script_in_a_web_page_cannot_command_the_extension() {
    let env = start();
    let id = env.open(&["Some site"])[0];
    // A script running in a web page (injected here by the test) asks the
    // background for the tab list: it is refused.
    let answer = tab_whisperer::harness::layouts::api(
        &env.ff,
        r#"const [result] = await browser.tabs.executeScript(args, {
             code: `browser.runtime.sendMessage({ type: "tool", name: "list_tabs", args: {} })`,
           });
           return result;"#,
        json!(id),
    )
    .expect("the page's script runs");
    assert_eq!(answer["ok"], false, "{answer}");
    assert_eq!(answer["error"]["code"], "REFUSED", "{answer}");
    assert!(env.tabs().iter().any(|t| t["id"] == id));
    // The extension's own page is still heard.
    env.ok("list_tabs", json!({}));
}

#[test]
fn a_panic_in_the_background_restarts_it_and_the_next_command_runs() {
    let env = start();
    let saved = env
        .ff
        .send(&json!({ "type": "set_settings", "settings": { "confirmThreshold": 17 } }))
        .unwrap();
    assert_eq!(saved["ok"], true, "{saved}");
    let ids = env.open(&["Before the panic"]);
    // A panic while the background holds its lock: the answer is lost
    // (the page goes), but the page comes back with what was saved.
    let _ = env.ff.send(&json!({ "type": "debug_panic" }));
    let tabs =
        tab_whisperer::harness::wait_for_retrying(LOAD, "the background to answer again", || {
            let answer = env.ff.tool("list_tabs", json!({}))?;
            Ok((answer["ok"] == true).then_some(answer))
        })
        .unwrap();
    assert!(tabs.to_string().contains("Before the panic"), "{tabs}");
    let settings = env.ff.send(&json!({ "type": "settings" })).unwrap();
    assert_eq!(settings["settings"]["confirmThreshold"], 17, "{settings}");
    // Changing work runs (the lock is free) and can be undone.
    env.ok("close_tabs", json!({ "tabIds": ids }));
    env.undo();
    let back = env.tabs();
    assert!(
        back.iter().any(|t| t["url"]
            .as_str()
            .unwrap_or_default()
            .contains("before-the-panic")),
        "{back:?}"
    );
}
