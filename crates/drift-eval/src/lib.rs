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
//! Nobody's session is in this repository: a label points into a log by the
//! log's content hash and byte ranges ([`anchor`]), and the text is read
//! from the log at run time.

pub mod anchor;
pub mod finder;
pub mod labels;
pub mod real;
pub mod report;
pub mod text;
pub mod verdicts;
pub mod view;

use std::path::{Path, PathBuf};

/// The workspace root (this crate lives in `crates/drift-eval`).
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .ancestors()
        .nth(2)
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf)
}

/// Where the real logs are: `$DRIFT_REAL_LOGS`, else `../shared/real-logs`
/// beside the workspace; `None` when neither exists.
pub fn real_logs() -> Option<PathBuf> {
    let path = std::env::var_os("DRIFT_REAL_LOGS")
        .map(PathBuf::from)
        .unwrap_or_else(|| root().join("../shared/real-logs"));
    path.is_dir().then_some(path)
}
