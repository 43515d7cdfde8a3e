//! Spoken web addresses, mended. Whisper writes a spoken "github dot com"
//! as an address, but often runs "open" into it ("Opengithub.com"),
//! spells the name by sound ("jithab.com") or splits it ("with
//! kipedia.org" for "wikipedia dot org"). An address whose domain nobody
//! knows (no known site, no tab, no bookmark) but sounds like one that is
//! known, with the same ending, was that one. Only for speech: a typed
//! address is opened as typed.

use super::sites::{self, base_domain, host_and_path, is_address};
#[cfg(doc)]
use super::sounds::sound_distance;
use super::sounds::{name_allowance, sound_distance_allowing};
use crate::tab_state::State;

/// The words of a spoken command with its web addresses mended.
pub fn mend(words: &[String], state: &State) -> Vec<String> {
    let known = known_domains(state);
    let mut out: Vec<String> = Vec::new();
    for (i, word) in words.iter().enumerate() {
        // "opengithub.com": the verb run into the address.
        if let Some(address) = word
            .strip_prefix("open")
            .filter(|a| i == 0 && is_address(a))
        {
            out.push("open".into());
            out.push(mend_address(address, None, &known).0);
            continue;
        }
        if !is_address(word) {
            out.push(word.clone());
            continue;
        }
        // The word before may be the start of the name ("with kipedia.org"),
        // never the command's verb.
        let small = |w: &&String| ["the", "a", "an", "my", "to", "up"].contains(&w.as_str());
        let before = out.last().filter(|w| i >= 2 && !small(w)).cloned();
        let (address, took_before) = mend_address(word, before.as_deref(), &known);
        if took_before {
            out.pop();
        }
        out.push(address);
    }
    open_to_an_address(out)
}

/// "opens to coverflow.com" (said "open stackoverflow dot com"): the
/// address's first sounds heard as the verb's ending and "to". Nobody
/// opens "to" an address ("go to" one is said right), so the "to" goes,
/// and the verb is "open".
fn open_to_an_address(mut words: Vec<String>) -> Vec<String> {
    let to_an_address = words.get(1).is_some_and(|w| w == "to")
        && words.get(2).is_some_and(|w| is_address(w))
        && words.first().is_some_and(|w| w == "open" || w == "opens");
    if to_an_address {
        words.splice(0..2, ["open".to_string()]);
    }
    words
}

/// Whether mended spoken words open an address whose domain nobody knows:
/// no known or well-known site, no tab, no bookmark. Such an address was
/// often a known one misheard past mending ("justa.com", "githund.com" for
/// "github dot com"), so the audio heard again decides (see
/// `interpret::needs_guided`).
pub fn names_an_unknown_domain(words: &[String], state: &State) -> bool {
    let known = known_domains(state);
    words.iter().filter(|w| is_address(w)).any(|address| {
        let base = base_domain(&host_and_path(address).0);
        !known.contains(&base) && !sites::WELL_KNOWN.contains(&base.as_str())
    })
}

/// The ending of a web address that no site has ("docs.paras/30",
/// "docs.rs.serve" for "docs dot rs slash serde"), if it has one: heard
/// past mending, such an address cannot be the one that was said, and
/// opening it would only show an error page.
pub fn made_up_ending(url: &str) -> Option<String> {
    let (host, _) = host_and_path(url);
    let ending = host.rsplit('.').next()?;
    (is_address(url) && !is_real_ending(ending)).then(|| ending.to_string())
}

/// The domains the user may mean: the known sites', the open tabs' and the
/// bookmarks'.
fn known_domains(state: &State) -> Vec<String> {
    let mut domains: Vec<String> = sites::every_known_site_domain().collect();
    let urls = state.tabs.iter().map(|t| t.url.as_str());
    let urls = urls.chain(state.bookmarks.iter().map(|b| b.url.as_str()));
    for url in urls {
        let (host, _) = host_and_path(url);
        if host.contains('.') {
            domains.push(base_domain(&host));
        }
    }
    domains.sort();
    domains.dedup();
    domains
}

