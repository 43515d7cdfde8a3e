//! Spoken commands, mended: what Whisper mishears in commands and names,
//! turned back into what was meant. Only for speech, and (but for a few
//! systematic confusions) only when the words as heard mean nothing, so a
//! typed command, and a spoken one heard right, run exactly as before.
//!
//! Three kinds of slips, measured on the spoken-command corpus with real
//! tiny.en and base weights:
//! - command words heard as other words ("and group" for "ungroup", "new
//!   to" for "mute", "but mark" for "bookmark", "dispar" for "discard");
//! - "tab" heard as "time", "tag", "term", "tam" or glued to the word
//!   before ("drotab");
//! - names spelled by sound ("jithab", "jessop" for GitHub; "yira", "year
//!   a" for Jira): matched against the open tabs' sites by a sound key.

mod command_words;
mod confusions;
mod names;
#[cfg(test)]
mod tests;

use super::{parse, sites};
use crate::tab_state::State;
pub use command_words::verb_inflected;
use command_words::{and_verbs, glued_verbs, phrases, tab_words, verb};
pub use confusions::always;
pub(super) use names::{by_sound, names};

/// What to try, best first, when the words of a spoken command mean
/// nothing: the command words mended, then names matched by sound.
pub fn mends(words: &[String], state: &State) -> Vec<Vec<String>> {
    let mut out: Vec<Vec<String>> = Vec::new();
    let mut push = |w: Vec<String>| {
        if w.as_slice() != words && !out.contains(&w) {
            out.push(w);
        }
    };
    let names = names(state);
    let fixed = command_words_mended(words, &names);
    for base in [&fixed, &words.to_vec()] {
        push(base.clone());
        let once = by_sound(base, &names);
        for (_, candidate) in &once {
            push(candidate.clone());
        }
        // Two names heard by sound ("group Linky den and chat" for
        // LinkedIn and ChatGPT): both mended, where each sounds just like
        // its name (a name heard right is never replaced).
        for (_, candidate) in once.iter().filter(|(distance, _)| *distance == 0.0) {
            let twice = by_sound(candidate, &names);
            for (_, candidate) in twice.into_iter().take_while(|(d, _)| *d == 0.0) {
                push(candidate);
            }
        }
    }
    if let Some(site) = site_then_noise(words, &names) {
        push(site);
    }
    out
}

/// The one mend as sure as hearing the audio again, if there is one: the
/// command words mended, and a single run of words that sounds exactly
/// like one name of the tabs ("jithup" for GitHub: the same sound key).
/// Where it sounds exactly like several ("jithup" is YouTube's key too),
/// the one spelled clearly closest is as sure; else hearing guided picks
/// between them, and Firefox's float rounding was seen to flip its choice
/// from run to run ("switch to the YouTube tab" for "switch to the jithup
/// tab").
pub fn sure_mend(words: &[String], state: &State) -> Option<Vec<String>> {
    let names = names(state);
    let fixed = command_words_mended(words, &names);
    let heard = fixed.join(" ");
    let mut exact: Vec<(usize, Vec<String>)> = by_sound(&fixed, &names)
        .into_iter()
        .take_while(|(distance, _)| *distance == 0.0)
        .map(|(_, candidate)| (strsim::levenshtein(&candidate.join(" "), &heard), candidate))
        .collect();
    exact.sort_by_key(|(edits, _)| *edits);
    let ((closest, candidate), others) = exact.split_first()?;
    let clearly = others
        .first()
        .is_none_or(|(next, _)| closest + SPELLED_CLOSER <= *next);
    clearly.then(|| candidate.clone())
}

/// Letters fewer to change than for any other name that sounds the same,
/// for [`sure_mend`] to take the closest: "jithup" is 2 from "github" and
/// 5 from "youtube".
const SPELLED_CLOSER: usize = 2;

pub(super) fn command_words_mended(words: &[String], names: &[String]) -> Vec<String> {
    glued_verbs(&and_verbs(&phrases(&tab_words(&verb(words), names))), names)
}

/// "open Wikipedia, that's hard" (for "wikipedia dot org"): opening a site
/// by name, with words after it that mean nothing, was opening its address
/// (a known site's own, else the name as the tabs know it). Not when the
/// name is already an address.
fn site_then_noise(words: &[String], names: &[String]) -> Option<Vec<String>> {
    let [verb, name, _, ..] = words else {
        return None;
    };
    // An address heard as written ("docs.rs", then "crd" for "slash
    // serde") had its words after it said as a path: opening the site
    // alone would open some other page.
    if !parse::open::VERBS.contains(&verb.as_str()) || sites::is_address(name) {
        return None;
    }
    let address = match sites::by_name(name) {
        Some(site) => site.places.first()?.to_string(),
        None if names.contains(name) => name.clone(),
        None => return None,
    };
    Some(vec![verb.clone(), address])
}
