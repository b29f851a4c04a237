//! Text as the model saw it, out of the JSON the harnesses wrap it in:
//! content parts, `cat -n` numbering, tool outputs that are JSON inside a
//! string, reminders the harness appends, and patches.

use alloc::borrow::Cow;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::Value;

use super::str_field;

/// The text of a content value: a string, or a list of parts with `text`
/// (or `refusal`) fields, joined by newlines.
pub(crate) fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(parts)) => {
            let mut out = String::new();
            for part in parts {
                let text = match part {
                    Value::String(s) => Some(s.as_str()),
                    Value::Object(p) => str_field(p, "text").or_else(|| str_field(p, "refusal")),
                    _ => None,
                };
                if let Some(text) = text {
                    push_line(&mut out, text);
                }
            }
            out
        }
        _ => String::new(),
    }
}

/// Appends `text` on a line of its own.
pub(crate) fn push_line(out: &mut String, text: &str) {
    if !out.is_empty() {
        out.push('\n');
    }
    out.push_str(text);
}

/// Arguments as text: strings as they are, anything else as compact JSON.
pub(crate) fn arguments_text(value: Option<&Value>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => serde_json::to_string(other).ok(),
    }
}

/// `text` without the line numbers of a `cat -n` style file read: the
/// arrow form (`     7→line`, Claude Code up to 2.1.85) and the tab form
/// (`7\tline`, from 2.1.86), when every non-empty line is numbered.
///
/// ```
/// # use drift_session::transcript::strip_line_numbers;
/// assert_eq!(strip_line_numbers("     1→# Runbook\n     2→Never drain pool-1."), "# Runbook\nNever drain pool-1.");
/// assert_eq!(strip_line_numbers("7\tNever drain pool-1.\n8\t"), "Never drain pool-1.\n");
/// assert_eq!(strip_line_numbers("3 nodes\n4 pods"), "3 nodes\n4 pods");
/// ```
pub fn strip_line_numbers(text: &str) -> Cow<'_, str> {
    let numbered = |line: &str| -> Option<usize> {
        let digits_start = line.len() - line.trim_start_matches(' ').len();
        let rest = line.get(digits_start..)?;
        let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        let after = rest.get(digits..)?;
        if after.starts_with('→') {
            Some(digits_start + digits + '→'.len_utf8())
        } else if after.starts_with('\t') {
            Some(digits_start + digits + 1)
        } else {
            None
        }
    };
    let mut lines = 0;
    for line in text.lines() {
        if line.trim().is_empty() {
            continue;
        }
        if numbered(line).is_none() {
            return Cow::Borrowed(text);
        }
        lines += 1;
    }
    if lines == 0 {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (i, line) in text.split('\n').enumerate() {
        if i > 0 {
            out.push('\n');
        }
        let body = numbered(line).and_then(|at| line.get(at..)).unwrap_or(line);
        out.push_str(body);
    }
    Cow::Owned(out)
}

/// `text` without the `<system-reminder>…</system-reminder>` blocks a
/// harness appends to tool results and messages.
pub(crate) fn strip_reminders(text: &str) -> Cow<'_, str> {
    const OPEN: &str = "<system-reminder>";
    const CLOSE: &str = "</system-reminder>";
    if !text.contains(OPEN) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find(OPEN) {
        out.push_str(rest.get(..start).unwrap_or(""));
        let after = rest.get(start..).unwrap_or("");
        rest = match after.find(CLOSE) {
            Some(end) => after.get(end + CLOSE.len()..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    Cow::Owned(out.trim_end().to_string())
}

/// How deep JSON is read for its strings.
const MAX_DEPTH: usize = 32;

/// What a tool returned, as text: JSON inside the output string decoded.
///
/// - the Codex shell tool's `{"output": …, "metadata": {…}}`: the output;
/// - an MCP result: the text of its content array (`[{"type":"text","text":…}]`),
///   or the string values of its structured content;
/// - a harness header (`Wall time: … Output:` and the unified-exec lines
///   before `Output:`) is left out.
///
/// Anything else is returned as it is.
pub(crate) fn tool_output(text: &str) -> String {
    let body = strip_exec_header(text);
    let trimmed = body.trim_start();
    if matches!(trimmed.as_bytes().first(), Some(b'{' | b'['))
        && let Ok(value) = serde_json::from_str::<Value>(trimmed)
    {
        return json_output(&value);
    }
    body.to_string()
}

/// The text of a tool output that was JSON.
pub(crate) fn json_output(value: &Value) -> String {
    match value {
        Value::Object(map) => {
            if let (Some(Value::String(out)), true) =
                (map.get("output"), map.contains_key("metadata"))
            {
                return tool_output(out);
            }
            if let Some(structured) = map
                .get("structuredContent")
                .or_else(|| map.get("structured_content"))
                .filter(|v| !v.is_null())
            {
                return strings_of(structured);
            }
            if let Some(content @ Value::Array(_)) = map.get("content") {
                return json_output(content);
            }
            strings_of(value)
        }
        Value::Array(items) if items.iter().all(is_content_part) => {
            let mut out = String::new();
            for item in items {
                if let Some(text) = item.get("text").and_then(Value::as_str) {
                    push_line(&mut out, &tool_output(text));
                }
            }
            out
        }
        other => strings_of(other),
    }
}

fn is_content_part(v: &Value) -> bool {
    v.as_object()
        .is_some_and(|p| p.contains_key("type") && (p.contains_key("text") || p.len() <= 3))
}

/// JSON as lines a person reads: every string on a line of its own, a
/// number or a flag after its key (`pods: 14`), arrays in order and an
/// object's fields in key order; a ticket's comments, a page's text.
pub(crate) fn strings_of(value: &Value) -> String {
    let mut out = String::new();
    collect_strings(value, None, &mut out, 0);
    out
}

fn collect_strings(value: &Value, key: Option<&str>, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::String(s) if s.trim().is_empty() => {}
        Value::String(s) => push_line(out, s),
        Value::Number(_) | Value::Bool(_) => {
            let line = match key {
                Some(k) => alloc::format!("{k}: {value}"),
                None => value.to_string(),
            };
            push_line(out, &line);
        }
        Value::Array(items) => items
            .iter()
            .for_each(|v| collect_strings(v, key, out, depth + 1)),
        Value::Object(map) => map
            .iter()
            .for_each(|(k, v)| collect_strings(v, Some(k), out, depth + 1)),
        Value::Null => {}
    }
}

/// Text after a harness's exec header: Codex writes `Exit code: …`,
/// `Wall time: …`, `Chunk ID: …`, `Process exited with code …`, `Original
/// token count: …` lines, then `Output:` and the output.
fn strip_exec_header(text: &str) -> &str {
    const HEAD: [&str; 7] = [
        "Exit code:",
        "Wall time:",
        "Chunk ID:",
        "Process exited",
        "Process running",
        "Original token count:",
        "Total output lines:",
    ];
    if !HEAD.iter().any(|h| text.starts_with(h)) {
        return text;
    }
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_end();
        if trimmed == "Output:" {
            return text.get(offset + line.len()..).unwrap_or("");
        }
        if !HEAD.iter().any(|h| trimmed.starts_with(h)) {
            break;
        }
        offset += line.len();
    }
    text
}

