//! Harness presets (docs/MODEL.md §9): each new switch matters, and the findings
//! the real presets must reproduce in the 200k-token `coding-day` scenario.

use drift_core::{
    Fact, Harness, HarnessOverrides, Kind, Outcome, Policy, PolicyChoice, Preset, Role, RoleSet,
    RoundState, Run, Scenario, builtin, builtin_ids, simulate,
};

fn fact(id: &str, role: Role, kind: Kind, turn: u32) -> Fact {
    Fact {
        id: id.to_string(),
        text: id.to_string(),
        role,
        kind,
        turn,
        externalised: false,
        forwarded: true,
        binds: None,
    }
}

/// A 10,000-token window, 1,000-token turns: a round at turn 10, 17, 24, …
fn session(policy: Policy, facts: Vec<Fact>) -> Scenario {
    Scenario {
        id: "switches".to_string(),
        title: String::new(),
        description: String::new(),
        harness: Harness {
            window_tokens: 10_000,
            trigger_percent: 100,
            system_tokens: 1_000,
            tokens_per_turn: 1_000,
            tail_turns: 2,
            summary_tokens: 500,
            turns: 40,
            reserve_tokens: 0,
            user_message_tokens: 200,
        },
        turn_tokens: Vec::new(),
        policy: PolicyChoice::Custom(policy),
        retention: Default::default(),
        guards: Default::default(),
        model: Default::default(),
        resources: Vec::new(),
        facts,
        actions: Vec::new(),
    }
}

fn run(s: &Scenario) -> Run {
    simulate(s).unwrap_or_else(|e| panic!("{}: {e}", s.id))
}

/// [`session`] with `facts` run under `a`, and under `b`.
fn runs(facts: Vec<Fact>, a: Policy, b: Policy) -> (Run, Run) {
    (run(&session(a, facts.clone())), run(&session(b, facts)))
}

fn state_at_first_round(run: &Run, fact: usize) -> RoundState {
    run.fact_state(fact, 0)
        .expect("the fact exists at round 1")
        .0
}

#[test]
fn keep_first_turns_keeps_the_head_verbatim_and_in_the_context() {
    let facts = vec![fact("task", Role::User, Kind::TaskState, 1)];
    let head = Policy {
        keep_first_turns: 1,
        ..Policy::PINNED_PREFIX
    };
    let (plain, head) = runs(facts, Policy::PINNED_PREFIX, head);
    assert_eq!(state_at_first_round(&plain, 0), RoundState::Summarised);
    assert_eq!(state_at_first_round(&head, 0), RoundState::Head);
    assert_eq!(head.fact_state(0, 3).unwrap().1.fidelity, 1.0);
    // The kept turn stays in the context: a round leaves 1,000 tokens more.
    assert_eq!(
        head.rounds()[0].tokens_after,
        plain.rounds()[0].tokens_after + 1_000
    );
}

#[test]
fn tail_percent_sizes_the_tail_by_tokens() {
    // 30% of 10,000 tokens is 3,000: three 1,000-token turns, not two.
    let facts = vec![fact("rule", Role::Tool, Kind::StandingRule, 8)];
    let by_tokens = Policy {
        tail_percent: Some(30),
        ..Policy::PINNED_PREFIX
    };
    let (by_turns, by_tokens) = runs(facts, Policy::PINNED_PREFIX, by_tokens);
    assert_eq!(by_turns.rounds()[0].turn, 10);
    assert_eq!(state_at_first_round(&by_turns, 0), RoundState::Summarised);
    assert_eq!(state_at_first_round(&by_tokens, 0), RoundState::Tail);
    assert_eq!(by_tokens.rounds()[0].tail_start, 8);
    assert_eq!(
        by_tokens.rounds()[0].tokens_after,
        by_turns.rounds()[0].tokens_after + 1_000
    );
}

#[test]
fn a_user_budget_drops_old_user_facts_and_counts_recent_messages() {
    // 1,000 tokens of budget at 200 a message: the newest 5 turns keep theirs.
    let budget = Policy {
        protected_roles: RoleSet::SYSTEM_USER,
        user_budget_tokens: Some(1_000),
        ..Policy::PINNED_PREFIX
    };
    let facts = vec![
        fact("old", Role::User, Kind::StandingRule, 2),
        fact("recent", Role::User, Kind::StandingRule, 7),
    ];
    let verbatim = Policy {
        protected_roles: RoleSet::SYSTEM_USER,
        ..Policy::PINNED_PREFIX
    };
    let (verbatim, budgeted) = runs(facts, verbatim, budget);
    assert_eq!(state_at_first_round(&verbatim, 0), RoundState::Protected);
    assert_eq!(state_at_first_round(&budgeted, 0), RoundState::Summarised);
    assert_eq!(state_at_first_round(&budgeted, 1), RoundState::Protected);
    // Recent turns 6, 7, 8 are outside the tail (9, 10): 3 × 200 tokens more.
    assert_eq!(
        budgeted.rounds()[0].tokens_after,
        verbatim.rounds()[0].tokens_after + 600
    );
    // Without `user` protected the budget does nothing.
    let unprotected = Policy {
        user_budget_tokens: Some(1_000),
        ..Policy::PINNED_PREFIX
    };
    let (unprotected, plain) = runs(
        vec![fact("old", Role::User, Kind::StandingRule, 2)],
        unprotected,
        Policy::PINNED_PREFIX,
    );
    assert_eq!(
        unprotected.rounds()[0].tokens_after,
        plain.rounds()[0].tokens_after
    );
}

