//! `drift audit SESSION…`: every compaction a session log records, audited
//! rule by rule; and `--retention`, the retention per kind those
//! compactions show.

use std::fmt::Write as _;

use drift_core::thousands;
use drift_session::{
    MeasuredRetention, SessionAudit, Transcript,
    audit::{AfterPart, CompactionReport, Fate, IdChange, LostRule, Step, StepState},
    audit_session,
};

use crate::error::Error;
use crate::load::{read_agent_logs, read_log};
use crate::text::{plural, quote};

/// A log, read and audited.
pub struct Audited {
    path: String,
    transcript: Transcript,
    audit: SessionAudit,
}

/// Reads and audits the log at `path` (with its Claude Code agent logs).
pub fn read(path: &str) -> Result<Audited, Error> {
    let (_, mut transcript) = read_log(path, "SESSION")?;
    read_agent_logs(path, &mut transcript)?;
    let audit = audit_session(&transcript);
    Ok(Audited {
        path: path.to_string(),
        transcript,
        audit,
    })
}

/// Reads and audits every log of `paths`, in order, the logs shared out
/// among as many threads as the machine has cores: the first log (in the
/// order given) that cannot be read is the error.
pub fn read_all(paths: &[String]) -> Result<Vec<Audited>, Error> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let workers = std::thread::available_parallelism()
        .map_or(1, std::num::NonZero::get)
        .min(paths.len());
    if workers <= 1 {
        return paths.iter().map(|p| read(p)).collect();
    }
    let next = AtomicUsize::new(0);
    let mut done: Vec<(usize, Result<Audited, Error>)> = Vec::with_capacity(paths.len());
    std::thread::scope(|scope| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(path) = paths.get(i) else {
                            return mine;
                        };
                        mine.push((i, read(path)));
                    }
                })
            })
            .collect();
        for handle in handles {
            match handle.join() {
                Ok(mine) => done.extend(mine),
                Err(panic) => std::panic::resume_unwind(panic),
            }
        }
    });
    done.sort_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// What `drift audit SESSION` shows besides the lost rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `--all`: the carried rules too, and every lost rule of a file.
    pub all: bool,
    /// `--lineage`: each rule across the compactions, and the claims
    /// laundered through a summary.
    pub lineage: bool,
}

impl Options {
    /// How many lost rules of one file to list.
    fn file_rules(self) -> usize {
        if self.all { usize::MAX } else { 3 }
    }
}

/// `drift audit SESSION`: the report, and whether a compaction broke a rule.
pub fn command(paths: &[String], json: bool, options: Options) -> Result<(String, bool), Error> {
    let mut out = String::new();
    let mut broke = false;
    let logs = read_all(paths)?;
    for (i, log) in logs.iter().enumerate() {
        broke |= log.audit.broke_rules();
        if json {
            out.push_str(&log.audit.to_json(&log.transcript, &log.path));
            out.push('\n');
        } else {
            if i > 0 {
                out.push('\n');
            }
            text(&mut out, log, options);
            if options.lineage {
                lineage_text(&mut out, log);
            }
        }
    }
    Ok((out, broke))
}

fn fate_word(f: Fate) -> &'static str {
    match f {
        Fate::Kept => "kept",
        Fate::Reinjected => "re-injected",
        Fate::Weakened => "WEAKENED",
        Fate::Dropped => "DROPPED",
        Fate::Contradicted => "CONTRADICTED",
    }
}

/// How a compaction was set off and what it did to the context's size.
fn sizes(
    c: &CompactionReport,
    trigger: Option<drift_session::transcript::CompactionTrigger>,
) -> String {
    let mut parts: Vec<String> = trigger.map(|t| t.id().to_string()).into_iter().collect();
    match (c.tokens_before, c.tokens_after) {
        (Some(b), Some(a)) => parts.push(format!("{} → {} tokens", thousands(b), thousands(a))),
        (Some(b), None) => parts.push(format!("{} tokens before", thousands(b))),
        (None, Some(a)) => parts.push(format!("{} tokens after", thousands(a))),
        (None, None) => {}
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(", "))
    }
}

