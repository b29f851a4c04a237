//! The audit of one real compaction: what was compacted (BEFORE, a
//! [`Transcript`]) against the summary that replaced it (AFTER).
//!
//! [`audit`] reports four things, each with byte spans in both texts so a
//! viewer can highlight them:
//!
//! - **(a) dropped constraints**: the rules of BEFORE (as the rule finder
//!   reads them) that AFTER no longer carries, each rule's fate the judge's
//!   ([`crate::judge::FateJudge`], the one every audit shares): kept,
//!   weakened (reported apart), dropped, or contradicted (a rule that AFTER
//!   breaks, "do not bump" against "upgraded", names the breaking
//!   sentence).
//! - **(b) unsupported details**: identifiers, tickets, versions, numbers,
//!   dates and paths of AFTER that BEFORE never mentions (see
//!   [`crate::entail`] for what counts as the same).
//! - **(c) changed or merged ids**: an AFTER id that BEFORE lacks but that
//!   looks like a BEFORE id (`T-41` for `T-14`: changed), and a BEFORE id
//!   that AFTER drops while a look-alike of it in AFTER carries what BEFORE
//!   said only about the dropped one (merged).
//! - **(d) vanished reasoning**: reasons ("because", "so that", "due to", …)
//!   and rejected options ("rejected", "ruled out", "instead of", …) of
//!   BEFORE whose content AFTER no longer has (a rejection must also still be
//!   marked as one).
//!
//! Rules are read from what the operator, the system, the tools and earlier
//! summaries said; reasons from everyone but the tools; the model's
//! reasoning is read for neither. Sentences in code (fenced or indented) and
//! sentences longer than [`MAX_SENTENCE_BYTES`] (logs, minified data) are
//! not read as rules or reasons. Every message's text and tool arguments
//! count as support for (b). A rule or reason stated several times is
//! reported once, at its first statement, with the count. A carve-out its
//! speaker later forbids ("the old table can go, just drop it", then "my
//! mistake, don't drop anything") is withdrawn: it is no rule in force, so
//! it is never reported lost nor restated.
//!
//! [`Audit::drifted`] is true when (a) or (b) found something: the summary
//! lost a rule or asserted what the transcript does not say.
//!
//! The audit costs time linear in BEFORE (one pass; hashing, no quadratic
//! search) plus the number of BEFORE rules and reasons times the size of
//! AFTER; a 1 MB transcript takes a few tens of milliseconds (see
//! `BENCHMARKS.md`).
//!
//! ## Precision and recall
//!
//! Measured on two labelled sets of before/after pairs in
//! `crates/drift-session/tests/labelled/`, written for this purpose:
//! faithful summaries and paraphrases that keep every rule, dropped,
//! weakened (softened, excepted, re-limited, re-scoped, re-dated, an
//! approval turned notice) and contradicted rules, invented versions,
//! paths, ports, numbers and rules, swapped, renumbered and merged ids,
//! dropped rationale and rejections. A pair counts for a finding kind when
//! the audit reports at least one finding of that kind; *any* asks only
//! whether an unfaithful pair is flagged at all (its labels include
//! `invented_claim`, which no row reports). Pairs written later also label
//! each rule clause of BEFORE with its fate, each invented rule and each
//! swapped or merged pair of ids: the second table scores the fate the audit
//! gives each labelled rule (a rule it does not find as a rule has no
//! fate). `tests/labelled.rs` recomputes every table and fails when one
//! changes.
//!
//! `pairs.txt` is the set the word lists and thresholds were adjusted on (an
//! in-sample figure); `held_out.txt` was written apart and never tuned on.
//! The tables of both, and their totals (labelled rules not found as
//! rules, swaps and merges caught, invented rules found), are in
//! `eval/SCORES.md`, which `cargo xtask eval --write-scores` writes.
//!
//! What the misses are. Contradictions the checker cannot read: acting on
//! the forbidden resource with a verb outside the rule's family ("never
//! touch db-prod-01" against "run the migration against db-prod-01"), an
//! "only" scope left ("only edit crates/drift-core" against edits in
//! `crates/drift-web`), "no raw strings" against "a raw SQL string", a
//! correction reverted. Contradictions it reads wrongly: a noun taken for
//! the forbidden verb ("stay out of the logs" against "do not log"), or an
//! act outside the rule's scope ("applied manifests" to another namespace
//! against "never apply manifests to kube-system"). Two ids that both exist
//! but trade descriptions. A single-digit number ("8 at a time" against "no
//! more than 4") is never checked, and a rounded one ("about 20k" for
//! 19,842) is reported as unsupported.
//!
//! ```
//! use drift_session::audit_text;
//!
//! let before = "We are still on libfoo 2.3.1, do not bump.\n\
//!               Postgres 14 was chosen because the migration tooling needs advisory locks.";
//! let after = "Dependency libfoo was upgraded to 2.4.0. The project uses Postgres 14.";
//! let report = audit_text(before, after);
//! assert!(report.drifted());
//! let bump = &report.dropped_constraints[0];
//! assert_eq!(bump.text, "We are still on libfoo 2.3.1, do not bump.");
//! assert_eq!(bump.contradicted_by.map(|s| s.of(after)),
//!            Some("Dependency libfoo was upgraded to 2.4.0."));
//! assert_eq!(report.unsupported[0].text, "2.4.0");
//! assert_eq!(report.vanished_reasoning.len(), 1);
//! ```

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::entail::lexicon;
use crate::entail::scan::{self, Entity, EntityKind, Span, Token};
use crate::entail::support::{Bag, PrefixSupport, Support, SupportBuilder, name_key, stem_key};
use crate::entail::{ReasoningKind, Terms, lookalike, reasoning, rejection_mark, rule_cue};
use crate::judge::{After, FateJudge};
use crate::rules::{RuleBook, RuleForm, RulePlace, Source};
use crate::transcript::{Message, MessageRole, Provenance, Transcript};
use drift_core::Kind;