/// `address` with its domain replaced by the known one it sounds like,
/// perhaps with the word `before` it as the start of the name; and whether
/// that word was taken.
fn mend_address(address: &str, before: Option<&str>, known: &[String]) -> (String, bool) {
    let (host, path) = host_and_path(address);
    let base = base_domain(&host);
    if known.contains(&base) || sites::WELL_KNOWN.contains(&base.as_str()) {
        return (address.to_string(), false);
    }
    let Some((label, ending)) = base.split_once('.') else {
        return (address.to_string(), false);
    };
    let prefix = &host[..host.len() - base.len()];
    let path = path.trim_end_matches('/');
    // An ending no site has may be a known one misheard.
    let made_up_ending = !is_real_ending(ending);
    let heard = [(label.to_string(), false)]
        .into_iter()
        .chain(before.map(|b| (format!("{b}{label}"), true)));
    let best = heard
        .flat_map(|(name, took)| {
            known.iter().filter_map(move |domain| {
                let (known_label, known_ending) = domain.split_once('.')?;
                let distance = domain_distance(&name, known_label)?;
                let same_ending = known_ending == ending
                    || (made_up_ending && strsim::levenshtein(ending, known_ending) <= 2);
                same_ending.then_some((distance, domain, took))
            })
        })
        .min_by(|a, b| a.0.total_cmp(&b.0));
    match best {
        Some((_, domain, took)) => (format!("{prefix}{domain}{path}"), took),
        None => (address.to_string(), false),
    }
}

/// Generic endings of domains people say; every two-letter ending is a
/// country's. An ending outside these and spelled like a known one is
/// most likely a word Whisper made of it ("wikipedia.word" for
/// "wikipedia dot org"); one far from any ("docs.haresh or d") is more
/// than the ending misheard.
#[rustfmt::skip]
const GENERIC_ENDINGS: &[&str] = &[
    "academy", "agency", "app", "art", "bio", "biz", "blog", "chat", "city", "click", "cloud",
    "club", "codes", "com", "community", "company", "design", "dev", "digital", "edu", "email",
    "events", "finance", "fun", "games", "global", "gov", "group", "guru", "health", "host", "icu",
    "info", "int", "jobs", "life", "link", "live", "lol", "ltd", "market", "media", "mil", "mobi",
    "museum", "name", "net", "network", "news", "ninja", "online", "org", "page", "party",
    "photos", "plus", "press", "pro", "rocks", "run", "science", "shop", "site", "social",
    "software", "solutions", "space", "store", "studio", "support", "systems", "team", "tech",
    "tips", "today", "tools", "top", "travel", "video", "vip", "website", "wiki", "work", "world",
    "xyz", "zone",
];

/// Whether a domain ending is one a site could have.
fn is_real_ending(ending: &str) -> bool {
    ending.len() == 2 || ending.contains('.') || GENERIC_ENDINGS.contains(&ending)
}

