//! Remedies: what an operator changes in a harness so that the rules an
//! agent must obey survive compaction, applied to a scenario so that the
//! run with the remedy can be set beside the run without.
//!
//! A [`RemedyHarness`] is a harness preset (or opencode, which has none);
//! each offers one or more [`Remedy`]s, its own mechanisms for keeping a
//! rule through compaction. [`apply_remedy`] returns the scenario under the
//! harness without the remedy and with it ([`Remedied`]), the facts the
//! remedy carries ([`rules_at_stake`]: the standing rules, carve-outs,
//! corrections, scopes and bindings that govern, or are the target of, an
//! action that ends ungoverned or misbound without it, and that are no
//! longer verbatim at that action), and, sentence by sentence, what the
//! model represents of the remedy and what it cannot.
//!
//! | remedy | harnesses | modelled as |
//! | --- | --- | --- |
//! | [`Remedy::RestateHook`] | Claude Code | the `reinject_constraints` guard (standing rules, carve-outs, corrections; not scopes or bindings) |
//! | [`Remedy::ClaudeMd`] | Claude Code | the facts externalised; the preset re-reads them |
//! | [`Remedy::CompactPrompt`], [`Remedy::CompactingPlugin`] | Codex CLI, opencode | retention 1 for the facts' kinds (the nearest the model has to "the summary keeps these verbatim") |
//! | [`Remedy::Instructions`] | Codex CLI, OpenAI compact, OpenHands, deepagents, opencode | the facts moved into the system prompt (role `system`, turn 0) |
//! | [`Remedy::KeepFirst`] | OpenHands summarizing | the policy's `keep_first_turns` up to the facts' latest turn |
//! | [`Remedy::MemoryBlock`] | Letta | the facts externalised; the preset re-reads them |
//!
//! Pure and total like the rest of the crate: a scenario that does not
//! validate under the harness is a [`RemedyError`], never a panic.
//!
//! ```
//! use drift_core::{Outcome, Remedy, RemedyHarness, apply_remedy, builtin, simulate};
//!
//! let scenario = builtin("payments-incident").unwrap();
//! let r = apply_remedy(&scenario, RemedyHarness::ClaudeCode, Remedy::RestateHook).unwrap();
//! let ungoverned = |s| {
//!     simulate(s).unwrap().actions().iter().filter(|a| a.outcome == Outcome::Ungoverned).count()
//! };
//! assert!(ungoverned(&r.with) < ungoverned(&r.without));
//! assert!(r.with.guards.reinject_constraints);
//! ```

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::error::ScenarioError;
use crate::grade::Outcome;
use crate::policy::{PolicyChoice, Preset};
use crate::run::{Run, simulate};
use crate::scenario::Scenario;
use crate::vocab::{Kind, Role};

/// A harness a remedy is written for: the harness presets, and opencode.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum RemedyHarness {
    ClaudeCode,
    CodexCli,
    OpenaiCompact,
    OpenhandsSummarizing,
    OpenhandsMasking,
    LettaSliding,
    Deepagents,
    /// opencode: no preset models it; the scenario's own policy stands in.
    Opencode,
}

impl RemedyHarness {
    /// Every harness, in the order of the presets.
    pub const ALL: [RemedyHarness; 8] = [
        RemedyHarness::ClaudeCode,
        RemedyHarness::CodexCli,
        RemedyHarness::OpenaiCompact,
        RemedyHarness::OpenhandsSummarizing,
        RemedyHarness::OpenhandsMasking,
        RemedyHarness::LettaSliding,
        RemedyHarness::Deepagents,
        RemedyHarness::Opencode,
    ];

    /// Its preset, when there is one.
    pub const fn preset(self) -> Option<Preset> {
        match self {
            RemedyHarness::ClaudeCode => Some(Preset::ClaudeCode),
            RemedyHarness::CodexCli => Some(Preset::CodexCli),
            RemedyHarness::OpenaiCompact => Some(Preset::OpenaiCompact),
            RemedyHarness::OpenhandsSummarizing => Some(Preset::OpenhandsSummarizing),
            RemedyHarness::OpenhandsMasking => Some(Preset::OpenhandsMasking),
            RemedyHarness::LettaSliding => Some(Preset::LettaSliding),
            RemedyHarness::Deepagents => Some(Preset::Deepagents),
            RemedyHarness::Opencode => None,
        }
    }

