//! Tab layouts ([`ext_core::layout::Layout`]) set up in a real Firefox, and
//! snapshots of what "back in place" compares: the end-to-end undo tests
//! and `make bench` (undo_bench) share them.

use super::firefox::Firefox;
use super::{wait_for, Error, Result};
use ext_core::layout::Layout;
use ext_core::tab_state::{State, Tab, Window};
use serde_json::{json, Value};
use std::time::Duration;

/// Runs `body` (the body of an async function; `args` is its argument
/// list) in the extension page, with the `browser.*` APIs, and answers
/// what it returns.
pub fn api(ff: &Firefox, body: &str, args: Value) -> Result<Value> {
    let script = format!(
        r#"const done = arguments[arguments.length - 1];
           (async (args) => {{ {body} }})(arguments[0]).then(
             r => done({{ r: r === undefined ? null : r }}),
             e => done({{ e: String(e) }}));"#
    );
    let answer = ff.session().execute_async(&script, &[args])?;
    match answer.get("r") {
        Some(r) => Ok(r.clone()),
        None => Err(Error::Script(format!(
            "{}: {}",
            body.lines().next().unwrap_or_default().trim(),
            answer["e"].as_str().unwrap_or("no answer")
        ))),
    }
}

/// Tabs opened by one script: well inside WebDriver's script timeout.
const OPEN_BATCH: usize = 50;

/// Opens the layout in new windows (one per layout window), each tab at
/// `url(title)`, waits until every page has loaded, and answers the new
/// windows' ids in layout order.
pub fn open_layout(
    ff: &Firefox,
    layout: &Layout,
    url: impl Fn(&str) -> String,
    load: Duration,
) -> Result<Vec<i64>> {
    let groups: Vec<Value> = layout
        .groups
        .iter()
        .map(|g| json!({ "title": g.title, "color": g.color, "collapsed": g.collapsed }))
        .collect();
    // One short script per step and per batch of tabs: a single script
    // that opened 500 tabs outlasted WebDriver's script timeout on a
    // slower machine.
    let mut ids = Vec::new();
    for strip in &layout.windows {
        let Some(first) = strip.first() else {
            continue;
        };
        let opened = api(
            ff,
            r#"const win = await browser.windows.create({ url: args });
               return [win.id, win.tabs[0].id];"#,
            json!(url(&first.title)),
        )?;
        let window = opened[0]
            .as_i64()
            .ok_or_else(|| Error::Script(format!("window id: {opened}")))?;
        let mut tabs = vec![opened[1].clone()];
        for batch in strip[1..].chunks(OPEN_BATCH) {
            let urls: Vec<String> = batch.iter().map(|t| url(&t.title)).collect();
            let made = api(
                ff,
                r#"const [windowId, urls] = args;
                   const ids = [];
                   for (const url of urls) {
                     ids.push((await browser.tabs.create({ windowId, url, active: false })).id);
                   }
                   return ids;"#,
                json!([window, urls]),
            )?;
            let made = made
                .as_array()
                .filter(|ids| ids.len() == batch.len())
                .ok_or_else(|| Error::Script(format!("tab ids: {made}")))?;
            tabs.extend(made.iter().cloned());
        }
        let looks: Vec<Value> = strip
            .iter()
            .map(|t| json!({ "pinned": t.pinned, "muted": t.muted, "group": t.group, "active": t.active }))
            .collect();
        api(
            ff,
            r#"const [windowId, tabs, strip, groups] = args;
               for (let i = 0; i < strip.length; i++) {
                 if (strip[i].pinned || strip[i].muted) {
                   await browser.tabs.update(tabs[i], { pinned: strip[i].pinned, muted: strip[i].muted });
                 }
               }
               for (let g = 0; g < groups.length; g++) {
                 const members = tabs.filter((_, i) => strip[i].group === g);
                 if (members.length === 0) continue;
                 const id = await browser.tabs.group({ tabIds: members, createProperties: { windowId } });
                 await browser.tabGroups.update(id, groups[g]);
               }
               await browser.tabs.update(tabs[strip.findIndex(t => t.active)], { active: true });"#,
            json!([window, tabs, looks, groups]),
        )?;
        ids.push(window);
    }
    let want = layout.tab_count();
    wait_for(load, "every tab of the layout to load", || {
        let loaded = api(
            ff,
            r#"const tabs = await browser.tabs.query({});
               return tabs.filter(t => args.includes(t.windowId)
                                       && t.status === "complete" && !t.url.startsWith("about:")).length;"#,
            json!(ids),
        )?;
        Ok((loaded.as_u64() == Some(want as u64)).then_some(()))
    })?;
    Ok(ids)
}

/// Every tab of `windows`, in order, as what undo must restore: window
/// (its place in `windows`), index, URL, pinned, muted, the group's look
/// (title, color, collapsed) and whether it is its window's active tab.
/// Tabs in other windows are left out.
pub fn snapshot(ff: &Firefox, windows: &[i64]) -> Result<Vec<Value>> {
    let tabs = api(
        ff,
        r#"const tabs = await browser.tabs.query({});
           const groups = await browser.tabGroups.query({});
           return tabs
             .filter(t => args.includes(t.windowId))
             .sort((a, b) => args.indexOf(a.windowId) - args.indexOf(b.windowId) || a.index - b.index)
             .map(t => {
               const g = groups.find(g => g.id === t.groupId);
               return [args.indexOf(t.windowId), t.index, t.url, t.pinned, t.mutedInfo.muted,
                       g ? [g.title, g.color, g.collapsed] : null, t.active];
             });"#,
        json!(windows),
    )?;
    Ok(tabs.as_array().cloned().unwrap_or_default())
}

/// The tabs of `windows` as the tools see them (`list_tabs`), as a STATE
/// whose windows are `windows`: what random changes are drawn from.
pub fn state_of(ff: &Firefox, windows: &[i64]) -> Result<State> {
    let tabs = ff.tool_result("list_tabs", json!({}))?["tabs"].clone();
    let tabs: Vec<Tab> = tabs
        .as_array()
        .into_iter()
        .flatten()
        .filter(|t| windows.iter().any(|w| t["windowId"] == *w))
        .filter_map(|t| serde_json::from_value(t.clone()).ok())
        .collect();
    Ok(State {
        windows: windows
            .iter()
            .map(|&id| Window {
                id,
                focused: false,
                incognito: false,
            })
            .collect(),
        tabs,
        ..State::default()
    })
}

/// Closes windows the test or bench opened (the harness's own stays).
pub fn close_windows(ff: &Firefox, windows: &[i64]) -> Result<()> {
    api(
        ff,
        r#"const open = (await browser.windows.getAll()).map(w => w.id);
           for (const id of args.filter(id => open.includes(id))) await browser.windows.remove(id);"#,
        json!(windows),
    )
    .map(|_| ())
}
