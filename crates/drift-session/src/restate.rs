//! What a compaction lost, put back: the rules a summary weakened, dropped
//! or contradicts and the ids it swapped or merged, ordered by risk, and a
//! restatement of them, word for word and with where each came from, for a
//! harness to add to the context right after the compaction (what `drift
//! hook claude-code` prints as a Claude Code `SessionStart` hook).
//!
//! [`losses`] reads one audited compaction; [`session_losses`] every
//! compaction of a log, each rule once at its worst. Only what the harness
//! does not put back itself is listed: a rule it re-injects (a CLAUDE.md
//! re-read from disk, a skill, a hook's context) or keeps verbatim has fate
//! `reinjected` or `kept` and is never a loss. The kinds restated are
//! standing rules, carve-outs, corrections and scopes; an id the summary
//! swapped with another, or merged into another, is restated as the
//! sentence that first named it (or its line, when the sentence is a table
//! or runs over several lines).
//!
//! Order, highest risk first: contradicted rules, dropped, weakened, then
//! re-attributed ids; within each, in the order the log states them.
//!
//! [`restate`] writes them as text under a token budget (characters / 4):
//! a header, then each loss as a line saying what happened to it, who
//! stated it, where (the log's line) and when (the record's timestamp),
//! and the verbatim text on a line of its own; what does not fit is
//! counted in a last line. The text states facts rather than orders, as
//! Claude Code's hook documentation advises, and uses none of the words
//! that make the audit read a sentence as a rule, so when the restatement
//! is itself in the log at the next compaction, only the restated rules
//! are read from it, as statements of the same rules.
//!
//! ```
//! use drift_session::{read_transcript, restate, audit::audit_latest_compaction, restate::losses};
//!
//! let log = concat!(
//!     r#"{"type":"user","message":{"role":"user","content":"Never restart payments-api without an approver."},"uuid":"a","timestamp":"2026-03-01T09:00:00Z"}"#, "\n",
//!     r#"{"type":"system","subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":160000},"uuid":"b"}"#, "\n",
//!     r#"{"type":"user","message":{"role":"user","content":"This session is being continued from a previous conversation that ran out of context. Summary: we are debugging payments-api latency."},"isCompactSummary":true,"uuid":"c"}"#, "\n",
//! );
//! let t = read_transcript(log).unwrap();
//! let audit = audit_latest_compaction(&t).unwrap();
//! let lost = losses(&t, &audit);
//! assert_eq!(lost.len(), 1);
//! let r = restate(&t, &audit, &lost, 1_500).unwrap();
//! assert!(r.text.contains("\nNever restart payments-api without an approver.\n"));
//! assert!(r.text.contains("[dropped] the user, line 1, 2026-03-01T09:00:00Z:"));
//! assert_eq!((r.restated, r.left_out), (1, 0));
//! ```

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use drift_core::Kind;

use crate::audit::{
    CompactionAudit, Fate, IdChange, MAX_SENTENCE_BYTES, MessageField, SessionAudit, SessionRule,
    Weakening, normal,
};
use crate::entail::scan::{Span, sentences};
use crate::rules::Authority;
use crate::transcript::{MessageRole, Provenance, Transcript};

/// The default budget of a restatement, in tokens (characters / 4).
pub const DEFAULT_RESTATE_TOKENS: usize = 1_500;

/// The smallest budget [`restate`] honours: room for its one-line form.
pub const MIN_RESTATE_TOKENS: usize = 50;

/// The most characters a Claude Code `SessionStart` hook may add to the
/// context: [`restate`] never writes more, whatever the budget.
pub const MAX_CONTEXT_CHARS: usize = 10_000;

/// What happened to a lost rule or id.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LossKind {
    /// A rule the summary weakened, dropped or contradicts.
    Rule {
        /// Weakened, dropped or contradicted.
        fate: Fate,
        /// How it was weakened, when the audit can say.
        weakening: Option<Weakening>,
        /// Its kind, as the audit guessed it.
        kind: Kind,
    },
    /// A rule in force that the compaction's summary may have lost: the
    /// summary cannot be read (encrypted, or not in the log), and the
    /// harness neither kept its message verbatim nor puts it back.
    Unverified {
        /// Its kind, as the audit guessed it.
        kind: Kind,
        /// Why nobody can tell ("the summary is encrypted").
        why: String,
    },
    /// An id whose meaning the summary gave to another.
    Id {
        /// Swapped or merged.
        change: IdChange,
        /// The id the summary uses.
        after: String,
        /// The id the log described.
        before: String,
    },
}

