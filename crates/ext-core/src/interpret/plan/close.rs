//! Closing tabs, with the safety rules: pinned tabs only when named, never
//! every tab of a window, and a question first for many tabs, a tab
//! playing sound, or tabs in several windows.

use super::{not_found, plural, refused, target_ids, title, Refusal, Step};
use crate::error::ErrorCode;
use crate::interpret::parse::{Scope, Selector, Target};
use crate::interpret::resolve::{spoken_list, View};
use crate::interpret::Options;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::text::page_key;
use crate::tools::args::{CloseDuplicateTabsArgs, TabIdsArgs};
use crate::tools::ToolCall;

pub fn close(view: &View, target: &Target, options: &Options) -> Result<Step, Refusal> {
    let state = view.state;
    if matches!(target.selector, Selector::WholeWindow) {
        return Err(refused(
            "Tab Whisperer never closes every tab of a window; say which tabs to close.",
        ));
    }
    let r = target_ids(view, target)?;
    // "the map tab" or "the tab that's playing" matching two tabs: ask which.
    let by_description = matches!(
        target.selector,
        Selector::Named(_) | Selector::Audible | Selector::Idle { .. }
    );
    if target.singular && by_description && r.ids.len() > 1 {
        let titles = r
            .ids
            .iter()
            .take(5)
            .map(|id| format!("'{}'", title(view, *id)))
            .collect::<Vec<_>>()
            .join(", ");
        let n = r.ids.len();
        let label = &r.label;
        return Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: if matches!(target.selector, Selector::Idle { .. }) {
                format!("{n} tabs are {label}: {titles}. Say which, or say 'all'.")
            } else {
                format!(
                    "{n} tabs match '{label}': {titles}. Say which, or 'close all {label} tabs'."
                )
            },
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
    let windows = view.windows_of(&ids);
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
    let what = match (ids.as_slice(), &target.selector) {
        ([id], _) => format!("'{}'", title(view, *id)),
        // "close slack and jira": one tab for each name, said by title.
        (_, Selector::Named(names)) if names.len() == ids.len() && ids.len() <= 3 => {
            let titles: Vec<String> = ids
                .iter()
                .map(|id| format!("'{}'", title(view, *id)))
                .collect();
            spoken_list(&titles)
        }
        (_, Selector::Named(_) | Selector::ThisSite) => format!("{} {} tabs", ids.len(), r.label),
        _ => plural(ids.len(), "tab"),
    };
    let mut reply = format!("Closed {what}");
    if !notes.is_empty() {
        reply += &format!(" ({})", notes.join("; "));
    }
    reply.push('.');
    Ok(Step {
        calls: vec![Call::close_tabs(TabIdsArgs {
            tab_ids: ids.clone(),
        })],
        reply,
        confirm: (!reasons.is_empty())
            .then(|| format!("Close {what}? ({}) Say yes to confirm.", reasons.join(", "))),
        touched: ids,
        sweep: false,
    })
}

/// The same page, as close_duplicate_tabs compares them: without fragment.
/// Closes copies of the same page, after checking there are any (and
/// asking first when that is many).
pub fn close_duplicates(
    view: &View,
    scope: Scope,
    of: Option<&Target>,
    options: &Options,
) -> Result<Step, Refusal> {
    // Duplicates are found everywhere, or in one window.
    let scope = match scope {
        Scope::OtherWindows => Scope::Everywhere,
        s => s,
    };
    let named = of.map(|t| target_ids(view, t)).transpose()?;
    let tabs: Vec<&Tab> = (view.in_scope(scope).into_iter())
        .filter(|t| named.as_ref().is_none_or(|r| r.ids.contains(&t.id)))
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
    // "duplicate YouTube tabs": the site or words named.
    let kind = match (of.map(|t| &t.selector), &named) {
        (Some(Selector::Named(_)), Some(r)) => format!("{} ", r.label),
        _ => String::new(),
    };
    if extra == 0 {
        step.reply = format!("There are no duplicate {kind}tabs.");
        return Ok(step);
    }
    let window_id = view.scope_window(scope);
    step.calls
        .push(Call::close_duplicate_tabs(CloseDuplicateTabsArgs {
            window_id,
            tab_ids: named.map(|r| r.ids),
        }));
    step.reply = format!("Closed {}.", plural(extra, &format!("duplicate {kind}tab")));
    if extra > options.confirm_threshold {
        step.confirm = Some(format!(
            "Close {}? Say yes to confirm.",
            plural(extra, "duplicate tab")
        ));
    }
    Ok(step)
}
