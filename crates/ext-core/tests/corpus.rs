//! The interpreter's corpus: utterances with a browser state and the
//! outcome a person expects. Each runs through the same message API as the
//! extension against the in-memory browser; a "confirm" case is answered
//! "yes". Prints accuracy per intent and fails on any case that is not
//! listed in `tests/corpus/known_failures.txt` (so a regression fails, and
//! a fixed case says so).
//!
//! Format of `tests/corpus/*.corpus`:
//!
//! ```text
//! # comment
//! state: work                 (tests/corpus/states/work.json, until the next state:)
//! intent: close               (the intent the following cases count under)
//! close every reddit tab => closed 7
//! close tabs two and three => closed 2,3 ; confirm
//! first: close every reddit tab (run before the next case only)
//! undo that => opened reddit.com/r/rust
//! ```
//!
//! `first:` lines are commands sent, as they are, before the next case (a
//! question they raise stays open, so `first: yes` answers it); the case's
//! expectations are then about the state they leave. This is how undo,
//! yes/no and "anything else cancels" are tested.
//!
//! Expectations, separated by `;`: `closed IDS` (exactly these closed),
//! `kept IDS` (these still open), `active ID` (the focused window's active
//! tab), `muted IDS` / `pinned IDS` / `discarded IDS` (exactly these, after),
//! `group "Title" [color] IDS` (a group with that title holds exactly these),
//! `groups N`, `together IDS` (one group holds exactly these, whatever its
//! title), `ungrouped IDS` (these tabs are in no group), `collapsed TITLES`
//! (exactly these groups are collapsed), `tidy` (in each window group colors
//! differ, titles are one or two words, no group has a single tab),
//! `window W IDS` (these tabs are in window W), `index ID N`,
//! `calls TOOL,TOOL` (the tools performed, in order), `args TOOL key=value
//! …` (a performed call's arguments; strings may be quoted), `opened TEXT`
//! (a new tab whose URL contains TEXT), `confirm` (it asked first),
//! `nothing` (no call performed, state unchanged), `error CODE`,
//! `reply "TEXT"` (the reply contains TEXT, case-insensitive), `noreply
//! "TEXT"` (it does not). Numbers in `args` compare as numbers.

use ext_core::memory::MemoryBrowser;
use ext_core::storage::MemoryStorage;
use ext_core::tab_state::State;
use ext_core::Background;
use futures::executor::block_on;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::path::Path;

struct Case {
    file: String,
    line: usize,
    state: String,
    intent: String,
    /// Commands sent before the utterance.
    first: Vec<String>,
    utterance: String,
    expect: Vec<String>,
}

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
        let (mut state, mut intent) = (String::new(), String::from("misc"));
        let mut first = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            if let Some(s) = line.strip_prefix("state:") {
                state = s.trim().to_string();
                continue;
            }
            if let Some(s) = line.strip_prefix("intent:") {
                intent = s.trim().to_string();
                continue;
            }
            if let Some(s) = line.strip_prefix("first:") {
                first.push(s.trim().to_string());
                continue;
            }
            let (utterance, expect) = line
                .split_once("=>")
                .unwrap_or_else(|| panic!("{name}:{}: no '=>' in: {line}", i + 1));
            assert!(
                !state.is_empty(),
                "{name}:{}: no state: line before it",
                i + 1
            );
            cases.push(Case {
                file: name.clone(),
                line: i + 1,
                state: state.clone(),
                intent: intent.clone(),
                first: std::mem::take(&mut first),
                utterance: utterance.trim().to_string(),
                expect: expect
                    .split(';')
                    .map(|e| e.trim().to_string())
                    .filter(|e| !e.is_empty())
                    .collect(),
            });
        }
    }
    cases
}

fn ids(text: &str) -> Vec<i64> {
    let mut v: Vec<i64> = text
        .split([',', ' '])
        .filter(|x| !x.is_empty())
        .map(|x| x.parse().unwrap_or_else(|_| panic!("not a tab id: {x}")))
        .collect();
    v.sort_unstable();
    v
}

fn sorted(mut v: Vec<i64>) -> Vec<i64> {
    v.sort_unstable();
    v
}

