//! The compactions inside a session log, audited rule by rule.
//!
//! [`audit_session`] finds every compaction a log records (see
//! [`Transcript::compactions`]) and, for each, rebuilds what the compaction
//! replaced and what the new context holds:
//!
//! - **Replaced**: every message before it. Its rules are read as the audit
//!   reads them; a rule an earlier compaction already lost, and that nobody
//!   stated again since, is not in force any more and is not judged again.
//! - **The new context**: the summary, plus what the harness carries or puts
//!   back itself. Codex keeps the newest user messages verbatim (the
//!   compaction's `replacement_history`, or, in logs that lack it, the newest
//!   user messages up to 20,000 tokens, newest first, as `compact.rs` builds
//!   them) and re-sends AGENTS.md and the developer instructions. Claude Code
//!   re-reads CLAUDE.md (and the `.claude/rules/` files) from disk and
//!   re-injects the skills that ran: a rule from such a file is
//!   **re-injected**, and its fate depends on the file as it is on disk, which
//!   the log does not hold ([`SessionRule::from_file`] names it). A hook's
//!   context is re-injected when the log shows it again after the compaction.
//!   A Responses request re-sends its `instructions`; a Responses compaction
//!   keeps the user messages verbatim and encrypts the rest.
//! - Then every rule of the replaced context gets its fate: **re-injected**
//!   or **kept** verbatim by the harness as above, else what the summary did
//!   to it ([`Fate`]): kept, weakened, dropped or contradicted, with the
//!   evidence in both texts.
//!
//! The summary is also read for rules nobody gave (invented), identifiers
//! re-attributed (swapped or merged) and details the log does not support.
//! An encrypted compaction says it happened, and judges only what the
//! harness keeps in the clear.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::{
    ChangedId, Evidence, Fate, InventedRule, Reading, RuleFate, Unsupported, audit_reading,
};
use crate::entail::scan::Span;
use crate::transcript::{
    Compaction, CompactionTrigger, Message, MessageRole, Provenance, Transcript, TranscriptFormat,
};
use drift_core::Kind;

/// The `format` of a session audit's JSON.
pub const SESSION_AUDIT_FORMAT: &str = "compaction-drift/session-audit@1";

/// How many tokens of recent user messages Codex keeps verbatim
/// (`COMPACT_USER_MESSAGE_MAX_TOKENS` in openai/codex `compact.rs`).
pub const CODEX_USER_MESSAGE_TOKENS: usize = 20_000;

/// Where the evidence of a fate is in the new context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterPart {
    /// In the summary (spans into the summary's text).
    Summary,
    /// In a message the harness kept verbatim (spans into it; its index in
    /// [`Compaction::kept`], or in the transcript when the log does not
    /// record what was kept).
    Kept,
    /// In a text the harness puts back itself.
    Reinjected,
}

/// A rule stated before a compaction and what the compaction did to it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionRule {
    /// The rule as the audit read it (its place, text, who said it, its
    /// kind) and its fate with the evidence in the summary.
    #[serde(flatten)]
    pub rule: RuleFate,
    /// The record (line or item) of its first statement.
    pub record: usize,
    /// Where its evidence is.
    pub after_part: Option<AfterPart>,
    /// For a rule the harness re-reads from a file the log does not hold
    /// (a `CLAUDE.md` on disk): the file's path.
    pub from_file: Option<String>,
}

/// One compaction of a session, audited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompactionAudit {
    /// The record (line or item) of its marker.
    pub record: usize,
    /// How it was set off, when the log says.
    pub trigger: Option<CompactionTrigger>,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// Whether its summary can be read (a remote or Responses compaction is
    /// encrypted).
    pub readable: bool,
    /// The message index of its summary, when it has one.
    pub summary: Option<usize>,
    /// Every rule in force before it, with its fate.
    pub rules: Vec<SessionRule>,
    /// Rules in force that an encrypted compaction leaves unknowable.
    pub unjudged: Vec<SessionRule>,
    /// Rules the summary states that nobody gave.
    pub invented: Vec<InventedRule>,
    /// Identifiers the summary changed, swapped or merged.
    pub changed_ids: Vec<ChangedId>,
    /// Details of the summary the log does not support.
    pub unsupported: Vec<Unsupported>,
}

