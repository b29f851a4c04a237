//! Remedies: what an operator changes in a harness so that the rules an
//! agent must obey survive compaction, applied to a scenario so that the
//! run with the remedy can be set beside the run without.
//!
//! A [`RemedyHarness`] is a harness, modelled by one or more presets; each
//! offers one or more [`Remedy`]s, its own mechanisms for keeping a rule
//! through compaction, the strongest first: what puts the rules back word
//! for word (a hook, an instruction file) before what asks the summariser
//! to keep them (a compaction prompt). [`apply_remedy`] returns the scenario under the
//! harness without the remedy and with it ([`Remedied`]), the facts the
//! remedy carries ([`rules_at_stake`]: the standing rules, carve-outs,
//! corrections, scopes and bindings that govern, or are the target of, an
//! action that ends ungoverned or misbound without it, and that are no
//! longer verbatim at that action), and, sentence by sentence, what the
//! model represents of the remedy and what it cannot.
//!
//! | remedy | harnesses | modelled as |
//! | --- | --- | --- |
//! | [`Remedy::RestateHook`] | Claude Code, Codex CLI | the `reinject_constraints` guard (standing rules, carve-outs, corrections; not scopes or bindings) |
//! | [`Remedy::ClaudeMd`] | Claude Code | the facts externalised; the preset re-reads them |
//! | [`Remedy::CompactPrompt`], [`Remedy::CompactingPlugin`] | Codex CLI, Roo Code, opencode | retention 1 for the facts' kinds (the nearest the model has to "the summary keeps these verbatim") |
//! | [`Remedy::Instructions`] | Codex CLI, OpenAI compact, OpenHands, deepagents, opencode, Gemini CLI, Roo Code, Cline | the facts moved into the system prompt (role `system`, turn 0) |
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

/// A harness a remedy is written for. Everything the engine, `drift
/// remedy`, `drift hook` and the page's Fix it know of one is its row of one
/// table ([`RemedyHarness::profile`]): adding a harness is adding a variant
/// and its row (and its remedies' words in `remedy_text`).
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
    Opencode,
    GeminiCli,
    RooCode,
    Cline,
}

/// A harness's hook that puts text back into the model's context right
/// after a compaction: what `drift hook NAME` answers and `drift hook NAME
/// --install` registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CompactHook {
    /// The harness's name on the command line (`drift hook claude-code`).
    pub command: &'static str,
    /// The event it runs on, and the matcher that picks compactions.
    pub event: &'static str,
    /// The matcher, compared with the input's `source`.
    pub matcher: &'static str,
    /// The harness's folder (`.claude`, `.codex`): in a project, at its
    /// root; for the user, under `$HOME` unless `home_variable` names it.
    pub dir: &'static str,
    /// The file in that folder that registers the hook.
    pub file: &'static str,
    /// An environment variable that names the user's folder instead.
    pub home_variable: Option<&'static str>,
    /// Seconds the registration gives the hook.
    pub timeout_seconds: u64,
    /// The most characters of context the harness passes on whole.
    pub max_chars: usize,
}

/// One harness, as remedies, hooks and the page know it.
#[derive(Clone, Copy, Debug)]
pub struct HarnessProfile {
    /// The harness.
    pub harness: RemedyHarness,
    /// The presets that model it, the one remedies run under first.
    pub presets: &'static [Preset],
    /// Its remedies, the strongest first: what puts the rules back by
    /// construction before what asks a summariser to keep them.
    pub remedies: &'static [Remedy],
    /// Its hook that reaches the model after a compaction, when it has one.
    pub hook: Option<CompactHook>,
}

const CLAUDE_HOOK: CompactHook = CompactHook {
    command: "claude-code",
    event: "SessionStart",
    matcher: "compact",
    dir: ".claude",
    file: "settings.json",
    home_variable: None,
    timeout_seconds: 30,
    max_chars: 10_000,
};

const CODEX_HOOK: CompactHook = CompactHook {
    command: "codex",
    event: "SessionStart",
    matcher: "compact",
    dir: ".codex",
    file: "hooks.json",
    home_variable: Some("CODEX_HOME"),
    timeout_seconds: 30,
    // Codex keeps a hook's output whole up to about 2,500 tokens (bytes / 4)
    // and shows the model a preview of anything longer.
    max_chars: 10_000,
};

const PROFILES: [HarnessProfile; 11] = [
    HarnessProfile {
        harness: RemedyHarness::ClaudeCode,
        presets: &[Preset::ClaudeCode, Preset::ClaudeCode1m],
        remedies: &[Remedy::RestateHook, Remedy::ClaudeMd],
        hook: Some(CLAUDE_HOOK),
    },
    HarnessProfile {
        harness: RemedyHarness::CodexCli,
        presets: &[Preset::CodexCli],
        remedies: &[
            Remedy::RestateHook,
            Remedy::Instructions,
            Remedy::CompactPrompt,
        ],
        hook: Some(CODEX_HOOK),
    },
    HarnessProfile {
        harness: RemedyHarness::OpenaiCompact,
        presets: &[Preset::OpenaiCompact],
        remedies: &[Remedy::Instructions],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::OpenhandsSummarizing,
        presets: &[Preset::OpenhandsSummarizing, Preset::OpenhandsSdk],
        remedies: &[Remedy::Instructions, Remedy::KeepFirst],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::OpenhandsMasking,
        presets: &[Preset::OpenhandsMasking],
        remedies: &[Remedy::Instructions],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::LettaSliding,
        presets: &[Preset::LettaSliding],
        remedies: &[Remedy::MemoryBlock],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::Deepagents,
        presets: &[Preset::Deepagents],
        remedies: &[Remedy::Instructions],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::Opencode,
        presets: &[Preset::Opencode],
        remedies: &[Remedy::Instructions, Remedy::CompactingPlugin],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::GeminiCli,
        presets: &[Preset::GeminiCli],
        remedies: &[Remedy::Instructions],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::RooCode,
        presets: &[Preset::RooCode],
        remedies: &[Remedy::Instructions, Remedy::CompactPrompt],
        hook: None,
    },
    HarnessProfile {
        harness: RemedyHarness::Cline,
        presets: &[Preset::Cline],
        remedies: &[Remedy::Instructions],
        hook: None,
    },
];

