//! Finds the tabs, groups and bookmarks that words refer to, in a snapshot
//! of the browser.

use super::parse::{GroupWhich, Position, Scope, Selector, Target};
use super::sites;
use crate::tab_state::{State, Tab, NO_GROUP};

mod groups;
mod names;

pub use groups::{find_group, in_strip_order};
use names::{group_named, match_each_site, name_label};
pub use names::{match_bookmarks, match_tabs, names_several_sites, words_of};

/// The browser as a command sees it: the snapshot plus who is in front.
pub struct View<'a> {
    pub state: &'a State,
    pub focused_window: i64,
    /// Tabs the previous clause of a compound command acted on.
    pub previous: Vec<i64>,
    /// A clause came before this one ("… and mute the rest").
    pub after_clause: bool,
}

impl<'a> View<'a> {
    /// Whether every tab of the group is among `ids` (a group moved,
    /// joined or named whole).
    pub fn group_within(&self, group_id: i64, ids: &[i64]) -> bool {
        group_id != NO_GROUP
            && (self.state.tabs.iter())
                .filter(|t| t.group_id == group_id)
                .all(|t| ids.contains(&t.id))
    }

    pub fn new(state: &'a State) -> Self {
        let focused_window = state
            .windows
            .iter()
            .find(|w| w.focused)
            .or(state.windows.first())
            .map(|w| w.id)
            .or_else(|| state.tabs.first().map(|t| t.window_id))
            .unwrap_or(0);
        View {
            state,
            focused_window,
            previous: Vec::new(),
            after_clause: false,
        }
    }

    pub fn active(&self) -> Option<&'a Tab> {
        self.state
            .tabs
            .iter()
            .find(|t| t.window_id == self.focused_window && t.active)
    }

    pub fn tab(&self, id: i64) -> Option<&'a Tab> {
        self.state.tabs.iter().find(|t| t.id == id)
    }

    /// The tabs of one window, in no particular order.
    fn tabs_of_window(&self, window_id: i64) -> Vec<&'a Tab> {
        (self.state.tabs.iter())
            .filter(|t| t.window_id == window_id)
            .collect()
    }

    pub(crate) fn in_scope(&self, scope: Scope) -> Vec<&'a Tab> {
        let holds = self.holds(scope);
        self.state.tabs.iter().filter(|t| holds(t)).collect()
    }

    /// Whether a tab is in a scope.
    pub(crate) fn holds(&self, scope: Scope) -> impl Fn(&Tab) -> bool {
        let focused = self.focused_window;
        let numbered = match scope {
            Scope::Window(n) | Scope::OutsideWindow(n) | Scope::Windows(n, _) => {
                self.numbered_window(n)
            }
            _ => None,
        };
        let second = match scope {
            Scope::Windows(_, n) => self.numbered_window(n),
            _ => None,
        };
        move |t: &Tab| match scope {
            Scope::Everywhere => true,
            Scope::ThisWindow => t.window_id == focused,
            Scope::OtherWindows => t.window_id != focused,
            Scope::Window(_) => Some(t.window_id) == numbered,
            Scope::OutsideWindow(_) => Some(t.window_id) != numbered,
            Scope::Windows(..) => [numbered, second].contains(&Some(t.window_id)),
        }
    }

    /// A window number that names no window is an error.
    pub(crate) fn check_scope(&self, scope: Scope) -> Result<(), String> {
        match scope {
            Scope::Window(n) | Scope::OutsideWindow(n) if self.numbered_window(n).is_none() => {
                Err(no_window(self, n))
            }
            Scope::Windows(a, b) => match [a, b]
                .into_iter()
                .find(|n| self.numbered_window(*n).is_none())
            {
                Some(n) => Err(no_window(self, n)),
                None => Ok(()),
            },
            Scope::OtherWindows | Scope::OutsideWindow(_) if !self.has_other_window() => {
                Err("There is no other window.".into())
            }
            _ => Ok(()),
        }
    }

    /// The windows some tabs are in, each once, in id order.
    pub(crate) fn windows_of(&self, ids: &[i64]) -> Vec<i64> {
        let mut windows: Vec<i64> = ids
            .iter()
            .filter_map(|id| self.tab(*id))
            .map(|t| t.window_id)
            .collect();
        windows.sort_unstable();
        windows.dedup();
        windows
    }

    /// A window as replies name it: "window 2", "window 1 (this one)".
    pub(crate) fn window_said(&self, window_id: i64) -> String {
        let n = self.window_number(window_id).unwrap_or(0);
        if window_id == self.focused_window {
            format!("window {n} (this one)")
        } else {
            format!("window {n}")
        }
    }

    /// Whether any window but the focused one is open (a snapshot may
    /// list its windows or only its tabs).
    fn has_other_window(&self) -> bool {
        let other = |window: i64| window != self.focused_window;
        self.state.windows.iter().any(|w| other(w.id))
            || self.state.tabs.iter().any(|t| other(t.window_id))
    }

    /// The window a scope is all of, if it is one.
    pub(crate) fn scope_window(&self, scope: Scope) -> Option<i64> {
        match scope {
            Scope::ThisWindow => Some(self.focused_window),
            Scope::Window(n) => self.numbered_window(n),
            Scope::Everywhere
            | Scope::OtherWindows
            | Scope::OutsideWindow(_)
            | Scope::Windows(..) => None,
        }
    }

    /// The windows in the order Firefox opened them: "window 2" is the
    /// second.
    pub(crate) fn window_order(&self) -> Vec<i64> {
        let mut ids: Vec<i64> = self.state.windows.iter().map(|w| w.id).collect();
        ids.sort_unstable();
        ids
    }

    /// "window 2": the windows in the order Firefox opened them, from 1.
    pub(crate) fn numbered_window(&self, n: i64) -> Option<i64> {
        usize::try_from(n - 1)
            .ok()
            .and_then(|i| self.window_order().get(i).copied())
    }

    /// The number "window 2" names a window by (see `numbered_window`).
    pub(crate) fn window_number(&self, window_id: i64) -> Option<i64> {
        let at = self.window_order().iter().position(|w| *w == window_id)?;
        i64::try_from(at + 1).ok()
    }

    /// Tabs of the focused window in strip order.
    fn window_tabs(&self) -> Vec<&'a Tab> {
        let mut tabs: Vec<&Tab> = self
            .state
            .tabs
            .iter()
            .filter(|t| t.window_id == self.focused_window)
            .collect();
        tabs.sort_by_key(|t| t.index);
        tabs
    }
}

