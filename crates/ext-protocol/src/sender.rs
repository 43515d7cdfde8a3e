//! Who may talk to the background page: only the extension's own pages
//! and workers. Other add-ons arrive through `onMessageExternal` (not
//! listened to), web pages cannot message an add-on, and Tab Whisperer's
//! page scripts never send; this check is the line behind those.

use serde_json::Value;

/// Whether a `runtime.onMessage` / `onConnect` sender (`MessageSender` as
/// JSON) is one of the extension's own pages: its `id` is this extension's
/// and its `url` lies under the extension's origin (`moz-extension://<uuid>/`).
/// A content script (a sender with a `tab` on a web page) is not.
pub fn is_own_page(sender: &Value, extension_id: &str, extension_origin: &str) -> bool {
    let id_ok = sender.get("id").and_then(Value::as_str) == Some(extension_id);
    let url = sender
        .get("url")
        .and_then(Value::as_str)
        .unwrap_or_default();
    id_ok && is_under(url, extension_origin)
}

/// Whether `url` is a page or file under `origin` (`moz-extension://<uuid>/`).
pub fn is_under(url: &str, origin: &str) -> bool {
    let origin = origin.trim_end_matches('/');
    !origin.is_empty()
        && url
            .strip_prefix(origin)
            .is_some_and(|rest| rest.starts_with('/'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const ID: &str = "tab-whisperer@example.org";
    const ORIGIN: &str = "moz-extension://6f1d2a3b-7c4e-4f5a-9b8c-0d1e2f3a4b5c/";

    #[test]
    fn only_the_extensions_own_pages_are_heard() {
        let own = json!({ "id": ID, "url": format!("{ORIGIN}popup.html") });
        assert!(is_own_page(&own, ID, ORIGIN));
        let options_in_a_tab =
            json!({ "id": ID, "url": format!("{ORIGIN}options.html"), "tab": { "id": 4 } });
        assert!(is_own_page(&options_in_a_tab, ID, ORIGIN));
        for stranger in [
            json!({ "id": "other@example.org", "url": format!("{ORIGIN}popup.html") }),
            json!({ "id": ID, "url": "https://evil.example/", "tab": { "id": 3 } }),
            json!({ "id": ID, "url": "moz-extension://6f1d2a3b-7c4e-4f5a-9b8c-0d1e2f3a4b5c.evil/x" }),
            json!({ "id": ID, "url": "moz-extension://another-uuid/popup.html" }),
            json!({ "id": ID }),
            json!({}),
            json!(null),
        ] {
            assert!(!is_own_page(&stranger, ID, ORIGIN), "{stranger}");
        }
        assert!(!is_own_page(&own, ID, ""), "no origin known: nobody");
    }
}
