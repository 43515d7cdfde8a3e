//! Tab layouts for tests and benchmarks: the undo scenario of issue 15
//! (pinned, grouped, collapsed, muted tabs over two windows) and seeded
//! random ones, described once so that the in-memory browser, the Firefox
//! tests and `make bench` set up the same thing.

use crate::tab_state::{Color, Group, State, Tab, Window, NO_GROUP};
use serde_json::{json, Value};

#[derive(Clone, Debug, PartialEq)]
pub struct LayoutTab {
    /// Unique among the layout's tabs; also the page's title.
    pub title: String,
    pub pinned: bool,
    pub muted: bool,
    /// Index into [`Layout::groups`].
    pub group: Option<usize>,
    pub active: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct LayoutGroup {
    pub title: String,
    pub color: Color,
    pub collapsed: bool,
}

/// Windows, each a tab strip in order (pinned first, each group's tabs
/// together), with exactly one active tab per window.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    pub windows: Vec<Vec<LayoutTab>>,
    pub groups: Vec<LayoutGroup>,
}

/// A small deterministic generator (SplitMix64): the same seed gives the
/// same layout on every machine.
#[derive(Clone, Debug)]
pub struct Seeded(u64);

impl Seeded {
    pub fn new(seed: u64) -> Self {
        Seeded(seed)
    }
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// A number in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

fn plain(title: String) -> LayoutTab {
    LayoutTab {
        title,
        pinned: false,
        muted: false,
        group: None,
        active: false,
    }
}

impl Layout {
    /// The scenario of issue 15 for `closable` tabs (at least 80) over two
    /// windows: 5 pinned, three groups of 7 (the second collapsed, in the second
    /// window), 10 muted, the rest plain; each window also has a first tab
    /// ("Keep 1", "Keep 2") that is not to be closed, and the first window's
    /// active tab is among the closable ones.
    pub fn issue_15(closable: usize) -> Layout {
        let groups = ["Research", "Shopping", "Music"]
            .iter()
            .zip([Color::Blue, Color::Orange, Color::Green])
            .enumerate()
            .map(|(i, (title, color))| LayoutGroup {
                title: title.to_string(),
                color,
                collapsed: i == 1,
            })
            .collect();
        let mut windows: Vec<Vec<LayoutTab>> = vec![Vec::new(), Vec::new()];
        for (w, strip) in windows.iter_mut().enumerate() {
            let mut keep = plain(format!("Keep {}", w + 1));
            keep.active = w == 1;
            strip.push(keep);
        }
        for i in 0..closable {
            let w = usize::from(i * 2 >= closable);
            let mut t = plain(format!("Tab {i:03}"));
            t.pinned = i < 3 || (closable / 2..closable / 2 + 2).contains(&i);
            t.muted = i % 10 == 3;
            if !t.pinned {
                let k = i % (closable / 2).max(1);
                t.group = match k {
                    10..=16 => Some(0),
                    20..=26 if w == 1 => Some(1),
                    30..=36 => Some(2),
                    _ => None,
                };
            }
            t.active = w == 0 && i == 12;
            windows[w].push(t);
        }
        let mut layout = Layout { windows, groups };
        layout.normalize();
        layout
    }

    /// A random layout over two or three windows: pinned tabs, groups (some
    /// collapsed), muted tabs, one active tab per window.
    pub fn random(rng: &mut Seeded) -> Layout {
        let colors = Color::ALL;
        let mut windows = Vec::new();
        let mut groups = Vec::new();
        let mut n = 0;
        for _ in 0..2 + rng.below(2) {
            let mut strip = Vec::new();
            for _ in 0..rng.below(3) {
                let mut t = plain(format!("Pinned {n}"));
                t.pinned = true;
                n += 1;
                strip.push(t);
            }
            for _ in 0..2 + rng.below(6) {
                let group = rng.chance(40).then(|| {
                    groups.push(LayoutGroup {
                        title: format!("G{}", groups.len()),
                        color: colors[rng.below(colors.len())],
                        collapsed: rng.chance(30),
                    });
                    groups.len() - 1
                });
                for _ in 0..1 + rng.below(if group.is_some() { 4 } else { 2 }) {
                    let mut t = plain(format!("Page {n}"));
                    t.group = group;
                    n += 1;
                    strip.push(t);
                }
            }
            for t in &mut strip {
                t.muted = rng.chance(15);
            }
            let active = rng.below(strip.len());
            strip[active].active = true;
            windows.push(strip);
        }
        let mut layout = Layout { windows, groups };
        layout.normalize();
        layout
    }