    /// The identifier: the preset's id, or `opencode`.
    pub const fn id(self) -> &'static str {
        match self.preset() {
            Some(p) => p.id(),
            None => "opencode",
        }
    }

    /// The name shown to people.
    pub const fn name(self) -> &'static str {
        match self.preset() {
            Some(p) => p.info().name,
            None => "opencode",
        }
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<RemedyHarness> {
        RemedyHarness::ALL.into_iter().find(|h| h.id() == id)
    }

    /// The harness a preset approximates (`None` for the reference policies).
    pub fn of_preset(preset: Preset) -> Option<RemedyHarness> {
        RemedyHarness::ALL
            .into_iter()
            .find(|h| h.preset() == Some(preset))
    }

    /// Its remedies, the one that carries most first.
    pub const fn remedies(self) -> &'static [Remedy] {
        match self {
            RemedyHarness::ClaudeCode => &[Remedy::RestateHook, Remedy::ClaudeMd],
            RemedyHarness::CodexCli => &[Remedy::CompactPrompt, Remedy::Instructions],
            RemedyHarness::OpenaiCompact => &[Remedy::Instructions],
            RemedyHarness::OpenhandsSummarizing => &[Remedy::KeepFirst, Remedy::Instructions],
            RemedyHarness::OpenhandsMasking => &[Remedy::Instructions],
            RemedyHarness::LettaSliding => &[Remedy::MemoryBlock],
            RemedyHarness::Deepagents => &[Remedy::Instructions],
            RemedyHarness::Opencode => &[Remedy::CompactingPlugin, Remedy::Instructions],
        }
    }
}

/// One change to a harness that keeps rules through compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Remedy {
    /// Claude Code: a `SessionStart` hook (matcher `compact`) that restates
    /// what each compaction lost (`drift hook claude-code`).
    RestateHook,
    /// Claude Code: the rules written into the project-root CLAUDE.md,
    /// which is re-read from disk after every compaction.
    ClaudeMd,
    /// Codex CLI: a compaction prompt (`compact_prompt`,
    /// `experimental_compact_prompt_file`) asking the summary to carry the
    /// rules word for word. Local compaction only.
    CompactPrompt,
    /// The rules in text the harness sends with every request, outside the
    /// history it compacts: AGENTS.md (Codex CLI, opencode, OpenHands V1,
    /// deepagents' memory), `developer_instructions`, a Responses request's
    /// `instructions`, deepagents' `system_prompt`.
    Instructions,
    /// OpenHands: the condenser's `keep_first` raised to cover the events
    /// that state the rules.
    KeepFirst,
    /// Letta: the rules in a core memory block.
    MemoryBlock,
    /// opencode: an `experimental.session.compacting` plugin hook that adds
    /// the rules to the compaction prompt.
    CompactingPlugin,
}

impl Remedy {
    /// Every remedy.
    pub const ALL: [Remedy; 7] = [
        Remedy::RestateHook,
        Remedy::ClaudeMd,
        Remedy::CompactPrompt,
        Remedy::Instructions,
        Remedy::KeepFirst,
        Remedy::MemoryBlock,
        Remedy::CompactingPlugin,
    ];

    /// The identifier (`restate_hook`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Remedy::RestateHook => "restate_hook",
            Remedy::ClaudeMd => "claude_md",
            Remedy::CompactPrompt => "compact_prompt",
            Remedy::Instructions => "instructions",
            Remedy::KeepFirst => "keep_first",
            Remedy::MemoryBlock => "memory_block",
            Remedy::CompactingPlugin => "compacting_plugin",
        }
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<Remedy> {
        Remedy::ALL.into_iter().find(|r| r.id() == id)
    }
}

/// Why a remedy could not be applied.
#[derive(Clone, Debug, PartialEq)]
pub enum RemedyError {
    /// The harness has no such mechanism.
    NotOffered {
        /// The harness.
        harness: RemedyHarness,
        /// The remedy asked for.
        remedy: Remedy,
    },
    /// The scenario does not validate under the harness's preset.
    Scenario(ScenarioError),
}

