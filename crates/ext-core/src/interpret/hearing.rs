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

use super::sounds::{name_allowance, sound_distance, sound_edits_allowing, sound_key};
use super::{parse, sites};
use crate::tab_state::State;

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
];

/// Whole utterances heard for a short command ("undo" as "and you").
const WHOLE: &[(&[&str], &[&str])] = &[(&["and", "you"], &["undo"]), (&["end", "you"], &["undo"])];

/// Command words as heard at the start of a command, and what they were.
/// Tried only when the words as heard mean nothing.
const VERBS: &[(&[&str], &[&str])] = &[
    (&["new", "to"], &["mute"]),
    (&["new", "time"], &["mute", "tab"]),
    (&["you", "tell"], &["mute"]),
    (&["newt"], &["mute"]),
    (&["new"], &["mute"]),
    (&["mutel"], &["mute"]),
    (&["muteless"], &["mute", "this"]),
    (&["nude"], &["mute"]),
    (&["moot"], &["mute"]),
    (&["been"], &["pin"]),
    (&["bin"], &["pin"]),
    (&["in"], &["pin"]),
    (&["at"], &["add"]),
    (&["pinless"], &["pin", "this"]),
    (&["pinching"], &["pin", "this"]),
    (&["but", "mark"], &["bookmark"]),
    (&["put", "mark"], &["bookmark"]),
    (&["let's", "mark"], &["bookmark"]),
    (&["boardmark"], &["bookmark"]),
    (&["bitmark"], &["bookmark"]),
    (&["putmark"], &["bookmark"]),
    (&["butmark"], &["bookmark"]),
    (&["dispar"], &["discard"]),
    (&["discord"], &["discard"]),
    (&["discount"], &["discard"]),
    (&["discover"], &["discard"]),
    (&["discovered"], &["discard"]),
    (&["discarto"], &["discard"]),
    (&["this", "card"], &["discard"]),
    (&["clued"], &["close"]),
    (&["closeness"], &["close", "this"]),
    (&["very", "loaded"], &["reload"]),
    (&["we'll", "load"], &["reload"]),
    (&["relode"], &["reload"]),
    (&["laps"], &["collapse"]),
    (&["scrolop"], &["scroll", "up"]),
    (&["go", "mac"], &["go", "back"]),
    (&["go", "bag"], &["go", "back"]),
    (&["endio"], &["undo"]),
    (&["undoontat"], &["undo"]),
    (&["you", "can", "do", "that"], &["undo", "that"]),
    (&["can", "do", "that"], &["undo", "that"]),
    (&["dooble"], &["google"]),
    (&["doogle"], &["google"]),
    (&["got", "a"], &["go", "to"]),
    (&["which", "to"], &["switch", "to"]),
    (&["switch", "togmail"], &["switch", "to", "gmail"]),
    (&["togmail"], &["to", "gmail"]),
];

/// Words heard for others anywhere in a command.
const WORDS: &[(&[&str], &[&str])] = &[
    (&["by", "side"], &["by", "site"]),
    (&["my", "site"], &["by", "site"]),
    (&["list", "tab"], &["this", "tab"]),
    (&["list", "page"], &["this", "page"]),
    (&["us", "to"], &["this", "to"]),
    (&["side"], &["site"]),
    (&["sight"], &["site"]),
    (&["route"], &["group"]),
];

/// "tab" and "tabs" as Whisper writes them in commands.
const TAB: &[&str] = &[
    "time", "tag", "tam", "term", "stab", "stag", "stem", "tub", "tad", "tap",
];
const TABS: &[&str] = &[
    "times", "tags", "terms", "temps", "tapas", "tams", "taps", "tubs",
];

