//! Hearing a command again, guided to the known commands: which guided
//! hearing is convincing enough to offer the interpreter.

use super::Pipeline;
use crate::clock::now_ms;
use crate::guided::GuidedReading;
use crate::session;
use ext_protocol::worker::FromWorker;

/// A guided hearing whose tokens average less than this log-probability is
/// not offered: the audio says none of the phrases. Measured on the spoken
/// corpus: right ones mostly score above −2.3, wrong ones (often a long,
/// easy phrase like "go to the bottom of the page") below. Between −2.3
/// and −2.0 tiny.en heard 8 right (among them "close the Spotify tab" for
/// "close to the spool to Vite time", "make the news group red" for "make
/// a new script, read") and 4 wrong, 3 of which [`GUIDED_MIN_END_LOGPROB`]
/// refuses.
pub const GUIDED_MIN_LOGPROB: f32 = -2.3;
/// A guided hearing must be all the audio says: after it, the end of the
/// text must be likelier than not. A phrase that fits the audio's start
/// ("open docs.rs" for "open docs dot rs slash serde") scores well, but
/// the audio goes on past it (end of text at −2.9 to −6.2, where every
/// right guided hearing of the spoken corpus ends above −0.35).
pub const GUIDED_MIN_END_LOGPROB: f32 = -std::f32::consts::LN_2;
/// Below [`GUIDED_MIN_LOGPROB`], down to this, a guided hearing is still
/// offered when it is spelled much like the free transcript
/// ([`GUIDED_CLOSE_SPELLING`]): "group euro and confluence" heard guided as
/// "group Jira and Confluence" (−2.0), "endo" as "undo" (−2.1). Wrong
/// guided hearings in this band are other sentences altogether ("go to
/// the top of the page" for "opengithub.com").
pub const GUIDED_CLOSE_MIN_LOGPROB: f32 = -2.7;
/// How alike the letters of the free and the guided transcripts must be
/// (1 − edits / longer length) for the band above.
pub const GUIDED_CLOSE_SPELLING: f32 = 0.7;

/// Below the bounds above, down to this, a guided hearing is still
/// offered when a second model (the bundled tiny.en, beside base) hears
/// the same command: freely, or guided and sure of it by those bounds.
/// Two models that hear a synthetic voice differently and land on the
/// same phrase out of thousands are rarely both wrong. Measured on the
/// four spoken sets (base q8_0, tiny.en q8_0 second): right guided
/// hearings of base reach −3.3 and wrong ones start at −1.9, so no bound
/// alone takes the right ones; with the second model's agreement, the
/// band from −3.5 mends 1, 2, 2 and 1 commands of the corpus, its
/// held-out twin, the unseen and the fresh sets, and takes no wrong one.
/// (Agreement of the two guided beams alone, unsure as both were, took
/// "resume the video and go to the top of the page" for "rename the
/// reading group to later": the beams share a phrase list and its pulls.)
pub const SECOND_OPINION_MIN_LOGPROB: f32 = -3.5;

/// Whether a guided hearing keeps what the free transcript ended on, a
/// tab or a group: "go to the truth of tab" (for "go to the GitHub tab")
/// said it names a tab, so "go to the bottom of the page" is another
/// sentence, however well it scores; "at the amazon tab to the redding
/// group" said it names a group, so "go to the amazon tab" dropped half
/// of it. Whisper writes "tag" for "tab" often; the interpreter's longer
/// list of tab mishearings ("time", "term") is left out, as a sentence may
/// well end on those.
fn still_names_what_it_ended_on(said: &[String], guided: &[String]) -> bool {
    const KINDS: [&[&str]; 2] = [&["tab", "tabs", "tag", "tags"], &["group", "groups"]];
    let Some(last) = said.last() else {
        return true;
    };
    KINDS
        .iter()
        .filter(|kind| kind.contains(&last.as_str()))
        .all(|kind| guided.iter().any(|w| kind.contains(&w.as_str())))
}