impl CompactionAudit {
    /// The text of its summary in `transcript` (empty when it has none):
    /// what the evidence spans in the summary, and those of `invented`,
    /// `changed_ids` and `unsupported`, point into. (The audit reads it with
    /// the harness's own sentences blanked out, offsets unchanged.)
    pub fn summary_text<'t>(&self, transcript: &'t Transcript) -> &'t str {
        self.summary
            .and_then(|s| transcript.messages.get(s))
            .map_or("", |m| m.text.as_str())
    }

    /// Whether it weakened, dropped or contradicts a rule, invented one or
    /// re-bound an id.
    pub fn broke_rules(&self) -> bool {
        self.rules.iter().any(|r| r.rule.fate.is_loss())
            || !self.invented.is_empty()
            || self
                .changed_ids
                .iter()
                .any(|c| matches!(c.change, super::IdChange::Swapped | super::IdChange::Merged))
    }

    /// How many rules had `fate`.
    pub fn count(&self, fate: Fate) -> usize {
        self.rules.iter().filter(|r| r.rule.fate == fate).count()
    }
}

/// Every compaction of a session log, audited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionAudit {
    /// The log's format.
    pub format: TranscriptFormat,
    /// Its compactions, in order.
    pub compactions: Vec<CompactionAudit>,
}

impl SessionAudit {
    /// Whether any compaction broke a rule (see [`CompactionAudit::broke_rules`]).
    pub fn broke_rules(&self) -> bool {
        self.compactions.iter().any(CompactionAudit::broke_rules)
    }

    /// The audit as `compaction-drift/session-audit@1` JSON (pretty), naming
    /// the log `file`: `{"format", "source": {"file", "harness"},
    /// "compactions": [{"line", "trigger", "tokens_before", "readable",
    /// "rules": [{"text", "role", "line", "fate", "kind", "evidence", …}],
    /// "unjudged", "invented", "changed_ids", "unsupported"}]}`, where a
    /// `line` is the record (line, or item) in the log and spans are byte
    /// offsets into the text named.
    pub fn to_json(&self, transcript: &Transcript, file: &str) -> String {
        let wire = Wire {
            format: SESSION_AUDIT_FORMAT,
            source: Source {
                file,
                harness: transcript.format.harness(),
                log_format: transcript.format.id(),
            },
            broke_rules: self.broke_rules(),
            compactions: self
                .compactions
                .iter()
                .map(|c| WireCompaction::of(c, transcript))
                .collect(),
        };
        serde_json::to_string_pretty(&wire).unwrap_or_default()
    }
}

/// A file the harness re-reads from disk after a compaction, when `m` is a
/// read of it: Claude Code's CLAUDE.md and `.claude/rules/` files.
fn re_read_file(t: &Transcript, m: &Message) -> Option<String> {
    if t.format != TranscriptFormat::ClaudeCodeSession
        || m.role != MessageRole::Tool
        || m.tool_name.as_deref() != Some("Read")
    {
        return None;
    }
    let call = m.call_id.as_deref().and_then(|id| {
        t.messages
            .iter()
            .find(|c| c.is_call() && c.call_id.as_deref() == Some(id))
    })?;
    let args: serde_json::Value = serde_json::from_str(call.tool_arguments.as_deref()?).ok()?;
    let path = args
        .get("file_path")
        .or_else(|| args.get("path"))?
        .as_str()?;
    (path.ends_with("CLAUDE.md") || path.contains(".claude/rules/")).then(|| path.to_string())
}

