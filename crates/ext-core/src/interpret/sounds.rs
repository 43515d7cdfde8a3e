//! How words sound, roughly: a key of their consonants by how they are
//! made, and how far apart two words sound, for telling a name or a word
//! Whisper misheard from the one meant.

/// How far apart `heard` and `word` sound (0: alike), when near enough to
/// be one heard for the other: their sound keys may be one edit off for
/// four to six sounds, two for seven or more, none when shorter, and keys
/// that differ need the spelling at least half alike too ("slaying" sounds
/// a bit like "slack" but is another word; "year" sounds just like "Jira").
pub fn sound_distance(heard: &str, word: &str) -> Option<f32> {
    sound_distance_allowing(heard, word, name_allowance)
}

/// The sound edits a name may be off by, from the lengths of the two
/// sound keys: one for four to six sounds, two for seven or more.
pub fn name_allowance(heard: usize, word: usize) -> usize {
    (heard.max(word) - 1) / 3
}

/// [`sound_distance`] with the edits allowed given by `allowance` (of the
/// two sound keys' lengths).
pub fn sound_distance_allowing(
    heard: &str,
    word: &str,
    allowance: impl Fn(usize, usize) -> usize,
) -> Option<f32> {
    let (edits, sounds) = sound_edits_allowing(heard, word, allowance)?;
    let letters = strsim::normalized_levenshtein(heard, word);
    (edits == 0 || letters >= 0.5).then(|| edits as f32 / sounds as f32)
}

/// The edits between the sound keys of `heard` (two sounds or more) and
/// `word`, when `allowance` allows them, with the longer key's length:
/// how alike they sound, whatever their spelling.
pub fn sound_edits_allowing(
    heard: &str,
    word: &str,
    allowance: impl Fn(usize, usize) -> usize,
) -> Option<(usize, usize)> {
    let key = sound_key(heard);
    let target = sound_key(word);
    let (sounds, target_sounds) = (key.chars().count(), target.chars().count());
    if sounds < 2 {
        return None;
    }
    let edits = strsim::levenshtein(&key, &target);
    (edits <= allowance(sounds, target_sounds)).then_some((edits, sounds.max(target_sounds)))
}

/// A word as it sounds, roughly: consonants by how they are made (b/p,
/// d/t, g/k/c, j/y/sh/ch/tr/dr, f/v/ph, s/z), vowels dropped after the
/// first letter, doubled sounds once.
pub fn sound_key(word: &str) -> String {
    let w: Vec<char> = word
        .to_lowercase()
        .chars()
        .filter(|c| c.is_ascii_alphabetic())
        .collect();
    let mut out = String::new();
    let mut i = 0;
    let vowel = |c: char| "aeiou".contains(c);
    while i < w.len() {
        let c = w[i];
        let next = w.get(i + 1).copied();
        let (sound, step) = match (c, next) {
            ('p', Some('h')) => ('F', 2),
            ('t', Some('h')) => ('T', 2),
            ('s', Some('h')) | ('c', Some('h')) => ('J', 2),
            ('c', Some('k')) => ('K', 2),
            ('g', Some('h')) => ('K', 2),
            ('w', Some('h')) => ('W', 2),
            // "tree", "drag": said with the tongue where "j" is ("tritab",
            // "drag" heard for Jira).
            ('t' | 'd', Some('r')) => ('J', 1),
            // "euro" starts like "you" ("euro" for Jira), and so does a
            // "u" before one consonant and a vowel ("Uro" for Jira).
            ('e', Some('u')) if i == 0 => ('J', 2),
            ('u', Some(c)) if i == 0 && !vowel(c) && w.get(2).is_some_and(|&v| vowel(v)) => {
                ('J', 1)
            }
            ('c', Some('e' | 'i' | 'y')) => ('S', 1),
            ('g', Some('e' | 'i' | 'y')) => ('J', 1),
            ('b' | 'p', _) => ('P', 1),
            ('d' | 't', _) => ('T', 1),
            ('c' | 'k' | 'q' | 'g', _) => ('K', 1),
            ('j', _) => ('J', 1),
            ('y', _) if i == 0 => ('J', 1),
            ('f' | 'v', _) => ('F', 1),
            ('s' | 'z' | 'x', _) => ('S', 1),
            ('h', _) => ('-', 1),
            // After a vowel, w and y are part of it ("town", "day").
            ('w' | 'y', _) if i > 0 && vowel(w[i - 1]) => ('-', 1),
            (c, _) if vowel(c) || c == 'y' => {
                if i == 0 {
                    ('A', 1)
                } else {
                    ('-', 1)
                }
            }
            (c, _) => (c.to_ascii_uppercase(), 1),
        };
        if sound != '-' && !out.ends_with(sound) {
            out.push(sound);
        }
        i += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sound_keys_hear_alike_what_sounds_alike() {
        assert_eq!(sound_key("github"), sound_key("jithab"));
        assert_eq!(sound_key("jira"), sound_key("yira"));
        assert_eq!(sound_key("gmail"), "KML");
        assert_eq!(sound_key("euro"), sound_key("jira"));
        assert_eq!(sound_key("uro"), sound_key("jira"));
        assert_ne!(sound_key("undo"), sound_key("jundo"));
        assert_eq!(sound_key("tri"), sound_key("jira"));
        assert_ne!(sound_key("trello"), sound_key("jira"));
        assert_ne!(sound_key("slack"), sound_key("stack"));
    }
}
