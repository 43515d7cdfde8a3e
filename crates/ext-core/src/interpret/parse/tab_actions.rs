//! What is done to tabs in place: mute and unmute, pin and unpin,
//! reload, unload (discard) and duplicate.

use super::intent::{Intent, Scope, Selector, Target};
use super::target::{target, target_or_active};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[
    "mute",
    "unmute",
    "silence",
    "hush",
    "shush",
    "pin",
    "unpin",
    "reload",
    "refresh",
    "discard",
    "unload",
    "suspend",
    "hibernate",
    "sleep",
    "snooze",
    "duplicate",
    "clone",
    "free",
    "turn",
];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "mute this tab",
    "mute {tab}",
    "mute the {tab} tab",
    "mute the {tab} tabs",
    "mute everything except this",
    "mute the tab that's playing",
    "mute all tabs",
    "stop the music",
    "unmute this tab",
    "unmute {tab}",
    "unmute the {tab} tab",
    "unmute all tabs",
    "pin this tab",
    "pin {tab}",
    "pin the {tab} tab",
    "unpin this tab",
    "unpin {tab}",
    "unpin the {tab} tab",
    "reload the {tab} tab",
    "discard the background tabs",
    "discard the {tab} tab",
    "duplicate this tab",
    "duplicate the {tab} tab",
];

pub fn parse(w: Words) -> Parsed {
    Ok(tab_actions(w))
}

fn tab_actions(w: Words) -> Option<Intent> {
    if silence_the_noise(w) {
        return Some(Intent::Mute(Target::of(Selector::Audible), true));
    }
    // "shut up youtube" silences it; it is no "shut".
    if let Some(rest) = starts(w, &["shut", "up"]) {
        return Some(Intent::Mute(target_or_active(rest), true));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["unmute"],
            &["turn", "on", "the", "sound", "of"],
            &["turn", "on", "sound", "for"],
            &["turn", "the", "sound", "back", "on", "for"],
        ],
    ) {
        return Some(Intent::Mute(target_or_active(rest), false));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["mute"],
            &["silence"],
            &["quiet"],
            &["hush"],
            &["shush"],
            &["turn", "off", "the", "sound", "of"],
            &["turn", "off", "the", "sound", "on"],
            &["turn", "off", "sound", "for"],
            &["turn", "off", "sound", "on"],
            &["turn", "the", "sound", "off", "on"],
            &["turn", "the", "sound", "off", "for"],
        ],
    ) {
        return Some(Intent::Mute(target_or_active(rest), true));
    }
    if let Some(rest) = verb(w, &[&["unpin"], &["unstick"]]) {
        return Some(Intent::Pin(target_or_active(rest), false));
    }
    if let Some(rest) = verb(w, &[&["pin"], &["stick"]]) {
        // "pin slack to the left": pinned tabs go to the left anyway.
        let rest = [
            &["to", "the", "left"][..],
            &["on", "the", "left"],
            &["to", "the", "start"],
            &["to", "the", "front"],
            &["to", "the", "tab", "bar"],
            &["to", "the", "top"],
        ]
        .iter()
        .find_map(|place| ends(rest, place))
        .unwrap_or(rest);
        return Some(Intent::Pin(target_or_active(rest), true));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["hard", "reload"],
            &["hard", "refresh"],
            &["force", "reload"],
        ],
    ) {
        return Some(Intent::Reload(target_or_active(rest), true));
    }
    if let Some(rest) = verb(w, &[&["reload"], &["refresh"], &["update"]]) {
        let hard = rest.iter().any(|x| x == "cache" || x == "hard");
        let rest: Vec<String> = rest
            .iter()
            .filter(|x| {
                !["without", "cache", "the", "hard", "bypassing"].contains(&x.as_str())
                    || x.as_str() == "the"
            })
            .cloned()
            .collect();
        return Some(Intent::Reload(target_or_active(&rest), hard));
    }
    if let Some(rest) = verb(
        w,
        &[
            &["discard"],
            &["unload"],
            &["suspend"],
            &["hibernate"],
            &["sleep"],
            &["put", "to", "sleep"],
            &["snooze"],
            &["free", "up", "memory", "from"],
            &["free", "memory", "from"],
        ],
    ) {
        let rest: Vec<String> = rest
            .iter()
            .filter(|x| !["to", "sleep"].contains(&x.as_str()))
            .cloned()
            .collect();
        let t = if rest.is_empty() {
            Target {
                scope: Scope::Everywhere,
                ..Target::of(Selector::Others)
            }
        } else {
            target(&rest)
        };
        return Some(Intent::Discard(t));
    }
    if is(w, &["free", "up", "memory"]) || is(w, &["free", "memory"]) || is(w, &["save", "memory"])
    {
        return Some(Intent::Discard(Target::of(Selector::Others)));
    }
    // "put the jira tab to sleep"
    if let Some(rest) = verb(w, &[&["put"], &["send"]]) {
        if let Some(what) = rest.strip_suffix(&["to".to_string(), "sleep".to_string()]) {
            return Some(Intent::Discard(target_or_active(what)));
        }
    }
    if let Some(rest) = verb(
        w,
        &[
            &["duplicate"],
            &["clone"],
            &["copy"],
            &["make", "a", "copy", "of"],
            &["make", "a", "duplicate", "of"],
        ],
    ) {
        return Some(Intent::Duplicate(target_or_active(rest)));
    }
    None
}

/// "shut up", "quiet", "stop the music": whatever is playing, not the tab
/// in front (which is mostly not the one making the noise).
fn silence_the_noise(w: Words) -> bool {
    const BARE: &[&[&str]] = &[
        &["shut", "up"],
        &["quiet"],
        &["be", "quiet"],
        &["silence"],
        &["hush"],
        &["shush"],
    ];
    const NOISE: &[&str] = &["music", "sound", "sounds", "noise", "audio"];
    if BARE.iter().any(|p| is(w, p)) {
        return true;
    }
    // "stop the music", "stop all sounds", "kill that noise".
    const SAY_NOTHING: &[&str] = &["the", "all", "that", "this", "any", "of"];
    verb(w, &[&["stop"], &["kill"], &["turn", "off"], &["silence"]]).is_some_and(
        |rest| matches!(besides(rest, SAY_NOTHING).as_slice(), [x] if NOISE.contains(x)),
    )
}
