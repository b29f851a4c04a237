//! Scenarios: the session to simulate and the settings to simulate it under
//! (docs/MODEL.md §6), with their validation.
//!
//! A [`Scenario`] is plain data with public fields, so a front end can edit a
//! copy freely; [`Scenario::validate`] (run by [`crate::simulate`] too) checks
//! every rule of §6 and reports the first violation as a [`ScenarioError`].
//! [`Scenario::into_valid`] checks once and keeps the proof, a
//! [`ValidScenario`], which [`crate::simulate_valid`] runs unchecked.
//! Reading and writing the JSON format lives in the `wire` module.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::error::{Collection, ScenarioError};
use crate::harness::{Harness, HarnessField, HarnessOverrides};
use crate::ids::Ids;
use crate::policy::{Policy, PolicyChoice};
use crate::settings::{Guards, ModelField, ModelParams, Setting, Value};
use crate::vocab::{Kind, Retention, Role};

/// Largest session the engine accepts, in turns.
pub const MAX_TURNS: u32 = 1_000_000;
/// Largest token count the engine accepts in any field.
pub const MAX_TOKENS: u64 = 1_000_000_000_000;

/// A session and the settings it runs under.
#[derive(Clone, Debug, PartialEq)]
pub struct Scenario {
    /// Identifier (used in results and file names).
    pub id: String,
    /// Display title.
    pub title: String,
    /// What to look for, for a person.
    pub description: String,
    /// Token budget and session length, before the policy's overrides.
    pub harness: Harness,
    /// Turns whose size differs from `harness.tokens_per_turn`.
    pub turn_tokens: Vec<TurnTokens>,
    /// The compaction policy.
    pub policy: PolicyChoice,
    /// Retention per kind.
    pub retention: Retention,
    /// The four guards.
    pub guards: Guards,
    /// Model parameters.
    pub model: ModelParams,
    /// Concrete resources that bindings point at.
    pub resources: Vec<Resource>,
    /// The facts, in file order.
    pub facts: Vec<Fact>,
    /// The consequential actions, in file order.
    pub actions: Vec<Action>,
}

/// A scenario that passed validation, with its ids resolved for the engine
/// ([`Scenario::into_valid`]): whoever holds one need not validate it again,
/// and [`crate::simulate_valid`] cannot fail. It reads as the [`Scenario`]
/// it holds; changing that means taking it out ([`ValidScenario::into_inner`])
/// and validating again.
#[derive(Clone, Debug)]
pub struct ValidScenario {
    scenario: Scenario,
    index: Index,
}

impl ValidScenario {
    /// A session with nothing in it: no facts, no actions, 70 turns of
    /// 1,500 tokens in a 32,000-token window under the default policy.
    /// Valid by construction, for a front end that must show something
    /// when what it was given cannot run.
    pub fn empty(id: &str) -> ValidScenario {
        let scenario = Scenario {
            id: id.to_string(),
            title: String::new(),
            description: String::new(),
            harness: Harness {
                window_tokens: 32_000,
                trigger_percent: 100,
                system_tokens: 2_000,
                tokens_per_turn: 1_500,
                tail_turns: 6,
                summary_tokens: 4_000,
                turns: 70,
                reserve_tokens: 0,
                user_message_tokens: Harness::DEFAULT_USER_MESSAGE_TOKENS,
            },
            turn_tokens: Vec::new(),
            policy: PolicyChoice::default(),
            retention: Retention::default(),
            guards: Guards::default(),
            model: ModelParams::default(),
            resources: Vec::new(),
            facts: Vec::new(),
            actions: Vec::new(),
        };
        let index = Index {
            policy: scenario.effective_policy(),
            harness: scenario.effective_harness(),
            actions: Vec::new(),
            governing: Vec::new(),
        };
        ValidScenario { scenario, index }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// The scenario, to change (and validate again).
    pub fn into_inner(self) -> Scenario {
        self.scenario
    }

    /// Its ids resolved for the engine.
    pub(crate) fn index(&self) -> &Index {
        &self.index
    }
}

impl core::ops::Deref for ValidScenario {
    type Target = Scenario;

