//! The in-memory browser (the native tests' Firefox) against real Firefox:
//! the same calls, where window semantics matter, from the same start, must
//! leave the same tab strips. If Firefox changes, this fails, and the twin
//! (`ext_core::memory`) is fixed to match.

use crate::util::*;
use ext_core::browser::Browser;
use ext_core::memory::MemoryBrowser;
use ext_core::tab_state::{Group, NewTab, State, Tab};
use futures::executor::block_on;
use serde_json::json;
use tab_whisperer::harness::firefox::{local_only_prefs, Options};
use tab_whisperer::harness::layouts::api;
use tab_whisperer::{Firefox, PageServer};

/// One call; tabs are named by URL, windows by their place in the list of
/// windows at the start (a window opened later by `NewWindow` comes last).
enum Call {
    Focus(usize),
    Group(Vec<String>, Option<usize>),
    AddToGroupOf(Vec<String>, String),
    Ungroup(Vec<String>),
    /// Collapse or expand the group of the tab at this URL.
    Collapse(String, bool),
    Select(String),
    Move(String, Option<usize>, i64),
    Create(String, Option<usize>, Option<i64>),
    NewWindow(String),
    Close(Vec<String>),
}

/// Firefox's state in the STATE schema.
fn firefox_state(env: &Env) -> State {
    let v = api(
        &env.ff,
        r#"const windows = await browser.windows.getAll({ windowTypes: ["normal"] });
           const tabs = await browser.tabs.query({});
           const groups = await browser.tabGroups.query({});
           return {
             windows: windows.map(w => ({ id: w.id, focused: w.focused })),
             tabs: tabs.map(t => ({ id: t.id, windowId: t.windowId, index: t.index, url: t.url,
                                    title: t.title, active: t.active, pinned: t.pinned,
                                    muted: t.mutedInfo.muted, groupId: t.groupId })),
             groups: groups.map(g => ({ id: g.id, windowId: g.windowId, title: g.title,
                                        color: g.color, collapsed: g.collapsed })),
           };"#,
        json!(null),
    )
    .expect("Firefox's state");
    serde_json::from_value(v).expect("the STATE schema")
}

/// A tab as compared: URL, pinned, and its group (named by its first
/// tab's URL) with whether it is collapsed.
type Placed = (String, bool, Option<(String, bool)>);

/// Each window's strip as (URL, pinned, group): windows in id order, groups
/// named by the URL of their first tab (and whether collapsed), so that
/// ids do not matter.
fn strips(s: &State) -> Vec<Vec<Placed>> {
    let mut windows: Vec<i64> = s.windows.iter().map(|w| w.id).collect();
    windows.sort();
    windows
        .iter()
        .map(|w| {
            let mut tabs: Vec<&Tab> = s.tabs.iter().filter(|t| t.window_id == *w).collect();
            tabs.sort_by_key(|t| t.index);
            tabs.iter()
                .map(|t| {
                    let group = s
                        .groups
                        .iter()
                        .find(|g: &&Group| g.id == t.group_id)
                        .and_then(|g| {
                            let mut mine: Vec<&&Tab> =
                                tabs.iter().filter(|x| x.group_id == g.id).collect();
                            mine.sort_by_key(|x| x.index);
                            mine.first().map(|x| (x.url.clone(), g.collapsed))
                        });
                    (t.url.clone(), t.pinned, group)
                })
                .collect()
        })
        .collect()
}

fn tab_id(s: &State, url: &str) -> i64 {
    s.tabs
        .iter()
        .find(|t| t.url == url)
        .unwrap_or_else(|| panic!("a tab at {url}"))
        .id
}

/// Window ids at the start, then windows opened since, in id order.
fn window_ids(s: &State, start: &[i64]) -> Vec<i64> {
    let mut later: Vec<i64> = s
        .windows
        .iter()
        .map(|w| w.id)
        .filter(|w| !start.contains(w))
        .collect();
    later.sort();
    start.iter().copied().chain(later).collect()
}

