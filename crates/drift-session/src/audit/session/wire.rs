//! `compaction-drift/session-audit@1`: the session audit as JSON.

use super::*;

#[derive(Serialize)]
pub(super) struct Wire<'a> {
    pub(super) format: &'static str,
    pub(super) source: WireSource<'a>,
    pub(super) broke_rules: bool,
    pub(super) damaged_lines: Vec<usize>,
    pub(super) compactions: Vec<WireCompaction<'a>>,
    /// The rules across the compactions ([`super::super::lineage`]).
    pub(super) lineage: WireLineage,
}

#[derive(Serialize)]
pub(super) struct WireLineage {
    #[serde(flatten)]
    pub(super) lineage: super::super::Lineage,
    /// Calls that ran after a compaction lost their rule
    /// ([`crate::import::actions_after_loss`]).
    pub(super) actions_after_loss: Vec<WireAfterLoss>,
}

#[derive(Serialize)]
pub(super) struct WireAfterLoss {
    pub(super) action: String,
    pub(super) call: String,
    pub(super) line: usize,
    pub(super) rule: usize,
    pub(super) rule_text: String,
    pub(super) fate: Fate,
    pub(super) compaction: usize,
    pub(super) compaction_line: usize,
    pub(super) governs: String,
}

#[derive(Serialize)]
pub(super) struct WireSource<'a> {
    pub(super) file: &'a str,
    pub(super) harness: &'static str,
    pub(super) log_format: &'static str,
}

#[derive(Serialize)]
pub(super) struct WireCompaction<'a> {
    pub(super) line: usize,
    pub(super) kind: &'static str,
    pub(super) trigger: Option<&'static str>,
    pub(super) tokens_before: Option<u64>,
    pub(super) tokens_after: Option<u64>,
    pub(super) readable: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) unreadable: Option<&'a str>,
    pub(super) counts: WireCounts,
    /// The rules lost up front, riskiest first (indices into `rules`).
    pub(super) lost: Vec<usize>,
    pub(super) rules: Vec<WireRule<'a>>,
    pub(super) unjudged: Vec<WireRule<'a>>,
    pub(super) invented: &'a [InventedRule],
    pub(super) changed_ids: Vec<WireChangedId<'a>>,
    pub(super) unsupported: &'a [Unsupported],
    pub(super) cleared: Vec<WireCleared<'a>>,
    /// What it lost, as a person reads it ([`super::super::report`]).
    pub(super) report: Option<super::super::CompactionReport>,
}

#[derive(Serialize)]
pub(super) struct WireCleared<'a> {
    pub(super) line: usize,
    pub(super) tool: Option<&'a str>,
}

#[derive(Serialize)]
pub(super) struct WireCounts {
    pub(super) kept: usize,
    pub(super) reinjected: usize,
    pub(super) weakened: usize,
    pub(super) dropped: usize,
    pub(super) contradicted: usize,
    pub(super) unjudged: usize,
    pub(super) from_tools: usize,
}

#[derive(Serialize)]
pub(super) struct WireRule<'a> {
    pub(super) text: &'a str,
    pub(super) role: &'static str,
    pub(super) line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) log: Option<&'a str>,
    pub(super) fate: &'static str,
    pub(super) kind: &'static str,
    pub(super) provenance: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) weakening: Option<super::super::Weakening>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) from_file: Option<&'a str>,
    pub(super) authority: &'static str,
    pub(super) source: &'a str,
    pub(super) why: &'a str,
    pub(super) rule: usize,
    pub(super) evidence: WireEvidence<'a>,
}

#[derive(Serialize)]
pub(super) struct WireEvidence<'a> {
    pub(super) before: WireSpan,
    pub(super) after: Option<WireAfter<'a>>,
}

#[derive(Serialize)]
pub(super) struct WireSpan {
    pub(super) line: usize,
    pub(super) start: usize,
    pub(super) end: usize,
}

#[derive(Serialize)]
pub(super) struct WireAfter<'a> {
    #[serde(rename = "in")]
    pub(super) part: AfterPart,
    pub(super) start: usize,
    pub(super) end: usize,
    pub(super) text: &'a str,
}

#[derive(Serialize)]
pub(super) struct WireChangedId<'a> {
    pub(super) change: super::super::IdChange,
    pub(super) after_text: &'a str,
    pub(super) after: Span,
    pub(super) before_text: &'a str,
    pub(super) before: WireSpan,
}

impl<'a> WireCompaction<'a> {
    pub(super) fn of(c: &'a CompactionAudit, t: &'a Transcript) -> WireCompaction<'a> {
        let summary = c.summary_text(t);
        let rule = |r: &'a SessionRule| {
            let message = t.messages.get(r.rule.before.message);
            let log = message
                .and_then(|m| m.file.checked_sub(1))
                .and_then(|i| t.agent_logs.get(i))
                .map(String::as_str);
            // Only the summary's evidence has a span: a rule kept verbatim
            // or re-injected is the whole of its message.
            let after = match (r.after_part, r.rule.evidence) {
                (Some(AfterPart::Summary), Some(e)) => Some(WireAfter {
                    part: AfterPart::Summary,
                    start: e.span.start,
                    end: e.span.end,
                    text: e.span.of(summary),
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
                authority: r.authority.id(),
                source: &r.source,
                why: &r.why,
                rule: r.index,
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
        let lost = c.lost_indices();
        WireCompaction {
            line: c.record,
            kind: c.kind.id(),
            trigger: c.trigger.map(CompactionTrigger::id),
            tokens_before: c.tokens_before,
            tokens_after: c.tokens_after,
            readable: c.readable,
            unreadable: c.unreadable.as_deref(),
            counts: WireCounts {
                kept: c.count(Fate::Kept),
                reinjected: c.count(Fate::Reinjected),
                weakened: c.count(Fate::Weakened),
                dropped: c.count(Fate::Dropped),
                contradicted: c.count(Fate::Contradicted),
                unjudged: c.unjudged.len(),
                from_tools: c.rules.iter().filter(|r| !r.authority.trusted()).count(),
            },
            lost,
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
            cleared: c
                .cleared
                .iter()
                .filter_map(|&i| t.messages.get(i))
                .map(|m| WireCleared {
                    line: m.record,
                    tool: m.tool_name.as_deref(),
                })
                .collect(),
            report: None,
        }
    }
}
