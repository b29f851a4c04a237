//! The judge: what a compaction's summary did to one rule.
//!
//! [`FateJudge`] is the one judge every caller uses (the before/after
//! audit, the session audit, the hook's restatement, the lineage, the
//! page): a rule's text and the new context in, a [`Verdict`] out (kept,
//! weakened, dropped or contradicted, how sure, the summary's words for it
//! and why). It reads, then decides with a trained model:
//!
//! - **Alignment** finds where the summary speaks of the rule: every
//!   sentence of the summary (and every pair of neighbouring ones) is
//!   scored by how much of the rule's content it holds, named things and
//!   values weighing most, a word counting when the summary has the same
//!   stem, a word of its group in `tables::SAME`, or a word the
//!   [`Similarity`] signal relates to it.
//! - **Structure** reads both sides (`frame`): polarity and modality,
//!   values and units, names, conditions and exceptions, approvers, "only",
//!   a rule said to be lifted, a preference's two sides, the summary's
//!   section (its plan, the user's quoted words). From it come the
//!   rules of structure's own call (a rule that forbade now permits, or a
//!   plan doing what it forbids, is contradicted; a value replaced, a firm
//!   word made soft, an "only", an exception, a condition or an approver
//!   gone, weakened; enough of it, kept; else dropped) and the evidence.
//! - **The model decides** ([`model`]): the reading as hashed features
//!   ([`Reading::slots`]: the call and its reason, the force of each side
//!   and every pair of them, how much the best sentence holds, the words it
//!   adds and leaves out) and a linear model per fate, learned from
//!   labelled pairs across people (`eval/real/`, `eval/judge/`,
//!   `eval/verdicts/`), give each fate's chance. The evidence and the
//!   reason are structure's for the fate chosen. Similarity never decides
//!   alone: a sentence that holds the rule's words with its force turned
//!   is read by structure, and the model weighs both.
//! - **Structure vetoes** what it reads surely ([`Reading::may_be_kept`]):
//!   a rule it reads broken, lost a detail of, widened, or finds no
//!   sentence speaking of is never called kept (it is what structure read
//!   instead), and a rule dropped where a sentence plans or reports the
//!   act it forbids is contradicted.

mod clauses;
mod features;
pub(crate) mod frame;
pub mod model;
mod values;

use clauses::*;
use values::*;
pub(crate) mod tables;

use alloc::string::String;
use alloc::vec::Vec;

use crate::audit::{Fate, Weakening};
use crate::entail::lexicon::{family, stem};
use crate::entail::rules::lookalike;
use crate::entail::rules::prohibitions;
use crate::entail::scan::{self, EntityKind, Span, Token};
use crate::entail::support::{Bag, Support};
use crate::rules::read_units;
use frame::{Frame, Polarity, TermKind, frame};
use tables::{IRREGULAR_PAST, PLAN_HEADINGS, QUOTE_HEADINGS, SAME};

/// How related two words are, 0 to 1: the semantic signal the judge uses
/// to align a rule with a summary's sentences (never to decide a fate).
pub trait Similarity {
    /// How related `a` and `b` (lower-case words) are.
    fn related(&self, a: &str, b: &str) -> f32;
}

/// No semantic signal beyond the judge's own word groups.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoSimilarity;

impl Similarity for NoSimilarity {
    fn related(&self, _: &str, _: &str) -> f32 {
        0.0
    }
}

/// What kind of sentence of the summary a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Section {
    /// Under a heading that quotes the user ("All user messages").
    Quotes,
    /// Under a heading of what comes next ("Next step", "Current work").
    Plans,
    /// Anywhere else.
    Other,
}

/// A sentence of the new context, read.
#[derive(Clone, Debug)]
pub(crate) struct Unit {
    pub(crate) frame: Frame,
    pub(crate) section: Section,
}

/// The new context a compaction left, read once for every rule judged
/// against it.
#[derive(Clone, Debug)]
pub struct After<'a> {
    text: &'a str,
    units: Vec<Unit>,
    /// Its sentences as the entailment checker reads them: tokens and the
    /// words they hold (for what a prohibition forbids, in its words).
    said: Vec<(Span, Vec<Token<'a>>, Support)>,
}

impl<'a> After<'a> {
    /// Reads `text` (a summary, harness sentences blanked or not).
    pub fn new(text: &'a str) -> After<'a> {
        let mut units = Vec::new();
        let mut section = Section::Other;
        read_units(text, |span, heading| {
            let s = span.of(text).trim();
            if heading || looks_like_heading(s) {
                let lower = s
                    .trim_start_matches(|c: char| {
                        c.is_ascii_digit() || matches!(c, '.' | '#' | ' ' | '*')
                    })
                    .to_lowercase();
                section = if QUOTE_HEADINGS.iter().any(|h| lower.starts_with(h)) {
                    Section::Quotes
                } else if PLAN_HEADINGS.iter().any(|h| lower.starts_with(h)) {
                    Section::Plans
                } else {
                    Section::Other
                };
                return;
            }
            units.push(Unit {
                frame: frame(text, span),
                section,
            });
        });
        let said = crate::entail::sentences(text)
            .into_iter()
            .map(|s| {
                let tokens = scan::tokens(text, s.span);
                let bag = Bag::of_tokens(&tokens).support;
                (s.span, tokens, bag)
            })
            .collect();
        After { text, units, said }
    }

    /// The text read.
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Its sentences, each with the section it is in.
    pub fn sentences(&self) -> impl Iterator<Item = (Span, Section)> + '_ {
        self.units.iter().map(|u| (u.frame.span, u.section))
    }
}

