//! The one place the page touches localStorage.
//!
//! Settings are stored as the same versioned query string a link carries, so
//! a saved session and a shared link are read by the same, strict decoder.
//! The string is kept as a JSON string literal (in quotes), as earlier
//! versions of the page wrote it.

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

fn storage() -> Option<web_sys::Storage> {
    leptos::prelude::window().local_storage().ok().flatten()
}

/// The saved settings.
pub fn load() -> Saved {
    let Some(saved) = storage().and_then(|s| s.get_item(KEY).ok().flatten()) else {
        return Saved::Nothing;
    };
    // A query string needs no escapes inside its quotes.
    match saved
        .strip_prefix('"')
        .and_then(|s| s.strip_suffix('"'))
        .filter(|s| !s.contains(['"', '\\']))
    {
        Some(query) => Saved::Found(query.to_string()),
        None => Saved::Unreadable(format!(
            "it is not a quoted query string ({} characters)",
            saved.len()
        )),
    }
}

/// Saves the settings. A full or disabled storage is not worth interrupting
/// anyone for: the link still carries everything.
pub fn save(query: &str) {
    if let Some(s) = storage() {
        let _ = s.set_item(KEY, &format!("\"{query}\""));
    }
}
