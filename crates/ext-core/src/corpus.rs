//! The corpus format: utterances with a browser state and the outcome a
//! person expects, checked by running them through the background page
//! against the in-memory browser. The interpreter's corpus
//! (`tests/corpus/*.corpus`) and the spoken-command corpus
//! (`tests/speech/commands.corpus`, where what Whisper heard is run
//! instead of the line's text) share it.
//!
//! ```text
//! # comment
//! state: work                 (the state's name, until the next state:)
//! intent: close               (the intent the following cases count under)
//! close every reddit tab => closed 7
//! close tabs two and three => closed 2,3 ; confirm
//! first: close every reddit tab (run before the next case only)
//! undo that => opened reddit.com/r/rust
//! ```
//!
//! `first:` lines are commands sent, as they are, before the next case (a
//! question they raise stays open, so `first: yes` answers it); the case's
//! expectations are then about the state they leave. A case that asks for
//! confirmation is answered "yes".
//!
//! Expectations, separated by `;` (outside quotes): `closed IDS` (exactly
//! these closed), `kept IDS` (these still open), `active ID` (the focused
//! window's active tab), `muted IDS` / `pinned IDS` / `discarded IDS` /
//! `audible IDS` (exactly these, after; the in-memory browser's pause
//! silences a tab), `group "Title" [color] IDS` (a group with that title
//! holds exactly these), `groups N`, `together IDS` (one group holds exactly
//! these, whatever its title), `ungrouped IDS` (these tabs are in no group),
//! `collapsed TITLES` (exactly these groups are collapsed), `tidy` (in each
//! window group colors differ, titles are one or two words, no group has a
//! single tab), `window W IDS` (these tabs are in window W), `windows N`,
//! `index ID N`, `calls TOOL,TOOL` (the tools performed, in order), `args
//! TOOL key=value …` (a performed call's arguments; strings may be quoted),
//! `opened TEXT` (a new tab whose URL contains TEXT), `confirm` (it asked
//! first), `nothing` (no call performed, state unchanged), `error CODE`,
//! `reply "TEXT"` (the reply contains TEXT, case-insensitive), `noreply
//! "TEXT"` (it does not). Numbers in `args` compare as numbers.

use crate::background::Background;
use crate::memory::MemoryBrowser;
use crate::storage::MemoryStorage;
use crate::tab_state::{State, Tab};
use futures::executor::block_on;
use serde_json::{json, Value};

/// One line of a corpus.
#[derive(Clone, Debug, PartialEq)]
pub struct Case {
    pub file: String,
    pub line: usize,
    /// The state's name.
    pub state: String,
    pub intent: String,
    /// Commands sent before the utterance.
    pub first: Vec<String>,
    pub utterance: String,
    pub expect: Vec<String>,
}

/// The cases of one corpus file's text; `file` names it in errors.
pub fn parse(file: &str, text: &str) -> Result<Vec<Case>, String> {
    let (mut state, mut intent) = (String::new(), String::from("misc"));
    let mut first = Vec::new();
    let mut cases = Vec::new();
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
            .ok_or_else(|| format!("{file}:{}: no '=>' in: {line}", i + 1))?;
        if state.is_empty() {
            return Err(format!("{file}:{}: no state: line before it", i + 1));
        }
        cases.push(Case {
            file: file.to_string(),
            line: i + 1,
            state: state.clone(),
            intent: intent.clone(),
            first: std::mem::take(&mut first),
            utterance: utterance.trim().to_string(),
            expect: checks(expect),
        });
    }
    Ok(cases)
}