impl Pipeline {
    /// [`ToWorker::HearGuided`]: the phrase the last command's audio most
    /// likely says (without the wake phrase), if it says it convincingly
    /// enough to try, and the milliseconds that took.
    pub(super) fn heard_guided(&self) -> FromWorker {
        let start = now_ms();
        let command = self.hear_guided();
        FromWorker::HeardGuided {
            command,
            said: self
                .last_command
                .as_ref()
                .map(|(text, _)| text.clone())
                .unwrap_or_default(),
            ms: now_ms() - start,
        }
    }

    fn hear_guided(&self) -> Option<String> {
        let (text, pcm) = self.last_command.as_ref()?;
        let said = session::words(text);
        let wake = &self.session.settings().wake_phrase;
        // The second model hears freely at most once, and only if needed;
        // guided only if its free hearing does not settle an agreement.
        let free = std::cell::OnceCell::new();
        let second_free = || {
            free.get_or_init(|| self.service.second_free(pcm, &self.vocabulary))
                .as_deref()
        };
        let second_guided = || self.service.second_guided(pcm);
        let guided = self.service.hear_guided(pcm);
        let offered = guided.and_then(|g| offered(&said, &g, wake, second_free, second_guided));
        offered
            .or_else(|| new_words(second_free()?, &said, wake))
            .map(|words| words.join(" "))
    }
}

/// The guided reading `guided`'s words, if the interpreter should try
/// them: convincing on their own, or, unsure, heard by the second model
/// too (freely, `second_free`, or guided, `second_guided`).
fn offered<'a>(
    said: &[String],
    guided: &GuidedReading,
    wake: &str,
    second_free: impl FnOnce() -> Option<&'a str>,
    second_guided: impl FnOnce() -> Option<GuidedReading>,
) -> Option<Vec<String>> {
    let words = new_words(&guided.text, said, wake)?;
    if !still_names_what_it_ended_on(said, &words) {
        return None;
    }
    if convincing(said, &words, guided) {
        return Some(words);
    }
    let worth_asking = guided.avg_logprob >= SECOND_OPINION_MIN_LOGPROB
        && guided.end_logprob >= GUIDED_MIN_END_LOGPROB;
    (worth_asking && second_opinion_agrees(&words, second_free()?, second_guided, wake))
        .then_some(words)
}

/// The words of a hearing (without the wake phrase), if they are any and
/// not the words `said` that were heard first: something new to try.
/// With no guided reading to offer, the second model's free hearing is
/// tried so: base's "hey fox, and root" was tiny.en's "hey fox, ungroup
/// the news group". The interpreter takes it only if it means something
/// as it is (see `interpret::plan_spoken`): a free transcript that lands
/// on a command for these tabs word for word is rarely chance. Measured
/// on the four spoken sets (base q8_0, tiny.en q8_0 second, 2026-12-08):
/// 95.8%, 94.4%, 89.5% and 93.5% of commands right on the corpus, its
/// held-out twin, the unseen and the fresh sets became 96.2%, 95.1%,
/// 93.0% and 95.0%, with no wrong action more on any.
fn new_words(text: &str, said: &[String], wake: &str) -> Option<Vec<String>> {
    let words = command_words(text, wake);
    (!words.is_empty() && words != said).then_some(words)
}

/// A guided reading's words, without the wake phrase.
fn command_words(text: &str, wake: &str) -> Vec<String> {
    let words = session::words(text);
    session::strip_wake(&words, wake).unwrap_or(words)
}

/// Whether a guided hearing is sure enough to offer on its own: `said` is
/// the free transcript's words, `words` the guided reading's.
fn convincing(said: &[String], words: &[String], guided: &GuidedReading) -> bool {
    let likely = guided.avg_logprob >= GUIDED_MIN_LOGPROB
        || (guided.avg_logprob >= GUIDED_CLOSE_MIN_LOGPROB
            && session::spelling_likeness(said, words) >= GUIDED_CLOSE_SPELLING);
    likely && guided.end_logprob >= GUIDED_MIN_END_LOGPROB
}

