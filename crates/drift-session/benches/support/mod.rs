//! What the benchmarks share: drift-core's seedable generator (so every
//! generated session log is the same on every run and every machine), and
//! JSON string literals for the logs they write.
#![allow(dead_code)]

#[path = "../../../drift-core/tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}
