//! The tab-group tools on real groups.

use crate::util::*;
use serde_json::json;

#[test]
fn group_list_update_collapse_ungroup_and_undo() {
    let env = start();
    let ids = env.open(&["Jira board", "Confluence page", "Lunch menu"]);

    let r = env.ok(
        "group_tabs",
        json!({ "tabIds": [ids[0], ids[1]], "title": "Sprint", "color": "purple" }),
    );
    let group = r["result"]["group"].clone();
    let gid = group["id"].as_i64().expect("group id");
    assert_eq!(group["title"], "Sprint");
    assert_eq!(group["color"], "purple");
    assert_eq!(id_list(&group["tabIds"]), [ids[0], ids[1]]);
    assert_eq!(env.tab(ids[0])["groupId"], gid);

    // Add a tab to the existing group.
    env.ok("group_tabs", json!({ "tabIds": [ids[2]], "groupId": gid }));
    let listed = env.ok("list_groups", json!({}))["result"].clone();
    assert_eq!(listed["count"], 1, "{listed}");
    assert_eq!(id_list(&listed["groups"][0]["tabIds"]).len(), 3);
    env.undo();
    assert_eq!(env.tab(ids[2])["groupId"], -1, "undo takes it out again");

    let r = env.ok(
        "update_group",
        json!({ "groupId": gid, "title": "Sprint 42", "color": "cyan" }),
    );
    assert_eq!(r["result"]["group"]["title"], "Sprint 42");
    let r = env.ok("collapse_group", json!({ "groupId": gid }));
    assert_eq!(r["result"]["group"]["collapsed"], true);
    let r = env.ok(
        "collapse_group",
        json!({ "groupId": gid, "collapsed": false }),
    );
    assert_eq!(r["result"]["group"]["collapsed"], false);
    env.undo();
    env.undo();
    env.undo();
    let g = &env.ok("list_groups", json!({}))["result"]["groups"][0];
    assert_eq!(
        (g["title"].clone(), g["color"].clone()),
        (json!("Sprint"), json!("purple"))
    );

    // Ungroup the whole group; undo recreates it with its look.
    let layout = |env: &Env| -> Vec<(i64, i64)> {
        env.tabs()
            .iter()
            .map(|t| (t["id"].as_i64().unwrap(), t["index"].as_i64().unwrap()))
            .collect()
    };
    let before = layout(&env);
    let r = env.ok("ungroup_tabs", json!({ "groupId": gid }));
    assert_eq!(r["result"]["count"], 2);
    assert_eq!(env.ok("list_groups", json!({}))["result"]["count"], 0);
    env.undo();
    let groups = env.ok("list_groups", json!({}))["result"].clone();
    assert_eq!(groups["count"], 1);
    assert_eq!(groups["groups"][0]["title"], "Sprint");
    assert_eq!(groups["groups"][0]["color"], "purple");
    assert_eq!(id_list(&groups["groups"][0]["tabIds"]), [ids[0], ids[1]]);
    assert_eq!(layout(&env), before);

    // Undo of the creation removes the group.
    env.ok("ungroup_tabs", json!({ "tabIds": [ids[0], ids[1]] }));
    assert_eq!(env.ok("list_groups", json!({}))["result"]["count"], 0);
}

#[test]
fn group_by_topic_reads_what_the_pages_say() {
    // Four pages whose titles share nothing; their descriptions do.
    let page = |title: &str, description: &str| {
        format!(
            "<!doctype html><html><head><title>{title}</title>\
             <meta name=\"description\" content=\"{description}\"></head>\
             <body><p>{title}</p></body></html>"
        )
        .into_bytes()
    };
    let pages = tab_whisperer::PageServer::with_files(vec![
        (
            "/alpha.html".into(),
            page("Alpha", "Easy pasta dinners for weeknights"),
        ),
        (
            "/bravo.html".into(),
            page("Bravo", "Fresh pasta from scratch"),
        ),
        (
            "/charlie.html".into(),
            page("Charlie", "WebGPU compute shaders explained"),
        ),
        (
            "/delta.html".into(),
            page("Delta", "Getting started with WebGPU"),
        ),
    ])
    .unwrap();
    let env = start();
    let ids: Vec<i64> = ["alpha", "bravo", "charlie", "delta"]
        .iter()
        .map(|name| {
            let title = format!("{}{}", name[..1].to_uppercase(), &name[1..]);
            env.open_active(&pages.url(&format!("/{name}.html")), &title)
        })
        .collect();

    let answer = env.ff.command("group my tabs by topic").unwrap();
    assert_eq!(answer["ok"], true, "{answer}");
    let group_of = |id: i64| env.tab(id)["groupId"].as_i64().unwrap();
    assert!(group_of(ids[0]) >= 0 && group_of(ids[2]) >= 0, "{answer}");
    assert_eq!(group_of(ids[0]), group_of(ids[1]), "{answer}");
    assert_eq!(group_of(ids[2]), group_of(ids[3]), "{answer}");
    assert_ne!(group_of(ids[0]), group_of(ids[2]), "{answer}");
}

