//! `drift audit --before BEFORE --after AFTER`: a real compaction checked
//! against what it replaced.
//!
//! BEFORE is plain text or a transcript (OpenAI Responses items, a Codex CLI
//! or Claude Code session log); AFTER is the summary. The report lists the
//! rules AFTER no longer carries, the details it asserts that BEFORE does
//! not support, ids that changed or merged, and reasoning that vanished.
//! Exit 1 when a rule was lost or a detail is unsupported.

use std::fmt::Write as _;

use drift_session::{
    Audit, Transcript, TranscriptFormat, audit,
    audit::{MessageField, Place},
    entail::Span,
};

use crate::error::Error;
use crate::load::{read_log, read_text};
use crate::text::{heading, line_of, plural, quote, section};

/// Runs the audit; returns the report and whether it found drift.
pub fn command(before_path: &str, after_path: &str, json: bool) -> Result<(String, bool), Error> {
    if before_path == "-" && after_path == "-" {
        return Err(Error::input(
            "only one of --before and --after can be read from stdin",
        ));
    }
    let (before_text, before) = read_log(before_path, "BEFORE")?;
    let after = read_text(after_path, "AFTER")?;
    let report = audit(&before, &after);
    let drifted = report.drifted() || report.broke_rules();
    let out = if json {
        let mut s = report.to_json();
        s.push('\n');
        s
    } else {
        let array = before_text.trim_start().starts_with('[');
        Renderer {
            before: &before,
            after: &after,
            array,
        }
        .text(&report, before_path, after_path)
    };
    Ok((out, drifted))
}

/// The findings besides lost rules and unsupported details, in words,
/// those there are.
fn more_findings(a: &Audit) -> Vec<String> {
    let weakened = a
        .rules
        .iter()
        .filter(|r| r.fate == drift_session::audit::Fate::Weakened)
        .count();
    let rebound = a
        .changed_ids
        .iter()
        .filter(|c| {
            matches!(
                c.change,
                drift_session::audit::IdChange::Swapped | drift_session::audit::IdChange::Merged
            )
        })
        .count();
    let mut parts = Vec::new();
    if weakened > 0 {
        parts.push(format!("{weakened} weakened"));
    }
    if !a.invented.is_empty() {
        parts.push(format!("{} invented", a.invented.len()));
    }
    if rebound > 0 {
        parts.push(format!("{} re-bound", plural(rebound, "id", "ids")));
    }
    parts
}

/// A listed statement's line: where it is, its tag (such as ` [form]`, or
/// nothing) and its text, quoted.
fn statement(out: &mut String, at: &str, tag: &str, text: &str) {
    let _ = writeln!(out, "  {at}{tag}: {}", quote(text, 150));
}

struct Renderer<'a> {
    before: &'a Transcript,
    after: &'a str,
    /// BEFORE was a JSON array: records are items, not lines.
    array: bool,
}

