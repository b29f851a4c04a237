//! The judge: what a compaction's summary did to one rule.
//!
//! [`FateJudge`] is the seam: a rule's text and the new context in, a
//! [`Verdict`] out (kept, weakened, dropped or contradicted, with the
//! summary's words for it and why). [`StructuralJudge`] is the judge this
//! crate ships; a better one replaces it without touching the rest.
//!
//! Two signals, each doing what it is good at:
//!
//! - **Alignment** finds where the summary speaks of the rule: every
//!   sentence of the summary (and every pair of neighbouring ones) is
//!   scored by how much of the rule's content it holds, named things and
//!   values weighing most, a word counting when the summary has the same
//!   stem, a word of its group in [`tables::SAME`], or a word the
//!   [`Similarity`] signal relates to it. Similarity rescues paraphrases
//!   ("execute" for "run"), but never decides alone that a rule is there:
//!   embeddings are blind to negation, so the verdict is structure's.
//! - **Structure** decides ([`frame`]): in the sentence found, a rule that
//!   forbade now permits or is said to be lifted, or the two sides of a
//!   preference swapped, is **contradicted**; a value of the rule replaced
//!   by another of its kind ("3 replicas" for "2"), a firm word replaced by
//!   a soft one ("avoid" for "never"), or an "only", an exception, a
//!   condition or an approver gone is **weakened**; else **kept**. Where
//!   no sentence holds enough of the rule, a plan of the summary ("Next
//!   step", "Current work", "Pending tasks") that does what the rule
//!   forbids, or skips what it requires, is a **contradiction**; else the
//!   rule is **dropped**.

pub(crate) mod frame;
pub(crate) mod tables;

use alloc::string::String;
use alloc::vec::Vec;

use crate::audit::{Fate, Weakening};
use crate::entail::lexicon::{family, stem};
use crate::entail::rules::lookalike;
use crate::entail::scan::{EntityKind, Span};
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
        After { text, units }
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
    /// A plan of the summary does what the rule forbids, or skips what it
    /// requires.
    Breached,
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
            Why::Breached => "the summary's plan breaks it".into(),
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
}

