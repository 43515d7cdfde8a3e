//! When a language-model server's refusal is worth a second try, and after
//! how long: rate limits (429), overload (503, and 529 from
//! Anthropic-compatible proxies) and passing failures (500, 502; some
//! servers answer 500 when the model wrote a malformed call). A server's
//! `Retry-After` is honoured; without one the pause doubles from a second.

use super::provider::HttpAnswer;

/// The statuses tried again.
pub const RETRY_STATUSES: [u16; 5] = [429, 500, 502, 503, 529];
/// At most this many tries after the first.
pub const MAX_RETRIES: u32 = 3;
/// A server asking for a longer pause is not waited for: the user is
/// waiting, and other commands queue behind the turn.
pub const MAX_WAIT_MS: f64 = 20_000.0;
/// The first pause when the server does not say (then 2 s, 4 s).
const FIRST_BACKOFF_MS: f64 = 1_000.0;

/// What to do with an answer that is not a success.
#[derive(Clone, Debug, PartialEq)]
pub enum Retry {
    /// Ask again after this many milliseconds.
    After(u32),
    /// Not worth another try (the answer's own error says why)…
    No,
    /// …or the server asked for a pause longer than [`MAX_WAIT_MS`].
    TooLong(u32),
}

/// Whether to ask again after `answer`, `retries` tries having been made
/// already; `now_ms` reads an HTTP-date `Retry-After`.
pub fn retry(answer: &HttpAnswer, retries: u32, now_ms: f64) -> Retry {
    if !RETRY_STATUSES.contains(&answer.status) || retries >= MAX_RETRIES {
        return Retry::No;
    }
    // An exhausted quota or billing limit does not pass with a pause.
    if answer.status == 429 && answer.body.contains("insufficient_quota") {
        return Retry::No;
    }
    let asked = answer
        .retry_after
        .as_deref()
        .and_then(|v| retry_after_ms(v, now_ms));
    let wait = asked.unwrap_or(FIRST_BACKOFF_MS * 2f64.powi(retries as i32));
    if wait > MAX_WAIT_MS {
        Retry::TooLong((wait / 1000.0).ceil() as u32)
    } else {
        Retry::After(wait as u32)
    }
}

/// `Retry-After` in milliseconds from now: seconds, or an HTTP date.
pub fn retry_after_ms(value: &str, now_ms: f64) -> Option<f64> {
    let value = value.trim();
    if let Ok(seconds) = value.parse::<f64>() {
        return (seconds.is_finite() && seconds >= 0.0).then_some(seconds * 1000.0);
    }
    let at = httpdate::parse_http_date(value).ok()?;
    let at_ms = at.duration_since(std::time::UNIX_EPOCH).ok()?.as_millis() as f64;
    Some((at_ms - now_ms).max(0.0))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer(status: u16, retry_after: Option<&str>) -> HttpAnswer {
        HttpAnswer {
            status,
            body: String::new(),
            retry_after: retry_after.map(str::to_string),
        }
    }

    #[test]
    fn busy_servers_are_asked_again_after_the_pause_they_ask_for() {
        assert_eq!(retry(&answer(429, Some("2")), 0, 0.0), Retry::After(2_000));
        assert_eq!(retry(&answer(503, Some("0.5")), 0, 0.0), Retry::After(500));
        // Without a header: 1 s, 2 s, 4 s, then no more.
        assert_eq!(retry(&answer(529, None), 0, 0.0), Retry::After(1_000));
        assert_eq!(retry(&answer(500, None), 1, 0.0), Retry::After(2_000));
        assert_eq!(retry(&answer(502, None), 2, 0.0), Retry::After(4_000));
        assert_eq!(retry(&answer(502, None), 3, 0.0), Retry::No);
        // A garbled header falls back to the doubling pause.
        assert_eq!(
            retry(&answer(429, Some("soon")), 0, 0.0),
            Retry::After(1_000)
        );
        assert_eq!(
            retry(&answer(429, Some("120")), 0, 0.0),
            Retry::TooLong(120)
        );
    }

    #[test]
    fn other_failures_and_spent_quotas_are_not_tried_again() {
        for status in [200, 400, 401, 403, 404, 501] {
            assert_eq!(retry(&answer(status, Some("1")), 0, 0.0), Retry::No);
        }
        let quota = HttpAnswer {
            status: 429,
            body: r#"{"error": {"code": "insufficient_quota"}}"#.into(),
            retry_after: None,
        };
        assert_eq!(retry(&quota, 0, 0.0), Retry::No);
    }

    #[test]
    fn retry_after_may_be_a_date() {
        // 1994-11-06 08:49:37 UTC, as RFC 9110 writes it.
        let at = 784_111_777_000.0;
        let date = "Sun, 06 Nov 1994 08:49:37 GMT";
        assert_eq!(retry_after_ms(date, at - 3_000.0), Some(3_000.0));
        assert_eq!(retry_after_ms(date, at + 5_000.0), Some(0.0));
        assert_eq!(retry_after_ms("-1", 0.0), None);
    }
}
