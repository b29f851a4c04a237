//! The sections of `eval/SCORES.md` this crate measures: each the report
//! `cargo xtask eval` prints for one set, with a note under its heading on
//! what the set is and whether it was tuned on. `cargo xtask eval
//! --write-scores` writes them; `tests/labels.rs` holds the file to them.

use alloc::format;
use alloc::string::String;

use crate::finder::{self, FinderScores};
use crate::labels::Split;
use crate::real::Scores;
use crate::report;
use crate::verdicts::{self, VerdictScores};

/// `report` with `note` as a paragraph under its first line (its heading).
fn noted(report: &str, note: &str) -> String {
    match report.split_once("\n\n") {
        Some((heading, rest)) => format!("{heading}\n\n{note}\n\n{rest}"),
        None => format!("{report}\n\n{note}\n"),
    }
}

/// The rule finder alone on the logs of split `finder`: the section's name
/// and its text.
pub fn finder(s: &FinderScores) -> (&'static str, String) {
    let note = "Split `finder` of `eval/real/`: real logs no compaction set had \
        labelled, labelled whole (every standing rule the user typed and every \
        subagent brief's, and a sample of rule-like sentences that are none) \
        without the tool's output. Measured blind once (`BENCHMARKS.md` has that \
        measurement); its misses were read and the finder was tuned on them \
        since.";
    (
        "real-finder",
        noted(&finder::report(s, Split::Finder.id()), note),
    )
}

/// The audit on the real compactions of `split` (`dev` or `held_out`): the
/// section's name and its text.
pub fn real(s: &Scores, split: Split) -> (&'static str, String) {
    let (name, note) = match split {
        Split::HeldOut => (
            "real-held-out",
            "Split `held_out` of `eval/real/`: a third of the sessions, whole, \
             labelled the same way. Measured blind once, after all tuning \
             (`BENCHMARKS.md` has that measurement); its misses were read and the \
             finder was tuned on them since, so it is no longer held out.",
        ),
        _ => (
            "real-dev",
            "Split `dev` of `eval/real/`: real compactions in logs people \
             committed to public repositories, labelled by careful reading without \
             the tool's output (the rules in force at each compaction with their \
             fates, rule-like sentences that are no standing rule, the rules a \
             summary invents), sessions whole. The finder and the judge are tuned \
             on it.",
        ),
    };
    (name, noted(&report::real(s, split.id()), note))
}

/// The judge on the before/after verdict set of `split` (`dev` or
/// `held_out`): the section's name and its text.
pub fn verdicts(s: &VerdictScores, split: Split) -> (&'static str, String) {
    let (name, note) = match split {
        Split::HeldOut => (
            "verdicts-held-out",
            "`eval/verdicts/held-out-*.txt`: the held-out half of the verdict \
             sets, written with the dev half and measured, not tuned on.",
        ),
        _ => (
            "verdicts-dev",
            "`eval/verdicts/dev-*.txt`: before/after items written for the \
             evaluation, one rule and one compaction summary each, the rule kept \
             verbatim, reworded, weakened, a value changed, contradicted or \
             dropped; the judge alone scored on them. The dev half: tuned on.",
        ),
    };
    (name, noted(&verdicts::report(s, split.id()), note))
}
