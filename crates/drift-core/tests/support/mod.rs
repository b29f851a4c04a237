//! Shared test support: a literal transcription of the model, a scenario
//! generator and its seedable generator.

#![allow(dead_code)]

pub mod generate;
pub mod reference;
pub mod rng;

/// A property-test configuration of `cases` cases that writes no file of
/// failing cases.
pub fn cases(cases: u32) -> proptest::prelude::ProptestConfig {
    proptest::prelude::ProptestConfig {
        cases,
        failure_persistence: None,
        ..proptest::prelude::ProptestConfig::default()
    }
}

/// `s` simulated; the engine's error fails the property.
pub fn simulated(
    s: &drift_core::Scenario,
) -> Result<drift_core::Run, proptest::test_runner::TestCaseError> {
    drift_core::simulate(s).map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}")))
}
