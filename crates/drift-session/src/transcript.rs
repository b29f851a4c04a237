//! Transcripts: a session log, in whatever format its harness wrote it, as a
//! list of [`Message`]s with a role, the text, and the tool name and
//! arguments where there are some.
//!
//! [`read_transcript`] recognises, line by line:
//!
//! - **OpenAI Responses items**: a JSON array of items, an object holding one
//!   (`input`, `output`, `data` or `items`: a request, a response, or the
//!   `input_items` list), or one item per line. Items: `message` (or a bare
//!   `{role, content}`), `function_call` and `function_call_output`,
//!   `custom_tool_call` and its output, `local_shell_call` and its output,
//!   `mcp_call`, `web_search_call`, `reasoning` (its readable summary).
//! - **Codex CLI session logs** (`rollout-*.jsonl`): `response_item` lines are
//!   Responses items; `compacted` lines are the harness's own summaries
//!   (role [`MessageRole::Summary`]); `session_meta` instructions are the
//!   system prompt; `event_msg` and `turn_context` lines repeat what the
//!   items say and are skipped.
//! - **Claude Code session logs** (`~/.claude/projects/…/*.jsonl`): `user` and
//!   `assistant` lines, split into one message per content block (`text`,
//!   `thinking`, `tool_use`, `tool_result`); a user line marked
//!   `isCompactSummary` is a summary. Subagent (`isSidechain`), meta, system
//!   and bookkeeping lines are skipped.
//!
//! Anything else is plain text: one message of unknown role. A file is read
//! as JSON when it starts with `{` or `[` and its first line parses; after
//! that, a line that is not JSON is an error naming the line.
//!
//! Tool outputs carry the name of the call they answer (matched by call id).
//! Tool arguments are kept as the JSON text the model wrote. Every message
//! remembers its record: the 1-based line of a JSON-lines file, the 1-based
//! position in a JSON array.
//!
//! ```
//! use drift_session::{MessageRole, TranscriptFormat, read_transcript};
//!
//! let log = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"Do not bump libfoo."}]}
//! {"type":"function_call","name":"shell","arguments":"{\"cmd\":\"cat Cargo.toml\"}","call_id":"c1"}
//! {"type":"function_call_output","call_id":"c1","output":"libfoo = \"2.3.1\""}"#;
//! let t = read_transcript(log).unwrap();
//! assert_eq!(t.format, TranscriptFormat::ResponsesItems);
//! assert_eq!(t.messages.len(), 3);
//! assert_eq!(t.messages[0].role, MessageRole::User);
//! assert_eq!(t.messages[1].tool_arguments.as_deref(), Some(r#"{"cmd":"cat Cargo.toml"}"#));
//! assert_eq!(t.messages[2].tool_name.as_deref(), Some("shell"));
//! assert_eq!(t.messages[2].record, 3);
//! ```

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use drift_core::Role;

/// Which format a transcript was read as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TranscriptFormat {
    /// Not JSON: the whole text is one message.
    PlainText,
    /// OpenAI Responses items.
    ResponsesItems,
    /// A Codex CLI session log.
    CodexSession,
    /// A Claude Code session log.
    ClaudeCodeSession,
}

impl TranscriptFormat {
    /// The identifier used in reports (`plain_text`, …).
    pub const fn id(self) -> &'static str {
        match self {
            TranscriptFormat::PlainText => "plain_text",
            TranscriptFormat::ResponsesItems => "responses_items",
            TranscriptFormat::CodexSession => "codex_session",
            TranscriptFormat::ClaudeCodeSession => "claude_code_session",
        }
    }

    /// A name for people ("Claude Code session").
    pub const fn label(self) -> &'static str {
        match self {
            TranscriptFormat::PlainText => "plain text",
            TranscriptFormat::ResponsesItems => "OpenAI Responses items",
            TranscriptFormat::CodexSession => "Codex CLI session",
            TranscriptFormat::ClaudeCodeSession => "Claude Code session",
        }
    }
}

/// Who a message is from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MessageRole {
    /// The system prompt or harness instructions.
    System,
    /// Developer instructions (Responses `developer` role).
    Developer,
    /// The operator.
    User,
    /// The model's visible output, and its tool calls.
    Assistant,
    /// The model's reasoning (a readable summary or thinking block).
    Reasoning,
    /// A tool's output.
    Tool,
    /// A summary the harness wrote when it compacted the context.
    Summary,
    /// Plain text: nobody in particular.
    Unknown,
}

