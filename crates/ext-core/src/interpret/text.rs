//! Turns what someone typed or said into clean words: lower case, no
//! punctuation or fillers, numbers as digits, and the usual speech
//! recognition slips mended ("you tube", "clothes the tabs").

/// Longest input that is read; the rest is ignored (a command is a sentence).
pub const MAX_INPUT_CHARS: usize = 500;

/// Leading or trailing words that carry no meaning in a command.
const FILLERS: &[&[&str]] = &[
    &["hey", "fox"],
    // How Whisper writes "hey fox" when it is said again ("hay fox, hay
    // fox, close …"); the wake-word session already took the first.
    &["hay", "fox"],
    &["eh", "fox"],
    &["a", "fox"],
    &["hey", "firefox"],
    &["ok", "fox"],
    &["okay", "fox"],
    &["hi", "fox"],
    &["fox"],
    &["please"],
    &["pls"],
    &["can", "you"],
    &["could", "you"],
    &["would", "you"],
    &["will", "you"],
    &["can", "we"],
    &["kindly"],
    &["um"],
    &["uh"],
    &["uhm"],
    &["er"],
    &["erm"],
    &["hmm"],
    &[","],
    &["and"],
    &["so"],
    &["ok"],
    &["okay"],
    &["just"],
    &["now"],
    &["go", "ahead", "and"],
    &["i", "want", "to"],
    &["i", "wanna"],
    &["i", "need", "to"],
    &["i'd", "like", "to"],
    &["i", "would", "like", "to"],
    &["let's"],
    &["lets"],
    &["for", "me"],
    &["thanks"],
    &["thank", "you"],
    &["quickly"],
    &["right", "now"],
    // Second thoughts: "no wait, undo", "actually unpin it", "oops, undo".
    &["no", "wait"],
    &["wait"],
    &["actually"],
    &["oops"],
];

/// Hesitations that mean nothing wherever they are ("close uh reddit").
const DISFLUENCIES: &[&str] = &["um", "umm", "uh", "uhh", "uhm", "er", "erm", "hmm", "ehm"];

/// Words speech recognition splits, merges or mishears, as (heard, meant).
const SPOKEN_FIXES: &[(&[&str], &[&str])] = &[
    (&["you", "tube"], &["youtube"]),
    (&["u", "tube"], &["youtube"]),
    (&["git", "hub"], &["github"]),
    (&["git", "lab"], &["gitlab"]),
    (&["face", "book"], &["facebook"]),
    (&["linked", "in"], &["linkedin"]),
    (&["red", "it"], &["reddit"]),
    (&["read", "it"], &["reddit"]),
    (&["g", "mail"], &["gmail"]),
    (&["gee", "mail"], &["gmail"]),
    (&["wiki", "pedia"], &["wikipedia"]),
    (&["net", "flix"], &["netflix"]),
    (&["insta", "gram"], &["instagram"]),
    (&["drop", "box"], &["dropbox"]),
    (&["what's", "app"], &["whatsapp"]),
    (&["whats", "app"], &["whatsapp"]),
    (&["chat", "gpt"], &["chatgpt"]),
    (&["web", "gpu"], &["webgpu"]),
    (&["book", "mark"], &["bookmark"]),
    (&["book", "marks"], &["bookmarks"]),
    (&["un", "mute"], &["unmute"]),
    (&["un", "pin"], &["unpin"]),
    (&["un", "group"], &["ungroup"]),
    (&["un", "do"], &["undo"]),
    (&["un", "load"], &["unload"]),
    (&["un", "collapse"], &["uncollapse"]),
    (&["un", "fold"], &["unfold"]),
    (&["re", "open"], &["reopen"]),
    (&["duck", "duck", "go"], &["duckduckgo"]),
    (&["web", "site"], &["website"]),
    (&["web", "sites"], &["websites"]),
    // Homophones that only make sense one way after these words.
    (&["scroll", "dawn"], &["scroll", "down"]),
    (&["newtab"], &["new", "tab"]),
    (&["by", "sight"], &["by", "site"]),
    (&["by", "sites"], &["by", "site"]),
    (&["group's"], &["group"]),
    // "this window's youtube tabs", "the other window's tabs".
    (&["window's"], &["window"]),
    (&["windows'"], &["windows"]),
    (&["de", "duplicate"], &["deduplicate"]),
    (&["dupe"], &["duplicate"]),
    (&["dupes"], &["duplicates"]),
    (&["taps"], &["tabs"]),
    (&["tap"], &["tab"]),
    (&["tab's"], &["tabs"]),
    (&["tabs'"], &["tabs"]),
    (&["clothes"], &["close"]),
    (&["cloths"], &["close"]),
    (&["clothe"], &["close"]),
    (&["pen"], &["pin"]),
    (&["mewt"], &["mute"]),
    (&["nex"], &["next"]),
    (&["grope"], &["group"]),
    (&["groupe"], &["group"]),
    (&["everythin"], &["everything"]),
    (&["every", "thing"], &["everything"]),
    (&["any", "thing"], &["anything"]),
    (&["re", "load"], &["reload"]),
    (&["re", "fresh"], &["refresh"]),
    (&["short", "cut"], &["shortcut"]),
    (&["e", "bay"], &["ebay"]),
    (&["stack", "overflow"], &["stackoverflow"]),
];

