//! The options page's speech models: the installed ones (with Remove),
//! Download of the chosen model from the hub or another address with live
//! progress, and Import of model files from disk.

use super::dom::{ask, by_id, connect, document, element, on, send, t};
use super::options::fill_fields;
use crate::models::{import_files, progress_view, size};
use ext_protocol::models::{is_known, NONE};
use ext_protocol::port::OPTIONS;
use ext_protocol::Request;
use js_sys::{Object, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{spawn_local, JsFuture};
use web_sys::{Element, HtmlButtonElement, HtmlInputElement, HtmlSelectElement};

pub fn start() {
    spawn_local(refresh());
    connect(OPTIONS, |message| show_event(&message["event"]));
    if let Some(button) = by_id("model-download") {
        on(&button, "click", |_| spawn_local(busy(download())));
    }
    if let Some(button) = by_id("model-import") {
        on(&button, "click", |_| spawn_local(busy(import())));
    }
}

fn say(text: &str, error: bool) {
    if let Some(status) = by_id("model-status") {
        status.set_text_content(Some(text));
        status.set_class_name(if error { "error" } else { "" });
    }
}

fn say_answer(answer: &Value, done: &str) {
    if answer["ok"] == true {
        say(done, false);
    } else {
        let message = answer["error"]["message"].as_str().unwrap_or("Failed.");
        say(message, true);
    }
}

/// Runs one model action with Download and Import disabled (one at a
/// time: the worker installs one model at once), then shows the list.
async fn busy(action: impl std::future::Future<Output = ()>) {
    let buttons: Vec<HtmlButtonElement> = document()
        .query_selector_all("#model-download, #model-import, #installed-models button")
        .map(|list| {
            (0..list.length())
                .filter_map(|i| list.item(i))
                .filter_map(|b| b.dyn_into().ok())
                .collect()
        })
        .unwrap_or_default();
    for b in &buttons {
        b.set_disabled(true);
    }
    show_progress(None);
    action.await;
    for b in &buttons {
        b.set_disabled(false);
    }
    refresh().await;
}

fn model_select() -> Option<HtmlSelectElement> {
    select_for("speechModel")
}

fn select_for(setting: &str) -> Option<HtmlSelectElement> {
    document()
        .query_selector(&format!("[data-setting='{setting}']"))
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into().ok())
}

fn input(id: &str) -> Option<HtmlInputElement> {
    by_id(id).and_then(|e| e.dyn_into().ok())
}

fn quantize() -> bool {
    document()
        .query_selector("[data-setting='speechQuantized']")
        .ok()
        .flatten()
        .and_then(|e| e.dyn_into::<HtmlInputElement>().ok())
        .is_some_and(|c| c.checked())
}

/// The installed models, each with Remove; the speech-model list gains
/// imported ones so that the one in use is always shown.
async fn refresh() {
    let answer = ask(&Request::ModelList).await;
    let settings = ask(&Request::Settings).await;
    let Some(list) = by_id("installed-models") else {
        return;
    };
    list.set_text_content(None);
    if answer["ok"] != true {
        return say_answer(&answer, "");
    }
    let in_use = settings["settings"]["speechModel"].as_str().unwrap_or(NONE);
    let installed: Vec<String> = answer["installed"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|m| m.as_str().map(String::from))
        .collect();
    if installed.is_empty() {
        let _ = list.append_child(&element(
            "li",
            "empty",
            &t("modelsNone", "No model installed yet."),
        ));
    }
    for id in &installed {
        let _ = list.append_child(&installed_item(id, id == in_use));
    }
    for select in ["speechModel", "speechWakeModel"]
        .into_iter()
        .filter_map(select_for)
    {
        for id in installed.iter().filter(|id| !is_known(id)) {
            let exists = select
                .query_selector(&format!("option[value='{id}']"))
                .ok()
                .flatten()
                .is_some();
            if !exists {
                let option = element("option", "", id);
                let _ = option.set_attribute("value", id);
                let _ = select.append_child(&option);
            }
        }
    }
    fill_fields(&settings["settings"], Some("speechModel"));
    fill_fields(&settings["settings"], Some("speechWakeModel"));
}

fn installed_item(id: &str, in_use: bool) -> Element {
    let li = element("li", "", "");
    let _ = li.set_attribute("data-model", id);
    let _ = li.append_child(&element("span", "model-name", id));
    if in_use {
        let _ = li.append_child(&element("span", "in-use", &t("modelInUse", "in use")));
    }
    let remove = element("button", "remove", &t("modelRemove", "Remove"));
    let _ = remove.set_attribute("type", "button");
    let _ = remove.set_attribute(
        "aria-label",
        &format!("{} {id}", t("modelRemove", "Remove")),
    );
    let id = id.to_string();
    on(&remove, "click", move |_| {
        let id = id.clone();
        spawn_local(busy(async move {
            let answer = ask(&Request::ModelRemove { model: id.clone() }).await;
            say_answer(&answer, &format!("{} {id}", t("modelRemoved", "Removed:")));
        }));
    });
    let _ = li.append_child(&remove);
    li
}

