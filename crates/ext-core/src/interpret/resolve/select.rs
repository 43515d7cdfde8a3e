//! The tabs one selector means within a scope: the heart of resolving,
//! one arm per kind of selector.

use super::super::parse::{GroupWhich, Position, Scope, Selector};
use super::super::sites;
use super::groups::find_group;
use super::names::{group_named, match_each_site, match_tabs, name_label};
use super::{
    at_positions, no_window, one_named, plural_tabs, spoken_list, where_said, Resolved, View,
};
use crate::tab_state::{Tab, NO_GROUP};

/// "There is no tab 9 in this window; it has 7 tabs."
fn no_tab_at(i: i64, there: &str, n: usize) -> String {
    format!("There is no tab {i} {there}; it has {}.", plural_tabs(n))
}

/// The tabs a selector means within a scope. `strict`: a name that matches
/// nothing is an error; `one`: one tab is meant (the adjacent one, for a side).
pub(super) fn select(
    view: &View,
    selector: &Selector,
    scope: Scope,
    strict: bool,
    one: bool,
) -> Result<Resolved, String> {
    // "in window 2": everything said of "this window" ("the tab to the
    // right", "tab 2", "this one") is said of that window.
    view.check_scope(scope)?;
    // "the first tab in the other window": with one other window, that
    // window, as a numbered one; with several, a place in "them" is no
    // place at all.
    if scope == Scope::OtherWindows {
        let others: Vec<i64> = (view.window_order().into_iter())
            .filter(|w| *w != view.focused_window)
            .collect();
        if let [only] = others.as_slice() {
            let n = view.window_number(*only).unwrap_or(0);
            return select(view, selector, Scope::Window(n), strict, one)
                .map_err(|e| e.replace(&format!(" in window {n}"), " in the other window"));
        }
        if matches!(selector, Selector::Positions(_) | Selector::Side { .. }) {
            return Err("There are several other windows; say which: 'tab 2 in window 3'.".into());
        }
    }
    if let (Scope::Windows(..), Selector::Positions(_) | Selector::Side { .. }) = (scope, selector)
    {
        return Err("A place is in one window; say which: 'tab 2 in window 3'.".into());
    }
    if let Scope::Window(n) = scope {
        let window = view.numbered_window(n).ok_or_else(|| no_window(view, n))?;
        let there = View {
            state: view.state,
            focused_window: window,
            previous: view.previous.clone(),
            after_clause: view.after_clause,
        };
        // What is said of "this window" there is said of window n.
        return select(&there, selector, Scope::ThisWindow, strict, one)
            .map_err(|e| e.replace(" in this window", &format!(" in window {n}")));
    }
    let scoped = view.in_scope(scope);
    let ids = |tabs: Vec<&Tab>| tabs.iter().map(|t| t.id).collect::<Vec<_>>();
    let plain = |ids: Vec<i64>, explicit: bool, label: &str| Resolved {
        ids,
        explicit,
        label: label.to_string(),
        matched_per_name: Vec::new(),
    };
    Ok(match selector {
        Selector::It => {
            let open: Vec<i64> = (view.previous.iter().copied())
                .filter(|id| view.tab(*id).is_some())
                .collect();
            match open.len() {
                0 => select(view, &Selector::Active, scope, strict, one)?,
                1 => plain(open, true, "this tab"),
                // "mute the youtube tabs and close it": not the tab in
                // front, which nobody named.
                _ => plain(open, true, "them"),
            }
        }
        Selector::Active => {
            let active = view.active().ok_or("No tab is active in this window.")?;
            plain(vec![active.id], true, "this tab")
        }
        Selector::All => plain(ids(scoped), false, "all"),
        Selector::Them if !view.previous.is_empty() => {
            let open = |id: &i64| view.tab(*id).is_some();
            plain(
                view.previous.iter().copied().filter(open).collect(),
                true,
                "them",
            )
        }
        Selector::Them => plain(ids(scoped), false, "all"),
        Selector::Highlighted { all } => {
            let window = view.window_tabs();
            let selected: Vec<&Tab> = window.iter().copied().filter(|t| t.highlighted).collect();
            match (selected.len(), all) {
                // Firefox always counts the tab in front as selected: a
                // selection is more than it.
                (2.., _) => plain(ids(selected), true, "selected"),
                (_, true) => plain(ids(window), false, "all"),
                _ => {
                    let active = view.active().ok_or("No tab is active in this window.")?;
                    plain(vec![active.id], true, "this tab")
                }
            }
        }
        Selector::Others => {
            let active = view.active().map(|t| t.id);
            plain(
                ids(scoped
                    .into_iter()
                    .filter(|t| Some(t.id) != active)
                    .collect()),
                false,
                "other",
            )
        }
        // "close youtube and mute the rest": all but the tabs the clause
        // before touched; said first ("close the rest"), all but this one,
        // in this window unless one is said (as "the other tabs").
        Selector::Rest if !view.after_clause => {
            let scope = match scope {
                Scope::Everywhere => Scope::ThisWindow,
                said => said,
            };
            return select(view, &Selector::Others, scope, strict, one);
        }
        Selector::Rest => plain(
            ids(scoped
                .into_iter()
                .filter(|t| !view.previous.contains(&t.id))
                .collect()),
            false,
            "other",
        ),
        Selector::Recent => {
            let active = view.active().map(|t| t.id);
            let recent = scoped
                .into_iter()
                .filter(|t| Some(t.id) != active)
                .max_by(|a, b| a.last_accessed.total_cmp(&b.last_accessed))
                .ok_or("There is no tab you used before this one.")?;
            plain(vec![recent.id], true, "the tab you were on")
        }
        Selector::Newest(0) => {
            return Err("Say how many of the newest tabs: 'the three newest tabs'.".into())
        }
        Selector::Oldest(0) => {
            return Err("Say how many of the oldest tabs: 'the three oldest tabs'.".into())
        }
        Selector::Newest(n) | Selector::Oldest(n) => {
            // Firefox numbers tabs in the order they were opened.
            let newest = matches!(selector, Selector::Newest(_));
            let mut by_age = scoped;
            // Pinned tabs come back first when Firefox starts, so they are
            // the oldest; "the oldest tabs" are the ones left lying about.
            if !newest && by_age.iter().any(|t| !t.pinned) {
                by_age.retain(|t| !t.pinned);
            }
            by_age.sort_by_key(|t| if newest { -t.id } else { t.id });
            by_age.truncate(*n);
            by_age.sort_by_key(|t| (t.window_id, t.index));
            let age = if newest { "newest" } else { "oldest" };
            let label = match n {
                1 => format!("the {age} tab"),
                n => format!("the {n} {age} tabs"),
            };
            plain(ids(by_age), true, &label)
        }
        Selector::Stalest(0) => {
            return Err(
                "Say how many of the tabs used longest ago: 'the three least recently used tabs'."
                    .into(),
            )
        }
        Selector::Stalest(n) => {
            let mut by_use: Vec<&Tab> = scoped.into_iter().filter(|t| !t.active).collect();
            by_use.sort_by(|a, b| a.last_accessed.total_cmp(&b.last_accessed));
            by_use.truncate(*n);
            by_use.sort_by_key(|t| (t.window_id, t.index));
            let label = match n {
                1 => "the tab used longest ago".to_string(),
                n => format!("the {n} tabs used longest ago"),
            };
            plain(ids(by_use), true, &label)
        }
        Selector::Idle { of, ms } => {
            let inner = select(view, of, scope, strict, false)?;
            let cutoff = view.state.now - ms;
            let idle: Vec<i64> = inner
                .ids
                .iter()
                .filter_map(|id| view.tab(*id))
                // A window's selected tab is in use however long it has been.
                .filter(|t| !t.active && t.last_accessed < cutoff)
                .map(|t| t.id)
                .collect();
            let span = how_long(*ms);
            if idle.is_empty() && strict {
                return Err(format!("No tab has gone unused for {span}."));
            }
            let label = format!("not used in {span}");
            Resolved {
                ids: idle,
                explicit: inner.explicit,
                label,
                matched_per_name: Vec::new(),
            }
        }
        Selector::ThisSite => {
            let front = view.active().ok_or("No tab is active in this window.")?;
            if !(front.url.starts_with("http://") || front.url.starts_with("https://")) {
                return Err(format!("'{}' shows no web site.", front.title));
            }
            let site = sites::site_key(&front.url);
            let found: Vec<&Tab> = scoped
                .into_iter()
                .filter(|t| sites::site_key(&t.url) == site)
                .collect();
            // Swept up: pinned tabs of the site stay unless named.
            plain(ids(found), false, &sites::display_name(&front.url))
        }
        Selector::Audible => {
            let found: Vec<&Tab> = scoped.into_iter().filter(|t| t.audible).collect();
            if found.is_empty() && strict {
                return Err(format!("No tab is playing sound{}.", where_said(scope)));
            }
            plain(ids(found), true, "playing")
        }
        Selector::Muted => plain(
            ids(scoped.into_iter().filter(|t| t.muted).collect()),
            false,
            "muted",
        ),
        Selector::Pinned => plain(
            ids(scoped.into_iter().filter(|t| t.pinned).collect()),
            true,
            "pinned",
        ),
        Selector::Grouped { grouped } => plain(
            ids(scoped
                .into_iter()
                .filter(|t| (t.group_id != NO_GROUP) == *grouped)
                .collect()),
            false,
            if *grouped { "grouped" } else { "ungrouped" },
        ),
        Selector::OtherGroups => {
            let own = view.active().map_or(NO_GROUP, |t| t.group_id);
            plain(
                ids(scoped
                    .into_iter()
                    .filter(|t| t.group_id != NO_GROUP && t.group_id != own)
                    .collect()),
                false,
                "the other groups",
            )
        }
        Selector::Positions(positions) => {
            let window = view.window_tabs();
            let picked = at_positions(&window, positions)
                .map_err(|i| no_tab_at(i, "in this window", window.len()))?;
            let label = match positions.as_slice() {
                [Position::Nth(i)] => format!("tab {i}"),
                [Position::Last] => "the last tab".to_string(),
                _ => format!("{} tabs", picked.len()),
            };
            plain(picked, true, &label)
        }
        Selector::InGroupAt { group, positions } => {
            let whole = select(
                view,
                &Selector::InGroup(group.clone()),
                scope,
                strict,
                false,
            )?;
            let mut tabs: Vec<&Tab> = whole.ids.iter().filter_map(|id| view.tab(*id)).collect();
            tabs.sort_by_key(|t| (t.window_id, t.index));
            let in_group = format!("in the {}", whole.label);
            let picked =
                at_positions(&tabs, positions).map_err(|i| no_tab_at(i, &in_group, tabs.len()))?;
            let label = format!("{} {in_group}", plural_tabs(picked.len()));
            plain(picked, true, &label)
        }
        Selector::InGroup(words) => {
            let which = if words.is_empty() {
                GroupWhich::Current
            } else {
                GroupWhich::Named(words.clone())
            };
            let group = find_group(view.state, &which, view)?;
            plain(
                ids(scoped
                    .into_iter()
                    .filter(|t| t.group_id == group.id)
                    .collect()),
                true,
                &format!("'{}' group", group.title),
            )
        }
        Selector::Side { right, nearest } => {
            let window = view.window_tabs();
            let at = view
                .active()
                .map(|t| t.index)
                .ok_or("No tab is active in this window.")?;
            let found = on_side(window, at, *right, if one { Some(1) } else { None });
            let side = if *right { "right" } else { "left" };
            if found.is_empty() && strict {
                return Err(format!("There is no tab to the {side} of this one."));
            }
            let found = match *nearest {
                Some(n) if found.len() < n && strict => {
                    return Err(match found.len() {
                        1 => format!("There is only 1 tab to the {side} of this one."),
                        k => format!("There are only {k} tabs to the {side} of this one."),
                    })
                }
                Some(n) => nearest_first(found, at, n),
                None => found,
            };
            // Swept up, unless one tab is meant: pinned tabs stay unless named.
            plain(ids(found), one, &format!("the tabs to the {side}"))
        }
        Selector::NthOf { nth, words } => {
            // A title with the ordinal in it is named whole.
            let whole = Selector::Named(vec![words.clone()]);
            let r = select(view, &whole, scope, false, one)?;
            if !r.ids.is_empty() {
                return Ok(r);
            }
            let name = Selector::Named(vec![words[1..].to_vec()]);
            let r = select(view, &name, scope, strict, false)?;
            let mut found: Vec<&Tab> = r.ids.iter().filter_map(|id| view.tab(*id)).collect();
            found.sort_by_key(|t| (t.window_id != view.focused_window, t.window_id, t.index));
            let pick = match *nth {
                -1 => found.last(),
                n => found.get((n - 1).max(0) as usize),
            };
            match pick {
                Some(t) => plain(vec![t.id], true, &r.label),
                None if strict => {
                    return Err(format!(
                        "Only {} {} {}.",
                        plural_tabs(found.len()),
                        if found.len() == 1 { "matches" } else { "match" },
                        r.label
                    ))
                }
                None => plain(Vec::new(), true, &r.label),
            }
        }
        Selector::SideOf {
            right,
            tab,
            nearest,
        } => {
            let (reference, beside) = one_named(view, tab)?;
            let window = view.tabs_of_window(beside.window_id);
            let found = on_side(
                window,
                beside.index,
                *right,
                if one { Some(1) } else { None },
            );
            let side = if *right { "right" } else { "left" };
            if found.is_empty() && strict {
                return Err(format!(
                    "There is no tab to the {side} of {}.",
                    reference.label
                ));
            }
            let found = match *nearest {
                Some(n) if found.len() < n && strict => {
                    return Err(format!(
                        "There {} only {} to the {side} of {}.",
                        if found.len() == 1 { "is" } else { "are" },
                        plural_tabs(found.len()),
                        reference.label
                    ))
                }
                Some(n) => nearest_first(found, beside.index, n),
                None => found,
            };
            plain(ids(found), one, &format!("the tabs to the {side}"))
        }
        Selector::Between(first, second) => {
            let (a, from) = one_named(view, first)?;
            let (b, to) = one_named(view, second)?;
            if from.window_id != to.window_id {
                return Err(format!(
                    "{} and {} are in different windows.",
                    a.label, b.label
                ));
            }
            let (low, high) = (from.index.min(to.index), from.index.max(to.index));
            let found: Vec<&Tab> = (view.tabs_of_window(from.window_id).into_iter())
                .filter(|t| t.index > low && t.index < high)
                .collect();
            if found.is_empty() && strict {
                return Err(format!("No tab is between {} and {}.", a.label, b.label));
            }
            plain(ids(found), true, "the tabs between them")
        }
        Selector::WholeWindow => plain(ids(scoped), true, "the window"),
        Selector::Union(parts) => {
            let mut all: Vec<i64> = Vec::new();
            let mut labels = Vec::new();
            for p in parts {
                let r = select(view, p, scope, strict, false)?;
                labels.push(r.label);
                for id in r.ids {
                    if !all.contains(&id) {
                        all.push(id);
                    }
                }
            }
            plain(all, true, &spoken_list(&labels))
        }
        Selector::Named(phrases) => {
            let mut all = Vec::new();
            let mut labels = Vec::new();
            let mut per_name = Vec::new();
            for words in phrases {
                let found = if one {
                    Vec::new()
                } else {
                    group_named(view.state, words, &scoped)
                };
                let a_group = !found.is_empty();
                let found = if found.is_empty() {
                    match_tabs(words, &scoped)
                } else {
                    found
                };
                // "slack jira" said without "and": each word a site.
                let found = if found.is_empty() {
                    match_each_site(words, &scoped)
                } else {
                    found
                };
                // "the shopping tabs", "the travel tabs": the sites of that
                // kind, with the tabs whose titles say it ("Lisbon travel
                // guide" and Booking.com).
                let kind = sites::kind_by_words(words).filter(|_| !a_group && !one);
                let found = match kind {
                    Some(kind) => ids(scoped
                        .iter()
                        .copied()
                        .filter(|t| found.contains(&t.id) || sites::hosts(kind, &t.url))
                        .collect()),
                    None => found,
                };
                if found.is_empty() {
                    if strict {
                        return Err(format!("No tab matches '{}'.", words.join(" ")));
                    }
                    continue;
                }
                per_name.push(found.len());
                labels.push(kind.map_or_else(|| name_label(words), |k| k.display.to_string()));
                for id in found {
                    if !all.contains(&id) {
                        all.push(id);
                    }
                }
            }
            Resolved {
                ids: all,
                explicit: true,
                label: spoken_list(&labels),
                matched_per_name: per_name,
            }
        }
    })
}

