//! From intents to tool calls against a snapshot, with a reply and, for
//! risky actions, a question to confirm first. Each clause of a compound
//! command is planned against the state the previous clauses leave, which
//! the in-memory browser computes.

use super::grouping::{self, NewGroup};
use super::parse::{Destination, GroupWhich, Intent, Scope, Selector, Target, TimeSpan, WindowRef};
use super::resolve::{find_group, match_bookmarks, match_tabs, resolve, View};
use super::sites;
use super::Options;
use crate::error::ErrorCode;
use crate::memory::MemoryBrowser;
use crate::model::{State, Tab};
use crate::tools::{self, args::BrowseAction};
use futures::FutureExt;
use serde::Serialize;
use serde_json::{json, Value};

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Call {
    pub tool: String,
    pub args: Value,
}

fn call(tool: &str, args: Value) -> Call {
    Call {
        tool: tool.to_string(),
        args,
    }
}

/// What a clause comes to.
#[derive(Debug, Default)]
pub struct Step {
    pub calls: Vec<Call>,
    pub reply: String,
    /// Why to ask first, if it is risky.
    pub confirm: Option<String>,
    /// Tabs acted on, for "the rest" in the next clause.
    pub touched: Vec<i64>,
}

/// A clause that cannot be planned: the code to answer and what to say.
#[derive(Debug, Clone, PartialEq)]
pub struct Refusal {
    pub code: ErrorCode,
    pub reply: String,
}

fn not_found(reply: impl Into<String>) -> Refusal {
    Refusal {
        code: ErrorCode::NotFound,
        reply: reply.into(),
    }
}

fn refused(reply: impl Into<String>) -> Refusal {
    Refusal {
        code: ErrorCode::Refused,
        reply: reply.into(),
    }
}

fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

fn title(view: &View, id: i64) -> String {
    view.tab(id)
        .map(|t| {
            let text = if t.title.trim().is_empty() {
                &t.url
            } else {
                &t.title
            };
            tools::clip(text, 50)
        })
        .unwrap_or_default()
}

fn target_ids(view: &View, target: &Target) -> Result<super::resolve::Resolved, Refusal> {
    resolve(view, target).map_err(not_found)
}

/// The one tab a singular reference means, or a question if it is not clear.
fn one_tab(view: &View, target: &Target, destructive: bool) -> Result<i64, Refusal> {
    let r = target_ids(view, target)?;
    match r.ids.as_slice() {
        [] => Err(not_found(format!("No tab matches {}.", r.label))),
        [id] => Ok(*id),
        ids if destructive => Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: format!(
                "{} tabs match {}: {}. Which one?",
                ids.len(),
                r.label,
                ids.iter()
                    .take(5)
                    .map(|id| format!("'{}'", title(view, *id)))
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        }),
        ids => {
            // Not destructive: the most recently used, not the one in front.
            let active = view.active().map(|t| t.id);
            let best = ids
                .iter()
                .filter_map(|id| view.tab(*id))
                .max_by(|a, b| {
                    (Some(a.id) != active)
                        .cmp(&(Some(b.id) != active))
                        .then(a.last_accessed.total_cmp(&b.last_accessed))
                })
                .map(|t| t.id)
                .unwrap_or(ids[0]);
            Ok(best)
        }
    }
}