    fn deref(&self) -> &Scenario {
        &self.scenario
    }
}

/// Two valid scenarios are equal when the scenarios are: the index is
/// worked out from the scenario.
impl PartialEq for ValidScenario {
    fn eq(&self, other: &ValidScenario) -> bool {
        self.scenario == other.scenario
    }
}

/// One turn's size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnTokens {
    /// The turn (`1..=turns`).
    pub turn: u32,
    /// Its size in tokens.
    pub tokens: u64,
}

/// A concrete resource a binding can point at.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Resource {
    /// Identifier (`db-staging-01`).
    pub id: String,
    /// Class: resources of one class compete for a bare phrase.
    pub class: String,
    /// Turns at which the transcript mentions it.
    pub mentions: Vec<u32>,
}

/// A phrase bound to a resource.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Binds {
    /// The phrase the agent uses ("the staging database").
    pub phrase: String,
    /// The resource it means.
    pub resource: String,
}

/// One piece of information that entered the transcript at one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Fact {
    /// Identifier, unique among facts.
    pub id: String,
    /// What it says.
    pub text: String,
    /// Who said it.
    pub role: Role,
    /// What it is.
    pub kind: Kind,
    /// When it entered (0 for the system prompt).
    pub turn: u32,
    /// Kept in a store outside the context (a memory file).
    pub externalised: bool,
    /// Included in a subagent's brief.
    pub forwarded: bool,
    /// For a `binding`: what it binds.
    pub binds: Option<Binds>,
}

/// A consequential step the agent takes, graded against its governing facts.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Identifier, unique among actions.
    pub id: String,
    /// What it does.
    pub text: String,
    /// When (`1..=turns`).
    pub turn: u32,
    /// The facts that must be in force for it (non-empty).
    pub governed_by: Vec<String>,
    /// Run by a subagent that sees only forwarded facts.
    pub delegated: bool,
    /// Cannot be undone.
    pub irreversible: bool,
    /// The `binding` fact naming what it acts on.
    pub target: Option<String>,
    /// What breaks if it runs ungoverned.
    pub consequence: String,
}

impl Scenario {
    /// The policy switches in effect.
    pub fn effective_policy(&self) -> Policy {
        self.policy.policy()
    }

    /// The harness after the policy's overrides (what the run uses).
    pub fn effective_harness(&self) -> Harness {
        self.harness.with(&self.effective_policy().harness)
    }

    /// The index of the fact with `id`.
    ///
    /// A linear search, for a lookup or two; the engine and the readings of
    /// a run resolve ids once, in [`Scenario::validate`] (a [`crate::Run`]
    /// keeps them: [`crate::Run::governing`], [`crate::Run::target`]).
    pub fn fact_index(&self, id: &str) -> Option<usize> {
        self.facts.iter().position(|f| f.id == id)
    }

    /// Checks every rule of docs/MODEL.md §6.
    ///
    /// # Errors
    ///
    /// The first violation found, naming the field and the id or turn.
    pub fn validate(&self) -> Result<(), ScenarioError> {
        self.index().map(|_| ())
    }

    /// Checks every rule of docs/MODEL.md §6 once and keeps the proof:
    /// [`crate::simulate_valid`] runs the result without checking again.
    ///
    /// # Errors
    ///
    /// The first violation found, as [`Scenario::validate`] reports it
    /// (validate a copy to keep the scenario whatever the answer).
    pub fn into_valid(self) -> Result<ValidScenario, ScenarioError> {
        let index = self.index()?;
        Ok(ValidScenario {
            scenario: self,
            index,
        })
    }

