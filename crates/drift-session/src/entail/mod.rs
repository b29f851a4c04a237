//! Entailment: does a source support a claim?
//!
//! [`Entailment`] is the question the guards ask: given a claim and a source,
//! how strongly does the source entail it, contradict it, and how close is
//! the claim to the source's topic. A harness with a natural-language
//! inference model wraps it in an [`Entailment`] (any
//! `Fn(&str, &str) -> Judgement` is one); [`LexicalEntailment`] answers
//! without a model.
//!
//! ## The lexical checker
//!
//! [`LexicalEntailment`] compares the checkable details of a claim with the
//! source, entity by entity (`scan` finds them):
//!
//! - **Entities must occur in the source.** Identifiers (`payments-api`,
//!   `db_prod_01`, anything in backticks), tickets (`T-14`, `#512`),
//!   versions (`2.3.1`), numbers (`13,000` = `13k`), dates and paths
//!   (`src/lib.rs`, also as `lib.rs`) in the claim must each be mentioned by
//!   the source, in canonical form. One missing entity and the claim is not
//!   entailed.
//! - **A negated instruction against an affirmative claim is a
//!   contradiction.** "we are still on libfoo 2.3.1, do not bump" against
//!   "libfoo was upgraded to 2.4.0": the rule forbids a verb (bump), the
//!   claim asserts one of the same family (upgraded), not negated, about the
//!   same topic (libfoo). A freeze forbids deploys, changes, upgrades,
//!   merges, restarts and rollbacks of what it names. A condition in the
//!   rule ("without a dry-run flag", "until 2026-01-05") that the claim
//!   mentions lifts it.
//! - **Look-alike ids are flagged as a possible collapse.** A claim's id that
//!   the source lacks but that differs from a source id only in its digits
//!   (`T-41` for `T-14`, `db-prod-02` for `db-prod-01`).
//! - **Otherwise, entailment is coverage:** the share of the claim's content
//!   words (stemmed, function words dropped, `prod` = `production`) that the
//!   source has. Similarity is the same share counted whatever the
//!   entities say, so an on-topic claim with an invented version is similar
//!   and not entailed: the seed's fabrication signature.
//!
//! ### What it cannot see
//!
//! - **Paraphrase and meaning.** "Payments are frozen through quarter end"
//!   and "payments-api: change freeze until 2026-01-05" share one word. A
//!   claim built of the source's own words in a new order ("the tests pass"
//!   from "the tests did not pass") is entailed unless a rule forbids it.
//! - **Invented facts without entities.** "The timeout was caused by DNS"
//!   has nothing to check but words; if the words are in the source, it
//!   passes.
//! - **Polarity beyond prohibitions.** It knows "do not X" against "X-ed",
//!   and a freeze against a deploy; not "must X" against "skipped X", nor
//!   numbers that contradict ("at most 5" against "7 retries" is only an
//!   unsupported number).
//! - **Entities written as words.** "the first of January" is not
//!   `2026-01-01`; only number words up to twelve (and twenty) are read.
//! - **Single-digit counts** ("3 files") are never checked: summaries count
//!   what transcripts list.
//!
//! The measured precision and recall on a labelled set are in
//! [`crate::audit`](mod@crate::audit)'s documentation, since the audit is where every one of
//! these checks is used.
//!
//! ```
//! use drift_session::{Entailment, LexicalEntailment};
//!
//! let source = "turn 212: we are still on libfoo 2.3.1, do not bump.";
//! let checker = LexicalEntailment;
//! let faithful = checker.judge("libfoo stays on 2.3.1.", source);
//! let invented = checker.judge("Dependency libfoo was upgraded to 2.4.0.", source);
//! assert!(faithful.entailment >= 0.5 && faithful.contradiction == 0.0);
//! assert_eq!(invented.entailment, 0.0);
//! assert_eq!(invented.contradiction, 1.0);
//!
//! let details = checker.check("Dependency libfoo was upgraded to 2.4.0.", source);
//! assert_eq!(details.unsupported[0].text, "2.4.0");
//! ```

pub(crate) mod lexicon;
pub(crate) mod rules;
pub(crate) mod scan;

pub use scan::{Entity, EntityKind, Sentence, Span, entities, sentences};
pub(crate) mod support;

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

