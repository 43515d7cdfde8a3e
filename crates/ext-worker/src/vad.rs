//! Voice activity detection and utterance segmentation on 16-kHz audio.
//!
//! Energy against a noise floor that follows the room (the 10th percentile
//! of the last 5 s of frame levels: a steady hum becomes the floor, while
//! speech, which pauses, leaves it where the pauses are): speech starts after
//! 100 ms of frames clearly above the floor, ends after a stretch of
//! silence (300 ms while waiting for the wake word, 700 ms while taking a
//! command), keeps a little audio from before the onset and the trailing
//! silence, is cut at 30 s, and is dropped when it holds under 0.3 s of
//! speech (a cough, a click). Within an utterance, sound far under its
//! words (a breath) is silence, and the utterance starts at the pre-roll
//! before its words, not before such a sound ([`VadConfig::span_db`]).
//! Pure logic: the worker feeds it whatever blocks the AudioWorklet
//! delivers.

use crate::mel::SAMPLE_RATE;

/// 20-ms frames: the unit every decision is made on.
pub const FRAME: usize = SAMPLE_RATE / 50;
const FRAME_MS: usize = 20;
/// The noise floor looks back this many frames (5 s).
const FLOOR_FRAMES: usize = 250;

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct VadConfig {
    /// Speech this long starts an utterance.
    pub onset_ms: usize,
    /// Silence this long ends one…
    pub end_silence_ms: usize,
    /// …or this long, if it is longer, while the utterance holds less
    /// speech than [`VadConfig::min_speech_ms`] (it would be dropped, so
    /// waiting costs nothing). In noise a soft wake phrase loses its quiet
    /// sounds under the floor: "hey fox" is then under the shortest speech
    /// kept, and a short pause before the command would drop it and leave
    /// the command heard without it.
    pub short_end_silence_ms: usize,
    /// Trailing silence kept as heard (at most `end_silence_ms`); the rest
    /// of the end silence is written as zeros. When the end silence is
    /// longer, the detector says when this much has passed
    /// ([`VadEvent::Pausing`]) with the utterance as it will be if speech
    /// does not resume, so it can be heard while the rest of the pause is
    /// waited out.
    pub kept_silence_ms: usize,
    /// An utterance is cut here, however it goes on.
    pub max_ms: usize,
    /// Utterances with less speech than this are dropped.
    pub min_speech_ms: usize,
    /// Audio kept from before the onset (the start of the first word).
    pub pre_roll_ms: usize,
    /// A frame is speech when it is this many dB above the noise floor…
    pub threshold_db: f32,
    /// …and louder than this (dBFS), so a silent room is never speech.
    /// Low enough for a microphone set low (Firefox's automatic gain is
    /// off): speech 20 dB under the spoken corpus has its loudest frames
    /// at −47 to −36 dBFS and its softer sounds ("hey") 15 dB under those,
    /// and at −50 its wake phrase went unheard in 44 of 144 commands.
    pub min_level_db: f32,
    /// Within an utterance, a frame more than this many dB under the
    /// loudest level held so far (60 ms: [`loudest_sustained_db`]) is
    /// silence, and the utterance starts no earlier than the pre-roll
    /// before its first frame within this of that level. So where an
    /// utterance starts, pauses and ends does not move with the
    /// microphone's gain: a breath 47 dB under the words (flite's awb
    /// voice, before "hey fox") is not a word at any gain.
    pub span_db: f32,
}

impl VadConfig {
    /// While waiting for the wake word: short pauses end an utterance.
    pub const PASSIVE: VadConfig = VadConfig {
        onset_ms: 100,
        end_silence_ms: 300,
        short_end_silence_ms: 700,
        kept_silence_ms: 300,
        max_ms: 30_000,
        min_speech_ms: 300,
        pre_roll_ms: 200,
        threshold_db: 9.0,
        min_level_db: -65.0,
        span_db: 35.0,
    };

    /// While taking a command: people pause between words, and an answer
    /// ("no", "yes") may be shorter than any wake phrase (flite's kal16
    /// says "no" in 180 ms).
    pub const ACTIVE: VadConfig = VadConfig {
        end_silence_ms: 700,
        min_speech_ms: 150,
        ..Self::PASSIVE
    };
}