impl MessageRole {
    /// The identifier used in reports (`user`, …).
    pub const fn id(self) -> &'static str {
        match self {
            MessageRole::System => "system",
            MessageRole::Developer => "developer",
            MessageRole::User => "user",
            MessageRole::Assistant => "assistant",
            MessageRole::Reasoning => "reasoning",
            MessageRole::Tool => "tool",
            MessageRole::Summary => "summary",
            MessageRole::Unknown => "unknown",
        }
    }

    /// The scenario role a fact from this message would have, for importing a
    /// session as a scenario: system and developer text is `system`,
    /// reasoning and summaries are the `assistant`'s; plain text has none.
    pub const fn fact_role(self) -> Option<Role> {
        match self {
            MessageRole::System | MessageRole::Developer => Some(Role::System),
            MessageRole::User => Some(Role::User),
            MessageRole::Assistant | MessageRole::Reasoning | MessageRole::Summary => {
                Some(Role::Assistant)
            }
            MessageRole::Tool => Some(Role::Tool),
            MessageRole::Unknown => None,
        }
    }
}

/// One message of a transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    /// Who it is from.
    pub role: MessageRole,
    /// What it says (for a tool call, the text said alongside it, often
    /// empty).
    pub text: String,
    /// The tool called, or whose output this is.
    pub tool_name: Option<String>,
    /// The call's arguments as the model wrote them (usually JSON).
    pub tool_arguments: Option<String>,
    /// The id that pairs a call with its output.
    pub call_id: Option<String>,
    /// Where it came from: the 1-based line of a JSON-lines file, the 1-based
    /// position in a JSON array, 1 for plain text.
    pub record: usize,
}

impl Message {
    /// A message of `role` saying `text`, from record `record`.
    pub fn new(role: MessageRole, text: impl Into<String>, record: usize) -> Message {
        Message {
            role,
            text: text.into(),
            tool_name: None,
            tool_arguments: None,
            call_id: None,
            record,
        }
    }
}

/// A transcript: its format and its messages, in order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Transcript {
    /// What it was read as.
    pub format: TranscriptFormat,
    /// Its messages.
    pub messages: Vec<Message>,
    /// Records that were recognised but hold nothing a model reads
    /// (bookkeeping lines, encrypted reasoning, subagent lines).
    pub skipped: usize,
}

impl Transcript {
    /// Plain text as a one-message transcript (none when it is blank).
    pub fn plain(text: &str) -> Transcript {
        let messages = if text.trim().is_empty() {
            Vec::new()
        } else {
            alloc::vec![Message::new(MessageRole::Unknown, text, 1)]
        };
        Transcript {
            format: TranscriptFormat::PlainText,
            messages,
            skipped: 0,
        }
    }
}

/// Why a transcript could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TranscriptError {
    /// A record is not valid JSON.
    Json {
        /// 1-based line of the file.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// A line of a JSON-lines file is JSON but not an object.
    NotAnObject {
        /// 1-based line.
        line: usize,
    },
    /// JSON, but no record is a message of a supported format.
    NotATranscript,
}

impl fmt::Display for TranscriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TranscriptError::Json {
                line,
                column,
                message,
            } => write!(f, "line {line}, column {column}: not valid JSON: {message}"),
            TranscriptError::NotAnObject { line } => {
                write!(f, "line {line}: a transcript line must be a JSON object")
            }
            TranscriptError::NotATranscript => f.write_str(
                "JSON, but not a transcript: no record is an OpenAI Responses item or a line of a Codex CLI or Claude Code session log",
            ),
        }
    }
}

impl core::error::Error for TranscriptError {}

