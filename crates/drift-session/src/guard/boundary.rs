//! The boundary gate: compressed recall or fabricated history?
//!
//! At a compaction boundary the gate checks every claim of the new summary,
//! in the direction that matters (does a *raw* span entail the claim?), and
//! classifies it:
//!
//! - **verified**: some raw span (or all of them together) entails it;
//! - **unverified**: not entailed by the raw spans but by the prior summary
//!   (laundered), or by a claim the gate already tagged unverified at an
//!   earlier boundary (carried forward), or by nothing and not close to the
//!   raw text either (unanchored);
//! - **fabricated**: a raw span contradicts it, or it is close to the raw
//!   text (similarity at least [`GateSettings::similar`]) yet nothing
//!   entails it: fluent, on topic, and unsupported.
//!
//! Laundering is judged before fabrication: a claim the prior summary
//! already made was fabricated (if at all) at an earlier boundary; here it is
//! being laundered.
//!
//! The *laundering rate* is the share of actionable claims that are
//! laundered or carried forward. [`BoundaryGate::cross`] refuses a boundary
//! with a fabricated claim or a rate above the threshold (the summary has
//! crossed into fabricated history and must be re-derived from raw spans);
//! otherwise it accepts it and remembers its unverified claims. Those tags
//! carry forward to the next boundary, and
//! [`BoundaryGate::permit_irreversible`] refuses an irreversible action whose
//! premise rests on one.
//!
//! ```
//! use drift_session::LexicalEntailment;
//! use drift_session::{BoundaryGate, guard::{BoundaryError, Claim, ClaimStatus}};
//!
//! let raw = ["turn 212: we are still on libfoo 2.3.1, do not bump."];
//! let mut gate = BoundaryGate::new();
//! let claims = [
//!     Claim::actionable("libfoo is pinned at 2.3.1."),
//!     Claim::actionable("Dependency libfoo was upgraded to 2.4.0 during the refactor."),
//! ];
//! let report = gate.assess(&claims, &raw, "", &LexicalEntailment);
//! assert_eq!(report.claims[0].status, ClaimStatus::Verified);
//! assert_eq!(report.claims[1].status, ClaimStatus::Fabricated);
//! assert!(matches!(
//!     gate.cross(&claims, &raw, "", &LexicalEntailment),
//!     Err(BoundaryError::Fabricated { .. })
//! ));
//! ```

use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use crate::entail::{Entailment, Judgement};

/// One claim of a summary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// What it asserts.
    pub text: String,
    /// Whether an action may rest on it (a version, a target, a rule's
    /// state); only actionable claims count for the laundering rate.
    pub actionable: bool,
}

impl Claim {
    /// An actionable claim.
    pub fn actionable(text: impl Into<String>) -> Claim {
        Claim {
            text: text.into(),
            actionable: true,
        }
    }

    /// A claim no action rests on (narrative).
    pub fn narrative(text: impl Into<String>) -> Claim {
        Claim {
            text: text.into(),
            actionable: false,
        }
    }
}

/// The gate's thresholds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GateSettings {
    /// An entailment (or contradiction) score at least this counts (0.5).
    pub entailed: f64,
    /// A claim at least this similar to the raw text but not entailed is a
    /// fabrication (0.75).
    pub similar: f64,
    /// A laundering rate above this refuses the boundary (0.15, as
    /// `laundering_threshold` in the simulation).
    pub laundering_threshold: f64,
}

impl Default for GateSettings {
    fn default() -> GateSettings {
        GateSettings {
            entailed: 0.5,
            similar: 0.75,
            laundering_threshold: 0.15,
        }
    }
}

/// Verified, unverified or fabricated.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimStatus {
    /// A raw span entails it.
    Verified,
    /// It may stand in the summary but must not drive an irreversible action.
    Unverified,
    /// It asserts history the transcript does not support: an error.
    Fabricated,
}

