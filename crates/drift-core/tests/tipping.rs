//! Tipping points held to the engine: every reported value is applied and
//! re-run, with the value just before it, over every built-in scenario under
//! several presets with the guards off and on, and over generated scenarios.

mod support;

use drift_core::{
    ActionTipping, Lever, Method, RETENTION_TOLERANCE, WindowTip, action_tipping, tipping_points,
};
use drift_core::{
    Guards, Kind, Outcome, PolicyChoice, Preset, Scenario, builtin, builtin_ids, simulate,
};
use proptest::prelude::*;
use support::generate::{Shape, scenario as generated};

/// Action `a`'s outcome in `s` after `edit`.
fn outcome_after(s: &Scenario, a: usize, edit: impl FnOnce(&mut Scenario)) -> Outcome {
    let mut s = s.clone();
    edit(&mut s);
    simulate(&s).expect("an edited copy stays valid").actions()[a].outcome
}

fn with_retention(s: &Scenario, a: usize, kind: Kind, r: f64) -> Outcome {
    outcome_after(s, a, |s| s.retention.set(kind, r))
}

fn with_window(s: &Scenario, a: usize, w: u64) -> Outcome {
    outcome_after(s, a, |s| s.harness.window_tokens = w)
}

/// `steps` evenly spaced values strictly inside `(lo, hi)`.
fn inside(lo: f64, hi: f64, steps: u32) -> impl Iterator<Item = f64> {
    (1..steps).map(move |k| lo + (hi - lo) * f64::from(k) / f64::from(steps))
}

/// Checks every claim of `tips` against the engine; `what` names the case.
fn check(s: &Scenario, tips: &[ActionTipping], what: &str) {
    let run = simulate(s).unwrap();
    assert_eq!(tips.len(), s.actions.len(), "{what}");
    for (a, tip) in tips.iter().enumerate() {
        let action = &s.actions[a];
        let now = run.actions()[a].outcome;
        let here = format!("{what}: {}", action.id);
        assert_eq!(tip.action, a, "{here}");
        assert_eq!(tip.outcome, now, "{here}");
        check_retention(s, a, tip, now, &here);
        check_window(s, a, tip, now, &here);
        check_facts(s, a, tip, now, &here);
    }
}

fn check_retention(s: &Scenario, a: usize, tip: &ActionTipping, now: Outcome, here: &str) {
    if now == Outcome::NotReached {
        assert!(tip.retention.is_empty(), "{here}");
        return;
    }
    let mut kinds: Vec<Kind> = s.actions[a]
        .governed_by
        .iter()
        .chain(&s.actions[a].target)
        .map(|id| s.facts[s.fact_index(id).unwrap()].kind)
        .collect();
    kinds.sort();
    kinds.dedup();
    assert_eq!(
        tip.retention.iter().map(|t| t.kind).collect::<Vec<_>>(),
        kinds,
        "{here}"
    );
    for t in &tip.retention {
        let k = t.kind;
        let here = format!("{here} / {}", k.id());
        assert_eq!(t.current, s.retention.get(k), "{here}");
        let at = |r: f64| with_retention(s, a, k, r);
        // Bisection only past the walk's bound, which takes the gate and the audit.
        let bisected = [t.raise, t.lower]
            .into_iter()
            .flatten()
            .any(|f| f.method == Method::Bisection);
        if bisected {
            assert!(
                s.guards.entailment_gate && s.guards.commitment_audit,
                "{here}"
            );
            // What bisection guarantees: the changed side of a raise, the kept side of a lower.
            if let Some(flip) = t.raise {
                assert_eq!(at(flip.at), flip.outcome, "{here}: {flip:?}");
            }
            if let Some(flip) = t.lower {
                assert_eq!(at(flip.at), now, "{here}: {flip:?}");
            }
            continue;
        }
        match t.raise {
            Some(flip) => {
                assert_eq!(flip.method, Method::Exact, "{here}: raise {flip:?}");
                assert!(flip.at > t.current && flip.at <= 1.0, "{here}: {flip:?}");
                assert_ne!(flip.outcome, now, "{here}");
                assert_eq!(at(flip.at), flip.outcome, "{here}: at {}", flip.at);
                let below = flip.at.next_down();
                assert_eq!(at(below), now, "{here}: just below {}", flip.at);
                let tol = (flip.at - RETENTION_TOLERANCE).max(t.current);
                assert_eq!(at(tol), now, "{here}: {tol}");
                for r in inside(t.current, flip.at, 8) {
                    assert_eq!(at(r), now, "{here}: {r} before the flip at {}", flip.at);
                }
            }
            None => {
                for r in inside(t.current, 1.0, 8).chain([1.0]) {
                    assert_eq!(at(r), now, "{here}: {r} flips, none reported");
                }
            }
        }
        match t.lower {
            Some(flip) => {
                assert_eq!(flip.method, Method::Exact, "{here}: lower {flip:?}");
                assert!(flip.at > 0.0 && flip.at <= t.current, "{here}: {flip:?}");
                assert_ne!(flip.outcome, now, "{here}");
                assert_eq!(at(flip.at), now, "{here}: at {}", flip.at);
                assert_eq!(
                    at(flip.at.next_down()),
                    flip.outcome,
                    "{here}: below {}",
                    flip.at
                );
                for r in inside(flip.at, t.current, 8) {
                    assert_eq!(at(r), now, "{here}: {r} above the boundary {}", flip.at);
                }
            }
            None => {
                for r in [0.0].into_iter().chain(inside(0.0, t.current, 8)) {
                    assert_eq!(at(r), now, "{here}: {r} flips, none reported");
                }
            }
        }
    }
}

