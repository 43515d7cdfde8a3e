//! The offline command interpreter: what people type or say, turned into
//! tool calls against the live tab state, with no language model.
//!
//! `text` cleans the words, `parse` finds the intent (one module per
//! intent family: `parse/close.rs`), `resolve` finds the tabs it means, and
//! `plan` makes the calls (`plan/close.rs`); each family's cases are in
//! `tests/corpus/<family>.corpus`. [`plan`] is the entry point; it never
//! runs anything.

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
mod spoken_groups;
mod typed;
mod wanted;
pub use wanted::{bookmarks_wanted, history_wanted, needs_pages, BookmarksWanted};
#[cfg(test)]
mod test_state;
pub mod text;

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

/// Most mended readings of a spoken command tried before giving up.
const MAX_MENDS: usize = 12;

/// Plans a spoken command: what was heard, with Whisper's systematic
/// confusions rewritten ("and group" for "ungroup"), and, if that means
/// nothing (no such command, no such tab), `guided` (the known command the
/// audio most likely says, as the worker heard it guided to them), else
/// the first reading mended by sound that means something; the reply names
/// what it was taken for. The audio heard again beats a mend by sound: on
/// the spoken corpus "jithup" mended to the nearest name as often as not
/// (80.9% of commands right with guided first, 79.5% after the mends).
/// Only a run of words that sounds exactly like one name of the tabs and
/// no other comes first (see [`hearing::sure_mend`]): the audio is then
/// not heard again, which saves the guided hearing's time (on the spoken
/// corpus, 4 of tiny.en's 72 guided hearings and 3 of base's 66, with one
/// more command right for base and none fewer for either).
/// Typed commands go to [`plan`] as they are.
pub fn plan_spoken(input: &str, guided: Option<&str>, state: &State, options: &Options) -> Plan {
    let heard = spoken_words(input, state).join(" ");
    let first = plan_words(&heard, state, options);
    if first.error.is_none() && audio_decides(&heard, state) {
        // A verb Whisper may have dropped, a short command heard as a
        // name ("a new" for "undo"), or an address nobody knows: the audio
        // heard again decides. Never as a "yes" or "no", though: a name
        // that was heard must not confirm what is waiting for an answer.
        let meant = guided.filter(|g| !may_have_lost_a_word(g));
        return match meant.map(|g| (g, plan_words(g, state, options))) {
            Some((meant, mended)) if mended.error.is_none() && !mended.answers_a_question() => {
                heard_as(meant, mended)
            }
            _ => unless_made_up_address(first),
        };
    }
    if !matches!(
        first.error,
        Some(ErrorCode::UnknownCommand | ErrorCode::NotFound)
    ) {
        return first;
    }
    if let Some((meant, mended)) = sure_reading(&heard, state, options) {
        return heard_as(&meant, mended);
    }
    let mends = hearing::mends(&text::words(&heard), state)
        .into_iter()
        .take(MAX_MENDS)
        .map(|words| words.join(" "));
    let readings = guided.map(|g| (g.to_string(), true));
    for (meant, is_guided) in readings.into_iter().chain(mends.map(|m| (m, false))) {
        if (!is_guided && lost_a_name(&meant)) || (is_guided && drops_a_name(&heard, &meant, state))
        {
            continue;
        }
        let mended = plan_words(&meant, state, options);
        // Mended by sound into "undo", but never into a "yes" or "no": only
        // the audio heard again ("US" guided to "yes") answers a question.
        if mended.error.is_none() && (is_guided || !mended.answers_a_question()) {
            return heard_as(&meant, mended);
        }
    }
    first
}

/// The words of a spoken command with what Whisper always gets wrong
/// rewritten: systematic confusions, group names that lost their final
/// "s", and spoken web addresses.
fn spoken_words(input: &str, state: &State) -> Vec<String> {
    let names = hearing::names(state);
    let heard = hearing::always(&text::raw_words(input), &names);
    let words = spoken_groups::group_names(&heard, state);
    addresses::mend(&words, state)
}

/// Whether a reading has a verb followed straight by "and" ("group and
/// confluence"): spoken, a name was lost before the "and" ("groupier and
/// confluence" for "group jira and confluence"), so a mend by sound
/// that reads so would act on the one name left.
fn lost_a_name(reading: &str) -> bool {
    parse::clauses(&text::words(reading))
        .iter()
        .any(|clause| clause.get(1).is_some_and(|w| w == "and"))
}