/// Whether the harness puts a rule from `m` back after every compaction.
fn re_injected(t: &Transcript, m: &Message) -> bool {
    match t.format {
        // AGENTS.md and the developer instructions go back into the initial
        // context.
        TranscriptFormat::CodexSession => {
            m.provenance == Provenance::ProjectFile
                || (matches!(m.role, MessageRole::Developer | MessageRole::System)
                    && m.provenance == Provenance::Said)
        }
        // Skills that ran are re-injected.
        TranscriptFormat::ClaudeCodeSession => m.provenance == Provenance::Skill,
        // Instructions are sent again with every request.
        TranscriptFormat::ResponsesItems => m.record == 0 && m.role == MessageRole::System,
        TranscriptFormat::PlainText => false,
    }
}

/// The user messages Codex keeps verbatim when the log does not record
/// them: the newest first while 20,000 tokens (characters / 4) last.
fn codex_kept(t: &Transcript, at: usize) -> BTreeSet<usize> {
    let mut kept = BTreeSet::new();
    let mut budget = CODEX_USER_MESSAGE_TOKENS;
    for (i, m) in t.messages.iter().enumerate().take(at).rev() {
        if m.role != MessageRole::User || m.provenance != Provenance::Said {
            continue;
        }
        let tokens = m.text.chars().count().div_ceil(4);
        if tokens > budget {
            break;
        }
        budget -= tokens;
        kept.insert(i);
    }
    kept
}

/// What a harness writes around a summary, by its opening words: the
/// continuation preamble, the pointer to the full transcript, the closing
/// request to carry on (Claude Code), the handoff prefix (Codex).
const HARNESS_SENTENCES: &[&str] = &[
    "This session is being continued from a previous conversation",
    "The conversation is summarized below",
    "The summary below covers the earlier portion",
    "If you need specific details from before compaction",
    "Please continue the conversation from where we left it off",
    "Continue with the last task that you were asked to work on",
    "Another language model started to solve this problem",
    "You were originally given instructions from a user",
];

/// A summary with the harness's own sentences blanked out (spaces of the
/// same length, so spans into it are spans into the summary).
fn without_harness_text(summary: &str) -> String {
    let mut out = String::from(summary);
    for sentence in crate::entail::scan::sentences(summary) {
        let text = sentence.span.of(summary).trim_start();
        if HARNESS_SENTENCES.iter().any(|h| text.starts_with(h)) {
            let blank: String = summary
                .get(sentence.span.start..sentence.span.end)
                .unwrap_or("")
                .chars()
                .map(|c| {
                    if c == '\n' {
                        String::from(c)
                    } else {
                        " ".repeat(c.len_utf8())
                    }
                })
                .collect();
            out.replace_range(sentence.span.start..sentence.span.end, &blank);
        }
    }
    out
}

/// Audits every compaction of `transcript` (see the module docs).
pub fn audit_session(transcript: &Transcript) -> SessionAudit {
    let mut compactions: Vec<CompactionAudit> = Vec::new();
    // Rules lost at a compaction, by text, with the message they were lost at.
    let mut lost: Vec<(String, usize)> = Vec::new();
    // What came before every compaction, read once.
    let upto = transcript
        .compactions
        .iter()
        .map(|c| c.at)
        .max()
        .unwrap_or(0);
    let reading = Reading::read(transcript, upto, &main_context);
    for c in &transcript.compactions {
        let audit = compaction(&reading, c, &lost);
        for r in &audit.rules {
            if r.rule.fate.is_loss() && r.rule.fate != Fate::Weakened {
                lost.push((r.rule.text.clone(), c.at));
            }
        }
        compactions.push(audit);
    }
    SessionAudit {
        format: transcript.format,
        compactions,
    }
}

/// Audits the last compaction of `transcript` alone, as a harness hook that
/// runs right after it needs: every rule stated before it is judged against
/// the new context, including a rule an earlier compaction already lost
/// and nobody stated again (which [`audit_session`] does not judge twice):
/// it is still missing, so it counts as dropped here. One pass over the log,
/// however many compactions it records. `None` when the log records none.
pub fn audit_latest_compaction(transcript: &Transcript) -> Option<CompactionAudit> {
    let c = transcript.compactions.last()?;
    let reading = Reading::read(transcript, c.at, &main_context);
    Some(compaction(&reading, c, &[]))
}

