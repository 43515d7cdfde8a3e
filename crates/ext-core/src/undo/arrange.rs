//! Where tabs must move so that each restored tab is back at its window and
//! index, planned from one snapshot: the moves are simulated on local tab
//! strips, so putting back 500 tabs needs no browser round trip per tab.

use crate::tab_state::Tab;
use std::collections::BTreeMap;

/// A tab that must end at `index` of `window_id`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Spot {
    pub tab_id: i64,
    pub window_id: i64,
    pub index: i64,
}

/// One `tabs.move`: `window_id` only when the tab changes window.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Move {
    pub tab_id: i64,
    pub window_id: Option<i64>,
    pub index: i64,
}

/// The moves, in order, that put every `wanted` tab at its spot. Tabs not
/// named keep their relative order and fill the other places. A tab whose
/// window is gone stays where it is, and a tab never leaves a window it is
/// the last tab of (that would close the window) unless the window is in
/// `may_empty`.
pub fn plan_moves(tabs: &[Tab], wanted: &[Spot], may_empty: &[i64]) -> Vec<Move> {
    let mut strips: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
    let mut sorted: Vec<&Tab> = tabs.iter().collect();
    sorted.sort_by_key(|t| (t.window_id, t.index));
    for t in sorted {
        strips.entry(t.window_id).or_default().push(t.id);
    }
    let window_of = |strips: &BTreeMap<i64, Vec<i64>>, id: i64| {
        strips
            .iter()
            .find(|(_, ids)| ids.contains(&id))
            .map(|(w, _)| *w)
    };
    let mut wanted: Vec<Spot> = wanted
        .iter()
        .filter(|s| window_of(&strips, s.tab_id).is_some())
        .copied()
        .collect();
    wanted.sort_by_key(|s| (s.window_id, s.index));
    let mut moves = Vec::new();

    // First into the right window, at (or near) the right index.
    for spot in &mut wanted {
        let Some(from) = window_of(&strips, spot.tab_id) else {
            continue;
        };
        if !strips.contains_key(&spot.window_id) {
            spot.window_id = from;
            continue;
        }
        if from == spot.window_id || strips[&from].len() <= 1 && !may_empty.contains(&from) {
            spot.window_id = from;
            continue;
        }
        if let Some(source) = strips.get_mut(&from) {
            source.retain(|x| *x != spot.tab_id);
        }
        let to = strips.get_mut(&spot.window_id).expect("checked above");
        let at = (spot.index.max(0) as usize).min(to.len());
        to.insert(at, spot.tab_id);
        moves.push(Move {
            tab_id: spot.tab_id,
            window_id: Some(spot.window_id),
            index: at as i64,
        });
    }

    // Then each window: the strip it should have, reached by moving only
    // the named tabs (moving the others could take them out of their
    // groups). In the target's order, each goes right after the tab that
    // precedes it there; by induction the strip ends equal to the target.
    for (window, strip) in &mut strips {
        let mine: Vec<&Spot> = wanted.iter().filter(|s| s.window_id == *window).collect();
        if mine.is_empty() {
            continue;
        }
        let target = target_strip(strip, &mine);
        for (i, &id) in target.iter().enumerate() {
            if !mine.iter().any(|s| s.tab_id == id) {
                continue;
            }
            let at = match i {
                0 => 0,
                _ => match strip.iter().position(|x| *x == target[i - 1]) {
                    Some(before) if strip.get(before + 1) == Some(&id) => continue,
                    Some(before) if strip.iter().position(|x| *x == id) < Some(before) => before,
                    Some(before) => before + 1,
                    None => continue,
                },
            };
            if strip.get(at) == Some(&id) {
                continue;
            }
            strip.retain(|x| *x != id);
            strip.insert(at, id);
            moves.push(Move {
                tab_id: id,
                window_id: None,
                index: at as i64,
            });
        }
    }
    moves
}