/// A lost rule on one line, as a file's or a tool's list shows it.
fn brief_lost(out: &mut String, record: &str, r: &LostRule) {
    let _ = writeln!(
        out,
        "    {:<13} {record} {}: {}",
        fate_word(r.fate),
        r.line,
        quote(&r.text, 100)
    );
}

fn lost_rule(out: &mut String, record: &str, r: &LostRule, indent: &str) {
    let since = r
        .since
        .map_or(String::new(), |n| format!(" (lost since compaction {n})"));
    let _ = writeln!(
        out,
        "{indent}{:<13} {record} {}, {} ({}% a rule){since}: {}",
        fate_word(r.fate),
        r.line,
        r.authority.giver(&r.source),
        r.confidence / 10,
        quote(&r.text, 110)
    );
    let pad = format!("{indent}{:<14}", "");
    match &r.summary {
        Some(words) => {
            let how = if r.fate == Fate::Contradicted {
                "the summary says"
            } else {
                "the summary has"
            };
            let _ = writeln!(out, "{pad}{how}: {}", quote(words, 100));
        }
        None => {
            let _ = writeln!(out, "{pad}the summary: nowhere");
        }
    }
    if !r.why.is_empty() {
        let _ = writeln!(out, "{pad}why: {}", r.why);
    }
}

/// The fixes of `lost`, each once, in the order first needed.
fn fixes(out: &mut String, lost: &[LostRule]) {
    let mut seen: Vec<&str> = Vec::new();
    for r in lost {
        if !seen.contains(&r.fix.as_str()) {
            seen.push(&r.fix);
        }
    }
    for fix in seen {
        let _ = writeln!(out, "  Fix: {fix}");
    }
}

