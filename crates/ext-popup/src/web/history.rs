//! The conversation and the History panel: one entry per command, typed or
//! spoken, with its calls, Confirm/Cancel and Undo.

use super::dom::{ask, by_id, element, on, set_status, t};
use crate::view::{answer_view, entries_count, log_view, EntryView};
use ext_protocol::Request;
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::Element;

/// One conversation or history item.
pub fn render_entry(view: &EntryView) -> Element {
    let li = element("li", "", "");
    if let Some(t) = view.time {
        let date = js_sys::Date::new(&JsValue::from_f64(t));
        let _ = li.append_child(&element(
            "div",
            "time",
            &String::from(date.to_locale_string("default", &JsValue::UNDEFINED)),
        ));
    }
    let _ = li.append_child(&element("div", "said", &view.said));
    let _ = li.append_child(&element(
        "div",
        if view.ok { "reply ok" } else { "reply error" },
        &view.reply,
    ));
    for call in &view.calls {
        let details = element("details", "", "");
        let _ = details.append_child(&element("summary", "", &call.tool));
        let _ = details.append_child(&element("pre", "", &format!("args {}", call.args)));
        let _ = details.append_child(&element("pre", "", &format!("result {}", call.result)));
        let _ = li.append_child(&details);
    }
    if view.needs_confirmation {
        for (key, label, class, answer) in [
            ("confirm", "Confirm", "confirm", "yes"),
            ("cancel", "Cancel", "cancel", "no"),
        ] {
            let button = element("button", class, &t(key, label));
            let _ = button.set_attribute("type", "button");
            on(&button, "click", move |_| {
                spawn_local(run(Request::Command {
                    text: answer.to_string(),
                    spoken: false,
                    guided: None,
                    wake_unsure: false,
                    by_wake_phrase: false,
                }));
            });
            let _ = li.append_child(&button);
        }
    }
    if let Some(id) = view.undo_id.clone() {
        let button = element("button", "undo", &t("undo", "Undo"));
        let _ = button.set_attribute("type", "button");
        on(&button, "click", move |_| {
            let id = id.clone();
            spawn_local(async move {
                run(Request::Undo { undo_id: Some(id) }).await;
            });
        });
        let _ = li.append_child(&button);
    }
    li
}

/// Sends one message and shows the answer at the top of the conversation.
pub async fn run(request: Request) {
    set_status(&t("statusThinking", "Thinking…"));
    // Stop shows while the answer is awaited: a language model can take
    // a while (an offline answer comes before it is ever drawn).
    let stop = by_id("stop");
    if let Some(stop) = &stop {
        let _ = stop.remove_attribute("hidden");
    }
    let answer = ask(&request).await;
    if let Some(stop) = &stop {
        let _ = stop.set_attribute("hidden", "");
    }
    show_answer(&request, &answer);
}

/// The Stop button ends the language-model turn under way; its answer
/// then says what stayed done.
pub fn start_stop() {
    if let Some(button) = by_id("stop") {
        on(&button, "click", |_| {
            spawn_local(async {
                ask(&Request::AgentStop).await;
            })
        });
    }
}

/// A command's answer (typed or spoken): the status line, and the entry on
/// top of the conversation.
pub fn show_answer(request: &Request, answer: &Value) {
    let view = answer_view(request, answer);
    set_status(&if view.ok {
        t("statusDone", "Done")
    } else {
        t("statusError", "Error")
    });
    if let Some(list) = by_id("conversation") {
        let _ = list.prepend_with_node_1(&render_entry(&view));
    }
}

pub fn start_clear_history() {
    if let Some(button) = by_id("clear-history") {
        on(&button, "click", |_| {
            spawn_local(async {
                ask(&Request::ClearLog).await;
                show_history().await;
            });
        });
    }
}

pub async fn show_history() {
    let answer = ask(&Request::Log { limit: None }).await;
    let Some(list) = by_id("history") else {
        return;
    };
    list.set_text_content(None);
    let entries = answer
        .get("entries")
        .and_then(Value::as_array)
        .cloned()
        .unwrap_or_default();
    set_status(&entries_count(entries.len()));
    for entry in &entries {
        let _ = list.append_child(&render_entry(&log_view(entry)));
    }
}
