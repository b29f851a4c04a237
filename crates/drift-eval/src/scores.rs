//! The sections of `eval/SCORES.md` this crate measures: each the report
//! `cargo xtask eval` prints for one set, with a note under its heading on
//! who it is measured on and whether that is in-sample. `cargo xtask eval
//! --write-scores` writes them; `tests/labels.rs` holds the file to them
//! (all but the frozen group's, a record of a measurement made once).

use alloc::format;
use alloc::string::String;

use crate::agreement::{self, Agreement};
use crate::finder::{self, FinderScores};
use crate::labels::People;
use crate::real::Scores;
use crate::report;
use crate::verdicts::{self, VerdictScores, VerdictSet};

/// `report` with `note` as a paragraph under its first line (its heading).
fn noted(report: &str, note: &str) -> String {
    match report.split_once("\n\n") {
        Some((heading, rest)) => format!("{heading}\n\n{note}\n\n{rest}"),
        None => format!("{report}\n\n{note}\n"),
    }
}

/// What the logs of `people` are, for the note under a table.
const fn about(people: People) -> &'static str {
    match people {
        People::Unseen => {
            "Logs of `eval/real/` of split `unseen`: people (repositories) whose \
             logs no part of the tool was written or tuned on, labelled whole by \
             careful reading without the tool's output. The figure across people \
             for the hand-written finder and judge."
        }
        People::Frozen => {
            "Logs of `eval/real/` of split `frozen`: a fifth of the people, fixed \
             before any part was trained and never read, trained or tuned on. \
             Measured once, at the end of each change to the finder or the judge \
             (`cargo xtask eval --frozen --write-scores`); the tests do not measure \
             it again."
        }
        People::Tuned => {
            "Logs of `eval/real/` of splits `dev`, `held_out` and `finder`: the \
             people the hand-written finder and judge were tuned on (their misses \
             were read, and cue words written from them). An in-sample figure."
        }
    }
}

/// The rule finder alone on the logs of `people`: the section's name and
/// its text.
pub fn finder(s: &FinderScores, people: People) -> (&'static str, String) {
    let name = match people {
        People::Unseen => "finder-unseen",
        People::Frozen => "finder-frozen",
        People::Tuned => "finder-tuned",
    };
    (
        name,
        noted(&finder::report(s, people.label()), about(people)),
    )
}

/// The audit on the real compactions of `people`: the section's name and
/// its text.
pub fn real(s: &Scores, people: People) -> (&'static str, String) {
    let name = match people {
        People::Unseen => "real-unseen",
        People::Frozen => "real-frozen",
        People::Tuned => "real-tuned",
    };
    (name, noted(&report::real(s, people.label()), about(people)))
}

/// Two readers' agreement: the section's name and its text.
pub fn agreement(a: &Agreement) -> (&'static str, String) {
    let note = "`eval/second/`: a second careful reading of a sample of the logs, made \
        apart and without the first reader's labels or the tool's output. How far \
        two careful readers agree is the ceiling a finder or a judge is measured \
        against.";
    ("second-reader", noted(&agreement::report(a), note))
}

/// The judge on the before/after verdict set `set`: the section's name and
/// its text.
pub fn verdicts(s: &VerdictScores, set: VerdictSet) -> (&'static str, String) {
    let (name, note) = match set {
        VerdictSet::HeldOut => (
            "verdicts-held-out",
            "`eval/verdicts/held-out-*.txt`: the held-out half of the verdict \
             sets, written with the dev half and measured, not tuned on. Written \
             for the evaluation, not by the people of the real logs.",
        ),
        VerdictSet::Dev => (
            "verdicts-dev",
            "`eval/verdicts/dev-*.txt`: before/after items written for the \
             evaluation, one rule and one compaction summary each, the rule kept \
             verbatim, reworded, weakened, a value changed, contradicted or \
             dropped; the judge alone scored on them. The dev half: tuned on, an \
             in-sample figure.",
        ),
    };
    (name, noted(&verdicts::report(s, set.id()), note))
}
