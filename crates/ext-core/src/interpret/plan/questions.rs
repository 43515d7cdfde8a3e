//! Questions about the tabs, answered from the snapshot (the calls that
//! back them only read).

use super::{capitalized, group_said, not_found, plural, title, windows_with_tabs, Refusal, Step};
use crate::interpret::parse::{GroupWhich, Scope, Selector, Target};
use crate::interpret::resolve::{find_group, resolve, spoken_list, where_said, Resolved, View};
use crate::interpret::sites;
use crate::log::Call;
use crate::tab_state::{Group, Tab};
use crate::text::{ago, clip, page_key};
use crate::tools::args::{ListTabsArgs, NoArgs, WindowArgs};
use crate::tools::ToolCall;

/// The tabs of the focused window, or of every window.
fn list_tabs(view: &View, scope: Scope) -> Call {
    Call::list_tabs(ListTabsArgs {
        window_id: view.scope_window(scope),
        query: None,
    })
}

/// "how many tabs", "how many youtube tabs are open in this window".
pub fn count(view: &View, target: &Target) -> Result<Step, Refusal> {
    view.check_scope(target.scope).map_err(not_found)?;
    let state = view.state;
    let mut step = Step::default();
    step.calls.push(list_tabs(view, target.scope));
    let everything = matches!(target.selector, Selector::All) && target.except.is_none();
    step.reply = if everything && target.scope == Scope::Everywhere {
        format!(
            "You have {} open in {}.",
            plural(state.tabs.len(), "tab"),
            plural(windows_with_tabs(state), "window")
        )
    } else {
        // "how many tabs are in the shopping group": no such group.
        if let (Selector::InGroup(_), Err(why)) = (&target.selector, resolve(view, target)) {
            return Err(not_found(why));
        }
        // None open: spoken of as said ("how many shopping tabs": none).
        let said = match &target.selector {
            Selector::Named(names) => names
                .iter()
                .map(|n| sites::by_words(n).map_or_else(|| n.join(" "), |s| s.display.to_string()))
                .collect::<Vec<_>>()
                .join(" or "),
            _ => String::new(),
        };
        let r = resolve(view, target).unwrap_or_else(|_| Resolved {
            ids: Vec::new(),
            explicit: true,
            label: said,
            matched_per_name: Vec::new(),
        });
        let n = r.ids.len();
        let noun = if n == 1 { "tab" } else { "tabs" };
        let what = match &target.selector {
            Selector::Named(_) if n == 0 => format!("no {} tabs", r.label),
            Selector::Named(_) => format!("{} {} {noun}", n, r.label),
            Selector::Audible => format!("{n} {noun} playing"),
            Selector::Pinned => format!("{n} pinned {noun}"),
            Selector::Muted => format!("{n} muted {noun}"),
            // "how many tabs are in the news group"
            Selector::InGroup(_) => format!("{n} {noun} in the {}", r.label),
            Selector::Idle { of, .. } => {
                // "1 YouTube tab not used in a day".
                let inner = Target {
                    selector: (**of).clone(),
                    ..target.clone()
                };
                let site = match of.as_ref() {
                    Selector::Named(_) => resolve(view, &inner)
                        .map(|i| format!("{} ", i.label))
                        .unwrap_or_default(),
                    _ => String::new(),
                };
                format!("{n} {site}{noun} {}", r.label)
            }
            _ => format!("{n} {noun}"),
        };
        format!("You have {what}{}.", where_said(target.scope))
    };
    Ok(step)
}

