//! Logs built for the tests, from sentences written for them.

#![allow(dead_code)]

use serde_json::json;

/// A Claude Code log of `turns`: `("user", text)`, `("assistant", text)`,
/// `("skill", text)` for a skill the harness loaded (its first line names
/// its directory), `("bash", command)` for a call the agent made and its
/// output, or `("summary", text)` for a compaction and the summary after
/// it.
pub fn claude_log(turns: &[(&str, &str)]) -> String {
    let mut out = String::new();
    let mut parent: Option<String> = None;
    for (i, (who, text)) in turns.iter().enumerate() {
        let uuid = format!("00000000-0000-4000-8000-{i:012}");
        let base = json!({
            "parentUuid": parent, "isSidechain": false, "userType": "external",
            "cwd": "/work/app", "sessionId": "s-1", "version": "2.1.114",
            "uuid": uuid, "timestamp": format!("2026-05-01T10:{i:02}:00.000Z"),
        });
        let mut record = base.as_object().cloned().unwrap_or_default();
        match *who {
            "summary" => {
                let mut boundary = record.clone();
                boundary.insert("type".into(), json!("system"));
                boundary.insert("subtype".into(), json!("compact_boundary"));
                boundary.insert("uuid".into(), json!(format!("{uuid}-b")));
                boundary.insert(
                    "compactMetadata".into(),
                    json!({"trigger": "auto", "preTokens": 150_000}),
                );
                out.push_str(&serde_json::Value::Object(boundary).to_string());
                out.push('\n');
                record.insert("type".into(), json!("user"));
                record.insert("isCompactSummary".into(), json!(true));
                record.insert("message".into(), json!({"role": "user", "content": text}));
            }
            "skill" => {
                record.insert("type".into(), json!("user"));
                record.insert("isMeta".into(), json!(true));
                record.insert(
                    "message".into(),
                    json!({"role": "user", "content": [{"type": "text", "text": text}]}),
                );
            }
            "bash" => {
                // A Bash call the agent made, and its output.
                let id = format!("toolu_{i:04}");
                let mut result = record.clone();
                record.insert("type".into(), json!("assistant"));
                record.insert(
                    "message".into(),
                    json!({"role": "assistant", "content": [{"type": "tool_use", "id": id, "name": "Bash", "input": {"command": text}}]}),
                );
                out.push_str(&serde_json::Value::Object(record).to_string());
                out.push('\n');
                result.insert("type".into(), json!("user"));
                result.insert("uuid".into(), json!(format!("{uuid}-r")));
                result.insert(
                    "message".into(),
                    json!({"role": "user", "content": [{"type": "tool_result", "tool_use_id": id, "content": "done"}]}),
                );
                record = result;
            }
            "user" => {
                record.insert("type".into(), json!("user"));
                record.insert("message".into(), json!({"role": "user", "content": text}));
            }
            _ => {
                record.insert("type".into(), json!("assistant"));
                record.insert(
                    "message".into(),
                    json!({"role": "assistant", "content": [{"type": "text", "text": text}]}),
                );
            }
        }
        out.push_str(&serde_json::Value::Object(record).to_string());
        out.push('\n');
        parent = Some(uuid);
    }
    out
}

/// A Claude Code compaction summary whose only section states `body`.
pub fn summary(body: &str) -> String {
    format!(
        "This session is being continued from a previous conversation that ran out of context.\n\n\
         Summary:\n1. Primary Request and Intent:\n   {body}\n"
    )
}