/// Moving a whole group keeps it a group: Firefox takes a tab out of its
/// group when `tabs.move` puts it outside, so a group moved tab by tab
/// would dissolve. Beside another group, a group goes past all of it.
#[test]
fn a_group_moved_whole_stays_a_group() {
    let env = start();
    let ids = env.open(&["Alpha news", "Bravo news", "Charlie docs", "Delta docs"]);
    env.ok(
        "group_tabs",
        json!({ "tabIds": [ids[0], ids[1]], "title": "News", "color": "blue" }),
    );
    let docs = env.ok(
        "group_tabs",
        json!({ "tabIds": [ids[2], ids[3]], "title": "Docs", "color": "green" }),
    )["result"]["group"]["id"]
        .as_i64()
        .unwrap();
    // Each group's tabs, in strip order, with its title and color.
    let groups = |env: &Env| -> Vec<(String, String, Vec<i64>)> {
        let mut tabs = env.tabs();
        tabs.sort_by_key(|t| (t["windowId"].as_i64(), t["index"].as_i64()));
        let listed = env.ok("list_groups", json!({}))["result"]["groups"].clone();
        let mut out: Vec<(String, String, Vec<i64>)> = listed
            .as_array()
            .unwrap()
            .iter()
            .map(|g| {
                let members = tabs
                    .iter()
                    .filter(|t| t["groupId"] == g["id"])
                    .map(|t| t["id"].as_i64().unwrap())
                    .collect();
                (
                    g["title"].as_str().unwrap().into(),
                    g["color"].as_str().unwrap().into(),
                    members,
                )
            })
            .collect();
        out.sort();
        out
    };
    let position = |env: &Env, id: i64| env.tab(id)["index"].as_i64().unwrap();
    let start_groups = groups(&env);
    assert_eq!(start_groups.len(), 2, "{start_groups:?}");
    let command = |text: &str| {
        let answer = env.ff.command(text).unwrap();
        assert_eq!(answer["ok"], true, "{text} → {answer}");
        answer
    };

    command("move the news group after the docs group");
    assert_eq!(groups(&env), start_groups, "both groups whole");
    assert_eq!(position(&env, ids[0]), position(&env, ids[3]) + 1);

    command("move the news group to the start");
    assert_eq!(groups(&env), start_groups);
    assert!(position(&env, ids[1]) < position(&env, ids[2]));
    env.undo();
    env.undo();
    assert_eq!(groups(&env), start_groups);
    assert_eq!(position(&env, ids[1]) + 1, position(&env, ids[2]));
    assert_eq!(env.tab(ids[2])["groupId"], docs);

    let answer = command("move the docs group to a new window");
    let window = env.tab(ids[2])["windowId"].clone();
    assert_ne!(window, env.tab(ids[0])["windowId"], "{answer}");
    assert_eq!(groups(&env), start_groups, "{answer}");
    env.undo();
    assert_eq!(groups(&env), start_groups);
    assert_eq!(env.tab(ids[2])["windowId"], env.tab(ids[0])["windowId"]);
}

