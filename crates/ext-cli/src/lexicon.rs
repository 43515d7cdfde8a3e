//! How people say the names that Debian's voices misread. Festival and
//! flite know neither "Jira" nor "GitHub" and read them by their
//! letter-to-sound rules: "yih-ruh", "jih-thub", "g-mail", flite even spells
//! "ChatGPT" out as "c-h-a-t-g-p-t" (espeak-ng knows most of them, but says
//! "serde" as "serd"). Nobody says them so, and Whisper, which learnt the
//! names from people, cannot hear them: most of the commands the corpus
//! missed were names misread this way. So the voices are taught each name
//! as people say it, in their own lexicon formats (festival's
//! `lex.add.entry`, flite's `-add_lex` addenda) or, for espeak-ng, spelt as
//! it sounds. [`Names::ByRule`] keeps the old reading, for the bench's row
//! of names read by rule and for the tests of mends that need a misheard
//! name.

use serde::{Deserialize, Serialize};

/// How a recording's voice says the names in [`LEXICON`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Names {
    /// As people say them (the corpus's default).
    #[default]
    AsSpoken,
    /// By the voice's letter-to-sound rules, as the corpus said them
    /// until 2026-12-07.
    ByRule,
}

/// One name: its syllables as (phones, stressed), in the CMU phone set
/// festival's and flite's US English lexicons share, and how espeak-ng
/// must be given it where its own reading is wrong.
pub struct Entry {
    pub word: &'static str,
    syllables: &'static [(&'static str, bool)],
    espeak: Option<&'static str>,
}

/// Every name a voice misreads among the words the speech sets say
/// (festival's `lex.lookup_all` lists the words it reads by rule; these
/// are the ones whose rule reading is not what people say).
pub const LEXICON: &[Entry] = &[
    Entry {
        word: "jira",
        syllables: &[("jh iy", true), ("r ax", false)],
        espeak: None,
    },
    Entry {
        word: "github",
        syllables: &[("g ih t", true), ("hh ah b", false)],
        espeak: None,
    },
    Entry {
        word: "gmail",
        syllables: &[("jh iy", true), ("m ey l", false)],
        espeak: None,
    },
    Entry {
        word: "airbnb",
        syllables: &[
            ("eh r", true),
            ("b iy", false),
            ("eh n", false),
            ("b iy", true),
        ],
        espeak: Some("air bee en bee"),
    },
    Entry {
        word: "chatgpt",
        syllables: &[
            ("ch ae t", true),
            ("jh iy", false),
            ("p iy", false),
            ("t iy", true),
        ],
        espeak: Some("chat gee pee tee"),
    },
    Entry {
        word: "linkedin",
        syllables: &[("l ih ng k t", true), ("ih n", false)],
        espeak: None,
    },
    Entry {
        word: "stackoverflow",
        syllables: &[
            ("s t ae k", true),
            ("ow", false),
            ("v er", false),
            ("f l ow", true),
        ],
        espeak: None,
    },
    // "docs dot rs": festival reads "rs" as one syllable, "rz".
    Entry {
        word: "rs",
        syllables: &[("aa r", true), ("eh s", true)],
        espeak: None,
    },
    // Read by rule with no syllable stressed at all ("uhn-pin"), where
    // people stress the pin.
    Entry {
        word: "unpin",
        syllables: &[("ah n", false), ("p ih n", true)],
        espeak: None,
    },
    Entry {
        word: "serde",
        syllables: &[("s er", true), ("d iy", false)],
        espeak: Some("sir dee"),
    },
];

fn is_vowel(phone: &str) -> bool {
    phone.starts_with(['a', 'e', 'i', 'o', 'u'])
}

/// Festival Scheme that adds every entry to the current voice's lexicon.
pub fn festival_entries() -> String {
    LEXICON
        .iter()
        .map(|e| {
            let syllables: Vec<String> = e
                .syllables
                .iter()
                .map(|(phones, stressed)| format!("(({phones}) {})", u8::from(*stressed)))
                .collect();
            format!(
                "(lex.add.entry '(\"{}\" nil ({})))\n",
                e.word,
                syllables.join(" ")
            )
        })
        .collect()
}

/// Flite's lexicon addenda: `word : phone phone …`, vowels carrying their
/// stress (1 or 0).
pub fn flite_addenda() -> String {
    LEXICON
        .iter()
        .map(|e| {
            let phones: Vec<String> = e
                .syllables
                .iter()
                .flat_map(|(phones, stressed)| {
                    phones.split_whitespace().map(move |p| {
                        if is_vowel(p) {
                            format!("{p}{}", u8::from(*stressed))
                        } else {
                            p.to_string()
                        }
                    })
                })
                .collect();
            format!("{} : {}\n", e.word, phones.join(" "))
        })
        .collect()
}

/// `text` with the names espeak-ng misreads spelt as they sound.
pub fn espeak_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word = String::new();
    let flush = |word: &mut String, out: &mut String| {
        let respelt = LEXICON
            .iter()
            .find(|e| e.word.eq_ignore_ascii_case(word))
            .and_then(|e| e.espeak);
        out.push_str(respelt.unwrap_or(word));
        word.clear();
    };
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            word.push(c);
        } else {
            flush(&mut word, &mut out);
            out.push(c);
        }
    }
    flush(&mut word, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_voice_gets_the_names_in_its_own_format() {
        let festival = festival_entries();
        assert!(
            festival.contains("(lex.add.entry '(\"jira\" nil (((jh iy) 1) ((r ax) 0))))"),
            "{festival}"
        );
        let flite = flite_addenda();
        assert!(flite.contains("jira : jh iy1 r ax0\n"), "{flite}");
        assert!(flite.contains("github : g ih1 t hh ah0 b\n"), "{flite}");
        assert_eq!(festival.lines().count(), LEXICON.len());
        assert_eq!(flite.lines().count(), LEXICON.len());
    }

    #[test]
    fn espeak_gets_only_the_names_it_misreads_respelt() {
        assert_eq!(
            espeak_text("hey fox, open docs dot rs slash Serde."),
            "hey fox, open docs dot rs slash sir dee."
        );
        assert_eq!(
            espeak_text("switch to chatgpt"),
            "switch to chat gee pee tee"
        );
        // Within a word, nothing changes.
        assert_eq!(espeak_text("serdes jira"), "serdes jira");
    }
}
