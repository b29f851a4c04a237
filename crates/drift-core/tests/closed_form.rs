//! The readings of a run that use each fact's course in closed form (the
//! round an explanation dates a loss to, the changes `round_losses` lists)
//! held to a walk over every round and every fact, as the definitions read;
//! and the benchmarks' per-round yardstick held to the engine, so the two
//! compared there do the same work.

mod support;

#[allow(dead_code)]
#[path = "../benches/support/per_round.rs"]
mod per_round;

use drift_core::{
    FactState, Guards, PolicyChoice, Preset, RoundState, Run, Scenario, StandingChange, builtin,
    builtin_ids, explain, round_losses, simulate,
};
use proptest::prelude::*;
use support::generate::{Shape, scenario as generated};

/// The first round of the stretch, ending just before `rounds_before`, after
/// each of which `fact` was below the line: every round walked.
fn below_since_walked(run: &Run, fact: usize, rounds_before: usize, thr: f64) -> Option<usize> {
    let mut since = None;
    for j in 0..rounds_before {
        match run.fact_state(fact, j) {
            Some((_, s)) if s.fidelity < thr => {
                since.get_or_insert(j);
            }
            _ => since = None,
        }
    }
    since
}

/// What a round did to a fact's standing, as the `losses` module's table
/// reads, first row first.
fn classify(
    state: RoundState,
    before: &FactState,
    after: &FactState,
    thr: f64,
) -> Option<StandingChange> {
    let degraded = before.fidelity < 1.0 || before.depth > 0 || before.unverified;
    Some(match state {
        RoundState::Spilled => StandingChange::Spilled,
        RoundState::Restored if degraded => StandingChange::Restored,
        RoundState::Dropped if before.fidelity > 0.0 => StandingChange::Dropped,
        _ if before.fidelity >= thr && after.fidelity < thr => StandingChange::CrossedBelow,
        _ if after.unverified && !before.unverified => StandingChange::Unverified,
        _ => return None,
    })
}

/// Per round, `(fact, change, before, after)` for every fact the round
/// changed: every fact visited at every round.
fn changes_walked(
    s: &Scenario,
    run: &Run,
) -> Vec<Vec<(usize, StandingChange, FactState, FactState)>> {
    let thr = s.model.actionable_threshold;
    let mut before: Vec<Option<FactState>> = vec![None; s.facts.len()];
    (0..run.rounds().len())
        .map(|j| {
            let mut changes = Vec::new();
            for (i, slot) in before.iter_mut().enumerate() {
                let Some((state, after)) = run.fact_state(i, j) else {
                    continue;
                };
                let prior = slot.unwrap_or(FactState::VERBATIM);
                *slot = Some(after);
                if let Some(what) = classify(state, &prior, &after, thr) {
                    changes.push((i, what, prior, after));
                }
            }
            changes
        })
        .collect()
}

fn agree(s: &Scenario) -> Result<(), TestCaseError> {
    let run = support::simulated(s)?;
    let thr = s.model.actionable_threshold;

    let walked = changes_walked(s, &run);
    let losses = round_losses(s, &run);
    prop_assert_eq!(losses.len(), walked.len());
    for (j, (round, walked)) in losses.iter().zip(&walked).enumerate() {
        let listed: Vec<_> = round
            .changes
            .iter()
            .map(|c| (c.fact, c.what, c.before, c.after))
            .collect();
        prop_assert_eq!(&listed, walked, "round {}", j + 1);
    }

    for (a, graded) in run.actions().iter().enumerate() {
        let Some(e) = explain(s, &run, a) else {
            continue;
        };
        let before = graded.rounds_before as usize;
        let Some((fact, round)) = per_round::below_the_line(e.cause) else {
            continue;
        };
        prop_assert_eq!(
            round,
            below_since_walked(&run, fact, before, thr),
            "{}: fact {}",
            &s.actions[a].id,
            &s.facts[fact].id
        );
    }
    Ok(())
}

fn yardstick_agrees(s: &Scenario) -> Result<(), TestCaseError> {
    let engine = per_round::engine(s);
    for keep in [per_round::Keep::Timelines, per_round::Keep::Latest] {
        let walked = per_round::check(s, keep);
        prop_assert_eq!(&walked, &engine, "{:?}", keep);
    }
    Ok(())
}

proptest! {
    #![proptest_config(support::cases(512))]

    #[test]
    fn closed_form_readings_agree_with_a_walk(seed in any::<u64>()) {
        agree(&generated(seed, Shape::ANY))?;
    }

    /// Heavy pressure and a high line: long exposures that cross the line
    /// late, spills and the gate's marks.
    #[test]
    fn closed_form_readings_agree_under_pressure(seed in any::<u64>(), pressure in 0.0..=1.0f64, line in 0.05..=1.0f64) {
        let mut s = generated(seed, Shape::ANY);
        s.model.pressure_sensitivity = pressure;
        s.model.actionable_threshold = line;
        agree(&s)?;
    }

    #[test]
    fn the_per_round_yardstick_finds_what_the_engine_finds(seed in any::<u64>(), pressure in 0.0..=1.0f64) {
        let mut s = generated(seed, Shape::ANY);
        s.model.pressure_sensitivity = pressure;
        yardstick_agrees(&s)?;
    }
}

#[test]
fn builtins_under_every_preset_and_guard_agree() {
    let all = Guards {
        reinject_constraints: true,
        verify_bindings: true,
        entailment_gate: true,
        commitment_audit: true,
    };
    let gate_and_audit = Guards {
        reinject_constraints: false,
        verify_bindings: false,
        ..all
    };
    for id in builtin_ids() {
        for preset in Preset::ALL {
            for guards in [Guards::default(), gate_and_audit, all] {
                let mut s = builtin(id).unwrap();
                s.policy = PolicyChoice::Preset(preset);
                s.guards = guards;
                agree(&s).unwrap();
                yardstick_agrees(&s).unwrap();
                // At the line's extremes: nothing is below 0; everything
                // summarised is below 1.
                for line in [0.0, 1.0] {
                    s.model.actionable_threshold = line;
                    agree(&s).unwrap();
                }
            }
        }
    }
}

#[test]
fn explaining_a_run_of_another_scenario_does_not_panic() {
    let a = builtin("payments-incident").unwrap();
    let b = builtin("coding-day").unwrap();
    for (s, other) in [(&a, &b), (&b, &a)] {
        let run = simulate(other).unwrap();
        for i in 0..s.actions.len().max(other.actions.len()) {
            if let Some(e) = explain(s, &run, i) {
                let _ = e.to_string();
            }
        }
    }
}