impl fmt::Display for RemedyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RemedyError::NotOffered { harness, remedy } => {
                let offered: Vec<&str> = harness.remedies().iter().map(|r| r.id()).collect();
                write!(
                    f,
                    "{} has no remedy \"{}\" (its remedies: {})",
                    harness.id(),
                    remedy.id(),
                    offered.join(", ")
                )
            }
            RemedyError::Scenario(e) => write!(f, "{e}"),
        }
    }
}

impl core::error::Error for RemedyError {}

impl From<ScenarioError> for RemedyError {
    fn from(e: ScenarioError) -> RemedyError {
        RemedyError::Scenario(e)
    }
}

/// A remedy applied to a scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Remedied {
    /// The harness.
    pub harness: RemedyHarness,
    /// The remedy.
    pub remedy: Remedy,
    /// The scenario under the harness's preset (opencode: its own policy),
    /// without the remedy.
    pub without: Scenario,
    /// The same with the remedy applied.
    pub with: Scenario,
    /// The facts the remedy carries (indices into `facts`, file order):
    /// [`rules_at_stake`] of the run without it.
    pub rules: Vec<usize>,
    /// What the model represents of the remedy, a sentence each.
    pub modelled: Vec<String>,
    /// What it cannot represent, a sentence each.
    pub not_modelled: Vec<String>,
}

/// Kinds a remedy carries.
const fn carried(kind: Kind) -> bool {
    kind.is_constraint() || matches!(kind, Kind::Scope | Kind::Binding)
}

/// The facts a remedy should carry: standing rules, carve-outs,
/// corrections, scopes and bindings that govern, or are the target of, an
/// action that `run` grades ungoverned or misbound, and that are no longer
/// verbatim in the main context at that action. Indices into
/// `scenario.facts`, in file order. (A fact that is verbatim there and is
/// still lost to a subagent was not forwarded: no compaction remedy helps.)
pub fn rules_at_stake(scenario: &Scenario, run: &Run) -> Vec<usize> {
    let mut at_stake = alloc::vec![false; scenario.facts.len()];
    for (action, graded) in scenario.actions.iter().zip(run.actions()) {
        if !matches!(graded.outcome, Outcome::Ungoverned | Outcome::Misbound) {
            continue;
        }
        let facts = action
            .governed_by
            .iter()
            .chain(action.target.as_ref())
            .filter_map(|id| scenario.fact_index(id));
        for i in facts {
            let Some(fact) = scenario.facts.get(i) else {
                continue;
            };
            let degraded = run
                .fact_state_at_turn(i, action.turn)
                .is_some_and(|s| s.fidelity < 1.0);
            if carried(fact.kind)
                && degraded
                && let Some(flag) = at_stake.get_mut(i)
            {
                *flag = true;
            }
        }
    }
    at_stake
        .iter()
        .enumerate()
        .filter_map(|(i, at)| at.then_some(i))
        .collect()
}

/// Ids of the facts at `indices`, for sentences: `"a", "b"`.
fn ids(scenario: &Scenario, indices: &[usize]) -> String {
    let names: Vec<String> = indices
        .iter()
        .filter_map(|&i| scenario.facts.get(i))
        .map(|f| format!("\"{}\"", f.id))
        .collect();
    names.join(", ")
}

/// The kinds among the facts at `indices`, in [`Kind::ALL`] order.
fn kinds(scenario: &Scenario, indices: &[usize]) -> Vec<Kind> {
    Kind::ALL
        .into_iter()
        .filter(|k| {
            indices
                .iter()
                .any(|&i| scenario.facts.get(i).is_some_and(|f| f.kind == *k))
        })
        .collect()
}

/// Where [`Remedy::Instructions`] puts the rules, per harness.
const fn instructions_home(harness: RemedyHarness) -> &'static str {
    match harness {
        RemedyHarness::CodexCli => {
            "AGENTS.md (or developer_instructions), which Codex puts back after every compaction"
        }
        RemedyHarness::OpenaiCompact => {
            "the request's instructions, sent again with every request and never part of the compacted items"
        }
        RemedyHarness::OpenhandsSummarizing | RemedyHarness::OpenhandsMasking => {
            "AGENTS.md or the agent context's system_message_suffix, which the OpenHands SDK renders into the system prompt"
        }
        RemedyHarness::Deepagents => {
            "the system_prompt, or an AGENTS.md passed as memory, which deepagents adds to the system prompt of every call"
        }
        RemedyHarness::Opencode => {
            "AGENTS.md, which opencode sends as instructions with every request"
        }
        RemedyHarness::ClaudeCode | RemedyHarness::LettaSliding => "the system prompt",
    }
}

