//! Transcripts: a session log, in whatever format its harness wrote it, as a
//! list of [`Message`]s with a role, where the text came from, the text, and
//! the tool name and arguments where there are some; and the compactions the
//! log records.
//!
//! [`read_transcript`] recognises each format from any of its records, not
//! only the first, and reads every era of it that its harness's public
//! source documents:
//!
//! - **Claude Code session logs** (`~/.claude/projects/<project>/<session>.jsonl`,
//!   1.0.x to 2.1.x): see `claude` for the line types.
//! - **Codex CLI rollouts** (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`),
//!   before and after the 2025 `{timestamp, type, payload}` envelope: see
//!   `codex`.
//! - **OpenAI Responses items**: a request body, a Response object, an
//!   `input_items` or conversation items list (newest first by default),
//!   a `/responses/compact` result, a JSON array of items, or one item per
//!   line: see `responses`.
//! - Anything else is plain text: one message of unknown role.
//!
//! Nothing is dropped silently: records that hold nothing a model reads
//! (bookkeeping, copies of messages the log keeps twice, encrypted
//! reasoning) are counted by record type in [`Transcript::skipped_records`].
//! A log cut off in its last line (still being written) reads up to it and
//! says so in [`Transcript::truncated`]; a broken line anywhere else (a
//! torn line: a write interrupted and the next record spliced into it) is
//! skipped and named in [`Transcript::damaged`], and the rest is read.
//!
//! Every message remembers its record: the 1-based line of a JSON-lines
//! file, or the 1-based position of an item in conversation order. Tool
//! outputs carry the name of the call they answer (matched by call id);
//! tool arguments are kept as the JSON text the model wrote.
//!
//! ```
//! use drift_session::{MessageRole, TranscriptFormat, read_transcript, transcript::Provenance};
//!
//! let log = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"Do not bump libfoo."}]}
//! {"type":"function_call","name":"shell","arguments":"{\"cmd\":\"cat Cargo.toml\"}","call_id":"c1"}
//! {"type":"function_call_output","call_id":"c1","output":"libfoo = \"2.3.1\""}"#;
//! let t = read_transcript(log).unwrap();
//! assert_eq!(t.format, TranscriptFormat::ResponsesItems);
//! assert_eq!(t.messages.len(), 3);
//! assert_eq!(t.messages[0].role, MessageRole::User);
//! assert_eq!(t.messages[0].provenance, Provenance::Said);
//! assert_eq!(t.messages[1].tool_arguments.as_deref(), Some(r#"{"cmd":"cat Cargo.toml"}"#));
//! assert_eq!(t.messages[2].tool_name.as_deref(), Some("shell"));
//! assert_eq!(t.messages[2].record, 3);
//! ```

pub(crate) mod claude;
pub(crate) mod codex;
mod jsonl;
pub(crate) mod profile;
pub(crate) mod responses;
pub(crate) mod text;
mod tree;

pub use text::strip_line_numbers;

use alloc::collections::BTreeMap;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde_json::{Map, Value};

use crate::rules::Source;
use drift_core::Role;
use jsonl::{JsonLine, JsonLines};

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

    /// The harness that writes the format ("Claude Code", "Codex CLI", "OpenAI
    /// Responses"), empty for plain text.
    pub const fn harness(self) -> &'static str {
        match self {
            TranscriptFormat::PlainText => "",
            TranscriptFormat::ResponsesItems => "OpenAI Responses",
            TranscriptFormat::CodexSession => "Codex CLI",
            TranscriptFormat::ClaudeCodeSession => "Claude Code",
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

/// Where a message's text came from, beyond its role: a harness puts text
/// in the operator's or the system's name that nobody there wrote.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Provenance {
    /// The role's own words: the operator typed it, the model wrote it, a
    /// tool returned it.
    #[default]
    Said,
    /// The operator typed it while the agent was busy (Claude Code's queued
    /// commands).
    Queued,
    /// A project instruction file the harness loads into the context itself
    /// (AGENTS.md, CLAUDE.md): the operator's rules, re-sent by the harness.
    ProjectFile,
    /// Context a hook added (Claude Code's `hook_additional_context`).
    Hook,
    /// A skill's instructions, loaded when the skill ran.
    Skill,
    /// The harness about itself: its base prompt, sandbox, permission and
    /// environment text, caveats, markers, a compaction's preamble. Never a
    /// rule of the operator's.
    Harness,
    /// A delegation brief: what the main agent told a subagent.
    Brief,
    /// A shell command the operator ran themselves, and its output: neither
    /// a rule nor an action of the agent's.
    UserShell,
    /// The operator's answers to the agent's questions (Claude Code's
    /// AskUserQuestion): each a choice the operator made.
    Answer,
    /// What the operator typed when rejecting a tool call (Claude Code):
    /// often a correction, or a rule about how to work.
    Rejection,
}

