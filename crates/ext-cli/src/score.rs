//! Scoring what was heard in the spoken-command corpus: command success
//! (the interpreter, run on what was heard against the corpus's tab state,
//! does what the line says), word error rate, wake-word false accepts and
//! false rejects, loops and fallbacks, and time. `speech-bench` prints it;
//! the real-speech tests assert on it.

use crate::hear::Hearing;
use crate::speech::{Kind, Recording};
use ext_core::corpus::{check_heard, Case, Miss};
use ext_core::State;

#[derive(Default)]
pub struct Tally {
    pub commands: usize,
    pub succeeded: usize,
    /// Commands that did something other than what was said (see
    /// [`ext_core::corpus::Miss::acted`]).
    pub wrong_actions: usize,
    pub words: usize,
    pub word_errors: usize,
    pub not_for_us: usize,
    pub false_accepts: usize,
    pub wake_expected: usize,
    pub false_rejects: usize,
    pub looped: usize,
    pub fell_back: usize,
    pub encoder_ms: Vec<f64>,
    pub decoder_ms: Vec<f64>,
    /// One line per recording that failed, saying what was heard and why.
    pub misses: Vec<String>,
}

pub fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return 0.0;
    }
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Words as WER counts them: lower case, no punctuation.
fn words(text: &str) -> Vec<String> {
    text.to_lowercase()
        .replace(['.', ',', '?', '!', ';', ':', '"'], " ")
        .replace('\'', "")
        .split_whitespace()
        .map(str::to_string)
        .collect()
}

/// Word-level edit distance.
fn edits(a: &[String], b: &[String]) -> usize {
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, y) in b.iter().enumerate() {
            let cur = row[j + 1];
            row[j + 1] = (prev + usize::from(x != y)).min(row[j] + 1).min(cur + 1);
            prev = cur;
        }
    }
    row[b.len()]
}

impl Tally {
    /// Counts one recording: `case` is the corpus line it says (none for
    /// speech not meant for us).
    pub fn add(&mut self, r: &Recording, h: &Hearing, case: Option<&Case>, state: &State) {
        let said = words(&r.said.replace("hey fox.", "hey fox"));
        let heard = words(&h.heard.join(" "));
        self.words += said.len();
        self.word_errors += edits(&said, &heard);
        self.looped += h.looped;
        self.fell_back += h.fell_back;
        self.encoder_ms.push(h.timings.encoder + h.timings.mel);
        // Hearing again guided is part of decoding what was said.
        self.decoder_ms.push(h.timings.decoder + h.guided_ms);
        if r.kind == Kind::NotForUs {
            self.not_for_us += 1;
            if h.for_us {
                self.false_accepts += 1;
                self.misses
                    .push(format!("  FALSE ACCEPT {}: heard {:?}", r.file, h.heard));
            }
            return;
        }
        if r.kind != Kind::Command {
            self.wake_expected += 1;
            if !h.wake {
                self.false_rejects += 1;
            }
        }
        self.commands += 1;
        let Some(case) = case else { return };
        let outcome = match &h.command {
            Some(command) => check_heard(case, state, command, h.guided.as_deref()),
            None => Err(Miss {
                why: "no command taken".into(),
                acted: false,
            }),
        };
        match outcome {
            Ok(()) => self.succeeded += 1,
            Err(miss) => {
                self.wrong_actions += usize::from(miss.acted);
                self.misses.push(format!(
                    "  {} {}: said {:?}, heard {:?}: {}",
                    if miss.acted { "WRONG" } else { "MISS" },
                    r.file,
                    r.said,
                    h.heard,
                    miss.why.chars().take(160).collect::<String>()
                ))
            }
        }
    }

    pub fn success_percent(&self) -> f64 {
        percent(self.succeeded, self.commands)
    }

    pub fn wer_percent(&self) -> f64 {
        percent(self.word_errors, self.words)
    }
}

fn percent(a: usize, b: usize) -> f64 {
    100.0 * a as f64 / b.max(1) as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn word_errors_count_substitutions_insertions_and_deletions() {
        let w = |s: &str| words(s);
        assert_eq!(
            edits(&w("close the jira tab"), &w("Close the Jira tab.")),
            0
        );
        assert_eq!(edits(&w("close the jira tab"), &w("close the drip tab")), 1);
        assert_eq!(edits(&w("close the jira tab"), &w("close jira tab")), 1);
        assert_eq!(edits(&w("close jira"), &w("close the jira tab")), 2);
        assert_eq!(edits(&w("that's it"), &w("thats it")), 0);
    }

    #[test]
    fn the_median_of_nothing_is_zero_and_of_some_is_the_middle() {
        assert_eq!(median(&mut []), 0.0);
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
    }
}
