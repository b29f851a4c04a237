//! What the benchmarks share: the tests' seedable generator, so every
//! generated input is the same on every run and every machine.

#![allow(dead_code)]

#[path = "../../tests/support/rng.rs"]
mod rng;
pub use rng::Rng;
