//! What a compaction did to each rule: kept, re-injected, weakened, dropped
//! or contradicted, with the evidence in the summary.
//!
//! The judge ([`crate::judge::FateJudge`]) decides each fate and gives
//! its evidence; this module holds what it decides, as the audits report
//! it.
//!
//! A rule the harness puts back itself (a project file it re-reads, a hook,
//! a message it keeps verbatim) is **re-injected** or **kept** before any of
//! this is asked: see the session audit.

use serde::Serialize;

use crate::entail::scan::Span;

/// What a compaction did to a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Fate {
    /// The new context carries it: verbatim, or a restatement that keeps its
    /// operative part.
    Kept,
    /// The harness puts it back itself (a project file, a hook, a memory).
    Reinjected,
    /// Present, but its operative part is lost (see [`Weakening`]).
    Weakened,
    /// Gone.
    Dropped,
    /// The new context asserts or plans what it forbids.
    Contradicted,
}

impl Fate {
    /// Every fate, in order of harm.
    pub const ALL: [Fate; 5] = [
        Fate::Kept,
        Fate::Reinjected,
        Fate::Weakened,
        Fate::Dropped,
        Fate::Contradicted,
    ];

    /// The identifier used in reports (`kept`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Fate::Kept => "kept",
            Fate::Reinjected => "reinjected",
            Fate::Weakened => "weakened",
            Fate::Dropped => "dropped",
            Fate::Contradicted => "contradicted",
        }
    }

    /// The fate of an identifier ([`Fate::id`]).
    pub fn from_id(id: &str) -> Option<Fate> {
        Fate::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Whether the rule is no longer in force as stated.
    pub const fn is_loss(self) -> bool {
        matches!(self, Fate::Weakened | Fate::Dropped | Fate::Contradicted)
    }
}

/// How a restatement weakened a rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Weakening {
    /// A firm word became a soft one ("never" → "avoid").
    Softened,
    /// An exception appeared ("unless needed").
    Exception,
    /// A number or limit changed or went.
    Limit,
    /// A date or time changed or went.
    Window,
    /// A scope lost the name of what it allows.
    Scope,
    /// An approval became a notice.
    Approval,
    /// It holds less of the rule than the rule said, in other words (the
    /// judge's model saw it weakened where structure names no one detail).
    Detail,
}

impl Weakening {
    /// In words, for reports.
    pub const fn words(self) -> &'static str {
        match self {
            Weakening::Softened => "a firm word became a soft one",
            Weakening::Exception => "an exception appeared",
            Weakening::Limit => "a number or limit changed or went",
            Weakening::Window => "a date or time changed or went",
            Weakening::Scope => "the scope lost what it names",
            Weakening::Approval => "an approval became a notice",
            Weakening::Detail => "it holds less of the rule",
        }
    }
}

/// Words that make a rule firm.
/// The evidence of a fate in the new context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Where, in the summary.
    pub span: Span,
    /// How it weakened the rule, when it did.
    pub weakening: Option<Weakening>,
}