pub fn plan_intent(intent: &Intent, view: &View, options: &Options) -> Result<Step, Refusal> {
    let state = view.state;
    let mut step = Step::default();
    match intent {
        Intent::Close(target) => return close(view, target, options),
        Intent::CloseDuplicates { scope } => return close_duplicates(view, *scope, options),
        Intent::Switch(target) => return switch(view, target),
        Intent::Bare(target) => {
            // A bare word that names no tab was probably not a name at all.
            return switch(view, target).map_err(|r| Refusal {
                code: ErrorCode::UnknownCommand,
                reply: format!(
                    "{} Try 'close the YouTube tabs', 'switch to Gmail' or 'group my tabs by site'.",
                    r.reply
                ),
            });
        }
        Intent::SwitchWindow(which) => return switch_window(view, *which),
        Intent::Open(words) => return open(view, words),
        Intent::OpenUrl(url) => {
            let url = tools::normalize_url(url).map_err(|e| Refusal {
                code: e.code,
                reply: e.message,
            })?;
            step.calls.push(call("create_tab", json!({ "url": url })));
            step.reply = format!("Opened {url}.");
        }
        Intent::OpenBookmark(words) => {
            let found = match_bookmarks(words, &state.bookmarks);
            let b = found
                .first()
                .ok_or_else(|| not_found(format!("No bookmark matches '{}'.", words.join(" "))))?;
            step.calls.push(call("create_tab", json!({ "url": b.url })));
            step.reply = format!("Opened your bookmark '{}'.", tools::clip(&b.title, 60));
        }
        Intent::NewTab => {
            step.calls
                .push(call("browse", json!({ "action": "new_tab" })));
            step.reply = "Opened a new tab.".into();
        }
        Intent::Mute(target, mute) => {
            let r = target_ids(view, target)?;
            let ids: Vec<i64> = r
                .ids
                .iter()
                .copied()
                .filter(|id| view.tab(*id).is_some_and(|t| t.muted != *mute))
                .collect();
            let verb = if *mute { "muted" } else { "unmuted" };
            if ids.is_empty() {
                step.reply = format!("Those tabs are already {verb}.");
            } else {
                step.calls
                    .push(call("mute_tabs", json!({ "tabIds": ids, "muted": mute })));
                let mut reply = format!("{} {}.", capitalized(verb), plural(ids.len(), "tab"));
                if ids.len() == 1 {
                    reply = format!("{} '{}'.", capitalized(verb), title(view, ids[0]));
                }
                step.reply = reply;
                step.touched = ids;
            }
        }
        Intent::Pin(target, pin) => {
            let r = target_ids(view, target)?;
            let ids: Vec<i64> = r
                .ids
                .iter()
                .copied()
                .filter(|id| view.tab(*id).is_some_and(|t| t.pinned != *pin))
                .collect();
            let verb = if *pin { "pinned" } else { "unpinned" };
            if ids.is_empty() {
                step.reply = format!("Those tabs are already {verb}.");
            } else {
                step.calls
                    .push(call("pin_tabs", json!({ "tabIds": ids, "pinned": pin })));
                step.reply = format!("{} {}.", capitalized(verb), plural(ids.len(), "tab"));
                step.touched = ids;
            }
        }
        Intent::Reload(target, hard) => {
            let r = target_ids(view, target)?;
            step.calls.push(call(
                "reload_tabs",
                json!({ "tabIds": r.ids, "bypassCache": hard }),
            ));
            step.reply = format!("Reloaded {}.", plural(r.ids.len(), "tab"));
            step.touched = r.ids;
        }
        Intent::Discard(target) => {
            let r = target_ids(view, target)?;
            let ids: Vec<i64> = r
                .ids
                .iter()
                .copied()
                .filter(|id| view.tab(*id).is_some_and(|t| !t.active && !t.discarded))
                .collect();
            if ids.is_empty() {
                step.reply = "Nothing to unload: those tabs are active or unloaded already.".into();
            } else {
                step.calls
                    .push(call("discard_tabs", json!({ "tabIds": ids })));
                step.reply = format!("Unloaded {} to free memory.", plural(ids.len(), "tab"));
                step.touched = ids;
            }
        }
        Intent::Duplicate(target) => {
            let r = target_ids(view, target)?;
            if r.ids.len() > 10 {
                return Err(refused(format!(
                    "That would duplicate {} tabs; name fewer.",
                    r.ids.len()
                )));
            }
            for id in &r.ids {
                step.calls
                    .push(call("duplicate_tab", json!({ "tabId": id })));
            }
            step.reply = format!("Duplicated {}.", plural(r.ids.len(), "tab"));
        }
        Intent::Group {
            target,
            name,
            color,
        } => return group(view, target, name.as_deref(), *color),
        Intent::GroupBySite(scope) => {
            return make_groups(grouping::by_site(&in_scope(view, *scope)), "site")
        }
        Intent::GroupByTopic(scope) => {
            return make_groups(grouping::by_topic(&in_scope(view, *scope)), "topic")
        }
        Intent::RenameGroup(which, name) => {
            let g = find_group(state, which, view).map_err(not_found)?;
            step.calls.push(call(
                "update_group",
                json!({ "groupId": g.id, "title": name }),
            ));
            step.reply = format!("Renamed the '{}' group to '{name}'.", g.title);
        }
        Intent::RecolorGroup(which, color) => {
            let g = find_group(state, which, view).map_err(not_found)?;
            step.calls.push(call(
                "update_group",
                json!({ "groupId": g.id, "color": color }),
            ));
            step.reply = format!(
                "Made the '{}' group {}.",
                g.title,
                serde_json::to_value(color)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            );
        }
        Intent::CollapseGroup(which, collapsed) => {
            let groups: Vec<&crate::model::Group> = match which {
                GroupWhich::All => state.groups.iter().collect(),
                _ => vec![find_group(state, which, view).map_err(not_found)?],
            };
            if groups.is_empty() {
                return Err(not_found("There are no tab groups."));
            }
            for g in &groups {
                step.calls.push(call(
                    "collapse_group",
                    json!({ "groupId": g.id, "collapsed": collapsed }),
                ));
            }
            let verb = if *collapsed { "Collapsed" } else { "Expanded" };
            step.reply = match groups.as_slice() {
                [g] => format!("{verb} the '{}' group.", g.title),
                gs => format!("{verb} {} groups.", gs.len()),
            };
        }
        Intent::Ungroup(which) => {
            let groups: Vec<&crate::model::Group> = match which {
                GroupWhich::All => state.groups.iter().collect(),
                _ => vec![find_group(state, which, view).map_err(not_found)?],
            };
            if groups.is_empty() {
                step.reply = "There are no tab groups.".into();
            }
            for g in &groups {
                step.calls
                    .push(call("ungroup_tabs", json!({ "groupId": g.id })));
            }
            if !groups.is_empty() {
                step.reply = format!("Ungrouped {}.", plural(groups.len(), "group"));
            }
        }
        Intent::UngroupTabs(target) => {
            // "ungroup news": a group's name before any tab's.
            if let Selector::Named(phrases) = &target.selector {
                if let [words] = phrases.as_slice() {
                    let name = words.join(" ");
                    if let Some(g) = state
                        .groups
                        .iter()
                        .find(|g| g.title.eq_ignore_ascii_case(&name))
                    {
                        step.calls
                            .push(call("ungroup_tabs", json!({ "groupId": g.id })));
                        step.reply = format!("Ungrouped the '{}' group.", g.title);
                        return Ok(step);
                    }
                }
            }
            let r = target_ids(view, target)?;
            let ids: Vec<i64> = r
                .ids
                .into_iter()
                .filter(|id| view.tab(*id).is_some_and(|t| t.is_grouped()))
                .collect();
            if ids.is_empty() {
                step.reply = "Those tabs are not in a group.".into();
            } else {
                step.calls
                    .push(call("ungroup_tabs", json!({ "tabIds": ids })));
                step.reply = format!("Took {} out of their group.", plural(ids.len(), "tab"));
            }
        }
        Intent::Move(target, dest) => return move_tabs(view, target, dest),
        Intent::Search { query, engine } => {
            if query.trim().is_empty() {
                return Err(Refusal {
                    code: ErrorCode::InvalidArgs,
                    reply: "What should I search for?".into(),
                });
            }
            let mut args = json!({ "query": query });
            let mut engine_name = state
                .search_engines
                .iter()
                .find(|e| e.is_default)
                .map(|e| e.name.clone());
            if let Some(e) = engine {
                let found = state
                    .search_engines
                    .iter()
                    .find(|x| x.name.to_lowercase() == *e)
                    .or_else(|| {
                        state
                            .search_engines
                            .iter()
                            .find(|x| x.name.to_lowercase().starts_with(e.as_str()))
                    })
                    .or_else(|| {
                        state
                            .search_engines
                            .iter()
                            .find(|x| x.name.to_lowercase().replace(' ', "").contains(e.as_str()))
                    });
                match found {
                    Some(x) => {
                        args["engine"] = json!(x.name);
                        engine_name = Some(x.name.clone());
                    }
                    None => {
                        return Err(not_found(format!(
                            "No search engine called '{e}' is installed. Installed: {}.",
                            state
                                .search_engines
                                .iter()
                                .map(|x| x.name.as_str())
                                .collect::<Vec<_>>()
                                .join(", ")
                        )))
                    }
                }
            }
            step.calls.push(call("web_search", args));
            step.reply = match engine_name {
                Some(e) => format!("Searched {e} for '{query}'."),
                None => format!("Searched for '{query}'."),
            };
        }
        Intent::Bookmark { target, folder } => {
            let id = one_tab(view, target, true)?;
            let mut args = json!({ "tabId": id });
            if let Some(f) = folder {
                args["folder"] = json!(f);
            }
            step.calls.push(call("create_bookmark", args));
            step.reply = match folder {
                Some(f) => format!("Bookmarked '{}' in {f}.", title(view, id)),
                None => format!("Bookmarked '{}'.", title(view, id)),
            };
        }
        Intent::FindBookmarks(query) => {
            if query.trim().is_empty() {
                return Err(Refusal {
                    code: ErrorCode::InvalidArgs,
                    reply: "What should I look for in your bookmarks?".into(),
                });
            }
            step.calls
                .push(call("search_bookmarks", json!({ "query": query })));
            step.reply = format!("Bookmarks about '{query}':");
        }
        Intent::History { query, span } => {
            let mut args = json!({});
            if !query.is_empty() {
                args["query"] = json!(query);
            }
            if let Some(span) = span {
                let (start, end) = time_range(*span, state.now, options.tz_offset_minutes);
                args["startTime"] = json!(start);
                args["endTime"] = json!(end);
            }
            step.calls.push(call("search_history", args));
            step.reply = if query.is_empty() {
                "Pages you visited:".into()
            } else {
                format!("Pages about '{query}' you visited:")
            };
        }
        Intent::Count(target) => return count(view, target),
        Intent::CountWindows => {
            let n = windows_with_tabs(state);
            step.calls.push(call("list_tabs", json!({})));
            step.reply = format!(
                "You have {} open, with {} in all.",
                plural(n, "window"),
                plural(state.tabs.len(), "tab")
            );
        }
        Intent::ListTabs(target) => return list(view, target),
        Intent::ListEngines => {
            step.calls.push(call("list_search_engines", json!({})));
            let names: Vec<String> = state
                .search_engines
                .iter()
                .map(|e| {
                    if e.is_default {
                        format!("{} (default)", e.name)
                    } else {
                        e.name.clone()
                    }
                })
                .collect();
            step.reply = if names.is_empty() {
                "No search engines are installed.".into()
            } else {
                format!("Search engines: {}.", names.join(", "))
            };
        }
        Intent::ListGroups => {
            step.calls.push(call("list_groups", json!({})));
            step.reply = if state.groups.is_empty() {
                "There are no tab groups.".into()
            } else {
                format!(
                    "{}: {}.",
                    plural(state.groups.len(), "group"),
                    state
                        .groups
                        .iter()
                        .map(|g| format!("'{}'", g.title))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            };
        }
        Intent::Browse(action, amount) => {
            let mut args = json!({ "action": action });
            if let Some(a) = amount {
                args["amount"] = json!(a);
            }
            if *action == BrowseAction::CloseTab {
                return close(view, &Target::active(), options);
            }
            step.calls.push(call("browse", args));
            step.reply = browse_reply(*action);
        }
        Intent::Undo | Intent::Yes | Intent::No => {}
    }
    Ok(step)
}

fn switch(view: &View, target: &Target) -> Result<Step, Refusal> {
    let id = one_tab(view, target, false)?;
    Ok(Step {
        calls: vec![call("switch_tab", json!({ "tabId": id }))],
        reply: format!("Switched to '{}'.", title(view, id)),
        confirm: None,
        touched: vec![id],
    })
}

/// Window ids in order, those with tabs only.
fn window_ids(state: &State) -> Vec<i64> {
    let mut w: Vec<i64> = state.tabs.iter().map(|t| t.window_id).collect();
    w.sort_unstable();
    w.dedup();
    w
}

fn windows_with_tabs(state: &State) -> usize {
    window_ids(state).len()
}

/// "switch to the other window": its active tab comes to the front.
fn switch_window(view: &View, which: WindowRef) -> Result<Step, Refusal> {
    let windows = window_ids(view.state);
    let window = match which {
        WindowRef::Other => {
            let at = windows
                .iter()
                .position(|w| *w == view.focused_window)
                .unwrap_or(0);
            match windows.len() {
                0 | 1 => return Err(not_found("There is no other window.")),
                n => windows[(at + 1) % n],
            }
        }
        WindowRef::Nth(n) => *windows
            .get((n - 1).max(0) as usize)
            .filter(|_| n >= 1)
            .ok_or_else(|| {
                not_found(format!(
                    "There is no window {n}; there are {}.",
                    windows.len()
                ))
            })?,
    };
    let tab = view
        .state
        .tabs
        .iter()
        .filter(|t| t.window_id == window)
        .max_by_key(|t| (t.active, -t.index))
        .ok_or_else(|| not_found("That window has no tabs."))?;
    Ok(Step {
        calls: vec![call("switch_tab", json!({ "tabId": tab.id }))],
        reply: format!("Switched to the window with '{}'.", title(view, tab.id)),
        confirm: None,
        touched: vec![tab.id],
    })
}

/// The snapshot with only the tabs of a scope (for grouping).
fn in_scope(view: &View, scope: Scope) -> State {
    let mut state = view.state.clone();
    state.tabs.retain(|t| match scope {
        Scope::Everywhere => true,
        Scope::ThisWindow => t.window_id == view.focused_window,
        Scope::OtherWindows => t.window_id != view.focused_window,
    });
    state
}

/// The same page, as close_duplicate_tabs compares them: without fragment.
fn page_key(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

/// Closes copies of the same page, after checking there are any (and
/// asking first when that is many).
fn close_duplicates(view: &View, scope: Scope, options: &Options) -> Result<Step, Refusal> {
    let tabs: Vec<&Tab> = view
        .state
        .tabs
        .iter()
        .filter(|t| scope != Scope::ThisWindow || t.window_id == view.focused_window)
        .collect();
    let mut seen: Vec<&str> = Vec::new();
    let mut extra = 0;
    for t in &tabs {
        let key = page_key(&t.url);
        if seen.contains(&key) {
            extra += 1;
        } else {
            seen.push(key);
        }
    }
    let mut step = Step::default();
    if extra == 0 {
        step.reply = "There are no duplicate tabs.".into();
        return Ok(step);
    }
    let mut args = json!({});
    if scope == Scope::ThisWindow {
        args["windowId"] = json!(view.focused_window);
    }
    step.calls.push(call("close_duplicate_tabs", args));
    step.reply = format!("Closed {}.", plural(extra, "duplicate tab"));
    if extra > options.confirm_threshold {
        step.confirm = Some(format!(
            "Close {}? Say yes to confirm.",
            plural(extra, "duplicate tab")
        ));
    }
    Ok(step)
}

/// "how many tabs", "how many youtube tabs are open in this window".
fn count(view: &View, target: &Target) -> Result<Step, Refusal> {
    let state = view.state;
    let mut step = Step::default();
    let mut args = json!({});
    if target.scope == Scope::ThisWindow {
        args["windowId"] = json!(view.focused_window);
    }
    step.calls.push(call("list_tabs", args));
    let everything = matches!(target.selector, Selector::All) && target.except.is_none();
    step.reply = if everything && target.scope == Scope::Everywhere {
        format!(
            "You have {} open in {}.",
            plural(state.tabs.len(), "tab"),
            plural(windows_with_tabs(state), "window")
        )
    } else {
        let r = resolve(view, target).unwrap_or_else(|_| super::resolve::Resolved {
            ids: Vec::new(),
            explicit: true,
            label: String::new(),
            matched_per_name: Vec::new(),
        });
        let n = r.ids.len();
        let noun = if n == 1 { "tab" } else { "tabs" };
        let what = match &target.selector {
            Selector::Named(_) => format!("{} {} {noun}", n, r.label),
            Selector::Audible => format!("{n} {noun} playing"),
            _ => format!("{n} {noun}"),
        };
        let place = match target.scope {
            Scope::ThisWindow => " in this window",
            Scope::OtherWindows => " in the other windows",
            Scope::Everywhere => "",
        };
        format!("You have {what}{place}.")
    };
    Ok(step)
}

/// "list my tabs", "which tab is playing": the titles.
fn list(view: &View, target: &Target) -> Result<Step, Refusal> {
    let mut step = Step::default();
    let mut args = json!({});
    if target.scope == Scope::ThisWindow {
        args["windowId"] = json!(view.focused_window);
    }
    step.calls.push(call("list_tabs", args));
    let ids = match resolve(view, target) {
        Ok(r) => r.ids,
        Err(_) if matches!(target.selector, Selector::Audible) => Vec::new(),
        Err(e) => return Err(not_found(e)),
    };
    let titles: Vec<String> = ids
        .iter()
        .take(10)
        .map(|id| format!("'{}'", title(view, *id)))
        .collect();
    let more = if ids.len() > 10 { ", …" } else { "" };
    step.reply = match (&target.selector, ids.len()) {
        (Selector::Audible, 0) => "No tab is playing sound.".into(),
        (Selector::Audible, _) => format!("Playing: {}{more}.", titles.join(", ")),
        (_, 0) => "No tabs match.".into(),
        (_, n) => format!("{} open: {}{more}.", plural(n, "tab"), titles.join(", ")),
    };
    Ok(step)
}

fn capitalized(w: &str) -> String {
    let mut c = w.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}

fn browse_reply(a: BrowseAction) -> String {
    use BrowseAction::*;
    match a {
        Back => "Went back.",
        Forward => "Went forward.",
        Reload => "Reloaded the page.",
        HardReload => "Reloaded the page, bypassing the cache.",
        Stop => "Stopped loading.",
        ScrollUp => "Scrolled up.",
        ScrollDown => "Scrolled down.",
        PageUp => "Paged up.",
        PageDown => "Paged down.",
        Top => "Went to the top.",
        Bottom => "Went to the bottom.",
        ZoomIn => "Zoomed in.",
        ZoomOut => "Zoomed out.",
        ZoomReset => "Reset the zoom.",
        NextTab => "Switched to the next tab.",
        PreviousTab => "Switched to the previous tab.",
        NewTab => "Opened a new tab.",
        CloseTab => "Closed the tab.",
    }
    .to_string()
}

fn close(view: &View, target: &Target, options: &Options) -> Result<Step, Refusal> {
    let state = view.state;
    if matches!(target.selector, Selector::WholeWindow) {
        return Err(refused(
            "Tab Whisperer never closes every tab of a window; say which tabs to close.",
        ));
    }
    let r = target_ids(view, target)?;
    // "the map tab" or "the tab that's playing" matching two tabs: ask which.
    let by_description = matches!(target.selector, Selector::Named(_) | Selector::Audible);
    if target.singular && by_description && r.ids.len() > 1 {
        return Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: format!(
                "{} tabs match '{}': {}. Say which, or 'close all {} tabs'.",
                r.ids.len(),
                r.label,
                r.ids
                    .iter()
                    .take(5)
                    .map(|id| format!("'{}'", title(view, *id)))
                    .collect::<Vec<_>>()
                    .join(", "),
                r.label
            ),
        });
    }
    let mut ids = r.ids.clone();
    let mut notes = Vec::new();
    // Pinned tabs close only when named.
    if !r.explicit {
        let before = ids.len();
        ids.retain(|id| view.tab(*id).is_some_and(|t| !t.pinned));
        if ids.len() < before {
            notes.push(format!("left {} pinned", plural(before - ids.len(), "tab")));
        }
    }
    if ids.is_empty() {
        return Err(not_found(if r.ids.is_empty() {
            "No tab matches that.".to_string()
        } else {
            "Only pinned tabs match; name them to close them.".to_string()
        }));
    }
    // Never close every tab of a window: keep its active (else first) tab.
    let mut windows: Vec<i64> = ids
        .iter()
        .filter_map(|id| view.tab(*id))
        .map(|t| t.window_id)
        .collect();
    windows.sort_unstable();
    windows.dedup();
    let mut spared = 0;
    for w in &windows {
        let in_window: Vec<&Tab> = state.tabs.iter().filter(|t| t.window_id == *w).collect();
        if in_window.iter().all(|t| ids.contains(&t.id)) {
            if in_window.len() == 1 && ids.len() == 1 {
                return Err(refused("That is the last tab of its window; Tab Whisperer never closes every tab of a window."));
            }
            let keep = in_window
                .iter()
                .find(|t| t.active)
                .or(in_window.first())
                .map(|t| t.id);
            ids.retain(|id| Some(*id) != keep);
            spared += 1;
        }
    }
    match spared {
        0 => {}
        1 => notes.push("kept one tab so the window stays open".to_string()),
        n => notes.push(format!(
            "kept one tab in each of {n} windows so they stay open"
        )),
    }
    if ids.is_empty() {
        return Err(refused(
            "That would close every tab of the window; Tab Whisperer always leaves one.",
        ));
    }
    let mut reasons = Vec::new();
    if ids.len() > options.confirm_threshold {
        reasons.push(format!("that is {} tabs", ids.len()));
    }
    let playing: Vec<i64> = ids
        .iter()
        .copied()
        .filter(|id| view.tab(*id).is_some_and(|t| t.audible))
        .collect();
    if !playing.is_empty() && !matches!(target.selector, Selector::Audible) {
        reasons.push(format!("'{}' is playing", title(view, playing[0])));
    }
    // Tabs closing in a window one is not looking at: say so first.
    if windows.len() > 1 {
        reasons.push(format!("they are in {} windows", windows.len()));
    }
    let what = match ids.as_slice() {
        [id] => format!("'{}'", title(view, *id)),
        _ if matches!(target.selector, Selector::Named(_)) => {
            format!("{} {} tabs", ids.len(), r.label)
        }
        _ => plural(ids.len(), "tab"),
    };
    let mut reply = format!("Closed {what}");
    if !notes.is_empty() {
        reply += &format!(" ({})", notes.join("; "));
    }
    reply.push('.');
    Ok(Step {
        calls: vec![call("close_tabs", json!({ "tabIds": ids }))],
        reply,
        confirm: (!reasons.is_empty())
            .then(|| format!("Close {what}? ({}) Say yes to confirm.", reasons.join(", "))),
        touched: ids,
    })
}

