//! The voice session: passive (waiting for the wake word) or active
//! (taking a command). "Hey fox, close the YouTube tabs" in one breath runs
//! the command at once; "hey fox" alone makes the session active for the
//! next utterance, and 20 s of nothing sends it back to passive. The mic
//! button and Alt+Shift+L skip the wake word. Pure logic: times are passed
//! in (ms of audio heard), text comes from Whisper. It lives in the worker,
//! next to the detector, so that the pause that ends the next utterance is
//! already the right one when "hey fox" has just been heard.

pub use ext_protocol::settings::VoiceSettings;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Mode {
    Passive,
    /// Taking a command until this time (ms).
    Active {
        until_ms: f64,
    },
}

/// What an utterance (or the clock) comes to.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// Not for us (passive and no wake word, or nothing said).
    Ignore,
    /// The wake word alone: now listening for the command.
    Wake,
    /// Run this command (the session is passive again).
    Command(String),
    /// Active too long without a command: passive again.
    TimedOut,
}

pub struct VoiceSession {
    settings: VoiceSettings,
    mode: Mode,
    /// The latest command was asked for by the wake phrase, not by the mic
    /// button or the keyboard shortcut.
    by_wake_phrase: bool,
}

impl VoiceSession {
    pub fn new(settings: VoiceSettings) -> Self {
        Self {
            settings,
            mode: Mode::Passive,
            by_wake_phrase: false,
        }
    }

    pub fn mode(&self) -> Mode {
        self.mode
    }

    pub fn settings(&self) -> &VoiceSettings {
        &self.settings
    }

    /// New settings apply at once; a session waiting for a command keeps
    /// waiting.
    pub fn set_settings(&mut self, settings: VoiceSettings) {
        self.settings = settings;
    }

    /// Whether the next utterance is taken as a command (the speech worker
    /// then waits out longer pauses, and needs no wake word).
    pub fn expects_command(&self) -> bool {
        !self.settings.wake_word_enabled || matches!(self.mode, Mode::Active { .. })
    }

    /// The mic button or the keyboard shortcut: listen for a command now.
    pub fn trigger(&mut self, now_ms: f64) -> Outcome {
        self.activate(now_ms);
        self.by_wake_phrase = false;
        Outcome::Wake
    }

    /// The wake phrase, found in the audio though not in the transcript:
    /// listen for a command now, as after the phrase written.
    pub fn wake(&mut self, now_ms: f64) -> Outcome {
        self.activate(now_ms);
        self.by_wake_phrase = true;
        Outcome::Wake
    }

    /// Whether the command being taken, or the latest one taken, was asked
    /// for by the wake phrase, which may have been someone else's words,
    /// rather than by hand ([`VoiceSession::trigger`]) or with the wake
    /// word turned off (every utterance is then meant as a command).
    pub fn by_wake_phrase(&self) -> bool {
        self.by_wake_phrase && self.settings.wake_word_enabled
    }

    /// Back to waiting for the wake word (listening turned off, or the
    /// popup's Cancel).
    pub fn cancel(&mut self) {
        self.mode = Mode::Passive;
    }

    /// The clock: an active session that waited too long goes passive.
    pub fn tick(&mut self, now_ms: f64) -> Option<Outcome> {
        match self.mode {
            Mode::Active { until_ms } if now_ms >= until_ms => {
                self.mode = Mode::Passive;
                Some(Outcome::TimedOut)
            }
            _ => None,
        }
    }

    /// What the speech worker heard.
    pub fn heard(&mut self, text: &str, now_ms: f64) -> Outcome {
        // Heard after the timeout: judged as passive.
        self.tick(now_ms);
        let words = words(text);
        if words.is_empty() {
            return Outcome::Ignore;
        }
        let after_wake = strip_wake(&words, &self.settings.wake_phrase);
        if !self.expects_command() {
            if after_wake.is_some() {
                self.by_wake_phrase = true;
            }
            return match after_wake {
                None => Outcome::Ignore,
                Some(rest) if rest.is_empty() => {
                    self.activate(now_ms);
                    Outcome::Wake
                }
                Some(rest) => Outcome::Command(rest.join(" ")),
            };
        }
        // Taking a command: the wake word again is allowed in front.
        let command = after_wake.unwrap_or(words);
        if command.is_empty() {
            self.activate(now_ms);
            return Outcome::Wake;
        }
        self.mode = Mode::Passive;
        Outcome::Command(command.join(" "))
    }

