// Loads the page's wasm (ext-popup); all logic lives there.
import init from "./pkg/ext_popup.js";
init();
