//! Speech that reached us but was not for us: words after the wake phrase
//! that name nothing a command is about. "Hey folks, let's get started
//! with the standup" is written "hey fox, let's get started …" by tiny.en
//! itself, prompted or not, so nothing in the audio tells it from the wake
//! phrase; what follows it does. Such words answered with "I didn't
//! understand" as a desktop notification, in the middle of a meeting.

use super::{hearing, sites, text};
use crate::tab_state::State;
use crate::vocabulary::COMMAND_WORDS;

/// Words only commands say here, besides those Whisper is prompted with
/// ([`COMMAND_WORDS`]: "close", "mute", "tab", …): what commands act on,
/// the grammar's verbs that everyday talk rarely uses, and the language
/// model asked for by name ("ask the AI to …": with none set up, the user
/// is told so). Not every verb the grammar knows: "get" ("get rid of"),
/// "take" or "show" start room talk as often.
const MORE_COMMAND_WORDS: &[&str] = &[
    "page",
    "pages",
    "window",
    "windows",
    "groups",
    "bookmarks",
    "site",
    "sites",
    "rename",
    "collapse",
    "expand",
    "fold",
    "unfold",
    "minimize",
    "dissolve",
    "disband",
    "reopen",
    "restore",
    "unclose",
    "revert",
    "refresh",
    "dedupe",
    "deduplicate",
    "unload",
    "suspend",
    "hibernate",
    "silence",
    "back",
    "forward",
    "ai",
];

/// Whether `word` is one of the words commands are made of.
fn is_command_word(word: &str) -> bool {
    MORE_COMMAND_WORDS.contains(&word)
        || COMMAND_WORDS
            .split([',', '.', ' '])
            .any(|w| w.eq_ignore_ascii_case(word) && w != "to")
}

/// Whether spoken words name nothing a command could be about: no command
/// word, as heard or as the spoken mends read it ("newt" for mute, "times"
/// for tabs, "relode" for reload), no name of the open tabs, their sites
/// or groups, heard or sounding like one, and no address.
pub fn names_nothing(input: &str, state: &State) -> bool {
    let names = hearing::names(state);
    let heard = hearing::always(&text::words(input), &names);
    let mended = hearing::command_words_mended(&heard, &names);
    let names_something = |w: &String| {
        is_command_word(w)
            || names.contains(w)
            || sites::by_name(w).is_some()
            || sites::is_address(w)
    };
    !heard.iter().chain(&mended).any(names_something)
        && hearing::by_sound(&mended, &names).is_empty()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state() -> State {
        crate::interpret::test_state::tabs(
            &[
                ("https://mail.google.com/mail/u/0/", "Inbox - Gmail"),
                (
                    "https://acme.atlassian.net/jira/software",
                    "Sprint board - Jira",
                ),
                ("https://github.com/tokio-rs/tokio", "tokio-rs/tokio"),
            ],
            &["News"],
        )
    }

    #[test]
    fn talk_about_nothing_on_screen_names_nothing() {
        for said in [
            "let's get started with the stand up",
            "are you coming tonight?",
            "I think it's going to rain later",
            // "play" sounds like "pull" (as in "pull up"), but plays nothing here.
            "play some sounds",
        ] {
            assert!(names_nothing(said, &state()), "{said}");
        }
    }

    #[test]
    fn commands_heard_badly_still_name_something() {
        for said in [
            // A command word, as heard or as Whisper mishears one.
            "close it all",
            "scroll down a bit",
            "rename for new splutter headlines",
            "newt everything",
            "unpinned it",
            // "tab" or its mishearings.
            "the new duplicate stop",
            "a new to the cut is time",
            // A tab's name, heard right or by sound, a known site, an
            // address.
            "gmail please",
            "the news",
            "the jithab one",
            "year a",
            "wikipedia",
            "example.org",
            // The language model, asked for by name.
            "ask the AI to tidy up",
        ] {
            assert!(!names_nothing(said, &state()), "{said}");
        }
    }
}
