//! Matching clean words (see [`super::super::text`]): the small helpers
//! every intent family's grammar is written with.

use crate::tab_state::Color;

/// The words of a clause.
pub type Words<'a> = &'a [String];

pub fn is(w: Words, phrase: &[&str]) -> bool {
    w.len() == phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b)
}

pub fn starts<'a>(w: Words<'a>, phrase: &[&str]) -> Option<Words<'a>> {
    (w.len() >= phrase.len() && w.iter().zip(phrase).all(|(a, b)| a == b))
        .then(|| &w[phrase.len()..])
}

/// The rest after the first of `verbs` that starts `w`.
/// The words before `phrase` if they end with it.
pub fn ends<'a>(w: Words<'a>, phrase: &[&str]) -> Option<Words<'a>> {
    let cut = w.len().checked_sub(phrase.len())?;
    w[cut..]
        .iter()
        .zip(phrase)
        .all(|(a, b)| a == b)
        .then(|| &w[..cut])
}

/// A count said somewhere in `w`: "twice", "thrice", or a number before
/// one of `units` ("3 times", "two pages"). Where it starts, the count,
/// and how many words say it.
pub fn count_said(w: Words, units: &[&str]) -> Option<(usize, i64, usize)> {
    (0..w.len()).find_map(|i| match w[i].as_str() {
        "twice" => Some((i, 2, 1)),
        "thrice" => Some((i, 3, 1)),
        x => {
            let n = super::super::text::number(x)?;
            w.get(i + 1).filter(|u| units.contains(&u.as_str()))?;
            Some((i, n, 2))
        }
    })
}

pub fn verb<'a>(w: Words<'a>, verbs: &[&[&str]]) -> Option<Words<'a>> {
    verbs.iter().find_map(|v| starts(w, v))
}

pub fn find(w: Words, word: &str) -> Option<usize> {
    w.iter().position(|x| x == word)
}

pub fn find_seq(w: Words, seq: &[&str]) -> Option<usize> {
    (0..w.len()).find(|&i| starts(&w[i..], seq).is_some())
}

pub fn join(w: Words) -> String {
    w.join(" ")
}

pub const ARTICLES: &[&str] = &[
    "the", "my", "a", "an", "our", "your", "this", "that", "these", "those",
];

/// Words in nearly every title that never tell one tab from another.
pub const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "of", "to", "in", "on", "at", "for", "by", "with", "and", "or", "do", "does",
    "did", "is", "are", "was", "be", "i", "me", "my", "you", "your", "we", "it",
];

pub fn strip_articles(mut w: Words) -> Words {
    while let Some(first) = w.first() {
        if ARTICLES.contains(&first.as_str()) {
            w = &w[1..];
        } else {
            break;
        }
    }
    w
}

/// Whether every word is one of `allowed`.
pub fn all_in(w: Words, allowed: &[&str]) -> bool {
    w.iter().all(|x| allowed.contains(&x.as_str()))
}

/// The words that are not `filler`, in order: what is said besides it.
pub fn besides<'a>(w: Words<'a>, filler: &[&str]) -> Vec<&'a str> {
    w.iter()
        .map(String::as_str)
        .filter(|x| !filler.contains(x))
        .collect()
}

pub fn mentions(w: Words, words: &[&str]) -> bool {
    w.iter().any(|x| words.contains(&x.as_str()))
}

/// The words without any of `lead` at their start.
pub fn strip_leading<'a>(mut w: Words<'a>, lead: &[&str]) -> Words<'a> {
    while w.first().is_some_and(|x| lead.contains(&x.as_str())) {
        w = &w[1..];
    }
    w
}

pub fn title_case(w: &[String]) -> String {
    w.iter()
        .map(|x| {
            let mut c = x.chars();
            match c.next() {
                Some(f) => f.to_uppercase().chain(c).collect(),
                None => String::new(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

pub fn color(word: &str) -> Option<Color> {
    Some(match word {
        "grey" | "gray" => Color::Grey,
        "blue" => Color::Blue,
        "red" => Color::Red,
        "yellow" => Color::Yellow,
        "green" => Color::Green,
        "pink" => Color::Pink,
        "purple" | "violet" => Color::Purple,
        "cyan" | "teal" | "turquoise" => Color::Cyan,
        "orange" => Color::Orange,
        _ => return None,
    })
}
