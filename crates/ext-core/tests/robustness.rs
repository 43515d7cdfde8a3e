//! The interpreter must answer anything without panicking: empty text,
//! 100 KB, control characters, any Unicode, and thousands of pseudo-random
//! strings made of command words and noise (a fixed-seed generator, so a
//! failure repeats). Every plan has something to say, and so does the
//! message API that runs it.

use ext_core::interpret::{plan, Options};
use ext_core::memory::MemoryBrowser;
use ext_core::storage::MemoryStorage;
use ext_core::tab_state::State;
use ext_core::Background;
use futures::executor::block_on;
use serde_json::json;
use std::path::Path;

/// A small deterministic generator (xorshift64*), so no new dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn pick(&mut self, items: &[&'static str]) -> &'static str {
        items[self.below(items.len())]
    }
}

/// Words the grammar reacts to, so random sentences reach deep into it.
const WORDS: &[&str] = &[
    "close",
    "shut",
    "the",
    "other",
    "tabs",
    "tab",
    "all",
    "but",
    "this",
    "one",
    "except",
    "and",
    "then",
    "mute",
    "unmute",
    "pin",
    "unpin",
    "group",
    "ungroup",
    "by",
    "site",
    "topic",
    "called",
    "named",
    "purple",
    "in",
    "a",
    "window",
    "move",
    "to",
    "send",
    "open",
    "switch",
    "go",
    "next",
    "previous",
    "last",
    "first",
    "third",
    "3",
    "two",
    "100000",
    "0",
    "-1",
    "youtube",
    "you",
    "tube",
    "git",
    "hub",
    "gmail",
    "reddit",
    "jira",
    "playing",
    "rest",
    "search",
    "for",
    "on",
    "bing",
    "look",
    "up",
    "bookmark",
    "bookmarks",
    "about",
    "what",
    "did",
    "i",
    "read",
    "last",
    "week",
    "yesterday",
    "hours",
    "how",
    "many",
    "undo",
    "yes",
    "no",
    "scroll",
    "down",
    "zoom",
    "out",
    "reload",
    "hard",
    "back",
    "forward",
    "page",
    "top",
    "hey",
    "fox",
    "please",
    ",",
    "!",
    "?",
    ".",
    "bbc.co.uk",
    "https://x.org/a",
    "dot",
    "rename",
    "news",
    "docs",
    "fold",
    "expand",
    "collapse",
    "duplicate",
    "duplicates",
    "discard",
    "list",
    "count",
    "windows",
    "engines",
    "through",
    "from",
    "r/rust",
    "'s",
    "it's",
    "twice",
    "times",
    "ago",
    "minutes",
    "morning",
    "left",
    "right",
    "end",
    "start",
    "position",
    "new",
    "blank",
];

/// Characters that are hard on text handling.
const NOISE: &[&str] = &[
    "\u{0}",
    "\u{7}",
    "\t",
    "\n",
    "\r\n",
    "\u{200b}",
    "\u{202e}",
    "\u{feff}",
    "é",
    "ß",
    "ǅ",
    "İ",
    "ﬁ",
    "\u{301}",
    "日本語",
    "😀",
    "👩‍👩‍👧",
    "🇫🇷",
    "ﷺ",
    "𝕏",
    "\u{fffd}",
    "’",
    "“",
    "—",
    "\\",
    "\"",
    "'",
    ":",
    "/",
    "-",
    "..",
    "...",
    ",,,",
    ";",
    "%",
    "#",
    "&",
    "+",
    "=",
    "*",
];

fn random_text(rng: &mut Rng) -> String {
    let n = rng.below(14);
    let mut out = String::new();
    for _ in 0..n {
        match rng.below(10) {
            0 => out.push_str(rng.pick(NOISE)),
            1 => {
                // Any code point at all.
                let c = char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('?');
                out.push(c);
            }
            2 => out.push_str(&rng.pick(WORDS).to_uppercase()),
            _ => out.push_str(rng.pick(WORDS)),
        }
        if rng.below(5) != 0 {
            out.push(' ');
        }
    }
    out
}