/// What the detector reports as audio goes by.
#[derive(Debug, Clone, PartialEq)]
pub enum VadEvent {
    /// Speech has begun (for "listening…" and the badge).
    SpeechStarted,
    /// A whole utterance: pre-roll, speech, trailing silence.
    Utterance(Vec<f32>),
    /// Speech paused for `kept_silence_ms`, shorter than the silence that
    /// ends an utterance: the utterance as it will be if the pause lasts.
    Pausing(Vec<f32>),
    /// Speech that ended too short to be a word.
    Dropped,
}

#[derive(Debug)]
enum Phase {
    Silence,
    /// Loud frames seen, not yet enough to call it speech.
    Onset {
        loud_frames: usize,
    },
    Speech {
        silent_frames: usize,
        speech_frames: usize,
    },
}

pub struct Vad {
    config: VadConfig,
    phase: Phase,
    /// Levels (dB) of the last frames, for the noise floor.
    levels: std::collections::VecDeque<f32>,
    /// Reused for the floor's percentile (no allocation per frame).
    sorted: Vec<f32>,
    /// Noise floor in dB, following the quiet parts of the input.
    floor_db: Option<f32>,
    /// Samples not yet making a whole frame.
    partial: Vec<f32>,
    /// Recent frames before the onset (pre-roll and onset frames), with
    /// their levels.
    recent: std::collections::VecDeque<(f32, Vec<f32>)>,
    /// The utterance being collected, each of its frames' level, and the
    /// loudest level held in it (see [`loudest_sustained_db`]).
    utterance: Vec<f32>,
    levels_heard: Vec<f32>,
    loudest_heard: f32,
}

impl Vad {
    pub fn new(config: VadConfig) -> Self {
        Self {
            config,
            phase: Phase::Silence,
            levels: std::collections::VecDeque::with_capacity(FLOOR_FRAMES),
            sorted: Vec::with_capacity(FLOOR_FRAMES),
            floor_db: None,
            partial: Vec::with_capacity(FRAME),
            recent: std::collections::VecDeque::new(),
            utterance: Vec::new(),
            levels_heard: Vec::new(),
            loudest_heard: SILENCE_DB,
        }
    }

    /// Changes timing (passive ↔ active) without losing what is heard.
    pub fn set_config(&mut self, config: VadConfig) {
        self.config = config;
    }

    pub fn config(&self) -> VadConfig {
        self.config
    }

    /// Whether an utterance is under way.
    pub fn in_speech(&self) -> bool {
        matches!(self.phase, Phase::Speech { .. })
    }

    /// How long the utterance under way has been quiet, in ms (0 between
    /// utterances).
    pub fn quiet_ms(&self) -> usize {
        match self.phase {
            Phase::Speech { silent_frames, .. } => silent_frames * FRAME_MS,
            _ => 0,
        }
    }

    /// The audio of the utterance so far (for live partial transcripts).
    pub fn current(&self) -> &[f32] {
        &self.utterance[self.start() * FRAME..]
    }

    /// The noise floor (dBFS), once it has heard something.
    pub fn floor_db(&self) -> Option<f32> {
        self.floor_db
    }

    /// Feeds samples; answers what happened in them.
    pub fn push(&mut self, samples: &[f32]) -> Vec<VadEvent> {
        let mut events = Vec::new();
        for &s in samples {
            // A NaN or infinity from a broken source counts as silence.
            self.partial.push(if s.is_finite() { s } else { 0.0 });
            if self.partial.len() == FRAME {
                let frame = std::mem::replace(&mut self.partial, Vec::with_capacity(FRAME));
                self.frame(frame, &mut events);
            }
        }
        events
    }

    /// Ends any utterance now (the microphone stopped): answers it if it
    /// is long enough.
    pub fn flush(&mut self) -> Option<VadEvent> {
        let event = match self.phase {
            Phase::Speech {
                speech_frames,
                silent_frames,
            } => Some(self.finish(speech_frames, silent_frames)),
            _ => None,
        };
        self.reset();
        event
    }

    pub fn reset(&mut self) {
        self.phase = Phase::Silence;
        self.partial.clear();
        self.recent.clear();
        self.utterance.clear();
        self.levels_heard.clear();
        self.loudest_heard = SILENCE_DB;
    }