pub(crate) use rules::{Prohibition, Terms, prohibitions, reasoning, rejection_mark, rule_cue};
pub use rules::{ReasoningKind, RuleCue, lookalike};
use scan::Token;
use support::{Bag, Support, SupportBuilder};

/// How a source stands to a claim. Every score is in `[0, 1]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Judgement {
    /// How strongly the source entails the claim.
    pub entailment: f64,
    /// How strongly the source contradicts the claim.
    pub contradiction: f64,
    /// How close the claim is to the source's topic, whatever it asserts.
    pub similarity: f64,
}

/// Judges a claim against a source, in that direction: does `source`
/// entail `claim`? (Not the reverse: a summary that drops a fact is
/// under-entailed and harmless for truth; one that adds a fact is not.)
///
/// Any `Fn(&str, &str) -> Judgement` is an `Entailment`, so a model can be
/// plugged in with a closure.
///
/// ```
/// use drift_session::{Entailment, Judgement};
///
/// let substring = |claim: &str, source: &str| Judgement {
///     entailment: if source.contains(claim) { 1.0 } else { 0.0 },
///     ..Judgement::default()
/// };
/// assert_eq!(substring.judge("2.3.1", "we are on 2.3.1").entailment, 1.0);
/// ```
pub trait Entailment {
    /// How `source` stands to `claim`.
    fn judge(&self, claim: &str, source: &str) -> Judgement;
}

impl<F: Fn(&str, &str) -> Judgement> Entailment for F {
    fn judge(&self, claim: &str, source: &str) -> Judgement {
        self(claim, source)
    }
}

/// The entailment checker that needs no model (see the module docs for what
/// it can and cannot see).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LexicalEntailment;

/// An entity as it appears in a text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Mention {
    /// What it is.
    pub kind: EntityKind,
    /// As written.
    pub text: String,
    /// Where.
    pub span: Span,
}

/// A claim's id that the source lacks, and the source id it resembles.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lookalike {
    /// In the claim.
    pub claim: Mention,
    /// In the source.
    pub source: Mention,
}

/// A source rule that the claim breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Contradiction {
    /// The rule's sentence in the source.
    pub rule: Span,
    /// The word of the claim that breaks it ("upgraded").
    pub claim: Span,
}

/// The details behind a [`LexicalEntailment`] judgement.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LexicalJudgement {
    /// Claim entities the source does not mention.
    pub unsupported: Vec<Mention>,
    /// Unsupported ids that resemble a source id.
    pub lookalikes: Vec<Lookalike>,
    /// A source rule the claim breaks, if any.
    pub contradiction: Option<Contradiction>,
    /// Share of the claim's terms (content stems and entities) that the
    /// source has; 1 for a claim without terms.
    pub coverage: f64,
}

impl LexicalJudgement {
    /// The scores: entailment is 0 when an entity is unsupported or a rule
    /// is broken, else the coverage; contradiction is 1 when a rule is
    /// broken; similarity is the coverage.
    pub fn judgement(&self) -> Judgement {
        let broken = self.contradiction.is_some();
        Judgement {
            entailment: if broken || !self.unsupported.is_empty() {
                0.0
            } else {
                self.coverage
            },
            contradiction: if broken { 1.0 } else { 0.0 },
            similarity: self.coverage,
        }
    }
}

/// A source read once, to check any number of claims against it.
#[derive(Clone, Debug)]
pub(crate) struct ReadSource {
    support: Support,
    rules: Vec<(Span, Prohibition)>,
    ids: Vec<(String, Mention)>,
}

impl ReadSource {
    pub(crate) fn read(text: &str) -> ReadSource {
        let mut builder = SupportBuilder::default();
        let mut rules = Vec::new();
        let mut ids: Vec<(String, Mention)> = Vec::new();
        for sentence in scan::sentences(text) {
            let tokens = scan::tokens(text, sentence.span);
            for t in &tokens {
                builder.add_token(t);
                match t.entity {
                    None => builder.add_stem(&lexicon::stem(t.text)),
                    Some(kind @ (EntityKind::Identifier | EntityKind::Ticket)) => {
                        let canonical = scan::canonical(kind, t.text);
                        if canonical.bytes().any(|b| b.is_ascii_digit())
                            && !ids.iter().any(|(c, _)| *c == canonical)
                        {
                            ids.push((
                                canonical,
                                Mention {
                                    kind,
                                    text: t.text.to_string(),
                                    span: t.span,
                                },
                            ));
                        }
                    }
                    Some(_) => {}
                }
            }
            if !sentence.code && rule_cue(&tokens).is_some() {
                for p in prohibitions(&tokens) {
                    rules.push((sentence.span, p));
                }
            }
        }
        ReadSource {
            support: builder.finish(),
            rules,
            ids,
        }
    }