fn open(view: &View, words: &[String]) -> Result<Step, Refusal> {
    let state = view.state;
    let tabs: Vec<&Tab> = state.tabs.iter().collect();
    let mut step = Step::default();
    let found = match_tabs(words, &tabs);
    if !found.is_empty() {
        let target = Target {
            singular: true,
            ..Target::of(Selector::Named(vec![words.to_vec()]))
        };
        let id = one_tab(view, &target, false)?;
        step.calls.push(call("switch_tab", json!({ "tabId": id })));
        step.reply = format!("Switched to '{}'.", title(view, id));
        return Ok(step);
    }
    let joined = words.join(" ");
    if let Some(site) = sites::by_name(&joined).or_else(|| sites::by_name(&words.concat())) {
        let place = site.places[0];
        step.calls.push(call(
            "create_tab",
            json!({ "url": format!("https://{place}") }),
        ));
        step.reply = format!("Opened {}.", site.display);
        return Ok(step);
    }
    if let Some(b) = match_bookmarks(words, &state.bookmarks).first() {
        step.calls.push(call("create_tab", json!({ "url": b.url })));
        step.reply = format!("Opened your bookmark '{}'.", tools::clip(&b.title, 60));
        return Ok(step);
    }
    Err(not_found(format!(
        "No tab, site or bookmark matches '{joined}'. Say 'search for {joined}' to search the web."
    )))
}