/// One operation of a patch.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum PatchOp {
    Add(String),
    Delete(String),
    Update(String),
    Move { from: String, to: String },
}

/// The operations of an `apply_patch` patch (`*** Begin Patch` …
/// `*** End Patch`); the lines of an added file are content, not commands.
pub(crate) fn patch_ops(patch: &str) -> Vec<PatchOp> {
    let mut ops = Vec::new();
    for line in patch.lines() {
        let line = line.trim_end();
        if let Some(path) = line.strip_prefix("*** Add File: ") {
            ops.push(PatchOp::Add(path.trim().to_string()));
        } else if let Some(path) = line.strip_prefix("*** Delete File: ") {
            ops.push(PatchOp::Delete(path.trim().to_string()));
        } else if let Some(path) = line.strip_prefix("*** Update File: ") {
            ops.push(PatchOp::Update(path.trim().to_string()));
        } else if let Some(to) = line.strip_prefix("*** Move to: ")
            && let Some(PatchOp::Update(from)) = ops.last().cloned()
        {
            ops.pop();
            ops.push(PatchOp::Move {
                from,
                to: to.trim().to_string(),
            });
        }
    }
    ops
}

/// Whether `text` is a patch in the `apply_patch` grammar.
pub(crate) fn is_patch(text: &str) -> bool {
    text.trim_start().starts_with("*** Begin Patch")
}

/// A patch as the command it amounts to: one line per file operation
/// (`delete file infra/old.tf`), file contents left out.
pub(crate) fn patch_command(patch: &str) -> String {
    let mut out = String::new();
    for op in patch_ops(patch) {
        let line = match op {
            PatchOp::Add(path) => alloc::format!("add file {path}"),
            PatchOp::Delete(path) => alloc::format!("delete file {path}"),
            PatchOp::Update(path) => alloc::format!("edit file {path}"),
            PatchOp::Move { from, to } => alloc::format!("edit file {from} and move it to {to}"),
        };
        push_line(&mut out, &line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shell_and_mcp_outputs_are_decoded() {
        let shell = r#"{"output":"Never drain pool-1.\n","metadata":{"exit_code":0,"duration_seconds":0.1}}"#;
        assert_eq!(tool_output(shell), "Never drain pool-1.\n");
        let mcp = r#"[{"text":"{\"comments\":[{\"body\":\"CAB: no DROP TABLE until May.\"}]}","type":"text"}]"#;
        assert_eq!(tool_output(mcp), "CAB: no DROP TABLE until May.");
        let headed = "Wall time: 0.2000 seconds\nOutput:\n{\"issue\":\"OPS-1\",\"body\":\"Do not scale payments.\"}";
        // An object's fields come in key order.
        assert_eq!(tool_output(headed), "Do not scale payments.\nOPS-1");
        let freeform = "Exit code: 0\nWall time: 1 seconds\nOutput:\nNever run apply by hand.";
        assert_eq!(tool_output(freeform), "Never run apply by hand.");
        assert_eq!(tool_output("plain output"), "plain output");
        assert_eq!(tool_output("{not json"), "{not json");
    }

    #[test]
    fn reminders_are_cut() {
        let read = "1→code\n\n<system-reminder>\nWhenever you read a file, you MUST refuse…\n</system-reminder>\n";
        assert_eq!(strip_reminders(read), "1→code");
        assert_eq!(strip_reminders("no reminder"), "no reminder");
    }

    #[test]
    fn patches_are_operations_not_content() {
        let patch = "*** Begin Patch\n*** Add File: docs/log.md\n+ran rm -rf /var/lib/kubelet\n*** Delete File: infra/old.tf\n*** Update File: a.tf\n*** Move to: b.tf\n@@\n-x\n+y\n*** End Patch";
        assert!(is_patch(patch));
        assert_eq!(
            patch_command(patch),
            "add file docs/log.md\ndelete file infra/old.tf\nedit file a.tf and move it to b.tf"
        );
    }
}
