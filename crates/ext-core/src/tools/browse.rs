//! The voice-browser protocol's commands on the active tab.

use super::args::*;
use super::*;
use crate::tab_state::{NewTab, PageScript};
use crate::text::{in_reader_view, reader_source};

/// Firefox's own zoom steps (`toolkit.zoomManager.zoomValues`).
pub fn zoom_levels() -> &'static [f64] {
    &[
        0.3, 0.5, 0.67, 0.8, 0.9, 1.0, 1.1, 1.2, 1.33, 1.5, 1.7, 2.0, 2.4, 3.0, 4.0, 5.0,
    ]
}

/// The zoom `steps` levels away from `current` (negative: out).
fn step_zoom(current: f64, steps: i64) -> f64 {
    let levels = zoom_levels();
    // The nearest level to the current zoom, then walk from there.
    let nearest = levels
        .iter()
        .enumerate()
        .min_by(|a, b| {
            (a.1 - current)
                .abs()
                .partial_cmp(&(b.1 - current).abs())
                .unwrap_or(std::cmp::Ordering::Equal)
        })
        .map(|(i, _)| i as i64)
        .unwrap_or(5);
    let i = (nearest + steps).clamp(0, levels.len() as i64 - 1);
    levels[i as usize]
}

const DEFAULT_SCROLL_PX: f64 = 400.0;

/// How far `back` and `forward` go at once: further is a page nobody
/// remembers, and a mistaken number should not walk the whole history.
pub const MAX_HISTORY_STEPS: f64 = 20.0;

fn amount(a: &BrowseArgs, default: f64) -> ToolResult<f64> {
    let v = a.amount.unwrap_or(default);
    if !v.is_finite() || v <= 0.0 || v > 1_000_000.0 {
        return Err(ToolError::invalid(format!(
            "browse: amount must be a positive number, not {v}."
        )));
    }
    Ok(v)
}

/// Firefox's zoom range in percent, lowest and highest.
pub fn zoom_range_percent() -> (f64, f64) {
    let levels = zoom_levels();
    (levels[0] * 100.0, levels[levels.len() - 1] * 100.0)
}

/// The zoom `zoom_to` asks for, in percent, within Firefox's own range.
fn zoom_percent(a: &BrowseArgs) -> ToolResult<f64> {
    let (low, high) = zoom_range_percent();
    match a.amount {
        Some(p) if p.is_finite() && (low..=high).contains(&p) => Ok(p),
        Some(p) => Err(ToolError::invalid(format!(
            "browse: Firefox zooms from {low}% to {high}%, not {p}%."
        ))),
        None => Err(ToolError::invalid(
            "browse: zoom_to needs amount, the zoom in percent.",
        )),
    }
}

