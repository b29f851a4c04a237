//! The compactions inside a session log, audited rule by rule.
//!
//! [`audit_session`] finds every compaction a log records (see
//! [`Transcript::compactions`]) and, for each, judges every rule in force
//! before it ([`crate::rules::InForce`]: the user's, a brief's, the system's,
//! the instruction files', and policies a tool announced) against what the
//! new context holds:
//!
//! - **Kept verbatim** when the harness kept the message it is in word for
//!   word: Codex's `replacement_history` (in a remote compaction, the only
//!   part of the new context that can be read), Claude Code's
//!   `preservedMessages`, the user messages a Responses compaction keeps.
//!   In Codex logs without a recorded history, the newest user messages up
//!   to 20,000 tokens, newest first, as `compact.rs` builds them.
//! - **Re-injected** when the harness puts it back itself: Codex's AGENTS.md
//!   and developer instructions, a Responses request's `instructions`,
//!   Claude Code's CLAUDE.md and `.claude/rules/` files (re-read from disk,
//!   which the log does not hold: [`SessionRule::from_file`] names the
//!   file), and any instruction file, skill or hook context the log shows
//!   the harness adding again after the compaction.
//! - Otherwise what the summary did to it, by the judge ([`FateJudge`]):
//!   kept, weakened, dropped or contradicted, with the summary's words for
//!   it and why. A summary the log holds encrypted, or not at all, leaves
//!   the rule **unjudged**, with the reason.
//!
//! A rule stays in force across compactions until its speaker withdraws
//! it: one a compaction dropped is judged again at the next, where it is
//! still missing unless the user said it again. A compaction that clears
//! tool results (Claude Code's microcompaction) writes no summary: it drops
//! the policies those results announced, and names the results.
//!
//! The summary is also read for rules nobody gave (invented): a sentence
//! that says the user asked for, wants or decided something with a rule's
//! force, or quotes the user, that no message of the user's (or the
//! brief's) supports, or that puts the harness's own compaction request
//! ("do not call any tools") in the user's mouth.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::{
    ChangedId, Evidence, Fate, InventedRule, Invention, MessageField, Place, RuleFate, Unsupported,
};
use crate::entail::scan::Span;
use crate::judge::{After, FateJudge};
use crate::rules::{Authority, InForce, RuleFinder, SessionFinder, StandingRule};
use crate::transcript::profile::{ReInjects, is_summary_frame};
use crate::transcript::{
    Compaction, CompactionKind, CompactionTrigger, Message, MessageRole, Provenance, Transcript,
    TranscriptFormat,
};
use drift_core::Kind;

mod invented;
mod retention;
mod wire;

use invented::*;
use wire::*;

/// The `format` of a session audit's JSON.
pub const SESSION_AUDIT_FORMAT: &str = "compaction-drift/session-audit@1";

/// How many tokens of recent user messages Codex keeps verbatim
/// (`COMPACT_USER_MESSAGE_MAX_TOKENS` in openai/codex `compact.rs`), as its
/// log profile says.
pub const CODEX_USER_MESSAGE_TOKENS: usize =
    match TranscriptFormat::CodexSession.profile().kept_user_tokens {
        Some(tokens) => tokens,
        None => 0,
    };

/// Where the evidence of a fate is in the new context.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AfterPart {
    /// In the summary (spans into the summary's text).
    Summary,
    /// In a message the harness kept verbatim.
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
    /// Who gave it.
    pub authority: Authority,
    /// Where it came from, in words ("chat", "the brief", a file's path,
    /// "tool Bash").
    pub source: String,
    /// Why it has its fate, in words ("the summary does not carry it", "3
    /// became 5").
    pub why: String,
    /// Its index in the session's rules ([`SessionAudit::rules`]).
    pub index: usize,
    /// How sure the finder is that it is a rule, in thousandths.
    pub confidence: u16,
    /// Sure enough to be reported as a rule; otherwise "possibly a rule".
    pub sure: bool,
}

