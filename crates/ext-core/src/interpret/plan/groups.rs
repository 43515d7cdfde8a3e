//! Tab groups: a new group or adding to one, renaming, recoloring,
//! collapsing, ungrouping.

use super::{capitalized, group_said, not_found, plural, refused, target_ids, Refusal, Step};
use crate::interpret::parse::{GroupWhich, Selector, Target};
use crate::interpret::resolve::{find_group, in_strip_order, View};
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::{Color, Group, Tab};
use crate::tools::args::{CollapseGroupArgs, GroupTabsArgs, UngroupTabsArgs, UpdateGroupArgs};
use crate::tools::ToolCall;

pub fn group(
    view: &View,
    target: &Target,
    name: Option<&str>,
    color: Option<Color>,
) -> Result<Step, Refusal> {
    let state = view.state;
    let r = target_ids(view, target)?;
    let ids: Vec<i64> = r
        .ids
        .iter()
        .copied()
        .filter(|id| view.tab(*id).is_some_and(|t| !t.pinned))
        .collect();
    if ids.is_empty() {
        return Err(refused("Pinned tabs can't be grouped; unpin them first."));
    }
    // "group gmail and spotify" with Gmail pinned: Spotify alone, said so.
    let left_out = match (r.ids.iter()).find(|id| !ids.contains(id)) {
        None => String::new(),
        Some(pinned) if r.ids.len() == ids.len() + 1 => format!(
            " Left '{}' out: pinned tabs can't be grouped.",
            super::title(view, *pinned)
        ),
        Some(_) => format!(
            " Left {} pinned tabs out: pinned tabs can't be grouped.",
            r.ids.len() - ids.len()
        ),
    };
    let mut step = Step::default();
    let existing = name.and_then(|n| {
        state
            .groups
            .iter()
            .find(|g| g.title.eq_ignore_ascii_case(n))
    });
    let existing = match name {
        Some(_) => existing,
        None => joining(view, &ids),
    };
    // "group the news tabs", "put the hacker news tab in the news group",
    // all of them in that group already.
    if let Some(g) = existing.filter(|g| {
        color.is_none()
            && ids
                .iter()
                .all(|id| view.tab(*id).is_some_and(|t| t.group_id == g.id))
    }) {
        step.reply = format!(
            "{} {} {} already.",
            capitalized(&super::tabs_said(view, &ids)),
            if ids.len() == 1 { "is in" } else { "are in" },
            group_said(g)
        );
        return Ok(step);
    }
    // Of those, only the tabs not in it yet join it (a tab added again
    // would move to the group's end).
    let ids = match existing {
        Some(g) => {
            let joining: Vec<i64> = ids
                .iter()
                .copied()
                .filter(|id| view.tab(*id).is_some_and(|t| t.group_id != g.id))
                .collect();
            if joining.is_empty() {
                ids
            } else {
                joining
            }
        }
        None => ids,
    };
    match existing {
        Some(g) => {
            step.calls.push(Call::group_tabs(GroupTabsArgs {
                tab_ids: ids.clone(),
                group_id: Some(g.id),
                title: None,
                color,
                collapsed: None,
            }));
            step.reply = format!(
                "Added {} to {}{}.{left_out}",
                plural(ids.len(), "tab"),
                group_said(g),
                moved_in(view, &ids, g.window_id)
            );
        }
        None => {
            let title = name
                .map(str::to_string)
                .or_else(|| group_title(view, target, &r.label, &ids));
            let window = view
                .tab(ids[0])
                .map(|t| t.window_id)
                .unwrap_or(view.focused_window);
            let used: Vec<Color> = state
                .groups
                .iter()
                .filter(|g| g.window_id == window)
                .map(|g| g.color)
                .collect();
            let color = color.unwrap_or_else(|| {
                Color::ALL
                    .iter()
                    .copied()
                    .find(|c| !used.contains(c))
                    .unwrap_or(Color::Blue)
            });
            step.reply = format!("Grouped {}", plural(ids.len(), "tab"));
            if let Some(title) = &title {
                step.reply += &format!(" as '{title}'");
            }
            step.reply += &in_each_window(view, &ids);
            step.reply.push('.');
            step.reply += &left_out;
            step.calls.push(Call::group_tabs(GroupTabsArgs {
                tab_ids: ids.clone(),
                group_id: None,
                title,
                color: Some(color),
                collapsed: None,
            }));
        }
    }
    step.touched = ids;
    Ok(step)
}

