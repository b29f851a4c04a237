//! Remedies modelled: applied to the built-in scenarios they never worsen
//! an outcome (except `keep_first`, whose head costs context, as it does in
//! OpenHands), they help where the model can show it, and each maps to the
//! switch its documentation names.

use drift_core::{
    Kind, Outcome, PolicyChoice, Preset, Remedy, RemedyError, RemedyHarness, RemedyPaths, Role,
    Run, Scenario, apply_remedy, builtin, builtin_ids, remedied_scenario, remedy_rules,
    remedy_text, rules_at_stake, simulate,
};

fn outcomes(s: &Scenario) -> Vec<(String, Outcome)> {
    let run = simulate(s).expect("the scenario runs");
    s.actions
        .iter()
        .zip(run.actions())
        .map(|(a, g)| (a.id.clone(), g.outcome))
        .collect()
}

fn outcome(s: &Scenario, action: &str) -> Outcome {
    outcomes(s)
        .into_iter()
        .find(|(id, _)| id == action)
        .map(|(_, o)| o)
        .unwrap_or_else(|| panic!("no action {action}"))
}

/// Worse: a lower rank, or not reached where it was reached.
fn worse(before: Outcome, after: Outcome) -> bool {
    match (before.rank(), after.rank()) {
        (Some(b), Some(a)) => a < b,
        (Some(_), None) => true,
        _ => false,
    }
}

#[test]
fn no_remedy_but_keep_first_worsens_an_outcome() {
    for id in builtin_ids() {
        let scenario = builtin(id).unwrap();
        for h in RemedyHarness::ALL {
            for &r in h.remedies() {
                if r == Remedy::KeepFirst {
                    continue;
                }
                let x = apply_remedy(&scenario, h, r)
                    .unwrap_or_else(|e| panic!("{id} {} {}: {e}", h.id(), r.id()));
                for ((action, before), (_, after)) in
                    outcomes(&x.without).into_iter().zip(outcomes(&x.with))
                {
                    assert!(
                        !worse(before, after),
                        "{id} under {} with {}: {action} {before:?} -> {after:?}",
                        h.id(),
                        r.id()
                    );
                }
            }
        }
    }
}

#[test]
fn the_hook_fixes_payments_incident_under_claude_code() {
    let scenario = builtin("payments-incident").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::RestateHook).unwrap();
    assert_eq!(x.without.policy, PolicyChoice::Preset(Preset::ClaudeCode));
    assert!(!x.without.guards.reinject_constraints);
    assert!(x.with.guards.reinject_constraints);
    let carried: Vec<&str> = x
        .rules
        .iter()
        .map(|&i| x.without.facts[i].id.as_str())
        .collect();
    assert_eq!(
        carried,
        [
            "payments-freeze",
            "eu-residency",
            "ledger-carve-out",
            "spike-correction"
        ]
    );
    for action in [
        "copy-eu-logs",
        "restart-ledger-replica",
        "revert-0840-deploy",
        "rollback-payments",
    ] {
        assert_eq!(outcome(&x.without, action), Outcome::Ungoverned, "{action}");
        assert_eq!(outcome(&x.with, action), Outcome::Governed, "{action}");
    }
    // The residency rule never reached the subagent: no compaction remedy
    // changes that, and the model says why.
    assert_eq!(outcome(&x.with, "subagent-notice"), Outcome::Ungoverned);
    assert!(
        x.not_modelled
            .iter()
            .any(|l| l.contains("a subagent has a rule only if its brief forwards it"))
    );
}

#[test]
fn claude_md_externalises_exactly_the_rules_at_stake() {
    let scenario = builtin("payments-incident").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::ClaudeMd).unwrap();
    for (i, f) in x.with.facts.iter().enumerate() {
        assert_eq!(f.externalised, x.rules.contains(&i), "{}", f.id);
    }
    assert_eq!(
        outcome(&x.with, "rollback-payments"),
        Outcome::Governed,
        "the freeze is re-read after every round"
    );
}

