//! Quiet speech brought up to a level Whisper hears well.
//!
//! The microphone is opened without Firefox's automatic gain (it costs
//! Whisper more than it gives: docs/speech.md, "Noise, and what Firefox
//! does to it"), so a microphone set low reaches the worker as recorded.
//! Whisper's log-mel input is not normalized for level, and it hears quiet
//! speech far worse: the spoken corpus 20 dB quieter falls from 91.7% to
//! 72.6% of commands right (tiny.en q8_0). So an utterance whose loudest
//! level held for 60 ms ([`loudest_sustained_db`]: a click does not count)
//! is under [`QUIETEST_HEARD_DB`] is amplified up to it, by one gain for
//! the whole utterance: the speech keeps its shape and the room's noise
//! its distance below it. Speech as loud as the corpus's quietest
//! recordings, which Whisper hears as well as the rest, is left exactly as
//! heard.

use crate::vad::{level_db, loudest_sustained_db, FRAME, SILENCE_DB};

/// The loudest 60-ms run of every recording in the spoken corpora
/// (tests/speech, tests/speech-unseen) is at −29 dBFS or louder (median
/// −16): quieter utterances are brought up to this.
pub const QUIETEST_HEARD_DB: f32 = -30.0;

/// Gain is never more than this, so that the hiss of a silent room (the
/// detector's floor is −65 dBFS) is not raised into the speech's range.
pub const MAX_GAIN_DB: f32 = 30.0;

/// Amplifies `pcm` (16-kHz samples of one utterance) if it is quiet, as
/// the module says; answers the gain applied, in dB (0 when left as is).
/// A click far louder than the words is clamped at full scale rather than
/// holding the words' gain back.
pub fn bring_up_quiet(pcm: &mut [f32]) -> f32 {
    let levels: Vec<f32> = pcm.chunks(FRAME).map(level_db).collect();
    let loudest = loudest_sustained_db(&levels);
    // Digital silence has nothing to raise.
    if loudest >= QUIETEST_HEARD_DB || loudest <= SILENCE_DB {
        return 0.0;
    }
    let gain_db = (QUIETEST_HEARD_DB - loudest).min(MAX_GAIN_DB);
    let gain = 10f32.powf(gain_db / 20.0);
    pcm.iter_mut()
        .for_each(|s| *s = (*s * gain).clamp(-1.0, 1.0));
    gain_db
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 150-Hz tone whose RMS is `db` dBFS.
    fn tone(db: f32, seconds: f32) -> Vec<f32> {
        let amplitude = 10f32.powf(db / 20.0) * std::f32::consts::SQRT_2;
        (0..(seconds * 16_000.0) as usize)
            .map(|i| amplitude * (2.0 * std::f32::consts::PI * 150.0 * i as f32 / 16_000.0).sin())
            .collect()
    }

    #[test]
    fn speech_at_a_normal_level_is_left_exactly_as_heard() {
        for db in [-27.0, -16.0, -6.0] {
            let heard = tone(db, 0.5);
            let mut pcm = heard.clone();
            assert_eq!(bring_up_quiet(&mut pcm), 0.0);
            assert_eq!(pcm, heard);
        }
    }

    #[test]
    fn quiet_speech_is_brought_up_to_the_quietest_level_heard_well() {
        for db in [-48.0, -40.0, -30.0] {
            let quiet = [vec![0.0; 4_000], tone(db, 0.5), vec![0.0; 4_000]].concat();
            let mut pcm = quiet.clone();
            let gain = bring_up_quiet(&mut pcm);
            assert!(
                (gain - (QUIETEST_HEARD_DB - db)).abs() < 0.1,
                "{db}: {gain}"
            );
            let levels: Vec<f32> = pcm.chunks(FRAME).map(level_db).collect();
            assert!((loudest_sustained_db(&levels) - QUIETEST_HEARD_DB).abs() < 0.1);
            // One gain for all of it: the shape is kept.
            let ratio = 10f32.powf(gain / 20.0);
            assert!(pcm
                .iter()
                .zip(&quiet)
                .all(|(a, b)| (a - b * ratio).abs() < 1e-5));
        }
    }

    #[test]
    fn gain_is_bounded_and_never_clips() {
        let mut faint = tone(-80.0, 0.5);
        assert_eq!(bring_up_quiet(&mut faint), MAX_GAIN_DB);
        // Quiet speech with one sharp click: the words set the gain, and
        // the click is clamped at full scale.
        for click in [0.02, 0.1, 0.7] {
            let mut clicked = tone(-45.0, 0.5);
            clicked[100] = click;
            assert!((bring_up_quiet(&mut clicked) - 15.0).abs() < 0.1, "{click}");
            assert!(clicked.iter().all(|s| s.abs() <= 1.0), "{click}");
        }
    }

    #[test]
    fn silence_and_nothing_stay_as_they_are() {
        let mut silence = vec![0.0; 8_000];
        assert_eq!(bring_up_quiet(&mut silence), 0.0);
        assert!(silence.iter().all(|&s| s == 0.0));
        assert_eq!(bring_up_quiet(&mut []), 0.0);
    }
}
