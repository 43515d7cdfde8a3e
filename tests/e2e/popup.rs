//! The popup, used as a person uses it: typing into the command box with
//! real key events, Enter, Up, Escape, clicking Undo, Confirm and History,
//! and checking the tabs that result. Screenshots (light and dark) go to
//! `target/screenshots/`; the tests assert content and state, not pixels.

use crate::util::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use tab_whisperer::harness::firefox::POPUP_PAGE;
use tab_whisperer::{extension_url, wait_for};

const ENTER: &str = "\u{E007}";
const ARROW_UP: &str = "\u{E013}";
const ESCAPE: &str = "\u{E00C}";

/// Runs `script` in the popup (the fixture's extension page).
fn popup(env: &Env, script: &str) -> Value {
    env.ff
        .session()
        .execute(script, &[])
        .expect("the popup answers")
}

fn command_box(env: &Env) -> String {
    env.ff.session().find("#command").expect("a command box")
}

/// Types a command and presses Enter; waits for its reply to show.
fn type_command(env: &Env, text: &str) -> String {
    let before = popup(
        env,
        "return document.querySelectorAll('#conversation > li').length;",
    );
    env.ff
        .session()
        .send_keys(&command_box(env), &format!("{text}{ENTER}"))
        .unwrap();
    wait_for(LOAD, "the reply to show", || {
        let count = popup(
            env,
            "return document.querySelectorAll('#conversation > li').length;",
        );
        Ok((count != before).then_some(()))
    })
    .unwrap();
    popup(
        env,
        "return document.querySelector('#conversation > li .reply').textContent;",
    )
    .as_str()
    .unwrap_or_default()
    .to_string()
}

fn click(env: &Env, css: &str) {
    let element = env
        .ff
        .session()
        .find(css)
        .unwrap_or_else(|e| panic!("{css}: {e}"));
    env.ff.session().click(&element).unwrap();
}

/// Clicks History and answers what its newest entry said.
fn open_history(env: &Env) -> String {
    click(env, "#show-history");
    wait_for(LOAD, "the history to show", || {
        let said = popup(
            env,
            "return document.querySelector('#history > li .said')?.textContent ?? null;",
        );
        Ok(said.as_str().map(str::to_string))
    })
    .unwrap()
}

fn youtube_tabs(env: &Env) -> usize {
    env.tabs()
        .iter()
        .filter(|t| t["url"].as_str().is_some_and(|u| u.contains("youtube.com")))
        .count()
}

fn screenshot(env: &Env, name: &str) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("target/screenshots")
        .join(format!("{name}.png"));
    env.ff.session().screenshot_png(&path).unwrap();
}

