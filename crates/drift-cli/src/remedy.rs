//! `drift remedy FILE|ID|LOG [--harness ID]`: the change to a harness that
//! keeps the rules that matter through compaction, as text to paste, each
//! with the public source of the setting it uses.
//!
//! The rules that matter: for a scenario (a file or a built-in id), the
//! standing rules, carve-outs, corrections, scopes and bindings that govern
//! an action failing under the harness ([`drift_core::rules_at_stake`]); for
//! a session log, the rules (and re-attributed ids) its compactions lost
//! ([`drift_session::session_losses`]), and those an encrypted compaction
//! may have lost. For a scenario, each remedy is also
//! modelled ([`drift_core::apply_remedy`]) and the run with it is set beside
//! the run without. `--harness` takes a harness preset's id or `opencode`;
//! without it, the harness the scenario's policy or the log's format names.

use std::fmt::Write as _;
use std::path::Path;

use drift_core::{
    Outcome, Remedied, RemedyHarness, RemedyPaths, RemedyRule, RemedyText, Run, Scenario,
    apply_remedy, explain, parse_scenario, remedy_rules, remedy_text, simulate, unheard_hooks,
    window_misfit,
};
use drift_session::{
    SessionAudit, Transcript, audit_session,
    restate::{LossKind, place, session_losses_with, speaker, when},
};

use crate::error::Error;
use crate::load::{parse_log, read_agent_logs, read_text};
use crate::text::{plural, quote};

/// The `format` of `drift remedy --format json`.
pub const REMEDY_FORMAT: &str = "compaction-drift/remedy@1";

/// What `drift remedy` was asked for.
#[derive(Debug)]
pub struct Request {
    /// A scenario file, a built-in id or a session log (`-` for stdin).
    pub input: String,
    /// `--harness`.
    pub harness: Option<String>,
    /// `--format json`.
    pub json: bool,
    /// `--tool-policy`: also the policies a tool's output announced.
    pub tool_policy: bool,
}

/// What the remedy is worked out for, as read: a scenario, or a session
/// log and its audit.
enum Subject {
    Scenario(Box<Scenario>),
    Log {
        transcript: Box<Transcript>,
        audit: SessionAudit,
    },
}

/// The paths and commands a remedy names, for this machine: the running
/// drift's path (as `--install` registers it) and `$HOME`.
fn machine() -> RemedyPaths {
    RemedyPaths {
        drift: crate::install::drift().unwrap_or_else(|_| "drift".to_string()),
        home: std::env::var("HOME")
            .ok()
            .filter(|h| !h.is_empty())
            .unwrap_or_else(|| "/home/you".to_string()),
    }
}

/// Reads `input`: a built-in id, a scenario file (JSON whose `format` is a
/// scenario's), or a session log.
fn read(input: &str) -> Result<Subject, Error> {
    let path = Path::new(input);
    if input != "-" && !path.exists() {
        return crate::load::builtin_scenario(input).map(|s| Subject::Scenario(Box::new(s)));
    }
    let text = read_text(input, "the input")?;
    let is_scenario = serde_json::from_str::<serde_json::Value>(&text)
        .ok()
        .and_then(|v| v.get("format")?.as_str().map(str::to_string))
        .is_some_and(|f| f.starts_with("compaction-drift/scenario"));
    if is_scenario {
        return parse_scenario(&text)
            .map(|s| Subject::Scenario(Box::new(s)))
            .map_err(|e| Error::at(input, e));
    }
    let mut transcript = parse_log(input, &text)?;
    read_agent_logs(input, &mut transcript)?;
    let audit = audit_session(&transcript);
    Ok(Subject::Log {
        transcript: Box::new(transcript),
        audit,
    })
}

fn harness_ids() -> String {
    let ids: Vec<&str> = RemedyHarness::ALL.iter().map(|h| h.id()).collect();
    ids.join(", ")
}