/// "list my tabs", "which tab is playing": the titles.
pub fn list(view: &View, target: &Target) -> Result<Step, Refusal> {
    view.check_scope(target.scope).map_err(not_found)?;
    let mut step = Step::default();
    step.calls.push(list_tabs(view, target.scope));
    let (ids, label) = match resolve(view, target) {
        Ok(r) => (r.ids, r.label),
        Err(_)
            if matches!(
                target.selector,
                Selector::Audible | Selector::Muted | Selector::Pinned
            ) =>
        {
            (Vec::new(), String::new())
        }
        Err(e) => return Err(not_found(e)),
    };
    let titles: Vec<String> = ids
        .iter()
        .take(10)
        .map(|id| format!("'{}'", title(view, *id)))
        .collect();
    let more = if ids.len() > 10 { ", …" } else { "" };
    step.reply = match (&target.selector, ids.len()) {
        (Selector::Audible, 0) => "No tab is playing sound.".into(),
        (Selector::Audible, _) => format!("Playing: {}{more}.", titles.join(", ")),
        (Selector::Muted, 0) => "No tab is muted.".into(),
        (Selector::Muted, _) => format!("Muted: {}{more}.", titles.join(", ")),
        (Selector::Pinned, 0) => "No tab is pinned.".into(),
        (Selector::Pinned, _) => format!("Pinned: {}{more}.", titles.join(", ")),
        (Selector::Highlighted { .. }, _) => format!("Selected: {}{more}.", titles.join(", ")),
        (_, 0) => "No tabs match.".into(),
        // "what tab am I on"
        (Selector::Active | Selector::It, 1) => {
            let address = view
                .tab(ids[0])
                .map(|t| clip(&t.url, 100))
                .unwrap_or_default();
            format!("You're on {} ({address}).", titles[0])
        }
        // "what's the last tab in the docs group", "which is tab 3"
        (Selector::InGroupAt { .. } | Selector::Positions(_), 1) => {
            format!("It's {}.", titles[0])
        }
        // "which tab was I on before", "what was I just looking at"
        (Selector::Recent, 1) => format!("Before this tab you were on {}.", titles[0]),
        // "what's the oldest tab", "which tab did I open last"
        (Selector::Oldest(_) | Selector::Newest(_), 1) => {
            format!("{} is {}.", capitalized(&label), titles[0])
        }
        // "which tab have I not used the longest"
        (Selector::Stalest(_), _) => {
            format!("{}: {}{more}.", capitalized(&label), titles.join(", "))
        }
        (Selector::Idle { .. }, n) => {
            format!("{} {label}: {}{more}.", plural(n, "tab"), titles.join(", "))
        }
        // "what's in the docs group"
        (Selector::InGroup(_), n) => {
            format!(
                "The {label} has {}: {}{more}.",
                plural(n, "tab"),
                titles.join(", ")
            )
        }
        // "what's in the other window": where, said.
        (_, n) => {
            let place = match target.scope {
                Scope::OtherWindows if view.state.windows.len() == 2 => {
                    " in the other window".to_string()
                }
                scope => where_said(scope),
            };
            format!(
                "{} open{place}: {}{more}.",
                plural(n, "tab"),
                titles.join(", ")
            )
        }
    };
    Ok(step)
}

/// Up to `most` tabs' titles in quotes, the rest counted ("'A', 'B' and
/// 3 more").
fn titles_said(view: &View, ids: &[i64], most: usize) -> String {
    let titles: Vec<String> = ids
        .iter()
        .take(most)
        .map(|id| format!("'{}'", title(view, *id)))
        .collect();
    match ids.len().saturating_sub(most) {
        0 => spoken_list(&titles),
        more => format!("{} and {more} more", titles.join(", ")),
    }
}

/// "is gmail open", "do I have a jira tab": yes and which, or no and why.
/// Changes nothing: "is gmail open" used to switch to it.
pub fn is_open(view: &View, target: &Target) -> Result<Step, Refusal> {
    view.check_scope(target.scope).map_err(not_found)?;
    let found = match resolve(view, target) {
        Ok(r) => r,
        Err(_) if target.scope != Scope::Everywhere => {
            return Ok(answer(
                view,
                format!("No, not{}.", where_said(target.scope)),
                Vec::new(),
            ))
        }
        // "is jira open" with no Jira tab: no.
        Err(why) => {
            return match known_site(target) {
                Some(site) => Ok(answer(
                    view,
                    format!("No, no {site} tab is open."),
                    Vec::new(),
                )),
                // A name that is no site and no tab ("is the store open"):
                // not a confident "no", nor an answer to talk in the room.
                None => Err(not_found(why)),
            };
        }
    };
    let reply = match found.ids.as_slice() {
        [] => "No.".to_string(),
        // "do I have any tabs open"
        ids if target.selector == Selector::All && target.except.is_none() => format!(
            "Yes, you have {} open{}.",
            plural(ids.len(), "tab"),
            where_said(target.scope)
        ),
        [id] => {
            let place = match view.tab(*id) {
                Some(t) if t.active && t.window_id == view.focused_window => {
                    " (you're on it)".to_string()
                }
                Some(t) if view.window_order().len() > 1 => {
                    format!(" in {}", view.window_said(t.window_id))
                }
                _ => String::new(),
            };
            format!("Yes, '{}' is open{place}.", title(view, *id))
        }
        ids => format!(
            "Yes, {} {} tabs are open: {}.",
            ids.len(),
            found.label,
            titles_said(view, ids, 5)
        ),
    };
    Ok(answer(view, reply, found.ids))
}

