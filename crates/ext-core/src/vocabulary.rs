//! The words a spoken command is likely to use: the open tabs' site names
//! and the start of their titles. The speech worker gives them to Whisper
//! as its prompt, so "switch to Wikipedia" comes out spelled the way the
//! tab list spells it. Bounded: a long prompt slows every decoding step.

use url::Url;

/// At most this many characters (Whisper's prompt holds 223 tokens).
pub const MAX_CHARS: usize = 400;

/// The words commands are made of, the ones Whisper mishears most (it
/// writes "and group" for "ungroup", "and do" for "undo", "but mark" for
/// "bookmark" unless told to expect them).
pub const COMMAND_WORDS: &str = "Close, switch to, open, mute, unmute, pin, unpin, reload, discard, duplicate, group, ungroup, bookmark, undo, move, search, scroll, zoom, tab, tabs.";

/// [`prompt`] after the command words: what commands are transcribed with.
pub fn command_prompt<'a>(tabs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let tabs = prompt(tabs);
    let mut out = String::from(COMMAND_WORDS);
    for phrase in tabs.split(", ") {
        if out.chars().count() + 2 + phrase.chars().count() > MAX_CHARS {
            break;
        }
        out.push(' ');
        out.push_str(phrase);
        out.push(',');
    }
    out.trim_end_matches(',').to_string()
}
/// Words kept from each title.
const TITLE_WORDS: usize = 4;

/// "YouTube, GitHub, Wikipedia, …" from `(title, url)` pairs, most
/// useful first: site names, then short titles; each said once.
pub fn prompt<'a>(tabs: impl IntoIterator<Item = (&'a str, &'a str)>) -> String {
    let tabs: Vec<(&str, &str)> = tabs.into_iter().collect();
    let sites = tabs.iter().filter_map(|(title, url)| site_name(title, url));
    let titles = tabs.iter().map(|(title, _)| short_title(title));
    let mut seen = std::collections::HashSet::new();
    let mut out = String::new();
    for phrase in sites.chain(titles) {
        if phrase.is_empty() || !seen.insert(phrase.to_lowercase()) {
            continue;
        }
        let extra = if out.is_empty() { 0 } else { 2 };
        if out.chars().count() + extra + phrase.chars().count() > MAX_CHARS {
            continue;
        }
        if !out.is_empty() {
            out.push_str(", ");
        }
        out.push_str(&phrase);
    }
    out
}

/// A site's name as people say it: the title's spelling of the domain's
/// main label if the title has it ("YouTube" for youtube.com), else the
/// label itself. None for pages that are not websites.
fn site_name(title: &str, url: &str) -> Option<String> {
    let url = Url::parse(url).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?.trim_start_matches("www.");
    if host.parse::<std::net::IpAddr>().is_ok() {
        return None;
    }
    let labels: Vec<&str> = host.split('.').collect();
    // The label before the public suffix, roughly: "mail.google.com" →
    // "google", "bbc.co.uk" → "bbc".
    let main = match labels.as_slice() {
        [.., name, second, _] if second.len() <= 3 && labels.len() >= 3 => *name,
        [.., name, _] => *name,
        [name] => *name,
        [] => return None,
    };
    let lower = title.to_lowercase();
    let spelled = lower
        .find(main)
        .and_then(|at| title.get(at..at + main.len()))
        .filter(|s| s.chars().any(char::is_uppercase));
    Some(match spelled {
        Some(s) => s.to_string(),
        None => {
            let mut c = main.chars();
            c.next()
                .map(|f| f.to_uppercase().chain(c).collect())
                .unwrap_or_default()
        }
    })
}

fn short_title(title: &str) -> String {
    let words: Vec<&str> = title
        .split(|c: char| c.is_whitespace() || matches!(c, '|' | '-' | '—' | '–' | '·' | ':'))
        .filter(|w| !w.is_empty())
        .take(TITLE_WORDS)
        .collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sites_come_first_spelled_as_their_titles_spell_them() {
        let p = prompt([
            ("Funny cats - YouTube", "https://www.youtube.com/watch?v=1"),
            (
                "rust-lang/rust: Empowering everyone",
                "https://github.com/rust-lang/rust",
            ),
            (
                "Inbox (3) - me@example.com - Gmail",
                "https://mail.google.com/mail/u/0",
            ),
            ("BBC News", "https://www.bbc.co.uk/news"),
            ("New Tab", "about:newtab"),
        ]);
        assert!(
            p.starts_with("YouTube, Github, Google, BBC, Funny cats YouTube"),
            "{p}"
        );
        assert!(p.contains("New Tab"), "{p}");
    }

    #[test]
    fn each_phrase_once_and_the_whole_bounded() {
        let tabs: Vec<(String, String)> = (0..500)
            .map(|i| {
                (
                    format!("Page number {i} of many"),
                    format!("https://site{i}.example/"),
                )
            })
            .collect();
        let p = prompt(tabs.iter().map(|(t, u)| (t.as_str(), u.as_str())));
        assert!(p.chars().count() <= MAX_CHARS);
        assert!(p.starts_with("Site0, Site1"), "{p}");
        let same = prompt([
            ("Docs", "https://a.example/"),
            ("Docs", "https://a.example/x"),
        ]);
        assert_eq!(same, "A, Docs");
        assert_eq!(prompt(std::iter::empty()), "");
    }

    #[test]
    fn odd_addresses_and_titles_do_not_break_it() {
        let p = prompt([
            ("", "http://127.0.0.1:8000/"),
            ("  ", "not a url"),
            ("🦊 Ünïcödé title here now", "https://xn--nxasmq6b.example/"),
            ("x", "file:///tmp/a"),
        ]);
        assert!(p.contains("🦊 Ünïcödé title here"), "{p}");
        assert!(!p.contains("127"), "{p}");
    }
}
