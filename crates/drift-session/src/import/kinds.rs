//! Guessing a fact's kind from the words of its sentence: the kind table
//! of [`crate::import`](mod@crate::import), as code.
//!
//! Each row looks for its cues over the whole sentence, so a rule with an
//! exception in it ("never restart X except during the window") is found by
//! the carve-out row even though its first cue is "never".

use crate::entail::scan::{Span, Token, is, is_any};
use crate::entail::{ONLY_LEADS, RuleCue};
use drift_core::Kind;

/// Why a fact has the kind it was given: the kind, the cue as a person would
/// quote it, and where the cue is in the message text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KindCue {
    /// The kind guessed.
    pub kind: Kind,
    /// The words that decided it ("except", "only", "never", "I meant").
    pub cue: &'static str,
    /// Where those words are, in the message's text.
    pub span: Span,
}

/// A cue found: its label and its first and last token.
#[derive(Clone, Copy)]
struct Found {
    cue: &'static str,
    first: usize,
    last: usize,
}

/// `cue`, found from token `first` to token `last`.
fn found(cue: &'static str, first: usize, last: usize) -> Option<Found> {
    Some(Found { cue, first, last })
}

/// Words before "not" that make it an instruction or a report ("do not",
/// "did not"), not the "not X but Y" of a correction.
const AUXILIARIES: &[&str] = &[
    "can", "could", "did", "do", "does", "may", "might", "must", "need", "shall", "should", "will",
    "would",
];

/// Subjects after which "may" grants a permission ("you may force-push").
const PERMITTED: &[&str] = &["agent", "agents", "they", "we", "you"];

/// Words after "only" that make it a condition ("only if"), not a scope.
const CONDITIONS: &[&str] = &["after", "if", "once", "when", "while"];

/// Verbs before "only" that make it a scope ("touch only src/").
const SCOPE_VERBS: &[&str] = &[
    "access", "call", "change", "commit", "deploy", "edit", "modify", "push", "query", "read",
    "restart", "run", "touch", "use", "work", "write",
];