/// How far apart a heard domain name and a known one sound, as
/// [`super::sounds::sound_distance`] judges names, but a name of three sounds may be one
/// sound off too ("gissib" and "jisub" for "github"), if its letters are
/// half alike: the known domains with the same ending are few, and an
/// address no one knows is most likely one of them misheard.
fn domain_distance(heard: &str, known: &str) -> Option<f32> {
    sound_distance_allowing(heard, known, |a, b| match (a, b) {
        (3, 3) => 1,
        _ => name_allowance(a, b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::interpret::text::words;

    fn state() -> State {
        serde_json::from_value(serde_json::json!({
            "tabs": [{"id": 1, "windowId": 1, "index": 0, "url": "https://acme.example.net/board", "title": ""}],
            "bookmarks": [{"id": "b1", "url": "https://www.rust-lang.org/learn", "title": "Learn Rust"}],
        }))
        .unwrap()
    }

    fn mended(text: &str) -> String {
        mend(&words(text), &state()).join(" ")
    }

    #[test]
    fn domains_heard_by_sound_are_the_known_ones() {
        assert_eq!(mended("open jithab.com"), "open github.com");
        assert_eq!(mended("open with kipedia.org"), "open wikipedia.org");
        assert_eq!(
            mended("open jithab.com/tokio-rs"),
            "open github.com/tokio-rs"
        );
    }

    #[test]
    fn a_known_site_under_a_path_makes_its_domain_known() {
        let no_bookmarks = State::default();
        let mended = |text: &str| mend(&words(text), &no_bookmarks).join(" ");
        // The Rust book lives at doc.rust-lang.org/book.
        assert_eq!(mended("open rust lang.org"), "open rust-lang.org");
        assert_eq!(mended("open rustline.org"), "open rust-lang.org");
    }

    #[test]
    fn opening_to_an_address_opens_it() {
        assert_eq!(mended("opens to coverflow.com"), "open stackoverflow.com");
        assert_eq!(mended("open to github.com"), "open github.com");
        assert_eq!(mended("go to github.com"), "go to github.com");
    }

    #[test]
    fn a_verb_run_into_the_address_is_split_off() {
        assert_eq!(mended("opengithub.com"), "open github.com");
        assert_eq!(mended("openjithab.com"), "open github.com");
    }

    #[test]
    fn a_short_name_one_sound_off_is_the_known_one() {
        assert_eq!(mended("open gissib.com"), "open github.com");
        assert_eq!(mended("open jisub.com"), "open github.com");
        // Not half alike in letters.
        assert_eq!(mended("open chisub.com"), "open chisub.com");
    }

    #[test]
    fn an_ending_no_site_has_is_the_known_sites() {
        assert_eq!(mended("open wikipedia.word"), "open wikipedia.org");
        assert_eq!(mended("open jithab.come"), "open github.com");
        // Not spelled like the ending: more than the ending was misheard.
        assert_eq!(mended("open docs.haresh"), "open docs.haresh");
    }

    #[test]
    fn endings_no_site_has_are_made_up() {
        assert_eq!(made_up_ending("docs.paras/30").as_deref(), Some("paras"));
        assert_eq!(made_up_ending("docs.rs.serve").as_deref(), Some("serve"));
        for real in [
            "docs.rs/30",
            "bbc.co.uk",
            "example.studio",
            "https://x.org/a",
        ] {
            assert_eq!(made_up_ending(real), None, "{real}");
        }
        // Not written as an address at all.
        assert_eq!(made_up_ending("http://127.0.0.1:8000/"), None);
    }

    #[test]
    fn only_addresses_nobody_knows_are_unknown_domains() {
        let unknown = |text: &str| names_an_unknown_domain(&words(text), &state());
        assert!(unknown("open justa.com"));
        assert!(unknown("open docs.rs.serve"));
        assert!(!unknown("open github.com/tokio-rs"));
        assert!(!unknown("open acme.example.net/wiki"));
        assert!(!unknown("open www.rust-lang.org"));
        assert!(!unknown("open bing.com"));
        assert!(!unknown("close the jira tab"));
    }

    #[test]
    fn known_and_unlike_addresses_stay_as_heard() {
        assert_eq!(mended("open github.com"), "open github.com");
        assert_eq!(mended("open example.net"), "open example.net");
        assert_eq!(mended("open rust-lang.org"), "open rust-lang.org");
        // Sounds like nothing known, or known under another ending.
        assert_eq!(mended("open zebra.com"), "open zebra.com");
        assert_eq!(mended("open jithab.org"), "open jithab.org");
        assert_eq!(mended("open wikipedia.de"), "open wikipedia.de");
        assert_eq!(mended("open zebra.word"), "open zebra.word");
        // Well-known sites that sound like known ones.
        assert_eq!(mended("open twitch.com"), "open twitch.com");
        assert_eq!(mended("open bing.com"), "open bing.com");
        assert_eq!(mended("close the jira tab"), "close the jira tab");
    }
}
