//! Moving tabs within a window or to another one.

use super::{not_found, plural, target_ids, Refusal, Step};
use crate::interpret::parse::{Destination, Target};
use crate::interpret::resolve::View;
use crate::log::Call;
use crate::tools::args::MoveTabsArgs;
use crate::tools::ToolCall;

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
    let (window_id, index) = match dest {
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
                    (Some(*w), -1)
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
                    (Some(w), -1)
                }
            }
        }
        Destination::NewWindow => {
            return Err(Refusal::invalid(
                "I can't open a new window; say 'to the other window' or 'to window 2'.",
            ))
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
            (Some(view.focused_window), -1)
        }
        Destination::Window(n) => {
            let w = windows
                .get((*n - 1).max(0) as usize)
                .ok_or_else(|| not_found(format!("There is no window {n}.")))?;
            step.reply = format!("Moved {} to window {n}.", plural(r.ids.len(), "tab"));
            (Some(*w), -1)
        }
        Destination::Start => {
            step.reply = format!("Moved {} to the start.", plural(r.ids.len(), "tab"));
            (None, 0)
        }
        Destination::End => {
            step.reply = format!("Moved {} to the end.", plural(r.ids.len(), "tab"));
            (None, -1)
        }
        Destination::Left => {
            step.reply = "Moved it left.".into();
            (None, (first.index - 1).max(0))
        }
        Destination::Right => {
            step.reply = "Moved it right.".into();
            (None, first.index + 1)
        }
        Destination::Position(n) => {
            step.reply = format!("Moved {} to position {n}.", plural(r.ids.len(), "tab"));
            (None, (n - 1).max(0))
        }
    };
    step.calls.push(Call::move_tabs(MoveTabsArgs {
        tab_ids: r.ids.clone(),
        index: Some(index),
        window_id,
    }));
    step.touched = r.ids;
    Ok(step)
}