    /// Pinned tabs first, each group's tabs together, one active tab per
    /// window that is not inside a collapsed group.
    fn normalize(&mut self) {
        for strip in &mut self.windows {
            let mut order: Vec<LayoutTab> = strip.iter().filter(|t| t.pinned).cloned().collect();
            for t in strip.iter().filter(|t| !t.pinned) {
                if order.iter().any(|o| o.title == t.title) {
                    continue;
                }
                order.push(t.clone());
                if let Some(g) = t.group {
                    let rest = strip
                        .iter()
                        .filter(|o| o.group == Some(g) && o.title != t.title && !o.pinned);
                    order.extend(rest.cloned());
                }
            }
            *strip = order;
            let hidden = |t: &LayoutTab, groups: &[LayoutGroup]| {
                t.group.is_some_and(|g| groups[g].collapsed)
            };
            let mut active = strip
                .iter()
                .position(|t| t.active && !hidden(t, &self.groups));
            if active.is_none() {
                active = strip.iter().position(|t| !hidden(t, &self.groups));
            }
            for (i, t) in strip.iter_mut().enumerate() {
                t.active = Some(i) == active;
            }
        }
        // A group lives in one window: drop it from tabs in any other.
        for g in 0..self.groups.len() {
            let home = self
                .windows
                .iter()
                .position(|s| s.iter().any(|t| t.group == Some(g)));
            for (w, strip) in self.windows.iter_mut().enumerate() {
                if Some(w) != home {
                    for t in strip.iter_mut().filter(|t| t.group == Some(g)) {
                        t.group = None;
                    }
                }
            }
        }
    }

    pub fn tab_count(&self) -> usize {
        self.windows.iter().map(Vec::len).sum()
    }