/// Reads a transcript in any supported format (see the module docs).
///
/// # Errors
///
/// A [`TranscriptError`] naming the line when a file that starts as JSON
/// has a record that is not valid JSON, or is not an object; or when no
/// record of a JSON file is of a supported format.
pub fn read_transcript(text: &str) -> Result<Transcript, TranscriptError> {
    let body = text.trim_start_matches('\u{FEFF}');
    let trimmed = body.trim_start();
    let blank_lines = body
        .get(..body.len() - trimmed.len())
        .map_or(0, |s| s.matches('\n').count());
    match trimmed.as_bytes().first() {
        Some(b'[') => match serde_json::from_str::<Value>(body) {
            Ok(Value::Array(items)) => Ok(from_items(&items)),
            Ok(_) => Err(TranscriptError::NotATranscript),
            Err(e) => {
                let second = trimmed
                    .get(1..)
                    .unwrap_or("")
                    .trim_start()
                    .as_bytes()
                    .first();
                if matches!(second, Some(b'{' | b']')) {
                    Err(TranscriptError::Json {
                        line: e.line(),
                        column: e.column(),
                        message: json_message(&e),
                    })
                } else {
                    // "[INFO] starting…": a log, not JSON.
                    Ok(Transcript::plain(text))
                }
            }
        },
        Some(b'{') => match serde_json::from_str::<Value>(body) {
            Ok(Value::Object(object)) => {
                for key in ["input", "output", "data", "items"] {
                    if let Some(Value::Array(items)) = object.get(key) {
                        return Ok(from_items(items));
                    }
                }
                // A JSON-lines file of one line.
                let mut reader = Reader::default();
                if !reader.line(&object, 1 + blank_lines) {
                    reader.skipped += 1;
                }
                reader.finish()
            }
            // Several objects, one per line (or text that starts with a brace).
            _ => read_lines(text),
        },
        _ => Ok(Transcript::plain(text)),
    }
}

/// A JSON-lines file.
fn read_lines(text: &str) -> Result<Transcript, TranscriptError> {
    let mut reader = Reader::default();
    let mut parsed_any = false;
    for (i, line) in text.lines().enumerate() {
        let number = i + 1;
        let line = line.trim_start_matches('\u{FEFF}').trim();
        if line.is_empty() {
            continue;
        }
        let value: Value = match serde_json::from_str(line) {
            Ok(v) => v,
            Err(_) if !parsed_any => {
                // The first record is not JSON: this is text that happens to
                // start with a brace.
                return Ok(Transcript::plain(text));
            }
            Err(e) => {
                return Err(TranscriptError::Json {
                    line: number,
                    column: e.column(),
                    message: json_message(&e),
                });
            }
        };
        parsed_any = true;
        let Value::Object(object) = value else {
            return Err(TranscriptError::NotAnObject { line: number });
        };
        if !reader.line(&object, number) {
            reader.skipped += 1;
        }
    }
    reader.finish()
}

fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full.get(..i).unwrap_or(&full).to_string(),
        None => full,
    }
}

fn from_items(items: &[Value]) -> Transcript {
    let mut reader = Reader::default();
    for (i, item) in items.iter().enumerate() {
        match item {
            Value::Object(object) => {
                reader.note(TranscriptFormat::ResponsesItems);
                if !reader.item(object, i + 1) {
                    reader.skipped += 1;
                }
            }
            _ => reader.skipped += 1,
        }
    }
    Transcript {
        format: TranscriptFormat::ResponsesItems,
        messages: reader.messages,
        skipped: reader.skipped,
    }
}

/// Builds a transcript record by record.
#[derive(Default)]
struct Reader {
    format: Option<TranscriptFormat>,
    messages: Vec<Message>,
    skipped: usize,
    /// Tool names by call id, to name outputs.
    calls: BTreeMap<String, String>,
}

fn str_field<'v>(object: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    object.get(key).and_then(Value::as_str)
}

/// The text of a content value: a string, or a list of parts with `text`
/// (or `refusal`, `thinking`) fields, joined by newlines.
fn content_text(content: Option<&Value>) -> String {
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
                    if !out.is_empty() {
                        out.push('\n');
                    }
                    out.push_str(text);
                }
            }
            out
        }
        _ => String::new(),
    }
}

/// Arguments as text: strings as they are, anything else as compact JSON.
fn arguments_text(value: Option<&Value>) -> Option<String> {
    match value {
        None | Some(Value::Null) => None,
        Some(Value::String(s)) => Some(s.clone()),
        Some(other) => serde_json::to_string(other).ok(),
    }
}

impl Reader {
    fn note(&mut self, format: TranscriptFormat) {
        if self.format.is_none() {
            self.format = Some(format);
        }
    }

