//! From microphone blocks to utterances: resampling from whatever rate the
//! AudioContext runs at to 16 kHz, then voice activity detection, then
//! quiet utterances brought up to a level Whisper hears well. What the
//! speech worker does with each block before Whisper sees anything.

use crate::audio::Resampler;
use crate::error::Result;
use crate::loudness::bring_up_quiet;
use crate::vad::{Vad, VadConfig, VadEvent};

pub struct Listener {
    /// The input rate and its resampler; replaced if the rate changes.
    resampler: Option<(u32, Resampler)>,
    vad: Vad,
    scratch: Vec<f32>,
    /// The detector's settings while waiting for the wake word, and while
    /// taking a command.
    passive: VadConfig,
    active: VadConfig,
    expects_command: bool,
}

impl Default for Listener {
    fn default() -> Self {
        Self::new()
    }
}

impl Listener {
    pub fn new() -> Self {
        Self {
            resampler: None,
            vad: Vad::new(VadConfig::PASSIVE),
            scratch: Vec::new(),
            passive: VadConfig::PASSIVE,
            active: VadConfig::ACTIVE,
            expects_command: false,
        }
    }

    /// The silences that end an utterance (the options page's settings).
    pub fn set_end_silences(&mut self, passive_ms: usize, active_ms: usize) {
        self.passive.end_silence_ms = passive_ms;
        // A burst too short to keep waits as long as a command's pause.
        self.passive.short_end_silence_ms = active_ms;
        self.active.end_silence_ms = active_ms;
        self.active.short_end_silence_ms = active_ms;
        self.set_expects_command(self.expects_command);
    }

    /// Taking a command waits out longer pauses than waiting for the wake
    /// word does.
    pub fn set_expects_command(&mut self, command: bool) {
        self.expects_command = command;
        self.vad
            .set_config(if command { self.active } else { self.passive });
    }

    /// Whether the detector waits out a command's longer pauses.
    pub fn expects_command(&self) -> bool {
        self.expects_command
    }

    /// Whether an utterance is under way.
    pub fn in_speech(&self) -> bool {
        self.vad.in_speech()
    }

    /// How long the utterance under way has been quiet, in ms.
    pub fn quiet_ms(&self) -> usize {
        self.vad.quiet_ms()
    }

    /// The 16-kHz audio of the utterance under way (empty between them).
    pub fn current(&self) -> &[f32] {
        if self.vad.in_speech() {
            self.vad.current()
        } else {
            &[]
        }
    }

    /// Feeds one block of mono samples at `rate` Hz.
    pub fn push(&mut self, block: &[f32], rate: u32) -> Result<Vec<VadEvent>> {
        if self.resampler.as_ref().is_none_or(|(r, _)| *r != rate) {
            // A new rate (a new AudioContext): what was half heard is gone.
            self.resampler = Some((rate, Resampler::new(rate)?));
            self.vad.reset();
        }
        let (_, resampler) = self.resampler.as_mut().expect("set above");
        self.scratch.clear();
        resampler.push(block, &mut self.scratch);
        let mut events = self.vad.push(&self.scratch);
        events.iter_mut().for_each(heard_well);
        Ok(events)
    }

    /// The microphone stopped: the utterance under way, if long enough.
    pub fn stop(&mut self) -> Option<VadEvent> {
        if let Some((_, resampler)) = self.resampler.as_mut() {
            self.scratch.clear();
            resampler.finish(&mut self.scratch);
            let tail = std::mem::take(&mut self.scratch);
            let mut events = self.vad.push(&tail);
            self.resampler = None;
            if let Some(mut done) = events.pop() {
                self.vad.reset();
                heard_well(&mut done);
                return Some(done);
            }
        }
        let mut done = self.vad.flush()?;
        heard_well(&mut done);
        Some(done)
    }
}

/// An utterance's audio as Whisper should hear it (see [`crate::loudness`]).
fn heard_well(event: &mut VadEvent) {
    if let VadEvent::Utterance(pcm) | VadEvent::Pausing(pcm) = event {
        bring_up_quiet(pcm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn voiced(seconds: f32, rate: u32) -> Vec<f32> {
        (0..(seconds * rate as f32) as usize)
            .map(|i| {
                let t = i as f32 / rate as f32;
                0.3 * (2.0 * std::f32::consts::PI * 150.0 * t).sin()
            })
            .collect()
    }

    #[test]
    fn blocks_at_48_khz_become_one_16_khz_utterance() {
        let mut listener = Listener::new();
        listener.set_expects_command(true);
        let audio = [vec![0.0; 24_000], voiced(1.0, 48_000), vec![0.0; 48_000]].concat();
        let mut events = Vec::new();
        for block in audio.chunks(128) {
            events.extend(listener.push(block, 48_000).unwrap());
        }
        let utterances: Vec<usize> = events
            .iter()
            .filter_map(|e| match e {
                VadEvent::Utterance(u) => Some(u.len()),
                _ => None,
            })
            .collect();
        assert_eq!(events.first(), Some(&VadEvent::SpeechStarted));
        assert_eq!(utterances.len(), 1, "{events:?}");
        // 1 s of speech at 16 kHz, plus pre-roll and 700 ms of tail.
        assert!(
            (16_000..=16_000 + 16_000).contains(&utterances[0]),
            "{utterances:?}"
        );
    }

    #[test]
    fn a_quiet_utterance_comes_out_at_a_level_whisper_hears_well() {
        let loudest = |pcm: &[f32]| {
            pcm.chunks(crate::vad::FRAME)
                .map(crate::vad::level_db)
                .fold(crate::vad::SILENCE_DB, f32::max)
        };
        for (gain, expected) in [(0.02, crate::loudness::QUIETEST_HEARD_DB), (1.0, -13.5)] {
            let mut listener = Listener::new();
            listener.set_expects_command(true);
            let quiet: Vec<f32> = voiced(1.0, 16_000).iter().map(|s| s * gain).collect();
            let audio = [vec![0.0; 8_000], quiet, vec![0.0; 16_000]].concat();
            let mut events = Vec::new();
            for block in audio.chunks(128) {
                events.extend(listener.push(block, 16_000).unwrap());
            }
            let heard = events.iter().find_map(|e| match e {
                VadEvent::Utterance(u) => Some(loudest(u)),
                _ => None,
            });
            // −47.5 dBFS brought up; −13.5 (a normal voice) as it was.
            assert!(
                heard.is_some_and(|db| (db - expected).abs() < 0.2),
                "{gain}: {heard:?}"
            );
        }
    }

    #[test]
    fn stopping_mid_sentence_answers_what_was_said() {
        let mut listener = Listener::new();
        for block in [vec![0.0; 8_000], voiced(0.8, 44_100)].concat().chunks(128) {
            listener.push(block, 44_100).unwrap();
        }
        assert!(matches!(listener.stop(), Some(VadEvent::Utterance(_))));
        assert_eq!(listener.stop(), None);
        assert!(
            listener.push(&[0.0; 10], 0).is_err(),
            "a rate of 0 is refused"
        );
    }
}
