//! Everyday requests that no tool does: "print this page", "take a
//! screenshot", "find cats on this page". Said plainly, they get a reply
//! naming Firefox's own key for it, rather than falling through to a guess
//! ("print" used to switch to a tab titled "Sprint board").

/// What to say to a request Tab Whisperer cannot carry out, if it is one.
pub fn reply(w: &[String]) -> Option<&'static str> {
    let w: Vec<&str> = w.iter().map(String::as_str).collect();
    let first = *w.first()?;
    let has = |x: &str| w.contains(&x);
    let has_seq = |seq: &[&str]| w.windows(seq.len()).any(|win| win == seq);
    let rest_is = |allowed: &[&str]| w[1..].iter().all(|x| allowed.contains(x));
    const THE_PAGE: &[&str] = &[
        "this", "the", "page", "tab", "it", "current", "article", "out",
    ];

    let screenshot = has("screenshot")
        || has("screenshots")
        || has_seq(&["screen", "shot"])
        || has_seq(&["screen", "capture"])
        || has_seq(&["print", "screen"]);
    if screenshot
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
    if full_screen && toggles.contains(&first) {
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
    // "minimize the docs group" collapses it: only windows are beyond reach.
    if ["minimize", "minimise", "maximize", "maximise"].contains(&first) && has("window") {
        return Some("Tab Whisperer can't resize windows.");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::text::words;

    fn r(s: &str) -> Option<&'static str> {
        reply(&words(s))
    }

    #[test]
    fn plain_requests_get_the_key_to_press() {
        assert!(r("print this page").unwrap().contains("Ctrl+P"));
        assert!(r("print").unwrap().contains("can't print"));
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
        ] {
            assert_eq!(r(s), None, "{s}");
        }
    }
}