/// The harness asked for, or the one the input names.
fn harness(request: &Request, subject: &Subject) -> Result<RemedyHarness, Error> {
    if let Some(id) = &request.harness {
        return RemedyHarness::from_id(id).ok_or_else(|| {
            Error::input(format!(
                "--harness {id}: not a harness (harnesses: {})",
                harness_ids()
            ))
        });
    }
    let input = &request.input;
    match subject {
        Subject::Scenario(s) => match s.policy {
            drift_core::PolicyChoice::Preset(p) => RemedyHarness::of_preset(p),
            drift_core::PolicyChoice::Custom(_) => None,
        }
        .ok_or_else(|| {
            Error::at(
                input,
                format!(
                    "its policy {} is not a harness's; give --harness ({})",
                    s.policy.id(),
                    harness_ids()
                ),
            )
        }),
        Subject::Log { transcript, .. } => transcript.format.remedy_harness().ok_or_else(|| {
            Error::at(
                input,
                format!(
                    "plain text names no harness; give --harness ({})",
                    harness_ids()
                ),
            )
        }),
    }
}

/// A remedy modelled on a scenario: both runs.
struct Modelled {
    remedied: Remedied,
    without: Run,
    with: Run,
}

fn model(scenario: &Scenario, h: RemedyHarness, input: &str) -> Result<Vec<Modelled>, Error> {
    h.remedies()
        .iter()
        .map(|&r| {
            let remedied = apply_remedy(scenario, h, r)
                .map_err(|e| Error::input(format!("{input} under {}: {e}", h.id())))?;
            let without = simulate(&remedied.without).map_err(|e| Error::at(input, e))?;
            let with = simulate(&remedied.with).map_err(|e| Error::at(input, e))?;
            Ok(Modelled {
                remedied,
                without,
                with,
            })
        })
        .collect()
}

fn failing(o: Outcome) -> bool {
    matches!(o, Outcome::Ungoverned | Outcome::Misbound)
}

/// What a log's compactions lost, and the rules an encrypted compaction
/// may have lost (nobody can read what it kept), as
/// [`drift_session::restate::session_losses_with`] lists them.
fn log_rules(t: &Transcript, audit: &SessionAudit, tool_policy: bool) -> Vec<RemedyRule> {
    session_losses_with(t, audit, tool_policy)
        .into_iter()
        .map(|l| {
            let when = when(t, l.message);
            RemedyRule {
                kind: match l.what {
                    LossKind::Rule { kind, .. } | LossKind::Unverified { kind, .. } => kind.label(),
                    LossKind::Id { .. } => "binding",
                },
                origin: format!("{}, {}{when}", speaker(t, l.message), place(t, l.message)),
                why: l.what_happened(),
                text: l.text,
                id: None,
                position: l.message as u64 + 1,
            }
        })
        .collect()
}

/// Per action, what the remedy changed in the simulation.
fn model_lines(m: &Modelled) -> (Vec<String>, Vec<String>) {
    let s = &m.remedied.with;
    let mut changed = Vec::new();
    let mut still = Vec::new();
    for (i, ((a, before), after)) in s
        .actions
        .iter()
        .zip(m.without.actions())
        .zip(m.with.actions())
        .enumerate()
    {
        if before.outcome != after.outcome {
            changed.push(format!(
                "{} (turn {}): {} → {}",
                a.id,
                a.turn,
                before.outcome.label(),
                after.outcome.label()
            ));
        }
        if failing(after.outcome) {
            let why = explain(s, &m.with, i)
                .map(|e| e.to_string())
                .unwrap_or_default();
            still.push(format!(
                "{} (turn {}, {}): {why}",
                a.id,
                a.turn,
                after.outcome.label()
            ));
        }
    }
    let unreached: Vec<&str> = s
        .actions
        .iter()
        .zip(m.with.actions())
        .filter(|(_, g)| g.outcome == Outcome::NotReached)
        .map(|(a, _)| a.id.as_str())
        .collect();
    if let (Some(turn), false) = (m.with.overflow_turn(), unreached.is_empty()) {
        still.push(format!(
            "{} not reached: the window overflows at turn {turn} ({})",
            plural(unreached.len(), "action", "actions"),
            unreached.join(", ")
        ));
    }
    (changed, still)
}

fn failing_count(run: &Run) -> usize {
    run.actions()
        .iter()
        .filter(|a| failing(a.outcome) || a.outcome == Outcome::NotReached)
        .count()
}