impl Provenance {
    /// Whether a user message of this provenance is what the operator
    /// typed: said in the chat, queued while the agent worked, or typed
    /// when rejecting a tool call.
    pub const fn typed(self) -> bool {
        matches!(
            self,
            Provenance::Said | Provenance::Queued | Provenance::Rejection
        )
    }

    /// The identifier used in reports (`project_file`, …).
    pub const fn id(self) -> &'static str {
        match self {
            Provenance::Said => "said",
            Provenance::Queued => "queued",
            Provenance::ProjectFile => "project_file",
            Provenance::Hook => "hook",
            Provenance::Skill => "skill",
            Provenance::Harness => "harness",
            Provenance::Brief => "brief",
            Provenance::UserShell => "user_shell",
            Provenance::Answer => "answer",
            Provenance::Rejection => "rejection",
        }
    }
}

/// Whether a tool call ran.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallStatus {
    /// It ran (or the log does not say otherwise).
    #[default]
    Ran,
    /// The operator rejected it before it ran.
    Rejected,
    /// A request for approval to run it (an MCP approval request): what
    /// runs, if anything, is the call that follows the approval.
    Requested,
    /// An approval was asked for it and refused.
    Denied,
}

impl CallStatus {
    /// Whether the call ran.
    pub const fn ran(self) -> bool {
        matches!(self, CallStatus::Ran)
    }

    /// Why it did not run, in words ("rejected by the user").
    pub const fn why_not(self) -> &'static str {
        match self {
            CallStatus::Ran => "",
            CallStatus::Rejected => "rejected by the user",
            CallStatus::Requested => "an approval request",
            CallStatus::Denied => "approval refused",
        }
    }
}

/// One message of a transcript.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Message {
    /// Who it is from.
    pub role: MessageRole,
    /// Where its text came from.
    pub provenance: Provenance,
    /// What it says (for a tool call, the text said alongside it, often
    /// empty).
    pub text: String,
    /// The tool called, or whose output this is.
    pub tool_name: Option<String>,
    /// The call's arguments as the model wrote them (usually JSON).
    pub tool_arguments: Option<String>,
    /// The id that pairs a call with its output.
    pub call_id: Option<String>,
    /// For a call: whether it ran.
    pub status: CallStatus,
    /// The subagent that wrote or received it (Claude Code sidechains and
    /// agent files); `None` for the main agent.
    pub agent: Option<String>,
    /// The file it came from: 0 for the main log, `n` for the `n`-th file
    /// added with [`Transcript::add_agent_log`].
    pub file: usize,
    /// Where it came from: the 1-based line of a JSON-lines file, the 1-based
    /// position in a JSON array, 1 for plain text.
    pub record: usize,
    /// When its record was written, as the log writes it (an ISO 8601 time
    /// in Claude Code and Codex logs), if it says.
    pub timestamp: Option<String>,
    /// The file or skill its text is, when the log names it: an
    /// instruction file's path (Claude Code's `nested_memory`), a skill's
    /// name.
    pub path: Option<String>,
}

impl Message {
    /// A message of `role` saying `text`, from record `record`.
    pub fn new(role: MessageRole, text: impl Into<String>, record: usize) -> Message {
        Message {
            role,
            provenance: Provenance::Said,
            text: text.into(),
            tool_name: None,
            tool_arguments: None,
            call_id: None,
            status: CallStatus::Ran,
            agent: None,
            file: 0,
            record,
            timestamp: None,
            path: None,
        }
    }

    /// This message with `provenance`.
    #[must_use]
    pub fn from(mut self, provenance: Provenance) -> Message {
        self.provenance = provenance;
        self
    }

