//! What pages say, read by the background for "group by topic" with no
//! language model: tabs whose titles share nothing are grouped by their
//! pages' descriptions, and only when the command groups by topic.

mod common;

use common::*;
use ext_core::storage::MemoryStorage;
use ext_core::tab_state::{PageText, State, Window};
use ext_core::{Background, MemoryBrowser};
use futures::executor::block_on;
use serde_json::json;

fn described(description: &str) -> PageText {
    PageText {
        meta: vec![("description".into(), description.into())],
        ..PageText::default()
    }
}

#[test]
fn group_by_topic_reads_what_the_pages_say() {
    let state = State {
        windows: vec![Window {
            id: 1,
            focused: true,
            incognito: false,
        }],
        tabs: vec![
            tab(1, 1, 0, "https://a.example/1", "Alpha"),
            tab(2, 1, 1, "https://b.example/2", "Bravo"),
            tab(3, 1, 2, "https://c.example/3", "Charlie"),
            tab(4, 1, 3, "https://d.example/4", "Delta"),
            tab(5, 1, 4, "about:preferences", "Settings"),
        ],
        ..State::default()
    };
    let browser = MemoryBrowser::new(state.clone());
    browser.set_page(1, described("Easy pasta dinners for weeknights"));
    browser.set_page(2, described("Fresh pasta from scratch"));
    browser.set_page(3, described("WebGPU compute shaders explained"));
    browser.set_page(4, described("Getting started with WebGPU"));
    let bg = Background::new(browser, MemoryStorage::default());
    let answer =
        block_on(bg.handle(json!({ "type": "command", "text": "group my tabs by topic" })));
    assert_eq!(answer["ok"], true, "{answer}");
    let groups: Vec<Vec<i64>> = {
        let state = bg.browser().state();
        let mut groups: Vec<Vec<i64>> = state
            .groups
            .iter()
            .map(|g| {
                state
                    .tabs
                    .iter()
                    .filter(|t| t.group_id == g.id)
                    .map(|t| t.id)
                    .collect()
            })
            .collect();
        groups.sort();
        groups
    };
    assert_eq!(groups, [vec![1, 2], vec![3, 4]], "{answer}");

    // Without what the pages say, the titles share nothing.
    let bg = Background::new(MemoryBrowser::new(state), MemoryStorage::default());
    let answer =
        block_on(bg.handle(json!({ "type": "command", "text": "group my tabs by topic" })));
    assert_eq!(answer["ok"], false, "{answer}");
}