    fn frames(&self, ms: usize) -> usize {
        ms.div_ceil(FRAME_MS)
    }

    fn frame(&mut self, frame: Vec<f32>, events: &mut Vec<VadEvent>) {
        let level = level_db(&frame);
        // Judged against the floor before this frame joins it.
        let floor = self.floor_db.unwrap_or(level);
        let loud = level > self.config.min_level_db && level > floor + self.config.threshold_db;
        self.update_floor(level);

        match &mut self.phase {
            Phase::Silence | Phase::Onset { .. } => {
                self.recent.push_back((level, frame));
                let keep = self.frames(self.config.pre_roll_ms) + self.frames(self.config.onset_ms);
                while self.recent.len() > keep {
                    self.recent.pop_front();
                }
                let loud_frames = match self.phase {
                    Phase::Onset { loud_frames } if loud => loud_frames + 1,
                    Phase::Silence if loud => 1,
                    _ => 0,
                };
                if loud_frames >= self.frames(self.config.onset_ms) {
                    let (levels, frames): (Vec<f32>, Vec<Vec<f32>>) = self.recent.drain(..).unzip();
                    self.utterance = frames.concat();
                    self.loudest_heard = loudest_sustained_db(&levels);
                    self.levels_heard = levels;
                    self.phase = Phase::Speech {
                        silent_frames: 0,
                        speech_frames: loud_frames,
                    };
                    events.push(VadEvent::SpeechStarted);
                } else if loud_frames > 0 {
                    self.phase = Phase::Onset { loud_frames };
                } else {
                    self.phase = Phase::Silence;
                }
            }
            Phase::Speech {
                silent_frames,
                speech_frames,
            } => {
                self.utterance.extend_from_slice(&frame);
                self.levels_heard.push(level);
                let run = &self.levels_heard[self.levels_heard.len() - SUSTAINED_FRAMES..];
                self.loudest_heard = self.loudest_heard.max(loudest_sustained_db(run));
                if loud && level >= self.loudest_heard - self.config.span_db {
                    *silent_frames = 0;
                    *speech_frames += 1;
                } else {
                    *silent_frames += 1;
                }
                let (speech_frames, silent_frames) = (*speech_frames, *silent_frames);
                let end_silence = if speech_frames < self.frames(self.config.min_speech_ms) {
                    self.config
                        .end_silence_ms
                        .max(self.config.short_end_silence_ms)
                } else {
                    self.config.end_silence_ms
                };
                let ended = silent_frames >= self.frames(end_silence);
                // Counted from where it will start: a breath before the
                // words does not shorten them (only looked for once the
                // whole collection is long enough).
                let max = self.config.max_ms * SAMPLE_RATE / 1000;
                let too_long = self.utterance.len() >= max && self.current().len() >= max;
                if ended || too_long {
                    events.push(self.finish(speech_frames, silent_frames));
                    self.phase = Phase::Silence;
                } else if silent_frames == self.kept_frames()
                    && speech_frames >= self.frames(self.config.min_speech_ms)
                {
                    // Not ended, so the end silence is longer than the kept.
                    events.push(VadEvent::Pausing(self.pausing()));
                }
            }
        }
    }

    fn update_floor(&mut self, level: f32) {
        if self.levels.len() == FLOOR_FRAMES {
            self.levels.pop_front();
        }
        self.levels.push_back(level);
        self.sorted.clear();
        self.sorted.extend(self.levels.iter().copied());
        let k = self.sorted.len() / 10;
        let (_, kth, _) = self.sorted.select_nth_unstable_by(k, f32::total_cmp);
        self.floor_db = Some(*kth);
    }

    /// Trailing silent frames an utterance keeps as heard.
    fn kept_frames(&self) -> usize {
        self.frames(self.config.kept_silence_ms.min(self.config.end_silence_ms))
    }

    /// The utterance so far, the rest of the end silence as zeros: what
    /// [`Vad::finish`] answers if no speech comes before the pause ends.
    fn pausing(&self) -> Vec<f32> {
        let rest = self.frames(self.config.end_silence_ms) - self.kept_frames();
        let heard = self.current();
        let mut utterance = Vec::with_capacity(heard.len() + rest * FRAME);
        utterance.extend_from_slice(heard);
        utterance.resize(heard.len() + rest * FRAME, 0.0);
        utterance
    }

