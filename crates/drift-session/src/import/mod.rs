//! A real session as a scenario: a [`Transcript`] in, a [`Scenario`] out
//! that simulates what compaction would do to that session's rules, with
//! every guess the import made marked as one.
//!
//! [`import`] reads the transcript once and returns an [`Imported`]: the
//! scenario (which always passes [`Scenario::validate`] and reads back
//! through [`drift_core::scenario_to_json`] and [`drift_core::parse_scenario`]
//! unchanged), and beside it, in the same order as the scenario's facts and
//! actions, a [`FactGuess`] or [`ActionGuess`] saying where each came from
//! (message, record, byte span) and why (how sure the finder is, the pattern, what it
//! shares with its governing facts). A front end shows these so a person
//! can correct a kind, a governing fact, or drop a fact or action before
//! simulating; the edited scenario is an ordinary `scenario@1` file.
//!
//! ```
//! use drift_session::{ImportOptions, import_text, import::Governance};
//! use drift_core::{Kind, Role, simulate};
//!
//! let log = r#"{"type":"message","role":"developer","content":"Never restart payments-api without an approver."}
//! {"type":"message","role":"user","content":"Find out why payments-api is slow."}
//! {"type":"function_call","name":"shell","arguments":"{\"command\":\"kubectl rollout restart deploy/payments-api\"}","call_id":"c1"}"#;
//! let imported = import_text(log, &ImportOptions::default()).unwrap();
//! let scenario = &imported.scenario;
//! assert_eq!(scenario.harness.turns, 2);
//! assert_eq!(scenario.facts[0].role, Role::System);
//! assert_eq!(scenario.facts[0].kind, Kind::StandingRule);
//! assert_eq!(scenario.actions[0].id, "restart");
//! assert_eq!(scenario.actions[0].governed_by, [scenario.facts[0].id.clone()]);
//! assert_eq!(
//!     imported.actions[0].governance,
//!     Governance::SharedResources(vec!["deploy/payments-api".into()])
//! );
//! assert!(simulate(scenario).is_ok());
//! ```
//!
//! ## Turns and tokens
//!
//! Turn 0 is the system prompt: every system and developer message, wherever
//! it stands, adds to `system_tokens`, and its facts are system facts at
//! turn 0. Every other message is one turn, in order (a Claude Code line
//! with text and a tool call is two messages, so two turns). A message's
//! size is an **estimate**: its text and tool arguments in characters,
//! divided by [`TokenEstimate::chars_per_token`] (4 by default) and rounded
//! up, at least 1. `tokens_per_turn` is the median turn (the lower one for an
//! even count), and every turn of another size is listed in `turn_tokens`.
//! A session longer than [`MAX_TURNS`] messages folds the rest into its last
//! turn; one with no message after the system prompt gets one empty turn of
//! 1 token. Both say so in [`Imported::notices`].
//!
//! A log that records compactions with a summary gets its rounds where it
//! compacted: the sizes are adjusted, segment by segment, until the
//! simulation's rounds fall at the turns of the log's compactions (the
//! turn of the message before each), keeping their proportions within a
//! segment (`rounds.rs`; [`Notice::RoundsPlaced`] says how many fit). A
//! tail that fills the context by itself becomes one turn.
//!
//! The harness is [`ImportOptions`]'s window (200,000 tokens), tail (8
//! turns) and summary (8,000 tokens), trigger 100%. A system prompt that
//! fills the window raises the window to twice the system prompt, rounded up
//! to a thousand tokens ([`Notice::WindowRaised`]). The policy is the preset
//! that approximates the harness that wrote the log, unless the options name
//! one:
//!
//! | transcript | policy |
//! | --- | --- |
//! | Claude Code session | `claude_code` |
//! | Codex CLI session | `codex_cli` |
//! | OpenAI Responses items | `openai_compact` |
//! | plain text | `pinned_prefix` |
//!
//! Roles: user → `user`; assistant, reasoning and harness summaries →
//! `assistant`; tool output → `tool`; system and developer → `system`; plain
//! text, which has no roles, → `user` (someone pasted what they were told).
//!
//! ## Facts
//!
//! A fact is a rule the session states: [`crate::find_rules`] reads every
//! message's text as its source ([`Message::rule_source`]: chat, a system
//! or developer prompt, a project file, a hook's context, a skill, tool
//! output), one fact per operative clause, with the kind its
//! [`RuleForm`] gives (prohibitions, obligations, limits, orderings,
//! conditions, approvals and windows are standing rules). Harness text
//! and a shell command the operator ran state none; the model's own
//! messages, compaction summaries and subagent briefs only restate.
//!
//! A rule stated again, quoted back or restated ([`crate::rules::rule_key`]:
//! case, quotes and punctuation aside) is one fact, at the first place it
//! is stated, with every place counted in [`FactGuess::occurrences`]; a
//! rule only ever restated is no fact. Ids are the first content words of
//! the rule, lowercase and joined by dashes (`never-restart-payments-api`),
//! with `-2`, `-3` … when taken.
//!
//! A binding ("when I say \"the blue pool\" I mean np-blue-c5", "the
//! ticket is OPS-1412, not OPS-1421") binds its phrase to the first
//! identifier, ticket or path it names, which becomes one of the
//! scenario's `resources` (its class the kind of name, mentioned at the
//! binding's turn); a binding that names none is kept as a standing rule.
//!
//! ## Actions
//!
//! A tool call is an action when it ran (a call the user rejected, an
//! approval request, a refused request are listed as not run) and its
//! command (see `patterns`: the command of its JSON arguments, file
//! contents and justifications left out; a patch's file operations) or its
//! tool name matches one of these patterns, case-insensitively, outside the
//! read-only steps of the command (`kubectl get`, `grep`, `SELECT`,
//! `terraform plan` …); the first row that matches names it. Calls of
//! tools that only read, plan or delegate (`Read`, `Grep`, `Task`,
//! `write_stdin` …) are never actions; a subagent's calls are its actions,
//! marked delegated. A chained command names its risky step:
//!
//! | pattern | matches | irreversible |
//! | --- | --- | --- |
//! | `rm-rf` | `rm -rf` (`-fr`, `-Rf`, `-r -f`, `--recursive --force`) | yes |
//! | `drop` | `drop table` (database, schema, index, view, collection, keyspace), `dropdb` | yes |
//! | `truncate` | `truncate` | yes |
//! | `delete` | `delete` (`DELETE FROM`, `kubectl delete`, `curl -X DELETE`, a `delete_*` tool, `find -delete`, a patch's deleted file) | yes |
//! | `destroy` | `destroy` (`terraform destroy`), `helm uninstall` | yes |
//! | `force-push` | `git push -f` (`--force`, `--force-with-lease`), `force-push` | yes |
//! | `reset-hard` | `git reset --hard` | yes |
//! | `publish` | `publish` (`cargo publish`, `npm publish`) | yes |
//! | `payment` | a word starting with payment, charge, refund or payout, with post, put, create, capture, confirm, send, issue, pay, execute or submit | yes |
//! | `drain` | `kubectl drain`, `kubectl cordon` | no |
//! | `scale` | `kubectl scale`, `kubectl autoscale` | no |
//! | `push-main` | `git push … main` (or `master`) | no |
//! | `migrate` | `migrate` (`db:migrate`, `manage.py migrate`, `prisma migrate`), a SQL file run by `psql -f` (`mysql`, `sqlite3`) | no |
//! | `restart` | `restart` (`kubectl rollout restart`, `systemctl restart`), `reboot` | no |
//! | `rollback` | `rollback` (`helm rollback`), `roll back`, `kubectl rollout undo` | no |
//! | `deploy` | `deploy`, `kubectl apply`, `terraform apply`, `helm upgrade` (`install`), `pulumi up` | no |
//!
//! Irreversible are the calls that destroy data or history, or move money;
//! a deploy, a restart or a rollback can be undone by another.
//!
//! An action is **governed by** the facts before it (in message order) that
//! mention one of the resources its command names: an identifier, ticket or
//! path found by `entail::scan`, compared lowercase, where
//! `payments-api` also covers `payments-api-7d9f8` and
//! `deployment/payments-api`, and `config/pool.toml` also covers
//! `/srv/app/config/pool.toml`. Failing that, it is governed by
//! every standing rule, carve-out and correction before it (a scope or a
//! binding is about what it names, so it governs only the actions that
//! name it too). A consequential
//! call with no fact before it is not an action: it is listed in
//! [`Imported::skipped`]. Actions are never delegated and have no `target`;
//! their `consequence` is the pattern's.
//!
//! ## Cost
//!
//! One pass of the rule finder over the transcript's text, and per tool
//! call a scan of its command. A 10 MB session imports in well under a second (see
//! `BENCHMARKS.md`).

