//! Undo puts tabs back exactly (window, index, pinned, muted, group look,
//! active tab) and grouping never drags tabs across windows, against the
//! in-memory browser, which behaves as Firefox does there (the Firefox
//! tests check that it does).

mod common;

use common::*;
use ext_core::layout::{random_change, Layout, Seeded};
use ext_core::Browser;
use futures::executor::block_on;
use serde_json::{json, Value};

fn url(title: &str) -> String {
    format!("https://pages.example/{}", title.replace(' ', "-"))
}

fn ids(v: &Value) -> Vec<i64> {
    v.as_array()
        .unwrap()
        .iter()
        .map(|x| x.as_i64().unwrap())
        .collect()
}

#[test]
fn closing_100_tabs_of_two_windows_and_undoing_puts_every_one_back() {
    let f = Fixture::with(Layout::issue_15(100).state(NOW, url));
    let before = snapshot(&f.state());
    let closing: Vec<i64> = f
        .state()
        .tabs
        .iter()
        .filter(|t| !t.title.starts_with("Keep"))
        .map(|t| t.id)
        .collect();
    assert_eq!(closing.len(), 100);
    f.tool("close_tabs", json!({ "tabIds": closing }));
    assert_eq!(f.state().tabs.len(), 2);
    let answer = f.undo();
    assert!(
        answer["reply"].as_str().unwrap().contains("reopened 100"),
        "{answer}"
    );
    let after = f.state();
    assert_eq!(snapshot(&after), before);
    // Only the tabs that were active (one per window) and the pinned ones
    // load at once; the others come back unloaded, with their titles.
    let loaded: Vec<&str> = after
        .tabs
        .iter()
        .filter(|t| !t.discarded && !t.title.starts_with("Keep"))
        .map(|t| t.title.as_str())
        .collect();
    assert_eq!(loaded.len(), 1 + 5, "{loaded:?}");
    assert!(after
        .tabs
        .iter()
        .filter(|t| t.discarded)
        .all(|t| t.title.starts_with("Tab ")));
}

#[test]
fn grouping_tabs_of_two_windows_makes_a_group_in_each() {
    let f = Fixture::new();
    // Window 1 is focused; tabs 5 (window 1) and 7, 8 (window 2).
    let before = snapshot(&f.state());
    let r = f.tool(
        "group_tabs",
        json!({ "tabIds": [7, 5, 8], "title": "Later", "color": "cyan" }),
    );
    let groups = r["result"]["groups"].as_array().unwrap().clone();
    assert_eq!(groups.len(), 2, "{r}");
    assert_eq!(groups[0]["windowId"], 2);
    assert_eq!(ids(&groups[0]["tabIds"]), [7, 8]);
    assert_eq!(groups[1]["windowId"], 1);
    assert_eq!(ids(&groups[1]["tabIds"]), [5]);
    assert_eq!(r["result"]["group"], groups[0]["group"]);
    assert_eq!(ids(&r["result"]["tabIds"]), [7, 8]);
    let said = f.send(json!({"type": "log"}))["entries"][0]["reply"].clone();
    assert!(
        said.as_str().unwrap().contains("each of 2 windows"),
        "{said}"
    );
    let s = f.state();
    for (id, window) in [(5, 1), (7, 2), (8, 2)] {
        let t = s.tabs.iter().find(|t| t.id == id).unwrap();
        assert_eq!(t.window_id, window, "tab {id} stays in its window");
        let g = s.groups.iter().find(|g| g.id == t.group_id).unwrap();
        assert_eq!((g.title.as_str(), g.window_id), ("Later", window));
    }
    f.undo();
    assert_eq!(snapshot(&f.state()), before);
}

#[test]
fn the_twin_groups_in_the_focused_window_when_not_told_otherwise() {
    // As Firefox does: tabs.group without createProperties.windowId.
    let f = Fixture::new();
    let b = f.bg.browser();
    let gid = block_on(b.group_tabs(&[7, 8], None, None)).unwrap();
    let s = f.state();
    assert!(
        s.windows.iter().all(|w| w.id != 2),
        "window 2 emptied and closed"
    );
    assert!(s
        .tabs
        .iter()
        .filter(|t| t.group_id == gid)
        .all(|t| t.window_id == 1));
}

#[test]
fn tabs_of_a_window_closed_since_come_back_together_in_a_new_window() {
    let f = Fixture::new();
    let window_2: Vec<(String, bool)> = f
        .state()
        .tabs
        .iter()
        .filter(|t| t.window_id == 2)
        .map(|t| (t.url.clone(), t.active))
        .collect();
    f.tool("close_tabs", json!({ "tabIds": [8] }));
    // The user then closes window 2 themselves.
    block_on(f.bg.browser().close_tabs(&[7])).unwrap();
    assert_eq!(f.state().windows.len(), 1);
    let answer = f.undo();
    assert!(
        answer["reply"].as_str().unwrap().contains("reopened 1"),
        "{answer}"
    );
    let s = f.state();
    assert_eq!(s.windows.len(), 2, "one new window");
    let new_window = s.windows.iter().find(|w| w.id != 1).unwrap().id;
    let back: Vec<&str> = s
        .tabs
        .iter()
        .filter(|t| t.window_id == new_window)
        .map(|t| t.url.as_str())
        .collect();
    assert_eq!(back, [window_2[1].0.as_str()]);
}