/// The operator corrects an earlier statement.
fn correction(tokens: &[Token<'_>]) -> Option<Found> {
    let n = tokens.len();
    for i in 0..n {
        let t = tokens.get(i);
        let next = tokens.get(i + 1);
        let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
        if is(t, "correction") {
            return found("correction", i, i);
        }
        if is(t, "actually") && t.is_some_and(|t| t.clause_start) {
            return found("actually", i, i);
        }
        if is(t, "i") && is(next, "meant") {
            return found("I meant", i, i + 1);
        }
        if is(t, "not") && !is(next, "only") && !is_any(prev, AUXILIARIES) {
            let but = (i + 2..n.min(i + 10)).find(|&j| is(tokens.get(j), "but"));
            if let Some(j) = but {
                return found("not … but", i, j);
            }
        }
    }
    None
}

/// An exception to a rule, or a permission.
fn carve_out(tokens: &[Token<'_>]) -> Option<Found> {
    let n = tokens.len();
    for i in 0..n {
        let t = tokens.get(i);
        let next = tokens.get(i + 1);
        let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
        if is_any(t, &["except", "excepting", "exempt"]) {
            return found("except", i, i);
        }
        if is(t, "unless") {
            return found("unless", i, i);
        }
        if is(t, "only") && is_any(next, &["if", "when", "during"]) {
            return Some(Found {
                cue: if is(next, "if") {
                    "only if"
                } else {
                    "only when"
                },
                first: i,
                last: i + 1,
            });
        }
        if is(t, "may") && !is(next, "not") {
            if let Some(j) = (i + 1..n).find(|&j| is(tokens.get(j), "during")) {
                return found("may … during", i, j);
            }
            if is_any(prev, PERMITTED) {
                return found("may", i - 1, i);
            }
        }
        if is_any(t, &["allowed", "permitted"])
            && is_any(prev, &["is", "are", "be"])
            && !is(next, "not")
        {
            return found("allowed", i, i);
        }
    }
    None
}

/// What the work may touch.
fn scope(tokens: &[Token<'_>]) -> Option<Found> {
    for i in 0..tokens.len() {
        let t = tokens.get(i);
        let next = tokens.get(i + 1);
        let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
        let instruction = t.is_some_and(|t| t.clause_start)
            || is_any(prev, ONLY_LEADS)
            || is_any(prev, SCOPE_VERBS);
        if is(t, "only")
            && instruction
            && next.is_some()
            && !is_any(prev, &["not", "if"])
            && !is_any(next, CONDITIONS)
        {
            return found("only", i, i);
        }
        if is_any(t, &["limited", "restricted", "scoped", "confined"]) && is(next, "to") {
            return found("limited to", i, i + 1);
        }
        if is(t, "stay") && is_any(next, &["within", "inside"]) {
            return found("stay within", i, i + 1);
        }
    }
    None
}

/// The kind of a sentence, or `None` when it is no fact.
///
/// `rule` is the rule detector's cue, if it found one; `operator` says
/// whether the sentence is the operator's (system, developer, user or plain
/// text). Without a rule cue only an operator's sentence can be a fact, and
/// only the operator makes corrections.
pub(crate) fn guess(
    tokens: &[Token<'_>],
    rule: Option<(RuleCue, usize)>,
    operator: bool,
) -> Option<KindCue> {
    let found = operator
        .then(|| correction(tokens))
        .flatten()
        .map(|f| (Kind::Correction, f))
        .or_else(|| carve_out(tokens).map(|f| (Kind::CarveOut, f)))
        .or_else(|| scope(tokens).map(|f| (Kind::Scope, f)))
        .or_else(|| {
            rule.map(|(cue, i)| {
                (
                    Kind::StandingRule,
                    Found {
                        cue: cue.label(),
                        first: i,
                        last: i,
                    },
                )
            })
        });
    let (kind, f) = found?;
    let start = tokens.get(f.first).map_or(0, |t| t.span.start);
    let end = tokens.get(f.last).map_or(start, |t| t.span.end);
    Some(KindCue {
        kind,
        cue: f.cue,
        span: Span::new(start, end),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::rule_cue;
    use crate::entail::scan;

    /// A sentence, whether the operator said it, and its kind, cue and
    /// cue text.
    type Case = (
        &'static str,
        bool,
        Option<(Kind, &'static str, &'static str)>,
    );

    /// The kind and cue of `text` read as one sentence.
    fn kind(text: &str, operator: bool) -> Option<(Kind, &'static str, &str)> {
        let tokens = scan::tokens(text, Span::new(0, text.len()));
        guess(&tokens, rule_cue(&tokens), operator).map(|k| (k.kind, k.cue, k.span.of(text)))
    }

    #[test]
    fn the_table() {
        use Kind::*;
        let cases: &[Case] = &[
            (
                "Never restart db-prod-01 without an approver.",
                true,
                Some((StandingRule, "never", "Never")),
            ),
            (
                "We are still on libfoo 2.3.1, do not bump.",
                false,
                Some((StandingRule, "do not", "not")),
            ),
            (
                "payments-api: change freeze in effect until 2026-01-05.",
                false,
                Some((StandingRule, "freeze", "freeze")),
            ),
            (
                "Never restart payments-api except during the Sunday window.",
                true,
                Some((CarveOut, "except", "except")),
            ),
            (
                "Runbook: ledger-replica-2 may be restarted during a freeze.",
                true,
                Some((CarveOut, "may … during", "may be restarted during")),
            ),
            (
                "You may force-push to feat/parser-rewrite, and only there.",
                true,
                Some((CarveOut, "may", "You may")),
            ),
            (
                "Restart it only if the approver agrees.",
                true,
                Some((CarveOut, "only if", "only if")),
            ),
            (
                "Do not deploy unless CI is green.",
                false,
                Some((CarveOut, "unless", "unless")),
            ),
            (
                "Only propose changes under migrations/.",
                true,
                Some((Scope, "only", "Only")),
            ),
            (
                "Touch only the payments namespace.",
                true,
                Some((Scope, "only", "only")),
            ),
            (
                "Work is limited to the staging cluster.",
                true,
                Some((Scope, "limited to", "limited to")),
            ),
            (
                "Correction: the spike began at 09:40 UTC, not 08:40.",
                true,
                Some((Correction, "correction", "Correction")),
            ),
            (
                "Actually, deploy to stg-eu-2 instead.",
                true,
                Some((Correction, "actually", "Actually")),
            ),
            (
                "Sorry, I meant db-staging-02.",
                true,
                Some((Correction, "I meant", "I meant")),
            ),
            (
                "The cause is not the pool but the DNS resolver.",
                true,
                Some((Correction, "not … but", "not the pool but")),
            ),
            // Only the operator corrects; a tool's "actually" is no cue.
            ("Actually, the build is green.", false, None),
            // Descriptions, not instructions.
            (
                "Prepare the config change but do not deploy it.",
                true,
                Some((StandingRule, "do not", "not")),
            ),
            ("It only took 3 seconds.", true, None),
            ("The job may fail on Mondays.", true, None),
            (
                "Restarts are not allowed today.",
                true,
                Some((StandingRule, "forbidden", "not")),
            ),
        ];
        for (text, operator, want) in cases {
            assert_eq!(kind(text, *operator), *want, "{text}");
        }
    }
}