/// Words that are never a name to fix by sound.
const NOT_NAMES: &[&str] = &[
    "the",
    "a",
    "an",
    "this",
    "that",
    "these",
    "those",
    "my",
    "all",
    "every",
    "tab",
    "tabs",
    "to",
    "in",
    "on",
    "of",
    "for",
    "and",
    "or",
    "with",
    "group",
    "groups",
    "window",
    "windows",
    "other",
    "close",
    "switch",
    "go",
    "open",
    "mute",
    "unmute",
    "pin",
    "unpin",
    "reload",
    "discard",
    "duplicate",
    "bookmark",
    "move",
    "search",
    "it",
    "is",
    "site",
    "page",
    "new",
    "start",
    "end",
    "left",
    "right",
    "except",
    "but",
    "not",
    "playing",
    "what",
    "which",
    "how",
    "many",
    "do",
    "i",
    "have",
    "by",
    "me",
    "up",
    "down",
    "back",
    "top",
    "bottom",
    "next",
    "previous",
    "last",
    "first",
    "yes",
    "no",
    "undo",
    "please",
    "red",
    "blue",
    "green",
];

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
        for (_, candidate) in by_sound(base, &names) {
            push(candidate);
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

/// Of `words`, the one `heard` sounds most like, if any is near enough
/// (see [`sound_distance`]).
fn closest_by_sound(
    heard: &str,
    words: impl Iterator<Item = &'static str>,
) -> Option<&'static str> {
    words
        .filter_map(|w| Some((sound_distance(heard, w)?, w)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
        .map(|(_, w)| w)
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

fn replace_start(words: &[String], table: &[(&[&str], &[&str])]) -> Option<Vec<String>> {
    table.iter().find_map(|(heard, meant)| {
        let fits = words.len() > heard.len() - usize::from(heard.len() == words.len())
            && heard.iter().zip(words).all(|(h, w)| h == w);
        fits.then(|| {
            meant
                .iter()
                .map(|m| m.to_string())
                .chain(words[heard.len()..].iter().cloned())
                .collect()
        })
    })
}

/// [`WORDS`] replaced wherever they are.
fn phrases(words: &[String]) -> Vec<String> {
    replace_anywhere(words, WORDS)
}

/// The first of `table`'s heard words found, replaced.
fn replace_anywhere(words: &[String], table: &[(&[&str], &[&str])]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        match replace_start(&words[i..], table) {
            Some(fixed) if fixed != words[i..] => {
                out.extend(fixed);
                return out;
            }
            _ => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// "Close Reddit, unswitch to Jira": "and" run into the next clause's
/// verb, as "un" (which "unpin" and "unmute" make Whisper expect). A word
/// after the first that is "un" and a command word, but no command word
/// itself, is "and" and that word.
fn and_verbs(words: &[String]) -> Vec<String> {
    let verbs = parse::command_verbs;
    let mut out = Vec::with_capacity(words.len() + 1);
    for (i, word) in words.iter().enumerate() {
        let verb = word
            .strip_prefix("un")
            .filter(|v| i > 0 && verbs().any(|known| known == *v))
            .filter(|_| !verbs().any(|known| known == word));
        match verb {
            Some(verb) => {
                out.push("and".to_string());
                out.push(verb.to_string());
            }
            None => out.push(word.clone()),
        }
    }
    out
}

/// "mute youtube and pinslack": a command word run into a tab's name,
/// split in two.
fn glued_verbs(words: &[String], names: &[String]) -> Vec<String> {
    let verbs = parse::command_verbs;
    let mut out = Vec::with_capacity(words.len() + 1);
    for word in words {
        let split = verbs().find_map(|verb| {
            let name = word.strip_prefix(verb)?;
            names
                .iter()
                .any(|n| n == name)
                .then(|| [verb.to_string(), name.to_string()])
        });
        match split {
            Some(parts) => out.extend(parts),
            None => out.push(word.clone()),
        }
    }
    out
}

fn verb(words: &[String]) -> Vec<String> {
    replace_start(words, VERBS)
        .or_else(|| verb_inflected(words))
        .or_else(|| verb_by_sound(words))
        .unwrap_or_else(|| words.to_vec())
}

/// A first word that is a command word with an ending Whisper added
/// ("Unpinned Gmail", "Muted YouTube", "Reloaded this tab"): the command
/// word. Whisper hears a clipped imperative as the past tense or a plural
/// often, whatever the voice, so this is a rule and not a list.
pub fn verb_inflected(words: &[String]) -> Option<Vec<String>> {
    first_word_as_verb(words, |first| {
        parse::command_verbs().find(|v| inflections(v).any(|form| form == first))
    })
}

/// `words` with a first word that is no command word replaced by the one
/// `verb_for` finds for it, if it finds one.
fn first_word_as_verb(
    words: &[String],
    verb_for: impl FnOnce(&str) -> Option<&'static str>,
) -> Option<Vec<String>> {
    let (first, rest) = words.split_first()?;
    if parse::command_verbs().any(|v| first == v) {
        return None;
    }
    let verb = verb_for(first)?;
    Some(
        std::iter::once(verb.to_string())
            .chain(rest.iter().cloned())
            .collect(),
    )
}

/// A verb's past tense, third person and "-ing" forms as English spells
/// them: "pinned", "muted", "closes", "reloading", "switched".
fn inflections(verb: &str) -> impl Iterator<Item = String> {
    let last = verb.chars().last().unwrap_or_default();
    let before_last = verb.chars().rev().nth(1).unwrap_or_default();
    let vowel = |c: char| "aeiou".contains(c);
    // "pin" → "pinned": one vowel, then one consonant, doubled (unless
    // unstressed: "opened", so both spellings).
    let doubled = !vowel(last)
        && !"wxy".contains(last)
        && vowel(before_last)
        && !vowel(verb.chars().rev().nth(2).unwrap_or('a'));
    let stem = verb.strip_suffix('e').unwrap_or(verb);
    let mut stems = vec![stem.to_string()];
    if doubled {
        stems.insert(0, format!("{verb}{last}"));
    }
    let s = if ["s", "x", "z", "ch", "sh"]
        .iter()
        .any(|e| verb.ends_with(e))
    {
        format!("{verb}es")
    } else {
        format!("{verb}s")
    };
    stems
        .into_iter()
        .flat_map(|stem| [format!("{stem}ed"), format!("{stem}ing")])
        .chain([s])
}

/// A first word that is no command word but sounds like one ("endo" and
/// "endu" for "undo"), replaced by it. (Two words heard for one are in
/// [`VERBS`]: run together, "endu that" would sound like "undo" too.)
fn verb_by_sound(words: &[String]) -> Option<Vec<String>> {
    first_word_as_verb(words, |first| {
        closest_by_sound(first, parse::command_verbs())
    })
}

/// Whether a word sounds like "tab" ("time", "town", "tag": a t, a
/// vowel, one consonant), or "tabs" with an s at the end.
fn sounds_like_tab(w: &str) -> Option<&'static str> {
    const NOT: &[&str] = &["the", "them", "then", "than", "this", "that", "to", "too"];
    if NOT.contains(&w) {
        return None;
    }
    let key = sound_key(w);
    let plural = key.len() >= 3 && key.ends_with('S');
    let stem = if plural {
        &key[..key.len() - 1]
    } else {
        &key[..]
    };
    // t, then a closed sound: time, town, tag, top, tub.
    let near = stem.len() == 2 && stem.starts_with('T') && "PMNK".contains(&stem[1..]);
    match (near, plural) {
        (true, false) => Some("tab"),
        (true, true) => Some("tabs"),
        _ => None,
    }
}

/// "tab" for its mishearings, and "drotab" split into "dro tab". Never a
/// name of the open tabs: "docs" sounds like "tabs", but "switch to the
/// docs tag" is the Google Docs tab, and "close the docs tag" read as
/// "close the tabs tab" closed every tab.
fn tab_words(words: &[String], names: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    for (i, w) in words.iter().enumerate() {
        if names.contains(w) {
            out.push(w.clone());
        // Not the first word: "time" can start a question.
        } else if i > 0 && TAB.contains(&w.as_str()) {
            out.push("tab".to_string());
        } else if i > 0 && TABS.contains(&w.as_str()) {
            out.push("tabs".to_string());
        } else if let Some(tab) = sounds_like_tab(w).filter(|_| i > 0 && w.len() <= 6) {
            out.push(tab.to_string());
        } else if w.len() > 5 && w.ends_with("tab") && !w.ends_with("stab") {
            out.push(w[..w.len() - 3].to_string());
            out.push("tab".to_string());
        } else {
            out.push(w.clone());
        }
    }
    out
}

/// One-word names of the open tabs' sites and groups (how people say them).
pub(super) fn names(state: &State) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    let mut add = |name: &str| {
        let name = name.to_lowercase();
        if name.chars().count() >= 3 && !names.contains(&name) {
            names.push(name);
        }
    };
    for t in &state.tabs {
        match sites::site_of(&t.url) {
            Some(site) => {
                for n in site.names.iter().filter(|n| !n.contains(' ')) {
                    add(n);
                }
            }
            None => add(&sites::display_name(&t.url)),
        }
        // The site a title names at its end ("Sprint board - Jira", "general
        // | Acme - Slack"): what people call a tab when its address does
        // not say (a self-hosted Jira).
        if let Some(site) = t
            .title
            .rsplit([' ', '|', '-', '–', '—', '·'])
            .find(|w| !w.is_empty())
        {
            let titled = t.title.trim_end_matches(site).trim_end();
            if titled.ends_with(['-', '|', '–', '—', '·'])
                && site.chars().all(char::is_alphanumeric)
            {
                add(site);
            }
        }
        // A title that spells the site's address in words ("The Verge" at
        // theverge.com) is its name: people say its last word.
        let spelled: String = t.title.split_whitespace().collect();
        if spelled.eq_ignore_ascii_case(&sites::display_name(&t.url)) {
            if let Some(last) = t.title.split_whitespace().last() {
                add(last);
            }
        }
    }
    for g in &state.groups {
        for w in g.title.split_whitespace() {
            add(w);
        }
    }
    names
}

/// Candidates with one run of up to three words replaced by a name that
/// sounds like it, closest first: a sound key may be one edit off for four
/// to six sounds, two for seven or more, none when shorter ("jithab" and
/// "github", "yira" and "jira" are near; "slack" and "stack" are not).
pub(super) fn by_sound(words: &[String], names: &[String]) -> Vec<(f32, Vec<String>)> {
    let mut found: Vec<(f32, Vec<String>)> = Vec::new();
    for start in 0..words.len() {
        for len in 1..=3.min(words.len() - start) {
            let span = &words[start..start + len];
            // A name may be heard as several words ("spoke of my" for
            // Spotify): small words inside, but it starts on a word that
            // can be a name, and never takes in "tab" or "group".
            let small =
                |w: &String| ["i", "a", "my", "of", "the", "to", "for"].contains(&w.as_str());
            let edge_ok = |w: &String, last: bool| {
                !NOT_NAMES.contains(&w.as_str()) || (last && len > 1 && small(w))
            };
            // A name heard right stays.
            if span.iter().any(|w| names.contains(w)) {
                continue;
            }
            if !edge_ok(&span[0], false)
                || !edge_ok(&span[len - 1], true)
                || span
                    .iter()
                    .any(|w| ["tab", "tabs", "group", "window"].contains(&w.as_str()))
            {
                continue;
            }
            let heard = span.concat();
            // "Switch to Chat" for ChatGPT: Whisper writes the part of a
            // run-together name that is a word, and drops the rest. The
            // start of one name alone, and long enough, is as sure as a
            // name that sounds the same.
            if let [only] = starting_with(&heard, names).as_slice() {
                let mut candidate = words[..start].to_vec();
                candidate.push((*only).clone());
                candidate.extend_from_slice(&words[start + len..]);
                found.push((0.0, candidate));
            }
            for name in names {
                if let Some(distance) = sound_distance(&heard, name) {
                    let mut candidate = words[..start].to_vec();
                    candidate.push(name.clone());
                    candidate.extend_from_slice(&words[start + len..]);
                    found.push((distance, candidate));
                }
            }
        }
    }
    found.sort_by(|a, b| a.0.total_cmp(&b.0));
    found
}

/// The names that start with `heard` and go on for two letters or more,
/// when it has four letters or more.
fn starting_with<'a>(heard: &str, names: &'a [String]) -> Vec<&'a String> {
    if heard.chars().count() < 4 {
        return Vec::new();
    }
    names
        .iter()
        .filter(|n| n.starts_with(heard) && n.len() >= heard.len() + 2)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::text::words;

    fn state() -> State {
        crate::interpret::test_state::tabs(
            &[
                ("https://github.com/tokio-rs/tokio", ""),
                ("https://acme.atlassian.net/jira/software", ""),
                ("https://open.spotify.com/playlist/1", ""),
                ("https://mail.google.com/mail/u/0/", ""),
                ("https://app.slack.com/client/T1", ""),
                ("https://docs.google.com/document/d/1", ""),
            ],
            &["News"],
        )
    }

    fn hearing_names() -> Vec<String> {
        vec!["trello".into(), "spotify".into()]
    }

    fn first(text: &str) -> String {
        mends(&words(text), &state())
            .first()
            .map(|w| w.join(" "))
            .unwrap_or_default()
    }

    fn any(text: &str, want: &str) -> bool {
        mends(&words(text), &state())
            .iter()
            .any(|w| w.join(" ") == want)
    }

    #[test]
    fn the_start_of_one_name_is_that_name() {
        // "Switch to Chat" for ChatGPT: a sure mend, as a name that sounds
        // the same is.
        let sure = |t: &str| sure_mend(&words(t), &state()).map(|w| w.join(" "));
        assert_eq!(sure("switch to spot"), Some("switch to spotify".into()));
        // Too short to say which, or the start of no name.
        assert_eq!(sure("switch to git"), None);
        assert_eq!(sure("switch to sport"), None);
        assert_eq!(starting_with("spotify", &["spotify".into()]).len(), 0);
    }

    #[test]
    fn a_site_heard_as_side_or_sight_is_a_site() {
        assert!(any("open the slack side", "open the slack site"));
        assert!(any("open the slack sight", "open the slack site"));
        assert!(any(
            "rename the news route to later",
            "rename the news group to later"
        ));
    }

    #[test]
    fn names_spelled_by_sound_are_the_tabs_sites() {
        assert!(any("go to the jithab tab", "go to the github tab"));
        assert!(any("open jithab", "open github"));
        assert!(any("go to yira", "go to jira"));
        assert!(any("close the spool of i tab", "close the spotify tab"));
        // A different site is not mended into a near one.
        assert!(!any("close stack", "close slack"));
        assert!(!any("close netflix", "close slack"));
    }

    #[test]
    fn a_site_named_at_the_end_of_a_title_is_a_name_too() {
        let mut state = state();
        state.tabs[1].url = "https://tracker.example.com/board/3".into();
        state.tabs[1].title = "Sprint board - Jira".into();
        assert!(names(&state).contains(&"jira".to_string()));
        assert!(any("close the year tab", "close the jira tab"));
        state.tabs[1].title = "Jira board".into();
        assert!(!names(&state).contains(&"board".to_string()));
        state.tabs[1].url = "https://www.theverge.com/".into();
        state.tabs[1].title = "The Verge".into();
        assert!(names(&state).contains(&"verge".to_string()));
    }

    #[test]
    fn command_words_and_tab_words_are_mended() {
        assert_eq!(first("new to the youtube tabs"), "mute the youtube tabs");
        assert_eq!(first("but mark this page"), "bookmark this page");
        assert_eq!(first("dispar the reddit tag"), "discard the reddit tab");
        assert_eq!(first("pin this time"), "pin this tab");
        assert_eq!(first("mute the youtube towns"), "mute the youtube tabs");
        assert_eq!(first("reload the shratab"), "reload the shra tab");
        assert_eq!(
            first("at the github tab to the news group"),
            "add the github tab to the news group"
        );
        assert_eq!(
            first("dooble best pizza in paris"),
            "google best pizza in paris"
        );
        assert!(
            any("pin the drotab", "pin the jira tab") || any("pin the drotab", "pin the dro tab")
        );
    }

    #[test]
    fn a_name_of_the_tabs_that_sounds_like_tabs_stays_a_name() {
        assert_eq!(first("switch to the docs tag"), "switch to the docs tab");
        assert!(!mends(&words("close the docs tag"), &state())
            .iter()
            .any(|w| w.contains(&"tabs".to_string())));
    }

    #[test]
    fn a_site_opened_by_name_drops_the_words_after_it() {
        assert!(any("open wikipedia that's hard", "open wikipedia.org"));
        assert!(any("open github tokio", "open github.com"));
        assert!(!any("open the pod bay doors", "open the"));
        // "docs dot rs slash serde" heard as "docs.rs-crd": a path said.
        assert!(!any("open docs.rs crd", "open docs.rs"));
        assert!(!mends(&words("open docs.rs crd"), &state())
            .iter()
            .any(|m| m.len() == 2));
    }

    #[test]
    fn a_command_word_run_into_a_name_is_split_off() {
        assert_eq!(
            first("mute github and pinslack"),
            "mute github and pin slack"
        );
        assert_eq!(first("closegithub"), "close github");
        // Not a name after it.
        let names = names(&state());
        assert_eq!(glued_verbs(&words("pinstripe"), &names), words("pinstripe"));
    }

    #[test]
    fn and_run_into_the_next_verb_is_split_off() {
        assert_eq!(
            first("close reddit , unswitch to jira"),
            "close reddit , and switch to jira"
        );
        // Real command words stay, and so does a first word.
        assert_eq!(
            and_verbs(&words("mute youtube , unpin slack")),
            words("mute youtube , unpin slack")
        );
        assert_eq!(and_verbs(&words("unclose it")), words("unclose it"));
    }

    #[test]
    fn a_command_word_heard_with_an_ending_is_the_command_word() {
        assert_eq!(first("unpinned gmail"), "unpin gmail");
        assert_eq!(first("muted the youtube tabs"), "mute the youtube tabs");
        assert_eq!(first("reloaded this tab"), "reload this tab");
        assert_eq!(first("switched to slack"), "switch to slack");
        assert_eq!(first("closes jira"), "close jira");
        assert_eq!(first("bookmarking this page"), "bookmark this page");
        // Only the first word, and only endings of command words.
        assert_eq!(verb_inflected(&words("close the muted tabs")), None);
        assert_eq!(verb_inflected(&words("pinstripes")), None);
        let forms: Vec<String> = inflections("pin").collect();
        assert_eq!(forms, ["pinned", "pinning", "pined", "pining", "pins"]);
        assert!(inflections("open").any(|form| form == "opened"));
        let forms: Vec<String> = inflections("switch").collect();
        assert_eq!(forms, ["switched", "switching", "switches"]);
    }

    #[test]
    fn command_words_heard_as_words_that_sound_like_them_are_mended() {
        assert_eq!(first("endo"), "undo");
        assert_eq!(first("endu that"), "undo that");
        assert_eq!(verb_by_sound(&words("close jira")), None);
        assert_eq!(verb_by_sound(&words("the jira tab")), None);
    }

    #[test]
    fn systematic_confusions_are_rewritten_always() {
        let w = |t: &str| always(&crate::interpret::text::raw_words(t), &[]).join(" ");
        assert_eq!(w("and group the news group"), "ungroup the news group");
        assert_eq!(w("then group the news group"), "ungroup the news group");
        assert_eq!(w("and do that"), "undo");
        assert_eq!(w("and you"), "undo");
        let names = hearing_names();
        let w2 = |t: &str| always(&crate::interpret::text::raw_words(t), &names).join(" ");
        assert_eq!(w2("and Pintrello."), "unpin trello");
        assert_eq!(w2("the mutespotify tab"), "unmute spotify tab");
        assert_eq!(w2("close this time"), "close this tab");
        assert_eq!(w2("close the times tab"), "close the times tab");
        assert_eq!(w("the mute the cats tab"), "unmute the cats tab");
        assert_eq!(w("group my tabs my site"), "group my tabs by site");
        assert_eq!(w("and you close reddit"), "and you close reddit");
        assert_eq!(w("close jira"), "close jira");
        assert_eq!(w("group the news tabs"), "group the news tabs");
        assert_eq!(
            w("look up tokio and wikipedia"),
            "look up tokio on wikipedia"
        );
        assert_eq!(w("Bookmarks a year, tab"), "bookmark a year , tab");
        assert_eq!(
            w("bookmarks the figma tab and close it"),
            "bookmark the figma tab and close it"
        );
        assert_eq!(w("bookmarks about tabs"), "bookmarks about tabs");
        assert_eq!(w("Bing, look at it, tab."), "pin , look at it , tab");
        assert_eq!(w("bing guitar tabs"), "bing guitar tabs");
        assert_eq!(w("search for cats and dogs"), "search for cats and dogs");
        assert_eq!(
            w("search with kipedia for borrow checker"),
            "search wikipedia for borrow checker"
        );
        assert_eq!(
            w("search with kpd for green mountains"),
            "search wikipedia for green mountains"
        );
        assert_eq!(
            w("search the web for borrow checker"),
            "search the web for borrow checker"
        );
        assert_eq!(w("search my tabs for rust"), "search my tabs for rust");
        assert_eq!(
            w("close youtube and wikipedia"),
            "close youtube and wikipedia"
        );
    }
}