/// The tabs a target means.
#[derive(Debug, Clone, PartialEq)]
pub struct Resolved {
    pub ids: Vec<i64>,
    /// Named by the person (a site, title, position, "this"), as opposed
    /// to swept up by "all" or "the others": only named pinned tabs close.
    pub explicit: bool,
    /// How to speak of them: "YouTube", "tab 3".
    pub label: String,
    /// For a named reference: how many distinct things matched per name
    /// (to tell "the map tab" that matches two tabs).
    pub matched_per_name: Vec<usize>,
}

pub fn resolve(view: &View, target: &Target) -> Result<Resolved, String> {
    let mut r = select(view, &target.selector, target.scope, true, target.singular)?;
    if let Some(except) = &target.except {
        // "all but netflix" when no Netflix tab is open is a mistake to
        // point out, not a reason to close everything.
        let strict = matches!(
            except,
            Selector::Named(_) | Selector::InGroup(_) | Selector::Positions(_)
        );
        // "all tabs in window 2 except the first one": the first of window
        // 2, as what is said of "this window" there is said of window 2.
        let except_scope = match target.scope {
            Scope::Window(n) => Scope::Window(n),
            Scope::OtherWindows => Scope::OtherWindows,
            _ => Scope::Everywhere,
        };
        // A place left out of tabs described is a place among them: "the
        // tabs in the news group except the first" keeps the group's
        // first, "the youtube tabs except the last one" the last YouTube
        // tab. Of every tab ("all but the first two"), it is the window's.
        let among_them = !matches!(
            target.selector,
            Selector::All
                | Selector::Others
                | Selector::Positions(_)
                | Selector::Side { .. }
                | Selector::WholeWindow
        );
        let keep = match (&target.selector, except) {
            (Selector::InGroup(group), Selector::Positions(positions)) => {
                let at = Selector::InGroupAt {
                    group: group.clone(),
                    positions: positions.clone(),
                };
                select(view, &at, except_scope, strict, false)?.ids
            }
            (_, Selector::Positions(positions)) if among_them => {
                let mut tabs: Vec<&Tab> = r.ids.iter().filter_map(|id| view.tab(*id)).collect();
                tabs.sort_by_key(|t| (t.window_id, t.index));
                at_positions(&tabs, positions).map_err(|_| {
                    format!(
                        "There {} only {}.",
                        if tabs.len() == 1 { "is" } else { "are" },
                        crate::text::plural(tabs.len(), &format!("{} tab", r.label))
                    )
                })?
            }
            _ => select(view, except, except_scope, strict, false)?.ids,
        };
        let before = r.ids.clone();
        r.ids.retain(|id| !keep.contains(id));
        // "close my other stack overflow tabs" on the only one.
        if r.ids.is_empty() && !before.is_empty() {
            return Err(match before.as_slice() {
                [only] => format!(
                    "The only tab that matches is '{}', and it is left out.",
                    view.tab(*only).map_or("", |t| t.title.as_str())
                ),
                _ => "Every tab that matches is left out.".to_string(),
            });
        }
    }
    Ok(r)
}

