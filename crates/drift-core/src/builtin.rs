//! The built-in scenarios: scenario@1 files compiled into the crate.

use crate::scenario::Scenario;
use crate::wire::parse_scenario;

/// `(id, file)` for every built-in scenario, in the order they are listed.
const FILES: [(&str, &str); 5] = [
    (
        "payments-incident",
        include_str!("../scenarios/payments-incident.json"),
    ),
    (
        "staging-migration",
        include_str!("../scenarios/staging-migration.json"),
    ),
    (
        "dependency-pin",
        include_str!("../scenarios/dependency-pin.json"),
    ),
    (
        "planning-scratchpad",
        include_str!("../scenarios/planning-scratchpad.json"),
    ),
    ("coding-day", include_str!("../scenarios/coding-day.json")),
];

/// The ids of the built-in scenarios, in display order.
pub fn builtin_ids() -> impl ExactSizeIterator<Item = &'static str> {
    FILES.iter().map(|(id, _)| *id)
}

/// The built-in scenario `id`, parsed and validated; `None` for an unknown id.
///
/// # Example
///
/// ```
/// let s = drift_core::builtin("staging-migration").unwrap();
/// assert_eq!(s.id, "staging-migration");
/// assert!(drift_core::builtin("nope").is_none());
/// ```
pub fn builtin(id: &str) -> Option<Scenario> {
    let (_, text) = FILES.iter().find(|(name, _)| *name == id)?;
    parse_scenario(text).ok()
}

/// The built-in scenario file `id` as written.
pub fn builtin_source(id: &str) -> Option<&'static str> {
    FILES.iter().find(|(name, _)| *name == id).map(|(_, t)| *t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_parses_and_carries_its_own_id() {
        for (id, text) in FILES {
            let s = parse_scenario(text).unwrap_or_else(|e| panic!("{id}: {e}"));
            assert_eq!(s.id, id);
            assert!(!s.title.is_empty() && !s.description.is_empty(), "{id}");
            for a in &s.actions {
                assert!(!a.consequence.is_empty(), "{id}/{}", a.id);
            }
        }
    }
}
