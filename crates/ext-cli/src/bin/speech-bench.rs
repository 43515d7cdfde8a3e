//! speech-bench --model DIR [--model DIR …] [--schemes S,S,…] [--subset]
//!              [--chart DIR=S,S,… …]
//!              [--corpus target/speech-corpus] [--dir tests/speech] [--misses]
//!              [--jobs N] [--held-out DIR --held-out-model DIR …]
//!              [--unseen DIR --unseen-dir tests/speech-unseen --unseen-model DIR …]
//!              [--fresh DIR --fresh-dir tests/speech-fresh --fresh-model DIR …]
//!              [--by-rule DIR --by-rule-model DIR …] [--second-opinion DIR]
//!              [--quieter DB --quieter-model DIR …]
//!              [--noise SNR --noise-model DIR …]
//!
//! Hears every recording of the spoken-command corpus (or its fixed
//! subset) through `twctl hear`'s path with each decoding scheme, and
//! prints, side by side: command success (what was heard, run through the
//! interpreter against tests/speech/state.json, does what the line says),
//! wrong actions (misses that changed the browser or scrolled, zoomed or
//! searched; the other misses only looked, refused or asked), word error
//! rate, wake-word false accepts and false rejects, loops and
//! fallbacks, and the encoder and decoder time per recording.
//! Each (model, scheme) row runs in its own process on one thread, as the
//! extension's worker does, `--jobs` rows at once (default: the cores).
//! `--held-out DIR` is a corpus of the same sentences in other voices
//! (`speech-corpus --shift-voices`): each `--held-out-model` gets a row
//! there too, with the first scheme, labelled `held-out=…`, in the same
//! pool of rows. `--unseen DIR` is the recordings of other sentences over
//! other tabs (`--unseen-dir`, written after the mends were measured):
//! each `--unseen-model` gets a row there, labelled `unseen=…`.
//! `--fresh DIR` is a third such set (`--fresh-dir`), written after the
//! mends fitted to the unseen set: each `--fresh-model` gets a row there,
//! labelled `fresh=…`.
//! `--by-rule DIR` is the corpus with the names the voices do not know read
//! by their letter-to-sound rules ("yih-ruh" for Jira; `speech-corpus
//! --names-by-rule`), as it was said before they were taught them: each
//! `--by-rule-model` gets a row there, labelled `by-rule=…`.
//! `--second-opinion DIR`: every model but this one checks its unsure
//! guided hearings with it, as the extension pairs any model but the
//! bundled one with the bundled tiny.en (`+nosecond` leaves it out).
//! `--quieter DB`: each `--quieter-model` gets a row on the corpus played
//! DB dB quieter, as from a microphone set low (Firefox's automatic gain is
//! off), labelled `DBdB-quieter=…`.
//! `--noise SNR`: each `--noise-model` gets a row on the corpus played over
//! pink noise SNR dB under the speech, as in a noisy room (on top of the
//! room noise some recordings have), labelled `noise-SNRdB=…`.
//! `--chart DIR=S,S,…`: the model in DIR with each of these schemes on
//! the fixed subset, printed as a table of its own before the others; its
//! rows share the pool, so that neither core waits while the other ends a
//! long row (`--model` may then be left out).
//!
//! A scheme is `shipped` (what the extension decodes with, the default) or
//! a window (`full`, `auto`, `tail`, `tail:SECONDS`, `min:SECONDS`) with
//! aids:
//! `+stop` (stop at repetition), `+fallback` (full window when the fast
//! pass loops or is unsure), `+notabs` / `+nocmds` (no tab names, or no
//! command words, in the prompt), `+guide:N` (the prompt's words nudged up
//! by N logits), `+nosecond` (no second opinion), `+noguided` (no hearing again guided to the known
//! commands when what was heard means nothing; `shipped+noguided` is
//! allowed).
//! Measurements, not tests: nothing here asserts.

