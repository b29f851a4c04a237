//! Properties of the model (docs/MODEL.md §8 invariants) over generated scenarios,
//! and the engine held to a literal transcription of the contract.

mod support;

use drift_core::{
    Kind, Outcome, PolicyChoice, Preset, Run, Scenario, parse_scenario, result_to_json,
    scenario_to_json, simulate,
};
use proptest::prelude::*;
use support::generate::{Shape, scenario};
use support::reference;

const TOLERANCE: f64 = 1e-9;

fn rank(o: Outcome) -> Option<u8> {
    o.rank()
}

/// Every action's outcome in `after` is at least as good as in `before`.
fn no_outcome_worse(before: &Run, after: &Run) -> Result<(), TestCaseError> {
    for (i, (b, a)) in before.actions().iter().zip(after.actions()).enumerate() {
        match (rank(b.outcome), rank(a.outcome)) {
            (Some(rb), Some(ra)) => prop_assert!(
                ra >= rb,
                "action {i}: {:?} became {:?}",
                b.outcome,
                a.outcome
            ),
            _ => prop_assert_eq!(b.outcome, a.outcome, "action {}", i),
        }
    }
    Ok(())
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= TOLERANCE
}

proptest! {
    #![proptest_config(support::cases(384))]

    /// The closed-form engine gives the literal reading's rounds, states and grades.
    #[test]
    fn engine_agrees_with_the_literal_reading(seed in any::<u64>()) {
        let s = scenario(seed, Shape::ANY);
        let run = support::simulated(&s)?;
        let literal = reference::run(&s);
        prop_assert_eq!(run.overflow_turn(), literal.overflow);
        prop_assert_eq!(run.rounds().len(), literal.rounds.len());
        for (j, (r, l)) in run.rounds().iter().zip(&literal.rounds).enumerate() {
            prop_assert_eq!(r.turn, l.turn);
            prop_assert_eq!(r.tokens_before, l.tokens_before, "round {}", j);
            prop_assert_eq!(r.tokens_after, l.tokens_after, "round {}", j);
            prop_assert_eq!(r.spills, l.spills, "round {}", j);
            prop_assert!(close(r.laundering_rate, l.rate), "round {}: rate {} vs {}", j, r.laundering_rate, l.rate);
            prop_assert_eq!(r.regime == drift_core::Regime::FabricatedHistory, l.fabricated);
            for (i, expected) in l.facts.iter().enumerate() {
                let actual = run.fact_state(i, j);
                match (actual, expected) {
                    (None, None) => {}
                    (Some((state, fs)), Some((name, ls))) => {
                        prop_assert_eq!(state.id(), *name, "fact {} round {}", i, j);
                        prop_assert_eq!(fs.depth, ls.depth, "fact {} round {}", i, j);
                        prop_assert_eq!(fs.unverified, ls.unverified, "fact {} round {}", i, j);
                        prop_assert!(close(fs.fidelity, ls.f), "fact {} round {}: f {} vs {}", i, j, fs.fidelity, ls.f);
                        prop_assert!(close(fs.fabrication_risk, ls.p), "fact {} round {}: p {} vs {}", i, j, fs.fabrication_risk, ls.p);
                    }
                    _ => prop_assert!(false, "fact {} round {}: exists {:?} vs {:?}", i, j, actual.is_some(), expected.is_some()),
                }
            }
        }
        for (i, (a, l)) in run.actions().iter().zip(&literal.actions).enumerate() {
            prop_assert_eq!(a.outcome, l.outcome, "action {}", i);
            prop_assert_eq!(a.resolved_resource, l.resolved, "action {}", i);
            prop_assert!(close(a.fidelity, l.fidelity), "action {}", i);
            prop_assert!(close(a.fabrication_risk, l.risk), "action {}", i);
        }
    }

    /// With every guard off, raising a retention never lowers any fidelity
    /// nor worsens any outcome.
    #[test]
    fn raising_a_retention_never_lowers_fidelity_nor_worsens_outcomes(
        seed in any::<u64>(), kind in 0usize..9, raise in 0.0f64..1.0,
    ) {
        let s = scenario(seed, Shape::NO_GUARDS);
        let kind = Kind::ALL[kind];
        let mut raised = s.clone();
        let old = s.retention.get(kind);
        raised.retention.set(kind, old + (1.0 - old) * raise);
        let (before, after) = (simulate(&s).unwrap(), simulate(&raised).unwrap());
        prop_assert_eq!(before.rounds().len(), after.rounds().len());
        for f in 0..s.facts.len() {
            for (b, a) in before.timeline(f).zip(after.timeline(f)) {
                prop_assert!(a.fact.fidelity >= b.fact.fidelity, "fact {} round {}", f, b.round);
            }
        }
        no_outcome_worse(&before, &after)?;
    }

    /// With every guard off, externalising or forwarding a fact never worsens
    /// any outcome.
    #[test]
    fn externalising_or_forwarding_never_worsens_outcomes(seed in any::<u64>(), pick in any::<usize>(), forward in any::<bool>()) {
        let s = scenario(seed, Shape::NO_GUARDS);
        let f = pick % s.facts.len();
        let mut changed = s.clone();
        if forward {
            changed.facts[f].forwarded = true;
        } else {
            changed.facts[f].externalised = true;
        }
        no_outcome_worse(&simulate(&s).unwrap(), &simulate(&changed).unwrap())?;
    }

    /// With uniform turn sizes and no token-sized tail, a larger window never
    /// adds rounds. A narrow window that overflows stops the session early, so
    /// the wider run is counted over the turns the narrow one reached.
    #[test]
    fn a_larger_window_never_adds_rounds(seed in any::<u64>(), extra in 1u64..50_000) {
        let s = scenario(seed, Shape { guards: false, uniform_turns: true, token_tail: false });
        let mut wider = s.clone();
        wider.harness.window_tokens += extra;
        let (narrow, wide) = (simulate(&s).unwrap(), simulate(&wider).unwrap());
        let reached = narrow.overflow_turn().unwrap_or(s.harness.turns);
        let wide_rounds = wide.rounds().iter().filter(|r| r.turn <= reached).count();
        prop_assert!(wide_rounds <= narrow.rounds().len(),
            "{} rounds at {} tokens, {} at {} (turns 1..={})", narrow.rounds().len(),
            s.harness.window_tokens, wide_rounds, wider.harness.window_tokens, reached);
    }

    /// The same input gives the same bytes; a scenario survives a write and a read.
    #[test]
    fn same_input_same_bytes_and_scenarios_round_trip(seed in any::<u64>()) {
        let s = scenario(seed, Shape::ANY);
        let text = scenario_to_json(&s);
        let back = parse_scenario(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &s);
        let (a, b) = (simulate(&s).unwrap(), simulate(&back).unwrap());
        prop_assert_eq!(result_to_json(&s, &a), result_to_json(&back, &b));
    }

    /// Reading never panics, whatever the text: a byte flipped in a valid file
    /// is a clear error or a valid scenario.
    #[test]
    fn reading_corrupted_files_never_panics(seed in any::<u64>(), at in any::<usize>(), byte in 0x20u8..0x7f) {
        let text = scenario_to_json(&scenario(seed, Shape::ANY));
        let mut bytes = text.into_bytes();
        let at = at % bytes.len();
        bytes[at] = byte;
        if let Ok(text) = String::from_utf8(bytes) {
            if let Ok(s) = parse_scenario(&text) {
                prop_assert!(simulate(&s).is_ok());
            } else {
                let message = parse_scenario(&text).unwrap_err().to_string();
                prop_assert!(!message.is_empty());
            }
        }
    }

    /// Arbitrary text is an error, never a panic.
    /// A scenario validated once runs as `simulate` runs it.
    #[test]
    fn a_validated_scenario_runs_as_simulate_runs_it(seed in any::<u64>()) {
        let s = scenario(seed, Shape::ANY);
        let run = support::simulated(&s)?;
        let valid = s.clone().into_valid().map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(valid.scenario(), &s);
        prop_assert_eq!(result_to_json(&s, &drift_core::simulate_valid(&valid)), result_to_json(&s, &run));
    }

    #[test]
    fn reading_arbitrary_text_never_panics(text in ".{0,200}") {
        let _ = parse_scenario(&text);
    }
}

/// A scenario edited in code (as the page does) is validated before it runs.
#[test]
fn an_invalid_edit_is_an_error_not_a_panic() {
    let mut s: Scenario = scenario(7, Shape::ANY);
    s.harness.turns = 0;
    assert!(simulate(&s).is_err());
    let mut s = scenario(7, Shape::ANY);
    s.retention.set(Kind::Binding, f64::NAN);
    assert!(simulate(&s).is_err());
    let mut s = scenario(7, Shape::ANY);
    s.policy = PolicyChoice::Preset(Preset::LettaSliding);
    s.harness.window_tokens = s.harness.system_tokens;
    assert!(simulate(&s).is_err());
    // Validating once says what simulating says.
    assert_eq!(s.clone().into_valid().err(), simulate(&s).err());
}