mod bindings;
mod fates;
mod findings;
mod lineage;

mod report;
mod session;
mod summary;

use summary::{Summary, details, invented, merges};

pub use fates::{Evidence, Fate, Weakening};
pub use findings::{
    Audit, AuditCounts, BeforeMention, ChangedId, DroppedConstraint, IdChange, InventedRule,
    Invention, MessageField, Place, RuleFate, Unsupported, VanishedReasoning,
};
pub use lineage::{
    LAUNDERING_LINE, LaunderedClaim, Laundering, Lineage, LineagePoint, RuleLineage, Step,
    StepState, lineage,
};
pub use report::{CompactionReport, FileLoss, InventedItem, LostRule, Report, SourceCount, report};
pub use session::{
    AfterPart, CODEX_USER_MESSAGE_TOKENS, CompactionAudit, FateCounts, MIN_FIT_STEPS,
    MeasuredRetention, SESSION_AUDIT_FORMAT, SessionAudit, SessionRule, audit_latest_compaction,
    audit_session, audit_session_with, judged_summary,
};
pub(crate) use session::{audit_with_rules, harness_restores};

/// The `format` of an audit's JSON.
pub const AUDIT_FORMAT: &str = "compaction-drift/audit@1";

/// Sentences longer than this are not read as rules or reasons.
pub const MAX_SENTENCE_BYTES: usize = 600;

/// AFTER carries a rule or reason that has at least this share of its terms.
const CARRIED: f64 = 0.5;
/// Entities weigh this much against one content word.
const ENTITY_WEIGHT: f64 = 2.0;

/// Audits a summary against plain text (see [`audit`]).
pub fn audit_text(before: &str, after: &str) -> Audit {
    audit(&Transcript::plain(before), after)
}

/// Audits `after`, the summary that replaced `before` (see the module docs).
pub fn audit(before: &Transcript, after: &str) -> Audit {
    audit_upto(before, before.messages.len(), &|_| true, after)
}

/// Audits `after` against the first `upto` messages of `before` that
/// `include` keeps.
pub(crate) fn audit_upto(
    before: &Transcript,
    upto: usize,
    include: &dyn Fn(&Message) -> bool,
    after: &str,
) -> Audit {
    audit_reading(&BeforeReading::read(before, upto, include), upto, after)
}

