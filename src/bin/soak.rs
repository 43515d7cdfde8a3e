//! `make soak`: mixed commands on 500 tabs over two windows in headless
//! Firefox ESR with the add-on, each followed by undo, for SOAK_MINUTES
//! (10 by default). After every undo the layout must be what it was
//! (window, index, pinned, muted, group look, selected tab); prints how
//! many commands ran, how many did not come back exactly, tabs lost, and
//! the memory of Firefox's processes at the start and after each minute
//! (after asking Firefox to minimize its memory, as under memory pressure,
//! so that what is measured is what is kept, not garbage not yet
//! collected). Figures only.

use ext_core::layout::{random_change, Layout, Seeded};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tab_whisperer::harness::layouts::{open_layout, snapshot, state_of};
use tab_whisperer::{Firefox, PageServer, Result};

/// Typed commands among the tool calls (the interpreter's own plans).
const COMMANDS: &[&str] = &[
    "group my tabs by site",
    "mute all tabs",
    "unmute all tabs",
    "close duplicate tabs",
    "collapse all groups",
    "ungroup all tabs",
];

/// Resident memory of every process descended from this one, in MiB.
fn descendants_rss_mib() -> f64 {
    let me = std::process::id();
    let mut parent = std::collections::HashMap::new();
    let mut rss = std::collections::HashMap::new();
    for entry in std::fs::read_dir("/proc").into_iter().flatten().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(status) = std::fs::read_to_string(entry.path().join("status")) else {
            continue;
        };
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse::<u64>().ok())
                .unwrap_or(0)
        };
        parent.insert(pid, field("PPid:") as u32);
        rss.insert(pid, field("VmRSS:"));
    }
    let descends = |mut pid: u32| {
        for _ in 0..64 {
            match parent.get(&pid) {
                Some(&p) if p == me => return true,
                Some(&p) if p > 1 => pid = p,
                _ => return false,
            }
        }
        false
    };
    let kib: u64 = rss
        .iter()
        .filter(|(&p, _)| descends(p))
        .map(|(_, k)| k)
        .sum();
    kib as f64 / 1024.0
}

/// The memory Firefox keeps: garbage collected and caches dropped first
/// (the `heap-minimize` memory-pressure notice, which content processes
/// hear too), then every process's resident memory.
fn kept_memory_mib(ff: &Firefox) -> f64 {
    let _ = ff.chrome(
        r#"Services.obs.notifyObservers(null, "memory-pressure", "heap-minimize");
           Cu.forceGC(); Cu.forceCC(); Cu.forceShrinkingGC();
           return null;"#,
    );
    std::thread::sleep(Duration::from_secs(2));
    descendants_rss_mib()
}

fn run(minutes: f64, seed: u64) -> Result<()> {
    let pages = PageServer::start()?;
    let ff = Firefox::headless()?;
    let layout = Layout::issue_15(500);
    let windows = open_layout(&ff, &layout, |t| pages.page(t), Duration::from_secs(900))?;
    let start_tabs = snapshot(&ff, &windows)?.len();
    let memory_start = kept_memory_mib(&ff);
    let mut memory_by_minute = Vec::new();
    let mut next_sample = Instant::now() + Duration::from_secs(60);
    let mut rng = Seeded::new(seed);
    let (mut ran, mut refused, mut not_exact) = (0, 0, 0);
    let mut slowest = (0.0f64, String::new());
    let mut undo_ms = Vec::new();
    let deadline = Instant::now() + Duration::from_secs_f64(minutes * 60.0);
    while Instant::now() < deadline {
        if Instant::now() >= next_sample {
            memory_by_minute.push(kept_memory_mib(&ff));
            next_sample = Instant::now() + Duration::from_secs(60);
        }
        let before = snapshot(&ff, &windows)?;
        let (what, answer) = if rng.chance(20) {
            let text = COMMANDS[rng.below(COMMANDS.len())];
            (text.to_string(), ff.command(text)?)
        } else {
            let (name, args) = random_change(&state_of(&ff, &windows)?, &mut rng);
            (format!("{name}({args})"), ff.tool(name, args)?)
        };
        if answer["ok"] != true || answer.get("undo_id").is_none() {
            refused += 1;
            continue;
        }
        ran += 1;
        let started = Instant::now();
        let undo = ff.undo(None)?;
        let ms = started.elapsed().as_secs_f64() * 1000.0;
        undo_ms.push(ms);
        if ms > slowest.0 {
            slowest = (ms, what);
        }
        let after = snapshot(&ff, &windows)?;
        if undo["ok"] != true || after != before {
            not_exact += 1;
            let differ = before.iter().zip(&after).filter(|(b, a)| b != a).count()
                + before.len().abs_diff(after.len());
            eprintln!("not exact after {answer}: {differ} tab(s) differ; undo {undo}");
        }
    }
    let end_tabs = snapshot(&ff, &windows)?.len();
    let memory_end = kept_memory_mib(&ff);
    undo_ms.sort_by(f64::total_cmp);
    let median = undo_ms.get(undo_ms.len() / 2).copied().unwrap_or(0.0);
    println!("\nsoak: {minutes} min of mixed changes on {start_tabs} tabs over two windows, each undone (seed {seed})");
    println!(
        "changes undone {ran}, refused or no-ops {refused}, not back exactly {not_exact}, tabs lost {}",
        start_tabs as i64 - end_tabs as i64
    );
    println!(
        "undo median {median:.0} ms, slowest {:.0} ms (undoing {})",
        slowest.0, slowest.1
    );
    println!("Firefox processes' memory: {memory_start:.0} MiB at the start, {memory_end:.0} MiB at the end");
    let series: Vec<String> = memory_by_minute.iter().map(|m| format!("{m:.0}")).collect();
    println!(
        "after each minute (MiB, after heap-minimize): {}",
        series.join(", ")
    );
    Ok(())
}

fn main() -> ExitCode {
    let minutes = std::env::var("SOAK_MINUTES")
        .ok()
        .and_then(|m| m.parse().ok())
        .unwrap_or(10.0);
    let seed = std::env::var("SOAK_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(15);
    match run(minutes, seed) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("soak: {e}");
            ExitCode::FAILURE
        }
    }
}
