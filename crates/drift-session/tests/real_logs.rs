//! Every real log in `../shared/real-logs/` (sessions people committed to
//! public repositories; see its `SOURCES.md`) reads, and every compaction
//! its row in `SOURCES.md` counts is found: summaries and Claude Code's
//! microcompactions. Every word of the user's the raw log holds is read as
//! theirs: the reasons typed when rejecting a tool call, the options chosen
//! in answer to the agent's questions; and what a rewind left behind is
//! left out, nothing else. The logs are read from there, never copied
//! here; the tests say they skipped when they are absent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use drift_session::{
    MessageRole, Transcript, read_transcript,
    transcript::{CompactionKind, Provenance},
};
use serde_json::Value;

fn logs() -> Option<PathBuf> {
    let dir = std::env::var_os("DRIFT_REAL_LOGS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-logs"),
        PathBuf::from,
    );
    dir.join("SOURCES.md").is_file().then_some(dir)
}

/// A row of `SOURCES.md`: the file, its compactions, its microcompactions.
fn rows(sources: &str) -> Vec<(String, usize, usize)> {
    sources
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(".json"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let file = cells.get(1)?.to_string();
            let comp = cells.get(8)?.parse().ok()?;
            // Claude Code rows count `cb/ics/summ/micro`; the others have
            // no microcompaction.
            let counts = cells.get(9)?;
            let micro = if counts.contains('/') {
                counts.split('/').nth(3)?.parse().ok()?
            } else {
                0
            };
            Some((file, comp, micro))
        })
        .collect()
}

