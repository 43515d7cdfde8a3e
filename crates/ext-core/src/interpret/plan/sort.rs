//! Sorting the tabs of a window by title or address: one `move_tabs`
//! call per window that is out of order.

use super::{plural, Refusal, Step};
use crate::interpret::parse::{Scope, SortKey};
use crate::interpret::resolve::View;
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::Tab;
use crate::tools::args::MoveTabsArgs;
use crate::tools::ToolCall;
use std::collections::BTreeMap;

/// Pinned tabs stay first and grouped tabs stay in their groups: the
/// other tabs are sorted into one block right after the pinned ones.
pub fn sort(view: &View, scope: Scope, by: SortKey) -> Result<Step, Refusal> {
    let mut windows: BTreeMap<i64, Vec<&Tab>> = BTreeMap::new();
    for t in view.in_scope(scope) {
        windows.entry(t.window_id).or_default().push(t);
    }
    let mut step = Step::default();
    let mut sorted_count = 0;
    let mut loose_count = 0;
    for tabs in windows.values_mut() {
        tabs.sort_by_key(|t| t.index);
        let pinned = tabs.iter().filter(|t| t.pinned).count();
        let loose: Vec<&Tab> = tabs
            .iter()
            .copied()
            .filter(|t| !t.pinned && !t.is_grouped())
            .collect();
        loose_count += loose.len();
        let mut order = loose.clone();
        order.sort_by_cached_key(|t| key(t, by));
        // In order already: sorted and one block right after the pinned.
        let in_place = order.iter().zip(&loose).all(|(a, b)| a.id == b.id)
            && loose
                .iter()
                .enumerate()
                .all(|(i, t)| t.index == (pinned + i) as i64);
        if order.len() < 2 || in_place {
            continue;
        }
        let ids: Vec<i64> = order.iter().map(|t| t.id).collect();
        sorted_count += ids.len();
        step.touched.extend(&ids);
        step.calls.push(Call::move_tabs(MoveTabsArgs {
            tab_ids: ids,
            index: Some(pinned as i64),
            window_id: None,
            new_window: None,
        }));
    }
    let how = match by {
        SortKey::Title => "by title",
        SortKey::Address => "by address",
    };
    step.reply = if loose_count == 0 {
        "Every tab here is pinned or in a group; sorting leaves those as they are.".into()
    } else if step.calls.is_empty() {
        format!("Your tabs are already in order {how}.")
    } else {
        format!("Sorted {} {how}.", plural(sorted_count, "tab"))
    };
    Ok(step)
}

/// Case and leading marks ignored ("(3) Inbox" sorts under I); the
/// address without its scheme, "www." or query.
fn key(t: &Tab, by: SortKey) -> String {
    match by {
        SortKey::Title => t
            .title
            .trim_start_matches(|c: char| !c.is_alphanumeric())
            .to_lowercase(),
        SortKey::Address => {
            let (host, path) = sites::host_and_path(&t.url);
            format!("{host}{}", path.to_lowercase())
        }
    }
}
