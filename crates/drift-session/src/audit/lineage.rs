//! A session's rules across all its compactions, and the claims its
//! summaries carry only from the summary before.
//!
//! [`lineage`] reads a [`SessionAudit`] across compactions:
//!
//! - **Per rule** of the user's, a brief's or the system's
//!   ([`RuleLineage`]): its fate at each compaction ([`Step`]), where it was
//!   stated in its speaker's own words (first and again), whether it was
//!   stated again after a compaction lost it, and its **compaction depth**:
//!   how many summaries deep the agent's copy of it is. Its own words (kept
//!   word for word, put back by the harness, or said again since) are depth
//!   0; each summary that carries it (kept, or weakened) adds one; a summary
//!   that drops or contradicts it leaves the agent no faithful copy (no
//!   depth) until it is said again. Instruction files and tool output are
//!   left out: the harness re-reads the first, and the second is data.
//! - **Per compaction** ([`Laundering`]): the summary's claims (its
//!   sentences with two content words or more) whose only support is the
//!   summary before it (headings are no claims). A claim is supported by a text when that text holds
//!   half of its content words (stems; pairs of characters in scripts
//!   written without spaces); the raw messages since the previous summary
//!   are what the summariser saw in their own words. A claim the previous
//!   summary supports and they do not was laundered through a summary. The
//!   share of laundered claims is set against the model's line
//!   ([`LAUNDERING_LINE`], the default `laundering_threshold`): above it the
//!   model calls the round's regime `fabricated_history`.
//!
//! Cost: one pass over the messages for the raw words (hashed, sorted,
//! searched), one over each summary's sentences, and one over each rule's
//! compactions.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::Fate;
use super::session::{AfterPart, SessionAudit};
use crate::entail::lexicon::{is_stopword, stem};
use crate::entail::scan::{Span, for_each_token, sentences};
use crate::rules::Authority;
use crate::rules::model::features::is_unspaced;
use crate::transcript::{CompactionKind, MessageRole, Transcript};
use drift_core::Kind;

/// The model's laundering line: the default `laundering_threshold` of a
/// scenario's `model` (docs/MODEL.md §3).
pub const LAUNDERING_LINE: f64 = 0.15;

/// A session's rules across its compactions.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lineage {
    /// Each compaction, in order.
    pub compactions: Vec<LineagePoint>,
    /// Each rule of the user's, a brief's or the system's, in the order
    /// first stated.
    pub rules: Vec<RuleLineage>,
}

/// A compaction, as a step of the lineage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LineagePoint {
    /// Its number, from 1.
    pub number: usize,
    /// The record (line or item) of its marker.
    pub line: usize,
    /// A summary, or tool results cleared.
    pub kind: CompactionKind,
    /// How many messages the user had typed before it.
    pub user_turn: usize,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// The context's size after it, when the log says.
    pub tokens_after: Option<u64>,
    /// What its summary carries only from the summary before.
    pub laundering: Laundering,
}

/// A summary's claims that only the summary before supports.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Laundering {
    /// Claims read (sentences with two content words or more).
    pub claims: usize,
    /// Those whose only support is the previous summary.
    pub laundered: Vec<LaunderedClaim>,
    /// `laundered / claims` (0 with no claims, or no summary before).
    pub share: f64,
    /// Whether the share is above [`LAUNDERING_LINE`].
    pub over_line: bool,
}

/// A laundered claim.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LaunderedClaim {
    /// As the summary writes it.
    pub text: String,
    /// Where, in the summary's text.
    pub span: Span,
}

/// One rule across the compactions of its session.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RuleLineage {
    /// Its index in the session's rules ([`SessionAudit::rules`]).
    pub rule: usize,
    /// Its words.
    pub text: String,
    /// Who gave it.
    pub authority: Authority,
    /// Where it came from, in words.
    pub source: String,
    /// Its kind.
    #[serde(serialize_with = "kind_id")]
    pub kind: Kind,
    /// The records (lines or items) where it was stated in its speaker's
    /// own words: first, then each time again.
    pub stated: Vec<usize>,
    /// One per compaction of the session.
    pub steps: Vec<Step>,
    /// How many summaries deep the agent's copy is after the last
    /// compaction (0: its own words; none: no faithful copy).
    pub depth: Option<usize>,
}

impl RuleLineage {
    /// The record where it was last stated in its speaker's own words.
    pub fn last_stated(&self) -> usize {
        self.stated.last().copied().unwrap_or(0)
    }

    /// The compactions (numbers) after a loss at which it had been stated
    /// again.
    pub fn restated_after_loss(&self) -> Vec<usize> {
        self.steps
            .iter()
            .filter(|s| s.restated)
            .map(|s| s.compaction)
            .collect()
    }
}

fn kind_id<S: serde::Serializer>(kind: &Kind, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(kind.id())
}