/// A rule or id a compaction lost, to restate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Loss {
    /// What happened to it.
    pub what: LossKind,
    /// Who gave it: only the user's, a brief's, the system's and the
    /// instruction files' rules are restated as rules; a tool's policy
    /// only on request, and said to be a tool's.
    pub authority: Authority,
    /// Its text, verbatim: the rule's sentence, or the sentence that first
    /// described the id.
    pub text: String,
    /// The message that states it (an index into the transcript's messages).
    pub message: usize,
    /// That message's record (line, or item).
    pub record: usize,
}

impl Loss {
    /// Its place in the order of risk: contradicted 0, dropped 1, weakened
    /// 2, an id 3, a rule nobody can tell about 4.
    pub fn rank(&self) -> u8 {
        match self.what {
            LossKind::Rule {
                fate: Fate::Contradicted,
                ..
            } => 0,
            LossKind::Rule {
                fate: Fate::Dropped,
                ..
            } => 1,
            LossKind::Rule { .. } => 2,
            LossKind::Id { .. } => 3,
            LossKind::Unverified { .. } => 4,
        }
    }

    /// What happened to it, in a few words ("dropped", "weakened: a date or
    /// time changed or went", "ids swapped by the summary: T-14, T-41").
    pub fn what_happened(&self) -> String {
        match &self.what {
            LossKind::Rule {
                fate, weakening, ..
            } => match (fate, weakening) {
                (Fate::Weakened, Some(w)) => format!("weakened: {}", w.words()),
                (Fate::Contradicted, _) => "contradicted by the summary".to_string(),
                (fate, _) => fate.id().to_string(),
            },
            LossKind::Unverified { why, .. } => format!("unknown: {why}"),
            LossKind::Id {
                change: IdChange::Swapped,
                after,
                before,
            } => format!("ids swapped by the summary: {before}, {after}"),
            LossKind::Id { after, before, .. } => {
                format!("{before} merged into {after} by the summary")
            }
        }
    }
}

/// Kinds a restatement carries.
fn restated_kind(kind: Kind) -> bool {
    kind.is_constraint() || matches!(kind, Kind::Scope | Kind::Binding)
}

/// The longest text restated for an id.
const MAX_ID_TEXT: usize = MAX_SENTENCE_BYTES / 2;

/// What to restate for an id written at byte `at` of `text`: its sentence
/// when that is one line a person reads as a statement (not code, not a
/// table), else the line it is on, else nothing.
fn id_text(text: &str, at: usize) -> Option<&str> {
    let sentence = sentences(text)
        .into_iter()
        .find(|s| s.span.start <= at && at < s.span.end.max(s.span.start + 1))
        .filter(|s| !s.code)
        .map(|s| s.span.of(text).trim())
        .filter(|s| !s.is_empty() && !s.contains('\n') && s.len() <= MAX_ID_TEXT);
    sentence.or_else(|| {
        let start = text.get(..at)?.rfind('\n').map_or(0, |i| i + 1);
        let end = text.get(at..)?.find('\n').map_or(text.len(), |i| at + i);
        let line = text.get(start..end)?.trim();
        (!line.is_empty() && line.len() <= MAX_ID_TEXT).then_some(line)
    })
}

/// Sentences longer than this are restated as their rule's clause alone.
const MAX_RESTATED_SENTENCE: usize = 600;

