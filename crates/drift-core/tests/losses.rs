//! Round-by-round losses: a snapshot over the built-in scenarios, named
//! cases, and the definitions of the module docs checked on generated
//! scenarios.

mod support;

use std::fmt::Write as _;

use drift_core::{
    Cause, FactState, Guards, Outcome, PolicyChoice, Preset, Reason, Run, Scenario, builtin,
    builtin_ids, explain, simulate,
};
use drift_core::{RoundLoss, StandingChange, round_losses};
use proptest::prelude::*;
use support::generate::{Shape, scenario as generated};

/// One line per round, one indented line per change.
fn render(s: &Scenario, run: &Run, losses: &[RoundLoss]) -> String {
    let mut out = String::new();
    for round in losses {
        let r = &run.rounds()[round.round];
        let _ = writeln!(out, "  round {} (turn {})", r.index, round.turn);
        for c in &round.changes {
            let affects: Vec<&str> = c
                .affects
                .iter()
                .map(|&a| s.actions[a].id.as_str())
                .collect();
            let _ = writeln!(
                out,
                "    {} {} {:.4} -> {:.4}{}{}",
                s.facts[c.fact].id,
                c.what.id(),
                c.before.fidelity,
                c.after.fidelity,
                if c.after.unverified {
                    " unverified"
                } else {
                    ""
                },
                if affects.is_empty() {
                    String::new()
                } else {
                    format!(" | {}", affects.join(", "))
                }
            );
        }
    }
    out
}

fn losses_of(s: &Scenario) -> (Run, Vec<RoundLoss>) {
    let run = simulate(s).unwrap();
    let losses = round_losses(s, &run);
    (run, losses)
}

fn variant(id: &str, preset: Option<Preset>, guards: Guards) -> Scenario {
    let mut s = builtin(id).unwrap();
    if let Some(p) = preset {
        s.policy = PolicyChoice::Preset(p);
    }
    s.guards = guards;
    s
}

/// The built-in scenario `id` under its own policy with the guards `set`
/// turns on.
fn guarded(id: &str, set: fn(&mut Guards)) -> Scenario {
    let mut guards = Guards::default();
    set(&mut guards);
    variant(id, None, guards)
}

const GATE_AND_AUDIT: Guards = Guards {
    reinject_constraints: false,
    verify_bindings: false,
    entailment_gate: true,
    commitment_audit: true,
};

#[test]
fn builtin_round_losses() {
    let mut text = String::new();
    for id in builtin_ids() {
        for (label, preset, guards) in [
            ("own policy", None, Guards::default()),
            (
                "sliding_window",
                Some(Preset::SlidingWindow),
                Guards::default(),
            ),
            ("gate and audit", None, GATE_AND_AUDIT),
        ] {
            let s = variant(id, preset, guards);
            let (run, losses) = losses_of(&s);
            let _ = writeln!(text, "{id}, {label} ({}):", run.policy_id());
            text.push_str(&render(&s, &run, &losses));
        }
    }
    insta::assert_snapshot!("builtin_round_losses", text);
}

fn change<'a>(
    s: &Scenario,
    losses: &'a [RoundLoss],
    round: usize,
    fact: &str,
) -> &'a drift_core::FactChange {
    let f = s.fact_index(fact).unwrap();
    losses[round]
        .changes
        .iter()
        .find(|c| c.fact == f)
        .unwrap_or_else(|| panic!("{fact} has no change in round {}", round + 1))
}

fn ids(s: &Scenario, actions: &[usize]) -> Vec<String> {
    actions.iter().map(|&a| s.actions[a].id.clone()).collect()
}