    /// The utterance that just ended is a command that another worker
    /// (the command model's) transcribes: passive after it, as
    /// [`VoiceSession::heard`] would leave the session, so the next
    /// utterance is judged while this one is transcribed.
    pub fn take_command(&mut self) {
        self.mode = Mode::Passive;
    }

    /// The command model's transcript of an utterance given to it: by
    /// [`VoiceSession::take_command`], or after the wake model heard "hey
    /// fox, …" in one breath (`wake_rest`: what the wake model heard after
    /// the wake phrase, used if the command model did not hear the phrase).
    pub fn command_heard(&mut self, text: &str, wake_rest: Option<&str>, now_ms: f64) -> Outcome {
        let words = words(text);
        let wake_rest = wake_rest.map(self::words).unwrap_or_default();
        let command = match strip_wake(&words, &self.settings.wake_phrase) {
            Some(rest) if !rest.is_empty() => rest,
            // The command model heard nothing after the phrase, or spelled
            // the phrase some other way: the wake model's reading of the
            // rest stands.
            _ if !wake_rest.is_empty() => wake_rest,
            Some(rest) => rest,
            None => words,
        };
        if command.is_empty() {
            // Nothing after "hey fox" (or nothing at all): still listening.
            self.activate(now_ms);
            return Outcome::Wake;
        }
        // The session went passive when the utterance was handed over, and
        // may since have heard a new "hey fox": that stands.
        Outcome::Command(command.join(" "))
    }

    fn activate(&mut self, now_ms: f64) {
        self.mode = Mode::Active {
            until_ms: now_ms + self.settings.active_timeout_ms,
        };
    }
}

/// Lowercase words of what was heard, punctuation and Whisper's
/// non-speech markers ("[BLANK_AUDIO]", "(music)") left out.
pub fn words(text: &str) -> Vec<String> {
    let mut cleaned = String::with_capacity(text.len());
    let mut depth = 0usize;
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        // "wikipedia.org", "docs.rs/serde": a dot or slash between letters
        // is part of an address, kept for the interpreter.
        let inside = |c: char| {
            i > 0
                && chars[i - 1].is_alphanumeric()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric())
                && ".:/".contains(c)
        };
        match c {
            '[' | '(' | '*' => depth += 1,
            ']' | ')' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            c if c.is_alphanumeric() || c == '\'' || inside(c) => cleaned.extend(c.to_lowercase()),
            _ => cleaned.push(' '),
        }
    }
    cleaned.split_whitespace().map(String::from).collect()
}

/// Fillers heard before a wake word ("ok hey fox", "oh, hey fox").
const LEAD_INS: &[&str] = &["ok", "okay", "oh", "so", "um", "uh", "and"];

/// How many of `words` are fillers in front (two at most).
fn lead_ins(words: &[String]) -> usize {
    words
        .iter()
        .take_while(|w| LEAD_INS.contains(&w.as_str()))
        .count()
        .min(2)
}

/// The words after the wake phrase, if `words` start with it. Speech
/// recognition spells it many ways ("hey fox", "hay fox", "hey, Fox!",
/// "heyfox", "hey fax"): each word may be one edit off, and the phrase may
/// come run together.
pub fn strip_wake(words: &[String], phrase: &str) -> Option<Vec<String>> {
    let phrase = self::words(phrase);
    if phrase.is_empty() {
        return None;
    }
    let words = &words[lead_ins(words)..];
    // Word by word.
    if words.len() >= phrase.len() && words.iter().zip(&phrase).all(|(w, p)| close(w, p)) {
        return Some(words[phrase.len()..].to_vec());
    }
    // A greeting heard as another greeting ("a fox", "eh fox", "hi fox"):
    // the name must be right, the word before it only a vowel sound.
    if phrase.len() == 2
        && words.len() >= 2
        && greeting(&phrase[0])
        && greeting(&words[0])
        && close(&words[1], &phrase[1])
    {
        return Some(words[2..].to_vec());
    }
    // Run together in one word ("heyfox").
    let joined = phrase.concat();
    if words.first().is_some_and(|w| close(w, &joined)) {
        return Some(words[1..].to_vec());
    }
    // …and into the command's first word ("hayfoxopenjithub.com").
    let rest = words.first().and_then(|w| glued_after(w, &joined))?;
    Some(
        std::iter::once(rest.to_string())
            .chain(words[1..].iter().cloned())
            .collect(),
    )
}