/// Audits `after` against the first `upto` messages of what `reading` read.
pub(crate) fn audit_reading(reading: &BeforeReading<'_>, upto: usize, after: &str) -> Audit {
    let transcript = reading.transcript;
    let summary = Summary::read(after);
    let read = reading.before(upto);
    let mut counts = AuditCounts {
        before_messages: read.upto,
        before_bytes: read.bytes,
        after_bytes: after.len(),
        constraints: read.rules.len(),
        reasoning: read.reasons.len(),
        ..AuditCounts::default()
    };

    let judged = After::new(after);
    let judge = FateJudge::shipped();
    let rules: Vec<RuleFate> = read.rules.iter().map(|r| r.fate(&judge, &judged)).collect();
    let dropped_constraints: Vec<DroppedConstraint> = read
        .rules
        .iter()
        .zip(&rules)
        .filter(|(_, f)| matches!(f.fate, Fate::Dropped | Fate::Contradicted))
        .map(|(r, f)| r.dropped(f))
        .collect();
    counts.constraints_carried = counts.constraints - dropped_constraints.len();
    let invented = invented(&summary, &read, after);

    let vanished_reasoning: Vec<VanishedReasoning> = read
        .reasons
        .iter()
        .filter(|(r, _)| !r.kept(&summary))
        .map(|(r, occurrences)| VanishedReasoning {
            kind: r.kind,
            before: r.place,
            text: r.text.clone(),
            role: r.role,
            occurrences: *occurrences,
        })
        .collect();
    counts.reasoning_kept = counts.reasoning - vanished_reasoning.len();

    let (unsupported, changed_ids, details) = checked_details(reading, &read, &summary, after);
    counts.details = details;
    counts.details_supported = details - unsupported.len();

    Audit {
        before_format: transcript.format,
        counts,
        rules,
        dropped_constraints,
        invented,
        unsupported,
        changed_ids,
        vanished_reasoning,
    }
}

/// The details of `after` that `read` does not support, and the ids it
/// changed, swapped, merged or re-bound, in order; with how many details
/// it has.
fn checked_details(
    reading: &BeforeReading<'_>,
    read: &Before<'_>,
    summary: &Summary<'_>,
    after: &str,
) -> (Vec<Unsupported>, Vec<ChangedId>, usize) {
    let (unsupported, mut changed_ids, details) = details(summary, read, after);
    changed_ids.extend(merges(summary, read, reading.transcript));
    changed_ids.extend(bindings::rebound(
        &reading.descriptions,
        read.upto,
        after,
        &changed_ids,
    ));
    changed_ids.sort_by_key(|c| (c.after.start, c.change, c.before));
    (unsupported, changed_ids, details)
}

/// The ids `after` changed, swapped, merged or re-bound against the first
/// `upto` messages of `before` that `include` keeps: the part of an audit
/// the session audit asks of the user's own words (their rules it judges
/// itself).
pub(crate) fn changed_ids_upto(
    before: &Transcript,
    upto: usize,
    include: &dyn Fn(&Message) -> bool,
    after: &str,
) -> Vec<ChangedId> {
    let reading = BeforeReading::read(before, upto, include);
    let read = reading.before(upto);
    checked_details(&reading, &read, &Summary::read(after), after).1
}

/// A rule found in BEFORE.
struct BeforeRule {
    place: Place,
    last: Place,
    text: String,
    role: MessageRole,
    provenance: Provenance,
    form: RuleForm,
    cue: &'static str,
    kind: Kind,
    occurrences: usize,
}

impl BeforeRule {
    /// What AFTER did to this rule: the judge's verdict.
    fn fate(&self, judge: &FateJudge<'_>, after: &After<'_>) -> RuleFate {
        let verdict = judge.judge(&self.text, after);
        let fate = verdict.fate;
        let evidence = verdict.evidence.map(|span| Evidence {
            span,
            weakening: verdict.why.weakening(),
        });
        RuleFate {
            before: self.place,
            text: self.text.clone(),
            role: self.role,
            provenance: self.provenance,
            form: self.form,
            cue: self.cue,
            kind: self.kind,
            occurrences: self.occurrences,
            last: self.last,
            fate,
            evidence,
            sure: Some(crate::rules::model::thousandths(verdict.chance)),
        }
    }

    /// The rule as a dropped constraint of (a), from its fate.
    fn dropped(&self, fate: &RuleFate) -> DroppedConstraint {
        DroppedConstraint {
            before: self.place,
            text: self.text.clone(),
            role: self.role,
            form: self.form,
            cue: self.cue,
            occurrences: self.occurrences,
            contradicted_by: (fate.fate == Fate::Contradicted)
                .then(|| fate.evidence.map(|e| e.span))
                .flatten(),
            closest: (fate.fate == Fate::Dropped)
                .then(|| fate.evidence.map(|e| e.span))
                .flatten(),
        }
    }
}

