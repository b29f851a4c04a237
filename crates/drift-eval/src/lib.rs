//! # drift-eval: how right Compaction Drift is, measured
//!
//! `cargo xtask eval` runs this crate's binary. It scores the session audit
//! (which rules are in force, and what each compaction did to them) on real
//! compactions labelled by careful reading (`eval/real/`, the logs read from
//! `../shared/real-logs/`, see `docs/LABELLING.md`), and the judge on
//! before/after verdict sets (`eval/verdicts/`): precision and recall per
//! class, for the `dev` split (tuned on) and the `held_out` one (measured
//! once).
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

pub mod anchor;
#[cfg(feature = "std")]
pub mod files;
pub mod finder;
pub mod labels;
pub mod real;
pub mod report;
pub mod scores;
#[cfg(feature = "std")]
pub mod scores_file;
pub mod text;
pub mod verdicts;
pub mod view;
