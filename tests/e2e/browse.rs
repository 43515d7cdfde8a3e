//! Every voice-browsing command on the active tab of a real window.

use crate::util::*;
use serde_json::{json, Value};
use tab_whisperer::wait_for;

fn browse(env: &Env, action: &str, amount: Option<f64>) -> Value {
    let mut args = json!({ "action": action });
    if let Some(a) = amount {
        args["amount"] = json!(a);
    }
    env.ok("browse", args)["result"].clone()
}

#[test]
fn scrolling_and_zoom() {
    let env = start();
    let url = env.pages.long_page("Long read");
    let id = env.open_active(&url, "Long read");
    let page = |script: &str| env.ff.page_eval("/long", script).unwrap();

    let r = browse(&env, "scroll_down", None);
    assert_eq!(r["tab"]["id"], id, "acts on the active tab");
    assert_eq!(r["scrollY"], 400.0);
    assert_eq!(page("return window.scrollY;"), 400.0);
    let r = browse(&env, "scroll_up", Some(150.0));
    assert_eq!(page("return window.scrollY;"), 250.0);
    assert_eq!(r["scrollY"], 250.0);
    let inner = page("return window.innerHeight;").as_f64().unwrap();
    browse(&env, "page_down", None);
    let after = page("return window.scrollY;").as_f64().unwrap();
    assert_eq!(after, 250.0 + (inner * 0.9).round());
    browse(&env, "page_up", None);
    assert_eq!(page("return window.scrollY;"), 250.0);
    browse(&env, "bottom", None);
    assert_eq!(
        page("return window.scrollY;"),
        page("return document.documentElement.scrollHeight - window.innerHeight;")
    );
    browse(&env, "top", None);
    assert_eq!(page("return window.scrollY;"), 0.0);

    // Zoom follows Firefox's steps; the page's devicePixelRatio shows it.
    let base = page("return window.devicePixelRatio;").as_f64().unwrap();
    let r = browse(&env, "zoom_in", None);
    assert_eq!(r["zoom"], 1.1);
    wait_for(LOAD, "the page to zoom", || {
        let dpr = page("return window.devicePixelRatio;").as_f64().unwrap();
        Ok(((dpr / base - 1.1).abs() < 0.01).then_some(()))
    })
    .unwrap();
    let r = browse(&env, "zoom_out", Some(2.0));
    assert_eq!(r["zoom"], 0.9);
    // Undo puts the zoom back where it was.
    env.undo();
    wait_for(LOAD, "undo to zoom back", || {
        let dpr = page("return window.devicePixelRatio;").as_f64().unwrap();
        Ok(((dpr / base - 1.1).abs() < 0.01).then_some(()))
    })
    .unwrap();
    let r = browse(&env, "zoom_reset", None);
    assert_eq!(r["zoom"], 1.0);
    // "zoom to 150%": a level of the person's choosing, not a step.
    let r = env.ff.command("zoom to 150%").unwrap();
    assert_eq!(r["reply"], "Zoomed to 150%.", "{r}");
    wait_for(LOAD, "the page to zoom to 150%", || {
        let dpr = page("return window.devicePixelRatio;").as_f64().unwrap();
        Ok(((dpr / base - 1.5).abs() < 0.01).then_some(()))
    })
    .unwrap();
}

#[test]
fn reader_view_in_and_out_and_undone() {
    let env = start();
    let url = env.pages.article_page("A week of tabs");
    let id = env.open_active(&url, "A week of tabs");
    // Firefox decides a page is an article after it loads; until then it
    // refuses reader view.
    wait_for(LOAD, "Firefox to find the article", || {
        let article = env
            .ff
            .chrome("return gBrowser.selectedBrowser.isArticle;")
            .unwrap();
        Ok((article == true).then_some(()))
    })
    .unwrap();
    let in_reader = |t: &Value| {
        t["url"]
            .as_str()
            .unwrap_or("")
            .starts_with("about:reader?url=")
    };

    let r = env.ff.command("open reader view").unwrap();
    assert_eq!(r["reply"], "Opened reader view.", "{r}");
    env.wait_tab(id, "reader view", in_reader);
    // Said again, nothing changes and nothing is recorded for undo.
    let again = browse(&env, "reader_view", None);
    assert_eq!(again["readerView"], true);
    env.undo();
    env.wait_tab(id, "undo to leave reader view", |t| {
        t["url"] == url.as_str()
    });

    env.ff.command("reader mode").unwrap();
    env.wait_tab(id, "reader view again", in_reader);
    let r = env.ff.command("exit reader view").unwrap();
    assert_eq!(r["reply"], "Left reader view.", "{r}");
    env.wait_tab(id, "the article again", |t| t["url"] == url.as_str());

    // A page with no article: a clear failure, and the tab stays as it was.
    let plain = env.pages.page("No article here");
    let plain_id = env.open_active(&plain, "No article here");
    let r = env.ff.command("open reader view").unwrap();
    assert_eq!(r["ok"], false, "{r}");
    assert!(
        r["error"]["message"]
            .as_str()
            .unwrap()
            .contains("finds an article"),
        "{r}"
    );
    assert_eq!(env.tab(plain_id)["url"], plain.as_str());
}