/// A reason or rejection found in BEFORE.
struct Reason {
    kind: ReasoningKind,
    place: Place,
    text: String,
    role: MessageRole,
    /// The message of each statement.
    said: Vec<usize>,
    terms: Terms,
}

impl Reason {
    fn kept(&self, summary: &Summary<'_>) -> bool {
        if self.terms.is_empty() {
            return true;
        }
        let rejection = self.kind == ReasoningKind::RejectedOption;
        summary
            .best(&self.terms, |w| !rejection || w.rejection)
            .is_some_and(|(c, _)| c >= CARRIED)
    }
}

/// Where BEFORE mentions an id with digits: its first mention and the
/// sentences of its first few mentions.
struct IdMentions {
    canonical: String,
    text: String,
    first: Place,
    sentences: Vec<Place>,
}

/// How many sentences to remember per id.
const ID_SENTENCES: usize = 4;

/// BEFORE read once, for every audit of a prefix of it (one per
/// compaction of a session): each message tokenised once, its words and
/// entities hashed for support, ids, reasons and what each id is described
/// as, and the rule finder run over it.
pub(crate) struct BeforeReading<'t> {
    transcript: &'t Transcript,
    /// Every key of support, with the first message that has it.
    support: PrefixSupport,
    /// The words of each message anyone but the model wrote (the operator,
    /// the system, files and tools), by message: where a rule AFTER states
    /// could come from.
    sources: Vec<(usize, Support)>,
    reasons: Vec<Reason>,
    /// By the key of the id's lowercase form (no string per mention).
    ids: BTreeMap<u64, IdMentions>,
    descriptions: bindings::Descriptions,
    book: RuleBook,
    /// Each rule place in context ([`places_in_context`]).
    context: BTreeMap<(usize, usize), Span>,
}

/// BEFORE up to one compaction: a view of a [`BeforeReading`].
struct Before<'r> {
    support: &'r PrefixSupport,
    rules: Vec<BeforeRule>,
    sources: &'r [(usize, Support)],
    /// The reasons stated before it, with how many times.
    reasons: Vec<(&'r Reason, usize)>,
    ids: &'r BTreeMap<u64, IdMentions>,
    upto: usize,
    bytes: usize,
}

impl Before<'_> {
    /// The ids first mentioned before it.
    fn ids(&self) -> impl Iterator<Item = &IdMentions> {
        self.ids.values().filter(|m| m.first.message < self.upto)
    }

    /// The id with this key, if it was mentioned before it.
    fn id(&self, key: u64) -> Option<&IdMentions> {
        self.ids.get(&key).filter(|m| m.first.message < self.upto)
    }

    /// The sentences of an id's first few mentions before it.
    fn id_sentences<'m>(&self, m: &'m IdMentions) -> impl Iterator<Item = &'m Place> + use<'m, '_> {
        m.sentences.iter().filter(|p| p.message < self.upto)
    }
}

/// Whose sentences can state a rule: everyone's but the model's own (its
/// output and its reasoning).
pub(crate) fn reads_rules(role: MessageRole, provenance: Provenance) -> bool {
    !matches!(role, MessageRole::Assistant | MessageRole::Reasoning)
        && !matches!(provenance, Provenance::Harness | Provenance::UserShell)
}

fn reads_reasons(role: MessageRole) -> bool {
    !matches!(role, MessageRole::Tool | MessageRole::Reasoning)
}

/// Lowercase, whitespace collapsed: two statements of one rule.
pub(crate) fn normal(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(word.chars().flat_map(char::to_lowercase));
    }
    out
}

/// One sentence of a transcript, tokenised: what the audit (and the import
/// of a session as a scenario) reads rules from.
pub(crate) struct MessageSentence<'t> {
    /// Where it is.
    pub(crate) place: Place,
    /// Who said it.
    pub(crate) role: MessageRole,
    /// The sentence.
    pub(crate) text: &'t str,
    /// Its words and entities, spans relative to the field's text.
    pub(crate) tokens: Vec<Token<'t>>,
    /// Prose that can state a rule or a reason: message text, not code,
    /// not longer than [`MAX_SENTENCE_BYTES`].
    pub(crate) prose: bool,
    /// In code (fenced or indented).
    pub(crate) code: bool,
    /// The whole text of its field (what its spans are relative to).
    pub(crate) field_text: &'t str,
}

