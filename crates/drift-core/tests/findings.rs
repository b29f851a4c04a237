//! The findings of docs/MODEL.md §8, one test each, over the built-in scenarios.

use drift_core::{
    Outcome, PolicyChoice, Preset, Reason, Role, Run, Scenario, builtin, builtin_ids, simulate,
};

fn scenario(id: &str, preset: Preset) -> Scenario {
    let mut s = builtin(id).unwrap_or_else(|| panic!("no built-in {id}"));
    s.policy = PolicyChoice::Preset(preset);
    s
}

fn action(s: &Scenario, id: &str) -> usize {
    s.actions
        .iter()
        .position(|a| a.id == id)
        .unwrap_or_else(|| panic!("{}: no action {id}", s.id))
}

fn fact(s: &Scenario, id: &str) -> usize {
    s.fact_index(id)
        .unwrap_or_else(|| panic!("{}: no fact {id}", s.id))
}

fn outcome(s: &Scenario, id: &str) -> Outcome {
    outcome_in(s, &simulate(s).unwrap(), id)
}

fn outcome_in(s: &Scenario, run: &Run, id: &str) -> Outcome {
    run.actions()[action(s, id)].outcome
}

/// The presets that compact: those of contract v1.1 (docs/MODEL.md §9)
/// and, of the later ones, each that compacts the built-in at all (Claude
/// Code's 1M window holds a whole built-in session, so nothing there is
/// ever summarised).
fn compacting() -> impl Iterator<Item = Preset> {
    Preset::ALL.into_iter().enumerate().filter_map(|(i, p)| {
        let contract = i < 13;
        let rounds = !simulate(&scenario("payments-incident", p))
            .unwrap()
            .rounds()
            .is_empty();
        if contract && p.policy().compacts {
            assert!(rounds, "{p:?} compacts payments-incident");
        }
        (p.policy().compacts && rounds).then_some(p)
    })
}

#[test]
fn finding_1_system_rule_survives_pinning_policies_tool_rule_does_not() {
    for preset in compacting() {
        let s = scenario("payments-incident", preset);
        if preset.policy().protected_roles.contains(Role::System) {
            assert_eq!(
                outcome(&s, "restart-checkout"),
                Outcome::Governed,
                "{preset:?}"
            );
        }
        // A head long enough to hold the tool's turn keeps the rule.
        let turn = s.facts[fact(&s, "payments-freeze")].turn;
        let expected = if preset.policy().keep_first_turns >= turn {
            Outcome::Governed
        } else {
            Outcome::Ungoverned
        };
        assert_eq!(outcome(&s, "rollback-payments"), expected, "{preset:?}");
    }
    // The system rule is not immune by nature: a policy that summarises it loses it too.
    let s = scenario("payments-incident", Preset::RecursiveSummary);
    assert_ne!(outcome(&s, "restart-checkout"), Outcome::Governed);
}

#[test]
fn finding_2_user_verbatim_rescues_what_the_operator_typed_not_what_a_tool_returned() {
    let pinned = scenario("payments-incident", Preset::PinnedPrefix);
    let verbatim = scenario("payments-incident", Preset::UserVerbatim);
    for typed in ["copy-eu-logs", "revert-0840-deploy"] {
        assert_eq!(outcome(&pinned, typed), Outcome::Ungoverned, "{typed}");
        assert_eq!(outcome(&verbatim, typed), Outcome::Governed, "{typed}");
    }
    for tool in ["rollback-payments", "restart-ledger-replica"] {
        assert_eq!(outcome(&verbatim, tool), Outcome::Ungoverned, "{tool}");
    }
    let staging = scenario("staging-migration", Preset::UserVerbatim);
    assert_eq!(outcome(&staging, "refund-test"), Outcome::Governed);
    assert_eq!(
        outcome(
            &scenario("staging-migration", Preset::PinnedPrefix),
            "refund-test"
        ),
        Outcome::Ungoverned
    );
}

