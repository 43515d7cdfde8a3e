//! Small string helpers shared by the tools, the undo journal, the
//! interpreter and the background page.

pub use ext_protocol::text::clip;

/// Where Firefox's reader view shows a page: `about:reader?url=…`.
pub const READER_PREFIX: &str = "about:reader?url=";

/// Whether a tab's URL is Firefox's reader view of a page.
pub fn in_reader_view(url: &str) -> bool {
    url.starts_with(READER_PREFIX)
}

/// The URL reader view shows `url` at.
pub fn reader_url(url: &str) -> String {
    let encoded: String = url::form_urlencoded::byte_serialize(url.as_bytes()).collect();
    format!("{READER_PREFIX}{encoded}")
}

/// The page a reader-view URL shows, if it is one.
pub fn reader_source(url: &str) -> Option<String> {
    let query = url.strip_prefix(READER_PREFIX.trim_end_matches("url="))?;
    url::form_urlencoded::parse(query.as_bytes())
        .find(|(k, _)| k == "url")
        .map(|(_, v)| v.into_owned())
}

/// How long ago, as people say it: "5 minutes ago", "3 hours ago".
pub fn ago(ms: f64) -> String {
    const MINUTE: f64 = 60_000.0;
    let minutes = (ms / MINUTE).floor() as i64;
    let (n, unit) = match minutes {
        0 => return "less than a minute ago".to_string(),
        1..=59 => (minutes, "minute"),
        60..=2879 => (minutes / 60, "hour"),
        _ => (minutes / (24 * 60), "day"),
    };
    match (n, unit) {
        (1, "hour") => "an hour ago".to_string(),
        (1, _) => format!("a {unit} ago"),
        _ => format!("{n} {unit}s ago"),
    }
}

/// "1 tab", "3 tabs": a count and its noun, the noun plural with an "s".
pub fn plural(n: usize, one: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {one}s")
    }
}

#[cfg(test)]
mod reader_tests {
    use super::*;

    #[test]
    fn reader_urls_go_there_and_back() {
        let page = "https://example.com/a b?x=1&y=2#top";
        let reader = reader_url(page);
        assert!(in_reader_view(&reader));
        assert!(!reader["about:reader?url=".len()..].contains('&'));
        assert_eq!(reader_source(&reader).as_deref(), Some(page));
        assert_eq!(reader_source(page), None);
        assert!(!in_reader_view(page));
    }
}

/// A URL without its `#fragment`: two tabs with the same key show the
/// same page.
pub fn page_key(url: &str) -> &str {
    url.split('#').next().unwrap_or(url)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clip_and_page_key() {
        assert_eq!(clip("abcdef", 3), "abc…");
        assert_eq!(clip("abc", 3), "abc");
        assert_eq!(clip("ééé", 2), "éé…");
        assert_eq!(page_key("https://a.org/x#top"), "https://a.org/x");
        assert_eq!(page_key("https://a.org/x"), "https://a.org/x");
    }
}
