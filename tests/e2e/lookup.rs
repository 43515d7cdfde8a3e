//! Search engines, web search, bookmarks and history in real Firefox.

use crate::util::*;
use serde_json::json;

#[test]
fn search_engines_and_web_search_open_a_results_tab() {
    let env = start();
    let engines = env.ok("list_search_engines", json!({}))["result"]["engines"].clone();
    let engines = engines.as_array().expect("engines").clone();
    assert!(!engines.is_empty(), "Firefox has search engines");
    assert_eq!(
        engines.iter().filter(|e| e["isDefault"] == true).count(),
        1,
        "{engines:?}"
    );
    let name = engines[engines.len() - 1]["name"]
        .as_str()
        .unwrap()
        .to_string();
    let count = env.tabs().len();
    let r = env.ok(
        "web_search",
        json!({ "query": "quokka habitat", "engine": name.to_lowercase() }),
    );
    assert_eq!(r["result"]["engine"], name.as_str());
    let id = r["result"]["tab"]["id"].as_i64().unwrap();
    assert_eq!(env.tabs().len(), count + 1);
    // The new tab goes to the engine's results for the query. The host name
    // resolves to 127.0.0.1 in tests, so nothing leaves this machine.
    let t = env.wait_tab(id, "the results URL", |t| {
        t["url"].as_str().is_some_and(|u| u.contains("quokka"))
    });
    assert_eq!(t["active"], true);
    assert_eq!(
        env.fails(
            "web_search",
            json!({ "query": "x", "engine": "No Such Engine" })
        ),
        "NOT_FOUND"
    );
    // Default engine.
    let r = env.ok("web_search", json!({ "query": "wombat" }));
    let default = engines.iter().find(|e| e["isDefault"] == true).unwrap();
    assert_eq!(r["result"]["engine"], default["name"]);
    env.undo();
    assert_eq!(env.tabs().len(), count + 1, "undo closes the results tab");
}

/// What the background answers to a typed command.
fn ask(env: &Env, text: &str) -> serde_json::Value {
    env.ff.command(text).expect("the background answers")
}

