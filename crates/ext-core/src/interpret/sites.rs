//! What people call websites: "gmail" is mail.google.com, "twitter" is also
//! x.com, "hacker news" is news.ycombinator.com.

/// A site: the names people use (already normalized, spaces between
/// words), where it lives (a host suffix, optionally with a path prefix),
/// and the name to show.
pub struct Site {
    pub names: &'static [&'static str],
    pub places: &'static [&'static str],
    pub display: &'static str,
}

/// Domains that Whisper writes right and that sound like a known site's
/// (twitch.com like twitter.com, bing.com like booking.com, kaggle.com like
/// google.com): a spoken address there is opened as heard, never mended.
pub const WELL_KNOWN: &[&str] = &[
    "bing.com",
    "twitch.com",
    "kaggle.com",
    "slate.com",
    "opera.com",
    "etsy.com",
    "hulu.com",
    "imdb.com",
    "cnn.com",
    "espn.com",
    "ebay.com",
    "yelp.com",
    "zoom.com",
    "quora.com",
    "tumblr.com",
    "medium.com",
    "paypal.com",
    "stripe.com",
    "uber.com",
    "target.com",
    "ikea.com",
    "nike.com",
    "gitlab.com",
    "bitbucket.org",
    "figma.com",
    "canva.com",
    "trello.com",
    "notion.so",
    "dropbox.com",
    "yahoo.com",
    "outlook.com",
    "python.org",
    "mozilla.org",
    "steam.com",
    "steampowered.com",
    "vimeo.com",
    "tiktok.com",
    "pinterest.com",
    "flickr.com",
    "discord.com",
    "zoho.com",
    "gog.com",
    "chess.com",
    "lichess.org",
];

pub const SITES: &[Site] = &[
    site(
        &["gmail", "google mail", "mail", "email", "inbox"],
        &["mail.google.com"],
        "Gmail",
    ),
    site(&["google docs", "docs"], &["docs.google.com"], "Docs"),
    site(&["google drive", "drive"], &["drive.google.com"], "Drive"),
    site(
        &["google calendar", "calendar"],
        &["calendar.google.com"],
        "Calendar",
    ),
    site(
        &["google maps", "maps", "map"],
        &["maps.google.com", "google.com/maps", "www.google.com/maps"],
        "Maps",
    ),
    site(
        &["google", "google search"],
        &["www.google.com/search", "google.com/search"],
        "Google",
    ),
    site(&["youtube", "yt"], &["youtube.com", "youtu.be"], "YouTube"),
    site(
        &["twitter", "x", "tweets"],
        &["twitter.com", "x.com"],
        "Twitter",
    ),
    site(&["reddit"], &["reddit.com"], "Reddit"),
    site(&["facebook", "fb"], &["facebook.com"], "Facebook"),
    site(&["instagram", "insta"], &["instagram.com"], "Instagram"),
    site(&["linkedin"], &["linkedin.com"], "LinkedIn"),
    site(&["github"], &["github.com"], "GitHub"),
    site(&["gitlab"], &["gitlab.com"], "GitLab"),
    site(
        &["stackoverflow", "stack overflow", "so"],
        &["stackoverflow.com"],
        "Stack Overflow",
    ),
    site(&["wikipedia", "wiki"], &["wikipedia.org"], "Wikipedia"),
    site(
        &["amazon"],
        &["amazon.com", "amazon.co.uk", "amazon.de"],
        "Amazon",
    ),
    site(&["ebay"], &["ebay.com", "ebay.co.uk"], "eBay"),
    site(&["netflix"], &["netflix.com"], "Netflix"),
    site(&["spotify"], &["spotify.com"], "Spotify"),
    site(&["twitch"], &["twitch.tv"], "Twitch"),
    site(&["slack"], &["slack.com"], "Slack"),
    site(&["discord"], &["discord.com"], "Discord"),
    site(
        &["jira"],
        &["atlassian.net/jira", "atlassian.net/browse", "jira."],
        "Jira",
    ),
    site(
        &["confluence", "wiki pages"],
        &["atlassian.net/wiki", "confluence."],
        "Confluence",
    ),
    site(&["notion"], &["notion.so"], "Notion"),
    site(&["figma"], &["figma.com"], "Figma"),
    site(&["trello"], &["trello.com"], "Trello"),
    site(
        &["outlook", "hotmail"],
        &["outlook.live.com", "outlook.office.com"],
        "Outlook",
    ),
    site(
        &["teams", "microsoft teams"],
        &["teams.microsoft.com"],
        "Teams",
    ),
    site(&["zoom"], &["zoom.us"], "Zoom"),
    site(&["whatsapp"], &["web.whatsapp.com"], "WhatsApp"),
    site(
        &["hacker news", "hackernews", "hn", "ycombinator"],
        &["news.ycombinator.com"],
        "Hacker News",
    ),
    site(&["bbc", "bbc news"], &["bbc.co.uk", "bbc.com"], "BBC"),
    site(&["cnn"], &["cnn.com"], "CNN"),
    site(
        &["new york times", "nytimes", "nyt"],
        &["nytimes.com"],
        "NYT",
    ),
    site(
        &["guardian", "the guardian"],
        &["theguardian.com"],
        "Guardian",
    ),
    site(&["medium"], &["medium.com"], "Medium"),
    site(
        &["docs.rs", "docs rs", "rust docs"],
        &["docs.rs"],
        "docs.rs",
    ),
    site(&["crates", "crates.io"], &["crates.io"], "crates.io"),
    site(
        &["rust book", "the book"],
        &["doc.rust-lang.org/book"],
        "Rust Book",
    ),
    site(&["npm"], &["npmjs.com"], "npm"),
    site(
        &["chatgpt", "openai"],
        &["chatgpt.com", "chat.openai.com"],
        "ChatGPT",
    ),
    site(&["mdn"], &["developer.mozilla.org"], "MDN"),
    site(
        &["hugging face", "huggingface"],
        &["huggingface.co"],
        "Hugging Face",
    ),
    site(&["pinterest"], &["pinterest.com"], "Pinterest"),
    site(&["booking", "booking.com"], &["booking.com"], "Booking"),
    site(&["airbnb"], &["airbnb.com"], "Airbnb"),
];

