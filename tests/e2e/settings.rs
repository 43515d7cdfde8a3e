//! The options page's settings, used with keyboard and mouse in real
//! Firefox: a change is saved and applies at once, a bad value is refused
//! with a reason and changes nothing, and settings survive restarting the
//! background.

use crate::util::*;
use serde_json::{json, Value};
use std::path::PathBuf;
use tab_whisperer::{wait_for, Session};

const TAB: &str = "\u{E004}";
const END: &str = "\u{E010}";
const BACKSPACE: &str = "\u{E003}";

/// The `data-i18n` keys of a page that `_locales` lacks, or whose element
/// does not show their text.
pub const UNTRANSLATED: &str = "return [...document.querySelectorAll('[data-i18n]')]
    .filter(e => { const m = browser.i18n.getMessage(e.dataset.i18n); return !m || e.textContent !== m; })
    .map(e => e.dataset.i18n);";

fn settings(env: &Env) -> Value {
    env.ff.send(&json!({ "type": "settings" })).unwrap()["settings"].clone()
}

fn eval(session: &Session, script: &str) -> Value {
    session.execute(script, &[]).unwrap()
}

fn field(path: &str) -> String {
    format!("[data-setting='{path}']")
}

/// Types `text` into a field (replacing what is there) and leaves it, as
/// a person tabbing through the form does; waits for the status to say
/// something new and answers it.
fn type_into(session: &Session, path: &str, text: &str) -> String {
    eval(
        session,
        "document.getElementById('settings-status').textContent = ''; return null;",
    );
    let element = session.find(&field(path)).unwrap();
    // Erase what is there (End, then Backspace), then type.
    let current = eval(
        session,
        &format!("return document.querySelector(\"{}\").value;", field(path)),
    );
    let erase = BACKSPACE.repeat(current.as_str().map_or(0, |v| v.chars().count()));
    session
        .send_keys(&element, &format!("{END}{erase}{text}{TAB}"))
        .unwrap();
    wait_for(LOAD, "the settings status", || {
        let status = eval(
            session,
            "return document.getElementById('settings-status').textContent;",
        );
        Ok(status
            .as_str()
            .filter(|s| !s.is_empty())
            .map(str::to_string))
    })
    .unwrap()
}

#[test]
fn settings_save_apply_refuse_and_survive_a_restart() {
    let mut env = start();
    let page = env.ff.open_extension_page("options.html").unwrap();
    env.ff
        .with_window(&page, |session| {
            session.set_window_size(900, 1200)?;
            // Every text comes from _locales: no key is missing.
            let missing = eval(session, UNTRANSLATED);
            assert_eq!(missing, json!([]), "keys missing from messages.json");
            // The fields show the current settings.
            wait_for(LOAD, "the settings to show", || {
                let v = eval(
                    session,
                    &format!(
                        "return document.querySelector(\"{}\").value;",
                        field("confirmThreshold")
                    ),
                );
                Ok((v == "10").then_some(()))
            })?;
            assert_eq!(type_into(session, "confirmThreshold", "20"), "Saved.");
            let refused = type_into(session, "confirmThreshold", "0");
            assert!(refused.contains("between 1 and 100"), "{refused}");
            let shown = eval(
                session,
                &format!(
                    "return document.querySelector(\"{}\").value;",
                    field("confirmThreshold")
                ),
            );
            assert_eq!(shown, "20", "a refused value is not kept");
            // A list field: comma-separated names, shown back the same way.
            assert_eq!(
                type_into(session, "llm.models", "big-model, ,small-model"),
                "Saved."
            );
            let shown = eval(
                session,
                &format!(
                    "return document.querySelector(\"{}\").value;",
                    field("llm.models")
                ),
            );
            assert_eq!(shown, "big-model, small-model");
            assert_eq!(type_into(session, "llm.rpm", "3"), "Saved.");

            let checkbox = session.find(&field("voice.wakeWordEnabled"))?;
            session.click(&checkbox)?;
            let key = session.find(&field("llm.apiKey"))?;
            session.send_keys(&key, &format!("sk-test{TAB}"))?;
            let reveal = session.find("#reveal-key")?;
            session.click(&reveal)?;
            assert_eq!(
                eval(
                    session,
                    &format!(
                        "return document.querySelector(\"{}\").type;",
                        field("llm.apiKey")
                    )
                ),
                "text"
            );
            let path =
                PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/screenshots/options.png");
            session.screenshot_png(&path)
        })
        .unwrap();
    wait_for(LOAD, "the checkbox and key to be saved", || {
        let answer = env.ff.send(&json!({ "type": "settings" })).unwrap();
        assert!(
            !answer.to_string().contains("sk-test"),
            "the key is never sent back"
        );
        Ok(
            (answer["settings"]["voice"]["wakeWordEnabled"] == false && answer["hasKey"] == true)
                .then_some(()),
        )
    })
    .unwrap();
    assert_eq!(settings(&env)["confirmThreshold"], 20);
    assert_eq!(
        settings(&env)["llm"]["models"],
        json!(["big-model", "small-model"])
    );
    assert_eq!(settings(&env)["llm"]["rpm"], 3);

    env.ff.reload_extension().unwrap();
    let after = settings(&env);
    assert_eq!(after["confirmThreshold"], 20, "{after}");
    assert_eq!(after["voice"]["wakeWordEnabled"], false, "{after}");
}

