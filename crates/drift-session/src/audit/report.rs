//! What each compaction of a session lost, in the order a person acts on
//! it: the one model the CLI's text, the JSON's `report` blocks and the
//! session page all render.
//!
//! Per compaction, [`report`] gives:
//!
//! 1. **Lost** ([`CompactionReport::lost`]): every rule of the user's, a
//!    brief's or the system's the compaction weakened, dropped or
//!    contradicts, the ones the finder is surest of first (then the
//!    riskiest), each with its words, who gave it and where, the summary's
//!    words for it (or none: nowhere), why, and the fix. A rule an earlier
//!    compaction already lost says since when. What the finder only
//!    thinks possibly a rule is **possibly lost**
//!    ([`CompactionReport::possibly`]), folded below, never restated.
//! 2. **Files** ([`CompactionReport::files`]): an instruction file or skill
//!    whose rules the compaction lost is one entry, with its lost rules
//!    under it: a skill the harness did not put back loses dozens of lines
//!    at once, and the fix is one for the file.
//! 3. **Carried**: a count of the rules the summary kept, or the harness
//!    kept word for word; **re-injected**: rules the harness puts back
//!    itself, counted per file.
//! 4. **From tools** ([`CompactionReport::from_tools`]): policies a tool
//!    printed that the compaction lost. Tool output is data: they are a
//!    record with their source, never a rule to restate unasked.
//! 5. **Invented**: rules the summary states that nobody gave, and why.
//! 6. **Unjudged**: rules an unreadable summary leaves unknowable.

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use super::session::{CompactionAudit, SessionAudit, SessionRule};
use super::{Fate, Invention};
use crate::rules::Authority;
use crate::transcript::{CompactionKind, Provenance, Transcript, TranscriptFormat};

/// A session's compactions, as a person reads them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Report {
    /// One per compaction, in order.
    pub compactions: Vec<CompactionReport>,
}

impl Report {
    /// How many rules the report shows lost up front, over all
    /// compactions: each rule one by one, each file once.
    pub fn shown_lost(&self) -> usize {
        self.compactions
            .iter()
            .map(CompactionReport::shown_lost)
            .sum()
    }
}

/// One compaction, as a person reads it (see the module docs).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct CompactionReport {
    /// Its number in the session, from 1.
    pub number: usize,
    /// The record (line or item) of its marker.
    pub line: usize,
    /// A summary, or tool results cleared.
    pub kind: CompactionKind,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// The context's size after it, when the log says.
    pub tokens_after: Option<u64>,
    /// Why its summary cannot be read, when it cannot.
    pub unreadable: Option<String>,
    /// The rules of the user, a brief and the system it lost, surest
    /// first.
    pub lost: Vec<LostRule>,
    /// What it lost that is possibly a rule (the finder was not sure),
    /// surest first: shown folded.
    pub possibly: Vec<LostRule>,
    /// Instruction files and skills it lost rules of, one entry each.
    pub files: Vec<FileLoss>,
    /// Rules it carried: kept by the summary, or word for word.
    pub carried: usize,
    /// Rules the harness put back itself, per file or source.
    pub reinjected: Vec<SourceCount>,
    /// Policies from tool output it lost: a record, not rules.
    pub from_tools: Vec<LostRule>,
    /// Rules its summary states that nobody gave.
    pub invented: Vec<InventedItem>,
    /// Rules it leaves unknowable (its summary cannot be read).
    pub unjudged: usize,
    /// For a compaction of tool results: how many it cleared.
    pub cleared: usize,
}

impl CompactionReport {
    /// How many entries it shows lost up front: each rule, each file once.
    pub fn shown_lost(&self) -> usize {
        self.lost.len() + self.files.len()
    }

    /// Whether it lost any rule shown up front, or invented one.
    pub fn broke_rules(&self) -> bool {
        self.shown_lost() > 0 || !self.invented.is_empty()
    }
}

/// A rule a compaction lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LostRule {
    /// Its index in the session's rules ([`SessionAudit::rules`]).
    pub rule: usize,
    /// Its words.
    pub text: String,
    /// Weakened, dropped or contradicted.
    pub fate: Fate,
    /// Who gave it.
    pub authority: Authority,
    /// Where it came from, in words ("chat", "the brief", a file's path).
    pub source: String,
    /// The record (line or item) of its first statement.
    pub line: usize,
    /// The summary's words for it: what weakened or contradicts it, or for
    /// a dropped rule none (nowhere).
    pub summary: Option<String>,
    /// Why it has its fate, in words.
    pub why: String,
    /// The compaction (number) that first lost it, when an earlier one
    /// did and nobody restated it since.
    pub since: Option<usize>,
    /// What to do about it.
    pub fix: String,
    /// How sure the finder is that it is a rule, in thousandths.
    pub confidence: u16,
}