    pub(crate) fn check(&self, claim: &str) -> LexicalJudgement {
        let mut out = LexicalJudgement::default();
        let sentences = scan::sentences(claim);
        let mut all: Vec<Token<'_>> = Vec::new();
        for sentence in &sentences {
            let tokens = scan::tokens(claim, sentence.span);
            if out.contradiction.is_none() {
                let bag = Bag::of_tokens(&tokens).support;
                out.contradiction = self.rules.iter().find_map(|(rule, p)| {
                    p.breach(&tokens, &bag).and_then(|j| {
                        tokens.get(j).map(|t| Contradiction {
                            rule: *rule,
                            claim: t.span,
                        })
                    })
                });
            }
            all.extend(tokens);
        }
        for t in &all {
            let Some(kind) = t.entity else { continue };
            let e = scan::Entity {
                kind,
                text: t.text,
                span: t.span,
            };
            if e.is_trivial() || self.support.supports(kind, t.text) {
                continue;
            }
            let mention = Mention {
                kind,
                text: t.text.to_string(),
                span: t.span,
            };
            let canonical = e.canonical();
            if let Some((_, source)) = self.ids.iter().find(|(c, _)| lookalike(&canonical, c)) {
                out.lookalikes.push(Lookalike {
                    claim: mention.clone(),
                    source: source.clone(),
                });
            }
            out.unsupported.push(mention);
        }
        let terms = Terms::of(&all, 0, all.len());
        out.coverage = if terms.is_empty() {
            1.0
        } else {
            terms.coverage(&self.support, 1.0)
        };
        out
    }
}

impl LexicalEntailment {
    /// Checks `claim` against `source` and says why.
    pub fn check(&self, claim: &str, source: &str) -> LexicalJudgement {
        ReadSource::read(source).check(claim)
    }
}

impl Entailment for LexicalEntailment {
    fn judge(&self, claim: &str, source: &str) -> Judgement {
        self.check(claim, source).judgement()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seed_fabrication_is_caught_both_ways() {
        let source = "turn 212: we are still on libfoo 2.3.1, do not bump.";
        let j = LexicalEntailment.check(
            "dependency libfoo was upgraded to 2.4.0 during the refactor.",
            source,
        );
        assert_eq!(j.unsupported.len(), 1);
        assert!(j.contradiction.is_some());
        let c = j.contradiction.unwrap();
        assert_eq!(c.rule.of(source), source);
        assert_eq!(
            c.claim
                .of("dependency libfoo was upgraded to 2.4.0 during the refactor."),
            "upgraded"
        );
        assert_eq!(j.judgement().entailment, 0.0);
    }

    #[test]
    fn a_faithful_terse_claim_is_entailed() {
        let source = "Tests for the parser pass on 1.82; the lexer tests fail on src/lex.rs:40.";
        let j = LexicalEntailment.judge("Parser tests pass; lexer tests fail in lex.rs.", source);
        assert!(j.entailment >= 0.5, "{j:?}");
        assert_eq!(j.contradiction, 0.0);
    }

    #[test]
    fn swapped_tickets_are_lookalikes() {
        let source = "T-14 is the login timeout; T-7 is the CSV export.";
        let j = LexicalEntailment.check("T-41 (login timeout) is done.", source);
        assert_eq!(j.lookalikes.len(), 1);
        assert_eq!(j.lookalikes[0].source.text, "T-14");
        assert_eq!(j.judgement().entailment, 0.0);
    }

    #[test]
    fn closures_are_entailments() {
        let always = |_: &str, _: &str| Judgement {
            entailment: 1.0,
            contradiction: 0.0,
            similarity: 1.0,
        };
        assert_eq!(always.judge("a", "b").entailment, 1.0);
    }
}
