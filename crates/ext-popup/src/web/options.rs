//! The options page: every setting as a form field saved on change, the
//! speech models (see [`super::models`]), Test connection, and the action
//! log.

use super::dom::{ask, by_id, document, element, on, t};
use super::history::{show_history, start_clear_history};
use crate::settings::{display, field_value, patch_for, value_at};
use ext_protocol::models::SPEECH_MODELS;
use ext_protocol::Request;
use serde_json::{json, Value};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::spawn_local;
use web_sys::{Element, HtmlInputElement, HtmlSelectElement};

pub fn start_options() {
    spawn_local(show_history());
    start_clear_history();
    add_known_models();
    start_settings();
    super::models::start();
}

/// The known speech models, in both model lists (after the "none" choice
/// the page has): the one list of them is [`SPEECH_MODELS`].
fn add_known_models() {
    for setting in ["speechModel", "speechWakeModel"] {
        let Some(select) = document()
            .query_selector(&format!("[data-setting='{setting}']"))
            .ok()
            .flatten()
        else {
            continue;
        };
        for model in SPEECH_MODELS {
            let option = element("option", "", &t(model.label_key, model.label));
            let _ = option.set_attribute("value", model.id);
            let _ = select.append_child(&option);
        }
    }
}

fn settings_status(text: &str, error: bool) {
    if let Some(s) = by_id("settings-status") {
        s.set_text_content(Some(text));
        s.set_class_name(if error { "error" } else { "" });
    }
}

/// The `[data-setting]` fields of the options page.
fn setting_fields() -> Vec<Element> {
    let Ok(list) = document().query_selector_all("[data-setting]") else {
        return Vec::new();
    };
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| n.dyn_into::<Element>().ok())
        .collect()
}

/// Shows `settings` in the fields.
fn fill_settings(answer: &Value) {
    fill_fields(&answer["settings"], None);
    show_key_state(answer);
    // Stored data that could not be read or saved: the user is told here.
    let notices: Vec<&str> = answer["notices"]
        .as_array()
        .map(|n| n.iter().filter_map(Value::as_str).collect())
        .unwrap_or_default();
    if !notices.is_empty() {
        settings_status(&notices.join(" "), true);
    }
}

/// The saved API key is never sent to pages: its field stays empty and
/// says whether a key is saved.
fn show_key_state(answer: &Value) {
    let Some(key) = document()
        .query_selector("[data-setting='llm.apiKey']")
        .ok()
        .flatten()
    else {
        return;
    };
    let hint = if answer["hasKey"] == true {
        t("keySaved", "A key is saved (type to replace it)")
    } else {
        String::new()
    };
    let _ = key.set_attribute("placeholder", &hint);
}

/// Shows `settings` in the fields, or only in the one for `only`: after a
/// save, the others may hold what is being typed and not yet saved.
pub fn fill_fields(settings: &Value, only: Option<&str>) {
    for field in setting_fields() {
        let path = field.get_attribute("data-setting").unwrap_or_default();
        if only.is_some_and(|only| only != path) {
            continue;
        }
        let Some(value) = value_at(settings, &path) else {
            continue;
        };
        if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
            if input.type_() == "checkbox" {
                input.set_checked(value.as_bool().unwrap_or(false));
            } else {
                input.set_value(&display(value));
            }
        } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
            select.set_value(&display(value));
        }
    }
}

/// Saves one field's change; on a refusal, says why and shows the setting
/// as it still is.
async fn save_setting(field: Element) {
    let path = field.get_attribute("data-setting").unwrap_or_default();
    let (kind, raw, checked) = if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
        let kind = if input.has_attribute("data-list") {
            "list".to_string()
        } else {
            input.type_()
        };
        (kind, input.value(), input.checked())
    } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
        ("select".to_string(), select.value(), false)
    } else {
        return;
    };
    let answer = match field_value(&kind, &raw, checked) {
        Ok(value) => {
            ask(&Request::SetSettings {
                settings: patch_for(&path, value),
            })
            .await
        }
        Err(e) => json!({ "ok": false, "error": { "message": e } }),
    };
    if answer["ok"] == true {
        settings_status(&t("settingsSaved", "Saved."), false);
        fill_fields(&answer["settings"], Some(&path));
        show_key_state(&answer);
    } else {
        // The field goes back first, so that when the reason is announced
        // the form already shows what is still set.
        let current = ask(&Request::Settings).await;
        fill_fields(&current["settings"], Some(&path));
        let message = answer["error"]["message"].as_str().unwrap_or("Not saved.");
        settings_status(message, true);
    }
}

fn start_settings() {
    let Some(form) = by_id("settings-form") else {
        return;
    };
    spawn_local(async {
        let answer = ask(&Request::Settings).await;
        fill_settings(&answer);
    });
    on(&form, "change", |event| {
        if let Some(field) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) {
            if field.has_attribute("data-setting") {
                spawn_local(save_setting(field));
            }
        }
    });
    on(&form, "submit", |event| event.prevent_default());
    let (Some(reveal), Some(key)) = (
        by_id("reveal-key"),
        document()
            .query_selector("[data-setting='llm.apiKey']")
            .ok()
            .flatten()
            .and_then(|e| e.dyn_into::<HtmlInputElement>().ok()),
    ) else {
        return;
    };
    start_llm_test();
    on(&reveal.clone(), "click", move |_| {
        let shown = key.type_() == "text";
        key.set_type(if shown { "password" } else { "text" });
        let label = if shown {
            t("showKey", "Show key")
        } else {
            t("hideKey", "Hide key")
        };
        reveal.set_text_content(Some(&label));
        let _ = reveal.set_attribute("aria-pressed", if shown { "false" } else { "true" });
    });
}

/// "Test connection": asks the language-model server (as the fields show
/// it, saved or not) for its models.
fn start_llm_test() {
    let Some(button) = by_id("llm-test") else {
        return;
    };
    on(&button.clone(), "click", move |_| {
        let say = |text: &str, error: bool| {
            if let Some(s) = by_id("llm-status") {
                s.set_text_content(Some(text));
                s.set_class_name(if error { "error" } else { "" });
            }
        };
        let mut shown = serde_json::Map::new();
        for field in setting_fields() {
            let path = field.get_attribute("data-setting").unwrap_or_default();
            let Some(key) = path.strip_prefix("llm.") else {
                continue;
            };
            let value = if let Some(input) = field.dyn_ref::<HtmlInputElement>() {
                input.value()
            } else if let Some(select) = field.dyn_ref::<HtmlSelectElement>() {
                select.value()
            } else {
                continue;
            };
            if matches!(key, "provider" | "baseUrl" | "model" | "apiKey") {
                shown.insert(key.to_string(), value.into());
            }
        }
        say(&t("llmTesting", "Asking the server for its models…"), false);
        // One test at a time: an older answer must not overwrite a newer.
        let _ = button.set_attribute("disabled", "");
        let button = button.clone();
        spawn_local(async move {
            let answer = ask(&Request::LlmTest {
                llm: Some(Value::Object(shown)),
            })
            .await;
            let _ = button.remove_attribute("disabled");
            match answer["reply"].as_str() {
                Some(reply) if answer["ok"] == true => say(reply, false),
                _ => say(
                    answer["error"]["message"].as_str().unwrap_or("Failed."),
                    true,
                ),
            }
        });
    });
}