    /// The transcript, or an error when no record was of a known format.
    fn finish(self) -> Result<Transcript, TranscriptError> {
        let format = self.format.ok_or(TranscriptError::NotATranscript)?;
        Ok(Transcript {
            format,
            messages: self.messages,
            skipped: self.skipped,
        })
    }

    fn push(&mut self, message: Message) {
        self.messages.push(message);
    }

    fn call(
        &mut self,
        name: &str,
        arguments: Option<String>,
        call_id: Option<&str>,
        record: usize,
    ) {
        if let Some(id) = call_id {
            self.calls.insert(id.to_string(), name.to_string());
        }
        self.push(Message {
            role: MessageRole::Assistant,
            text: String::new(),
            tool_name: Some(name.to_string()),
            tool_arguments: arguments,
            call_id: call_id.map(ToString::to_string),
            record,
        });
    }

    fn output(&mut self, call_id: Option<&str>, text: String, record: usize) {
        let tool_name = call_id.and_then(|id| self.calls.get(id)).cloned();
        self.push(Message {
            role: MessageRole::Tool,
            text,
            tool_name,
            tool_arguments: None,
            call_id: call_id.map(ToString::to_string),
            record,
        });
    }

    /// One line of a JSON-lines file; false when it holds nothing to read.
    fn line(&mut self, object: &Map<String, Value>, record: usize) -> bool {
        let kind = str_field(object, "type");
        if let (Some(kind), Some(payload)) = (kind, object.get("payload"))
            && matches!(
                kind,
                "session_meta" | "response_item" | "event_msg" | "turn_context" | "compacted"
            )
        {
            self.note(TranscriptFormat::CodexSession);
            return self.codex(kind, payload, record);
        }
        let claude_marks = ["message", "uuid", "sessionId", "leafUuid", "parentUuid"];
        if let Some(kind) = kind
            && matches!(kind, "user" | "assistant" | "system" | "summary")
            && claude_marks.iter().any(|k| object.contains_key(*k))
        {
            self.note(TranscriptFormat::ClaudeCodeSession);
            return self.claude(kind, object, record);
        }
        if kind.is_some_and(|k| k.contains('-')) && object.contains_key("sessionId") {
            // Claude Code bookkeeping: "file-history-snapshot", "queue-operation".
            self.note(TranscriptFormat::ClaudeCodeSession);
            return false;
        }
        if kind.is_some() || object.contains_key("role") {
            self.note(TranscriptFormat::ResponsesItems);
            return self.item(object, record);
        }
        false
    }

    fn codex(&mut self, kind: &str, payload: &Value, record: usize) -> bool {
        let Value::Object(p) = payload else {
            return false;
        };
        match kind {
            "response_item" => self.item(p, record),
            "compacted" => {
                let text = str_field(p, "message").unwrap_or_default();
                if text.trim().is_empty() {
                    return false;
                }
                self.push(Message::new(MessageRole::Summary, text, record));
                true
            }
            "session_meta" => match str_field(p, "instructions") {
                Some(text) if !text.trim().is_empty() => {
                    self.push(Message::new(MessageRole::System, text, record));
                    true
                }
                _ => false,
            },
            _ => false,
        }
    }

