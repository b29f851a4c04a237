//! # drift-core: what automatic context compaction does to an agent's rules
//!
//! The engine behind Compaction Drift. It takes a [`Scenario`] (a long agent
//! session: facts that enter at given turns, consequential actions governed by
//! them, a harness that compacts the context when it fills, a policy and
//! guards) and returns a [`Run`]: the compaction rounds, every fact's fidelity
//! round by round, and every action graded `governed`, `weakly_governed`,
//! `ungoverned`, `misbound`, `refused` or `not_reached`.
//!
//! The behaviour is the model contract (`docs/MODEL.md`,
//! v1.1); the private module tree follows it, and every public item is
//! re-exported here, at one path:
//!
//! | model | items | module |
//! | --- | --- | --- |
//! | §1 vocabulary | [`Kind`], [`Role`], [`RoleSet`], [`Retention`] | `vocab` |
//! | §2, §9 harness | [`Harness`], [`HarnessField`], [`HarnessOverrides`] | `harness` |
//! | §2, §9 when rounds happen | [`ContextFill`] (the tokens in context, turn by turn) | `schedule` |
//! | §3 what a round does to a fact | [`FactState`], [`RoundState`] | `round` |
//! | §4, §9 policies and presets | [`Policy`], [`PolicyChoice`], [`Preset`], [`PresetInfo`] | `policy` |
//! | §5 grading | [`Outcome`], [`Reason`], [`ActionOutcome`] | `grade` |
//! | §6 the scenario and its validation | [`Scenario`], [`Fact`], [`Action`], [`Resource`], [`ScenarioError`] | `scenario`, `error` |
//! | §6 the settings, declared once | [`SETTINGS`], [`SettingInfo`], [`Setting`], [`Guards`], [`ModelParams`] | `settings` |
//! | §6, §7 the file formats | [`parse_scenario`], [`scenario_to_json`], [`result_to_json`], [`ResultJson`] (the result, serialised lazily) | `wire` |
//! | §8 the built-in scenarios | [`builtin`], [`builtin_ids`] | `builtin` |
//! | a harness's remedy, modelled | [`apply_remedy`], [`remedied_scenario`], [`Remedied`], [`Remedy`], [`RemedyHarness`], [`rules_at_stake`] | `remedy` |
//! | a remedy written out, to paste | [`remedy_text`], [`remedy_rules`], [`RemedyText`], [`RemedyRule`], [`RemedyPaste`], [`RemedyPaths`] | `remedy_text` |
//! | a run | [`simulate`], [`Run`], [`Round`], [`Regime`], [`TimelineEntry`] | `run` |
//! | every scenario under every preset (`matrix@1`) | [`Matrix`], [`MatrixRow`] | `matrix` |
//! | per action, what flips its outcome (`tipping@1`) | [`tipping_points`], [`action_tipping`], [`TippingPoints`], [`ActionTipping`] | `tipping` |
//!
//! Read from a run: [`explain`] (why an action ended as it did, in one
//! sentence), [`round_losses`] (round by round, which facts each round took
//! below the line, dropped, spilled or left unverified, and which later
//! actions that reaches) and [`tipping_points`] (per action, the smallest
//! change of one retention, the window or one fact that flips its outcome).
//!
//! Real sessions (transcript readers, import, audit, entailment and the
//! runtime guards) are the `drift-session` crate's, which builds on this one.
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
//!   are bounded ([`MAX_TURNS`], [`MAX_TOKENS`]) so token sums cannot
//!   overflow.
//! - **Linear.** Reading a file and validating it cost time linear in its
//!   size (ids are hashed). A run costs O(sized turns + rounds · log turns +
//!   facts · log rounds + actions · (governing facts + log rounds)): the
//!   turns between rounds are summed, not visited. Fact states are produced
//!   on request in O(1) each, so a full timeline costs time linear in its
//!   size (the `round` module's documentation says how), and what is read
//!   from a run costs no walk over the rounds either: an [`explain`] is
//!   O(governing facts · log rounds), [`round_losses`] O(rounds + facts ·
//!   log rounds + actions · governing facts), and [`ResultJson`] writes a
//!   result of any size in constant memory.
//!
//! ## Readings of the contract
//!
//! Where `docs/MODEL.md` leaves room, the engine reads it as follows.
//!
//! - A fact named twice in one `governed_by` governs once (it enters the
//!   minimum and the fabrication-risk product once).
//! - `null` for an optional field means the field is absent.
//! - The fabrication hazard is 0 when `fabrication_base` is 0, even where
//!   `(4096 / B) ^ exponent` overflows to infinity.
//! - A resource `mentions` turn may lie outside the session; mentions after
//!   an action's turn do not count for it.
//! - `resources[].class` is required; `mentions` defaults to empty.
//! - Turns are limited to [`MAX_TURNS`] and token counts to
//!   [`MAX_TOKENS`]; larger values are validation errors.
//! - Fidelity under context pressure is `retention^n · Π(1 - s·o_k)`: the
//!   power is multiplied in sequence as the literal reading does (bit-exact
//!   when `pressure_sensitivity` is 0, the default), the pressure product via
//!   prefix sums of logarithms (within 1e-12 of the literal reading).

#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod builtin;
mod error;
mod explain;
mod grade;
mod harness;
mod ids;
mod json;
mod losses;
mod matrix;
mod policy;
mod remedy;
mod remedy_text;
mod round;
mod run;
mod scenario;
mod schedule;
mod settings;
mod tipping;
mod vocab;
mod wire;

pub use builtin::{builtin, builtin_ids, builtin_source};
pub use error::{Collection, ScenarioError};
pub use explain::{Cause, Explanation, explain, thousands, window_misfit};
pub use grade::{ActionOutcome, Outcome, Reason};
pub use harness::{Harness, HarnessField, HarnessOverrides};
pub use losses::{FactChange, RoundLoss, StandingChange, round_losses};
pub use matrix::{MATRIX_FORMAT, Matrix, MatrixRow};
pub use policy::{Policy, PolicyChoice, Preset, PresetInfo, PresetNotes};
pub use remedy::{
    CompactHook, HarnessProfile, Remedied, Remedy, RemedyError, RemedyHarness, apply_remedy,
    preset_for, remedied_scenario, rules_at_stake,
};
pub use remedy_text::{
    RemedyPaste, RemedyPaths, RemedyRule, RemedyText, remedy_rules, remedy_text, unheard_hooks,
};
pub use round::{FactState, RoundState};
pub use run::{OutcomeCounts, Regime, Round, Run, TimelineEntry, simulate, simulate_valid};
pub use scenario::{
    Action, Binds, Fact, MAX_TOKENS, MAX_TURNS, Resource, Scenario, TurnTokens, ValidScenario,
};
pub use schedule::ContextFill;
pub use settings::{
    Control, Guard, Guards, ModelField, ModelParams, Range, SETTINGS, Setting, SettingInfo, Unit,
    Value, WrongValue, find_setting,
};
pub use tipping::{
    ActionTipping, FactFix, Flip, Lever, MAX_RETENTION_INTERVALS, MAX_WINDOW_RUNS, Method,
    RETENTION_TOLERANCE, RetentionTip, TIPPING_FORMAT, TippingPoints, WindowTip, action_tipping,
    tipping_points,
};
pub use vocab::{Kind, Retention, Role, RoleSet};
pub use wire::{
    RESULT_FORMAT, ResultJson, SCENARIO_FORMAT, parse_scenario, result_to_json, scenario_to_json,
};