fn text(out: &mut String, log: &Audited, options: Options) {
    let t = &log.transcript;
    let a = &log.audit;
    let report = drift_session::report(t, a);
    let _ = writeln!(
        out,
        "drift audit: {} ({}, {}): {}",
        log.path,
        t.format.label(),
        plural(t.messages.len(), "message", "messages"),
        plural(a.compactions.len(), "compaction", "compactions")
    );
    if !t.damaged.is_empty() {
        let _ = writeln!(
            out,
            "  {} could not be read and {} skipped (named on stderr)",
            plural(t.damaged.len(), "line", "lines"),
            if t.damaged.len() == 1 { "was" } else { "were" }
        );
    }
    if a.compactions.is_empty() {
        out.push_str("\nThe log records no compaction: nothing to audit.\n");
        return;
    }
    let record = t.format.record_name();
    for (c, audit) in report.compactions.iter().zip(&a.compactions) {
        let what = match c.kind {
            drift_session::transcript::CompactionKind::Summary => "Compaction",
            drift_session::transcript::CompactionKind::ToolResults => "Tool results cleared",
        };
        let _ = writeln!(
            out,
            "\n{what} {} at {record} {}{}",
            c.number,
            c.line,
            sizes(c, audit.trigger)
        );
        if let Some(why) = &c.unreadable {
            let left = if c.unjudged == 0 {
                "what the harness kept in the clear holds every rule".to_string()
            } else {
                format!(
                    "{} it may or may not keep (`drift remedy` restates them)",
                    plural(c.unjudged, "rule", "rules")
                )
            };
            let _ = writeln!(out, "  Its summary cannot be read ({why}): {left}.");
        }
        if c.kind == drift_session::transcript::CompactionKind::ToolResults {
            let _ = writeln!(
                out,
                "  {} cleared; no summary.",
                plural(c.cleared, "tool result", "tool results")
            );
        }
        if c.shown_lost() == 0 {
            let _ = writeln!(out, "  Lost: none of your rules.");
        } else {
            let _ = writeln!(
                out,
                "  Lost: {}{}",
                plural(c.lost.len(), "rule", "rules"),
                if c.files.is_empty() {
                    String::new()
                } else {
                    format!(", and rules of {}", plural(c.files.len(), "file", "files"))
                }
            );
        }
        for r in &c.lost {
            lost_rule(out, record, r, "  ");
        }
        fixes(out, &c.lost);
        for f in &c.files {
            let _ = writeln!(
                out,
                "  {} {}: {} of its {} lost",
                if f.skill { "Skill" } else { "File" },
                f.source,
                f.lost.len(),
                f.rules
            );
            for r in f.lost.iter().take(options.file_rules()) {
                brief_lost(out, record, r);
            }
            if f.lost.len() > options.file_rules() {
                let _ = writeln!(
                    out,
                    "    … and {} more (--all lists them)",
                    f.lost.len() - options.file_rules()
                );
            }
            let _ = writeln!(out, "    fix: {}", f.fix);
        }
        if !c.possibly.is_empty() {
            let _ = writeln!(
                out,
                "  Possibly lost: {} the finder is not sure are rules (never restated){}",
                plural(c.possibly.len(), "sentence", "sentences"),
                if options.all {
                    ":"
                } else {
                    " (--all lists them)"
                }
            );
            if options.all {
                for r in &c.possibly {
                    brief_lost(out, record, r);
                }
            }
        }
        let _ = writeln!(
            out,
            "  Carried: {}{}",
            plural(c.carried, "rule", "rules"),
            if options.all || c.carried == 0 {
                ""
            } else {
                " (--all lists them)"
            }
        );
        if options.all {
            for r in audit
                .rules
                .iter()
                .filter(|r| r.sure && r.rule.fate == Fate::Kept)
            {
                let how = if r.after_part == Some(AfterPart::Kept) {
                    "verbatim"
                } else {
                    "kept"
                };
                let _ = writeln!(
                    out,
                    "    {how:<13} {record} {}, {}: {}",
                    r.record,
                    r.authority.giver(&r.source),
                    quote(&r.rule.text, 100)
                );
            }
        }
        if !c.reinjected.is_empty() {
            let groups: Vec<String> = c
                .reinjected
                .iter()
                .map(|g| format!("{} ({})", g.source, g.rules))
                .collect();
            let _ = writeln!(out, "  Re-injected by the harness: {}", groups.join(", "));
            for g in c.reinjected.iter().filter(|g| g.from_disk) {
                let _ = writeln!(
                    out,
                    "    {} is re-read from disk after the compaction: its rules hold as the file is now, which the log does not show",
                    g.source
                );
            }
        }
        if !c.from_tools.is_empty() {
            let _ = writeln!(
                out,
                "  From tool output, lost ({}; data, not instructions: never restated unasked):",
                c.from_tools.len()
            );
            for r in &c.from_tools {
                brief_lost(out, record, r);
            }
        }
        for i in &c.invented {
            let _ = writeln!(
                out,
                "  INVENTED      {} ({})",
                quote(&i.text, 110),
                i.reason
            );
        }
        for ch in &audit.changed_ids {
            let what = match ch.change {
                IdChange::Swapped => "swapped with",
                IdChange::Merged => "absorbs",
                IdChange::Changed => "replaces",
            };
            let _ = writeln!(
                out,
                "  RE-BOUND      {} {what} {}",
                ch.after_text, ch.before_text
            );
        }
    }
    let broke = report
        .compactions
        .iter()
        .zip(&a.compactions)
        .filter(|(r, c)| r.broke_rules() || !c.changed_ids.is_empty())
        .count();
    let _ = writeln!(
        out,
        "\n{}",
        if broke == 0 {
            "No compaction lost a rule.".to_string()
        } else {
            format!(
                "Drift: {} of {} lost a rule, invented one or re-bound an id.",
                plural(broke, "compaction", "compactions"),
                a.compactions.len()
            )
        }
    );
}