/// Calls `visit` on every sentence of the fields `read` selects, in
/// transcript order (a message's text before its tool arguments); with
/// `prose_only`, on the prose sentences only (the others are not even
/// tokenised).
pub(crate) fn each_sentence<'t>(
    transcript: &'t Transcript,
    upto: usize,
    read: impl Fn(&Message, MessageField) -> bool,
    prose_only: bool,
    mut visit: impl FnMut(&MessageSentence<'t>),
) {
    for (m, message) in transcript.messages.iter().enumerate().take(upto) {
        let fields = [
            (MessageField::Text, Some(message.text.as_str())),
            (MessageField::Arguments, message.tool_arguments.as_deref()),
        ];
        for (field, text) in fields {
            let Some(text) = text else { continue };
            if !read(message, field) {
                continue;
            }
            for sentence in scan::sentences(text) {
                let prose = field == MessageField::Text
                    && !sentence.code
                    && sentence.span.len() <= MAX_SENTENCE_BYTES;
                if prose_only && !prose {
                    continue;
                }
                visit(&MessageSentence {
                    place: Place {
                        message: m,
                        field,
                        span: sentence.span,
                    },
                    role: message.role,
                    text: sentence.span.of(text),
                    tokens: scan::tokens(text, sentence.span),
                    prose,
                    code: sentence.code,
                    field_text: text,
                });
            }
        }
    }
}