/// "how many bookmarks do I have", "show my recent bookmarks", "is this
/// page bookmarked", "what's in my marsupials folder", "open koala diet
/// in a new tab" and "open all my marsupials bookmarks":
/// Firefox's bookmark search does not look in folder names, so the
/// snapshot reads the folder itself.
#[test]
fn recent_and_asked_for_bookmarks_and_a_folder_opened_whole_then_undone() {
    let env = start();
    let titles = ["Wombat burrows", "Quokka facts", "Koala diet"];
    let ids = env.open(&titles);
    // "how many bookmarks do I have": the whole tree counted (a new
    // profile has a few of Firefox's own).
    let count = |env: &Env| -> u64 {
        let r = ask(env, "how many bookmarks do I have");
        let reply = r["reply"].as_str().unwrap_or_default().to_string();
        let n = reply
            .split_whitespace()
            .find_map(|w| w.parse().ok())
            .unwrap_or(0);
        assert!(reply.contains("bookmark"), "{r}");
        n
    };
    let before = count(&env);
    for id in &ids {
        env.ok(
            "create_bookmark",
            json!({ "tabId": id, "folder": "Marsupials" }),
        );
    }
    // The newest bookmarks, as "show my recent bookmarks" lists them.
    let recent = env.ok("search_bookmarks", json!({ "maxResults": 3 }))["result"].clone();
    let mut newest: Vec<&str> = recent["bookmarks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["title"].as_str().unwrap())
        .collect();
    newest.sort();
    assert_eq!(
        newest,
        ["Koala diet", "Quokka facts", "Wombat burrows"],
        "{recent}"
    );
    assert_eq!(count(&env), before + 3);
    let r = ask(&env, "how many bookmarks are in my marsupials folder");
    assert_eq!(r["reply"], "You have 3 bookmarks in 'Marsupials'.", "{r}");
    let r = ask(&env, "what's in my marsupials folder");
    assert_eq!(
        r["reply"],
        "Your 'Marsupials' folder has 3 bookmarks: 'Wombat burrows', 'Quokka facts', 'Koala diet'.",
        "{r}"
    );
    let r = ask(&env, "show my recent bookmarks");
    assert!(r["reply"].as_str().unwrap().contains("'Koala diet'"), "{r}");

    // Whether the page in front is bookmarked, and where.
    env.ok("switch_tab", json!({ "tabId": ids[1] }));
    let r = ask(&env, "is this page bookmarked");
    assert_eq!(
        r["reply"], "Yes, 'Quokka facts' is bookmarked, in Marsupials.",
        "{r}"
    );

    env.ok("close_tabs", json!({ "tabIds": ids }));
    let before = env.tabs().len();
    let r = ask(&env, "is this page bookmarked");
    assert!(
        r["reply"].as_str().unwrap().contains("is not bookmarked"),
        "{r}"
    );
    // Asked about by its title with no tab open: the snapshot reads it.
    let r = ask(&env, "is wombat burrows bookmarked");
    assert_eq!(
        r["reply"], "Yes, you have a bookmark 'Wombat burrows', in Marsupials.",
        "{r}"
    );
    // A bookmark by its title, in a new tab: the snapshot reads it.
    let r = ask(&env, "open koala diet in a new tab");
    assert_eq!(
        r["reply"], "Opened your bookmark 'Koala diet' in a new tab.",
        "{r}"
    );
    env.wait_for_title("Koala diet");
    env.undo();
    assert_eq!(env.tabs().len(), before);

    let r = ask(&env, "open all my marsupials bookmarks");
    assert_eq!(r["ok"], true, "{r}");
    assert!(
        r["reply"]
            .as_str()
            .unwrap()
            .contains("Opened the 3 bookmarks in 'Marsupials'."),
        "{r}"
    );
    for title in titles {
        env.wait_for_title(title);
    }
    assert_eq!(env.tabs().len(), before + 3);

    env.undo();
    let tabs = env.tabs();
    assert_eq!(tabs.len(), before, "undo closes the three: {tabs:?}");
    for title in titles {
        assert!(tabs.iter().all(|t| t["title"] != title), "{title}");
    }
}

#[test]
fn bookmarks_into_a_new_folder_and_history_search() {
    let env = start();
    let ids = env.open(&["Quokka facts", "Wombat burrows"]);

    let r = env.ok(
        "create_bookmark",
        json!({ "tabId": ids[0], "folder": "E2E Reading" }),
    );
    assert_eq!(r["result"]["folderCreated"], true, "{r}");
    assert_eq!(r["result"]["bookmark"]["title"], "Quokka facts");
    assert_eq!(r["result"]["bookmark"]["folder"], "E2E Reading");
    let r = env.ok(
        "create_bookmark",
        json!({ "tabId": ids[1], "folder": "e2e reading" }),
    );
    assert_eq!(
        r["result"]["folderCreated"], false,
        "the folder is found again"
    );

    let found = env.ok("search_bookmarks", json!({ "query": "quokka" }))["result"].clone();
    assert_eq!(found["count"], 1, "{found}");
    assert_eq!(found["bookmarks"][0]["folder"], "E2E Reading");
    assert!(found["bookmarks"][0]["url"]
        .as_str()
        .unwrap()
        .contains("quokka"));

    env.undo();
    env.undo();
    let found = env.ok("search_bookmarks", json!({ "query": "quokka" }))["result"].clone();
    assert_eq!(found["count"], 0, "undo removes the bookmark: {found}");

    // Said with a name: "bookmark this as …" is the bookmark's title.
    env.ok("switch_tab", json!({ "tabId": ids[0] }));
    let r = ask(&env, "bookmark this as marsupial notes");
    assert_eq!(r["ok"], true, "{r}");
    let found = env.ok("search_bookmarks", json!({ "query": "marsupial notes" }))["result"].clone();
    assert_eq!(found["bookmarks"][0]["title"], "Marsupial Notes", "{found}");
    assert!(found["bookmarks"][0]["url"]
        .as_str()
        .unwrap()
        .contains("quokka"));
    env.undo();

    // History: the pages just visited, by words and time range.
    let h = env.ok("search_history", json!({ "query": "quokka" }))["result"].clone();
    assert!(h["count"].as_u64().unwrap() >= 1, "{h}");
    assert_eq!(h["items"][0]["title"], "Quokka facts");
    let visited = h["items"][0]["lastVisitTime"].as_f64().unwrap();
    let r = env.ok(
        "search_history",
        json!({ "query": "quokka", "startTime": visited - 60_000.0, "endTime": visited + 60_000.0 }),
    );
    assert_eq!(r["result"]["count"], 1);
    let r = env.ok(
        "search_history",
        json!({ "query": "quokka", "startTime": visited + 3_600_000.0 }),
    );
    assert_eq!(r["result"]["count"], 0);
    let r = env.ok(
        "search_history",
        json!({ "query": "quokka", "endTime": visited - 3_600_000.0 }),
    );
    assert_eq!(r["result"]["count"], 0);
}
