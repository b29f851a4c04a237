//! The sections of `eval/SCORES.md` this crate measures: each the report
//! `cargo xtask eval` prints for one set, with a note under its heading on
//! who it is measured on and whether that is in-sample. `cargo xtask eval
//! --write-scores` writes them; `tests/labels.rs` holds the file to them
//! (all but the frozen group's, a record of a measurement made once).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use drift_session::judge::{After, FateJudge};
use drift_session::rules::model::{Model, ModelFinder};

use crate::agreement::{self, Agreement};
use crate::cv::Folds;
use crate::finder::{self, FinderScores};
use crate::judging;
use crate::labels::People;
use crate::real::{self, Case, Scores};
use crate::report;
use crate::verdicts::{self, VerdictScores, VerdictSet};

/// `report` with `note` as a paragraph under its first line (its heading).
fn noted(report: &str, note: &str) -> String {
    match report.split_once("\n\n") {
        Some((heading, rest)) => format!("{heading}\n\n{note}\n\n{rest}"),
        None => format!("{report}\n\n{note}\n"),
    }
}

/// Which figure of the real logs a section is: who is measured, by which
/// model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Figure {
    /// Every person not frozen, each read by a model trained on the other
    /// people only ([`crate::cv::Folds`]).
    Across,
    /// The same folds, on the people of split `unseen` only: no
    /// hand-written part of the audit was tuned on them either.
    AcrossUntuned,
    /// The frozen group, read by the shipped model (which never learned
    /// from it): measured once, at the end of each change.
    Frozen,
    /// Every person not frozen, read by the shipped model, which learned
    /// from them all.
    InSample,
}

impl Figure {
    /// Every figure, in the order the file shows them.
    pub const ALL: [Figure; 4] = [
        Figure::Across,
        Figure::AcrossUntuned,
        Figure::Frozen,
        Figure::InSample,
    ];

    /// For a report's heading.
    pub const fn label(self) -> &'static str {
        match self {
            Figure::Across => "across people, 5-fold by person",
            Figure::AcrossUntuned => {
                "across people, 5-fold by person, on the people no part was tuned on"
            }
            Figure::Frozen => "the frozen group, measured once",
            Figure::InSample => "in-sample, on the people the shipped model learned from",
        }
    }

    /// The note under a table: who it is measured on, and whether that is
    /// in-sample.
    const fn note(self) -> &'static str {
        match self {
            Figure::Across => {
                "Every log of `eval/real/` whose person is not in the frozen group, \
                 each read by a rule finder and a judge trained on the other people \
                 only (5 folds by repository; the rule corpus and the verdict sets' \
                 dev half in every fold; `cargo xtask eval`). The figure across \
                 people for both models. The judge's structural reading, which its \
                 model decides from, was written by hand and tuned on the people of \
                 splits `dev`, `held_out` and `finder`."
            }
            Figure::AcrossUntuned => {
                "The same folds, on the logs of split `unseen` only: people no \
                 hand-written part was tuned on either, so every part of the audit \
                 is measured across people."
            }
            Figure::Frozen => {
                "Logs of `eval/real/` of split `frozen`: a fifth of the people, fixed \
                 before any part was trained and never read, trained or tuned on, \
                 read by the shipped models. Measured once, at the end of each change \
                 to the finder or the judge (`cargo xtask eval --frozen \
                 --write-scores`); the tests do not measure it again."
            }
            Figure::InSample => {
                "Every log of `eval/real/` whose person is not frozen, read by the \
                 shipped models, which learned from them all: an in-sample figure, \
                 shown beside the one across people to tell how much the models \
                 learned their people rather than rules."
            }
        }
    }

    const fn suffix(self) -> &'static str {
        match self {
            Figure::Across => "across",
            Figure::AcrossUntuned => "across-untuned",
            Figure::Frozen => "frozen",
            Figure::InSample => "in-sample",
        }
    }
}

/// One figure of the real logs: the rule finder alone, and the audit at
/// the labelled compactions.
#[derive(Debug)]
pub struct Measured {
    pub figure: Figure,
    pub finder: FinderScores,
    pub real: Scores,
}

impl Figure {
    /// The logs of `cases` it is measured on.
    pub fn cases(self, cases: &[Case]) -> Vec<&Case> {
        let people = |c: &&Case| c.labels.split.people();
        cases
            .iter()
            .filter(|c| match self {
                Figure::Across | Figure::InSample => people(c) != People::Frozen,
                Figure::AcrossUntuned => people(c) == People::Unseen,
                Figure::Frozen => people(c) == People::Frozen,
            })
            .collect()
    }
}