impl<'t> BeforeReading<'t> {
    /// Reads the first `upto` messages of `transcript` that `include`
    /// keeps, in one pass.
    pub(crate) fn read(
        transcript: &'t Transcript,
        upto: usize,
        include: &dyn Fn(&Message) -> bool,
    ) -> BeforeReading<'t> {
        let mut support = SupportBuilder::default();
        // Where each message's keys begin.
        let mut marks: Vec<(usize, usize)> = Vec::new();
        let mut reasons: Vec<Reason> = Vec::new();
        let mut reason_index: BTreeMap<(ReasoningKind, String), usize> = BTreeMap::new();
        let mut ids: BTreeMap<u64, IdMentions> = BTreeMap::new();
        let mut descriptions = bindings::Descriptions::default();
        let mut sources: Vec<(usize, Support)> = Vec::new();
        let mut source: Option<(usize, SupportBuilder)> = None;
        let mut stems: Vec<Option<u64>> = Vec::new();
        each_sentence(
            transcript,
            upto,
            |m, _| include(m),
            false,
            |sentence| {
                let place = sentence.place;
                let tokens = &sentence.tokens;
                if marks.last().is_none_or(|&(_, m)| m != place.message) {
                    marks.push((support.len(), place.message));
                    if let Some((m, bag)) = source.take() {
                        sources.push((m, bag.finish()));
                    }
                    source = transcript
                        .messages
                        .get(place.message)
                        .filter(|m| reads_rules(m.role, m.provenance))
                        .map(|_| (place.message, SupportBuilder::default()));
                }
                let text = place.field == MessageField::Text;
                // Its words go to the message's bag (a rule AFTER states
                // could come from it) and, when it names an id, to what
                // describes that id.
                let mut bag = source.as_mut().filter(|_| text).map(|(_, b)| b);
                let describes = text && !sentence.code && tokens.iter().any(bindings::is_id);
                stems.clear();
                for t in tokens {
                    support.add_token(t);
                    note_id(&mut ids, t, place.message, place.field, place);
                    let describing = describes && bindings::describing(t);
                    let stem = (t.entity.is_none() && (bag.is_some() || describing))
                        .then(|| lexicon::stem(t.text));
                    if let Some(bag) = bag.as_mut() {
                        bag.add_token(t);
                        if let Some(s) = &stem {
                            bag.add_stem(s);
                        }
                    }
                    stems.push(stem.filter(|_| describing).map(|s| stem_key(&s)));
                }
                if describes {
                    descriptions.read_sentence(
                        sentence.field_text,
                        tokens,
                        &stems,
                        place.message,
                        |span| Place {
                            message: place.message,
                            field: MessageField::Text,
                            span,
                        },
                    );
                }
                if !sentence.prose || !reads_reasons(sentence.role) {
                    return;
                }
                for r in reasoning(tokens) {
                    let key = (r.kind, normal(sentence.text));
                    if let Some(&i) = reason_index.get(&key) {
                        if let Some(x) = reasons.get_mut(i) {
                            x.said.push(place.message);
                        }
                        continue;
                    }
                    let mut terms = r.terms(tokens);
                    if terms.stems.len() + terms.entities.len() < 2
                        && r.kind == ReasoningKind::Rationale
                    {
                        // "… because of that": the whole sentence is the reason.
                        terms = Terms::of(tokens, 0, tokens.len());
                    }
                    reason_index.insert(key, reasons.len());
                    reasons.push(Reason {
                        kind: r.kind,
                        place,
                        text: sentence.text.to_string(),
                        role: sentence.role,
                        said: alloc::vec![place.message],
                        terms,
                    });
                }
            },
        );
        if let Some((m, bag)) = source.take() {
            sources.push((m, bag.finish()));
        }
        sources.retain(|(_, s)| !s.is_empty());
        descriptions.finish();
        let mut book = RuleBook::new();
        for (i, m) in transcript.messages.iter().enumerate().take(upto) {
            if include(m)
                && let Some(source) = m.rule_source()
            {
                book.add(i, &m.text, source);
            }
        }
        let context = places_in_context(transcript, book.rules());
        BeforeReading {
            transcript,
            support: support.finish_by_message(&marks),
            sources,
            reasons,
            ids,
            descriptions,
            book,
            context,
        }
    }

    /// The first `upto` messages, as one audit reads them.
    fn before(&self, upto: usize) -> Before<'_> {
        let upto = upto.min(self.transcript.messages.len());
        let bytes = self
            .transcript
            .messages
            .iter()
            .take(upto)
            .map(|m| m.text.len() + m.tool_arguments.as_ref().map_or(0, String::len))
            .sum();
        let sources = self
            .sources
            .get(..self.sources.partition_point(|(m, _)| *m < upto))
            .unwrap_or(&[]);
        Before {
            support: &self.support,
            rules: self.rules(upto),
            sources,
            reasons: self
                .reasons
                .iter()
                .filter(|r| r.place.message < upto)
                .map(|r| (r, r.said.iter().filter(|m| **m < upto).count()))
                .collect(),
            ids: &self.ids,
            upto,
            bytes,
        }
    }
}

/// Lead-ins longer than this are not given to a rule.
const MAX_LEAD_IN: usize = 160;

/// Words a rule's lead-in does not start with.
const JOINERS: &[&str] = &["and", "but", "or", "so", "then", "also", "plus"];

/// `rule`, a rule clause of `text`, with the words before it in its
/// sentence and line that are no other rule (everything after `floor`, the
/// end of the rule before it): "We are still on libfoo 2.3.1, do not
/// bump." rather than "do not bump.", so that what the rule is about stays
/// with it. A joining word or punctuation at the start is left out, and a
/// lead-in longer than [`MAX_LEAD_IN`] bytes is not taken.
pub(crate) fn in_context(text: &str, rule: Span, floor: usize) -> Span {
    let Some(before) = text.get(..rule.start) else {
        return rule;
    };
    let line = before.rfind('\n').map_or(0, |i| i + 1);
    let sentence = scan::sentences(text)
        .into_iter()
        .map(|s| s.span.start)
        .take_while(|&start| start <= rule.start)
        .last()
        .unwrap_or(0);
    let mut start = line.max(sentence).max(floor).min(rule.start);
    loop {
        let rest = text.get(start..rule.start).unwrap_or("");
        let trimmed = rest.trim_start_matches(|c: char| {
            c.is_whitespace()
                || matches!(
                    c,
                    ',' | ';' | ':' | '-' | '.' | ')' | '\u{2013}' | '\u{2014}'
                )
        });
        let mut next = start + (rest.len() - trimmed.len());
        let word = trimmed
            .split(|c: char| !c.is_alphanumeric())
            .next()
            .unwrap_or("");
        if !word.is_empty() && JOINERS.iter().any(|j| j.eq_ignore_ascii_case(word)) {
            next += word.len();
        }
        if next == start {
            break;
        }
        start = next;
    }
    if start >= rule.start || rule.start - start > MAX_LEAD_IN {
        return rule;
    }
    Span::new(start, rule.end)
}

