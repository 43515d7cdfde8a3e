//! Grouping by site or by topic, many groups at once (the clustering
//! itself is in [`super::clusters`]).

use super::clusters::{self, NewGroup};
use super::{not_found, plural, Refusal, Step};
use crate::interpret::parse::Scope;
use crate::interpret::resolve::View;
use crate::log::Call;
use crate::tab_state::State;
use crate::tools::args::GroupTabsArgs;
use crate::tools::ToolCall;

pub fn by_site(view: &View, scope: Scope) -> Result<Step, Refusal> {
    make_groups(clusters::by_site(&in_scope(view, scope)), "site")
}

pub fn by_topic(view: &View, scope: Scope) -> Result<Step, Refusal> {
    make_groups(clusters::by_topic(&in_scope(view, scope)), "topic")
}

/// The snapshot with only the tabs of a scope (for grouping).
fn in_scope(view: &View, scope: Scope) -> State {
    let mut state = view.state.clone();
    state.tabs.retain(view.holds(scope));
    state
}

pub fn make_groups(groups: Vec<NewGroup>, by: &str) -> Result<Step, Refusal> {
    if groups.is_empty() {
        return Err(not_found(format!(
            "No two ungrouped tabs share a {by}, so there is nothing to group."
        )));
    }
    let mut step = Step::default();
    for g in &groups {
        let args = match g.existing {
            Some(id) => GroupTabsArgs {
                tab_ids: g.tab_ids.clone(),
                group_id: Some(id),
                title: None,
                color: None,
                collapsed: None,
            },
            None => GroupTabsArgs {
                tab_ids: g.tab_ids.clone(),
                group_id: None,
                title: Some(g.title.clone()),
                color: Some(g.color),
                collapsed: None,
            },
        };
        step.calls.push(Call::group_tabs(args));
        step.touched.extend(&g.tab_ids);
    }
    // One site grouped in several windows is said once: "YouTube (4 in
    // 2 windows)".
    let mut said: Vec<(&str, usize, usize)> = Vec::new();
    for g in &groups {
        match said.iter_mut().find(|(title, ..)| *title == g.title) {
            Some((_, tabs, windows)) => {
                *tabs += g.tab_ids.len();
                *windows += 1;
            }
            None => said.push((&g.title, g.tab_ids.len(), 1)),
        }
    }
    step.reply = format!(
        "Made {} by {by}: {}.",
        plural(groups.len(), "group"),
        said.iter()
            .map(|(title, tabs, windows)| match windows {
                1 => format!("{title} ({tabs})"),
                _ => format!("{title} ({tabs} in {windows} windows)"),
            })
            .collect::<Vec<_>>()
            .join(", ")
    );
    Ok(step)
}
