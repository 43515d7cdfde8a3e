//! `make run`: Firefox with Tab Whisperer installed.
//!
//! With a display (`DISPLAY` or `WAYLAND_DISPLAY`) and without `--headless`,
//! opens a browser window with the add-on and waits until it is closed.
//! Otherwise runs a short scripted session in headless Firefox: typed
//! commands, each with its reply and tool calls; then spoken ones, said by
//! Debian's voices and played through the real voice pipeline (worklet,
//! speech worker with the bundled tiny.en, interpreter), each with what
//! was heard and what changed in the tabs; and a screenshot of the popup
//! in `dist/popup.png`.
//!
//! Expects a built add-on at `dist/tab-whisperer.xpi` (or `$TW_XPI`) and
//! the voices (`make speech-tools`).

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use ext_cli::speech::{self, Kind, Recording};
use serde_json::{json, Value};
use tab_whisperer::firefox::{xpi_path, POPUP_PAGE};
use tab_whisperer::harness::pages::encode_component;
use tab_whisperer::{extension_url, Error, Firefox, Heard, Listening, Options, PageServer, Result};

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
    let spoken = spoken_commands();
    let pages = PageServer::with_files(recordings(&spoken)?)?;
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
        "switch to the github tab",
        "close the youtube tabs",
        "undo that",
        "close netflix",
    ] {
        say(&ff, text)?;
    }
    println!("Now spoken, through the microphone's path (tiny.en, in the extension):\n");
    for r in &spoken {
        hear(&ff, &pages, r)?;
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

/// What the demo says: "hey fox, …" in one breath, "hey fox" then a
/// command, one after the mic button, and a sentence not meant for it.
fn spoken_commands() -> Vec<Recording> {
    [
        (
            "festival-slt-hts",
            16_000,
            Kind::OneBreath,
            "hey fox, mute the youtube tabs",
        ),
        (
            "festival-kal",
            48_000,
            Kind::WakeThenCommand,
            "hey fox. switch to wikipedia",
        ),
        ("festival-slt-hts", 48_000, Kind::Command, "pin this tab"),
        (
            "festival-slt-hts",
            16_000,
            Kind::NotForUs,
            "I will grab a coffee after the meeting.",
        ),
    ]
    .into_iter()
    .enumerate()
    .map(|(id, (voice, rate, kind, said))| Recording::extra("demo", id, voice, rate, kind, said))
    .collect()
}

/// Says the recordings (once: they are kept in target/demo-speech) and
/// answers them as files for the page server.
fn recordings(spoken: &[Recording]) -> Result<Vec<(String, Vec<u8>)>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/demo-speech");
    std::fs::create_dir_all(&dir)?;
    spoken
        .iter()
        .map(|r| {
            let path = speech::said_in(r, &dir).map_err(Error::Setup)?;
            Ok((format!("/{}", r.file), std::fs::read(&path)?))
        })
        .collect()
}

/// Plays one recording into the voice pipeline and prints what was heard,
/// the reply, and what changed in the tabs.
fn hear(ff: &Firefox, pages: &PageServer, r: &Recording) -> Result<()> {
    let how = match r.kind {
        Kind::Command => "after the mic button",
        Kind::OneBreath => "in one breath",
        Kind::WakeThenCommand => "wake word, a pause, then the command",
        Kind::NotForUs => "not meant for Tab Whisperer",
    };
    println!("🎤 \"{}\" ({}, {} Hz, {how})", r.said, r.voice, r.rate);
    let listening = match r.kind {
        Kind::Command => Listening::Active,
        _ => Listening::Passive,
    };
    let before = tabs(ff)?;
    let url = pages.url(&format!("/{}", r.file));
    match ff.hear(&url, r.rate, listening, Duration::from_secs(120)) {
        Ok(Heard::Command(event)) => {
            println!("  heard: {}", event["text"].as_str().unwrap_or_default());
            let answer = &event["answer"];
            println!("  {}", answer["reply"].as_str().unwrap_or_default());
        }
        Ok(Heard::Ignored(events)) => {
            let heard: Vec<&str> = events
                .iter()
                .filter(|e| e["ignored"] == true)
                .filter_map(|e| e["heard"].as_str())
                .collect();
            println!("  heard {heard:?}, not for us: nothing done");
        }
        Err(e) => println!("  nothing was taken as a command ({e})"),
    }
    let after = tabs(ff)?;
    for change in changes(&before, &after) {
        println!("  · {change}");
    }
    println!();
    Ok(())
}

fn tabs(ff: &Firefox) -> Result<Vec<Value>> {
    let answer = ff.tool("list_tabs", json!({}))?;
    Ok(answer["result"]["tabs"]
        .as_array()
        .cloned()
        .unwrap_or_default())
}

/// What changed in each tab, in words.
fn changes(before: &[Value], after: &[Value]) -> Vec<String> {
    let mut out = Vec::new();
    for tab in after {
        let title = tab["title"].as_str().unwrap_or_default();
        let Some(old) = before.iter().find(|t| t["id"] == tab["id"]) else {
            out.push(format!("opened '{title}'"));
            continue;
        };
        for (field, yes, no) in [
            ("muted", "muted", "unmuted"),
            ("pinned", "pinned", "unpinned"),
            ("active", "now in front", "no longer in front"),
        ] {
            if old[field] != tab[field] {
                let what = if tab[field] == true { yes } else { no };
                out.push(format!("'{title}' {what}"));
            }
        }
        if old["groupId"] != tab["groupId"] {
            out.push(format!("'{title}' regrouped"));
        }
    }
    for tab in before {
        if !after.iter().any(|t| t["id"] == tab["id"]) {
            out.push(format!(
                "closed '{}'",
                tab["title"].as_str().unwrap_or_default()
            ));
        }
    }
    if out.is_empty() {
        out.push("no tab changed".into());
    }
    out
}