/// A case's checks, split at each `;` outside quotes: a quoted reply may
/// hold one ("Cancelled; nothing was changed.").
fn checks(expect: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut quoted, mut start) = (false, 0);
    for (i, c) in expect.char_indices() {
        match c {
            '"' => quoted = !quoted,
            ';' if !quoted => {
                out.push(&expect[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&expect[start..]);
    out.into_iter()
        .map(|e| e.trim().to_string())
        .filter(|e| !e.is_empty())
        .collect()
}

fn ids(text: &str) -> Vec<i64> {
    let mut v: Vec<i64> = text
        .split([',', ' '])
        .filter(|x| !x.is_empty())
        .filter_map(|x| x.parse().ok())
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
            let end = quoted.find('"').unwrap_or(quoted.len());
            (
                quoted[..end].to_string(),
                quoted.get(end + 1..).unwrap_or(""),
            )
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

/// Runs one case against `state` (a copy) and answers what went wrong.
pub fn check(case: &Case, state: &State) -> Result<(), String> {
    check_said(case, state, &case.utterance)
}

/// [`check`], running `said` (what was heard) instead of the case's text.
pub fn check_said(case: &Case, state: &State, said: &str) -> Result<(), String> {
    check_heard(case, state, said, None).map_err(|miss| miss.why)
}

/// Why what was heard did not do what the case says.
#[derive(Debug)]
pub struct Miss {
    pub why: String,
    /// The browser changed all the same, or a tool ran that acts where
    /// the snapshot cannot see (scrolling, zoom, a web search): a wrong
    /// action, where a miss that only looked, refused or asked a question
    /// leaves the user to say it again.
    pub acted: bool,
}

/// [`check_said`] for what the speech worker heard, with `guided`: the
/// known command it heard when guided to them (tried when the words mean
/// nothing).
pub fn check_heard(
    case: &Case,
    state: &State,
    said: &str,
    guided: Option<&str>,
) -> Result<(), Miss> {
    let bg = Background::new(MemoryBrowser::new(state.clone()), MemoryStorage::default());
    for text in &case.first {
        block_on(bg.handle(json!({ "type": "command", "text": text })));
    }
    let before = bg.browser().state();
    let spoken = said != case.utterance;
    let mut command = json!({ "type": "command", "text": said, "spoken": spoken });
    if let Some(guided) = guided {
        command["guided"] = json!(guided);
    }
    let first = block_on(bg.handle(command));
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
    // The ids of the tabs with a flag set, after: `muted 2,3`.
    let flagged = |flag: fn(&Tab) -> bool| -> Vec<i64> {
        sorted(
            after
                .tabs
                .iter()
                .filter(|t| flag(t))
                .map(|t| t.id)
                .collect(),
        )
    };
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
                let want: i64 = rest.parse().unwrap_or(-1);
                after
                    .tabs
                    .iter()
                    .any(|t| t.id == want && t.active && Some(t.window_id) == focused)
            }
            "muted" => flagged(|t| t.muted) == ids(rest),
            "pinned" => flagged(|t| t.pinned) == ids(rest),
            "audible" => flagged(|t| t.audible) == ids(rest),
            "discarded" => flagged(|t| t.discarded) == ids(rest),
            "group" => {
                let q = rest.strip_prefix('"').unwrap_or(rest);
                let end = q.find('"').unwrap_or(q.len());
                let title = &q[..end];
                let mut tail = q.get(end + 1..).unwrap_or("").trim();
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
            "groups" => rest.parse::<usize>() == Ok(after.groups.len()),
            "windows" => rest.parse::<usize>() == Ok(after.windows.len()),
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
                let (w, list) = rest.split_once(' ').unwrap_or((rest, ""));
                let w: i64 = w.parse().unwrap_or(-1);
                ids(list)
                    .iter()
                    .all(|id| after.tabs.iter().any(|t| t.id == *id && t.window_id == w))
            }
            "index" => {
                let (id, n) = rest.split_once(' ').unwrap_or((rest, ""));
                after
                    .tabs
                    .iter()
                    .any(|t| Ok(t.id) == id.parse::<i64>() && Ok(t.index) == n.parse::<i64>())
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
            other => {
                return Err(Miss {
                    why: format!("{}:{}: unknown expectation '{other}'", case.file, case.line),
                    acted: false,
                })
            }
        };
        if !ok {
            problems.push(e.clone());
        }
    }
    let asked_unexpectedly = asked && !expected_confirm;
    if asked_unexpectedly {
        problems.push("asked for confirmation unexpectedly".into());
    }
    if answer["ok"] == false && !expected_error {
        problems.push(format!("failed: {}", answer["error"]));
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(Miss {
            why: format!(
                "failed {} | reply: {} | calls: {}",
                problems.join("; "),
                reply.trim(),
                Value::Array(performed.clone())
            ),
            // A question the check answered was the user's to decline.
            acted: !asked_unexpectedly && acted(&before, &after, &performed),
        })
    }
}

/// Tools that only look: running one of them for the wrong command shows
/// the user something, which they can read and say again.
const LOOKING_TOOLS: [&str; 5] = [
    "list_tabs",
    "list_groups",
    "list_search_engines",
    "search_bookmarks",
    "search_history",
];

/// Whether a command changed the browser: its windows, tabs, groups or
/// bookmarks, or a tool ran that acts where the snapshot cannot see
/// (a page scrolled, a search opened).
fn acted(before: &State, after: &State, performed: &[Value]) -> bool {
    let changed = before.windows != after.windows
        || before.tabs != after.tabs
        || before.groups != after.groups
        || before.bookmarks != after.bookmarks;
    changed
        || performed
            .iter()
            .filter_map(|c| c["tool"].as_str())
            .any(|tool| !LOOKING_TOOLS.contains(&tool))
}

#[cfg(test)]
mod tests {
    use super::checks;

    #[test]
    fn a_quoted_reply_keeps_its_semicolons() {
        assert_eq!(
            checks(r#"nothing ; reply "Cancelled; nothing was changed." ; closed 1"#),
            [
                "nothing",
                r#"reply "Cancelled; nothing was changed.""#,
                "closed 1"
            ]
        );
    }
}
