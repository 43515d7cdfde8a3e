//! The tab tools on real tabs.

use crate::util::*;
use serde_json::json;

#[test]
fn list_switch_create_duplicate_pin_mute() {
    let env = start();
    let ids = env.open(&["Alpha page", "Beta page", "Gamma page"]);

    // list_tabs: all, by words, by window.
    let all = env.ok("list_tabs", json!({}))["result"].clone();
    assert!(all["count"].as_u64().unwrap() >= 4, "{all}");
    let beta = env.ok("list_tabs", json!({ "query": "beta PAGE" }))["result"].clone();
    assert_eq!(beta["count"], 1, "{beta}");
    assert_eq!(beta["tabs"][0]["id"], ids[1]);
    let window = beta["tabs"][0]["windowId"].as_i64().unwrap();
    let in_window = env.ok("list_tabs", json!({ "windowId": window }))["result"].clone();
    assert_eq!(in_window["count"], all["count"]);

    // switch_tab makes it active.
    env.ok("switch_tab", json!({ "tabId": ids[2] }));
    assert_eq!(env.active_tab(window)["id"], ids[2]);
    env.undo();
    assert_ne!(env.active_tab(window)["id"], ids[2], "undo switches back");

    // create_tab at an index; duplicate_tab next to the original.
    let url = env.pages.page("Delta page");
    let created = env.ok(
        "create_tab",
        json!({ "url": url, "index": 1, "active": false }),
    );
    let delta = created["result"]["tab"]["id"].as_i64().unwrap();
    env.wait_titles(&[delta], &["Delta page"]);
    assert_eq!(env.tab(delta)["index"], 1);
    let dup = env.ok("duplicate_tab", json!({ "tabId": ids[0] }));
    let copy = dup["result"]["tab"]["id"].as_i64().unwrap();
    env.wait_titles(&[copy], &["Alpha page"]);
    assert_eq!(
        env.tab(copy)["index"].as_i64().unwrap(),
        env.tab(ids[0])["index"].as_i64().unwrap() + 1
    );
    env.undo();
    assert!(
        env.tabs().iter().all(|t| t["id"] != copy),
        "undo closes the copy"
    );

    // pin_tabs moves to the front; undo puts it back.
    let before = env.tab(ids[2])["index"].clone();
    let pinned = env.ok("pin_tabs", json!({ "tabIds": [ids[2]] }));
    assert_eq!(pinned["result"]["tabs"][0]["pinned"], true);
    assert_eq!(env.tab(ids[2])["index"], 0);
    env.undo();
    let t = env.tab(ids[2]);
    assert_eq!(
        (t["pinned"].clone(), t["index"].clone()),
        (json!(false), before)
    );

    // mute_tabs, then unmute with muted: false.
    env.ok("mute_tabs", json!({ "tabIds": [ids[0], ids[1]] }));
    assert_eq!(env.tab(ids[0])["muted"], true);
    assert_eq!(env.tab(ids[1])["muted"], true);
    env.ok("mute_tabs", json!({ "tabIds": [ids[0]], "muted": false }));
    assert_eq!(env.tab(ids[0])["muted"], false);
}

