//! Moving tabs within a window or to another one.

use super::{
    capitalized, not_found, one_tab, refused, tabs_said, target_ids, title, Refusal, Step,
};
use crate::interpret::parse::{Destination, GroupWhich, Position, Scope, Selector, Target};
use crate::interpret::resolve::{find_group, no_window, View};
use crate::log::Call;
use crate::tab_state::Tab;
use crate::tools::args::{GroupTabsArgs, MoveTabsArgs};
use crate::tools::tabs::{emptied_windows, EMPTYING_INTO_NEW_WINDOW};
use crate::tools::ToolCall;
use ext_protocol::ErrorCode;

pub fn move_tabs(view: &View, target: &Target, dest: &Destination) -> Result<Step, Refusal> {
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
    if let Destination::Left | Destination::Right = dest {
        if let Some(step) = group_aside(view, &r.ids, *dest == Destination::Right) {
            return Ok(step);
        }
    }
    // To this or the other window's end, only the tabs not there already
    // move ("merge all windows").
    let mut ids = r.ids.clone();
    let (window_id, index) = match dest {
        Destination::OtherWindow => {
            let others: Vec<i64> = windows
                .iter()
                .copied()
                .filter(|w| *w != first.window_id)
                .collect();
            // Several: the focused one if the tabs are elsewhere, else the first other.
            let w = match others.as_slice() {
                [] => return Err(not_found("There is no other window.")),
                [_, _, ..] if first.window_id != view.focused_window => view.focused_window,
                [w, ..] => *w,
            };
            ids = into_window(view, &r.ids, w);
            if ids.is_empty() {
                step.reply = there_already(view, &r.ids, w, "that window");
                return Ok(step);
            }
            step.reply = match others.len() {
                1 => format!("Moved {} to the other window.", moved_said(view, &ids)),
                _ => format!(
                    "Moved {} to window {}.",
                    moved_said(view, &ids),
                    view.window_number(w).unwrap_or(0)
                ),
            };
            (Some(w), -1)
        }
        Destination::NewWindow => {
            refuse_emptying(view, &r.ids)?;
            step.reply = format!("Moved {} to a new window.", moved_said(view, &r.ids));
            step.calls.push(Call::move_tabs(MoveTabsArgs {
                tab_ids: r.ids.clone(),
                index: None,
                window_id: None,
                new_window: Some(true),
            }));
            step.touched = r.ids;
            return Ok(step);
        }
        Destination::There => {
            // The window of the tabs the clause before acted on.
            let w = (view.previous.iter())
                .find_map(|id| view.tab(*id))
                .map_or(view.focused_window, |t| t.window_id);
            ids = into_window(view, &r.ids, w);
            if ids.is_empty() {
                step.reply = there_already(view, &r.ids, w, "that window");
                return Ok(step);
            }
            let n = view.window_number(w).unwrap_or(0);
            step.reply = format!("Moved {} to window {n}.", moved_said(view, &ids));
            (Some(w), -1)
        }
        Destination::ThisWindow => {
            ids = into_window(view, &r.ids, view.focused_window);
            if ids.is_empty() {
                step.reply = there_already(view, &r.ids, view.focused_window, "this window");
                return Ok(step);
            }
            step.reply = format!("Moved {} to this window.", moved_said(view, &ids));
            (Some(view.focused_window), -1)
        }
        Destination::Window(n) => {
            let w = view
                .numbered_window(*n)
                .ok_or_else(|| not_found(no_window(view, *n)))?;
            ids = into_window(view, &r.ids, w);
            if ids.is_empty() {
                step.reply = there_already(view, &r.ids, w, &format!("window {n}"));
                return Ok(step);
            }
            step.reply = format!("Moved {} to window {n}.", moved_said(view, &ids));
            (Some(w), -1)
        }
        Destination::Start => {
            step.reply = format!("Moved {} to the start.", moved_said(view, &r.ids));
            (None, 0)
        }
        Destination::End => {
            step.reply = format!("Moved {} to the end.", moved_said(view, &r.ids));
            (None, -1)
        }
        // One place is "left" or "right", as said.
        Destination::Left | Destination::Right | Destination::Places { .. } => {
            let (right, n) = match *dest {
                Destination::Places { right, n } => (right, n),
                _ => (*dest == Destination::Right, 1),
            };
            // Pinned tabs stay among the pinned, the others after them.
            let window: Vec<&Tab> = (state.tabs.iter())
                .filter(|t| t.window_id == first.window_id)
                .collect();
            let pinned = window.iter().filter(|t| t.pinned).count() as i64;
            let (low, high) = match first.pinned {
                true => (0, pinned - 1),
                false => (pinned, window.len() as i64 - 1),
            };
            let high = (high - (r.ids.len() as i64 - 1)).max(low);
            let to = if right {
                first.index + n
            } else {
                first.index - n
            };
            let to = to.clamp(low, high);
            if to == first.index && first.pinned && right {
                step.reply = format!(
                    "{} is the last pinned tab; Firefox keeps pinned tabs first.",
                    capitalized(&moved_said(view, &r.ids))
                );
                return Ok(step);
            }
            if to == first.index {
                let edge = if right { "last" } else { "first" };
                step.reply = format!(
                    "{} is {edge} already.",
                    capitalized(&moved_said(view, &r.ids))
                );
                return Ok(step);
            }
            let side = if right { "right" } else { "left" };
            let moved = (to - first.index).abs();
            step.reply = match n {
                1 => format!("Moved {} {side}.", moved_said(view, &r.ids)),
                _ => format!(
                    "Moved {} {} to the {side}.",
                    moved_said(view, &r.ids),
                    crate::text::plural(moved as usize, "place")
                ),
            };
            (None, to)
        }
        Destination::Beside { tab, after } => {
            let reference = one_tab(view, tab, false)?;
            if r.ids.contains(&reference) {
                return Err(Refusal::invalid("A tab cannot move next to itself."));
            }
            let beside = view
                .tab(reference)
                .ok_or_else(|| not_found("No tab matches that."))?;
            let beside = group_edge(view, beside, &r.ids, *after, names_a_group(tab));
            // tabs.move's index is where the tab ends up: the moving tabs
            // to the left of the reference, in its window, leave a gap.
            let leaving_before = r
                .ids
                .iter()
                .filter_map(|id| view.tab(*id))
                .filter(|t| t.window_id == beside.window_id && t.index < beside.index)
                .count() as i64;
            let index = beside.index - leaving_before + i64::from(*after);
            let unpinned = r
                .ids
                .iter()
                .any(|id| view.tab(*id).is_some_and(|t| !t.pinned));
            step.reply = if !*after && beside.pinned && unpinned {
                // Firefox keeps pinned tabs in front.
                format!(
                    "Moved {} right after the pinned tabs.",
                    moved_said(view, &r.ids)
                )
            } else {
                // Past a whole group: named as the group.
                let place = match state.groups.iter().find(|g| g.id == beside.group_id) {
                    Some(g) if beside.id != reference || names_a_group(tab) => {
                        format!("the '{}' group", g.title)
                    }
                    _ => format!("'{}'", super::title(view, reference)),
                };
                format!(
                    "Moved {} {} {place}.",
                    moved_said(view, &r.ids),
                    if *after { "after" } else { "before" },
                )
            };
            let elsewhere = r
                .ids
                .iter()
                .filter_map(|id| view.tab(*id))
                .any(|t| t.window_id != beside.window_id);
            (elsewhere.then_some(beside.window_id), index)
        }
        Destination::Position(n) => {
            // "position 100" in a window of 7 tabs is its end.
            let in_window = (state.tabs.iter())
                .filter(|t| t.window_id == first.window_id)
                .count() as i64;
            if *n >= in_window {
                step.reply = format!("Moved {} to the end.", moved_said(view, &r.ids));
                (None, -1)
            } else {
                step.reply = format!("Moved {} to position {n}.", moved_said(view, &r.ids));
                (None, (n - 1).max(0))
            }
        }
        Destination::Together => return together(view, &r.ids, &r.label),
        Destination::GroupEdge { group, end } => return to_group_edge(view, &r.ids, group, *end),
        Destination::SwapWith(other) => return swap(view, target, other.as_deref()),
        Destination::Between(a, b) => return between(view, target, a, b),
    };
    // A window left with no tab closes ("merge all windows"): say so.
    let closing = window_id.map_or(0, |to| emptied_windows(&state.tabs, &ids, Some(to)).len());
    if closing > 0 {
        step.reply = format!(
            "{} Firefox closed {} left empty (undo opens {} again).",
            step.reply,
            if closing == 1 {
                "the window".to_string()
            } else {
                format!("the {closing} windows")
            },
            if closing == 1 { "it" } else { "them" },
        );
    }
    step.calls.push(Call::move_tabs(MoveTabsArgs {
        tab_ids: ids.clone(),
        index: Some(index),
        window_id,
        new_window: None,
    }));
    step.touched = ids;
    Ok(step)
}