#[test]
fn reserve_tokens_make_the_round_due_earlier() {
    let mut reserved = Policy::PINNED_PREFIX;
    reserved.harness = HarnessOverrides {
        reserve_tokens: Some(3_000),
        ..HarnessOverrides::NONE
    };
    let (plain, early) = runs(vec![], Policy::PINNED_PREFIX, reserved);
    assert_eq!(plain.rounds()[0].turn, 10);
    // Due once the context exceeds 10,000 - 3,000 tokens: at turn 7.
    assert_eq!(early.rounds()[0].turn, 7);
    assert_eq!(early.harness().reserve_tokens, 3_000);
}

#[test]
fn a_presets_harness_overrides_win_over_the_scenarios() {
    let mut s = builtin("coding-day").unwrap();
    s.harness.trigger_percent = 70;
    for (preset, trigger, reserve) in [
        (Preset::CodexCli, 90, 0),
        (Preset::LettaSliding, 90, 0),
        (Preset::Deepagents, 85, 0),
        (Preset::ClaudeCode, 70, 13_000),
        (Preset::PinnedPrefix, 70, 0),
    ] {
        s.policy = PolicyChoice::Preset(preset);
        let h = simulate(&s).unwrap().harness().to_owned();
        assert_eq!(
            (h.trigger_percent, h.reserve_tokens),
            (trigger, reserve),
            "{preset:?}"
        );
    }
}

#[test]
fn results_name_the_preset_or_custom() {
    let mut s = builtin("coding-day").unwrap();
    s.policy = PolicyChoice::Preset(Preset::OpenhandsMasking);
    assert_eq!(run(&s).policy_id(), "openhands_masking");
    s.policy = PolicyChoice::Custom(Preset::OpenhandsMasking.policy());
    assert_eq!(run(&s).policy_id(), "custom");
}

// ------------------------------------------------------------ findings

fn coding_day(preset: Preset) -> Scenario {
    let mut s = builtin("coding-day").unwrap();
    s.policy = PolicyChoice::Preset(preset);
    s
}

fn outcome(s: &Scenario, action: &str) -> Outcome {
    let i = s.actions.iter().position(|a| a.id == action).unwrap();
    run(s).actions()[i].outcome
}

#[test]
fn openai_compact_keeps_a_user_rule_that_claude_code_loses_unless_it_is_in_a_memory_file() {
    let compact = coding_day(Preset::OpenaiCompact);
    let claude = coding_day(Preset::ClaudeCode);
    assert_eq!(outcome(&compact, "clean-data-dir"), Outcome::Governed);
    assert_eq!(outcome(&claude, "clean-data-dir"), Outcome::Ungoverned);
    let mut memory = claude.clone();
    let rule = memory.fact_index("keep-legacy-import").unwrap();
    memory.facts[rule].externalised = true;
    assert_eq!(outcome(&memory, "clean-data-dir"), Outcome::Governed);
    // The CLAUDE.md rule is a memory file from the start.
    assert_eq!(outcome(&claude, "push-hotfix"), Outcome::Governed);
}

#[test]
fn openhands_masking_loses_every_tool_discovered_rule() {
    for id in builtin_ids() {
        let mut s = builtin(id).unwrap();
        s.policy = PolicyChoice::Preset(Preset::OpenhandsMasking);
        let r = run(&s);
        for (i, f) in s.facts.iter().enumerate() {
            let rule = matches!(
                f.kind,
                Kind::StandingRule | Kind::CarveOut | Kind::Correction
            );
            if f.role != Role::Tool || !rule {
                continue;
            }
            for entry in r.timeline(i) {
                if entry.state != RoundState::Tail {
                    assert_eq!(entry.state, RoundState::Dropped, "{id}/{}", f.id);
                    assert_eq!(entry.fact.fidelity, 0.0, "{id}/{}", f.id);
                }
            }
        }
    }
    let masking = coding_day(Preset::OpenhandsMasking);
    assert_eq!(outcome(&masking, "run-migration"), Outcome::Ungoverned);
    // What the user and the assistant said stays.
    assert_eq!(outcome(&masking, "clean-data-dir"), Outcome::Governed);
}