/// What follows the run-together wake phrase (`joined`) at the start of
/// `word`, one edit off as [`close`] allows: Whisper writes "hey fox, open
/// github.com" said in one breath as one word. The rest must be a word
/// of its own (three letters or more).
fn glued_after<'a>(word: &'a str, joined: &str) -> Option<&'a str> {
    let n = joined.chars().count();
    (n.saturating_sub(1)..=n + 1).find_map(|len| {
        let at = word.char_indices().nth(len).map(|(i, _)| i)?;
        let (head, rest) = word.split_at(at);
        (rest.chars().count() >= 3 && close(head, joined)).then_some(rest)
    })
}

/// Whether a transcript under way (`text`, its last word perhaps cut
/// short) may still turn out to start with the wake phrase. While waiting
/// for the wake word, decoding stops as soon as it cannot: most of what a
/// room hears is not for us, and this keeps its cost near a forced-phrase
/// score's, while "hey fox, close …" still gets its whole transcript.
pub fn could_start_with_wake(text: &str, phrase: &str) -> bool {
    let phrase = words(phrase);
    let mut heard = words(text);
    // The last word may still be growing.
    let partial = heard.pop();
    if phrase.is_empty() {
        return false;
    }
    let lead = lead_ins(&heard);
    let heard = &heard[lead..];
    let joined = phrase.concat();
    if heard
        .first()
        .is_some_and(|w| close(w, &joined) || glued_after(w, &joined).is_some())
    {
        return true;
    }
    let whole_words_match = heard.iter().zip(&phrase).enumerate().all(|(i, (w, p))| {
        close(w, p) || (i == 0 && phrase.len() == 2 && greeting(w) && greeting(p))
    });
    if !whole_words_match {
        return false;
    }
    // Every complete word fits; the word being decoded must be within an
    // edit of the start of the phrase's next word (or of the run-together
    // phrase, in first place).
    let (Some(word), Some(next)) = (partial, phrase.get(heard.len())) else {
        return true;
    };
    let near_start_of = |target: &str| {
        let target: Vec<char> = target.chars().collect();
        (1..=target.len()).any(|n| edits(&word, &target[..n].iter().collect::<String>()) <= 1)
    };
    near_start_of(next)
        || (heard.is_empty() && near_start_of(&joined))
        // A filler in front ("OK, hey fox"), while there is room for one.
        || (heard.is_empty() && lead < 2 && LEAD_INS.iter().any(|f| near_start_of(f)))
}

/// A short word of vowel sounds, a greeting ("hey", "hi", "a", "eh").
fn greeting(w: &str) -> bool {
    !w.is_empty() && w.len() <= 3 && w.chars().all(|c| "aeiouyh".contains(c))
}

/// Equal, or one edit apart when both are 3 letters or more and the
/// consonants agree: "hay" and "fax" are how "hey fox" gets spelled, "hey
/// box" and "hay for" are other words.
pub(crate) fn close(word: &str, target: &str) -> bool {
    let consonants = |w: &str| {
        let mut out: Vec<char> = w.chars().filter(|c| !"aeiouy".contains(*c)).collect();
        out.dedup();
        out
    };
    word == target
        || (word.chars().count() >= 3
            && target.chars().count() >= 3
            && edits(word, target) <= 1
            && consonants(word) == consonants(target))
}

/// Levenshtein distance.
/// How alike two transcripts are spelled, from 0 to 1: one minus the
/// edits between their letters (spaces and punctuation left out) over the
/// longer one's length. "endo" and "undo" are 0.75 alike; "opengithub.com"
/// and "go to the top of the page" 0.21.
pub fn spelling_likeness(a: &[String], b: &[String]) -> f32 {
    let letters = |words: &[String]| -> String {
        words
            .iter()
            .flat_map(|w| w.chars())
            .filter(|c| c.is_alphanumeric())
            .collect()
    };
    let (a, b) = (letters(a), letters(b));
    let longer = a.chars().count().max(b.chars().count());
    if longer == 0 {
        return 1.0;
    }
    1.0 - edits(&a, &b) as f32 / longer as f32
}

fn edits(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let current = row[j + 1];
            row[j + 1] = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(current + 1);
            prev = current;
        }
    }
    row[b.len()]
}

