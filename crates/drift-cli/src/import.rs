//! `drift import TRANSCRIPT [-o FILE]`: a real session as a scenario file.
//!
//! TRANSCRIPT is plain text, OpenAI Responses items, or a Codex CLI or
//! Claude Code session log (`-` for stdin). The scenario (`scenario@1`)
//! goes to FILE, or to stdout without `-o`; the summary of what was guessed
//! (every fact with its kind and cue, every action with its pattern and
//! governing facts, every call skipped, with the line each came from) goes
//! to stdout with `-o`, to stderr without, so that the JSON can be piped.

use std::fmt::Write as _;
use std::io::Write as _;

use drift_core::{Kind, Preset, scenario_to_json, thousands};
use drift_session::{
    ImportOptions, Imported, MessageRole, Transcript, TranscriptFormat,
    audit::Fate,
    import,
    import::{Governance, Notice, Origin, SkipReason, SkippedAction},
};

use crate::error::Error;
use crate::load::{read_agent_logs, read_log};
use crate::text::{heading, line_of, plural, quote, section};

/// What `drift import` was asked for.
#[derive(Debug)]
pub struct Request {
    /// The transcript's path, or `-`.
    pub transcript: String,
    /// Where to write the scenario (stdout when `None`).
    pub output: Option<String>,
    /// The context window.
    pub window: Option<u64>,
    /// The policy (by default the preset for the transcript's format).
    pub policy: Option<Preset>,
    /// The scenario id (by default made from the file name).
    pub id: Option<String>,
}

/// Runs the import; returns what to print on stdout, or the error naming
/// the file (and the line, for a broken line).
pub fn command(request: &Request) -> Result<String, Error> {
    let path = request.transcript.as_str();
    let (text, mut transcript) = read_log(path, "TRANSCRIPT")?;
    let agent_logs = read_agent_logs(path, &mut transcript)?;
    let options = ImportOptions {
        id: request.id.clone().unwrap_or_else(|| id_from_path(path)),
        window_tokens: request
            .window
            .unwrap_or(ImportOptions::DEFAULT_WINDOW_TOKENS),
        policy: request.policy,
        ..ImportOptions::default()
    };
    let imported = import(&transcript, &options);
    let mut json = scenario_to_json(&imported.scenario);
    json.push('\n');
    let summary = Summary {
        transcript: &transcript,
        array: text.trim_start().starts_with('['),
        agent_logs: &agent_logs,
    }
    .render(&imported, path, request.output.as_deref());
    match request.output.as_deref() {
        Some(out) => {
            std::fs::write(out, json).map_err(|e| Error::at(out, format!("cannot write: {e}")))?;
            Ok(summary)
        }
        None => {
            // A closed stderr is no reason to withhold the scenario.
            let _ = std::io::stderr().write_all(summary.as_bytes());
            Ok(json)
        }
    }
}

/// An id from a file name: its stem, lowercase, runs of anything but ASCII
/// letters and digits as one dash.
fn id_from_path(path: &str) -> String {
    let stem = std::path::Path::new(path)
        .file_stem()
        .and_then(|s| s.to_str())
        .filter(|_| path != "-")
        .unwrap_or("");
    let mut id = String::new();
    for c in stem.chars() {
        if c.is_ascii_alphanumeric() {
            id.push(c.to_ascii_lowercase());
        } else if !id.is_empty() && !id.ends_with('-') {
            id.push('-');
        }
    }
    let id = id.trim_end_matches('-');
    if id.is_empty() {
        ImportOptions::DEFAULT_ID.to_string()
    } else {
        id.to_string()
    }
}

struct Summary<'a> {
    transcript: &'a Transcript,
    /// A JSON array: records are items, not lines.
    array: bool,
    /// The subagent logs read with it.
    agent_logs: &'a [String],
}

