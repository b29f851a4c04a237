//! OpenAI Responses items, as a user saves them: a request body (its
//! `instructions` and `input`), a Response object (`instructions` and
//! `output`), an `input_items` or conversation items list, a
//! `/responses/compact` result, a JSON array of items, or one item per line.
//! The shapes follow the public types of openai/openai-python
//! (`src/openai/types/responses/`) and the OpenAPI description stored with
//! it; `tests/transcripts/README.md` cites them per fixture.
//!
//! - Top-level `instructions` (a string or a list of items) are the
//!   system's words, read first, as record 0.
//! - A list object (`"object": "list"`) comes newest first unless asked
//!   otherwise (the API's default order is `desc`); it is read in
//!   conversation order, so no action precedes the rule that governs it.
//!   The order is told from the items themselves: a call comes before its
//!   output. A list with no call and output to tell by is taken to be in
//!   the default order.
//! - Items: `message` (or a bare `{role, content}`), `function_call`,
//!   `custom_tool_call`, `shell_call` (`action.commands`), `local_shell_call`,
//!   `apply_patch_call` (its `operation`), `code_interpreter_call` (its code;
//!   its logs are its output), `mcp_call`, `web_search_call`,
//!   `file_search_call`, `computer_call` and their outputs (paired by
//!   `call_id`, or a `local_shell_call_output`'s `id`); `mcp_approval_request`
//!   is a request, never an action ([`CallStatus::Requested`], or
//!   [`CallStatus::Denied`] once refused);
//!   `reasoning` (its readable summary); `compaction` (encrypted: the log
//!   says a compaction happened and nothing of what it kept).
//! - A function's output that is JSON is read as its text (see
//!   [`super::text`]).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::codex::{classify_parts, message_role};
use super::text::{arguments_text, content_text, push_line, tool_output};
use super::{
    CallStatus, Compaction, Message, MessageRole, Provenance, Transcript, TranscriptBuilder,
    TranscriptFormat, str_field,
};

/// Item types of the Responses API.
const ITEM_TYPES: &[&str] = &[
    "message",
    "function_call",
    "function_call_output",
    "custom_tool_call",
    "custom_tool_call_output",
    "local_shell_call",
    "local_shell_call_output",
    "shell_call",
    "shell_call_output",
    "apply_patch_call",
    "apply_patch_call_output",
    "code_interpreter_call",
    "mcp_call",
    "mcp_list_tools",
    "mcp_approval_request",
    "mcp_approval_response",
    "web_search_call",
    "file_search_call",
    "computer_call",
    "computer_call_output",
    "image_generation_call",
    "reasoning",
    "compaction",
    "compaction_summary",
    "compaction_trigger",
    "item_reference",
    "tool_search_call",
    "tool_search_output",
    "additional_tools",
    "program",
    "program_output",
];

/// Whether an object is a Responses item.
pub(crate) fn is_item(object: &Map<String, Value>) -> bool {
    match str_field(object, "type") {
        Some(kind) => ITEM_TYPES.contains(&kind),
        None => object.contains_key("role") && object.contains_key("content"),
    }
}

/// A whole JSON document that is not a single item: a request, a
/// response, a list or a compact result.
pub(crate) fn whole_document(object: &Map<String, Value>) -> Option<Transcript> {
    let items = |key: &str| object.get(key).and_then(Value::as_array);
    match str_field(object, "object") {
        Some("list") => {
            let data = items("data")?;
            Some(document(object, data, Some(newest_first(data))))
        }
        Some("response" | "response.compaction") => {
            let output = items("output").map_or(&[][..], Vec::as_slice);
            Some(document(object, output, None))
        }
        _ => {
            for key in ["input", "output", "data", "items"] {
                if let Some(list) = items(key) {
                    return Some(document(object, list, None));
                }
            }
            match object.get("input") {
                Some(Value::String(text)) => {
                    let mut t = document(object, &[], None);
                    t.messages
                        .push(Message::new(MessageRole::User, text.as_str(), 1));
                    Some(t)
                }
                _ => None,
            }
        }
    }
}