impl SessionRule {
    /// Whether the report shows it among the rules lost up front: lost, a
    /// rule the finder is sure of, and not a tool's policy (those are a
    /// group of their own).
    pub fn lost_up_front(&self) -> bool {
        self.rule.fate.is_loss() && self.authority.trusted() && self.sure
    }

    /// Whether the report shows it folded, as possibly a rule that was
    /// lost: lost, trusted, and a rule the finder is not sure of.
    pub fn possibly_lost(&self) -> bool {
        self.rule.fate.is_loss() && self.authority.trusted() && !self.sure
    }
}

/// One compaction of a session, audited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompactionAudit {
    /// The record (line or item) of its marker.
    pub record: usize,
    /// A summary, or tool results cleared.
    pub kind: CompactionKind,
    /// How it was set off, when the log says.
    pub trigger: Option<CompactionTrigger>,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// The context's size after it, when the log says.
    pub tokens_after: Option<u64>,
    /// Whether its summary can be read.
    pub readable: bool,
    /// Why it cannot be, when it cannot ("encrypted", "the log holds no
    /// summary for it", "its summary is on damaged line 86").
    pub unreadable: Option<String>,
    /// The message index of its summary, when it has one.
    pub summary: Option<usize>,
    /// Every rule in force before it, with its fate.
    pub rules: Vec<SessionRule>,
    /// Rules in force that an unreadable compaction leaves unknowable.
    pub unjudged: Vec<SessionRule>,
    /// Rules the summary states that nobody gave.
    pub invented: Vec<InventedRule>,
    /// Identifiers the summary changed, swapped or merged (the text audit's;
    /// a rule's changed value is the judge's, a weakening).
    pub changed_ids: Vec<ChangedId>,
    /// Details of the summary the log does not support (the text audit's).
    pub unsupported: Vec<Unsupported>,
    /// For a compaction of tool results: the tool outputs it cleared
    /// (message indices).
    pub cleared: Vec<usize>,
}

impl CompactionAudit {
    /// The text of its summary in `transcript` (empty when it has none):
    /// what the evidence spans in the summary, and those of `invented`,
    /// point into. (The audit reads it with the harness's own sentences
    /// blanked out, offsets unchanged.)
    pub fn summary_text<'t>(&self, transcript: &'t Transcript) -> &'t str {
        self.summary
            .and_then(|s| transcript.messages.get(s))
            .map_or("", |m| m.text.as_str())
    }

    /// Whether it weakened, dropped or contradicts a rule shown up front, or
    /// invented one.
    pub fn broke_rules(&self) -> bool {
        self.rules.iter().any(SessionRule::lost_up_front) || !self.invented.is_empty()
    }

    /// How many rules had `fate`.
    pub fn count(&self, fate: Fate) -> usize {
        self.rules.iter().filter(|r| r.rule.fate == fate).count()
    }

    /// The rules lost up front, riskiest first: contradicted, dropped,
    /// weakened, each in the order stated.
    pub fn lost(&self) -> Vec<&SessionRule> {
        self.lost_indices()
            .into_iter()
            .filter_map(|i| self.rules.get(i))
            .collect()
    }

    /// [`CompactionAudit::lost`] as indices into `rules`.
    fn lost_indices(&self) -> Vec<usize> {
        let mut lost: Vec<usize> = (0..self.rules.len())
            .filter(|&i| self.rules[i].lost_up_front())
            .collect();
        lost.sort_by_key(|&i| {
            let r = &self.rules[i];
            (risk(r.rule.fate), r.rule.before.message)
        });
        lost
    }
}

fn risk(f: Fate) -> u8 {
    match f {
        Fate::Contradicted => 0,
        Fate::Dropped => 1,
        Fate::Weakened => 2,
        Fate::Reinjected => 3,
        Fate::Kept => 4,
    }
}

