//! Milliseconds for timings: `Instant` natively; in wasm, where `Instant`
//! panics, the worker's `performance.now()`.

#[cfg(not(target_arch = "wasm32"))]
pub fn now_ms() -> f64 {
    use std::sync::OnceLock;
    use std::time::Instant;
    static START: OnceLock<Instant> = OnceLock::new();
    START.get_or_init(Instant::now).elapsed().as_secs_f64() * 1000.0
}

#[cfg(target_arch = "wasm32")]
pub fn now_ms() -> f64 {
    use wasm_bindgen::JsCast;
    js_sys::Reflect::get(&js_sys::global(), &"performance".into())
        .ok()
        .and_then(|p| p.dyn_into::<web_sys_free::Performance>().ok())
        .map_or_else(js_sys::Date::now, |p| p.now())
}

#[cfg(target_arch = "wasm32")]
mod web_sys_free {
    //! `performance.now()` without pulling in web-sys for one call.
    use wasm_bindgen::prelude::*;

    #[wasm_bindgen]
    extern "C" {
        pub type Performance;
        #[wasm_bindgen(method)]
        pub fn now(this: &Performance) -> f64;
    }
}