mod actions;
mod after;
mod beside;
mod facts;
mod patterns;
mod rounds;

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

pub use patterns::{PATTERNS, Pattern};

use actions::*;
use facts::*;

pub use after::{ActionAfterLoss, actions_after_loss};
pub use beside::{Beside, BesideCell, BesideRow, Measured, beside, measured};

use crate::audit::{MessageField, Place};
use crate::entail::scan::{self, EntityKind, Span, Token};
use crate::entail::{Entailment, LexicalEntailment};
use crate::rules::{Authority, InForce, RuleForm, SessionFinder};
use crate::transcript::text::{is_patch, patch_command};
use crate::transcript::{
    CallStatus, CompactionTrigger, Message, MessageRole, Provenance, Transcript, TranscriptError,
    TranscriptFormat, read_transcript,
};
use drift_core::Harness;
use drift_core::{
    Action, Binds, Fact, Guards, Kind, MAX_TOKENS, MAX_TURNS, ModelParams, Resource, Scenario,
};
use drift_core::{PolicyChoice, Preset};
use drift_core::{Retention, Role};

/// How many tokens a text is taken to be.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TokenEstimate {
    /// Characters per token (0 counts as 1).
    pub chars_per_token: u32,
}

impl TokenEstimate {
    /// Four characters per token.
    pub const DEFAULT: TokenEstimate = TokenEstimate { chars_per_token: 4 };