/// Where a rule stands at one compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StepState {
    /// Not stated yet.
    NotYet,
    /// Judged: see the fate.
    Judged,
    /// In force, but the compaction's summary cannot be read.
    Unjudged,
    /// The compaction cleared tool results and left it alone.
    Untouched,
    /// Withdrawn by its speaker before the compaction.
    Withdrawn,
}

/// A rule at one compaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct Step {
    /// The compaction's number.
    pub compaction: usize,
    /// Where the rule stands.
    pub state: StepState,
    /// Its fate, when judged.
    pub fate: Option<Fate>,
    /// Whether the harness kept its message word for word.
    pub verbatim: bool,
    /// Whether it was stated again, since the compaction before, after a
    /// compaction had lost it.
    pub restated: bool,
    /// Its compaction depth after this compaction.
    pub depth: Option<usize>,
}

/// The lineage of `audit`, an audit of `transcript` (see the module docs).
pub fn lineage(transcript: &Transcript, audit: &SessionAudit) -> Lineage {
    let compactions = points(transcript, audit);
    let mut rules = Vec::new();
    for (index, rule) in audit.rules.iter().enumerate() {
        if !matches!(
            rule.authority,
            Authority::User | Authority::Brief | Authority::System
        ) {
            continue;
        }
        let mut stated: Vec<usize> = core::iter::once(rule.message)
            .chain(rule.restated.iter().copied())
            .collect();
        stated.sort_unstable();
        stated.dedup();
        let mut steps = Vec::with_capacity(audit.compactions.len());
        let mut copy: Option<usize> = None;
        let mut lost = false;
        let mut seen = false;
        let mut previous_at = 0;
        for (i, (c, a)) in transcript
            .compactions
            .iter()
            .zip(&audit.compactions)
            .enumerate()
        {
            let said_since = stated.iter().any(|&m| previous_at <= m && m < c.at);
            previous_at = c.at;
            if said_since {
                seen = true;
            }
            let restated = said_since && lost;
            if said_since {
                copy = Some(0);
                lost = false;
            }
            let judged = a.rules.iter().find(|r| r.index == index);
            let unjudged = a.unjudged.iter().any(|r| r.index == index);
            let state = if !seen {
                StepState::NotYet
            } else if rule.withdrawn.is_some_and(|w| w < c.at) {
                StepState::Withdrawn
            } else if judged.is_some() {
                StepState::Judged
            } else if unjudged {
                StepState::Unjudged
            } else {
                StepState::Untouched
            };
            let verbatim = judged.is_some_and(|r| r.after_part == Some(AfterPart::Kept));
            let fate = judged.map(|r| r.rule.fate);
            match (state, fate) {
                (StepState::Judged, Some(Fate::Reinjected)) => copy = Some(0),
                (StepState::Judged, Some(Fate::Kept)) if verbatim => copy = Some(0),
                (StepState::Judged, Some(Fate::Kept | Fate::Weakened)) => {
                    copy = Some(copy.map_or(1, |d| d + 1));
                }
                (StepState::Judged, Some(Fate::Dropped | Fate::Contradicted)) => {
                    copy = None;
                    lost = true;
                }
                (StepState::Unjudged, _) => copy = copy.map(|d| d + 1),
                (StepState::Withdrawn, _) => copy = None,
                _ => {}
            }
            steps.push(Step {
                compaction: i + 1,
                state,
                fate,
                verbatim,
                restated,
                depth: copy,
            });
        }
        // Said again (or first) after the last compaction: its own words.
        if stated.iter().any(|&m| previous_at <= m) {
            copy = Some(0);
        }
        rules.push(RuleLineage {
            rule: index,
            text: rule.text.clone(),
            authority: rule.authority,
            source: rule.source.clone(),
            kind: rule.kind,
            stated: stated
                .iter()
                .filter_map(|&m| transcript.messages.get(m).map(|m| m.record))
                .collect(),
            steps,
            depth: copy,
        });
    }
    Lineage { compactions, rules }
}