/// Why a claim got its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClaimReason {
    /// A raw span (or the raw spans together) entails it.
    EntailedByRawSpans,
    /// Only the prior summary entails it.
    Laundered,
    /// A claim tagged unverified at an earlier boundary entails it.
    CarriedForward,
    /// Nothing entails it, and it is not close to the raw text.
    Unanchored,
    /// A raw span contradicts it.
    ContradictsRawSpan,
    /// Close to the raw text, entailed by nothing.
    SimilarButNotEntailed,
}

impl ClaimReason {
    /// The status this reason gives.
    pub const fn status(self) -> ClaimStatus {
        match self {
            ClaimReason::EntailedByRawSpans => ClaimStatus::Verified,
            ClaimReason::Laundered | ClaimReason::CarriedForward | ClaimReason::Unanchored => {
                ClaimStatus::Unverified
            }
            ClaimReason::ContradictsRawSpan | ClaimReason::SimilarButNotEntailed => {
                ClaimStatus::Fabricated
            }
        }
    }

    /// Whether it counts for the laundering rate.
    pub const fn is_laundering(self) -> bool {
        matches!(self, ClaimReason::Laundered | ClaimReason::CarriedForward)
    }

    /// A few words for people.
    pub const fn label(self) -> &'static str {
        match self {
            ClaimReason::EntailedByRawSpans => "entailed by the raw spans",
            ClaimReason::Laundered => "entailed only by the prior summary (laundered)",
            ClaimReason::CarriedForward => "entailed only by a claim already unverified",
            ClaimReason::Unanchored => "entailed by nothing",
            ClaimReason::ContradictsRawSpan => "contradicted by a raw span",
            ClaimReason::SimilarButNotEntailed => "on topic but entailed by nothing",
        }
    }
}

/// The gate's verdict on one claim.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaimReport {
    /// Index into the claims.
    pub claim: usize,
    /// Verified, unverified or fabricated.
    pub status: ClaimStatus,
    /// Why.
    pub reason: ClaimReason,
    /// Best entailment by a raw span (or the spans together).
    pub raw_entailment: f64,
    /// Entailment by the prior summary.
    pub prior_entailment: f64,
    /// Best similarity to a raw span.
    pub similarity: f64,
    /// Worst contradiction by a raw span.
    pub contradiction: f64,
    /// The raw span that entails it best, or that contradicts it.
    pub span: Option<usize>,
    /// For a claim carried forward: the boundary its tag dates from.
    pub since: Option<u32>,
}

/// The gate's verdict on one boundary.
#[derive(Clone, Debug, PartialEq)]
pub struct BoundaryReport {
    /// One per claim, in order.
    pub claims: Vec<ClaimReport>,
    /// Actionable claims.
    pub actionable: usize,
    /// Actionable claims laundered or carried forward.
    pub laundered: usize,
    /// `laundered / actionable` (0 with no actionable claim).
    pub laundering_rate: f64,
}

/// A claim tagged unverified at an accepted boundary.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnverifiedTag {
    /// The claim.
    pub text: String,
    /// Why it is unverified.
    pub reason: ClaimReason,
    /// The boundary (1-based count of accepted boundaries) the tag dates from.
    pub since: u32,
}

/// Why a boundary or an action was refused.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum BoundaryError {
    /// No raw span: the compaction would be unanchored.
    NoRawSpans,
    /// A claim asserts history the transcript does not support.
    Fabricated {
        /// The claim.
        claim: String,
        /// Contradicted, or similar but not entailed.
        reason: ClaimReason,
        /// Its best raw entailment.
        raw_entailment: f64,
        /// Its similarity to the raw text.
        similarity: f64,
    },
    /// Too many actionable claims are laundered: fabricated-history regime.
    Laundering {
        /// Laundered actionable claims.
        laundered: usize,
        /// Actionable claims.
        actionable: usize,
        /// Their ratio.
        rate: f64,
        /// The threshold it exceeds.
        threshold: f64,
    },
    /// An irreversible action rests on an unverified claim.
    UnverifiedPremise {
        /// The premise.
        premise: String,
        /// The unverified claim it rests on.
        claim: String,
        /// The boundary the tag dates from.
        since: u32,
    },
}