/// A numbered or marked heading line ("6. All user messages:").
fn looks_like_heading(s: &str) -> bool {
    let t =
        s.trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | '#' | ' ' | '*'));
    t.len() < 60
        && (t.ends_with(':') || s.starts_with('#'))
        && t.split_whitespace().count() <= 6
        && t.chars().next().is_some_and(char::is_alphabetic)
}

/// Why a verdict is what it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Why {
    /// The summary holds the rule with its force and details.
    Carried,
    /// A value of the rule is replaced by another of its kind.
    ValueChanged {
        /// The rule's value.
        from: String,
        /// The summary's.
        to: String,
    },
    /// A firm word became a soft one.
    Softened,
    /// What the rule names as its only scope is gone.
    ScopeLost,
    /// Its exception is gone.
    ExceptionLost,
    /// Its condition is gone.
    ConditionLost,
    /// Its approval is gone.
    ApprovalLost,
    /// The summary says the opposite, or says the rule is lifted.
    Opposite,
    /// The two sides of a preference are swapped.
    Swapped,
    /// A plan of the summary, or what it reports done, does what the rule
    /// forbids, or skips what it requires.
    Breached,
    /// The summary holds less of it than it said, in other words.
    Less,
    /// No sentence holds enough of it.
    Nowhere,
}

impl Why {
    /// In words, for reports.
    pub fn words(&self) -> String {
        match self {
            Why::Carried => "the summary carries it".into(),
            Why::ValueChanged { from, to } => alloc::format!("{from} became {to}"),
            Why::Softened => "a firm word became a soft one".into(),
            Why::ScopeLost => "its \"only\" is gone".into(),
            Why::ExceptionLost => "its exception is gone".into(),
            Why::ConditionLost => "its condition is gone".into(),
            Why::ApprovalLost => "its approval is gone".into(),
            Why::Opposite => "the summary says the opposite".into(),
            Why::Swapped => "the summary swaps what it prefers".into(),
            Why::Breached => "the summary plans or reports what it forbids".into(),
            Why::Less => "the summary holds less of it".into(),
            Why::Nowhere => "the summary does not carry it".into(),
        }
    }

    /// The weakening it is, for a weakened rule.
    pub fn weakening(&self) -> Option<Weakening> {
        Some(match self {
            Why::ValueChanged { .. } => Weakening::Limit,
            Why::Softened => Weakening::Softened,
            Why::ScopeLost => Weakening::Scope,
            Why::ExceptionLost => Weakening::Exception,
            Why::ConditionLost => Weakening::Window,
            Why::ApprovalLost => Weakening::Approval,
            Why::Less => Weakening::Detail,
            _ => return None,
        })
    }
}

/// What the summary did to a rule.
#[derive(Clone, Debug, PartialEq)]
pub struct Verdict {
    /// Kept, weakened, dropped or contradicted.
    pub fate: Fate,
    /// The summary's words for it (or the closest, for a dropped rule).
    pub evidence: Option<Span>,
    /// Why.
    pub why: Why,
    /// How much of the rule the evidence holds, 0 to 1.
    pub coverage: f64,
    /// How sure the judge is of the fate, 0 to 1.
    pub chance: f32,
}

/// The judge: reads a rule against a summary and decides its fate with
/// its model (see the module docs).
#[derive(Clone, Copy, Debug)]
pub struct FateJudge<'m> {
    model: model::JudgeModel<'m>,
}

impl FateJudge<'static> {
    /// The judge this crate ships, with its model.
    pub fn shipped() -> FateJudge<'static> {
        FateJudge {
            model: model::JudgeModel::shipped(),
        }
    }
}

impl<'m> FateJudge<'m> {
    /// A judge deciding with `model`.
    pub const fn new(model: model::JudgeModel<'m>) -> FateJudge<'m> {
        FateJudge { model }
    }

    /// The verdict on `rule` (a clause as stated) against `after`.
    pub fn judge(&self, rule: &str, after: &After<'_>) -> Verdict {
        let reading = read(rule, after);
        let slots = reading.slots(rule, after.text, self.model.bits());
        let chances = self.model.chances(&slots);
        let (k, chance) = chances
            .iter()
            .copied()
            .enumerate()
            .fold((2, f32::MIN), |b, (k, c)| if c > b.1 { (k, c) } else { b });
        match model::JUDGED[k] {
            // Kept where structure says it cannot be: what structure read
            // instead, as sure as the model was that it is there.
            Fate::Kept if !reading.may_be_kept() => {
                reading.verdict(reading.instead_of_kept(), chance)
            }
            // The summary speaks of the rule where it plans or reports the
            // forbidden act: the rule is broken, not merely gone (as sure
            // as the model is that the summary does not carry it).
            Fate::Dropped if reading.acted_against() => {
                reading.verdict(Fate::Contradicted, chance + chances[3])
            }
            fate => reading.verdict(fate, chance),
        }
    }
}

/// `rule` read against `after` (see the module docs): what the judge's
/// model decides from.
pub fn read(rule: &str, after: &After<'_>) -> Reading {
    Structure::<NoSimilarity>::default().read(rule, after)
}

/// The structural reading (see the module docs), over a semantic signal
/// `S`.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Structure<S = NoSimilarity> {
    /// The semantic signal that aligns words.
    pub similarity: S,
}

/// A rule's sentence found: this share of it.
const KEEP: f64 = 0.55;
/// Below this share, no sentence speaks of the rule.
const PARTIAL: f64 = 0.3;
/// A dropped rule's closest sentence holds at least this share of it to be
/// shown.
const CLOSEST: f64 = 0.4;
/// A reason's words weigh this much against the rule's own.
const REASON_WEIGHT: f64 = 0.3;