fn check_window(s: &Scenario, a: usize, tip: &ActionTipping, now: Outcome, here: &str) {
    let w0 = s.effective_harness().window_tokens;
    match tip.window {
        WindowTip::Holds => assert!(!now.is_failure(), "{here}"),
        WindowTip::SetByPolicy => {
            assert!(now.is_failure(), "{here}");
            assert!(
                s.effective_policy().harness.window_tokens.is_some(),
                "{here}"
            );
        }
        WindowTip::At {
            window,
            outcome,
            exact,
        } => {
            assert!(now.is_failure() && window > w0, "{here}: {window}");
            assert!(!outcome.is_failure(), "{here}");
            assert_eq!(with_window(s, a, window), outcome, "{here}: at {window}");
            assert!(
                with_window(s, a, window - 1).is_failure(),
                "{here}: {} already works",
                window - 1
            );
            if exact {
                // A sample of the windows in between fails too.
                let step = ((window - w0) / 40).max(1);
                for w in (w0 + 1..window).step_by(step as usize) {
                    assert!(
                        with_window(s, a, w).is_failure(),
                        "{here}: {w} works, below {window}"
                    );
                }
            }
        }
        WindowTip::Never {
            searched_to,
            complete,
        } => {
            assert!(now.is_failure(), "{here}");
            assert!(searched_to >= w0, "{here}");
            if searched_to > w0 {
                assert!(with_window(s, a, searched_to).is_failure(), "{here}");
                let step = ((searched_to - w0) / 40).max(1);
                for w in (w0 + 1..searched_to).step_by(step as usize) {
                    assert!(with_window(s, a, w).is_failure(), "{here}: {w} works");
                }
            }
            if complete {
                let far = searched_to.saturating_mul(3).min(drift_core::MAX_TOKENS);
                assert!(with_window(s, a, far).is_failure(), "{here}: {far} works");
            }
        }
    }
}

fn check_facts(s: &Scenario, a: usize, tip: &ActionTipping, now: Outcome, here: &str) {
    if matches!(now, Outcome::Governed | Outcome::NotReached) {
        assert!(tip.facts.is_empty(), "{here}");
        return;
    }
    let action = &s.actions[a];
    let rereads = s.effective_policy().rereads_external;
    let mut expected = Vec::new();
    let mut facts: Vec<usize> = Vec::new();
    for id in action.governed_by.iter().chain(&action.target) {
        let g = s.fact_index(id).unwrap();
        if !facts.contains(&g) {
            facts.push(g);
        }
    }
    for g in facts {
        if action.delegated && !s.facts[g].forwarded {
            expected.push((g, Lever::Forward));
        }
        if rereads && !s.facts[g].externalised {
            expected.push((g, Lever::Externalise));
        }
    }
    let tried: Vec<(usize, Lever)> = tip.facts.iter().map(|f| (f.fact, f.lever)).collect();
    assert_eq!(tried, expected, "{here}");
    for fix in &tip.facts {
        let got = outcome_after(s, a, |s| match fix.lever {
            Lever::Forward => s.facts[fix.fact].forwarded = true,
            Lever::Externalise => s.facts[fix.fact].externalised = true,
        });
        assert_eq!(
            got, fix.outcome,
            "{here}: {:?} {}",
            fix.lever, s.facts[fix.fact].id
        );
        assert_eq!(
            fix.fixes(),
            matches!(got, Outcome::Governed | Outcome::WeaklyGoverned)
        );
    }
}

const PRESETS: [Preset; 7] = [
    Preset::PinnedPrefix,
    Preset::SlidingWindow,
    Preset::RecursiveSummary,
    Preset::UserVerbatim,
    Preset::ExternalisedState,
    Preset::CodexCli,
    Preset::LettaSliding,
];