/// The known site a target names ("jira"), by its display name.
fn known_site(target: &Target) -> Option<&'static str> {
    match &target.selector {
        Selector::Named(names) => match names.as_slice() {
            [words] => sites::by_words(words).map(|s| s.display),
            _ => None,
        },
        _ => None,
    }
}

/// A question's answer: its reply, reading the tabs, and the tabs it is
/// about (what "them" means in a clause after it).
fn answer(view: &View, reply: String, about: Vec<i64>) -> Step {
    Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        touched: about,
        ..Step::default()
    }
}

/// "when did I last use gmail": when the tab (of several, the one used
/// last) was last in front.
pub fn last_used(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = resolve(view, target).map_err(not_found)?;
    let latest = r
        .ids
        .iter()
        .filter_map(|id| view.tab(*id))
        .max_by(|a, b| a.last_accessed.total_cmp(&b.last_accessed))
        .ok_or_else(|| not_found("No tabs match."))?;
    let name = format!("'{}'", title(view, latest.id));
    let of_several = match r.ids.len() {
        1 => String::new(),
        n => format!(" (the latest of {n} tabs)"),
    };
    let since = view.state.now - latest.last_accessed;
    let reply = if latest.active && latest.window_id == view.focused_window {
        format!("You're on {name} now.")
    } else if latest.last_accessed <= 0.0 || since < 0.0 {
        format!("Firefox doesn't say when you last used {name}.")
    } else {
        format!("You last used {name} {}{of_several}.", ago(since))
    };
    Ok(answer(view, reply, vec![latest.id]))
}

/// "are there any duplicate tabs": the pages open more than once (as
/// "close duplicate tabs" compares them), closing none.
pub fn list_duplicates(view: &View, scope: Scope) -> Result<Step, Refusal> {
    view.check_scope(scope).map_err(not_found)?;
    // (page, its tabs), in strip order of each page's first tab.
    let mut pages: Vec<(&str, Vec<i64>)> = Vec::new();
    for t in view.in_scope(scope) {
        let key = page_key(&t.url);
        match pages.iter_mut().find(|(k, _)| *k == key) {
            Some((_, ids)) => ids.push(t.id),
            None => pages.push((key, vec![t.id])),
        }
    }
    pages.retain(|(_, ids)| ids.len() > 1);
    let reply = match pages.as_slice() {
        [] => format!("There are no duplicate tabs{}.", where_said(scope)),
        [(_, ids)] => format!(
            "'{}' is open {} times{}. Say 'close duplicate tabs' to keep one.",
            title(view, ids[0]),
            ids.len(),
            where_said(scope)
        ),
        _ => {
            let each: Vec<String> = pages
                .iter()
                .take(5)
                .map(|(_, ids)| format!("'{}' ({})", title(view, ids[0]), ids.len()))
                .collect();
            let more = match pages.len().saturating_sub(5) {
                0 => String::new(),
                n => format!(" and {n} more"),
            };
            format!(
                "{} pages are open more than once{}: {}{more}. Say 'close duplicate tabs' \
                 to keep one of each.",
                pages.len(),
                where_said(scope),
                each.join(", ")
            )
        }
    };
    // "… and close them": the copies "close duplicate tabs" would close
    // (all but each page's first).
    let copies = pages
        .iter()
        .flat_map(|(_, ids)| ids[1..].to_vec())
        .collect();
    Ok(Step {
        calls: vec![list_tabs(view, scope)],
        reply,
        touched: copies,
        ..Step::default()
    })
}

/// The tabs' quoted titles, together per `key` (a window, a group), in
/// the order the keys are first met.
fn titles_by(view: &View, ids: &[i64], key: impl Fn(&Tab) -> i64) -> Vec<(i64, Vec<String>)> {
    let mut out: Vec<(i64, Vec<String>)> = Vec::new();
    for t in ids.iter().filter_map(|id| view.tab(*id)) {
        let name = format!("'{}'", title(view, t.id));
        match out.iter_mut().find(|(k, _)| *k == key(t)) {
            Some((_, names)) => names.push(name),
            None => out.push((key(t), vec![name])),
        }
    }
    out
}

