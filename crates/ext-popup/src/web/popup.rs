//! The popup: the command box (with Up/Down history), the mic button, the
//! level meter, the live transcript and the answers.

use super::dom::{ask, by_id, connect, document, mark_interactive, on, set_status, t};
use super::history::{run, show_answer, show_history, start_clear_history, start_stop};
use crate::input::{message_for, History};
use crate::view::{agent_progress, live_transcript, voice_status_key};
use ext_protocol::port::POPUP;
use ext_protocol::request::VoiceSource;
use ext_protocol::Request;
use serde_json::Value;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Element, HtmlInputElement, KeyboardEvent};

/// The mic button, the input level and what was heard: the background's
/// voice events arrive over a long-lived port (which also tells it a popup
/// is open, so a finished command is shown here, not as a notification).
fn start_voice() {
    if let Some(mic) = by_id("mic") {
        on(&mic.clone(), "click", move |_| {
            let mic = mic.clone();
            spawn_local(async move {
                let answer = ask(&Request::VoiceToggle(VoiceSource::default())).await;
                show_listening(&mic, answer["listening"] == true);
                if answer["ok"] != true {
                    set_status(answer["error"]["message"].as_str().unwrap_or_default());
                }
            });
        });
    }
    connect(POPUP, |message| {
        if message["type"] == "agent" {
            agent_event(&message["event"]);
            return;
        }
        if let Some(status) = message.get("status") {
            if let Some(mic) = by_id("mic") {
                show_listening(&mic, status["listening"] == true);
            }
            return;
        }
        voice_event(&message["event"]);
    });
}

fn show_listening(mic: &Element, listening: bool) {
    let _ = mic.set_attribute("aria-pressed", if listening { "true" } else { "false" });
    if let Some(level) = by_id("level") {
        let _ = if listening {
            level.remove_attribute("hidden")
        } else {
            level.set_attribute("hidden", "")
        };
    }
}

/// A language-model turn's step: the status line, and the live list of
/// its calls (cleared when the turn ends and its answer shows).
fn agent_event(event: &Value) {
    let Some(list) = by_id("progress") else {
        return;
    };
    if event["kind"] == "done" {
        list.set_text_content(None);
        let _ = list.set_attribute("hidden", "");
        return;
    }
    let (status, line) = agent_progress(event);
    if let Some(status) = status {
        set_status(&status);
    }
    if let Some(line) = line {
        if let Ok(item) = document().create_element("li") {
            item.set_text_content(Some(&line));
            let _ = list.append_child(&item);
            let _ = list.remove_attribute("hidden");
        }
    }
}

fn voice_event(event: &Value) {
    if let (Some(line), Some(text)) = (by_id("heard"), live_transcript(event)) {
        line.set_text_content(Some(&text));
        let _ = if text.is_empty() {
            line.set_attribute("hidden", "")
        } else {
            line.remove_attribute("hidden")
        };
    }
    match event["type"].as_str() {
        Some("level") => {
            if let (Some(level), Some(db)) = (by_id("level"), event["db"].as_f64()) {
                let _ = level.set_attribute("value", &format!("{:.0}", db.max(-60.0)));
            }
        }
        Some("command") if event["answer"].is_object() => {
            let request = Request::Command {
                text: event["text"].as_str().unwrap_or_default().to_string(),
                spoken: true,
                guided: event["guided"].as_str().map(str::to_string),
                wake_unsure: false,
                by_wake_phrase: false,
            };
            show_answer(&request, &event["answer"]);
        }
        _ => {
            if let Some(key) = voice_status_key(event) {
                let text = match event["error"]["message"].as_str() {
                    Some(message) => message.to_string(),
                    None => t(key, key),
                };
                set_status(&text);
            }
        }
    }
}

pub fn start_popup() {
    start_voice();
    let (Some(form), Some(input)) = (by_id("command-form"), by_id("command")) else {
        return;
    };
    let Ok(input) = input.dyn_into::<HtmlInputElement>() else {
        return;
    };
    let _ = input.focus();
    let history = Rc::new(RefCell::new(History::default()));
    // Earlier sessions' commands, from the action log.
    spawn_local({
        let history = Rc::clone(&history);
        async move {
            let log = ask(&Request::Log { limit: Some(100) }).await;
            let commands: Vec<String> = log["entries"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["command"].as_str().map(str::to_string))
                .filter(|c| c != "undo")
                .collect();
            *history.borrow_mut() = History::from_newest_first(commands.iter().map(String::as_str));
        }
    });
    on(&form, "submit", {
        let (input, history) = (input.clone(), Rc::clone(&history));
        move |event| {
            event.prevent_default();
            match message_for(&input.value()) {
                Ok(Some(message)) => {
                    history.borrow_mut().push(&input.value());
                    input.set_value("");
                    spawn_local(run(message));
                }
                Ok(None) => {}
                Err(e) => set_status(&e),
            }
        }
    });
    on(&input.clone().into(), "keydown", move |event| {
        let Some(key) = event.dyn_ref::<KeyboardEvent>().map(KeyboardEvent::key) else {
            return;
        };
        let recalled = match key.as_str() {
            "ArrowUp" => history
                .borrow_mut()
                .older(&input.value())
                .map(str::to_string),
            "ArrowDown" => history.borrow_mut().newer().map(str::to_string),
            "Escape" if !input.value().is_empty() => {
                // Clears the line; a second Escape closes the popup.
                history.borrow_mut().push("");
                Some(String::new())
            }
            _ => None,
        };
        if let Some(line) = recalled {
            event.prevent_default();
            input.set_value(&line);
        }
    });
    if let (Some(button), Some(panel)) = (by_id("show-history"), by_id("history-panel")) {
        on(&button.clone(), "click", move |_| {
            let open = panel.has_attribute("hidden");
            if open {
                let _ = panel.remove_attribute("hidden");
                spawn_local(show_history());
            } else {
                let _ = panel.set_attribute("hidden", "");
            }
            let _ = button.set_attribute("aria-expanded", if open { "true" } else { "false" });
        });
    }
    start_clear_history();
    start_stop();
    mark_interactive();
}
