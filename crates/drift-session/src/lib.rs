//! # drift-session: Compaction Drift for real sessions
//!
//! What reads a real agent session, built on the simulation engine
//! (`drift-core`):
//!
//! | what | items | module |
//! | --- | --- | --- |
//! | session logs in every format a harness writes, as messages | [`read_transcript`], [`Transcript`], [`Message`], [`TranscriptFormat`] | `transcript` |
//! | a session as a scenario to simulate: its rules as facts, its risky tool calls as actions | [`import`], [`import_text`], [`Imported`], [`ImportOptions`] | `import` |
//! | a real compaction checked against what it replaced | [`audit`], [`audit_text`], [`Audit`] | `audit` |
//! | every compaction a log records, rule by rule, and retention measured from logs | [`audit_session`], [`audit_latest_compaction`], [`SessionAudit`], [`MeasuredRetention`] | `audit/session` |
//! | which clauses of a text are rules, of what form; harness boilerplate; one rule per text across a session | [`find_rules`], [`Rule`], [`RuleForm`], [`Source`], [`is_harness_text`], [`operator_content`], [`RuleBook`] | `rules` |
//! | what a compaction lost, restated for the harness to put back | [`losses`], [`session_losses`], [`restate`], [`Loss`], [`Restatement`] | `restate` |
//! | does a source support a claim | [`Entailment`], [`LexicalEntailment`], [`Judgement`] | `entail` |
//! | the four guards as a library a harness calls around a real model | [`BindingLedger`], [`ConstraintStore`], [`BoundaryGate`], [`CommitmentLedger`] | `guard` |
//!
//! Every public item is re-exported here, at one path.
//!
//! ## Invariants
//!
//! - **Depends only on `drift-core`** (and serde, serde_json); `drift-core`
//!   never depends on it.
//! - **No I/O.** It takes text and returns data: the caller reads the files
//!   and owns the clock and the model. `#![no_std]` + `alloc`.
//! - **Total.** No input makes it panic: a log cut off or garbled is an
//!   error naming the line, or a transcript that says what it skipped.
//!
//! The README's Rust examples compile and run as this crate's doc tests.

#![no_std]
#![warn(missing_docs)]

extern crate alloc;

mod audit;
mod entail;
mod guard;
mod import;
mod judge;
mod restate;
mod rules;
mod transcript;

pub use audit::{
    AUDIT_FORMAT, AfterPart, Audit, AuditCounts, BeforeMention, CODEX_USER_MESSAGE_TOKENS,
    ChangedId, CompactionAudit, DroppedConstraint, Evidence, Fate, FateCounts, IdChange,
    InventedRule, Invention, MAX_SENTENCE_BYTES, MIN_FIT_STEPS, MeasuredRetention, MessageField,
    Place, RuleFate, SESSION_AUDIT_FORMAT, SessionAudit, SessionRule, Unsupported,
    VanishedReasoning, Weakening, audit, audit_latest_compaction, audit_session,
    audit_session_with, audit_text,
};
pub use audit::{CompactionReport, FileLoss, InventedItem, LostRule, Report, SourceCount, report};
pub use audit::{
    LAUNDERING_LINE, LaunderedClaim, Laundering, Lineage, LineagePoint, RuleLineage, Step,
    StepState, lineage,
};
pub use entail::scan::{Entity, EntityKind, Sentence, Span, entities, sentences};
pub use entail::{
    Contradiction, Entailment, Judgement, LexicalEntailment, LexicalJudgement, Lookalike, Mention,
    ReasoningKind, RuleCue, lookalike,
};
pub use guard::{
    BLOCK_CLOSE, BLOCK_OPEN, BLOCK_PREAMBLE, Belief, BeliefClass, BindingError, BindingLedger,
    BoundaryError, BoundaryGate, BoundaryReport, Claim, ClaimReason, ClaimReport, ClaimStatus,
    Commitment, CommitmentError, CommitmentLedger, Constraint, ConstraintError, ConstraintStore,
    GateSettings, Inventory, InventoryResource, LedgerEntry, LedgerEntryKind, Resolution, Rewrite,
    RewriteChange, RewriteRefused, Spill, UnverifiedTag,
};
pub use import::{
    ActionAfterLoss, Beside, BesideCell, BesideRow, Measured, actions_after_loss, beside, measured,
};
pub use import::{
    ActionGuess, FactGuess, Governance, ImportOptions, Imported, LoggedCompaction, MessageTurn,
    Notice, Origin, PATTERNS, Pattern, SkipReason, SkippedAction, TokenEstimate, default_policy,
    import, import_text,
};
pub use judge::{
    After, FateJudge, NoSimilarity, Section, Similarity, StructuralJudge, Verdict, Why, judge_all,
};
pub use restate::{
    DEFAULT_RESTATE_TOKENS, Loss, LossKind, MAX_CONTEXT_CHARS, MIN_RESTATE_TOKENS, Restatement,
    losses, losses_with, place, restate, session_losses, session_losses_with, speaker, when,
};
pub use rules::{
    Authority, BookRule, InForce, Rule, RuleBook, RuleFinder, RuleForm, RulePlace, SessionFinder,
    Source, StandingRule, TextOrigin, find_rules, is_harness_text, operator_content, rule_key,
    shorten, summary_body,
};
pub use transcript::text::strip_line_numbers;
pub use transcript::{
    CallStatus, Compaction, CompactionKind, CompactionTrigger, DamagedLine, Message, MessageRole,
    Provenance, Transcript, TranscriptError, TranscriptFormat, read_transcript,
};

/// The README's Rust examples, compiled and run as doc tests so that they
/// stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