use ext_cli::hear::{drop_room_talk, Ear, Vocabulary};
use ext_cli::score::{median, Tally};
use ext_cli::speech::{self, Kind, Recording};
use ext_worker::{AudioCtx, Decoding, ModelFiles};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::process::ExitCode;
use std::time::Instant;

/// A decoding aid needs a window to go with: `shipped` is as shipped.
fn chosen(decoding: &mut Option<Decoding>) -> Result<&mut Decoding, String> {
    decoding
        .as_mut()
        .ok_or_else(|| "shipped takes no decoding aids; name a window".to_string())
}

#[derive(Clone, Debug)]
struct Scheme {
    name: String,
    /// None: the decoding shipped for the model.
    decoding: Option<Decoding>,
    tab_prompt: bool,
    command_words: bool,
    /// Hearing again, guided to the commands that make sense for the tabs,
    /// when what was heard means nothing (shipped).
    guided: bool,
    /// Unsure guided hearings checked with `--second-opinion`'s model.
    second_opinion: bool,
}

fn scheme(text: &str) -> Result<Scheme, String> {
    let mut parts = text.split('+');
    let ctx = parts.next().unwrap_or_default();
    let decoding = match ctx {
        "shipped" => None,
        _ => Some(Decoding {
            audio_ctx: AudioCtx::parse(ctx).ok_or(format!("unknown window {ctx:?}"))?,
            stop_loops: false,
            fallback: false,
            guide: 0.0,
        }),
    };
    let mut s = Scheme {
        name: text.to_string(),
        decoding,
        tab_prompt: true,
        command_words: true,
        guided: true,
        second_opinion: true,
    };
    for aid in parts {
        match aid {
            "stop" => chosen(&mut s.decoding)?.stop_loops = true,
            "fallback" => chosen(&mut s.decoding)?.fallback = true,
            "notabs" => s.tab_prompt = false,
            "nocmds" => s.command_words = false,
            "noguided" => s.guided = false,
            "nosecond" => s.second_opinion = false,
            guide if guide.starts_with("guide:") => {
                chosen(&mut s.decoding)?.guide =
                    guide[6..].parse().map_err(|_| format!("bad {guide}"))?;
            }
            other => return Err(format!("unknown aid {other:?}")),
        }
    }
    Ok(s)
}

fn main() -> ExitCode {
    match run() {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("speech-bench: {e}");
            ExitCode::FAILURE
        }
    }
}