    /// The layout as a browser state: windows 1, 2, …; tab ids from 1 in
    /// order; group ids from 101; `url(title)` gives each tab's address.
    pub fn state(&self, now: f64, url: impl Fn(&str) -> String) -> State {
        let mut state = State {
            now,
            ..State::default()
        };
        let mut id = 0;
        for (w, strip) in self.windows.iter().enumerate() {
            let window_id = w as i64 + 1;
            state.windows.push(Window {
                id: window_id,
                focused: w == 0,
                incognito: false,
            });
            for (i, t) in strip.iter().enumerate() {
                id += 1;
                let group_id = t.group.map_or(NO_GROUP, |g| 101 + g as i64);
                if let Some(g) = t.group {
                    if !state.groups.iter().any(|x| x.id == group_id) {
                        let look = &self.groups[g];
                        state.groups.push(Group {
                            id: group_id,
                            window_id,
                            title: look.title.clone(),
                            color: look.color,
                            collapsed: look.collapsed,
                        });
                    }
                }
                state.tabs.push(Tab {
                    id,
                    window_id,
                    index: i as i64,
                    url: url(&t.title),
                    title: t.title.clone(),
                    active: t.active,
                    pinned: t.pinned,
                    muted: t.muted,
                    audible: false,
                    discarded: false,
                    group_id,
                    last_accessed: now,
                    highlighted: false,
                    incognito: false,
                });
            }
        }
        state
    }
}

/// Leaves out of `ids` the first tab of each window (but `into`) that
/// `ids` would empty.
fn spare_one_per_window(s: &State, ids: &mut Vec<i64>, into: Option<i64>) {
    for w in s.windows.iter().filter(|w| Some(w.id) != into) {
        let mine: Vec<i64> = s
            .tabs
            .iter()
            .filter(|t| t.window_id == w.id)
            .map(|t| t.id)
            .collect();
        if mine.iter().all(|id| ids.contains(id)) {
            ids.retain(|id| *id != mine[0]);
        }
    }
}

/// A random changing tool call on `s`, as (tool name, arguments): close,
/// group, ungroup, move, pin or mute a few random tabs. Closing leaves
/// every window a tab; the other calls may be refused (grouping a pinned
/// tab), which is part of what they test.
pub fn random_change(s: &State, rng: &mut Seeded) -> (&'static str, Value) {
    let pick = |rng: &mut Seeded, up_to: usize| -> Vec<i64> {
        let mut out: Vec<i64> = Vec::new();
        for _ in 0..1 + rng.below(up_to) {
            let t = &s.tabs[rng.below(s.tabs.len())];
            if !out.contains(&t.id) {
                out.push(t.id);
            }
        }
        out
    };
    let window = |rng: &mut Seeded| s.windows[rng.below(s.windows.len())].id;
    match rng.below(7) {
        0 | 1 => {
            let mut ids = pick(rng, 8);
            spare_one_per_window(s, &mut ids, None);
            ("close_tabs", json!({ "tabIds": ids }))
        }
        2 => {
            let ids: Vec<i64> = pick(rng, 5)
                .into_iter()
                .filter(|id| !s.tabs.iter().any(|t| t.id == *id && t.pinned))
                .collect();
            let collapsed = rng.chance(30);
            (
                "group_tabs",
                json!({ "tabIds": ids, "title": "New", "color": "pink", "collapsed": collapsed }),
            )
        }
        3 => ("ungroup_tabs", json!({ "tabIds": pick(rng, 4) })),
        4 if rng.chance(25) => (
            "move_tabs",
            json!({ "tabIds": pick(rng, 3), "newWindow": true }),
        ),
        4 => {
            let mut ids = pick(rng, 3);
            let to = window(rng);
            // Not a merge: a reopened window's new id would not compare.
            spare_one_per_window(s, &mut ids, Some(to));
            let index = rng.below(6);
            (
                "move_tabs",
                json!({ "tabIds": ids, "windowId": to, "index": index }),
            )
        }
        5 => {
            let ids = pick(rng, 3);
            (
                "pin_tabs",
                json!({ "tabIds": ids, "pinned": rng.chance(50) }),
            )
        }
        _ => {
            let ids = pick(rng, 4);
            (
                "mute_tabs",
                json!({ "tabIds": ids, "muted": rng.chance(50) }),
            )
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(layout: &Layout) {
        let mut titles: Vec<&str> = layout
            .windows
            .iter()
            .flatten()
            .map(|t| t.title.as_str())
            .collect();
        let n = titles.len();
        titles.sort();
        titles.dedup();
        assert_eq!(titles.len(), n, "titles are unique");
        for strip in &layout.windows {
            assert_eq!(strip.iter().filter(|t| t.active).count(), 1);
            let pinned = strip.iter().filter(|t| t.pinned).count();
            assert!(strip[..pinned].iter().all(|t| t.pinned));
            for g in 0..layout.groups.len() {
                let at: Vec<usize> = (0..strip.len())
                    .filter(|&i| strip[i].group == Some(g))
                    .collect();
                if let (Some(first), Some(last)) = (at.first(), at.last()) {
                    assert_eq!(last - first + 1, at.len(), "group {g} is together");
                }
            }
        }
    }

    #[test]
    fn the_issue_layout_has_what_the_issue_says() {
        let layout = Layout::issue_15(100);
        check(&layout);
        assert_eq!(layout.tab_count(), 102);
        let all: Vec<&LayoutTab> = layout.windows.iter().flatten().collect();
        assert_eq!(all.iter().filter(|t| t.pinned).count(), 5);
        assert_eq!(all.iter().filter(|t| t.muted).count(), 10);
        for g in 0..3 {
            assert_eq!(all.iter().filter(|t| t.group == Some(g)).count(), 7);
        }
        check(&Layout::issue_15(500));
    }

    #[test]
    fn random_layouts_are_valid_and_repeat_with_their_seed() {
        for seed in 0..200 {
            let layout = Layout::random(&mut Seeded::new(seed));
            check(&layout);
            assert_eq!(layout, Layout::random(&mut Seeded::new(seed)));
        }
    }
}
