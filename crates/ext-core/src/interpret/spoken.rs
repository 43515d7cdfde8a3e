//! Spoken commands: what Whisper heard, with its systematic confusions
//! rewritten, then (where that means nothing) the audio heard again guided
//! to the known commands, or the words mended by sound; and whether a
//! command should be heard again at all ([`needs_guided`]).

use super::{
    addresses, beyond, hearing, open_ended, parse, plan_words, read_as, spoken_groups, text,
    Intent, Options, Plan,
};
use crate::error::ErrorCode;
use crate::tab_state::State;

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
    // A guided reading is a known command, but the worker may offer a
    // second model's free transcript instead: its confusions are
    // rewritten as the first's, and it is taken only as a whole command
    // for these tabs, never as a bare name or an address nobody knows.
    let guided = guided
        .map(|said| (said, spoken_words(said, state).join(" ")))
        .filter(|(_, words)| !audio_decides(words, state));
    if first.error.is_none() && audio_decides(&heard, state) {
        // A verb Whisper may have dropped, a short command heard as a
        // name ("a new" for "undo"), or an address nobody knows: the audio
        // heard again decides. Never as a "yes" or "no", though: a name
        // that was heard must not confirm what is waiting for an answer.
        return match guided.map(|(said, words)| (said, plan_words(&words, state, options))) {
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
    // Each reading as it is shown, and its words as planned.
    let readings = guided.map(|(said, words)| (said.to_string(), words, true));
    let mends = mends.map(|m| (m.clone(), m, false));
    for (meant, words, is_guided) in readings.into_iter().chain(mends) {
        let refused = match is_guided {
            true => drops_a_name(&heard, &words, state) || changes_the_action(&heard, &words),
            // A mend by sound into a bare name ("and root" to "reddit")
            // would switch tabs on the say-so of sound alone: the audio was
            // heard again for it and named no command, so it is a guess.
            false => lost_a_name(&words) || may_have_lost_a_word(&words),
        };
        if refused {
            continue;
        }
        let mended = plan_words(&words, state, options);
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
pub(super) fn lost_a_name(reading: &str) -> bool {
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

/// Whether a guided reading does something else to the tabs than the
/// action heard plainly at the start: "and pin out, left" (said "unpin
/// outlook", read "unpin out left") heard again guided as "open outlook"
/// switched to Outlook. A command word heard as it is spelled was said;
/// the guided hearing may mend what it acts on, or add or drop its "un",
/// but not replace it.
pub(super) fn changes_the_action(heard: &str, reading: &str) -> bool {
    const ACTIONS: &[&str] = &[
        "close",
        "pin",
        "unpin",
        "mute",
        "unmute",
        "reload",
        "bookmark",
        "discard",
        "duplicate",
        "group",
        "ungroup",
        "rename",
        "collapse",
    ];
    let (heard, read) = (text::words(heard), text::words(reading));
    let (Some(said), Some(read)) = (heard.first(), read.first()) else {
        return false;
    };
    // "Close to …" is as often "go to …" misheard: nothing is closed "to".
    let plainly = ACTIONS.contains(&said.as_str()) && heard.get(1).is_none_or(|w| w != "to");
    let base = |w: &str| w.strip_prefix("un").unwrap_or(w).to_string();
    plainly && base(said) != base(read)
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
