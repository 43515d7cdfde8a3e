//! Every tool against the in-memory browser: results, validation, safety
//! rules and undo.

mod common;

use common::*;
use ext_core::tools::{schemas, TOOLS};
use ext_core::Browser;
use futures::executor::block_on;
use serde_json::{json, Value};

fn ids(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

#[test]
fn schemas_describe_every_tool_with_the_agreed_argument_names() {
    let schemas = schemas();
    assert_eq!(schemas.len(), 22, "21 tools and browse");
    assert_eq!(TOOLS.len(), 22);
    for s in &schemas {
        assert_eq!(s["type"], "function");
        let f = &s["function"];
        assert!(f["name"].as_str().is_some_and(|n| !n.is_empty()));
        assert!(f["description"].as_str().is_some_and(|d| d.len() > 10));
        assert_eq!(f["parameters"]["type"], "object", "{s}");
        assert!(f["parameters"]["properties"].is_object(), "{s}");
    }
    let props = |name: &str| -> Vec<String> {
        let s = schemas
            .iter()
            .find(|s| s["function"]["name"] == name)
            .unwrap();
        s["function"]["parameters"]["properties"]
            .as_object()
            .unwrap()
            .keys()
            .cloned()
            .collect()
    };
    assert_eq!(props("close_tabs"), ["tabIds"]);
    assert!(props("group_tabs").contains(&"groupId".to_string()));
    assert!(props("search_history").contains(&"startTime".to_string()));
    assert!(props("search_bookmarks").contains(&"maxResults".to_string()));
    assert!(props("create_bookmark").contains(&"folder".to_string()));
    let group = schemas
        .iter()
        .find(|s| s["function"]["name"] == "group_tabs")
        .unwrap();
    let required = group["function"]["parameters"]["required"].clone();
    assert_eq!(required, json!(["tabIds"]));
    let colors = group["function"]["parameters"]["properties"]["color"].to_string();
    for c in ["grey", "blue", "purple", "orange"] {
        assert!(colors.contains(c), "{colors}");
    }
}

#[test]
fn bad_arguments_get_clear_errors() {
    let f = Fixture::new();
    assert_eq!(f.fails("no_such_tool", json!({})), "UNKNOWN_COMMAND");
    assert_eq!(f.fails("close_tabs", json!({})), "INVALID_ARGS");
    assert_eq!(
        f.fails("close_tabs", json!({"tabIds": "2"})),
        "INVALID_ARGS"
    );
    assert_eq!(
        f.fails("close_tabs", json!({"tabIds": [2.5]})),
        "INVALID_ARGS"
    );
    assert_eq!(f.fails("close_tabs", json!({"tabIds": []})), "INVALID_ARGS");
    assert_eq!(
        f.fails("close_tabs", json!({"tabIds": [2], "x": 1})),
        "INVALID_ARGS"
    );
    assert_eq!(f.fails("close_tabs", json!([2])), "INVALID_ARGS");
    assert_eq!(f.fails("close_tabs", json!({"tabIds": [999]})), "NOT_FOUND");
    assert_eq!(f.fails("switch_tab", json!({"tabId": 999})), "NOT_FOUND");
    assert_eq!(f.fails("list_tabs", json!({"windowId": 9})), "NOT_FOUND");
    assert_eq!(
        f.fails("group_tabs", json!({"tabIds": [2], "color": "plaid"})),
        "INVALID_ARGS"
    );
    assert_eq!(
        f.fails("update_group", json!({"groupId": 201})),
        "INVALID_ARGS"
    );
    assert_eq!(
        f.fails("collapse_group", json!({"groupId": 7})),
        "NOT_FOUND"
    );
    assert_eq!(f.fails("move_tabs", json!({"tabIds": [2]})), "INVALID_ARGS");
    assert_eq!(
        f.fails("create_tab", json!({"url": "javascript:alert(1)"})),
        "INVALID_ARGS"
    );
    assert_eq!(
        f.fails("create_tab", json!({"url": "file:///etc/passwd"})),
        "INVALID_ARGS"
    );
    assert_eq!(f.fails("create_tab", json!({"url": "   "})), "INVALID_ARGS");
    assert_eq!(f.fails("web_search", json!({"query": ""})), "INVALID_ARGS");
    assert_eq!(
        f.fails("web_search", json!({"query": "x", "engine": "Altavista"})),
        "NOT_FOUND"
    );
    assert_eq!(
        f.fails("search_history", json!({"startTime": 5, "endTime": 1})),
        "INVALID_ARGS"
    );
    assert_eq!(f.fails("browse", json!({"action": "fly"})), "INVALID_ARGS");
    assert_eq!(
        f.fails("browse", json!({"action": "scroll_down", "amount": -3})),
        "INVALID_ARGS"
    );
    assert_eq!(
        f.fails("browse", json!({"action": "back", "amount": 21})),
        "INVALID_ARGS"
    );
    // Nothing changed.
    assert_eq!(f.state(), Fixture::new().state());
}

#[test]
fn malformed_messages_are_answered_not_thrown() {
    let f = Fixture::new();
    for msg in [
        json!(null),
        json!(42),
        json!("close"),
        json!([]),
        json!({}),
        json!({"type": 5}),
        json!({"type": "tool"}),
        json!({"type": "tool", "name": 3}),
        json!({"type": "command"}),
        json!({"type": "undo", "undo_id": 4}),
        json!({"type": "launch_missiles"}),
    ] {
        let answer = f.send(msg.clone());
        assert_eq!(answer["ok"], false, "{msg} → {answer}");
        let code = answer["error"]["code"].as_str().unwrap();
        assert!(
            ["INVALID_ARGS", "UNKNOWN_COMMAND"].contains(&code),
            "{msg} → {answer}"
        );
    }
    let huge = "close ".repeat(20_000);
    let answer = f.send(json!({"type": "command", "text": huge}));
    assert_eq!(answer["error"]["code"], "INVALID_ARGS");
    let answer = f.send(json!({"type": "command", "text": "\u{0}\u{7}💥 ünïcödé"}));
    assert_eq!(answer["ok"], false);
    assert!(answer["reply"].as_str().is_some());
}

#[test]
fn list_tabs_filters_by_window_and_words() {
    let f = Fixture::new();
    let all = f.tool("list_tabs", json!({}));
    assert_eq!(all["result"]["count"], 8);
    let w2 = f.tool("list_tabs", json!({"windowId": 2}));
    assert_eq!(w2["result"]["count"], 2);
    let yt = f.tool("list_tabs", json!({"query": "YOUTUBE watch"}));
    assert_eq!(
        ids(&json!(yt["result"]["tabs"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["id"].clone())
            .collect::<Vec<_>>())),
        [2, 4]
    );
    let tab = &yt["result"]["tabs"][0];
    for key in [
        "id",
        "windowId",
        "index",
        "url",
        "title",
        "active",
        "pinned",
        "muted",
        "audible",
        "discarded",
        "groupId",
        "lastAccessed",
    ] {
        assert!(tab.get(key).is_some(), "tab has {key}: {tab}");
    }
    assert!(yt.get("undo_id").is_none(), "listing changes nothing");
}

#[test]
fn switch_tab_activates_and_focuses_and_undoes() {
    let f = Fixture::new();
    let r = f.tool("switch_tab", json!({"tabId": 8}));
    assert_eq!(r["result"]["tab"]["active"], true);
    let s = f.state();
    assert!(s.windows.iter().find(|w| w.id == 2).unwrap().focused);
    assert!(s.tabs.iter().find(|t| t.id == 8).unwrap().active);
    assert!(!s.tabs.iter().find(|t| t.id == 7).unwrap().active);
    f.undo();
    let s = f.state();
    assert!(s.windows.iter().find(|w| w.id == 1).unwrap().focused);
    assert!(s.tabs.iter().find(|t| t.id == 6).unwrap().active);
}

#[test]
fn close_tabs_never_empties_a_window() {
    let f = Fixture::new();
    assert_eq!(f.fails("close_tabs", json!({"tabIds": [7, 8]})), "REFUSED");
    assert_eq!(f.state().tabs.len(), 8);
    f.tool("close_tabs", json!({"tabIds": [8]}));
    assert_eq!(f.fails("close_tabs", json!({"tabIds": [7]})), "REFUSED");
    assert_eq!(
        f.fails("browse", json!({"action": "close_tab", "tabId": 7})),
        "REFUSED"
    );
}

#[test]
fn close_then_undo_restores_place_pin_group_and_focus() {
    let f = Fixture::new();
    let before = f.layout();
    let r = f.tool("close_tabs", json!({"tabIds": [1, 2, 3, 6]}));
    assert_eq!(r["result"]["count"], 4);
    assert!(r["undo_id"].as_str().is_some());
    let s = f.state();
    assert_eq!(s.tabs.len(), 4);
    assert!(s.groups.is_empty(), "the emptied group vanished");
    let answer = f.undo();
    assert!(
        answer["reply"].as_str().unwrap().contains("reopened 4"),
        "{answer}"
    );
    assert_eq!(f.layout(), before);
    let s = f.state();
    let active = s
        .tabs
        .iter()
        .find(|t| t.window_id == 1 && t.active)
        .unwrap();
    assert_eq!(active.url, "https://doc.rust-lang.org/book/");
    assert_eq!(
        f.send(json!({"type": "undo"}))["error"]["code"],
        "NOT_FOUND"
    );
}

#[test]
fn thirty_closed_tabs_come_back_in_place() {
    let mut state = sample_state();
    for i in 0..40 {
        state.tabs.push(tab(
            100 + i,
            1,
            10 + i,
            &format!("https://site{i}.example/"),
            &format!("Site {i}"),
        ));
    }
    let f = Fixture::with(state);
    let before = f.layout();
    let closing: Vec<i64> = (0..40).filter(|i| i % 4 != 0).map(|i| 100 + i).collect();
    assert_eq!(closing.len(), 30);
    f.tool("close_tabs", json!({"tabIds": closing}));
    assert_eq!(f.state().tabs.len(), 18);
    f.undo();
    assert_eq!(f.layout(), before);
}

#[test]
fn close_duplicates_keeps_active_then_pinned_then_oldest() {
    let mut state = sample_state();
    state.tabs.push(tab(
        9,
        1,
        6,
        "https://doc.rust-lang.org/book/#ch01",
        "The Rust Book",
    ));
    state.tabs.push(tab(
        10,
        2,
        2,
        "https://mail.google.com/mail/u/0/",
        "Inbox - Gmail",
    ));
    state
        .tabs
        .push(tab(11, 2, 3, "https://vimeo.com/1", "Dogs on Vimeo"));
    state
        .tabs
        .push(tab(12, 2, 4, "https://vimeo.com/1#t=30", "Dogs on Vimeo"));
    // Among some tabs only: the Vimeo copies, 3 kept as the oldest.
    let f = Fixture::with(state.clone());
    let r = f.tool("close_duplicate_tabs", json!({"tabIds": [3, 11, 12, 6]}));
    assert_eq!(ids(&r["result"]["closed"]), [11, 12]);
    assert_eq!(
        f.fails("close_duplicate_tabs", json!({"tabIds": [3, 99]})),
        "NOT_FOUND"
    );
    let f = Fixture::with(state);
    let r = f.tool("close_duplicate_tabs", json!({}));
    let mut closed = ids(&r["result"]["closed"]);
    closed.sort();
    // 9: copy of the active 6; 10: copy of pinned 1; 11, 12: copies of the older 3.
    assert_eq!(closed, [9, 10, 11, 12]);
    assert_eq!(r["result"]["count"], 4);
    // Per window it only looks in that window.
    let f = Fixture::with(sample_state());
    let r = f.tool("close_duplicate_tabs", json!({"windowId": 2}));
    assert_eq!(r["result"]["count"], 0);
    assert!(r.get("undo_id").is_none());
}

#[test]
fn close_duplicates_spares_pinned_copies_and_undoes() {
    let mut state = sample_state();
    let mut pinned_copy = tab(
        9,
        1,
        1,
        "https://mail.google.com/mail/u/0/",
        "Inbox - Gmail",
    );
    pinned_copy.pinned = true;
    state.tabs.push(pinned_copy);
    let f = Fixture::with(state);
    let before = f.layout();
    let r = f.tool("close_duplicate_tabs", json!({}));
    assert_eq!(r["result"]["count"], 0, "{r}");
    f.tool(
        "create_tab",
        json!({"url": "https://news.ycombinator.com/", "windowId": 1}),
    );
    let r = f.tool("close_duplicate_tabs", json!({}));
    assert_eq!(r["result"]["count"], 1);
    f.undo();
    f.undo();
    assert_eq!(f.layout(), before);
}

#[test]
fn group_tabs_new_and_existing_and_undo() {
    let f = Fixture::new();
    let before = f.layout();
    let r = f.tool(
        "group_tabs",
        json!({"tabIds": [5, 6], "title": "Rust", "color": "purple"}),
    );
    let group = &r["result"]["group"];
    assert_eq!(group["title"], "Rust");
    assert_eq!(group["color"], "purple");
    assert_eq!(ids(&group["tabIds"]), [5, 6]);
    let gid = group["id"].as_i64().unwrap();
    let r = f.tool("group_tabs", json!({"tabIds": [8], "groupId": gid}));
    assert_eq!(ids(&r["result"]["group"]["tabIds"]), [5, 6, 8]);
    let s = f.state();
    assert_eq!(s.tabs.iter().find(|t| t.id == 8).unwrap().window_id, 1);
    assert_eq!(f.fails("group_tabs", json!({"tabIds": [1]})), "REFUSED",);
    f.undo();
    f.undo();
    assert_eq!(f.layout(), before);
}

#[test]
fn ungroup_a_whole_group_and_undo_recreates_it() {
    let f = Fixture::new();
    let before = f.layout();
    let r = f.tool("ungroup_tabs", json!({"groupId": 201}));
    assert_eq!(r["result"]["count"], 2);
    assert!(f.state().groups.is_empty());
    let r = f.tool("list_groups", json!({}));
    assert_eq!(r["result"]["count"], 0);
    f.undo();
    assert_eq!(f.layout(), before, "same title and color, same tabs");
    let r = f.tool("list_groups", json!({}));
    assert_eq!(r["result"]["groups"][0]["title"], "Videos");
    assert_eq!(f.fails("ungroup_tabs", json!({})), "INVALID_ARGS");
}

#[test]
fn create_duplicate_reload_discard() {
    let f = Fixture::new();
    let r = f.tool(
        "create_tab",
        json!({"url": "bbc.co.uk", "index": 2, "active": false}),
    );
    let t = &r["result"]["tab"];
    assert_eq!(t["url"], "https://bbc.co.uk/");
    assert_eq!(t["index"], 2);
    assert_eq!(t["windowId"], 1);
    let r = f.tool(
        "create_tab",
        json!({"url": "http://127.0.0.1:8080/page", "pinned": true}),
    );
    assert_eq!(r["result"]["tab"]["pinned"], true);
    assert_eq!(r["result"]["tab"]["index"], 1, "pinned tabs stay first");
    let selected = r["result"]["tab"]["id"].as_i64().unwrap();
    let r = f.tool("duplicate_tab", json!({"tabId": 5}));
    let copy = r["result"]["tab"]["id"].as_i64().unwrap();
    assert_eq!(r["result"]["tab"]["url"], "https://docs.rs/candle-core");
    f.undo();
    assert!(f.state().tabs.iter().all(|t| t.id != copy));
    let active = f
        .state()
        .tabs
        .into_iter()
        .find(|t| t.active && t.window_id == 1);
    assert_eq!(
        active.unwrap().id,
        selected,
        "undo selects the tab selected before"
    );
    let r = f.tool("discard_tabs", json!({"tabIds": [4, selected]}));
    assert_eq!(ids(&r["result"]["discarded"]), [4]);
    assert_eq!(
        ids(&r["result"]["skipped"]),
        [selected],
        "the active tab stays loaded"
    );
    assert!(f.state().tabs.iter().find(|t| t.id == 4).unwrap().discarded);
    let r = f.tool("reload_tabs", json!({"tabIds": [4], "bypassCache": true}));
    assert_eq!(ids(&r["result"]["reloaded"]), [4]);
    assert!(!f.state().tabs.iter().find(|t| t.id == 4).unwrap().discarded);
}

#[test]
fn create_tab_in_a_new_window_then_undo_closes_that_window() {
    let f = Fixture::new();
    let before = f.layout();
    let windows = f.state().windows.len();
    let r = f.tool("create_tab", json!({"url": "bbc.co.uk", "newWindow": true}));
    let tab = &r["result"]["tab"];
    assert_eq!(tab["url"], "https://bbc.co.uk/");
    let state = f.state();
    assert_eq!(state.windows.len(), windows + 1);
    let window = tab["windowId"].as_i64().unwrap();
    let in_window: Vec<i64> = state
        .tabs
        .iter()
        .filter(|t| t.window_id == window)
        .map(|t| t.id)
        .collect();
    assert_eq!(
        in_window,
        [tab["id"].as_i64().unwrap()],
        "a window of its own"
    );
    f.undo();
    assert_eq!(f.state().windows.len(), windows);
    assert_eq!(f.layout(), before);
    // Where and whether it shows are the new window's to say.
    for args in [
        json!({"url": "bbc.co.uk", "newWindow": true, "windowId": 1}),
        json!({"url": "bbc.co.uk", "newWindow": true, "index": 0}),
        json!({"url": "bbc.co.uk", "newWindow": true, "active": false}),
    ] {
        assert_eq!(f.fails("create_tab", args), "INVALID_ARGS");
    }
    assert_eq!(f.state().windows.len(), windows);
}

#[test]
fn create_tab_in_a_group_joins_it_after_its_last_tab_and_undoes() {
    let f = Fixture::new();
    let before = f.layout();
    // The Videos group (tabs 2, 3 at 1-2) is collapsed. In Firefox the
    // active tab that joins it expands it; undo gives the group its look
    // back.
    f.tool("update_group", json!({"groupId": 201, "collapsed": true}));
    let collapsed = f.layout();
    let r = f.tool("create_tab", json!({"url": "bbc.co.uk", "groupId": 201}));
    let tab = &r["result"]["tab"];
    assert_eq!(tab["groupId"], 201);
    assert_eq!(
        (tab["windowId"].as_i64(), tab["index"].as_i64()),
        (Some(1), Some(3))
    );
    let state = f.state();
    let members: Vec<i64> = state
        .tabs
        .iter()
        .filter(|t| t.group_id == 201)
        .map(|t| t.id)
        .collect();
    assert_eq!(members, [2, 3, tab["id"].as_i64().unwrap()]);
    f.undo();
    assert_eq!(f.layout(), collapsed);
    assert!(f.state().groups.iter().any(|g| g.id == 201 && g.collapsed));
    f.undo();
    assert_eq!(f.layout(), before);
    // A group that is not there, a pinned tab, a new window or another
    // window: a clear error, and no tab opened.
    let tabs = f.state().tabs.len();
    assert_eq!(f.fails("create_tab", json!({"groupId": 999})), "NOT_FOUND");
    assert_eq!(
        f.fails("create_tab", json!({"groupId": 201, "pinned": true})),
        "REFUSED"
    );
    for args in [
        json!({"groupId": 201, "newWindow": true}),
        json!({"groupId": 201, "windowId": 2}),
        json!({"groupId": 201, "index": -1}),
    ] {
        assert_eq!(f.fails("create_tab", args), "INVALID_ARGS");
    }
    assert_eq!(f.state().tabs.len(), tabs);
}

#[test]
fn pin_and_mute_then_undo() {
    let f = Fixture::new();
    let before = f.layout();
    let r = f.tool("pin_tabs", json!({"tabIds": [5]}));
    assert_eq!(r["result"]["tabs"][0]["pinned"], true);
    assert_eq!(r["result"]["tabs"][0]["index"], 1);
    f.tool("pin_tabs", json!({"tabIds": [1], "pinned": false}));
    f.tool("mute_tabs", json!({"tabIds": [2, 4]}));
    assert!(f.state().tabs.iter().filter(|t| t.muted).count() == 2);
    f.undo();
    assert!(f.state().tabs.iter().all(|t| !t.muted));
    f.undo();
    f.undo();
    assert_eq!(f.layout(), before);
}

#[test]
fn collapse_and_update_group_then_undo() {
    let f = Fixture::new();
    let r = f.tool("collapse_group", json!({"groupId": 201}));
    assert_eq!(r["result"]["group"]["collapsed"], true);
    let r = f.tool(
        "update_group",
        json!({"groupId": 201, "title": " Watch later ", "color": "cyan"}),
    );
    assert_eq!(r["result"]["group"]["title"], "Watch later");
    assert_eq!(r["result"]["group"]["color"], "cyan");
    f.undo();
    let g = &f.state().groups[0];
    assert_eq!((g.title.as_str(), g.collapsed), ("Videos", true));
    f.undo();
    assert!(!f.state().groups[0].collapsed);
}

#[test]
fn web_search_uses_named_or_default_engine_in_a_new_tab() {
    let f = Fixture::new();
    let r = f.tool("list_search_engines", json!({}));
    assert_eq!(r["result"]["engines"].as_array().unwrap().len(), 3);
    let r = f.tool(
        "web_search",
        json!({"query": "rust async", "engine": "bing"}),
    );
    assert_eq!(r["result"]["engine"], "Bing");
    assert_eq!(r["result"]["tab"]["active"], true);
    assert!(r["result"]["tab"]["url"]
        .as_str()
        .unwrap()
        .contains("rust+async"));
    let r = f.tool(
        "web_search",
        json!({"query": "tokio", "engine": "wikipedia"}),
    );
    assert_eq!(r["result"]["engine"], "Wikipedia (en)");
    let r = f.tool("web_search", json!({"query": "tokio"}));
    assert_eq!(r["result"]["engine"], "Google");
    assert_eq!(f.state().tabs.len(), 11);
    f.undo();
    assert_eq!(f.state().tabs.len(), 10);
}

#[test]
fn bookmarks_search_and_create_into_a_new_folder_then_undo() {
    let f = Fixture::new();
    let r = f.tool("search_bookmarks", json!({"query": "cooking"}));
    assert_eq!(r["result"]["count"], 1);
    assert_eq!(r["result"]["bookmarks"][0]["folder"], "Cooking");
    let r = f.tool("create_bookmark", json!({"folder": "Reading"}));
    assert_eq!(r["result"]["folderCreated"], true);
    assert_eq!(
        r["result"]["bookmark"]["url"],
        "https://doc.rust-lang.org/book/"
    );
    assert_eq!(r["result"]["bookmark"]["title"], "The Rust Book");
    assert_eq!(r["result"]["bookmark"]["folder"], "Reading");
    let r = f.tool("create_bookmark", json!({"folder": "reading", "tabId": 5}));
    assert_eq!(r["result"]["folderCreated"], false);
    let r = f.tool(
        "create_bookmark",
        json!({"url": "example.org/x", "title": "X"}),
    );
    assert_eq!(r["result"]["bookmark"]["url"], "https://example.org/x");
    assert_eq!(f.state().bookmarks.len(), 5);
    // No query: the newest first.
    let r = f.tool("search_bookmarks", json!({"maxResults": 2}));
    assert_eq!(r["result"]["count"], 2);
    assert_eq!(r["result"]["bookmarks"][0]["title"], "X");
    assert_eq!(r["result"]["bookmarks"][1]["title"], "candle_core - Rust");
    assert_eq!(
        f.fails("search_bookmarks", json!({"query": 7})),
        "INVALID_ARGS"
    );
    f.undo();
    f.undo();
    f.undo();
    assert_eq!(f.state().bookmarks, sample_state().bookmarks);
}

#[test]
fn history_search_by_text_and_time() {
    let f = Fixture::new();
    let r = f.tool("search_history", json!({"query": "webgpu"}));
    assert_eq!(r["result"]["count"], 2);
    assert_eq!(
        r["result"]["items"][0]["title"], "WebGPU compute shaders",
        "newest first"
    );
    let r = f.tool(
        "search_history",
        json!({"query": "webgpu", "startTime": NOW - 2.0 * HOUR, "endTime": NOW}),
    );
    assert_eq!(r["result"]["count"], 1);
    let r = f.tool("search_history", json!({"maxResults": 2}));
    assert_eq!(r["result"]["count"], 2);
}

#[test]
fn browse_commands_act_on_the_active_tab() {
    let f = Fixture::new();
    let r = f.tool("browse", json!({"action": "scroll_down"}));
    assert_eq!(r["result"]["scrollY"], 400.0);
    assert_eq!(r["result"]["tab"]["id"], 6);
    let r = f.tool("browse", json!({"action": "page_down", "amount": 2}));
    assert_eq!(r["result"]["scrollY"], 2000.0);
    let r = f.tool("browse", json!({"action": "scroll_up", "amount": 100}));
    assert_eq!(r["result"]["scrollY"], 1900.0);
    let r = f.tool("browse", json!({"action": "top"}));
    assert_eq!(r["result"]["scrollY"], 0.0);
    let r = f.tool("browse", json!({"action": "bottom"}));
    assert!(r["result"]["scrollY"].as_f64().unwrap() > 1000.0);
    let r = f.tool("browse", json!({"action": "zoom_in"}));
    assert_eq!(r["result"]["zoom"], 1.1);
    let r = f.tool("browse", json!({"action": "zoom_out", "amount": 3}));
    assert_eq!(r["result"]["zoom"], 0.8);
    f.undo();
    let r = f.tool("browse", json!({"action": "zoom_reset"}));
    assert_eq!(r["result"]["zoom"], 1.0);
    // Reader view: in, again (nothing to do), undone, and out again.
    let url = |f: &Fixture| {
        f.state()
            .tabs
            .iter()
            .find(|t| t.id == 6)
            .unwrap()
            .url
            .clone()
    };
    let page = url(&f);
    let r = f.tool("browse", json!({"action": "reader_view"}));
    assert_eq!(r["result"]["readerView"], true);
    assert!(url(&f).starts_with("about:reader?url="), "{}", url(&f));
    let again = f.tool("browse", json!({"action": "reader_view"}));
    assert!(again.get("undo_id").is_none(), "nothing changed: {again}");
    f.undo();
    assert_eq!(url(&f), page, "undo left reader view");
    f.tool("browse", json!({"action": "reader_view"}));
    f.tool("browse", json!({"action": "exit_reader_view"}));
    assert_eq!(url(&f), page);
    // Gone on to another page since: undo leaves it there, and is spent.
    f.bg.browser().with_state(|s| {
        s.tabs.iter_mut().find(|t| t.id == 6).unwrap().url = "https://example.org/".into()
    });
    f.undo();
    assert_eq!(url(&f), "https://example.org/");
    let r = f.tool("browse", json!({"action": "zoom_to", "amount": 150}));
    assert_eq!(r["result"]["zoom"], 1.5);
    for amount in [json!(10), json!(501), json!(null)] {
        let args = json!({"action": "zoom_to", "amount": amount});
        assert_eq!(f.fails("browse", args), "INVALID_ARGS", "{amount}");
    }
    f.undo();
    let r = f.tool("browse", json!({"action": "zoom_in"}));
    assert_eq!(r["result"]["zoom"], 1.1, "undo put the zoom back to 100%");
    f.undo();
    for action in ["back", "forward", "reload", "hard_reload", "stop"] {
        let r = f.tool("browse", json!({"action": action}));
        assert_eq!(r["result"]["action"], action);
    }
    // Next wraps from the last tab to the first.
    let r = f.tool("browse", json!({"action": "next_tab"}));
    assert_eq!(r["result"]["tab"]["id"], 1);
    let r = f.tool("browse", json!({"action": "previous_tab"}));
    assert_eq!(r["result"]["tab"]["id"], 6);
    let r = f.tool("browse", json!({"action": "new_tab"}));
    let new = r["result"]["tab"]["id"].as_i64().unwrap();
    let r = f.tool("browse", json!({"action": "close_tab"}));
    assert_eq!(r["result"]["tab"]["id"], new);
    f.undo();
    assert!(f
        .state()
        .tabs
        .iter()
        .any(|t| t.url == "about:newtab" && t.active));
}

#[test]
fn a_new_window_opens_focused_and_undo_closes_it() {
    let f = Fixture::new();
    let windows = f.state().windows.len();
    let r = f.tool("browse", json!({"action": "new_window"}));
    let tab = r["result"]["tab"]["id"].as_i64().unwrap();
    let window = r["result"]["tab"]["windowId"].as_i64().unwrap();
    let s = f.state();
    assert_eq!(s.windows.len(), windows + 1);
    assert!(s.windows.iter().any(|w| w.id == window && w.focused));
    f.undo();
    let s = f.state();
    assert_eq!(s.windows.len(), windows, "closed again");
    assert!(s.tabs.iter().all(|t| t.id != tab));
    assert!(s.windows.iter().any(|w| w.focused));

    // A tab put in the new window since keeps it open: only the empty
    // tab the window opened with is closed.
    let r = f.tool("browse", json!({"action": "new_window"}));
    let tab = r["result"]["tab"]["id"].as_i64().unwrap();
    let window = r["result"]["tab"]["windowId"].as_i64().unwrap();
    block_on(f.bg.browser().move_tab(4, Some(window), -1)).unwrap();
    f.undo();
    let s = f.state();
    assert!(s.tabs.iter().all(|t| t.id != tab));
    assert_eq!(s.tabs.iter().find(|t| t.id == 4).unwrap().window_id, window);

    // Once it is the only window left, undo will not close it.
    let r = f.tool("browse", json!({"action": "new_window"}));
    let window = r["result"]["tab"]["windowId"].as_i64().unwrap();
    let b = f.bg.browser();
    for other in f.state().windows.iter().filter(|w| w.id != window) {
        block_on(b.close_window(other.id)).unwrap();
    }
    let undo = f.send(json!({"type": "undo"}));
    assert_eq!(undo["ok"], false, "{undo}");
    assert_eq!(undo["error"]["code"], "REFUSED", "{undo}");
    assert_eq!(f.state().windows.len(), 1);
}

#[test]
fn answers_carry_big_results_whole_while_the_log_keeps_them_short() {
    let mut state = sample_state();
    let window = state.tabs[0].window_id;
    for i in 0..300 {
        let id = 1000 + i;
        let index = state.tabs.len() as i64;
        state.tabs.push(tab(
            id,
            window,
            index,
            &format!("https://example.org/{i}"),
            &format!("Page {i}"),
        ));
    }
    let total = state.tabs.len();
    let fixture = Fixture::with(state);
    let answer = fixture.send(json!({"type": "command", "text": "list my tabs"}));
    assert_eq!(answer["ok"], true, "{answer}");
    let listed = &answer["calls"][0]["result"]["tabs"];
    assert_eq!(
        listed.as_array().map(Vec::len),
        Some(total),
        "{}",
        answer["calls"]
    );
    let log = fixture.send(json!({"type": "log"}));
    let entries = log["entries"].as_array().expect("log entries");
    let logged = &entries[0]["calls"][0]["result"]["tabs"];
    assert_eq!(logged, &json!({ "omitted": total }));
}

#[test]
fn command_answers_carry_the_plan_and_specials_explain_themselves() {
    let fixture = Fixture::new();
    let answer = fixture.send(json!({"type": "command", "text": "pin this tab"}));
    let planned: Vec<&str> = answer["plan"]
        .as_array()
        .expect("a plan")
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    let performed: Vec<&str> = answer["calls"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["tool"].as_str().unwrap())
        .collect();
    assert_eq!(planned, performed, "{answer}");
    let state = sample_state();
    for text in ["undo that", "yes", "no"] {
        let plan = ext_core::interpret::plan(text, &state, &Default::default());
        assert!(!plan.reply.is_empty(), "{text}: {}", plan.reply);
    }
}

#[test]
fn a_failed_undo_keeps_what_it_could_not_revert() {
    use ext_core::undo::{UndoEntry, UndoJournal, UndoStep};
    let browser = ext_core::memory::MemoryBrowser::new(sample_state());
    let tab = sample_state().tabs[0].id;
    let entry = UndoEntry {
        id: "u1".into(),
        time: 0.0,
        label: "test".into(),
        private: false,
        steps: vec![
            // Reverted last, and it fails: no such bookmark.
            UndoStep::RemoveBookmarks {
                ids: vec!["no-such-bookmark".into()],
            },
            UndoStep::Zoom {
                tab_id: tab,
                zoom: 1.5,
            },
        ],
    };
    let mut journal = UndoJournal::default();
    let error = futures::executor::block_on(journal.revert(&browser, &entry)).unwrap_err();
    assert!(
        error.message.contains("no-such-bookmark"),
        "{}",
        error.message
    );
    // The zoom was reverted; the bookmark step is back under the same id.
    assert_eq!(journal.entries.len(), 1);
    assert_eq!(journal.entries[0].id, "u1");
    assert_eq!(journal.entries[0].steps, entry.steps[..1]);
}

#[test]
fn settings_apply_at_once_persist_and_refuse_bad_values() {
    let mut state = sample_state();
    let window = state.tabs[0].window_id;
    for i in 0..12 {
        let index = state.tabs.len() as i64;
        state.tabs.push(tab(
            2000 + i,
            window,
            index,
            &format!("https://en.wikipedia.org/wiki/P{i}"),
            &format!("P{i} - Wikipedia"),
        ));
    }
    let fixture = Fixture::with(state.clone());
    let close = json!({"type": "command", "text": "close the wikipedia tabs"});
    assert_eq!(fixture.send(close.clone())["needs_confirmation"], true);
    fixture.send(json!({"type": "command", "text": "no"}));

    let answer =
        fixture.send(json!({"type": "set_settings", "settings": {"confirmThreshold": 20}}));
    assert_eq!(answer["settings"]["confirmThreshold"], 20, "{answer}");
    let answer = fixture.send(json!({"type": "set_settings", "settings": {"confirmThreshold": 0}}));
    assert_eq!(answer["error"]["code"], "INVALID_ARGS", "{answer}");
    let read = fixture.send(json!({"type": "settings"}));
    assert_eq!(
        read["settings"]["confirmThreshold"], 20,
        "a refused change changes nothing"
    );

    // After a restart the setting is still there, and applies.
    let (browser, storage) = fixture.bg.into_parts();
    let restarted = Fixture {
        bg: ext_core::background::Background::new(browser, storage),
    };
    let answer = restarted.send(close);
    assert_eq!(answer["needs_confirmation"], false, "{answer}");
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(restarted
        .state()
        .tabs
        .iter()
        .all(|t| !t.url.contains("wikipedia")));
}

/// A spoken command whose wake phrase was only likely ("Hey Philova, are
/// you coming tonight?") and that the interpreter cannot place was room
/// talk: nothing is answered or logged, and a question waiting for "yes"
/// still waits. So were words after the wake phrase that name nothing of
/// the tabs, but not after the mic button. A command it can place runs as
/// any other.
#[test]
fn room_talk_after_a_likely_wake_phrase_is_not_for_us() {
    let fixture = Fixture::new();
    let before = fixture.state();
    let close = fixture.send(json!({"type": "command", "text": "close all tabs"}));
    assert_eq!(close["needs_confirmation"], true, "{close}");
    let log_len = |f: &Fixture| {
        f.send(json!({"type": "log"}))["entries"]
            .as_array()
            .map_or(0, Vec::len)
    };
    let logged = log_len(&fixture);

    let talk = json!({"type": "command", "text": "are you coming tonight",
                      "spoken": true, "wake_unsure": true});
    let answer = fixture.send(talk);
    assert_eq!(answer["not_for_us"], true, "{answer}");
    assert_eq!(answer["reply"], "", "{answer}");
    assert_eq!(log_len(&fixture), logged);
    assert_eq!(fixture.state(), before);

    // After the wake phrase as written, with no language model set up,
    // words that name nothing of the tabs are room talk too…
    let said = json!({"type": "command", "text": "are you coming tonight",
                      "spoken": true, "by_wake_phrase": true});
    let answer = fixture.send(said);
    assert_eq!(answer["not_for_us"], true, "{answer}");
    assert_eq!(log_len(&fixture), logged);

    // …but words that name a tab, or any words after the mic button, are
    // for us: like any command but "yes", they cancel the question…
    let by_hand = json!({"type": "command", "text": "are you coming tonight", "spoken": true});
    let answer = fixture.send(by_hand.clone());
    assert_eq!(answer["cancelled"], true, "{answer}");
    assert!(answer.get("not_for_us").is_none(), "{answer}");
    // …and, with none waiting, are answered.
    let answer = fixture.send(by_hand);
    assert_eq!(answer["error"]["code"], "UNKNOWN_COMMAND", "{answer}");
    let named = json!({"type": "command", "text": "frobnicate the tabs",
                       "spoken": true, "by_wake_phrase": true});
    let answer = fixture.send(named);
    assert_eq!(answer["error"]["code"], "UNKNOWN_COMMAND", "{answer}");
    let yes = fixture.send(json!({"type": "command", "text": "yes"}));
    assert_eq!(yes["error"]["code"], "INVALID_ARGS", "{yes}");

    // A command after a likely wake phrase runs.
    let mute = json!({"type": "command", "text": "mute this tab",
                      "spoken": true, "wake_unsure": true});
    let answer = fixture.send(mute);
    assert_eq!(answer["ok"], true, "{answer}");
    assert!(answer.get("not_for_us").is_none(), "{answer}");
    assert_eq!(fixture.state().tabs.iter().filter(|t| t.muted).count(), 1);
}

/// After room talk the question still waits: "yes" answers it.
#[test]
fn room_talk_leaves_a_waiting_question_waiting() {
    let fixture = Fixture::new();
    let close = fixture.send(json!({"type": "command", "text": "close all tabs"}));
    assert_eq!(close["needs_confirmation"], true, "{close}");
    let talk = json!({"type": "command", "text": "are you coming tonight",
                      "spoken": true, "wake_unsure": true});
    assert_eq!(fixture.send(talk)["not_for_us"], true);
    let yes = fixture.send(json!({"type": "command", "text": "yes"}));
    assert_eq!(yes["ok"], true, "{yes}");
    assert!(fixture.state().tabs.len() < Fixture::new().state().tabs.len());
}

#[test]
fn bookmarking_several_tabs_is_one_command_undone_together() {
    let f = Fixture::new();
    let before = f.state().bookmarks.len();
    let web = f
        .state()
        .tabs
        .iter()
        .filter(|t| t.url.starts_with("http"))
        .count();
    let r = f.send(json!({"type": "command", "text": "bookmark all tabs in Saved"}));
    assert_eq!(r["ok"], true, "{r}");
    let saved: Vec<_> = f
        .state()
        .bookmarks
        .into_iter()
        .filter(|b| b.folder == "Saved")
        .collect();
    assert_eq!(saved.len(), web, "{r}");
    f.undo();
    let s = f.state();
    assert_eq!(s.bookmarks.len(), before);
    assert!(s.bookmarks.iter().all(|b| b.folder != "Saved"));
}