/// Clicks Test connection and waits for its answer.
fn test_connection(session: &Session) -> String {
    eval(
        session,
        "document.getElementById('llm-status').textContent = ''; return null;",
    );
    session.click(&session.find("#llm-test").unwrap()).unwrap();
    wait_for(LOAD, "the connection test's answer", || {
        let status = eval(
            session,
            "return document.getElementById('llm-status').textContent;",
        );
        Ok(status
            .as_str()
            .filter(|s| !s.is_empty() && !s.ends_with('…'))
            .map(str::to_string))
    })
    .unwrap()
}

fn choose(session: &Session, path: &str, value: &str) {
    let script = format!(
        "const f = document.querySelector(\"{}\"); f.value = '{value}';
         f.dispatchEvent(new Event('change', {{ bubbles: true }})); return null;",
        field(path)
    );
    eval(session, &script);
}

#[test]
fn test_connection_asks_the_language_model_server_for_its_models() {
    let openai = br#"{"object":"list","data":[{"id":"small-model"},{"id":"big-model"}]}"#;
    let ollama = br#"{"models":[{"name":"qwen2.5:0.5b"}]}"#;
    let pages = tab_whisperer::PageServer::with_files(vec![
        ("/v1/models".into(), openai.to_vec()),
        ("/api/tags".into(), ollama.to_vec()),
    ])
    .unwrap();
    // A port nothing listens on.
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let env = start();
    let page = env.ff.open_extension_page("options.html").unwrap();
    env.ff
        .with_window(&page, |session| {
            session.set_window_size(900, 1600)?;
            // Off: it says to choose a provider.
            let said = test_connection(session);
            assert!(said.contains("Choose a language-model provider"), "{said}");

            choose(session, "llm.provider", "openai");
            // Typed and not yet saved: the test uses what the fields show.
            let base = session.find(&field("llm.baseUrl"))?;
            session.send_keys(&base, &pages.url("/v1"))?;
            let model = session.find(&field("llm.model"))?;
            session.send_keys(&model, "small-model")?;
            let said = test_connection(session);
            assert_eq!(said, "Connected: 2 models, small-model among them.");

            choose(session, "llm.provider", "ollama");
            choose(session, "llm.baseUrl", &pages.url(""));
            let said = test_connection(session);
            assert_eq!(
                said,
                "Connected, but small-model is not among its 1 models."
            );

            choose(session, "llm.provider", "openai");
            choose(session, "llm.baseUrl", &pages.url("/nothing-here"));
            let said = test_connection(session);
            assert!(
                said.contains("answered 404") && said.contains("base URL"),
                "{said}"
            );

            choose(
                session,
                "llm.baseUrl",
                &format!("http://127.0.0.1:{closed}/v1"),
            );
            let said = test_connection(session);
            assert!(said.starts_with("Could not reach"), "{said}");
            let error = eval(
                session,
                "return document.getElementById('llm-status').className;",
            );
            assert_eq!(error, "error");
            Ok(())
        })
        .unwrap();
}

