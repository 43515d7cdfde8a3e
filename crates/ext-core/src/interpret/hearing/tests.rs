use super::command_words::{and_verbs, glued_verbs, inflections, p_heard_as_f, verb_by_sound};
use super::names::starting_with;
use super::*;
use crate::interpret::text::words;

fn state() -> State {
    crate::interpret::test_state::tabs(
        &[
            ("https://github.com/tokio-rs/tokio", ""),
            ("https://acme.atlassian.net/jira/software", ""),
            ("https://open.spotify.com/playlist/1", ""),
            ("https://mail.google.com/mail/u/0/", ""),
            ("https://app.slack.com/client/T1", ""),
            ("https://docs.google.com/document/d/1", ""),
        ],
        &["News"],
    )
}

fn hearing_names() -> Vec<String> {
    vec!["trello".into(), "spotify".into()]
}

fn first(text: &str) -> String {
    mends(&words(text), &state())
        .first()
        .map(|w| w.join(" "))
        .unwrap_or_default()
}

fn any(text: &str, want: &str) -> bool {
    mends(&words(text), &state())
        .iter()
        .any(|w| w.join(" ") == want)
}

#[test]
fn the_start_of_one_name_is_that_name() {
    // "Switch to Chat" for ChatGPT: a sure mend, as a name that sounds
    // the same is.
    let sure = |t: &str| sure_mend(&words(t), &state()).map(|w| w.join(" "));
    assert_eq!(sure("switch to spot"), Some("switch to spotify".into()));
    // Too short to say which, or the start of no name.
    assert_eq!(sure("switch to git"), None);
    assert_eq!(sure("switch to sport"), None);
    assert_eq!(starting_with("spotify", &["spotify".into()]).len(), 0);
}

#[test]
fn a_site_heard_as_side_or_sight_is_a_site() {
    assert!(any("open the slack side", "open the slack site"));
    assert!(any("open the slack sight", "open the slack site"));
    assert!(any(
        "rename the news route to later",
        "rename the news group to later"
    ));
}

#[test]
fn names_spelled_by_sound_are_the_tabs_sites() {
    assert!(any("go to the jithab tab", "go to the github tab"));
    assert!(any("open jithab", "open github"));
    assert!(any("go to yira", "go to jira"));
    assert!(any("close the spool of i tab", "close the spotify tab"));
    // A different site is not mended into a near one.
    assert!(!any("close stack", "close slack"));
    assert!(!any("close netflix", "close slack"));
}

#[test]
fn two_names_heard_by_sound_are_both_mended() {
    assert!(any("group jithab and yira", "group github and jira"));
}

#[test]
fn a_site_named_at_the_end_of_a_title_is_a_name_too() {
    let mut state = state();
    state.tabs[1].url = "https://tracker.example.com/board/3".into();
    state.tabs[1].title = "Sprint board - Jira".into();
    assert!(names(&state).contains(&"jira".to_string()));
    assert!(any("close the year tab", "close the jira tab"));
    state.tabs[1].title = "Jira board".into();
    assert!(!names(&state).contains(&"board".to_string()));
    state.tabs[1].url = "https://www.theverge.com/".into();
    state.tabs[1].title = "The Verge".into();
    assert!(names(&state).contains(&"verge".to_string()));
}

#[test]
fn command_words_and_tab_words_are_mended() {
    assert_eq!(first("new to the youtube tabs"), "mute the youtube tabs");
    assert_eq!(first("but mark this page"), "bookmark this page");
    assert_eq!(first("dispar the reddit tag"), "discard the reddit tab");
    assert_eq!(first("pin this time"), "pin this tab");
    assert_eq!(first("mute the youtube towns"), "mute the youtube tabs");
    assert_eq!(first("reload the shratab"), "reload the shra tab");
    assert_eq!(
        first("at the github tab to the news group"),
        "add the github tab to the news group"
    );
    assert_eq!(
        first("dooble best pizza in paris"),
        "google best pizza in paris"
    );
    assert!(any("pin the drotab", "pin the jira tab") || any("pin the drotab", "pin the dro tab"));
}

#[test]
fn a_name_of_the_tabs_that_sounds_like_tabs_stays_a_name() {
    assert_eq!(first("switch to the docs tag"), "switch to the docs tab");
    assert!(!mends(&words("close the docs tag"), &state())
        .iter()
        .any(|w| w.contains(&"tabs".to_string())));
}

#[test]
fn a_site_opened_by_name_drops_the_words_after_it() {
    assert!(any("open wikipedia that's hard", "open wikipedia.org"));
    assert!(any("open github tokio", "open github.com"));
    assert!(!any("open the pod bay doors", "open the"));
    // "docs dot rs slash serde" heard as "docs.rs-crd": a path said.
    assert!(!any("open docs.rs crd", "open docs.rs"));
    assert!(!mends(&words("open docs.rs crd"), &state())
        .iter()
        .any(|m| m.len() == 2));
}

