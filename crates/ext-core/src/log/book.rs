//! How the action log is stored: in pages of [`PAGE_ENTRIES`] entries
//! under their own keys, with an index of the pages under `actionLog`, so
//! that a command rewrites one page (two when the oldest entries expire),
//! not the whole log. Pure logic: [`LogBook`] answers the writes to make
//! and `Background` makes them.

use super::{prune, LogEntry};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The key of the index; older versions kept the whole log there as one
/// array, which [`LogBook::from_legacy`] turns into pages.
pub const INDEX_KEY: &str = "actionLog";

/// Entries per stored page.
pub const PAGE_ENTRIES: usize = 25;

/// The key a page is stored under.
pub fn page_key(number: u64) -> String {
    format!("{INDEX_KEY}.page.{number}")
}

/// What is stored under [`INDEX_KEY`]: the page numbers, oldest first.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct LogIndex {
    pub pages: Vec<u64>,
}

/// One storage write: `value` saved under `key`, or the key removed.
#[derive(Clone, Debug, PartialEq)]
pub struct LogWrite {
    pub key: String,
    pub value: Option<Value>,
}

#[derive(Clone, Copy, Debug)]
struct Page {
    number: u64,
    len: usize,
}

/// The log in memory, and how it is split into stored pages.
#[derive(Clone, Debug, Default)]
pub struct LogBook {
    entries: Vec<LogEntry>,
    /// Consecutive runs of `entries`, oldest first.
    pages: Vec<Page>,
}

/// The retention the settings ask for.
#[derive(Clone, Copy, Debug)]
pub struct Retention {
    pub now: f64,
    pub max_age_ms: f64,
    pub max_entries: usize,
}

impl LogBook {
    /// The log read back from its pages (in the index's order); pages
    /// that are missing count as empty.
    pub fn from_pages(pages: Vec<(u64, Vec<LogEntry>)>) -> Self {
        let mut book = LogBook::default();
        for (number, entries) in pages {
            book.pages.push(Page {
                number,
                len: entries.len(),
            });
            book.entries.extend(entries);
        }
        book
    }

    /// An older version's log (one array under [`INDEX_KEY`]) as pages,
    /// with the writes that store it so.
    pub fn from_legacy(entries: Vec<LogEntry>) -> (Self, Vec<LogWrite>) {
        let mut book = LogBook::default();
        for (i, chunk) in entries.chunks(PAGE_ENTRIES).enumerate() {
            book.pages.push(Page {
                number: i as u64,
                len: chunk.len(),
            });
        }
        book.entries = entries;
        let mut writes: Vec<LogWrite> = (0..book.pages.len()).map(|i| book.page_write(i)).collect();
        writes.push(book.index_write());
        (book, writes)
    }

    pub fn entries(&self) -> &[LogEntry] {
        &self.entries
    }

    /// Adds `entry`, drops what the retention no longer keeps, and answers
    /// the writes: the last page, the first page if some of its entries
    /// expired, the index if pages came or went, and the pages that went.
    pub fn append(&mut self, entry: LogEntry, retention: Retention) -> Vec<LogWrite> {
        let mut new_page = false;
        match self.pages.last_mut() {
            Some(page) if page.len < PAGE_ENTRIES => page.len += 1,
            _ => {
                let number = self.pages.last().map_or(0, |p| p.number + 1);
                self.pages.push(Page { number, len: 1 });
                new_page = true;
            }
        }
        self.entries.push(entry);

        let before = self.entries.len();
        prune(
            &mut self.entries,
            retention.now,
            retention.max_age_ms,
            retention.max_entries,
        );
        let mut dropped = before - self.entries.len();
        let mut gone = Vec::new();
        let mut first_changed = false;
        while dropped > 0 {
            let first = &mut self.pages[0];
            if first.len <= dropped {
                dropped -= first.len;
                gone.push(self.pages.remove(0).number);
            } else {
                first.len -= dropped;
                dropped = 0;
                first_changed = true;
            }
        }

        let mut writes = Vec::new();
        if let Some(last) = self.pages.len().checked_sub(1) {
            writes.push(self.page_write(last));
            if first_changed && last != 0 {
                writes.push(self.page_write(0));
            }
        }
        if new_page || !gone.is_empty() {
            writes.push(self.index_write());
        }
        // Removed after the index stops naming them.
        writes.extend(gone.into_iter().map(|n| LogWrite {
            key: page_key(n),
            value: None,
        }));
        writes
    }

    /// Empties the log, answering the writes that do so.
    pub fn clear(&mut self) -> Vec<LogWrite> {
        let gone: Vec<u64> = self.pages.drain(..).map(|p| p.number).collect();
        self.entries.clear();
        let mut writes = vec![self.index_write()];
        writes.extend(gone.into_iter().map(|n| LogWrite {
            key: page_key(n),
            value: None,
        }));
        writes
    }