/// Every compaction of a session log, audited.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SessionAudit {
    /// The log's format.
    pub format: TranscriptFormat,
    /// Every rule of the session (what [`SessionRule::index`] points into).
    pub rules: Vec<StandingRule>,
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
    /// "compactions": [{"line", "kind", "trigger", "tokens_before",
    /// "tokens_after", "readable", "unreadable", "counts", "lost": [rule
    /// text…], "rules": [{"text", "role", "line", "fate", "kind",
    /// "authority", "source", "why", "evidence", …}], "unjudged",
    /// "invented", "changed_ids", "unsupported", "cleared", "report"}]}`,
    /// where a `line` is the record (line, or item) in the log and spans are
    /// byte offsets into the text named, and `report` is the compaction as
    /// [`super::report`] reads it: `{"number", "lost": [{"rule", "text",
    /// "fate", "authority", "source", "line", "summary", "why", "since",
    /// "fix"}], "files": [{"source", "skill", "rules", "lost", "fix"}],
    /// "carried", "reinjected": [{"source", "rules", "from_disk"}],
    /// "from_tools", "invented": [{"text", "why", "reason"}], "unjudged",
    /// "cleared", …}`; and `lineage` is [`super::lineage`]: `{"compactions":
    /// [{"number", "line", "kind", "user_turn", "tokens_before",
    /// "tokens_after", "laundering": {"claims", "laundered": [{"text",
    /// "span"}], "share", "over_line"}}], "rules": [{"rule", "text",
    /// "authority", "source", "kind", "stated": [line…], "steps":
    /// [{"compaction", "state", "fate", "verbatim", "restated", "depth"}],
    /// "depth"}], "actions_after_loss": [{"action", "call", "line", "rule",
    /// "rule_text", "fate", "compaction", "compaction_line", "governs"}]}`.
    pub fn to_json(&self, transcript: &Transcript, file: &str) -> String {
        let wire = Wire {
            format: SESSION_AUDIT_FORMAT,
            source: WireSource {
                file,
                harness: transcript.format.harness(),
                log_format: transcript.format.id(),
            },
            broke_rules: self.broke_rules(),
            damaged_lines: transcript.damaged.iter().map(|d| d.line).collect(),
            compactions: self
                .compactions
                .iter()
                .zip(super::report(transcript, self).compactions)
                .map(|(c, report)| {
                    let mut wire = WireCompaction::of(c, transcript);
                    wire.report = Some(report);
                    wire
                })
                .collect(),
            lineage: WireLineage {
                lineage: super::lineage(transcript, self),
                actions_after_loss: {
                    let imported = crate::import(transcript, &crate::ImportOptions::default());
                    crate::import::actions_after_loss(transcript, self, &imported)
                        .into_iter()
                        .map(|a| WireAfterLoss {
                            action: a.action,
                            call: a.call,
                            line: a.line,
                            rule: a.rule,
                            rule_text: a.rule_text,
                            fate: a.fate,
                            compaction: a.compaction,
                            compaction_line: a.compaction_line,
                            governs: a.governs,
                        })
                        .collect()
                },
            },
        };
        serde_json::to_string_pretty(&wire).unwrap_or_default()
    }
}

