//! Questions about the tabs, answered from the snapshot (the calls that
//! back them only read).

use super::{capitalized, not_found, plural, title, windows_with_tabs, Refusal, Step};
use crate::interpret::parse::{Scope, Selector, Target};
use crate::interpret::resolve::{resolve, spoken_list, where_said, Resolved, View};
use crate::log::Call;
use crate::tools::args::{ListTabsArgs, NoArgs, WindowArgs};
use crate::tools::ToolCall;

/// The tabs of the focused window, or of every window.
fn list_tabs(view: &View, scope: Scope) -> Call {
    Call::list_tabs(ListTabsArgs {
        window_id: view.scope_window(scope),
        query: None,
    })
}

/// "how many tabs", "how many youtube tabs are open in this window".
pub fn count(view: &View, target: &Target) -> Result<Step, Refusal> {
    view.check_scope(target.scope).map_err(not_found)?;
    let state = view.state;
    let mut step = Step::default();
    step.calls.push(list_tabs(view, target.scope));
    let everything = matches!(target.selector, Selector::All) && target.except.is_none();
    step.reply = if everything && target.scope == Scope::Everywhere {
        format!(
            "You have {} open in {}.",
            plural(state.tabs.len(), "tab"),
            plural(windows_with_tabs(state), "window")
        )
    } else {
        let r = resolve(view, target).unwrap_or_else(|_| Resolved {
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
            Selector::Idle { of, .. } => {
                // "1 YouTube tab not used in a day".
                let inner = Target {
                    selector: (**of).clone(),
                    ..target.clone()
                };
                let site = match of.as_ref() {
                    Selector::Named(_) => resolve(view, &inner)
                        .map(|i| format!("{} ", i.label))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                format!("{n} {site}{noun} {}", r.label)
            }
            _ => format!("{n} {noun}"),
        };
        format!("You have {what}{}.", where_said(target.scope))
    };
    Ok(step)
}

/// "list my tabs", "which tab is playing": the titles.
pub fn list(view: &View, target: &Target) -> Result<Step, Refusal> {
    view.check_scope(target.scope).map_err(not_found)?;
    let mut step = Step::default();
    step.calls.push(list_tabs(view, target.scope));
    let (ids, label) = match resolve(view, target) {
        Ok(r) => (r.ids, r.label),
        Err(_)
            if matches!(
                target.selector,
                Selector::Audible | Selector::Muted | Selector::Pinned
            ) =>
        {
            (Vec::new(), String::new())
        }
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
        (Selector::Muted, 0) => "No tab is muted.".into(),
        (Selector::Muted, _) => format!("Muted: {}{more}.", titles.join(", ")),
        (Selector::Pinned, 0) => "No tab is pinned.".into(),
        (Selector::Pinned, _) => format!("Pinned: {}{more}.", titles.join(", ")),
        (Selector::Highlighted { .. }, _) => format!("Selected: {}{more}.", titles.join(", ")),
        (_, 0) => "No tabs match.".into(),
        // "what tab am I on"
        (Selector::Active, 1) => format!("You're on {}.", titles[0]),
        (Selector::Idle { .. }, n) => {
            format!("{} {label}: {}{more}.", plural(n, "tab"), titles.join(", "))
        }
        (_, n) => format!("{} open: {}{more}.", plural(n, "tab"), titles.join(", ")),
    };
    Ok(step)
}

/// "which window is netflix in": each tab's window by the number "window
/// 2" names it by, the tabs said together per window.
pub fn which_window(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = resolve(view, target).map_err(not_found)?;
    let windows = view.window_order().len().max(windows_with_tabs(view.state));
    let mut by_window: Vec<(i64, Vec<String>)> = Vec::new();
    for t in r.ids.iter().filter_map(|id| view.tab(*id)) {
        let name = format!("'{}'", title(view, t.id));
        match by_window.iter_mut().find(|(w, _)| *w == t.window_id) {
            Some((_, names)) => names.push(name),
            None => by_window.push((t.window_id, vec![name])),
        }
    }
    by_window.sort_by_key(|(w, _)| view.window_number(*w));
    // At most five names a window, the rest counted.
    let names = |names: &[String]| match names.len() {
        0..=5 => spoken_list(names),
        n => format!("{} and {} more", names[..5].join(", "), n - 5),
    };
    let reply = match (&target.selector, by_window.as_slice()) {
        (_, []) => "No tabs match.".to_string(),
        (Selector::Active, _) if windows < 2 => "You have only this window.".to_string(),
        (Selector::Active, [(w, _)]) => format!(
            "You're in window {} of {windows}.",
            view.window_number(*w).unwrap_or(0)
        ),
        (_, [(w, one)]) if one.len() == 1 => format!("{} is in {}.", one[0], view.window_said(*w)),
        (_, [(w, all)]) => format!("They are all in {}: {}.", view.window_said(*w), names(all)),
        (_, each) => {
            let each: Vec<String> = each
                .iter()
                .map(|(w, these)| format!("in {}: {}", view.window_said(*w), names(these)))
                .collect();
            format!("{}.", capitalized(&each.join("; ")))
        }
    };
    Ok(Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    })
}

/// "which window has the most tabs": that window (or those, if tied),
/// then each window's count.
pub fn busiest_window(view: &View, most: bool) -> Step {
    // (window id, its tabs), in window-number order.
    let counts: Vec<(i64, usize)> = view
        .window_order()
        .into_iter()
        .map(|w| {
            (
                w,
                view.state.tabs.iter().filter(|t| t.window_id == w).count(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let pick = if most {
        counts.iter().map(|(_, n)| *n).max()
    } else {
        counts.iter().map(|(_, n)| *n).min()
    };
    let which = if most { "most" } else { "fewest" };
    let reply = match (counts.as_slice(), pick) {
        ([], _) | (_, None) => "You have no tabs open.".to_string(),
        ([(w, n)], _) => format!(
            "You have only {}, with {}.",
            view.window_said(*w),
            plural(*n, "tab")
        ),
        (_, Some(pick)) => {
            let top: Vec<String> = counts
                .iter()
                .filter(|(_, n)| *n == pick)
                .map(|(w, _)| view.window_said(*w))
                .collect();
            let each: Vec<String> = counts
                .iter()
                .map(|(w, n)| format!("window {}: {n}", view.window_number(*w).unwrap_or(0)))
                .collect();
            let has = if top.len() == 1 { "has" } else { "have" };
            format!(
                "{} {has} the {which} tabs, {pick} ({}).",
                capitalized(&spoken_list(&top)),
                each.join(", ")
            )
        }
    };
    Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    }
}

pub fn count_windows(view: &View) -> Step {
    let state = view.state;
    let n = windows_with_tabs(state);
    let mut reply = format!(
        "You have {} open, with {} in all",
        plural(n, "window"),
        plural(state.tabs.len(), "tab")
    );
    if n > 1 {
        // Each by the number "window 2" names, with the tab in front.
        let each: Vec<String> = view
            .window_order()
            .into_iter()
            .filter_map(|w| {
                let tabs: Vec<_> = state.tabs.iter().filter(|t| t.window_id == w).collect();
                let front = tabs.iter().find(|t| t.active)?;
                Some(format!(
                    "{}: {}, '{}' in front",
                    view.window_said(w),
                    plural(tabs.len(), "tab"),
                    title(view, front.id)
                ))
            })
            .collect();
        reply = format!("{reply}: {}", each.join("; "));
    }
    reply.push('.');
    Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    }
}

/// What to say, by example (nothing is called).
pub fn help() -> Step {
    Step {
        reply: "Say or type what to do with your tabs, for example: 'close the YouTube tabs', \
                'switch to Gmail', 'group my tabs by site', 'mute everything except this', \
                'move this tab to a new window', 'go back to the tab I was on', \
                'reopen the tab I just closed', 'search Wikipedia for otters', 'undo'. \
                By voice, say the wake phrase first, or press the microphone button."
            .into(),
        ..Step::default()
    }
}

pub fn list_engines(view: &View) -> Step {
    let names: Vec<String> = view
        .state
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
    Step {
        calls: vec![Call::list_search_engines(NoArgs {})],
        reply: if names.is_empty() {
            "No search engines are installed.".into()
        } else {
            format!("Search engines: {}.", names.join(", "))
        },
        ..Step::default()
    }
}

pub fn list_groups(view: &View) -> Step {
    let groups = &view.state.groups;
    Step {
        calls: vec![Call::list_groups(WindowArgs { window_id: None })],
        reply: if groups.is_empty() {
            "There are no tab groups.".into()
        } else {
            format!(
                "{}: {}.",
                plural(groups.len(), "group"),
                groups
                    .iter()
                    .map(|g| format!("'{}'", g.title))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        },
        ..Step::default()
    }
}