/// Each compaction with its turn, sizes and laundering.
fn points(t: &Transcript, audit: &SessionAudit) -> Vec<LineagePoint> {
    let mut out = Vec::with_capacity(t.compactions.len());
    // The previous readable summary: its message and its compaction's place.
    let mut prior: Option<(usize, usize)> = None;
    for (i, (c, a)) in t.compactions.iter().zip(&audit.compactions).enumerate() {
        let user_turn = t
            .messages
            .iter()
            .take(c.at)
            .filter(|m| m.role == MessageRole::User && m.provenance.typed())
            .count();
        let laundering = match (c.kind, c.summary, prior) {
            (CompactionKind::Summary, Some(now), Some((before, since))) => {
                laundering(t, now, before, since, c.at)
            }
            (CompactionKind::Summary, Some(now), None) => Laundering {
                claims: claims(t.messages.get(now).map_or("", |m| m.text.as_str())).len(),
                laundered: Vec::new(),
                share: 0.0,
                over_line: false,
            },
            _ => Laundering {
                claims: 0,
                laundered: Vec::new(),
                share: 0.0,
                over_line: false,
            },
        };
        if let (CompactionKind::Summary, Some(s)) = (c.kind, c.summary) {
            prior = Some((s, c.at));
        }
        out.push(LineagePoint {
            number: i + 1,
            line: a.record,
            kind: c.kind,
            user_turn,
            tokens_before: c.tokens_before,
            tokens_after: c.tokens_after,
            laundering,
        });
    }
    out
}

/// The claims of a summary: its sentences with two content words or more
/// (not its headings), with their keys.
fn claims(summary: &str) -> Vec<(Span, Vec<u64>)> {
    sentences(summary)
        .into_iter()
        .filter_map(|s| {
            let text = s.span.of(summary).trim();
            // The harness's words, and headings ("1. Primary Request and
            // Intent:", "## Files"), claim nothing.
            if crate::transcript::profile::is_summary_frame(text)
                || text.ends_with(':')
                || text.starts_with('#')
            {
                return None;
            }
            let mut keys = Vec::new();
            keys_of(summary, s.span, |k| keys.push(k));
            keys.sort_unstable();
            keys.dedup();
            (keys.len() >= 2).then_some((s.span, keys))
        })
        .collect()
}

/// The laundering of the summary `now` against the summary `before`, whose
/// compaction was at message `since`, for a compaction at message `at`.
fn laundering(t: &Transcript, now: usize, before: usize, since: usize, at: usize) -> Laundering {
    let text = t.messages.get(now).map_or("", |m| m.text.as_str());
    let prior = t.messages.get(before).map_or("", |m| m.text.as_str());
    let summaries: Vec<usize> = t.compactions.iter().filter_map(|c| c.summary).collect();
    let mut raw: Vec<u64> = Vec::new();
    for (i, m) in t.messages.iter().enumerate().take(at).skip(since) {
        if summaries.contains(&i) {
            continue;
        }
        keys_of(&m.text, Span::new(0, m.text.len()), |k| raw.push(k));
        if let Some(a) = &m.tool_arguments {
            keys_of(a, Span::new(0, a.len()), |k| raw.push(k));
        }
    }
    raw.sort_unstable();
    raw.dedup();
    let mut prior_keys: Vec<u64> = Vec::new();
    keys_of(prior, Span::new(0, prior.len()), |k| prior_keys.push(k));
    prior_keys.sort_unstable();
    prior_keys.dedup();
    let holds = |set: &[u64], keys: &[u64]| {
        let got = keys.iter().filter(|k| set.binary_search(k).is_ok()).count();
        2 * got >= keys.len()
    };
    let all = claims(text);
    let laundered: Vec<LaunderedClaim> = all
        .iter()
        .filter(|(_, keys)| holds(&prior_keys, keys) && !holds(&raw, keys))
        .map(|(span, _)| LaunderedClaim {
            text: String::from(span.of(text).trim()),
            span: *span,
        })
        .collect();
    let share = if all.is_empty() {
        0.0
    } else {
        laundered.len() as f64 / all.len() as f64
    };
    Laundering {
        claims: all.len(),
        laundered,
        share,
        over_line: share > LAUNDERING_LINE,
    }
}

/// The content keys of `text` within `span`: the stem of each content word
/// of three letters or more, each named thing as written (lowercase), and
/// each pair of neighbouring characters of a script written without spaces,
/// hashed.
fn keys_of(text: &str, span: Span, mut f: impl FnMut(u64)) {
    for_each_token(text, span, |t| {
        if t.text.chars().any(is_unspaced) {
            let chars: Vec<char> = t.text.chars().filter(|c| is_unspaced(*c)).collect();
            for pair in chars.windows(2) {
                if let [a, b] = pair {
                    let mut buf = [0u8; 4];
                    let h = fnv(a.encode_utf8(&mut buf).as_bytes());
                    f(fnv_more(h, b.encode_utf8(&mut buf).as_bytes()));
                }
            }
            return;
        }
        let lower = t.text.to_lowercase();
        if t.entity.is_some() {
            f(fnv(lower.as_bytes()));
        } else if lower.chars().count() >= 3 && !is_stopword(&lower) {
            f(fnv(stem(&lower).as_bytes()));
        }
    });
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv(bytes: &[u8]) -> u64 {
    fnv_more(FNV_OFFSET, bytes)
}

fn fnv_more(mut h: u64, bytes: &[u8]) -> u64 {
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(FNV_PRIME);
    }
    h
}