    /// Whether it is a tool call.
    pub fn is_call(&self) -> bool {
        self.tool_name.is_some() && self.role == MessageRole::Assistant
    }

    /// Where its text comes from, for the rule finder; `None` for text
    /// that states no rules of the operator's and restates none either
    /// (the harness about itself, a shell command the operator ran, the
    /// model's reasoning).
    pub fn rule_source(&self) -> Option<Source> {
        Some(match self.provenance {
            Provenance::Harness | Provenance::UserShell => return None,
            Provenance::ProjectFile => Source::ProjectFile,
            Provenance::Hook => Source::HookContext,
            Provenance::Skill => Source::Skill,
            Provenance::Brief => Source::Assistant,
            Provenance::Said | Provenance::Queued | Provenance::Answer | Provenance::Rejection => {
                match self.role {
                    MessageRole::System | MessageRole::Developer => Source::SystemPrompt,
                    MessageRole::User | MessageRole::Unknown => Source::Chat,
                    MessageRole::Assistant => Source::Assistant,
                    MessageRole::Tool => Source::ToolOutput,
                    MessageRole::Summary => Source::Summary,
                    MessageRole::Reasoning => return None,
                }
            }
        })
    }
}

/// How a compaction was set off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionTrigger {
    /// The context filled up.
    Auto,
    /// Someone asked for it (`/compact`).
    Manual,
}

impl CompactionTrigger {
    /// The identifier used in reports.
    pub const fn id(self) -> &'static str {
        match self {
            CompactionTrigger::Auto => "auto",
            CompactionTrigger::Manual => "manual",
        }
    }
}

/// What a compaction replaced the context's early part with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CompactionKind {
    /// A summary (readable or encrypted), plus what the harness keeps.
    #[default]
    Summary,
    /// Tool results cleared, no summary written (Claude Code's
    /// `microcompact_boundary`): a compaction of tool output only.
    ToolResults,
}

impl CompactionKind {
    /// The identifier used in reports.
    pub const fn id(self) -> &'static str {
        match self {
            CompactionKind::Summary => "summary",
            CompactionKind::ToolResults => "tool_results",
        }
    }
}

/// A compaction the log records: where it happened, and what the new
/// context held.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Compaction {
    /// The record of its marker: a Claude Code `compact_boundary` or
    /// `microcompact_boundary` line (or the summary line when there is
    /// none), a Codex `compacted` line, a Responses `compaction` item.
    pub record: usize,
    /// A summary, or tool results cleared.
    pub kind: CompactionKind,
    /// The messages before this index were in the context it replaced.
    pub at: usize,
    /// How it was set off, when the log says.
    pub trigger: Option<CompactionTrigger>,
    /// The context's size before it, when the log says.
    pub tokens_before: Option<u64>,
    /// The summary that replaced the context (an index into the messages),
    /// when the log holds it readably.
    pub summary: Option<usize>,
    /// The summary is encrypted (a Responses `compaction` item, a Codex
    /// remote compaction): it happened, and it cannot be read.
    pub encrypted: bool,
    /// What the harness carried into the new context verbatim, as the log
    /// records it (Codex's `replacement_history` without the summary; the
    /// user messages before a Responses `compaction` item). Empty when the
    /// log does not record it.
    pub kept: Vec<Message>,
    /// The messages of the replaced context the new context holds word for
    /// word (indices into the transcript's messages): Claude Code's
    /// `preservedMessages`, and the messages of Codex's
    /// `replacement_history` found in the log.
    pub preserved: Vec<usize>,
    /// For a compaction of tool results: the tool outputs it cleared
    /// (indices into the transcript's messages).
    pub cleared: Vec<usize>,
    /// The context's size after it, when the log says (Claude Code's
    /// `postTokens`).
    pub tokens_after: Option<u64>,
    /// Codex 0.145+: the number of the context window it opened
    /// (`window_number`), when the log says.
    pub window: Option<u64>,
}

impl Compaction {
    /// A compaction recorded at `record` whose replaced context is the
    /// messages before `at`.
    pub fn at(record: usize, at: usize) -> Compaction {
        Compaction {
            record,
            at,
            ..Compaction::default()
        }
    }
}

