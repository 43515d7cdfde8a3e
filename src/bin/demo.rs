//! `make run`: Firefox with Tab Whisperer installed.
//!
//! With a display (`DISPLAY` or `WAYLAND_DISPLAY`) and without `--headless`,
//! opens a browser window with the add-on and waits until it is closed.
//! Otherwise runs a short scripted session in headless Firefox, printing
//! every message and its answer, and saves a screenshot of the popup to
//! `dist/popup.png`.
//!
//! Expects a built add-on at `dist/tab-whisperer.xpi` (or `$TW_XPI`).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value};
use tab_whisperer::firefox::{xpi_path, POPUP_PAGE};
use tab_whisperer::{extension_url, Error, Firefox, Options, PageServer, Result};

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "-h" || a == "--help") {
        println!("usage: demo [--headless]");
        return ExitCode::SUCCESS;
    }
    if let Some(other) = args.iter().find(|a| *a != "--headless") {
        eprintln!("demo: unknown argument {other:?} (usage: demo [--headless])");
        return ExitCode::from(2);
    }
    let has_display = ["DISPLAY", "WAYLAND_DISPLAY"]
        .iter()
        .any(|v| std::env::var_os(v).is_some_and(|s| !s.is_empty()));
    let headless = !has_display || args.iter().any(|a| a == "--headless");

    let result = if headless { scripted() } else { interactive() };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("demo failed: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A browser window with the add-on; returns when the user closes it.
fn interactive() -> Result<()> {
    println!("Starting Firefox with {} …", xpi_path().display());
    let ff = Firefox::start(Options {
        headless: false,
        ..Options::default()
    })?;
    println!(
        "\nTab Whisperer is installed (temporary add-on).\n\
         - Click its toolbar button (or press its shortcut) and type a command,\n  \
           e.g. \"group my youtube tabs\" or \"close duplicate tabs\".\n\
         - The first tab shows the popup page: {}\n\
         - Close the browser window to quit.",
        extension_url(POPUP_PAGE)
    );
    // An interactive wait, not a test: poll until the browser is gone.
    loop {
        std::thread::sleep(Duration::from_secs(1));
        match ff.session().window_handles() {
            Ok(handles) if !handles.is_empty() => continue,
            _ => break,
        }
    }
    println!("Browser closed.");
    Ok(())
}

/// The headless walk-through.
fn scripted() -> Result<()> {
    let pages = PageServer::start()?;
    println!("Starting headless Firefox with {} …", xpi_path().display());
    let ff = Firefox::headless()?;

    let mut ids = Vec::new();
    for title in [
        "Rust async book",
        "YouTube - cats",
        "YouTube - dogs",
        "Team Wiki",
    ] {
        let answer = step(
            &ff,
            json!({ "type": "tool", "name": "create_tab", "args": { "url": pages.page(title) } }),
        )?;
        ids.push(answer["result"]["tab"]["id"].clone());
    }
    let (videos, wiki) = (json!([ids[1], ids[2]]), json!([ids[3]]));

    step(
        &ff,
        json!({ "type": "tool", "name": "list_tabs", "args": {} }),
    )?;
    step(
        &ff,
        json!({ "type": "tool", "name": "group_tabs",
                "args": { "tabIds": videos, "title": "Videos", "color": "red" } }),
    )?;
    step(
        &ff,
        json!({ "type": "tool", "name": "mute_tabs", "args": { "tabIds": videos } }),
    )?;
    step(
        &ff,
        json!({ "type": "tool", "name": "close_tabs", "args": { "tabIds": wiki } }),
    )?;
    step(&ff, json!({ "type": "undo" }))?;
    // The command interpreter may not know this yet; show whatever comes.
    show(
        &json!({ "type": "command", "text": "close the youtube tabs" }),
        &ff.send(&json!({ "type": "command", "text": "close the youtube tabs" }))?,
    );
    let log = ff.send(&json!({ "type": "log" }))?;
    let entries = log["entries"].as_array().map_or(0, Vec::len);
    println!("> {{\"type\":\"log\"}}\n{entries} log entries\n");

    // A picture of the popup.
    let session = ff.session();
    session.switch_to_window(ff.extension_handle())?;
    session.navigate(&extension_url(POPUP_PAGE))?;
    session.set_window_size(400, 600)?;
    let png = Path::new(env!("CARGO_MANIFEST_DIR")).join("dist/popup.png");
    session.screenshot_png(&png)?;
    println!("Screenshot of the popup: {}", png.display());
    Ok(())
}

/// Sends `message`, prints it with the answer, and fails on `ok: false`.
fn step(ff: &Firefox, message: Value) -> Result<Value> {
    let answer = ff.send(&message)?;
    show(&message, &answer);
    if answer["ok"] != true {
        return Err(Error::Script(format!("{message} was refused: {answer}")));
    }
    Ok(answer)
}

fn show(message: &Value, answer: &Value) {
    let pretty = serde_json::to_string_pretty(answer).unwrap_or_else(|_| answer.to_string());
    println!("> {message}\n{pretty}\n");
}
