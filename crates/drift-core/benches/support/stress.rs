//! The stress session: a deterministic generator of long sessions, shared
//! by the engine benchmarks and the `stress_scenario` example (which writes
//! it as a scenario file for measuring the `drift` command as a whole).

use drift_core::{
    Action, Binds, Fact, Guards, Harness, Kind, ModelParams, PolicyChoice, Preset, Resource,
    Retention, Role, Scenario, TurnTokens,
};

use super::Rng;

/// The size of the stress scenario.
#[derive(Clone, Copy)]
pub struct Size {
    pub turns: u32,
    pub facts: usize,
    pub actions: usize,
}

pub const STRESS: Size = Size {
    turns: 100_000,
    facts: 2_000,
    actions: 1_000,
};

/// A valid scenario of `size`: mixed roles and kinds, about a tenth of the
/// facts bindings to resources of five classes, 1% of turns with their own
/// size, and a window that compacts about every 40 turns (about 2,500 rounds
/// at 100,000 turns) and never overflows.
pub fn stress(size: Size) -> Scenario {
    let mut rng = Rng::new(0x00C0_FFEE);
    let turns = size.turns;
    let harness = Harness {
        window_tokens: 56_000,
        trigger_percent: 100,
        system_tokens: 2_000,
        tokens_per_turn: 1_000,
        tail_turns: 10,
        summary_tokens: 4_000,
        turns,
        reserve_tokens: 0,
        user_message_tokens: 200,
    };
    // At most 10 tail turns of 3,000 tokens + 6,000: always room after a round.
    let mut turn_tokens = Vec::new();
    for turn in 1..=turns {
        if rng.chance(1) {
            turn_tokens.push(TurnTokens {
                turn,
                tokens: rng.range(200, 3_000),
            });
        }
    }

    let classes = ["database", "ticket", "bucket", "cluster", "branch"];
    let resources: Vec<Resource> = (0..50)
        .map(|i| {
            let mut mentions: Vec<u32> = (0..20)
                .map(|_| rng.range(1, u64::from(turns)) as u32)
                .collect();
            mentions.sort_unstable();
            Resource {
                id: format!("res-{i}"),
                class: classes[i % classes.len()].to_string(),
                mentions,
            }
        })
        .collect();

    let roles = [Role::User, Role::Assistant, Role::Tool];
    let mut facts: Vec<Fact> = (0..size.facts)
        .map(|i| {
            let system = i % 20 == 0;
            let kind = if rng.chance(10) {
                Kind::Binding
            } else {
                // Any kind but binding.
                Kind::ALL[rng.range(0, 7) as usize]
            };
            let binds = (kind == Kind::Binding).then(|| Binds {
                phrase: format!("the resource of fact {i}"),
                resource: format!("res-{}", rng.range(0, 49)),
            });
            Fact {
                id: format!("fact-{i}"),
                text: format!("Fact {i} of the stress session."),
                role: if system {
                    Role::System
                } else {
                    roles[rng.range(0, 2) as usize]
                },
                kind,
                turn: if system {
                    0
                } else {
                    rng.range(1, u64::from(turns)) as u32
                },
                externalised: rng.chance(5),
                forwarded: !rng.chance(10),
                binds,
            }
        })
        .collect();
    facts.sort_by_key(|f| f.turn);

    // Facts are sorted by turn: those introduced by turn `t` are a prefix.
    let mut actions = Vec::with_capacity(size.actions);
    for i in 0..size.actions {
        let turn = rng.range(1, u64::from(turns)) as u32;
        let known = facts.partition_point(|f| f.turn <= turn);
        let governed_by = (0..rng.range(1, 4))
            .map(|_| facts[rng.range(0, known as u64 - 1) as usize].id.clone())
            .collect();
        let bindings: Vec<&Fact> = facts[..known]
            .iter()
            .rev()
            .filter(|f| f.kind == Kind::Binding)
            .take(8)
            .collect();
        let target = if !bindings.is_empty() && rng.chance(30) {
            Some(
                bindings[rng.range(0, bindings.len() as u64 - 1) as usize]
                    .id
                    .clone(),
            )
        } else {
            None
        };
        actions.push(Action {
            id: format!("action-{i}"),
            text: format!("Action {i} of the stress session."),
            turn,
            governed_by,
            delegated: rng.chance(15),
            irreversible: rng.chance(30),
            target,
            consequence: String::new(),
        });
    }

    let scenario = Scenario {
        id: format!("stress-{turns}"),
        title: "Stress".to_string(),
        description: String::new(),
        harness,
        turn_tokens,
        policy: PolicyChoice::Preset(Preset::PinnedPrefix),
        retention: Retention::default(),
        guards: Guards::default(),
        model: ModelParams::default(),
        resources,
        facts,
        actions,
    };
    if let Err(e) = scenario.validate() {
        panic!("the stress generator made an invalid scenario: {e}");
    }
    scenario
}

/// The stress scenario with context pressure and every guard on: spills,
/// restores and the laundering regime all come into play.
pub fn pressured(mut scenario: Scenario) -> Scenario {
    scenario.model.pressure_sensitivity = 0.3;
    scenario.guards = Guards {
        reinject_constraints: true,
        verify_bindings: true,
        entailment_gate: true,
        commitment_audit: true,
    };
    scenario.id.push_str("-pressured");
    scenario
}