    /// The estimate for `chars` characters: `ceil(chars / chars_per_token)`,
    /// at least 1.
    ///
    /// ```
    /// use drift_session::import::TokenEstimate;
    /// assert_eq!(TokenEstimate::DEFAULT.tokens(9), 3);
    /// assert_eq!(TokenEstimate::DEFAULT.tokens(0), 1);
    /// ```
    pub fn tokens(self, chars: usize) -> u64 {
        let per = u64::from(self.chars_per_token.max(1));
        (chars as u64).div_ceil(per).max(1)
    }
}

impl Default for TokenEstimate {
    fn default() -> Self {
        TokenEstimate::DEFAULT
    }
}

/// What the import needs besides the transcript.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ImportOptions {
    /// The scenario's id.
    pub id: String,
    /// The context window (default 200,000 tokens).
    pub window_tokens: u64,
    /// The policy; `None` picks the preset for the transcript's format (see
    /// [`default_policy`]).
    pub policy: Option<Preset>,
    /// How text becomes tokens.
    pub estimate: TokenEstimate,
    /// Newest turns a round keeps verbatim (default 8).
    pub tail_turns: u32,
    /// The size of a summary (default 8,000 tokens).
    pub summary_tokens: u64,
}

impl ImportOptions {
    /// The default window.
    pub const DEFAULT_WINDOW_TOKENS: u64 = 200_000;
    /// The default tail.
    pub const DEFAULT_TAIL_TURNS: u32 = 8;
    /// The default summary size.
    pub const DEFAULT_SUMMARY_TOKENS: u64 = 8_000;
    /// The default scenario id.
    pub const DEFAULT_ID: &'static str = "imported-session";
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions {
            id: ImportOptions::DEFAULT_ID.to_string(),
            window_tokens: ImportOptions::DEFAULT_WINDOW_TOKENS,
            policy: None,
            estimate: TokenEstimate::DEFAULT,
            tail_turns: ImportOptions::DEFAULT_TAIL_TURNS,
            summary_tokens: ImportOptions::DEFAULT_SUMMARY_TOKENS,
        }
    }
}

/// The preset that approximates the harness that writes `format`: the one
/// drift-core's harness table runs it under, and a pinned prefix for a log
/// of no known harness.
pub const fn default_policy(format: TranscriptFormat) -> Preset {
    match format.profile().harness {
        Some(harness) => harness.preset(),
        None => Preset::PinnedPrefix,
    }
}