/// The seam: judges what the new context did to a rule.
pub trait FateJudge {
    /// The verdict on `rule` (a clause as stated) against `after`.
    fn judge(&self, rule: &str, after: &After<'_>) -> Verdict;
}

/// The judge this crate ships (see the module docs), over a semantic
/// signal `S`.
#[derive(Clone, Copy, Debug, Default)]
pub struct StructuralJudge<S = NoSimilarity> {
    /// The semantic signal that aligns words.
    pub similarity: S,
}

/// A rule's sentence found: this share of it.
const KEEP: f64 = 0.55;
/// Below this share, no sentence speaks of the rule.
const PARTIAL: f64 = 0.3;
/// A reason's words weigh this much against the rule's own.
const REASON_WEIGHT: f64 = 0.3;

/// A rule as clauses: what it says and why.
#[derive(Clone, Debug)]
struct RuleClauses {
    /// Every clause, and whether it is operative (a reason is not).
    clauses: Vec<(Frame, bool)>,
    /// All of it, as one frame.
    whole: Frame,
}

/// Cuts a rule into clauses (sentences, `;`, dashes, commas before a new
/// clause) and tells the operative ones from the reasons.
fn rule_clauses(text: &str) -> RuleClauses {
    let mut spans: Vec<Span> = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    let cut = |spans: &mut Vec<Span>, a: usize, b: usize| {
        if text.get(a..b).is_some_and(|s| !s.trim().is_empty()) {
            spans.push(Span::new(a, b));
        }
    };
    while i < bytes.len() {
        let rest = &text[i..];
        let len = rest.chars().next().map_or(1, char::len_utf8);
        let ends = match rest.chars().next() {
            Some(';' | '。' | '；' | '！' | '？') => true,
            // A dash between two digits is a range ("640–1024px").
            Some('—' | '–') => {
                !(text[..i].ends_with(|c: char| c.is_ascii_digit())
                    && rest[len..].starts_with(|c: char| c.is_ascii_digit()))
            }
            Some('.' | '!' | '?') => rest[1..].starts_with(' ') || rest.len() == 1,
            Some(',') if lead_in(&text[start..i]) => true,
            Some(',') => {
                let next = rest[1..]
                    .trim_start()
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .next()
                    .unwrap_or("");
                tables::REASONS.contains(&next.to_lowercase().replace('\'', "").as_str())
            }
            Some(' ') => rest.starts_with(" - "),
            _ => false,
        };
        if ends {
            cut(&mut spans, start, i);
            start = i + len;
        }
        i += len;
    }
    cut(&mut spans, start, text.len());
    let mut clauses: Vec<(Frame, bool)> = Vec::new();
    let n = spans.len();
    let mut after_question = false;
    let mut asked_at: Vec<usize> = Vec::new();
    for (k, span) in spans.into_iter().enumerate() {
        let f = frame(text, span);
        let first_word = span
            .of(text)
            .trim()
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .next()
            .unwrap_or("")
            .to_lowercase()
            .replace('\'', "");
        let cued = f.negations + f.firm + f.soft > 0 || f.only || f.permits;
        let latin = !span.of(text).chars().any(crate::rules::chat::is_unspaced);
        // A question answered after it ("Where should it live? → at the
        // repo root"): the answer is the rule, the question its context.
        let asked = k + 1 < n
            && text
                .get(span.end..)
                .is_some_and(|r| r.starts_with(['?', '？']));
        if asked {
            asked_at.push(k);
        }
        let answer = core::mem::replace(&mut after_question, asked);
        let reason = asked
            || !answer
                && (k > 0 || lead_in(span.of(text)))
                && latin
                && (tables::REASONS.contains(&first_word.as_str())
                    || !cued && !imperative(&first_word));
        clauses.push((f, !reason));
    }
    // A question answered with no words of its own ("… first? yes") is
    // the rule, agreed to.
    for k in 1..clauses.len() {
        if clauses.get(k).is_some_and(|(f, _)| f.terms.is_empty())
            && let Some(q) = clauses.get_mut(k - 1)
            && asked_at.contains(&(k - 1))
        {
            q.1 = true;
        }
    }
    if clauses.iter().all(|(_, op)| !op) {
        for c in &mut clauses {
            c.1 = true;
        }
    }
    let mut whole = frame(text, Span::new(0, 0));
    whole.span = Span::new(0, text.len());
    for (f, operative) in &clauses {
        let scale = if *operative { 1.0 } else { REASON_WEIGHT };
        let mut m = f.clone();
        for t in &mut m.terms {
            t.scale *= scale;
        }
        whole = merged(&whole, &m);
        whole.span = Span::new(0, text.len());
    }
    // Force and markers come from the operative clauses only.
    let ops: Vec<&Frame> = clauses.iter().filter(|(_, o)| *o).map(|(f, _)| f).collect();
    whole.negations = ops.iter().map(|f| f.negations).sum();
    whole.firm = ops.iter().map(|f| f.firm).sum();
    whole.soft = ops.iter().map(|f| f.soft).sum();
    whole.only = ops.iter().any(|f| f.only);
    whole.except = ops.iter().any(|f| f.except);
    whole.approval = ops.iter().any(|f| f.approval);
    whole.condition = ops.iter().any(|f| f.condition);
    whole.permits = ops.iter().any(|f| f.permits);
    whole.prefer = ops.iter().find_map(|f| f.prefer.clone());
    RuleClauses { clauses, whole }
}

/// A few words before a comma that only lead into the rule ("Right, my
/// mistake, don't drop anything", "Also, …").
fn lead_in(part: &str) -> bool {
    let words: Vec<String> = part
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\'', ""))
        .collect();
    !words.is_empty() && words.len() <= 3 && words.iter().all(|w| LEAD_INS.contains(&w.as_str()))
}