impl fmt::Display for BoundaryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BoundaryError::NoRawSpans => f.write_str(
                "no raw spans to check the summary against; the compaction would be unanchored",
            ),
            BoundaryError::Fabricated {
                claim,
                reason,
                raw_entailment,
                similarity,
            } => write!(
                f,
                "fabricated claim at the compaction boundary: \"{claim}\" is {} (raw entailment {raw_entailment:.2}, similarity {similarity:.2})",
                reason.label()
            ),
            BoundaryError::Laundering {
                laundered,
                actionable,
                rate,
                threshold,
            } => write!(
                f,
                "laundering rate {laundered}/{actionable} = {rate:.2} exceeds {threshold:.2}: the summary has crossed into fabricated history; re-derive it from raw spans"
            ),
            BoundaryError::UnverifiedPremise {
                premise,
                claim,
                since,
            } => write!(
                f,
                "\"{premise}\" rests on \"{claim}\", unverified since boundary {since}; refusing an irreversible action"
            ),
        }
    }
}

impl core::error::Error for BoundaryError {}

/// The gate for one session: its settings, how many boundaries it accepted,
/// and the claims it tagged unverified at the last one.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BoundaryGate {
    settings: GateSettings,
    boundaries: u32,
    tags: Vec<UnverifiedTag>,
}

impl BoundaryGate {
    /// A gate with the default settings.
    pub fn new() -> BoundaryGate {
        BoundaryGate::default()
    }

    /// A gate with these settings.
    pub fn with_settings(settings: GateSettings) -> BoundaryGate {
        BoundaryGate {
            settings,
            ..BoundaryGate::default()
        }
    }

    /// Its settings.
    pub fn settings(&self) -> GateSettings {
        self.settings
    }

    /// How many boundaries it accepted.
    pub fn boundaries(&self) -> u32 {
        self.boundaries
    }

    /// The claims tagged unverified at the last accepted boundary.
    pub fn unverified(&self) -> &[UnverifiedTag] {
        &self.tags
    }

    /// Classifies every claim without changing the gate. Each claim is
    /// judged against each raw span, the raw spans together, the prior
    /// summary and each tag; with [`crate::entail::LexicalEntailment`] every
    /// judgement reads its source anew, so the cost is claims times the size
    /// of the texts.
    pub fn assess<S: AsRef<str>>(
        &self,
        claims: &[Claim],
        raw_spans: &[S],
        prior_summary: &str,
        entailment: &impl Entailment,
    ) -> BoundaryReport {
        let together = join(raw_spans);
        let s = self.settings;
        let mut reports = Vec::with_capacity(claims.len());
        let (mut actionable, mut laundered) = (0, 0);
        for (i, claim) in claims.iter().enumerate() {
            let text = claim.text.as_str();
            let mut best = Judgement::default();
            let mut span = None;
            let mut worst_contradiction = (0.0, None);
            for (k, raw) in raw_spans.iter().enumerate() {
                let j = entailment.judge(text, raw.as_ref());
                if j.entailment > best.entailment || span.is_none() {
                    best.entailment = j.entailment;
                    span = Some(k);
                }
                best.similarity = best.similarity.max(j.similarity);
                if j.contradiction > worst_contradiction.0 {
                    worst_contradiction = (j.contradiction, Some(k));
                }
            }
            if raw_spans.len() > 1 {
                let j = entailment.judge(text, &together);
                if j.entailment > best.entailment {
                    best.entailment = j.entailment;
                    span = None;
                }
                best.similarity = best.similarity.max(j.similarity);
            }
            let prior = if prior_summary.is_empty() {
                0.0
            } else {
                entailment.judge(text, prior_summary).entailment
            };
            let carried = self
                .tags
                .iter()
                .find(|t| entailment.judge(text, &t.text).entailment >= s.entailed);
            let reason = if worst_contradiction.0 >= s.entailed {
                span = worst_contradiction.1;
                ClaimReason::ContradictsRawSpan
            } else if best.entailment >= s.entailed {
                ClaimReason::EntailedByRawSpans
            } else if carried.is_some() {
                ClaimReason::CarriedForward
            } else if prior >= s.entailed {
                ClaimReason::Laundered
            } else if best.similarity >= s.similar {
                ClaimReason::SimilarButNotEntailed
            } else {
                ClaimReason::Unanchored
            };
            if claim.actionable {
                actionable += 1;
                if reason.is_laundering() {
                    laundered += 1;
                }
            }
            reports.push(ClaimReport {
                claim: i,
                status: reason.status(),
                reason,
                raw_entailment: best.entailment,
                prior_entailment: prior,
                similarity: best.similarity,
                contradiction: worst_contradiction.0,
                span,
                since: if reason == ClaimReason::CarriedForward {
                    carried.map(|t| t.since)
                } else {
                    None
                },
            });
        }
        BoundaryReport {
            claims: reports,
            actionable,
            laundered,
            laundering_rate: if actionable > 0 {
                laundered as f64 / actionable as f64
            } else {
                0.0
            },
        }
    }

