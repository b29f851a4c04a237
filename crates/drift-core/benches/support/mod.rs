//! What the benchmarks share: the tests' seedable generator, so every
//! generated input is the same on every run and every machine, and the
//! stress session made with it.

#![allow(dead_code)]

pub mod per_round;
#[path = "../../tests/support/rng.rs"]
mod rng;
pub mod stress;
pub use rng::Rng;