/// Gets the model chosen in the list: from the address given, or the hub.
async fn download() {
    let model = model_select().map(|s| s.value()).unwrap_or_default();
    if model.is_empty() || model == NONE {
        return say(&t("modelChooseFirst", "Choose a speech model first."), true);
    }
    let url = input("model-url")
        .map(|i| i.value().trim().to_string())
        .filter(|u| !u.is_empty());
    say(&format!("{} {model}…", t("modelGetting", "Getting")), false);
    let answer = ask(&Request::ModelInstall {
        model: model.clone(),
        url,
        quantize: Some(quantize()),
    })
    .await;
    if answer["ok"] != true {
        // A failed download leaves no half-full bar behind.
        show_progress(None);
    }
    let source = answer["source"].as_str().unwrap_or_default();
    say_answer(&answer, &installed(&answer, &format!("{model} ({source})")));
}

/// "Installed and in use: base (hub). Commands it is unsure of are
/// checked with tiny.en." when the bundled model was loaded beside it.
fn installed(answer: &Value, model: &str) -> String {
    let mut text = format!("{} {model}", t("modelInstalled", "Installed and in use:"));
    if let Some(second) = answer["second_opinion"].as_str() {
        let checked = t(
            "modelSecondOpinion",
            "Commands it is unsure of are checked with",
        );
        text.push_str(&format!(". {checked} {second}."));
    }
    text
}

/// Imports the picked files under the name given.
async fn import() {
    let name = input("import-name")
        .map(|i| i.value().trim().to_string())
        .unwrap_or_default();
    if name.is_empty() {
        return say(&t("importNoName", "Give the model a name."), true);
    }
    let files: Vec<web_sys::File> = input("import-files")
        .and_then(|i| i.files())
        .map(|list| (0..list.length()).filter_map(|i| list.get(i)).collect())
        .unwrap_or_default();
    let names: Vec<String> = files.iter().map(web_sys::File::name).collect();
    let chosen = match import_files(&names) {
        Ok(chosen) => chosen,
        Err(e) => return say(&e, true),
    };
    say(
        &format!("{} {name}…", t("modelImporting", "Importing")),
        false,
    );
    // The bytes go as ArrayBuffers (structured clone) beside the JSON.
    let request = Request::ModelImport {
        model: name.clone(),
        quantize: quantize(),
    };
    let json = serde_json::to_value(&request).unwrap_or_default();
    let message: Object = js_sys::JSON::parse(&json.to_string())
        .ok()
        .and_then(|m| m.dyn_into().ok())
        .unwrap_or_default();
    let set = |key: &str, value: &JsValue| {
        let _ = Reflect::set(&message, &key.into(), value);
    };
    for (key, at) in [
        ("config", chosen.config),
        ("tokenizer", chosen.tokenizer),
        ("weights", chosen.weights),
    ] {
        match JsFuture::from(files[at].array_buffer()).await {
            Ok(bytes) => set(key, &bytes),
            Err(_) => {
                return say(
                    &format!("{} {}", t("importUnreadable", "Could not read"), names[at]),
                    true,
                )
            }
        }
    }
    let answer = send(&message).await;
    say_answer(&answer, &installed(&answer, &name));
}

/// Download progress and quantizing, as they happen.
fn show_event(event: &Value) {
    if let Some(p) = progress_view(event) {
        show_progress(Some((p.loaded, p.total)));
        let mut text = format!(
            "{} {}: {}",
            t("modelDownloading", "Downloading"),
            p.file,
            size(p.loaded)
        );
        if let (Some(total), Some(percent)) = (p.total, p.percent) {
            text = format!("{text} / {} ({percent}%)", size(total));
        }
        say(&text, false);
    } else if event["type"] == "status" && event["state"] == "quantizing" {
        // The bar stays full: the download is done.
        say(&t("modelQuantizing", "Quantizing to 8 bits…"), false);
    }
}

/// The progress bar: bytes of the file so far (indeterminate when its size
/// is unknown), or hidden.
fn show_progress(progress: Option<(f64, Option<f64>)>) {
    let Some(bar) = by_id("model-progress") else {
        return;
    };
    match progress {
        Some((loaded, total)) => {
            let _ = bar.remove_attribute("hidden");
            match total {
                Some(total) => {
                    let _ = bar.set_attribute("max", &total.to_string());
                    let _ = bar.set_attribute("value", &loaded.to_string());
                }
                None => {
                    let _ = bar.remove_attribute("value");
                }
            }
        }
        None => {
            let _ = bar.set_attribute("hidden", "");
        }
    }
}