/// "group this tab with the news tabs": when the tabs are a whole group
/// and tabs in no group, the group those join (a new one would take the
/// group's tabs out of it).
fn joining<'a>(view: &View<'a>, ids: &[i64]) -> Option<&'a Group> {
    let tabs: Vec<&Tab> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    let mut groups: Vec<i64> = tabs
        .iter()
        .filter(|t| t.is_grouped())
        .map(|t| t.group_id)
        .collect();
    groups.sort_unstable();
    groups.dedup();
    let [group] = groups[..] else { return None };
    let g = view.state.groups.iter().find(|g| g.id == group)?;
    view.group_within(group, ids).then_some(g)
}

/// A new group of tabs from several windows is made in each of them
/// (`group_tabs` never drags tabs across windows); the reply says so.
fn in_each_window(view: &View, ids: &[i64]) -> String {
    match view.windows_of(ids).len() {
        0 | 1 => String::new(),
        n => format!(" (a group in each of the {n} windows they are in)"),
    }
}

/// An existing group lives in one window, and tabs added to it from
/// others move there; the reply says so: " (4 of them moved here from 2
/// other windows)".
fn moved_in(view: &View, ids: &[i64], window: i64) -> String {
    let mut from: Vec<i64> = ids
        .iter()
        .filter_map(|id| view.tab(*id))
        .filter(|t| t.window_id != window)
        .map(|t| t.window_id)
        .collect();
    let moved = from.len();
    from.sort_unstable();
    from.dedup();
    let here = if window == view.focused_window {
        "here"
    } else {
        "into its window"
    };
    match (moved, from.len()) {
        (0, _) => String::new(),
        (_, 1) => format!(" ({moved} of them moved {here} from another window)"),
        (_, n) => format!(" ({moved} of them moved {here} from {n} other windows)"),
    }
}

/// The words said, each spelled as a title among `tabs` spells it
/// ("WebGPU", "iPhone"), else capitalized.
pub(super) fn spelled_as_in(said: &str, tabs: &[&Tab]) -> String {
    let spelled = |word: &str| {
        (tabs.iter())
            .flat_map(|t| t.title.split(|c: char| !c.is_alphanumeric()))
            .find(|w| w.eq_ignore_ascii_case(word) && w.chars().any(char::is_uppercase))
            .map(str::to_string)
            .unwrap_or_else(|| capitalized(word))
    };
    said.split_whitespace()
        .map(spelled)
        .collect::<Vec<_>>()
        .join(" ")
}

/// A short title for a new group nobody named: the site its tabs share
/// ("YouTube"), the one thing named ("Flights"), or the domain they share
/// ("Atlassian" for Jira and Confluence); else none.
fn group_title(view: &View, target: &Target, label: &str, ids: &[i64]) -> Option<String> {
    let tabs: Vec<&Tab> = ids.iter().filter_map(|id| view.tab(*id)).collect();
    let first = tabs.first()?;
    let site = sites::site_of(&first.url);
    if site.is_some()
        && tabs
            .iter()
            .all(|t| sites::site_of(&t.url).map(|s| s.display) == site.map(|s| s.display))
    {
        return site.map(|s| s.display.to_string());
    }
    if let Selector::Named(phrases) = &target.selector {
        if phrases.len() == 1 && label.split_whitespace().count() <= 2 {
            return Some(spelled_as_in(label, &tabs));
        }
    }
    let domain = |t: &Tab| sites::base_domain(&sites::host_and_path(&t.url).0);
    let shared = domain(first);
    let label = shared.split('.').next().filter(|l| !l.is_empty())?;
    tabs.iter()
        .all(|t| domain(t) == shared)
        .then(|| capitalized(label))
}

pub fn rename(view: &View, which: &GroupWhich, name: &str) -> Result<Step, Refusal> {
    let g = find_group(view.state, which, view).map_err(not_found)?;
    Ok(super::one_call(
        Call::update_group(UpdateGroupArgs {
            group_id: g.id,
            title: Some(name.to_string()),
            color: None,
            collapsed: None,
        }),
        format!("Renamed {} to '{name}'.", group_said(g)),
        tabs_of(view, &[g]),
    ))
}