    /// The frame the utterance collected starts at: the pre-roll before
    /// its first frame within [`VadConfig::span_db`] of its loudest.
    fn start(&self) -> usize {
        let first = self
            .levels_heard
            .iter()
            .position(|&l| l >= self.loudest_heard - self.config.span_db)
            .unwrap_or(0);
        first.saturating_sub(self.frames(self.config.pre_roll_ms))
    }

    /// The utterance collected, its trailing silence past
    /// [`Vad::kept_frames`] written as zeros: Whisper hears the same
    /// samples as after a [`VadEvent::Pausing`] when speech did not resume
    /// (the room's noise there would make them differ).
    fn finish(&mut self, speech_frames: usize, silent_frames: usize) -> VadEvent {
        let start = self.start();
        self.levels_heard.clear();
        self.loudest_heard = SILENCE_DB;
        let mut utterance = std::mem::take(&mut self.utterance);
        utterance.drain(..start * FRAME);
        let extra = silent_frames.saturating_sub(self.kept_frames()) * FRAME;
        let from = utterance.len().saturating_sub(extra);
        utterance[from..].fill(0.0);
        if speech_frames < self.frames(self.config.min_speech_ms) {
            VadEvent::Dropped
        } else {
            VadEvent::Utterance(utterance)
        }
    }
}

/// The level of digital silence, in dBFS: no frame is quieter.
pub const SILENCE_DB: f32 = -100.0;

/// Frames in a row a level must hold to count as how loud an utterance is:
/// a click or a knock is shorter, and must not set it.
pub const SUSTAINED_FRAMES: usize = 3;

/// The loudest level held for [`SUSTAINED_FRAMES`] frames in a row (the
/// quietest frame of the loudest 60-ms run); [`SILENCE_DB`] if there are
/// fewer frames.
pub fn loudest_sustained_db(levels: &[f32]) -> f32 {
    levels
        .windows(SUSTAINED_FRAMES)
        .map(|run| run.iter().copied().fold(f32::INFINITY, f32::min))
        .fold(SILENCE_DB, f32::max)
}

