//! The model beside the log: for each rule of an imported session, the
//! fidelity the simulation gives it after each round and the fate the log
//! shows at the compaction that round stands for.
//!
//! Round `k` of the simulation stands for the log's `k`-th compaction with
//! a summary when it falls at that compaction's turn (the import places it
//! there: [`super::Notice::RoundsPlaced`]). A rule is **carried** in the
//! model when its fidelity after the round is at the actionable line or
//! above, and in the log when the summary kept it (in its own words or in
//! other ones), the harness put it back, or the summary weakened it (still
//! there, weaker: the model's "weakly governed"). The two disagree when one
//! carries the rule and the other does not; the disagreements are what to
//! look at before trusting the model's retention for this harness.

use alloc::string::String;
use alloc::vec::Vec;

use drift_core::{Run, Scenario};

use crate::audit::{Fate, Lineage, StepState};
use crate::transcript::CompactionKind;

/// The model beside the log, rule by rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Beside {
    /// Rounds compared: those at a compaction of the log's.
    pub rounds: usize,
    /// One per fact of the scenario that is a rule of the log's.
    pub rows: Vec<BesideRow>,
    /// Cells where both sides say something.
    pub compared: usize,
    /// Of those, where they agree.
    pub agree: usize,
}

/// One rule, round by round.
#[derive(Clone, Debug, PartialEq)]
pub struct BesideRow {
    /// The fact's id in the scenario.
    pub id: String,
    /// The rule's words.
    pub text: String,
    /// One per round compared.
    pub cells: Vec<BesideCell>,
}

/// One rule at one round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BesideCell {
    /// The fidelity the model gives it after the round (none: not yet
    /// stated).
    pub modelled: Option<f64>,
    /// The fate the log shows (none: not stated yet, or not judged).
    pub measured: Option<Fate>,
    /// Whether the harness kept it word for word.
    pub verbatim: bool,
    /// Whether the two agree on whether it is carried (none: one side is
    /// silent).
    pub agree: Option<bool>,
}

impl BesideRow {
    /// Whether any round disagrees.
    pub fn disagrees(&self) -> bool {
        self.cells.iter().any(|c| c.agree == Some(false))
    }
}

/// What the log shows of one rule at each compaction with a summary, in
/// order: its fate, and whether the harness kept it word for word (none:
/// not stated yet, or not judged).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Measured {
    /// The rule's index in the session's rules.
    pub rule: usize,
    /// One per compaction with a summary.
    pub fates: Vec<Option<(Fate, bool)>>,
}

/// What `lineage` shows of each rule at each compaction with a summary.
pub fn measured(lineage: &Lineage) -> Vec<Measured> {
    let summaries: Vec<usize> = lineage
        .compactions
        .iter()
        .filter(|c| c.kind == CompactionKind::Summary)
        .map(|c| c.number)
        .collect();
    lineage
        .rules
        .iter()
        .map(|r| Measured {
            rule: r.rule,
            fates: summaries
                .iter()
                .map(|&n| {
                    r.steps
                        .iter()
                        .find(|s| s.compaction == n && s.state == StepState::Judged)
                        .and_then(|s| s.fate.map(|f| (f, s.verbatim)))
                })
                .collect(),
        })
        .collect()
}

/// The model's `run` of `scenario` beside what the log shows (`measured`):
/// `facts` pairs each fact's id with its rule (the import's guesses say),
/// `placed` is how many rounds fall at the log's compactions.
pub fn beside(
    scenario: &Scenario,
    run: &Run,
    facts: &[(String, usize)],
    measured: &[Measured],
    placed: usize,
) -> Beside {
    let summaries = measured.first().map_or(0, |m| m.fates.len());
    let rounds = placed.min(summaries).min(run.rounds().len());
    let line = scenario.model.actionable_threshold;
    let mut out = Beside {
        rounds,
        rows: Vec::new(),
        compared: 0,
        agree: 0,
    };
    for (index, fact) in scenario.facts.iter().enumerate() {
        let Some(&(_, rule)) = facts.iter().find(|(id, _)| *id == fact.id) else {
            continue;
        };
        let Some(rule) = measured.iter().find(|m| m.rule == rule) else {
            continue;
        };
        let timeline: Vec<_> = run.timeline(index).collect();
        let cells: Vec<BesideCell> = (0..rounds)
            .map(|k| {
                let modelled = timeline
                    .iter()
                    .find(|e| e.round as usize == k + 1)
                    .map(|e| e.fact.fidelity);
                let step = rule.fates.get(k).copied().flatten();
                let measured = step.map(|(f, _)| f);
                let agree = modelled.zip(measured).map(|(f, fate)| {
                    let carried = matches!(fate, Fate::Kept | Fate::Reinjected | Fate::Weakened);
                    (f >= line) == carried
                });
                BesideCell {
                    modelled,
                    measured,
                    verbatim: step.is_some_and(|(_, v)| v),
                    agree,
                }
            })
            .collect();
        for c in &cells {
            if let Some(a) = c.agree {
                out.compared += 1;
                out.agree += usize::from(a);
            }
        }
        out.rows.push(BesideRow {
            id: fact.id.clone(),
            text: fact.text.clone(),
            cells,
        });
    }
    out
}