fn group(
    view: &View,
    target: &Target,
    name: Option<&str>,
    color: Option<crate::model::Color>,
) -> Result<Step, Refusal> {
    let state = view.state;
    let r = target_ids(view, target)?;
    let ids: Vec<i64> = r
        .ids
        .iter()
        .copied()
        .filter(|id| view.tab(*id).is_some_and(|t| !t.pinned))
        .collect();
    if ids.is_empty() {
        return Err(refused("Pinned tabs can't be grouped; unpin them first."));
    }
    let mut step = Step::default();
    let existing = name.and_then(|n| {
        state
            .groups
            .iter()
            .find(|g| g.title.eq_ignore_ascii_case(n))
    });
    match existing {
        Some(g) => {
            let mut args = json!({ "tabIds": ids, "groupId": g.id });
            if let Some(c) = color {
                args["color"] = json!(c);
            }
            step.calls.push(call("group_tabs", args));
            step.reply = format!(
                "Added {} to the '{}' group.",
                plural(ids.len(), "tab"),
                g.title
            );
        }
        None => {
            let title = name
                .map(str::to_string)
                .or_else(|| group_title(view, target, &r.label, &ids));
            let window = view
                .tab(ids[0])
                .map(|t| t.window_id)
                .unwrap_or(view.focused_window);
            let used: Vec<crate::model::Color> = state
                .groups
                .iter()
                .filter(|g| g.window_id == window)
                .map(|g| g.color)
                .collect();
            let color = color.unwrap_or_else(|| {
                crate::model::Color::ALL
                    .iter()
                    .copied()
                    .find(|c| !used.contains(c))
                    .unwrap_or(crate::model::Color::Blue)
            });
            let mut args = json!({ "tabIds": ids, "color": color });
            step.reply = format!("Grouped {}", plural(ids.len(), "tab"));
            if let Some(title) = &title {
                args["title"] = json!(title);
                step.reply += &format!(" as '{title}'");
            }
            step.reply.push('.');
            step.calls.push(call("group_tabs", args));
        }
    }
    step.touched = ids;
    Ok(step)
}

