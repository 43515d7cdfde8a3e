//! What Whisper gets wrong so systematically that the heard words are
//! rewritten before anything else, whether or not they mean something:
//! "and group" for "ungroup", "tabs my site", "this time" for "this tab".

use super::command_words::{glued_verbs, replace_anywhere, replace_start, TAB};
use crate::interpret::parse;
use crate::interpret::sounds::{name_allowance, sound_edits_allowing, sound_key};

/// Confusions Whisper makes so systematically that the heard words are
/// rewritten before anything else (the helper's baseline: no voice got
/// "ungroup" or "undo that" right). A typed command never starts so.
const ALWAYS: &[(&[&str], &[&str])] = &[
    (&["the", "mute"], &["unmute"]),
    (&["the", "pin"], &["unpin"]),
    (&["the", "group"], &["ungroup"]),
    (&["and", "group"], &["ungroup"]),
    (&["then", "group"], &["ungroup"]),
    (&["in", "group"], &["ungroup"]),
    (&["and", "do", "that"], &["undo"]),
    (&["and", "do", "it"], &["undo"]),
    (&["and", "do"], &["undo"]),
    (&["don't", "do", "that"], &["undo", "that"]),
    (&["and", "pin"], &["unpin"]),
    (&["and", "pinned"], &["unpin"]),
    (&["and", "mute"], &["unmute"]),
];

/// Words heard for others anywhere, even where the words as heard mean
/// something ("group my tabs my site" would group tabs named "my site").
const ALWAYS_WORDS: &[(&[&str], &[&str])] = &[
    (&["tabs", "my", "site"], &["tabs", "by", "site"]),
    (&["tabs", "by", "side"], &["tabs", "by", "site"]),
    // "scrolls on the top": the short "to" heard as "on"; nothing is "on"
    // the top or bottom of a page or a window's tabs.
    (&["on", "the", "top"], &["to", "the", "top"]),
    (&["on", "the", "bottom"], &["to", "the", "bottom"]),
];

/// Whole utterances heard for a short command ("undo" as "and you").
const WHOLE: &[(&[&str], &[&str])] = &[(&["and", "you"], &["undo"]), (&["end", "you"], &["undo"])];

/// The systematic confusions rewritten (see [`ALWAYS`]), of a command
/// said over tabs with these `names`.
pub fn always(words: &[String], names: &[String]) -> Vec<String> {
    if let Some((_, meant)) = WHOLE.iter().find(|(heard, _)| *heard == words) {
        return meant.iter().map(|m| m.to_string()).collect();
    }
    let words = glued_after_un(words, names);
    let words = replace_start(&words, ALWAYS).unwrap_or(words);
    let words = engine_by_sound(engine_at_end(replace_anywhere(
        &this_tab(words),
        ALWAYS_WORDS,
    )));
    bookmark_a_tab(words)
}

/// "close this time" (said "close this tab") closed The New York Times:
/// after "this", a word Whisper writes for "tab" is "tab", though a tab's
/// title has it. Nobody says "this times" for a tab of that name.
fn this_tab(mut words: Vec<String>) -> Vec<String> {
    for i in 1..words.len() {
        if words[i - 1] == "this" && TAB.contains(&words[i].as_str()) {
            words[i] = "tab".into();
        }
    }
    words
}

/// "and Pintrello" (said "unpin trello"): the "un" heard as a word of its
/// own, and the command word run into the name. Split, so that "and pin"
/// reads as "unpin"; else "and" is dropped as a filler, and "pin trello"
/// pins what is pinned already.
fn glued_after_un(words: &[String], names: &[String]) -> Vec<String> {
    match words {
        [first, second, rest @ ..] if ALWAYS.iter().any(|(heard, _)| heard[0] == first) => {
            let mut out = vec![first.clone()];
            out.extend(glued_verbs(std::slice::from_ref(second), names));
            out.extend(rest.iter().cloned());
            out
        }
        _ => words.to_vec(),
    }
}

/// "search with kipedia for borrow checker": a search whose words between
/// "search" and "for" name no engine but sound like one searches it.
/// Whisper splits a name it does not know into words that sound like it
/// ("with kipedia"), as it does the tabs' names; as with those, the words
/// together are matched by their sound key. Only there: words between
/// "search" and "for" are never the query.
fn engine_by_sound(mut words: Vec<String>) -> Vec<String> {
    let Some(for_at) = words.iter().position(|w| w == "for") else {
        return words;
    };
    if words[0] != "search" || !(2..=4).contains(&for_at) {
        return words;
    }
    let span = &words[1..for_at];
    if span
        .iter()
        .any(|w| parse::search::ENGINE_WORDS.contains(&w.as_str()))
    {
        return words;
    }
    // Sound alone: the place says an engine was named, and the letters of
    // a name heard as several words are far from its own ("with kpd").
    let heard = span.concat();
    if sound_key(&heard).chars().count() < 3 {
        return words;
    }
    let engine = parse::search::ENGINE_WORDS
        .iter()
        .copied()
        .filter_map(|engine| {
            let (edits, _) = sound_edits_allowing(&heard, engine, name_allowance)?;
            Some((edits, engine))
        })
        .min_by_key(|(edits, _)| *edits)
        .map(|(_, engine)| engine);
    if let Some(engine) = engine {
        words.splice(1..for_at, [engine.to_string()]);
    }
    words
}

/// "Bookmarks the Figma tab" for "bookmark the Figma tab": the "th" of
/// "the" runs into "bookmark" as an "s", and the words searched the
/// bookmarks for "figma tab". "Bing, look at it, tab" for "pin the ChatGPT
/// tab" searched Bing: "b" is how Whisper hears a "p" at the start ("bin"
/// for "pin"). Nobody searches the bookmarks or the web for a tab: a first
/// clause that starts with "bookmarks" or "bing" and ends on "tab" (or
/// "tabs", for bookmarks) bookmarks or pins it, unless it says what to
/// look for ("bookmarks about tabs").
fn bookmark_a_tab(mut words: Vec<String>) -> Vec<String> {
    // Whisper's commas are pauses, not clauses.
    let clause: Vec<&str> = words
        .iter()
        .map(String::as_str)
        .take_while(|w| *w != "and")
        .filter(|w| *w != ",")
        .collect();
    let verb = match clause.first() {
        Some(&"bookmarks") => "bookmark",
        Some(&"bing") => "pin",
        _ => return words,
    };
    let ends = if verb == "pin" {
        &["tab"][..]
    } else {
        &["tab", "tabs"][..]
    };
    if clause.len() >= 3
        && !clause
            .iter()
            .any(|w| parse::bookmarks::TOPIC_WORDS.contains(w))
        && clause.last().is_some_and(|w| ends.contains(w))
    {
        words[0] = verb.into();
    }
    words
}

/// "look up tokio and Wikipedia": a search that ends on a search engine
/// after "and" (or "in", "an") is a search on it; Whisper hears the short
/// "on" as those.
fn engine_at_end(mut words: Vec<String>) -> Vec<String> {
    let search = words
        .first()
        .is_some_and(|w| parse::search::VERBS.contains(&w.as_str()));
    let n = words.len();
    if search
        && n >= 4
        && ["and", "in", "an"].contains(&words[n - 2].as_str())
        && parse::search::ENGINE_WORDS.contains(&words[n - 1].as_str())
    {
        words[n - 2] = "on".into();
    }
    words
}
