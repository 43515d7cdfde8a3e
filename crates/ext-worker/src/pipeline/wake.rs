//! The wake phrase where Whisper did not write it: forced on a passive
//! utterance's start, or heard again with the command prompt after a long
//! utterance heard as the wake phrase alone.

use super::Pipeline;
use crate::engine::Transcript;
use crate::service::UTTERANCE_TOKENS;
use crate::session::{self, Outcome};

/// Utterances up to this long (pre-roll and trailing silence included)
/// may be the wake phrase alone when it was heard as some other word
/// (see [`Pipeline::forced_wake`])…
const WAKE_ALONE_MAX_MS: usize = 2_000;
/// …when the wake phrase, forced on them, scores this per word.
const WAKE_ALONE_MIN_LOGPROB_PER_WORD: f32 = -5.0;
/// Longer ones, up to this long, may start with it unwritten…
const FORCED_WAKE_MAX_MS: usize = 5_000;
/// …when it scores this per word.
const WAKE_WITH_COMMAND_MIN_LOGPROB_PER_WORD: f32 = -2.5;

/// A passive utterance heard as the wake phrase alone but longer than
/// this may have had a command after it that the wake-phrase prompt cut
/// off ("hey fox, undo" written "Hey fox."): it is heard again as a
/// command.
pub(super) const WAKE_WITH_MORE_MIN_MS: usize = 1_500;

/// What forcing the wake phrase on a passive utterance showed.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum ForcedWake {
    No,
    /// The utterance was the wake phrase alone.
    Alone,
    /// It was the wake phrase, then a command.
    WithCommand,
}

impl Pipeline {
    /// An utterance transcribed again with the command prompt (the session
    /// already expects a command): the prompt, and the trimmed text with
    /// its transcript unless Whisper failed.
    pub(super) fn transcribe_as_command(
        &self,
        pcm: &[f32],
    ) -> (String, Option<(String, Transcript)>) {
        let prompt = self.prompt();
        let options = self
            .service
            .decoding()
            .options(Some(prompt.clone()), UTTERANCE_TOKENS);
        let again = self
            .service
            .transcribe(pcm, &options)
            .ok()
            .map(|t| (t.text.trim().to_string(), t));
        (prompt, again)
    }

    /// A long utterance heard as the wake phrase alone, heard again with
    /// the command prompt: a command counts only when the new transcript
    /// also starts with the wake phrase (or a short clause in its place)
    /// and goes on after it. Whether that command came after a clause
    /// in the phrase's place: the two hearings disagree on the wake phrase.
    pub(super) fn hear_wake_with_more(
        &mut self,
        pcm: &[f32],
        text: &mut String,
        transcript: &mut Transcript,
        prompt: &mut String,
        outcome: &mut Outcome,
    ) -> bool {
        let (command_prompt, again) = self.transcribe_as_command(pcm);
        let Some((again_text, again)) = again else {
            return false;
        };
        let phrase = &self.session.settings().wake_phrase;
        let Some(command) = session::after_wake_clause(&again_text, phrase) else {
            return false;
        };
        let spelled_otherwise = session::strip_wake(&session::words(&again_text), phrase).is_none();
        *outcome = self.session.heard(&command, self.speech_started_ms);
        self.listen();
        *text = again_text;
        *transcript = again;
        *prompt = command_prompt;
        spelled_otherwise
    }

    /// Whether a passive utterance not heard as the wake phrase says it
    /// all the same, by the log-probability of the phrase forced on its
    /// start. Some voices' "hey fox" Whisper writes as "play" (tiny.en:
    /// −7.5 to −7.8 for "Hey fox" forced on it), or leaves out before the
    /// command (base: −3.2 to −4.1); the other short utterances of the
    /// spoken corpus score −18 or less, and near misses such as "hey
    /// folks, …" −7.8 and less, but they are longer.
    pub(super) fn forced_wake(&self, pcm: &[f32]) -> ForcedWake {
        let ms = pcm.len() / 16;
        if ms > FORCED_WAKE_MAX_MS {
            return ForcedWake::No;
        }
        // As Whisper writes it at the start of a sentence.
        let phrase = self.session.settings().wake_phrase.trim();
        let mut chars = phrase.chars();
        let Some(first) = chars.next() else {
            return ForcedWake::No;
        };
        let phrase: String = first.to_uppercase().chain(chars).collect();
        let words = session::words(&phrase).len().max(1) as f32;
        let audio_ctx = self.service.decoding().audio_ctx;
        let Ok(logprob) = self.service.score(pcm, &phrase, audio_ctx) else {
            return ForcedWake::No;
        };
        let per_word = logprob / words;
        if per_word >= WAKE_WITH_COMMAND_MIN_LOGPROB_PER_WORD && ms > WAKE_ALONE_MAX_MS {
            ForcedWake::WithCommand
        } else if per_word >= WAKE_ALONE_MIN_LOGPROB_PER_WORD && ms <= WAKE_ALONE_MAX_MS {
            ForcedWake::Alone
        } else {
            ForcedWake::No
        }
    }
}
