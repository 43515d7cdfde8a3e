//! "stop listening", "turn off the microphone": the voice stops until the
//! mic button or Alt+Shift+L starts it again.

use super::intent::Intent;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[];

/// None among the guided-hearing phrases: a phrase there changes what
/// guided hearing makes of other commands (see docs/speech.md).
pub const PHRASES: &[&str] = &[];

pub fn parse(w: Words) -> Parsed {
    Ok(stop_listening(w).then_some(Intent::StopListening))
}

/// The whole command says to stop listening, and nothing else.
fn stop_listening(w: Words) -> bool {
    const SAID: &[&[&str]] = &[
        &["stop", "listening"],
        &["stop", "listening", "to", "me"],
        &["stop", "listening", "for", "now"],
        &["stop", "the", "microphone"],
        &["stop", "the", "mic"],
        &["turn", "off", "the", "microphone"],
        &["turn", "off", "the", "mic"],
        &["turn", "the", "microphone", "off"],
        &["turn", "the", "mic", "off"],
        &["switch", "off", "the", "microphone"],
        &["switch", "off", "the", "mic"],
        &["turn", "off", "voice", "control"],
        &["stop", "voice", "control"],
        &["mic", "off"],
        &["microphone", "off"],
    ];
    let w = ends(w, &["please"]).unwrap_or(w);
    SAID.iter().any(|said| is(w, said))
}