/// Whether a guided reading leaves out every name of the tabs and groups
/// that was heard as it is spelled, with its kind after it: "Renee and
/// reading group, till later" (said "rename the reading group to later")
/// heard again guided as "go to the top of the page". A name alone is no
/// sign: Whisper writes the names it is prompted with into noise ("Close to
/// tackle, Theverge," for "close stack overflow", where the guided "close
/// stack overflow" was right).
fn drops_a_name(heard: &str, reading: &str, state: &State) -> bool {
    let names = hearing::names(state);
    let groups = spoken_groups::group_titles(state);
    let heard = text::words(heard);
    let read = text::words(reading);
    // A tab's name before "group" names no group ("the Trello group" for
    // the Travel group): a word misheard, which the guided hearing may
    // mend.
    let names_its_kind = |name: &String, kind: &str| match kind {
        "group" | "groups" => groups.contains(name),
        "tab" | "tabs" => names.contains(name),
        _ => false,
    };
    let named: Vec<&String> = heard
        .windows(2)
        .filter(|pair| names_its_kind(&pair[0], &pair[1]))
        .map(|pair| &pair[0])
        .collect();
    // "the map tab" for the maps tab: a plural's "s" is often not heard.
    let kept = |name: &String| read.iter().any(|r| r.starts_with(name.as_str()));
    !named.is_empty() && !named.into_iter().any(kept)
}

/// `plan`, unless it opens a spoken address whose ending no site has
/// ("docs.paras/30" for "docs dot rs slash serde"): that was misheard
/// past mending, so the user sees what was heard and nothing opens.
fn unless_made_up_address(plan: Plan) -> Plan {
    let made_up = plan.calls.iter().find_map(|call| {
        let url = call.args.get("url")?.as_str()?;
        Some((url.to_string(), addresses::made_up_ending(url)?))
    });
    match made_up {
        Some((url, ending)) => Plan::failed(
            ErrorCode::NotFound,
            format!(
                "No web address ends in '.{ending}', so {url} was not opened. \
                 Say it again, or type it."
            ),
        ),
        None => plan,
    }
}

/// The reading of words that mean nothing mended as surely as hearing
/// the audio again would, if it means something other than a yes or no;
/// then the audio need not be heard again. Sure are a command word heard
/// with an ending ("Unpinned email": hearing it again guided picked "open
/// gmail" on a held-out voice) and a name that sounds exactly like one
/// tab's (see [`hearing::sure_mend`]).
fn sure_reading(heard: &str, state: &State, options: &Options) -> Option<(String, Plan)> {
    let words = text::words(heard);
    let sure = |meant: Vec<String>| {
        let meant = meant.join(" ");
        // A bare name mended ("Chat, tab") may still have lost its verb:
        // the audio decides, as for a bare name heard.
        if may_have_lost_a_word(&meant) {
            return None;
        }
        let mended = plan_words(&meant, state, options);
        (mended.error.is_none() && !mended.answers_a_question()).then_some((meant, mended))
    };
    hearing::verb_inflected(&words)
        .and_then(sure)
        .or_else(|| hearing::sure_mend(&words, state).and_then(sure))
}