#[test]
fn typing_a_command_changes_tabs_and_undo_brings_them_back() {
    let env = start();
    for (slug, title) in [("cats", "Cats - YouTube"), ("dogs", "Dogs - YouTube")] {
        let url = env.on_host("www.youtube.com", slug, title);
        env.ok("create_tab", json!({ "url": url, "active": false }));
    }
    wait_for(LOAD, "the YouTube tabs", || {
        Ok((youtube_tabs(&env) == 2).then_some(()))
    })
    .unwrap();
    env.ff.session().set_window_size(400, 600).unwrap();
    let missing = popup(&env, crate::settings::UNTRANSLATED);
    assert_eq!(missing, json!([]), "keys missing from messages.json");

    let reply = type_command(&env, "close the youtube tabs");
    assert!(reply.contains("Closed 2"), "{reply}");
    assert_eq!(youtube_tabs(&env), 0);
    assert_eq!(
        popup(
            &env,
            "return document.getElementById('status').textContent;"
        ),
        "Done"
    );
    // Each tool call can be opened to its name, arguments and result.
    let call = popup(
        &env,
        "return document.querySelector('#conversation details summary').textContent;",
    );
    assert_eq!(call, "close_tabs");
    screenshot(&env, "popup-result-light");

    click(&env, "#conversation > li button.undo");
    wait_for(LOAD, "undo to reopen the tabs", || {
        Ok((youtube_tabs(&env) == 2).then_some(()))
    })
    .unwrap();

    // Up recalls the last command; Escape clears the line.
    let input = command_box(&env);
    env.ff.session().send_keys(&input, ARROW_UP).unwrap();
    let value = popup(&env, "return document.getElementById('command').value;");
    assert_eq!(value, "close the youtube tabs");
    env.ff.session().send_keys(&input, ESCAPE).unwrap();
    assert_eq!(
        popup(&env, "return document.getElementById('command').value;"),
        ""
    );

    // Dark, as Firefox draws it with a dark system theme.
    env.ff
        .chrome(
            r#"Services.prefs.setIntPref("ui.systemUsesDarkTheme", 1);
               Services.prefs.setIntPref("layout.css.prefers-color-scheme.content-override", 0);
               return null;"#,
        )
        .unwrap();
    wait_for(LOAD, "the popup to turn dark", || {
        let dark = popup(
            &env,
            "return matchMedia('(prefers-color-scheme: dark)').matches;",
        );
        if dark != true {
            // A page may only pick the theme up when it loads again.
            env.ff.session().navigate(&extension_url(POPUP_PAGE))?;
        }
        Ok((dark == true).then_some(()))
    })
    .unwrap();
    let background = popup(
        &env,
        "return getComputedStyle(document.body).backgroundColor;",
    );
    assert_eq!(background, "rgb(43, 42, 51)", "the dark background");
    let reply = type_command(&env, "how many tabs are open");
    assert!(reply.contains("tabs open"), "{reply}");
    screenshot(&env, "popup-result-dark");
    click(&env, "#show-history");
    wait_for(LOAD, "the history to show", || {
        let n = popup(
            &env,
            "return document.querySelectorAll('#history > li').length;",
        );
        Ok(n.as_u64().filter(|n| *n >= 2))
    })
    .unwrap();
    screenshot(&env, "popup-history-dark");
}

#[test]
fn big_closes_ask_first_and_confirm_runs_them() {
    let env = start();
    let titles: Vec<String> = (1..=12)
        .map(|i| format!("Wiki page {i} - Wikipedia"))
        .collect();
    for (i, title) in titles.iter().enumerate() {
        let url = env.on_host("en.wikipedia.org", &format!("p{i}"), title);
        env.ok("create_tab", json!({ "url": url, "active": false }));
    }
    let wiki = |env: &Env| {
        env.tabs()
            .iter()
            .filter(|t| {
                t["url"]
                    .as_str()
                    .is_some_and(|u| u.contains("wikipedia.org"))
            })
            .count()
    };
    wait_for(LOAD, "the wiki tabs", || {
        Ok((wiki(&env) == 12).then_some(()))
    })
    .unwrap();

    let question = type_command(&env, "close all the wikipedia tabs");
    assert!(question.contains("12"), "{question}");
    assert_eq!(wiki(&env), 12, "nothing closes before Confirm");
    click(&env, "#conversation > li button.confirm");
    wait_for(LOAD, "Confirm to close them", || {
        Ok((wiki(&env) == 0).then_some(()))
    })
    .unwrap();

    // Cancel leaves everything as it is.
    for (i, title) in titles.iter().enumerate() {
        let url = env.on_host("en.wikipedia.org", &format!("q{i}"), title);
        env.ok("create_tab", json!({ "url": url, "active": false }));
    }
    wait_for(LOAD, "the wiki tabs again", || {
        Ok((wiki(&env) == 12).then_some(()))
    })
    .unwrap();
    type_command(&env, "close all the wikipedia tabs");
    click(&env, "#conversation > li button.cancel");
    let reply = wait_for(LOAD, "the cancel reply", || {
        let reply = popup(
            &env,
            "return document.querySelector('#conversation > li .reply').textContent;",
        );
        Ok(reply
            .as_str()
            .filter(|r| r.contains("Cancelled"))
            .map(str::to_string))
    })
    .unwrap();
    assert!(reply.contains("nothing was changed"), "{reply}");
    assert_eq!(wiki(&env), 12);
}

