//! Persistent key-value storage (`storage.local` in Firefox).

use crate::browser::BrowserResult;
use serde_json::Value;
use std::cell::RefCell;
use std::collections::HashMap;

#[allow(async_fn_in_trait)]
pub trait Storage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>>;
    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()>;
    async fn remove(&self, key: &str) -> BrowserResult<()>;
}

/// Storage in memory, for tests and `twctl`.
#[derive(Debug, Default)]
pub struct MemoryStorage(RefCell<HashMap<String, Value>>);

impl Storage for MemoryStorage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>> {
        Ok(self.0.borrow().get(key).cloned())
    }
    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()> {
        self.0.borrow_mut().insert(key.to_string(), value.clone());
        Ok(())
    }
    async fn remove(&self, key: &str) -> BrowserResult<()> {
        self.0.borrow_mut().remove(key);
        Ok(())
    }
}

impl MemoryStorage {
    /// The keys stored, sorted (for tests).
    pub fn keys(&self) -> Vec<String> {
        let mut keys: Vec<String> = self.0.borrow().keys().cloned().collect();
        keys.sort();
        keys
    }
}