/// How a unit holds a rule.
#[derive(Clone, Debug, Default)]
struct Alignment {
    coverage: f64,
    /// The coverage of the rule's words alone (its values left out).
    words: f64,
    /// Rule values missing, with a value of the same kind in the unit.
    changed: Option<(String, String)>,
    /// Matched terms the unit negates where the rule does not, or the
    /// other way round.
    flipped: usize,
    matched: usize,
    /// Of the matched, the rule's own words (not values, not its reason's).
    matched_words: usize,
    /// A value of the rule missing where the words it is made of are there
    /// ("the billing replicas" for "billing-replica-2"): widened to its
    /// class.
    widened: bool,
}

fn group(stem: &str) -> Option<usize> {
    SAME.iter().position(|g| g.contains(&stem))
}

/// The groups of [`SAME`] a stem is in, one bit each.
fn groups_of(stem: &str) -> u128 {
    SAME.iter()
        .enumerate()
        .filter(|(_, g)| g.contains(&stem))
        .fold(0, |mask, (i, _)| mask | 1 << i)
}

/// Whether two words share a group of [`SAME`].
fn same_group(a: &frame::Term, b: &frame::Term) -> bool {
    a.groups & b.groups != 0
}

impl<S: Similarity> Structure<S> {
    /// How well `word` (a rule's stem) is found among `unit`'s words.
    fn word_match(&self, term: &frame::Term, unit: &Frame) -> (f64, Option<usize>) {
        let word = term.key.as_str();
        let mut best = (0.0, None);
        for (i, t) in unit.terms.iter().enumerate() {
            let wordy = matches!(t.kind, TermKind::Word | TermKind::Part);
            let score = if t.key == word {
                1.0
            } else if wordy && same_group(term, t) {
                0.9
            } else if wordy && shared_prefix(word, &t.key) >= 5 {
                0.8
            } else if wordy {
                let r = f64::from(self.similarity.related(word, &t.key));
                if r >= 0.6 { 0.75 * r } else { 0.0 }
            } else {
                0.0
            };
            if score > best.0 {
                best = (score, Some(i));
            }
        }
        best
    }

    fn align(&self, rule: &Frame, unit: &Frame) -> Alignment {
        // A rule in a script without spaces against a sentence in another
        // script (a Chinese rule, an English summary): only its named
        // things and Latin words can be found.
        let pairs: f64 = rule
            .terms
            .iter()
            .filter(|t| t.kind == TermKind::Pair)
            .map(frame::Term::weight)
            .sum();
        let across =
            pairs * 2.0 >= rule.weight() && !unit.terms.iter().any(|t| t.kind == TermKind::Pair);
        let counted = |t: &frame::Term| !(across && t.kind == TermKind::Pair);
        let total: f64 = rule
            .terms
            .iter()
            .filter(|t| counted(t))
            .map(frame::Term::weight)
            .sum();
        if total == 0.0 || (across && total < 1.0) {
            return Alignment::default();
        }
        let mut a = Alignment::default();
        let (mut got, mut words_got, mut words_total) = (0.0, 0.0, 0.0);
        for t in rule.terms.iter().filter(|t| counted(t)) {
            let (m, at) = match t.kind {
                TermKind::Value(kind) => {
                    match unit.terms.iter().position(|u| same_value(kind, &t.key, u)) {
                        Some(i) => (1.0, Some(i)),
                        None => (0.0, None),
                    }
                }
                TermKind::Pair => match unit.terms.iter().position(|u| u.key == t.key) {
                    Some(i) => (1.0, Some(i)),
                    None => (0.0, None),
                },
                TermKind::Word | TermKind::Part => self.word_match(t, unit),
            };
            got += m * t.weight();
            if !matches!(t.kind, TermKind::Value(_)) {
                words_got += m * t.weight();
                words_total += t.weight();
            }
            if let Some(i) = at {
                a.matched += 1;
                if t.kind == TermKind::Word && t.scale >= frame::TRANSLATED {
                    a.matched_words += 1;
                }
                if unit.terms[i].negated != t.negated && t.kind == TermKind::Word {
                    a.flipped += 1;
                }
            } else if let TermKind::Value(_) = t.kind
                && t.scale >= 1.0
                && !matches!(t.kind, TermKind::Value(k) if k.is_numeric())
                && {
                    let parts: Vec<&frame::Term> = rule
                        .terms
                        .iter()
                        .filter(|p| p.kind == TermKind::Part && p.span == t.span)
                        .collect();
                    !parts.is_empty()
                        && parts.iter().all(|p| {
                            unit.terms
                                .iter()
                                .any(|u| u.key == p.key || shared_prefix(&u.key, &p.key) >= 5)
                        })
                }
            {
                a.widened = true;
            }
            if at.is_none()
                && let TermKind::Value(kind) = t.kind
                && a.changed.is_none()
                && t.scale >= 1.0
            {
                // Another value of its kind, not one the rule names itself
                // ("retries=3 and 5 minutes" against "retries=3, 10
                // minutes": 5 became 10, not 3).
                let own = |key: &str| rule.values().any(|r| r.key == key);
                a.changed = unit
                    .values()
                    .find(|u| {
                        same_kind(kind, u.kind)
                            && u.key != t.key
                            && !own(&u.key)
                            && close(kind, &t.key, &u.key)
                    })
                    .map(|u| (t.key.clone(), u.key.clone()))
                    .or_else(|| {
                        // A number written inside a named thing
                        // ("timedelta(minutes=10)").
                        (kind == EntityKind::Number)
                            .then(|| {
                                unit.values()
                                    .filter(|u| u.kind == TermKind::Value(EntityKind::Identifier))
                                    .flat_map(|u| embedded_numbers(&u.key))
                                    .find(|n| n != &t.key && !own(n))
                            })
                            .flatten()
                            .map(|n| (t.key.clone(), n))
                    });
            }
        }
        // Another value of the rule's kind counts as the rule's, changed,
        // only where enough else is the same: a number beside one word of
        // the rule ("5 retries" for "3 retries"), a name beside two.
        if let Some((from, _)) = &a.changed {
            let numeric = rule
                .terms
                .iter()
                .any(|t| &t.key == from && matches!(t.kind, TermKind::Value(k) if k.is_numeric()));
            if a.matched_words < if numeric { 1 } else { 2 } {
                a.changed = None;
            }
        }
        a.coverage = got / total;
        a.words = if words_total > 0.0 {
            words_got / words_total
        } else {
            a.coverage
        };
        // A hyphened name changed, only where the sentence otherwise holds
        // the rule: names of one family are many ("helm-docs",
        // "helm-unittest").
        if a.changed.is_none() && a.coverage >= KEEP && a.matched_words >= 2 {
            a.changed = changed_compound(rule, unit);
        }
        a
    }

