//! Finds the tabs, groups and bookmarks that words refer to, in a snapshot
//! of the browser.

use super::hearing::sound_distance;
use super::parse::{all_in, GroupWhich, Position, Scope, Selector, Target, FUNCTION_WORDS};
use super::sites::{self, host_and_path};
use super::text::close_enough;
use crate::tab_state::{Bookmark, Group, State, Tab, NO_GROUP};

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

    pub(crate) fn in_scope(&self, scope: Scope) -> Vec<&'a Tab> {
        let holds = self.holds(scope);
        self.state.tabs.iter().filter(|t| holds(t)).collect()
    }

    /// Whether a tab is in a scope.
    pub(crate) fn holds(&self, scope: Scope) -> impl Fn(&Tab) -> bool {
        let focused = self.focused_window;
        let numbered = match scope {
            Scope::Window(n) | Scope::OutsideWindow(n) => self.numbered_window(n),
            _ => None,
        };
        move |t: &Tab| match scope {
            Scope::Everywhere => true,
            Scope::ThisWindow => t.window_id == focused,
            Scope::OtherWindows => t.window_id != focused,
            Scope::Window(_) => Some(t.window_id) == numbered,
            Scope::OutsideWindow(_) => Some(t.window_id) != numbered,
        }
    }

    /// A window number that names no window is an error.
    pub(crate) fn check_scope(&self, scope: Scope) -> Result<(), String> {
        match scope {
            Scope::Window(n) | Scope::OutsideWindow(n) if self.numbered_window(n).is_none() => {
                Err(no_window(self, n))
            }
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
            Scope::Everywhere | Scope::OtherWindows | Scope::OutsideWindow(_) => None,
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
        // "the other groups" with the tab in front in none: every group.
        let no_group_here = matches!(except, Selector::InGroup(w) if w.is_empty())
            && !view.active().is_some_and(|t| t.is_grouped());
        let keep = match no_group_here {
            true => Vec::new(),
            false => select(view, except, Scope::Everywhere, strict, false)?.ids,
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
        Selector::Positions(positions) => {
            let window = view.window_tabs();
            let n = window.len() as i64;
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
                    match window.get((i - 1).max(0) as usize).filter(|_| i >= 1) {
                        Some(t) if !picked.contains(&t.id) => picked.push(t.id),
                        Some(_) => {}
                        None => {
                            return Err(format!(
                                "There is no tab {i} in this window; it has {n} tab{}.",
                                if n == 1 { "" } else { "s" }
                            ))
                        }
                    }
                }
            }
            let label = match positions.as_slice() {
                [Position::Nth(i)] => format!("tab {i}"),
                [Position::Last] => "the last tab".to_string(),
                _ => format!("{} tabs", picked.len()),
            };
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
                    return Err(format!("Only {} tab(s) match {}.", found.len(), r.label))
                }
                None => plain(Vec::new(), true, &r.label),
            }
        }
        Selector::SideOf { right, tab } => {
            let reference = resolve(view, tab)?;
            let [id] = reference.ids.as_slice() else {
                return Err(format!(
                    "{} tabs match {}; say which one.",
                    reference.ids.len(),
                    reference.label
                ));
            };
            let beside = view.tab(*id).ok_or("That tab is gone.")?;
            let window = view
                .state
                .tabs
                .iter()
                .filter(|t| t.window_id == beside.window_id)
                .collect();
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
            plain(ids(found), one, &format!("the tabs to the {side}"))
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

fn name_label(words: &[String]) -> String {
    let joined = words.join(" ");
    sites::by_name(&joined)
        .or_else(|| sites::by_name(&words.concat()))
        .map(|s| s.display.to_string())
        .unwrap_or(joined)
}

/// Lower-case words of a title or URL.
pub fn words_of(text: &str) -> Vec<String> {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// "close news" with a group titled "News": its tabs, unless the words name a
/// known site that is open ("youtube" is every YouTube tab, grouped or not).
fn group_named(state: &State, words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    let name = words.join(" ");
    if !match_site_by_name(&name, tabs).is_empty() {
        return Vec::new();
    }
    let Some(group) = state
        .groups
        .iter()
        .find(|g| g.title.eq_ignore_ascii_case(&name))
    else {
        return Vec::new();
    };
    tabs.iter()
        .filter(|t| t.group_id == group.id)
        .map(|t| t.id)
        .collect()
}

/// Tabs of the known site called `name`, if there is one.
fn match_site_by_name(name: &str, tabs: &[&Tab]) -> Vec<i64> {
    let compact = name.replace(' ', "");
    sites::by_name(name)
        .or_else(|| sites::by_name(&compact))
        .map(|site| {
            tabs.iter()
                .filter(|t| sites::hosts(site, &t.url))
                .map(|t| t.id)
                .collect()
        })
        .unwrap_or_default()
}

/// Tabs of the sites that each word names, when every word names one
/// ("slack jira"); nothing otherwise. Only sites and domains count: title
/// words said in a row belong together.
fn match_each_site(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    if words.len() < 2 {
        return Vec::new();
    }
    let mut all = Vec::new();
    for w in words {
        let found = match_site(std::slice::from_ref(w), tabs);
        if found.is_empty() {
            return Vec::new();
        }
        for id in found {
            if !all.contains(&id) {
                all.push(id);
            }
        }
    }
    all
}

/// Tabs of a known site ("gmail", "hacker news") or a domain or host label
/// ("bbc.co.uk", "kayak").
fn match_site(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    let compact = words.concat();
    let found = match_site_by_name(&words.join(" "), tabs);
    if !found.is_empty() {
        return found;
    }
    tabs.iter()
        .filter(|t| {
            let (host, _) = host_and_path(&t.url);
            if compact.contains('.') {
                host == compact || host.ends_with(&format!(".{compact}"))
            } else {
                host.split('.').any(|label| label == compact)
            }
        })
        .map(|t| t.id)
        .collect()
}

/// Tabs a name refers to, best kind of match only: a known site or domain,
/// else all words in the title or address, else the same with typos.
pub fn match_tabs(words: &[String], tabs: &[&Tab]) -> Vec<i64> {
    // "r/rust" is the words of a title ("r", "rust"), unless it is an address.
    let words: Vec<String> = words
        .iter()
        .flat_map(|w| {
            if w.contains('/') && !w.contains('.') {
                w.split('/')
                    .filter(|x| !x.is_empty())
                    .map(str::to_string)
                    .collect()
            } else {
                vec![w.clone()]
            }
        })
        .collect();
    let words = words.as_slice();
    let compact = words.concat();
    // A known site ("gmail", "hacker news"), a domain or a host label.
    let found = match_site(words, tabs);
    if !found.is_empty() {
        return found;
    }
    // "do" names nothing, though "How do I exit Vim?" has it: it is a
    // misheard word ("switch to tab do"), not a tab.
    if all_in(words, FUNCTION_WORDS) {
        return Vec::new();
    }
    // Every word in the title or URL.
    let haystacks: Vec<(i64, Vec<String>)> = tabs
        .iter()
        .map(|t| {
            let mut w = words_of(&t.title);
            w.extend(words_of(&t.url));
            (t.id, w)
        })
        .collect();
    let exact: Vec<i64> = haystacks
        .iter()
        .filter(|(_, hay)| words.iter().all(|w| word_in(w, hay, false)))
        .map(|(id, _)| *id)
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    // A known site misspelt: "youtub".
    if let Some(site) = sites::SITES.iter().find(|s| {
        s.names
            .iter()
            .any(|n| n.len() >= 4 && close_enough(&compact, n))
    }) {
        let found: Vec<i64> = tabs
            .iter()
            .filter(|t| sites::hosts(site, &t.url))
            .map(|t| t.id)
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    let misspelt: Vec<i64> = haystacks
        .iter()
        .filter(|(_, hay)| words.iter().all(|w| word_in(w, hay, true)))
        .map(|(id, _)| *id)
        .collect();
    if !misspelt.is_empty() {
        return misspelt;
    }
    // A word heard as another that sounds the same ("the rest docs" for
    // the Rust docs), vouched for by another word of the same tab heard
    // as it is. Alone, a word that sounds like a title's word names
    // nothing: "the rest tab" is not r/rust.
    haystacks
        .iter()
        .filter(|(_, hay)| {
            words.len() >= 2
                && words
                    .iter()
                    .any(|w| w.chars().count() >= 3 && word_in(w, hay, false))
                && words
                    .iter()
                    .all(|w| word_in(w, hay, true) || sounds_like_one_of(w, hay))
        })
        .map(|(id, _)| *id)
        .collect()
}

fn sounds_like_one_of(word: &str, hay: &[String]) -> bool {
    hay.iter()
        .any(|h| h.chars().count() >= 3 && sound_distance(word, h).is_some())
}

/// Whether a spoken word is among the words, as a whole word, a plural, or
/// (with `typos`) misspelt.
fn word_in(word: &str, hay: &[String], typos: bool) -> bool {
    let singular = word.strip_suffix('s').filter(|s| s.len() >= 3);
    hay.iter().any(|h| {
        h == word
            || Some(h.as_str()) == singular
            || h.strip_suffix('s') == Some(word)
            || (typos && close_enough(word, h))
    })
}

/// The group some words name, or the active tab's group.
pub fn find_group<'a>(
    state: &'a State,
    which: &GroupWhich,
    view: &View,
) -> Result<&'a Group, String> {
    match which {
        GroupWhich::AllBut(_) => Err("That is said of one group at a time; say which.".into()),
        GroupWhich::Current | GroupWhich::All => {
            // Right after "group youtube tabs", "the group" is that one.
            let previous: Vec<i64> = view
                .previous
                .iter()
                .filter_map(|id| view.tab(*id))
                .map(|t| t.group_id)
                .collect();
            if let Some(first) = previous.first().filter(|g| **g != -1) {
                if previous.iter().all(|g| g == first) {
                    if let Some(g) = state.groups.iter().find(|g| g.id == *first) {
                        return Ok(g);
                    }
                }
            }
            let active = view.active().ok_or("No tab is active.")?;
            state
                .groups
                .iter()
                .find(|g| g.id == active.group_id)
                .ok_or_else(|| "This tab is not in a group.".to_string())
        }
        GroupWhich::Named(words) => {
            let joined = words.join(" ");
            let by_title = |typos: bool| -> Vec<&Group> {
                state
                    .groups
                    .iter()
                    .filter(|g| {
                        let title = words_of(&g.title);
                        !title.is_empty()
                            && (g.title.to_lowercase() == joined
                                || words.iter().all(|w| word_in(w, &title, typos)))
                    })
                    .collect()
            };
            let exact = by_title(false);
            let candidates = if exact.is_empty() {
                by_title(true)
            } else {
                exact
            };
            if let [g] = candidates.as_slice() {
                return Ok(g);
            }
            if candidates.len() > 1 {
                // Prefer the focused window's.
                if let Some(g) = candidates
                    .iter()
                    .find(|g| g.window_id == view.focused_window)
                {
                    return Ok(g);
                }
                return Ok(candidates[0]);
            }
            // An untitled group named by what it holds: "the youtube group".
            let tabs: Vec<&Tab> = state.tabs.iter().filter(|t| t.group_id != -1).collect();
            let matched = match_tabs(words, &tabs);
            let mut groups: Vec<i64> = matched
                .iter()
                .filter_map(|id| state.tabs.iter().find(|t| t.id == *id))
                .map(|t| t.group_id)
                .collect();
            groups.dedup();
            match groups.as_slice() {
                [g] => state
                    .groups
                    .iter()
                    .find(|x| x.id == *g)
                    .ok_or_else(|| no_group(view, &joined)),
                _ => Err(no_group(view, &joined)),
            }
        }
    }
}

/// Bookmarks whose title or address has all the words (typos allowed).
pub fn match_bookmarks<'a>(words: &[String], bookmarks: &'a [Bookmark]) -> Vec<&'a Bookmark> {
    let words: Vec<String> = words
        .iter()
        .filter(|w| !["my", "the", "bookmark", "bookmarks", "page", "site"].contains(&w.as_str()))
        .cloned()
        .collect();
    for typos in [false, true] {
        let found: Vec<&Bookmark> = bookmarks
            .iter()
            .filter(|b| {
                let mut hay = words_of(&b.title);
                hay.extend(words_of(&b.url));
                hay.extend(words_of(&b.folder));
                !words.is_empty() && words.iter().all(|w| word_in(w, &hay, typos))
            })
            .collect();
        if !found.is_empty() {
            return found;
        }
    }
    Vec::new()
}

