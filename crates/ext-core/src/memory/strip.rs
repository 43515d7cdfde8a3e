//! The twin's tab strips and windows, as Firefox keeps them: order and
//! indices, pinned tabs first, groups kept together, windows opened,
//! focused and closed when emptied. The `Browser` methods in `mod.rs` are
//! built from these.

use super::err;
use crate::browser::{BrowserError, BrowserResult};
use crate::tab_state::{NewTab, State, Tab, Window, NO_GROUP};

/// Sorts tabs, renumbers indices, keeps pinned tabs first and drops empty groups.
pub(super) fn normalize(s: &mut State) {
    s.tabs.sort_by_key(|t| (t.window_id, !t.pinned, t.index));
    let mut last_window = None;
    let mut i = 0;
    for t in &mut s.tabs {
        if last_window != Some(t.window_id) {
            last_window = Some(t.window_id);
            i = 0;
        }
        t.index = i;
        i += 1;
        if t.pinned {
            t.group_id = NO_GROUP;
        }
    }
    let tabs = &s.tabs;
    s.groups.retain(|g| tabs.iter().any(|t| t.group_id == g.id));
    for w in s.windows.iter().map(|w| w.id).collect::<Vec<_>>() {
        let in_window: Vec<&Tab> = s.tabs.iter().filter(|t| t.window_id == w).collect();
        if !in_window.is_empty() && !in_window.iter().any(|t| t.active) {
            let id = in_window[0].id;
            if let Some(t) = s.tabs.iter_mut().find(|t| t.id == id) {
                t.active = true;
            }
        }
    }
}

pub(super) fn tab_mut(s: &mut State, id: i64) -> BrowserResult<&mut Tab> {
    s.tabs
        .iter_mut()
        .find(|t| t.id == id)
        .ok_or_else(|| err(format!("Invalid tab ID: {id}")))
}

pub(super) fn tab(s: &State, id: i64) -> BrowserResult<&Tab> {
    s.tabs
        .iter()
        .find(|t| t.id == id)
        .ok_or_else(|| err(format!("Invalid tab ID: {id}")))
}

/// Tab ids of a window in tab-strip order.
pub(super) fn order(s: &State, window: i64) -> Vec<i64> {
    let mut tabs: Vec<&Tab> = s.tabs.iter().filter(|t| t.window_id == window).collect();
    tabs.sort_by_key(|t| t.index);
    tabs.iter().map(|t| t.id).collect()
}

pub(super) fn set_order(s: &mut State, window: i64, ids: &[i64]) {
    for (i, id) in ids.iter().enumerate() {
        if let Some(t) = s.tabs.iter_mut().find(|t| t.id == *id) {
            t.window_id = window;
            t.index = i as i64;
        }
    }
}

pub(super) fn pinned_count(s: &State, ids: &[i64]) -> usize {
    ids.iter()
        .filter(|id| s.tabs.iter().any(|t| t.id == **id && t.pinned))
        .count()
}

/// Inserts a tab into a window's strip at `index` (-1: the end), within the
/// pinned region for a pinned tab and after it for the others.
pub(super) fn insert(s: &mut State, window: i64, id: i64, index: i64) {
    let mut ids: Vec<i64> = order(s, window).into_iter().filter(|x| *x != id).collect();
    let pinned = s.tabs.iter().any(|t| t.id == id && t.pinned);
    let first_free = pinned_count(s, &ids);
    let (lo, hi) = if pinned {
        (0, first_free)
    } else {
        (first_free, ids.len())
    };
    let at = if index < 0 {
        hi
    } else {
        (index as usize).clamp(lo, hi)
    };
    ids.insert(at, id);
    set_order(s, window, &ids);
}

pub(super) fn remove_from_strip(s: &mut State, id: i64) {
    let Ok(window) = tab(s, id).map(|t| t.window_id) else {
        return;
    };
    let ids: Vec<i64> = order(s, window).into_iter().filter(|x| *x != id).collect();
    set_order(s, window, &ids);
}

/// After a move, a grouped tab cut off from its group leaves it, and an
/// ungrouped tab dropped inside a group joins it (as in Firefox).
pub(super) fn settle_group(s: &mut State, id: i64) {
    let Ok(t) = tab(s, id) else { return };
    let (window, index, group) = (t.window_id, t.index, t.group_id);
    let at = |i: i64| {
        s.tabs
            .iter()
            .find(|t| t.window_id == window && t.index == i)
            .map(|t| t.group_id)
    };
    let (prev, next) = (at(index - 1), at(index + 1));
    let new_group = if group != NO_GROUP {
        let others = s.tabs.iter().any(|t| t.group_id == group && t.id != id);
        if others && prev != Some(group) && next != Some(group) {
            NO_GROUP
        } else {
            group
        }
    } else {
        match (prev, next) {
            (Some(p), Some(n)) if p == n && p != NO_GROUP => p,
            _ => NO_GROUP,
        }
    };
    if let Ok(t) = tab_mut(s, id) {
        t.group_id = new_group;
    }
}