/// The sentence (or sentences) of `text` that `span` is in, on its line,
/// with the reason that may follow the rule ("Never drain billing-pool-1:
/// it runs the settlement cron."); `None` when that is longer than
/// [`MAX_RESTATED_SENTENCE`].
fn sentence_of(text: &str, span: Span) -> Option<&str> {
    let all = sentences(text);
    let start = all
        .iter()
        .filter(|s| s.span.start <= span.start)
        .map(|s| s.span.start)
        .next_back()
        .unwrap_or(span.start)
        .min(span.start);
    let end = all
        .iter()
        .find(|s| s.span.end >= span.end)
        .map_or(span.end, |s| s.span.end)
        .max(span.end);
    let line_start = text.get(..span.start)?.rfind('\n').map_or(0, |i| i + 1);
    let line_end = text
        .get(span.end..)?
        .find('\n')
        .map_or(text.len(), |i| span.end + i);
    let (start, end) = (start.max(line_start), end.min(line_end));
    let sentence = text.get(start..end)?.trim();
    (sentence.len() <= MAX_RESTATED_SENTENCE && !sentence.is_empty()).then_some(sentence)
}

/// What `compaction` lost that the harness does not put back, highest risk
/// first (see the module docs), each text once: the rules of the user,
/// a brief, the system and the instruction files, and ids the user named
/// that the summary swapped or merged. Never a tool's output: see
/// [`losses_with`] to add the policies a tool announced.
pub fn losses(transcript: &Transcript, compaction: &CompactionAudit) -> Vec<Loss> {
    losses_with(transcript, compaction, false)
}

/// [`losses`], and with `tool_policy` also the policies a tool's output
/// announced (a freeze, a lock), each marked as a tool's.
pub fn losses_with(
    transcript: &Transcript,
    compaction: &CompactionAudit,
    tool_policy: bool,
) -> Vec<Loss> {
    let mut out = Vec::new();
    for r in &compaction.rules {
        let asked = r.authority.trusted() || tool_policy;
        // Possibly a rule is never restated: a hook speaks with the
        // rules' authority.
        if !r.rule.fate.is_loss() || !restated_kind(r.rule.kind) || !asked || !r.sure {
            continue;
        }
        let what = LossKind::Rule {
            fate: r.rule.fate,
            weakening: r.rule.evidence.and_then(|e| e.weakening),
            kind: r.rule.kind,
        };
        out.push(rule_loss(transcript, r, what));
    }
    for r in &compaction.unjudged {
        let asked = r.authority.trusted() || tool_policy;
        if !restated_kind(r.rule.kind) || !asked || !r.sure {
            continue;
        }
        let what = LossKind::Unverified {
            kind: r.rule.kind,
            why: compaction
                .unreadable
                .clone()
                .unwrap_or_else(|| "its summary cannot be read".to_string()),
        };
        out.push(rule_loss(transcript, r, what));
    }
    for c in &compaction.changed_ids {
        if !matches!(c.change, IdChange::Swapped | IdChange::Merged) {
            continue;
        }
        let Some(m) = transcript.messages.get(c.before.message) else {
            continue;
        };
        let field = match c.before.field {
            MessageField::Text => m.text.as_str(),
            MessageField::Arguments => m.tool_arguments.as_deref().unwrap_or(""),
        };
        let text = id_text(field, c.before.span.start)
            .unwrap_or_else(|| c.before.span.of(field))
            .to_string();
        if text.trim().is_empty() {
            continue;
        }
        out.push(Loss {
            what: LossKind::Id {
                change: c.change,
                after: c.after_text.clone(),
                before: c.before_text.clone(),
            },
            authority: Authority::User,
            text,
            message: c.before.message,
            record: m.record,
        });
    }
    order(out)
}

/// Rule `r` of a compaction's audit as a loss of kind `what`: its
/// sentence as the log states it, who gave it and where.
fn rule_loss(transcript: &Transcript, r: &SessionRule, what: LossKind) -> Loss {
    Loss {
        what,
        authority: r.authority,
        text: transcript
            .messages
            .get(r.rule.before.message)
            .and_then(|m| sentence_of(&m.text, r.rule.before.span))
            .unwrap_or(&r.rule.text)
            .to_string(),
        message: r.rule.before.message,
        record: r.record,
    }
}

/// Sorts by risk, then by place, and keeps each text once (its riskiest).
fn order(mut all: Vec<Loss>) -> Vec<Loss> {
    all.sort_by_key(|l| (l.rank(), l.message));
    let mut seen: BTreeMap<String, ()> = BTreeMap::new();
    all.retain(|l| seen.insert(normal(&l.text), ()).is_none());
    all
}