/// "youtube" → "YouTube"; other words as said.
/// The tabs of a window on one side of position `at` (true: right), or
/// with `one` only the neighbour, the nearest on that side.
fn on_side(window: Vec<&Tab>, at: i64, right: bool, limit: Option<usize>) -> Vec<&Tab> {
    let found: Vec<&Tab> = window
        .into_iter()
        .filter(|t| if right { t.index > at } else { t.index < at })
        .collect();
    match limit {
        Some(n) => nearest_first(found, at, n),
        None => found,
    }
}

/// The `n` tabs nearest to index `at`, in strip order.
fn nearest_first(mut tabs: Vec<&Tab>, at: i64, n: usize) -> Vec<&Tab> {
    tabs.sort_by_key(|t| (t.index - at).abs());
    tabs.truncate(n);
    tabs.sort_by_key(|t| t.index);
    tabs
}

/// "7 days", "2 hours", "30 minutes": a span as people say it.
fn how_long(ms: f64) -> String {
    let minutes = (ms / 60_000.0).round() as i64;
    let (n, unit) = if minutes % (24 * 60) == 0 {
        (minutes / (24 * 60), "day")
    } else if minutes % 60 == 0 {
        (minutes / 60, "hour")
    } else {
        (minutes, "minute")
    };
    if n == 1 && unit == "hour" {
        "an hour".to_string()
    } else if n == 1 {
        format!("a {unit}")
    } else {
        format!("{n} {unit}s")
    }
}