/// Words a lead-in is made of.
const LEAD_INS: &[&str] = &[
    "right",
    "ok",
    "okay",
    "my",
    "mistake",
    "sorry",
    "oops",
    "also",
    "and",
    "but",
    "actually",
    "wait",
    "no",
    "yes",
    "well",
    "so",
    "oh",
    "hmm",
    "btw",
    "anyway",
    "again",
    "please",
    "note",
    "fyi",
    "correction",
    "update",
    "hey",
    "alright",
    "sure",
    "fine",
    "good",
    "great",
    "thanks",
];

/// A verb that opens an instruction.
fn imperative(w: &str) -> bool {
    crate::rules::chat::opens_instruction(w)
}

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

impl<S: Similarity> StructuralJudge<S> {
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
        // The best so far: its alignment, the pair's merged frame (none for
        // a single sentence), the unit it starts at.
        let mut best: Option<(Alignment, Option<Frame>, usize)> = None;
        let singles: Vec<Alignment> = after
            .units
            .iter()
            .map(|u| self.align(rule, &u.frame))
            .collect();
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

/// Whether a unit's term is the rule's value: the same, or for a path the
/// same file named with more or less of its directory.
fn same_value(kind: EntityKind, key: &str, u: &frame::Term) -> bool {
    if u.key == key {
        return true;
    }
    // A number as one end of a range ("02:00" in "02:00–04:00").
    if kind.is_numeric()
        && matches!(u.kind, TermKind::Value(_))
        && u.key.split(['–', '—', '~']).any(|part| part == key)
    {
        return true;
    }
    // A flag or name written inside a longer one ("--verbose" in
    // "quiet+--verbose").
    if kind == EntityKind::Identifier
        && key.len() >= 4
        && matches!(u.kind, TermKind::Value(_))
        && (within(&u.key, key) || (u.key.len() >= 4 && within(key, &u.key)))
    {
        return true;
    }
    // A file of the working directory named without its "./" ("hsim" for
    // "./hsim").
    if kind == EntityKind::Path
        && key
            .strip_prefix("./")
            .is_some_and(|k| k == u.key || stem(k) == u.key)
    {
        return true;
    }
    // A site's page named by its last part, written as a word ("Vercel"
    // for "github.com/vercel").
    if kind == EntityKind::Path
        && key.split('/').next().is_some_and(|host| host.contains('.'))
        && matches!(u.kind, TermKind::Word | TermKind::Part)
        && key.rsplit('/').next().is_some_and(|last| {
            last.len() >= 4
                && last.chars().all(char::is_alphabetic)
                && (last == u.key || stem(last) == u.key)
        })
    {
        return true;
    }
    // The same file named with more or less of its directory, or a file
    // inside the rule's directory ("~/.ssh/config" in "~/.ssh").
    kind == EntityKind::Path
        && matches!(u.kind, TermKind::Value(EntityKind::Path))
        && (u.key.ends_with(&alloc::format!("/{key}"))
            || key.ends_with(&alloc::format!("/{}", u.key))
            || (key.len() >= 3 && u.key.starts_with(&alloc::format!("{key}/"))))
}

/// Whether `name` is written inside `longer` as a whole: what stands
/// next to it is no part of a name ("--verbose" in "quiet+--verbose", not
/// "orders" in "orders_archive").
fn within(longer: &str, name: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-'));
    longer.match_indices(name).any(|(i, m)| {
        let before = longer.get(..i).and_then(|b| b.chars().next_back());
        let after = longer.get(i + m.len()..).and_then(|a| a.chars().next());
        !part(before) && !part(after)
    })
}

fn same_kind(a: EntityKind, b: TermKind) -> bool {
    match b {
        TermKind::Value(b) => a == b || (a.is_numeric() && b.is_numeric()),
        _ => false,
    }
}

/// Whether a value could stand for another of the rule's: numbers for
/// numbers, look-alike ids, paths that share a directory.
fn close(kind: EntityKind, a: &str, b: &str) -> bool {
    match kind {
        // A number for a number of the same shape: "0.1" is not "1".
        EntityKind::Number => {
            a.contains('.') == b.contains('.') && a.contains(':') == b.contains(':')
        }
        EntityKind::Version | EntityKind::Date => true,
        _ => {
            let head = |s: &'_ str| -> String {
                String::from(
                    s.trim_start_matches('-')
                        .split(['-', '_', '/', '.', ':', '='])
                        .next()
                        .unwrap_or(""),
                )
            };
            lookalike(a, b)
                || shared_prefix(a.trim_start_matches('-'), b.trim_start_matches('-')) >= 4
                || (!head(a).is_empty() && head(a) == head(b))
        }
    }
}