/// What one row needs besides its model and scheme.
struct Corpus {
    dir: PathBuf,
    cases: Vec<ext_core::corpus::Case>,
    state: ext_core::State,
    recordings: Vec<Recording>,
}

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut models: Vec<PathBuf> = Vec::new();
    let mut schemes = vec![scheme("shipped")?];
    let mut charts: Vec<(PathBuf, Vec<Scheme>)> = Vec::new();
    let (mut subset, mut misses, mut one) = (false, false, false);
    let (mut held_out, mut held_out_models) = (None, Vec::new());
    let (mut unseen, mut unseen_models) = (None, Vec::new());
    let mut unseen_dir = PathBuf::from("tests/speech-unseen");
    let (mut fresh, mut fresh_models) = (None, Vec::new());
    let (mut by_rule, mut by_rule_models) = (None, Vec::new());
    let mut second_opinion: Option<PathBuf> = None;
    let mut fresh_dir = PathBuf::from("tests/speech-fresh");
    let (mut quieter, mut quieter_models) = (None, Vec::new());
    let (mut noise, mut noise_models) = (None, Vec::new());
    // What this row's corpus is, when not the main one (see `rows_side_by_side`).
    let mut label = None;
    let mut jobs = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut corpus = PathBuf::from("target/speech-corpus");
    let mut dir = PathBuf::from("tests/speech");
    while let Some(arg) = args.next() {
        let mut value = || args.next().ok_or(format!("{arg} needs a value"));
        match arg.as_str() {
            "--model" => models.push(value()?.into()),
            "--schemes" => {
                schemes = value()?.split(',').map(scheme).collect::<Result<_, _>>()?;
            }
            "--subset" => subset = true,
            "--chart" => {
                let value = value()?;
                let (model, names) = value
                    .rsplit_once('=')
                    .ok_or("--chart takes DIR=SCHEME,SCHEME,…")?;
                let names = names.split(',').map(scheme).collect::<Result<_, _>>()?;
                charts.push((model.into(), names));
            }
            "--misses" => misses = true,
            "--held-out" => held_out = Some(PathBuf::from(value()?)),
            "--held-out-model" => held_out_models.push(PathBuf::from(value()?)),
            "--unseen" => unseen = Some(PathBuf::from(value()?)),
            "--unseen-dir" => unseen_dir = value()?.into(),
            "--unseen-model" => unseen_models.push(PathBuf::from(value()?)),
            "--fresh" => fresh = Some(PathBuf::from(value()?)),
            "--fresh-dir" => fresh_dir = value()?.into(),
            "--fresh-model" => fresh_models.push(PathBuf::from(value()?)),
            "--by-rule" => by_rule = Some(PathBuf::from(value()?)),
            "--by-rule-model" => by_rule_models.push(PathBuf::from(value()?)),
            "--second-opinion" => second_opinion = Some(value()?.into()),
            "--quieter" => quieter = Some(decibels(&arg, &value()?)?),
            "--quieter-model" => quieter_models.push(PathBuf::from(value()?)),
            "--noise" => noise = Some(decibels(&arg, &value()?)?),
            "--noise-model" => noise_models.push(PathBuf::from(value()?)),
            "--label" => label = Some(value()?),
            "--corpus" => corpus = value()?.into(),
            "--dir" => dir = value()?.into(),
            "--jobs" => {
                jobs = value()?
                    .parse()
                    .ok()
                    .filter(|&n| n > 0)
                    .ok_or("--jobs takes a count of at least 1")?;
            }
            // One row, in a child process (see `rows_side_by_side`).
            "--one" => one = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if models.is_empty() && charts.is_empty() {
        return Err("give at least one --model DIR or --chart DIR=SCHEMES".into());
    }
    if held_out.is_some() == held_out_models.is_empty() {
        return Err("--held-out DIR and --held-out-model DIR go together".into());
    }
    if unseen.is_some() == unseen_models.is_empty() {
        return Err("--unseen DIR and --unseen-model DIR go together".into());
    }
    if fresh.is_some() == fresh_models.is_empty() {
        return Err("--fresh DIR and --fresh-model DIR go together".into());
    }
    if by_rule.is_some() == by_rule_models.is_empty() {
        return Err("--by-rule DIR and --by-rule-model DIR go together".into());
    }
    if !one && quieter.is_some() == quieter_models.is_empty() {
        return Err("--quieter DB and --quieter-model DIR go together".into());
    }
    if !one && noise.is_some() == noise_models.is_empty() {
        return Err("--noise SNR and --noise-model DIR go together".into());
    }
    let (cases, _) = speech::load(&dir)?;
    let state = speech::state(&dir)?;
    let manifest = std::fs::read(corpus.join("corpus.json"))
        .map_err(|e| format!("{}: {e} (run speech-corpus first)", corpus.display()))?;
    let recordings: Vec<Recording> =
        serde_json::from_slice::<Vec<Recording>>(&manifest).map_err(|e| e.to_string())?;
    let recordings: Vec<Recording> = recordings
        .into_iter()
        .filter(|r| r.subset || !subset)
        .collect();
    // The recordings, and those not for us, of the whole table and the
    // subset's.
    let counts = |only_subset: bool| {
        let heard = recordings.iter().filter(|r| r.subset || !only_subset);
        let not_for_us = heard.clone().filter(|r| r.kind == Kind::NotForUs);
        (heard.count(), not_for_us.count())
    };
    let (whole, of_subset) = (counts(subset), counts(true));
    let headers = [header(whole, subset), header(of_subset, true)];
    let sizes = [whole.0, of_subset.0];
    let data = Corpus {
        dir: corpus.clone(),
        cases,
        state,
        recordings,
    };
    if one {
        let ([model], [s]) = (models.as_slice(), schemes.as_slice()) else {
            return Err("--one takes one --model and one scheme".into());
        };
        let playback = match (quieter, noise) {
            (Some(db), _) => Playback::Quieter(db),
            (None, Some(snr)) => Playback::InNoise(snr),
            (None, None) => Playback::AsSaid,
        };
        let label = playback.label().or(label);
        let second = second_opinion.as_deref().filter(|_| s.second_opinion);
        print!(
            "{}",
            row(model, s, &data, misses, label.as_deref(), playback, second)?
        );
        return Ok(());
    }
    let (corpus, dir) = (&corpus, &dir);
    // The charts on the subset, then each --model with every --schemes.
    let charts = charts.iter().map(|(model, s)| (model, s.as_slice(), true));
    let main = models
        .iter()
        .map(|model| (model, schemes.as_slice(), subset));
    let mut rows: Vec<Row> = charts
        .chain(main)
        .flat_map(|(model, schemes, subset)| {
            schemes.iter().map(move |scheme| Row {
                model,
                scheme,
                corpus,
                dir,
                label: None,
                playback: Playback::AsSaid,
                subset,
            })
        })
        .collect();
    // The other corpora, and the corpus played otherwise: each of their
    // models with the first scheme (a set's models are there only when
    // its corpus or level is, as checked above).
    let others = [
        (
            held_out.as_ref(),
            &held_out_models,
            dir,
            Some("held-out"),
            Playback::AsSaid,
        ),
        (
            unseen.as_ref(),
            &unseen_models,
            &unseen_dir,
            Some("unseen"),
            Playback::AsSaid,
        ),
        (
            fresh.as_ref(),
            &fresh_models,
            &fresh_dir,
            Some("fresh"),
            Playback::AsSaid,
        ),
        (
            by_rule.as_ref(),
            &by_rule_models,
            dir,
            Some("by-rule"),
            Playback::AsSaid,
        ),
        (
            Some(corpus),
            &quieter_models,
            dir,
            None,
            quieter.map_or(Playback::AsSaid, Playback::Quieter),
        ),
        (
            Some(corpus),
            &noise_models,
            dir,
            None,
            noise.map_or(Playback::AsSaid, Playback::InNoise),
        ),
    ];
    for (corpus, models, dir, label, playback) in others {
        let Some(corpus) = corpus else { continue };
        rows.extend(models.iter().map(|model| Row {
            model,
            scheme: &schemes[0],
            corpus,
            dir,
            label,
            playback,
            subset,
        }));
    }
    let mut common: Vec<String> = misses.then(|| "--misses".to_string()).into_iter().collect();
    if let Some(dir) = &second_opinion {
        common.extend(["--second-opinion".to_string(), dir.display().to_string()]);
    }
    rows_side_by_side(&rows, &common, jobs, &headers, sizes)
}

/// The lines over a table of rows heard on `recordings` recordings,
/// `not_for_us` of them not for us.
fn header((recordings, not_for_us): (usize, usize), subset: bool) -> String {
    let mut out = format!(
        "{recordings} recordings ({not_for_us} not for us){}; each row on one thread, as in the browser\n",
        if subset { ", the fixed subset" } else { "" }
    );
    out.push_str(&format!(
        "{:<14} {:<24} {:>8} {:>6} {:>6} {:>7} {:>7} {:>6} {:>6} {:>9} {:>9} {:>6} {:>7}\n",
        "model",
        "scheme",
        "success",
        "wrong",
        "WER",
        "f.acc",
        "f.rej",
        "loops",
        "fallb",
        "enc ms",
        "dec ms",
        "guided",
        "wall s"
    ));
    out
}

/// Added to a recording's number to seed the noise it is played over.
const NOISE_SEED: u64 = 1_000_000;

/// `--quieter` and `--noise`'s value: whole decibels, 0 to 60.
fn decibels(flag: &str, value: &str) -> Result<u32, String> {
    value
        .parse::<u32>()
        .ok()
        .filter(|&db| db <= 60)
        .ok_or(format!("{flag} takes whole decibels, 0 to 60"))
}

/// How a row plays the corpus's recordings.
#[derive(Clone, Copy, Debug)]
enum Playback {
    AsSaid,
    /// This many dB quieter, as from a microphone set low.
    Quieter(u32),
    /// Over pink noise this many dB under the speech, as in a noisy room.
    InNoise(u32),
}

impl Playback {
    /// What the row's scheme is prefixed with.
    fn label(self) -> Option<String> {
        match self {
            Playback::AsSaid => None,
            Playback::Quieter(db) => Some(format!("{db}dB-quieter")),
            Playback::InNoise(snr) => Some(format!("noise-{snr}dB")),
        }
    }

    /// The child process's arguments for it.
    fn args(self) -> Vec<String> {
        match self {
            Playback::AsSaid => vec![],
            Playback::Quieter(db) => vec!["--quieter".into(), db.to_string()],
            Playback::InNoise(snr) => vec!["--noise".into(), snr.to_string()],
        }
    }

    /// A recording's samples as played: the noise is seeded by its number,
    /// so every run hears the same, and apart from the seed of the room
    /// noise the corpus mixed into some recordings (the same noise twice
    /// would only be louder, not another room).
    fn play(self, mut samples: Vec<f32>, id: usize) -> Vec<f32> {
        match self {
            Playback::AsSaid => {}
            Playback::Quieter(db) => {
                let gain = 10f32.powf(-(db as f32) / 20.0);
                samples.iter_mut().for_each(|x| *x *= gain);
            }
            Playback::InNoise(snr) => {
                speech::add_pink_noise(&mut samples, snr as f32, NOISE_SEED + id as u64)
            }
        }
        samples
    }
}

/// One row of the table: a model, heard with a scheme, on a corpus.
struct Row<'a> {
    model: &'a PathBuf,
    scheme: &'a Scheme,
    /// The recordings…
    corpus: &'a PathBuf,
    /// …and the sentences and tabs they say (`--dir`).
    dir: &'a PathBuf,
    /// Which corpus it is, if not the main one: `held-out`, `unseen`,
    /// `fresh`.
    label: Option<&'static str>,
    /// How its recordings are played.
    playback: Playback,
    /// On the corpus's fixed subset.
    subset: bool,
}