const NUMBERS: &[(&str, i64)] = &[
    ("zero", 0),
    ("one", 1),
    ("two", 2),
    ("three", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("hundred", 100),
    ("a", 1),
    ("an", 1),
    ("a couple", 2),
    ("couple", 2),
    ("few", 3),
];

const ORDINALS: &[(&str, i64)] = &[
    ("first", 1),
    ("second", 2),
    ("third", 3),
    ("fourth", 4),
    ("fifth", 5),
    ("sixth", 6),
    ("seventh", 7),
    ("eighth", 8),
    ("ninth", 9),
    ("tenth", 10),
    ("eleventh", 11),
    ("twelfth", 12),
    ("thirteenth", 13),
    ("fourteenth", 14),
    ("fifteenth", 15),
    ("twentieth", 20),
];

/// The number a word says ("three", "3"), if any. "a"/"an" are not
/// numbers here; callers that accept them ("an hour") ask for them.
pub fn number(word: &str) -> Option<i64> {
    if let Ok(n) = word.parse::<i64>() {
        return (0..=100_000).contains(&n).then_some(n);
    }
    NUMBERS
        .iter()
        .filter(|(w, _)| *w != "a" && *w != "an" && !w.contains(' '))
        .find(|(w, _)| *w == word)
        .map(|(_, n)| *n)
}

/// Like [`number`], but "a", "an", "couple" and "few" count too.
pub fn loose_number(word: &str) -> Option<i64> {
    number(word).or_else(|| NUMBERS.iter().find(|(w, _)| *w == word).map(|(_, n)| *n))
}

/// The position an ordinal word says ("third", "3rd"), if any.
pub fn ordinal(word: &str) -> Option<i64> {
    if let Some((_, n)) = ORDINALS.iter().find(|(w, _)| *w == word) {
        return Some(*n);
    }
    let digits = word
        .strip_suffix("st")
        .or_else(|| word.strip_suffix("nd"))
        .or_else(|| word.strip_suffix("rd"))
        .or_else(|| word.strip_suffix("th"))?;
    digits
        .parse::<i64>()
        .ok()
        .filter(|n| (1..=10_000).contains(n))
}

/// Lower-cased words with punctuation, fillers and recognition slips handled.
/// Keeps dots inside words ("bbc.co.uk") and apostrophes ("that's"); a
/// comma or semicolon becomes the word "," (it can end a clause: "close
/// youtube, mute slack").
pub fn words(input: &str) -> Vec<String> {
    let mut words = raw_words(input);
    apply_fixes(&mut words);
    strip_fillers(&mut words);
    words
}

/// [`words`] before recognition slips are mended and fillers dropped.
pub fn raw_words(input: &str) -> Vec<String> {
    let clipped: String = input.chars().take(MAX_INPUT_CHARS).collect();
    let mut cleaned = String::with_capacity(clipped.len());
    for c in clipped.chars() {
        if c.is_alphanumeric() || c == '\'' || c == '\u{2019}' || ".-/:".contains(c) {
            cleaned.extend(c.to_lowercase());
        } else if c == ',' || c == ';' {
            cleaned.push_str(" , ");
        } else {
            cleaned.push(' ');
        }
    }
    let mut words: Vec<String> = cleaned
        .split_whitespace()
        .map(|w| {
            // A dot at the end of a word is the end of a sentence.
            w.trim_matches(|c| c == '.' || c == '-' || c == '\'' || c == ':' || c == '/')
                .replace('\u{2019}', "'")
        })
        .filter(|w| !w.is_empty() && !DISFLUENCIES.contains(&w.as_str()))
        .collect();
    words.dedup_by(|a, b| a == "," && b == ",");
    words
}

fn apply_fixes(words: &mut Vec<String>) {
    let mut i = 0;
    while i < words.len() {
        let mut fixed = false;
        for (heard, meant) in SPOKEN_FIXES {
            if words.len() - i >= heard.len() && heard.iter().zip(&words[i..]).all(|(h, w)| h == w)
            {
                words.splice(i..i + heard.len(), meant.iter().map(|m| m.to_string()));
                i += meant.len();
                fixed = true;
                break;
            }
        }
        if !fixed {
            i += 1;
        }
    }
}

fn strip_fillers(words: &mut Vec<String>) {
    loop {
        let before = words.len();
        for filler in FILLERS {
            if words.len() > filler.len() && filler.iter().zip(words.iter()).all(|(f, w)| f == w) {
                words.drain(..filler.len());
            }
            let n = words.len();
            if n > filler.len()
                && filler
                    .iter()
                    .zip(words[n - filler.len()..].iter())
                    .all(|(f, w)| f == w)
            {
                words.truncate(n - filler.len());
            }
        }
        if words.len() == before {
            break;
        }
    }
}

/// Edit distance allowed for a word of this length to still match. Short
/// words get none: "slack" and "stack" are different sites.
pub fn typo_budget(len: usize) -> usize {
    match len {
        0..=5 => 0,
        6..=8 => 1,
        _ => 2,
    }
}

/// Whether `heard` is `known`, allowing a typo or two in longer words, two
/// swapped letters in shorter ones ("gmial") and, from five letters, one
/// letter missing or doubled ("redit"). A changed letter in a short word is
/// another word ("slack", "stack"), and so is a changed first letter in
/// any word: "cooking" is not "booking", nor "mention" "tension".
pub fn close_enough(heard: &str, known: &str) -> bool {
    if heard == known {
        return true;
    }
    let (a, b) = (heard.chars().count(), known.chars().count());
    let len = a.min(b);
    let distance = strsim::damerau_levenshtein(heard, known);
    let swapped = len >= 4 && distance == 1 && strsim::levenshtein(heard, known) == 2;
    let dropped = len >= 5 && distance == 1 && a != b;
    let same_start = heard.chars().next() == known.chars().next();
    swapped || dropped || (same_start && typo_budget(len) > 0 && distance <= typo_budget(len))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fillers_punctuation_and_splits() {
        assert_eq!(
            words("Hey Fox, could you please close the You Tube tabs?"),
            ["close", "the", "youtube", "tabs"]
        );
        assert_eq!(
            words("clothes all the red it taps thanks"),
            ["close", "all", "the", "reddit", "tabs"]
        );
        assert_eq!(words("open bbc.co.uk."), ["open", "bbc.co.uk"]);
        assert_eq!(words("   "), Vec::<String>::new());
        assert_eq!(words("please"), ["please"], "a filler alone stays");
        assert_eq!(words("um close uh reddit"), ["close", "reddit"]);
        assert_eq!(
            words("close youtube, mute slack"),
            ["close", "youtube", ",", "mute", "slack"]
        );
        assert_eq!(words("hey fox, mute this"), ["mute", "this"]);
    }

    #[test]
    fn numbers_and_ordinals() {
        assert_eq!(number("three"), Some(3));
        assert_eq!(number("12"), Some(12));
        assert_eq!(number("a"), None);
        assert_eq!(loose_number("a"), Some(1));
        assert_eq!(ordinal("fifth"), Some(5));
        assert_eq!(ordinal("3rd"), Some(3));
        assert_eq!(ordinal("tab"), None);
    }

    #[test]
    fn typos() {
        assert!(close_enough("youtub", "youtube"));
        assert!(close_enough("confluense", "confluence"));
        assert!(!close_enough("cat", "car"));
        assert!(!close_enough("slack", "stack"));
        assert!(close_enough("gmial", "gmail"));
        assert!(close_enough("redit", "reddit"));
        assert!(!close_enough("docs", "dogs"));
        assert!(!close_enough("cooking", "booking"));
        assert!(close_enough("youtbue", "youtube"));
        assert!(close_enough("spotfiy", "spotify"));
    }
}