/// A short title for a new group nobody named: the site its tabs share
/// ("YouTube"), the one thing named ("Flights"), or the domain they share
/// ("Atlassian" for Jira and Confluence); else none.
fn group_title(view: &View, target: &Target, label: &str, ids: &[i64]) -> Option<String> {
    let tabs: Vec<&Tab> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    let first = tabs.first()?;
    let site = sites::site_of(&first.url);
    if site.is_some()
        && tabs
            .iter()
            .all(|t| sites::site_of(&t.url).map(|s| s.display) == site.map(|s| s.display))
    {
        return site.map(|s| s.display.to_string());
    }
    if let Selector::Named(phrases) = &target.selector {
        if phrases.len() == 1 && label.split_whitespace().count() <= 2 {
            return Some(capitalized(label));
        }
    }
    let domain = |t: &Tab| sites::base_domain(&sites::host_and_path(&t.url).0);
    let shared = domain(first);
    let label = shared.split('.').next().filter(|l| !l.is_empty())?;
    tabs.iter()
        .all(|t| domain(t) == shared)
        .then(|| capitalized(label))
}

fn make_groups(groups: Vec<NewGroup>, by: &str) -> Result<Step, Refusal> {
    if groups.is_empty() {
        return Err(not_found(format!(
            "No two ungrouped tabs share a {by}, so there is nothing to group."
        )));
    }
    let mut step = Step::default();
    for g in &groups {
        let args = match g.existing {
            Some(id) => json!({ "tabIds": g.tab_ids, "groupId": id }),
            None => json!({ "tabIds": g.tab_ids, "title": g.title, "color": g.color }),
        };
        step.calls.push(call("group_tabs", args));
        step.touched.extend(&g.tab_ids);
    }
    step.reply = format!(
        "Made {} by {by}: {}.",
        plural(groups.len(), "group"),
        groups
            .iter()
            .map(|g| format!("{} ({})", g.title, g.tab_ids.len()))
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(step)
}

fn move_tabs(view: &View, target: &Target, dest: &Destination) -> Result<Step, Refusal> {
    let state = view.state;
    let r = target_ids(view, target)?;
    if r.ids.is_empty() {
        return Err(not_found("No tab matches that."));
    }
    let first = view
        .tab(r.ids[0])
        .ok_or_else(|| not_found("No tab matches that."))?;
    let mut step = Step::default();
    let mut windows: Vec<i64> = state.windows.iter().map(|w| w.id).collect();
    windows.sort_unstable();
    let args = match dest {
        Destination::OtherWindow => {
            let others: Vec<i64> = windows
                .iter()
                .copied()
                .filter(|w| *w != first.window_id)
                .collect();
            match others.as_slice() {
                [] => return Err(not_found("There is no other window.")),
                [w] => {
                    step.reply =
                        format!("Moved {} to the other window.", plural(r.ids.len(), "tab"));
                    json!({ "tabIds": r.ids, "windowId": w, "index": -1 })
                }
                ws => {
                    // Several: the focused one if the tabs are elsewhere, else the first other.
                    let w = if first.window_id != view.focused_window {
                        view.focused_window
                    } else {
                        ws[0]
                    };
                    step.reply = format!(
                        "Moved {} to window {}.",
                        plural(r.ids.len(), "tab"),
                        windows.iter().position(|x| *x == w).unwrap_or(0) + 1
                    );
                    json!({ "tabIds": r.ids, "windowId": w, "index": -1 })
                }
            }
        }
        Destination::NewWindow => {
            return Err(Refusal {
                code: ErrorCode::InvalidArgs,
                reply: "I can't open a new window; say 'to the other window' or 'to window 2'."
                    .into(),
            })
        }
        Destination::ThisWindow => {
            if r.ids.iter().all(|id| {
                view.tab(*id)
                    .is_some_and(|t| t.window_id == view.focused_window)
            }) {
                step.reply = "Those tabs are in this window already.".into();
                return Ok(step);
            }
            step.reply = format!("Moved {} to this window.", plural(r.ids.len(), "tab"));
            json!({ "tabIds": r.ids, "windowId": view.focused_window, "index": -1 })
        }
        Destination::Window(n) => {
            let w = windows
                .get((*n - 1).max(0) as usize)
                .ok_or_else(|| not_found(format!("There is no window {n}.")))?;
            step.reply = format!("Moved {} to window {n}.", plural(r.ids.len(), "tab"));
            json!({ "tabIds": r.ids, "windowId": w, "index": -1 })
        }
        Destination::Start => {
            step.reply = format!("Moved {} to the start.", plural(r.ids.len(), "tab"));
            json!({ "tabIds": r.ids, "index": 0 })
        }
        Destination::End => {
            step.reply = format!("Moved {} to the end.", plural(r.ids.len(), "tab"));
            json!({ "tabIds": r.ids, "index": -1 })
        }
        Destination::Left => {
            step.reply = "Moved it left.".into();
            json!({ "tabIds": r.ids, "index": (first.index - 1).max(0) })
        }
        Destination::Right => {
            step.reply = "Moved it right.".into();
            json!({ "tabIds": r.ids, "index": first.index + 1 })
        }
        Destination::Position(n) => {
            step.reply = format!("Moved {} to position {n}.", plural(r.ids.len(), "tab"));
            json!({ "tabIds": r.ids, "index": (n - 1).max(0) })
        }
    };
    step.calls.push(call("move_tabs", args));
    step.touched = r.ids;
    Ok(step)
}

/// Start and end (ms) of a time phrase, in local time given as an offset.
pub fn time_range(span: TimeSpan, now: f64, tz_offset_minutes: i32) -> (f64, f64) {
    let day = 86_400_000.0;
    let hour = 3_600_000.0;
    let offset = tz_offset_minutes as f64 * 60_000.0;
    let local_now = now + offset;
    let midnight = (local_now / day).floor() * day - offset;
    match span {
        TimeSpan::Today => (midnight, now),
        TimeSpan::Yesterday => (midnight - day, midnight),
        TimeSpan::ThisMorning => (midnight, (midnight + 12.0 * hour).min(now)),
        TimeSpan::ThisAfternoon => (midnight + 12.0 * hour, (midnight + 18.0 * hour).min(now)),
        TimeSpan::Tonight => (midnight + 18.0 * hour, now.max(midnight + 18.0 * hour)),
        TimeSpan::ThisWeek => {
            // Weeks start on Monday; the epoch was a Thursday.
            let days_since_monday = (((local_now / day).floor() as i64 + 3).rem_euclid(7)) as f64;
            (midnight - days_since_monday * day, now)
        }
        TimeSpan::LastWeek => (now - 7.0 * day, now),
        TimeSpan::LastMonth => (now - 30.0 * day, now),
        TimeSpan::Recent(ms) => (now - ms, now),
    }
}

/// Runs a step's calls on the simulated browser, so the next clause sees
/// their effect; answers each call's result.
pub fn simulate(
    sim: &MemoryBrowser,
    calls: &[Call],
) -> Vec<Result<Value, crate::error::ToolError>> {
    calls
        .iter()
        .map(|c| {
            tools::run_tool(sim, &c.tool, &c.args)
                .now_or_never()
                .unwrap_or_else(|| {
                    Err(crate::error::ToolError::failed(
                        "the simulation did not finish",
                    ))
                })
                .map(|out| out.result)
        })
        .collect()
}

/// The state a snapshot gives the simulation (windows may be missing in a hand-written STATE).
pub fn with_windows(mut state: State) -> State {
    for t in &state.tabs {
        if !state.windows.iter().any(|w| w.id == t.window_id) {
            let focused = state.windows.is_empty();
            state.windows.push(crate::model::Window {
                id: t.window_id,
                focused,
            });
        }
    }
    state
}
