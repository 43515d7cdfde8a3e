//! The spoken-command corpus: every line of `tests/speech/commands.corpus`
//! said by Debian's voices (festival's HTS and diphone voices, flite's,
//! espeak-ng's), at 16, 44.1 and 48 kHz, some over room noise; with "hey
//! fox" in one breath, "hey fox" then the command, or after the mic button;
//! and speech not meant for us (`tests/speech/not_for_us.txt`), near
//! misses of the wake word included. Which voice, rate and room each
//! recording gets is fixed by its position, so the corpus is the same on
//! every machine; it is generated at test time, never committed.

use crate::hear::Listen;
use crate::lexicon::{self, Names};
use ext_core::corpus::{self, Case};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A text-to-speech voice: the command that says text into a WAV.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Voice {
    pub name: &'static str,
    program: &'static str,
    /// For festival: the voice to select; otherwise the voice argument.
    voice: &'static str,
}

/// Seven voices (nine with espeak-ng's accents), from the easiest for
/// tiny.en to the hardest.
pub const VOICES: &[Voice] = &[
    Voice {
        name: "festival-slt-hts",
        program: "text2wave",
        voice: "(voice_cmu_us_slt_arctic_hts)",
    },
    Voice {
        name: "festival-kal",
        program: "text2wave",
        voice: "(voice_kal_diphone)",
    },
    Voice {
        name: "festival-ked",
        program: "text2wave",
        voice: "(voice_ked_diphone)",
    },
    Voice {
        name: "flite-rms",
        program: "flite",
        voice: "rms",
    },
    Voice {
        name: "flite-slt",
        program: "flite",
        voice: "slt",
    },
    Voice {
        name: "flite-awb",
        program: "flite",
        voice: "awb",
    },
    Voice {
        name: "flite-kal16",
        program: "flite",
        voice: "kal16",
    },
    Voice {
        name: "espeak-en-us",
        program: "espeak-ng",
        voice: "en-us",
    },
    Voice {
        name: "espeak-en-gb",
        program: "espeak-ng",
        voice: "en-gb",
    },
];

impl Voice {
    /// Says `text` into `out` (a WAV at the voice's own rate), the names
    /// of [`lexicon::LEXICON`] as `names` says.
    pub fn say(&self, text: &str, out: &Path, names: Names) -> Result<(), String> {
        let taught = names == Names::AsSpoken;
        // Beside `out`, named after it: two recordings said at once never
        // share them.
        let lexicon = out.with_extension("lex");
        let status = match self.program {
            "text2wave" => {
                let script = out.with_extension("txt");
                std::fs::write(&script, text).map_err(|e| e.to_string())?;
                // The voice first: its lexicon is the one added to.
                let mut setup = format!("{}\n", self.voice);
                if taught {
                    setup.push_str(&lexicon::festival_entries());
                }
                std::fs::write(&lexicon, setup).map_err(|e| e.to_string())?;
                Command::new("text2wave")
                    .arg("-eval")
                    .arg(&lexicon)
                    .arg("-o")
                    .arg(out)
                    .arg(&script)
                    .output()
                    .inspect(|_| {
                        let _ = std::fs::remove_file(&script);
                    })
            }
            "flite" => {
                let mut flite = Command::new("flite");
                if taught {
                    std::fs::write(&lexicon, lexicon::flite_addenda())
                        .map_err(|e| e.to_string())?;
                    flite.arg("-add_lex").arg(&lexicon);
                }
                flite
                    .args(["-voice", self.voice, "-t", text, "-o"])
                    .arg(out)
                    .output()
            }
            _ => {
                let text = if taught {
                    lexicon::espeak_text(text)
                } else {
                    text.to_string()
                };
                Command::new("espeak-ng")
                    .args(["-v", self.voice, "-w"])
                    .arg(out)
                    .arg(text)
                    .output()
            }
        }
        .inspect(|_| {
            let _ = std::fs::remove_file(&lexicon);
        })
        .map_err(|e| {
            format!(
                "{} did not run ({e}): install festival, flite and espeak-ng",
                self.program
            )
        })?;
        if !status.status.success() || !out.exists() {
            return Err(format!(
                "{} failed to say {text:?}: {}",
                self.name,
                String::from_utf8_lossy(&status.stderr)
            ));
        }
        Ok(())
    }
}