/// The runs of digits in a named thing ("minutes=10" holds "10").
fn embedded_numbers(key: &str) -> impl Iterator<Item = String> + '_ {
    key.split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty() && d.len() <= 6)
        .map(String::from)
}

fn shared_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// A unit and its neighbour read as one.
fn merged(a: &Frame, b: &Frame) -> Frame {
    let mut m = a.clone();
    m.terms.extend(b.terms.iter().cloned());
    m.negations += b.negations;
    m.firm += b.firm;
    m.soft += b.soft;
    m.only |= b.only;
    m.except |= b.except;
    m.condition |= b.condition;
    m.approval |= b.approval;
    m.lifted |= b.lifted;
    m.permits |= b.permits;
    m.always |= b.always;
    m.never |= b.never;
    if m.prefer.is_none() {
        m.prefer = b.prefer.clone();
    }
    m.compounds.extend(b.compounds.iter().cloned());
    m.span = Span::new(a.span.start.min(b.span.start), a.span.end.max(b.span.end));
    m
}

/// A name of the rule written as hyphened words, gone, where the unit
/// names another of the same family: the same first word, another after
/// it ("docker-large" → "docker-medium", "ingress-system" →
/// "ingress-nginx").
fn changed_compound(rule: &Frame, unit: &Frame) -> Option<(String, String)> {
    let names = || {
        unit.compounds.iter().map(String::as_str).chain(
            unit.values()
                .filter(|t| t.kind == TermKind::Value(EntityKind::Identifier))
                .map(|t| t.key.as_str()),
        )
    };
    rule.compounds.iter().find_map(|c| {
        let (head, tail) = c.split_once('-')?;
        if names().any(|n| n == c) || rule.compounds.iter().filter(|x| *x == c).count() > 1 {
            return None;
        }
        let other = names().find(|n| {
            n.split_once('-')
                .is_some_and(|(h, t)| h == head && t != tail && !c.contains(n))
                && !rule.compounds.iter().any(|x| x == n)
        })?;
        Some((c.clone(), String::from(other)))
    })
}