fn run_in_firefox(env: &Env, call: &Call, start: &[i64]) {
    let s = firefox_state(env);
    let ids = |urls: &[String]| -> Vec<i64> { urls.iter().map(|u| tab_id(&s, u)).collect() };
    let windows = window_ids(&s, start);
    let (body, args) = match call {
        Call::Focus(w) => (
            "await browser.windows.update(args, { focused: true });",
            json!(windows[*w]),
        ),
        Call::Group(urls, w) => (
            "return await browser.tabs.group(args);",
            match w {
                Some(w) => {
                    json!({ "tabIds": ids(urls), "createProperties": { "windowId": windows[*w] } })
                }
                None => json!({ "tabIds": ids(urls) }),
            },
        ),
        Call::AddToGroupOf(urls, member) => {
            let group = s.tabs.iter().find(|t| t.url == *member).unwrap().group_id;
            (
                "return await browser.tabs.group(args);",
                json!({ "tabIds": ids(urls), "groupId": group }),
            )
        }
        Call::Ungroup(urls) => ("await browser.tabs.ungroup(args);", json!(ids(urls))),
        Call::Select(url) => (
            "await browser.tabs.update(args, { active: true });",
            json!(tab_id(&s, url)),
        ),
        Call::Collapse(member, collapsed) => {
            let group = s.tabs.iter().find(|t| t.url == *member).unwrap().group_id;
            (
                "await browser.tabGroups.update(args[0], { collapsed: args[1] });",
                json!([group, collapsed]),
            )
        }
        Call::Move(url, w, index) => (
            "await browser.tabs.move(args[0], args[1]);",
            match w {
                Some(w) => json!([tab_id(&s, url), { "windowId": windows[*w], "index": index }]),
                None => json!([tab_id(&s, url), { "index": index }]),
            },
        ),
        Call::Create(url, w, index) => {
            let mut info = json!({ "url": url, "active": false });
            if let Some(w) = w {
                info["windowId"] = json!(windows[*w]);
            }
            if let Some(i) = index {
                info["index"] = json!(i);
            }
            ("await browser.tabs.create(args);", info)
        }
        Call::NewWindow(url) => ("await browser.windows.create({ url: args });", json!(url)),
        Call::Close(urls) => ("await browser.tabs.remove(args);", json!(ids(urls))),
    };
    api(&env.ff, body, args.clone()).unwrap_or_else(|e| panic!("{body} {args}: {e}"));
    // A new tab shows about:blank until its page starts loading.
    if let Call::Create(url, ..) | Call::NewWindow(url) = call {
        tab_whisperer::wait_for(LOAD, "the new tab's address", || {
            Ok(firefox_state(env)
                .tabs
                .iter()
                .any(|t| t.url == *url)
                .then_some(()))
        })
        .unwrap();
    }
}

fn run_in_twin(twin: &MemoryBrowser, call: &Call, start: &[i64]) {
    let s = twin.state();
    let ids = |urls: &[String]| -> Vec<i64> { urls.iter().map(|u| tab_id(&s, u)).collect() };
    let windows = window_ids(&s, start);
    let done = match call {
        Call::Focus(w) => block_on(twin.focus_window(windows[*w])),
        Call::Group(urls, w) => {
            block_on(twin.group_tabs(&ids(urls), None, w.map(|w| windows[w]))).map(|_| ())
        }
        Call::AddToGroupOf(urls, member) => {
            let group = s.tabs.iter().find(|t| t.url == *member).unwrap().group_id;
            block_on(twin.group_tabs(&ids(urls), Some(group), None)).map(|_| ())
        }
        Call::Ungroup(urls) => block_on(twin.ungroup_tabs(&ids(urls))),
        Call::Select(url) => block_on(twin.activate_tab(tab_id(&s, url))),
        Call::Collapse(member, collapsed) => {
            let group = s.tabs.iter().find(|t| t.url == *member).unwrap().group_id;
            let change = ext_core::tab_state::GroupChange {
                collapsed: Some(*collapsed),
                ..Default::default()
            };
            block_on(twin.update_group(group, &change))
        }
        Call::Move(url, w, index) => {
            block_on(twin.move_tab(tab_id(&s, url), w.map(|w| windows[w]), *index))
        }
        Call::Create(url, w, index) => block_on(twin.create_tab(&NewTab {
            url: Some(url.clone()),
            window_id: w.map(|w| windows[w]),
            index: *index,
            ..NewTab::default()
        }))
        .map(|_| ()),
        Call::NewWindow(url) => block_on(twin.create_window(&NewTab {
            url: Some(url.clone()),
            ..NewTab::default()
        }))
        .map(|_| ()),
        Call::Close(urls) => block_on(twin.close_tabs(&ids(urls))),
    };
    done.expect("the twin takes the call");
}