/// A summary with the harness's own sentences (its log profile's preamble
/// and the sentences around it) blanked out (spaces of the same length, so
/// spans into it are spans into the summary).
fn without_harness_text(summary: &str) -> String {
    let mut out = String::from(summary);
    for sentence in crate::entail::scan::sentences(summary) {
        let text = sentence.span.of(summary).trim_start();
        if is_summary_frame(text) {
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

/// The text of `c`'s summary the judge reads: the harness's own sentences
/// blanked (empty when the log holds none).
pub fn judged_summary(t: &Transcript, c: &Compaction) -> String {
    c.summary
        .and_then(|s| t.messages.get(s))
        .map_or(String::new(), |m| without_harness_text(&m.text))
}

/// Audits every compaction of `transcript` (see the module docs), with the
/// finder and the judge this crate ships.
pub fn audit_session(transcript: &Transcript) -> SessionAudit {
    audit_session_with(transcript, &SessionFinder, &FateJudge::shipped())
}

/// Audits every compaction of `transcript` with `finder` and `judge`.
pub fn audit_session_with(
    transcript: &Transcript,
    finder: &impl RuleFinder,
    judge: &FateJudge<'_>,
) -> SessionAudit {
    audit_with_rules(transcript, InForce::read(transcript, finder), judge)
}

/// [`audit_session_with`], with the transcript's rules in force already
/// read (see [`crate::Session`]).
pub(crate) fn audit_with_rules(
    transcript: &Transcript,
    in_force: InForce,
    judge: &FateJudge<'_>,
) -> SessionAudit {
    let compactions = transcript
        .compactions
        .iter()
        .map(|c| compaction(transcript, &in_force, c, judge))
        .collect();
    SessionAudit {
        format: transcript.format,
        rules: in_force.rules,
        compactions,
    }
}

/// Audits the last compaction of `transcript` alone, as a harness hook that
/// runs right after it needs: every rule in force before it, judged against
/// the new context. `None` when the log records no compaction with a
/// summary.
pub fn audit_latest_compaction(transcript: &Transcript) -> Option<CompactionAudit> {
    let c = transcript.summaries().last()?;
    let in_force = InForce::read(transcript, &SessionFinder);
    Some(compaction(transcript, &in_force, c, &FateJudge::shipped()))
}

/// Whether the harness puts `rule` back after its compactions by itself:
/// as [`re_injected`] says, or a skill the log shows re-attached after a
/// compaction. What an imported scenario calls externalised.
pub(crate) fn harness_restores(t: &Transcript, rule: &StandingRule) -> bool {
    let Some(m) = t.messages.get(rule.message) else {
        return false;
    };
    re_injected(t, rule, m)
        || (m.provenance == Provenance::Skill
            && m.path.is_some()
            && t.messages.iter().skip(rule.message + 1).any(|p| {
                p.provenance == Provenance::Skill
                    && p.path == m.path
                    && p.text.contains(rule.text.trim_end_matches('.'))
            }))
}

/// Whether the harness puts `rule` back after every compaction by itself,
/// as its log profile says.
fn re_injected(t: &Transcript, rule: &StandingRule, m: &Message) -> bool {
    let profile = t.format.profile();
    match profile.re_injects {
        ReInjects::Authorities(authorities) => authorities.contains(&rule.authority),
        // The skills that ran are put back only by the versions that log
        // doing so (an `invoked_skills` attachment): that is read from the
        // log.
        ReInjects::Files { .. } => {
            rule.authority == Authority::Instructions
                && m.provenance != Provenance::Skill
                && rule.file.as_deref().is_some_and(|f| profile.re_reads(f))
        }
        ReInjects::FirstSystem => m.record == 0 && m.role == MessageRole::System,
        ReInjects::Nothing => false,
    }
}

/// A path's last part.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}

/// The user messages a harness keeps verbatim when the log does not record
/// them: the newest first while `budget` tokens (characters / 4) last.
fn user_messages_kept(t: &Transcript, at: usize, mut budget: usize) -> Vec<usize> {
    let mut kept = Vec::new();
    for (i, m) in t.messages.iter().enumerate().take(at).rev() {
        if m.role != MessageRole::User || m.provenance != Provenance::Said {
            continue;
        }
        let tokens = m.text.chars().count().div_ceil(4);
        if tokens > budget {
            break;
        }
        budget -= tokens;
        kept.push(i);
    }
    kept
}

fn rule_fate(t: &Transcript, r: &StandingRule, at: usize) -> RuleFate {
    let m = t.messages.get(r.message);
    let last = r.last_before(at);
    let last_span = if last == r.message {
        r.span
    } else {
        t.messages
            .get(last)
            .and_then(|lm| {
                lm.text
                    .find(r.text.as_str())
                    .map(|s| Span::new(s, s + r.text.len()))
            })
            .unwrap_or(r.span)
    };
    RuleFate {
        before: Place {
            message: r.message,
            field: MessageField::Text,
            span: r.span,
        },
        text: r.text.clone(),
        role: m.map_or(MessageRole::Unknown, |m| m.role),
        provenance: m.map_or(Provenance::Said, |m| m.provenance),
        form: r.form,
        cue: r.cue,
        kind: r.kind,
        occurrences: 1 + r.restated.iter().filter(|&&i| i < at).count(),
        last: Place {
            message: last,
            field: MessageField::Text,
            span: last_span,
        },
        fate: Fate::Kept,
        evidence: None,
        sure: None,
    }
}

/// The part of a rule the judge looks for: for the user's answer to a
/// question, the answer (the question is only its context).
fn judged<'r>(t: &Transcript, r: &'r StandingRule) -> &'r str {
    let answered = t
        .messages
        .get(r.message)
        .is_some_and(|m| m.provenance == Provenance::Answer);
    match r.text.split_once(" → ") {
        Some((_, answer)) if answered => answer,
        _ => &r.text,
    }
}

/// Why a compaction's summary cannot be read.
fn unreadable(t: &Transcript, c: &Compaction) -> Option<String> {
    if c.summary.is_some() {
        return None;
    }
    if c.encrypted {
        return Some("the summary is encrypted".into());
    }
    if let Some(d) = t
        .damaged
        .iter()
        .find(|d| d.line > c.record && d.line <= c.record + 2)
    {
        return Some(alloc::format!("its summary is on damaged line {}", d.line));
    }
    Some("the log holds no summary for it".into())
}

fn compaction(
    t: &Transcript,
    in_force: &InForce,
    c: &Compaction,
    judge: &FateJudge<'_>,
) -> CompactionAudit {
    let mut audit = CompactionAudit {
        record: c.record,
        kind: c.kind,
        trigger: c.trigger,
        tokens_before: c.tokens_before,
        tokens_after: c.tokens_after,
        readable: c.summary.is_some(),
        unreadable: None,
        summary: c.summary,
        rules: Vec::new(),
        unjudged: Vec::new(),
        invented: Vec::new(),
        changed_ids: Vec::new(),
        unsupported: Vec::new(),
        cleared: c.cleared.clone(),
    };
    let session_rule = |index: usize, r: &StandingRule| SessionRule {
        rule: rule_fate(t, r, c.at),
        record: r.record,
        after_part: None,
        from_file: None,
        authority: r.authority,
        source: r.source.clone(),
        why: String::new(),
        index,
        confidence: r.confidence,
        sure: r.sure,
    };
    if c.kind == CompactionKind::ToolResults {
        // What the cleared results announced is gone; the rest stays.
        audit.readable = false;
        audit.unreadable = Some("it cleared tool results and wrote no summary".into());
        for (i, r) in in_force.at(c.at) {
            if c.cleared.contains(&r.message) {
                let mut rule = session_rule(i, r);
                rule.rule.fate = Fate::Dropped;
                rule.why = "its tool result was cleared".into();
                audit.rules.push(rule);
            }
        }
        return audit;
    }
    audit.unreadable = unreadable(t, c);
    let summary_text = judged_summary(t, c);
    let after = After::new(&summary_text);
    // What the harness keeps verbatim: recorded, or rebuilt (Codex).
    let mut preserved = c.preserved.clone();
    if let Some(budget) = t.format.profile().kept_user_tokens
        && c.kept.is_empty()
        && !c.encrypted
    {
        preserved.extend(user_messages_kept(t, c.at, budget));
    }
    // What the log shows the harness putting back after the compaction.
    let next = t
        .compactions
        .iter()
        .find(|n| n.at > c.at)
        .map_or(t.messages.len(), |n| n.at);
    let put_back: Vec<&Message> = t
        .messages
        .get(c.at..next)
        .unwrap_or(&[])
        .iter()
        .filter(|m| {
            matches!(
                m.provenance,
                Provenance::Hook | Provenance::ProjectFile | Provenance::Skill
            )
        })
        .collect();
    for (i, r) in in_force.at(c.at) {
        let Some(m) = t.messages.get(r.message) else {
            continue;
        };
        let mut rule = session_rule(i, r);
        let last = r.last_before(c.at);
        if preserved.contains(&r.message) || preserved.contains(&last) {
            rule.rule.fate = Fate::Kept;
            rule.after_part = Some(AfterPart::Kept);
            rule.why = "the harness kept its message word for word".into();
            audit.rules.push(rule);
            continue;
        }
        let needle = r.text.trim_end_matches('.');
        let shown_again = put_back.iter().any(|p| p.text.contains(needle));
        // A skill the log shows put back, cut short without this rule.
        let cut = m.provenance == Provenance::Skill
            && !shown_again
            && put_back
                .iter()
                .any(|p| p.provenance == Provenance::Skill && p.path.is_some() && p.path == m.path);
        if cut {
            rule.rule.fate = Fate::Dropped;
            rule.why = "the harness put its skill back cut short, without it".into();
            audit.rules.push(rule);
            continue;
        }
        if !shown_again
            && r.authority == Authority::Instructions
            && m.role == MessageRole::Tool
            && let Some(name) = r.file.as_deref().map(file_name)
            && summary_text.contains(name)
        {
            rule.rule.fate = Fate::Kept;
            rule.why = alloc::format!("the summary points to {name}, which holds it");
            audit.rules.push(rule);
            continue;
        }
        if shown_again || re_injected(t, r, m) {
            rule.rule.fate = Fate::Reinjected;
            rule.after_part = Some(AfterPart::Reinjected);
            rule.from_file = r.file.clone().filter(|_| !shown_again);
            rule.why = if shown_again {
                "the harness put it back after the compaction".into()
            } else {
                "the harness puts it back after every compaction".into()
            };
            audit.rules.push(rule);
            continue;
        }
        if c.summary.is_none() {
            rule.why = audit.unreadable.clone().unwrap_or_default();
            audit.unjudged.push(rule);
            continue;
        }
        let verdict = judge.judge(judged(t, r), &after);
        rule.rule.fate = verdict.fate;
        rule.rule.sure = Some(crate::rules::model::thousandths(verdict.chance));
        rule.rule.evidence = verdict.evidence.map(|span| Evidence {
            span,
            weakening: verdict.why.weakening(),
        });
        rule.after_part = verdict.evidence.map(|_| AfterPart::Summary);
        rule.why = verdict.why.words();
        audit.rules.push(rule);
    }
    if c.summary.is_some() {
        audit.invented = invented(t, in_force, c.at, &summary_text, &after);
        // Ids the user named that the summary swapped or merged, read over
        // the user's own words only (the summary's lookalikes of ids in
        // files and output are no loss of the user's).
        let main = crate::rules::force::main_agent(t);
        let said = |m: &Message| {
            crate::rules::force::in_context(m, main.as_deref())
                && matches!(m.role, MessageRole::User | MessageRole::Unknown)
                && (m.provenance.typed() || m.provenance == Provenance::Brief)
        };
        audit.changed_ids = super::changed_ids_upto(t, c.at, &said, &summary_text)
            .into_iter()
            .filter(|x| matches!(x.change, super::IdChange::Swapped | super::IdChange::Merged))
            .collect();
    }
    audit
}

/// Fates counted by kind, over compactions: what `drift audit --retention`
/// measures.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
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
    /// The same steps by how many summaries deep the rule's copy was going
    /// in (0, 1, 2 or more): how many, and how many it carried (a kept
    /// rule 1, a weakened one ½, as in [`FateCounts::estimate`]).
    pub by_depth: [(usize, f64); 3],
}

