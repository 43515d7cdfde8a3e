//! The one-time microphone page.

use super::dom::{document, t};
use wasm_bindgen::prelude::*;

/// The one-time microphone page: Firefox asks here (a tab can show the
/// prompt; the background page cannot), and remembers the answer for the
/// whole extension.
pub fn start_permission() {
    let status = document().get_element_by_id("permission-status");
    let say = move |key: &str, fallback: &str| {
        if let Some(s) = &status {
            s.set_text_content(Some(&t(key, fallback)));
        }
    };
    wasm_bindgen_futures::spawn_local(async move {
        let constraints = web_sys::MediaStreamConstraints::new();
        constraints.set_audio(&JsValue::TRUE);
        let asked = web_sys::window()
            .and_then(|w| w.navigator().media_devices().ok())
            .and_then(|d| d.get_user_media_with_constraints(&constraints).ok());
        let Some(asked) = asked else {
            return say(
                "permissionUnavailable",
                "This Firefox has no microphone access.",
            );
        };
        match wasm_bindgen_futures::JsFuture::from(asked).await {
            Ok(stream) => {
                let stream: web_sys::MediaStream = stream.unchecked_into();
                for track in stream.get_tracks().iter() {
                    if let Ok(track) = track.dyn_into::<web_sys::MediaStreamTrack>() {
                        track.stop();
                    }
                }
                say("permissionGranted", "Microphone allowed. Close this tab and start listening again.");
            }
            Err(_) => say(
                "permissionDenied",
                "The microphone was not allowed. Allow it from the microphone icon in the address bar, then reload this page.",
            ),
        }
    });
}
