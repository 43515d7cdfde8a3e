//! The offline command interpreter: what people type or say, turned into
//! tool calls against the live tab state, with no language model.
//!
//! `text` cleans the words, `parse` finds the intent (one module per
//! intent family: `parse/close.rs`), `resolve` finds the tabs it means, and
//! `plan` makes the calls (`plan/close.rs`); each family's cases are in
//! `tests/corpus/<family>.corpus`. [`plan`] is the entry point; it never
//! runs anything. What is said goes to [`plan_spoken`] (`spoken.rs`), which
//! mends what Whisper mishears (`hearing/`, `addresses.rs`,
//! `spoken_groups.rs`) before planning it.

mod addresses;
mod beyond;
mod hearing;
pub mod made_ids;
pub mod parse;
mod plan;
mod resolve;
mod room_talk;
pub mod sites;
mod sounds;
mod spoken;
mod spoken_groups;
mod typed;
mod wanted;
pub use wanted::{bookmarks_wanted, history_wanted, needs_pages, BookmarksWanted};
#[cfg(test)]
mod test_state;
pub mod text;

pub use spoken::{needs_guided, plan_spoken};
pub use typed::plan;

use crate::error::ErrorCode;
use crate::memory::MemoryBrowser;
use crate::tab_state::State;
use parse::{Intent, NotUnderstood};
use serde::Serialize;

pub use crate::log::Call;
pub use plan::time_range;
pub(crate) use resolve::spoken_list;

/// Settings the interpreter follows.
#[derive(Clone, Debug)]
pub struct Options {
    /// Closing more tabs than this asks first.
    pub confirm_threshold: usize,
    /// Minutes to add to UTC for local time ("yesterday", "this morning").
    pub tz_offset_minutes: i32,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            confirm_threshold: 10,
            tz_offset_minutes: 0,
        }
    }
}

/// Commands that are not tool calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Special {
    Undo,
    Reopen,
    /// "what was the last tab I closed", answered from the undo journal.
    LastClosed,
    /// "stop listening": the voice stops (`CommandAnswer::stop_listening`).
    StopListening,
    Yes,
    No,
}

/// How spoken words reached us, to tell a command from room talk.
#[derive(Clone, Copy, Debug, Default)]
pub struct Addressed {
    /// The wake phrase was only likely (see
    /// `ext_protocol::worker::CommandHeard::wake_unsure`).
    pub wake_unsure: bool,
    /// After the wake phrase, which may have been someone else's words
    /// (not the mic button or the keyboard shortcut).
    pub by_wake_phrase: bool,
    /// A language model takes what the interpreter cannot place.
    pub model_set_up: bool,
}

/// What a command comes to, before anything runs.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Plan {
    pub calls: Vec<Call>,
    pub reply: String,
    pub needs_confirmation: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub question: Option<String>,
    /// Set when nothing can be done: why, as an error code.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<ErrorCode>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub special: Option<Special>,
    /// How many of the newest changes an undo reverts, when more than one
    /// ("undo the last two changes").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo_times: Option<usize>,
    /// The calls that read rather than change (their results make the reply).
    #[serde(skip)]
    pub query: bool,
    /// The calls (by index) that may find nothing without stopping the
    /// rest: a sweep's, such as pausing every tab that plays when one
    /// plays through Web Audio, which no page script can pause.
    #[serde(skip)]
    pub passable: Vec<usize>,
    /// What the calls of every clause but the last returned in the
    /// simulation later clauses were planned on, by call index: the ids
    /// they made are Firefox's once they run ([`made_ids`]).
    #[serde(skip)]
    pub simulated: Vec<(usize, serde_json::Value)>,
}

impl Plan {
    /// Whether these spoken words, planned from `heard`, were room talk
    /// after all: no command can be placed in them, and either their wake
    /// phrase was only likely, or they came after the wake phrase with no
    /// language model to take open-ended requests and name nothing a
    /// command is about (see [`room_talk::names_nothing`]). The background
    /// page and `twctl hear` judge by this one rule.
    pub fn is_room_talk(&self, heard: &str, state: &State, addressed: Addressed) -> bool {
        let unplaced = self.error == Some(ErrorCode::UnknownCommand);
        let maybe_someone_elses = addressed.by_wake_phrase && !addressed.model_set_up;
        unplaced
            && (addressed.wake_unsure
                || (maybe_someone_elses && room_talk::names_nothing(heard, state)))
    }