/// A line of a JSON-lines log that could not be read and was skipped: most
/// often a torn line, one record spliced into another where a write was
/// interrupted.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct DamagedLine {
    /// Its 1-based number.
    pub line: usize,
    /// The 1-based column where it stops being JSON.
    pub column: usize,
    /// What the parser expected there.
    pub message: String,
}

/// A transcript: its format, its messages in order, and its compactions.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Transcript {
    /// What it was read as.
    pub format: TranscriptFormat,
    /// Its messages.
    pub messages: Vec<Message>,
    /// Records that were recognised but hold nothing a model reads
    /// (bookkeeping lines, copies, encrypted reasoning).
    pub skipped: usize,
    /// Those records by type (`file-history-snapshot`, `event_msg`, …),
    /// with counts, in the order first seen.
    pub skipped_records: Vec<(String, usize)>,
    /// The compactions, in order.
    pub compactions: Vec<Compaction>,
    /// The line the log was cut off in (the last, without a line break:
    /// still being written), read up to it.
    pub truncated: Option<usize>,
    /// Lines that are not JSON, skipped (a torn line: one record spliced
    /// into another); the rest of the log is read.
    pub damaged: Vec<DamagedLine>,
    /// The agent logs added with [`Transcript::add_agent_log`], by agent id.
    pub agent_logs: Vec<String>,
}

impl Transcript {
    /// A transcript of `format` holding `messages`, nothing skipped.
    pub fn new(format: TranscriptFormat, messages: Vec<Message>) -> Transcript {
        Transcript {
            format,
            messages,
            skipped: 0,
            skipped_records: Vec::new(),
            compactions: Vec::new(),
            truncated: None,
            damaged: Vec::new(),
            agent_logs: Vec::new(),
        }
    }

    /// Whether it holds no conversation: no message at all (a Claude Code
    /// log of only a title, or only a `teleported-from` record).
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// The compactions that wrote a summary (readable or not), in order:
    /// what an audit of rules judges.
    pub fn summaries(&self) -> impl Iterator<Item = &Compaction> {
        self.compactions
            .iter()
            .filter(|c| c.kind == CompactionKind::Summary)
    }

    /// Plain text as a one-message transcript (none when it is blank).
    pub fn plain(text: &str) -> Transcript {
        let messages = if text.trim().is_empty() {
            Vec::new()
        } else {
            alloc::vec![Message::new(MessageRole::Unknown, text, 1)]
        };
        Transcript::new(TranscriptFormat::PlainText, messages)
    }