/// What a recording holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// A command alone, after the mic button (listening active).
    Command,
    /// "hey fox, <command>" in one breath, while waiting for the wake word.
    OneBreath,
    /// "hey fox", a pause, then the command.
    WakeThenCommand,
    /// Speech not meant for us, while waiting for the wake word.
    NotForUs,
}

/// One recording of the corpus.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Recording {
    pub id: usize,
    /// The WAV's name in the corpus directory.
    pub file: String,
    pub voice: String,
    pub rate: u32,
    /// Pink noise this many dB below the speech, if any.
    pub snr_db: Option<f32>,
    pub kind: Kind,
    /// The words spoken.
    pub said: String,
    /// The command line of `commands.corpus` it says (none for speech not
    /// meant for us), by its position among the cases.
    pub case: Option<usize>,
    /// In the fixed subset that `make bench` compares every decoding on.
    pub subset: bool,
    /// How the voice says names it would misread (see [`lexicon`]).
    #[serde(default)]
    pub names: Names,
}

impl Recording {
    /// A clean recording outside the corpus (a test's, the demo's, a
    /// bench's), its file named with `prefix` and the usual digest.
    pub fn extra(prefix: &str, id: usize, voice: &str, rate: u32, kind: Kind, said: &str) -> Self {
        Recording {
            id,
            file: format!(
                "{prefix}-{}",
                file_name(id, voice, rate, None, kind, said, Names::AsSpoken)
            ),
            voice: voice.into(),
            rate,
            snr_db: None,
            kind,
            said: said.into(),
            case: None,
            subset: false,
            names: Names::AsSpoken,
        }
    }

    /// The same recording with its names read by the voice's rules, as a
    /// test of the mends for misheard names needs them.
    pub fn names_by_rule(self) -> Self {
        let file = self.file.replace(
            &file_name(
                self.id,
                &self.voice,
                self.rate,
                self.snr_db,
                self.kind,
                &self.said,
                self.names,
            ),
            &file_name(
                self.id,
                &self.voice,
                self.rate,
                self.snr_db,
                self.kind,
                &self.said,
                Names::ByRule,
            ),
        );
        Recording {
            file,
            names: Names::ByRule,
            ..self
        }
    }

    pub fn listen(&self) -> Listen {
        match self.kind {
            Kind::Command => Listen::Active,
            _ => Listen::Passive,
        }
    }
}

/// A recording's file name: its number, voice, rate and noise, and a
/// digest of all it says and how, so that a corpus generated before the
/// lines changed, or by an older way of saying them ([`SAID_BY`]), is
/// never taken for the new one.
pub fn file_name(
    id: usize,
    voice: &str,
    rate: u32,
    snr_db: Option<f32>,
    kind: Kind,
    said: &str,
    names: Names,
) -> String {
    let noise = snr_db.map(|s| format!("-snr{s}")).unwrap_or_default();
    // Names read by rule keep the digests of before the lexicon, so a
    // corpus said then is that corpus.
    let said_by = match names {
        Names::ByRule => SAID_BY.to_string(),
        Names::AsSpoken => format!("{SAID_BY}+{NAMES_TAUGHT}"),
    };
    // FNV-1a: stable across Rust versions and machines, unlike `Hash`.
    let digest = format!("{said_by}|{voice}|{rate}|{noise}|{kind:?}|{said}")
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        });
    format!("{id:03}-{voice}-{rate}{noise}-{:08x}.wav", digest as u32)
}

/// How recordings are made, in file names' digests: changed whenever the
/// same lines would come out as other samples.
const SAID_BY: &str = "sox-repeatable";
/// Changed whenever [`lexicon::LEXICON`] changes.
const NAMES_TAUGHT: &str = "lexicon-2";

/// Every fifth recording: the subset the decoding schemes are charted on.
const SUBSET_EVERY: usize = 5;

