//! Shared test support: a literal transcription of the model, a scenario
//! generator and its seedable generator.

#![allow(dead_code)]

pub mod generate;
pub mod reference;
pub mod rng;
