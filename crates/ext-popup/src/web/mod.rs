//! Draws the popup, the options page and the microphone permission page,
//! one module each, on shared DOM helpers ([`dom`]).

mod dom;
mod history;
mod models;
mod options;
mod permission;
mod popup;

use wasm_bindgen::prelude::*;

#[wasm_bindgen(start)]
pub fn start() {
    let page = dom::document()
        .body()
        .and_then(|b| b.get_attribute("data-page"))
        .unwrap_or_default();
    dom::translate_page();
    match page.as_str() {
        "options" => options::start_options(),
        "permission" => permission::start_permission(),
        _ => popup::start_popup(),
    }
}
