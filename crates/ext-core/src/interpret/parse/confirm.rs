//! Answers to a question: "yes", "yeah do it", "no thanks", "never mind".
//! The background page acts on them (a plan waiting for "yes").

use super::intent::Intent;
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &[];

/// How its commands are said, to hear a misheard command again guided to
/// them (see `vocabulary::command_phrases`): `{tab}`, `{group}`, `{site}`,
/// `{domain}`, `{color}` and `{number}` stand for every such name.
pub const PHRASES: &[&str] = &["yes", "no", "yes please", "cancel"];

pub fn parse(w: Words) -> Parsed {
    Ok(short_answer(w))
}

const YES: &[&str] = &[
    "yes",
    "yeah",
    "yep",
    "yup",
    "confirm",
    "confirmed",
    "sure",
    "ok",
    "okay",
    "affirmative",
    "proceed",
    "correct",
    "absolutely",
];

const NO: &[&str] = &["no", "nope", "cancel", "nah", "nevermind", "abort", "don't"];

/// "yes", "yeah do it", "yes close them", "no thanks", "never mind": an
/// answer to a question, not a command of its own.
pub fn short_answer(w: Words) -> Option<Intent> {
    // Words that may follow a yes without making it a new command.
    const AFTER_YES: &[&str] = &[
        "please",
        "do",
        "it",
        "go",
        "ahead",
        "close",
        "them",
        "those",
        "that",
        "all",
        "sure",
        "i'm",
        "im",
        "confirm",
        "confirmed",
        "yes",
        "proceed",
        "and",
        "of",
        "the",
        "tabs",
        "absolutely",
        "ok",
        "okay",
        "that's",
        "thats",
        "right",
        "fine",
        "i",
        "am",
        "thanks",
    ];
    const AFTER_NO: &[&str] = &[
        "thanks", "thank", "you", "don't", "do", "it", "that", "please", "cancel", "stop", "wait",
        "never", "mind", "keep", "them", "no", "and",
    ];
    let first = w.first()?.as_str();
    let rest = &w[1..];
    let only = |allowed: &[&str]| rest.iter().all(|x| allowed.contains(&x.as_str()));
    if is(w, &["do", "it"]) || is(w, &["go", "ahead"]) || (YES.contains(&first) && only(AFTER_YES))
    {
        return Some(Intent::Yes);
    }
    let no = starts(w, &["never", "mind"]).is_some() || (NO.contains(&first) && only(AFTER_NO));
    no.then_some(Intent::No)
}
