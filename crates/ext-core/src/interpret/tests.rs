use super::spoken::{changes_the_action, lost_a_name};
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
fn a_guided_reading_that_replaces_the_action_heard_is_not_taken() {
    let state = test_state::tabs(
        &[
            ("https://outlook.live.com/mail/0/", "Mail - Outlook"),
            ("https://example.org/a", "Essay - Example"),
        ],
        &[],
    );
    let options = Options::default();
    let guided = |heard: &str, again: &str| plan_spoken(heard, Some(again), &state, &options);
    let switched = guided("and pin out left", "open outlook");
    assert!(switched.calls.is_empty(), "{}", switched.reply);
    // Its "un" added or dropped, or what it acts on, the guided hearing
    // may mend.
    assert!(!changes_the_action("pin pin out look", "unpin outlook"));
    let closed = guided("close the out left tab", "close the outlook tab");
    assert_eq!(closed.calls[0].tool, "close_tabs", "{}", closed.reply);
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
fn a_bare_name_only_sound_gives_switches_nothing() {
    let state = test_state::tabs(
        &[
            ("https://app.slack.com/client/T1", "general - Slack"),
            ("https://www.reddit.com/r/rust/", "r/rust"),
        ],
        &[],
    );
    let options = Options::default();
    // "hey fox, ungroup the news group" heard as "hey fox, and root": a
    // name by sound alone, with no verb, and nothing heard again.
    let guessed = plan_spoken("and root", None, &state, &options);
    assert!(guessed.calls.is_empty(), "{}", guessed.reply);
    assert!(guessed.error.is_some());
    // Said as it is spelled, a bare name still switches; heard again as
    // a command, that is taken.
    let said = plan_spoken("reddit", None, &state, &options);
    assert_eq!(tools(&said), ["switch_tab"]);
    let guided = plan_spoken("and root", Some("reload the reddit tab"), &state, &options);
    assert_eq!(tools(&guided), ["reload_tabs"], "{}", guided.reply);
    // A verb kept, the name may still be mended by sound.
    let mended = plan_spoken("close root", None, &state, &options);
    assert_eq!(tools(&mended), ["close_tabs"], "{}", mended.reply);
}

#[test]
fn a_second_models_free_hearing_is_taken_only_as_a_whole_command() {
    let mut state = test_state::tabs(
        &[
            ("https://app.slack.com/client/T1", "general - Slack"),
            ("https://outlook.live.com/mail/", "Mail - Outlook"),
        ],
        &[],
    );
    state.tabs[1].pinned = true;
    let options = Options::default();
    let offered = |heard: &str, second: &str| plan_spoken(heard, Some(second), &state, &options);
    // Rewritten as the first model's words are ("and pin" for "unpin").
    let unpin = offered("antennaut luke", "and pin outlook");
    assert_eq!(tools(&unpin), ["pin_tabs"], "{}", unpin.reply);
    assert!(unpin.reply.starts_with("(Heard as “and pin outlook”.)"));
    // Never a bare name ("Gmail," for "zoom in"), nor an address nobody
    // knows.
    for second in ["slack", "open justa.com"] {
        let plan = offered("zubin man", second);
        assert!(plan.calls.is_empty(), "{second}: {}", plan.reply);
    }
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