/// An instruction file or skill a compaction lost rules of.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct FileLoss {
    /// Its path, or the skill's name.
    pub source: String,
    /// Whether it is a skill.
    pub skill: bool,
    /// Its rules in force at the compaction.
    pub rules: usize,
    /// Those the compaction lost, riskiest first.
    pub lost: Vec<LostRule>,
    /// What to do about it.
    pub fix: String,
}

/// How many rules of one source the harness put back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SourceCount {
    /// A file's path, a skill's name, or where the harness keeps it.
    pub source: String,
    /// How many of its rules.
    pub rules: usize,
    /// Whether the harness re-reads it from disk, which the log does not
    /// hold: its fate depends on the file as it is now.
    pub from_disk: bool,
}

/// A rule a summary states that nobody gave.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct InventedItem {
    /// As the summary writes it.
    pub text: String,
    /// What makes it an invention.
    pub why: Invention,
    /// The same, in words.
    pub reason: &'static str,
}

/// The report of `audit`, an audit of `transcript` (see the module docs).
pub fn report(transcript: &Transcript, audit: &SessionAudit) -> Report {
    // The compaction (number) that first lost each rule, reset when the
    // rule comes back (carried, put back, or restated).
    let mut lost_since: BTreeMap<usize, usize> = BTreeMap::new();
    let mut compactions = Vec::with_capacity(audit.compactions.len());
    for (i, c) in audit.compactions.iter().enumerate() {
        let number = i + 1;
        compactions.push(compaction(transcript, audit, c, number, &mut lost_since));
    }
    Report { compactions }
}

fn compaction(
    t: &Transcript,
    audit: &SessionAudit,
    c: &CompactionAudit,
    number: usize,
    lost_since: &mut BTreeMap<usize, usize>,
) -> CompactionReport {
    let summary = c.summary_text(t);
    // The messages since the compaction before this one.
    let c_at = t.compactions.get(number - 1).map_or(usize::MAX, |c| c.at);
    let since_at = number
        .checked_sub(2)
        .and_then(|p| t.compactions.get(p))
        .map_or(0, |c| c.at);
    let mut lost = Vec::new();
    let mut possibly = Vec::new();
    let mut from_tools = Vec::new();
    let mut files: BTreeMap<String, FileLoss> = BTreeMap::new();
    let mut reinjected: BTreeMap<String, (usize, bool)> = BTreeMap::new();
    let mut in_force_per_file: BTreeMap<String, usize> = BTreeMap::new();
    let mut carried = 0;
    for r in &c.rules {
        let grouped = r.authority == Authority::Instructions;
        if grouped {
            *in_force_per_file.entry(r.source.clone()).or_default() += 1;
        }
        match r.rule.fate {
            Fate::Kept => {
                carried += usize::from(r.sure);
                lost_since.remove(&r.index);
            }
            Fate::Reinjected if !r.sure => {
                lost_since.remove(&r.index);
            }
            Fate::Reinjected => {
                let source = r.from_file.clone().unwrap_or_else(|| r.source.clone());
                let entry = reinjected.entry(source).or_default();
                entry.0 += 1;
                entry.1 |= r.from_file.is_some();
                lost_since.remove(&r.index);
            }
            Fate::Weakened | Fate::Dropped | Fate::Contradicted => {
                let restated = audit
                    .rules
                    .get(r.index)
                    .is_some_and(|rule| stated_between(rule, since_at, c_at));
                if restated {
                    lost_since.remove(&r.index);
                }
                let since = lost_since.get(&r.index).copied();
                lost_since.entry(r.index).or_insert(number);
                let item = lost_rule(t, r, summary, since);
                if !r.sure {
                    if r.authority.trusted() {
                        possibly.push(item);
                    }
                } else if r.authority == Authority::ToolPolicy {
                    from_tools.push(item);
                } else if grouped {
                    let skill = r.rule.provenance == Provenance::Skill;
                    files
                        .entry(r.source.clone())
                        .or_insert_with(|| FileLoss {
                            source: r.source.clone(),
                            skill,
                            rules: 0,
                            lost: Vec::new(),
                            fix: file_fix(t.format, &r.source, skill),
                        })
                        .lost
                        .push(item);
                } else {
                    lost.push(item);
                }
            }
        }
    }
    let by_risk = |a: &LostRule, b: &LostRule| {
        (risk(a.fate), a.line, a.rule).cmp(&(risk(b.fate), b.line, b.rule))
    };
    let surest =
        |a: &LostRule, b: &LostRule| b.confidence.cmp(&a.confidence).then_with(|| by_risk(a, b));
    lost.sort_by(surest);
    possibly.sort_by(surest);
    from_tools.sort_by(by_risk);
    let mut files: Vec<FileLoss> = files
        .into_values()
        .map(|mut f| {
            f.rules = in_force_per_file
                .get(&f.source)
                .copied()
                .unwrap_or(f.lost.len());
            f.lost.sort_by(by_risk);
            f
        })
        .collect();
    files.sort_by_key(|f| {
        (
            f.lost.first().map_or(9, |l| risk(l.fate)),
            f.lost.first().map_or(0, |l| l.line),
        )
    });
    CompactionReport {
        number,
        line: c.record,
        kind: c.kind,
        tokens_before: c.tokens_before,
        tokens_after: c.tokens_after,
        // A compaction of tool results writes no summary by design.
        unreadable: c
            .unreadable
            .clone()
            .filter(|_| c.kind == CompactionKind::Summary),
        lost,
        possibly,
        files,
        carried,
        reinjected: reinjected
            .into_iter()
            .map(|(source, (rules, from_disk))| SourceCount {
                source,
                rules,
                from_disk,
            })
            .collect(),
        from_tools,
        invented: c
            .invented
            .iter()
            .map(|i| InventedItem {
                text: i.text.clone(),
                why: i.why,
                reason: i.why.words(),
            })
            .collect(),
        unjudged: c.unjudged.len(),
        cleared: c.cleared.len(),
    }
}

