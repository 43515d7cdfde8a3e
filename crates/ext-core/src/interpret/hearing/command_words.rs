//! Command words and "tab" as Whisper mishears them ("new to" for "mute",
//! "Unpinned" for "unpin", "fin" for "pin", "drotab"), mended where the
//! words as heard mean nothing.

use crate::interpret::parse;
use crate::interpret::sounds::{sound_distance, sound_key};

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
pub(super) const TAB: &[&str] = &[
    "time", "tag", "tam", "term", "stab", "stag", "stem", "tub", "tad", "tap",
];

const TABS: &[&str] = &[
    "times", "tags", "terms", "temps", "tapas", "tams", "taps", "tubs",
];

pub(super) fn verb(words: &[String]) -> Vec<String> {
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
pub(super) fn inflections(verb: &str) -> impl Iterator<Item = String> {
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
pub(super) fn verb_by_sound(words: &[String]) -> Option<Vec<String>> {
    first_word_as_verb(words, |first| {
        closest_by_sound(first, parse::command_verbs()).or_else(|| p_heard_as_f(first))
    })
}

/// "Fin the Chalk tab", "Fins of Calendre tab" (said "pin the …"): a "p"
/// at the start of a command word, heard as an "f". The word with a "p"
/// for its "f" must sound just like a command word or one of its forms,
/// and be spelled one letter from it at most: sound keys drop vowels, so
/// "fog" would sound like "back".
pub(super) fn p_heard_as_f(first: &str) -> Option<&'static str> {
    let with_p = format!("p{}", first.strip_prefix('f')?);
    let key = sound_key(&with_p);
    parse::command_verbs().find(|verb| {
        std::iter::once(verb.to_string())
            .chain(inflections(verb))
            .any(|form| sound_key(&form) == key && strsim::levenshtein(&form, &with_p) <= 1)
    })
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

pub(super) fn replace_start(words: &[String], table: &[(&[&str], &[&str])]) -> Option<Vec<String>> {
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
pub(super) fn phrases(words: &[String]) -> Vec<String> {
    replace_anywhere(words, WORDS)
}

/// The first of `table`'s heard words found, replaced.
pub(super) fn replace_anywhere(words: &[String], table: &[(&[&str], &[&str])]) -> Vec<String> {
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
pub(super) fn and_verbs(words: &[String]) -> Vec<String> {
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
pub(super) fn glued_verbs(words: &[String], names: &[String]) -> Vec<String> {
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

/// Whether a word sounds like "tab" ("time", "town", "tag": a t, a
/// vowel, one consonant), or "tabs" with an s at the end.
fn sounds_like_tab(w: &str) -> Option<&'static str> {
    // Short words, and "top", which says where to scroll or move.
    const NOT: &[&str] = &[
        "the", "them", "then", "than", "this", "that", "to", "too", "top",
    ];
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
pub(super) fn tab_words(words: &[String], names: &[String]) -> Vec<String> {
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