/// Kinds of site, for "close the shopping tabs", "mute the videos",
/// "close social media": tried only when no tab matches the words as a
/// name (a tab that says "news" is still found by its title), and never
/// for one tab ("close this video" is not every video site). "music" is
/// what plays.
pub const KINDS: &[Site] = &[
    site(
        &["shopping", "shops", "stores"],
        &[
            "amazon.com",
            "amazon.co.uk",
            "amazon.de",
            "ebay.com",
            "ebay.co.uk",
            "etsy.com",
            "walmart.com",
            "aliexpress.com",
            "temu.com",
            "target.com",
            "bestbuy.com",
            "ikea.com",
            "zalando.com",
        ],
        "shopping",
    ),
    site(
        &["videos", "streaming", "video sites", "movies", "shows"],
        &[
            "youtube.com",
            "youtu.be",
            "netflix.com",
            "vimeo.com",
            "twitch.tv",
            "primevideo.com",
            "disneyplus.com",
            "hulu.com",
            "max.com",
            "tiktok.com",
            "dailymotion.com",
        ],
        "video",
    ),
    site(
        &[
            "social",
            "social media",
            "social networks",
            "social network",
        ],
        &[
            "facebook.com",
            "instagram.com",
            "twitter.com",
            "x.com",
            "reddit.com",
            "linkedin.com",
            "tiktok.com",
            "threads.net",
            "bsky.app",
            "mastodon.social",
            "pinterest.com",
        ],
        "social media",
    ),
    site(
        &["news", "news sites", "newspapers"],
        &[
            "nytimes.com",
            "bbc.co.uk/news",
            "bbc.com/news",
            "theguardian.com",
            "cnn.com",
            "reuters.com",
            "apnews.com",
            "washingtonpost.com",
            "news.ycombinator.com",
            "news.google.com",
            "wsj.com",
            "bloomberg.com",
            "ft.com",
            "npr.org",
            "aljazeera.com",
        ],
        "news",
    ),
    site(
        &["cooking", "recipes", "recipe"],
        &[
            "allrecipes.com",
            "seriouseats.com",
            "bbcgoodfood.com",
            "kingarthurbaking.com",
            "epicurious.com",
            "food52.com",
            "foodnetwork.com",
            "bonappetit.com",
            "cooking.nytimes.com",
            "budgetbytes.com",
            "simplyrecipes.com",
            "tasty.co",
        ],
        "cooking",
    ),
    site(
        // Not "trip": spoken, "close trip" is as often a misheard name.
        &["travel"],
        &[
            "booking.com",
            "airbnb.com",
            "expedia.com",
            "kayak.com",
            "skyscanner.net",
            "skyscanner.com",
            "tripadvisor.com",
            "lonelyplanet.com",
            "hotels.com",
            "google.com/travel",
            "google.com/flights",
            "ryanair.com",
            "easyjet.com",
        ],
        "travel",
    ),
];