/// Measures every (model, scheme) row in a child process of this binary on
/// one thread (Candle's CPU kernels follow rayon's variable), `jobs` of them
/// at once, and prints the rows in the order asked as they are done, each
/// table under its header (`headers`: the whole corpus's, the subset's;
/// `sizes`: their recordings). On two cores two one-thread rows take 40%
/// less time than the rows one after the other on both cores (the
/// decoder's small products barely gain from a second thread), and one
/// thread is how the extension's worker runs.
fn rows_side_by_side(
    rows: &[Row],
    common: &[String],
    jobs: usize,
    headers: &[String; 2],
    sizes: [usize; 2],
) -> Result<(), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    // Longest rows first, so that the last row running is a short one.
    let mut queue: Vec<usize> = (0..rows.len()).collect();
    let costs: Vec<u64> = rows.iter().map(|r| r.cost(sizes)).collect();
    queue.sort_by_key(|&i| std::cmp::Reverse(costs[i]));
    let queue = std::sync::Mutex::new(queue.into_iter());
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(rows.len()) {
            let (done, queue, exe) = (done.clone(), &queue, &exe);
            let next_row = move || queue.lock().ok()?.next();
            scope.spawn(move || {
                while let Some(i) = next_row() {
                    let Row {
                        model,
                        scheme,
                        corpus,
                        dir,
                        label,
                        playback,
                        subset,
                    } = &rows[i];
                    let out = Command::new(exe)
                        .args(common)
                        .args(subset.then_some("--subset"))
                        .arg("--corpus")
                        .arg(corpus)
                        .arg("--dir")
                        .arg(dir)
                        .arg("--model")
                        .arg(model)
                        .args(["--schemes", &scheme.name, "--one"])
                        .args(label.map(|l| ["--label", l]).into_iter().flatten())
                        .args(playback.args())
                        .env("RAYON_NUM_THREADS", "1")
                        .output();
                    let out = match out {
                        Ok(o) if o.status.success() => {
                            Ok(String::from_utf8_lossy(&o.stdout).into())
                        }
                        Ok(o) => {
                            let e = String::from_utf8_lossy(&o.stderr);
                            Err(e.trim().trim_start_matches("speech-bench: ").to_string())
                        }
                        Err(e) => Err(e.to_string()),
                    };
                    if done.send((i, out)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(done);
        let mut slots: Vec<Option<Result<String, String>>> = vec![None; rows.len()];
        let mut next = 0;
        let mut failed = None;
        for (count, (i, out)) in finished.into_iter().enumerate() {
            // Rows print in the order asked but run longest first, so the
            // table may wait on its first row for minutes: say how far it is.
            if rows.len() > 1 {
                let Row { model, scheme, .. } = &rows[i];
                let name = model.file_name().unwrap_or_default().to_string_lossy();
                eprintln!(
                    "speech-bench: {} of {} rows done ({name} {})",
                    count + 1,
                    rows.len(),
                    scheme.name
                );
            }
            slots[i] = Some(out);
            while let Some(Some(out)) = slots.get(next) {
                if next == 0 || rows[next].subset != rows[next - 1].subset {
                    print!("{}", headers[usize::from(rows[next].subset)]);
                }
                match out {
                    Ok(text) => print!("{text}"),
                    Err(e) => {
                        let Row { model, scheme, .. } = &rows[next];
                        eprintln!("speech-bench: {} {}: {e}", model.display(), scheme.name);
                        failed.get_or_insert_with(|| "a row failed (see above)".to_string());
                    }
                }
                next += 1;
            }
        }
        failed.map_or(Ok(()), Err)
    })
}

impl Row<'_> {
    /// What the row costs, roughly, to run the longest first: the model's
    /// size (f32 or q8_0 alike: both run at about the same speed), times
    /// the recordings, times four for a row that encodes all 30 s of every
    /// recording (and two for one that may).
    fn cost(&self, [corpus, subset]: [usize; 2]) -> u64 {
        let recordings = if self.subset { subset } else { corpus };
        let window = match self.scheme.decoding {
            Some(d) if d.audio_ctx == AudioCtx::Full => 4,
            Some(d) if d.fallback => 2,
            _ => 1,
        };
        model_weights(self.model) * recordings as u64 * window
    }
}

/// About how many weights a Whisper model in `dir` has, from its
/// config.json (d_model² per layer); 1 when it cannot be read.
fn model_weights(dir: &Path) -> u64 {
    let config = std::fs::read(dir.join("config.json")).ok();
    let config: Option<serde_json::Value> = config.and_then(|c| serde_json::from_slice(&c).ok());
    let field = |name: &str| config.as_ref()?.get(name)?.as_u64();
    match (
        field("d_model"),
        field("encoder_layers"),
        field("decoder_layers"),
    ) {
        (Some(d), Some(e), Some(l)) => d * d * (e + l),
        _ => 1,
    }
}

/// One row of the table (and, with `misses`, each miss under it): `model`
/// heard through `s` on every recording, played as `playback` says.
fn row(
    model: &Path,
    s: &Scheme,
    data: &Corpus,
    misses: bool,
    label: Option<&str>,
    playback: Playback,
    second_opinion: Option<&Path>,
) -> Result<String, String> {
    let Corpus {
        dir,
        cases,
        state,
        recordings,
    } = data;
    let audio: Vec<Vec<u8>> = recordings
        .iter()
        .map(|r| std::fs::read(dir.join(&r.file)).map_err(|e| format!("{}: {e}", r.file)))
        .collect::<Result<_, _>>()?;
    let name = model
        .file_name()
        .map(|n| n.to_string_lossy().to_string())
        .unwrap_or_default();
    let files = ModelFiles::from_dir(model).map_err(|e| e.message)?;
    let mut ear = Ear::new(files, Default::default())?;
    // A model is not its own second opinion.
    let same = |dir: &Path| dir.canonicalize().ok() == model.canonicalize().ok();
    if let Some(dir) = second_opinion.filter(|d| !same(d)) {
        let files = ModelFiles::from_dir(dir).map_err(|e| e.message)?;
        ear.set_second_opinion(files)?;
    }
    ear.set_decoding(s.decoding);
    // Live transcripts change nothing heard or done, and cost most of a
    // transcription each second of a command: the bench's rows skip them.
    ear.set_live_transcript(false);
    let open_tabs = || {
        state
            .tabs
            .iter()
            .map(|t| (t.title.as_str(), t.url.as_str()))
    };
    let tab_list: Vec<(&str, &str)> = if s.tab_prompt {
        open_tabs().collect()
    } else {
        vec![]
    };
    let prompt = if s.command_words {
        ext_core::vocabulary::command_prompt(tab_list)
    } else if s.tab_prompt {
        ext_core::vocabulary::prompt(open_tabs())
    } else {
        String::new()
    };
    let phrases = if s.guided {
        ext_core::vocabulary::command_phrases(
            open_tabs(),
            state.groups.iter().map(|g| g.title.as_str()),
        )
    } else {
        Vec::new()
    };
    let vocabulary = Vocabulary { prompt, phrases };
    let mut guided_count = 0;
    let mut t = Tally::default();
    let start = Instant::now();
    for (r, wav) in recordings.iter().zip(&audio) {
        let audio = ext_worker::audio::read_wav(wav).map_err(|e| e.message)?;
        let samples = playback.play(audio.samples, r.id);
        let mut hearing = ear.hear(&samples, audio.rate, r.listen(), &vocabulary);
        if s.guided {
            ear.hear_guided_if_needed(&mut hearing, state);
        }
        drop_room_talk(&mut hearing, state);
        guided_count += usize::from(hearing.guided.is_some());
        t.add(r, &hearing, r.case.map(|i| &cases[i]), state);
    }
    let mut out = format!(
        "{:<14} {:<24} {:>7.1}% {:>6} {:>5.1}% {:>3}/{:<3} {:>3}/{:<3} {:>6} {:>6} {:>9.0} {:>9.0} {:>6} {:>7.1}\n",
        name,
        match (s.decoding.is_none(), label) {
            // "shipped+noguided" → "shipped=tail+stop+noguided".
            (true, _) => {
                let aids = s.name.strip_prefix("shipped").unwrap_or_default();
                let corpus = label.unwrap_or("shipped");
                format!("{corpus}={}{aids}", ear.decoding().name())
            }
            (false, Some(label)) => format!("{label}={}", s.name),
            (false, None) => s.name.clone(),
        },
        t.success_percent(),
        t.wrong_actions,
        t.wer_percent(),
        t.false_accepts,
        t.not_for_us,
        t.false_rejects,
        t.wake_expected,
        t.looped,
        t.fell_back,
        median(&mut t.encoder_ms),
        median(&mut t.decoder_ms),
        guided_count,
        start.elapsed().as_secs_f64(),
    );
    if misses {
        for m in &t.misses {
            out.push_str(&format!("{m}\n"));
        }
    }
    Ok(out)
}