    /// Validates and resolves ids to indices for the engine.
    pub(crate) fn index(&self) -> Result<Index, ScenarioError> {
        let policy = self.effective_policy();
        validate_policy(&policy)?;
        let harness = self.effective_harness();
        validate_harness(
            &harness,
            &policy.harness,
            matches!(self.policy, PolicyChoice::Custom(_)),
        )?;
        validate_numbers(&self.retention, &self.model)?;
        let turns = harness.turns;

        // Turns sized so far (in range by then), a bit each.
        let words = if self.turn_tokens.is_empty() {
            0
        } else {
            turns as usize / 64 + 1
        };
        let mut sized = alloc::vec![0u64; words];
        for entry in &self.turn_tokens {
            check_turn(
                || alloc::format!("turn_tokens entry for turn {}", entry.turn),
                entry.turn,
                1,
                turns,
            )?;
            if !(1..=MAX_TOKENS).contains(&entry.tokens) {
                check_tokens(
                    &alloc::format!("turn_tokens entry for turn {}: tokens", entry.turn),
                    entry.tokens,
                    1,
                )?;
            }
            let (word, bit) = (entry.turn as usize / 64, 1u64 << (entry.turn % 64));
            if sized[word] & bit != 0 {
                return Err(ScenarioError::DuplicateTurnTokens { turn: entry.turn });
            }
            sized[word] |= bit;
        }

        let mut resources = Ids::with_capacity(self.resources.len());
        for r in &self.resources {
            if resources.insert(&r.id).is_err() {
                return Err(duplicate(Collection::Resources, &r.id));
            }
        }

        let mut facts = Ids::with_capacity(self.facts.len());
        let mut binding_resource = Vec::with_capacity(self.facts.len());
        for fact in &self.facts {
            if facts.insert(&fact.id).is_err() {
                return Err(duplicate(Collection::Facts, &fact.id));
            }
            match (fact.role, fact.turn) {
                (Role::System, 0) => {}
                (Role::System, turn) => {
                    return Err(ScenarioError::SystemFactNotAtTurnZero {
                        fact: fact.id.clone(),
                        turn,
                    });
                }
                (role, 0) => {
                    return Err(ScenarioError::FactAtTurnZero {
                        fact: fact.id.clone(),
                        role,
                    });
                }
                (_, turn) => check_turn(|| alloc::format!("fact \"{}\"", fact.id), turn, 1, turns)?,
            }
            let resource = match (&fact.binds, fact.kind) {
                (Some(binds), Kind::Binding) => {
                    Some(resources.get(&binds.resource).ok_or_else(|| {
                        ScenarioError::UnknownResource {
                            fact: fact.id.clone(),
                            resource: binds.resource.clone(),
                        }
                    })?)
                }
                (None, Kind::Binding) => {
                    return Err(ScenarioError::MissingBinds {
                        fact: fact.id.clone(),
                    });
                }
                (Some(_), kind) => {
                    return Err(ScenarioError::UnexpectedBinds {
                        fact: fact.id.clone(),
                        kind,
                    });
                }
                (None, _) => None,
            };
            binding_resource.push(resource);
        }

        let mut action_ids = Ids::with_capacity(self.actions.len());
        let mut actions = Vec::with_capacity(self.actions.len());
        let mut governing = alloc::vec![false; self.facts.len()];
        // Per fact, the last action (1-based) that listed it: a fact named
        // twice in one `governed_by` is seen in O(1).
        let mut listed_by = alloc::vec![0usize; self.facts.len()];
        for (a, action) in self.actions.iter().enumerate() {
            if action_ids.insert(&action.id).is_err() {
                return Err(duplicate(Collection::Actions, &action.id));
            }
            check_turn(
                || alloc::format!("action \"{}\"", action.id),
                action.turn,
                1,
                turns,
            )?;
            if action.governed_by.is_empty() {
                return Err(ScenarioError::EmptyGovernedBy {
                    action: action.id.clone(),
                });
            }
            let mut governed_by: Vec<usize> = Vec::with_capacity(action.governed_by.len());
            for id in &action.governed_by {
                let g = facts
                    .get(id)
                    .ok_or_else(|| ScenarioError::UnknownGoverningFact {
                        action: action.id.clone(),
                        fact: id.clone(),
                    })?;
                let fact = &self.facts[g];
                if fact.turn > action.turn {
                    return Err(ScenarioError::GoverningFactAfterAction {
                        action: action.id.clone(),
                        action_turn: action.turn,
                        fact: id.clone(),
                        fact_turn: fact.turn,
                    });
                }
                // A fact named twice governs once.
                if listed_by[g] != a + 1 {
                    listed_by[g] = a + 1;
                    governed_by.push(g);
                }
                governing[g] = true;
            }
            let target = match &action.target {
                None => None,
                Some(id) => {
                    let b = facts.get(id).ok_or_else(|| ScenarioError::UnknownTarget {
                        action: action.id.clone(),
                        fact: id.clone(),
                    })?;
                    let fact = &self.facts[b];
                    let Some(resource) = binding_resource[b] else {
                        return Err(ScenarioError::TargetNotBinding {
                            action: action.id.clone(),
                            fact: id.clone(),
                            kind: fact.kind,
                        });
                    };
                    if fact.turn > action.turn {
                        return Err(ScenarioError::TargetAfterAction {
                            action: action.id.clone(),
                            action_turn: action.turn,
                            fact: id.clone(),
                            fact_turn: fact.turn,
                        });
                    }
                    Some(IndexedTarget { fact: b, resource })
                }
            };
            actions.push(IndexedAction {
                governed_by,
                target,
            });
        }

        Ok(Index {
            policy,
            harness,
            actions,
            governing,
        })
    }
}

