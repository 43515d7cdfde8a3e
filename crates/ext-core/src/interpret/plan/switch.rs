//! Switching to a tab or a window; a bare name switches if it names a tab.

use super::{not_found, one_call, one_tab, title, window_ids, Refusal, Step};
use crate::error::ErrorCode;
use crate::interpret::parse::{Selector, Target, WindowRef};
use crate::interpret::resolve::{match_tabs, names_several_sites, spoken_list, View};
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::tools::args::TabIdArgs;
use crate::tools::ToolCall;

/// Switching, and when no tab is what was named, what to say instead:
/// "find gmail" with Gmail not open says how to open it, "find flights to
/// paris" how to search for them. Neither is done unasked.
pub fn switch(view: &View, target: &Target) -> Result<Step, Refusal> {
    // "switch to trello guardian": two sites, one tab to go to.
    if let Some(names) = several_tabs_named(view, target) {
        return Err(Refusal {
            code: ErrorCode::InvalidArgs,
            reply: format!("{names} are different tabs. Say which one to switch to."),
        });
    }
    switch_to(view, target).map_err(|refusal| {
        let Selector::Named(names) = &target.selector else {
            return refusal;
        };
        let ([words], ErrorCode::NotFound) = (names.as_slice(), refusal.code) else {
            return refusal;
        };
        let said = words.join(" ");
        // A word alone is most often a tab's name misheard ("go to the
        // truth of tab"), not something to look up.
        let hint = match sites::by_words(words) {
            Some(site) => format!(
                "No tab is open on {}; say 'open {said}' to open it.",
                site.display
            ),
            None if words.len() > 1 => format!(
                "{} Say 'search for {said}' to search the web.",
                refusal.reply
            ),
            None => return refusal,
        };
        Refusal {
            reply: hint,
            ..refusal
        }
    })
}

fn switch_to(view: &View, target: &Target) -> Result<Step, Refusal> {
    // One tab comes to the front: "go to all tabs" or "go to the rest"
    // names none ("go to the rest tabs" is how Whisper may hear "go to the
    // Rust docs", and must not pick a tab at random).
    if matches!(target.selector, Selector::All | Selector::Rest) {
        return Err(Refusal {
            code: ErrorCode::UnknownCommand,
            reply: "Say which tab to switch to.".into(),
        });
    }
    let id = one_tab(view, target, false)?;
    // "go to this tab", "go to here": nothing to go to. Spoken, it is most
    // often a name misheard ("go to here" for "go to Jira"), which, as a
    // tab not found, is heard again guided to the tabs' names.
    // After another clause ("move gmail to window 2 and go to it") the tab
    // in front may not be in front any more by then: go.
    if matches!(target.selector, Selector::Active | Selector::It) && !view.after_clause {
        return Err(not_found(format!(
            "You are already on '{}'.",
            title(view, id)
        )));
    }
    Ok(one_call(
        Call::switch_tab(TabIdArgs { tab_id: id }),
        format!("Switched to '{}'.", title(view, id)),
        vec![id],
    ))
}

/// How to speak of the names of `target`, when they are several names,
/// or words each another site's, that are not all one tab.
fn several_tabs_named(view: &View, target: &Target) -> Option<String> {
    let Selector::Named(names) = &target.selector else {
        return None;
    };
    let tabs: Vec<&Tab> = view.state.tabs.iter().collect();
    let said: Vec<String> = match names.as_slice() {
        [words] if names_several_sites(words, &tabs) => words.clone(),
        [_] => return None,
        names => {
            let found: Vec<Vec<i64>> = names
                .iter()
                .map(|words| match_tabs(words, &tabs))
                .filter(|found| !found.is_empty())
                .collect();
            if !found.iter().any(|f| *f != found[0]) {
                return None;
            }
            names.iter().map(|words| words.join(" ")).collect()
        }
    };
    let quoted: Vec<String> = said.iter().map(|w| format!("'{w}'")).collect();
    Some(spoken_list(&quoted))
}

/// A bare word that names no tab was probably not a name at all.
pub fn bare(view: &View, target: &Target) -> Result<Step, Refusal> {
    // "slack, jira": no tab to switch to, and no verb to guess. Spoken,
    // two names with no verb ("Trello, The Guardian" for "reload the
    // guardian") are a command misheard, not a switch to the later one.
    if let Some(names) = several_tabs_named(view, target) {
        return Err(Refusal {
            code: ErrorCode::UnknownCommand,
            reply: format!("{names} are different tabs. Say what to do with them."),
        });
    }
    switch_to(view, target).map_err(|r| Refusal {
        code: ErrorCode::UnknownCommand,
        reply: format!(
            "{} Try 'close the YouTube tabs', 'switch to Gmail' or 'group my tabs by site'.",
            r.reply
        ),
    })
}

/// "switch to the other window": its active tab comes to the front.
pub fn switch_window(view: &View, which: WindowRef) -> Result<Step, Refusal> {
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
    Ok(one_call(
        Call::switch_tab(TabIdArgs { tab_id: tab.id }),
        format!("Switched to the window with '{}'.", title(view, tab.id)),
        vec![tab.id],
    ))
}
