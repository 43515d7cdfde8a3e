// The speech worker: loads ext-worker's wasm, whose `serve` answers every message.
import init, { serve } from "./pkg/ext_worker.js";
await init();
serve();
