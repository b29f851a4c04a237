//! `drift hook claude-code`: a Claude Code `SessionStart` hook (matcher
//! `compact`) that puts back what the compaction just lost.
//!
//! Claude Code runs it after every compaction with a JSON object on stdin
//! (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source`).
//! When `source` is `compact`, it reads the session log at
//! `transcript_path` (with its subagent logs), audits the log's latest
//! compaction and prints
//! `{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": …}}`,
//! where the context restates, word for word and with where each came
//! from, every rule of the user's, a brief's, the system's or an
//! instruction file's that the summary weakened, dropped or contradicts
//! and every id it swapped or merged, within a token budget and never more
//! than Claude Code's 10,000 characters ([`drift_session::restate`]). What
//! a tool's output said is data, never restated as a rule: a policy it
//! announced (a freeze, a lock) is restated only with `--tool-policy`, and
//! then as what a tool printed. For any other source, or when nothing was
//! lost, it prints nothing.
//!
//! It never stands in the session's way: whatever goes wrong (garbage on
//! stdin, a missing or unreadable log, a bad flag) it exits 0 with one line
//! on stderr. It never exits 2, which Claude Code reads as a blocking error.

use std::io::Read as _;
use std::path::{Path, PathBuf};

use drift_session::{audit_latest_compaction, losses_with, read_transcript, restate};

use crate::import::read_agent_logs;

/// The most stdin the hook reads: Claude Code sends a few hundred bytes.
const MAX_INPUT: u64 = 4 << 20;

/// What the hook does with one invocation.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Print this on stdout (the hook's JSON, with its newline).
    Context(String),
    /// Print nothing: another source, or nothing to restate.
    Nothing,
    /// One line for stderr: what went wrong. Still exit 0.
    Failed(String),
}

/// Runs the hook on `input` (the JSON Claude Code sent), restating within
/// `max_tokens`; the policies a tool's output announced only with
/// `tool_policy`, and then as what a tool printed.
pub fn respond(input: &[u8], max_tokens: usize, tool_policy: bool) -> Outcome {
    let value: serde_json::Value = match serde_json::from_slice(input) {
        Ok(v) => v,
        Err(e) => {
            return Outcome::Failed(format!(
                "stdin is not the JSON a Claude Code hook receives ({e}): nothing restated"
            ));
        }
    };
    let Some(object) = value.as_object() else {
        return Outcome::Failed(
            "stdin is JSON but not an object, so not a Claude Code hook's input: nothing restated"
                .to_string(),
        );
    };
    let text = |key: &str| object.get(key).and_then(serde_json::Value::as_str);
    if let Some(event) = text("hook_event_name").filter(|e| *e != "SessionStart") {
        return Outcome::Failed(format!(
            "registered for {event}; drift hook claude-code is a SessionStart hook (matcher \"compact\"): nothing restated"
        ));
    }
    match text("source") {
        Some("compact") => {}
        Some(_) => return Outcome::Nothing,
        None => {
            return Outcome::Failed(
                "the hook input has no \"source\": not a SessionStart hook's input, nothing restated"
                    .to_string(),
            );
        }
    }
    let Some(path) = text("transcript_path").filter(|p| !p.trim().is_empty()) else {
        return Outcome::Failed(
            "the hook input has no \"transcript_path\": nothing restated".to_string(),
        );
    };
    let mut file = PathBuf::from(path);
    if file.is_relative()
        && let Some(cwd) = text("cwd")
    {
        file = Path::new(cwd).join(file);
    }
    let shown = file.display().to_string();
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => return Outcome::Failed(format!("{shown}: cannot read: {e}")),
    };
    let log = String::from_utf8_lossy(&bytes);
    let mut transcript = match read_transcript(&log) {
        Ok(t) => t,
        Err(e) => return Outcome::Failed(format!("{shown}: {e}")),
    };
    // A subagent log that cannot be read leaves the main log's rules to
    // restate: the audit judges the main context only.
    let _ = read_agent_logs(&shown, &mut transcript);
    let Some(audit) = audit_latest_compaction(&transcript) else {
        return Outcome::Nothing;
    };
    let lost = losses_with(&transcript, &audit, tool_policy);
    let Some(restatement) = restate(&transcript, &audit, &lost, max_tokens) else {
        return Outcome::Nothing;
    };
    let output = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": "SessionStart",
            "additionalContext": restatement.text,
        }
    });
    Outcome::Context(format!("{output}\n"))
}

/// Reads stdin (at most [`MAX_INPUT`] bytes) and runs the hook.
pub fn run(max_tokens: usize, tool_policy: bool) -> Outcome {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().take(MAX_INPUT).read_to_end(&mut input) {
        return Outcome::Failed(format!("cannot read stdin: {e}"));
    }
    respond(&input, max_tokens, tool_policy)
}
