//! Reading what a command is given: text from a file or stdin, session
//! logs (with a Claude Code session's subagent logs), and scenarios from a
//! file or the built-ins. Every error names the file (for a log, the line).

use std::io::Read as _;

use drift_core::{Scenario, builtin, builtin_ids, parse_scenario};
use drift_session::{Transcript, TranscriptFormat, read_transcript};

use crate::error::Error;

/// Reads a file (or stdin for `-`) as UTF-8 text; the error names the file.
pub fn read_text(path: &str, which: &str) -> Result<String, Error> {
    let bytes = if path == "-" {
        let mut buf = Vec::new();
        std::io::stdin()
            .read_to_end(&mut buf)
            .map_err(|e| Error::input(format!("{which} (stdin): cannot read: {e}")))?;
        buf
    } else {
        std::fs::read(path).map_err(|e| Error::at(path, format!("cannot read {which}: {e}")))?
    };
    String::from_utf8(bytes).map_err(|e| {
        Error::at(
            path,
            format!(
                "{which} is not UTF-8 text (invalid byte at offset {})",
                e.utf8_error().valid_up_to()
            ),
        )
    })
}

/// Reads a file (or stdin) as a transcript; the error names the file. A
/// line that could not be read (torn) is said on stderr, naming it, and the
/// rest of the log is read.
pub fn read_log(path: &str, which: &str) -> Result<(String, Transcript), Error> {
    let text = read_text(path, which)?;
    let transcript = parse_log(path, &text)?;
    Ok((text, transcript))
}

/// `text`, read from `path`, as a transcript (see [`read_log`]).
pub fn parse_log(path: &str, text: &str) -> Result<Transcript, Error> {
    let transcript = read_transcript(text).map_err(|e| Error::at(path, e))?;
    for d in &transcript.damaged {
        eprintln!(
            "drift: {path}: line {} is damaged (not JSON from column {}: {}): skipped, the rest of the log is read",
            d.line, d.column, d.message
        );
    }
    Ok(transcript)
}

/// The subagent logs of a Claude Code session at `path`, added to
/// `transcript`: `<session>/subagents/agent-*.jsonl` (2.1), and the
/// `agent-*.jsonl` files beside the session whose lines name its session id
/// (2.0). Returns their paths.
pub fn read_agent_logs(path: &str, transcript: &mut Transcript) -> Result<Vec<String>, Error> {
    let session = std::path::Path::new(path);
    if transcript.format != TranscriptFormat::ClaudeCodeSession || path == "-" {
        return Ok(Vec::new());
    }
    let mut found: Vec<std::path::PathBuf> = Vec::new();
    let listed = |dir: &std::path::Path| -> Vec<std::path::PathBuf> {
        let mut files: Vec<std::path::PathBuf> = std::fs::read_dir(dir)
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| {
                        p.file_name()
                            .and_then(|n| n.to_str())
                            .is_some_and(|n| n.starts_with("agent-") && n.ends_with(".jsonl"))
                    })
                    .collect()
            })
            .unwrap_or_default();
        files.sort();
        files
    };
    found.extend(listed(&session.with_extension("").join("subagents")));
    let session_id = session.file_stem().and_then(|s| s.to_str()).unwrap_or("");
    if let Some(dir) = session.parent().filter(|_| !session_id.is_empty()) {
        for file in listed(dir) {
            let names_session = std::fs::read_to_string(&file)
                .ok()
                .and_then(|t| t.lines().next().map(|l| l.contains(session_id)))
                .unwrap_or(false);
            if names_session {
                found.push(file);
            }
        }
    }
    let mut read = Vec::new();
    for file in found {
        let shown = file.display().to_string();
        let text = std::fs::read_to_string(&file)
            .map_err(|e| Error::at(&shown, format!("cannot read: {e}")))?;
        transcript
            .add_agent_log(&text)
            .map_err(|e| Error::at(&shown, e))?;
        read.push(shown);
    }
    Ok(read)
}

/// Reads a scenario from a file, or a built-in by id.
pub fn scenario(input: &str) -> Result<Scenario, Error> {
    let path = std::path::Path::new(input);
    if path.is_file() {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::at(input, format!("cannot read: {e}")))?;
        return parse_scenario(&text).map_err(|e| Error::at(input, e));
    }
    builtin_scenario(input)
}

/// The built-in scenario `id`, or an error naming every built-in.
pub fn builtin_scenario(id: &str) -> Result<Scenario, Error> {
    builtin(id).ok_or_else(|| {
        let ids: Vec<&str> = builtin_ids().collect();
        Error::at(
            id,
            format!(
                "no such file or built-in scenario (built-ins: {})",
                ids.join(", ")
            ),
        )
    })
}
