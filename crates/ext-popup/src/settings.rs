//! The options page's fields name their setting by a dotted path
//! (`data-setting="voice.wakePhrase"`); this turns the settings JSON into
//! field values and a field's change into the patch the background takes.

use serde_json::{Map, Value};

/// The value at a dotted path, e.g. `llm.provider`.
pub fn value_at<'a>(settings: &'a Value, path: &str) -> Option<&'a Value> {
    path.split('.').try_fold(settings, |v, key| v.get(key))
}

/// `{"voice": {"wakePhrase": value}}` for `voice.wakePhrase`.
pub fn patch_for(path: &str, value: Value) -> Value {
    path.rsplit('.').fold(value, |inner, key| {
        let mut map = Map::new();
        map.insert(key.to_string(), inner);
        Value::Object(map)
    })
}

/// A field's value as the setting's JSON: checkboxes are booleans,
/// number fields numbers (whole ones as integers), list fields (kind
/// "list") comma-separated words, the rest text.
pub fn field_value(input_type: &str, raw: &str, checked: bool) -> Result<Value, String> {
    match input_type {
        "checkbox" => Ok(Value::Bool(checked)),
        "list" => Ok(Value::Array(
            raw.split(',')
                .map(str::trim)
                .filter(|s| !s.is_empty())
                .map(|s| Value::String(s.to_string()))
                .collect(),
        )),
        "number" => {
            let n: f64 = raw
                .trim()
                .parse()
                .map_err(|_| format!("'{raw}' is not a number."))?;
            Ok(if n.fract() == 0.0 && n.abs() < 1e15 {
                Value::from(n as i64)
            } else {
                Value::from(n)
            })
        }
        _ => Ok(Value::String(raw.to_string())),
    }
}

/// How a setting shows in a text or number field.
pub fn display(value: &Value) -> String {
    match value {
        Value::String(s) => s.clone(),
        Value::Null => String::new(),
        Value::Array(items) => items
            .iter()
            .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
            .collect::<Vec<_>>()
            .join(", "),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn paths_read_and_patch_nested_settings() {
        let s = json!({"confirmThreshold": 10, "voice": {"wakePhrase": "hey fox"}});
        assert_eq!(value_at(&s, "voice.wakePhrase"), Some(&json!("hey fox")));
        assert_eq!(value_at(&s, "voice.missing"), None);
        assert_eq!(
            patch_for("voice.wakePhrase", json!("computer")),
            json!({"voice": {"wakePhrase": "computer"}})
        );
        assert_eq!(
            patch_for("confirmThreshold", json!(5)),
            json!({"confirmThreshold": 5})
        );
    }

    #[test]
    fn fields_become_typed_values() {
        assert_eq!(field_value("checkbox", "on", false), Ok(json!(false)));
        assert_eq!(field_value("number", " 20 ", false), Ok(json!(20)));
        assert_eq!(field_value("number", "0.5", false), Ok(json!(0.5)));
        assert!(field_value("number", "ten", false)
            .unwrap_err()
            .contains("not a number"));
        assert_eq!(field_value("text", "hey fox", false), Ok(json!("hey fox")));
        assert_eq!(
            field_value("list", " big, ,small ", false),
            Ok(json!(["big", "small"]))
        );
        assert_eq!(field_value("list", "", false), Ok(json!([])));
        assert_eq!(display(&json!(["big", "small"])), "big, small");
        assert_eq!(display(&json!(0.7)), "0.7");
        assert_eq!(display(&json!("en")), "en");
    }
}