/// A model server on 127.0.0.1 that lists one model and records the
/// `Authorization` header of every request (`None` when there was none).
struct KeyRecorder {
    url: String,
    seen: std::sync::Arc<std::sync::Mutex<Vec<Option<String>>>>,
}

impl KeyRecorder {
    fn start() -> KeyRecorder {
        let server = tiny_http::Server::http("127.0.0.1:0").unwrap();
        let port = server.server_addr().to_ip().unwrap().port();
        let seen = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let log = seen.clone();
        std::thread::spawn(move || {
            for request in server.incoming_requests() {
                let auth = request
                    .headers()
                    .iter()
                    .find(|h| h.field.equiv("Authorization"))
                    .map(|h| h.value.to_string());
                log.lock().unwrap().push(auth);
                let body = r#"{"object":"list","data":[{"id":"m"}]}"#;
                let _ = request.respond(tiny_http::Response::from_string(body));
            }
        });
        KeyRecorder {
            url: format!("http://127.0.0.1:{port}/v1"),
            seen,
        }
    }

    fn last(&self) -> Option<String> {
        self.seen.lock().unwrap().last().cloned().flatten()
    }

    fn count(&self) -> usize {
        self.seen.lock().unwrap().len()
    }
}

#[test]
fn the_api_key_goes_only_to_the_server_it_was_saved_for() {
    let (one, two) = (KeyRecorder::start(), KeyRecorder::start());
    let env = start();
    let set = |patch: Value| {
        env.ff
            .send(&json!({ "type": "set_settings", "settings": patch }))
            .unwrap()
    };
    let test = |llm: Value| {
        env.ff
            .send(&json!({ "type": "llm_test", "llm": llm }))
            .unwrap()
    };
    // Everything the background tells an open page, from now on.
    env.ff
        .session()
        .execute(
            r#"window.__twTold = [];
               const port = browser.runtime.connect({ name: "popup" });
               port.onMessage.addListener(m => window.__twTold.push(JSON.stringify(m)));
               return null;"#,
            &[],
        )
        .unwrap();
    let saved = set(
        json!({ "llm": { "provider": "openai", "baseUrl": one.url, "apiKey": "sk-secret", "model": "m" } }),
    );
    assert_eq!(saved["ok"], true, "{saved}");
    assert_eq!(saved["hasKey"], true);
    assert_eq!(saved["settings"]["llm"]["apiKey"], "", "never sent back");

    // The saved server gets it.
    assert_eq!(test(json!({}))["ok"], true);
    assert_eq!(one.last().as_deref(), Some("Bearer sk-secret"));
    // Another origin (another port) typed but not saved: no key.
    let answer = test(json!({ "baseUrl": two.url, "apiKey": "" }));
    assert_eq!(answer["ok"], true, "{answer}");
    assert_eq!(two.count(), 1);
    assert_eq!(
        two.last(),
        None,
        "the saved key never reaches another origin"
    );
    // A key typed for it is used.
    test(json!({ "baseUrl": two.url, "apiKey": "sk-two" }));
    assert_eq!(two.last().as_deref(), Some("Bearer sk-two"));

    // Plain http to another computer is refused, before any request.
    let refused = test(json!({ "baseUrl": "http://192.0.2.7:11434/v1" }));
    assert_eq!(refused["ok"], false, "{refused}");
    assert!(refused.to_string().contains("http://"), "{refused}");
    let refused = set(json!({ "llm": { "baseUrl": "http://192.0.2.7:11434/v1" } }));
    assert_eq!(refused["ok"], false, "{refused}");

    // Saving another server without a key forgets the old key.
    let moved = set(json!({ "llm": { "baseUrl": two.url } }));
    assert_eq!(moved["hasKey"], false, "{moved}");
    let before = two.count();
    test(json!({}));
    assert_eq!(two.count(), before + 1);
    assert_eq!(two.last(), None);

    // Nothing the extension answers, tells open pages or logs carries it.
    let told = env
        .ff
        .session()
        .execute("return window.__twTold.join('\\n');", &[])
        .unwrap();
    assert!(!told.to_string().contains("sk-secret"), "{told}");
    for message in [json!({ "type": "settings" }), json!({ "type": "log" })] {
        let answer = env.ff.send(&message).unwrap();
        assert!(
            !answer.to_string().contains("sk-secret"),
            "{message}: {answer}"
        );
    }
}