impl Renderer<'_> {
    /// "line 4" for plain text; "message 3 (user, line 12)" for a transcript.
    fn place(&self, p: &Place) -> String {
        let Some(m) = self.before.messages.get(p.message) else {
            return format!("message {}", p.message + 1);
        };
        if self.before.format == TranscriptFormat::PlainText {
            return format!("line {}", line_of(&m.text, p.span.start));
        }
        let record = if self.array { "item" } else { "line" };
        let field = match p.field {
            MessageField::Text => "",
            MessageField::Arguments => ", tool arguments",
        };
        format!(
            "message {} ({}{field}, {record} {})",
            p.message + 1,
            m.role.id(),
            m.record
        )
    }

    fn after_line(&self, s: Span) -> String {
        format!("AFTER line {}", line_of(self.after, s.start))
    }

    /// Where `s` is in AFTER, and what it says there.
    fn after_quote(&self, s: Span) -> String {
        format!("{}: {}", self.after_line(s), quote(s.of(self.after), 120))
    }

    fn text(&self, a: &Audit, before_path: &str, after_path: &str) -> String {
        let mut out = String::new();
        let c = &a.counts;
        let _ = writeln!(
            out,
            "drift audit: {after_path} against {before_path} ({}, {}, {} bytes of text)",
            a.before_format.label(),
            plural(c.before_messages, "message", "messages"),
            c.before_bytes
        );

        heading(
            &mut out,
            "Constraints AFTER no longer carries",
            a.dropped_constraints.len(),
            Some(c.constraints),
        );
        for d in &a.dropped_constraints {
            let times = if d.occurrences > 1 {
                format!(", stated {} times", d.occurrences)
            } else {
                String::new()
            };
            let tag = format!(" [{}{times}]", d.form.label());
            statement(&mut out, &self.place(&d.before), &tag, &d.text);
            let pointer = (d.contradicted_by.map(|s| ("broken by", s)))
                .or(d.closest.map(|s| ("closest in", s)));
            if let Some((how, s)) = pointer {
                let _ = writeln!(out, "      {how} {}", self.after_quote(s));
            }
        }

        heading(
            &mut out,
            "Details in AFTER that BEFORE does not support",
            a.unsupported.len(),
            Some(c.details),
        );
        for u in &a.unsupported {
            let lines: Vec<String> = u
                .after
                .iter()
                .map(|s| line_of(self.after, s.start).to_string())
                .collect();
            let like = u.lookalike.as_ref().map_or(String::new(), |l| {
                format!(" (looks like {} in {})", l.text, self.place(&l.before))
            });
            let _ = writeln!(
                out,
                "  {:<10} {:<28} AFTER line {}{like}",
                u.kind.noun(),
                u.text,
                lines.join(", ")
            );
        }

        let weakened: Vec<&drift_session::audit::RuleFate> = a
            .rules
            .iter()
            .filter(|r| r.fate == drift_session::audit::Fate::Weakened)
            .collect();
        for r in section(&mut out, "Constraints AFTER weakens", &weakened) {
            statement(&mut out, &self.place(&r.before), "", &r.text);
            if let Some(e) = r.evidence {
                let why = e.weakening.map_or("", |w| w.words());
                let _ = writeln!(out, "      {} ({why})", self.after_quote(e.span));
            }
        }
        let invented = "Rules AFTER states that BEFORE never gave";
        for i in section(&mut out, invented, &a.invented) {
            statement(&mut out, &self.after_line(i.after), "", &i.text);
        }

        heading(&mut out, "Ids changed or merged", a.changed_ids.len(), None);
        for ch in &a.changed_ids {
            let verb = match ch.change {
                drift_session::audit::IdChange::Changed => "replaces",
                drift_session::audit::IdChange::Merged => "absorbs",
                drift_session::audit::IdChange::Swapped => "now carries what BEFORE said of",
            };
            let _ = writeln!(
                out,
                "  {} in {} {verb} {} of {}: {}",
                ch.after_text,
                self.after_line(ch.after),
                ch.before_text,
                self.place(&ch.before),
                quote(ch.before.of(self.before), 100)
            );
        }

        heading(
            &mut out,
            "Reasons and rejected options that vanished",
            a.vanished_reasoning.len(),
            Some(c.reasoning),
        );
        for v in &a.vanished_reasoning {
            let tag = format!(" [{}]", v.kind.label());
            statement(&mut out, &self.place(&v.before), &tag, &v.text);
        }

        out.push('\n');
        if a.drifted() || a.broke_rules() {
            let mut parts = more_findings(a);
            parts.insert(
                0,
                format!(
                    "{} lost, {} unsupported",
                    plural(a.dropped_constraints.len(), "constraint", "constraints"),
                    plural(a.unsupported.len(), "detail", "details")
                ),
            );
            let _ = writeln!(out, "Drift: {}.", parts.join(", "));
        } else {
            out.push_str("No drift: every constraint carried, every detail supported.\n");
        }
        out
    }
}