/// Runs `drift remedy`: the text or JSON to print.
pub fn command(request: &Request) -> Result<String, Error> {
    let subject = read(&request.input)?;
    let h = harness(request, &subject)?;
    let machine = machine();
    let input = request.input.as_str();
    let (rules, modelled, what) = match &subject {
        Subject::Scenario(s) => {
            let modelled = model(s, h, input)?;
            let rules = modelled
                .first()
                .map(|m| remedy_rules(&m.remedied, &m.without))
                .unwrap_or_default();
            let what = format!("scenario \"{}\"", s.id);
            (rules, modelled, what)
        }
        Subject::Log { transcript, audit } => {
            let what = format!(
                "{} ({}, {})",
                input,
                transcript.format.label(),
                plural(audit.compactions.len(), "compaction", "compactions")
            );
            (
                log_rules(transcript, audit, request.tool_policy),
                Vec::new(),
                what,
            )
        }
    };
    let blocks: Vec<RemedyText> = if rules.is_empty() {
        Vec::new()
    } else {
        h.remedies()
            .iter()
            .map(|&r| remedy_text(h, r, &rules, &machine))
            .collect()
    };
    if request.json {
        return Ok(json(request, &subject, h, &rules, &blocks, &modelled));
    }
    let mut out = String::new();
    let _ = writeln!(out, "drift remedy: {what} under {} ({})", h.name(), h.id());
    let is_log = matches!(subject, Subject::Log { .. });
    if rules.is_empty() {
        let _ = writeln!(
            out,
            "\n{}",
            if is_log {
                match &subject {
                    Subject::Log { audit, .. } if audit.compactions.is_empty() => {
                        "The log records no compaction: nothing to carry.".to_string()
                    }
                    _ => "Its compactions lost no rule the harness does not put back itself: nothing to carry."
                        .to_string(),
                }
            } else {
                format!(
                    "No action fails under {} for want of a standing rule, carve-out, correction, scope or binding: nothing to carry.",
                    h.id()
                )
            }
        );
        return Ok(out);
    }
    let _ = writeln!(
        out,
        "\n{} to carry, {}:",
        plural(rules.len(), "rule", "rules"),
        if is_log {
            "each lost by a compaction (or behind an encrypted one) and not put back by the harness"
                .to_string()
        } else {
            format!(
                "each governing an action that fails under {} and no longer verbatim there",
                h.id()
            )
        }
    );
    for r in &rules {
        let name =
            r.id.as_deref()
                .map_or(String::new(), |id| format!("{id}  "));
        let _ = writeln!(out, "  {name}{} ({})", r.kind, r.origin);
        let _ = writeln!(out, "      {}", quote(&r.text, 110));
        let _ = writeln!(out, "      {}", r.why);
    }
    for (n, b) in blocks.iter().enumerate() {
        let _ = writeln!(out, "\n{}. {}: {}\n", n + 1, h.name(), b.title);
        let _ = writeln!(out, "{}", indent(&b.intro, "   "));
        for p in &b.pastes {
            let _ = writeln!(out, "\n   {}:", p.file);
            for line in p.text.lines() {
                if line.is_empty() {
                    out.push('\n');
                } else {
                    let _ = writeln!(out, "       {line}");
                }
            }
        }
        for c in &b.caveats {
            let _ = writeln!(out, "\n{}", indent(c, "   "));
        }
        if !b.sources.is_empty() {
            let _ = writeln!(out, "\n   Sources:");
            for s in &b.sources {
                let _ = writeln!(out, "     {s}");
            }
        }
        if let Some(m) = modelled.iter().find(|m| m.remedied.remedy == b.remedy) {
            let (changed, still) = model_lines(m);
            let _ = writeln!(
                out,
                "\n   In the simulation, actions failing: {} of {} without it, {} with it.",
                failing_count(&m.without),
                plural(m.without.actions().len(), "action", "actions"),
                failing_count(&m.with)
            );
            for c in &changed {
                let _ = writeln!(out, "     {c}");
            }
            for s in &still {
                let _ = writeln!(out, "     still failing: {s}");
            }
            for line in &m.remedied.modelled {
                let _ = writeln!(out, "{}", indent(&format!("Modelled: {line}"), "   "));
            }
            for line in &m.remedied.not_modelled {
                let _ = writeln!(out, "{}", indent(&format!("Not modelled: {line}"), "   "));
            }
        }
    }
    if let Some(none) = h.no_mechanism() {
        let _ = writeln!(out, "\n{}", indent(none, ""));
    }
    if let Some(unheard) = unheard_hooks(h) {
        let _ = writeln!(out, "\n{}", indent(unheard, ""));
    }
    if let Some(m) = modelled.first()
        && let Some(misfit) = window_misfit(&m.remedied.without, &m.without)
    {
        let _ = writeln!(out, "\n{}", indent(&misfit, ""));
    }
    if is_log {
        let _ = writeln!(
            out,
            "\nTo see a remedy modelled on this session: drift import {input} -o session.json, then drift remedy session.json --harness {}.",
            h.id()
        );
    }
    Ok(out)
}