/// A binding is carried by the rule list but not by the hook's guard: the
/// model says so rather than claim the misbinding is fixed.
#[test]
fn the_hook_guard_leaves_bindings_and_says_so() {
    let scenario = builtin("staging-migration").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::RestateHook).unwrap();
    let bindings: Vec<&str> = x
        .rules
        .iter()
        .map(|&i| &x.without.facts[i])
        .filter(|f| f.kind == Kind::Binding)
        .map(|f| f.id.as_str())
        .collect();
    assert!(
        !bindings.is_empty(),
        "staging-migration has a binding at stake"
    );
    let line = x
        .not_modelled
        .iter()
        .find(|l| l.starts_with("The guard covers standing rules, carve-outs and corrections only"))
        .expect("the uncovered binding is named");
    for b in &bindings {
        assert!(line.contains(b), "{line}");
    }
    // Whereas CLAUDE.md carries the binding too.
    let md = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::ClaudeMd).unwrap();
    let misbound = |s: &Scenario| {
        outcomes(s)
            .iter()
            .filter(|(_, o)| *o == Outcome::Misbound)
            .count()
    };
    assert!(misbound(&md.with) < misbound(&md.without));
}

#[test]
fn the_compaction_prompt_is_retention_one_for_the_kinds_carried() {
    let scenario = builtin("coding-day").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::CodexCli, Remedy::CompactPrompt).unwrap();
    let kinds: Vec<Kind> = x.rules.iter().map(|&i| x.without.facts[i].kind).collect();
    assert!(!kinds.is_empty());
    for k in Kind::ALL {
        let expected = if kinds.contains(&k) {
            1.0
        } else {
            x.without.retention.get(k)
        };
        assert_eq!(x.with.retention.get(k), expected, "{k}");
    }
    assert!(
        x.not_modelled
            .iter()
            .any(|l| l.contains("ignores compact_prompt"))
    );
    let failing = |s: &Scenario| outcomes(s).iter().filter(|(_, o)| o.is_failure()).count();
    assert!(failing(&x.with) < failing(&x.without));
}

#[test]
fn instructions_move_the_rules_into_the_system_prompt() {
    let scenario = builtin("payments-incident").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::CodexCli, Remedy::Instructions).unwrap();
    assert!(!x.rules.is_empty());
    for (i, (before, after)) in x.without.facts.iter().zip(&x.with.facts).enumerate() {
        if x.rules.contains(&i) {
            assert_eq!((after.role, after.turn), (Role::System, 0), "{}", after.id);
        } else {
            assert_eq!(before, after);
        }
    }
    x.with.validate().unwrap();
    assert_eq!(outcome(&x.with, "rollback-payments"), Outcome::Governed);
}

#[test]
fn keep_first_covers_the_turns_of_the_rules() {
    for id in builtin_ids() {
        let scenario = builtin(id).unwrap();
        let x = apply_remedy(
            &scenario,
            RemedyHarness::OpenhandsSummarizing,
            Remedy::KeepFirst,
        )
        .unwrap();
        let head = x.with.effective_policy().keep_first_turns;
        let latest = x
            .rules
            .iter()
            .map(|&i| x.without.facts[i].turn)
            .max()
            .unwrap_or(0);
        assert_eq!(head, latest.max(1), "{id}");
        // Every rule carried stays verbatim at every round it lives through.
        let run: Run = simulate(&x.with).unwrap();
        for &i in &x.rules {
            for entry in run.timeline(i) {
                assert_eq!(entry.fact.fidelity, 1.0, "{id}: {}", x.with.facts[i].id);
            }
        }
    }
    // Where the window has room for the head, it helps.
    let scenario = builtin("staging-migration").unwrap();
    let x = apply_remedy(
        &scenario,
        RemedyHarness::OpenhandsSummarizing,
        Remedy::KeepFirst,
    )
    .unwrap();
    let governed = |s: &Scenario| {
        outcomes(s)
            .iter()
            .filter(|(_, o)| *o == Outcome::Governed)
            .count()
    };
    assert!(governed(&x.with) > governed(&x.without));
}