/// The tabs of some groups: what a clause about groups touched, so that
/// "it" and "them" after it ("make the news group orange and collapse
/// it") are those groups.
fn tabs_of(view: &View, groups: &[&Group]) -> Vec<i64> {
    (view.state.tabs.iter())
        .filter(|t| groups.iter().any(|g| g.id == t.group_id))
        .map(|t| t.id)
        .collect()
}

pub fn recolor(view: &View, which: &GroupWhich, color: Color) -> Result<Step, Refusal> {
    // "color all groups blue", "make the other groups red": each of them.
    let groups = groups_meant(view, which)?;
    if groups.is_empty() {
        return Err(not_found("There are no tab groups."));
    }
    let name = color.name();
    let mut step = Step::default();
    for g in &groups {
        step.calls.push(Call::update_group(UpdateGroupArgs {
            group_id: g.id,
            title: None,
            color: Some(color),
            collapsed: None,
        }));
    }
    step.reply = match groups.as_slice() {
        [g] => format!("Made {} {name}.", group_said(g)),
        gs => format!("Made {} groups {name}.", gs.len()),
    };
    step.touched = tabs_of(view, &groups);
    Ok(step)
}

/// The groups `which` means: every one, or the one found.
fn groups_meant<'a>(view: &View<'a>, which: &GroupWhich) -> Result<Vec<&'a Group>, Refusal> {
    Ok(match which {
        GroupWhich::All => view.state.groups.iter().collect(),
        // "group the youtube tabs and collapse them": a group was made in
        // each window the tabs are in; "them" is all of those.
        GroupWhich::Current if groups_just_made(view).len() > 1 => groups_just_made(view),
        GroupWhich::AllBut(kept) => {
            // "the other groups" from a tab in none: every group.
            let kept = match groups_meant(view, kept) {
                Err(_) if matches!(**kept, GroupWhich::Current) => Vec::new(),
                kept => kept?,
            };
            view.state
                .groups
                .iter()
                .filter(|g| kept.iter().all(|k| k.id != g.id))
                .collect()
        }
        GroupWhich::Several(each) => {
            let mut groups: Vec<&Group> = Vec::new();
            for one in each {
                for g in groups_meant(view, one)? {
                    if groups.iter().all(|known| known.id != g.id) {
                        groups.push(g);
                    }
                }
            }
            groups
        }
        _ => vec![find_group(view.state, which, view).map_err(not_found)?],
    })
}

/// The groups the tabs of the clause before are in, when every one of
/// them is in a group.
fn groups_just_made<'a>(view: &View<'a>) -> Vec<&'a Group> {
    let tabs: Vec<&Tab> = view
        .previous
        .iter()
        .filter_map(|id| view.tab(*id))
        .collect();
    if tabs.is_empty() || !tabs.iter().all(|t| t.is_grouped()) {
        return Vec::new();
    }
    let mut groups: Vec<&Group> = view
        .state
        .groups
        .iter()
        .filter(|g| tabs.iter().any(|t| t.group_id == g.id))
        .collect();
    groups.sort_by_key(|g| g.id);
    groups
}

pub fn collapse(view: &View, which: &GroupWhich, collapsed: bool) -> Result<Step, Refusal> {
    let groups = groups_meant(view, which)?;
    if groups.is_empty() {
        return Err(not_found("There are no tab groups."));
    }
    let mut step = Step::default();
    for g in &groups {
        step.calls.push(Call::collapse_group(CollapseGroupArgs {
            group_id: g.id,
            collapsed: Some(collapsed),
        }));
    }
    let verb = if collapsed { "Collapsed" } else { "Expanded" };
    step.reply = match groups.as_slice() {
        [g] => format!("{verb} {}.", group_said(g)),
        gs => format!("{verb} {} groups.", gs.len()),
    };
    step.touched = tabs_of(view, &groups);
    Ok(step)
}

fn ungroup_group(group_id: i64) -> Call {
    Call::ungroup_tabs(UngroupTabsArgs {
        tab_ids: None,
        group_id: Some(group_id),
    })
}