/// Where a guess came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The message (0-based), the field and the byte span: the sentence of a
    /// fact; the whole arguments of an action (empty when the call has
    /// none).
    pub place: Place,
    /// The message's record: the 1-based line of a JSON-lines file, the
    /// 1-based item of a JSON array.
    pub record: usize,
    /// Who said it.
    pub role: MessageRole,
    /// The scenario turn (0 for the system prompt).
    pub turn: u32,
}

/// How a fact was found and why it has its kind.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FactGuess {
    /// The fact's id in the scenario.
    pub id: String,
    /// Its first statement.
    pub origin: Origin,
    /// What the rule does (its kind follows from it).
    pub form: RuleForm,
    /// What decided it ([`crate::rules::model::CUE`]: the model).
    pub cue: &'static str,
    /// How sure the finder is that it is a rule, in thousandths.
    pub confidence: u16,
    /// How many times the session states it, restatements included.
    pub occurrences: usize,
    /// The rule in force it is ([`crate::rules::InForce::rules`], the session
    /// audit's [`crate::SessionAudit::rules`]): where its measured fates are.
    pub rule: usize,
    /// Who gave it.
    pub authority: Authority,
}

/// Why an action is governed by the facts it is governed by.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Governance {
    /// The facts mention these resources of the command (as the command
    /// writes them).
    SharedResources(Vec<String>),
    /// No fact before it mentions what it acts on: every standing rule,
    /// carve-out and correction before it governs it.
    EveryConstraintBefore,
}

/// How an action was found and why it is governed as it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionGuess {
    /// The action's id in the scenario.
    pub id: String,
    /// The tool call.
    pub origin: Origin,
    /// The tool called.
    pub tool: String,
    /// The command read from its arguments.
    pub command: String,
    /// The pattern that matched.
    pub pattern: &'static Pattern,
    /// The words that matched, as written.
    pub matched: String,
    /// The tool's name matched, not its command.
    pub in_tool_name: bool,
    /// Where `governed_by` came from.
    pub governance: Governance,
}

/// A consequential tool call that is not an action: nothing before it
/// could govern it, or it never ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkippedAction {
    /// The tool call.
    pub origin: Origin,
    /// The tool called.
    pub tool: String,
    /// The command read from its arguments.
    pub command: String,
    /// The pattern that matched.
    pub pattern: &'static Pattern,
    /// Why it is not an action.
    pub why: SkipReason,
}

/// Why a consequential call is not an action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// No fact stated before it could govern it.
    NothingBefore,
    /// It never ran (rejected by the user, an approval request, refused).
    NotRun(CallStatus),
}

impl SkipReason {
    /// In words: "nothing before it to govern it", "rejected by the user".
    pub const fn words(self) -> &'static str {
        match self {
            SkipReason::NothingBefore => "nothing before it to govern it",
            SkipReason::NotRun(status) => status.why_not(),
        }
    }
}

/// A compaction the log records, placed in the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LoggedCompaction {
    /// The record of its marker (line or item).
    pub record: usize,
    /// The scenario turn after which it happened.
    pub turn: u32,
    /// How it was set off, when the log says.
    pub trigger: Option<CompactionTrigger>,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// Whether its summary is encrypted (cannot be read).
    pub encrypted: bool,
}

/// A message's place in the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageTurn {
    /// Its turn (0: the system prompt).
    pub turn: u32,
    /// Its estimated size.
    pub tokens: u64,
}

/// Something the import changed or assumed that a person should know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notice {
    /// The system prompt alone filled the requested window.
    WindowRaised {
        /// The window asked for.
        requested: u64,
        /// The window used.
        window_tokens: u64,
        /// The system prompt's estimate.
        system_tokens: u64,
    },
    /// No message after the system prompt: one empty turn stands in.
    NoTurns,
    /// More messages than the engine has turns: the rest share the last.
    TurnsFolded {
        /// Messages after the system prompt.
        messages: usize,
        /// Turns used.
        turns: u32,
    },
    /// The turn sizes were adjusted so that the rounds fall at the log's
    /// compactions.
    RoundsPlaced {
        /// Rounds at the log's turns.
        placed: usize,
        /// The log's compactions with a summary.
        wanted: usize,
    },
    /// An option was out of the engine's range.
    Clamped {
        /// Which option (`window_tokens`, `tail_turns`, `summary_tokens`).
        field: &'static str,
        /// The value asked for.
        requested: u64,
        /// The value used.
        used: u64,
    },
}