/// Moves a tab to `index` of `window` (its own or another); a window
/// left with no tab closes.
pub(super) fn move_across(
    s: &mut State,
    tab_id: i64,
    window: i64,
    index: i64,
) -> BrowserResult<()> {
    let t = tab(s, tab_id)?.clone();
    check_window(s, window)?;
    if s.windows
        .iter()
        .any(|w| w.id == window && w.incognito != t.incognito)
    {
        // As in Firefox: tabs never cross between private and normal windows.
        return Err(BrowserError(format!(
            "Can't move tab {tab_id} between private and normal windows"
        )));
    }
    if window != t.window_id {
        remove_from_strip(s, tab_id);
        // The tab still names its old window until it is moved below.
        let left: Vec<i64> = order(s, t.window_id)
            .into_iter()
            .filter(|id| *id != tab_id)
            .collect();
        let moved = tab_mut(s, tab_id)?;
        moved.group_id = NO_GROUP;
        moved.active = false;
        moved.window_id = window;
        if t.active {
            if let Some(&next) = left.get(t.index as usize).or(left.last()) {
                activate(s, next)?;
            }
        }
    }
    insert(s, window, tab_id, index);
    settle_group(s, tab_id);
    close_empty_windows(s);
    Ok(())
}

/// Adds a window (still without tabs) that takes the focus, as a new
/// window does in Firefox; answers its id.
pub(super) fn open_window(s: &mut State, incognito: bool) -> i64 {
    let window = s
        .windows
        .iter()
        .map(|w| w.id)
        .chain(s.tabs.iter().map(|t| t.window_id))
        .max()
        .unwrap_or(0)
        + 1;
    for w in &mut s.windows {
        w.focused = false;
    }
    s.windows.push(Window {
        id: window,
        focused: true,
        incognito,
    });
    window
}

/// A window without tabs closes; if it had the focus, another one gets it.
pub(super) fn close_empty_windows(s: &mut State) {
    let tabs = &s.tabs;
    s.windows
        .retain(|w| tabs.iter().any(|t| t.window_id == w.id));
    if !s.windows.iter().any(|w| w.focused) {
        if let Some(w) = s.windows.first_mut() {
            w.focused = true;
        }
    }
}

pub(super) fn activate(s: &mut State, id: i64) -> BrowserResult<()> {
    let now = s.now;
    // Firefox shows a selected tab of a collapsed group without expanding it.
    let window = tab(s, id)?.window_id;
    for t in s.tabs.iter_mut().filter(|t| t.window_id == window) {
        t.active = t.id == id;
        if t.active {
            t.last_accessed = now;
            t.discarded = false;
        }
    }
    Ok(())
}

/// The focused window, else the first (Firefox's "current" window).
pub(super) fn focused(s: &State) -> BrowserResult<i64> {
    s.windows
        .iter()
        .find(|w| w.focused)
        .or(s.windows.first())
        .map(|w| w.id)
        .ok_or_else(|| err("No window".into()))
}

/// What Firefox's `tabs.create` refuses.
pub(super) fn check_new_tab(spec: &NewTab) -> BrowserResult<()> {
    let url = spec.url.as_deref().unwrap_or("about:newtab");
    if spec.discarded && spec.active {
        return Err(err("Active tabs cannot be created and discarded.".into()));
    }
    if spec.discarded && spec.pinned {
        return Err(err("Pinned tabs cannot be created and discarded.".into()));
    }
    if spec.discarded && url.starts_with("about:") {
        return Err(err(
            "Cannot create a discarded new tab or \"about\" urls.".into()
        ));
    }
    // What extensions may open (file:, view-source:, about: pages but
    // about:blank are refused).
    let allowed = url.starts_with("http://")
        || url.starts_with("https://")
        || url.starts_with("moz-extension://")
        || url == "about:blank"
        || spec.url.is_none();
    if !allowed {
        return Err(err(format!("Illegal URL: {url}")));
    }
    if spec.title.is_some() && !spec.discarded {
        return Err(err("Title may only be set for discarded pages.".into()));
    }
    Ok(())
}

/// A tab made from `spec`, not yet placed in its window's strip.
pub(super) fn new_tab(s: &State, id: i64, window: i64, spec: &NewTab) -> Tab {
    let url = spec.url.clone().unwrap_or_else(|| "about:newtab".into());
    let title = match (&spec.title, &spec.url) {
        (Some(title), _) => title.clone(),
        (None, Some(_)) => url.clone(),
        (None, None) => "New Tab".into(),
    };
    Tab {
        id,
        window_id: window,
        index: i64::MAX,
        title,
        url,
        active: false,
        pinned: spec.pinned,
        muted: spec.muted,
        audible: false,
        discarded: spec.discarded,
        group_id: NO_GROUP,
        last_accessed: s.now,
        highlighted: false,
        incognito: s.windows.iter().any(|w| w.id == window && w.incognito),
    }
}

pub(super) fn check_window(s: &State, window: i64) -> BrowserResult<()> {
    if s.windows.iter().any(|w| w.id == window) {
        Ok(())
    } else {
        Err(err(format!("Invalid window ID: {window}")))
    }
}