/// The corpus: each command in four recordings, each sentence not meant
/// for us in one.
pub fn plan(cases: &[Case], not_for_us: &[String]) -> Vec<Recording> {
    plan_with_voices_shifted(cases, not_for_us, 0, Names::AsSpoken)
}

/// [`plan`] with every recording's voice moved `shift` places along
/// [`VOICES`]: a held-out corpus of the same sentences, three of each
/// command's four recordings in a voice that never said it in the corpus
/// the thresholds were measured on (no shift avoids all four).
///
/// `names`: how the voices say the names they would misread.
pub fn plan_with_voices_shifted(
    cases: &[Case],
    not_for_us: &[String],
    shift: usize,
    names: Names,
) -> Vec<Recording> {
    let mut out = Vec::new();
    let push = |out: &mut Vec<Recording>,
                voice: usize,
                rate: u32,
                snr: Option<f32>,
                kind: Kind,
                said: String,
                case: Option<usize>| {
        let id = out.len();
        let voice = VOICES[(voice + shift) % VOICES.len()];
        out.push(Recording {
            id,
            file: file_name(id, voice.name, rate, snr, kind, &said, names),
            voice: voice.name.into(),
            rate,
            snr_db: snr,
            kind,
            said,
            case,
            subset: id.is_multiple_of(SUBSET_EVERY),
            names,
        });
    };
    for (i, case) in cases.iter().enumerate() {
        let command = &case.utterance;
        push(
            &mut out,
            i,
            16_000,
            None,
            Kind::Command,
            command.clone(),
            Some(i),
        );
        push(
            &mut out,
            i + 3,
            48_000,
            None,
            Kind::OneBreath,
            format!("hey fox, {command}"),
            Some(i),
        );
        push(
            &mut out,
            i + 6,
            44_100,
            Some(25.0),
            Kind::WakeThenCommand,
            format!("hey fox. {command}"),
            Some(i),
        );
        push(
            &mut out,
            i + 1,
            48_000,
            Some(20.0),
            Kind::Command,
            command.clone(),
            Some(i),
        );
    }
    for (j, sentence) in not_for_us.iter().enumerate() {
        let rate = if j % 2 == 0 { 16_000 } else { 48_000 };
        let snr = (j % 3 == 0).then_some(25.0);
        push(
            &mut out,
            j,
            rate,
            snr,
            Kind::NotForUs,
            sentence.clone(),
            None,
        );
    }
    out
}

/// The command cases and sentences not meant for us, from `dir`
/// (`tests/speech`).
pub fn load(dir: &Path) -> Result<(Vec<Case>, Vec<String>), String> {
    let read = |name: &str| {
        std::fs::read_to_string(dir.join(name))
            .map_err(|e| format!("{}: {e}", dir.join(name).display()))
    };
    let cases = corpus::parse("commands.corpus", &read("commands.corpus")?)?;
    let not_for_us = read("not_for_us.txt")?
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    Ok((cases, not_for_us))
}