impl fmt::Display for Notice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Notice::WindowRaised {
                requested,
                window_tokens,
                system_tokens,
            } => write!(
                f,
                "the system prompt (about {system_tokens} tokens) fills the {requested}-token window: the window is raised to {window_tokens} tokens"
            ),
            Notice::NoTurns => f.write_str(
                "no message after the system prompt: one empty turn of 1 token stands in",
            ),
            Notice::RoundsPlaced { placed, wanted } if placed == wanted => write!(
                f,
                "turn sizes adjusted so the model's {wanted} round(s) fall at the turns where the log compacted"
            ),
            Notice::RoundsPlaced { placed, wanted } => write!(
                f,
                "turn sizes adjusted: the model's rounds fall at the first {placed} of the log's {wanted} compactions; the rest do not fit this harness"
            ),
            Notice::TurnsFolded { messages, turns } => write!(
                f,
                "{messages} messages after the system prompt, more than the {turns} turns a scenario can have: the last turn holds the rest"
            ),
            Notice::Clamped {
                field,
                requested,
                used,
            } => write!(f, "{field} {requested} is out of range: {used} is used"),
        }
    }
}

/// A transcript imported as a scenario, with every guess explained.
#[derive(Clone, Debug, PartialEq)]
pub struct Imported {
    /// The scenario (valid; see the module docs for how it is built).
    pub scenario: Scenario,
    /// What the transcript was read as.
    pub format: TranscriptFormat,
    /// One per scenario fact, in the same order.
    pub facts: Vec<FactGuess>,
    /// One per scenario action, in the same order.
    pub actions: Vec<ActionGuess>,
    /// Consequential calls with nothing before them to govern them.
    pub skipped: Vec<SkippedAction>,
    /// One per transcript message: its turn and size.
    pub message_turns: Vec<MessageTurn>,
    /// Records the transcript reader skipped (bookkeeping lines, copies,
    /// encrypted reasoning).
    pub records_skipped: usize,
    /// Those records by type, with counts.
    pub skipped_records: Vec<(String, usize)>,
    /// The compactions the log records.
    pub compactions: Vec<LoggedCompaction>,
    /// The line the log was cut off in, when it was (still being written).
    pub truncated: Option<usize>,
    /// Lines of the log that could not be read and were skipped (torn).
    pub damaged: Vec<usize>,
    /// What the import changed or assumed.
    pub notices: Vec<Notice>,
}

/// Reads `text` as a transcript (see [`read_transcript`]) and imports it.
///
/// # Errors
///
/// The [`TranscriptError`] of a file that starts as JSON and then has a line
/// that is not (naming the line), or JSON that is no transcript.
pub fn import_text(text: &str, options: &ImportOptions) -> Result<Imported, TranscriptError> {
    read_transcript(text).map(|t| import(&t, options))
}

/// Imports a transcript as a scenario (see the module docs). Never fails:
/// any transcript gives a valid scenario.
pub fn import(transcript: &Transcript, options: &ImportOptions) -> Imported {
    import_with_rules(
        transcript,
        &InForce::read(transcript, &SessionFinder),
        options,
    )
}

