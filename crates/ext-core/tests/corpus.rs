//! The interpreter's corpus (format: [`ext_core::corpus`]): every case in
//! `tests/corpus/*.corpus` runs through the same message API as the
//! extension against the in-memory browser. Prints accuracy per intent and
//! fails on any case that is not listed in `tests/corpus/known_failures.txt`
//! (so a regression fails, and a fixed case says so).

use ext_core::corpus::{check, parse, Case};
use ext_core::tab_state::State;
use std::collections::BTreeMap;
use std::path::Path;

fn corpus_dir() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/corpus")
}

fn load_cases() -> Vec<Case> {
    let mut files: Vec<_> = std::fs::read_dir(corpus_dir())
        .expect("tests/corpus")
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "corpus"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(&path).unwrap();
        cases.extend(parse(&name, &text).unwrap_or_else(|e| panic!("{e}")));
    }
    cases
}

fn state(name: &str, states: &mut BTreeMap<String, State>) -> State {
    states
        .entry(name.to_string())
        .or_insert_with(|| {
            let path = corpus_dir().join("states").join(format!("{name}.json"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .clone()
}

/// Typed, every spoken command of the speech corpus does what it should
/// (its expectations are checked against what Whisper heard by `make
/// bench`; they must at least hold for the words themselves).
#[test]
fn the_spoken_command_corpus_passes_typed() {
    spoken_commands_pass_typed("speech", 60);
}

/// The same for the unseen commands, said over other tabs.
#[test]
fn the_unseen_spoken_commands_pass_typed() {
    spoken_commands_pass_typed("speech-unseen", 50);
    spoken_commands_pass_typed("speech-fresh", 50);
}

fn spoken_commands_pass_typed(dir: &str, at_least: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../tests")
        .join(dir);
    let text = std::fs::read_to_string(dir.join("commands.corpus")).unwrap();
    let state: State =
        serde_json::from_str(&std::fs::read_to_string(dir.join("state.json")).unwrap()).unwrap();
    let cases = parse("commands.corpus", &text).unwrap();
    assert!(cases.len() >= at_least, "{} spoken commands", cases.len());
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| {
            check(c, &state)
                .err()
                .map(|e| format!("{}: {e}", c.utterance))
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn corpus() {
    let cases = load_cases();
    let known: Vec<String> = std::fs::read_to_string(corpus_dir().join("known_failures.txt"))
        .unwrap_or_default()
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(str::to_string)
        .collect();
    let mut states = BTreeMap::new();
    let mut per_intent: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut regressions = Vec::new();
    let mut fixed = Vec::new();
    for case in &cases {
        let result = check(case, &state(&case.state, &mut states));
        let entry = per_intent.entry(case.intent.clone()).or_default();
        entry.1 += 1;
        let is_known = known.contains(&case.utterance);
        match result {
            Ok(()) => {
                entry.0 += 1;
                if is_known {
                    fixed.push(case.utterance.clone());
                }
            }
            Err(why) if !is_known => regressions.push(format!(
                "{}:{} '{}': {why}",
                case.file, case.line, case.utterance
            )),
            Err(_) => {}
        }
    }
    let (pass, total) = per_intent
        .values()
        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    println!(
        "\ninterpreter corpus: {pass}/{total} ({:.1}%)",
        100.0 * pass as f64 / total.max(1) as f64
    );
    for (intent, (p, t)) in &per_intent {
        println!(
            "  {intent:<16} {p:>4}/{t:<4} {:>6.1}%",
            100.0 * *p as f64 / (*t).max(1) as f64
        );
    }
    for f in &fixed {
        println!("now passes (remove from known_failures.txt): {f}");
    }
    assert!(
        total >= 400,
        "the corpus has {total} cases; it should have at least 400"
    );
    assert!(
        regressions.is_empty(),
        "{} case(s) fail:\n{}",
        regressions.len(),
        regressions.join("\n")
    );
}