#[test]
fn finding_3_externalising_the_system_rule_buys_nothing_the_tool_rule_is_what_fixes_it() {
    let pinned = scenario("payments-incident", Preset::PinnedPrefix);
    let pinned_run = simulate(&pinned).unwrap();
    let mut system_only = scenario("payments-incident", Preset::ExternalisedState);
    let gate = fact(&system_only, "approval-gate");
    system_only.facts[gate].externalised = true;
    let system_run = simulate(&system_only).unwrap();
    let outcomes = |r: &Run| r.actions().iter().map(|a| a.outcome).collect::<Vec<_>>();
    assert_eq!(outcomes(&system_run), outcomes(&pinned_run));

    let mut tool_rule = system_only.clone();
    let freeze = fact(&tool_rule, "payments-freeze");
    tool_rule.facts[freeze].externalised = true;
    assert_eq!(outcome(&tool_rule, "rollback-payments"), Outcome::Governed);
    assert_eq!(
        outcome(&system_only, "rollback-payments"),
        Outcome::Ungoverned
    );
}

#[test]
fn finding_4_a_rule_not_forwarded_leaves_the_delegated_action_ungoverned_whatever_the_policy() {
    for preset in Preset::ALL {
        let s = scenario("payments-incident", preset);
        assert!(!s.facts[fact(&s, "eu-residency")].forwarded);
        assert_eq!(
            outcome(&s, "subagent-notice"),
            Outcome::Ungoverned,
            "{preset:?}"
        );
        // Forwarded, the subagent is graded as the agent itself would be.
        let mut forwarded = s.clone();
        let f = fact(&forwarded, "eu-residency");
        forwarded.facts[f].forwarded = true;
        let mut own = s.clone();
        let a = action(&own, "subagent-notice");
        own.actions[a].delegated = false;
        assert_eq!(
            outcome(&forwarded, "subagent-notice"),
            outcome(&own, "subagent-notice"),
            "{preset:?}"
        );
    }
}

#[test]
fn finding_5_no_compaction_overflows_and_later_actions_are_not_reached() {
    for id in builtin_ids() {
        let s = scenario(id, Preset::None);
        let run = simulate(&s).unwrap();
        let overflow = run
            .overflow_turn()
            .unwrap_or_else(|| panic!("{id} must overflow"));
        assert!(run.rounds().is_empty(), "{id}");
        let mut not_reached = 0;
        for (a, graded) in s.actions.iter().zip(run.actions()) {
            if a.turn >= overflow {
                assert_eq!(graded.outcome, Outcome::NotReached, "{id}/{}", a.id);
                assert_eq!(graded.reason, Reason::Overflow);
                not_reached += 1;
            } else {
                assert_ne!(graded.outcome, Outcome::NotReached, "{id}/{}", a.id);
            }
        }
        assert!(not_reached > 0, "{id}: no action after the overflow");
    }
}