    /// Checks a boundary and, when it passes, accepts it: the gate counts it
    /// and its unverified claims become the tags carried forward.
    ///
    /// # Errors
    ///
    /// [`BoundaryError::NoRawSpans`] without raw spans,
    /// [`BoundaryError::Fabricated`] for the first fabricated claim,
    /// [`BoundaryError::Laundering`] when the laundering rate exceeds the
    /// threshold. The gate is unchanged on error.
    pub fn cross<S: AsRef<str>>(
        &mut self,
        claims: &[Claim],
        raw_spans: &[S],
        prior_summary: &str,
        entailment: &impl Entailment,
    ) -> Result<BoundaryReport, BoundaryError> {
        if raw_spans.is_empty() {
            return Err(BoundaryError::NoRawSpans);
        }
        let report = self.assess(claims, raw_spans, prior_summary, entailment);
        if let Some(r) = report
            .claims
            .iter()
            .find(|r| r.status == ClaimStatus::Fabricated)
        {
            return Err(BoundaryError::Fabricated {
                claim: claims
                    .get(r.claim)
                    .map(|c| c.text.clone())
                    .unwrap_or_default(),
                reason: r.reason,
                raw_entailment: r.raw_entailment,
                similarity: r.similarity,
            });
        }
        let threshold = self.settings.laundering_threshold;
        if report.laundering_rate > threshold {
            return Err(BoundaryError::Laundering {
                laundered: report.laundered,
                actionable: report.actionable,
                rate: report.laundering_rate,
                threshold,
            });
        }
        self.boundaries = self.boundaries.saturating_add(1);
        let boundary = self.boundaries;
        self.tags = report
            .claims
            .iter()
            .filter(|r| r.status == ClaimStatus::Unverified)
            .filter_map(|r| {
                claims.get(r.claim).map(|c| UnverifiedTag {
                    text: c.text.clone(),
                    reason: r.reason,
                    since: r.since.unwrap_or(boundary),
                })
            })
            .collect();
        Ok(report)
    }

    /// Asks whether an irreversible action may rest on these premises.
    ///
    /// # Errors
    ///
    /// [`BoundaryError::UnverifiedPremise`] for the first premise that an
    /// unverified claim entails (or that is one).
    pub fn permit_irreversible<S: AsRef<str>>(
        &self,
        premises: &[S],
        entailment: &impl Entailment,
    ) -> Result<(), BoundaryError> {
        for premise in premises {
            let premise = premise.as_ref();
            let tag = self.tags.iter().find(|t| {
                t.text == premise
                    || entailment.judge(premise, &t.text).entailment >= self.settings.entailed
            });
            if let Some(t) = tag {
                return Err(BoundaryError::UnverifiedPremise {
                    premise: premise.to_string(),
                    claim: t.text.clone(),
                    since: t.since,
                });
            }
        }
        Ok(())
    }
}

