//! The page in front: back, forward, reload, scroll, zoom, next tab…

use super::{one_call, Refusal, Step};
use crate::error::ErrorCode;
use crate::interpret::parse::Target;
use crate::interpret::resolve::View;
use crate::interpret::Options;
use crate::log::Call;
use crate::tools::args::{BrowseAction, BrowseArgs};
use crate::tools::ToolCall;
use crate::tools::{zoom_range_percent, MAX_HISTORY_STEPS};

pub fn browse(
    view: &View,
    action: BrowseAction,
    amount: Option<f64>,
    options: &Options,
) -> Result<Step, Refusal> {
    if action == BrowseAction::CloseTab {
        return super::close::close(view, &Target::active(), options);
    }
    if let (BrowseAction::ZoomTo, Some(percent)) = (action, amount) {
        let (low, high) = zoom_range_percent();
        if !(low..=high).contains(&percent) {
            return Err(Refusal {
                code: ErrorCode::InvalidArgs,
                reply: format!("Firefox zooms from {low}% to {high}%, not {percent}%."),
            });
        }
    }
    if let (BrowseAction::Back | BrowseAction::Forward, Some(steps)) = (action, amount) {
        if steps > MAX_HISTORY_STEPS {
            return Err(Refusal {
                code: ErrorCode::InvalidArgs,
                reply: format!(
                    "Tab Whisperer goes at most {MAX_HISTORY_STEPS} pages back or forward at once."
                ),
            });
        }
    }
    Ok(one_call(
        Call::browse(BrowseArgs {
            action,
            amount,
            tab_id: None,
        }),
        browse_reply(action, amount),
        vec![],
    ))
}

pub fn new_tab() -> Step {
    one_call(
        Call::browse(BrowseArgs {
            action: BrowseAction::NewTab,
            amount: None,
            tab_id: None,
        }),
        "Opened a new tab.".into(),
        vec![],
    )
}

fn browse_reply(a: BrowseAction, amount: Option<f64>) -> String {
    use BrowseAction::*;
    match (a, amount) {
        (ZoomTo, Some(percent)) => return format!("Zoomed to {percent}%."),
        (Back, Some(pages)) => return format!("Went back {pages} pages."),
        (Forward, Some(pages)) => return format!("Went forward {pages} pages."),
        _ => {}
    }
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
        ZoomTo => "Zoomed.",
        ReaderView => "Opened reader view.",
        ExitReaderView => "Left reader view.",
        PauseMedia => "Paused.",
        PlayMedia => "Playing.",
        NextTab => "Switched to the next tab.",
        PreviousTab => "Switched to the previous tab.",
        NewTab => "Opened a new tab.",
        CloseTab => "Closed the tab.",
        NewWindow => "Opened a new window.",
    }
    .to_string()
}