fn nasty_cases() -> Vec<String> {
    let mut cases: Vec<String> = [
        "",
        " ",
        "\u{0}",
        "\n\n\t",
        ",",
        ", , ,",
        "and",
        "and and and",
        "then",
        "the",
        "tab",
        "tabs",
        "close",
        "close ,",
        "close and",
        "close the",
        "close tab 0",
        "close tab 99999999999999999999999",
        "close tabs 1 to 100000",
        "close the last 100000 tabs",
        "close the 0th tab",
        "go to the 10000th tab",
        "move this tab to window 0",
        "move this tab to position 0",
        "scroll down 100000",
        "zoom in 100000 times",
        "what did I read in the last 100000 weeks",
        "what did I read 100000 days ago",
        "search",
        "search for",
        "search bing for",
        "bookmark this in",
        "rename the group to",
        "call the group",
        "group by",
        "yes no",
        "undo undo",
        "hey fox",
        "hey fox,",
        "please please please",
        "open",
        "open dot dot dot",
        "open .",
        "open https://",
        "open ://",
        "switch to",
        "'s",
        "''''",
        "r/",
        "/",
        "close r/ and /r",
        "😀😀😀",
        "close 😀 tab",
        "\u{202e}close reddit",
        "CLOSE\u{0}REDDIT",
        "close the tab that's playing and mute the rest and pin it then undo",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cases.push("a".repeat(100_000));
    cases.push("close ".repeat(20_000));
    cases.push("and ".repeat(25_000));
    cases.push(", ".repeat(50_000));
    cases.push("😀".repeat(30_000));
    cases.push((0..=0x2fffu32).filter_map(char::from_u32).collect());
    cases.push("close tab 1 and ".repeat(5_000));
    cases
}

fn state(name: &str) -> State {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/corpus/states")
        .join(format!("{name}.json"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

fn states() -> Vec<State> {
    let mut all: Vec<State> = ["work", "busy", "groups", "library", "small", "topics"]
        .iter()
        .map(|n| state(n))
        .collect();
    all.push(State::default());
    all
}

#[test]
fn planning_never_panics_and_always_answers() {
    let states = states();
    let options = Options::default();
    let mut rng = Rng(0x5eed_1234_abcd_0042);
    let mut inputs = nasty_cases();
    inputs.extend((0..4000).map(|_| random_text(&mut rng)));
    let mut problems = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let state = &states[i % states.len()];
        let outcome = std::panic::catch_unwind(|| plan(input, state, &options));
        let shown = input.chars().take(120).collect::<String>();
        match outcome {
            Err(_) => problems.push(format!("panicked on {shown:?}")),
            // Undo, yes and no are answered by the API, not the plan.
            Ok(p) if p.reply.trim().is_empty() && p.special.is_none() => {
                problems.push(format!("no reply for {shown:?}"))
            }
            Ok(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn the_message_api_always_answers() {
    let states = states();
    let mut rng = Rng(0x0dd_ba11_cafe);
    let mut inputs = nasty_cases();
    inputs.extend((0..600).map(|_| random_text(&mut rng)));
    let mut problems = Vec::new();
    for (i, input) in inputs.iter().enumerate() {
        let state = states[i % states.len()].clone();
        let outcome = std::panic::catch_unwind(|| {
            let bg = Background::new(MemoryBrowser::new(state), MemoryStorage::default());
            // A risky command waits for "yes"; answer it so it runs too.
            [input.as_str(), "yes"].map(|text| {
                let answer = block_on(bg.handle(json!({ "type": "command", "text": text })));
                answer["reply"].as_str().unwrap_or("").trim().to_string()
            })
        });
        let shown = input.chars().take(120).collect::<String>();
        match outcome {
            Err(_) => problems.push(format!("panicked on {shown:?}")),
            Ok(replies) if replies.iter().any(String::is_empty) => {
                problems.push(format!("no reply for {shown:?}"))
            }
            Ok(_) => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

/// Storage that makes every read wait a turn, as `storage.local` does.
struct SlowStorage(MemoryStorage);

impl ext_core::storage::Storage for SlowStorage {
    async fn load(&self, key: &str) -> ext_core::browser::BrowserResult<Option<serde_json::Value>> {
        let mut waited = false;
        futures::future::poll_fn(|cx| {
            if waited {
                std::task::Poll::Ready(())
            } else {
                waited = true;
                cx.waker().wake_by_ref();
                std::task::Poll::Pending
            }
        })
        .await;
        self.0.load(key).await
    }
    async fn save(
        &self,
        key: &str,
        value: &serde_json::Value,
    ) -> ext_core::browser::BrowserResult<()> {
        self.0.save(key, value).await
    }
    async fn remove(&self, key: &str) -> ext_core::browser::BrowserResult<()> {
        self.0.remove(key).await
    }
}

#[test]
fn a_request_arriving_while_the_background_starts_sees_the_saved_settings() {
    let storage = MemoryStorage::default();
    let first = Background::new(MemoryBrowser::new(State::default()), storage);
    let saved = block_on(
        first.handle(json!({ "type": "set_settings", "settings": { "confirmThreshold": 20 } })),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    let (browser, storage) = first.into_parts();
    // A restarted background: two requests at once, the second arriving
    // while the first is still reading what is stored.
    let restarted = Background::new(browser, SlowStorage(storage));
    let (a, b) = block_on(futures::future::join(
        restarted.handle(json!({ "type": "settings" })),
        restarted.handle(json!({ "type": "settings" })),
    ));
    assert_eq!(a["settings"]["confirmThreshold"], 20, "{a}");
    assert_eq!(b["settings"]["confirmThreshold"], 20, "{b}");
}

/// Storage whose first `failures` reads fail, as `storage.local` can while
/// the browser starts.
struct FlakyStorage {
    inner: MemoryStorage,
    failures: std::cell::Cell<usize>,
}

impl ext_core::storage::Storage for FlakyStorage {
    async fn load(&self, key: &str) -> ext_core::browser::BrowserResult<Option<serde_json::Value>> {
        if self.failures.get() > 0 {
            self.failures.set(self.failures.get() - 1);
            return Err(ext_core::browser::BrowserError("not ready".into()));
        }
        self.inner.load(key).await
    }
    async fn save(
        &self,
        key: &str,
        value: &serde_json::Value,
    ) -> ext_core::browser::BrowserResult<()> {
        self.inner.save(key, value).await
    }
    async fn remove(&self, key: &str) -> ext_core::browser::BrowserResult<()> {
        self.inner.remove(key).await
    }
}

#[test]
fn while_storage_cannot_be_read_nothing_is_saved_over_it() {
    let first = Background::new(
        MemoryBrowser::new(State::default()),
        MemoryStorage::default(),
    );
    let saved = block_on(
        first.handle(json!({ "type": "set_settings", "settings": { "confirmThreshold": 20 } })),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    let (browser, inner) = first.into_parts();
    let restarted = Background::new(
        browser,
        FlakyStorage {
            inner,
            failures: std::cell::Cell::new(1),
        },
    );
    // The read fails: the change is refused, not saved over defaults.
    let refused = block_on(
        restarted.handle(json!({ "type": "set_settings", "settings": { "logMaxEntries": 50 } })),
    );
    assert_eq!(refused["ok"], false, "{refused}");
    assert!(refused["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Could not read"));
    // The next request reads it: the earlier setting is still there.
    let settings = block_on(restarted.handle(json!({ "type": "settings" })));
    assert_eq!(settings["settings"]["confirmThreshold"], 20, "{settings}");
    assert_eq!(settings["settings"]["logMaxEntries"], 500);
}
