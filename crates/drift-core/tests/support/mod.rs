//! Shared test support: a literal transcription of the model and a scenario
//! generator.

#![allow(dead_code)]

pub mod generate;
pub mod reference;
