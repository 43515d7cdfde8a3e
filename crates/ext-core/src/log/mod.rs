//! The action log: every command and tool call, what it did and answered.
//! Kept in `storage.local` so it survives a browser restart, in pages
//! ([`book`]); pruned to the
//! settings' retention (the newest 500 entries of the last 30 days unless
//! changed, see [`crate::settings::Settings`]).

pub mod book;

pub use book::{LogBook, Retention};
pub use ext_protocol::log::{Call, LogEntry, LoggedCall};
use serde_json::{json, Value};

/// A logged call's arguments or result above this size (JSON bytes) is
/// shortened, so that listing 1,000 tabs does not bloat the log.
const MAX_VALUE_BYTES: usize = 4096;

/// The call as the log keeps it: big values shortened ([`compact`]).
pub fn compacted(call: &LoggedCall) -> LoggedCall {
    LoggedCall {
        tool: call.tool.clone(),
        args: compact(&call.args),
        result: compact(&call.result),
    }
}

/// Drops entries older than `max_age_ms`, then all but the newest
/// `max_entries` (the settings' retention).
pub fn prune(entries: &mut Vec<LogEntry>, now: f64, max_age_ms: f64, max_entries: usize) {
    entries.retain(|e| now - e.time <= max_age_ms);
    if entries.len() > max_entries {
        let excess = entries.len() - max_entries;
        entries.drain(..excess);
    }
}

/// A value small enough to log: big arrays become their length.
pub fn compact(v: &Value) -> Value {
    if v.to_string().len() <= MAX_VALUE_BYTES {
        return v.clone();
    }
    match v {
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(k, v)| (k.clone(), compact_field(v)))
                .collect(),
        ),
        other => compact_field(other),
    }
}

fn compact_field(v: &Value) -> Value {
    match v {
        Value::Array(items) => json!({ "omitted": items.len() }),
        Value::String(s) if s.len() > 256 => {
            let cut: String = s.chars().take(256).collect();
            json!(format!("{cut}…"))
        }
        Value::Object(_) if v.to_string().len() > MAX_VALUE_BYTES => json!({ "omitted": 1 }),
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: usize, time: f64) -> LogEntry {
        LogEntry {
            id: id.to_string(),
            time,
            command: None,
            calls: vec![],
            reply: String::new(),
            error: None,
            undo_id: None,
        }
    }

    #[test]
    fn prune_keeps_newest_500_within_30_days() {
        let settings = crate::settings::Settings::default();
        let (max_age, max_entries) = (settings.log_max_age_ms(), settings.log_max_entries);
        let now = 100.0 * 24.0 * 3600.0 * 1000.0;
        let day = 24.0 * 3600.0 * 1000.0;
        let mut entries: Vec<LogEntry> = (0..40)
            .map(|i| entry(i, now - 40.0 * day + i as f64 * day))
            .collect();
        entries.extend((40..640).map(|i| entry(i, now - 1000.0 + i as f64)));
        prune(&mut entries, now, max_age, max_entries);
        assert_eq!(entries.len(), 500);
        assert_eq!(entries.last().unwrap().id, "639");
        assert_eq!(entries.first().unwrap().id, "140");
        let mut old = vec![entry(0, now - 31.0 * day), entry(1, now - 29.0 * day)];
        prune(&mut old, now, max_age, max_entries);
        assert_eq!(old.iter().map(|e| e.id.as_str()).collect::<Vec<_>>(), ["1"]);
    }

    #[test]
    fn compact_shortens_big_arrays_only() {
        let small = json!({"tabs": [1, 2, 3], "count": 3});
        assert_eq!(compact(&small), small);
        let big = json!({"tabs": vec!["x".repeat(100); 100], "count": 100});
        assert_eq!(
            compact(&big),
            json!({"tabs": {"omitted": 100}, "count": 100})
        );
    }
}