/// Whether a list's items are newest first: its calls come after their
/// outputs; without a call and output to tell by, the API's default.
fn newest_first(data: &[Value]) -> bool {
    let id = |v: &Value, key: &str| v.get(key).and_then(Value::as_str).map(ToString::to_string);
    let (mut forward, mut backward) = (0usize, 0usize);
    for (i, item) in data.iter().enumerate() {
        let kind = item.get("type").and_then(Value::as_str).unwrap_or("");
        if !kind.ends_with("_output") {
            continue;
        }
        let Some(call) = id(item, "call_id").or_else(|| id(item, "id")) else {
            continue;
        };
        let position = data.iter().position(|c| {
            let k = c.get("type").and_then(Value::as_str).unwrap_or("");
            !k.ends_with("_output")
                && k.ends_with("_call")
                && (id(c, "call_id").as_deref() == Some(&call)
                    || id(c, "id").as_deref() == Some(&call))
        });
        match position {
            Some(p) if p < i => forward += 1,
            Some(_) => backward += 1,
            None => {}
        }
    }
    backward > forward || (forward == 0 && backward == 0)
}

/// The items of a document (with its top-level `instructions`), in
/// conversation order.
pub(crate) fn document(
    meta: &Map<String, Value>,
    items: &[Value],
    newest_first: Option<bool>,
) -> Transcript {
    let mut r = TranscriptBuilder {
        format: Some(TranscriptFormat::ResponsesItems),
        ..TranscriptBuilder::default()
    };
    match meta.get("instructions") {
        Some(Value::String(text)) if !text.trim().is_empty() => {
            r.push(Message::new(MessageRole::System, text.as_str(), 0));
        }
        Some(Value::Array(list)) => {
            for entry in list {
                match entry {
                    Value::Object(o) => item(&mut r, o, 0),
                    _ => r.skip("instructions"),
                }
            }
        }
        _ => {}
    }
    let ordered: Vec<&Value> = if newest_first == Some(true) {
        items.iter().rev().collect()
    } else {
        items.iter().collect()
    };
    for (i, value) in ordered.into_iter().enumerate() {
        match value {
            Value::Object(object) => item(&mut r, object, i + 1),
            _ => r.skip("not an item"),
        }
    }
    r.into_transcript(TranscriptFormat::ResponsesItems)
}