pub async fn browse<B: Browser>(b: &B, a: BrowseArgs) -> ToolResult<ToolOutput> {
    let all = b.tabs().await?;
    let tab = match a.tab_id {
        Some(id) => find_tab(&all, id)?.clone(),
        None => active_tab(b).await?,
    };
    let action = a.action;
    let mut result = json!({ "action": action_name(action) });
    let mut undo = Vec::new();
    match action {
        BrowseAction::Back | BrowseAction::Forward => {
            // "go back two pages": so many steps through the tab's history.
            let steps = amount(&a, 1.0)?.round().max(1.0);
            if steps > MAX_HISTORY_STEPS {
                return Err(ToolError::invalid(format!(
                    "browse: at most {MAX_HISTORY_STEPS} steps back or forward, not {steps}."
                )));
            }
            let back = action == BrowseAction::Back;
            match (steps as i64, back) {
                (1, true) => b.go_back(tab.id).await?,
                (1, false) => b.go_forward(tab.id).await?,
                // The page's own history walks several entries in one
                // navigation (a page that runs no script, such as
                // about:home, can't).
                (n, _) => {
                    let n = if back { -n } else { n };
                    b.run_page_script(tab.id, PageScript::HistoryGo(n)).await?;
                }
            }
        }
        BrowseAction::Reload => b.reload_tab(tab.id, false).await?,
        BrowseAction::HardReload => b.reload_tab(tab.id, true).await?,
        BrowseAction::Stop => {
            b.run_page_script(tab.id, PageScript::Stop).await?;
        }
        BrowseAction::ScrollUp | BrowseAction::ScrollDown => {
            let px = amount(&a, DEFAULT_SCROLL_PX)?.round() as i64;
            let dy = if action == BrowseAction::ScrollUp {
                -px
            } else {
                px
            };
            result["scrollY"] = json!(b.run_page_script(tab.id, PageScript::ScrollBy(dy)).await?);
        }
        BrowseAction::PageUp | BrowseAction::PageDown => {
            let pages = amount(&a, 1.0)?.round().max(1.0) as i64;
            let n = if action == BrowseAction::PageUp {
                -pages
            } else {
                pages
            };
            result["scrollY"] = json!(
                b.run_page_script(tab.id, PageScript::ScrollPages(n))
                    .await?
            );
        }
        BrowseAction::Top => {
            result["scrollY"] = json!(b.run_page_script(tab.id, PageScript::Top).await?);
        }
        BrowseAction::Bottom => {
            result["scrollY"] = json!(b.run_page_script(tab.id, PageScript::Bottom).await?);
        }
        BrowseAction::ZoomIn
        | BrowseAction::ZoomOut
        | BrowseAction::ZoomReset
        | BrowseAction::ZoomTo => {
            let before = b.zoom(tab.id).await?;
            let after = match action {
                BrowseAction::ZoomIn => step_zoom(before, amount(&a, 1.0)?.round() as i64),
                BrowseAction::ZoomOut => step_zoom(before, -(amount(&a, 1.0)?.round() as i64)),
                BrowseAction::ZoomTo => zoom_percent(&a)? / 100.0,
                _ => 1.0,
            };
            b.set_zoom(tab.id, after).await?;
            result["zoom"] = json!(b.zoom(tab.id).await?);
            undo.push(UndoStep::Zoom {
                tab_id: tab.id,
                zoom: before,
            });
        }
        BrowseAction::ReaderView | BrowseAction::ExitReaderView => {
            let on = action == BrowseAction::ReaderView;
            let was = in_reader_view(&tab.url);
            if was != on {
                b.toggle_reader_view(tab.id).await.map_err(|e| {
                    ToolError::failed(format!(
                        "Firefox did not switch reader view; it does so only for \
                         pages where it finds an article ({}).",
                        e.0
                    ))
                })?;
                undo.push(UndoStep::ReaderView {
                    tab_id: tab.id,
                    on: was,
                    url: reader_source(&tab.url).unwrap_or_else(|| tab.url.clone()),
                });
            }
            result["readerView"] = json!(on);
        }
        BrowseAction::PauseMedia | BrowseAction::PlayMedia => {
            let pause = action == BrowseAction::PauseMedia;
            let script = if pause {
                PageScript::PauseMedia
            } else {
                PageScript::PlayMedia { resume_only: false }
            };
            let changed = b.run_page_script(tab.id, script).await?;
            if changed == 0.0 {
                let title = clip(&tab.title, 60);
                return Err(ToolError::not_found(if pause && tab.audible {
                    format!(
                        "'{title}' plays sound that is not a video or audio on the page, \
                         so it cannot be paused; mute it instead."
                    )
                } else if pause {
                    format!("Nothing is playing in '{title}'.")
                } else {
                    format!(
                        "Nothing in '{title}' is paused, or the page would not let it play \
                         (Firefox lets a page play once you have used it)."
                    )
                }));
            }
            result["media"] = json!(changed);
            undo.push(UndoStep::Media {
                tab_id: tab.id,
                play: pause,
            });
        }
        BrowseAction::NextTab | BrowseAction::PreviousTab => {
            let window: Vec<&Tab> = all
                .iter()
                .filter(|t| t.window_id == tab.window_id)
                .collect();
            // The active tab may have moved since the snapshot it came from:
            // a window that looks empty is an error, not a division by zero.
            if window.is_empty() {
                return Err(ToolError::failed(
                    "The tabs changed while switching; try again.",
                ));
            }
            let at = window.iter().position(|t| t.id == tab.id).unwrap_or(0) as i64;
            let step = if action == BrowseAction::NextTab {
                1
            } else {
                -1
            };
            let next = window[(at + step).rem_euclid(window.len() as i64) as usize];
            b.activate_tab(next.id).await?;
            undo.push(UndoStep::Activate {
                tab_id: tab.id,
                window_id: tab.window_id,
            });
            result["tab"] = json!(reread(b, &[next.id]).await?.pop());
            return Ok(ToolOutput::with_undo(result, undo));
        }
        BrowseAction::NewTab => {
            let created = b
                .create_tab(&NewTab {
                    window_id: Some(tab.window_id),
                    active: true,
                    ..NewTab::default()
                })
                .await?;
            undo.push(UndoStep::Close {
                tab_ids: vec![created.id],
            });
            result["tab"] = json!(created);
            return Ok(ToolOutput::with_undo(result, undo));
        }
        BrowseAction::NewWindow => {
            let (created, close) = super::tabs::open_window(
                b,
                &NewTab {
                    active: true,
                    ..NewTab::default()
                },
            )
            .await?;
            undo.push(close);
            result["tab"] = json!(created);
            return Ok(ToolOutput::with_undo(result, undo));
        }
        BrowseAction::CloseTab => {
            if all.iter().filter(|t| t.window_id == tab.window_id).count() <= 1 {
                return Err(ToolError::refused(
                    "This is the last tab of its window; Tab Whisperer never closes every tab of a window.",
                ));
            }
            let groups = b.groups().await?;
            let record =
                crate::undo::ClosedTab::of(&tab, groups.iter().find(|g| g.id == tab.group_id));
            b.close_tabs(&[tab.id]).await?;
            undo.push(UndoStep::Reopen { tabs: vec![record] });
            result["tab"] = json!(tab);
            return Ok(ToolOutput::with_undo(result, undo));
        }
    }
    result["tab"] = json!(reread(b, &[tab.id]).await?.pop());
    Ok(ToolOutput::with_undo(result, undo))
}

fn action_name(a: BrowseAction) -> Value {
    serde_json::to_value(a).unwrap_or(Value::Null)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zoom_steps_follow_firefox_levels() {
        assert_eq!(step_zoom(1.0, 1), 1.1);
        assert_eq!(step_zoom(1.0, -1), 0.9);
        assert_eq!(step_zoom(1.05, 2), 1.2);
        assert_eq!(step_zoom(5.0, 3), 5.0);
        assert_eq!(step_zoom(0.3, -1), 0.3);
    }
}
