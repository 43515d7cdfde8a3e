//! `make bench`: close-and-undo of 100 and 500 tabs over two windows in
//! headless Firefox ESR with the add-on (issue 15's layout: 5 pinned,
//! three groups of 7, one collapsed, 10 muted, each window keeping one tab
//! that is not closed). Prints the close time, the undo time (each the
//! whole round trip of the message) and how many tabs are back exactly in
//! place: window, index, pinned, muted, group look, active. Figures only.

use ext_core::layout::Layout;
use serde_json::{json, Value};
use std::process::ExitCode;
use std::time::{Duration, Instant};
use tab_whisperer::harness::layouts::{close_windows, open_layout, snapshot};
use tab_whisperer::{Error, Firefox, PageServer, Result};

const SIZES: [usize; 2] = [100, 500];

struct Row {
    tabs: usize,
    close_ms: f64,
    undo_ms: f64,
    in_place: usize,
    lazy: usize,
    /// "Group my tabs by site" then undo: its undo time, and whether every
    /// tab was back in place.
    regroup_undo_ms: f64,
    regroup_exact: bool,
}

fn ok(answer: Value, what: &str) -> Result<Value> {
    if answer["ok"] == true {
        Ok(answer)
    } else {
        Err(Error::Script(format!("{what}: {answer}")))
    }
}

fn measure(ff: &Firefox, pages: &PageServer, closable: usize) -> Result<Row> {
    let layout = Layout::issue_15(closable);
    let windows = open_layout(ff, &layout, |t| pages.page(t), Duration::from_secs(900))?;
    let before = snapshot(ff, &windows)?;
    let tabs = ff.tool_result("list_tabs", json!({}))?["tabs"].clone();
    let in_windows = |t: &&Value| windows.iter().any(|w| t["windowId"] == *w);
    let closing: Vec<i64> = tabs
        .as_array()
        .into_iter()
        .flatten()
        .filter(in_windows)
        .filter(|t| !t["title"].as_str().unwrap_or_default().starts_with("Keep"))
        .filter_map(|t| t["id"].as_i64())
        .collect();
    let started = Instant::now();
    ok(
        ff.tool("close_tabs", json!({ "tabIds": closing }))?,
        "close",
    )?;
    let close_ms = started.elapsed().as_secs_f64() * 1000.0;
    let started = Instant::now();
    ok(ff.undo(None)?, "undo")?;
    let undo_ms = started.elapsed().as_secs_f64() * 1000.0;
    let after = snapshot(ff, &windows)?;
    let in_place = before
        .iter()
        .filter(|t| !t[2].as_str().unwrap_or_default().contains("Keep"))
        .filter(|t| after.contains(t))
        .count();
    // A big reorganisation: every tab grouped by site (pushing the
    // groups aside), then undone.
    let before_regroup = snapshot(ff, &windows)?;
    ok(ff.command("group my tabs by site")?, "group by site")?;
    let started = Instant::now();
    ok(ff.undo(None)?, "undo of group by site")?;
    let regroup_undo_ms = started.elapsed().as_secs_f64() * 1000.0;
    let regroup_exact = snapshot(ff, &windows)? == before_regroup;
    let tabs = ff.tool_result("list_tabs", json!({}))?["tabs"].clone();
    let lazy = tabs
        .as_array()
        .into_iter()
        .flatten()
        .filter(in_windows)
        .filter(|t| t["discarded"] == true)
        .count();
    close_windows(ff, &windows)?;
    Ok(Row {
        tabs: closing.len(),
        close_ms,
        undo_ms,
        in_place,
        lazy,
        regroup_undo_ms,
        regroup_exact,
    })
}

fn main() -> ExitCode {
    let run = || -> Result<Vec<Row>> {
        let pages = PageServer::start()?;
        let ff = Firefox::headless()?;
        SIZES.iter().map(|&n| measure(&ff, &pages, n)).collect()
    };
    match run() {
        Ok(rows) => {
            println!("\nclose and undo over two windows (headless Firefox ESR; issue 15's layout)");
            println!(
                "{:>6} {:>10} {:>10} {:>15} {:>16} {:>24}",
                "tabs",
                "close ms",
                "undo ms",
                "back in place",
                "back unloaded",
                "group by site: undo ms"
            );
            for r in rows {
                println!(
                    "{:>6} {:>10.0} {:>10.0} {:>11}/{:<3} {:>16} {:>14.0} ({})",
                    r.tabs,
                    r.close_ms,
                    r.undo_ms,
                    r.in_place,
                    r.tabs,
                    r.lazy,
                    r.regroup_undo_ms,
                    if r.regroup_exact {
                        "exact"
                    } else {
                        "NOT exact"
                    }
                );
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("undo_bench: {e}");
            ExitCode::FAILURE
        }
    }
}
