//! What the tool reported for a log, reduced to what the labels can be
//! compared with: per compaction, each rule it judged (its text, line, who
//! gave it, its fate) and the rules it says the summary invented.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use drift_session::judge::{After, FateJudge};
use drift_session::{
    Transcript,
    audit::audit_session_with,
    audit::{AfterPart, Fate},
    rules::{Authority, RuleFinder},
    transcript::CompactionKind,
};

use crate::labels::By;

/// A fate as the tool reported it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reported {
    Kept,
    Verbatim,
    Reinjected,
    Weakened,
    Dropped,
    Contradicted,
    /// The compaction's summary cannot be read.
    Unjudged,
}

impl Reported {
    /// Weakened, dropped or contradicted.
    pub const fn is_loss(self) -> bool {
        matches!(
            self,
            Reported::Weakened | Reported::Dropped | Reported::Contradicted
        )
    }

    pub const fn id(self) -> &'static str {
        match self {
            Reported::Kept => "kept",
            Reported::Verbatim => "verbatim",
            Reported::Reinjected => "reinjected",
            Reported::Weakened => "weakened",
            Reported::Dropped => "dropped",
            Reported::Contradicted => "contradicted",
            Reported::Unjudged => "unjudged",
        }
    }
}

/// A rule the tool judged at a compaction.
#[derive(Clone, Debug)]
pub struct RuleView {
    pub text: String,
    /// The log line of the statement judged.
    pub line: usize,
    /// Who gave it, as the tool says (none: the model, a summary).
    pub by: Option<By>,
    pub fate: Reported,
    /// Shown among the lost rules up front (not in a group of its own).
    pub up_front: bool,
    /// The file it is shown under when lost (an instruction file or skill
    /// is one entry up front, whatever it lost).
    pub group: Option<String>,
}

/// One compaction as the tool reported it.
#[derive(Clone, Debug)]
pub struct CompactionView {
    /// The line of its marker.
    pub line: usize,
    pub rules: Vec<RuleView>,
    /// The rules the summary states that nobody gave, as it writes them.
    pub invented: Vec<String>,
}

fn by(authority: Authority) -> By {
    match authority {
        Authority::User => By::User,
        Authority::Brief => By::Brief,
        Authority::System => By::System,
        Authority::Instructions => By::Instructions,
        Authority::ToolPolicy => By::ToolPolicy,
    }
}

/// The tool's audit of `transcript` with `finder` and `judge`, compaction
/// by compaction.
pub fn audit(
    transcript: &Transcript,
    finder: &impl RuleFinder,
    judge: &FateJudge<'_>,
) -> Vec<CompactionView> {
    let audit = audit_session_with(transcript, finder, judge);
    let summaries = transcript
        .compactions
        .iter()
        .filter(|c| c.kind == CompactionKind::Summary)
        .map(|c| c.record)
        .collect::<Vec<_>>();
    audit
        .compactions
        .iter()
        .filter(|c| summaries.contains(&c.record))
        .map(|c| {
            let rule = |r: &drift_session::audit::SessionRule, unjudged: bool| {
                let fate = if unjudged {
                    Reported::Unjudged
                } else {
                    match (r.rule.fate, r.after_part) {
                        (Fate::Kept, Some(AfterPart::Kept)) => Reported::Verbatim,
                        (Fate::Kept, _) => Reported::Kept,
                        (Fate::Reinjected, _) => Reported::Reinjected,
                        (Fate::Weakened, _) => Reported::Weakened,
                        (Fate::Dropped, _) => Reported::Dropped,
                        (Fate::Contradicted, _) => Reported::Contradicted,
                    }
                };
                RuleView {
                    text: r.rule.text.clone(),
                    line: r.record,
                    by: Some(by(r.authority)),
                    fate,
                    up_front: r.authority.trusted(),
                    group: (r.authority == Authority::Instructions).then(|| r.source.clone()),
                }
            };
            CompactionView {
                line: c.record,
                // What the tool reports: the rules it is sure of (what it
                // only thinks possibly a rule is folded away, as the
                // report folds it).
                rules: c
                    .rules
                    .iter()
                    .filter(|r| r.sure)
                    .map(|r| rule(r, false))
                    .chain(c.unjudged.iter().filter(|r| r.sure).map(|r| rule(r, true)))
                    .collect(),
                invented: c.invented.iter().map(|i| i.text.clone()).collect(),
            }
        })
        .collect()
}

/// `judge` on one rule and one summary: the fate of the rule, and the
/// evidence and reason.
pub fn judge(judge: &FateJudge<'_>, rule: &str, summary: &str) -> (Option<Reported>, String) {
    let verdict = judge.judge(rule, &After::new(summary));
    let why = format!(
        "{} ({:.2}, {:.2} sure): {}",
        verdict.why.words(),
        verdict.coverage,
        verdict.chance,
        verdict
            .evidence
            .map_or("", |e| e.of(summary))
            .replace('\n', " ")
    );
    (
        Some(match verdict.fate {
            Fate::Kept => Reported::Kept,
            Fate::Reinjected => Reported::Reinjected,
            Fate::Weakened => Reported::Weakened,
            Fate::Dropped => Reported::Dropped,
            Fate::Contradicted => Reported::Contradicted,
        }),
        why,
    )
}