/// "which window is netflix in": each tab's window by the number "window
/// 2" names it by, the tabs said together per window.
pub fn which_window(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = resolve(view, target).map_err(not_found)?;
    let windows = view.window_order().len().max(windows_with_tabs(view.state));
    let mut by_window = titles_by(view, &r.ids, |t| t.window_id);
    by_window.sort_by_key(|(w, _)| view.window_number(*w));
    // At most five names a window, the rest counted.
    let names = |names: &[String]| match names.len() {
        0..=5 => spoken_list(names),
        n => format!("{} and {} more", names[..5].join(", "), n - 5),
    };
    let reply = match (&target.selector, by_window.as_slice()) {
        (_, []) => "No tabs match.".to_string(),
        (Selector::Active | Selector::It, _) if windows < 2 => {
            "You have only this window.".to_string()
        }
        (Selector::Active | Selector::It, [(w, _)]) => format!(
            "You're in window {} of {windows}.",
            view.window_number(*w).unwrap_or(0)
        ),
        (_, [(w, one)]) if one.len() == 1 => format!("{} is in {}.", one[0], view.window_said(*w)),
        (_, [(w, all)]) => format!("They are all in {}: {}.", view.window_said(*w), names(all)),
        (_, each) => {
            let each: Vec<String> = each
                .iter()
                .map(|(w, these)| format!("in {}: {}", view.window_said(*w), names(these)))
                .collect();
            format!("{}.", capitalized(&each.join("; ")))
        }
    };
    Ok(Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    })
}

/// "which group is this tab in": each tab's group, or none.
pub fn which_group(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = resolve(view, target).map_err(not_found)?;
    // (group id, or -1 for none; its tabs), in the order first met.
    let by_group = titles_by(view, &r.ids, |t| t.group_id);
    let group_said = |id: i64| match view.state.groups.iter().find(|g| g.id == id) {
        Some(g) => super::group_said(g),
        None => "no group".to_string(),
    };
    let reply = match by_group.as_slice() {
        [] => "No tabs match.".to_string(),
        [(g, one)] if one.len() == 1 && !view.state.groups.iter().any(|x| x.id == *g) => {
            format!("{} is not in a group.", one[0])
        }
        [(g, one)] if one.len() == 1 => format!("{} is in {}.", one[0], group_said(*g)),
        [(g, all)] => format!("They are all in {}: {}.", group_said(*g), spoken_list(all)),
        each => {
            let each: Vec<String> = each
                .iter()
                .map(|(g, these)| format!("in {}: {}", group_said(*g), spoken_list(these)))
                .collect();
            format!("{}.", capitalized(&each.join("; ")))
        }
    };
    Ok(answer(view, reply, r.ids))
}

/// "which window has the most tabs": that window (or those, if tied),
/// then each window's count.
pub fn busiest_window(view: &View, most: bool) -> Step {
    // (window id, its tabs), in window-number order.
    let counts: Vec<(i64, usize)> = view
        .window_order()
        .into_iter()
        .map(|w| {
            (
                w,
                view.state.tabs.iter().filter(|t| t.window_id == w).count(),
            )
        })
        .filter(|(_, n)| *n > 0)
        .collect();
    let pick = if most {
        counts.iter().map(|(_, n)| *n).max()
    } else {
        counts.iter().map(|(_, n)| *n).min()
    };
    let which = if most { "most" } else { "fewest" };
    let reply = match (counts.as_slice(), pick) {
        ([], _) | (_, None) => "You have no tabs open.".to_string(),
        ([(w, n)], _) => format!(
            "You have only {}, with {}.",
            view.window_said(*w),
            plural(*n, "tab")
        ),
        (_, Some(pick)) => {
            let top: Vec<String> = counts
                .iter()
                .filter(|(_, n)| *n == pick)
                .map(|(w, _)| view.window_said(*w))
                .collect();
            let each: Vec<String> = counts
                .iter()
                .map(|(w, n)| format!("window {}: {n}", view.window_number(*w).unwrap_or(0)))
                .collect();
            let has = if top.len() == 1 { "has" } else { "have" };
            format!(
                "{} {has} the {which} tabs, {pick} ({}).",
                capitalized(&spoken_list(&top)),
                each.join(", ")
            )
        }
    };
    Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    }
}

pub fn count_windows(view: &View) -> Step {
    let state = view.state;
    let n = windows_with_tabs(state);
    let mut reply = format!(
        "You have {} open, with {} in all",
        plural(n, "window"),
        plural(state.tabs.len(), "tab")
    );
    if n > 1 {
        // Each by the number "window 2" names, with the tab in front.
        let each: Vec<String> = view
            .window_order()
            .into_iter()
            .filter_map(|w| {
                let tabs: Vec<_> = state.tabs.iter().filter(|t| t.window_id == w).collect();
                let front = tabs.iter().find(|t| t.active)?;
                Some(format!(
                    "{}: {}, '{}' in front",
                    view.window_said(w),
                    plural(tabs.len(), "tab"),
                    title(view, front.id)
                ))
            })
            .collect();
        reply = format!("{reply}: {}", each.join("; "));
    }
    reply.push('.');
    Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply,
        ..Step::default()
    }
}