#[test]
fn letta_memory_blocks_and_opencode_keep_their_policies() {
    let scenario = builtin("coding-day").unwrap();
    let x = apply_remedy(&scenario, RemedyHarness::LettaSliding, Remedy::MemoryBlock).unwrap();
    assert_eq!(x.with.policy, PolicyChoice::Preset(Preset::LettaSliding));
    assert!(x.rules.iter().all(|&i| x.with.facts[i].externalised));
    let o = apply_remedy(&scenario, RemedyHarness::Opencode, Remedy::Instructions).unwrap();
    assert_eq!(o.without.policy, PolicyChoice::Preset(Preset::Opencode));
    assert_eq!(o.with.policy, o.without.policy);
}

#[test]
fn a_remedy_runs_under_the_policy_on_screen_or_says_it_switched() {
    // On one of the harness's own presets, that preset stays.
    let mut scenario = builtin("coding-day").unwrap();
    scenario.policy = PolicyChoice::Preset(Preset::ClaudeCode1m);
    let x = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::ClaudeMd).unwrap();
    assert_eq!(x.without.policy, scenario.policy);
    assert_eq!(
        x.modelled[0],
        "Both runs use the scenario's policy, the claude_code_1m preset (Claude Code, 1M window)."
    );
    // On another policy, the switch is said, with the policy it replaces.
    scenario.policy = PolicyChoice::Preset(Preset::PinnedPrefix);
    let x = apply_remedy(&scenario, RemedyHarness::CodexCli, Remedy::RestateHook).unwrap();
    assert_eq!(x.without.policy, PolicyChoice::Preset(Preset::CodexCli));
    assert!(
        x.modelled[0].contains(
            "the codex_cli preset (Codex CLI) in place of the scenario's policy (pinned_prefix)"
        ),
        "{}",
        x.modelled[0]
    );
    assert_eq!(
        remedied_scenario(&scenario, RemedyHarness::CodexCli, Remedy::RestateHook).unwrap(),
        x.with
    );
}

#[test]
fn rules_at_stake_are_the_failing_actions_degraded_rules() {
    let mut scenario = builtin("payments-incident").unwrap();
    scenario.policy = PolicyChoice::Preset(Preset::ClaudeCode);
    let run = simulate(&scenario).unwrap();
    let at_stake = rules_at_stake(&scenario, &run);
    // The approval gate is in the system prompt, verbatim at every action;
    // the mitigation plan is task state; neither is carried.
    for id in ["approval-gate", "mitigation-plan"] {
        let i = scenario.fact_index(id).unwrap();
        assert!(!at_stake.contains(&i), "{id}");
    }
    // Without compaction nothing degrades: the subagent still acts without
    // the residency rule it was never given, and no remedy of compaction
    // is at stake.
    let mut quiet = scenario.clone();
    quiet.policy = PolicyChoice::Preset(Preset::None);
    quiet.harness.window_tokens = 1_000_000;
    let run = simulate(&quiet).unwrap();
    assert_eq!(outcome(&quiet, "subagent-notice"), Outcome::Ungoverned);
    assert!(rules_at_stake(&quiet, &run).is_empty());
}

#[test]
fn harnesses_and_remedies_by_id() {
    for h in RemedyHarness::ALL {
        assert_eq!(RemedyHarness::from_id(h.id()), Some(h));
        for &p in h.profile().presets {
            assert_eq!(RemedyHarness::of_preset(p), Some(h));
        }
        assert_eq!(h.profile().harness, h, "the table is indexed by the enum");
        assert_eq!(h.preset(), h.profile().presets[0]);
        assert_eq!(h.id(), h.preset().id());
        assert!(!h.remedies().is_empty());
        if let Some(hook) = h.hook() {
            assert_eq!(RemedyHarness::of_hook(hook.command), Some(h));
            assert_eq!(h.remedies()[0], Remedy::RestateHook, "{}", h.id());
        }
    }
    assert_eq!(RemedyHarness::from_id("pinned_prefix"), None);
    assert_eq!(RemedyHarness::of_preset(Preset::PinnedPrefix), None);
    for r in Remedy::ALL {
        assert_eq!(Remedy::from_id(r.id()), Some(r));
    }
}

