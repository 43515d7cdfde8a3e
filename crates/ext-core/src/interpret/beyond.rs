//! Everyday requests that no tool does: "print this page", "take a
//! screenshot", "find cats on this page". Said plainly, they get a reply
//! naming Firefox's own key for it, rather than falling through to a guess
//! ("print" used to switch to a tab titled "Sprint board").

use crate::tab_state::State;

/// Firefox's own pages, which no add-on may open, and what opens them.
const FIREFOX_PAGES: &[(&[&str], &str)] = &[
    (
        &["settings", "preferences"],
        "Firefox doesn't let add-ons open its settings; choose Settings in the ☰ menu.",
    ),
    (
        &["downloads", "download"],
        "Firefox doesn't let add-ons open its downloads; choose Downloads in the ☰ menu.",
    ),
    (
        &["add-ons", "addons", "extensions", "add"],
        "Firefox doesn't let add-ons open the add-ons page; press Ctrl+Shift+A (⌘⇧A on a Mac).",
    ),
    (
        &["library", "bookmarks", "manager"],
        "Firefox doesn't let add-ons open its library; choose Bookmarks, then Manage \
         bookmarks, in the ☰ menu. To find a bookmark, say 'find my bookmarks about …'.",
    ),
];

/// "open settings", "show my downloads": one of Firefox's pages, unless
/// an open tab is called that.
fn firefox_page(w: &[&str], state: &State) -> Option<&'static str> {
    let lead = [
        &["open"][..],
        &["show"],
        &["show", "me"],
        &["go", "to"],
        &["take", "me", "to"],
    ]
    .iter()
    .filter(|lead| w.starts_with(lead))
    .map(|lead| lead.len())
    .max()?;
    let filler = [
        "the",
        "my",
        "firefox",
        "firefox's",
        "browser",
        "page",
        "window",
        "on",
        "ons",
    ];
    let rest: Vec<&str> = w[lead..]
        .iter()
        .copied()
        .filter(|x| !filler.contains(x))
        .collect();
    let (_, reply) = FIREFOX_PAGES
        .iter()
        .find(|(names, _)| !rest.is_empty() && rest.iter().all(|x| names.contains(x)))?;
    let titled = state.tabs.iter().any(|t| {
        let title = t.title.to_lowercase();
        rest.iter().any(|x| title.contains(x))
    });
    (!titled).then_some(*reply)
}