impl Summary<'_> {
    /// "line 12" (or "item 4" in a JSON array; for plain text, the line of
    /// the span).
    /// A section of consequential calls that are no actions, if there are
    /// any: `title` and `after` around how many, then a line for each, which
    /// says why the call was skipped when `why`.
    fn calls(
        &self,
        out: &mut String,
        title: &str,
        after: &str,
        calls: &[&SkippedAction],
        why: bool,
    ) {
        if calls.is_empty() {
            return;
        }
        let n = plural(calls.len(), "consequential call", "consequential calls");
        let _ = writeln!(out, "\n{title}: {n} {after}");
        for k in calls {
            let (width, reason) = if why {
                (80, format!(" ({})", k.why.words()))
            } else {
                (90, String::new())
            };
            let _ = writeln!(
                out,
                "{} {}  {}{reason}",
                self.columns(k.origin.turn, &k.origin),
                k.pattern.id,
                quote(&format!("{}: {}", k.tool, k.command), width)
            );
        }
    }

    /// The start of a listed item's line: its turn and its place, in
    /// columns.
    fn columns(&self, turn: u32, origin: &Origin) -> String {
        format!("  turn {turn:<5} {:<10}", self.place(origin))
    }

    fn place(&self, origin: &Origin) -> String {
        if self.transcript.format == TranscriptFormat::PlainText {
            // The one message is the whole file.
            let text = self
                .transcript
                .messages
                .get(origin.place.message)
                .map_or("", |m| m.text.as_str());
            return format!("line {}", line_of(text, origin.place.span.start));
        }
        let record = if self.array { "item" } else { "line" };
        let file = self
            .transcript
            .messages
            .get(origin.place.message)
            .map_or(0, |m| m.file);
        match file
            .checked_sub(1)
            .and_then(|i| self.transcript.agent_logs.get(i))
        {
            Some(agent) => format!("agent {agent} {record} {}", origin.record),
            None => format!("{record} {}", origin.record),
        }
    }

    fn render(&self, imported: &Imported, path: &str, output: Option<&str>) -> String {
        let s = &imported.scenario;
        let h = &s.harness;
        let mut out = String::new();
        let skipped = if imported.records_skipped > 0 {
            format!(
                "; {} skipped",
                plural(imported.records_skipped, "record", "records")
            )
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "drift import: {path} ({}, {}{skipped})",
            imported.format.label(),
            plural(self.transcript.messages.len(), "message", "messages"),
        );
        let _ = writeln!(
            out,
            "Scenario \"{}\": {}, system prompt ~{} tokens, ~{} tokens a turn (estimates: characters / 4), window {}, policy {}",
            s.id,
            plural(h.turns as usize, "turn", "turns"),
            thousands(h.system_tokens),
            thousands(h.tokens_per_turn),
            thousands(h.window_tokens),
            s.policy.id()
        );
        for notice in &imported.notices {
            let _ = writeln!(out, "  note: {notice}");
        }
        if let Some(line) = imported.truncated {
            let _ = writeln!(
                out,
                "  note: line {line} is cut off (the log is still being written): read up to it"
            );
        }
        for log in self.agent_logs {
            let _ = writeln!(out, "  subagent log read: {log}");
        }
        if !imported.skipped_records.is_empty() {
            let kinds: Vec<String> = imported
                .skipped_records
                .iter()
                .map(|(kind, n)| format!("{kind} {n}"))
                .collect();
            let _ = writeln!(out, "  records skipped, by type: {}", kinds.join(", "));
        }
        for c in section(&mut out, "Compactions in the log", &imported.compactions) {
            let record = if self.array { "item" } else { "line" };
            let trigger = c.trigger.map_or("", |t| t.id());
            let tokens = c
                .tokens_before
                .map(|n| format!("{} tokens before", thousands(n)));
            let what: Vec<&str> = [Some(trigger).filter(|t| !t.is_empty())]
                .into_iter()
                .flatten()
                .chain(tokens.as_deref())
                .chain(
                    c.encrypted
                        .then_some("encrypted: what it kept cannot be read"),
                )
                .collect();
            let detail = if what.is_empty() {
                String::new()
            } else {
                format!(" ({})", what.join(", "))
            };
            let _ = writeln!(
                out,
                "  after turn {:<5} {record} {}{detail}",
                c.turn, c.record
            );
        }

        heading(&mut out, "Facts (guessed)", s.facts.len(), None);
        for (g, f) in imported.facts.iter().zip(&s.facts) {
            let times = if g.occurrences > 1 {
                format!(", stated {} times", g.occurrences)
            } else {
                String::new()
            };
            // A standing rule says which of its forms it is; every other
            // kind is its form.
            let form = if f.kind == Kind::StandingRule {
                format!(", {}", g.form.label())
            } else {
                String::new()
            };
            let who = match g.origin.role {
                MessageRole::Unknown => format!("{}, plain text", f.role.id()),
                role if role.id() != f.role.id() => {
                    format!("{}, from a {} message", f.role.id(), role.id())
                }
                _ => f.role.id().to_string(),
            };
            let _ = writeln!(
                out,
                "{} {}  {}{form} ({who}; {}% a rule{times})",
                self.columns(f.turn, &g.origin),
                f.id,
                f.kind.label(),
                g.confidence / 10,
            );
            let _ = writeln!(out, "      {}", quote(&f.text, 110));
        }

        heading(&mut out, "Actions (guessed)", s.actions.len(), None);
        for (g, a) in imported.actions.iter().zip(&s.actions) {
            let irreversible = if a.irreversible { ", irreversible" } else { "" };
            let source = if g.in_tool_name {
                " in the tool name"
            } else {
                ""
            };
            let _ = writeln!(
                out,
                "{} {}  {} (\"{}\"{source}{irreversible})",
                self.columns(a.turn, &g.origin),
                a.id,
                g.pattern.label,
                g.matched,
            );
            let _ = writeln!(out, "      {}", quote(&a.text, 110));
            let why = match &g.governance {
                Governance::SharedResources(names) => format!("sharing {}", names.join(", ")),
                Governance::EveryConstraintBefore => {
                    "no fact names what it acts on: every rule, carve-out and correction before it"
                        .to_string()
                }
            };
            let _ = writeln!(
                out,
                "      governed by {} ({why})",
                a.governed_by.join(", ")
            );
        }

        let (ungoverned, not_run): (Vec<&SkippedAction>, Vec<&SkippedAction>) = imported
            .skipped
            .iter()
            .partition(|k| k.why == SkipReason::NothingBefore);
        self.calls(
            &mut out,
            "Skipped",
            "with nothing before it to govern it",
            &ungoverned,
            false,
        );
        self.calls(
            &mut out,
            "Not run",
            "(no action: the agent did not take them)",
            &not_run,
            true,
        );

        self.beside(&mut out, imported);

        out.push_str(
            "\nEvery kind, action and governing fact above is a guess from the session's words: \
             check them (in the page, or in the file) before trusting a simulation.\n",
        );
        if let Some(file) = output {
            let _ = writeln!(out, "Wrote {file}");
        }
        out
    }
}

