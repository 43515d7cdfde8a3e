//! Browsing history: "what did I read last week about webgpu", "search
//! my history for tokio".

use super::super::text::loose_number;
use super::intent::{Intent, TimeSpan};
use super::words::*;
use super::Parsed;

/// The words this family's commands start with (clause splitting uses them).
pub const VERBS: &[&str] = &["what", "which"];

/// How its commands are said (see `confirm::PHRASES`).
pub const PHRASES: &[&str] = &["what did I read today", "what did I read yesterday"];

pub fn parse(w: Words) -> Parsed {
    Ok(history(w).or_else(|| open_from_history(w)))
}

const READ_VERBS: &[&str] = &[
    "read", "reading", "visit", "visited", "visiting", "see", "saw", "seen", "look", "looked",
    "looking", "watch", "watched", "watching", "open", "opened", "browse", "browsed", "browsing",
    "check", "checked", "checking", "find", "found", "view", "viewed", "viewing",
];

/// A time phrase inside the words: its span and where it sat.
fn time_span(w: Words) -> Option<(TimeSpan, usize, usize)> {
    let hour = 3_600_000.0;
    let day = 24.0 * hour;
    for i in 0..w.len() {
        let rest = &w[i..];
        let found = if starts(rest, &["yesterday"]).is_some() {
            Some((TimeSpan::Yesterday, 1))
        } else if starts(rest, &["today"]).is_some() {
            Some((TimeSpan::Today, 1))
        } else if starts(rest, &["this", "morning"]).is_some() {
            Some((TimeSpan::ThisMorning, 2))
        } else if starts(rest, &["this", "afternoon"]).is_some() {
            Some((TimeSpan::ThisAfternoon, 2))
        } else if starts(rest, &["tonight"]).is_some()
            || starts(rest, &["this", "evening"]).is_some()
        {
            Some((TimeSpan::Tonight, if rest[0] == "tonight" { 1 } else { 2 }))
        } else if starts(rest, &["this", "week"]).is_some() {
            Some((TimeSpan::ThisWeek, 2))
        } else if starts(rest, &["last", "week"]).is_some()
            || starts(rest, &["past", "week"]).is_some()
        {
            Some((TimeSpan::LastWeek, 2))
        } else if starts(rest, &["last", "month"]).is_some()
            || starts(rest, &["past", "month"]).is_some()
        {
            Some((TimeSpan::LastMonth, 2))
        } else if let Some(after) = starts(rest, &["in", "the", "last"])
            .or_else(|| starts(rest, &["in", "the", "past"]))
            .or_else(|| starts(rest, &["over", "the", "last"]))
            .or_else(|| starts(rest, &["the", "last"]))
            .or_else(|| starts(rest, &["last"]))
            .or_else(|| starts(rest, &["past"]))
        {
            let (n, used) = match after.first().and_then(|x| loose_number(x)) {
                Some(n) => (n as f64, 1),
                None => (1.0, 0),
            };
            let unit = after.get(used).map(String::as_str);
            let ms = match unit {
                Some("minute" | "minutes" | "min" | "mins") => Some(60_000.0),
                Some("hour" | "hours") => Some(hour),
                Some("day" | "days") => Some(day),
                Some("week" | "weeks") => Some(7.0 * day),
                _ => None,
            };
            ms.map(|ms| {
                (
                    TimeSpan::Recent(n * ms),
                    rest.len() - after.len() + used + 1,
                )
            })
        } else if let (Some(n), Some(unit), Some("ago")) = (
            rest.first().and_then(|x| loose_number(x)),
            rest.get(1).map(String::as_str),
            rest.get(2).map(String::as_str),
        ) {
            let ms = match unit {
                "hour" | "hours" => Some(hour),
                "day" | "days" => Some(day),
                "minute" | "minutes" => Some(60_000.0),
                "week" | "weeks" => Some(7.0 * day),
                _ => None,
            };
            // "two days ago": anything since then, with a little slack.
            ms.map(|ms| (TimeSpan::Recent(n as f64 * ms * 1.5), 3))
        } else {
            None
        };
        if let Some((span, len)) = found {
            return Some((span, i, i + len));
        }
    }
    None
}