#[test]
fn a_command_word_run_into_a_name_is_split_off() {
    assert_eq!(
        first("mute github and pinslack"),
        "mute github and pin slack"
    );
    assert_eq!(first("closegithub"), "close github");
    // Not a name after it.
    let names = names(&state());
    assert_eq!(glued_verbs(&words("pinstripe"), &names), words("pinstripe"));
}

#[test]
fn and_run_into_the_next_verb_is_split_off() {
    assert_eq!(
        first("close reddit , unswitch to jira"),
        "close reddit , and switch to jira"
    );
    // Real command words stay, and so does a first word.
    assert_eq!(
        and_verbs(&words("mute youtube , unpin slack")),
        words("mute youtube , unpin slack")
    );
    assert_eq!(and_verbs(&words("unclose it")), words("unclose it"));
}

#[test]
fn a_command_word_heard_with_an_ending_is_the_command_word() {
    assert_eq!(first("unpinned gmail"), "unpin gmail");
    assert_eq!(first("muted the youtube tabs"), "mute the youtube tabs");
    assert_eq!(first("reloaded this tab"), "reload this tab");
    assert_eq!(first("switched to slack"), "switch to slack");
    assert_eq!(first("closes jira"), "close jira");
    assert_eq!(first("bookmarking this page"), "bookmark this page");
    // Only the first word, and only endings of command words.
    assert_eq!(verb_inflected(&words("close the muted tabs")), None);
    assert_eq!(verb_inflected(&words("pinstripes")), None);
    let forms: Vec<String> = inflections("pin").collect();
    assert_eq!(forms, ["pinned", "pinning", "pined", "pining", "pins"]);
    assert!(inflections("open").any(|form| form == "opened"));
    let forms: Vec<String> = inflections("switch").collect();
    assert_eq!(forms, ["switched", "switching", "switches"]);
}

#[test]
fn command_words_heard_as_words_that_sound_like_them_are_mended() {
    assert_eq!(first("endo"), "undo");
    assert_eq!(first("endu that"), "undo that");
    assert_eq!(verb_by_sound(&words("close jira")), None);
    assert_eq!(verb_by_sound(&words("the jira tab")), None);
}

#[test]
fn the_top_is_not_a_tab() {
    assert_eq!(first("sproul to the top"), "scroll to the top");
    let w = |t: &str| always(&crate::interpret::text::raw_words(t), &[]).join(" ");
    assert_eq!(w("scrolls on the top"), "scrolls to the top");
}

#[test]
fn a_p_heard_as_an_f_starting_a_command_word_is_mended() {
    assert_eq!(first("fin the spotify tab"), "pin the spotify tab");
    assert_eq!(first("fins of slack tab"), "pin of slack tab");
    // Sound keys drop vowels: "fog" sounds like "back", but is spelled
    // far from it.
    assert_eq!(p_heard_as_f("fog"), None);
    assert_eq!(p_heard_as_f("first"), None);
}

#[test]
fn systematic_confusions_are_rewritten_always() {
    let w = |t: &str| always(&crate::interpret::text::raw_words(t), &[]).join(" ");
    assert_eq!(w("and group the news group"), "ungroup the news group");
    assert_eq!(w("then group the news group"), "ungroup the news group");
    assert_eq!(w("and do that"), "undo");
    assert_eq!(w("and you"), "undo");
    let names = hearing_names();
    let w2 = |t: &str| always(&crate::interpret::text::raw_words(t), &names).join(" ");
    assert_eq!(w2("and Pintrello."), "unpin trello");
    assert_eq!(w2("the mutespotify tab"), "unmute spotify tab");
    assert_eq!(w2("close this time"), "close this tab");
    assert_eq!(w2("close the times tab"), "close the times tab");
    assert_eq!(w("the mute the cats tab"), "unmute the cats tab");
    assert_eq!(w("group my tabs my site"), "group my tabs by site");
    assert_eq!(w("and you close reddit"), "and you close reddit");
    assert_eq!(w("close jira"), "close jira");
    assert_eq!(w("group the news tabs"), "group the news tabs");
    assert_eq!(
        w("look up tokio and wikipedia"),
        "look up tokio on wikipedia"
    );
    assert_eq!(w("Bookmarks a year, tab"), "bookmark a year , tab");
    assert_eq!(
        w("bookmarks the figma tab and close it"),
        "bookmark the figma tab and close it"
    );
    assert_eq!(w("bookmarks about tabs"), "bookmarks about tabs");
    assert_eq!(w("Bing, look at it, tab."), "pin , look at it , tab");
    assert_eq!(w("bing guitar tabs"), "bing guitar tabs");
    assert_eq!(w("search for cats and dogs"), "search for cats and dogs");
    assert_eq!(
        w("search with kipedia for borrow checker"),
        "search wikipedia for borrow checker"
    );
    assert_eq!(
        w("search with kpd for green mountains"),
        "search wikipedia for green mountains"
    );
    assert_eq!(
        w("search the web for borrow checker"),
        "search the web for borrow checker"
    );
    assert_eq!(w("search my tabs for rust"), "search my tabs for rust");
    assert_eq!(
        w("close youtube and wikipedia"),
        "close youtube and wikipedia"
    );
}