pub fn ungroup(view: &View, which: &GroupWhich) -> Result<Step, Refusal> {
    let groups = groups_meant(view, which)?;
    let mut step = Step::default();
    if groups.is_empty() {
        step.reply = "There are no tab groups.".into();
    }
    for g in &groups {
        step.calls.push(ungroup_group(g.id));
    }
    step.reply = match groups.as_slice() {
        [] => String::new(),
        [g] => format!("Ungrouped {}; its tabs stay open.", group_said(g)),
        gs => format!("Ungrouped {}.", plural(gs.len(), "group")),
    };
    step.touched = tabs_of(view, &groups);
    Ok(step)
}

pub fn ungroup_tabs(
    view: &View,
    target: &Target,
    from: Option<&GroupWhich>,
) -> Result<Step, Refusal> {
    let mut step = Step::default();
    // "ungroup news": a group's name before any tab's.
    if let Selector::Named(phrases) = &target.selector {
        if let [words] = phrases.as_slice() {
            let name = words.join(" ");
            if let Some(g) = view
                .state
                .groups
                .iter()
                .find(|g| g.title.eq_ignore_ascii_case(&name))
            {
                step.calls.push(ungroup_group(g.id));
                step.reply = format!("Ungrouped {}.", group_said(g));
                step.touched = tabs_of(view, &[g]);
                return Ok(step);
            }
        }
    }
    let r = target_ids(view, target)?;
    // "remove jira from the docs group": out of that group only.
    let groups = from.map(|which| groups_meant(view, which)).transpose()?;
    let in_group = |t: &Tab| match &groups {
        Some(groups) => groups.iter().any(|g| g.id == t.group_id),
        None => t.is_grouped(),
    };
    let ids: Vec<i64> = r
        .ids
        .iter()
        .copied()
        .filter(|id| view.tab(*id).is_some_and(in_group))
        .collect();
    if ids.is_empty() {
        let group = match groups.as_deref() {
            Some([g]) => group_said(g),
            Some(_) => "those groups".into(),
            None => "a group".into(),
        };
        step.reply = match r.ids.as_slice() {
            [one] => format!("'{}' is not in {group}.", super::title(view, *one)),
            _ => format!("Those tabs are not in {group}."),
        };
    } else {
        step.calls.push(Call::ungroup_tabs(UngroupTabsArgs {
            tab_ids: Some(ids.clone()),
            group_id: None,
        }));
        step.reply = match ids.as_slice() {
            [one] => format!("Took '{}' out of its group.", super::title(view, *one)),
            _ => format!("Took {} out of their group.", plural(ids.len(), "tab")),
        };
    }
    Ok(step)
}

/// "merge the news and docs groups": the others' tabs join the first
/// group meant, which keeps its title and color; their groups, emptied,
/// go (undo makes them again). Every group ("merge all my groups") joins
/// the one first in the tab strip.
pub fn merge(view: &View, which: &GroupWhich) -> Result<Step, Refusal> {
    let groups = match which {
        GroupWhich::All => in_strip_order(view.state, view),
        _ => groups_meant(view, which)?,
    };
    let (kept, others) = match groups.split_first() {
        None => return Err(not_found("There are no tab groups.")),
        Some((_, [])) if matches!(which, GroupWhich::All) => {
            return Err(refused("You have only one tab group."))
        }
        Some((_, [])) => {
            return Err(refused(
                "Say two groups to merge, as in 'merge the news and docs groups'.",
            ))
        }
        Some(split) => split,
    };
    let joining = tabs_of(view, others);
    let mut step = Step::default();
    step.calls.push(Call::group_tabs(GroupTabsArgs {
        tab_ids: joining.clone(),
        group_id: Some(kept.id),
        title: None,
        color: None,
        collapsed: None,
    }));
    let merged = match others {
        [one] => group_said(one),
        many => plural(many.len(), "group"),
    };
    let now = tabs_of(view, &[kept]).len() + joining.len();
    step.reply = format!(
        "Merged {merged} into {}, which has {} now{}.",
        group_said(kept),
        plural(now, "tab"),
        moved_in(view, &joining, kept.window_id)
    );
    step.touched = tabs_of(view, &groups);
    Ok(step)
}
