//! The extension loads, answers messages, and sees real tabs.

use std::time::Duration;

use serde_json::{json, Value};
use tab_whisperer::{wait_for, Firefox, PageServer};

#[test]
fn extension_answers_and_sees_tabs() {
    let pages = PageServer::start().unwrap();
    let ff = Firefox::headless().unwrap();

    // The tool schemas.
    let answer = ff.send(&json!({ "type": "schemas" })).unwrap();
    assert_eq!(answer["ok"], true, "{answer}");
    let schemas = answer["schemas"].as_array().expect("schemas array");
    assert!(
        schemas.len() >= 21,
        "only {} schemas: {answer}",
        schemas.len()
    );
    for schema in schemas {
        assert_eq!(schema["type"], "function", "{schema}");
        let name = schema["function"]["name"].as_str().unwrap_or_default();
        assert!(!name.is_empty(), "schema without a name: {schema}");
    }

    // Unknown messages are refused with an error code.
    let answer = ff.send(&json!({ "type": "bogus" })).unwrap();
    assert_eq!(answer["ok"], false, "{answer}");
    let code = answer["error"]["code"].as_str().unwrap_or_default();
    assert!(!code.is_empty(), "no error code: {answer}");

    // A tab opened through the extension shows up with its page's title.
    let url = pages.page("Smoke test page");
    let created = ff.tool_result("create_tab", json!({ "url": url })).unwrap();
    let tab_id = created["tab"]["id"].clone();
    assert!(tab_id.is_number(), "{created}");
    let tab: Value = wait_for(
        Duration::from_secs(10),
        "the page title in list_tabs",
        || {
            let listed = ff.tool_result("list_tabs", json!({}))?;
            let tabs = listed["tabs"].as_array().cloned().unwrap_or_default();
            Ok(tabs
                .into_iter()
                .find(|t| t["id"] == tab_id && t["title"] == "Smoke test page"))
        },
    )
    .unwrap();
    assert_eq!(tab["url"], url, "{tab}");
}