/// [`import`], with the transcript's rules in force already read (see
/// [`crate::Session`]).
pub(crate) fn import_with_rules(
    transcript: &Transcript,
    in_force: &InForce,
    options: &ImportOptions,
) -> Imported {
    let mut notices = Vec::new();
    let plan = plan_turns(transcript, options.estimate, MAX_TURNS, &mut notices);
    let facts = read_facts(transcript, in_force, &plan.message_turns);
    let (actions, skipped) = read_actions(transcript, &plan.message_turns, &facts);
    let harness = harness(&plan, options, &mut notices);
    let policy = options
        .policy
        .unwrap_or_else(|| default_policy(transcript.format));

    let resources = binding_resources(&facts);
    let (facts, fact_guesses): (Vec<Fact>, Vec<FactGuess>) =
        facts.into_iter().map(|f| (f.fact, f.guess)).unzip();
    let (actions, action_guesses): (Vec<Action>, Vec<ActionGuess>) =
        actions.into_iter().map(|a| (a.action, a.guess)).unzip();
    let label = transcript.format.label();
    let description = alloc::format!(
        "Imported from a transcript ({label}, {} messages). Token sizes are estimates (characters / {}). Every fact's kind, every action and what governs it are guesses from the session's words: review them before trusting the simulation.",
        transcript.messages.len(),
        options.estimate.chars_per_token.max(1)
    );
    let scenario = Scenario {
        id: options.id.clone(),
        title: alloc::format!("Imported {label}"),
        description,
        harness,
        turn_tokens: plan.turn_tokens(harness.tokens_per_turn),
        policy: PolicyChoice::Preset(policy),
        retention: Retention::default(),
        guards: Guards::default(),
        model: ModelParams::default(),
        resources,
        facts,
        actions,
    };
    let mut scenario = scenario;
    let targets: Vec<u32> = transcript
        .compactions
        .iter()
        .filter(|c| c.kind == crate::transcript::CompactionKind::Summary)
        .map(|c| {
            c.at.checked_sub(1)
                .and_then(|m| plan.message_turns.get(m))
                .map_or(0, |t| t.turn)
        })
        .filter(|&t| t >= 1)
        .collect();
    if !targets.is_empty() {
        let placed = rounds::place_rounds(&mut scenario, &targets);
        notices.push(Notice::RoundsPlaced {
            placed: placed.placed,
            wanted: placed.wanted,
        });
    }
    Imported {
        scenario,
        format: transcript.format,
        facts: fact_guesses,
        actions: action_guesses,
        skipped,
        compactions: transcript
            .compactions
            .iter()
            .map(|c| LoggedCompaction {
                record: c.record,
                turn: c
                    .at
                    .checked_sub(1)
                    .and_then(|m| plan.message_turns.get(m))
                    .map_or(0, |t| t.turn),
                trigger: c.trigger,
                tokens_before: c.tokens_before,
                encrypted: c.encrypted,
            })
            .collect(),
        message_turns: plan.message_turns,
        records_skipped: transcript.skipped,
        skipped_records: transcript.skipped_records.clone(),
        truncated: transcript.truncated,
        damaged: transcript.damaged.iter().map(|d| d.line).collect(),
        notices,
    }
}

// ------------------------------------------------------------------ turns

/// Where every message goes and how big each turn is.
struct TurnPlan {
    message_turns: Vec<MessageTurn>,
    system_tokens: u64,
    /// Tokens of turns `1..=len`.
    sizes: Vec<u64>,
}

impl TurnPlan {
    /// The turns whose size is not `per_turn`.
    fn turn_tokens(&self, per_turn: u64) -> Vec<drift_core::TurnTokens> {
        (1u32..)
            .zip(&self.sizes)
            .filter(|(_, tokens)| **tokens != per_turn)
            .map(|(turn, &tokens)| drift_core::TurnTokens { turn, tokens })
            .collect()
    }
}

fn is_system(role: MessageRole) -> bool {
    role.fact_role() == Some(Role::System)
}

/// Assigns messages to turns (the system prompt, then one turn each, at
/// most `max_turns`) and sums their estimates.
fn plan_turns(
    transcript: &Transcript,
    estimate: TokenEstimate,
    max_turns: u32,
    notices: &mut Vec<Notice>,
) -> TurnPlan {
    let mut message_turns = Vec::with_capacity(transcript.messages.len());
    let mut system_tokens = 0u64;
    let mut sizes: Vec<u64> = Vec::new();
    let mut others = 0usize;
    for message in &transcript.messages {
        let chars = message.text.chars().count()
            + message
                .tool_arguments
                .as_deref()
                .map_or(0, |a| a.chars().count());
        let tokens = estimate.tokens(chars);
        let turn = if is_system(message.role) {
            system_tokens = system_tokens.saturating_add(tokens);
            0
        } else {
            others += 1;
            let full = sizes.len() >= max_turns as usize;
            match sizes.last_mut() {
                Some(last) if full => *last = last.saturating_add(tokens).min(MAX_TOKENS),
                _ => sizes.push(tokens.min(MAX_TOKENS)),
            }
            u32::try_from(sizes.len()).unwrap_or(max_turns)
        };
        message_turns.push(MessageTurn { turn, tokens });
    }
    if sizes.is_empty() {
        sizes.push(1);
        notices.push(Notice::NoTurns);
    } else if others > sizes.len() {
        notices.push(Notice::TurnsFolded {
            messages: others,
            turns: u32::try_from(sizes.len()).unwrap_or(max_turns),
        });
    }
    TurnPlan {
        message_turns,
        system_tokens: system_tokens.min(MAX_TOKENS - 1),
        sizes,
    }
}