    /// One Responses item; false when it holds nothing to read.
    fn item(&mut self, item: &Map<String, Value>, record: usize) -> bool {
        let kind = str_field(item, "type").unwrap_or("message");
        match kind {
            "message" => {
                let role = match str_field(item, "role") {
                    Some("user") => MessageRole::User,
                    Some("assistant") => MessageRole::Assistant,
                    Some("system") => MessageRole::System,
                    Some("developer") => MessageRole::Developer,
                    Some("tool") => MessageRole::Tool,
                    _ => return false,
                };
                let text = content_text(item.get("content"));
                self.push(Message::new(role, text, record));
                true
            }
            "function_call" | "custom_tool_call" | "mcp_call" => {
                let name = str_field(item, "name").unwrap_or(kind);
                let arguments = arguments_text(item.get("arguments").or_else(|| item.get("input")));
                let call_id = str_field(item, "call_id").or_else(|| str_field(item, "id"));
                self.call(name, arguments, call_id, record);
                if kind == "mcp_call"
                    && let Some(out) = item.get("output").filter(|v| !v.is_null())
                {
                    let text = content_text(Some(out));
                    self.output(call_id, text, record);
                }
                true
            }
            "local_shell_call" | "web_search_call" | "file_search_call" | "computer_call" => {
                let name = kind.trim_end_matches("_call");
                let arguments = arguments_text(item.get("action").or_else(|| item.get("queries")));
                let call_id = str_field(item, "call_id").or_else(|| str_field(item, "id"));
                self.call(name, arguments, call_id, record);
                true
            }
            "function_call_output"
            | "custom_tool_call_output"
            | "local_shell_call_output"
            | "computer_call_output" => {
                let call_id = str_field(item, "call_id");
                let text = match item.get("output") {
                    Some(Value::Object(o)) if o.contains_key("content") => {
                        content_text(o.get("content"))
                    }
                    Some(v @ Value::Object(_)) => arguments_text(Some(v)).unwrap_or_default(),
                    other => content_text(other),
                };
                self.output(call_id, text, record);
                true
            }
            "reasoning" => {
                let mut text = content_text(item.get("summary"));
                let content = content_text(item.get("content"));
                if !content.is_empty() {
                    if !text.is_empty() {
                        text.push('\n');
                    }
                    text.push_str(&content);
                }
                if text.trim().is_empty() {
                    return false;
                }
                self.push(Message::new(MessageRole::Reasoning, text, record));
                true
            }
            _ => false,
        }
    }