/// What `remedy` changes in `with`, for the facts `rules` it carries (the
/// module table); for [`Remedy::KeepFirst`], the head it keeps (else 0).
fn change(with: &mut Scenario, remedy: Remedy, rules: &[usize]) -> u32 {
    match remedy {
        Remedy::RestateHook => with.guards.reinject_constraints = true,
        Remedy::ClaudeMd | Remedy::MemoryBlock => {
            for &i in rules {
                if let Some(f) = with.facts.get_mut(i) {
                    f.externalised = true;
                }
            }
        }
        Remedy::CompactPrompt | Remedy::CompactingPlugin => {
            for k in kinds(with, rules) {
                with.retention.set(k, 1.0);
            }
        }
        Remedy::Instructions => {
            for &i in rules {
                if let Some(f) = with.facts.get_mut(i) {
                    f.role = Role::System;
                    f.turn = 0;
                }
            }
        }
        Remedy::KeepFirst => {
            let mut policy = with.effective_policy();
            let head = rules
                .iter()
                .filter_map(|&i| with.facts.get(i))
                .map(|f| f.turn)
                .max()
                .unwrap_or(0)
                .max(policy.keep_first_turns);
            policy.keep_first_turns = head;
            with.policy = PolicyChoice::Custom(policy);
            return head;
        }
    }
    0
}

/// The scenario with `remedy` of `harness` applied: [`apply_remedy`]'s
/// [`Remedied::with`], without the sentences that explain it (a caller
/// that only runs it links less).
///
/// # Errors
///
/// As [`apply_remedy`].
pub fn remedied_scenario(
    scenario: &Scenario,
    harness: RemedyHarness,
    remedy: Remedy,
) -> Result<Scenario, RemedyError> {
    if !harness.remedies().contains(&remedy) {
        return Err(RemedyError::NotOffered { harness, remedy });
    }
    let mut with = scenario.clone();
    if let Some(p) = harness.preset() {
        with.policy = PolicyChoice::Preset(p);
    }
    let rules = rules_at_stake(&with, &simulate(&with)?);
    change(&mut with, remedy, &rules);
    with.validate()?;
    Ok(with)
}