    /// The best unit (or, with `pairs`, pair of neighbours) for `rule`.
    fn best(
        &self,
        rule: &Frame,
        after: &After<'_>,
        pairs: bool,
    ) -> Option<(Alignment, Frame, Section)> {
        self.best_of(rule, after, &self.singles(rule, after), pairs)
    }

    /// How `rule` aligns with each sentence of `after`, in order.
    fn singles(&self, rule: &Frame, after: &After<'_>) -> Vec<Alignment> {
        after
            .units
            .iter()
            .map(|u| self.align(rule, &u.frame))
            .collect()
    }

    /// [`Structure::best`] with the rule's alignment with each sentence
    /// already made (`singles`).
    fn best_of(
        &self,
        rule: &Frame,
        after: &After<'_>,
        singles: &[Alignment],
        pairs: bool,
    ) -> Option<(Alignment, Frame, Section)> {
        // The best so far: its alignment, the pair's merged frame (none for
        // a single sentence), the unit it starts at.
        let mut best: Option<(Alignment, Option<Frame>, usize)> = None;
        let span_of = |pair: &Option<Frame>, i: usize| {
            pair.as_ref()
                .map(|f| f.span)
                .or_else(|| after.units.get(i).map(|u| u.frame.span))
                .map_or(0, |s| s.len())
        };
        for (i, u) in after.units.iter().enumerate() {
            let Some(single) = singles.get(i) else {
                continue;
            };
            let mut candidates = alloc::vec![(single.clone(), None)];
            // A pair of sentences holds more of the rule only when each
            // holds some of it.
            let next = after
                .units
                .get(i + 1)
                .filter(|_| pairs && single.coverage > 0.0)
                .filter(|_| singles.get(i + 1).is_some_and(|s| s.coverage > 0.0));
            if let Some(next) = next {
                let m = merged(&u.frame, &next.frame);
                let mut a = self.align(rule, &m);
                // A value changed is read within one sentence, not across
                // two: the one of the pair that holds more of the rule.
                // Only for a value the pair does not hold at all.
                let held = |v: &str| m.values().any(|t| t.key == v);
                a.changed = [Some(single), singles.get(i + 1)]
                    .into_iter()
                    .flatten()
                    .filter(|s| {
                        s.coverage >= PARTIAL
                            && s.changed
                                .as_ref()
                                .is_some_and(|(from, _)| s.coverage >= KEEP || !held(from))
                    })
                    .max_by(|x, y| x.coverage.total_cmp(&y.coverage))
                    .and_then(|s| s.changed.clone());
                candidates.push((a, Some(m)));
            }
            for (a, f) in candidates {
                let len = span_of(&f, i);
                let better = best.as_ref().is_none_or(|(b, bf, bi)| {
                    let blen = span_of(bf, *bi);
                    a.coverage > b.coverage + 0.05
                        || (a.coverage > b.coverage && len <= blen + 40)
                        || (a.coverage >= b.coverage - 1e-9 && len < blen)
                });
                if better {
                    best = Some((a, f, i));
                }
            }
        }
        let (a, pair, i) = best?;
        let unit = after.units.get(i)?;
        Some((a, pair.unwrap_or_else(|| unit.frame.clone()), unit.section))
    }
}