    fn failed(code: ErrorCode, reply: String) -> Plan {
        Plan {
            calls: Vec::new(),
            reply,
            needs_confirmation: false,
            question: None,
            error: Some(code),
            special: None,
            undo_times: None,
            query: false,
            passable: Vec::new(),
            simulated: Vec::new(),
        }
    }

    /// A "yes" or "no": it runs or cancels what waits for confirmation.
    fn answers_a_question(&self) -> bool {
        matches!(self.special, Some(Special::Yes | Special::No))
    }
}

/// A plan for another reading of a command, its reply (and question)
/// saying how it was read: "(Heard as “…”.)", "(Read as “…”.)".
fn read_as(how: &str, meant: &str, mended: Plan) -> Plan {
    let note = format!("({how} as “{}”.)", meant.replace(" ,", ","));
    Plan {
        reply: format!("{note} {}", mended.reply),
        question: mended.question.map(|q| format!("{note} {q}")),
        ..mended
    }
}

/// "summarize this page", "what is this page about", "translate it": what
/// only a language model can do.
fn open_ended(w: &[String]) -> bool {
    const ASKS: &[&str] = &[
        "summarize",
        "summarise",
        "explain",
        "translate",
        "describe",
        "rewrite",
        "compare",
    ];
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    let about_page = w.ends_with(&["page", "about"]) || w.ends_with(&["article", "about"]);
    w.first().is_some_and(|x| ASKS.contains(x))
        || matches!(
            w.as_slice(),
            ["read", "this" | "the", "page" | "article", ..]
        )
        || matches!(w.as_slice(), ["what" | "what's", ..]) && about_page
}