const ALL_GUARDS: Guards = Guards {
    reinject_constraints: true,
    verify_bindings: true,
    entailment_gate: true,
    commitment_audit: true,
};

#[test]
fn builtins_under_their_own_policy() {
    for id in builtin_ids() {
        let s = builtin(id).unwrap();
        check(&s, &tipping_points(&s).unwrap(), id);
    }
}

#[test]
fn builtins_under_presets_with_guards_off_and_on() {
    for id in builtin_ids() {
        for preset in PRESETS {
            for guards in [Guards::default(), ALL_GUARDS] {
                let mut s = builtin(id).unwrap();
                s.policy = PolicyChoice::Preset(preset);
                s.guards = guards;
                let what = format!(
                    "{id} × {} × guards {}",
                    preset.id(),
                    guards != Guards::default()
                );
                check(&s, &tipping_points(&s).unwrap(), &what);
            }
        }
    }
}

/// The gate and the audit together make retention reach an action through
/// the laundering rate; each guard alone, and pressure, change the breakpoints.
#[test]
fn builtins_with_single_guards_and_pressure() {
    let single = [
        Guards {
            entailment_gate: true,
            commitment_audit: true,
            ..Guards::default()
        },
        Guards {
            commitment_audit: true,
            ..Guards::default()
        },
        Guards {
            entailment_gate: true,
            ..Guards::default()
        },
        Guards {
            verify_bindings: true,
            ..Guards::default()
        },
    ];
    for id in builtin_ids() {
        for (g, guards) in single.into_iter().enumerate() {
            for pressure in [0.0, 0.4] {
                let mut s = builtin(id).unwrap();
                s.guards = guards;
                s.model.pressure_sensitivity = pressure;
                check(
                    &s,
                    &tipping_points(&s).unwrap(),
                    &format!("{id} guards#{g} pressure {pressure}"),
                );
            }
        }
    }
}

// ------------------------------------------------------------ named cases

/// payments-incident and its tipping points.
fn payments_incident() -> (Scenario, Vec<ActionTipping>) {
    let s = builtin("payments-incident").unwrap();
    let tips = tipping_points(&s).unwrap();
    (s, tips)
}

fn find<'a>(s: &Scenario, tips: &'a [ActionTipping], action: &str) -> &'a ActionTipping {
    let a = s.actions.iter().position(|x| x.id == action).unwrap();
    &tips[a]
}

#[test]
fn the_freeze_holds_from_the_fourth_root_of_the_threshold() {
    let (s, tips) = payments_incident();
    let rollback = find(&s, &tips, "rollback-payments");
    assert_eq!(rollback.outcome, Outcome::Ungoverned);
    let rule = rollback
        .retention
        .iter()
        .find(|t| t.kind == Kind::StandingRule)
        .unwrap();
    // Four summaries before turn 63: 0.5^(1/4).
    let raise = rule.raise.unwrap();
    assert!((raise.at - 0.5f64.powf(0.25)).abs() < 1e-15, "{}", raise.at);
    assert_eq!(raise.outcome, Outcome::WeaklyGoverned);
    assert_eq!(rule.lower, None);
    // copy-eu-logs sees three summaries of the residency rule: 0.5^(1/3).
    let copy = find(&s, &tips, "copy-eu-logs");
    let raise = copy.retention[0].raise.unwrap();
    assert!((raise.at - 0.5f64.powf(1.0 / 3.0)).abs() < 1e-15);
    // Two rules of different kinds are both below the line at the replica
    // restart: neither kind alone brings it back.
    let replica = find(&s, &tips, "restart-ledger-replica");
    assert_eq!(replica.retention.len(), 2);
    assert!(
        replica
            .retention
            .iter()
            .all(|t| t.raise.is_none() && t.lower.is_none())
    );
}

#[test]
fn a_subagent_that_never_saw_the_rule_needs_it_forwarded_not_a_bigger_window() {
    let (s, tips) = payments_incident();
    let notice = find(&s, &tips, "subagent-notice");
    assert!(matches!(
        notice.window,
        WindowTip::Never { complete: true, .. }
    ));
    assert_eq!(notice.facts.len(), 1);
    assert_eq!(notice.facts[0].lever, Lever::Forward);
    assert!(notice.facts[0].fixes());
}

