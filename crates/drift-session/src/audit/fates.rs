//! What a compaction did to each rule: kept, re-injected, weakened, dropped
//! or contradicted, with the evidence in the summary.
//!
//! A rule is **contradicted** when a sentence of the summary asserts or
//! plans what it forbids (see [`crate::entail`]). Otherwise the window of
//! the summary (a sentence, or it and the next) that restates most of the
//! rule's terms is its evidence:
//!
//! - it **keeps** the rule when, read as a rule, it has at least half of the
//!   rule's terms (entities weigh double) and none of the signs below;
//! - it **weakens** the rule when it restates at least a quarter of its
//!   terms and shows one of these signs, compared with the rule:
//!   a firm word (never, do not, must, always, only, forbidden) became a
//!   soft one (avoid, try, should, prefer, if possible, ideally, gradually);
//!   an exception appeared (unless, except, if needed, when necessary);
//!   a number or a limit changed or went (`at most 2` → `at most 5`, or
//!   "follows the limits"); a date or time changed or went; a scope rule
//!   (only X, leave X alone, limited to X) lost the name of what it
//!   allows; an approval became a notice (ask → notify, tell, let know);
//! - otherwise the summary **dropped** it.
//!
//! A rule the harness puts back itself (a project file it re-reads, a hook,
//! a message it keeps verbatim) is **re-injected** or **kept** before any of
//! this is asked: see the session audit.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::entail::scan::{EntityKind, Span, Token};

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
        }
    }
}

/// Words that make a rule firm.
const FIRM: &[&str] = &[
    "never",
    "not",
    "no",
    "must",
    "always",
    "only",
    "forbidden",
    "prohibited",
    "banned",
    "required",
    "requires",
    "mandatory",
    "cannot",
    "shall",
    "nothing",
    "none",
    "nobody",
    "strictly",
    "frozen",
    "freeze",
    "off-limits",
];

/// Words that make a restatement soft.
const SOFT: &[&str] = &[
    "avoid",
    "try",
    "should",
    "prefer",
    "preferably",
    "ideally",
    "possible",
    "generally",
    "usually",
    "typically",
    "recommended",
    "recommend",
    "consider",
    "careful",
    "carefully",
    "cautious",
    "caution",
    "mindful",
    "aim",
    "gradually",
    "feasible",
    "reasonable",
    "encouraged",
    "minimise",
    "minimize",
    "limit",
    "sparingly",
    "where",
    "preferred",
    "best",
    "wary",
    "discouraged",
    "might",
];

/// Words that open an exception.
const EXCEPTIONS: &[&str] = &["unless", "except", "exception", "exceptions", "otherwise"];

/// Words after "if"/"when"/"as" that make a condition an exception
/// ("if needed", "when necessary", "as required").
const LOOSENERS: &[&str] = &[
    "needed",
    "necessary",
    "required",
    "urgent",
    "appropriate",
    "justified",
];

/// Words of an approval.
const APPROVAL: &[&str] = &[
    "approval",
    "approve",
    "approved",
    "approver",
    "sign-off",
    "signoff",
    "sign",
    "ask",
    "permission",
    "ok",
    "okay",
    "consent",
    "confirm",
    "confirmation",
    "wait",
];

/// Words of a notice.
const NOTICE: &[&str] = &[
    "notify", "inform", "tell", "let", "know", "heads-up", "fyi", "mention", "update", "cc",
];

/// Words of a scope rule.
const SCOPE: &[&str] = &[
    "only",
    "alone",
    "limited",
    "restricted",
    "confined",
    "scoped",
    "exclusively",
    "solely",
];

fn lower(t: &Token<'_>) -> String {
    t.text.to_ascii_lowercase()
}

fn has(tokens: &[Token<'_>], words: &[&str]) -> bool {
    tokens
        .iter()
        .any(|t| t.entity.is_none() && words.contains(&lower(t).as_str()))
}

/// What of a text can weaken: its firm and soft words, numbers, dates, the
/// names it scopes, its exceptions and approvals.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    firm: bool,
    soft: bool,
    exception: bool,
    approval: bool,
    notice: bool,
    scope: bool,
    numbers: Vec<String>,
    dates: Vec<String>,
    names: Vec<String>,
}