/// The snapshot the commands are checked against.
pub fn state(dir: &Path) -> Result<ext_core::State, String> {
    let path = dir.join("state.json");
    let text = std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    serde_json::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Pause between "hey fox" and the command when said apart.
const WAKE_PAUSE_SECONDS: f32 = 0.9;
/// Silence before and after the speech in each file.
const LEAD_SECONDS: f32 = 0.4;
const TAIL_SECONDS: f32 = 0.5;

/// Where `make speech-models` keeps the real weights converted for the
/// extension (`TW_SPEECH_MODELS`, which the Makefile exports; else its
/// default under the tools cache): `tiny.en-q8_0`, `base-f32`, ….
pub fn real_models_dir() -> PathBuf {
    std::env::var_os("TW_SPEECH_MODELS")
        .map(PathBuf::from)
        .unwrap_or_else(|| {
            let home = std::env::var_os("HOME").unwrap_or_default();
            Path::new(&home).join(".cache/tab-whisperer/tools/speech/models")
        })
}

/// The faster-whisper packages those were converted from (`tiny.en`,
/// `base`: `model.bin`, `config.json`, `tokenizer.json`, …), beside them.
pub fn faster_whisper_dir() -> PathBuf {
    real_models_dir().with_file_name("faster-whisper")
}

/// Says one recording into `dir`.
/// [`synthesize`], unless the recording is in `dir` already: its path.
pub fn said_in(r: &Recording, dir: &Path) -> Result<PathBuf, String> {
    let path = dir.join(&r.file);
    if path.exists() {
        return Ok(path);
    }
    synthesize(r, dir).map_err(|e| format!("{e} (make speech-tools installs the voices)"))
}

pub fn synthesize(r: &Recording, dir: &Path) -> Result<PathBuf, String> {
    let voice = VOICES
        .iter()
        .find(|v| v.name == r.voice)
        .ok_or_else(|| format!("unknown voice {}", r.voice))?;
    // Named after the file: two recordings said at once never share it.
    let work = dir.join(format!("{}.work", r.file));
    std::fs::create_dir_all(&work).map_err(|e| e.to_string())?;
    let speak = |text: &str, name: &str| -> Result<Vec<f32>, String> {
        let native = work.join(format!("{name}.native.wav"));
        voice.say(text, &native, r.names)?;
        let resampled = work.join(format!("{name}.wav"));
        // -R: sox dithers its 16-bit output with noise seeded afresh on
        // every run, so the same recording differed by a bit here and
        // there each time it was said, enough to flip a borderline wake
        // phrase between two machines. Repeatable mode seeds it fixed.
        let out = Command::new("sox")
            .arg("-R")
            .arg(&native)
            .args(["-r", &r.rate.to_string(), "-c", "1", "-b", "16"])
            .arg(&resampled)
            .args(["rate", "-v"])
            .output()
            .map_err(|e| format!("sox did not run ({e}): install sox"))?;
        if !out.status.success() {
            return Err(format!("sox: {}", String::from_utf8_lossy(&out.stderr)));
        }
        read_samples(&resampled)
    };
    let silence = |seconds: f32| vec![0.0f32; (seconds * r.rate as f32) as usize];
    let speech = match r.kind {
        Kind::WakeThenCommand => {
            let (wake, command) = r.said.split_once(". ").unwrap_or(("hey fox", &r.said));
            [
                speak(wake, "wake")?,
                silence(WAKE_PAUSE_SECONDS),
                speak(command, "command")?,
            ]
            .concat()
        }
        _ => speak(&r.said, "speech")?,
    };
    let mut samples = [silence(LEAD_SECONDS), speech, silence(TAIL_SECONDS)].concat();
    // Loud voices clip: a little headroom for the noise.
    let peak = samples.iter().fold(0f32, |m, x| m.max(x.abs()));
    if peak > 0.7 {
        samples.iter_mut().for_each(|x| *x *= 0.7 / peak);
    }
    if let Some(snr) = r.snr_db {
        add_pink_noise(&mut samples, snr, r.id as u64);
    }
    let path = dir.join(&r.file);
    write_wav(&path, &samples, r.rate)?;
    let _ = std::fs::remove_dir_all(&work);
    Ok(path)
}

fn read_samples(path: &Path) -> Result<Vec<f32>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    ext_worker::audio::read_wav(&bytes)
        .map(|a| a.samples)
        .map_err(|e| e.message)
}

pub fn write_wav(path: &Path, samples: &[f32], rate: u32) -> Result<(), String> {
    let spec = hound::WavSpec {
        channels: 1,
        sample_rate: rate,
        bits_per_sample: 16,
        sample_format: hound::SampleFormat::Int,
    };
    let mut w = hound::WavWriter::create(path, spec).map_err(|e| e.to_string())?;
    for x in samples {
        w.write_sample((x.clamp(-1.0, 1.0) * 32767.0) as i16)
            .map_err(|e| e.to_string())?;
    }
    w.finalize().map_err(|e| e.to_string())
}

