// Loads the background page's wasm (ext-core); all logic lives there.
import init from "./pkg/ext_core.js";
init();