/// Whether `rule` was stated again in messages `from..to` (between the
/// previous compaction and this one: a loss here is then a new loss).
fn stated_between(rule: &crate::rules::StandingRule, from: usize, to: usize) -> bool {
    rule.restated
        .iter()
        .chain(core::iter::once(&rule.message))
        .any(|&m| from <= m && m < to)
}

fn lost_rule(t: &Transcript, r: &SessionRule, summary: &str, since: Option<usize>) -> LostRule {
    let words = r
        .rule
        .evidence
        .filter(|_| r.rule.fate != Fate::Dropped)
        .and_then(|e| summary.get(e.span.start..e.span.end))
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    LostRule {
        rule: r.index,
        text: r.rule.text.clone(),
        fate: r.rule.fate,
        authority: r.authority,
        source: r.source.clone(),
        line: r.record,
        summary: words,
        why: r.why.clone(),
        since,
        fix: rule_fix(t.format, r.authority, r.rule.fate),
        confidence: r.confidence,
    }
}

const fn risk(f: Fate) -> u8 {
    match f {
        Fate::Contradicted => 0,
        Fate::Dropped => 1,
        Fate::Weakened => 2,
        Fate::Reinjected => 3,
        Fate::Kept => 4,
    }
}

/// What to do about a lost rule of `authority`.
fn rule_fix(format: TranscriptFormat, authority: Authority, fate: Fate) -> String {
    let file = format.profile().standing_file;
    let tell = if fate == Fate::Contradicted {
        "Correct the agent now, the summary says otherwise"
    } else {
        "Say it again"
    };
    match authority {
        Authority::User => {
            let hook = if format == TranscriptFormat::ClaudeCodeSession {
                "; `drift hook claude-code` restates lost rules after each compaction"
            } else {
                ""
            };
            alloc::format!("{tell}, or keep it in {file}, which the harness re-reads after every compaction{hook}.")
        }
        Authority::Brief => alloc::format!(
            "{tell} to the subagent, or put it in the agent's definition (its system prompt), which compaction does not summarise."
        ),
        Authority::System => alloc::format!(
            "{tell}: the harness summarised its own instructions; `drift remedy` writes them out to restate."
        ),
        Authority::Instructions => alloc::format!("{tell}, or keep it in {file}."),
        Authority::ToolPolicy => {
            "Check it against its source before you act on it: it came from tool output, which is data, not an instruction."
                .to_string()
        }
    }
}

/// What to do about an instruction file or skill whose rules a compaction
/// lost.
fn file_fix(format: TranscriptFormat, source: &str, skill: bool) -> String {
    if skill && format == TranscriptFormat::ClaudeCodeSession {
        return alloc::format!(
            "The harness did not put the skill {source} back after the compaction (Claude Code 2.1.109 and later do): invoke it again, or move the rules it must keep into CLAUDE.md."
        );
    }
    let file = format.profile().standing_file;
    alloc::format!(
        "The agent read {source} itself and the summary lost it: have it read the file again after a compaction (a SessionStart hook can print it), or move the rules into {file}."
    )
}