/// A fate at one compaction, in a few letters.
fn step_word(s: &Step) -> String {
    let fate = match (s.state, s.fate) {
        (StepState::NotYet, _) => return "—".to_string(),
        (StepState::Withdrawn, _) => return "withdrawn".to_string(),
        (StepState::Unjudged, _) => "unreadable".to_string(),
        (StepState::Untouched, _) => "untouched".to_string(),
        (StepState::Judged, Some(Fate::Kept)) if s.verbatim => "verbatim".to_string(),
        (StepState::Judged, Some(f)) => fate_word(f).to_string(),
        (StepState::Judged, None) => "?".to_string(),
    };
    let depth = match (s.state, s.depth) {
        (StepState::Judged | StepState::Unjudged, Some(d)) if d > 0 => format!(" (depth {d})"),
        _ => String::new(),
    };
    let again = if s.restated { "said again, then " } else { "" };
    format!("{again}{fate}{depth}")
}

/// `drift audit LOG --lineage`: each rule across the compactions, and the
/// claims each summary carries only from the one before.
fn lineage_text(out: &mut String, log: &Audited) {
    let l = drift_session::lineage(&log.transcript, &log.audit);
    if l.compactions.is_empty() {
        return;
    }
    let points: Vec<String> = l
        .compactions
        .iter()
        .map(|c| {
            let tokens = match (c.tokens_before, c.tokens_after) {
                (Some(b), Some(a)) => format!(", {} → {} tokens", thousands(b), thousands(a)),
                (Some(b), None) => format!(", {} tokens", thousands(b)),
                _ => String::new(),
            };
            format!(
                "#{} at line {} (after {}{tokens})",
                c.number,
                c.line,
                plural(c.user_turn, "message of yours", "messages of yours")
            )
        })
        .collect();
    let _ = writeln!(
        out,
        "
Lineage: {} across {}: {}",
        plural(l.rules.len(), "rule", "rules"),
        plural(l.compactions.len(), "compaction", "compactions"),
        points.join("; ")
    );
    for r in &l.rules {
        let steps: Vec<String> = r
            .steps
            .iter()
            .map(|s| format!("#{} {}", s.compaction, step_word(s)))
            .collect();
        let now = match r.depth {
            Some(0) => "now in its own words".to_string(),
            Some(d) => format!("now {} deep", plural(d, "summary", "summaries")),
            None => "now: no faithful copy".to_string(),
        };
        let _ = writeln!(
            out,
            "  line {}, {}: {}
    {} · {now}; last said at line {}",
            r.stated.first().copied().unwrap_or(0),
            r.authority.giver(&r.source),
            quote(&r.text, 100),
            steps.join(" · "),
            r.last_stated()
        );
    }
    let imported = drift_session::import(&log.transcript, &drift_session::ImportOptions::default());
    let after = drift_session::import::actions_after_loss(&log.transcript, &log.audit, &imported);
    if !after.is_empty() {
        let _ = writeln!(
            out,
            "  Calls that ran after a compaction lost their rule ({}; this shows coincidence in the log, not cause):",
            after.len()
        );
        for a in after.iter().take(20) {
            let _ = writeln!(
                out,
                "    line {}: {} ({})\n      after compaction #{} (line {}) {} {}",
                a.line,
                quote(&a.call, 90),
                a.governs,
                a.compaction,
                a.compaction_line,
                fate_word(a.fate),
                quote(&a.rule_text, 90)
            );
        }
        if after.len() > 20 {
            let _ = writeln!(out, "    … and {} more (in the JSON)", after.len() - 20);
        }
    }
    for c in l
        .compactions
        .iter()
        .filter(|c| c.laundering.claims > 0 && c.number > 1)
    {
        let w = &c.laundering;
        let _ = writeln!(
            out,
            "  Summary #{}: {} of {} claims ({:.0}%) only the summary before supports{}",
            c.number,
            w.laundered.len(),
            w.claims,
            100.0 * w.share,
            if w.over_line {
                format!(
                    ", above the model's line ({:.0}%): the model reads this round as fabricated history",
                    100.0 * drift_session::audit::LAUNDERING_LINE
                )
            } else {
                String::new()
            }
        );
        for claim in w.laundered.iter().take(5) {
            let _ = writeln!(out, "    {}", quote(&claim.text, 110));
        }
        if w.laundered.len() > 5 {
            let _ = writeln!(
                out,
                "    … and {} more (in the JSON)",
                w.laundered.len() - 5
            );
        }
    }
}