/// Splits `key=value key2="two words"`.
fn pairs(text: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = text.trim();
    while let Some(eq) = rest.find('=') {
        let key = rest[..eq].trim().to_string();
        let after = &rest[eq + 1..];
        let (value, next) = if let Some(quoted) = after.strip_prefix('"') {
            let end = quoted.find('"').expect("closing quote");
            (quoted[..end].to_string(), &quoted[end + 1..])
        } else {
            let end = after.find(' ').unwrap_or(after.len());
            (after[..end].to_string(), &after[end..])
        };
        out.push((key, value));
        rest = next.trim();
    }
    out
}

fn value_matches(actual: &Value, expected: &str) -> bool {
    match actual {
        Value::String(s) => s.eq_ignore_ascii_case(expected),
        Value::Array(items) => {
            let want = expected.split(',').map(str::trim).collect::<Vec<_>>();
            let mut have: Vec<String> = items
                .iter()
                .map(|i| i.to_string().trim_matches('"').to_string())
                .collect();
            let mut want: Vec<String> = want.iter().map(|s| s.to_string()).collect();
            have.sort();
            want.sort();
            have == want
        }
        Value::Number(n) => match (n.as_f64(), expected.parse::<f64>()) {
            (Some(a), Ok(b)) => a == b,
            _ => false,
        },
        Value::Bool(b) => expected.parse::<bool>() == Ok(*b),
        Value::Null => expected == "null",
        Value::Object(_) => false,
    }
}

/// The tabs of a group, sorted.
fn members(state: &State, group: i64) -> Vec<i64> {
    sorted(
        state
            .tabs
            .iter()
            .filter(|t| t.group_id == group)
            .map(|t| t.id)
            .collect(),
    )
}

/// Groups as grouping by site or topic should leave them: distinct colors in
/// a window, short titles, no one-tab groups.
fn tidy(state: &State) -> bool {
    state.groups.iter().all(|g| {
        let words = g.title.split_whitespace().count();
        let same_color = state
            .groups
            .iter()
            .filter(|o| o.window_id == g.window_id && o.color == g.color)
            .count();
        (1..=2).contains(&words) && same_color == 1 && members(state, g.id).len() >= 2
    })
}