/// "Slack", "Slack and Jira", "Slack, Jira and Confluence".
pub(crate) fn spoken_list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "No group is called 'work'; yours are News, Docs and Design."
fn no_group(view: &View, said: &str) -> String {
    let titles: Vec<String> = view
        .state
        .groups
        .iter()
        .filter(|g| !g.title.trim().is_empty())
        .map(|g| format!("'{}'", g.title))
        .collect();
    match (view.state.groups.len(), titles.as_slice()) {
        (0, _) => format!("No group is called '{said}'; you have no tab groups."),
        (_, []) => format!("No group is called '{said}'."),
        (1, [only]) => format!("No group is called '{said}'; your only group is {only}."),
        (_, titles) if titles.len() > 8 => format!(
            "No group is called '{said}'; yours include {}.",
            spoken_list(&titles[..8])
        ),
        (_, titles) => format!(
            "No group is called '{said}'; yours are {}.",
            spoken_list(titles)
        ),
    }
}

/// Where a scope is, as a reply says it: " in window 2", "" for everywhere.
pub(crate) fn where_said(scope: Scope) -> String {
    match scope {
        Scope::ThisWindow => " in this window".to_string(),
        Scope::OtherWindows => " in the other windows".to_string(),
        Scope::Window(n) => format!(" in window {n}"),
        Scope::OutsideWindow(n) => format!(" outside window {n}"),
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
