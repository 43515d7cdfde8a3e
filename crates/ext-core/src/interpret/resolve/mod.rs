//! Finds the tabs, groups and bookmarks that words refer to, in a snapshot
//! of the browser.

use super::parse::{Position, Scope, Selector, Target};
use crate::tab_state::{State, Tab, NO_GROUP};

mod groups;
mod names;
mod select;

pub use groups::{find_group, in_strip_order};
pub use names::{match_bookmarks, match_tabs, names_several_sites, words_of};
use select::select;

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
