//! Pausing and playing what pages play: one `browse` call per tab.

use super::{one_tab, target_ids, title, Refusal, Step};
use crate::error::ErrorCode;
use crate::interpret::parse::Target;
use crate::interpret::resolve::View;
use crate::log::Call;
use crate::tools::args::{BrowseAction, BrowseArgs};
use crate::tools::ToolCall;

/// "pause the video" pauses what plays (else the tab in front); "pause
/// youtube" the YouTube tabs that play (else the one named).
pub fn pause(view: &View, target: Option<&Target>) -> Result<Step, Refusal> {
    let playing = |ids: &[i64]| -> Vec<i64> {
        ids.iter()
            .copied()
            .filter(|id| view.tab(*id).is_some_and(|t| t.audible))
            .collect()
    };
    let ids = match target {
        None => {
            let all: Vec<i64> = view.state.tabs.iter().map(|t| t.id).collect();
            match (playing(&all), view.active()) {
                (ids, _) if !ids.is_empty() => ids,
                (_, Some(front)) => vec![front.id],
                (_, None) => return Err(nothing_plays()),
            }
        }
        Some(t) => {
            let r = target_ids(view, t)?;
            match (playing(&r.ids), r.ids.as_slice()) {
                (ids, _) if !ids.is_empty() => ids,
                // A silent video is not "audible": one named tab is tried.
                (_, [one]) => vec![*one],
                _ => {
                    return Err(Refusal {
                        code: ErrorCode::NotFound,
                        reply: format!("Nothing is playing in the {} tabs.", r.label),
                    })
                }
            }
        }
    };
    Ok(calls(view, &ids, BrowseAction::PauseMedia, "Paused"))
}

/// "resume" plays again what a command paused (else the tab in front);
/// "resume youtube" the one YouTube tab meant. Firefox does not say which
/// tabs hold paused media, so a named play is never a sweep.
pub fn play(view: &View, target: Option<&Target>) -> Result<Step, Refusal> {
    let id = match target {
        None => {
            let ours: Vec<i64> = view
                .state
                .paused_media
                .iter()
                .copied()
                .filter(|id| view.tab(*id).is_some())
                .collect();
            if !ours.is_empty() {
                return Ok(calls(view, &ours, BrowseAction::PlayMedia, "Playing"));
            }
            // Playing what plays already is for the page to say: Firefox
            // keeps a tab "audible" for a while after its sound stops.
            view.active().map(|t| t.id).ok_or_else(nothing_plays)?
        }
        Some(t) => {
            let one = Target {
                singular: true,
                ..t.clone()
            };
            // "play some jazz" when no tab is called that: said to
            // someone else, most likely; nothing of ours to play.
            one_tab(view, &one, false).map_err(|e| Refusal {
                code: if e.code == ErrorCode::NotFound {
                    ErrorCode::UnknownCommand
                } else {
                    e.code
                },
                reply: e.reply,
            })?
        }
    };
    Ok(calls(view, &[id], BrowseAction::PlayMedia, "Playing"))
}

fn nothing_plays() -> Refusal {
    Refusal {
        code: ErrorCode::NotFound,
        reply: "Nothing is playing.".into(),
    }
}

fn calls(view: &View, ids: &[i64], action: BrowseAction, done: &str) -> Step {
    Step {
        calls: ids
            .iter()
            .map(|id| {
                Call::browse(BrowseArgs {
                    action,
                    amount: None,
                    tab_id: Some(*id),
                })
            })
            .collect(),
        // A sweep's reply counts no tabs: the background adds those it
        // had to pass over.
        reply: match (ids, action) {
            ([one], _) => format!("{done} '{}'.", title(view, *one)),
            (_, BrowseAction::PauseMedia) => "Paused what was playing.".into(),
            _ => "Playing again what was paused.".into(),
        },
        confirm: None,
        touched: ids.to_vec(),
        // One tab whose sound no page script reaches (Web Audio, a
        // plugin) does not keep the others playing.
        sweep: ids.len() > 1,
    }
}
