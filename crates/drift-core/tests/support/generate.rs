//! Random valid scenarios from a seed, for property tests.

use drift_core::{
    Action, Binds, Fact, Guards, Harness, HarnessOverrides, Kind, ModelParams, Policy,
    PolicyChoice, Preset, Resource, Retention, Role, RoleSet, Scenario, TurnTokens,
};

pub use super::rng::Rng;

/// What the generator may vary.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    pub guards: bool,
    pub uniform_turns: bool,
    pub token_tail: bool,
}

impl Shape {
    pub const ANY: Shape = Shape {
        guards: true,
        uniform_turns: false,
        token_tail: true,
    };
    pub const NO_GUARDS: Shape = Shape {
        guards: false,
        uniform_turns: false,
        token_tail: true,
    };
}

pub fn scenario(seed: u64, shape: Shape) -> Scenario {
    let mut rng = Rng::new(seed);
    let turns = rng.range(4, 90) as u32;
    let window = rng.range(4_000, 60_000);
    let harness = Harness {
        window_tokens: window,
        trigger_percent: if rng.chance(50) {
            100
        } else {
            rng.range(40, 100) as u32
        },
        system_tokens: rng.range(0, window / 4),
        tokens_per_turn: rng.range(100, 4_000),
        tail_turns: rng.range(1, 9) as u32,
        summary_tokens: rng.range(128, 9_000),
        turns,
        reserve_tokens: if rng.chance(25) {
            rng.range(1, window / 2)
        } else {
            0
        },
        user_message_tokens: rng.range(50, 400),
    };
    let mut turn_tokens: Vec<TurnTokens> = Vec::new();
    if !shape.uniform_turns {
        for _ in 0..rng.range(0, 5) {
            let turn = rng.range(1, turns as u64) as u32;
            if turn_tokens.iter().all(|e| e.turn != turn) {
                turn_tokens.push(TurnTokens {
                    turn,
                    tokens: rng.range(1, 20_000),
                });
            }
        }
    }
    let policy = if rng.chance(50) {
        let preset = rng.pick(&Preset::ALL);
        let p = preset.policy();
        if !shape.token_tail && p.tail_percent.is_some() {
            PolicyChoice::Preset(Preset::PinnedPrefix)
        } else {
            PolicyChoice::Preset(preset)
        }
    } else {
        let roles: RoleSet = Role::ALL.into_iter().filter(|_| rng.chance(35)).collect();
        PolicyChoice::Custom(Policy {
            compacts: rng.chance(90),
            protected_roles: roles,
            summarises: rng.chance(75),
            rereads_external: rng.chance(50),
            keep_first_turns: if rng.chance(30) {
                rng.range(1, 6) as u32
            } else {
                0
            },
            tail_percent: if shape.token_tail && rng.chance(30) {
                Some(rng.range(1, 99) as u32)
            } else {
                None
            },
            user_budget_tokens: if rng.chance(30) {
                Some(rng.range(1, 20_000))
            } else {
                None
            },
            harness: HarnessOverrides {
                trigger_percent: if rng.chance(20) {
                    Some(rng.range(50, 100) as u32)
                } else {
                    None
                },
                ..HarnessOverrides::NONE
            },
        })
    };
    let mut retention = Retention::default();
    for kind in Kind::ALL {
        if rng.chance(50) {
            retention.set(kind, rng.unit());
        }
    }
    let model = ModelParams {
        actionable_threshold: if rng.chance(50) { 0.5 } else { rng.unit() },
        pressure_sensitivity: if rng.chance(50) { 0.0 } else { rng.unit() },
        fabrication_base: rng.unit() * 0.3,
        fabrication_exponent: rng.unit() * 3.0,
        laundering_threshold: rng.unit(),
    };
    let guards = if shape.guards {
        Guards {
            reinject_constraints: rng.chance(40),
            verify_bindings: rng.chance(40),
            entailment_gate: rng.chance(40),
            commitment_audit: rng.chance(40),
        }
    } else {
        Guards::default()
    };

    let classes = ["database", "ticket"];
    let resources: Vec<Resource> = (0..rng.range(0, 5))
        .map(|i| Resource {
            id: format!("r{i}"),
            class: rng.pick(&classes).to_string(),
            mentions: (0..rng.range(0, 4))
                .map(|_| rng.range(1, turns as u64) as u32)
                .collect(),
        })
        .collect();

    let mut facts = Vec::new();
    for i in 0..rng.range(1, 14) {
        let role = rng.pick(&Role::ALL);
        let mut kind = rng.pick(&Kind::ALL);
        if kind == Kind::Binding && resources.is_empty() {
            kind = Kind::Scope;
        }
        let binds = (kind == Kind::Binding).then(|| Binds {
            phrase: format!("the thing {i}"),
            resource: resources[rng.range(0, resources.len() as u64 - 1) as usize]
                .id
                .clone(),
        });
        facts.push(Fact {
            id: format!("f{i}"),
            text: format!("fact {i}"),
            role,
            kind,
            turn: if role == Role::System {
                0
            } else {
                rng.range(1, turns as u64) as u32
            },
            externalised: rng.chance(25),
            forwarded: rng.chance(75),
            binds,
        });
    }

    let mut actions = Vec::new();
    for i in 0..rng.range(0, 9) {
        let turn = rng.range(1, turns as u64) as u32;
        let eligible: Vec<usize> = (0..facts.len())
            .filter(|&f| facts[f].turn <= turn)
            .collect();
        if eligible.is_empty() {
            continue;
        }
        let mut governed_by = vec![facts[rng.pick(&eligible)].id.clone()];
        for _ in 0..rng.range(0, 2) {
            governed_by.push(facts[rng.pick(&eligible)].id.clone());
        }
        let bindings: Vec<usize> = eligible
            .iter()
            .copied()
            .filter(|&f| facts[f].kind == Kind::Binding)
            .collect();
        let target =
            (!bindings.is_empty() && rng.chance(60)).then(|| facts[rng.pick(&bindings)].id.clone());
        actions.push(Action {
            id: format!("a{i}"),
            text: format!("action {i}"),
            turn,
            governed_by,
            delegated: rng.chance(25),
            irreversible: rng.chance(40),
            target,
            consequence: String::new(),
        });
    }

    Scenario {
        id: format!("generated-{seed}"),
        title: String::new(),
        description: String::new(),
        harness,
        turn_tokens,
        policy,
        retention,
        guards,
        model,
        resources,
        facts,
        actions,
    }
}
