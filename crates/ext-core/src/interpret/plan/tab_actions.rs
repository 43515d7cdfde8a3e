//! Mute, pin, reload, unload and duplicate: tabs changed in place.

use super::{capitalized, plural, refused, tabs_said, target_ids, title, Refusal, Step};
use crate::interpret::parse::{Intent, Target};
use crate::interpret::resolve::View;
use crate::interpret::Options;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::tools::args::{MuteTabsArgs, PinTabsArgs, ReloadTabsArgs, TabIdArgs, TabIdsArgs};
use crate::tools::ToolCall;

/// Nothing to change: "'Gmail' is already pinned", "'Slack' isn't
/// muted".
fn already(view: &View, ids: &[i64], state: &str) -> String {
    let undone = state.strip_prefix("un");
    match (ids, undone) {
        ([one], None) => format!("'{}' is already {state}.", title(view, *one)),
        ([one], Some(state)) => format!("'{}' isn't {state}.", title(view, *one)),
        (_, None) => format!("Those tabs are already {state}."),
        (_, Some(state)) => format!("None of those tabs is {state}."),
    }
}

/// Tabs named that were so already, said after the ones changed:
/// " ('Inbox - Gmail' was pinned already)".
fn some_already(view: &View, named: &[i64], changed: &[i64], state: &str) -> String {
    let unchanged: Vec<i64> = (named.iter().copied())
        .filter(|id| !changed.contains(id))
        .collect();
    match (unchanged.as_slice(), state.strip_prefix("un")) {
        ([], _) => String::new(),
        ([one], None) => format!(" ('{}' was {state} already)", title(view, *one)),
        ([one], Some(state)) => format!(" ('{}' wasn't {state})", title(view, *one)),
        (more, None) => format!(" ({} were {state} already)", plural(more.len(), "tab")),
        (more, Some(state)) => format!(" ({} weren't {state})", plural(more.len(), "tab")),
    }
}

pub fn mute(view: &View, target: &Target, mute: bool) -> Result<Step, Refusal> {
    let verb = if mute { "muted" } else { "unmuted" };
    set_flag(
        view,
        target,
        verb,
        |t| t.muted == mute,
        |ids| {
            Call::mute_tabs(MuteTabsArgs {
                tab_ids: ids,
                muted: Some(mute),
            })
        },
    )
}

pub fn pin(view: &View, target: &Target, pin: bool) -> Result<Step, Refusal> {
    let verb = if pin { "pinned" } else { "unpinned" };
    set_flag(
        view,
        target,
        verb,
        |t| t.pinned == pin,
        |ids| {
            Call::pin_tabs(PinTabsArgs {
                tab_ids: ids,
                pinned: Some(pin),
            })
        },
    )
}

/// Mute or pin: the tabs named that are not so already change (`is_set`
/// says which are), by the call `change` makes for them.
fn set_flag(
    view: &View,
    target: &Target,
    verb: &str,
    is_set: impl Fn(&Tab) -> bool,
    change: impl FnOnce(Vec<i64>) -> Call,
) -> Result<Step, Refusal> {
    let mut step = Step::default();
    let r = target_ids(view, target)?;
    let ids: Vec<i64> = (r.ids.iter().copied())
        .filter(|id| view.tab(*id).is_some_and(|t| !is_set(t)))
        .collect();
    if ids.is_empty() {
        step.reply = already(view, &r.ids, verb);
    } else {
        step.reply = format!(
            "{} {}{}.",
            capitalized(verb),
            tabs_said(view, &ids),
            some_already(view, &r.ids, &ids, verb)
        );
        step.calls.push(change(ids));
    }
    // All the tabs named, changed or not: "unmute slack and mute the rest"
    // spares it; "pin gmail and slack and move them to window 2" moves
    // Gmail, pinned already, too.
    step.touched = r.ids;
    Ok(step)
}

pub fn reload(view: &View, target: &Target, hard: bool) -> Result<Step, Refusal> {
    let mut step = Step::default();
    let r = target_ids(view, target)?;
    step.calls.push(Call::reload_tabs(ReloadTabsArgs {
        tab_ids: r.ids.clone(),
        bypass_cache: Some(hard),
    }));
    step.reply = format!("Reloaded {}.", tabs_said(view, &r.ids));
    step.touched = r.ids;
    Ok(step)
}

pub fn discard(view: &View, target: &Target) -> Result<Step, Refusal> {
    let mut step = Step::default();
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
        step.calls.push(Call::discard_tabs(TabIdsArgs {
            tab_ids: ids.clone(),
        }));
        step.reply = format!("Unloaded {} to free memory.", plural(ids.len(), "tab"));
        step.touched = ids;
    }
    Ok(step)
}

/// "duplicate jira twice", "open three new tabs": the calls of one, this
/// many times over; no more tabs than closing would take unasked.
pub fn repeat(view: &View, done: &Intent, times: i64, options: &Options) -> Result<Step, Refusal> {
    let once = super::plan_intent(done, view, options)?;
    let made = times * once.calls.len() as i64;
    if times < 1 || made > options.confirm_threshold as i64 {
        return Err(refused(format!(
            "That would open {made} tabs at once; at most {} are opened on one command.",
            options.confirm_threshold
        )));
    }
    let said = match times {
        2 => "twice".to_string(),
        n => format!("{n} times"),
    };
    let reply = match done {
        Intent::NewTab => format!("Opened {}.", plural(times as usize, "new tab")),
        _ => format!("{} {said}.", once.reply.trim_end_matches('.')),
    };
    Ok(Step {
        calls: (0..times).flat_map(|_| once.calls.clone()).collect(),
        reply,
        ..once
    })
}

pub fn duplicate(view: &View, target: &Target) -> Result<Step, Refusal> {
    let mut step = Step::default();
    let r = target_ids(view, target)?;
    if r.ids.len() > 10 {
        return Err(refused(format!(
            "That would duplicate {} tabs; name fewer.",
            r.ids.len()
        )));
    }
    for id in &r.ids {
        step.calls
            .push(Call::duplicate_tab(TabIdArgs { tab_id: *id }));
    }
    step.reply = format!("Duplicated {}.", tabs_said(view, &r.ids));
    Ok(step)
}