#[test]
fn history_persists_across_reopening_the_popup_and_restarting_the_background() {
    let mut env = start();
    type_command(&env, "how many tabs are open");
    // Reopen the popup page: its history comes from the action log.
    env.ff
        .session()
        .navigate(&extension_url(POPUP_PAGE))
        .unwrap();
    wait_for(LOAD, "the popup to load", || {
        Ok((popup(&env, "return document.readyState;") == "complete").then_some(()))
    })
    .unwrap();
    let input = command_box(&env);
    let recalled = wait_for(LOAD, "Up to recall the last command", || {
        env.ff.session().send_keys(&input, ARROW_UP).unwrap();
        let value = popup(&env, "return document.getElementById('command').value;");
        Ok((value == "how many tabs are open").then_some(value))
    })
    .unwrap();
    assert_eq!(recalled, "how many tabs are open");

    let first = open_history(&env);
    assert_eq!(first, "how many tabs are open");
    assert_eq!(
        popup(
            &env,
            "return document.getElementById('show-history').getAttribute('aria-expanded');"
        ),
        "true"
    );
    assert_eq!(
        popup(
            &env,
            "return document.getElementById('status').textContent;"
        ),
        "1 entry"
    );
    screenshot(&env, "popup-history-light");

    // A restarted background (an update, a crash) still has it.
    env.ff.reload_extension().unwrap();
    let first = open_history(&env);
    assert_eq!(first, "how many tabs are open");
    click(&env, "#clear-history");
    wait_for(LOAD, "the history to clear", || {
        let n = popup(
            &env,
            "return document.querySelectorAll('#history > li').length;",
        );
        Ok((n == 0).then_some(()))
    })
    .unwrap();
}

const TAB: &str = "\u{E004}";
const SPACE: &str = " ";

/// What has the focus: its id or class, and whether a focus ring shows.
fn focused(env: &Env) -> (String, bool) {
    let v = popup(
        env,
        "const e = document.activeElement; const s = getComputedStyle(e);
         return [e.id || e.className || e.tagName, s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) >= 1];",
    );
    (v[0].as_str().unwrap_or_default().to_string(), v[1] == true)
}

/// Presses Tab until `wanted` has the focus (every stop showing a focus
/// ring); fails if it is not reached within 12 stops.
fn tab_to(env: &Env, wanted: &str) {
    let mut seen = Vec::new();
    for _ in 0..12 {
        env.ff.session().press_keys(TAB).unwrap();
        let (now, ring) = focused(env);
        assert!(ring, "{now} shows no focus ring");
        if now == wanted {
            return;
        }
        seen.push(now);
    }
    panic!("Tab never reached {wanted}: {seen:?}");
}

/// Elements wider than the page (they would need scrolling sideways).
const OVERFLOWING: &str = "const w = document.documentElement.clientWidth;
    return [...document.querySelectorAll('body *')]
      .filter(e => e.getClientRects().length && e.getBoundingClientRect().right > w + 1)
      .map(e => e.id || e.className || e.tagName);";