    fn page_write(&self, index: usize) -> LogWrite {
        let start: usize = self.pages[..index].iter().map(|p| p.len).sum();
        let page = self.pages[index];
        LogWrite {
            key: page_key(page.number),
            value: Some(
                serde_json::to_value(&self.entries[start..start + page.len]).unwrap_or(Value::Null),
            ),
        }
    }

    fn index_write(&self) -> LogWrite {
        let index = LogIndex {
            pages: self.pages.iter().map(|p| p.number).collect(),
        };
        LogWrite {
            key: INDEX_KEY.to_string(),
            value: Some(serde_json::to_value(index).unwrap_or(Value::Null)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    const DAY: f64 = 24.0 * 3600.0 * 1000.0;

    fn entry(id: usize, time: f64) -> LogEntry {
        LogEntry {
            id: id.to_string(),
            time,
            command: Some(format!("close tab number {id}")),
            calls: vec![],
            reply: "Closed 1 tab(s).".into(),
            error: None,
            undo_id: None,
        }
    }

    fn keep(max_entries: usize, now: f64) -> Retention {
        Retention {
            now,
            max_age_ms: 30.0 * DAY,
            max_entries,
        }
    }

    /// Applies writes to a map, as storage would.
    fn apply(store: &mut HashMap<String, Value>, writes: &[LogWrite]) {
        for w in writes {
            match &w.value {
                Some(v) => store.insert(w.key.clone(), v.clone()),
                None => store.remove(&w.key),
            };
        }
    }

    /// The log as a fresh start reads it back from `store`.
    fn read_back(store: &HashMap<String, Value>) -> Vec<String> {
        let index: LogIndex = serde_json::from_value(store[INDEX_KEY].clone()).unwrap();
        let pages = index
            .pages
            .iter()
            .map(|&n| {
                let entries = store
                    .get(&page_key(n))
                    .map(|v| serde_json::from_value(v.clone()).unwrap())
                    .unwrap_or_default();
                (n, entries)
            })
            .collect();
        LogBook::from_pages(pages)
            .entries()
            .iter()
            .map(|e| e.id.clone())
            .collect()
    }

    #[test]
    fn an_append_writes_a_page_or_two_however_long_the_log() {
        let mut store = HashMap::new();
        let mut book = LogBook::default();
        let mut page_sized = 0;
        for i in 0..1200 {
            let writes = book.append(entry(i, i as f64), keep(500, 1200.0));
            let written: usize = writes
                .iter()
                .filter_map(|w| w.value.as_ref())
                .map(|v| v.to_string().len())
                .sum();
            page_sized = page_sized.max(written);
            let pages_written = writes
                .iter()
                .filter(|w| w.value.is_some() && w.key != INDEX_KEY)
                .count();
            assert!(pages_written <= 2, "append {i} wrote {pages_written} pages");
            apply(&mut store, &writes);
        }
        // Two pages' worth at most, against ~50 kB for the whole log.
        let whole = serde_json::to_string(book.entries()).unwrap().len();
        assert!(page_sized * 10 < whole, "{page_sized} bytes vs {whole}");
        let ids = read_back(&store);
        assert_eq!(ids.len(), 500);
        assert_eq!(ids.first().map(String::as_str), Some("700"));
        assert_eq!(ids.last().map(String::as_str), Some("1199"));
        // Expired pages are removed from storage, not left behind.
        let page_keys = store.keys().filter(|k| *k != INDEX_KEY).count();
        let index: LogIndex = serde_json::from_value(store[INDEX_KEY].clone()).unwrap();
        assert_eq!(page_keys, index.pages.len());
        assert!(page_keys <= 500 / PAGE_ENTRIES + 1, "{page_keys} pages");
    }

    #[test]
    fn entries_older_than_the_retention_go_with_their_pages() {
        let mut store = HashMap::new();
        let mut book = LogBook::default();
        for i in 0..60 {
            apply(
                &mut store,
                &book.append(entry(i, i as f64 * DAY), keep(500, i as f64 * DAY)),
            );
        }
        // Days 0..59 logged; on day 59 the last 31 days are kept.
        let ids = read_back(&store);
        assert_eq!(ids.first().map(String::as_str), Some("29"));
        assert_eq!(ids.len(), 31);
    }

    #[test]
    fn an_older_versions_log_becomes_pages_and_clear_removes_them() {
        let legacy: Vec<LogEntry> = (0..60).map(|i| entry(i, i as f64)).collect();
        let (mut book, writes) = LogBook::from_legacy(legacy);
        let mut store = HashMap::new();
        apply(&mut store, &writes);
        assert_eq!(read_back(&store).len(), 60);
        assert_eq!(store.len(), 1 + 3);
        apply(&mut store, &book.append(entry(60, 60.0), keep(500, 60.0)));
        assert_eq!(read_back(&store).last().map(String::as_str), Some("60"));
        apply(&mut store, &book.clear());
        assert_eq!(store.len(), 1);
        assert!(read_back(&store).is_empty());
    }
}