/// Plans words as they are, against a snapshot of the browser.
fn plan_words(input: &str, state: &State, options: &Options) -> Plan {
    let words = text::words(input);
    if words.is_empty() {
        return Plan::failed(
            ErrorCode::InvalidArgs,
            "Say or type what to do, for example 'close the YouTube tabs'.".into(),
        );
    }
    if open_ended(&words) {
        // What a language model would take (the background routes it
        // there when one is set up).
        return Plan::failed(
            ErrorCode::UnknownCommand,
            "Summaries, explanations and other open-ended requests are for a language \
             model (see Language model on the options page)."
                .into(),
        );
    }
    if let Some(reply) = beyond::reply(&words, state) {
        return Plan::failed(ErrorCode::UnknownCommand, reply.into());
    }
    let clauses = parse::clauses(&words);
    let mut intents = Vec::new();
    for c in &clauses {
        let named_group = || spoken_groups::group_without_the_word(c, state);
        match parse::parse(c).or_else(|e| named_group().map_or(Err(e), |c| parse::parse(&c))) {
            Ok(i) => intents.push(i),
            Err(NotUnderstood(reply)) => {
                let hint = match beyond::web_question(&words) {
                    Some(query) => format!(" To look it up, say 'search for {query}'."),
                    None => " Try 'close the YouTube tabs', 'switch to Gmail' or 'group my tabs by site'."
                        .into(),
                };
                return Plan::failed(ErrorCode::UnknownCommand, format!("{reply}{hint}"));
            }
        }
    }
    if let [single] = intents.as_slice() {
        let special = match single {
            Intent::Undo | Intent::UndoSeveral(_) => Some(Special::Undo),
            Intent::Reopen => Some(Special::Reopen),
            Intent::LastClosed => Some(Special::LastClosed),
            Intent::StopListening => Some(Special::StopListening),
            Intent::Yes => Some(Special::Yes),
            Intent::No => Some(Special::No),
            _ => None,
        };
        if let Some(s) = special {
            // The background acts on these itself; the reply says what
            // they mean where nothing acts on them (twctl plan).
            let undo_times = match single {
                Intent::UndoSeveral(n) => Some(*n),
                _ => None,
            };
            let reply = match (s, undo_times) {
                (Special::Undo, Some(n)) => format!("Undo the last {n} changes."),
                (Special::Undo, None) => "Undo the last change.".into(),
                (Special::Reopen, _) => "Reopen the tabs closed last.".into(),
                (Special::LastClosed, _) => "Say which tabs were closed last.".into(),
                (Special::StopListening, _) => "Stop listening.".into(),
                (Special::Yes, _) => "Yes: run what is waiting for confirmation.".into(),
                (Special::No, _) => "No: cancel what is waiting for confirmation.".into(),
            };
            return Plan {
                calls: Vec::new(),
                reply,
                needs_confirmation: false,
                question: None,
                error: None,
                special: Some(s),
                undo_times,
                query: false,
                passable: Vec::new(),
                simulated: Vec::new(),
            };
        }
    }
    // Later clauses see the state earlier ones leave (simulated in memory);
    // the last clause needs no simulation.
    let mut current = std::borrow::Cow::Borrowed(state);
    let mut calls = Vec::new();
    let mut replies = Vec::new();
    let mut questions = Vec::new();
    let mut previous = Vec::new();
    let mut query = false;
    let mut passable = Vec::new();
    let mut simulated = Vec::new();
    // Nothing of a plan runs unless all of it can: past the first clause,
    // the reply says so, as the earlier clauses' replies ("Closed
    // 'r/rust'.") would say otherwise.
    let failed_at = |k: usize, code: ErrorCode, reply: String| {
        let reply = if k > 0 {
            reply + " Nothing was done."
        } else {
            reply
        };
        Plan::failed(code, reply)
    };
    for (k, intent) in intents.iter().enumerate() {
        if matches!(
            intent,
            Intent::Undo | Intent::UndoSeveral(_) | Intent::Reopen | Intent::Yes | Intent::No
        ) {
            return Plan::failed(
                ErrorCode::InvalidArgs,
                "Say 'undo', 'yes' or 'no' on its own.".into(),
            );
        }
        let mut view = resolve::View::new(&current);
        view.previous = std::mem::take(&mut previous);
        view.after_clause = k > 0;
        let step = match plan::plan_intent(intent, &view, options) {
            Ok(step) => step,
            Err(refusal) => return failed_at(k, refusal.code, refusal.reply),
        };
        query |= matches!(
            intent,
            Intent::History { .. }
                | Intent::FindBookmarks(_)
                | Intent::BookmarkFolder(_)
                | Intent::RecentBookmarks(_)
                | Intent::IsBookmarked(_)
                | Intent::ListTabs(_)
                | Intent::IsOpen(_)
                | Intent::LastUsed(_)
                | Intent::ListDuplicates { .. }
                | Intent::ListGroups
                | Intent::ListEngines
                | Intent::Help
                | Intent::Count(_)
                | Intent::CountWindows
                | Intent::WhichWindow(_)
                | Intent::WhichGroup(_)
                | Intent::BusiestWindow { .. }
        );
        if k + 1 < intents.len() {
            let sim = MemoryBrowser::new(plan::with_windows(current.into_owned()));
            for (i, result) in plan::simulate(&sim, &step.calls).into_iter().enumerate() {
                match result {
                    Err(e) => return failed_at(k, e.code, e.message),
                    Ok(result) => simulated.push((calls.len() + i, result)),
                }
            }
            current = std::borrow::Cow::Owned(sim.state());
        }
        previous = step.touched;
        if !step.reply.is_empty() {
            replies.push(step.reply);
        }
        if let Some(q) = step.confirm {
            questions.push(q);
        }
        if step.sweep {
            passable.extend(calls.len()..calls.len() + step.calls.len());
        }
        calls.extend(step.calls);
    }
    let needs_confirmation = !questions.is_empty();
    Plan {
        calls,
        reply: replies.join(" "),
        needs_confirmation,
        question: needs_confirmation.then(|| questions.join(" ")),
        error: None,
        special: None,
        undo_times: None,
        query,
        passable,
        simulated,
    }
}

#[cfg(test)]
mod tests;
