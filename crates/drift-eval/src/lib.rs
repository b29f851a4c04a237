//! # drift-eval: how right Compaction Drift is, measured
//!
//! `cargo xtask eval` runs this crate's binary. It scores the rule finder
//! ([`finder`]: which rules of the user's it finds) and the session audit
//! ([`real`]: which rules are in force, and what each compaction did to
//! them) on real logs labelled whole by careful reading (`eval/real/`, the
//! logs read from `../shared/real-logs/`, see `docs/LABELLING.md`), and
//! the judge on before/after verdict sets (`eval/verdicts/`).
//!
//! A person is the unit of generalisation: every label file names the
//! repository (the person) its log comes from, and figures are given by
//! [`People`](labels::People): first the people no part of the tool was
//! tuned on (the figure across people), then the frozen group (measured
//! once, at the end of each change to the finder or the judge), then the
//! people the hand-written parts were tuned on (in-sample). [`agreement`]
//! compares a second careful reader with the first: the ceiling.
//!
//! The tables it measures are one section each of `eval/SCORES.md`, the
//! file of every score table, which `cargo xtask eval --write-scores`
//! writes ([`scores`], [`scores_file`]) and `tests/labels.rs` holds to what
//! it measures.
//!
//! The crate is `no_std` + `alloc`: it scores what it is given. Reading
//! the label files and the logs is [`files`]' work, behind the `std`
//! feature (on by default, which the binary needs).
//!
//! Nobody's session is in this repository: a label points into a log by the
//! log's content hash and byte ranges ([`anchor`]), and the text is read
//! from the log at run time.

#![no_std]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

pub mod agreement;
pub mod anchor;
pub mod audit_pairs;
pub mod corpus;
pub mod cv;
#[cfg(feature = "std")]
pub mod files;
pub mod finder;
pub mod judging;
pub mod labels;
pub mod real;
pub mod report;
pub mod scores;
#[cfg(feature = "std")]
pub mod scores_file;
pub mod text;
pub mod train;
pub mod verdicts;
pub mod view;