fn join<S: AsRef<str>>(spans: &[S]) -> String {
    let mut out = String::new();
    for s in spans {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(s.as_ref());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::LexicalEntailment;

    /// Entailment by substring, for tests that are about the gate, not the
    /// checker.
    fn substring(claim: &str, source: &str) -> Judgement {
        let hit = source.contains(claim);
        Judgement {
            entailment: if hit { 1.0 } else { 0.0 },
            contradiction: 0.0,
            similarity: if hit { 1.0 } else { 0.0 },
        }
    }

    #[test]
    fn no_raw_spans_is_refused() {
        let mut gate = BoundaryGate::new();
        let none: [&str; 0] = [];
        assert_eq!(
            gate.cross(&[Claim::actionable("x")], &none, "", &substring),
            Err(BoundaryError::NoRawSpans)
        );
    }

    #[test]
    fn laundering_above_the_threshold_is_refused() {
        let mut gate = BoundaryGate::new();
        let claims = [
            Claim::actionable("libfoo is at 2.4.0"),
            Claim::actionable("tests pass"),
            Claim::narrative("we refactored"),
        ];
        let raw = ["tests pass today"];
        let prior = "libfoo is at 2.4.0; we refactored";
        let err = gate.cross(&claims, &raw, prior, &substring).unwrap_err();
        assert_eq!(
            err,
            BoundaryError::Laundering {
                laundered: 1,
                actionable: 2,
                rate: 0.5,
                threshold: 0.15
            }
        );
        assert_eq!(gate.boundaries(), 0);
        assert!(
            err.to_string()
                .starts_with("laundering rate 1/2 = 0.50 exceeds 0.15")
        );
    }

    #[test]
    fn tags_carry_forward_and_forbid_irreversible_actions() {
        let mut gate = BoundaryGate::with_settings(GateSettings {
            laundering_threshold: 0.5,
            ..GateSettings::default()
        });
        let claims = [
            Claim::actionable("libfoo is at 2.4.0"),
            Claim::actionable("tests pass"),
        ];
        gate.cross(
            &claims,
            &["tests pass today"],
            "libfoo is at 2.4.0",
            &substring,
        )
        .unwrap();
        assert_eq!(gate.unverified().len(), 1);
        assert_eq!(gate.unverified()[0].since, 1);
        // Next boundary: the prior summary no longer says it, the tag does.
        let report = gate
            .cross(&claims, &["tests pass again"], "", &substring)
            .unwrap();
        assert_eq!(report.claims[0].reason, ClaimReason::CarriedForward);
        assert_eq!(report.claims[0].since, Some(1));
        assert_eq!(gate.unverified()[0].since, 1);
        let err = gate
            .permit_irreversible(&["libfoo is at 2.4.0"], &substring)
            .unwrap_err();
        assert!(matches!(
            err,
            BoundaryError::UnverifiedPremise { since: 1, .. }
        ));
        assert_eq!(
            gate.permit_irreversible(&["tests pass"], &substring),
            Ok(())
        );
    }

    #[test]
    fn a_contradicted_claim_is_fabricated_with_the_lexical_checker() {
        let gate = BoundaryGate::new();
        let raw = [
            "The refactor moved parsing into src/config/parse.rs.",
            "turn 212: we are still on libfoo 2.3.1, do not bump.",
        ];
        let claims = [Claim::actionable("libfoo was bumped to 2.3.2.")];
        let report = gate.assess(&claims, &raw, "", &LexicalEntailment);
        assert_eq!(report.claims[0].reason, ClaimReason::ContradictsRawSpan);
        assert_eq!(report.claims[0].span, Some(1));
    }

    #[test]
    fn a_claim_drawing_on_several_spans_is_verified() {
        let gate = BoundaryGate::new();
        let raw = ["libfoo is pinned at 2.3.1.", "The parser tests pass."];
        let claims = [Claim::actionable(
            "libfoo pinned at 2.3.1; parser tests pass.",
        )];
        let report = gate.assess(&claims, &raw, "", &LexicalEntailment);
        assert_eq!(report.claims[0].status, ClaimStatus::Verified, "{report:?}");
        assert_eq!(report.claims[0].span, None);
    }
}