/// What every compaction of a session lost (see [`losses`]): each text
/// once, at the worst that happened to it, highest risk first.
pub fn session_losses(transcript: &Transcript, audit: &SessionAudit) -> Vec<Loss> {
    session_losses_with(transcript, audit, false)
}

/// [`session_losses`], with the policies tools announced when
/// `tool_policy` (see [`losses_with`]).
pub fn session_losses_with(
    transcript: &Transcript,
    audit: &SessionAudit,
    tool_policy: bool,
) -> Vec<Loss> {
    order(
        audit
            .compactions
            .iter()
            .flat_map(|c| losses_with(transcript, c, tool_policy))
            .collect(),
    )
}

/// Who stated the text of message `index`, for a person: "the user", "a
/// tool result (Bash)", "a hook", "the system prompt", with ", in subagent
/// X" for a subagent's message.
pub fn speaker(transcript: &Transcript, index: usize) -> String {
    let Some(m) = transcript.messages.get(index) else {
        return "the log".to_string();
    };
    let who = match (m.provenance, m.role) {
        (Provenance::Queued, _) => "the user (typed while the agent worked)".to_string(),
        (Provenance::Answer, _) => "the user (answering the agent's questions)".to_string(),
        (Provenance::Rejection, _) => "the user (rejecting a tool call)".to_string(),
        (Provenance::ProjectFile, _) => "a project instruction file".to_string(),
        (Provenance::Hook, _) => "a hook".to_string(),
        (Provenance::Skill, _) => "a skill".to_string(),
        (Provenance::Brief, _) => "the main agent's brief to a subagent".to_string(),
        (Provenance::Harness, _) => "the harness".to_string(),
        (Provenance::UserShell, _) => "a shell command the user ran".to_string(),
        (Provenance::Said, MessageRole::User) => "the user".to_string(),
        (Provenance::Said, MessageRole::System) => "the system prompt".to_string(),
        (Provenance::Said, MessageRole::Developer) => "the developer instructions".to_string(),
        (Provenance::Said, MessageRole::Tool) => match m.tool_name.as_deref() {
            Some(name) => format!("a tool result ({name})"),
            None => "a tool result".to_string(),
        },
        (Provenance::Said, MessageRole::Summary) => "an earlier summary".to_string(),
        (Provenance::Said, MessageRole::Assistant | MessageRole::Reasoning) => {
            "the agent".to_string()
        }
        (Provenance::Said, MessageRole::Unknown) => "the text".to_string(),
    };
    match &m.agent {
        Some(agent) => format!("{who}, in subagent {agent}"),
        None => who,
    }
}

/// When message `index` was written, as a suffix to its place: `", "` and
/// the log's timestamp ("line 12, 2026-03-27T09:12:23.881Z"); empty when the
/// log does not say.
pub fn when(transcript: &Transcript, index: usize) -> String {
    transcript
        .messages
        .get(index)
        .and_then(|m| m.timestamp.as_deref())
        .map_or(String::new(), |t| format!(", {t}"))
}

/// Where message `index` is in the log: "line 12", "item 4", "subagent
/// log agent-a1 line 3".
pub fn place(transcript: &Transcript, index: usize) -> String {
    let Some(m) = transcript.messages.get(index) else {
        return String::new();
    };
    let record = transcript.format.record_name();
    match m
        .file
        .checked_sub(1)
        .and_then(|i| transcript.agent_logs.get(i))
    {
        Some(log) => format!("subagent log {log} {record} {}", m.record),
        None => format!("{record} {}", m.record),
    }
}

/// A restatement of what a compaction lost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Restatement {
    /// The text, for the harness to add to the context.
    pub text: String,
    /// How many losses it restates.
    pub restated: usize,
    /// How many did not fit the budget.
    pub left_out: usize,
}

/// Tokens in `text`, estimated as characters / 4, rounded up.
fn tokens(text: &str) -> usize {
    text.chars().count().div_ceil(4)
}

fn plural(n: usize, one: &str, many: &str) -> String {
    if n == 1 {
        format!("1 {one}")
    } else {
        format!("{n} {many}")
    }
}

