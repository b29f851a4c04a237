//! `drift hook claude-code` and `drift hook codex`: a `SessionStart` hook
//! (matcher `compact`) that puts back what the compaction just lost. Each
//! harness's hook is its [`CompactHook`] in drift-core's harness table.
//!
//! The harness runs it after every compaction with a JSON object on stdin
//! (`session_id`, `transcript_path`, `cwd`, `hook_event_name`, `source`;
//! Codex adds `model` and `permission_mode`, and may send a null
//! `transcript_path`).
//! When `source` is `compact`, it reads the session log at
//! `transcript_path` (with its subagent logs), audits the log's latest
//! compaction and prints
//! `{"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": …}}`,
//! (the only keys either harness accepts) where the context restates, word
//! for word and with where each came from, every rule of the user's, a
//! brief's, the system's or an instruction file's that the summary
//! weakened, dropped or contradicts and every id it swapped or merged, and
//! every such rule an encrypted summary (Codex's remote compaction) may
//! have lost, within a token budget and never more than the harness passes
//! on whole ([`CompactHook::max_chars`], 10,000 characters;
//! [`drift_session::restate`]). What
//! a tool's output said is data, never restated as a rule: a policy it
//! announced (a freeze, a lock) is restated only with `--tool-policy`, and
//! then as what a tool printed. For any other source, or when nothing was
//! lost, it prints nothing.
//!
//! It never stands in the session's way: whatever goes wrong (garbage on
//! stdin, a missing or unreadable log, a bad flag) it exits 0 with one line
//! on stderr. It never exits 2, which Claude Code reads as a blocking error
//! (Codex ignores the output of any exit but 0).

use std::io::Read as _;
use std::path::{Path, PathBuf};

use drift_core::{CompactHook, RemedyHarness};
use drift_session::{
    audit::audit_latest_compaction, read_transcript, restate, restate::losses_with,
};

use crate::error::Error;
use crate::load::read_agent_logs;

/// The most stdin the hook reads: a harness sends a few hundred bytes.
const MAX_INPUT: u64 = 4 << 20;

/// Runs `harness`'s hook on `input` (the JSON the harness sent), restating
/// within `max_tokens`; the policies a tool's output announced only with
/// `tool_policy`, and then as what a tool printed. Returns what to print on
/// stdout (the hook's JSON, with its newline), or nothing (another source,
/// or nothing to restate); an error is an [`Error::Hook`], one line for
/// stderr with exit 0.
pub fn respond(
    harness: RemedyHarness,
    input: &[u8],
    max_tokens: usize,
    tool_policy: bool,
) -> Result<Option<String>, Error> {
    let Some(hook) = harness.hook() else {
        return Err(Error::Hook(format!("{} has no hook", harness.name())));
    };
    let name = harness.name();
    let value: serde_json::Value = match serde_json::from_slice(input) {
        Ok(v) => v,
        Err(e) => {
            return Err(Error::Hook(format!(
                "stdin is not the JSON a {name} hook receives ({e}): nothing restated"
            )));
        }
    };
    let Some(object) = value.as_object() else {
        return Err(Error::Hook(format!(
            "stdin is JSON but not an object, so not a {name} hook's input: nothing restated"
        )));
    };
    let text = |key: &str| object.get(key).and_then(serde_json::Value::as_str);
    if let Some(event) = text("hook_event_name").filter(|e| *e != hook.event) {
        return Err(Error::Hook(format!(
            "registered for {event}; drift hook {} is a {} hook (matcher \"{}\"): nothing restated",
            hook.command, hook.event, hook.matcher
        )));
    }
    match text("source") {
        Some(source) if source == hook.matcher => {}
        Some(_) => return Ok(None),
        None => {
            return Err(Error::Hook(
                "the hook input has no \"source\": not a SessionStart hook's input, nothing restated"
                    .to_string(),
            ));
        }
    }
    let Some(path) = text("transcript_path").filter(|p| !p.trim().is_empty()) else {
        return Err(Error::Hook(format!(
            "the hook input has no \"transcript_path\" ({name} keeps no log of this session): nothing restated"
        )));
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
        Err(e) => return Err(Error::Hook(format!("{shown}: cannot read: {e}"))),
    };
    let log = String::from_utf8_lossy(&bytes);
    let mut transcript = match read_transcript(&log) {
        Ok(t) => t,
        Err(e) => return Err(Error::Hook(format!("{shown}: {e}"))),
    };
    // A subagent log that cannot be read leaves the main log's rules to
    // restate: the audit judges the main context only.
    let _ = read_agent_logs(&shown, &mut transcript);
    let Some(audit) = audit_latest_compaction(&transcript) else {
        return Ok(None);
    };
    let lost = losses_with(&transcript, &audit, tool_policy);
    let max_tokens = max_tokens.min(hook.max_chars / 4);
    let Some(restatement) = restate(&transcript, &audit, &lost, max_tokens) else {
        return Ok(None);
    };
    Ok(Some(output(&hook, &restatement.text)))
}

/// The hook's answer: `{"hookSpecificOutput": {"hookEventName": EVENT,
/// "additionalContext": TEXT}}` and a newline. Codex rejects any other key.
fn output(hook: &CompactHook, context: &str) -> String {
    let output = serde_json::json!({
        "hookSpecificOutput": {
            "hookEventName": hook.event,
            "additionalContext": context,
        }
    });
    format!("{output}\n")
}

/// Reads stdin (at most [`MAX_INPUT`] bytes) and runs `harness`'s hook
/// ([`respond`]).
pub fn run(
    harness: RemedyHarness,
    max_tokens: usize,
    tool_policy: bool,
) -> Result<Option<String>, Error> {
    let mut input = Vec::new();
    if let Err(e) = std::io::stdin().take(MAX_INPUT).read_to_end(&mut input) {
        return Err(Error::Hook(format!("cannot read stdin: {e}")));
    }
    respond(harness, &input, max_tokens, tool_policy)
}