impl RemedyHarness {
    /// Every harness, in the order of the presets.
    pub const ALL: [RemedyHarness; 11] = [
        RemedyHarness::ClaudeCode,
        RemedyHarness::CodexCli,
        RemedyHarness::OpenaiCompact,
        RemedyHarness::OpenhandsSummarizing,
        RemedyHarness::OpenhandsMasking,
        RemedyHarness::LettaSliding,
        RemedyHarness::Deepagents,
        RemedyHarness::Opencode,
        RemedyHarness::GeminiCli,
        RemedyHarness::RooCode,
        RemedyHarness::Cline,
    ];

    /// Its row of the table.
    pub const fn profile(self) -> &'static HarnessProfile {
        &PROFILES[self as usize]
    }

    /// The preset its remedies run under.
    pub const fn preset(self) -> Preset {
        self.profile().presets[0]
    }

    /// The identifier: its preset's id.
    pub const fn id(self) -> &'static str {
        self.preset().id()
    }

    /// The name shown to people.
    pub const fn name(self) -> &'static str {
        self.preset().info().name
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<RemedyHarness> {
        RemedyHarness::ALL.into_iter().find(|h| h.id() == id)
    }

    /// The harness a preset models (`None` for the reference policies).
    pub fn of_preset(preset: Preset) -> Option<RemedyHarness> {
        RemedyHarness::ALL
            .into_iter()
            .find(|h| h.profile().presets.contains(&preset))
    }

    /// Its remedies, the strongest first.
    pub const fn remedies(self) -> &'static [Remedy] {
        self.profile().remedies
    }

    /// Its hook that reaches the model after a compaction.
    pub const fn hook(self) -> Option<CompactHook> {
        self.profile().hook
    }

    /// The harness whose hook `drift hook NAME` serves.
    pub fn of_hook(command: &str) -> Option<RemedyHarness> {
        RemedyHarness::ALL
            .into_iter()
            .find(|h| h.hook().is_some_and(|k| k.command == command))
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
    /// The scenario under the harness's preset ([`preset_for`]), without
    /// the remedy.
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
        RemedyHarness::GeminiCli => {
            "GEMINI.md, which Gemini CLI holds in memory and puts back into the context after every compression"
        }
        RemedyHarness::RooCode => {
            "a file in .roo/rules/, which Roo Code reads into the system prompt of every request"
        }
        RemedyHarness::Cline => {
            "a file in .clinerules/, which Cline composes into the system prompt of every request"
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

/// The preset a remedy of `harness` is modelled under: the scenario's own
/// when it is one of the harness's presets (Claude Code's 1M window stays
/// 1M), else the harness's first.
pub fn preset_for(scenario: &Scenario, harness: RemedyHarness) -> Preset {
    match scenario.policy {
        PolicyChoice::Preset(p) if harness.profile().presets.contains(&p) => p,
        _ => harness.preset(),
    }
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
    with.policy = PolicyChoice::Preset(preset_for(scenario, harness));
    let rules = rules_at_stake(&with, &simulate(&with)?);
    change(&mut with, remedy, &rules);
    with.validate()?;
    Ok(with)
}

/// Applies `remedy` of `harness` to `scenario`: the scenario is first put
/// under the harness's preset ([`preset_for`]: its own when it is one), run
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
    let preset = preset_for(scenario, harness);
    without.policy = PolicyChoice::Preset(preset);
    modelled.push(if scenario.policy == without.policy {
        format!(
            "Both runs use the scenario's policy, the {} preset ({}).",
            preset.id(),
            preset.info().name
        )
    } else {
        format!(
            "Both runs use the {} preset ({}) in place of the scenario's policy ({}): a remedy is modelled under the harness it is written for.",
            preset.id(),
            preset.info().name,
            scenario.policy.id()
        )
    });
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
            if harness == RemedyHarness::CodexCli {
                not_modelled.push(
                    "Codex adds the hook's text as a developer message before the next request, and runs a hook only once it is trusted in /hooks; an encrypted summary cannot be read, so the hook restates every rule the compaction may have lost."
                        .to_string(),
                );
            }
        }
        Remedy::ClaudeMd | Remedy::MemoryBlock => {
            if remedy == Remedy::ClaudeMd {
                modelled.push(format!(
                    "The facts carried ({listed}) as externalised: Claude Code re-reads the project-root CLAUDE.md from disk after every compaction, as the {} preset re-reads externalised facts.",
                    preset.id()
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
                "Whether the summariser obeys the prompt: the model has no switch for a summary that keeps chosen facts verbatim, so retention 1 per kind is the nearest it has, and the best case. Measured on real summarisers, a compaction prompt aimed at side constraints kept under 40% of them (arXiv 2608.11242), where rules put back verbatim after compaction were all obeyed (arXiv 2606.22528)."
                    .to_string(),
            );
            if harness == RemedyHarness::CodexCli {
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
