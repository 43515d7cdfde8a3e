//! speech-corpus [--dir tests/speech] [--out target/speech-corpus] [--jobs N]
//!               [--shift-voices N] [--names-by-rule]
//!
//! Generates the spoken-command corpus (see `ext_cli::speech`): WAV files
//! and `corpus.json`, the list of recordings. Recordings already there are
//! kept, so a second run is quick. `--shift-voices N` gives a held-out
//! corpus: the same sentences, mostly in voices that did not say them.
//! `--names-by-rule`: the voices read the names they do not know by their
//! letter-to-sound rules ("yih-ruh" for Jira), as the corpus was said
//! before they were taught them (see `ext_cli::lexicon`).

use ext_cli::lexicon::Names;
use ext_cli::speech::{self, Recording};
use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut dir, mut out, mut jobs, mut shift) = (
        PathBuf::from("tests/speech"),
        PathBuf::from("target/speech-corpus"),
        2usize,
        0usize,
    );
    let mut names = Names::AsSpoken;
    while let Some(arg) = args.next() {
        if arg == "--names-by-rule" {
            names = Names::ByRule;
            continue;
        }
        let value = args.next();
        match (arg.as_str(), value) {
            ("--dir", Some(v)) => dir = v.into(),
            ("--out", Some(v)) => out = v.into(),
            ("--jobs", Some(v)) => jobs = v.parse().unwrap_or(2).max(1),
            ("--shift-voices", Some(v)) if v.parse::<usize>().is_ok() => {
                shift = v.parse().unwrap_or_default()
            }
            _ => {
                eprintln!(
                    "usage: speech-corpus [--dir tests/speech] [--out DIR] [--jobs N] \
                     [--shift-voices N] [--names-by-rule]"
                );
                return ExitCode::from(2);
            }
        }
    }
    match run(&dir, &out, jobs, shift, names) {
        Ok(n) => {
            println!("{n} recordings in {}", out.display());
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("speech-corpus: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(
    dir: &std::path::Path,
    out: &std::path::Path,
    jobs: usize,
    shift: usize,
    names: Names,
) -> Result<usize, String> {
    let (cases, not_for_us) = speech::load(dir)?;
    let plan = speech::plan_with_voices_shifted(&cases, &not_for_us, shift, names);
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let todo: Vec<&Recording> = plan
        .iter()
        .filter(|r| !out.join(&r.file).exists())
        .collect();
    let chunks: Vec<Vec<&Recording>> = (0..jobs)
        .map(|j| todo.iter().skip(j).step_by(jobs).copied().collect())
        .collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .iter()
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .try_for_each(|r| speech::synthesize(r, out).map(|_| ()))
                })
            })
            .collect();
        handles
            .into_iter()
            .try_for_each(|h| h.join().unwrap_or_else(|_| Err("a job panicked".into())))
    })?;
    let manifest = serde_json::to_vec_pretty(&plan).map_err(|e| e.to_string())?;
    std::fs::write(out.join("corpus.json"), manifest).map_err(|e| e.to_string())?;
    Ok(plan.len())
}