/// The subagents' messages were never in the main context.
fn main_context(m: &Message) -> bool {
    m.agent.is_none()
}

fn compaction(reading: &Reading<'_>, c: &Compaction, lost: &[(String, usize)]) -> CompactionAudit {
    let t = reading.transcript;
    let summary_text = c
        .summary
        .and_then(|s| t.messages.get(s))
        .map_or(String::new(), |m| without_harness_text(&m.text));
    let audit = audit_reading(reading, c.at, &summary_text);
    // What the harness keeps verbatim: recorded, or rebuilt for Codex.
    let kept_texts: Vec<&str> = c.kept.iter().map(|m| m.text.as_str()).collect();
    let rebuilt = if t.format == TranscriptFormat::CodexSession && c.kept.is_empty() && !c.encrypted
    {
        codex_kept(t, c.at)
    } else {
        BTreeSet::new()
    };
    let keeps_users = c.encrypted && t.format == TranscriptFormat::ResponsesItems;
    // Texts the log shows the harness putting back after the compaction.
    let after: Vec<&Message> = t
        .messages
        .iter()
        .skip(c.at)
        .filter(|m| matches!(m.provenance, Provenance::Hook | Provenance::ProjectFile))
        .collect();

    let mut rules = Vec::new();
    let mut unjudged = Vec::new();
    for r in audit.rules {
        let Some(m) = t.messages.get(r.before.message) else {
            continue;
        };
        // Lost earlier and not stated again since.
        if lost
            .iter()
            .any(|(text, at)| *text == r.text && r.last.message < *at)
        {
            continue;
        }
        let record = m.record;
        let from_file = re_read_file(t, m);
        let mut rule = SessionRule {
            rule: r,
            record,
            after_part: None,
            from_file,
        };
        let text = rule.rule.text.as_str();
        let reinjected_in_log = after
            .iter()
            .any(|a| a.text.contains(text.trim_end_matches('.')));
        if rule.from_file.is_some() || re_injected(t, m) || reinjected_in_log {
            rule.rule.fate = Fate::Reinjected;
            rule.after_part = Some(AfterPart::Reinjected);
            rule.rule.evidence = None;
            rules.push(rule);
            continue;
        }
        let kept_at = kept_texts
            .iter()
            .position(|k| k.contains(text.trim_end_matches('.')));
        let kept_verbatim = kept_at.is_some()
            || rebuilt.contains(&rule.rule.before.message)
            || (keeps_users && m.role == MessageRole::User && m.provenance == Provenance::Said);
        if kept_verbatim {
            rule.rule.fate = Fate::Kept;
            rule.after_part = Some(AfterPart::Kept);
            rule.rule.evidence = kept_at.and_then(|k| {
                let start = kept_texts.get(k)?.find(text.trim_end_matches('.'))?;
                Some(Evidence::at(Span::new(
                    start,
                    start + text.trim_end_matches('.').len(),
                )))
            });
            rules.push(rule);
            continue;
        }
        if c.encrypted || c.summary.is_none() {
            unjudged.push(rule);
            continue;
        }
        rule.after_part = rule.rule.evidence.map(|_| AfterPart::Summary);
        rules.push(rule);
    }
    let readable = c.summary.is_some();
    CompactionAudit {
        record: c.record,
        trigger: c.trigger,
        tokens_before: c.tokens_before,
        readable,
        summary: c.summary,
        rules,
        unjudged,
        invented: if readable { audit.invented } else { Vec::new() },
        changed_ids: if readable {
            audit.changed_ids
        } else {
            Vec::new()
        },
        unsupported: if readable {
            audit.unsupported
        } else {
            Vec::new()
        },
    }
}

