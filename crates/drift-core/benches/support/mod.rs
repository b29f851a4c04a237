//! What the benchmarks share: the tests' seedable generator, so every
//! generated input is the same on every run and every machine, and JSON
//! string literals for the session logs they write. (Each benchmark uses part of
//! it.)
#![allow(dead_code)]

#[path = "../../tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}