impl FateCounts {
    /// How well one retention per round explains these steps: the model
    /// multiplies a rule's fidelity by the same retention at every round,
    /// so the share carried should not depend on how deep the copy going
    /// in was. The largest gap between the share carried at a depth (with
    /// at least [`MIN_FIT_STEPS`] steps) and [`FateCounts::estimate`].
    pub fn fit_gap(&self) -> Option<f64> {
        let e = self.estimate()?;
        self.by_depth
            .iter()
            .filter(|(n, _)| *n >= MIN_FIT_STEPS)
            .map(|(n, carried)| libm::fabs(carried / *n as f64 - e))
            .reduce(f64::max)
    }

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

/// The fewest steps at one depth that [`FateCounts::fit_gap`] reads.
pub const MIN_FIT_STEPS: usize = 5;

/// Retention measured from sessions: fates by kind, over every compaction
/// whose summary could be read, counting only the rules the summary itself
/// judged (not those the harness kept or put back, nor instruction files
/// and skills, which are the harness's to put back), and only while the
/// agent had a copy to summarise: a rule an earlier compaction dropped or
/// contradicts, not said again since, is no new step. Each step is one
/// round of the model's (§3: fidelity times retention): the share carried
/// is the retention that best explains the steps (its maximum likelihood),
/// and [`FateCounts::by_depth`] shows whether one retention per round fits
/// them.
///
/// It serialises as `compaction-drift/retention@1`
/// ([`MeasuredRetention::FORMAT`]), what `drift audit --retention --format
/// json` prints.
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
    /// Adds a session's compactions (`audit` is of `transcript`).
    pub fn add(&mut self, transcript: &Transcript, audit: &SessionAudit) {
        self.logs += 1;
        // Per rule: how many summaries deep its copy is; none once lost.
        let mut depth: Vec<Option<usize>> = alloc::vec![Some(0); audit.rules.len()];
        let mut since = 0;
        for (c, at) in audit
            .compactions
            .iter()
            .zip(transcript.compactions.iter().map(|c| c.at))
        {
            // Said again since the compaction before: its own words.
            for (i, rule) in audit.rules.iter().enumerate() {
                if core::iter::once(&rule.message)
                    .chain(&rule.restated)
                    .any(|&m| since <= m && m < at)
                    && let Some(d) = depth.get_mut(i)
                {
                    *d = Some(0);
                }
            }
            since = at;
            if !c.readable {
                if c.kind == CompactionKind::Summary {
                    self.unreadable += 1;
                }
                continue;
            }
            self.compactions += 1;
            for r in &c.rules {
                let going_in = depth.get(r.index).copied().flatten();
                let after = match (r.rule.fate, r.after_part) {
                    (Fate::Reinjected, _) | (_, Some(AfterPart::Kept)) => Some(0),
                    (Fate::Kept | Fate::Weakened, _) => going_in.map(|d| d + 1),
                    (Fate::Dropped | Fate::Contradicted, _) => None,
                };
                if let Some(d) = depth.get_mut(r.index) {
                    *d = after;
                }
                // Instruction files and skills are the harness's to put
                // back, whole: no summary's retention.
                if r.after_part.is_some_and(|p| p != AfterPart::Summary)
                    || r.authority == Authority::Instructions
                {
                    continue;
                }
                let Some(going_in) = going_in else {
                    continue;
                };
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
                let carried = match r.rule.fate {
                    Fate::Kept | Fate::Reinjected => {
                        counts.kept += 1;
                        1.0
                    }
                    Fate::Weakened => {
                        counts.weakened += 1;
                        0.5
                    }
                    Fate::Dropped => {
                        counts.dropped += 1;
                        0.0
                    }
                    Fate::Contradicted => {
                        counts.contradicted += 1;
                        0.0
                    }
                };
                if let Some(bin) = counts.by_depth.get_mut(going_in.min(2)) {
                    bin.0 += 1;
                    bin.1 += carried;
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