    /// Adds a Claude Code subagent's own log (`agent-<id>.jsonl`, next to the
    /// session or under `<session>/subagents/`): its messages go right after
    /// the call that started the subagent (found by the agent id its result
    /// names, or the brief it was given), or at the end when no call names
    /// it. Messages the main log already embeds (`progress` lines) are not
    /// added twice.
    ///
    /// # Errors
    ///
    /// A [`TranscriptError`] for a broken line, naming it.
    pub fn add_agent_log(&mut self, text: &str) -> Result<(), TranscriptError> {
        claude::add_agent_log(self, text)
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

impl TranscriptError {
    /// Line `line` is not valid JSON.
    pub(crate) fn json(line: usize, e: &serde_json::Error) -> TranscriptError {
        TranscriptError::Json {
            line,
            column: e.column(),
            message: json_message(e),
        }
    }
}

/// Reads a transcript in any supported format (see the module docs).
///
/// # Errors
///
/// A [`TranscriptError`] naming the line when a file that starts as JSON
/// has a record that is not valid JSON (other than a last line cut off), or
/// is not an object; or when no record of a JSON file is of a supported
/// format.
pub fn read_transcript(text: &str) -> Result<Transcript, TranscriptError> {
    let body = text.trim_start_matches('\u{FEFF}');
    let trimmed = body.trim_start();
    let blank_lines = body
        .get(..body.len() - trimmed.len())
        .map_or(0, |s| s.matches('\n').count());
    match trimmed.as_bytes().first() {
        Some(b'[') => match serde_json::from_str::<Value>(body) {
            Ok(Value::Array(items)) => Ok(responses::document(&Map::new(), &items, None)),
            Ok(_) => Err(TranscriptError::NotATranscript),
            Err(e) => {
                let second = trimmed
                    .get(1..)
                    .unwrap_or("")
                    .trim_start()
                    .as_bytes()
                    .first();
                if matches!(second, Some(b'{' | b']')) {
                    Err(TranscriptError::json(e.line(), &e))
                } else {
                    // "[INFO] starting…": a log, not JSON.
                    Ok(Transcript::plain(text))
                }
            }
        },
        Some(b'{') => match serde_json::from_str::<Value>(body) {
            Ok(Value::Object(object)) => {
                if let Some(t) = responses::whole_document(&object) {
                    return Ok(t);
                }
                // A JSON-lines file of one line.
                let mut reader = TranscriptBuilder::default();
                reader.line(&object, 1 + blank_lines);
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
    let mut reader = TranscriptBuilder::default();
    let mut parsed_any = false;
    let mut lines = JsonLines::new(text);
    while let Some(line) = lines.next() {
        let (number, value) = match line {
            JsonLine::Value(number, value) => (number, value),
            JsonLine::Broken { number, error, .. } if !parsed_any => {
                // The first record is not JSON. When the next is a JSON
                // object, this is a JSON-lines log whose first line is
                // damaged: skipped and named like any other. Otherwise it
                // is text that happens to start with a brace.
                if !lines.next_is_record() {
                    return Ok(Transcript::plain(text));
                }
                reader.damaged.push(DamagedLine {
                    line: number,
                    column: error.column(),
                    message: json_message(&error),
                });
                continue;
            }
            JsonLine::Broken {
                number,
                cut_off: true,
                ..
            } => {
                // The log is still being written: read up to this line.
                reader.truncated = Some(number);
                break;
            }
            JsonLine::Broken { number, error, .. } => {
                // A torn line (a write interrupted, the next record spliced
                // into it): skipped and named, the rest read.
                reader.damaged.push(DamagedLine {
                    line: number,
                    column: error.column(),
                    message: json_message(&error),
                });
                continue;
            }
        };
        parsed_any = true;
        let Value::Object(object) = value else {
            return Err(TranscriptError::NotAnObject { line: number });
        };
        reader.line(&object, number);
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

/// The format one JSON-lines record belongs to, from its own fields.
fn format_of(object: &Map<String, Value>) -> Option<TranscriptFormat> {
    if codex::is_codex_line(object) {
        Some(TranscriptFormat::CodexSession)
    } else if claude::is_claude_line(object) {
        Some(TranscriptFormat::ClaudeCodeSession)
    } else if responses::is_item(object) {
        Some(TranscriptFormat::ResponsesItems)
    } else {
        None
    }
}

/// Builds a transcript record by record.
#[derive(Default)]
pub(crate) struct TranscriptBuilder {
    pub format: Option<TranscriptFormat>,
    pub messages: Vec<Message>,
    pub skipped: BTreeMap<String, (usize, usize)>,
    pub compactions: Vec<Compaction>,
    pub truncated: Option<usize>,
    pub damaged: Vec<DamagedLine>,
    /// Tool names by call id, to name outputs; and the message of each call.
    pub calls: BTreeMap<String, (String, usize)>,
    /// Claude Code: what the reader carries from line to line.
    pub claude: claude::State,
}

impl TranscriptBuilder {
    /// One line of a JSON-lines file.
    fn line(&mut self, object: &Map<String, Value>, record: usize) {
        let before = self.messages.len();
        self.dispatch(object, record);
        if let Some(time) = str_field(object, "timestamp") {
            for m in self.messages.iter_mut().skip(before) {
                m.timestamp = Some(time.to_string());
            }
        }
    }

    fn dispatch(&mut self, object: &Map<String, Value>, record: usize) {
        let format = self.format.or_else(|| format_of(object));
        match format {
            Some(TranscriptFormat::ClaudeCodeSession) if claude::is_claude_line(object) => {
                self.format = format;
                claude::line(self, object, record);
            }
            Some(TranscriptFormat::CodexSession) => {
                self.format = format;
                codex::line(self, object, record);
            }
            Some(TranscriptFormat::ResponsesItems) if responses::is_item(object) => {
                self.format = format;
                responses::item(self, object, record);
            }
            _ => self.skip(str_field(object, "type").unwrap_or("unknown record")),
        }
    }

    /// Counts a record that holds nothing to read, by type.
    pub fn skip(&mut self, kind: &str) {
        let order = self.skipped.len();
        self.skipped.entry(kind.to_string()).or_insert((order, 0)).1 += 1;
    }

    /// The transcript, or an error when no record was of a known format.
    pub fn finish(mut self) -> Result<Transcript, TranscriptError> {
        let format = self.format.ok_or(TranscriptError::NotATranscript)?;
        let mut copies = core::mem::take(&mut self.claude.copies);
        if format == TranscriptFormat::ClaudeCodeSession {
            copies.extend(claude::abandoned_messages(&mut self));
        }
        self.leave_out(&copies);
        Ok(self.into_transcript(format))
    }

    /// Leaves the messages at `drop` out, keeping what points at the others
    /// (compactions, their summaries, preserved and cleared messages) true.
    pub fn leave_out(&mut self, drop: &alloc::collections::BTreeSet<usize>) {
        if drop.is_empty() {
            return;
        }
        let old = core::mem::take(&mut self.messages);
        // `map[i]`: where old message `i` (or, for one left out, the next
        // one kept) now is.
        let mut map: Vec<usize> = Vec::with_capacity(old.len() + 1);
        for (i, m) in old.into_iter().enumerate() {
            map.push(self.messages.len());
            if !drop.contains(&i) {
                self.messages.push(m);
            }
        }
        map.push(self.messages.len());
        let kept = |i: &usize| !drop.contains(i);
        for c in &mut self.compactions {
            c.at = map.get(c.at).copied().unwrap_or(self.messages.len());
            c.summary = c.summary.filter(kept).and_then(|s| map.get(s).copied());
            for list in [&mut c.preserved, &mut c.cleared] {
                list.retain(kept);
                for i in list.iter_mut() {
                    *i = map.get(*i).copied().unwrap_or(*i);
                }
            }
        }
    }

    pub fn into_transcript(self, format: TranscriptFormat) -> Transcript {
        let mut skipped_records: Vec<(usize, String, usize)> = self
            .skipped
            .into_iter()
            .map(|(kind, (order, n))| (order, kind, n))
            .collect();
        skipped_records.sort_unstable();
        let skipped = skipped_records.iter().map(|(_, _, n)| n).sum();
        Transcript {
            format,
            messages: self.messages,
            skipped,
            skipped_records: skipped_records
                .into_iter()
                .map(|(_, kind, n)| (kind, n))
                .collect(),
            compactions: self.compactions,
            truncated: self.truncated,
            damaged: self.damaged,
            agent_logs: Vec::new(),
        }
    }

    pub fn push(&mut self, message: Message) {
        self.messages.push(message);
    }

    /// A tool call by the model.
    pub fn call(
        &mut self,
        name: &str,
        arguments: Option<String>,
        call_id: Option<&str>,
        record: usize,
    ) -> &mut Message {
        let index = self.messages.len();
        if let Some(id) = call_id {
            self.calls.insert(id.to_string(), (name.to_string(), index));
        }
        self.messages.push(Message {
            tool_name: Some(name.to_string()),
            tool_arguments: arguments,
            call_id: call_id.map(ToString::to_string),
            ..Message::new(MessageRole::Assistant, String::new(), record)
        });
        let last = self.messages.len() - 1;
        &mut self.messages[last]
    }

    /// A tool's output, named after the call it answers.
    pub fn output(&mut self, call_id: Option<&str>, text: String, record: usize) -> &mut Message {
        let tool_name = call_id
            .and_then(|id| self.calls.get(id))
            .map(|(name, _)| name.clone());
        self.messages.push(Message {
            tool_name,
            call_id: call_id.map(ToString::to_string),
            ..Message::new(MessageRole::Tool, text, record)
        });
        let last = self.messages.len() - 1;
        &mut self.messages[last]
    }

    /// The call with `call_id`, if the log has it.
    pub fn call_message(&mut self, call_id: &str) -> Option<&mut Message> {
        let &(_, index) = self.calls.get(call_id)?;
        self.messages.get_mut(index)
    }
}

pub(crate) fn str_field<'v>(object: &'v Map<String, Value>, key: &str) -> Option<&'v str> {
    object.get(key).and_then(Value::as_str)
}

#[cfg(test)]
mod tests;