fn history(w: Words) -> Option<Intent> {
    let mentions_history = w.iter().any(|x| x == "history");
    let asks_what_read = (w[0] == "what" || w[0] == "which" || w[0] == "find" || w[0] == "show")
        && w.iter().any(|x| READ_VERBS.contains(&x.as_str()))
        && w.iter().any(|x| x == "i");
    // "what was that article about webgpu", "what was that webgpu
    // article": something seen before.
    let seen = [
        "about",
        "regarding",
        "article",
        "page",
        "site",
        "post",
        "video",
    ];
    let asks_what_was = [
        &["what", "was", "that"][..],
        &["what", "was", "the"],
        &["what's", "that"],
    ]
    .iter()
    .any(|p| starts(w, p).is_some())
        && w.iter().any(|x| seen.contains(&x.as_str()));
    if !mentions_history && !asks_what_read && !asks_what_was {
        return None;
    }
    let (query, span) = query_and_span(w);
    Some(Intent::History { query, span })
}

/// "open the article about webgpu from yesterday", "reopen the page I was
/// reading this morning about tokio": the page found in history, newest
/// first. Said with a time or with "I read", else it is a site or tab to
/// open ("open reddit").
fn open_from_history(w: Words) -> Option<Intent> {
    let rest = verb(
        w,
        &[
            &["open"],
            &["reopen"],
            &["go", "back", "to"],
            &["bring", "back"],
            &["take", "me", "to"],
            &["pull", "up"],
        ],
    )?;
    let read_by_me =
        mentions(rest, &["i"]) && rest.iter().any(|x| READ_VERBS.contains(&x.as_str()));
    // "reopen the kayak page", "open the sourdough guide again": a page
    // had before (what was closed last is the undo family's).
    let again = w[0] == "reopen" || rest.last().is_some_and(|x| x == "again");
    if time_span(rest).is_none() && !read_by_me && !again {
        return None;
    }
    let (query, span) = query_and_span(rest);
    // "open the tab I was looking at" names no page to look for.
    let generic = ["tab", "tabs", "one", "this", "it", "again", "closed"];
    let query: Vec<&str> = query
        .split_whitespace()
        .filter(|x| !generic.contains(x))
        .collect();
    (!query.is_empty()).then(|| Intent::OpenFromHistory {
        query: query.join(" "),
        span,
    })
}

/// What a history question or request is about, and when.
fn query_and_span(w: Words) -> (String, Option<TimeSpan>) {
    let span = time_span(w);
    let mut rest: Vec<String> = match span {
        Some((_, a, b)) => w[..a].iter().chain(&w[b..]).cloned().collect(),
        None => w.to_vec(),
    };
    // The topic is what follows "about", "on", "for", "of", "regarding".
    let topic_at = rest.iter().position(|x| {
        [
            "about",
            "regarding",
            "on",
            "for",
            "of",
            "with",
            "called",
            "mentioning",
        ]
        .contains(&x.as_str())
    });
    let query: Vec<String> = match topic_at {
        Some(i) => {
            // "about async cancellation I read": the topic ends where the
            // sentence about reading starts again.
            let mut topic = rest.split_off(i + 1);
            if let Some(end) = topic
                .iter()
                .skip(1)
                .position(|x| ["i", "that", "which", "i've", "i'd", "we"].contains(&x.as_str()))
            {
                topic.truncate(end + 1);
            }
            topic
        }
        None => {
            const NOISE: &[&str] = &[
                "what", "which", "did", "i", "do", "show", "me", "my", "the", "history", "search",
                "find", "pages", "page", "sites", "was", "were", "that", "from", "in", "browsing",
                "have", "a", "an", "all", "articles", "article", "stuff", "things", "list", "web",
                "at", "been", "websites", "site", "website", "had", "recent", "recently", "latest",
            ];
            rest.into_iter()
                .filter(|x| !NOISE.contains(&x.as_str()) && !READ_VERBS.contains(&x.as_str()))
                .collect()
        }
    };
    let query: Vec<String> = query
        .into_iter()
        .filter(|x| !["the", "a", "an", "from", "in"].contains(&x.as_str()))
        .collect();
    (join(&query), span.map(|(s, _, _)| s))
}