/// Where music and podcasts play, besides the video sites of [`KINDS`].
const MUSIC: &[&str] = &[
    "spotify.com",
    "soundcloud.com",
    "bandcamp.com",
    "music.apple.com",
    "podcasts.apple.com",
    "deezer.com",
    "tidal.com",
    "pandora.com",
    "mixcloud.com",
];

/// Whether a page is for playing video or music: where "resume the
/// music" looks when no command paused anything.
pub fn plays_media(url: &str) -> bool {
    let video = KINDS.iter().find(|k| k.display == "video");
    video.is_some_and(|k| hosts(k, url)) || hosts(&site(&[], MUSIC, "music"), url)
}

/// The kind of site some words name ("shopping", "social media").
pub fn kind_by_words(words: &[String]) -> Option<&'static Site> {
    let said = words.join(" ");
    KINDS.iter().find(|k| k.names.contains(&said.as_str()))
}

const fn site(
    names: &'static [&'static str],
    places: &'static [&'static str],
    display: &'static str,
) -> Site {
    Site {
        names,
        places,
        display,
    }
}

/// The domains of the known sites that live at a whole domain (not under a
/// path).
pub fn known_site_domains() -> impl Iterator<Item = String> {
    site_domains(|place| !place.contains('/'))
}

/// The domains of every known site, those under a path too: the Rust book
/// at "doc.rust-lang.org/book" makes "rust-lang.org" a domain people say.
/// (Only the whole-domain sites are among the phrases hearing guided
/// knows: with these too, the beam lost "switch to the docs tab" to "the
/// exit tab" on the unseen set.)
pub fn every_known_site_domain() -> impl Iterator<Item = String> {
    site_domains(|_| true)
}

/// The domains of the known sites' places that `keep` keeps, never a host
/// starting with a name, as "jira." is.
fn site_domains(keep: fn(&str) -> bool) -> impl Iterator<Item = String> {
    SITES
        .iter()
        .flat_map(|s| s.places.iter())
        .filter(move |place| !place.ends_with('.') && keep(place))
        .map(|place| base_domain(&host_and_path(place).0))
}

/// The site people call `name` ("you tube" arrives here as "youtube").
pub fn by_name(name: &str) -> Option<&'static Site> {
    SITES.iter().find(|s| s.names.contains(&name))
}

/// The site some words name, spaced or run together ("hacker news",
/// "git hub").
pub fn by_words(words: &[String]) -> Option<&'static Site> {
    by_name(&words.join(" ")).or_else(|| by_name(&words.concat()))
}

/// Host and path of a URL, without scheme, `www.` or query.
pub fn host_and_path(url: &str) -> (String, String) {
    let rest = url.split("://").nth(1).unwrap_or(url);
    let rest = rest.split(['?', '#']).next().unwrap_or(rest);
    let (host, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = host.rsplit('@').next().unwrap_or(host);
    let host = host.split(':').next().unwrap_or(host).to_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host).to_string();
    (host, format!("/{path}"))
}