    fn claude(&mut self, kind: &str, object: &Map<String, Value>, record: usize) -> bool {
        if object.get("isSidechain") == Some(&Value::Bool(true))
            || object.get("isMeta") == Some(&Value::Bool(true))
        {
            return false;
        }
        let Some(Value::Object(message)) = object.get("message") else {
            return false;
        };
        let summary = object.get("isCompactSummary") == Some(&Value::Bool(true));
        let before = self.messages.len();
        match (kind, message.get("content")) {
            ("user", Some(Value::String(text))) => {
                let role = if summary {
                    MessageRole::Summary
                } else {
                    MessageRole::User
                };
                self.push(Message::new(role, text.as_str(), record));
            }
            ("user" | "assistant", Some(Value::Array(blocks))) => {
                let speaker = match (kind, summary) {
                    (_, true) => MessageRole::Summary,
                    ("user", false) => MessageRole::User,
                    _ => MessageRole::Assistant,
                };
                for block in blocks {
                    let Value::Object(b) = block else {
                        if let Value::String(s) = block {
                            self.push(Message::new(speaker, s.as_str(), record));
                        }
                        continue;
                    };
                    match str_field(b, "type") {
                        Some("text") => {
                            let text = str_field(b, "text").unwrap_or_default();
                            self.push(Message::new(speaker, text, record));
                        }
                        Some("thinking") => {
                            let text = str_field(b, "thinking").unwrap_or_default();
                            if !text.trim().is_empty() {
                                self.push(Message::new(MessageRole::Reasoning, text, record));
                            }
                        }
                        Some("tool_use" | "server_tool_use") => {
                            let name = str_field(b, "name").unwrap_or("tool");
                            let arguments = arguments_text(b.get("input"));
                            let id = str_field(b, "id");
                            self.call(name, arguments, id, record);
                        }
                        Some("tool_result") => {
                            let id = str_field(b, "tool_use_id");
                            let text = content_text(b.get("content"));
                            self.output(id, text, record);
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        self.messages.len() > before
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_text_is_one_message() {
        let t = read_transcript("Never deploy on Fridays.\n").unwrap();
        assert_eq!(t.format, TranscriptFormat::PlainText);
        assert_eq!(t.messages.len(), 1);
        assert_eq!(t.messages[0].role, MessageRole::Unknown);
        assert_eq!(t.messages[0].text, "Never deploy on Fridays.\n");
        assert!(read_transcript("  \n").unwrap().messages.is_empty());
    }

    #[test]
    fn text_that_starts_like_json_is_still_text() {
        for text in [
            "[INFO] build started\n[INFO] done",
            "{braces} are fine in prose",
        ] {
            let t = read_transcript(text).unwrap();
            assert_eq!(t.format, TranscriptFormat::PlainText, "{text}");
        }
    }

    #[test]
    fn a_broken_later_line_is_an_error_naming_it() {
        let log = "{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n{\"type\": oops}\n";
        let err = read_transcript(log).unwrap_err();
        assert!(
            matches!(err, TranscriptError::Json { line: 2, .. }),
            "{err:?}"
        );
        assert!(err.to_string().starts_with("line 2, column "));
        let err =
            read_transcript("{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n[1]\n")
                .unwrap_err();
        assert_eq!(err, TranscriptError::NotAnObject { line: 2 });
    }

    #[test]
    fn responses_items_in_an_array_or_an_object() {
        let items = r#"[{"role":"developer","content":"Only touch src/."},
            {"type":"message","role":"assistant","content":[{"type":"output_text","text":"On it."}]},
            {"type":"reasoning","summary":[],"encrypted_content":"gAAA"}]"#;
        let t = read_transcript(items).unwrap();
        assert_eq!(t.format, TranscriptFormat::ResponsesItems);
        assert_eq!(t.messages.len(), 2);
        assert_eq!(t.messages[0].role, MessageRole::Developer);
        assert_eq!(t.messages[1].record, 2);
        assert_eq!(t.skipped, 1);
        let wrapped = alloc::format!("{{\"object\":\"list\",\"data\":{items}}}");
        assert_eq!(read_transcript(&wrapped).unwrap().messages, t.messages);
    }

    #[test]
    fn codex_lines() {
        let log = r#"{"timestamp":"t","type":"session_meta","payload":{"id":"s","instructions":"Never push to main."}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"fix it"}]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"user_message","message":"fix it"}}
{"timestamp":"t","type":"compacted","payload":{"message":"Summary: fixing it."}}"#;
        let t = read_transcript(log).unwrap();
        assert_eq!(t.format, TranscriptFormat::CodexSession);
        let roles: Vec<MessageRole> = t.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [MessageRole::System, MessageRole::User, MessageRole::Summary]
        );
        assert_eq!(t.skipped, 1);
    }

    #[test]
    fn claude_code_blocks() {
        let log = r#"{"type":"user","message":{"role":"user","content":"Don't touch prod."},"uuid":"a","parentUuid":null,"sessionId":"s"}
{"type":"assistant","message":{"role":"assistant","content":[{"type":"thinking","thinking":"Check first."},{"type":"text","text":"Looking."},{"type":"tool_use","id":"tu1","name":"Bash","input":{"command":"ls"}}]},"uuid":"b","sessionId":"s"}
{"type":"user","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tu1","content":[{"type":"text","text":"src\nCargo.toml"}]}]},"uuid":"c","sessionId":"s"}
{"type":"user","isSidechain":true,"message":{"role":"user","content":"subagent brief"},"uuid":"d","sessionId":"s"}
{"type":"summary","summary":"Title","leafUuid":"c"}"#;
        let t = read_transcript(log).unwrap();
        assert_eq!(t.format, TranscriptFormat::ClaudeCodeSession);
        let roles: Vec<MessageRole> = t.messages.iter().map(|m| m.role).collect();
        assert_eq!(
            roles,
            [
                MessageRole::User,
                MessageRole::Reasoning,
                MessageRole::Assistant,
                MessageRole::Assistant,
                MessageRole::Tool
            ]
        );
        assert_eq!(
            t.messages[3].tool_arguments.as_deref(),
            Some(r#"{"command":"ls"}"#)
        );
        assert_eq!(t.messages[4].tool_name.as_deref(), Some("Bash"));
        assert_eq!(t.messages[4].text, "src\nCargo.toml");
        assert_eq!(t.messages[4].record, 3);
        assert_eq!(t.skipped, 2);
    }

    #[test]
    fn json_that_is_no_transcript_is_an_error() {
        assert_eq!(
            read_transcript("{\"name\": \"x\"}\n{\"name\": \"y\"}\n"),
            Err(TranscriptError::NotATranscript)
        );
        assert_eq!(read_transcript("[1, 2]").unwrap().messages, []);
        assert!(matches!(
            read_transcript("\n[{\"role\": \"user\", \"content\": \"x\"}"),
            Err(TranscriptError::Json { line: 2, .. })
        ));
    }

    #[test]
    fn fact_roles() {
        assert_eq!(MessageRole::Developer.fact_role(), Some(Role::System));
        assert_eq!(MessageRole::Tool.fact_role(), Some(Role::Tool));
        assert_eq!(MessageRole::Unknown.fact_role(), None);
    }
}