/// Fates counted by kind, over compactions: what `drift audit --retention`
/// measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct FateCounts {
    /// Rules the summary judged.
    pub rules: usize,
    /// Kept by the summary.
    pub kept: usize,
    /// Weakened by it.
    pub weakened: usize,
    /// Dropped by it.
    pub dropped: usize,
    /// Contradicted by it.
    pub contradicted: usize,
}

impl FateCounts {
    /// The share of operative detail the summary kept: a kept rule counts
    /// 1, a weakened one ½.
    pub fn estimate(&self) -> Option<f64> {
        (self.rules > 0)
            .then(|| (self.kept as f64 + self.weakened as f64 / 2.0) / self.rules as f64)
    }

    /// The Wilson score interval of [`FateCounts::estimate`] at 95%.
    pub fn interval(&self) -> Option<(f64, f64)> {
        let p = self.estimate()?;
        let n = self.rules as f64;
        let z = 1.96f64;
        let z2 = z * z;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let spread = z * libm::sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / (1.0 + z2 / n);
        Some(((centre - spread).max(0.0), (centre + spread).min(1.0)))
    }
}

/// Retention measured from sessions: fates by kind, over every compaction
/// whose summary could be read, counting only the rules the summary itself
/// judged (not those the harness kept or put back).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MeasuredRetention {
    /// Logs read.
    pub logs: usize,
    /// Compactions read.
    pub compactions: usize,
    /// Compactions that could not be read (encrypted).
    pub unreadable: usize,
    /// Counts by kind, in [`Kind::ALL`] order.
    pub kinds: Vec<(Kind, FateCounts)>,
}

impl MeasuredRetention {
    /// Adds a session's compactions.
    pub fn add(&mut self, audit: &SessionAudit) {
        self.logs += 1;
        for c in &audit.compactions {
            if !c.readable {
                self.unreadable += 1;
                continue;
            }
            self.compactions += 1;
            for r in &c.rules {
                if r.after_part.is_some_and(|p| p != AfterPart::Summary) {
                    continue;
                }
                let counts = match self.kinds.iter_mut().find(|(k, _)| *k == r.rule.kind) {
                    Some((_, counts)) => counts,
                    None => {
                        self.kinds.push((r.rule.kind, FateCounts::default()));
                        self.kinds.sort_by_key(|(k, _)| *k as usize);
                        let at = self
                            .kinds
                            .iter()
                            .position(|(k, _)| *k == r.rule.kind)
                            .unwrap_or(0);
                        &mut self.kinds[at].1
                    }
                };
                counts.rules += 1;
                match r.rule.fate {
                    Fate::Kept | Fate::Reinjected => counts.kept += 1,
                    Fate::Weakened => counts.weakened += 1,
                    Fate::Dropped => counts.dropped += 1,
                    Fate::Contradicted => counts.contradicted += 1,
                }
            }
        }
    }

    /// The `retention` block of a scenario file: the estimate for every
    /// kind measured.
    pub fn retention(&self) -> Vec<(Kind, f64)> {
        self.kinds
            .iter()
            .filter_map(|(k, c)| c.estimate().map(|e| (*k, e)))
            .collect()
    }
}

#[derive(Serialize)]
struct Wire<'a> {
    format: &'static str,
    source: Source<'a>,
    broke_rules: bool,
    compactions: Vec<WireCompaction<'a>>,
}

#[derive(Serialize)]
struct Source<'a> {
    file: &'a str,
    harness: &'static str,
    log_format: &'static str,
}

#[derive(Serialize)]
struct WireCompaction<'a> {
    line: usize,
    trigger: Option<&'static str>,
    tokens_before: Option<u64>,
    readable: bool,
    counts: WireCounts,
    rules: Vec<WireRule<'a>>,
    unjudged: Vec<WireRule<'a>>,
    invented: &'a [InventedRule],
    changed_ids: Vec<WireChangedId<'a>>,
    unsupported: &'a [Unsupported],
}

#[derive(Serialize)]
struct WireCounts {
    kept: usize,
    reinjected: usize,
    weakened: usize,
    dropped: usize,
    contradicted: usize,
}