#[test]
fn reload_discard_move_close_and_duplicates() {
    let env = start();
    let ids = env.open(&["One", "Two", "Three", "Four"]);

    // reload_tabs really reloads: a mark set in the page is gone after.
    let url_two = env.tab(ids[1])["url"].as_str().unwrap().to_string();
    env.ff
        .page_eval(&url_two, "window.__mark = 1; return window.__mark;")
        .unwrap();
    env.ok(
        "reload_tabs",
        json!({ "tabIds": [ids[1]], "bypassCache": true }),
    );
    tab_whisperer::wait_for(LOAD, "the page to reload", || {
        let v = env
            .ff
            .page_eval(
                &url_two,
                "return document.readyState === 'complete' && window.__mark === undefined;",
            )
            .unwrap_or(json!(false));
        Ok((v == true).then_some(()))
    })
    .unwrap();

    // discard_tabs unloads background tabs only.
    let r = env.ok("discard_tabs", json!({ "tabIds": [ids[2]] }));
    assert_eq!(id_list(&r["result"]["discarded"]), [ids[2]]);
    env.wait_tab(ids[2], "the tab to be discarded", |t| {
        t["discarded"] == true
    });

    // move_tabs within the window, then undo.
    let before: Vec<i64> = env
        .tabs()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    env.ok("move_tabs", json!({ "tabIds": [ids[3]], "index": 0 }));
    assert_eq!(env.tab(ids[3])["index"], 0);
    env.undo();
    let after: Vec<i64> = env
        .tabs()
        .iter()
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(after, before);

    // move_tabs to another window, then undo.
    let window = env.tab(ids[0])["windowId"].as_i64().unwrap();
    env.ff.session().new_window("window").unwrap();
    let other = tab_whisperer::wait_for(LOAD, "a second window", || {
        Ok(env
            .tabs()
            .iter()
            .map(|t| t["windowId"].as_i64().unwrap())
            .find(|w| *w != window))
    })
    .unwrap();
    env.ok(
        "move_tabs",
        json!({ "tabIds": [ids[0]], "windowId": other }),
    );
    assert_eq!(env.tab(ids[0])["windowId"], other);
    env.undo();
    assert_eq!(env.tab(ids[0])["windowId"], window);

    // move_tabs into a new window, in order; undo puts them back and
    // Firefox closes the emptied window.
    let r = env.ok(
        "move_tabs",
        json!({ "tabIds": [ids[3], ids[2]], "newWindow": true }),
    );
    let made = r["result"]["windowId"].as_i64().unwrap();
    assert!(made != window && made != other, "{r}");
    let there: Vec<i64> = env
        .tabs()
        .iter()
        .filter(|t| t["windowId"] == made)
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    assert_eq!(there, [ids[3], ids[2]]);
    env.undo();
    assert_eq!(env.tab(ids[2])["windowId"], window);
    assert_eq!(env.tab(ids[3])["windowId"], window);
    tab_whisperer::wait_for(LOAD, "the emptied window to close", || {
        Ok(env.windows()?.iter().all(|w| w["id"] != made).then_some(()))
    })
    .unwrap();

    // close_tabs, then undo reopens at the same place.
    let index = env.tab(ids[1])["index"].clone();
    let r = env.ok("close_tabs", json!({ "tabIds": [ids[1]] }));
    assert_eq!(r["result"]["count"], 1);
    assert!(env.tabs().iter().all(|t| t["id"] != ids[1]));
    env.undo();
    let back = tab_whisperer::wait_for(LOAD, "the closed tab to come back", || {
        Ok(env
            .tabs()
            .into_iter()
            .find(|t| t["url"] == url_two.as_str()))
    })
    .unwrap();
    assert_eq!(back["index"], index);

    // close_duplicate_tabs keeps one copy.
    let url_four = env.tab(ids[3])["url"].as_str().unwrap().to_string();
    let extra = env.ok(
        "create_tab",
        json!({ "url": format!("{url_four}#part"), "active": false }),
    );
    let extra = extra["result"]["tab"]["id"].as_i64().unwrap();
    env.wait_titles(&[extra], &["Four"]);
    let r = env.ok("close_duplicate_tabs", json!({}));
    assert_eq!(id_list(&r["result"]["closed"]), [extra], "{r}");
    assert!(env.tabs().iter().any(|t| t["id"] == ids[3]));
}

/// Typed commands that place tabs by others, in real Firefox: two tabs
/// trading places, and a new tab opened right after a named one (then
/// both undone).
#[test]
fn swap_two_tabs_and_open_one_beside_another() {
    let env = start();
    let ids = env.open(&["Alpha page", "Bravo page", "Charlie page"]);
    let index = |id: i64| env.tab(id)["index"].as_i64().unwrap();
    let before: Vec<i64> = ids.iter().map(|id| index(*id)).collect();
    let command = |text: &str| {
        let answer = env.ff.command(text).unwrap();
        assert_eq!(answer["ok"], true, "{text} → {answer}");
        answer
    };

    let answer = command("swap the alpha tab and the charlie tab");
    assert_eq!(index(ids[0]), before[2], "{answer}");
    assert_eq!(index(ids[2]), before[0], "{answer}");
    assert_eq!(index(ids[1]), before[1], "{answer}");
    env.undo();
    let after_undo: Vec<i64> = ids.iter().map(|id| index(*id)).collect();
    assert_eq!(after_undo, before);

    let count = env.tabs().len();
    let answer = command("open a new tab next to the alpha tab");
    let tabs = env.tabs();
    assert_eq!(tabs.len(), count + 1, "{answer}");
    let new = tabs
        .iter()
        .find(|t| !ids.contains(&t["id"].as_i64().unwrap()) && t["active"] == true)
        .unwrap_or_else(|| panic!("a new tab in front: {answer}"));
    assert_eq!(new["index"].as_i64().unwrap(), before[0] + 1, "{answer}");
    assert_eq!(index(ids[1]), before[1] + 1, "Bravo moved along");
    env.undo();
    assert_eq!(env.tabs().len(), count);
}