/// The tabs a move takes: a whole group by its name.
fn moved_said(view: &View, ids: &[i64]) -> String {
    let group = ids.first().and_then(|id| view.tab(*id)).map(|t| t.group_id);
    let only_that_group = |g: i64| {
        ids.iter()
            .all(|id| view.tab(*id).is_some_and(|t| t.group_id == g))
    };
    let whole =
        group.filter(|g| ids.len() > 1 && view.group_within(*g, ids) && only_that_group(*g));
    match whole.and_then(|g| view.state.groups.iter().find(|x| x.id == g)) {
        Some(g) => format!("the '{}' group", g.title),
        None => tabs_said(view, ids),
    }
}

/// "move the news group right": a whole group steps past the tab beside
/// it, or past the whole group that tab is in. One step of one tab would
/// split that group (and Firefox would take the tab out of it).
fn group_aside(view: &View, ids: &[i64], right: bool) -> Option<Step> {
    let moving: Vec<&Tab> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    let first = moving.first()?;
    let one_group = moving
        .iter()
        .all(|t| t.group_id == first.group_id && t.window_id == first.window_id);
    if !one_group || !view.group_within(first.group_id, ids) {
        return None;
    }
    let indexes = moving.iter().map(|t| t.index);
    let (low, high) = (indexes.clone().min()?, indexes.max()?);
    let beside_at = if right { high + 1 } else { low - 1 };
    let neighbour = (view.state.tabs.iter())
        .find(|t| t.window_id == first.window_id && t.index == beside_at && !t.pinned);
    let said = moved_said(view, ids);
    let mut step = Step::default();
    let Some(neighbour) = neighbour else {
        let end = if right { "last" } else { "first" };
        step.reply = format!("{} is {end} already.", capitalized(&said));
        return Some(step);
    };
    let edge = group_edge(view, neighbour, ids, right, false);
    let index = if right {
        edge.index + 1 - moving.len() as i64
    } else {
        edge.index
    };
    let place = match view.state.groups.iter().find(|g| g.id == edge.group_id) {
        Some(g) => super::group_said(g),
        None => format!("'{}'", super::title(view, edge.id)),
    };
    let side = if right { "after" } else { "before" };
    step.reply = format!("Moved {said} {side} {place}.");
    step.calls.push(Call::move_tabs(MoveTabsArgs {
        tab_ids: ids.to_vec(),
        index: Some(index),
        window_id: None,
        new_window: None,
    }));
    step.touched = ids.to_vec();
    Some(step)
}