impl<S: Similarity> Structure<S> {
    /// Reads `rule_text` against `after`: where the summary speaks of it,
    /// what structure says of each sentence found, and the call the rules
    /// of structure make (see the module docs).
    pub(crate) fn read(&self, rule_text: &str, after: &After<'_>) -> Reading {
        let rule = rule_clauses(rule_text);
        let mut reading = Reading {
            structural: Verdict {
                fate: Fate::Dropped,
                evidence: None,
                why: Why::Nowhere,
                coverage: 0.0,
                chance: 1.0,
            },
            rule: rule.whole.clone(),
            best: None,
            contradicted: None,
            breach: None,
            softened: None,
            weakening: None,
            carried: false,
            others: Vec::new(),
            done: None,
        };
        // A sentence that does what the rule forbids, in the entailment
        // checker's words ("upgraded" for "do not bump").
        let tokens = scan::tokens(rule_text, Span::new(0, rule_text.len()));
        let forbidden = prohibitions(&tokens);
        if !forbidden.is_empty() {
            // On the rule's own named things, every one of them (draining
            // billing-pool-5 breaks no rule about billing-pool-1).
            let named: Vec<&str> = rule
                .whole
                .values()
                .filter(|t| matches!(t.kind, TermKind::Value(k) if !k.is_numeric()))
                .map(|t| t.key.as_str())
                .collect();
            reading.done = after
                .said
                .iter()
                .filter(|(span, _, _)| {
                    let lower = span.of(after.text).to_lowercase();
                    named.iter().all(|n| lower.contains(n))
                })
                .find(|(_, t, bag)| forbidden.iter().any(|p| p.breach(t, bag).is_some()))
                .map(|(span, _, _)| *span);
        }
        if rule.whole.terms.is_empty() {
            return reading;
        }
        // The whole rule against each sentence, once: for the best
        // sentence or pair, the runner-up, the plan's and a softer one.
        let singles = self.singles(&rule.whole, after);
        let Some((a, found, section)) = self.best_of(&rule.whole, after, &singles, true) else {
            return reading;
        };
        // Said the other way round, anywhere: each operative clause against
        // the sentence that holds most of it.
        reading.contradicted = rule
            .clauses
            .iter()
            .filter(|(c, op)| *op && !c.terms.is_empty())
            .find_map(|(clause, _)| {
                let (ca, cf, _) = self.best(clause, after, false)?;
                (ca.coverage >= KEEP)
                    .then(|| contradiction(clause, &cf, &ca).map(|why| (why, cf.span)))
                    .flatten()
            });
        reading.breach = rule
            .clauses
            .iter()
            .filter(|(_, op)| *op)
            .find_map(|(clause, _)| self.breach(clause, after));
        // Carried: enough of the rule, its words among it (the ids of a rule
        // named in passing carry nothing of it).
        reading.carried =
            (a.coverage >= KEEP && a.words >= PARTIAL) || (a.changed.is_some() && a.words >= KEEP);
        reading.weakening = weakening(&rule.whole, &found, &a);
        // A rule stated again in softer, vaguer words ("results tables
        // should include some uncertainty where possible"): a soft
        // sentence that names the rule's own words.
        reading.softened = rule
            .whole
            .is_firm()
            .then(|| softened(after, &singles))
            .flatten();
        reading.structural = reading.structural_call(&a, &found);
        // The other sentences that speak of the rule most: the runner-up,
        // and the plan's (what a plan does with the rule's things).
        let mut others: Vec<(&Alignment, &Unit)> = singles
            .iter()
            .zip(&after.units)
            .filter(|(a, u)| u.frame.span != found.span && a.coverage > 0.0)
            .collect();
        others.sort_by(|x, y| y.0.coverage.total_cmp(&x.0.coverage));
        let plan = others
            .iter()
            .position(|(_, u)| u.section == Section::Plans)
            .filter(|&i| i > 0);
        for i in [Some(0), plan].into_iter().flatten() {
            if let Some((a, u)) = others.get(i) {
                reading.others.push(Best {
                    alignment: (*a).clone(),
                    frame: u.frame.clone(),
                    section: u.section,
                });
            }
        }
        reading.best = Some(Best {
            alignment: a,
            frame: found,
            section,
        });
        reading
    }
}

/// The sentence of the summary that holds most of a rule.
#[derive(Clone, Debug)]
struct Best {
    alignment: Alignment,
    frame: Frame,
    section: Section,
}

/// A rule read against a summary: what the judge's model decides from.
#[derive(Clone, Debug)]
pub struct Reading {
    /// The call the rules of structure make (see the module docs): one of
    /// the model's features, and the evidence of its verdict.
    structural: Verdict,
    rule: Frame,
    best: Option<Best>,
    /// An operative clause said the other way round: why, and where.
    contradicted: Option<(Why, Span)>,
    /// A plan or claim that does what the rule forbids, or skips what it
    /// requires.
    breach: Option<Span>,
    /// A soft sentence naming the rule's words: its coverage and where.
    softened: Option<(f64, Span)>,
    /// What the best sentence lost of the rule.
    weakening: Option<Why>,
    /// Whether the best sentence holds enough of the rule to carry it.
    carried: bool,
    /// The next sentences that speak of it: the runner-up, and the plan's
    /// best when it is not the runner-up.
    others: Vec<Best>,
    /// A sentence that does what the rule forbids, as the entailment
    /// checker reads a prohibition.
    done: Option<Span>,
}

impl Reading {
    /// Whether the summary may still be said to keep the rule: not when
    /// structure reads a sentence that breaks it (says the opposite, or
    /// plans or reports the forbidden act, or does it without its
    /// condition), nor when the sentence that carries it lost a detail
    /// structure names (a value changed, a firm word made soft, its "only",
    /// exception or approver gone), nor when no sentence speaks of it (holds
    /// 0.3 of it), nor when the one that holds most of it names the class of what the
    /// rule named alone ("the billing replicas" for "only
    /// billing-replica-2"). Similar words never outweigh these.
    pub fn may_be_kept(&self) -> bool {
        self.contradicted.is_none()
            && self.breach.is_none()
            && !(self.carried && self.weakening.is_some())
            && self
                .best
                .as_ref()
                .is_some_and(|b| b.alignment.coverage >= PARTIAL && !b.alignment.widened)
    }

    /// What the summary did to the rule where it cannot have kept it (see
    /// [`Reading::may_be_kept`]): broke it, lost a detail of it, or holds
    /// none of it.
    fn instead_of_kept(&self) -> Fate {
        let widened = self.best.as_ref().is_some_and(|b| b.alignment.widened);
        if self.contradicted.is_some() || self.breach.is_some() {
            Fate::Contradicted
        } else if (self.carried && self.weakening.is_some()) || widened {
            Fate::Weakened
        } else {
            Fate::Dropped
        }
    }

    /// Whether a sentence plans or reports what the rule forbids, as
    /// structure or the entailment checker reads it.
    pub fn acted_against(&self) -> bool {
        self.breach.is_some() || self.done.is_some()
    }

    /// The call the rules of structure make, with its evidence.
    pub fn structural(&self) -> &Verdict {
        &self.structural
    }