impl<S: Similarity> FateJudge for StructuralJudge<S> {
    fn judge(&self, rule_text: &str, after: &After<'_>) -> Verdict {
        let rule = rule_clauses(rule_text);
        let nowhere = Verdict {
            fate: Fate::Dropped,
            evidence: None,
            why: Why::Nowhere,
            coverage: 0.0,
        };
        if rule.whole.terms.is_empty() {
            return nowhere;
        }
        let Some((a, found, _)) = self.best(&rule.whole, after, true) else {
            return nowhere;
        };
        let verdict = |fate, why, span: Span| Verdict {
            fate,
            evidence: Some(span),
            why,
            coverage: a.coverage,
        };
        // Said the other way round, anywhere: each operative clause against
        // the sentence that holds most of it.
        for (clause, _) in rule.clauses.iter().filter(|(_, op)| *op) {
            if clause.terms.is_empty() {
                continue;
            }
            if let Some((ca, cf, _)) = self.best(clause, after, false)
                && ca.coverage >= KEEP
                && let Some(why) = contradiction(clause, &cf, &ca)
            {
                return verdict(Fate::Contradicted, why, cf.span);
            }
        }
        for (clause, _) in rule.clauses.iter().filter(|(_, op)| *op) {
            if let Some(span) = self.breach(clause, after) {
                return verdict(Fate::Contradicted, Why::Breached, span);
            }
        }
        // Carried: enough of the rule, its words among it (the ids of a rule
        // named in passing carry nothing of it).
        let carried =
            (a.coverage >= KEEP && a.words >= PARTIAL) || (a.changed.is_some() && a.words >= KEEP);
        if carried {
            if let Some(why) = weakening(&rule.whole, &found, &a) {
                return verdict(Fate::Weakened, why, found.span);
            }
            return verdict(Fate::Kept, Why::Carried, found.span);
        }
        if a.coverage >= PARTIAL && (found.soft > 0 || found.firm > 0 || found.negations > 0) {
            // A sentence about the rule, in vaguer words.
            let why = if rule.whole.is_firm() && !found.is_firm() {
                Why::Softened
            } else if rule.whole.only && !found.only {
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
        // A rule stated again in softer, vaguer words ("results tables
        // should include some uncertainty where possible"): a soft
        // sentence that names the rule's own words.
        if rule.whole.is_firm()
            && let Some((sa, sf)) = self.softened(&rule.whole, after)
        {
            return Verdict {
                fate: Fate::Weakened,
                evidence: Some(sf.span),
                why: Why::Softened,
                coverage: sa.coverage,
            };
        }
        Verdict {
            fate: Fate::Dropped,
            evidence: Some(found.span),
            why: Why::Nowhere,
            coverage: a.coverage,
        }
    }
}

/// Below this share of a rule's words, a soft sentence is about something
/// else.
const SOFT_WORDS: f64 = 0.15;

impl<S: Similarity> StructuralJudge<S> {
    /// The soft sentence (a soft word, no strict one) that holds most of
    /// the rule's words, if it holds enough of them: two of its own words
    /// at least.
    fn softened<'f>(&self, rule: &Frame, after: &'f After<'_>) -> Option<(Alignment, &'f Frame)> {
        after
            .units
            .iter()
            .map(|u| &u.frame)
            .filter(|f| f.soft > 0 && !(f.only || f.always || f.never) && f.negations == 0)
            .map(|f| (self.align(rule, f), f))
            .filter(|(a, _)| a.matched_words >= 2 && a.words >= SOFT_WORDS)
            .max_by(|x, y| x.0.words.total_cmp(&y.0.words))
    }
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

impl<S: Similarity> StructuralJudge<S> {
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
pub fn judge_all(judge: &impl FateJudge, rules: &[&str], after: &str) -> Vec<Verdict> {
    let after = After::new(after);
    rules.iter().map(|r| judge.judge(r, &after)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_group_of_words_has_a_bit() {
        // A word's groups are a mask of 128 bits.
        assert!(SAME.len() <= 128, "{} groups", SAME.len());
        assert_eq!(groups_of("delet"), groups_of("remov"));
        assert_ne!(groups_of("delet") & groups_of("truncat"), 0);
        assert_eq!(groups_of("zebra"), 0);
    }

    fn fate(rule: &str, after: &str) -> Fate {
        StructuralJudge::<NoSimilarity>::default()
            .judge(rule, &After::new(after))
            .fate
    }

    #[test]
    fn fates_of_one_rule() {
        let rule = "never force-push to main";
        assert_eq!(
            fate(
                rule,
                "6. All user messages:\n   - \"never force-push to main\"\n"
            ),
            Fate::Kept
        );
        assert_eq!(
            fate(
                rule,
                "Constraints:\n- Avoid force-pushing to main where possible.\n"
            ),
            Fate::Weakened
        );
        assert_eq!(
            fate(rule, "Work so far: the parser is fixed and tests pass.\n"),
            Fate::Dropped
        );
        assert_eq!(
            fate("use npm, not pnpm", "Constraints:\n- Use pnpm, not npm.\n"),
            Fate::Contradicted
        );
        assert_eq!(
            fate(
                "max 3 retries on the webhook",
                "Constraints:\n- Max 5 retries on the webhook.\n"
            ),
            Fate::Weakened
        );
        assert_eq!(
            fate(
                "the $500 cap on cloud spend applies",
                "Notes:\n- The $500 cap on cloud spend no longer applies; spend what the task needs.\n"
            ),
            Fate::Contradicted
        );
    }

    #[test]
    fn values_changed() {
        let cases = [
            // A name of one family for another.
            (
                "the build job has to run on the runner tagged gpu-large",
                "Constraints:\n- The build job must run on the runner tagged `gpu-small`.\n",
            ),
            // A number inside a named thing; the rule's other number kept.
            (
                "retries=3 and a delay of 5 minutes on all the fetch tasks",
                "Constraints:\n- All fetch tasks get `retries=3` and `delay=timedelta(minutes=10)`.\n",
            ),
            // A number left as a word by the scanner.
            (
                "the base image is python:11-slim",
                "Notes:\n- The base image is python:12-slim.\n",
            ),
            // Read in one sentence of a pair.
            (
                "keep the pool at 40 connections for the ingest worker",
                "Notes:\n- The pool stays at 80 connections for the ingest worker.\n- The ingest worker pool is shared.\n",
            ),
        ];
        for (rule, after) in cases {
            assert_eq!(fate(rule, after), Fate::Weakened, "{rule}");
        }
        // A range is one clause, and a value of another shape is no change.
        assert_eq!(
            fate(
                "widths are small < 600px, large 600–1200px",
                "Notes:\n- Widths: small below 600px, large from 600px to 1400px.\n"
            ),
            Fate::Weakened
        );
        assert_eq!(
            fate(
                "give the encoder 0.1x the head's learning rate for the first 2 epochs",
                "Notes:\n- For epochs 1 and 2 the encoder learns at one tenth of the head's learning rate.\n"
            ),
            Fate::Kept
        );
    }

    #[test]
    fn kept_not_breached() {
        // The rule quoted is no claim of breaking it.
        assert_eq!(
            fate(
                "Don't edit config.toml directly. All my edits go in local.toml.",
                "The user said: \"Don't edit config.toml directly. All my edits go in local.toml.\"\n"
            ),
            Fate::Kept
        );
        // A file named before the prohibition is not what it forbids.
        assert_ne!(
            fate(
                "put the settings in base.yaml, don't create an extra.yaml",
                "Next steps:\n- Add the new block to base.yaml.\n"
            ),
            Fate::Contradicted
        );
        // A soft word under a negation is firm.
        assert_eq!(
            fate(
                "the pause between batches is required",
                "Notes:\n- The pause between batches is not optional.\n"
            ),
            Fate::Kept
        );
    }

    #[test]
    fn breaches() {
        let cases = [
            // Done without the approval the rule asks for.
            (
                "don't modify the memory map (board.ld) without asking me first",
                "Files:\n- board.ld: edited already, added a section; the user hasn't been consulted.\n",
            ),
            // A file inside the forbidden directory, by another verb.
            (
                "never commit anything from ~/.secrets to the repo",
                "Next steps:\n- Add ~/.secrets/token to the repo so CI can read it.\n",
            ),
            // Renaming is changing.
            (
                "don't change the response format of GET /v2/items",
                "Next steps:\n- Rename `item_id` to `itemId` in the GET /v2/items response.\n",
            ),
            // A requirement skipped.
            (
                "run the smoke tests and make sure they pass before you open any PR",
                "Current work:\n- The PR was opened without running the smoke tests, to save time.\n",
            ),
        ];
        for (rule, after) in cases {
            assert_eq!(fate(rule, after), Fate::Contradicted, "{rule}");
        }
        // Consulted as asked: no breach.
        assert_ne!(
            fate(
                "don't modify the memory map (board.ld) without asking me first",
                "Files:\n- board.ld: edited after the user approved it.\n"
            ),
            Fate::Contradicted
        );
    }

    #[test]
    fn rules_in_other_languages() {
        let kept = [
            (
                "Ne modifie jamais le fichier settings.toml.",
                "Constraints:\n- Never modify the settings.toml file.\n",
            ),
            (
                "Bitte nie die Datei settings.toml ändern.",
                "Constraints:\n- Never change the settings.toml file.\n",
            ),
            (
                "不要修改 third_party/ 目录下的代码",
                "Constraints:\n- Do not modify the code in the third_party/ directory.\n",
            ),
        ];
        for (rule, after) in kept {
            assert_eq!(fate(rule, after), Fate::Kept, "{rule}");
        }
        assert_eq!(
            fate(
                "Nunca uses más de 4 workers en el servidor.",
                "Constraints:\n- Never use more than 6 workers on the server.\n"
            ),
            Fate::Weakened
        );
    }

    #[test]
    fn restated_softly() {
        let rule = "every chart in the weekly report must show 95% confidence bands, no exceptions";
        assert_eq!(
            fate(
                rule,
                "Notes:\n- Charts in the weekly report should show some uncertainty where possible.\n"
            ),
            Fate::Weakened
        );
        assert_eq!(
            fate(
                rule,
                "Notes:\n- Try to keep commits small where possible.\n"
            ),
            Fate::Dropped
        );
    }

    #[test]
    fn breaches_across_languages_and_lifted_requirements() {
        // A Japanese negation denies the verb and object before it.
        assert_eq!(
            fate(
                "本番サーバーでは rm -rf を実行しないでください。",
                "Next steps:\n- On the production server, run `rm -rf /srv/old` directly.\n"
            ),
            Fate::Contradicted
        );
        // A Chinese comma ends the negation's clause.
        let f = frame::frame("不要保留日志，打包时必须去掉", Span::new(0, 42));
        assert!(f.terms.iter().any(|t| t.key == "keep" && t.negated));
        assert!(f.terms.iter().any(|t| t.key == "delet" && !t.negated));
        // "No review is needed" lifts a requirement.
        assert_eq!(
            fate(
                "always review the generated schema before committing it",
                "Notes:\n- The generated schema can be committed as is; no manual review pass is needed.\n"
            ),
            Fate::Contradicted
        );
        // A rule that permits in a scope, restated: not lifted.
        assert_eq!(
            fate(
                "the mock server is only allowed in dev mode",
                "Notes:\n- The mock server is allowed only in dev mode.\n"
            ),
            Fate::Kept
        );
        // One end of a range is the rule's number.
        assert_eq!(
            fate(
                "backups run between 01:00 and 03:00 only",
                "Notes:\n- Backups run only in the 01:00–03:00 window.\n"
            ),
            Fate::Kept
        );
    }

    #[test]
    fn answers_and_unspaced_lists() {
        // The answer to a question is the rule, not the question.
        assert_eq!(
            fate(
                "Where should the launcher live? → ./runme at repo root",
                "Decisions:\n- Answer to the layout question: runme at repo root.\n"
            ),
            Fate::Kept
        );
        // A question answered "yes" is the rule.
        let yes = rule_clauses("Write the plan into plan.md first? yes");
        assert!(yes.clauses.first().is_some_and(|(_, op)| *op));
        // Latin words inside unspaced text are words.
        let mixed = frame::frame("文档里用ascii画图", Span::new(0, 23));
        assert!(
            mixed
                .terms
                .iter()
                .any(|t| t.key == "ascii" && t.kind == TermKind::Word)
        );
        // Chinese words joined by slashes are words, not a path.
        let f = frame::frame("风格可以选标准/简单", Span::new(0, 28));
        assert!(f.values().next().is_none());
        assert!(f.terms.iter().any(|t| t.key == "standard"));
        // A site's page named by its last part.
        assert_eq!(
            fate(
                "智能体用 github.com/acmekit 来实现",
                "Notes:\n- The agent layer is implemented with the Acmekit SDK.\n"
            ),
            Fate::Kept
        );
    }

    #[test]
    fn word_tables_are_sorted() {
        for table in [tables::FOREIGN, tables::CJK_WORDS] {
            assert!(
                table
                    .windows(2)
                    .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
            );
        }
    }

    #[test]
    fn names_inside_names() {
        assert!(within("quiet+--verbose", "--verbose"));
        assert!(!within("orders_archive_new", "orders"));
        assert!(!within("pre-orders", "orders"));
        assert_eq!(
            embedded_numbers("timedelta(minutes=10)").collect::<Vec<_>>(),
            ["10"]
        );
        let text = "He said \"never edit it\" and then edited it.";
        assert!(quoted(text, Span::new(9, 19)));
        assert!(!quoted(text, Span::new(0, 2)));
        assert!(verbal(text, Span::new(33, 39)));
        assert!(!verbal("all my changes go here", Span::new(7, 14)));
    }
}