#[test]
fn undo_of_a_move_never_empties_a_window() {
    let f = Fixture::new();
    f.tool("move_tabs", json!({ "tabIds": [5], "windowId": 2 }));
    // The user then moves the other tabs of window 2 away by hand: tab 5
    // is its last. Putting it back would close window 2, so it stays.
    let b = f.bg.browser();
    block_on(b.move_tab(7, Some(1), -1)).unwrap();
    block_on(b.move_tab(8, Some(1), -1)).unwrap();
    f.undo();
    let s = f.state();
    assert_eq!(s.windows.len(), 2);
    assert_eq!(s.tabs.iter().find(|t| t.id == 5).unwrap().window_id, 2);
}

#[test]
fn random_changes_on_random_layouts_are_undone_exactly() {
    let mut checked = 0;
    for seed in 0..300u64 {
        let mut rng = Seeded::new(seed);
        let layout = Layout::random(&mut rng);
        let f = Fixture::with(layout.state(NOW, url));
        for step in 0..4 {
            let before = snapshot(&f.state());
            let (name, args) = random_change(&f.state(), &mut rng);
            let call = json!({ "name": name, "args": args });
            let answer = f.send(json!({ "type": "tool", "name": name, "args": args }));
            if answer["ok"] != true || answer.get("undo_id").is_none() {
                // Refused or nothing to change: nothing may have moved.
                assert_eq!(
                    snapshot(&f.state()),
                    before,
                    "seed {seed} step {step}: {call} → {answer}"
                );
                continue;
            }
            let undo = f.send(json!({ "type": "undo" }));
            assert_eq!(undo["ok"], true, "seed {seed} step {step}: {call} → {undo}");
            assert_eq!(
                snapshot(&f.state()),
                before,
                "seed {seed} step {step}: {call} then undo"
            );
            checked += 1;
        }
    }
    assert!(checked > 500, "{checked} changes undone");
}

#[test]
fn tabs_firefox_will_not_reopen_are_named_not_brought_back_blank() {
    let mut state = sample_state();
    state.tabs[3].url = "file:///home/me/notes.txt".into();
    state.tabs[3].title = "notes.txt".into();
    state.tabs[4].url = "about:reader?url=https%3A%2F%2Fexample.org%2F".into();
    state.tabs[4].title = "Reader: Example".into();
    let f = Fixture::with(state);
    f.tool("close_tabs", json!({ "tabIds": [3, 4, 5] }));
    let answer = f.undo();
    let reply = answer["reply"].as_str().unwrap();
    assert!(reply.contains("reopened 1 tab"), "{reply}");
    assert!(
        reply.contains("notes.txt (file:///home/me/notes.txt)"),
        "{reply}"
    );
    assert!(reply.contains("Reader: Example"), "{reply}");
    assert_eq!(answer["report"]["notReopened"].as_array().unwrap().len(), 2);
    let s = f.state();
    assert!(s.tabs.iter().any(|t| t.url == "https://vimeo.com/1"));
    assert_eq!(s.tabs.len(), 8 - 3 + 1, "no blank tab in their place");
}

/// "reopen the tab I just closed" brings Hacker News back and leaves the
/// Rust Book muted, whether the mute came after the close or in the same
/// command; "undo" then unmutes it.
#[test]
fn reopen_undoes_the_newest_close_and_nothing_else() {
    let closed_then_muted: &[&str] = &["close hacker news", "mute the rust book"];
    let in_one_command: &[&str] = &["close hacker news and mute the rust book"];
    for commands in [closed_then_muted, in_one_command] {
        let f = Fixture::new();
        let say = |text: &str| {
            let answer = f.send(json!({ "type": "command", "text": text }));
            assert_eq!(answer["ok"], true, "{commands:?}, '{text}' → {answer}");
        };
        let book_muted = |f: &Fixture| {
            let s = f.state();
            s.tabs.iter().any(|t| t.title == "The Rust Book" && t.muted)
        };
        commands.iter().for_each(|c| say(c));
        say("reopen the tab I just closed");
        let hn = "https://news.ycombinator.com/";
        assert!(f.state().tabs.iter().any(|t| t.url == hn), "{commands:?}");
        assert!(book_muted(&f), "{commands:?}: the mute stays");
        say("undo");
        assert!(!book_muted(&f), "{commands:?}: undo still unmutes");
        let nothing = f.send(json!({ "type": "command", "text": "reopen the last closed tab" }));
        assert_eq!(nothing["error"]["code"], "NOT_FOUND", "{nothing}");
    }
}

/// "undo the last two changes" reverts the two newest, newest first, and
/// leaves the one before; asked for more than there are, it undoes what
/// there is and says the rest could not be.
#[test]
fn undo_the_last_two_changes_reverts_the_two_newest() {
    let f = Fixture::new();
    let say = |text: &str| {
        let answer = f.send(json!({ "type": "command", "text": text }));
        assert_eq!(answer["ok"], true, "'{text}' → {answer}");
        answer
    };
    let tab = |f: &Fixture, title: &str| {
        f.state()
            .tabs
            .into_iter()
            .find(|t| t.title == title)
            .unwrap()
    };
    say("mute hacker news");
    say("mute the rust book");
    say("pin the rust book");
    let answer = say("undo the last two changes");
    let reply = answer["reply"].as_str().unwrap();
    assert_eq!(reply.matches("Undid").count(), 2, "{reply}");
    assert!(!tab(&f, "The Rust Book").pinned);
    assert!(!tab(&f, "The Rust Book").muted);
    assert!(tab(&f, "Hacker News").muted, "the change before stays");
    let answer = say("undo three times");
    let reply = answer["reply"].as_str().unwrap();
    assert!(!tab(&f, "Hacker News").muted);
    assert_eq!(reply.matches("Undid").count(), 1, "{reply}");
    assert!(reply.contains("Then:"), "{reply}");
}