/// Mixes in pink noise `snr_db` below the speech's loudness (the RMS of the
/// samples above a silence floor), seeded so it is the same every run.
pub fn add_pink_noise(samples: &mut [f32], snr_db: f32, seed: u64) {
    let voiced: Vec<f32> = samples.iter().copied().filter(|x| x.abs() > 1e-3).collect();
    if voiced.is_empty() {
        return;
    }
    let speech_rms = (voiced.iter().map(|x| x * x).sum::<f32>() / voiced.len() as f32).sqrt();
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut white = move || {
        // xorshift64*: uniform in [-1, 1).
        state ^= state >> 12;
        state ^= state << 25;
        state ^= state >> 27;
        let v = state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40;
        v as f32 / (1u64 << 23) as f32 - 1.0
    };
    // Paul Kellet's economical pink filter.
    let (mut b0, mut b1, mut b2) = (0f32, 0f32, 0f32);
    let noise: Vec<f32> = (0..samples.len())
        .map(|_| {
            let w = white();
            b0 = 0.99765 * b0 + w * 0.0990460;
            b1 = 0.96300 * b1 + w * 0.2965164;
            b2 = 0.57000 * b2 + w * 1.0526913;
            b0 + b1 + b2 + w * 0.1848
        })
        .collect();
    let noise_rms = (noise.iter().map(|x| x * x).sum::<f32>() / noise.len() as f32).sqrt();
    let gain = speech_rms / (noise_rms * 10f32.powf(snr_db / 20.0));
    for (s, n) in samples.iter_mut().zip(noise) {
        *s += n * gain;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(text: &str) -> Case {
        Case {
            file: "t".into(),
            line: 1,
            state: "speech".into(),
            intent: "close".into(),
            first: vec![],
            utterance: text.into(),
            expect: vec!["nothing".into()],
        }
    }

    #[test]
    fn each_command_is_recorded_four_ways_and_the_plan_is_fixed() {
        let cases: Vec<Case> = (0..20).map(|i| case(&format!("close tab {i}"))).collect();
        let plan = plan(&cases, &["I'll call you back".into()]);
        assert_eq!(plan.len(), 81);
        let kinds = |k: Kind| plan.iter().filter(|r| r.kind == k).count();
        assert_eq!(kinds(Kind::Command), 40);
        assert_eq!(kinds(Kind::OneBreath), 20);
        assert_eq!(kinds(Kind::WakeThenCommand), 20);
        assert_eq!(kinds(Kind::NotForUs), 1);
        // Every voice and rate is used; a fifth of the corpus is the subset.
        for v in VOICES {
            assert!(plan.iter().any(|r| r.voice == v.name), "{}", v.name);
        }
        for rate in [16_000, 44_100, 48_000] {
            assert!(plan.iter().any(|r| r.rate == rate));
        }
        assert_eq!(plan.iter().filter(|r| r.subset).count(), 17);
        assert_eq!(plan, super::plan(&cases, &["I'll call you back".into()]));
        assert_eq!(plan[1].said, "hey fox, close tab 0");
    }

    #[test]
    fn a_held_out_corpus_says_the_same_mostly_in_other_voices() {
        let cases: Vec<Case> = (0..20).map(|i| case(&format!("close tab {i}"))).collect();
        let not_for_us = ["I'll call you back".to_string()];
        let corpus = plan(&cases, &not_for_us);
        let held_out = plan_with_voices_shifted(&cases, &not_for_us, 4, Names::AsSpoken);
        assert_eq!(corpus.len(), held_out.len());
        let said = |p: &[Recording]| p.iter().map(|r| r.said.clone()).collect::<Vec<_>>();
        assert_eq!(said(&corpus), said(&held_out));
        // Each command's voices in the held-out corpus, against the ones
        // that said it in the corpus: at most one of four is the same.
        for (i, _) in cases.iter().enumerate() {
            let voices = |p: &[Recording]| {
                p.iter()
                    .filter(|r| r.case == Some(i))
                    .map(|r| r.voice.clone())
                    .collect::<Vec<_>>()
            };
            let before = voices(&corpus);
            let again = voices(&held_out).into_iter().filter(|v| before.contains(v));
            assert!(again.count() <= 1, "command {i}");
        }
        assert_ne!(corpus[0].file, held_out[0].file);
    }

    #[test]
    fn the_committed_corpus_says_every_family_in_every_way() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/speech");
        let (cases, not_for_us) = load(&dir).unwrap();
        let plan = plan(&cases, &not_for_us);
        assert!(plan.len() >= 300, "{} recordings", plan.len());
        assert!(not_for_us.len() >= 20);
        // Near misses of the wake word are among the sentences not for us.
        assert!(not_for_us
            .iter()
            .any(|s| s.to_lowercase().contains("fox") || s.to_lowercase().contains("hey")));
        let mut families: Vec<&str> = cases.iter().map(|c| c.intent.as_str()).collect();
        families.dedup();
        for family in [
            "close",
            "switch",
            "open",
            "tab_actions",
            "groups",
            "move",
            "search",
            "bookmarks",
            "questions",
            "browse",
            "undo",
            "confirm",
            "compound",
        ] {
            assert!(families.contains(&family), "{family} is never said");
            for kind in [Kind::Command, Kind::OneBreath, Kind::WakeThenCommand] {
                assert!(
                    plan.iter().any(
                        |r| r.kind == kind && r.case.is_some_and(|i| cases[i].intent == family)
                    ),
                    "{family} is never said as {kind:?}"
                );
            }
        }
        assert!(plan.iter().any(|r| r.snr_db.is_some()));
        // Every file name differs: a recording is never read for another.
        let mut names: Vec<&str> = plan.iter().map(|r| r.file.as_str()).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), plan.len());
    }

    #[test]
    fn a_file_name_changes_with_what_is_said_and_how() {
        let a = file_name(
            3,
            "flite-rms",
            16_000,
            None,
            Kind::Command,
            "close jira",
            Names::AsSpoken,
        );
        assert!(
            a.starts_with("003-flite-rms-16000-") && a.ends_with(".wav"),
            "{a}"
        );
        assert_eq!(
            a,
            file_name(
                3,
                "flite-rms",
                16_000,
                None,
                Kind::Command,
                "close jira",
                Names::AsSpoken
            )
        );
        assert_ne!(
            a,
            file_name(
                3,
                "flite-rms",
                16_000,
                None,
                Kind::Command,
                "close gmail",
                Names::AsSpoken
            )
        );
        assert_ne!(
            a,
            file_name(
                3,
                "flite-rms",
                16_000,
                None,
                Kind::OneBreath,
                "close jira",
                Names::AsSpoken
            )
        );
        assert_ne!(
            a,
            file_name(
                3,
                "flite-rms",
                16_000,
                Some(20.0),
                Kind::Command,
                "close jira",
                Names::AsSpoken,
            )
        );
        // Names read by rule are other samples, named as before the lexicon
        // (this is the name the corpus's first recording had then).
        let by_rule = |said: &str| {
            file_name(
                0,
                "festival-slt-hts",
                16_000,
                None,
                Kind::Command,
                said,
                Names::ByRule,
            )
        };
        assert_eq!(
            by_rule("close all the youtube tabs"),
            "000-festival-slt-hts-16000-88ddb634.wav"
        );
        assert_ne!(
            by_rule("close jira"),
            file_name(
                0,
                "festival-slt-hts",
                16_000,
                None,
                Kind::Command,
                "close jira",
                Names::AsSpoken
            )
        );
    }

    #[test]
    fn pink_noise_lands_at_the_asked_level_and_is_repeatable() {
        let tone: Vec<f32> = (0..16_000).map(|i| (i as f32 * 0.05).sin() * 0.3).collect();
        let mut a = tone.clone();
        add_pink_noise(&mut a, 20.0, 7);
        let noise: Vec<f32> = a.iter().zip(&tone).map(|(x, t)| x - t).collect();
        let rms = |v: &[f32]| (v.iter().map(|x| x * x).sum::<f32>() / v.len() as f32).sqrt();
        let snr = 20.0 * (rms(&tone) / rms(&noise)).log10();
        assert!((snr - 20.0).abs() < 0.5, "{snr} dB");
        let mut b = tone.clone();
        add_pink_noise(&mut b, 20.0, 7);
        assert_eq!(a, b);
    }
}