#[test]
fn codex_cli_loses_a_user_rule_once_it_is_older_than_the_user_budget() {
    let codex = coding_day(Preset::CodexCli);
    let r = run(&codex);
    let budget_turns = 20_000 / r.harness().user_message_tokens;
    assert_eq!(budget_turns, 100);
    // The carve-out (turn 5) is 67 turns old at turn 72: still verbatim.
    assert_eq!(outcome(&codex, "force-push-branch"), Outcome::Governed);
    // The no-push rule (turn 2) is 222 turns old at turn 224: summarised away,
    // where openai_compact, which keeps every user message, still has it.
    assert_eq!(outcome(&codex, "push-hotfix"), Outcome::Ungoverned);
    assert_eq!(
        outcome(&coding_day(Preset::OpenaiCompact), "push-hotfix"),
        Outcome::Governed
    );
    let rule = codex.fact_index("no-main-push").unwrap();
    let protected_until = r
        .timeline(rule)
        .filter(|e| e.state == RoundState::Protected)
        .map(|e| e.turn)
        .max()
        .unwrap();
    let first_exposed = r
        .timeline(rule)
        .find(|e| e.state == RoundState::Summarised)
        .unwrap()
        .turn;
    assert!(u64::from(protected_until) < 2 + budget_turns);
    assert!(u64::from(first_exposed) >= 2 + budget_turns);
}

#[test]
fn the_real_presets_differ_in_a_real_window() {
    // The harness presets of contract v1.1 part on outcomes alone.
    let contract = &Preset::ALL[Preset::V1.len()..13];
    let rows: Vec<(Preset, Vec<Outcome>)> = contract
        .iter()
        .map(|&p| {
            let s = coding_day(p);
            (p, run(&s).actions().iter().map(|a| a.outcome).collect())
        })
        .collect();
    for (i, (a, row_a)) in rows.iter().enumerate() {
        for (b, row_b) in &rows[i + 1..] {
            assert_ne!(row_a, row_b, "{a:?} and {b:?} agree on coding-day");
        }
    }
    // Every harness preset runs its own course: its rounds, or what each
    // action has of its rules, differ from every other's.
    let courses: Vec<(Preset, Vec<u32>, Vec<String>)> = Preset::ALL[Preset::V1.len()..]
        .iter()
        .map(|&p| {
            let r = run(&coding_day(p));
            let rounds = r.rounds().iter().map(|x| x.turn).collect();
            let had = r
                .actions()
                .iter()
                .map(|a| format!("{:?} {:.6}", a.outcome, a.fidelity))
                .collect();
            (p, rounds, had)
        })
        .collect();
    for (i, a) in courses.iter().enumerate() {
        for b in &courses[i + 1..] {
            assert!(
                a.1 != b.1 || a.2 != b.2,
                "{:?} and {:?} run the same course on coding-day",
                a.0,
                b.0
            );
        }
    }
}

/// The too-small-window warning fires for every harness preset it applies
/// to, and for no reference policy.
#[test]
fn every_harness_preset_in_a_small_window_is_warned_about() {
    // Claude Code in payments-incident's 32k window compacts every three
    // turns from turn 11: far more often than in the windows it runs at.
    let mut s = builtin("payments-incident").unwrap();
    s.policy = PolicyChoice::Preset(Preset::ClaudeCode);
    let r = run(&s);
    let warning = drift_core::window_misfit(&s, &r).expect("a warning");
    assert_eq!(
        warning,
        format!(
            "Claude Code is meant for windows of 100k tokens and more; with 32,000 tokens it compacts {} times in 70 turns.",
            r.rounds().len()
        )
    );
    for id in builtin_ids() {
        for preset in Preset::ALL {
            let mut s = builtin(id).unwrap();
            s.policy = PolicyChoice::Preset(preset);
            let r = run(&s);
            let h = r.harness();
            let misfits = r.overflow_turn().is_some() || r.rounds().len() * 4 >= h.turns as usize;
            let warned = drift_core::window_misfit(&s, &r);
            if Preset::V1.contains(&preset) {
                assert_eq!(warned, None, "{id} {}", preset.id());
            } else {
                assert_eq!(
                    warned.is_some(),
                    misfits,
                    "{id} {}: {warned:?}",
                    preset.id()
                );
            }
        }
    }
    // A custom policy is the user's own: no warning.
    s.policy = PolicyChoice::Custom(Preset::ClaudeCode.policy());
    assert_eq!(drift_core::window_misfit(&s, &run(&s)), None);
}
