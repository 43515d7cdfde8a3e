//! Searching browsing history by words and time.

use super::{one_call, Refusal, Step};
use crate::interpret::parse::TimeSpan;
use crate::interpret::resolve::View;
use crate::interpret::Options;
use crate::log::Call;
use crate::tools::args::SearchHistoryArgs;
use crate::tools::ToolCall;

pub fn history(
    view: &View,
    query: &str,
    span: Option<TimeSpan>,
    options: &Options,
) -> Result<Step, Refusal> {
    let range = span.map(|s| time_range(s, view.state.now, options.tz_offset_minutes));
    let reply = if query.is_empty() {
        "Pages you visited:".into()
    } else {
        format!("Pages about '{query}' you visited:")
    };
    Ok(one_call(
        Call::search_history(SearchHistoryArgs {
            query: (!query.is_empty()).then(|| query.to_string()),
            start_time: range.map(|r| r.0),
            end_time: range.map(|r| r.1),
            max_results: None,
        }),
        reply,
        vec![],
    ))
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