impl Summary<'_> {
    /// The model's rounds beside the log's compactions, rule by rule: the
    /// rules where the two disagree, and how often they agree.
    fn beside(&self, out: &mut String, imported: &Imported) {
        let placed = imported
            .notices
            .iter()
            .find_map(|n| match n {
                Notice::RoundsPlaced { placed, .. } => Some(*placed),
                _ => None,
            })
            .unwrap_or(0);
        if placed == 0 {
            return;
        }
        let Ok(run) = drift_core::simulate(&imported.scenario) else {
            return;
        };
        let audit = drift_session::audit_session(self.transcript);
        let lineage = drift_session::lineage(self.transcript, &audit);
        let facts: Vec<(String, usize)> = imported
            .facts
            .iter()
            .map(|g| (g.id.clone(), g.rule))
            .collect();
        let b = drift_session::import::beside(
            &imported.scenario,
            &run,
            &facts,
            &drift_session::import::measured(&lineage),
            placed,
        );
        if b.compared == 0 {
            return;
        }
        let _ = writeln!(
            out,
            "\nThe model beside the log: {} of {} rule × round agree on whether the rule is carried (the model: fidelity at the line or above; the log: kept, put back or weakened)",
            b.agree, b.compared
        );
        for row in b.rows.iter().filter(|r| r.disagrees()).take(20) {
            let cells: Vec<String> = row
                .cells
                .iter()
                .enumerate()
                .map(|(k, c)| {
                    let model = c.modelled.map_or("-".to_string(), |f| format!("{f:.2}"));
                    let log = match (c.measured, c.verbatim) {
                        (Some(Fate::Kept), true) => "verbatim",
                        (Some(f), _) => f.id(),
                        (None, _) => "-",
                    };
                    let mark = match c.agree {
                        Some(false) => " ≠",
                        _ => "",
                    };
                    format!("#{} model {model} / log {log}{mark}", k + 1)
                })
                .collect();
            let _ = writeln!(out, "  {}: {}", row.id, cells.join(" · "));
        }
        let disagreeing = b.rows.iter().filter(|r| r.disagrees()).count();
        if disagreeing > 20 {
            let _ = writeln!(out, "  … and {} more rules that disagree", disagreeing - 20);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_from_paths() {
        assert_eq!(
            id_from_path("sessions/Rollout 2026-01-03.jsonl"),
            "rollout-2026-01-03"
        );
        assert_eq!(id_from_path("-"), "imported-session");
        assert_eq!(id_from_path("~/.claude/x/__.jsonl"), "imported-session");
    }

    #[test]
    fn thousands_are_grouped() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(200_000), "200,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