/// Whether the second model heard the command `words` too: freely
/// (`free`), word for word, or guided (`guided`, heard only if needed)
/// and sure of it on its own.
fn second_opinion_agrees(
    words: &[String],
    free: &str,
    guided: impl FnOnce() -> Option<GuidedReading>,
    wake: &str,
) -> bool {
    let free = command_words(free, wake);
    if free == words {
        return true;
    }
    guided().is_some_and(|guided| {
        let guided_words = command_words(&guided.text, wake);
        guided_words == words && convincing(&free, &guided_words, &guided)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::words;

    fn reading(text: &str, avg_logprob: f32) -> GuidedReading {
        GuidedReading {
            text: text.into(),
            avg_logprob,
            end_logprob: -0.05,
        }
    }

    #[test]
    fn a_second_model_agrees_by_its_free_hearing_or_its_own_sure_guided_one() {
        let words = words("make the news group red");
        let agrees = |free: &str, guided: Option<GuidedReading>| {
            second_opinion_agrees(&words, free, || guided, "hey fox")
        };
        // Heard freely as the same words (the wake phrase and the case
        // and stops aside).
        assert!(agrees("Hey fox, make the News group red.", None));
        // Heard freely as something else, but guided to the same phrase
        // and sure of it.
        let sure = reading(" Make the News group red.", -1.2);
        assert!(agrees("Make a new script read.", Some(sure)));
        // Guided to the same phrase but unsure too: the two beams share
        // the phrase list, and agree on its easy phrases in noise.
        let unsure = reading(" Make the News group red.", -2.9);
        assert!(!agrees("Make a new script read.", Some(unsure)));
        // Another command, either way.
        let other = reading(" Make the News group blue.", -0.5);
        assert!(!agrees("Make the News group blue.", Some(other)));
    }

    #[test]
    fn a_second_models_free_hearing_is_offered_when_it_heard_other_words() {
        let said = words("and root");
        let tried = |free: &str| new_words(free, &said, "hey fox").map(|w| w.join(" "));
        assert_eq!(
            tried("Hey fox, ungroup the News group."),
            Some("ungroup the news group".into())
        );
        // The same words, or only the wake phrase: nothing new to try.
        assert_eq!(tried("And root."), None);
        assert_eq!(tried("Hey fox."), None);
        assert_eq!(tried(""), None);
    }

    #[test]
    fn a_guided_reading_is_convincing_by_its_score_or_its_spelling_and_its_end() {
        let said = words("group euro and confluence");
        let guided = words("group jira and confluence");
        assert!(convincing(&said, &guided, &reading("x", -2.0)));
        // Below the bound, spelled much like what was heard.
        assert!(convincing(&said, &guided, &reading("x", -2.5)));
        assert!(!convincing(
            &words("zubin man"),
            &guided,
            &reading("x", -2.5)
        ));
        // The audio goes on past the phrase.
        let mut early = reading("x", -1.0);
        early.end_logprob = -3.0;
        assert!(!convincing(&said, &guided, &early));
    }

    #[test]
    fn a_guided_hearing_keeps_the_tab_or_group_the_transcript_ended_on() {
        let keeps =
            |said: &str, guided: &str| still_names_what_it_ended_on(&words(said), &words(guided));
        assert!(!keeps(
            "Go to the truth of tab.",
            "go to the bottom of the page"
        ));
        assert!(!keeps("Go to the jiff of tag", "go to the top of the page"));
        assert!(keeps("Go to the jiff of tag", "go to the github tab"));
        assert!(keeps("Go to the jiff of tag", "close the youtube tabs"));
        assert!(keeps("Muteless tabs", "mute the youtube tabs"));
        assert!(!keeps(
            "hey fox at the amazon tab to the redding group",
            "go to the amazon tab"
        ));
        assert!(keeps("Benkru, the news group", "ungroup the news group"));
        assert!(keeps("Close the news groups", "close the news group"));
        // Nothing said of a tab: nothing to keep.
        assert!(keeps("Zubin, man", "zoom in"));
        assert!(keeps("", "undo"));
    }
}
