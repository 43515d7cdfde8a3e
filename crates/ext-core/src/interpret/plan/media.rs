//! Pausing and playing what pages play: one `browse` call per tab.

use super::{not_found, one_tab, target_ids, title, Refusal, Step};
use crate::error::ErrorCode;
use crate::interpret::parse::{Scope, Selector, Target};
use crate::interpret::resolve::{spoken_list, View};
use crate::interpret::sites::plays_media;
use crate::log::Call;
use crate::tab_state::Tab;
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
            let every_tab: Vec<&Tab> = view.state.tabs.iter().collect();
            if let Some(step) = replay_paused(view, &every_tab) {
                return Ok(step);
            }
            // Playing what plays already is for the page to say: Firefox
            // keeps a tab "audible" for a while after its sound stops.
            view.active().map(|t| t.id).ok_or_else(nothing_plays)?
        }
        // "resume the music", "play the video in window 2"
        Some(t) if t.selector == Selector::All => return resume(view, t.scope),
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

/// "resume the music", "play the video in window 2": what a command paused there;
/// else the tab in front if its page is for playing, or the one such page
/// that is silent ("resume the music" from a news page); else the tab in
/// front, for its page to say whether anything plays.
fn resume(view: &View, scope: Scope) -> Result<Step, Refusal> {
    view.check_scope(scope).map_err(not_found)?;
    let here = view.in_scope(scope);
    if let Some(step) = replay_paused(view, &here) {
        return Ok(step);
    }
    let front = (view.active())
        .filter(|a| here.iter().any(|t| t.id == a.id))
        .or_else(|| here.iter().copied().find(|t| t.active));
    let silent: Vec<&Tab> = (here.iter().copied())
        .filter(|t| plays_media(&t.url) && !t.audible)
        .collect();
    let id = match (front, silent.as_slice()) {
        (Some(front), _) if plays_media(&front.url) => front.id,
        (_, [one]) => one.id,
        (Some(front), []) => front.id,
        (None, []) => return Err(nothing_plays()),
        (_, several) => {
            return Err(Refusal {
                code: ErrorCode::InvalidArgs,
                reply: format!(
                    "{} tabs could play: {}. Say which, by its name.",
                    several.len(),
                    spoken_list(&titles(view, several)),
                ),
            })
        }
    };
    Ok(calls(view, &[id], BrowseAction::PlayMedia, "Playing"))
}

/// What a command paused among `tabs`, played again ("resume" is first of
/// all the undoing of a "pause").
fn replay_paused(view: &View, tabs: &[&Tab]) -> Option<Step> {
    let ours: Vec<i64> = (view.state.paused_media.iter().copied())
        .filter(|id| tabs.iter().any(|t| t.id == *id))
        .collect();
    (!ours.is_empty()).then(|| calls(view, &ours, BrowseAction::PlayMedia, "Playing"))
}

/// The titles of some tabs, each once, at most five.
fn titles(view: &View, tabs: &[&Tab]) -> Vec<String> {
    let mut titles: Vec<String> = Vec::new();
    for t in tabs {
        let said = format!("'{}'", title(view, t.id));
        if !titles.contains(&said) && titles.len() < 5 {
            titles.push(said);
        }
    }
    titles
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
