//! speech-bench --model DIR [--model DIR …] [--schemes S,S,…] [--subset]
//!              [--corpus target/speech-corpus] [--dir tests/speech] [--misses]
//!
//! Hears every recording of the spoken-command corpus (or its fixed
//! subset) through `twctl hear`'s path with each decoding scheme, and
//! prints, side by side: command success (what was heard, run through the
//! interpreter against tests/speech/state.json, does what the line says),
//! wrong actions (misses that changed the browser or scrolled, zoomed or
//! searched; the other misses only looked, refused or asked), word error
//! rate, wake-word false accepts and false rejects, loops and
//! fallbacks, and the encoder and decoder time per recording.
//!
//! A scheme is `shipped` (what the extension decodes with, the default) or
//! a window (`full`, `auto`, `tail`, `tail:SECONDS`, `min:SECONDS`) with
//! aids:
//! `+stop` (stop at repetition), `+fallback` (full window when the fast
//! pass loops or is unsure), `+notabs` / `+nocmds` (no tab names, or no
//! command words, in the prompt), `+guide:N` (the prompt's words nudged up
//! by N logits), `+noguided` (no hearing again guided to the known
//! commands when what was heard means nothing; `shipped+noguided` is
//! allowed).
//! Measurements, not tests: nothing here asserts.

use ext_cli::hear::{Ear, Vocabulary};
use ext_cli::score::{median, Tally};
use ext_cli::speech::{self, Kind, Recording};
use ext_worker::{AudioCtx, Decoding, ModelFiles};
use std::path::PathBuf;
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
    };
    for aid in parts {
        match aid {
            "stop" => chosen(&mut s.decoding)?.stop_loops = true,
            "fallback" => chosen(&mut s.decoding)?.fallback = true,
            "notabs" => s.tab_prompt = false,
            "nocmds" => s.command_words = false,
            "noguided" => s.guided = false,
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

fn run() -> Result<(), String> {
    let mut args = std::env::args().skip(1);
    let mut models: Vec<PathBuf> = Vec::new();
    let mut schemes = vec![scheme("shipped")?];
    let (mut subset, mut misses) = (false, false);
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
            "--misses" => misses = true,
            "--corpus" => corpus = value()?.into(),
            "--dir" => dir = value()?.into(),
            other => return Err(format!("unknown argument {other}")),
        }
    }
    if models.is_empty() {
        return Err("give at least one --model DIR".into());
    }
    let (cases, _) = speech::load(&dir)?;
    let state = speech::state(&dir)?;
    let manifest = std::fs::read(corpus.join("corpus.json"))
        .map_err(|e| format!("{}: {e} (run speech-corpus first)", corpus.display()))?;
    let recordings: Vec<Recording> =
        serde_json::from_slice(&manifest).map_err(|e| e.to_string())?;
    let recordings: Vec<&Recording> = recordings.iter().filter(|r| r.subset || !subset).collect();
    let audio: Vec<Vec<u8>> = recordings
        .iter()
        .map(|r| std::fs::read(corpus.join(&r.file)).map_err(|e| format!("{}: {e}", r.file)))
        .collect::<Result<_, _>>()?;
    let tabs = ext_core::vocabulary::prompt(
        state
            .tabs
            .iter()
            .map(|t| (t.title.as_str(), t.url.as_str())),
    );
    println!(
        "{} recordings ({} not for us){}",
        recordings.len(),
        recordings
            .iter()
            .filter(|r| r.kind == Kind::NotForUs)
            .count(),
        if subset { ", the fixed subset" } else { "" }
    );
    println!(
        "{:<14} {:<24} {:>8} {:>6} {:>6} {:>7} {:>7} {:>6} {:>6} {:>9} {:>9} {:>6} {:>7}",
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
    );
    for model in &models {
        let name = model
            .file_name()
            .map(|n| n.to_string_lossy().to_string())
            .unwrap_or_default();
        let files = ModelFiles::from_dir(model).map_err(|e| e.message)?;
        let mut ear = Ear::new(files, Default::default())?;
        for s in &schemes {
            ear.set_decoding(s.decoding);
            let tab_list: Vec<(&str, &str)> = if s.tab_prompt {
                state
                    .tabs
                    .iter()
                    .map(|t| (t.title.as_str(), t.url.as_str()))
                    .collect()
            } else {
                vec![]
            };
            let vocabulary = if s.command_words {
                ext_core::vocabulary::command_prompt(tab_list)
            } else if s.tab_prompt {
                tabs.clone()
            } else {
                String::new()
            };
            let phrases = if s.guided {
                ext_core::vocabulary::command_phrases(
                    state
                        .tabs
                        .iter()
                        .map(|t| (t.title.as_str(), t.url.as_str())),
                    state.groups.iter().map(|g| g.title.as_str()),
                )
            } else {
                Vec::new()
            };
            let vocabulary = Vocabulary {
                prompt: vocabulary,
                phrases,
            };
            let mut guided_count = 0;
            let mut t = Tally::default();
            let start = Instant::now();
            for (r, wav) in recordings.iter().zip(&audio) {
                let mut hearing = ear.hear_wav(wav, r.listen(), &vocabulary)?;
                if s.guided {
                    ear.hear_guided_if_needed(&mut hearing, &state);
                }
                guided_count += usize::from(hearing.guided.is_some());
                t.add(r, &hearing, r.case.map(|i| &cases[i]), &state);
            }
            println!(
                "{:<14} {:<24} {:>7.1}% {:>6} {:>5.1}% {:>3}/{:<3} {:>3}/{:<3} {:>6} {:>6} {:>9.0} {:>9.0} {:>6} {:>7.1}",
                name,
                if s.decoding.is_none() {
                    // "shipped+noguided" → "shipped=tail+stop+noguided".
                    let aids = s.name.strip_prefix("shipped").unwrap_or_default();
                    format!("shipped={}{aids}", ear.decoding().name())
                } else {
                    s.name.clone()
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
                    println!("{m}");
                }
            }
        }
    }
    Ok(())
}