#[test]
fn the_twin_places_tabs_as_firefox_does() {
    // Firefox as users have it: closing a window's last tab closes the
    // window (the other tests keep windows open to protect the harness's).
    let mut prefs = local_only_prefs();
    prefs.insert("browser.tabs.closeWindowWithLastTab".into(), json!(true));
    let env = Env {
        ff: Firefox::start(Options {
            prefs,
            ..Options::default()
        })
        .expect("Firefox with the add-on"),
        pages: PageServer::start().expect("local page server"),
    };
    let page = |name: &str| env.pages.page(name);
    let a: Vec<String> = ["A1", "A2", "A3", "A4"].iter().map(|n| page(n)).collect();
    let b: Vec<String> = ["B1", "B2", "B3", "B4"].iter().map(|n| page(n)).collect();
    // Window 0 is the harness's (its page stays first); window 1 is new.
    env.open(&["A1", "A2", "A3", "A4"]);
    api(
        &env.ff,
        r#"const win = await browser.windows.create({ url: args[0] });
           for (const url of args.slice(1)) await browser.tabs.create({ windowId: win.id, url });"#,
        json!(b),
    )
    .unwrap();
    let all: Vec<&str> = ["B1", "B2", "B3", "B4"].to_vec();
    let ids: Vec<i64> = env
        .tabs()
        .iter()
        .filter(|t| b.iter().any(|u| t["url"] == u.as_str()))
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    env.wait_titles(&ids, &all);
    let mut s = firefox_state(&env);
    s.windows.sort_by_key(|w| w.id);
    let start: Vec<i64> = s.windows.iter().map(|w| w.id).collect();
    assert_eq!(start.len(), 2);
    let twin = MemoryBrowser::new(s.clone());
    assert_eq!(strips(&twin.state()), strips(&s), "the same start");

    let urls = |v: &[&String]| -> Vec<String> { v.iter().map(|s| s.to_string()).collect() };
    let calls = vec![
        ("focus the harness window", Call::Focus(0)),
        (
            "group in the tabs' own window",
            Call::Group(urls(&[&b[0], &b[1]]), Some(1)),
        ),
        (
            "group with no window: the focused one",
            Call::Group(urls(&[&b[3]]), None),
        ),
        (
            "move into another window, inside a group",
            Call::Move(a[0].clone(), Some(1), 1),
        ),
        (
            "move right within a window",
            Call::Move(a[1].clone(), None, 3),
        ),
        (
            "move left within a window",
            Call::Move(a[3].clone(), None, 1),
        ),
        (
            "create in a window, inside a group",
            Call::Create(page("C1"), Some(1), Some(1)),
        ),
        (
            "create with no window: the focused one",
            Call::Create(page("C2"), None, None),
        ),
        (
            "add to a group in another window",
            Call::AddToGroupOf(urls(&[&a[2]]), b[0].clone()),
        ),
        (
            "ungroup from the middle of a group",
            Call::Ungroup(urls(&[&a[0]])),
        ),
        ("collapse a group", Call::Collapse(b[0].clone(), true)),
        (
            "add a tab to a collapsed group",
            Call::AddToGroupOf(urls(&[&b[2]]), b[0].clone()),
        ),
        ("collapse it again", Call::Collapse(b[0].clone(), true)),
        (
            "create a tab inside a collapsed group",
            Call::Create(page("C4"), Some(1), Some(1)),
        ),
        ("collapse it once more", Call::Collapse(b[0].clone(), true)),
        (
            "move a tab into a collapsed group",
            Call::Move(a[0].clone(), Some(1), 2),
        ),
        (
            "collapse it a last time",
            Call::Collapse(b[0].clone(), true),
        ),
        (
            "select a tab in a collapsed group",
            Call::Select(b[1].clone()),
        ),
        ("open a new window", Call::NewWindow(page("D1"))),
        ("focus the new window", Call::Focus(2)),
        (
            "create with no window after a focus change",
            Call::Create(page("C3"), None, Some(0)),
        ),
        (
            "close a window's last tabs",
            Call::Close(urls(&[&page("D1"), &page("C3")])),
        ),
    ];
    for (what, call) in &calls {
        run_in_firefox(&env, call, &start);
        run_in_twin(&twin, call, &start);
        let (real, twin_now) = (firefox_state(&env), twin.state());
        assert_eq!(
            strips(&twin_now),
            strips(&real),
            "after \"{what}\": the twin (left) differs from Firefox (right)"
        );
    }
}