/// Applies `remedy` of `harness` to `scenario`: the scenario is first put
/// under the harness's preset (opencode keeps the scenario's policy), run
/// once to find the [`rules_at_stake`], and changed as the module table
/// says.
///
/// # Errors
///
/// [`RemedyError::NotOffered`] when the harness lacks the remedy;
/// [`RemedyError::Scenario`] when the scenario does not validate under the
/// harness (or with the remedy).
pub fn apply_remedy(
    scenario: &Scenario,
    harness: RemedyHarness,
    remedy: Remedy,
) -> Result<Remedied, RemedyError> {
    if !harness.remedies().contains(&remedy) {
        return Err(RemedyError::NotOffered { harness, remedy });
    }
    let mut without = scenario.clone();
    let mut modelled = Vec::new();
    let mut not_modelled = Vec::new();
    match harness.preset() {
        Some(p) => {
            without.policy = PolicyChoice::Preset(p);
            modelled.push(format!(
                "Both runs use the {} preset ({}).",
                p.id(),
                p.info().name
            ));
        }
        None => not_modelled.push(format!(
            "No preset models {}: the scenario's own policy ({}) stands in for its compaction.",
            harness.name(),
            scenario.policy.id()
        )),
    }
    let run = simulate(&without)?;
    let rules = rules_at_stake(&without, &run);
    let listed = ids(&without, &rules);
    let mut with = without.clone();
    let head = change(&mut with, remedy, &rules);
    match remedy {
        Remedy::RestateHook => {
            modelled.push(
                "The hook as the reinject_constraints guard: after every round, standing rules, carve-outs and corrections are back word for word."
                    .to_string(),
            );
            let uncovered: Vec<usize> = rules
                .iter()
                .copied()
                .filter(|&i| with.facts.get(i).is_some_and(|f| !f.kind.is_constraint()))
                .collect();
            if !uncovered.is_empty() {
                not_modelled.push(format!(
                    "The guard covers standing rules, carve-outs and corrections only: {} (a scope or binding) stays as it was, although the hook restates a scope and an id the summary re-attributed when the audit finds them.",
                    ids(&with, &uncovered)
                ));
            }
            not_modelled.push(
                "The hook restates what the audit of the log finds lost, read from the session's words; the guard restores every constraint, found or not."
                    .to_string(),
            );
            not_modelled.push(
                "The hook's text reaches the main agent: a subagent has a rule only if its brief forwards it (each fact's forwarded flag)."
                    .to_string(),
            );
        }
        Remedy::ClaudeMd | Remedy::MemoryBlock => {
            if remedy == Remedy::ClaudeMd {
                modelled.push(format!(
                    "The facts carried ({listed}) as externalised: Claude Code re-reads the project-root CLAUDE.md from disk after every compaction, as the claude_code preset re-reads externalised facts."
                ));
                not_modelled.push(
                    "Where in CLAUDE.md: a nested CLAUDE.md, or a .claude/rules file with paths: in its front matter, is lost until a matching file is read again; the model re-reads every externalised fact."
                        .to_string(),
                );
            } else {
                modelled.push(format!(
                    "The facts carried ({listed}) as externalised: Letta renders core memory blocks into the system message of every request, as the letta_sliding preset re-reads externalised facts."
                ));
                not_modelled.push(
                    "An agent may rewrite a block it can write to (unless the block is read_only): the model treats the block as fixed."
                        .to_string(),
                );
            }
            not_modelled.push(
                "The tokens the file or block adds to every request: the schedule of rounds is unchanged."
                    .to_string(),
            );
        }
        Remedy::CompactPrompt | Remedy::CompactingPlugin => {
            let kinds = kinds(&without, &rules);
            let names: Vec<&str> = kinds.iter().map(|k| k.label()).collect();
            modelled.push(format!(
                "The prompt as retention 1 for the kinds of the facts carried ({}): a summary that copies them word for word. Every fact of those kinds keeps its fidelity, not only the ones listed; fabrication risk still grows each round, as for any summarised text.",
                if names.is_empty() { "none".to_string() } else { names.join(", ") }
            ));
            not_modelled.push(
                "Whether the summariser obeys the prompt: the model has no switch for a summary that keeps chosen facts verbatim, so retention 1 per kind is the nearest it has."
                    .to_string(),
            );
            if remedy == Remedy::CompactPrompt {
                not_modelled.push(
                    "Remote compaction: with the OpenAI provider Codex compacts on OpenAI's servers and ignores compact_prompt, so there the run with the remedy is the run without."
                        .to_string(),
                );
            }
        }
        Remedy::Instructions => {
            modelled.push(format!(
                "The facts carried ({listed}) moved into the system prompt (role system, turn 0): {}.",
                instructions_home(harness)
            ));
            not_modelled.push(
                "The tokens the rules add to the system prompt: the schedule of rounds is unchanged."
                    .to_string(),
            );
            not_modelled.push(
                "A rule that arrived mid-session governs from the start here: written into the file or prompt, it is in force for the sessions that start after the change."
                    .to_string(),
            );
        }
        Remedy::KeepFirst => {
            modelled.push(format!(
                "keep_first as the policy's keep_first_turns = {head}: turns 1 to {head}, where the facts carried ({listed}) enter, are never summarised, and their tokens stay in context after every round (the run shows what that costs)."
            ));
            not_modelled.push(
                "keep_first counts events (the system message, the first user message, the workspace context, then every message, action and observation), not turns: a turn here stands for one event."
                    .to_string(),
            );
            not_modelled.push(
                "OpenHands requires keep_first below max_size / 2: a head this long needs a larger max_size, which the model does not have (rounds are due by tokens)."
                    .to_string(),
            );
        }
    }
    with.validate()?;
    Ok(Remedied {
        harness,
        remedy,
        without,
        with,
        rules,
        modelled,
        not_modelled,
    })
}