/// The strip with each spot's tab at its index (or the next free place)
/// and the other tabs in their current order around them.
fn target_strip(strip: &[i64], spots: &[&Spot]) -> Vec<i64> {
    let mut slots: Vec<Option<i64>> = vec![None; strip.len()];
    for spot in spots {
        let start = (spot.index.max(0) as usize).min(strip.len().saturating_sub(1));
        let free = (start..strip.len())
            .chain((0..start).rev())
            .find(|&i| slots[i].is_none());
        if let Some(i) = free {
            slots[i] = Some(spot.tab_id);
        }
    }
    let placed: Vec<i64> = slots.iter().flatten().copied().collect();
    let mut others = strip.iter().filter(|id| !placed.contains(id));
    slots
        .into_iter()
        .map(|slot| slot.or_else(|| others.next().copied()))
        .collect::<Option<Vec<i64>>>()
        .unwrap_or_else(|| strip.to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tab_state::NO_GROUP;

    fn tab(id: i64, window_id: i64, index: i64) -> Tab {
        Tab {
            id,
            window_id,
            index,
            url: String::new(),
            title: String::new(),
            active: false,
            pinned: false,
            muted: false,
            audible: false,
            discarded: false,
            group_id: NO_GROUP,
            last_accessed: 0.0,
            highlighted: false,
            incognito: false,
        }
    }

    fn spot(tab_id: i64, window_id: i64, index: i64) -> Spot {
        Spot {
            tab_id,
            window_id,
            index,
        }
    }

    /// Applies the moves as Firefox does (the tab ends at `index`).
    fn apply(tabs: &[Tab], moves: &[Move]) -> BTreeMap<i64, Vec<i64>> {
        let mut strips: BTreeMap<i64, Vec<i64>> = BTreeMap::new();
        for t in tabs {
            strips.entry(t.window_id).or_default().push(t.id);
        }
        for m in moves {
            let from = *strips
                .iter()
                .find(|(_, ids)| ids.contains(&m.tab_id))
                .unwrap()
                .0;
            strips.get_mut(&from).unwrap().retain(|x| *x != m.tab_id);
            let to = strips.entry(m.window_id.unwrap_or(from)).or_default();
            let at = (m.index as usize).min(to.len());
            to.insert(at, m.tab_id);
        }
        strips.retain(|_, ids| !ids.is_empty());
        strips
    }

    #[test]
    fn tabs_in_place_need_no_move() {
        let tabs = [tab(1, 1, 0), tab(2, 1, 1), tab(3, 1, 2)];
        assert!(plan_moves(&tabs, &[spot(2, 1, 1), spot(3, 1, 2)], &[]).is_empty());
    }

    #[test]
    fn moved_tabs_go_back_and_others_keep_their_order() {
        // 4 and 5 belong at 0 and 2; they were moved to the end.
        let tabs = [
            tab(1, 1, 0),
            tab(2, 1, 1),
            tab(3, 1, 2),
            tab(4, 1, 3),
            tab(5, 1, 4),
        ];
        let moves = plan_moves(&tabs, &[spot(4, 1, 0), spot(5, 1, 2)], &[]);
        assert_eq!(apply(&tabs, &moves)[&1], [4, 1, 5, 2, 3]);
        assert_eq!(moves.len(), 2);
    }

    #[test]
    fn only_the_named_tabs_move() {
        // 5 and 6 were moved to the front; putting them back must not
        // move 2, 3 or 4 (a move could take them out of a group).
        let tabs = [
            tab(1, 1, 0),
            tab(6, 1, 1),
            tab(5, 1, 2),
            tab(2, 1, 3),
            tab(3, 1, 4),
            tab(4, 1, 5),
        ];
        let moves = plan_moves(&tabs, &[spot(5, 1, 4), spot(6, 1, 5)], &[]);
        assert_eq!(apply(&tabs, &moves)[&1], [1, 2, 3, 4, 5, 6]);
        assert!(
            moves.iter().all(|m| m.tab_id == 5 || m.tab_id == 6),
            "{moves:?}"
        );
    }

    #[test]
    fn tabs_come_back_from_another_window() {
        let tabs = [tab(1, 1, 0), tab(2, 1, 1), tab(3, 2, 0), tab(4, 2, 1)];
        let moves = plan_moves(&tabs, &[spot(4, 1, 1)], &[]);
        let strips = apply(&tabs, &moves);
        assert_eq!(strips[&1], [1, 4, 2]);
        assert_eq!(strips[&2], [3]);
    }

    #[test]
    fn a_window_is_never_emptied_and_gone_windows_are_ignored() {
        let tabs = [tab(1, 1, 0), tab(2, 2, 0)];
        assert!(plan_moves(&tabs, &[spot(2, 1, 0)], &[]).is_empty());
        assert!(plan_moves(&tabs, &[spot(1, 9, 0)], &[]).is_empty());
    }

    #[test]
    fn a_window_the_change_opened_may_be_emptied() {
        let tabs = [tab(1, 1, 0), tab(2, 2, 0)];
        let moves = plan_moves(&tabs, &[spot(2, 1, 1)], &[2]);
        assert_eq!(apply(&tabs, &moves)[&1], [1, 2]);
    }

    #[test]
    fn any_permutation_is_restored() {
        // Every order of five tabs, each put back to 0..5 in place.
        let ids = [1, 2, 3, 4, 5];
        let mut order = ids;
        let mut count = 0;
        permute(&mut order, 0, &mut |perm| {
            let tabs: Vec<Tab> = perm
                .iter()
                .enumerate()
                .map(|(i, id)| tab(*id, 7, i as i64))
                .collect();
            let spots: Vec<Spot> = ids
                .iter()
                .enumerate()
                .map(|(i, id)| spot(*id, 7, i as i64))
                .collect();
            let moves = plan_moves(&tabs, &spots, &[]);
            assert_eq!(apply(&tabs, &moves)[&7], ids, "from {perm:?}");
            assert!(moves.len() < ids.len(), "{perm:?}: {moves:?}");
            count += 1;
        });
        assert_eq!(count, 120);
    }

    fn permute(v: &mut [i64; 5], k: usize, f: &mut impl FnMut(&[i64; 5])) {
        if k == v.len() {
            f(v);
            return;
        }
        for i in k..v.len() {
            v.swap(k, i);
            permute(v, k + 1, f);
            v.swap(k, i);
        }
    }
}