impl Shape {
    pub(crate) fn of(tokens: &[Token<'_>]) -> Shape {
        let mut shape = Shape {
            firm: has(tokens, FIRM),
            soft: has(tokens, SOFT),
            exception: has(tokens, EXCEPTIONS)
                || tokens.windows(2).any(|w| {
                    matches!(lower(&w[0]).as_str(), "if" | "when" | "as" | "where")
                        && LOOSENERS.contains(&lower(&w[1]).as_str())
                }),
            approval: has(tokens, APPROVAL),
            notice: has(tokens, NOTICE),
            scope: has(tokens, SCOPE),
            ..Shape::default()
        };
        for t in tokens {
            let canonical =
                || crate::entail::scan::canonical(t.entity.unwrap_or(EntityKind::Number), t.text);
            match t.entity {
                Some(EntityKind::Number) => shape.numbers.push(canonical()),
                Some(EntityKind::Date) => shape.dates.push(canonical()),
                Some(EntityKind::Identifier | EntityKind::Path | EntityKind::Ticket) => {
                    shape.names.push(t.text.to_ascii_lowercase());
                }
                _ => {
                    // Number words a rule uses for limits.
                    let w = lower(t);
                    if let Some(n) = number_word(&w) {
                        shape.numbers.push(n.to_string());
                    }
                }
            }
        }
        shape
    }

    /// How `after` (the restatement) weakens `self` (the rule), if it does.
    pub(crate) fn weakened_by(&self, after: &Shape) -> Option<Weakening> {
        if self.firm && !after.firm && after.soft {
            return Some(Weakening::Softened);
        }
        if after.exception && !self.exception {
            return Some(Weakening::Exception);
        }
        if !self.numbers.is_empty() && !self.numbers.iter().any(|n| after.numbers.contains(n)) {
            return Some(Weakening::Limit);
        }
        if !self.dates.is_empty() && !self.dates.iter().any(|d| after.dates.contains(d)) {
            return Some(Weakening::Window);
        }
        if self.scope
            && !self.names.is_empty()
            && !self.names.iter().any(|n| after.names.contains(n))
        {
            return Some(Weakening::Scope);
        }
        if self.approval && !after.approval && after.notice {
            return Some(Weakening::Approval);
        }
        None
    }
}

/// "two" → 2, up to twelve.
fn number_word(w: &str) -> Option<u8> {
    const WORDS: [&str; 12] = [
        "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
        "twelve",
    ];
    WORDS.iter().position(|x| *x == w).map(|i| i as u8 + 1)
}

/// The evidence of a fate in the new context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Evidence {
    /// Where, in the summary.
    pub span: Span,
    /// How it weakened the rule, when it did.
    pub weakening: Option<Weakening>,
}

impl Evidence {
    pub(crate) fn at(span: Span) -> Evidence {
        Evidence {
            span,
            weakening: None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::scan;

    fn shape(text: &str) -> Shape {
        Shape::of(&scan::tokens(text, Span::new(0, text.len())))
    }

    #[test]
    fn signs_of_weakening() {
        let cases: &[(&str, &str, Option<Weakening>)] = &[
            (
                "Never drain billing-pool-1.",
                "Avoid draining billing-pool-1.",
                Some(Weakening::Softened),
            ),
            (
                "Never drain billing-pool-1.",
                "Never drain billing-pool-1.",
                None,
            ),
            (
                "Do not deploy to prod.",
                "Do not deploy to prod unless it is urgent.",
                Some(Weakening::Exception),
            ),
            (
                "Drain at most 2 nodes at once.",
                "Drain at most 5 nodes at once.",
                Some(Weakening::Limit),
            ),
            (
                "Drain at most two nodes at once.",
                "Drain at most 2 nodes at once.",
                None,
            ),
            (
                "Frozen until 2026-04-22.",
                "Frozen until 2026-04-29.",
                Some(Weakening::Window),
            ),
            (
                "Only touch billing-replica-2.",
                "Database changes are limited to the billing replicas.",
                Some(Weakening::Scope),
            ),
            (
                "Ask me before any terraform apply.",
                "Let the user know before terraform apply.",
                Some(Weakening::Approval),
            ),
            (
                "Never force-push to main.",
                "Force-pushing main is forbidden.",
                None,
            ),
        ];
        for (rule, after, want) in cases {
            assert_eq!(
                shape(rule).weakened_by(&shape(after)),
                *want,
                "{rule} / {after}"
            );
        }
    }
}