#[derive(Serialize)]
struct WireRule<'a> {
    text: &'a str,
    role: &'static str,
    line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    log: Option<&'a str>,
    fate: &'static str,
    kind: &'static str,
    provenance: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    weakening: Option<super::Weakening>,
    #[serde(skip_serializing_if = "Option::is_none")]
    from_file: Option<&'a str>,
    evidence: WireEvidence<'a>,
}

#[derive(Serialize)]
struct WireEvidence<'a> {
    before: WireSpan,
    after: Option<WireAfter<'a>>,
}

#[derive(Serialize)]
struct WireSpan {
    line: usize,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
struct WireAfter<'a> {
    #[serde(rename = "in")]
    part: AfterPart,
    start: usize,
    end: usize,
    text: &'a str,
}

#[derive(Serialize)]
struct WireChangedId<'a> {
    change: super::IdChange,
    after_text: &'a str,
    after: Span,
    before_text: &'a str,
    before: WireSpan,
}

impl<'a> WireCompaction<'a> {
    fn of(c: &'a CompactionAudit, t: &'a Transcript) -> WireCompaction<'a> {
        let summary = c.summary_text(t);
        let kept = t
            .compactions
            .iter()
            .find(|x| x.record == c.record)
            .map_or(&[][..], |x| x.kept.as_slice());
        let rule = |r: &'a SessionRule| {
            let message = t.messages.get(r.rule.before.message);
            let log = message
                .and_then(|m| m.file.checked_sub(1))
                .and_then(|i| t.agent_logs.get(i))
                .map(String::as_str);
            let after = match (r.after_part, r.rule.evidence) {
                (Some(AfterPart::Summary), Some(e)) => Some(WireAfter {
                    part: AfterPart::Summary,
                    start: e.span.start,
                    end: e.span.end,
                    text: e.span.of(summary),
                }),
                (Some(AfterPart::Kept), Some(e)) => kept
                    .iter()
                    .find_map(|k| {
                        let text = k.text.get(e.span.start..e.span.end)?;
                        r.rule.text.contains(text.trim()).then_some(text)
                    })
                    .map(|text| WireAfter {
                        part: AfterPart::Kept,
                        start: e.span.start,
                        end: e.span.end,
                        text,
                    }),
                _ => None,
            };
            WireRule {
                text: &r.rule.text,
                role: r.rule.role.id(),
                line: r.record,
                log,
                fate: r.rule.fate.id(),
                kind: r.rule.kind.id(),
                provenance: r.rule.provenance.id(),
                weakening: r.rule.evidence.and_then(|e| e.weakening),
                from_file: r.from_file.as_deref(),
                evidence: WireEvidence {
                    before: WireSpan {
                        line: r.record,
                        start: r.rule.before.span.start,
                        end: r.rule.before.span.end,
                    },
                    after,
                },
            }
        };
        WireCompaction {
            line: c.record,
            trigger: c.trigger.map(CompactionTrigger::id),
            tokens_before: c.tokens_before,
            readable: c.readable,
            counts: WireCounts {
                kept: c.count(Fate::Kept),
                reinjected: c.count(Fate::Reinjected),
                weakened: c.count(Fate::Weakened),
                dropped: c.count(Fate::Dropped),
                contradicted: c.count(Fate::Contradicted),
            },
            rules: c.rules.iter().map(rule).collect(),
            unjudged: c.unjudged.iter().map(rule).collect(),
            invented: &c.invented,
            changed_ids: c
                .changed_ids
                .iter()
                .map(|x| WireChangedId {
                    change: x.change,
                    after_text: &x.after_text,
                    after: x.after,
                    before_text: &x.before_text,
                    before: WireSpan {
                        line: t.messages.get(x.before.message).map_or(0, |m| m.record),
                        start: x.before.span.start,
                        end: x.before.span.end,
                    },
                })
                .collect(),
            unsupported: &c.unsupported,
        }
    }
}