/// A plan for a reading of what was heard, its reply saying so.
fn heard_as(meant: &str, mended: Plan) -> Plan {
    read_as("Heard", meant, mended)
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

/// Whether a spoken command that means something should still be heard
/// again, guided, and taken as that if it means something too: it may
/// have lost a word, or it opens an address nobody knows, most often a
/// known site's misheard past mending ("Open just a dot com" for "open
/// github dot com"). On the spoken corpus and its held-out twin, 5 of
/// tiny.en's wrong actions were such addresses, opened as heard.
fn audio_decides(heard: &str, state: &State) -> bool {
    may_have_lost_a_word(heard) || addresses::names_an_unknown_domain(&text::words(heard), state)
}

/// Whether a spoken command may have lost a word: a clause of it is a
/// bare name, which switches to it, or the whole command is a bare
/// "scroll", which scrolls down. Spoken, that is often a command whose
/// verb Whisper dropped ("YouTube, tabs" for "mute the YouTube tabs",
/// "new this tab" for "mute this tab"), or a "scroll up" whose "up" it
/// lost ("Scroll,"). A "scroll" among other clauses is taken as said.
fn may_have_lost_a_word(command: &str) -> bool {
    let clauses = parse::clauses(&text::words(command));
    let bare_scroll =
        matches!(clauses.as_slice(), [only] if only.len() == 1 && only[0] == "scroll");
    bare_scroll
        || clauses
            .iter()
            .any(|c| matches!(parse::parse(c), Ok(Intent::Bare(_))))
}

/// Whether a spoken command, with Whisper's systematic confusions
/// rewritten, means nothing for these tabs (no such command, no such tab)
/// or the audio should decide what it means (see [`audio_decides`]): then
/// the speech worker is asked to hear it again, guided to the known
/// commands, before any mending by sound.
pub fn needs_guided(input: &str, state: &State, options: &Options) -> bool {
    let heard = spoken_words(input, state).join(" ");
    let first = plan_words(&heard, state, options);
    // "find cats on this page", "summarize this": clearly asked, and no
    // command; heard again guided to the commands they would become one
    // ("go to the bottom of the page"), and run as a guess.
    let words = text::words(&heard);
    let asked_beyond = beyond::reply(&words, state).is_some() || open_ended(&words);
    let means_nothing = !asked_beyond
        && matches!(
            first.error,
            Some(ErrorCode::UnknownCommand | ErrorCode::NotFound)
        );
    (means_nothing && sure_reading(&heard, state, options).is_none())
        || (first.error.is_none() && audio_decides(&heard, state))
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
mod tests {
    use super::*;

    fn state() -> State {
        test_state::tabs(
            &[
                ("https://www.youtube.com/watch?v=1", "Dogs - YouTube"),
                ("https://app.slack.com/client/T1", "general - Slack"),
            ],
            &[],
        )
    }

    #[test]
    fn a_guided_reading_that_drops_a_name_said_with_its_kind_is_not_taken() {
        let state = test_state::tabs(
            &[
                ("https://example.org/a", "Essay - Example"),
                (
                    "https://www.google.com/maps/place/Paris",
                    "Paris - Google Maps",
                ),
            ],
            &["Reading"],
        );
        let options = Options::default();
        let guided = |heard: &str, again: &str| plan_spoken(heard, Some(again), &state, &options);
        let heard = "renee and reading group till later";
        let wrong = guided(heard, "go to the top of the page");
        assert!(wrong.calls.is_empty(), "{}", wrong.reply);
        let right = guided(heard, "rename the reading group to later");
        assert_eq!(right.calls[0].tool, "update_group", "{}", right.reply);
        // A plural's "s" unheard ("the map tab") is the same name.
        let maps = guided("switch to the map tab stop", "switch to the maps tab");
        assert_eq!(maps.calls[0].tool, "switch_tab", "{}", maps.reply);
        // A name without its kind may be Whisper's own, from the prompt.
        let alone = guided("close to tackle reading", "go to the top of the page");
        assert_eq!(alone.calls[0].tool, "browse", "{}", alone.reply);
    }

    #[test]
    fn words_naming_nothing_after_the_wake_phrase_are_room_talk_without_a_model() {
        let talk = "let's get started with the stand up";
        let plan = spoken(talk, None);
        let after_wake = Addressed {
            by_wake_phrase: true,
            ..Addressed::default()
        };
        assert!(plan.is_room_talk(talk, &state(), after_wake));
        let unsure = Addressed {
            wake_unsure: true,
            model_set_up: true,
            ..after_wake
        };
        assert!(plan.is_room_talk(talk, &state(), unsure));
        // Surely said to us: the mic button, or a model to take it.
        for sure in [
            Addressed {
                by_wake_phrase: false,
                ..after_wake
            },
            Addressed {
                model_set_up: true,
                ..after_wake
            },
        ] {
            assert!(!plan.is_room_talk(talk, &state(), sure), "{sure:?}");
        }
        // Words that name a tab, or a command that can be placed, are for us.
        let named = "frobnicate the slack tab";
        assert!(!spoken(named, None).is_room_talk(named, &state(), after_wake));
        let placed = "mute youtube";
        assert!(!spoken(placed, None).is_room_talk(placed, &state(), unsure));
    }

    fn spoken(heard: &str, guided: Option<&str>) -> Plan {
        plan_spoken(heard, guided, &state(), &Options::default())
    }

    fn tools(plan: &Plan) -> Vec<&str> {
        plan.calls.iter().map(|c| c.tool.as_str()).collect()
    }

    #[test]
    fn a_mend_that_leaves_a_verb_before_and_is_not_taken() {
        let options = Options::default();
        // "groupier" mends by sound to "group"; the name before "and" is lost.
        let heard = "groupier and slack";
        let spoken = plan_spoken(heard, None, &state(), &options);
        assert!(
            spoken.calls.is_empty(),
            "{:?} {}",
            spoken.calls,
            spoken.reply
        );
        // Heard again guided, the audio decides.
        let guided = plan_spoken(heard, Some("group youtube and slack"), &state(), &options);
        assert_eq!(tools(&guided), ["group_tabs"]);
        assert!(!lost_a_name("group youtube and slack"));
        assert!(!lost_a_name("mute youtube and pin slack"));
    }

    #[test]
    fn a_spoken_address_with_an_ending_no_site_has_is_not_opened() {
        let options = Options::default();
        let heard = "open docs.paras slash 30";
        let spoken = plan_spoken(heard, None, &state(), &options);
        assert!(spoken.calls.is_empty(), "{:?}", spoken.calls);
        assert_eq!(spoken.error, Some(ErrorCode::NotFound));
        assert!(spoken.reply.contains("'.paras'"), "{}", spoken.reply);
        // A real ending is opened as heard; typed, anything is.
        assert_eq!(
            tools(&plan_spoken(
                "open docs.rs slash 30",
                None,
                &state(),
                &options
            )),
            ["create_tab"]
        );
        assert_eq!(tools(&plan(heard, &state(), &options)), ["create_tab"]);
    }

    #[test]
    fn a_colour_said_for_a_group_heard_with_a_recolours_it_only_when_spoken() {
        let news = test_state::tabs(&[("https://news.example/", "Headlines")], &["News"]);
        let options = Options::default();
        let said = "make a news group red";
        let heard = plan_spoken(said, None, &news, &options);
        assert_eq!(tools(&heard), ["update_group"], "{:?}", heard.calls);
        assert_eq!(heard.calls[0].args["color"], "red");
        assert_eq!(heard.calls[0].args["groupId"], 7);
        let typed = plan(said, &news, &options);
        assert!(
            !tools(&typed).contains(&"update_group"),
            "{:?}",
            typed.calls
        );
    }

    #[test]
    fn a_command_cut_off_after_the_acts_on_nothing_and_is_heard_again() {
        let options = Options::default();
        for said in ["close the", "mute the", "close youtube and pin the"] {
            let typed = plan(said, &state(), &options);
            assert!(typed.calls.is_empty(), "{said}: {:?}", typed.calls);
            assert_eq!(typed.error, Some(ErrorCode::UnknownCommand), "{said}");
            assert!(needs_guided(said, &state(), &options), "{said}");
        }
        assert_eq!(
            tools(&plan("close the dogs", &state(), &options)),
            ["close_tabs"]
        );
    }

    #[test]
    fn words_in_every_title_name_no_tab() {
        let state = test_state::tabs(
            &[
                ("https://mail.example/", "Inbox"),
                (
                    "https://stackoverflow.com/q/1",
                    "How do I exit Vim? - Stack Overflow",
                ),
            ],
            &[],
        );
        let options = Options::default();
        for said in ["switch to do", "close do", "go to the i"] {
            let plan = plan(said, &state, &options);
            assert!(plan.calls.is_empty(), "{said}: {:?}", plan.calls);
            assert_eq!(plan.error, Some(ErrorCode::NotFound), "{said}");
        }
        // A word of its own still names it, and "tab do" is tab two.
        assert_eq!(
            plan("switch to vim", &state, &options).calls[0].args["tabId"],
            2
        );
        assert_eq!(
            plan("switch to tab do", &state, &options).calls[0].args["tabId"],
            2
        );
    }

    #[test]
    fn a_bare_name_heard_is_heard_again_for_a_dropped_verb() {
        let typed = plan("youtube tabs", &state(), &Options::default());
        assert!(needs_guided("youtube tabs", &state(), &Options::default()));
        let mended = spoken("youtube tabs", Some("mute the youtube tabs"));
        assert_ne!(tools(&mended), tools(&typed));
        assert!(mended
            .reply
            .starts_with("(Heard as “mute the youtube tabs”.)"));
        // Heard again as the same bare name, or as nothing: as heard.
        assert_eq!(
            tools(&spoken("youtube tabs", Some("youtube"))),
            tools(&typed)
        );
        assert_eq!(tools(&spoken("youtube tabs", None)), tools(&typed));
        // A bare "scroll" has lost its direction as a name its verb.
        assert!(needs_guided("scroll", &state(), &Options::default()));
        assert_eq!(
            spoken("scroll", Some("scroll up")).calls[0].args["action"],
            "scroll_up"
        );
        assert_eq!(
            spoken("scroll", None).calls[0].args["action"],
            "scroll_down"
        );
        assert!(!needs_guided("scroll down", &state(), &Options::default()));
        // A "scroll" among other clauses is taken as said.
        assert!(!needs_guided(
            "scroll and mute this tab",
            &state(),
            &Options::default()
        ));
        // Heard again as a command of its own, undo among them, but never
        // as an answer: a heard name must not confirm a waiting plan.
        assert_eq!(spoken("youtube", Some("undo")).special, Some(Special::Undo));
        let typed_youtube = plan("youtube", &state(), &Options::default());
        let answered = spoken("youtube", Some("yes"));
        assert_eq!(answered.special, None);
        assert_eq!(tools(&answered), tools(&typed_youtube));
        // A command with its verb is not heard again.
        assert!(!needs_guided("mute youtube", &state(), &Options::default()));
    }

    #[test]
    fn an_address_nobody_knows_is_heard_again() {
        let options = Options::default();
        let url = |plan: &Plan| plan.calls[0].args["url"].as_str().unwrap().to_string();
        assert!(needs_guided("Open justa.com", &state(), &options));
        let guided = spoken("Open justa.com", Some("open GitHub"));
        assert!(url(&guided).contains("github.com"), "{guided:?}");
        assert!(guided.reply.starts_with("(Heard as “open GitHub”.)"));
        // Heard again as nothing, or as a bare name: opened as heard.
        for guided in [None, Some("github")] {
            assert_eq!(url(&spoken("Open justa.com", guided)), "https://justa.com/");
        }
        // Known addresses, and typed ones, are taken as they are.
        assert!(!needs_guided("open github.com", &state(), &options));
        assert!(!needs_guided("open bing.com", &state(), &options));
        assert!(url(&plan_typed("open justa.com")).contains("justa.com"));
    }

    #[test]
    fn a_command_that_fails_halfway_says_nothing_was_done() {
        let plan = plan_typed("close slack and switch to jira");
        assert_eq!(plan.error, Some(ErrorCode::NotFound));
        assert!(plan.calls.is_empty());
        assert!(!plan.reply.contains("Closed"), "{}", plan.reply);
        assert!(plan.reply.ends_with("Nothing was done."), "{}", plan.reply);
        let alone = plan_typed("switch to jira");
        assert!(
            !alone.reply.contains("Nothing was done."),
            "{}",
            alone.reply
        );
    }

    #[test]
    fn what_no_command_does_is_not_heard_again_as_a_command() {
        let options = Options::default();
        // Guided, "find kelt on this page" became "go to the bottom of the
        // page" on a held-out voice.
        for heard in [
            "find kelt on this page",
            "print this page",
            "summarize this page",
        ] {
            assert!(!needs_guided(heard, &state(), &options), "{heard}");
        }
        assert!(needs_guided("Nuitlist time", &state(), &options));
    }

    #[test]
    fn a_command_word_heard_with_an_ending_is_sure_and_beats_the_guided_hearing() {
        let options = Options::default();
        assert!(!needs_guided("muted youtube", &state(), &options));
        let plan = spoken("muted youtube", Some("switch to youtube"));
        assert!(
            plan.reply.starts_with("(Heard as “mute youtube”.)"),
            "{}",
            plan.reply
        );
        assert_eq!(tools(&plan), ["mute_tabs"]);
        // Typed, the words are taken as they are.
        assert!(plan_typed("muted youtube").error.is_some());
        // Still meaning nothing with the ending off: heard again guided.
        assert!(needs_guided("muted netflix", &state(), &options));
    }

    #[test]
    fn bookmarks_heard_before_a_tab_bookmarks_it() {
        let plan = spoken("Bookmarks the Slack tab.", None);
        assert_eq!(tools(&plan), ["create_bookmark"]);
        assert_eq!(plan.calls[0].args["tabId"], 2);
        // Typed, and spoken about anything but a tab: a bookmark search.
        assert_eq!(
            tools(&plan_typed("bookmarks the slack tab")),
            ["search_bookmarks"]
        );
        assert_eq!(
            tools(&spoken("bookmarks about slack", None)),
            ["search_bookmarks"]
        );
    }

    #[test]
    fn only_the_audio_heard_again_answers_a_question() {
        assert_eq!(spoken("us", Some("yes")).special, Some(Special::Yes));
        assert_eq!(spoken("us", None).special, None);
    }

    #[test]
    fn a_spoken_address_heard_by_sound_opens_the_known_site() {
        let plan = spoken("open jithab.com", None);
        assert!(plan.calls[0].args.to_string().contains("github.com"));
        let typed = plan_typed("open jithab.com");
        assert!(typed.calls[0].args.to_string().contains("jithab.com"));
    }

    #[test]
    fn a_name_sounding_exactly_like_one_tab_is_not_heard_again() {
        let with =
            |second: &str| test_state::tabs(&[("https://github.com/x/y", "t"), (second, "t")], &[]);
        let options = Options::default();
        let heard = "switch to the jithup tab";
        // "jithup" sounds just like GitHub and like no other open site.
        let slack = with("https://app.slack.com/client/T1");
        assert!(!needs_guided(heard, &slack, &options));
        let plan = plan_spoken(heard, Some("switch to the slack tab"), &slack, &options);
        assert!(
            plan.reply
                .starts_with("(Heard as “switch to the github tab”.)"),
            "{}",
            plan.reply
        );
        assert_eq!(plan.calls[0].args["tabId"], 1);
        // It sounds just as much like YouTube, but is spelled far closer to
        // GitHub: still as sure.
        let youtube = with("https://www.youtube.com/watch?v=1");
        assert!(!needs_guided(heard, &youtube, &options));
        let plan = plan_spoken(heard, Some("switch to the youtube tab"), &youtube, &options);
        assert_eq!(plan.calls[0].args["tabId"], 1);
        // Two names alike in sound and spelling: the audio heard again
        // decides.
        let gitub = with("https://gitub.com/x");
        assert!(needs_guided(heard, &gitub, &options));
        let plan = plan_spoken(heard, Some("switch to the gitub tab"), &gitub, &options);
        assert_eq!(plan.calls[0].args["tabId"], 2);
    }

    /// "open github.com and pin it": the pin is planned for the id the
    /// simulation gave the new tab, and takes the id Firefox gives it.
    #[test]
    fn a_tab_opened_then_acted_on_takes_the_id_firefox_gives_it() {
        let plan = plan_typed("open github.com and pin it");
        let tools: Vec<&str> = plan.calls.iter().map(|c| c.tool.as_str()).collect();
        assert_eq!(tools, ["create_tab", "pin_tabs"], "{}", plan.reply);
        let simulated = plan.calls[1].args["tabIds"][0].as_i64().unwrap();
        assert!(state().tabs.iter().all(|t| t.id != simulated));
        let [(0, result)] = plan.simulated.as_slice() else {
            panic!("{:?}", plan.simulated);
        };
        let mut firefox = result.clone();
        firefox["tab"]["id"] = (simulated + 40).into();
        let renamed = made_ids::renamed(result, &firefox);
        let args = made_ids::with_firefox_ids(&plan.calls[1].args, &renamed);
        assert_eq!(args["tabIds"], serde_json::json!([simulated + 40]));
        assert_eq!(args["pinned"], true);
        // One clause: nothing simulated, the arguments as planned.
        assert!(plan_typed("pin slack").simulated.is_empty());
    }

    fn plan_typed(text: &str) -> Plan {
        plan(text, &state(), &Options::default())
    }
}