/// `drift audit LOG… --retention`.
pub fn retention(paths: &[String], json: bool) -> Result<String, Error> {
    let mut measured = MeasuredRetention::default();
    for p in paths {
        let log = read(p)?;
        measured.add(&log.transcript, &log.audit);
    }
    let defaults = drift_core::Retention::default();
    if json {
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&measured).unwrap_or_default()
        ));
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "Retention measured from {}, {} whose summary could be read{}:",
        plural(measured.logs, "log", "logs"),
        plural(measured.compactions, "compaction", "compactions"),
        if measured.unreadable > 0 {
            format!(" ({} encrypted, not counted)", measured.unreadable)
        } else {
            String::new()
        }
    );
    if measured.kinds.is_empty() {
        out.push_str("  no rule was judged by a summary: nothing measured.\n");
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "  {:<16} {:>5} {:>5} {:>8} {:>7} {:>12} {:>8}  {:<11} {:>7}  {:<23}",
        "kind",
        "rules",
        "kept",
        "weakened",
        "dropped",
        "contradicted",
        "estimate",
        "95% range",
        "default",
        "carried at depth 0/1/2+"
    );
    for (k, c) in &measured.kinds {
        let (low, high) = c.interval().unwrap_or((0.0, 1.0));
        let depths: Vec<String> = c
            .by_depth
            .iter()
            .map(|(n, carried)| {
                if *n == 0 {
                    "-".to_string()
                } else {
                    format!("{:.2} ({n})", carried / *n as f64)
                }
            })
            .collect();
        let _ = writeln!(
            out,
            "  {:<16} {:>5} {:>5} {:>8} {:>7} {:>12} {:>8.2}  {:<11} {:>7.2}  {}",
            k.label(),
            c.rules,
            c.kept,
            c.weakened,
            c.dropped,
            c.contradicted,
            c.estimate().unwrap_or(0.0),
            format!("{low:.2}-{high:.2}"),
            defaults.get(*k),
            depths.join(" / ")
        );
    }
    let gaps: Vec<String> = measured
        .kinds
        .iter()
        .filter_map(|(k, c)| c.fit_gap().map(|g| format!("{} {g:.2}", k.label())))
        .collect();
    let _ = writeln!(
        out,
        "\nEach step is one round of the model's: a rule the agent still had, summarised once. The estimate is the retention per round that best explains the steps (their maximum likelihood). The model applies the same retention at every depth; how far the share carried at one depth (of {} steps or more) lies from it: {}.",
        drift_session::audit::MIN_FIT_STEPS,
        if gaps.is_empty() {
            "too few steps at any depth to tell".to_string()
        } else {
            gaps.join(", ")
        }
    );
    let block: Vec<String> = measured
        .scenario_retention()
        .into_iter()
        .map(|(k, v)| format!("\"{}\": {v}", k.id()))
        .collect();
    let _ = writeln!(
        out,
        "\nA kept rule counts 1 and a weakened one 1/2; rules the harness kept or put back itself are not counted.\nFor a scenario file (or `drift run … --set retention.<kind>=…`):\n  \"retention\": {{{}}}",
        block.join(", ")
    );
    let few: Vec<&str> = measured
        .kinds
        .iter()
        .filter(|(_, c)| c.rules < 10)
        .map(|(k, _)| k.label())
        .collect();
    if !few.is_empty() {
        let _ = writeln!(
            out,
            "Fewer than 10 rules measured for: {} (a wide range; read them as a hint).",
            few.join(", ")
        );
    }
    Ok(out)
}