/// `figures` of `cases`, each on its logs: those across people read by
/// `folds` (every person by the model that never learned from them), the
/// others by the shipped model; with `misses`, the figure across people
/// lists what it got wrong.
pub fn measure(cases: &[Case], folds: &Folds, figures: &[Figure], misses: bool) -> Vec<Measured> {
    let shipped = Model::shipped();
    let judge = FateJudge::shipped();
    figures
        .iter()
        .map(|&figure| {
            let of = figure.cases(cases);
            let misses = misses && figure == Figure::Across;
            let (finder, real) = match figure {
                Figure::Across | Figure::AcrossUntuned => {
                    let across = |c: &Case| folds.finder(c);
                    let judge = |c: &Case| folds.judge(c.labels.repo);
                    (
                        finder::score(&of, across, misses),
                        real::score(&of, across, judge, misses),
                    )
                }
                Figure::Frozen | Figure::InSample => {
                    let model = |_: &Case| ModelFinder { model: shipped };
                    (
                        finder::score(&of, model, misses),
                        real::score(&of, model, |_: &Case| judge, misses),
                    )
                }
            };
            Measured {
                figure,
                finder,
                real,
            }
        })
        .collect()
}

/// The rule finder alone, as `figure`: the section's name and its text.
pub fn finder(s: &FinderScores, figure: Figure) -> (String, String) {
    (
        format!("finder-{}", figure.suffix()),
        noted(&finder::report(s, figure.label()), figure.note()),
    )
}

/// The audit on the real compactions, as `figure`: the section's name and
/// its text.
pub fn real(s: &Scores, figure: Figure) -> (String, String) {
    (
        format!("real-{}", figure.suffix()),
        noted(&report::real(s, figure.label()), figure.note()),
    )
}

/// The judge across people: every item of a person in `learned` judged by
/// the judge of that person's fold, which never learned from them.
pub fn judge_across(
    learned: &[judging::JudgeItem],
    folds: &Folds,
    misses: bool,
) -> judging::PairScores {
    let people: Vec<&judging::JudgeItem> = learned.iter().filter(|i| i.repo.is_some()).collect();
    judging::score(
        &people,
        |i| {
            folds
                .judge(i.repo)
                .judge(&i.rule, &After::new(&i.after))
                .fate
        },
        misses,
    )
}

/// The heading of the judge's figure across people.
pub const JUDGE_ACROSS: &str =
    "The judge across people, 5-fold by person: written pairs and real compactions";

/// The heading of the judge's figure on the frozen group.
pub const JUDGE_FROZEN: &str =
    "The judge on the frozen group, measured once: written pairs and real compactions";

/// The judge on the pairs of `eval/judge/` and the real fates, as `figure`
/// (across people or frozen): the section's name and its text.
pub fn judge_pairs(s: &judging::PairScores, figure: Figure) -> (String, String) {
    let (title, note) = if figure == Figure::Frozen {
        (
            JUDGE_FROZEN,
            "The labelled fates at the frozen group's real compactions and the written \
             pairs of its rules (`eval/judge/`), judged by the shipped model, which never \
             learned from them. Measured once, at the end of each change to the finder or \
             the judge.",
        )
    } else {
        (
            JUDGE_ACROSS,
            "Every labelled fate at a real compaction (`eval/real/`) and every written \
             pair (`eval/judge/`: a careful reader's line for a real rule, put into a \
             real summary of the same person) of the people not frozen, each judged by \
             a model trained on the other people only (5 folds by repository; the \
             verdict sets' dev half and the audit's tuned pairs, of no person, in every \
             fold). The rule is the labelled rule, so the judge is measured alone, \
             apart from the finder.",
        )
    };
    (
        format!("judge-{}", figure.suffix()),
        noted(&judging::report(s, title), note),
    )
}

/// Two readers' agreement: the section's name and its text.
pub fn agreement(a: &Agreement) -> (String, String) {
    let note = "`eval/second/`: a second careful reading of a sample of the logs, made \
        apart and without the first reader's labels or the tool's output. How far \
        two careful readers agree is the ceiling a finder or a judge is measured \
        against.";
    ("second-reader".into(), noted(&agreement::report(a), note))
}

/// The judge on the before/after verdict set `set`: the section's name and
/// its text.
pub fn verdicts(s: &VerdictScores, set: VerdictSet) -> (String, String) {
    let (name, note) = match set {
        VerdictSet::HeldOut => (
            "verdicts-held-out",
            "`eval/verdicts/held-out-*.txt`: the held-out half of the verdict \
             sets, written with the dev half and measured, never learned from, \
             judged by the shipped model. Written for the evaluation, not by the \
             people of the real logs.",
        ),
        VerdictSet::Dev => (
            "verdicts-dev",
            "`eval/verdicts/dev-*.txt`: before/after items written for the \
             evaluation, one rule and one compaction summary each, the rule kept \
             verbatim, reworded, weakened, a value changed, contradicted or \
             dropped; the judge alone scored on them. The dev half: the judge's \
             model learns from it, an in-sample figure.",
        ),
    };
    (name.into(), noted(&verdicts::report(s, set.id()), note))
}
