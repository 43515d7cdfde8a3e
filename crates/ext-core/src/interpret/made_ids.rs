//! Ids that earlier clauses of a command make, carried over to later ones.
//!
//! A command is planned whole before anything runs: "open github.com and
//! pin it" plans its pin against the state an in-memory simulation of
//! "open" leaves, so the pin names the id the simulation gave the new tab.
//! Firefox gives tabs, groups and windows ids of its own (a tab closed
//! before moves its count on; a group's id is a timestamp; a group moved
//! whole is made again), so as the calls run, each id the simulation made
//! is matched with Firefox's, and the calls after it take Firefox's.

use serde_json::Value;

/// What an id names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IdKind {
    Tab,
    Group,
    Window,
}

/// The ids a simulated call's result has that Firefox's result for the
/// same call has otherwise: (kind, simulated, Firefox's). A new tab is the
/// result's `tab`; the tabs of a result are matched by id, and their
/// groups and windows compared; groups made are matched in order.
pub fn renamed(simulated: &Value, firefox: &Value) -> Vec<(IdKind, i64, i64)> {
    let mut renamed: Vec<(IdKind, i64, i64)> = Vec::new();
    let mut note = |kind: IdKind, was: Option<i64>, is: Option<i64>| {
        let (Some(was), Some(is)) = (was, is) else {
            return;
        };
        // -1: no group.
        let new = was != is && was != -1 && is != -1;
        if new && !renamed.iter().any(|r| r.0 == kind && r.1 == was) {
            renamed.push((kind, was, is));
        }
    };
    let id = |v: &Value, field: &str| v[field].as_i64();
    let (tab, its) = (&simulated["tab"], &firefox["tab"]);
    note(IdKind::Tab, id(tab, "id"), id(its, "id"));
    let mut pairs: Vec<(&Value, &Value)> = Vec::new();
    if id(tab, "id").is_some() && id(its, "id").is_some() {
        pairs.push((tab, its));
    }
    for t in simulated["tabs"].as_array().into_iter().flatten() {
        if let Some(f) = firefox["tabs"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|f| id(f, "id") == id(t, "id"))
        {
            pairs.push((t, f));
        }
    }
    for (t, f) in pairs {
        note(IdKind::Group, id(t, "groupId"), id(f, "groupId"));
        note(IdKind::Window, id(t, "windowId"), id(f, "windowId"));
    }
    let groups = |r: &Value| -> Vec<Option<i64>> {
        std::iter::once(&r["group"])
            .chain((r["groups"].as_array().into_iter().flatten()).map(|g| &g["group"]))
            .filter(|g| !g.is_null())
            .map(|g| id(g, "id"))
            .collect()
    };
    let (made, theirs) = (groups(simulated), groups(firefox));
    if made.len() == theirs.len() {
        for (was, is) in made.into_iter().zip(theirs) {
            note(IdKind::Group, was, is);
        }
    }
    note(
        IdKind::Window,
        id(simulated, "windowId"),
        id(firefox, "windowId"),
    );
    renamed
}

/// A call's arguments with the simulation's ids replaced by Firefox's. A
/// simulated id is one the snapshot had for nothing (a new tab's, group's
/// or window's), or the group of tabs Firefox regrouped, so it means
/// nothing else.
pub fn with_firefox_ids(args: &Value, renamed: &[(IdKind, i64, i64)]) -> Value {
    let firefox = |kind: IdKind, v: &Value| {
        let id = v.as_i64()?;
        let &(_, _, is) = renamed.iter().find(|r| r.0 == kind && r.1 == id)?;
        Some(Value::from(is))
    };
    let mut args = args.clone();
    let Some(fields) = args.as_object_mut() else {
        return args;
    };
    for (field, kind) in [
        ("tabId", IdKind::Tab),
        ("groupId", IdKind::Group),
        ("windowId", IdKind::Window),
    ] {
        if let Some(v) = fields.get_mut(field) {
            if let Some(id) = firefox(kind, v) {
                *v = id;
            }
        }
    }
    if let Some(Value::Array(ids)) = fields.get_mut("tabIds") {
        for v in ids {
            if let Some(id) = firefox(IdKind::Tab, v) {
                *v = id;
            }
        }
    }
    args
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn new_ids_are_matched_place_by_place_and_replaced_by_kind() {
        let simulated = json!({"tab": {"id": 10, "groupId": -1, "windowId": 1}});
        let firefox = json!({"tab": {"id": 47, "groupId": -1, "windowId": 1}});
        let tab = renamed(&simulated, &firefox);
        assert_eq!(tab, [(IdKind::Tab, 10, 47)]);
        let args = json!({"tabIds": [3, 10], "tabId": 10, "groupId": 10, "windowId": 10});
        assert_eq!(
            with_firefox_ids(&args, &tab),
            json!({"tabIds": [3, 47], "tabId": 47, "groupId": 10, "windowId": 10})
        );
        // A group made, and tabs regrouped into a group made again.
        let simulated = json!({"group": {"id": 101}, "groups": [{"group": {"id": 101}}]});
        let firefox = json!({"group": {"id": 1795921209335025_i64}, "groups": [{"group": {"id": 1795921209335025_i64}}]});
        let group = renamed(&simulated, &firefox);
        assert_eq!(group, [(IdKind::Group, 101, 1795921209335025)]);
        let args = with_firefox_ids(&json!({"groupId": 101, "collapsed": true}), &group);
        assert_eq!(args["groupId"], 1795921209335025_i64);
        // Tabs are matched by id, in whatever order: a group made again.
        let simulated = json!({"tabs": [{"id": 1, "groupId": 5}, {"id": 2, "groupId": 5}]});
        let firefox = json!({"tabs": [{"id": 2, "groupId": 9}, {"id": 1, "groupId": 9}]});
        assert_eq!(renamed(&simulated, &firefox), [(IdKind::Group, 5, 9)]);
        // A tab not in both, or groups made in other numbers: nothing.
        let firefox = json!({"tabs": [{"id": 7, "groupId": 9}], "groups": [{"group": {"id": 3}}]});
        assert!(renamed(&simulated, &firefox).is_empty());
    }
}
