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
