//! `make run`: Firefox with Tab Whisperer installed.
//!
//! With a display (`DISPLAY` or `WAYLAND_DISPLAY`) and without `--headless`,
//! opens a browser window with the add-on and waits until it is closed.
//! Otherwise runs a short scripted session in headless Firefox, printing
//! each typed command with its reply and tool calls, and saves a screenshot of the popup to
//! `dist/popup.png`.
//!
//! Expects a built add-on at `dist/tab-whisperer.xpi` (or `$TW_XPI`).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{json, Value};
use tab_whisperer::firefox::{xpi_path, POPUP_PAGE};
use tab_whisperer::harness::pages::encode_component;
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

/// The headless walk-through: typed commands on tabs of well-known sites,
/// which all resolve to the local page server (nothing leaves the machine).
fn scripted() -> Result<()> {
    let pages = PageServer::start()?;
    println!("Starting headless Firefox with {} …", xpi_path().display());
    let ff = Firefox::headless()?;

    let on_host = |host: &str, title: &str| {
        format!(
            "http://{host}:{}/page/demo?title={}",
            pages.port(),
            encode_component(title)
        )
    };
    for (host, title) in [
        ("www.youtube.com", "Cats compilation - YouTube"),
        ("www.youtube.com", "Dog tricks - YouTube"),
        (
            "github.com",
            "candle: Minimalist ML framework for Rust - GitHub",
        ),
        ("doc.rust-lang.org", "Asynchronous Programming in Rust"),
        ("en.wikipedia.org", "Quokka - Wikipedia"),
    ] {
        let message = json!({ "type": "tool", "name": "create_tab",
                              "args": { "url": on_host(host, title) } });
        let answer = ff.send(&message)?;
        if answer["ok"] != true {
            return Err(Error::Script(format!("{message} was refused: {answer}")));
        }
    }
    println!("Opened 5 tabs: two on YouTube, GitHub, the Rust docs, Wikipedia.\n");

    for text in [
        "how many tabs are open",
        "group my tabs by site",
        "mute the youtube tabs",
        "switch to the quokka tab",
        "close the youtube tabs",
        "undo that",
        "close netflix",
    ] {
        say(&ff, text)?;
    }
    let log = ff.send(&json!({ "type": "log" }))?;
    let entries = log["entries"].as_array().map_or(0, Vec::len);
    println!("The action log has {entries} entries.\n");

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

/// Types `text` as a command and prints the reply and each tool call.
fn say(ff: &Firefox, text: &str) -> Result<Value> {
    let answer = ff.command(text)?;
    println!("> {text}");
    let reply = answer["reply"].as_str().unwrap_or_default();
    match answer["error"]["code"].as_str() {
        Some(code) => println!(
            "  {code}: {}",
            answer["error"]["message"].as_str().unwrap_or(reply)
        ),
        None => println!("  {reply}"),
    }
    for call in answer["calls"].as_array().into_iter().flatten() {
        println!(
            "  · {} {}",
            call["tool"].as_str().unwrap_or("?"),
            call["args"]
        );
    }
    println!();
    Ok(answer)
}