/// Whether a word is written as a web address: a name, a dot and an
/// ending of letters ("github.com", "docs.rs/serde", "https://bbc.co.uk").
pub fn is_address(word: &str) -> bool {
    let (host, _) = host_and_path(word);
    let labels: Vec<&str> = host.split('.').collect();
    labels.len() >= 2
        && labels.iter().all(|l| !l.is_empty())
        && labels
            .last()
            .is_some_and(|tld| tld.len() >= 2 && tld.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Whether a URL is on the site.
pub fn hosts(site: &Site, url: &str) -> bool {
    let (host, path) = host_and_path(url);
    site.places.iter().any(|place| {
        let place = place.strip_prefix("www.").unwrap_or(place);
        let (place_host, place_path) = place.split_once('/').unwrap_or((place, ""));
        let host_ok = if let Some(prefix) = place_host.strip_suffix('.') {
            // "jira." : any host whose first label is jira.
            host.starts_with(&format!("{prefix}."))
        } else {
            host == place_host || host.ends_with(&format!(".{place_host}"))
        };
        host_ok && (place_path.is_empty() || path.starts_with(&format!("/{place_path}")))
    })
}

/// The site a URL belongs to, when it is a known one.
/// What a tab's site is called when tabs are told apart by site: the
/// known site's name ("YouTube" for youtu.be too), else the registrable
/// domain ("bbc.co.uk").
pub fn site_key(url: &str) -> String {
    site_of(url)
        .map(|s| s.display.to_string())
        .unwrap_or_else(|| base_domain(&host_and_path(url).0))
}

pub fn site_of(url: &str) -> Option<&'static Site> {
    SITES.iter().find(|s| hosts(s, url))
}

/// Country-code second levels under which the site is one label further.
const SECOND_LEVELS: &[&str] = &["co", "com", "org", "net", "ac", "gov", "edu"];

/// The registrable part of a host: "news.bbc.co.uk" → "bbc.co.uk".
pub fn base_domain(host: &str) -> String {
    let labels: Vec<&str> = host.split('.').filter(|l| !l.is_empty()).collect();
    let n = labels.len();
    if n <= 2 {
        return labels.join(".");
    }
    let keep = if labels[n - 1].len() == 2 && SECOND_LEVELS.contains(&labels[n - 2]) {
        3
    } else {
        2
    };
    labels[n - keep.min(n)..].join(".")
}

/// A short name for a site group: the known name, else the domain's main
/// label capitalized ("rust-lang.org" → "Rust-lang").
pub fn display_name(url: &str) -> String {
    if let Some(site) = site_of(url) {
        return site.display.to_string();
    }
    let (host, _) = host_and_path(url);
    if host.parse::<std::net::IpAddr>().is_ok() || host == "localhost" {
        return host;
    }
    let base = base_domain(&host);
    let label = base.split('.').next().unwrap_or(&base);
    let mut chars = label.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => host,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses_have_a_name_a_dot_and_an_ending_of_letters() {
        for word in [
            "github.com",
            "docs.rs/serde",
            "https://bbc.co.uk/news",
            "x.org:8080",
        ] {
            assert!(is_address(word), "{word}");
        }
        for word in [
            "e.g.",
            "3.14",
            "i.e",
            "github",
            "a..com",
            ".com",
            "docs.rs-crd",
        ] {
            assert!(!is_address(word), "{word}");
        }
    }

    #[test]
    fn hosts_and_names() {
        let gmail = by_name("gmail").unwrap();
        assert!(hosts(gmail, "https://mail.google.com/mail/u/0/#inbox"));
        assert!(!hosts(gmail, "https://www.google.com/search?q=mail"));
        let maps = by_name("maps").unwrap();
        assert!(hosts(maps, "https://www.google.com/maps/place/x"));
        assert!(!hosts(maps, "https://www.google.com/search?q=maps"));
        assert!(hosts(by_name("twitter").unwrap(), "https://x.com/home"));
        assert!(hosts(
            by_name("jira").unwrap(),
            "https://acme.atlassian.net/jira/software"
        ));
        assert_eq!(
            display_name("https://en.wikipedia.org/wiki/Rust"),
            "Wikipedia"
        );
        assert_eq!(display_name("https://blog.rust-lang.org/x"), "Rust-lang");
        assert_eq!(base_domain("news.bbc.co.uk"), "bbc.co.uk");
        assert_eq!(
            host_and_path("http://user@127.0.0.1:8080/a/b?x"),
            ("127.0.0.1".into(), "/a/b".into())
        );
    }
}
