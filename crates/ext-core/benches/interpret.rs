//! Interpretation time per command with 100 and with 1,000 tabs, measured
//! side by side (targets: under 1 ms with 100 tabs, under 20 ms with 1,000).
//! Prints figures; asserts nothing.

mod fixture;

use ext_core::interpret::{plan, Options};
use ext_core::tab_state::State;
use fixture::state;
use std::hint::black_box;
use std::time::{Duration, Instant};

const COMMANDS: &[&str] = &[
    "close every reddit tab",
    "hey fox close the you tube tabs",
    "switch to slack",
    "go to the fifth tab",
    "mute all but this one",
    "put my github and docs tabs in a group called Work",
    "group my tabs by site",
    "group my tabs by topic",
    "close duplicate tabs",
    "send the bbc tab to the other window",
    "search bing for rust async",
    "what did i read last week about webgpu",
    "open my candle docs bookmark",
    "close youtube and mute the rest",
    "close story 42 tab",
    "how many tabs are open",
];

/// Median time of `plan` over repeated runs (at least 200 ms or 30 runs).
fn time(text: &str, state: &State) -> Duration {
    let options = Options::default();
    let mut samples = Vec::new();
    let start = Instant::now();
    while samples.len() < 30
        || (start.elapsed() < Duration::from_millis(200) && samples.len() < 10_000)
    {
        let t = Instant::now();
        black_box(plan(black_box(text), state, &options));
        samples.push(t.elapsed());
    }
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let small = state(100);
    let large = state(1000);
    println!("interpreter: median time to plan one command (native, release)");
    println!(
        "{:<52} {:>12} {:>12} {:>7}",
        "command", "100 tabs", "1000 tabs", "ratio"
    );
    let (mut worst_small, mut worst_large) = (Duration::ZERO, Duration::ZERO);
    for text in COMMANDS {
        let a = time(text, &small);
        let b = time(text, &large);
        worst_small = worst_small.max(a);
        worst_large = worst_large.max(b);
        println!(
            "{:<52} {:>9.1} µs {:>9.1} µs {:>6.1}x",
            text,
            a.as_secs_f64() * 1e6,
            b.as_secs_f64() * 1e6,
            b.as_secs_f64() / a.as_secs_f64()
        );
    }
    println!(
        "slowest: {:.3} ms with 100 tabs (target < 1 ms), {:.3} ms with 1000 tabs (target < 20 ms)",
        worst_small.as_secs_f64() * 1e3,
        worst_large.as_secs_f64() * 1e3
    );
}