/// What to say to a request Tab Whisperer cannot carry out, if it is one.
pub fn reply(w: &[String], state: &State) -> Option<&'static str> {
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    if let Some(reply) = firefox_page(&w, state) {
        return Some(reply);
    }
    let first = *w.first()?;
    let has = |x: &str| w.contains(&x);
    let has_seq = |seq: &[&str]| w.windows(seq.len()).any(|win| win == seq);
    let rest_is = |allowed: &[&str]| w[1..].iter().all(|x| allowed.contains(x));
    const THE_PAGE: &[&str] = &[
        "this", "the", "page", "tab", "it", "current", "article", "out",
    ];
    // "get rid of the screenshot tab", "quit the full screen video tab":
    // a tab, named by a word of its title.
    let about_a_tab = |keys: &[&str]| {
        has("tab")
            || has("tabs")
            || state.tabs.iter().any(|t| {
                let title = t.title.to_lowercase();
                keys.iter().any(|k| title.contains(k))
            })
    };

    let screenshot = has("screenshot")
        || has("screenshots")
        || has_seq(&["screen", "shot"])
        || has_seq(&["screen", "capture"])
        || has_seq(&["print", "screen"]);
    if screenshot
        && !about_a_tab(&["screenshot", "screen shot", "screen capture"])
        && [
            "take",
            "make",
            "capture",
            "grab",
            "get",
            "save",
            "screenshot",
            "print",
            "screen",
        ]
        .contains(&first)
    {
        return Some(
            "Tab Whisperer can't take screenshots; press Ctrl+Shift+S (⌘⇧S on a Mac) \
             for Firefox's own.",
        );
    }
    let pdf = has("pdf");
    if pdf && ["save", "export", "download", "print", "make", "turn"].contains(&first) {
        return Some(
            "Tab Whisperer can't save pages as PDF; press Ctrl+P (⌘P on a Mac) and \
             choose Save to PDF.",
        );
    }
    if first == "print" && rest_is(THE_PAGE) {
        return Some("Tab Whisperer can't print; press Ctrl+P (⌘P on a Mac).");
    }
    let in_page = [
        ["on", "this", "page"],
        ["in", "this", "page"],
        ["on", "the", "page"],
        ["in", "the", "page"],
    ]
    .iter()
    .any(|seq| has_seq(seq))
        || has_seq(&["in", "page"])
        || has_seq(&["this", "page", "for"]);
    if ["find", "search", "look"].contains(&first) && in_page {
        return Some("Tab Whisperer can't search inside a page; press Ctrl+F (⌘F on a Mac).");
    }
    let address = ["url", "urls", "link", "links", "address"]
        .iter()
        .any(|x| has(x));
    if first == "copy" && address {
        return Some(
            "Tab Whisperer can't copy to the clipboard; press Ctrl+L then Ctrl+C \
             (⌘L, ⌘C on a Mac).",
        );
    }
    let full_screen = has("fullscreen") || has_seq(&["full", "screen"]);
    let toggles = [
        "go",
        "enter",
        "exit",
        "leave",
        "toggle",
        "make",
        "full",
        "fullscreen",
        "switch",
        "turn",
        "get",
        "quit",
    ];
    if full_screen && toggles.contains(&first) && !about_a_tab(&["full screen", "fullscreen"]) {
        return Some("Tab Whisperer can't change full screen; press F11 (⌃⌘F on a Mac).");
    }
    let private = has("private") || has("incognito");
    let private_place = ["window", "tab", "browsing", "mode"].iter().any(|x| has(x));
    if private
        && private_place
        && ["open", "new", "start", "go", "enter", "switch"].contains(&first)
    {
        return Some(
            "Tab Whisperer can't open private windows; press Ctrl+Shift+P (⌘⇧P on a Mac).",
        );
    }
    let erase = ["clear", "delete", "erase", "wipe", "remove"].contains(&first);
    let data = ["history", "cookies", "cache", "data"];
    if erase && data.iter().any(|x| has(x)) && !about_a_tab(&data) {
        return Some(
            "Tab Whisperer can't clear history or data; press Ctrl+Shift+Delete \
             (⌘⇧⌫ on a Mac).",
        );
    }
    let unbookmark = (erase && (has("bookmark") || has("bookmarks"))) || first == "unbookmark";
    if unbookmark && !about_a_tab(&["bookmark"]) {
        return Some(
            "Tab Whisperer can't remove bookmarks; press Ctrl+D (⌘D on a Mac) on the page \
             and choose Remove Bookmark.",
        );
    }
    // "move this bookmark to the cooking folder", "rename this bookmark":
    // bookmarks are made here, not edited.
    let edits = [
        "move", "rename", "edit", "change", "retitle", "organize", "organise",
    ];
    // Not "move the youtube tabs and bookmark them".
    let a_bookmark = (has("bookmark") || has("bookmarks")) && !has("and") && !has("then");
    if edits.contains(&first) && a_bookmark && !about_a_tab(&["bookmark"]) {
        return Some(
            "Tab Whisperer can't edit or move bookmarks; press Ctrl+D (⌘D on a Mac) on the \
             page to edit its bookmark.",
        );
    }
    // "undo the undo" is a redo too (the undo parser leaves it here).
    let undo_undo = first == "undo" && w[1..].contains(&"undo");
    if undo_undo || (first == "redo" && rest_is(&["that", "it", "please", "the", "last", "change"]))
    {
        return Some("Tab Whisperer has no redo; say the command again.");
    }
    // "turn the volume down", "make it louder": add-ons get mute, not a
    // volume (the page's own player has one).
    const SET: &[&str] = &[
        "turn", "set", "raise", "lower", "increase", "decrease", "adjust", "change", "make", "get",
        "volume",
    ];
    let volume = SET.contains(&first)
        && (has("volume") || ["louder", "quieter", "softer"].iter().any(|x| has(x)));
    if volume && !about_a_tab(&["volume"]) {
        return Some(
            "Firefox lets add-ons mute a tab but not set its volume; say 'mute this tab', \
             or use the page's own volume control.",
        );
    }
    // "which tabs are using the most memory": Firefox's task manager
    // knows; add-ons are not told.
    let asks = [
        "which", "what", "what's", "whats", "show", "how", "is", "are", "find",
    ];
    let resources = ["memory", "ram", "cpu"].iter().any(|x| has(x))
        || has_seq(&["slowing", "down"])
        || has_seq(&["slows", "down"]);
    let titled_so = (state.tabs.iter()).any(|t| {
        ["memory", "cpu"]
            .iter()
            .any(|k| t.title.to_lowercase().contains(k))
    });
    if resources && asks.contains(&first) && !titled_so {
        return Some(
            "Firefox doesn't tell add-ons how much memory or CPU a tab uses; press Shift+Esc \
             for its task manager. To free memory, say 'unload the other tabs'.",
        );
    }
    // "restore my previous session": Firefox's, from its History menu.
    let session = has("session") || has_seq(&["all", "my", "tabs", "from", "last", "time"]);
    if session && ["restore", "reopen", "recover", "bring", "open", "get"].contains(&first) {
        return Some(
            "Tab Whisperer can't restore a session; choose History, then Restore previous \
             session, in the ☰ menu. It reopens what it closed: say 'reopen the tab I just closed'.",
        );
    }
    // "mute this tab for an hour": nothing here keeps time to unmute.
    let timed = has("for")
        && ["minute", "minutes", "hour", "hours", "while"]
            .iter()
            .any(|x| has(x));
    if timed && ["mute", "silence", "quiet"].contains(&first) {
        return Some(
            "Tab Whisperer can't mute for a set time; say 'mute this tab' now, and 'unmute it' \
             later.",
        );
    }
    // "close jira in 5 minutes", "remind me to check jira": nothing here
    // keeps time. Not "the tabs I haven't used in 5 minutes", which says
    // which tabs.
    let units = [
        "second", "seconds", "minute", "minutes", "min", "mins", "hour", "hours",
    ];
    let a_while = |n: &str, unit: &str| {
        units.contains(&unit) && crate::interpret::text::loose_number(n).is_some()
    };
    let in_a_while = match w.as_slice() {
        [.., "in" | "after", n, unit] if a_while(n, unit) => true,
        ["in", n, unit, ..] => a_while(n, unit),
        _ => false,
    };
    let which_tabs = [
        "used", "using", "opened", "visited", "touched", "looked", "idle", "older",
    ]
    .iter()
    .any(|x| has(x));
    // "open the read later tab" names a tab.
    let titled = |word: &str| (state.tabs.iter()).any(|t| t.title.to_lowercase().contains(word));
    // Not "save this for later" (a bookmark) or "rename it to tomorrow".
    let acts = [
        "close", "open", "mute", "unmute", "pin", "unpin", "reload", "switch", "go",
    ];
    let later_word = acts.contains(&first)
        && w.last()
            .is_some_and(|x| ["tomorrow", "tonight", "later"].contains(x) && !titled(x));
    let later = (in_a_while && !which_tabs) || later_word || w.starts_with(&["remind", "me"]);
    if later && first != "search" {
        return Some(
            "Tab Whisperer can't do things later or keep reminders; say the command when you \
             want it done, or bookmark the page to come back to it.",
        );
    }
    // "minimize the docs group" collapses it: only windows are beyond reach.
    if ["minimize", "minimise", "maximize", "maximise"].contains(&first) && has("window") {
        return Some("Tab Whisperer can't resize windows.");
    }
    None
}

