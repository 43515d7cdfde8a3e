//! Playing and pausing what a page plays: "pause the video", "pause
//! youtube", "resume the music", "play the lofi tab again".

use super::intent::{Intent, Selector, Target};
use super::target::target;
use super::window_scope::{scope_of, without_scope};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses
/// them). Not "play": "play some jazz" is said to other assistants.
pub const VERBS: &[&str] = &["pause", "unpause", "resume"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &[
    "pause the video",
    "pause the music",
    "pause {tab}",
    "resume the video",
    "resume {tab}",
];

pub fn parse(w: Words) -> Parsed {
    Ok(media(w))
}

const PAUSE: &[&[&str]] = &[&["pause"]];

const PLAY: &[&[&str]] = &[
    &["unpause"],
    &["resume", "playing"],
    &["resume"],
    &["continue", "playing"],
    &["keep", "playing"],
    &["play"],
    &["start", "playing"],
];

/// Words that say "whatever plays" rather than which tab: "pause the
/// video", "resume the music", "pause it".
const WHATEVER_PLAYS: &[&str] = &[
    "the",
    "video",
    "videos",
    "music",
    "song",
    "songs",
    "audio",
    "sound",
    "playback",
    "it",
    "again",
    "everything",
    "all",
    "media",
    "movie",
    "podcast",
    "track",
    "please",
    "now",
    "playing",
];

/// "pause this", "pause this video", "resume the video here": the tab in
/// front, not every tab that plays.
const IN_FRONT: &[&str] = &["this", "here", "current", "tab", "page"];

fn media(w: Words) -> Option<Intent> {
    // "stop the video", "stop playing": a pause. Not "stop" alone (stop
    // loading) nor "stop the music", which mutes, as it always has.
    if let Some(rest) = starts(w, &["stop"]) {
        let says_video = mentions(rest, &["video", "videos", "playing", "playback", "movie"]);
        if says_video && all_in(rest, WHATEVER_PLAYS) {
            return Some(Intent::Media {
                target: None,
                play: false,
            });
        }
    }
    let (rest, play) = match (verb(w, PAUSE), verb(w, PLAY)) {
        (Some(rest), _) => (rest, false),
        (None, Some(rest)) => (rest, true),
        (None, None) => return None,
    };
    // "pause" alone, "pause the video": whatever plays. "resume the
    // music": what was paused, else the page of music or video that is
    // silent, wherever it is (`Selector::All`); "play", "play the video":
    // what was paused, else the page in front.
    if all_in(rest, WHATEVER_PLAYS) {
        const LISTENED_TO: &[&str] = &["music", "song", "songs", "podcast", "track", "audio"];
        let target = (play && mentions(rest, LISTENED_TO)).then(|| Target::of(Selector::All));
        return Some(Intent::Media { target, play });
    }
    // "pause the video in window 2": whatever plays there; "resume the
    // music in window 2": whatever was paused there.
    if let Some(scope) = scope_of(rest) {
        if all_in(&without_scope(rest), WHATEVER_PLAYS) {
            let target = Target {
                scope,
                ..Target::of(if play {
                    Selector::All
                } else {
                    Selector::Audible
                })
            };
            return Some(Intent::Media {
                target: Some(target),
                play,
            });
        }
    }
    let in_front =
        |x: &String| IN_FRONT.contains(&x.as_str()) || WHATEVER_PLAYS.contains(&x.as_str());
    if mentions(rest, &["this", "here", "current"]) && rest.iter().all(in_front) {
        return Some(Intent::Media {
            target: Some(Target::active()),
            play,
        });
    }
    let kept: Vec<String> = rest
        .iter()
        .filter(|x| !["again", "please", "playing", "now"].contains(&x.as_str()))
        .cloned()
        .collect();
    let t = target(&kept);
    // "play some jazz" names no tab: not ours to take.
    if play && !matches!(t.selector, Selector::Named(_) | Selector::Positions(_)) {
        return None;
    }
    Some(Intent::Media {
        target: Some(t),
        play,
    })
}