/// `text` with every line after the first break indented by `prefix`; long
/// lines wrapped at 78 columns.
fn indent(text: &str, prefix: &str) -> String {
    let mut out = String::new();
    for (i, para) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        if para.starts_with("    ") {
            let _ = write!(out, "{prefix}{para}");
            continue;
        }
        let mut line = String::new();
        for word in para.split(' ') {
            if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > 78 {
                let _ = writeln!(out, "{prefix}{line}");
                line.clear();
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        if !line.is_empty() {
            let _ = write!(out, "{prefix}{line}");
        }
    }
    out
}

fn json(
    request: &Request,
    subject: &Subject,
    h: RemedyHarness,
    rules: &[RemedyRule],
    blocks: &[RemedyText],
    modelled: &[Modelled],
) -> String {
    let rules: Vec<serde_json::Value> = rules
        .iter()
        .map(|r| {
            serde_json::json!({
                "id": r.id, "kind": r.kind, "text": r.text, "from": r.origin, "why": r.why,
            })
        })
        .collect();
    let remedies: Vec<serde_json::Value> = blocks
        .iter()
        .map(|b| {
            let model = modelled
                .iter()
                .find(|m| m.remedied.remedy == b.remedy)
                .map(|m| {
                    let actions: Vec<serde_json::Value> = m
                        .remedied
                        .with
                        .actions
                        .iter()
                        .zip(m.without.actions())
                        .zip(m.with.actions())
                        .map(|((a, x), y)| {
                            serde_json::json!({
                                "id": a.id, "turn": a.turn,
                                "without": x.outcome.id(), "with": y.outcome.id(),
                            })
                        })
                        .collect();
                    serde_json::json!({
                        "policy_without": m.remedied.without.policy.id(),
                        "policy_with": m.remedied.with.policy.id(),
                        "failing_without": failing_count(&m.without),
                        "failing_with": failing_count(&m.with),
                        "actions": actions,
                        "modelled": m.remedied.modelled,
                        "not_modelled": m.remedied.not_modelled,
                    })
                });
            let pastes: Vec<serde_json::Value> = b
                .pastes
                .iter()
                .map(
                    |p| serde_json::json!({"file": p.file, "language": p.language, "text": p.text}),
                )
                .collect();
            serde_json::json!({
                "id": b.remedy.id(),
                "title": b.title,
                "intro": b.intro,
                "paste": pastes,
                "caveats": b.caveats,
                "sources": b.sources,
                "model": model,
            })
        })
        .collect();
    let kind = match subject {
        Subject::Scenario(_) => "scenario",
        Subject::Log { .. } => "log",
    };
    let doc = serde_json::json!({
        "format": REMEDY_FORMAT,
        "source": {"input": request.input, "kind": kind},
        "harness": {"id": h.id(), "name": h.name()},
        "rules": rules,
        "remedies": remedies,
        "no_mechanism": h.no_mechanism(),
        "unheard_hooks": unheard_hooks(h),
    });
    format!(
        "{}\n",
        serde_json::to_string_pretty(&doc).unwrap_or_default()
    )
}