#[test]
fn a_weakly_governed_action_has_a_floor_and_a_ceiling() {
    let (s, tips) = payments_incident();
    let watch = find(&s, &tips, "watch-5xx");
    assert_eq!(watch.outcome, Outcome::WeaklyGoverned);
    let t = &watch.retention[0];
    assert_eq!(t.kind, Kind::TaskState);
    // Governed only at a retention of exactly 1; ungoverned below 0.5 (one summary).
    assert_eq!(
        t.raise.map(|f| (f.at, f.outcome)),
        Some((1.0, Outcome::Governed))
    );
    assert_eq!(
        t.lower.map(|f| (f.at, f.outcome)),
        Some((0.5, Outcome::Ungoverned))
    );
    assert_eq!(watch.window, WindowTip::Holds);
}

#[test]
fn windows_that_end_the_failures_of_the_payments_incident() {
    let (s, tips) = payments_incident();
    for (action, window) in [
        ("copy-eu-logs", 34_400),
        ("restart-ledger-replica", 48_400),
        ("revert-0840-deploy", 33_000),
        ("rollback-payments", 41_900),
    ] {
        match find(&s, &tips, action).window {
            WindowTip::At {
                window: w, exact, ..
            } => {
                assert_eq!(w, window, "{action}");
                assert!(exact);
            }
            other => panic!("{action}: {other:?}"),
        }
    }
}

#[test]
fn a_custom_policy_that_sets_the_window_is_left_alone() {
    let mut s = builtin("payments-incident").unwrap();
    let mut policy = Preset::PinnedPrefix.policy();
    policy.harness.window_tokens = Some(32_000);
    s.policy = PolicyChoice::Custom(policy);
    let tips = tipping_points(&s).unwrap();
    assert_eq!(
        find(&s, &tips, "rollback-payments").window,
        WindowTip::SetByPolicy
    );
    assert_eq!(find(&s, &tips, "restart-checkout").window, WindowTip::Holds);
}

#[test]
fn one_action_alone_gets_the_same_answer() {
    for id in builtin_ids() {
        for preset in PRESETS {
            let mut s = builtin(id).unwrap();
            s.policy = PolicyChoice::Preset(preset);
            let all = tipping_points(&s).unwrap();
            for (a, tip) in all.iter().enumerate() {
                assert_eq!(
                    action_tipping(&s, a).unwrap().as_ref(),
                    Some(tip),
                    "{id} {a}"
                );
            }
            assert_eq!(action_tipping(&s, all.len()).unwrap(), None);
        }
    }
}

#[test]
fn an_invalid_scenario_is_an_error() {
    let mut s = builtin("payments-incident").unwrap();
    s.retention.set(Kind::Scope, 1.5);
    assert!(tipping_points(&s).is_err());
    assert!(action_tipping(&s, 0).is_err());
}

/// Sixty commitments over four hundred turns compacted almost every turn,
/// with the gate and the audit on: every spill moves a laundering rate, too
/// many breakpoints to walk, so the search bisects towards the far end.
#[test]
fn a_long_guarded_session_bounds_the_walk_and_bisects() {
    use drift_core::{Action, Fact, Role};
    let mut s = builtin("planning-scratchpad").unwrap();
    s.policy = PolicyChoice::Preset(Preset::LettaSliding);
    s.harness.turns = 400;
    s.guards.entailment_gate = true;
    s.guards.commitment_audit = true;
    s.facts = (0..60u32)
        .map(|i| Fact {
            id: format!("c{i}"),
            text: format!("commitment {i}"),
            role: Role::Assistant,
            kind: Kind::Commitment,
            turn: 1 + i * 3,
            externalised: false,
            forwarded: true,
            binds: None,
        })
        .collect();
    s.actions = (0..20u32)
        .map(|i| Action {
            id: format!("a{i}"),
            text: format!("action {i}"),
            turn: 200 + i * 10,
            governed_by: vec![format!("c{}", i * 3), format!("c{}", i * 3 + 1)],
            delegated: false,
            irreversible: i % 2 == 0,
            target: None,
            consequence: String::new(),
        })
        .collect();
    let tips = tipping_points(&s).unwrap();
    let bisected = tips
        .iter()
        .flat_map(|t| &t.retention)
        .flat_map(|r| [r.raise, r.lower])
        .flatten()
        .filter(|f| f.method == Method::Bisection)
        .count();
    assert!(bisected > 0);
    check(&s, &tips, "long guarded session");
}

// ------------------------------------------------------------ generated

proptest! {
    #![proptest_config(support::cases(96))]

    /// Every claim holds on generated scenarios, guards and pressure included.
    #[test]
    fn every_claim_holds_on_generated_scenarios(seed in any::<u64>()) {
        let s = generated(seed, Shape::ANY);
        prop_assume!(s.validate().is_ok());
        let tips = tipping_points(&s).unwrap();
        check(&s, &tips, &format!("seed {seed}"));
    }
}