/// "what is the capital of france", "who wrote dune": a question for the
/// web, not about the tabs; what to search for (the question whole, as
/// search engines take it).
pub fn web_question(words: &[String]) -> Option<String> {
    const ASKS: &[&str] = &["what", "who", "when", "where", "why", "how", "what's"];
    let first = words.first()?;
    (ASKS.contains(&first.as_str()) && words.len() > 2).then(|| words.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::text::words;

    fn r(s: &str) -> Option<&'static str> {
        reply(&words(s), &page_tabs())
    }

    fn page_tabs() -> State {
        crate::interpret::test_state::tabs(
            &[
                ("https://mail.google.com/", "Inbox - Gmail"),
                ("https://jira.acme.com/", "Sprint board - Jira"),
            ],
            &[],
        )
    }

    #[test]
    fn nothing_is_done_later_but_idle_tabs_are_still_named_by_time() {
        for later in [
            "close jira in 5 minutes",
            "in ten minutes close the youtube tabs",
            "remind me to check jira",
            "open gmail tomorrow",
            "close this tab later",
            "pin this tab after an hour",
        ] {
            assert!(r(later).is_some_and(|x| x.contains("later")), "{later}");
        }
        for now in [
            "close the tabs I haven't used in 5 minutes",
            "close tabs older than an hour",
            "search for things to do tomorrow",
            "save this for later",
            "rename the reading group to later",
            "close jira",
        ] {
            assert_eq!(r(now), None, "{now}");
        }
    }

    #[test]
    fn plain_requests_get_the_key_to_press() {
        assert!(r("print this page").unwrap().contains("Ctrl+P"));
        assert!(r("print").unwrap().contains("can't print"));
        assert!(r("restore my previous session")
            .unwrap()
            .contains("Restore previous session"));
        assert!(r("mute this tab for an hour")
            .unwrap()
            .contains("can't mute for a set time"));
        assert_eq!(r("mute the jira tab"), None);
        assert!(r("take a screenshot").unwrap().contains("Ctrl+Shift+S"));
        assert!(r("save this page as a pdf").unwrap().contains("PDF"));
        assert!(r("find cats on this page").unwrap().contains("Ctrl+F"));
        assert!(r("search this page for cats").unwrap().contains("Ctrl+F"));
        assert!(r("copy the url").unwrap().contains("clipboard"));
        assert!(r("copy the link to this tab")
            .unwrap()
            .contains("clipboard"));
        assert!(r("go full screen").unwrap().contains("F11"));
        assert!(r("exit fullscreen").unwrap().contains("F11"));
        assert!(r("open a private window").unwrap().contains("Ctrl+Shift+P"));
        assert!(r("new incognito window").unwrap().contains("Ctrl+Shift+P"));
        assert!(r("minimize this window").is_some());
        assert!(r("turn the volume down").unwrap().contains("volume"));
        assert!(r("make it louder").unwrap().contains("volume"));
        assert!(r("redo").unwrap().contains("no redo"));
        assert!(r("search for volume of a sphere").is_none());
        assert!(r("find my bookmarks about volume").is_none());
        assert!(r("redo that").unwrap().contains("no redo"));
        assert!(r("undo the undo").unwrap().contains("no redo"));
        assert!(r("clear my history").unwrap().contains("Ctrl+Shift+Delete"));
        assert!(r("delete this bookmark")
            .unwrap()
            .contains("Remove Bookmark"));
        assert!(r("open settings").unwrap().contains("☰"));
        assert!(r("show my downloads")
            .unwrap()
            .contains("Downloads in the ☰ menu"));
        assert!(r("open the add-ons page").unwrap().contains("Ctrl+Shift+A"));
        assert!(r("open the bookmarks manager")
            .unwrap()
            .contains("Manage bookmarks"));
    }

    #[test]
    fn a_tab_called_like_a_firefox_page_is_still_a_tab() {
        let mut state = page_tabs();
        state.tabs[0].title = "Account settings - GitHub".into();
        assert_eq!(reply(&words("open settings"), &state), None);
        assert!(reply(&words("open downloads"), &state).is_some());
    }

    #[test]
    fn commands_and_searches_that_mention_them_are_left_alone() {
        for s in [
            "copy this tab",
            "find slack",
            "find the cats video",
            "search for private browsing",
            "look up how to print a pdf",
            "search for screenshot tools",
            "switch to the print shop tab",
            "print shop",
            "close the full screen video tab",
            "open a new window",
            "minimize the docs group",
            "get rid of the screenshot tab",
            "remove the history tab",
            "quit the fullscreen video tab",
        ] {
            assert_eq!(r(s), None, "{s}");
        }
    }
}
