//! # drift-session: Compaction Drift for real sessions
//!
//! What reads a real agent session, built on the simulation engine
//! (`drift-core`):
//!
//! | what | entry points, here | the rest, in its module |
//! | --- | --- | --- |
//! | session logs in every format a harness writes, as messages | [`read_transcript`], [`Transcript`], [`Message`], [`MessageRole`], [`TranscriptFormat`], [`TranscriptError`] | [`transcript`]: compactions, provenance, damaged lines |
//! | a session as a scenario to simulate: its rules as facts, its risky tool calls as actions | [`import`](import()), [`import_text`], [`Imported`], [`ImportOptions`] | [`mod@import`]: the guesses, the model beside the log, the actions after a loss |
//! | a real compaction checked against what it replaced; every compaction of a log, rule by rule; the list people act on; rules across compactions; retention measured | [`audit`](audit()), [`audit_text`], [`Audit`], [`audit_session`], [`SessionAudit`], [`report`](report()), [`Report`], [`lineage`](lineage()), [`Lineage`], [`MeasuredRetention`] | [`mod@audit`]: findings, fates, evidence, laundering |
//! | which clauses of a text are rules; harness boilerplate; one rule per text across a session | [`find_rules`], [`Rule`], [`Source`], [`RuleBook`] | [`rules`]: forms, who gave a rule, the finder seam |
//! | what a compaction lost, restated for the harness to put back | [`session_losses`], [`restate`](restate()), [`Loss`], [`Restatement`] | [`mod@restate`]: budgets, one compaction's losses |
//! | does a source support a claim | [`Entailment`], [`LexicalEntailment`], [`Judgement`] | [`entail`]: entities and sentences of a text |
//! | what a summary did to one rule | | [`judge`]: `FateJudge`, the one judge every audit uses, its structural reading and its trained model |
//! | the four guards as a library a harness calls around a real model | [`BindingLedger`], [`ConstraintStore`], [`BoundaryGate`], [`CommitmentLedger`] | [`guard`]: their errors, reports and settings |
//!
//! The entry points are re-exported here; every other public item is at
//! one path, in its module.
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

pub mod audit;
pub mod entail;
pub mod guard;
pub mod import;
pub mod judge;
pub mod restate;
pub mod rules;
mod session;
pub mod transcript;
mod weights;

// The entry points; everything else is in its module.
pub use audit::{
    Audit, Lineage, MeasuredRetention, Report, SessionAudit, audit, audit_session, audit_text,
    lineage, report,
};
pub use entail::{Entailment, Judgement, LexicalEntailment};
pub use guard::{BindingLedger, BoundaryGate, CommitmentLedger, ConstraintStore};
pub use import::{ImportOptions, Imported, import, import_text};
pub use restate::{Loss, Restatement, restate, session_losses};
pub use rules::{Rule, RuleBook, Source, find_rules};
pub use session::Session;
pub use transcript::{
    Message, MessageRole, Transcript, TranscriptError, TranscriptFormat, read_transcript,
};

/// The README's Rust examples, compiled and run as doc tests so that they
/// stay true.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeExamples;