/// "move the bbc tab to the end of the news group": first or last in the
/// group. Tabs not in it join it first, which Firefox does at its end and
/// keeps the group where it is.
fn to_group_edge(view: &View, ids: &[i64], which: &GroupWhich, end: bool) -> Result<Step, Refusal> {
    let moving: Vec<&Tab> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    // "move the guardian tab to the start of the group": its own group.
    let own = moving.first().map(|t| t.group_id).filter(|g| {
        *g != -1 && moving.iter().all(|t| t.group_id == *g) && *which == GroupWhich::Current
    });
    let group = match own.and_then(|g| view.state.groups.iter().find(|x| x.id == g)) {
        Some(g) => g,
        None => find_group(view.state, which, view).map_err(not_found)?,
    };
    let mut members: Vec<&Tab> = (view.state.tabs.iter())
        .filter(|t| t.group_id == group.id)
        .collect();
    members.sort_by_key(|t| t.index);
    let first = members
        .first()
        .ok_or_else(|| not_found("That group has no tabs."))?;
    let joining: Vec<i64> = (moving.iter())
        .filter(|t| t.group_id != group.id)
        .map(|t| t.id)
        .collect();
    let mut step = Step::default();
    if !joining.is_empty() {
        step.calls.push(Call::group_tabs(GroupTabsArgs {
            tab_ids: joining.clone(),
            group_id: Some(group.id),
            title: None,
            color: None,
            collapsed: None,
        }));
    }
    // The group's first place once the tabs before it in its window have
    // left, and its size once the others have joined.
    let leaving_before = (moving.iter())
        .filter(|t| t.window_id == group.window_id && t.index < first.index)
        .count() as i64;
    let start = first.index - leaving_before;
    let size = (members.len() + joining.len()) as i64;
    let index = if end {
        start + size - moving.len() as i64
    } else {
        start
    };
    step.calls.push(Call::move_tabs(MoveTabsArgs {
        tab_ids: ids.to_vec(),
        index: Some(index),
        window_id: None,
        new_window: None,
    }));
    step.reply = format!(
        "Moved {} to the {} of {}.",
        tabs_said(view, ids),
        if end { "end" } else { "start" },
        super::group_said(group)
    );
    step.touched = ids.to_vec();
    Ok(step)
}

