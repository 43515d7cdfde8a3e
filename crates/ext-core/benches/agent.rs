//! The language-model agent's own cost, model time excluded, with 100 and
//! 1,000 tabs side by side: building the context the model sees (the tab
//! list, cleaned, fenced and scanned for instructions), and one round of a
//! turn (the request built and serialized, the answer parsed, the tool run
//! on the in-memory browser, its result fenced into the history), from a
//! scripted model that answers at once, and what `read_pages` does with
//! every tab's page. Prints figures; asserts nothing.

mod fixture;

use ext_core::agent::provider::{HttpAnswer, HttpRequest};
use ext_core::agent::untrusted::Fence;
use ext_core::agent::{self, MAX_ROUNDS};
use ext_core::page;
use ext_core::storage::MemoryStorage;
use ext_core::tab_state::{PageText, State};
use ext_core::{Background, MemoryBrowser};
use fixture::state;
use futures::executor::block_on;
use serde_json::json;
use std::hint::black_box;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// Median of `f` over repeated runs (at least 300 ms or 15 runs).
fn median(mut f: impl FnMut()) -> Duration {
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < 15
        || (start.elapsed() < Duration::from_millis(300) && samples.len() < 5_000)
    {
        let t = Instant::now();
        f();
        samples.push(t.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}

fn context(state: &State) -> Duration {
    median(|| {
        let context = agent::tab_context(black_box(state));
        black_box(agent::first_messages("tidy up", &context, &Fence::random()));
    })
}

/// A turn of `rounds` answers: each but the last asks for one tool call
/// (a different list of tabs each time), the last answers in words.
fn turn(state: &State, rounds: usize) -> Duration {
    let answers: Vec<String> = (0..rounds)
        .map(|i| {
            let message = if i + 1 < rounds {
                json!({ "role": "assistant", "content": "", "tool_calls": [{
                    "id": format!("c{i}"), "type": "function",
                    "function": { "name": "list_tabs",
                                  "arguments": json!({ "query": format!("rust {i}") }).to_string() } }] })
            } else {
                json!({ "role": "assistant", "content": "Nothing to tidy." })
            };
            json!({ "choices": [{ "message": message }] }).to_string()
        })
        .collect();
    let bg = Background::new(MemoryBrowser::new(state.clone()), MemoryStorage::default());
    block_on(
        bg.handle(json!({ "type": "set_settings", "settings": { "llm": {
        "provider": "openai", "baseUrl": "http://127.0.0.1:9/v1", "model": "m" } } })),
    );
    let next = Rc::new(std::cell::Cell::new(0));
    let script = Rc::new(answers);
    {
        let (next, script) = (next.clone(), script.clone());
        bg.set_transport(Rc::new(move |request: HttpRequest, _| {
            // The web binding serializes the body; so does the bench.
            black_box(request.body.to_string());
            let i = next.get() % script.len();
            next.set(i + 1);
            let answer = HttpAnswer::new(200, script[i].clone());
            Box::pin(async move { Ok(answer) })
        }));
    }
    median(|| {
        next.set(0);
        let answer =
            block_on(bg.handle(json!({ "type": "command", "text": "ask the AI to tidy up" })));
        assert_eq!(answer["ok"], true, "{answer}");
    })
}

/// What `n` pages of about 6 KB say, cut to their share of the budget
/// and fenced, as `read_pages` answers them (the page script's own time in
/// each tab is Firefox's and not counted).
fn pages(n: usize) -> Duration {
    let texts: Vec<PageText> = (0..n)
        .map(|i| PageText {
            meta: vec![(
                "description".into(),
                format!("Page {i} about Rust and WebGPU"),
            )],
            headings: vec![("H1".into(), format!("Heading {i}"))],
            body: format!(
                "Menu Home About\n{}\nFooter",
                "Some words of the article. ".repeat(220)
            ),
            boilerplate: vec!["Menu Home About".into(), "Footer".into()],
            ..PageText::default()
        })
        .collect();
    median(|| {
        let budget = page::budget(n);
        let all: Vec<String> = texts.iter().map(|t| page::digest(t, budget)).collect();
        black_box(Fence::random().wrap(&all.join("\n")).text);
    })
}

fn main() {
    let sizes = [100, 1_000];
    let states: Vec<State> = sizes.iter().map(|&n| state(n)).collect();
    println!("agent: its own time, model time excluded (native, release; medians)");
    println!("{:<54} {:>12} {:>12}", "", "100 tabs", "1000 tabs");
    let ms = |d: Duration| format!("{:>9.3} ms", d.as_secs_f64() * 1e3);
    let built: Vec<Duration> = states.iter().map(context).collect();
    println!(
        "{:<54} {} {}",
        "context: tab list, cleaned, fenced, flagged",
        ms(built[0]),
        ms(built[1])
    );
    let read: Vec<Duration> = states.iter().map(|s| pages(s.tabs.len())).collect();
    println!(
        "{:<54} {} {}",
        "read_pages of every tab (digest, fence)",
        ms(read[0]),
        ms(read[1])
    );
    let one: Vec<Duration> = states.iter().map(|s| turn(s, 1)).collect();
    let full: Vec<Duration> = states.iter().map(|s| turn(s, MAX_ROUNDS)).collect();
    println!(
        "{:<54} {} {}",
        "turn of 1 round (an answer in words)",
        ms(one[0]),
        ms(one[1])
    );
    println!(
        "{:<54} {} {}",
        format!("turn of {MAX_ROUNDS} rounds (9 list_tabs calls, then words)"),
        ms(full[0]),
        ms(full[1])
    );
    let per_round = |i: usize| (full[i].saturating_sub(one[i])) / (MAX_ROUNDS as u32 - 1);
    println!(
        "{:<54} {} {}",
        "overhead per tool round",
        ms(per_round(0)),
        ms(per_round(1))
    );
}