#[test]
fn the_freeze_crosses_below_at_round_3_and_costs_two_later_actions() {
    let s = builtin("payments-incident").unwrap();
    let (_, losses) = losses_of(&s);
    assert_eq!(losses.len(), 5);
    let freeze = change(&s, &losses, 2, "payments-freeze");
    assert_eq!(losses[2].turn, 44);
    assert_eq!(freeze.what, StandingChange::CrossedBelow);
    assert_eq!(freeze.before.fidelity, 0.5625);
    assert_eq!(freeze.after.fidelity, 0.421875);
    assert_eq!(
        ids(&s, &freeze.affects),
        ["restart-ledger-replica", "rollback-payments"]
    );
    // No other round lists the freeze: it is summarised every round but
    // crosses the line once.
    let f = s.fact_index("payments-freeze").unwrap();
    for (j, round) in losses.iter().enumerate() {
        assert_eq!(
            round.changes.iter().any(|c| c.fact == f),
            j == 2,
            "round {}",
            j + 1
        );
    }
    // The carve-out went first, at round 2; the residency rule with the freeze.
    let carve = change(&s, &losses, 1, "ledger-carve-out");
    assert_eq!(ids(&s, &carve.affects), ["restart-ledger-replica"]);
    let residency = change(&s, &losses, 2, "eu-residency");
    // The delegated notice never saw it: that is not the round's doing.
    assert_eq!(ids(&s, &residency.affects), ["copy-eu-logs"]);
    let correction = change(&s, &losses, 3, "spike-correction");
    assert_eq!(ids(&s, &correction.affects), ["revert-0840-deploy"]);
    assert!(losses[0].changes.is_empty() && losses[4].changes.is_empty());
}

#[test]
fn a_drifted_binding_affects_the_misbound_actions() {
    let s = builtin("staging-migration").unwrap();
    let (run, losses) = losses_of(&s);
    let staging = change(&s, &losses, 1, "staging-db");
    assert_eq!(staging.what, StandingChange::CrossedBelow);
    assert_eq!(ids(&s, &staging.affects), ["run-migration"]);
    let a = s
        .actions
        .iter()
        .position(|a| a.id == "run-migration")
        .unwrap();
    assert_eq!(run.actions()[a].outcome, Outcome::Misbound);
    // With verify_bindings the same loss is the reason for a refusal.
    let s = guarded("staging-migration", |g| g.verify_bindings = true);
    let (run, losses) = losses_of(&s);
    assert_eq!(run.actions()[a].reason, Reason::BindingUnconfirmed);
    assert_eq!(
        ids(&s, &change(&s, &losses, 1, "staging-db").affects),
        ["run-migration"]
    );
}

#[test]
fn a_sliding_window_drops_and_the_audit_spills() {
    let s = variant(
        "payments-incident",
        Some(Preset::SlidingWindow),
        Guards::default(),
    );
    let (_, losses) = losses_of(&s);
    let freeze = change(&s, &losses, 0, "payments-freeze");
    assert_eq!(freeze.what, StandingChange::Dropped);
    assert_eq!(freeze.after.fidelity, 0.0);
    assert_eq!(
        ids(&s, &freeze.affects),
        ["restart-ledger-replica", "rollback-payments"]
    );

    // Under the audit the rationale is spilled instead of lost, and the
    // actions it governs see it verbatim.
    let s = guarded("planning-scratchpad", |g| g.commitment_audit = true);
    let (_, losses) = losses_of(&s);
    let why = s.fact_index("why-postgres").unwrap();
    let c = losses
        .iter()
        .flat_map(|r| &r.changes)
        .find(|c| c.fact == why)
        .unwrap();
    assert_eq!(c.what, StandingChange::Spilled);
    assert_eq!(ids(&s, &c.affects), ["answer-reviewer", "split-payments"]);
}

#[test]
fn the_gate_marks_summaries_of_summaries_unverified() {
    let s = variant("payments-incident", None, GATE_AND_AUDIT);
    let (run, losses) = losses_of(&s);
    let unverified: Vec<_> = losses
        .iter()
        .flat_map(|r| &r.changes)
        .filter(|c| c.after.unverified && !c.before.unverified)
        .collect();
    assert!(!unverified.is_empty());
    // Every refusal for an unverified premise is traced to one of them.
    for (a, graded) in run.actions().iter().enumerate() {
        if graded.reason == Reason::UnverifiedPremise {
            assert!(
                unverified.iter().any(|c| c.affects.contains(&a)),
                "{}",
                s.actions[a].id
            );
        }
    }
}

// ------------------------------------------------------------ definitions