/// "the docs group" as a place, said so.
fn names_a_group(reference: &Target) -> bool {
    matches!(reference.selector, Selector::InGroup(_))
}

/// Where tabs go beside `reference` when it is in a group: past the whole
/// group when the group was said ("after the docs group") or when a whole
/// group moves (groups do not nest, and a group dropped inside another
/// would join it); otherwise beside the tab itself, joining its group as
/// in Firefox.
fn group_edge<'a>(
    view: &View<'a>,
    reference: &'a Tab,
    moving: &[i64],
    after: bool,
    group_named: bool,
) -> &'a Tab {
    if !reference.is_grouped() {
        return reference;
    }
    let tabs = &view.state.tabs;
    let whole_group_moves = (moving.iter().filter_map(|id| view.tab(*id)))
        .any(|t| t.group_id != reference.group_id && view.group_within(t.group_id, moving));
    if !group_named && !whole_group_moves {
        return reference;
    }
    let members = tabs
        .iter()
        .filter(|t| t.window_id == reference.window_id && t.group_id == reference.group_id);
    let edge = if after {
        members.max_by_key(|t| t.index)
    } else {
        members.min_by_key(|t| t.index)
    };
    edge.unwrap_or(reference)
}

/// Why none of the tabs moves into window `to`: they are there, or of the
/// other kind (private or not).
fn there_already(view: &View, ids: &[i64], to: i64, place: &str) -> String {
    let there = ids
        .iter()
        .all(|id| view.tab(*id).is_some_and(|t| t.window_id == to));
    match ids {
        _ if !there => "Firefox moves no tab between private and normal windows.".into(),
        [one] => format!("'{}' is already in {place}.", title(view, *one)),
        _ => format!("Those tabs are already in {place}."),
    }
}

/// The tabs that move into window `to`: those not there already, and
/// only of its kind (Firefox moves no tab between private and normal
/// windows).
fn into_window(view: &View, ids: &[i64], to: i64) -> Vec<i64> {
    let private = view.state.windows.iter().any(|w| w.id == to && w.incognito);
    ids.iter()
        .copied()
        .filter(|id| {
            view.tab(*id)
                .is_some_and(|t| t.window_id != to && t.incognito == private)
        })
        .collect()
}

/// "put the reddit tabs together": the others right after the first of
/// them (in window and tab order), from whichever window they are in.
fn together(view: &View, ids: &[i64], label: &str) -> Result<Step, Refusal> {
    let mut tabs: Vec<_> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    tabs.sort_by_key(|t| (t.window_id != view.focused_window, t.window_id, t.index));
    let (anchor, rest) = match tabs.split_first() {
        Some((anchor, rest)) if !rest.is_empty() => (*anchor, rest),
        _ => return Err(Refusal::invalid(format!("Only one tab matches {label}."))),
    };
    let moving: Vec<i64> = rest.iter().map(|t| t.id).collect();
    // The anchor is the first of them in its window: none of the moving
    // tabs leaves a gap before it.
    let elsewhere = rest.iter().any(|t| t.window_id != anchor.window_id);
    let window_id = elsewhere.then_some(anchor.window_id);
    Ok(Step {
        reply: format!(
            "Put the {} {label} tabs together after '{}'.",
            ids.len(),
            super::title(view, anchor.id)
        ),
        calls: vec![Call::move_tabs(MoveTabsArgs {
            tab_ids: moving,
            index: Some(anchor.index + 1),
            window_id,
            new_window: None,
        })],
        touched: ids.to_vec(),
        ..Step::default()
    })
}