#[test]
fn pausing_and_playing_a_page_and_undoing_it() {
    let env = start();
    let url = env.pages.audio_page("Radio loop");
    let id = env.open_active(&url, "Radio loop");
    let paused = || -> bool {
        env.ff
            .page_eval("/audio", "return document.querySelector('audio').paused;")
            .unwrap()
            == true
    };
    let wait_paused = |want: bool, what: &str| {
        wait_for(LOAD, what, || Ok((paused() == want).then_some(()))).unwrap();
    };
    wait_paused(false, "the tone to play");

    let r = env.ff.command("pause the music").unwrap();
    assert_eq!(r["ok"], true, "{r}");
    wait_paused(true, "the pause");
    // Undo plays again exactly what was paused.
    env.undo();
    wait_paused(false, "undo to play again");

    let r = env.ff.command("pause radio loop").unwrap();
    assert_eq!(r["reply"], "Paused 'Radio loop'.", "{r}");
    wait_paused(true, "the named pause");
    let r = env.ff.command("resume").unwrap();
    assert_eq!(r["reply"], "Playing 'Radio loop'.", "{r}");
    wait_paused(false, "resume");

    // Playing what already plays, or pausing a page with no media,
    // changes nothing and says why.
    let r = env.ff.command("resume").unwrap();
    assert_eq!(r["ok"], false, "{r}");
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    assert!(!paused());
    let quiet = env.pages.page("Quiet page");
    let quiet_id = env.open_active(&quiet, "Quiet page");
    assert_eq!(
        env.fails(
            "browse",
            json!({ "action": "pause_media", "tabId": quiet_id })
        ),
        "NOT_FOUND"
    );
    let r = browse_tab(&env, "pause_media", id);
    assert_eq!(r["media"], 1.0, "{r}");
    wait_paused(true, "pause by the tool");
}

#[test]
fn a_pause_sweep_passes_over_sound_it_cannot_pause() {
    let env = start();
    let radio = env.open_active(&env.pages.audio_page("Radio loop"), "Radio loop");
    let synth = env.open_active(&env.pages.synth_page("Synth toy"), "Synth toy");
    for id in [radio, synth] {
        env.wait_tab(id, "the tab to play", |t| t["audible"] == true);
    }
    // The synth's sound is Web Audio: no page script can pause it, and it
    // does not keep the radio playing.
    let r = env.ff.command("pause").unwrap();
    assert_eq!(r["ok"], true, "{r}");
    let reply = r["reply"].as_str().unwrap();
    assert!(reply.starts_with("Paused what was playing."), "{r}");
    assert!(reply.contains("'Synth toy' plays sound"), "{r}");
    wait_for(LOAD, "the radio to pause", || {
        let paused = env
            .ff
            .page_eval("/audio", "return document.querySelector('audio').paused;")?;
        Ok((paused == true).then_some(()))
    })
    .unwrap();
    let running = env
        .ff
        .page_eval("/synth", "return document.documentElement.dataset.audio;")
        .unwrap();
    assert_eq!(running, "running");
    // Where nothing at all can be paused, the command fails and says why.
    let r = env.ff.command("pause the synth toy").unwrap();
    assert_eq!(r["error"]["code"], "NOT_FOUND", "{r}");
    assert!(
        r["reply"].as_str().unwrap().contains("mute it instead"),
        "{r}"
    );
}

fn browse_tab(env: &Env, action: &str, tab_id: i64) -> Value {
    env.ok("browse", json!({ "action": action, "tabId": tab_id }))["result"].clone()
}

