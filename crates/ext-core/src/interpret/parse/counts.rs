//! How many tabs some words say, and which by age: "the three youtube
//! tabs", "both", "the newest tab", "the two oldest tabs", "the least
//! recently used tab".

use super::super::text::number;

/// "the 2 reddit tabs" as "the two reddit tabs": Whisper and typists
/// write small counts in digits. Only a digit that starts the words or
/// follows a determiner is a count; "tab 2" is a position.
pub(super) fn spelled_counts(w: &[String]) -> Vec<String> {
    const DETERMINERS: &[&str] = &["the", "my", "those", "these", "all", "both"];
    const SPELLED: &[(&str, &str)] = &[("2", "two"), ("3", "three"), ("4", "four"), ("5", "five")];
    // "close 5 minute crafts" names a tab: a count is of tabs said so.
    let says_tabs = w
        .iter()
        .any(|x| ["tabs", "ones", "windows"].contains(&x.as_str()));
    w.iter()
        .enumerate()
        .map(|(i, x)| {
            let leads = says_tabs && (i == 0 || DETERMINERS.contains(&w[i - 1].as_str()));
            let spelled = SPELLED.iter().find(|(digit, _)| digit == x);
            match spelled {
                Some((_, word)) if leads && i + 1 < w.len() => word.to_string(),
                _ => x.clone(),
            }
        })
        .collect()
}

/// How many tabs the words say, when they say it once: "both", "the
/// three youtube tabs". "two and three" is a list, not a count.
pub(super) fn count_of(w: &[String]) -> Option<usize> {
    // "both reddit and youtube", "jira or the two youtube tabs": lists.
    if w.iter()
        .any(|x| ["and", "or", "&", "plus"].contains(&x.as_str()))
    {
        return None;
    }
    let counts: Vec<usize> = w
        .iter()
        .enumerate()
        // "in both windows" counts windows, not tabs.
        .filter(|(i, _)| {
            w.get(i + 1)
                .is_some_and(|next| next != "window" && next != "windows")
        })
        .filter_map(|(_, x)| match x.as_str() {
            "both" | "two" => Some(2),
            "three" => Some(3),
            "four" => Some(4),
            "five" => Some(5),
            _ => None,
        })
        .collect();
    match counts.as_slice() {
        [n] => Some(*n),
        _ => None,
    }
}

/// How many of the tabs opened last the words mean: "the newest tab",
/// "the tab I opened last", "the last tab I opened", "the three latest
/// tabs", "the newest 6 tabs": how many of the tabs opened last. 0: tabs,
/// but not how many ("the tabs I just opened").
pub(super) fn newest(w: &[String]) -> Option<usize> {
    const SAID: &[&str] = &[
        "the", "my", "tab", "tabs", "newest", "latest", "i", "opened", "last", "just", "recently",
        "most", "recent", "ones", "both",
    ];
    let has = |x: &str| w.iter().any(|y| y == x);
    let opened_last = has("opened") && (has("last") || has("recently") || has("just"));
    let said = |x: &String| SAID.contains(&x.as_str()) || number(x).is_some_and(|n| n > 0);
    let most_recent = has("most") && has("recent");
    if !(has("newest") || has("latest") || opened_last || most_recent) || !w.iter().all(said) {
        return None;
    }
    how_many_opened(w)
}

/// How many of the tabs opened first the words mean: "the oldest tab",
/// "the tab I opened first", "the two oldest tabs", "the earliest 3 tabs"
/// (0: tabs, but not how many). "The first tab" is a place, not an age.
pub(super) fn oldest(w: &[String]) -> Option<usize> {
    const SAID: &[&str] = &[
        "the", "my", "tab", "tabs", "oldest", "earliest", "i", "opened", "first", "ones", "both",
    ];
    let has = |x: &str| w.iter().any(|y| y == x);
    let opened_first = has("opened") && has("first");
    let said = |x: &String| SAID.contains(&x.as_str()) || number(x).is_some_and(|n| n > 0);
    if !(has("oldest") || has("earliest") || opened_first) || !w.iter().all(said) {
        return None;
    }
    how_many_opened(w)
}

/// How many of the tabs used longest ago the words mean: "the least
/// recently used tab", "the two tabs I haven't used the longest" (0: tabs,
/// but not how many).
pub(super) fn stalest(w: &[String]) -> Option<usize> {
    const SAID: &[&str] = &[
        "the", "my", "tab", "tabs", "least", "recently", "used", "i", "haven't", "have", "not",
        "longest", "for", "ones", "both", "unused", "touched", "looked", "at", "one",
    ];
    let has = |x: &str| w.iter().any(|y| y == x);
    let lru = has("least") && has("recently") && has("used");
    let longest = has("longest") && (has("used") || has("unused") || has("touched"));
    let said = |x: &String| SAID.contains(&x.as_str()) || number(x).is_some_and(|n| n > 0);
    if !(lru || longest) || !w.iter().all(said) {
        return None;
    }
    how_many_opened(w)
}

/// The count said of tabs by when they were opened: one when a tab is
/// said, 0 when tabs but no count are.
fn how_many_opened(w: &[String]) -> Option<usize> {
    let has = |x: &str| w.iter().any(|y| y == x);
    let counts: Vec<usize> = (w.iter())
        .filter_map(|x| match x.as_str() {
            "both" => Some(2),
            x => number(x).and_then(|n| usize::try_from(n).ok()),
        })
        .collect();
    match counts.as_slice() {
        [n] => Some(*n),
        [] if !has("tabs") && !has("ones") => Some(1),
        [] => Some(0),
        _ => None,
    }
}
