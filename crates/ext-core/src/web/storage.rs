//! `storage.local` as [`Storage`].

use super::bindings::{call, run, storage_get, storage_remove, storage_set, to_js};
use crate::browser::BrowserResult;
use crate::storage::Storage;
use serde_json::{json, Value};

pub struct LocalStorage;

impl Storage for LocalStorage {
    async fn load(&self, key: &str) -> BrowserResult<Option<Value>> {
        let mut items: Value = call(storage_get(key)).await?;
        Ok(items.get_mut(key).map(Value::take))
    }

    async fn save(&self, key: &str, value: &Value) -> BrowserResult<()> {
        run(storage_set(&to_js(&json!({ key: value })))).await
    }

    async fn remove(&self, key: &str) -> BrowserResult<()> {
        run(storage_remove(key)).await
    }
}