#[test]
fn navigation_reload_stop_and_tab_commands() {
    let env = start();
    let first = env.pages.page("First stop");
    let second = env.pages.page("Second stop");
    let id = env.open_active(&first, "First stop");
    // Navigate the tab to a second page, as a person clicking a link would.
    env.ff
        .page_eval(
            "first-stop",
            &format!("location.href = {}; return null;", json!(second)),
        )
        .unwrap();
    env.wait_tab(id, "the second page", |t| t["title"] == "Second stop");

    browse(&env, "back", None);
    env.wait_tab(id, "going back", |t| t["title"] == "First stop");
    browse(&env, "forward", None);
    env.wait_tab(id, "going forward", |t| t["title"] == "Second stop");
    // Two steps at once, as "go back two pages" asks.
    let third = env.pages.page("Third stop");
    env.ff
        .page_eval(
            "second-stop",
            &format!("location.href = {}; return null;", json!(third)),
        )
        .unwrap();
    env.wait_tab(id, "the third page", |t| t["title"] == "Third stop");
    browse(&env, "back", Some(2.0));
    env.wait_tab(id, "two pages back", |t| t["title"] == "First stop");
    browse(&env, "forward", Some(2.0));
    env.wait_tab(id, "two pages forward", |t| t["title"] == "Third stop");
    browse(&env, "back", None);
    env.wait_tab(id, "one page back", |t| t["title"] == "Second stop");

    for action in ["reload", "hard_reload"] {
        env.ff
            .page_eval("second-stop", "window.__mark = 1; return null;")
            .unwrap();
        browse(&env, action, None);
        wait_for(LOAD, action, || {
            let v = env
                .ff
                .page_eval(
                    "second-stop",
                    "return document.readyState === 'complete' && window.__mark === undefined;",
                )
                .unwrap_or(json!(false));
            Ok((v == true).then_some(()))
        })
        .unwrap();
    }
    // Stop: a page whose image never arrives stays loading until stopped.
    let stalled = env.pages.stalled_page("Stalled stop");
    env.ff
        .page_eval(
            "second-stop",
            &format!("location.href = {}; return null;", json!(stalled)),
        )
        .unwrap();
    env.wait_tab(id, "the stalled page", |t| t["title"] == "Stalled stop");
    let loaded = "return document.readyState === 'complete' || document.images[0].complete;";
    assert_eq!(
        env.ff.page_eval("stalled", loaded).unwrap(),
        false,
        "still loading"
    );
    let r = browse(&env, "stop", None);
    assert_eq!(r["tab"]["id"], id);
    wait_for(LOAD, "stop to end the loading", || {
        let done = env.ff.page_eval("stalled", loaded).unwrap_or(json!(false));
        Ok((done == true).then_some(()))
    })
    .unwrap();
    assert_eq!(env.tab(id)["title"], "Stalled stop", "stop leaves the page");

    // next/previous tab walk the window's tabs, wrapping around.
    let window = env.tab(id)["windowId"].as_i64().unwrap();
    let in_window: Vec<i64> = env
        .tabs()
        .iter()
        .filter(|t| t["windowId"] == window)
        .map(|t| t["id"].as_i64().unwrap())
        .collect();
    let at = in_window.iter().position(|t| *t == id).unwrap();
    browse(&env, "next_tab", None);
    assert_eq!(
        env.active_tab(window)["id"],
        in_window[(at + 1) % in_window.len()]
    );
    browse(&env, "previous_tab", None);
    assert_eq!(env.active_tab(window)["id"], id);

    // new_tab opens and activates; close_tab closes the active tab.
    let count = env.tabs().len();
    let r = browse(&env, "new_tab", None);
    let new = r["tab"]["id"].as_i64().unwrap();
    assert_eq!(env.tabs().len(), count + 1);
    assert_eq!(env.active_tab(window)["id"], new);
    let r = browse(&env, "close_tab", None);
    assert_eq!(r["tab"]["id"], new);
    assert_eq!(env.tabs().len(), count);
    assert!(env.tabs().iter().all(|t| t["id"] != new));

    // new_window opens a focused window; undo closes it.
    let windows = || env.windows().expect("windows.getAll");
    let before = windows().len();
    let r = browse(&env, "new_window", None);
    let opened = r["tab"]["windowId"].clone();
    assert_ne!(opened, json!(window), "{r}");
    wait_for(LOAD, "the new window to have the focus", || {
        Ok(windows()
            .iter()
            .any(|w| w["id"] == opened && w["focused"] == true)
            .then_some(()))
    })
    .unwrap();
    env.undo();
    wait_for(LOAD, "the new window to close", || {
        let now = windows();
        Ok((now.len() == before && now.iter().all(|w| w["id"] != opened)).then_some(()))
    })
    .unwrap();
}

#[test]
fn a_page_that_never_finishes_loading_fails_scrolling_and_the_next_command_runs() {
    let env = start();
    let url = env.pages.unparsed_page("Never parsed");
    let id = env.open_active(&url, "Never parsed");
    // The content script would wait for document_end forever; the call
    // has a time limit, so the answer comes and says why.
    let answer = env
        .ff
        .tool("browse", json!({ "action": "scroll_down", "tabId": id }))
        .expect("the background answers");
    assert_eq!(answer["ok"], false, "{answer}");
    assert_eq!(answer["error"]["code"], "EXECUTION_FAILED", "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("did not respond"), "{message}");
    // The lock was released: the next command runs.
    let long = env.pages.long_page("After the stall");
    let next = env.open_active(&long, "After the stall");
    let r = env.ok("browse", json!({ "action": "scroll_down", "tabId": next }));
    assert!(r["result"]["scrollY"].as_f64().unwrap_or(0.0) > 0.0, "{r}");
}
