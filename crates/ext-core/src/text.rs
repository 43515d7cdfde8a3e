//! Small string helpers shared by the tools, the undo journal, the
//! interpreter and the background page.

pub use ext_protocol::text::clip;

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