/// Each place of `rules` in context ([`in_context`]), by place: the rules of
/// one message, taken in order, each with the words before it back to the
/// end of the one before.
pub(crate) fn places_in_context(
    transcript: &Transcript,
    rules: &[crate::rules::BookRule],
) -> BTreeMap<(usize, usize), Span> {
    let mut places: Vec<RulePlace> = rules
        .iter()
        .flat_map(|r| r.places.iter().copied())
        .collect();
    places.sort_by_key(|p| (p.message, p.span.start));
    let mut out = BTreeMap::new();
    let mut floor = (usize::MAX, 0);
    for p in places {
        let Some(m) = transcript.messages.get(p.message) else {
            continue;
        };
        let from = if floor.0 == p.message { floor.1 } else { 0 };
        out.insert((p.message, p.span.start), in_context(&m.text, p.span, from));
        floor = (p.message, p.span.end);
    }
    out
}

/// The rules of the first `upto` messages of `before` that `include`
/// keeps, read by [`crate::find_rules`], one per rule (a rule stated again,
/// quoted back or restated is one, with every place counted), in the order
/// they were first stated. A rule only the model ever states is its own
/// plan, not a rule; one only an earlier compaction summary restates is a
/// rule (the summary is all that carries it now).
impl BeforeReading<'_> {
    fn rules(&self, upto: usize) -> Vec<BeforeRule> {
        let before = self.transcript;
        let stated_by = |p: &RulePlace| {
            p.message < upto
                && (!p.quoted
                    || before
                        .messages
                        .get(p.message)
                        .is_some_and(|m| m.rule_source() == Some(Source::Summary)))
        };
        let context = &self.context;
        let book = &self.book;
        let mut rules: Vec<BeforeRule> = book
            .rules()
            .iter()
            .filter_map(|r| {
                let place = |p: RulePlace| Place {
                    message: p.message,
                    field: MessageField::Text,
                    span: context
                        .get(&(p.message, p.span.start))
                        .copied()
                        .unwrap_or(p.span),
                };
                let clause = *r.places.iter().find(|p| stated_by(p))?;
                let first = place(clause);
                let last = place(*r.places.iter().rev().find(|p| stated_by(p))?);
                let m = before.messages.get(first.message)?;
                Some(BeforeRule {
                    place: first,
                    last,
                    text: first.span.of(&m.text).to_string(),
                    role: m.role,
                    provenance: m.provenance,
                    form: r.form,
                    cue: r.cue,
                    kind: r.kind,
                    occurrences: r.places.iter().filter(|p| stated_by(p)).count(),
                })
            })
            .collect();
        rules.sort_by_key(|r| (r.place.message, r.place.span.start));
        withdraw(&mut rules);
        rules
    }
}

/// Takes out each carve-out its speaker withdrew: "the old table can go,
/// just drop it", then "my mistake, don't drop anything". A later rule of
/// the same role whose prohibition forbids what the carve-out allows
/// leaves nothing of it in force.
fn withdraw(rules: &mut Vec<BeforeRule>) {
    let read: Vec<Vec<(String, bool)>> = rules.iter().map(|r| stems(&r.text)).collect();
    let withdrawn: Vec<bool> = rules
        .iter()
        .zip(&read)
        .map(|(c, allowed)| {
            c.kind == Kind::CarveOut
                && rules.iter().zip(&read).any(|(p, said)| {
                    p.place.message > c.place.message
                        && p.role == c.role
                        && said.iter().any(|(stem, negated)| {
                            *negated && allowed.iter().any(|(a, _)| a == stem)
                        })
                })
        })
        .collect();
    let mut k = withdrawn.iter();
    rules.retain(|_| !k.next().copied().unwrap_or(false));
}