#[test]
fn the_popup_works_from_the_keyboard_alone_and_reads_at_200_percent_zoom() {
    let env = start();
    for i in 0..12 {
        let url = env.on_host(
            "www.youtube.com",
            &format!("v{i}"),
            &format!("Video {i} - YouTube"),
        );
        env.ok("create_tab", json!({ "url": url, "active": false }));
    }
    wait_for(LOAD, "the YouTube tabs", || {
        Ok((youtube_tabs(&env) == 12).then_some(()))
    })
    .unwrap();
    env.ff
        .session()
        .navigate(&extension_url(POPUP_PAGE))
        .unwrap();
    env.ff.session().set_window_size(400, 600).unwrap();
    // The command box has the focus as the popup opens.
    wait_for(LOAD, "the command box to have the focus", || {
        Ok((focused(&env).0 == "command").then_some(()))
    })
    .unwrap();
    env.ff
        .session()
        .press_keys(&format!("close all the youtube tabs{ENTER}"))
        .unwrap();
    wait_for(LOAD, "the question", || {
        let asked = popup(
            &env,
            "return !!document.querySelector('#conversation > li button.confirm');",
        );
        Ok((asked == true).then_some(()))
    })
    .unwrap();
    // Tab to Confirm, Enter: closed.
    tab_to(&env, "confirm");
    env.ff.session().press_keys(ENTER).unwrap();
    wait_for(LOAD, "Confirm to close them", || {
        Ok((youtube_tabs(&env) == 0).then_some(()))
    })
    .unwrap();
    // Back to the command box and Tab to Undo, Space: back again.
    wait_for(LOAD, "the Undo button", || {
        let undo = popup(&env, "const b = document.querySelector('#conversation > li button.undo'); if (b) document.getElementById('command').focus(); return !!b;");
        Ok((undo == true).then_some(()))
    })
    .unwrap();
    tab_to(&env, "undo");
    env.ff.session().press_keys(SPACE).unwrap();
    wait_for(LOAD, "Undo to reopen them", || {
        Ok((youtube_tabs(&env) == 12).then_some(()))
    })
    .unwrap();
    // History opens from the keyboard too.
    tab_to(&env, "show-history");
    env.ff.session().press_keys(ENTER).unwrap();
    wait_for(LOAD, "the history to open", || {
        let shown = popup(&env, "return document.getElementById('show-history').getAttribute('aria-expanded') === 'true' && document.querySelectorAll('#history > li').length;");
        Ok(shown.as_u64().filter(|n| *n >= 2))
    })
    .unwrap();

    // 200% zoom: the popup panel grows to twice its width (Firefox sizes
    // it to the content), and nothing needs scrolling sideways.
    env.ff.session().set_window_size(840, 1000).unwrap();
    env.ff
        .chrome("ZoomManager.setZoomForBrowser(gBrowser.selectedBrowser, 2); return null;")
        .unwrap();
    wait_for(LOAD, "the zoom", || {
        let ratio = popup(&env, "return window.devicePixelRatio;");
        Ok((ratio.as_f64() == Some(2.0)).then_some(()))
    })
    .unwrap();
    assert_eq!(popup(&env, OVERFLOWING), json!([]));
    let font = popup(&env, "return parseFloat(getComputedStyle(document.getElementById('command')).fontSize) * window.devicePixelRatio;");
    assert!(
        font.as_f64().unwrap() >= 24.0,
        "text is drawn twice as large: {font}"
    );
    screenshot(&env, "popup-zoom-200");
    env.ff
        .chrome("ZoomManager.setZoomForBrowser(gBrowser.selectedBrowser, 1); return null;")
        .unwrap();

    // The options page at 200% in a 900-pixel window reflows to fit.
    let page = env.ff.open_extension_page("options.html").unwrap();
    env.ff
        .with_window(&page, |session| {
            env.ff.chrome(
                "ZoomManager.setZoomForBrowser(gBrowser.selectedBrowser, 2); return null;",
            )?;
            wait_for(LOAD, "the zoom", || {
                let ratio = session.execute("return window.devicePixelRatio;", &[])?;
                Ok((ratio.as_f64() == Some(2.0)).then_some(()))
            })?;
            assert_eq!(session.execute(OVERFLOWING, &[])?, json!([]));
            session.screenshot_png(
                &PathBuf::from(env!("CARGO_MANIFEST_DIR"))
                    .join("target/screenshots/options-zoom-200.png"),
            )
        })
        .unwrap();
}