    /// The rules of structure, in order: a contradiction, a breach, a
    /// sentence that carries the rule (weakened or kept), a vaguer one, a
    /// softer one; else dropped.
    fn structural_call(&self, a: &Alignment, found: &Frame) -> Verdict {
        let verdict = |fate, why, span: Span| Verdict {
            fate,
            evidence: Some(span),
            why,
            coverage: a.coverage,
            chance: 1.0,
        };
        if let Some((why, span)) = &self.contradicted {
            return verdict(Fate::Contradicted, why.clone(), *span);
        }
        if let Some(span) = self.breach {
            return verdict(Fate::Contradicted, Why::Breached, span);
        }
        if self.carried {
            return match &self.weakening {
                Some(why) => verdict(Fate::Weakened, why.clone(), found.span),
                None => verdict(Fate::Kept, Why::Carried, found.span),
            };
        }
        let rule = &self.rule;
        if a.coverage >= PARTIAL && (found.soft > 0 || found.firm > 0 || found.negations > 0) {
            // A sentence about the rule, in vaguer words.
            let why = if rule.is_firm() && !found.is_firm() {
                Why::Softened
            } else if rule.only && !found.only {
                Why::ScopeLost
            } else if let Some((from, to)) = a.changed.clone() {
                Why::ValueChanged { from, to }
            } else {
                Why::Softened
            };
            let strict = found.only || found.always || found.never;
            if (found.soft > 0 && !strict) || a.changed.is_some() {
                return verdict(Fate::Weakened, why, found.span);
            }
        }
        if let Some((coverage, span)) = self.softened {
            return Verdict {
                fate: Fate::Weakened,
                evidence: Some(span),
                why: Why::Softened,
                coverage,
                chance: 1.0,
            };
        }
        Verdict {
            fate: Fate::Dropped,
            evidence: Some(found.span),
            why: Why::Nowhere,
            coverage: a.coverage,
            chance: 1.0,
        }
    }

    /// The verdict for `fate` (the model's), with the evidence and the
    /// reason structure gives for it, or the closest it has.
    fn verdict(&self, fate: Fate, chance: f32) -> Verdict {
        let coverage = self.best.as_ref().map_or(0.0, |b| b.alignment.coverage);
        let found = self.best.as_ref().map(|b| b.frame.span);
        let (evidence, why) = if self.structural.fate == fate {
            (self.structural.evidence, self.structural.why.clone())
        } else {
            match fate {
                Fate::Contradicted => match (&self.contradicted, self.breach.or(self.done)) {
                    (Some((why, span)), _) => (Some(*span), why.clone()),
                    (None, Some(span)) => (Some(span), Why::Breached),
                    (None, None) => (found, Why::Opposite),
                },
                Fate::Weakened => match (&self.weakening, self.softened) {
                    (Some(why), _) => (found, why.clone()),
                    (None, Some((_, span))) if !self.carried => (Some(span), Why::Softened),
                    _ => (found, self.lost_detail()),
                },
                Fate::Kept | Fate::Reinjected => (found, Why::Carried),
                Fate::Dropped => (found, Why::Nowhere),
            }
        };
        // A dropped rule's closest sentence is worth pointing at only when
        // it holds some of the rule.
        let evidence = evidence.filter(|_| fate != Fate::Dropped || coverage >= CLOSEST);
        Verdict {
            fate,
            evidence,
            why,
            coverage,
            chance,
        }
    }

    /// What the sentence found holds less of than the rule, as structure
    /// reads both.
    fn lost_detail(&self) -> Why {
        let Some(best) = &self.best else {
            return Why::Less;
        };
        let (r, f) = (&self.rule, &best.frame);
        if r.condition && !f.condition {
            Why::ConditionLost
        } else if r.approval && !f.approval {
            Why::ApprovalLost
        } else if r.except && !f.except {
            Why::ExceptionLost
        } else if r.only && !f.only {
            Why::ScopeLost
        } else if r.is_firm() && !f.is_firm() {
            Why::Softened
        } else if best.section == Section::Plans {
            Why::Breached
        } else {
            Why::Less
        }
    }
}

/// Below this share of a rule's words, a soft sentence is about something
/// else.
const SOFT_WORDS: f64 = 0.15;

/// The soft sentence (a soft word, no strict one) that holds most of the
/// rule's words, if it holds enough of them: two of its own words at least
/// (`singles`: the rule's alignment with each sentence of `after`).
fn softened(after: &After<'_>, singles: &[Alignment]) -> Option<(f64, Span)> {
    singles
        .iter()
        .zip(&after.units)
        .map(|(a, u)| (a, &u.frame))
        .filter(|(_, f)| f.soft > 0 && !(f.only || f.always || f.never) && f.negations == 0)
        .filter(|(a, _)| a.matched_words >= 2 && a.words >= SOFT_WORDS)
        .max_by(|x, y| x.0.words.total_cmp(&y.0.words))
        .map(|(a, f)| (a.coverage, f.span))
}

/// Terms of one side of a preference not on the other.
fn distinct<'a>(side: &'a [String], other: &'a [String]) -> impl Iterator<Item = &'a String> {
    side.iter().filter(move |w| !other.contains(w))
}

/// The sentence found says the opposite of the rule: a preference
/// swapped, the rule said to be lifted, what it forbids permitted, or its
/// firm word turned into the opposite one ("always" for "never").
fn contradiction(rule: &Frame, found: &Frame, a: &Alignment) -> Option<Why> {
    if let (Some((want, reject)), Some((want2, reject2))) = (&rule.prefer, &found.prefer) {
        let swapped = distinct(want, reject).any(|w| reject2.contains(w) && !want2.contains(w))
            && distinct(reject, want).any(|r| want2.contains(r) && !reject2.contains(r));
        if swapped {
            return Some(Why::Swapped);
        }
    }
    if a.changed.is_some() {
        return None;
    }
    // A rule that itself permits ("only allowed in dev") is not lifted by
    // a sentence that permits the same.
    if found.lifted && rule.polarity() != Polarity::Permits && !(rule.permits && found.permits) {
        return Some(Why::Opposite);
    }
    match rule.polarity() {
        // A permission turned into a prohibition ("you may deploy on
        // Sundays" against "deploying on Sundays is not allowed").
        Polarity::Permits if found.polarity() == Polarity::Forbids => Some(Why::Opposite),
        Polarity::Forbids if found.permits && found.negations == 0 && found.firm == 0 => {
            Some(Why::Opposite)
        }
        Polarity::Forbids if found.always && found.negations == 0 => Some(Why::Opposite),
        Polarity::Requires if rule.always && found.never && !found.always => Some(Why::Opposite),
        _ => None,
    }
}