/// A validated scenario's ids resolved to indices.
#[derive(Clone, Debug)]
pub(crate) struct Index {
    pub policy: Policy,
    pub harness: Harness,
    pub actions: Vec<IndexedAction>,
    /// Whether each fact governs at least one action.
    pub governing: Vec<bool>,
}

#[derive(Clone, Debug)]
pub(crate) struct IndexedAction {
    /// Governing facts, each once, in file order of first mention.
    pub governed_by: Vec<usize>,
    pub target: Option<IndexedTarget>,
}

#[derive(Clone, Copy, Debug)]
pub(crate) struct IndexedTarget {
    pub fact: usize,
    pub resource: usize,
}

fn duplicate(collection: Collection, id: &str) -> ScenarioError {
    ScenarioError::DuplicateId {
        collection,
        id: id.to_string(),
    }
}

fn check_turn(
    what: impl FnOnce() -> String,
    turn: u32,
    min: u32,
    max: u32,
) -> Result<(), ScenarioError> {
    if (min..=max).contains(&turn) {
        Ok(())
    } else {
        Err(ScenarioError::TurnOutOfRange {
            what: what(),
            turn: u64::from(turn),
            min,
            max,
        })
    }
}

fn check_tokens(field: &str, value: u64, min: u64) -> Result<(), ScenarioError> {
    check_integer(field, value, min, MAX_TOKENS)
}

fn check_integer(field: &str, value: u64, min: u64, max: u64) -> Result<(), ScenarioError> {
    if (min..=max).contains(&value) {
        Ok(())
    } else {
        Err(ScenarioError::IntegerOutOfRange {
            field: field.to_string(),
            value,
            min,
            max,
        })
    }
}

/// Validates the harness in effect against the settings registry. A field
/// set by a custom policy's `harness` object is named as `policy.harness.…`,
/// where it must be fixed.
pub(crate) fn validate_harness(
    h: &Harness,
    overrides: &HarnessOverrides,
    custom: bool,
) -> Result<(), ScenarioError> {
    for field in HarnessField::ALL {
        let section = if custom && field.overridden(overrides).is_some() {
            "policy.harness"
        } else {
            "harness"
        };
        let name = alloc::format!("{section}.{}", field.name());
        Setting::Harness(field)
            .info()
            .check(&name, Value::Whole(field.get(h)))?;
    }
    if h.window_tokens <= h.system_tokens {
        return Err(ScenarioError::WindowNotAboveSystem {
            window_tokens: h.window_tokens,
            system_tokens: h.system_tokens,
        });
    }
    Ok(())
}

pub(crate) fn validate_policy(p: &Policy) -> Result<(), ScenarioError> {
    check_integer(
        "policy.keep_first_turns",
        u64::from(p.keep_first_turns),
        0,
        u64::from(MAX_TURNS),
    )?;
    if let Some(percent) = p.tail_percent {
        check_integer("policy.tail_percent", u64::from(percent), 1, 99)?;
    }
    if let Some(budget) = p.user_budget_tokens {
        check_tokens("policy.user_budget_tokens", budget, 1)?;
    }
    Ok(())
}

pub(crate) fn validate_numbers(
    retention: &Retention,
    model: &ModelParams,
) -> Result<(), ScenarioError> {
    let numbers = Kind::ALL
        .into_iter()
        .map(|k| (Setting::Retention(k), retention.get(k)))
        .chain(
            ModelField::ALL
                .into_iter()
                .map(|f| (Setting::Model(f), f.get(model))),
        );
    for (setting, value) in numbers {
        let info = setting.info();
        info.check(&info.id(), Value::Number(value))?;
    }
    Ok(())
}
