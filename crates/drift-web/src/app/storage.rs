//! The one place the page touches localStorage.
//!
//! Settings are stored as the same versioned query string a link carries, so
//! a saved session and a shared link are read by the same, strict decoder.

use gloo_storage::errors::StorageError;
use gloo_storage::{LocalStorage, Storage};

const KEY: &str = "compaction-drift/settings";

/// What storage holds for the page.
#[derive(Debug)]
pub enum Saved {
    /// Nothing saved (or storage unavailable).
    Nothing,
    /// Saved settings, as a query string.
    Found(String),
    /// Something is saved that is not ours to read.
    Unreadable(String),
}

/// The saved settings.
pub fn load() -> Saved {
    match LocalStorage::get::<String>(KEY) {
        Ok(query) => Saved::Found(query),
        Err(StorageError::KeyNotFound(_)) => Saved::Nothing,
        Err(StorageError::JsError(_)) => Saved::Nothing,
        Err(e) => Saved::Unreadable(e.to_string()),
    }
}

/// Saves the settings. A full or disabled storage is not worth interrupting
/// anyone for: the link still carries everything.
pub fn save(query: &str) {
    let _ = LocalStorage::set(KEY, query);
}