/// What a transcript says after the wake phrase, for an utterance already
/// heard as the wake phrase: the phrase itself, or a first clause of at
/// most as many words written some other way. The command prompt makes
/// Whisper spell "hey fox" as anything ("Epoxy, zoom out", "K-Fars,
/// undo"), but still ends it with a comma.
pub fn after_wake_clause(text: &str, phrase: &str) -> Option<String> {
    if let Some(rest) = strip_wake(&words(text), phrase) {
        return (!rest.is_empty()).then(|| rest.join(" "));
    }
    let (clause, rest) = text.split_once(',')?;
    let clause_words = words(clause).len();
    let rest = words(rest);
    let fits = (1..=words(phrase).len()).contains(&clause_words);
    (fits && !rest.is_empty()).then(|| rest.join(" "))
}

/// [`after_wake_clause`] for an utterance whose start the wake phrase,
/// forced on it, fits: a first clause in its place must end in the
/// phrase's last word ("K-Fox, open YouTube.com"), as in other speech a
/// short clause before a comma is part of the command ("Mute YouTube, and
/// pin Slack"). A clause of as many words as the phrase, starting with
/// its first word and its last word with the same letter ("Hey folks,
/// switch to ChatGPT"), is the phrase too.
pub fn after_forced_wake(text: &str, phrase: &str) -> Option<String> {
    let (clause, _) = text.split_once(',')?;
    let (clause, phrase_words) = (words(clause), words(phrase));
    let ends_like_phrase = clause
        .last()
        .zip(phrase_words.last())
        .is_some_and(|(word, last)| close(word, last));
    let starts_like_phrase = clause.len() == phrase_words.len()
        && clause.first() == phrase_words.first()
        && clause.last().and_then(|w| w.chars().next())
            == phrase_words.last().and_then(|w| w.chars().next());
    after_wake_clause(text, phrase).filter(|_| ends_like_phrase || starts_like_phrase)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session() -> VoiceSession {
        VoiceSession::new(VoiceSettings::default())
    }

    #[test]
    fn wake_word_and_command_in_one_breath_runs_at_once() {
        let mut s = session();
        assert_eq!(
            s.heard("Hey Fox, close the YouTube tabs.", 0.0),
            Outcome::Command("close the youtube tabs".into())
        );
        assert_eq!(s.mode(), Mode::Passive);
    }

    #[test]
    fn wake_word_alone_listens_for_the_next_utterance() {
        let mut s = session();
        assert_eq!(s.heard("Hey fox.", 1_000.0), Outcome::Wake);
        assert!(s.expects_command());
        assert_eq!(
            s.heard("mute everything except this", 5_000.0),
            Outcome::Command("mute everything except this".into())
        );
        assert_eq!(s.mode(), Mode::Passive);
        // Passive again: talk without the wake word is not for us.
        assert_eq!(s.heard("close all the tabs", 6_000.0), Outcome::Ignore);
    }

    #[test]
    fn a_command_after_the_wake_phrase_is_told_from_one_asked_for_by_hand() {
        let mut s = session();
        s.trigger(0.0);
        s.heard("are you coming", 1_000.0);
        assert!(!s.by_wake_phrase(), "after the mic button");
        assert_eq!(
            s.heard("hey fox, are you coming", 2_000.0),
            Outcome::Command("are you coming".into())
        );
        assert!(s.by_wake_phrase(), "in one breath with the wake phrase");
        s.trigger(3_000.0);
        assert_eq!(s.heard("hey fox", 4_000.0), Outcome::Wake);
        s.heard("mute this", 5_000.0);
        assert!(
            !s.by_wake_phrase(),
            "the phrase again after the button changes nothing"
        );
        // The phrase found by its forced score is the phrase.
        assert_eq!(s.wake(6_000.0), Outcome::Wake);
        assert!(s.by_wake_phrase());
        // With the wake word off, every utterance is meant as a command.
        s.set_settings(VoiceSettings {
            wake_word_enabled: false,
            ..s.settings().clone()
        });
        assert!(!s.by_wake_phrase());
    }

    #[test]
    fn twenty_seconds_of_nothing_goes_back_to_passive() {
        let mut s = session();
        assert_eq!(s.heard("hey fox", 0.0), Outcome::Wake);
        assert_eq!(s.tick(19_999.0), None);
        assert_eq!(s.tick(20_000.0), Some(Outcome::TimedOut));
        assert_eq!(s.mode(), Mode::Passive);
        // A command heard after the timeout needs the wake word again.
        let mut s = session();
        s.heard("hey fox", 0.0);
        assert_eq!(s.heard("close youtube", 25_000.0), Outcome::Ignore);
    }

    #[test]
    fn the_mic_button_skips_the_wake_word() {
        let mut s = session();
        assert_eq!(s.trigger(0.0), Outcome::Wake);
        assert_eq!(
            s.heard("group my tabs by site", 2_000.0),
            Outcome::Command("group my tabs by site".into())
        );
        // Saying the wake word anyway is fine.
        s.trigger(3_000.0);
        assert_eq!(
            s.heard("hey fox switch to gmail", 4_000.0),
            Outcome::Command("switch to gmail".into())
        );
    }

    #[test]
    fn without_the_wake_word_every_utterance_is_a_command() {
        let mut s = VoiceSession::new(VoiceSettings {
            wake_word_enabled: false,
            ..VoiceSettings::default()
        });
        assert!(s.expects_command());
        assert_eq!(
            s.heard("next tab", 0.0),
            Outcome::Command("next tab".into())
        );
        assert_eq!(s.heard("  [BLANK_AUDIO] ", 1.0), Outcome::Ignore);
    }

    #[test]
    fn asr_spellings_of_the_wake_word_are_accepted_and_others_are_not() {
        let yes = [
            "hey fox",
            "Hey, Fox!",
            "hay fox",
            "hey fax",
            "heyfox",
            "ok hey fox",
            "Oh, hey fox.",
            "hey foxx",
            "a fox",
            "Eh, fox.",
        ];
        for text in yes {
            assert_eq!(session().heard(text, 0.0), Outcome::Wake, "{text}");
        }
        let no = [
            "the fox",
            "hello",
            "hey",
            "fox",
            "they fought",
            "box",
            "(music)",
            "",
            "what does the fox say",
            // Near misses: another consonant is another word.
            "hey box that is nice",
            "hay for the horses",
            "hey folks let's start",
        ];
        for text in no {
            assert_eq!(session().heard(text, 0.0), Outcome::Ignore, "{text}");
        }
    }

    #[test]
    fn a_wake_phrase_run_into_the_command_is_cut_off_it() {
        assert_eq!(
            session().heard("hayfoxopenjithub.com", 0.0),
            Outcome::Command("openjithub.com".into())
        );
        assert_eq!(
            session().heard("Heyfoxclose the tab", 0.0),
            Outcome::Command("close the tab".into())
        );
        assert!(could_start_with_wake("hayfoxopen docs", "hey fox"));
        // Another word after all, or nothing of one after it.
        for text in ["heyfoxes are cute", "heyboxopen the door", "foxhound"] {
            assert_eq!(session().heard(text, 0.0), Outcome::Ignore, "{text}");
        }
    }

    #[test]
    fn spelling_likeness_compares_letters_not_words() {
        let w = |t: &str| words(t);
        assert_eq!(spelling_likeness(&w("endo"), &w("undo")), 0.75);
        assert_eq!(
            spelling_likeness(&w("pin this tab"), &w("Pin this tab.")),
            1.0
        );
        assert!(
            spelling_likeness(
                &w("group euro and confluence"),
                &w("group jira and confluence")
            ) > 0.8
        );
        assert!(spelling_likeness(&w("opengithub.com"), &w("go to the top of the page")) < 0.3);
        assert_eq!(spelling_likeness(&[], &[]), 1.0);
        assert_eq!(spelling_likeness(&w("undo"), &[]), 0.0);
    }

    #[test]
    fn a_configured_phrase_is_used() {
        let mut s = VoiceSession::new(VoiceSettings {
            wake_phrase: "Computer".into(),
            ..VoiceSettings::default()
        });
        assert_eq!(s.heard("hey fox close tabs", 0.0), Outcome::Ignore);
        assert_eq!(
            s.heard("computer, close tabs", 0.0),
            Outcome::Command("close tabs".into())
        );
    }

    #[test]
    fn a_command_transcribed_elsewhere_drops_the_wake_phrase_or_keeps_listening() {
        let mut s = VoiceSession::new(VoiceSettings::default());
        s.trigger(0.0);
        s.take_command();
        assert!(
            !s.expects_command(),
            "the next utterance is judged as passive"
        );
        assert_eq!(
            s.command_heard("Close the YouTube tabs.", None, 1_000.0),
            Outcome::Command("close the youtube tabs".into())
        );
        // One breath: the command model heard the wake phrase too…
        assert_eq!(
            s.command_heard("Hey Fox, mute this tab.", Some("mute this tab"), 2_000.0),
            Outcome::Command("mute this tab".into())
        );
        // …or spelled it otherwise: the wake model's rest stands.
        assert_eq!(
            s.command_heard("Hayfox's mute this tab", Some("mute this tab"), 3_000.0),
            Outcome::Command("mute this tab".into())
        );
        // Nothing said: still listening for the command.
        assert_eq!(
            s.command_heard(" [BLANK_AUDIO] ", None, 4_000.0),
            Outcome::Wake
        );
        assert!(s.expects_command());
        // A late transcript does not undo a "hey fox" heard meanwhile.
        s.take_command();
        s.trigger(5_000.0);
        assert_eq!(
            s.command_heard("close it", None, 6_000.0),
            Outcome::Command("close it".into())
        );
        assert!(s.expects_command(), "still awake for the next command");
        // The command model heard only noise: the wake model's rest stands.
        assert_eq!(
            s.command_heard("", Some("mute this tab"), 7_000.0),
            Outcome::Command("mute this tab".into())
        );
    }

    #[test]
    fn a_transcript_under_way_is_dropped_once_it_cannot_be_the_wake_word() {
        let may = |text: &str| could_start_with_wake(text, "hey fox");
        // Still possible: nothing yet, the phrase growing, fillers, the
        // phrase run together, the phrase and a command after it.
        for text in [
            "",
            " He",
            " Hey",
            " Hey, F",
            " Hey Fox",
            " OK, hey fox",
            " Heyfox, close",
            " Hey fox, close the YouTube tabs",
            " Hay fax mute",
        ] {
            assert!(may(text), "{text:?}");
        }
        // Not for us: a first or second word that is not the phrase's.
        for text in [" The weather", " I think", " Hey there", " Okay so what"] {
            assert!(!may(text), "{text:?}");
        }
        // Decoding sees every prefix of the transcript (a token may end
        // anywhere in a word): none of a wake word's may stop it.
        for said in [
            " Hey Fox.",
            " Hey, fox, close the tabs.",
            " Hay Fox!",
            " OK, hey fox, mute this tab.",
            " So hey fox",
            " Um, hey Fox",
            " Oh, so hey fox",
            " Heyfox close it",
        ] {
            for end in 1..=said.len() {
                if said.is_char_boundary(end) {
                    assert!(may(&said[..end]), "{:?} of {said:?}", &said[..end]);
                }
            }
        }
    }

    #[test]
    fn the_command_after_the_wake_phrase_however_it_was_spelled() {
        let rest = |text| after_wake_clause(text, "hey fox");
        assert_eq!(rest("Hey fox, undo."), Some("undo".into()));
        assert_eq!(rest("Epoxy, Zoom out"), Some("zoom out".into()));
        assert_eq!(rest("K-Fars, undo,"), Some("undo".into()));
    }

    #[test]
    fn nothing_after_the_wake_phrase_or_no_short_clause_is_no_command() {
        let rest = |text| after_wake_clause(text, "hey fox");
        assert_eq!(rest("Hey fox."), None);
        assert_eq!(rest("Epoxy,"), None);
        assert_eq!(rest("Close the YouTube tabs"), None);
        assert_eq!(rest("I said to him, close it"), None);
    }

    #[test]
    fn a_misspelled_wake_phrase_ending_right_is_cut_off_the_command() {
        let rest = |text| after_forced_wake(text, "hey fox");
        assert_eq!(
            rest("K-Fox, OpenYouTube.com"),
            Some("openyoutube.com".into())
        );
        // The name must end the first clause, and something must follow.
        assert_eq!(rest("Mute YouTube, and pin Slack"), None);
        assert_eq!(rest("Switch to tab three."), None);
        assert_eq!(rest("K-Fox,"), None);
        assert_eq!(rest("The quick brown fox, jumped"), None);
        assert_eq!(
            rest("Hey folks, switch to ChatGPT"),
            Some("switch to chatgpt".into())
        );
        assert_eq!(rest("Hey there, switch to ChatGPT"), None);
        assert_eq!(rest("Hey, focus on the task"), None);
    }
}