/// Checks one case; answers what went wrong.
fn check(case: &Case, states: &mut BTreeMap<String, State>) -> Result<(), String> {
    let before = states
        .entry(case.state.clone())
        .or_insert_with(|| {
            let path = corpus_dir()
                .join("states")
                .join(format!("{}.json", case.state));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
        })
        .clone();
    let bg = Background::new(MemoryBrowser::new(before.clone()), MemoryStorage::default());
    for text in &case.first {
        block_on(bg.handle(json!({ "type": "command", "text": text })));
    }
    let before = bg.browser().state();
    let first = block_on(bg.handle(json!({ "type": "command", "text": case.utterance })));
    let asked = first["needs_confirmation"] == true;
    let answer = if asked {
        block_on(bg.handle(json!({ "type": "command", "text": "yes" })))
    } else {
        first.clone()
    };
    let after = bg.browser().state();
    let performed: Vec<Value> = answer["calls"].as_array().cloned().unwrap_or_default();
    let reply = format!(
        "{} {}",
        first["reply"].as_str().unwrap_or(""),
        answer["reply"].as_str().unwrap_or("")
    );
    let open_ids = |s: &State| s.tabs.iter().map(|t| t.id).collect::<Vec<_>>();
    let focused = after.windows.iter().find(|w| w.focused).map(|w| w.id);
    let mut problems = Vec::new();
    let mut expected_confirm = false;
    let mut expected_error = false;
    for e in &case.expect {
        let (word, rest) = e.split_once(' ').unwrap_or((e.as_str(), ""));
        let rest = rest.trim();
        let ok = match word {
            "closed" => {
                let closed: Vec<i64> = open_ids(&before)
                    .into_iter()
                    .filter(|id| !open_ids(&after).contains(id))
                    .collect();
                sorted(closed) == ids(rest)
            }
            "kept" => ids(rest).iter().all(|id| open_ids(&after).contains(id)),
            "active" => {
                let want: i64 = rest.parse().unwrap();
                after
                    .tabs
                    .iter()
                    .any(|t| t.id == want && t.active && Some(t.window_id) == focused)
            }
            "muted" => {
                sorted(
                    after
                        .tabs
                        .iter()
                        .filter(|t| t.muted)
                        .map(|t| t.id)
                        .collect(),
                ) == ids(rest)
            }
            "pinned" => {
                sorted(
                    after
                        .tabs
                        .iter()
                        .filter(|t| t.pinned)
                        .map(|t| t.id)
                        .collect(),
                ) == ids(rest)
            }
            "discarded" => {
                sorted(
                    after
                        .tabs
                        .iter()
                        .filter(|t| t.discarded)
                        .map(|t| t.id)
                        .collect(),
                ) == ids(rest)
            }
            "group" => {
                let q = rest.strip_prefix('"').expect("group \"Title\"");
                let end = q.find('"').expect("closing quote");
                let title = &q[..end];
                let mut tail = q[end + 1..].trim();
                let mut color = None;
                if let Some(first) = tail.split_whitespace().next() {
                    if first.parse::<i64>().is_err() && !first.contains(',') {
                        color = Some(first.to_string());
                        tail = tail[first.len()..].trim();
                    }
                }
                after.groups.iter().any(|g| {
                    g.title.eq_ignore_ascii_case(title)
                        && color
                            .as_deref()
                            .is_none_or(|c| serde_json::to_value(g.color).unwrap() == c)
                        && sorted(
                            after
                                .tabs
                                .iter()
                                .filter(|t| t.group_id == g.id)
                                .map(|t| t.id)
                                .collect(),
                        ) == ids(tail)
                })
            }
            "groups" => after.groups.len() == rest.parse::<usize>().unwrap(),
            "together" => {
                let want = ids(rest);
                after.groups.iter().any(|g| members(&after, g.id) == want)
            }
            "ungrouped" => ids(rest)
                .iter()
                .all(|id| after.tabs.iter().any(|t| t.id == *id && t.group_id == -1)),
            "collapsed" => {
                let mut want: Vec<String> = rest
                    .split(',')
                    .map(|t| t.trim().to_lowercase())
                    .filter(|t| !t.is_empty())
                    .collect();
                let mut have: Vec<String> = after
                    .groups
                    .iter()
                    .filter(|g| g.collapsed)
                    .map(|g| g.title.to_lowercase())
                    .collect();
                want.sort();
                have.sort();
                want == have
            }
            "tidy" => tidy(&after),
            "window" => {
                let (w, list) = rest.split_once(' ').unwrap();
                let w: i64 = w.parse().unwrap();
                ids(list)
                    .iter()
                    .all(|id| after.tabs.iter().any(|t| t.id == *id && t.window_id == w))
            }
            "index" => {
                let (id, n) = rest.split_once(' ').unwrap();
                after.tabs.iter().any(|t| {
                    t.id == id.parse::<i64>().unwrap() && t.index == n.parse::<i64>().unwrap()
                })
            }
            "calls" => {
                let tools: Vec<&str> = performed
                    .iter()
                    .filter_map(|c| c["tool"].as_str())
                    .collect();
                tools == rest.split(',').map(str::trim).collect::<Vec<_>>()
            }
            "args" => {
                let (tool, kv) = rest.split_once(' ').unwrap_or((rest, ""));
                performed.iter().filter(|c| c["tool"] == tool).any(|c| {
                    pairs(kv)
                        .iter()
                        .all(|(k, v)| c["args"].get(k).is_some_and(|a| value_matches(a, v)))
                })
            }
            "opened" => after
                .tabs
                .iter()
                .any(|t| !open_ids(&before).contains(&t.id) && t.url.contains(rest)),
            "confirm" => {
                expected_confirm = true;
                asked
            }
            "nothing" => {
                performed.is_empty() && after.tabs == before.tabs && after.groups == before.groups
            }
            "error" => {
                expected_error = true;
                first["error"]["code"] == rest
            }
            "reply" => reply
                .to_lowercase()
                .contains(&rest.trim_matches('"').to_lowercase()),
            "noreply" => !reply
                .to_lowercase()
                .contains(&rest.trim_matches('"').to_lowercase()),
            other => panic!("{}:{}: unknown expectation '{other}'", case.file, case.line),
        };
        if !ok {
            problems.push(e.clone());
        }
    }
    if asked && !expected_confirm {
        problems.push("asked for confirmation unexpectedly".into());
    }
    if answer["ok"] == false && !expected_error {
        problems.push(format!("failed: {}", answer["error"]));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "failed {} | reply: {} | calls: {}",
            problems.join("; "),
            reply.trim(),
            Value::Array(performed)
        ))
    }
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
        let result = check(case, &mut states);
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
