//! What is read back from storage: a newer version's fields are kept, and
//! data that cannot be read is kept aside rather than lost. Pure logic;
//! `Background` reads and writes.

use serde_json::{Map, Value};

/// Where unreadable stored data is kept, raw, under its own key.
pub fn backup_key(key: &str) -> String {
    format!("{key}.unreadable")
}

/// `stored` with only the fields `shape` (a value of the current type,
/// serialized) has, at every level of nested objects: what this version
/// can read of data a newer version wrote.
pub fn known_only(stored: &Value, shape: &Value) -> Value {
    match (stored, shape) {
        (Value::Object(s), Value::Object(k)) => Value::Object(
            s.iter()
                .filter_map(|(name, v)| k.get(name).map(|kv| (name.clone(), known_only(v, kv))))
                .collect::<Map<String, Value>>(),
        ),
        (v, _) => v.clone(),
    }
}

/// `current` (what this version saves) over `stored` (what was read), so
/// that fields only a newer version knows survive a save.
pub fn with_unknown(stored: &Value, current: &Value) -> Value {
    match (stored, current) {
        (Value::Object(s), Value::Object(c)) => {
            let mut out = s.clone();
            for (name, v) in c {
                let merged = match s.get(name) {
                    Some(old) => with_unknown(old, v),
                    None => v.clone(),
                };
                out.insert(name.clone(), merged);
            }
            Value::Object(out)
        }
        (_, c) => c.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_newer_versions_fields_are_read_around_and_saved_back() {
        let shape = json!({ "a": 1, "llm": { "model": "", "temperature": 0.0 } });
        let stored = json!({ "a": 5, "future": [1], "llm": { "model": "m", "topK": 3 } });
        assert_eq!(
            known_only(&stored, &shape),
            json!({ "a": 5, "llm": { "model": "m" } })
        );
        let saved = with_unknown(
            &stored,
            &json!({ "a": 6, "llm": { "model": "n", "temperature": 0.5 } }),
        );
        assert_eq!(
            saved,
            json!({ "a": 6, "future": [1], "llm": { "model": "n", "topK": 3, "temperature": 0.5 } })
        );
        // Nothing stored: just what is saved.
        assert_eq!(
            with_unknown(&Value::Null, &json!({ "a": 1 })),
            json!({ "a": 1 })
        );
    }
}