/// The harness: the options, clamped to the engine's ranges, around the
/// plan's sizes.
fn harness(plan: &TurnPlan, options: &ImportOptions, notices: &mut Vec<Notice>) -> Harness {
    let mut clamp = |field: &'static str, requested: u64, min: u64, max: u64| {
        let used = requested.clamp(min, max);
        if used != requested {
            notices.push(Notice::Clamped {
                field,
                requested,
                used,
            });
        }
        used
    };
    let requested_window = clamp("window_tokens", options.window_tokens, 1, MAX_TOKENS);
    let tail_turns = clamp(
        "tail_turns",
        u64::from(options.tail_turns),
        1,
        u64::from(MAX_TURNS),
    );
    let summary_tokens = clamp("summary_tokens", options.summary_tokens, 1, MAX_TOKENS);
    let system_tokens = plan.system_tokens;
    let mut window_tokens = requested_window;
    if window_tokens <= system_tokens {
        window_tokens = system_tokens
            .saturating_mul(2)
            .max(system_tokens + 1)
            .div_ceil(1000)
            .saturating_mul(1000)
            .min(MAX_TOKENS);
        notices.push(Notice::WindowRaised {
            requested: requested_window,
            window_tokens,
            system_tokens,
        });
    }
    let mut sorted = plan.sizes.clone();
    sorted.sort_unstable();
    let median = sorted
        .get(sorted.len().saturating_sub(1) / 2)
        .copied()
        .unwrap_or(1);
    Harness {
        window_tokens,
        trigger_percent: Harness::DEFAULT_TRIGGER_PERCENT,
        system_tokens,
        tokens_per_turn: median,
        tail_turns: u32::try_from(tail_turns).unwrap_or(MAX_TURNS),
        summary_tokens,
        turns: u32::try_from(plan.sizes.len()).unwrap_or(MAX_TURNS),
        reserve_tokens: 0,
        user_message_tokens: Harness::DEFAULT_USER_MESSAGE_TOKENS,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(messages: Vec<Message>) -> Transcript {
        Transcript::new(TranscriptFormat::ResponsesItems, messages)
    }

    fn call(command: &str, record: usize) -> Message {
        let mut m = Message::new(MessageRole::Assistant, "", record);
        m.tool_name = Some("shell".into());
        m.tool_arguments = Some(alloc::format!("{{\"command\":\"{command}\"}}"));
        m
    }

    #[test]
    fn folded_turns_share_the_last() {
        let t = transcript(
            (1..=5)
                .map(|i| Message::new(MessageRole::User, "abcd", i))
                .collect(),
        );
        let mut notices = Vec::new();
        let plan = plan_turns(&t, TokenEstimate::DEFAULT, 3, &mut notices);
        assert_eq!(plan.sizes, [1, 1, 3]);
        let turns: Vec<u32> = plan.message_turns.iter().map(|m| m.turn).collect();
        assert_eq!(turns, [1, 2, 3, 3, 3]);
        assert_eq!(
            notices,
            [Notice::TurnsFolded {
                messages: 5,
                turns: 3
            }]
        );
    }

    #[test]
    fn a_huge_system_prompt_raises_the_window() {
        let t = transcript(alloc::vec![
            Message::new(MessageRole::System, "x".repeat(4_000), 1),
            Message::new(MessageRole::User, "hi", 2),
        ]);
        let options = ImportOptions {
            window_tokens: 900,
            ..ImportOptions::default()
        };
        let imported = import(&t, &options);
        assert_eq!(imported.scenario.harness.system_tokens, 1_000);
        assert_eq!(imported.scenario.harness.window_tokens, 2_000);
        assert_eq!(
            imported.notices,
            [Notice::WindowRaised {
                requested: 900,
                window_tokens: 2_000,
                system_tokens: 1_000
            }]
        );
        assert_eq!(imported.scenario.validate(), Ok(()));
    }

    #[test]
    fn resources_are_shared_by_family_and_path_suffix() {
        let t = transcript(alloc::vec![
            Message::new(
                MessageRole::User,
                "Never restart payments-api without an approver. Do not edit config/pool.toml. Only touch the payments namespace.",
                1
            ),
            call("kubectl delete pod payments-api-7d9f8", 2),
            call("rm -rf /srv/app/config/pool.toml", 3),
            call("git push --force origin feat/x", 4),
        ]);
        // Which sentences are rules is the finder's (measured in `cargo
        // xtask eval`); what is tested here is what each rule governs.
        let in_force = InForce::read(&t, &crate::rules::EveryUnit);
        assert_eq!(in_force.rules.len(), 3);
        let imported = import_with_rules(&t, &in_force, &ImportOptions::default());
        let governance: Vec<&Governance> = imported.actions.iter().map(|a| &a.governance).collect();
        assert_eq!(
            governance,
            [
                &Governance::SharedResources(alloc::vec!["payments-api-7d9f8".into()]),
                &Governance::SharedResources(alloc::vec!["/srv/app/config/pool.toml".into()]),
                &Governance::EveryConstraintBefore,
            ]
        );
        let governed: Vec<usize> = imported
            .scenario
            .actions
            .iter()
            .map(|a| a.governed_by.len())
            .collect();
        // The push names nothing a rule names: every constraint before it
        // governs it.
        assert_eq!(governed, [1, 1, 3]);
    }

    #[test]
    fn a_binding_names_its_resource() {
        let t = transcript(alloc::vec![
            Message::new(
                MessageRole::User,
                "When I say \"the blue pool\" I mean np-blue-c5. The ticket is OPS-1412, not OPS-1421. The pool is the one we talked about.",
                1
            ),
            Message::new(MessageRole::User, "Also: the ticket is OPS-1412.", 2),
        ]);
        let imported = import(&t, &ImportOptions::default());
        let s = &imported.scenario;
        assert_eq!(s.validate(), Ok(()));
        let binds: Vec<(&str, &str)> = s
            .facts
            .iter()
            .filter_map(|f| f.binds.as_ref())
            .map(|b| (b.phrase.as_str(), b.resource.as_str()))
            .collect();
        assert_eq!(
            binds,
            [("the blue pool", "np-blue-c5"), ("The ticket", "ops-1412")]
        );
        let resources: Vec<(&str, &str, &[u32])> = s
            .resources
            .iter()
            .map(|r| (r.id.as_str(), r.class.as_str(), r.mentions.as_slice()))
            .collect();
        assert_eq!(
            resources,
            [
                ("np-blue-c5", "identifier", &[1][..]),
                ("ops-1412", "ticket", &[1][..])
            ]
        );
    }

    #[test]
    fn a_call_with_nothing_before_it_is_skipped() {
        let t = transcript(alloc::vec![
            call("./deploy.sh", 1),
            Message::new(MessageRole::User, "Never deploy on Fridays.", 2),
            call("./deploy.sh", 3),
        ]);
        let imported = import(&t, &ImportOptions::default());
        assert_eq!(imported.skipped.len(), 1);
        assert_eq!(imported.skipped[0].origin.record, 1);
        assert_eq!(imported.scenario.actions.len(), 1);
        assert_eq!(imported.scenario.actions[0].turn, 3);
    }

    #[test]
    fn ids_are_slugs_made_unique() {
        // The same rule said again in a later message is one fact.
        let t = transcript(alloc::vec![
            Message::new(
                MessageRole::User,
                "Do not restart payments-api now. Do not restart payments-api, not today.",
                1
            ),
            Message::new(MessageRole::User, "do not   restart PAYMENTS-API now.", 2),
        ]);
        let imported = import(&t, &ImportOptions::default());
        let ids: Vec<&str> = imported.facts.iter().map(|f| f.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "do-not-restart-payments-api",
                "do-not-restart-payments-api-2"
            ]
        );
        assert_eq!(imported.facts[0].occurrences, 2);
    }

    #[test]
    fn action_text_is_cut() {
        let long = "x ".repeat(300);
        let text = action_text("Bash", &long);
        assert!(text.starts_with("Bash: x x"));
        assert_eq!(text.chars().count(), "Bash: ".len() + MAX_ACTION_TEXT + 1);
    }
}