/// The sentence found holds the rule with less force or detail.
fn weakening(rule: &Frame, found: &Frame, a: &Alignment) -> Option<Why> {
    if let Some((from, to)) = &a.changed {
        return Some(Why::ValueChanged {
            from: from.clone(),
            to: to.clone(),
        });
    }
    if rule.is_firm() && !found.is_firm() && found.soft > 0 {
        return Some(Why::Softened);
    }
    if (rule.only && !found.only && found.negations == 0) || a.widened {
        return Some(Why::ScopeLost);
    }
    if rule.except && !found.except && found.negations == 0 {
        return Some(Why::ExceptionLost);
    }
    if rule.approval && !found.approval {
        return Some(Why::ApprovalLost);
    }
    None
}

impl<S: Similarity> Structure<S> {
    /// A plan of the summary (or, for what a rule forbids, a claim of what
    /// was done) that does what `clause` forbids or skips what it
    /// requires: the same act, on the same things.
    fn breach(&self, clause: &Frame, after: &After<'_>) -> Option<Span> {
        let polarity = clause.polarity();
        if polarity == Polarity::Permits {
            return None;
        }
        let is_act = |t: &frame::Term| {
            t.kind == TermKind::Word && (family(&t.key).is_some() || group(&t.key).is_some())
        };
        let forbids = polarity == Polarity::Forbids;
        // What is forbidden is what the negation governs ("update X, no
        // default port": the port, not the update).
        let governed = |t: &&frame::Term| !forbids || t.negated;
        let acts: Vec<&frame::Term> = clause
            .terms
            .iter()
            .filter(|t| is_act(t) && governed(t))
            // What a rule requires is its first act; a later one is its
            // occasion ("ask X before you change Y").
            .take(if forbids { 2 } else { 1 })
            .collect();
        // A named thing after the forbidden act is its object even where
        // the negation does not reach it ("do not commit the key
        // (keys/a.pem)"); one before it is not ("put it in a.yaml, don't
        // create b.yaml").
        let first_act = acts.iter().map(|a| a.span.start).min().unwrap_or(0);
        let objects: Vec<&frame::Term> = clause
            .terms
            .iter()
            .filter(|t| {
                t.kind != TermKind::Part && !t.unless && !acts.iter().any(|a| a.key == t.key)
            })
            .filter(|t| {
                acts.is_empty()
                    || !forbids
                    || governed(t)
                    || (matches!(t.kind, TermKind::Value(_)) && t.span.start > first_act)
            })
            .filter(|t| !acts.is_empty() || governed(t))
            .collect();
        let all: f64 = objects.iter().map(|o| o.weight()).sum();
        if all == 0.0 || (acts.is_empty() && polarity == Polarity::Requires) {
            return None;
        }
        // What would allow the act ("without asking me"): the unit saying
        // it was not done is no denial of the act.
        let allowance: Vec<&frame::Term> = clause.terms.iter().filter(|t| t.unless).collect();
        let excused =
            |t: &frame::Term| allowance.iter().any(|a| a.key == t.key || same_group(a, t));
        for u in &after.units {
            // A rule in Chinese or Japanese against a sentence in another
            // script: its character pairs cannot be found there.
            let unspaced = u.frame.terms.iter().any(|t| t.kind == TermKind::Pair);
            let objects: Vec<&frame::Term> = objects
                .iter()
                .copied()
                .filter(|o| unspaced || o.kind != TermKind::Pair)
                .collect();
            let all: f64 = objects.iter().map(|o| o.weight()).sum();
            if all == 0.0 {
                continue;
            }
            // A sentence that denies something other than the allowance.
            let denies = u.frame.negations > 0
                && !(u.frame.terms.iter().any(|t| t.negated)
                    && u.frame.terms.iter().all(|t| !t.negated || excused(t)));
            let plan = u.section == Section::Plans;
            // A sentence with a modal word states a rule; it claims nothing
            // done ("try to keep sudo use to a minimum").
            let modal = u.frame.soft > 0 || u.frame.always || u.frame.never;
            let claim =
                u.section == Section::Other && forbids && !denies && !modal && doing(&u.frame);
            if (!plan && !claim) || quoted(after.text, u.frame.span) {
                continue;
            }
            let acted = acts.iter().any(|act| {
                u.frame.terms.iter().any(|t| {
                    matches!(t.kind, TermKind::Word | TermKind::Part)
                        && (t.key == act.key
                            || (family(&t.key).is_some() && family(&t.key) == family(&act.key))
                            || same_group(t, act))
                        && t.negated != forbids
                        && (plan || verbal(after.text, t.span))
                })
            });
            // What a skipped requirement is about is denied with it
            // ("without running the tests").
            let found = |o: &frame::Term| {
                u.frame.terms.iter().any(|t| {
                    (!t.negated || !forbids)
                        && match o.kind {
                            TermKind::Value(kind) => same_value(kind, &o.key, t),
                            _ => t.key == o.key || same_group(t, o),
                        }
                })
            };
            let on: f64 = objects
                .iter()
                .filter(|o| found(o))
                .map(|o| o.weight())
                .sum();
            let values: Vec<bool> = objects
                .iter()
                .filter(|o| matches!(o.kind, TermKind::Value(_)))
                .map(|o| found(o))
                .collect();
            let values_found = values.iter().filter(|v| **v).count();
            // A named thing among them, not only a number.
            let named = objects
                .iter()
                .any(|o| matches!(o.kind, TermKind::Value(k) if !k.is_numeric()) && found(o));
            let share = on / all;
            // Doing something to exactly what the rule forbids touching,
            // in other words ("add keys/a.pem to the repository" for "do
            // not commit keys/a.pem").
            let does = if acts.is_empty() {
                // No act: what is forbidden must be named by more than one
                // word ("not even SysTick" alone is no rule to break).
                all >= 2.0 && doing(&u.frame) && !removing(&u.frame)
            } else {
                acted
                    || (forbids
                        && named
                        && values_found == values.len()
                        && share >= 0.6
                        && adding(&u.frame))
            };
            // A rule about a number ("nothing else at priority 0") is
            // not broken by a sentence that names none of its numbers.
            let numbers: Vec<bool> = objects
                .iter()
                .filter(|o| matches!(o.kind, TermKind::Value(k) if k.is_numeric()))
                .map(|o| found(o))
                .collect();
            if !does || (!numbers.is_empty() && !numbers.contains(&true)) {
                continue;
            }
            // A requirement skipped ("opened without running the build"):
            // the act denied, half of what it is about named.
            let enough = share >= 0.75
                || (!forbids && !acts.is_empty() && share >= 0.5)
                || (!values.is_empty()
                    && values_found * 2 >= values.len()
                    && values_found > 0
                    && share >= 0.5);
            // The allowance given ("edited after the user approved it").
            let allowed = !allowance.is_empty()
                && !denies
                && (u.frame.approval
                    || u.frame.terms.iter().any(|t| {
                        !t.negated && excused(t) && !objects.iter().any(|o| o.key == t.key)
                    }));
            if enough && (!forbids || !denies) && !allowed {
                return Some(u.frame.span);
            }
        }
        None
    }
}