/// "swap gmail and slack": the two tabs trade places, in one window or
/// between two.
fn swap(view: &View, target: &Target, other: Option<&Target>) -> Result<Step, Refusal> {
    let (a, b) = match other {
        Some(other) => (one_tab(view, target, true)?, one_tab(view, other, true)?),
        None => match target_ids(view, target)?.ids[..] {
            [a, b] => (a, b),
            _ => {
                return Err(Refusal::invalid(
                    "Say which two tabs to swap: 'swap gmail and slack'.",
                ))
            }
        },
    };
    let (Some(ta), Some(tb)) = (view.tab(a), view.tab(b)) else {
        return Err(not_found("No tab matches that."));
    };
    if a == b {
        return Err(Refusal::invalid("Those are the same tab."));
    }
    if ta.pinned != tb.pinned {
        return Err(refused(
            "Firefox keeps pinned tabs in front: a pinned tab and another can't trade places.",
        ));
    }
    let alone = |t: &Tab| {
        !view
            .state
            .tabs
            .iter()
            .any(|u| u.window_id == t.window_id && u.id != t.id)
    };
    let calls = if ta.window_id == tb.window_id {
        // The left one goes right after the other (its index counts the
        // tabs that stay), then the other where the left one was.
        let (left, right) = if ta.index < tb.index {
            (ta, tb)
        } else {
            (tb, ta)
        };
        vec![(left.id, None, right.index), (right.id, None, left.index)]
    } else if alone(ta) && alone(tb) {
        return Err(refused(
            "Each of those tabs is alone in its window: there is nothing to swap.",
        ));
    } else {
        // A tab alone in its window goes last: its window would close.
        let (first, second) = if alone(ta) { (tb, ta) } else { (ta, tb) };
        vec![
            (first.id, Some(second.window_id), second.index),
            (second.id, Some(first.window_id), first.index),
        ]
    };
    Ok(Step {
        reply: format!("Swapped '{}' and '{}'.", title(view, a), title(view, b)),
        calls: calls
            .into_iter()
            .map(|(id, window_id, index)| {
                Call::move_tabs(MoveTabsArgs {
                    tab_ids: vec![id],
                    index: Some(index),
                    window_id,
                    new_window: None,
                })
            })
            .collect(),
        touched: vec![a, b],
        ..Step::default()
    })
}

/// Moving every tab of a window into a new one would only replace it.
fn refuse_emptying(view: &View, ids: &[i64]) -> Result<(), Refusal> {
    if emptied_windows(&view.state.tabs, ids, None).is_empty() {
        return Ok(());
    }
    Err(Refusal {
        code: ErrorCode::Refused,
        reply: EMPTYING_INTO_NEW_WINDOW.into(),
    })
}

/// "put slack between youtube and jira": right after the one of the two
/// further left, both in one window (of several tabs a name matches, the
/// two nearest each other: after Dogs, the second YouTube tab, not Cats).
fn between(view: &View, target: &Target, a: &Target, b: &Target) -> Result<Step, Refusal> {
    let tabs = |t: &Target| -> Result<Vec<&Tab>, Refusal> {
        let r = target_ids(view, t)?;
        let found: Vec<&Tab> = r.ids.iter().filter_map(|id| view.tab(*id)).collect();
        match found.is_empty() {
            true => Err(not_found(format!("No tab matches {}.", r.label))),
            false => Ok(found),
        }
    };
    let moving = target_ids(view, target)?.ids;
    let (ta, tb) = (tabs(a)?, tabs(b)?);
    let pairs: Vec<(&Tab, &Tab)> = (ta.iter())
        .flat_map(|x| tb.iter().map(move |y| (*x, *y)))
        .filter(|(x, y)| x.id != y.id && !moving.contains(&x.id) && !moving.contains(&y.id))
        .collect();
    if pairs.is_empty() {
        return Err(Refusal::invalid("A tab cannot move next to itself."));
    }
    let nearest = (pairs.into_iter())
        .filter(|(x, y)| x.window_id == y.window_id)
        .min_by_key(|(x, y)| (x.index - y.index).abs());
    let Some((x, y)) = nearest else {
        return Err(refused(format!(
            "'{}' and '{}' are in different windows; say which to put it next to.",
            ta[0].title, tb[0].title
        )));
    };
    let left = if x.index < y.index { x } else { y };
    // That one tab, said by its place in its window.
    let at = Target {
        scope: Scope::Window(view.window_number(left.window_id).unwrap_or(1)),
        singular: true,
        ..Target::of(Selector::Positions(vec![Position::Nth(left.index + 1)]))
    };
    let dest = Destination::Beside {
        tab: Box::new(at),
        after: true,
    };
    move_tabs(view, target, &dest)
}
