//! `drift audit SESSION…`: every compaction a session log records, audited
//! rule by rule; and `--retention`, the retention per kind those
//! compactions show.

use std::fmt::Write as _;

use drift_core::thousands;
use drift_session::{
    AfterPart, Fate, IdChange, MeasuredRetention, SessionAudit, SessionRule, Transcript,
    audit_session,
};

use crate::audit::{plural, quote, read_log};
use crate::import::read_agent_logs;

/// A log, read and audited.
pub struct Audited {
    path: String,
    transcript: Transcript,
    audit: SessionAudit,
}

/// Reads and audits the log at `path` (with its Claude Code agent logs).
pub fn read(path: &str) -> Result<Audited, String> {
    let (_, mut transcript) = read_log(path, "SESSION")?;
    read_agent_logs(path, &mut transcript)?;
    let audit = audit_session(&transcript);
    Ok(Audited {
        path: path.to_string(),
        transcript,
        audit,
    })
}

/// `drift audit SESSION`: the report, and whether a compaction broke a rule.
pub fn command(paths: &[String], json: bool) -> Result<(String, bool), String> {
    let mut out = String::new();
    let mut broke = false;
    let logs: Vec<Audited> = paths.iter().map(|p| read(p)).collect::<Result<_, _>>()?;
    for (i, log) in logs.iter().enumerate() {
        broke |= log.audit.broke_rules();
        if json {
            out.push_str(&log.audit.to_json(&log.transcript, &log.path));
            out.push('\n');
        } else {
            if i > 0 {
                out.push('\n');
            }
            text(&mut out, log);
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

/// Who stated a rule, for a person: "user", "tool: CLAUDE.md", "AGENTS.md".
fn who(log: &Audited, r: &SessionRule) -> String {
    let role = r.rule.role.id();
    let m = log.transcript.messages.get(r.rule.before.message);
    let from = match r.rule.provenance {
        drift_session::Provenance::ProjectFile => "project file",
        drift_session::Provenance::Hook => "hook",
        drift_session::Provenance::Skill => "skill",
        drift_session::Provenance::Queued => "queued",
        _ => "",
    };
    let agent = m
        .and_then(|m| m.agent.as_deref())
        .map_or(String::new(), |a| format!(", subagent {a}"));
    if from.is_empty() {
        format!("{role}{agent}")
    } else {
        format!("{role}, {from}{agent}")
    }
}

fn text(out: &mut String, log: &Audited) {
    let t = &log.transcript;
    let a = &log.audit;
    let _ = writeln!(
        out,
        "drift audit: {} ({}, {}): {}",
        log.path,
        t.format.label(),
        plural(t.messages.len(), "message", "messages"),
        plural(a.compactions.len(), "compaction", "compactions")
    );
    if a.compactions.is_empty() {
        out.push_str("\nThe log records no compaction: nothing to audit.\n");
        return;
    }
    let record = if t.format == drift_session::TranscriptFormat::ResponsesItems {
        "item"
    } else {
        "line"
    };
    for c in &a.compactions {
        let trigger = c.trigger.map(|t| t.id().to_string());
        let tokens = c
            .tokens_before
            .map(|n| format!("{} tokens before", thousands(n)));
        let how: Vec<String> = trigger.into_iter().chain(tokens).collect();
        let how = if how.is_empty() {
            String::new()
        } else {
            format!(" ({})", how.join(", "))
        };
        let _ = writeln!(out, "\nCompaction at {record} {}{how}", c.record);
        if !c.readable {
            let _ = writeln!(
                out,
                "  Its summary is encrypted: it happened, and what it kept cannot be read."
            );
        }
        let count = |f: Fate| c.count(f);
        let _ = writeln!(
            out,
            "  {} in force: {} kept, {} re-injected, {} weakened, {} dropped, {} contradicted",
            plural(c.rules.len(), "rule", "rules"),
            count(Fate::Kept),
            count(Fate::Reinjected),
            count(Fate::Weakened),
            count(Fate::Dropped),
            count(Fate::Contradicted)
        );
        let summary = c.summary_text(t);
        let mut ordered: Vec<&SessionRule> = c.rules.iter().collect();
        ordered.sort_by_key(|r| std::cmp::Reverse(r.rule.fate));
        for r in ordered {
            let _ = writeln!(
                out,
                "  {:<13} {record} {} [{}, {}]: {}",
                fate_word(r.rule.fate),
                r.record,
                who(log, r),
                r.rule.kind.label(),
                quote(&r.rule.text, 120)
            );
            if let Some(file) = &r.from_file {
                let _ = writeln!(
                    out,
                    "                re-read from {file} on disk after the compaction: its fate depends on the file as it is now, which the log does not hold"
                );
            }
            if let (Some(AfterPart::Summary), Some(e)) = (r.after_part, r.rule.evidence) {
                let how = match (r.rule.fate, e.weakening) {
                    (Fate::Contradicted, _) => "broken by".to_string(),
                    (Fate::Weakened, Some(w)) => format!("weakened ({})", w.words()),
                    (Fate::Dropped, _) => "closest in the summary".to_string(),
                    _ => "in the summary".to_string(),
                };
                let _ = writeln!(
                    out,
                    "                {how}: {}",
                    quote(e.span.of(summary), 110)
                );
            }
            if r.after_part == Some(AfterPart::Kept) {
                let _ = writeln!(out, "                kept verbatim by the harness");
            }
        }
        if !c.unjudged.is_empty() {
            let _ = writeln!(
                out,
                "  {} the encrypted summary may or may not keep:",
                plural(c.unjudged.len(), "rule", "rules")
            );
            for r in &c.unjudged {
                let _ = writeln!(
                    out,
                    "  {:<13} {record} {}: {}",
                    "?",
                    r.record,
                    quote(&r.rule.text, 120)
                );
            }
        }
        for i in &c.invented {
            let _ = writeln!(
                out,
                "  INVENTED      in the summary: {}",
                quote(&i.text, 120)
            );
        }
        for ch in &c.changed_ids {
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
        if !c.unsupported.is_empty() {
            let texts: Vec<&str> = c.unsupported.iter().map(|u| u.text.as_str()).collect();
            let _ = writeln!(
                out,
                "  unsupported details in the summary: {}",
                texts.join(", ")
            );
        }
    }
    let broke = a.compactions.iter().filter(|c| c.broke_rules()).count();
    let _ = writeln!(
        out,
        "\n{}",
        if broke == 0 {
            "No compaction lost a rule.".to_string()
        } else {
            format!(
                "Drift: {} of {} weakened, dropped or broke a rule, invented one or re-bound an id.",
                plural(broke, "compaction", "compactions"),
                a.compactions.len()
            )
        }
    );
}

/// `drift audit LOG… --retention`.
pub fn retention(paths: &[String], json: bool) -> Result<String, String> {
    let mut measured = MeasuredRetention::default();
    for p in paths {
        measured.add(&read(p)?.audit);
    }
    let defaults = drift_core::Retention::default();
    if json {
        let kinds: serde_json::Map<String, serde_json::Value> = measured
            .kinds
            .iter()
            .map(|(k, c)| {
                let (low, high) = c.interval().unwrap_or((0.0, 1.0));
                (
                    k.id().to_string(),
                    serde_json::json!({
                        "rules": c.rules, "kept": c.kept, "weakened": c.weakened,
                        "dropped": c.dropped, "contradicted": c.contradicted,
                        "estimate": c.estimate(), "low": low, "high": high,
                        "default": defaults.get(*k),
                    }),
                )
            })
            .collect();
        let retention: serde_json::Map<String, serde_json::Value> = measured
            .retention()
            .into_iter()
            .map(|(k, v)| (k.id().to_string(), serde_json::Value::from(round2(v))))
            .collect();
        let doc = serde_json::json!({
            "format": "compaction-drift/retention@1",
            "logs": measured.logs,
            "compactions": measured.compactions,
            "unreadable": measured.unreadable,
            "kinds": kinds,
            "retention": retention,
        });
        return Ok(format!(
            "{}\n",
            serde_json::to_string_pretty(&doc).unwrap_or_default()
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
        "  {:<16} {:>5} {:>5} {:>8} {:>7} {:>12} {:>8}  {:<11} {:>7}",
        "kind",
        "rules",
        "kept",
        "weakened",
        "dropped",
        "contradicted",
        "estimate",
        "95% range",
        "default"
    );
    for (k, c) in &measured.kinds {
        let (low, high) = c.interval().unwrap_or((0.0, 1.0));
        let _ = writeln!(
            out,
            "  {:<16} {:>5} {:>5} {:>8} {:>7} {:>12} {:>8.2}  {:<11} {:>7.2}",
            k.label(),
            c.rules,
            c.kept,
            c.weakened,
            c.dropped,
            c.contradicted,
            c.estimate().unwrap_or(0.0),
            format!("{low:.2}-{high:.2}"),
            defaults.get(*k)
        );
    }
    let block: Vec<String> = measured
        .retention()
        .into_iter()
        .map(|(k, v)| format!("\"{}\": {}", k.id(), round2(v)))
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

fn round2(v: f64) -> f64 {
    (v * 100.0).round() / 100.0
}
