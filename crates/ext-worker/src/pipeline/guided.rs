//! Hearing a command again, guided to the known commands: which guided
//! hearing is convincing enough to offer the interpreter.

use super::Pipeline;
use crate::clock::now_ms;
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
        let guided = self.service.hear_guided(pcm)?;
        let words = session::words(&guided.text);
        let wake = &self.session.settings().wake_phrase;
        let words = session::strip_wake(&words, wake).unwrap_or(words);
        let likely = guided.avg_logprob >= GUIDED_MIN_LOGPROB
            || (guided.avg_logprob >= GUIDED_CLOSE_MIN_LOGPROB
                && session::spelling_likeness(&said, &words) >= GUIDED_CLOSE_SPELLING);
        let convincing = likely && guided.end_logprob >= GUIDED_MIN_END_LOGPROB;
        (convincing
            && still_names_what_it_ended_on(&said, &words)
            && !words.is_empty()
            && words != said)
            .then(|| words.join(" "))
    }
}

#[cfg(test)]
mod tests {
    use super::still_names_what_it_ended_on;
    use crate::session::words;

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
