//! Tabs by how long they have gone unused: "tabs I haven't used in a
//! week", "older than two days", "the stale tabs".

use super::super::text::loose_number;
use super::words::*;

/// What people say they have not done to a tab they call unused.
pub(super) const USED: &[&str] = &[
    "used", "use", "touched", "touch", "looked", "look", "opened", "open", "visited", "visit",
    "viewed", "view", "seen", "see", "checked", "check", "read", "selected", "accessed",
];

/// Whether the words pick tabs by how long they have gone unused.
pub fn says_idle(w: &[String]) -> bool {
    idle(w).is_some()
}

/// How long a tab has gone unused, and the words before that: "the
/// youtube tabs [older than two days]", "tabs [I haven't used in a while]".
pub(super) fn idle(w: &[String]) -> Option<(&[String], f64)> {
    const DAY: f64 = 86_400_000.0;
    // "a while" has no figure; a week is what tab tools call stale.
    const A_WHILE: f64 = 7.0 * DAY;
    const MARKERS: &[&[&str]] = &[
        &["older", "than"],
        &["unused", "for"],
        &["unused", "in"],
        &["idle", "for"],
        &["inactive", "for"],
        &["untouched", "for"],
        &["untouched", "in"],
    ];
    const NOT: &[&[&str]] = &[
        &["i", "haven't"],
        &["i", "have", "not"],
        &["i", "havent"],
        &["i've", "not"],
        &["you", "haven't"],
        &["you", "have", "not"],
        // Asked: "which tabs haven't I used in a day".
        &["haven't", "i"],
        &["have", "i", "not"],
        &["haven't", "been"],
        &["have", "not", "been"],
        &["hasn't", "been"],
        &["not"],
    ];
    // "the old tabs", "stale tabs": old enough to have gone unused a while.
    const OLD: &[&str] = &["old", "stale", "ancient"];
    if let [before @ .., old, tabs] = w {
        if OLD.contains(&old.as_str()) && ["tabs", "ones"].contains(&tabs.as_str()) {
            return Some((before, A_WHILE));
        }
    }
    let mut cut = None;
    for i in 0..w.len() {
        let rest = &w[i..];
        if let Some(after) = MARKERS.iter().find_map(|m| starts(rest, m)) {
            cut = Some((i, after));
            break;
        }
        if let Some(after) = NOT.iter().find_map(|n| starts(rest, n)) {
            let after = strip_leading(after, &["been"]);
            if after.first().is_some_and(|x| USED.contains(&x.as_str())) {
                let after = strip_leading(&after[1..], &["at", "it", "them"]);
                if let Some(after) = verb(after, &[&["in"], &["for"], &["since"]]) {
                    cut = Some((i, after));
                    break;
                }
                // "tabs I haven't looked at today".
                if after.first().is_some_and(|x| x == "today") {
                    cut = Some((i, after));
                    break;
                }
            }
        }
    }
    let (i, span) = cut?;
    // Words like "that" and "which" before the clause say nothing.
    let before = &w[..i];
    let before = match before.last().map(String::as_str) {
        Some("that" | "which" | "i've" | "i") => &before[..before.len() - 1],
        _ => before,
    };
    let span = strip_leading(
        span,
        &[
            "over", "more", "than", "at", "least", "the", "last", "past", "a", "an",
        ],
    );
    let ms = match span {
        [x] if ["while", "ages", "age"].contains(&x.as_str()) => A_WHILE,
        // Unused for a day, so surely not used today: midnight is not known
        // here, and a day back always reaches past it.
        [x] if x == "today" => DAY,
        // "since yesterday" (and "since last week", "last" gone above):
        // at least a day, a week.
        [x] if x == "yesterday" => DAY,
        [x, y] if x == "long" && y == "time" => A_WHILE,
        // "a week", "an hour" (the article is gone), "the last day".
        [unit] => unit_ms(unit)?,
        [n, unit] => loose_number(n)? as f64 * unit_ms(unit)?,
        _ => return None,
    };
    Some((before, ms))
}

fn unit_ms(unit: &str) -> Option<f64> {
    let minute = 60_000.0;
    Some(match unit.trim_end_matches('s') {
        "minute" | "min" => minute,
        "hour" => 60.0 * minute,
        "day" => 24.0 * 60.0 * minute,
        "week" => 7.0 * 24.0 * 60.0 * minute,
        "month" => 30.0 * 24.0 * 60.0 * minute,
        _ => return None,
    })
}