#[test]
fn every_real_log_reads_and_every_compaction_is_found() {
    let Some(dir) = logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let sources = std::fs::read_to_string(dir.join("SOURCES.md")).expect("SOURCES.md reads");
    let rows = rows(&sources);
    assert!(rows.len() >= 180, "{} rows in SOURCES.md", rows.len());
    let mut wrong = Vec::new();
    for (file, comp, micro) in &rows {
        let text =
            std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        match read_transcript(&text) {
            Ok(t) => {
                let summaries = t
                    .compactions
                    .iter()
                    .filter(|c| c.kind == CompactionKind::Summary)
                    .count();
                let cleared = t.compactions.len() - summaries;
                if (summaries, cleared) != (*comp, *micro) {
                    wrong.push(format!(
                        "{file}: {summaries} compactions and {cleared} microcompactions, SOURCES.md says {comp} and {micro}"
                    ));
                }
            }
            // A log with nothing but a title or where a session came from
            // holds no conversation, and says so.
            Err(e) if e.to_string().contains("no conversation") && *comp == 0 => {}
            Err(e) => wrong.push(format!("{file}: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}

/// The Claude Code logs of `../shared/real-logs/`, read raw (each line's
/// JSON) and by the reader.
fn claude_logs() -> Option<Vec<(String, Vec<Value>, Transcript)>> {
    let dir = logs()?;
    let mut out = Vec::new();
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .ok()?
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("claude-") && n.ends_with(".jsonl"))
        .collect();
    names.sort();
    for name in names {
        let text =
            std::fs::read_to_string(dir.join(&name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let raw = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap_or(Value::Null))
            .collect();
        if let Ok(t) = read_transcript(&text) {
            out.push((name, raw, t));
        }
    }
    Some(out)
}

/// The text of a tool result's content.
fn result_text(block: &Value) -> String {
    match block.get("content") {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// The tool results of a raw line, with the line's 1-based number.
fn results(raw: &[Value]) -> impl Iterator<Item = (usize, String)> + '_ {
    raw.iter().enumerate().flat_map(|(i, v)| {
        v.get("message")
            .and_then(|m| m.get("content"))
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
            .map(move |b| (i + 1, result_text(b)))
    })
}

#[test]
fn the_users_reasons_and_answers_in_real_logs_are_theirs() {
    let Some(logs) = claude_logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let (mut reasons, mut answers) = (0, 0);
    let mut wrong = Vec::new();
    for (name, raw, t) in &logs {
        let read_at = |record: usize, provenance: Provenance| {
            t.messages.iter().any(|m| {
                m.record == record && m.role == MessageRole::User && m.provenance == provenance
            })
        };
        let kept: BTreeSet<usize> = t.messages.iter().map(|m| m.record).collect();
        for (line, text) in results(raw).filter(|(line, _)| kept.contains(line)) {
            let said = [
                "To tell you how to proceed, the user said:",
                "following reason for the rejection:",
            ]
            .iter()
            .find_map(|m| text.split_once(m).map(|(_, r)| r.trim().to_string()));
            if let Some(reason) = said.filter(|r| !r.is_empty()) {
                let interview =
                    reason.starts_with("The user has indicated they have provided enough answers");
                if !interview {
                    reasons += 1;
                    if !read_at(line, Provenance::Rejection) {
                        wrong.push(format!("{name}:{line}: the reason typed when rejecting is not read as the user's"));
                    }
                }
            }
            if text
                .trim_start()
                .starts_with("User has answered your questions:")
            {
                answers += 1;
                let ok = t.messages.iter().any(|m| {
                    m.record == line && m.provenance == Provenance::Answer && m.text.contains(" → ")
                });
                if !ok {
                    wrong.push(format!(
                        "{name}:{line}: the options chosen are not read with their questions"
                    ));
                }
            }
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(
        reasons >= 3 && answers >= 50,
        "{reasons} reasons, {answers} answers"
    );
}

#[test]
fn real_logs_leave_out_only_what_a_rewind_left_behind() {
    let Some(logs) = claude_logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let mut with_rewinds = 0;
    let mut wrong = Vec::new();
    for (name, raw, t) in &logs {
        // Typed children by parent, and parents by uuid, among the main
        // session's records.
        let main = || {
            raw.iter()
                .filter(|v| v.get("isSidechain") != Some(&Value::Bool(true)))
        };
        let is_typed = |v: &Value| {
            v.get("type").and_then(Value::as_str) == Some("user")
                && !v
                    .get("message")
                    .and_then(|m| m.get("content"))
                    .and_then(Value::as_array)
                    .is_some_and(|b| {
                        b.iter()
                            .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result"))
                    })
        };
        let mut typed_children: BTreeMap<&str, usize> = BTreeMap::new();
        let mut parent_of: BTreeMap<&str, &str> = BTreeMap::new();
        for v in main() {
            let (Some(u), Some(p)) = (
                v.get("uuid").and_then(Value::as_str),
                v.get("parentUuid").and_then(Value::as_str),
            ) else {
                continue;
            };
            parent_of.insert(u, p);
            if is_typed(v) {
                *typed_children.entry(p).or_default() += 1;
            }
        }
        let read: BTreeSet<usize> = t.messages.iter().map(|m| m.record).collect();
        let mut left_out = 0;
        for (i, v) in raw.iter().enumerate() {
            let typed = is_typed(v)
                && v.get("isSidechain") != Some(&Value::Bool(true))
                && v.get("isMeta") != Some(&Value::Bool(true))
                && v.get("message")
                    .and_then(|m| m.get("content"))
                    .and_then(Value::as_str)
                    .is_some_and(|s| {
                        !s.trim().is_empty()
                            && !s.trim_start().starts_with('<')
                            && !s.starts_with("[Request interrupted")
                    });
            if !typed || read.contains(&(i + 1)) {
                continue;
            }
            left_out += 1;
            // What the reader left out follows a rewind: it, or a record
            // before it, is a message typed beside another typed message.
            let mut at = v.get("uuid").and_then(Value::as_str);
            let mut rewound = false;
            while let Some(u) = at {
                let p = parent_of.get(u).copied();
                if p.is_some_and(|p| typed_children.get(p).copied().unwrap_or(0) >= 2) {
                    rewound = true;
                    break;
                }
                at = p;
            }
            if !rewound {
                wrong.push(format!(
                    "{name}:{}: a typed message left out that no rewind left behind",
                    i + 1
                ));
            }
        }
        let skipped = t
            .skipped_records
            .iter()
            .any(|(k, _)| k == "abandoned branch");
        if left_out > 0 && skipped {
            with_rewinds += 1;
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    assert!(with_rewinds >= 5, "{with_rewinds} real logs with a rewind");
}