/// Whether a sentence is inside quotation marks: someone's words the
/// summary reports (the user's rule, quoted), not its own claim.
fn quoted(text: &str, span: Span) -> bool {
    let line_start = text
        .get(..span.start)
        .and_then(|t| t.rfind('\n'))
        .map_or(0, |n| n + 1);
    let before = text.get(line_start..span.start).unwrap_or("");
    let opens = before.matches(['"', '“']).count() + before.matches('”').count();
    opens % 2 == 1
        || span
            .of(text)
            .trim_start_matches(['-', '*', ' '])
            .starts_with(['"', '“'])
}

/// Whether the word at `span` reads as a verb of a claim: a past or
/// present participle ("edited", "adding"), or the sentence's first word
/// (a plan's imperative), not a noun ("my changes").
fn verbal(text: &str, span: Span) -> bool {
    let w = span.of(text).to_lowercase();
    if w.ends_with("ed") || w.ends_with("ing") || IRREGULAR_PAST.contains(&w.as_str()) {
        return true;
    }
    let line_start = text
        .get(..span.start)
        .and_then(|t| t.rfind(['\n', '.', ':', ';']))
        .map_or(0, |n| n + 1);
    text.get(line_start..span.start)
        .is_some_and(|b| b.trim_matches(|c: char| !c.is_alphanumeric()).is_empty())
}

/// A sentence that takes something away ("remove the default port"):
/// doing so complies with a rule against the thing.
fn removing(f: &Frame) -> bool {
    f.terms.iter().any(|t| {
        t.kind == TermKind::Word
            && matches!(
                t.key.as_str(),
                "remov" | "delet" | "drop" | "eras" | "strip" | "clean" | "replac" | "get"
            )
    })
}

/// A sentence that puts something somewhere or changes it ("add the key
/// to the repository"), not one that keeps or uses it.
fn adding(f: &Frame) -> bool {
    f.terms.iter().any(|t| {
        t.kind == TermKind::Word
            && !t.negated
            && matches!(
                t.key.as_str(),
                "add"
                    | "put"
                    | "writ"
                    | "commit"
                    | "push"
                    | "upload"
                    | "copy"
                    | "mov"
                    | "insert"
                    | "install"
                    | "creat"
                    | "edit"
                    | "chang"
                    | "modify"
                    | "modifi"
            )
    })
}

/// A sentence that says something was, or will be, done: a verb of doing
/// ("added the key to the repo", "edited already"); whether it is denied
/// is the caller's to read.
fn doing(f: &Frame) -> bool {
    f.terms.iter().any(|t| {
        t.kind == TermKind::Word
            && matches!(
                t.key.as_str(),
                "add"
                    | "set"
                    | "use"
                    | "switch"
                    | "configur"
                    | "enabl"
                    | "install"
                    | "commit"
                    | "writ"
                    | "edit"
                    | "chang"
                    | "mov"
                    | "renam"
                    | "put"
                    | "keep"
                    | "run"
                    | "launch"
                    | "deploy"
                    | "push"
                    | "publish"
                    | "creat"
                    | "upload"
                    | "insert"
                    | "replac"
                    | "implement"
                    | "introduc"
                    | "programm"
                    | "eras"
                    | "delet"
                    | "drop"
                    | "remov"
                    | "merg"
                    | "copy"
                    | "translat"
                    | "document"
                    | "releas"
            )
    })
}

/// The verdicts on several rules against one new context, in order.
pub fn judge_all(judge: &FateJudge<'_>, rules: &[&str], after: &str) -> Vec<Verdict> {
    let after = After::new(after);
    rules.iter().map(|r| judge.judge(r, &after)).collect()
}

#[cfg(test)]
mod tests;