/// The module docs, checked literally against the run.
fn check_definitions(s: &Scenario, run: &Run, losses: &[RoundLoss]) -> Result<(), TestCaseError> {
    let thr = s.model.actionable_threshold;
    prop_assert_eq!(losses.len(), run.rounds().len());
    for (j, round) in losses.iter().enumerate() {
        prop_assert_eq!(round.round, j);
        prop_assert_eq!(round.turn, run.rounds()[j].turn);
        let mut last = None;
        for c in &round.changes {
            // One entry per fact, in file order.
            prop_assert!(last < Some(c.fact));
            last = Some(c.fact);
            let (_, after) = run.fact_state(c.fact, j).unwrap();
            prop_assert_eq!(c.after, after);
            let before = match j.checked_sub(1).and_then(|p| run.fact_state(c.fact, p)) {
                Some((_, b)) => b,
                None => FactState::VERBATIM,
            };
            prop_assert_eq!(c.before, before);
            match c.what {
                StandingChange::CrossedBelow => {
                    prop_assert!(before.fidelity >= thr && after.fidelity < thr)
                }
                StandingChange::Dropped => {
                    prop_assert!(before.fidelity > 0.0 && after.fidelity == 0.0)
                }
                StandingChange::Unverified => prop_assert!(!before.unverified && after.unverified),
                StandingChange::Spilled => prop_assert_eq!(after, FactState::VERBATIM),
                // Never under contract v1.1 (see the module docs).
                StandingChange::Restored => prop_assert!(false, "restored after a loss"),
            }
            for &a in &c.affects {
                let action = &s.actions[a];
                let graded = &run.actions()[a];
                prop_assert!(action.turn > round.turn);
                prop_assert!(graded.outcome != Outcome::NotReached);
                prop_assert!((graded.rounds_before as usize) > j);
            }
        }
    }
    // Every cause that explain() dates to a round is listed there.
    for (a, graded) in run.actions().iter().enumerate() {
        let Some(e) = explain(s, run, a) else {
            continue;
        };
        let dated = match e.cause {
            Cause::Faded {
                fact,
                round: Some(j),
                ..
            } => Some((fact, j)),
            Cause::Misbound {
                binding,
                round: Some(j),
                ..
            }
            | Cause::BindingUnconfirmed {
                binding,
                round: Some(j),
            } => Some((binding, j)),
            _ => None,
        };
        // A fact a subagent never saw is lost whatever the rounds did.
        let unseen = |f: usize| s.actions[a].delegated && !s.facts[f].forwarded;
        if let Some((fact, j)) = dated.filter(|&(f, _)| !unseen(f)) {
            let c = losses[j].changes.iter().find(|c| c.fact == fact);
            prop_assert!(
                c.is_some(),
                "{}: no change of fact {} at round {}",
                s.actions[a].id,
                fact,
                j + 1
            );
            let c = c.unwrap();
            prop_assert!(matches!(
                c.what,
                StandingChange::CrossedBelow | StandingChange::Dropped
            ));
            prop_assert!(
                c.affects.contains(&a),
                "{} not affected ({:?})",
                s.actions[a].id,
                graded.outcome
            );
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(support::cases(384))]

    #[test]
    fn changes_match_their_definitions(seed in any::<u64>()) {
        let s = generated(seed, Shape::ANY);
        let run = support::simulated(&s)?;
        let losses = round_losses(&s, &run);
        check_definitions(&s, &run, &losses)?;
    }
}

#[test]
fn builtins_under_every_preset_and_guard_match_their_definitions() {
    for id in builtin_ids() {
        for preset in Preset::ALL {
            for guards in [
                Guards::default(),
                GATE_AND_AUDIT,
                Guards {
                    reinject_constraints: true,
                    verify_bindings: true,
                    ..GATE_AND_AUDIT
                },
            ] {
                let s = variant(id, Some(preset), guards);
                let (run, losses) = losses_of(&s);
                check_definitions(&s, &run, &losses).unwrap();
            }
        }
    }
}

#[test]
fn a_run_of_another_scenario_does_not_panic() {
    let a = builtin("payments-incident").unwrap();
    let b = builtin("coding-day").unwrap();
    let run = simulate(&b).unwrap();
    let _ = round_losses(&a, &run);
    let run = simulate(&a).unwrap();
    let _ = round_losses(&b, &run);
}