/// Every action's outcome across every built-in scenario, under `preset`.
fn outcome_row(preset: Preset) -> Vec<Outcome> {
    builtin_ids()
        .flat_map(|id| {
            let s = scenario(id, preset);
            let run = simulate(&s).unwrap();
            run.actions().iter().map(|a| a.outcome).collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn finding_6_no_two_presets_give_identical_outcome_rows() {
    let rows: Vec<(Preset, Vec<Outcome>)> = Preset::ALL
        .into_iter()
        .map(|p| (p, outcome_row(p)))
        .collect();
    for (i, (a, row_a)) in rows.iter().enumerate() {
        for (b, row_b) in &rows[i + 1..] {
            // openai_compact has user_verbatim's switches by definition (docs/MODEL.md §9).
            if (*a, *b) == (Preset::UserVerbatim, Preset::OpenaiCompact) {
                assert_eq!(a.policy(), b.policy());
                assert_eq!(row_a, row_b);
                continue;
            }
            assert_ne!(row_a, row_b, "{a:?} and {b:?} give the same outcomes");
        }
    }
}

#[test]
fn finding_7_a_drifted_binding_is_misbound_silently_and_refused_loudly_with_verify_bindings() {
    let s = scenario("staging-migration", Preset::PinnedPrefix);
    let run = simulate(&s).unwrap();
    let migration = &run.actions()[action(&s, "run-migration")];
    assert_eq!(migration.outcome, Outcome::Misbound);
    assert_eq!(migration.reason, Reason::Misbound);
    let acted_on = &s.resources[migration.resolved_resource.unwrap()];
    assert_eq!(acted_on.id, "db-prod-01");
    // The look-alike ticket collapses the same way.
    let ticket = &run.actions()[action(&s, "close-ticket")];
    assert_eq!(ticket.outcome, Outcome::Misbound);
    assert_eq!(s.resources[ticket.resolved_resource.unwrap()].id, "T-41");

    let mut guarded = s.clone();
    guarded.guards.verify_bindings = true;
    let run = simulate(&guarded).unwrap();
    let migration = &run.actions()[action(&guarded, "run-migration")];
    assert_eq!(migration.outcome, Outcome::Refused);
    assert_eq!(migration.reason, Reason::BindingUnconfirmed);
    assert_eq!(migration.resolved_resource, None);
    // While the binding is fresh, the guard lets the action through.
    assert_eq!(
        outcome_in(&guarded, &run, "rehearse-migration"),
        Outcome::Governed
    );
}

#[test]
fn finding_8_fabrication_risk_grows_superlinearly_as_the_summary_budget_shrinks() {
    let risk = |budget: u64| {
        let mut s = scenario("dependency-pin", Preset::PinnedPrefix);
        s.harness.summary_tokens = budget;
        let run = simulate(&s).unwrap();
        let pin = fact(&s, "grpcio-pin");
        // The pin's risk after the first two rounds, which happen at the same
        // turns for every budget here.
        let state = run.fact_state(pin, 1).unwrap().1;
        (run.rounds()[1].turn, state.fabrication_risk)
    };
    let ((t2, r2), (t4, r4), (t8, r8)) = (risk(2048), risk(4096), risk(8192));
    assert!(t2 >= t4 && t4 >= t8, "rounds at {t2}, {t4}, {t8}");
    // Halving the budget more than doubles the risk, each time.
    assert!(r8 > 0.0 && r4 > 2.0 * r8, "{r8} → {r4}");
    assert!(r2 > 2.0 * r4, "{r4} → {r2}");
}

#[test]
fn finding_8_the_entailment_gate_refuses_irreversible_actions_on_laundered_premises() {
    let mut s = scenario("dependency-pin", Preset::PinnedPrefix);
    assert_eq!(outcome(&s, "publish-release"), Outcome::Ungoverned);
    s.guards.entailment_gate = true;
    let run = simulate(&s).unwrap();
    let publish = &run.actions()[action(&s, "publish-release")];
    assert_eq!(publish.outcome, Outcome::Refused);
    assert_eq!(publish.reason, Reason::UnverifiedPremise);
    // The premise is laundered: summarised more than once.
    let pin = run.fact_state_at_turn(fact(&s, "grpcio-pin"), 66).unwrap();
    assert!(pin.unverified && pin.depth >= 2);
    assert!(
        run.rounds()
            .iter()
            .any(|r| r.regime == drift_core::Regime::FabricatedHistory)
    );
    // A reversible action on the same premise is graded, not refused.
    assert_ne!(outcome_in(&s, &run, "open-upgrade-pr"), Outcome::Refused);
}

#[test]
fn finding_9_commitment_audit_keeps_rationale_and_rejected_option_governed() {
    let plain = scenario("planning-scratchpad", Preset::PinnedPrefix);
    let mut audited = plain.clone();
    audited.guards.commitment_audit = true;
    let (plain_run, audited_run) = (simulate(&plain).unwrap(), simulate(&audited).unwrap());
    let turn = plain.actions[action(&plain, "answer-reviewer")].turn;
    for id in ["why-postgres", "not-dynamodb"] {
        let f = fact(&plain, id);
        let lost = plain_run.fact_state_at_turn(f, turn).unwrap().fidelity;
        let kept = audited_run.fact_state_at_turn(f, turn).unwrap().fidelity;
        assert!(lost < plain.model.actionable_threshold, "{id}: {lost}");
        assert_eq!(kept, 1.0, "{id}");
    }
    assert!(audited_run.rounds().iter().map(|r| r.spills).sum::<u32>() >= 2);
    let worse = outcome_in(&plain, &plain_run, "answer-reviewer");
    let better = outcome_in(&audited, &audited_run, "answer-reviewer");
    assert_eq!(worse, Outcome::Ungoverned);
    assert!(matches!(
        better,
        Outcome::Governed | Outcome::WeaklyGoverned
    ));
    assert_eq!(
        outcome_in(&audited, &audited_run, "split-payments"),
        Outcome::WeaklyGoverned
    );
}