#[test]
fn errors_name_what_is_wrong() {
    let scenario = builtin("payments-incident").unwrap();
    let e = apply_remedy(&scenario, RemedyHarness::LettaSliding, Remedy::RestateHook).unwrap_err();
    assert!(matches!(e, RemedyError::NotOffered { .. }));
    assert_eq!(
        e.to_string(),
        "letta_sliding has no remedy \"restate_hook\" (its remedies: memory_block)"
    );
    // A window no larger than the system prompt.
    let mut small = scenario.clone();
    small.harness.window_tokens = 1_000;
    let e = apply_remedy(&small, RemedyHarness::ClaudeCode, Remedy::RestateHook).unwrap_err();
    assert!(matches!(e, RemedyError::Scenario(_)), "{e:?}");
}

/// Every remedy written out for every built-in: its Markdown holds each rule
/// it carries word for word, every text to paste, and every source.
#[test]
fn each_remedy_as_markdown_carries_its_rules_word_for_word() {
    let paths = RemedyPaths {
        drift: "drift".to_string(),
        home: "/home/op".to_string(),
    };
    let mut carried = 0;
    for id in builtin_ids() {
        let scenario = builtin(id).expect("a built-in");
        for h in RemedyHarness::ALL {
            for &r in h.remedies() {
                let remedied = apply_remedy(&scenario, h, r).expect("applies");
                let without = simulate(&remedied.without).expect("runs");
                let rules = remedy_rules(&remedied, &without);
                assert_eq!(rules.len(), remedied.rules.len(), "{id} {}", h.id());
                let text = remedy_text(h, r, &rules, &paths);
                let md = text.markdown(h);
                assert!(
                    md.starts_with(&format!("# {}: {}", h.name(), text.title)),
                    "{md}"
                );
                for p in &text.pastes {
                    assert!(md.contains(p.text.trim_end()), "{id} {} {}", h.id(), r.id());
                }
                // Every remedy a harness offers cites where its settings are
                // documented.
                assert!(
                    !text.sources.is_empty(),
                    "{} {} cites nothing",
                    h.id(),
                    r.id()
                );
                for source in &text.sources {
                    assert!(md.contains(source), "{id} {} {}", h.id(), r.id());
                }
                if r != Remedy::RestateHook && r != Remedy::KeepFirst {
                    for rule in &rules {
                        assert!(
                            md.contains(rule.text.trim()),
                            "{id} {} {}: {:?} not in\n{md}",
                            h.id(),
                            r.id(),
                            rule.text
                        );
                        carried += 1;
                    }
                }
            }
        }
    }
    assert!(carried > 0, "no built-in has a rule at stake");
}

/// The lean entry point the page runs is the same model as `apply_remedy`.
#[test]
fn remedied_scenario_is_apply_remedys_with() {
    for id in builtin_ids() {
        let scenario = builtin(id).expect("a built-in");
        for h in RemedyHarness::ALL {
            for &r in h.remedies() {
                let full = apply_remedy(&scenario, h, r).expect("applies").with;
                assert_eq!(
                    remedied_scenario(&scenario, h, r),
                    Ok(full),
                    "{id} {} {}",
                    h.id(),
                    r.id()
                );
            }
        }
    }
    assert!(matches!(
        remedied_scenario(
            &builtin("payments-incident").unwrap(),
            RemedyHarness::LettaSliding,
            Remedy::RestateHook
        ),
        Err(RemedyError::NotOffered { .. })
    ));
}