/// "how many youtube tabs are in each window": the tabs described,
/// counted window by window.
pub fn count_each_window(view: &View, target: &Target) -> Result<Step, Refusal> {
    let r = resolve(view, target).unwrap_or_else(|_| Resolved {
        ids: Vec::new(),
        explicit: true,
        label: String::new(),
        matched_per_name: Vec::new(),
    });
    let each: Vec<String> = (view.window_order().into_iter())
        .map(|w| {
            let n = (r.ids.iter())
                .filter_map(|id| view.tab(*id))
                .filter(|t| t.window_id == w)
                .count();
            format!("{}: {n}", view.window_said(w))
        })
        .collect();
    let what = match r.label.is_empty() {
        true => "tabs".to_string(),
        false => format!("{} tabs", r.label),
    };
    Ok(Step {
        calls: vec![list_tabs(view, Scope::Everywhere)],
        reply: format!("{}, by window: {}.", capitalized(&what), each.join("; ")),
        ..Step::default()
    })
}

/// What to say, by example (nothing is called).
pub fn help() -> Step {
    Step {
        reply: "Say or type what to do with your tabs, for example: 'close the YouTube tabs', \
                'switch to Gmail', 'group my tabs by site', 'mute everything except this', \
                'move this tab to a new window', 'go back to the tab I was on', \
                'reopen the tab I just closed', 'search Wikipedia for otters', 'undo'. \
                By voice, say the wake phrase first, or press the microphone button."
            .into(),
        ..Step::default()
    }
}

pub fn list_engines(view: &View) -> Step {
    let names: Vec<String> = view
        .state
        .search_engines
        .iter()
        .map(|e| {
            if e.is_default {
                format!("{} (default)", e.name)
            } else {
                e.name.clone()
            }
        })
        .collect();
    Step {
        calls: vec![Call::list_search_engines(NoArgs {})],
        reply: if names.is_empty() {
            "No search engines are installed.".into()
        } else {
            format!("Search engines: {}.", names.join(", "))
        },
        ..Step::default()
    }
}

pub fn list_groups(view: &View) -> Step {
    let groups = &view.state.groups;
    Step {
        calls: vec![Call::list_groups(WindowArgs { window_id: None })],
        reply: if groups.is_empty() {
            "There are no tab groups.".into()
        } else {
            // Each with what the tab strip shows of it: "which groups are
            // collapsed", "what color is the news group" are answered so.
            let said: Vec<String> = (groups.iter())
                .map(|g| {
                    let (tabs, window) = group_facts(view, g);
                    let mut about = vec![g.color.name().to_string(), plural(tabs, "tab")];
                    if g.collapsed {
                        about.push("collapsed".into());
                    }
                    if let Some(n) = window {
                        about.push(format!("in window {n}"));
                    }
                    let title = if g.title.trim().is_empty() {
                        "untitled".to_string()
                    } else {
                        format!("'{}'", g.title)
                    };
                    format!("{title} ({})", about.join(", "))
                })
                .collect();
            format!("{}: {}.", plural(groups.len(), "group"), said.join(", "))
        },
        ..Step::default()
    }
}

/// "what color is the news group", "is the design group collapsed": the
/// group's color, fold, tabs and window.
pub fn describe_group(view: &View, which: &GroupWhich) -> Result<Step, Refusal> {
    let g = find_group(view.state, which, view).map_err(not_found)?;
    let (tabs, window) = group_facts(view, g);
    let fold = if g.collapsed { "collapsed" } else { "expanded" };
    let window = window.map_or(String::new(), |n| format!(", in window {n}"));
    Ok(Step {
        calls: vec![Call::list_groups(WindowArgs { window_id: None })],
        reply: format!(
            "{} is {} and {fold}, with {}{window}.",
            capitalized(&group_said(g)),
            g.color.name(),
            plural(tabs, "tab")
        ),
        ..Step::default()
    })
}

/// What the tab strip shows of a group besides its look: how many tabs
/// it has, and the number of its window when that is not this one.
fn group_facts(view: &View, g: &Group) -> (usize, Option<i64>) {
    let tabs = (view.state.tabs.iter())
        .filter(|t| t.group_id == g.id)
        .count();
    let elsewhere = view.state.windows.len() > 1 && g.window_id != view.focused_window;
    let window = elsewhere.then(|| view.window_number(g.window_id).unwrap_or(0));
    (tabs, window)
}