/// One Responses item.
pub(crate) fn item(r: &mut TranscriptBuilder, item: &Map<String, Value>, record: usize) {
    let kind = str_field(item, "type").unwrap_or("message");
    let call_id = || str_field(item, "call_id").or_else(|| str_field(item, "id"));
    match kind {
        "message" => {
            let Some(role) = message_role(str_field(item, "role")) else {
                r.skip("message");
                return;
            };
            let before = r.messages.len();
            classify_parts(r, role, item.get("content"), record);
            if r.messages.len() == before {
                r.skip("message");
            }
        }
        "function_call" | "custom_tool_call" => {
            let name = str_field(item, "name").unwrap_or(kind);
            let arguments = arguments_text(item.get("arguments").or_else(|| item.get("input")));
            r.call(name, arguments, call_id(), record);
        }
        "shell_call" | "local_shell_call" | "apply_patch_call" => {
            let name = match kind {
                "shell_call" => "shell",
                "local_shell_call" => "local_shell",
                _ => "apply_patch",
            };
            let arguments = arguments_text(item.get("action").or_else(|| item.get("operation")));
            r.call(name, arguments, call_id(), record);
        }
        "code_interpreter_call" => {
            let code = str_field(item, "code").unwrap_or_default();
            let arguments = serde_json::to_string(&serde_json::json!({ "code": code })).ok();
            let id = call_id();
            r.call("code_interpreter", arguments, id, record);
            if let Some(Value::Array(outputs)) = item.get("outputs") {
                let mut logs = String::new();
                for o in outputs {
                    if let Some(text) = o.get("logs").and_then(Value::as_str) {
                        push_line(&mut logs, text);
                    }
                }
                if !logs.is_empty() {
                    r.output(id, logs, record);
                }
            }
        }
        "mcp_call" | "mcp_approval_request" => {
            let name = match (str_field(item, "server_label"), str_field(item, "name")) {
                (Some(server), Some(name)) => alloc::format!("{server}.{name}"),
                (None, Some(name)) => name.to_string(),
                _ => kind.to_string(),
            };
            let id = str_field(item, "id").or_else(|| str_field(item, "call_id"));
            let arguments = arguments_text(item.get("arguments"));
            let call = r.call(&name, arguments, id, record);
            if kind == "mcp_approval_request" {
                call.status = CallStatus::Requested;
                return;
            }
            let mut text = String::new();
            if let Some(out) = item.get("output").filter(|v| !v.is_null()) {
                text = match out {
                    Value::String(s) => tool_output(s),
                    other => content_text(Some(other)),
                };
            }
            match item.get("error") {
                Some(Value::String(e)) => push_line(&mut text, &alloc::format!("error: {e}")),
                Some(e @ Value::Object(_)) => {
                    push_line(
                        &mut text,
                        &alloc::format!("error: {}", super::text::json_output(e)),
                    );
                }
                _ => {}
            }
            if !text.is_empty() {
                r.output(id, text, record);
            }
        }
        "mcp_approval_response" => {
            // A refusal: the request never ran. A grant: what ran is the
            // call that follows it.
            let refused = item.get("approve") == Some(&Value::Bool(false));
            if let Some(request) = str_field(item, "approval_request_id")
                && refused
                && let Some(call) = r.call_message(request)
            {
                call.status = CallStatus::Denied;
            }
            r.skip("mcp_approval_response");
        }
        "web_search_call" | "file_search_call" | "computer_call" => {
            let name = kind.trim_end_matches("_call");
            let arguments = arguments_text(item.get("action").or_else(|| item.get("queries")));
            r.call(name, arguments, call_id(), record);
        }
        "function_call_output"
        | "custom_tool_call_output"
        | "local_shell_call_output"
        | "computer_call_output"
        | "apply_patch_call_output"
        | "shell_call_output" => {
            let id = call_id();
            let text = match item.get("output") {
                Some(Value::String(s)) => tool_output(s),
                Some(Value::Array(chunks)) if kind == "shell_call_output" => {
                    let mut out = String::new();
                    for c in chunks {
                        for key in ["stdout", "stderr"] {
                            if let Some(s) =
                                c.get(key).and_then(Value::as_str).filter(|s| !s.is_empty())
                            {
                                push_line(&mut out, s);
                            }
                        }
                    }
                    out
                }
                Some(Value::Object(o)) if o.contains_key("content") => {
                    content_text(o.get("content"))
                }
                Some(v @ Value::Object(_)) => super::text::json_output(v),
                other => content_text(other),
            };
            r.output(id, text, record);
        }
        "reasoning" => {
            let mut text = content_text(item.get("summary"));
            let content = content_text(item.get("content"));
            if !content.is_empty() {
                push_line(&mut text, &content);
            }
            if text.trim().is_empty() {
                r.skip("reasoning (encrypted)");
                return;
            }
            r.push(Message::new(MessageRole::Reasoning, text, record));
        }
        "compaction" | "compaction_summary" => {
            let preserved: Vec<usize> = r
                .messages
                .iter()
                .enumerate()
                .filter(|(_, m)| m.role == MessageRole::User && m.provenance == Provenance::Said)
                .map(|(i, _)| i)
                .collect();
            let kept: Vec<Message> = preserved.iter().map(|&i| r.messages[i].clone()).collect();
            r.compactions.push(Compaction {
                encrypted: true,
                kept,
                preserved,
                ..Compaction::at(record, r.messages.len())
            });
        }
        other => r.skip(other),
    }
}