/// The tabs at 1-based positions among `tabs` (in strip order), or the
/// first position past the last.
fn at_positions(tabs: &[&Tab], positions: &[Position]) -> Result<Vec<i64>, i64> {
    let n = tabs.len() as i64;
    let mut picked = Vec::new();
    for p in positions {
        let range = match *p {
            Position::Nth(i) => i..=i,
            Position::Last => n..=n,
            Position::First(k) => 1..=k.min(n),
            Position::LastN(k) => (n - k + 1).max(1)..=n,
            Position::Range(a, b) => a..=b,
        };
        for i in range {
            match tabs.get((i - 1).max(0) as usize).filter(|_| i >= 1) {
                Some(t) if !picked.contains(&t.id) => picked.push(t.id),
                Some(_) => {}
                None => return Err(i),
            }
        }
    }
    Ok(picked)
}

/// "There is no tab 9 in this window; it has 7 tabs."
fn no_tab_at(i: i64, there: &str, n: usize) -> String {
    format!("There is no tab {i} {there}; it has {}.", plural_tabs(n))
}

/// The tabs a selector means within a scope. `strict`: a name that matches
/// nothing is an error; `one`: one tab is meant (the adjacent one, for a side).
fn select(
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

/// The one tab a reference means, with how it was said.
fn one_named<'a>(view: &View<'a>, target: &Target) -> Result<(Resolved, &'a Tab), String> {
    let reference = resolve(view, target)?;
    let [id] = reference.ids.as_slice() else {
        return Err(format!(
            "{} tabs match {}; say which one.",
            reference.ids.len(),
            reference.label
        ));
    };
    let tab = view.tab(*id).ok_or("That tab is gone.")?;
    Ok((reference, tab))
}

fn plural_tabs(n: usize) -> String {
    crate::text::plural(n, "tab")
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

/// "Slack", "Slack and Jira", "Slack, Jira and Confluence".
pub(crate) fn spoken_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// Where a scope is, as a reply says it: " in window 2", "" for everywhere.
pub(crate) fn where_said(scope: Scope) -> String {
    match scope {
        Scope::ThisWindow => " in this window".to_string(),
        Scope::OtherWindows => " in the other windows".to_string(),
        Scope::Window(n) => format!(" in window {n}"),
        Scope::OutsideWindow(n) => format!(" outside window {n}"),
        Scope::Windows(a, b) => format!(" in windows {a} and {b}"),
        Scope::Everywhere => String::new(),
    }
}

/// "There is no window 7; there are 3."
pub(crate) fn no_window(view: &View, n: i64) -> String {
    format!(
        "There is no window {n}; there are {}.",
        view.state.windows.len()
    )
}