/// `lost` (from [`losses`] of `compaction`) as text for the harness to add
/// to the context, within `max_tokens` (characters / 4; at least
/// [`MIN_RESTATE_TOKENS`]): a header, as many losses as fit in order, and a
/// line counting the rest. `None` when there is nothing to restate.
pub fn restate(
    transcript: &Transcript,
    compaction: &CompactionAudit,
    lost: &[Loss],
    max_tokens: usize,
) -> Option<Restatement> {
    if lost.is_empty() {
        return None;
    }
    // Tokens are characters / 4, rounded up: this many keep the text
    // within the hook's character limit.
    let budget = max_tokens.clamp(MIN_RESTATE_TOKENS, MAX_CONTEXT_CHARS / 4);
    let record = transcript.format.record_name();
    let count = |f: fn(&LossKind) -> bool| lost.iter().filter(|l| f(&l.what)).count();
    let rules = count(|w| matches!(w, LossKind::Rule { .. }));
    let unknown = count(|w| matches!(w, LossKind::Unverified { .. }));
    let ids = lost.len() - rules - unknown;
    let what = match (rules, ids) {
        (0, 0) => String::new(),
        (r, 0) => plural(r, "rule", "rules"),
        (0, i) => format!("what {} referred to", plural(i, "id", "ids")),
        (r, i) => format!(
            "{} and what {} referred to",
            plural(r, "rule", "rules"),
            plural(i, "id", "ids")
        ),
    };
    let why = lost.iter().find_map(|l| match &l.what {
        LossKind::Unverified { why, .. } => Some(why.as_str()),
        _ => None,
    });
    let told = match (what.is_empty(), why) {
        (false, None) => format!("its summary lost {what} stated earlier"),
        (true, Some(why)) => format!(
            "nobody can read what its summary kept ({why}), so it may have lost the {} stated earlier",
            plural(unknown, "rule", "rules")
        ),
        (_, why) => format!(
            "its summary lost {what} stated earlier, and may have lost {} more ({})",
            plural(unknown, "rule", "rules"),
            why.unwrap_or("its summary cannot be read")
        ),
    };
    let header = format!(
        "Compaction Drift, after the compaction at {record} {} of this session's log: \
         {told}, which the harness does not put back. Each is restated word for word \
         below, after what happened to it, who stated it, where and when.\n",
        compaction.record
    );
    let left_out_line = |n: usize, restated: usize| {
        let more = if restated > 0 { " more" } else { "" };
        format!(
            "\n{n}{more} left out to stay within {budget} tokens; `drift audit` on this session's log lists every one.\n"
        )
    };
    let blocks: Vec<String> = lost
        .iter()
        .map(|l| {
            let when = when(transcript, l.message);
            let data = if l.authority.trusted() {
                ""
            } else {
                " (what a tool printed, kept as a record of it, not an instruction)"
            };
            format!(
                "\n[{}] {}, {}{when}{data}:\n{}\n",
                l.what_happened(),
                speaker(transcript, l.message),
                place(transcript, l.message),
                l.text.trim()
            )
        })
        .collect();
    let mut used = tokens(&header);
    let mut fit = 0;
    for (i, block) in blocks.iter().enumerate() {
        let rest = lost.len() - i - 1;
        let footer = if rest > 0 {
            tokens(&left_out_line(rest, 1))
        } else {
            0
        };
        let cost = tokens(block);
        if used + cost + footer > budget {
            break;
        }
        used += cost;
        fit = i + 1;
    }
    if fit == 0 && used + tokens(&left_out_line(lost.len(), 0)) > budget {
        // Not even the header fits: one line.
        let lost_what = if unknown == 0 {
            format!("lost {what}")
        } else {
            format!(
                "may have lost {}",
                plural(lost.len(), "rule or id", "rules or ids")
            )
        };
        let text = format!(
            "Compaction Drift: the compaction at {record} {} {lost_what} stated before it; `drift audit` on this session's log lists them.\n",
            compaction.record
        );
        return Some(Restatement {
            text,
            restated: 0,
            left_out: lost.len(),
        });
    }
    let mut text = header;
    for block in &blocks[..fit] {
        text.push_str(block);
    }
    if fit < lost.len() {
        text.push_str(&left_out_line(lost.len() - fit, fit));
    }
    Some(Restatement {
        text,
        restated: fit,
        left_out: lost.len() - fit,
    })
}
