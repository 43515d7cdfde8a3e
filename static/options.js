// Loads the options page wasm (ext-popup); all logic lives there.
import init from "./pkg/ext_popup.js";
init();