/// The stems of the content words of `text`, each with whether "not" or
/// "never" stands just before it (the scanner reads "don't" as "do not").
fn stems(text: &str) -> Vec<(String, bool)> {
    let tokens = scan::tokens(text, Span::new(0, text.len()));
    tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.entity.is_none() && !lexicon::is_stopword(&t.text.to_ascii_lowercase()))
        .map(|(i, t)| {
            let negated = i
                .checked_sub(1)
                .and_then(|j| tokens.get(j))
                .is_some_and(|p| {
                    ["not", "never"]
                        .iter()
                        .any(|n| p.text.eq_ignore_ascii_case(n))
                });
            (lexicon::stem(t.text), negated)
        })
        .collect()
}

fn note_id(
    ids: &mut BTreeMap<u64, IdMentions>,
    t: &Token<'_>,
    message: usize,
    field: MessageField,
    sentence: Place,
) {
    if !matches!(t.entity, Some(EntityKind::Identifier | EntityKind::Ticket))
        || !t.text.bytes().any(|b| b.is_ascii_digit())
    {
        return;
    }
    let entry = ids.entry(name_key(t.text)).or_insert_with(|| IdMentions {
        canonical: t.text.to_ascii_lowercase(),
        text: t.text.to_string(),
        first: Place {
            message,
            field,
            span: t.span,
        },
        sentences: Vec::new(),
    });
    if entry.sentences.len() < ID_SENTENCES && entry.sentences.last() != Some(&sentence) {
        entry.sentences.push(sentence);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::TranscriptFormat;

    #[test]
    fn a_faithful_summary_is_clean() {
        let before = "Never restart db-prod-01 without an approver.\nWe upgraded serde to 1.0.228 because 1.0.219 lacked a fix.";
        let after = "Rule: never restart db-prod-01 without an approver. serde is at 1.0.228 because 1.0.219 lacked a fix.";
        let a = audit_text(before, after);
        assert!(!a.drifted(), "{a:#?}");
        assert!(
            a.changed_ids.is_empty() && a.vanished_reasoning.is_empty(),
            "{a:#?}"
        );
        // Every rule the finder reads in it is carried (the rule, and what
        // it may take for one).
        assert!(a.counts.constraints >= 1);
        assert_eq!(a.counts.constraints_carried, a.counts.constraints);
    }

    #[test]
    fn a_swapped_ticket_is_unsupported_and_changed() {
        let before = "T-14: login timeout. T-7: CSV export.";
        let after = "Closed T-41 (login timeout).";
        let a = audit_text(before, after);
        assert_eq!(a.unsupported.len(), 1);
        assert_eq!(a.changed_ids.len(), 1);
        assert_eq!(a.changed_ids[0].change, IdChange::Changed);
        assert_eq!(a.changed_ids[0].before_text, "T-14");
        assert_eq!(a.changed_ids[0].after.of(after), "T-41");
    }

    #[test]
    fn a_merged_ticket_is_reported() {
        let before = "T-14 fixes the login timeout.\nT-41 adds the CSV export for finance.";
        let after = "T-14 fixes the login timeout and adds the CSV export for finance.";
        let a = audit_text(before, after);
        assert_eq!(a.changed_ids.len(), 1, "{a:#?}");
        assert_eq!(a.changed_ids[0].change, IdChange::Merged);
        assert_eq!(a.changed_ids[0].before_text, "T-41");
        let dropped = "T-14 fixes the login timeout.";
        assert!(audit_text(before, dropped).changed_ids.is_empty());
    }

    #[test]
    fn repeated_rules_are_reported_once() {
        let before = "Never force-push to main.\nOK.\nnever   force-push to MAIN.";
        let a = audit_text(before, "Worked on the parser.");
        assert_eq!(a.dropped_constraints.len(), 1);
        assert_eq!(a.dropped_constraints[0].occurrences, 2);
    }

    #[test]
    fn the_model_does_not_make_rules() {
        let t = Transcript::new(
            TranscriptFormat::ResponsesItems,
            alloc::vec![crate::transcript::Message::new(
                MessageRole::Assistant,
                "I must never forget the semicolon.",
                1
            )],
        );
        assert_eq!(audit(&t, "").counts.constraints, 0);
    }

    #[test]
    fn json_has_the_format_and_spans() {
        let a = audit_text("Do not touch src/main.rs.", "Edited src/lib.rs.");
        let json = a.to_json();
        assert!(json.contains("\"format\": \"compaction-drift/audit@1\""));
        assert!(json.contains("\"drifted\": true"));
        assert!(json.contains("\"start\": 7"));
    }
}