/// RMS level of a frame in dBFS ([`SILENCE_DB`] for digital silence).
pub fn level_db(frame: &[f32]) -> f32 {
    let power = frame.iter().map(|s| s * s).sum::<f32>() / frame.len().max(1) as f32;
    10.0 * power.max(1e-10).log10()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Deterministic low noise at `amplitude`.
    fn noise(seconds: f32, amplitude: f32, seed: u32) -> Vec<f32> {
        let mut x = seed.wrapping_mul(2_654_435_761).max(1);
        (0..(seconds * SAMPLE_RATE as f32) as usize)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                (x as f32 / u32::MAX as f32 - 0.5) * 2.0 * amplitude
            })
            .collect()
    }

    /// Speech-like sound: a voiced tone with a syllable rhythm.
    fn speech(seconds: f32) -> Vec<f32> {
        (0..(seconds * SAMPLE_RATE as f32) as usize)
            .map(|i| {
                let t = i as f32 / SAMPLE_RATE as f32;
                let syllables = 0.6 + 0.4 * (2.0 * std::f32::consts::PI * 4.0 * t).sin();
                0.3 * syllables * (2.0 * std::f32::consts::PI * 160.0 * t).sin()
            })
            .collect()
    }

    fn run(vad: &mut Vad, parts: &[Vec<f32>]) -> Vec<VadEvent> {
        let audio: Vec<f32> = parts.concat();
        // As an AudioWorklet delivers it: 128-sample blocks.
        audio.chunks(128).flat_map(|b| vad.push(b)).collect()
    }

    /// The samples of the utterances among `events`, or of the pauses.
    fn samples_of(events: &[VadEvent], pauses: bool) -> Vec<&[f32]> {
        events
            .iter()
            .filter_map(|e| match (e, pauses) {
                (VadEvent::Utterance(u), false) | (VadEvent::Pausing(u), true) => {
                    Some(u.as_slice())
                }
                _ => None,
            })
            .collect()
    }

    fn utterances(events: &[VadEvent]) -> Vec<usize> {
        samples_of(events, false).iter().map(|u| u.len()).collect()
    }

    fn pausings(events: &[VadEvent]) -> Vec<&[f32]> {
        samples_of(events, true)
    }

    fn ms(samples: usize) -> usize {
        samples * 1000 / SAMPLE_RATE
    }

    #[test]
    fn one_utterance_with_pre_roll_and_trailing_silence() {
        let mut vad = Vad::new(VadConfig::PASSIVE);
        let events = run(
            &mut vad,
            &[noise(1.0, 0.001, 1), speech(1.0), noise(1.0, 0.001, 2)],
        );
        assert_eq!(events[0], VadEvent::SpeechStarted);
        let lengths = utterances(&events);
        assert_eq!(lengths.len(), 1, "{events:?}");
        // 200 ms pre-roll + 1 s + 300 ms of trailing silence, in frames.
        let length = ms(lengths[0]);
        assert!((1_460..=1_540).contains(&length), "{length} ms");
    }

    #[test]
    fn active_mode_waits_out_a_pause_that_passive_splits_on() {
        let sentence = [
            noise(0.5, 0.001, 3),
            speech(0.8),
            noise(0.5, 0.001, 4),
            speech(0.8),
            noise(1.0, 0.001, 5),
        ];
        let passive = utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &sentence));
        let active = utterances(&run(&mut Vad::new(VadConfig::ACTIVE), &sentence));
        assert_eq!(passive.len(), 2, "a 500-ms pause ends a passive utterance");
        assert_eq!(active.len(), 1, "but not a command");
        assert!(ms(active[0]) > 2_500, "{} ms", ms(active[0]));
    }

    #[test]
    fn a_command_pause_gives_the_utterance_early_as_its_end_will() {
        let command = [noise(0.5, 0.001, 20), speech(0.8), noise(1.0, 0.001, 21)];
        let events = run(&mut Vad::new(VadConfig::ACTIVE), &command);
        let (early, done) = (pausings(&events), utterances(&events));
        assert_eq!(early.len(), 1, "{events:?}");
        assert_eq!(done.len(), 1);
        let VadEvent::Utterance(utterance) = events.last().unwrap() else {
            panic!("{events:?}");
        };
        assert_eq!(early[0], utterance.as_slice(), "the very same samples");
        // The room's noise for the 300 ms kept, then zeros to 700 ms.
        let kept_from = utterance.len() - 700 * 16;
        let zeros_from = utterance.len() - 400 * 16;
        assert!(utterance[kept_from..zeros_from].iter().any(|&x| x != 0.0));
        assert!(utterance[zeros_from..].iter().all(|&x| x == 0.0));
        // Waiting for the wake word, the pause that ends an utterance is
        // the one kept: nothing comes early.
        let passive = run(&mut Vad::new(VadConfig::PASSIVE), &command);
        assert!(pausings(&passive).is_empty(), "{passive:?}");
        assert_eq!(utterances(&passive).len(), 1);
    }

    #[test]
    fn quiet_is_counted_from_the_last_loud_frame_of_an_utterance() {
        let mut vad = Vad::new(VadConfig::ACTIVE);
        run(&mut vad, &[noise(0.5, 0.001, 25)]);
        assert_eq!(vad.quiet_ms(), 0, "no utterance yet");
        run(&mut vad, &[speech(0.8)]);
        // Voiced speech has no 100 ms without sound.
        assert!(vad.quiet_ms() < 100, "{} ms", vad.quiet_ms());
        run(&mut vad, &[noise(0.4, 0.001, 26)]);
        assert!(
            (380..=420).contains(&vad.quiet_ms()),
            "{} ms",
            vad.quiet_ms()
        );
        // Speech again: quiet no more.
        run(&mut vad, &[speech(0.3)]);
        assert!(vad.quiet_ms() < 100, "{} ms", vad.quiet_ms());
        // Past the end of the utterance: none under way.
        run(&mut vad, &[noise(1.0, 0.001, 27)]);
        assert_eq!(vad.quiet_ms(), 0);
    }

    #[test]
    fn speech_that_resumes_after_a_pause_makes_a_longer_utterance() {
        let command = [
            noise(0.5, 0.001, 22),
            speech(0.8),
            noise(0.5, 0.001, 23),
            speech(0.8),
            noise(1.0, 0.001, 24),
        ];
        let events = run(&mut Vad::new(VadConfig::ACTIVE), &command);
        let (early, done) = (pausings(&events), utterances(&events));
        assert_eq!(early.len(), 2, "one per pause: {events:?}");
        assert_eq!(done.len(), 1);
        assert!(early[0].len() < done[0], "the first pause was not the end");
        assert_eq!(early[1].len(), done[0]);
    }

    #[test]
    fn clicks_and_short_sounds_are_dropped() {
        let mut vad = Vad::new(VadConfig::PASSIVE);
        // 60 ms: never even starts; 200 ms: starts, but is under 0.3 s
        // (dropped once a command's pause has passed with no more).
        let events = run(
            &mut vad,
            &[
                noise(0.5, 0.001, 6),
                speech(0.06),
                noise(0.5, 0.001, 7),
                speech(0.2),
                noise(0.9, 0.001, 8),
            ],
        );
        assert!(utterances(&events).is_empty(), "{events:?}");
        assert_eq!(
            events.iter().filter(|e| **e == VadEvent::Dropped).count(),
            1
        );
    }

    #[test]
    fn speech_too_short_to_keep_waits_a_command_pause_for_more() {
        // A soft "hey fox" in noise, its quiet sounds under the floor: 200
        // ms of speech, then a pause longer than the 300 ms that end
        // passive speech, then the command. One utterance, both in it.
        let said = [
            noise(0.5, 0.001, 30),
            speech(0.2),
            noise(0.5, 0.001, 31),
            speech(0.8),
            noise(1.0, 0.001, 32),
        ];
        let heard = utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &said));
        assert_eq!(heard.len(), 1, "{heard:?}");
        assert!(ms(heard[0]) > 1_700, "{} ms", ms(heard[0]));
        // After a pause longer than a command's, the burst is dropped and
        // the speech after it is heard alone.
        let apart = [
            noise(0.5, 0.001, 33),
            speech(0.2),
            noise(1.0, 0.001, 34),
            speech(0.8),
            noise(1.0, 0.001, 35),
        ];
        let events = run(&mut Vad::new(VadConfig::PASSIVE), &apart);
        let heard = utterances(&events);
        assert_eq!(heard.len(), 1, "{events:?}");
        assert!(ms(heard[0]) < 1_400, "{} ms", ms(heard[0]));
        assert!(events.contains(&VadEvent::Dropped), "{events:?}");
    }

    #[test]
    fn a_short_answer_is_heard_while_taking_a_command() {
        // 200 ms, as a short "no": dropped while waiting for the wake
        // word, an utterance while a command (or an answer) is expected.
        let answer = [noise(0.5, 0.001, 9), speech(0.2), noise(1.0, 0.001, 10)];
        let passive = utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &answer));
        let active = utterances(&run(&mut Vad::new(VadConfig::ACTIVE), &answer));
        assert!(passive.is_empty(), "{passive:?}");
        assert_eq!(active.len(), 1, "{active:?}");
        // A click still is not.
        let click = [noise(0.5, 0.001, 11), speech(0.06), noise(1.0, 0.001, 12)];
        assert!(utterances(&run(&mut Vad::new(VadConfig::ACTIVE), &click)).is_empty());
    }

    #[test]
    fn speech_from_a_microphone_set_low_is_speech_and_a_silent_room_is_not() {
        let scaled = |seconds, gain: f32| -> Vec<f32> {
            speech(seconds).into_iter().map(|s| s * gain).collect()
        };
        // Loudest frames at −53.5 dBFS (40 dB under `speech`), over a quiet
        // microphone's hiss near −80.
        let low = [
            noise(1.0, 0.0002, 30),
            scaled(0.8, 0.01),
            noise(1.0, 0.0002, 31),
        ];
        assert_eq!(
            utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &low)).len(),
            1
        );
        // A faint sound near −75 dBFS in digital silence is far above that
        // floor, but under any voice meant for us.
        let faint = [vec![0.0; 16_000], scaled(0.8, 0.001), vec![0.0; 16_000]];
        assert!(utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &faint)).is_empty());
    }

    #[test]
    fn a_breath_far_under_the_words_is_not_speech_at_any_gain() {
        // Digital silence, a breath near −60 dBFS (47 dB under the words),
        // words, a breath-filled pause, words, silence.
        let said = [
            vec![0.0; 8_000],
            noise(0.4, 0.0017, 40),
            speech(0.8),
            noise(0.4, 0.0017, 41),
            speech(0.8),
            vec![0.0; 16_000],
        ];
        for gain in [1.0, 0.03] {
            let audio: Vec<Vec<f32>> = said
                .iter()
                .map(|part| part.iter().map(|s| s * gain).collect())
                .collect();
            let heard = utterances(&run(&mut Vad::new(VadConfig::PASSIVE), &audio));
            // Two utterances (the 400-ms pause ends the first while
            // waiting for the wake word), each its words with the
            // pre-roll and kept silence, not the breath before it.
            assert_eq!(heard.len(), 2, "{gain}: {heard:?}");
            for samples in heard {
                assert!(
                    (1_000..=1_400).contains(&ms(samples)),
                    "{gain}: {}",
                    ms(samples)
                );
            }
        }
    }

    #[test]
    fn a_pause_after_a_breath_gives_the_utterance_as_its_end_will() {
        // While taking a command: a breath 47 dB under the words, the
        // words, a pause long enough to hear early, then silence.
        let said = [
            vec![0.0; 8_000],
            noise(0.4, 0.0017, 50),
            speech(0.8),
            vec![0.0; 24_000],
        ];
        let events = run(&mut Vad::new(VadConfig::ACTIVE), &said);
        let early = pausings(&events);
        let last = samples_of(&events, false);
        assert_eq!((early.len(), last.len()), (1, 1), "{events:?}");
        assert_eq!(early[0], last[0]);
        // The pre-roll, the words and the end silence: not the breath.
        assert!(
            (1_600..=1_800).contains(&ms(last[0].len())),
            "{}",
            ms(last[0].len())
        );
    }

    #[test]
    fn long_speech_is_cut_at_30_seconds() {
        let mut vad = Vad::new(VadConfig::PASSIVE);
        let events = run(&mut vad, &[noise(0.2, 0.001, 9), speech(31.0)]);
        let lengths = utterances(&events);
        assert_eq!(lengths, vec![30 * SAMPLE_RATE], "{lengths:?}");
        assert!(vad.in_speech() || vad.current().is_empty());
    }

    #[test]
    fn the_floor_adapts_to_a_noisy_room() {
        let mut vad = Vad::new(VadConfig::PASSIVE);
        // A steady hum at -31 dBFS: after 5 s it is the new silence…
        let hum = noise(6.0, 0.05, 10);
        let events = run(&mut vad, &[noise(0.5, 0.001, 11), hum.clone()]);
        let floor = vad.floor_db().unwrap();
        assert!(floor > -35.0, "floor {floor} dB follows the hum");
        let settled: Vec<_> = run(&mut vad, &[noise(2.0, 0.05, 12)]);
        assert!(utterances(&settled).is_empty(), "{settled:?}");
        // …and speech over it is still heard.
        let loud: Vec<f32> = speech(1.0).iter().map(|s| s * 3.0).collect();
        let over: Vec<f32> = loud
            .iter()
            .zip(noise(1.0, 0.05, 13))
            .map(|(s, n)| s + n)
            .collect();
        let events2 = run(&mut vad, &[over, noise(1.0, 0.05, 14)]);
        assert_eq!(utterances(&events2).len(), 1, "{events:?} {events2:?}");
    }

    #[test]
    fn flush_answers_speech_under_way_and_bad_samples_are_silence() {
        let mut vad = Vad::new(VadConfig::ACTIVE);
        run(&mut vad, &[noise(0.3, 0.001, 15), speech(0.6)]);
        assert!(vad.in_speech());
        assert!(matches!(vad.flush(), Some(VadEvent::Utterance(_))));
        assert!(!vad.in_speech());
        let events = vad.push(&[f32::NAN; 16_000]);
        assert!(events.is_empty());
        assert_eq!(vad.flush(), None);
    }
}