/// A group's tabs changed in place: a fresh tab opened in it, its tabs
/// sorted, the whole group stepped past the group beside it, a tab moved
/// to its end or start, another group merged into it, the groups sorted
/// by title. Each is still one group, and undo puts it back.
#[test]
fn a_group_opened_into_sorted_and_stepped_right_stays_whole() {
    let env = start();
    let ids = env.open(&[
        "Alpha news",
        "Bravo news",
        "Delta docs",
        "Charlie docs",
        "Echo",
    ]);
    env.ok(
        "group_tabs",
        json!({ "tabIds": [ids[0], ids[1]], "title": "News" }),
    );
    env.ok(
        "group_tabs",
        json!({ "tabIds": [ids[2], ids[3]], "title": "Docs" }),
    );
    let position = |id: i64| env.tab(id)["index"].as_i64().unwrap();
    // A group by its title: Firefox takes moved tabs out of their group,
    // and the move makes it again, under a new id.
    let members = |title: &str| -> Vec<i64> {
        let listed = env.ok("list_groups", json!({}))["result"]["groups"].clone();
        let group = (listed.as_array().unwrap().iter())
            .find(|g| g["title"] == title)
            .map(|g| g["id"].clone())
            .unwrap_or_default();
        let mut tabs = env.tabs();
        tabs.sort_by_key(|t| t["index"].as_i64());
        (tabs.iter())
            .filter(|t| t["groupId"] == group)
            .map(|t| t["id"].as_i64().unwrap())
            .collect()
    };
    let command = |text: &str| {
        let answer = env.ff.command(text).unwrap();
        assert_eq!(answer["ok"], true, "{text} → {answer}");
        answer
    };

    let answer = command("open a new tab in the news group");
    let fresh = answer["calls"][0]["result"]["tab"]["id"].as_i64().unwrap();
    assert_eq!(members("News"), [ids[0], ids[1], fresh], "{answer}");
    assert_eq!(members("Docs"), [ids[2], ids[3]]);
    env.undo();
    assert!(
        env.tabs().iter().all(|t| t["id"] != fresh),
        "undo closes it"
    );
    assert_eq!(members("News"), [ids[0], ids[1]]);

    let answer = command("sort the docs group by title");
    assert_eq!(
        members("Docs"),
        [ids[3], ids[2]],
        "Charlie, Delta: {answer}"
    );

    let answer = command("move the news group right");
    assert_eq!(members("News"), [ids[0], ids[1]], "{answer}");
    assert_eq!(members("Docs"), [ids[3], ids[2]], "{answer}");
    assert_eq!(position(ids[0]), position(ids[2]) + 1, "{answer}");
    env.undo();
    env.undo();
    assert_eq!(members("News"), [ids[0], ids[1]]);
    assert_eq!(members("Docs"), [ids[2], ids[3]]);
    assert_eq!(position(ids[1]) + 1, position(ids[2]));

    // A place in a group: last in its own, first in one it joins.
    let answer = command("move alpha news to the end of the news group");
    assert_eq!(members("News"), [ids[1], ids[0]], "{answer}");
    let answer = command("move echo to the start of the docs group");
    assert_eq!(members("Docs"), [ids[4], ids[2], ids[3]], "{answer}");
    assert_eq!(members("News"), [ids[1], ids[0]], "{answer}");
    env.undo();
    assert_eq!(members("Docs"), [ids[2], ids[3]]);
    assert_eq!(env.tab(ids[4])["groupId"], -1, "undo takes it out again");

    // Two groups merged are one; undo makes the other again, as it was.
    let look = |title: &str| {
        let listed = env.ok("list_groups", json!({}))["result"]["groups"].clone();
        (listed.as_array().unwrap().iter())
            .find(|g| g["title"] == title)
            .map(|g| g["color"].clone())
    };
    let docs_color = look("Docs");
    let answer = command("merge the docs group into the news group");
    assert_eq!(
        members("News"),
        [ids[1], ids[0], ids[2], ids[3]],
        "{answer}"
    );
    assert_eq!(look("Docs"), None, "{answer}");
    env.undo();
    assert_eq!(members("News"), [ids[1], ids[0]]);
    assert_eq!(members("Docs"), [ids[2], ids[3]]);
    assert_eq!(look("Docs"), docs_color);

    // The groups in order of their titles, each still whole.
    let answer = command("sort the groups by name");
    assert_eq!(members("Docs"), [ids[2], ids[3]], "{answer}");
    assert_eq!(members("News"), [ids[1], ids[0]], "{answer}");
    assert_eq!(position(ids[3]) + 1, position(ids[1]), "{answer}");
    env.undo();
    assert_eq!(position(ids[0]) + 1, position(ids[2]));
    assert_eq!(members("Docs"), [ids[2], ids[3]]);
}
