//! Searching browsing history by words and time.

use super::{not_found, one_call, Refusal, Step};
use crate::interpret::parse::TimeSpan;
use crate::interpret::resolve::View;
use crate::interpret::Options;
use crate::log::Call;
use crate::tab_state::HistoryItem;
use crate::text::page_key;
use crate::tools::args::{CreateTabArgs, SearchHistoryArgs, TabIdArgs};
use crate::tools::ToolCall;

pub fn history(
    view: &View,
    query: &str,
    span: Option<TimeSpan>,
    options: &Options,
) -> Result<Step, Refusal> {
    let range = span.map(|s| time_range(s, view.state.now, options.tz_offset_minutes));
    let start_time = search_start(range, query);
    let reply = if query.is_empty() {
        "Pages you visited:".into()
    } else {
        format!("Pages about '{query}' you visited:")
    };
    Ok(one_call(
        Call::search_history(SearchHistoryArgs {
            query: (!query.is_empty()).then(|| query.to_string()),
            start_time,
            end_time: range.map(|r| r.1),
            max_results: None,
        }),
        reply,
        vec![],
    ))
}

/// "open the article about webgpu from yesterday": the newest page of
/// history whose title or address has every word, in the time said. An
/// open tab of that page comes to the front instead of a second copy.
pub fn open_from_history(
    view: &View,
    query: &str,
    span: Option<TimeSpan>,
    options: &Options,
) -> Result<Step, Refusal> {
    let range = span.map(|s| time_range(s, view.state.now, options.tz_offset_minutes));
    let Some(found) = newest_visit(&view.state.history, query, range) else {
        let missing = not_found(format!(
            "Nothing about '{query}' in your history{}.",
            span.map(span_said).unwrap_or_default()
        ));
        // "open reddit again" with no visit to it kept: the site, as
        // "open reddit" would.
        let words: Vec<String> = query.split_whitespace().map(str::to_string).collect();
        return match span {
            None => super::open::open(view, &words).map_err(|_| missing),
            Some(_) => Err(missing),
        };
    };
    let title = if found.title.trim().is_empty() {
        found.url.clone()
    } else {
        found.title.clone()
    };
    let open = view
        .state
        .tabs
        .iter()
        .find(|t| page_key(&t.url) == page_key(&found.url));
    Ok(match open {
        Some(tab) => one_call(
            Call::switch_tab(TabIdArgs { tab_id: tab.id }),
            format!("Switched to '{title}', open already."),
            vec![tab.id],
        ),
        None => one_call(
            Call::create_tab(CreateTabArgs {
                url: Some(found.url.clone()),
                ..Default::default()
            }),
            format!("Opened '{title}' from your history."),
            vec![],
        ),
    })
}

/// The newest visit whose title or address has every word of `query`,
/// within `range`; only pages a tab can open (not "about:" pages).
fn newest_visit<'a>(
    history: &'a [HistoryItem],
    query: &str,
    range: Option<(f64, f64)>,
) -> Option<&'a HistoryItem> {
    let words: Vec<String> = query.split_whitespace().map(str::to_lowercase).collect();
    history
        .iter()
        .filter(|h| h.url.starts_with("https://") || h.url.starts_with("http://"))
        .filter(|h| range.is_none_or(|(from, to)| (from..=to).contains(&h.last_visit_time)))
        .filter(|h| {
            let said = format!("{} {}", h.title, h.url).to_lowercase();
            words.iter().all(|w| said.contains(w.as_str()))
        })
        .max_by(|a, b| a.last_visit_time.total_cmp(&b.last_visit_time))
}

/// " from yesterday", " from this week": a time span as said after a
/// noun.
fn span_said(span: TimeSpan) -> String {
    match span {
        TimeSpan::Today => " from today".into(),
        TimeSpan::Yesterday => " from yesterday".into(),
        TimeSpan::ThisMorning => " from this morning".into(),
        TimeSpan::ThisAfternoon => " from this afternoon".into(),
        TimeSpan::Tonight => " from this evening".into(),
        TimeSpan::ThisWeek => " from this week".into(),
        TimeSpan::LastWeek => " from the last week".into(),
        TimeSpan::LastMonth => " from the last month".into(),
        TimeSpan::Recent(_) => " from then".into(),
    }
}

/// Where a history search starts: at the time said, else (Firefox
/// searching only the last day when no start is given) at the beginning
/// when there are words to look for ("what was that article about
/// webgpu", "open the article I read about webgpu").
pub fn search_start(range: Option<(f64, f64)>, query: &str) -> Option<f64> {
    match range {
        Some((start, _)) => Some(start),
        None if !query.trim().is_empty() => Some(0.0),
        None => None,
    }
}

/// Start and end (ms) of a time phrase, in local time given as an offset.
pub fn time_range(span: TimeSpan, now: f64, tz_offset_minutes: i32) -> (f64, f64) {
    let day = 86_400_000.0;
    let hour = 3_600_000.0;
    let offset = tz_offset_minutes as f64 * 60_000.0;
    let local_now = now + offset;
    let midnight = (local_now / day).floor() * day - offset;
    match span {
        TimeSpan::Today => (midnight, now),
        TimeSpan::Yesterday => (midnight - day, midnight),
        TimeSpan::ThisMorning => (midnight, (midnight + 12.0 * hour).min(now)),
        TimeSpan::ThisAfternoon => (midnight + 12.0 * hour, (midnight + 18.0 * hour).min(now)),
        TimeSpan::Tonight => (midnight + 18.0 * hour, now.max(midnight + 18.0 * hour)),
        TimeSpan::ThisWeek => {
            // Weeks start on Monday; the epoch was a Thursday.
            let days_since_monday = (((local_now / day).floor() as i64 + 3).rem_euclid(7)) as f64;
            (midnight - days_since_monday * day, now)
        }
        TimeSpan::LastWeek => (now - 7.0 * day, now),
        TimeSpan::LastMonth => (now - 30.0 * day, now),
        TimeSpan::Recent(ms) => (now - ms, now),
    }
}
