//! # drift-core: what automatic context compaction does to an agent's rules
//!
//! The engine behind Compaction Drift. It takes a [`Scenario`] (a long agent
//! session: facts that enter at given turns, consequential actions governed by
//! them, a harness that compacts the context when it fills, a policy and
//! guards) and returns a [`Run`]: the compaction rounds, every fact's fidelity
//! round by round, and every action graded `governed`, `weakly_governed`,
//! `ungoverned`, `misbound`, `refused` or `not_reached`.
//!
//! The behaviour is the contract `MODEL.md` v1.1; the module tree follows it:
//! [`vocab`] (§1), [`harness`] (§2 token accounting and rounds), [`round`]
//! (§3 what a round does to a fact), [`policy`] (§4, §9 presets as data),
//! [`grade`] (§5) and [`explain`](mod@explain) (why, in words), [`scenario`] and [`wire`] (§6 format and validation, §7
//! result), [`builtin`](mod@builtin) (the scenarios behind the §8 findings).
//!
//! Read from a run: [`losses`] (round by round, which facts each round took
//! below the line, dropped, spilled or left unverified, and which later
//! actions that reaches) and [`tipping`] (per action, the smallest change of
//! one retention, the window or one fact that flips its outcome).
//!
//! For real sessions, around the simulation: [`guard`] (the four guards as
//! a library a harness calls: binding ledger, constraint store, boundary
//! gate, commitment ledger), [`entail`] (does a source support a claim: the
//! [`entail::Entailment`] trait and a lexical checker that needs no model),
//! [`transcript`] (OpenAI Responses items, Codex CLI and Claude Code session
//! logs into messages), [`audit`] (a real compaction checked against what
//! it replaced) and [`import`](mod@import) (a real session as a scenario).
//!
//! ```
//! use drift_core::{builtin, simulate, Outcome, PolicyChoice, Preset};
//!
//! let mut scenario = builtin("payments-incident").unwrap();
//! let run = simulate(&scenario).unwrap();
//! assert!(run.rounds().len() >= 3);
//!
//! // The change freeze a tool revealed is lost under the default policy;
//! // kept in a memory file that the harness re-reads, it holds.
//! scenario.policy = PolicyChoice::Preset(Preset::ExternalisedState);
//! let freeze = scenario.fact_index("payments-freeze").unwrap();
//! scenario.facts[freeze].externalised = true;
//! scenario.facts[freeze].forwarded = true;
//! let run = simulate(&scenario).unwrap();
//! let rollback = scenario.actions.iter().position(|a| a.id == "rollback-payments").unwrap();
//! assert_eq!(run.actions()[rollback].outcome, Outcome::Governed);
//! ```
//!
//! ## Invariants
//!
//! - **Pure.** No I/O, no clock, no randomness, no global state. The same
//!   scenario gives the same [`Run`] and the same bytes of JSON, on every
//!   target (`#![no_std]` + `alloc`; floating point through `libm`).
//! - **Total.** No input makes it panic: every way a scenario can be wrong is
//!   a [`ScenarioError`] variant naming the field and the id or turn. Sizes
//!   are bounded ([`scenario::MAX_TURNS`], [`scenario::MAX_TOKENS`]) so token
//!   sums cannot overflow.
//! - **Linear.** A run costs O(turns + facts · log rounds + actions ·
//!   governing facts); fact states are produced on request in O(1) each, so a
//!   full timeline costs time linear in its size. See [`round`] for how.
//!
//! ## Readings of the contract
//!
//! Where `MODEL.md` leaves room, the engine reads it as follows.
//!
//! - A fact named twice in one `governed_by` governs once (it enters the
//!   minimum and the fabrication-risk product once).
//! - `null` for an optional field means the field is absent.
//! - The fabrication hazard is 0 when `fabrication_base` is 0, even where
//!   `(4096 / B) ^ exponent` overflows to infinity.
//! - A resource `mentions` turn may lie outside the session; mentions after
//!   an action's turn do not count for it.
//! - `resources[].class` is required; `mentions` defaults to empty.
//! - Turns are limited to [`scenario::MAX_TURNS`] and token counts to
//!   [`scenario::MAX_TOKENS`]; larger values are validation errors.
//! - Fidelity under context pressure is `retention^n · Π(1 - s·o_k)`: the
//!   power is multiplied in sequence as the literal reading does (bit-exact
//!   when `pressure_sensitivity` is 0, the default), the pressure product via
//!   prefix sums of logarithms (within 1e-12 of the literal reading).

#![no_std]
#![warn(missing_docs)]

extern crate alloc;

pub mod audit;
pub mod builtin;
pub mod entail;
pub mod error;
pub mod explain;
pub mod grade;
pub mod guard;
pub mod harness;
pub mod import;
pub mod losses;
pub mod policy;
pub mod round;
pub mod run;
pub mod scenario;
pub mod tipping;
pub mod transcript;
pub mod vocab;
pub mod wire;

pub use builtin::{builtin, builtin_ids, builtin_source};
pub use error::{Collection, ScenarioError};
pub use explain::{Cause, Explanation, explain};
pub use grade::{ActionOutcome, Outcome, Reason};
pub use harness::{Harness, HarnessOverrides};
pub use import::{ImportOptions, Imported, import, import_text};
pub use losses::{RoundLoss, round_losses};
pub use policy::{Policy, PolicyChoice, Preset, PresetInfo};
pub use round::{FactState, RoundState};
pub use run::{OutcomeCounts, Regime, Round, Run, TimelineEntry, simulate};
pub use scenario::{
    Action, Binds, Fact, Guard, Guards, ModelParams, Resource, Scenario, TurnTokens,
};
pub use tipping::{ActionTipping, tipping_points};
pub use vocab::{Kind, Retention, Role, RoleSet};
pub use wire::{parse_scenario, result_to_json, scenario_to_json};
