//! Claude Code session logs (`~/.claude/projects/<project>/<session>.jsonl`).
//!
//! The format is not specified by its vendor; this reader follows what the
//! public parsers of these logs document and what the logs of each era
//! hold (daaain/claude-code-log and its forks, kenn-io/agentsview,
//! simonw/claude-code-transcripts, the Claude Code changelog and hooks
//! documentation; `tests/transcripts/README.md` cites them per fixture).
//!
//! - `user` and `assistant` lines, split into one message per content block
//!   (`text`, `thinking`, `tool_use`, `tool_result`). A Read result is its
//!   file's text: `toolUseResult.file.content`, else the result with its
//!   `cat -n` numbering stripped (arrow form `     7→`, tab form `7\t`);
//!   `<system-reminder>` blocks the harness appends are left out.
//! - Text the harness writes in the user's name is marked
//!   [`Provenance::Harness`]: local-command caveats and wrappers (but the
//!   arguments a user typed after a command are the user's), interruption
//!   markers, task notifications, IDE selections, the compaction summary's
//!   preamble. A `!` shell command is [`Provenance::UserShell`]. A tool use
//!   the user rejected is [`CallStatus::Rejected`]; the reason they typed
//!   (after "To tell you how to proceed, the user said:" since 2.1, after
//!   "The user provided the following reason for the rejection:" before)
//!   is their own message, [`Provenance::Rejection`]; when they end a plan
//!   interview, the answers they gave are [`Provenance::Answer`].
//! - The answers to the agent's questions (AskUserQuestion's result,
//!   `User has answered your questions: "<question>"="<option>"`): each
//!   chosen option with its question, one `question → option` per line,
//!   [`Provenance::Answer`].
//! - The log is a tree (`uuid`, `parentUuid`): a message said only on a
//!   branch the session abandoned (a rewind) was never in the context
//!   that came after, and is left out (counted as `abandoned branch`); a
//!   line written again (the same uuid and time) is read once (see
//!   `tree`).
//! - `isMeta` lines: a skill's body is [`Provenance::Skill`], the rest is
//!   harness text.
//! - Compactions: a `system` line of subtype `compact_boundary` (its
//!   `compactMetadata.trigger`, `preTokens`, `postTokens`, and the messages
//!   it kept word for word, `preservedMessages.uuids`) and the
//!   `isCompactSummary` user line after it (a message typed while the
//!   compaction ran may come between); in logs without these (1.0.x), a
//!   user line that opens with the continuation preamble. A
//!   `microcompact_boundary` clears tool results and writes no summary: a
//!   compaction of kind [`CompactionKind::ToolResults`] naming the outputs
//!   it cleared (`compactedToolIds`).
//! - Mid-turn input: a `queue-operation` enqueue is a message the user
//!   typed while the agent worked ([`Provenance::Queued`]), read where it
//!   was typed unless the same text comes again as a user line or an
//!   `attachment` of type `queued_command` (which is then read instead); a
//!   queued slash command is its arguments (`/compact keep the API frozen`),
//!   or nothing. `hook_additional_context` is text the model saw
//!   ([`Provenance::Hook`], role system).
//! - Subagents: `isSidechain` lines (inline in 1.0.x), messages embedded in
//!   `progress` lines of type `agent_progress`, and separate agent logs
//!   (`agent-<id>.jsonl`; see [`super::Transcript::add_agent_log`]) carry
//!   the subagent's id in [`Message::agent`]; the first user line of a
//!   subagent is its brief ([`Provenance::Brief`]).
//! - Bookkeeping (`file-history-snapshot`, `summary` titles, the queue's
//!   other operations, `permission-mode`, `last-prompt`, `teleported-from`,
//!   hook runs, other `system` subtypes, …) is counted by type and skipped:
//!   a log of nothing else holds no conversation.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::jsonl::{JsonLine, JsonLines};
use super::text::{arguments_text, content_text, strip_line_numbers, strip_reminders};
use super::tree::Node;
use super::{
    CallStatus, Compaction, CompactionKind, CompactionTrigger, Message, MessageRole, Provenance,
    Transcript, TranscriptBuilder, TranscriptError, TranscriptFormat, str_field,
};

/// Line types only Claude Code writes (besides `user` and `assistant`).
const CLAUDE_TYPES: &[&str] = &[
    "system",
    "summary",
    "file-history-snapshot",
    "attachment",
    "progress",
    "queue-operation",
    "permission-mode",
    "last-prompt",
    "ai-title",
    "custom-title",
    "agent-name",
    "agent-color",
    "agent-setting",
    "pr-link",
    "tag",
    "mode",
    "turn_end",
    "teleported-from",
    "relocated",
    "worktree-state",
    "fork-context-ref",
    "file-history-delta",
    "frame-link",
    "bridge-session",
    "atis-latch",
];

/// Whether a line is a Claude Code log line.
pub(crate) fn is_claude_line(object: &Map<String, Value>) -> bool {
    match str_field(object, "type") {
        Some("user" | "assistant") => ["message", "uuid", "sessionId", "parentUuid"]
            .iter()
            .any(|k| object.contains_key(*k)),
        Some(kind) => CLAUDE_TYPES.contains(&kind),
        None => false,
    }
}

/// What the reader carries from line to line.
#[derive(Default)]
pub(crate) struct State {
    /// Subagent ids by the id of the Task (Agent) call that started them.
    agent_of_call: BTreeMap<String, String>,
    /// The latest Task (Agent) call: inline sidechain lines belong to it.
    open_task: Option<String>,
    /// Subagents whose brief has been read.
    briefed: BTreeSet<String>,
    /// Embedded subagent messages already read (by uuid).
    embedded: BTreeSet<String>,
    /// The messages each `user` or `assistant` line gave, by the line's
    /// uuid (a compaction's `preservedMessages` names them).
    by_uuid: BTreeMap<String, (usize, usize)>,
    /// Messages typed while the agent worked, read from their
    /// `queue-operation` enqueue, by their text: when the same text comes
    /// again as a user line or a `queued_command`, that one is the message
    /// and the enqueue's copy goes.
    queued: BTreeMap<String, usize>,
    /// Messages to leave out when the log is read (copies).
    pub(crate) copies: BTreeSet<usize>,
    /// The main session's records as the tree they form (see `tree`).
    pub(crate) nodes: Vec<Node>,
    /// The uuids and times of the user and assistant lines read: a line
    /// written again (a resumed session), the same record at the same time,
    /// is read once.
    read_uuids: BTreeSet<(String, String)>,
}

/// One line of a Claude Code log.
pub(crate) fn line(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let sidechain = object.get("isSidechain") == Some(&Value::Bool(true));
    if !sidechain && let Some(uuid) = str_field(object, "uuid") {
        let talk = matches!(str_field(object, "type"), Some("user" | "assistant"));
        let written = str_field(object, "timestamp");
        if talk
            && let Some(time) = written
            && !r
                .claude
                .read_uuids
                .insert((uuid.to_string(), time.to_string()))
        {
            // The same line written again (a resumed session): read once.
            r.skip("copy of a line read before");
            return;
        }
        r.claude.nodes.push(node(object, uuid, talk, record));
    }
    match str_field(object, "type").unwrap_or("") {
        kind @ ("user" | "assistant") => {
            let agent = str_field(object, "agentId")
                .map(ToString::to_string)
                .or_else(|| {
                    sidechain.then(|| {
                        r.claude
                            .open_task
                            .clone()
                            .unwrap_or_else(|| "sidechain".to_string())
                    })
                });
            let before = r.messages.len();
            if !chain_line(r, kind, object, agent, record) {
                r.skip(kind);
            }
            if let Some(uuid) = str_field(object, "uuid") {
                r.claude
                    .by_uuid
                    .insert(uuid.to_string(), (before, r.messages.len()));
            }
        }
        "system" => match str_field(object, "subtype") {
            Some("compact_boundary") => boundary(r, object, record),
            Some("microcompact_boundary") => microcompact(r, object, record),
            Some(subtype) => r.skip(&alloc::format!("system ({subtype})")),
            None => r.skip("system"),
        },
        "attachment" => attachment(r, object, record),
        "progress" => progress(r, object, record),
        "queue-operation" => queue_operation(r, object, record),
        other => r.skip(other),
    }
}

/// A record as a node of the session's tree.
fn node(object: &Map<String, Value>, uuid: &str, talk: bool, record: usize) -> Node {
    let blocks = object
        .get("message")
        .and_then(|m| m.get("content"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    Node {
        record,
        uuid: uuid.to_string(),
        parent: str_field(object, "parentUuid").map(ToString::to_string),
        logical_parent: str_field(object, "logicalParentUuid").map(ToString::to_string),
        talk,
        typed: str_field(object, "type") == Some("user")
            && !blocks
                .iter()
                .any(|b| b.get("type").and_then(Value::as_str) == Some("tool_result")),
        boundary: str_field(object, "subtype") == Some("compact_boundary"),
    }
}

/// The messages of the main session said only on a branch it abandoned
/// (see `tree`): left out when the log is read. A compaction's summary
/// stays, whatever branch it is on.
pub(crate) fn abandoned_messages(r: &mut TranscriptBuilder) -> BTreeSet<usize> {
    let records = super::tree::abandoned(&r.claude.nodes);
    if records.is_empty() {
        return BTreeSet::new();
    }
    for _ in &records {
        r.skip("abandoned branch");
    }
    r.messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.file == 0
                && m.agent.is_none()
                && m.role != MessageRole::Summary
                && records.contains(&m.record)
        })
        .map(|(i, _)| i)
        .collect()
}

/// The metadata object of a boundary line, under either spelling.
fn metadata<'o>(object: &'o Map<String, Value>, key: &str) -> Option<&'o Map<String, Value>> {
    let snake: String = key
        .chars()
        .flat_map(|c| {
            let lower = c.to_ascii_lowercase();
            let under = (c != lower).then_some('_');
            under.into_iter().chain(core::iter::once(lower))
        })
        .collect();
    object
        .get(key)
        .or_else(|| object.get(snake.as_str()))
        .and_then(Value::as_object)
}

fn number(meta: Option<&Map<String, Value>>, key: &str) -> Option<u64> {
    meta.and_then(|m| m.get(key)).and_then(Value::as_u64)
}

/// A `compact_boundary` line: a compaction, with its trigger and sizes, and
/// the messages it kept verbatim (`preservedMessages`, newer logs).
fn boundary(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let meta = metadata(object, "compactMetadata");
    let trigger = meta
        .and_then(|m| str_field(m, "trigger"))
        .and_then(|t| match t {
            "auto" => Some(CompactionTrigger::Auto),
            "manual" => Some(CompactionTrigger::Manual),
            _ => None,
        });
    let tokens_before = number(meta, "preTokens").or_else(|| number(meta, "pre_tokens"));
    let tokens_after = number(meta, "postTokens").or_else(|| number(meta, "post_tokens"));
    let mut preserved: Vec<usize> = meta
        .and_then(|m| m.get("preservedMessages"))
        .and_then(|p| p.get("uuids"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .filter_map(|uuid| r.claude.by_uuid.get(uuid))
        .flat_map(|&(start, end)| start..end)
        .collect();
    preserved.sort_unstable();
    preserved.dedup();
    r.compactions.push(Compaction {
        trigger,
        tokens_before,
        tokens_after,
        preserved,
        ..Compaction::at(record, r.messages.len())
    });
}

/// A `microcompact_boundary` line: tool results cleared, no summary.
fn microcompact(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let meta = metadata(object, "microcompactMetadata");
    let ids: BTreeSet<&str> = meta
        .and_then(|m| m.get("compactedToolIds"))
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice)
        .iter()
        .filter_map(Value::as_str)
        .collect();
    let cleared: Vec<usize> = r
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| {
            m.role == MessageRole::Tool && m.call_id.as_deref().is_some_and(|id| ids.contains(id))
        })
        .map(|(i, _)| i)
        .collect();
    let tokens_before = number(meta, "preTokens");
    let saved = number(meta, "tokensSaved");
    let trigger = meta
        .and_then(|m| str_field(m, "trigger"))
        .and_then(|t| match t {
            "auto" => Some(CompactionTrigger::Auto),
            "manual" => Some(CompactionTrigger::Manual),
            _ => None,
        });
    r.compactions.push(Compaction {
        kind: CompactionKind::ToolResults,
        trigger,
        tokens_before,
        tokens_after: tokens_before.zip(saved).map(|(b, s)| b.saturating_sub(s)),
        cleared,
        ..Compaction::at(record, r.messages.len())
    });
}

/// The text the user typed, from a queued message: a slash command's
/// arguments (`/compact keep the API frozen`), none for a bare command
/// (`/status`), else the text.
fn typed(text: &str) -> Option<&str> {
    let t = text.trim();
    if let Some(command) = t.strip_prefix('/')
        && command.split_whitespace().next().is_some_and(|name| {
            name.chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | ':'))
        })
    {
        let args = command
            .split_once(char::is_whitespace)
            .map_or("", |(_, args)| args.trim());
        return (!args.is_empty()).then_some(args);
    }
    (!t.is_empty()).then_some(t)
}

/// A `queue-operation` line. An enqueue is a message the user typed while
/// the agent worked: it is read there, unless the same text comes again as
/// a user line or a `queued_command` (which then stands for it).
fn queue_operation(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let text = match object.get("content") {
        Some(v @ (Value::String(_) | Value::Array(_))) => content_text(Some(v)),
        _ => String::new(),
    };
    let Some(typed) = (str_field(object, "operation") == Some("enqueue"))
        .then(|| typed(&text))
        .flatten()
    else {
        r.skip("queue-operation");
        return;
    };
    if is_harness_marker(typed) {
        r.skip("queue-operation");
        return;
    }
    let index = r.messages.len();
    r.claude.queued.insert(typed.to_string(), index);
    r.push(Message::new(MessageRole::User, typed, record).from(Provenance::Queued));
}

/// A user message the log also queued: the enqueue's copy goes.
fn unqueue(r: &mut TranscriptBuilder, text: &str) {
    if let Some(copy) = typed(text).and_then(|t| r.claude.queued.remove(t)) {
        r.claude.copies.insert(copy);
    }
}

fn attachment(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let Some(Value::Object(a)) = object.get("attachment") else {
        r.skip("attachment");
        return;
    };
    match str_field(a, "type") {
        Some("queued_command") => {
            let text = match a.get("prompt") {
                Some(v @ (Value::String(_) | Value::Array(_))) => content_text(Some(v)),
                _ => String::new(),
            };
            if text.trim().is_empty() {
                r.skip("attachment (queued_command)");
            } else {
                unqueue(r, &text);
                r.push(Message::new(MessageRole::User, text, record).from(Provenance::Queued));
            }
        }
        Some("invoked_skills") => {
            // The skills that ran, put back after a compaction.
            let skills = a
                .get("skills")
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            let before = r.messages.len();
            for skill in skills {
                let text = content_text(skill.get("content"));
                if text.trim().is_empty() {
                    continue;
                }
                let mut m = Message::new(MessageRole::User, text, record).from(Provenance::Skill);
                m.path = skill
                    .get("name")
                    .and_then(Value::as_str)
                    .map(ToString::to_string);
                r.push(m);
            }
            if r.messages.len() == before {
                r.skip("attachment (invoked_skills)");
            }
        }
        Some("nested_memory") => {
            // An instruction file the harness loaded (a CLAUDE.md).
            let memory = a.get("content");
            let text = match memory {
                Some(Value::Object(m)) => content_text(m.get("content")),
                other => content_text(other),
            };
            if text.trim().is_empty() {
                r.skip("attachment (nested_memory)");
            } else {
                let mut m =
                    Message::new(MessageRole::User, text, record).from(Provenance::ProjectFile);
                m.path = str_field(a, "path").map(ToString::to_string);
                r.push(m);
            }
        }
        Some("hook_additional_context") => {
            let text = content_text(a.get("content"));
            if text.trim().is_empty() {
                r.skip("attachment (hook_additional_context)");
            } else {
                r.push(Message::new(MessageRole::System, text, record).from(Provenance::Hook));
            }
        }
        Some(kind) => r.skip(&alloc::format!("attachment ({kind})")),
        None => r.skip("attachment"),
    }
}

/// A `progress` line: an `agent_progress` embeds one of a subagent's
/// messages; the rest (hook and tool progress) is bookkeeping.
fn progress(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    let data = object.get("data").and_then(Value::as_object);
    let Some(data) = data.filter(|d| str_field(d, "type") == Some("agent_progress")) else {
        let kind = data
            .and_then(|d| str_field(d, "type"))
            .unwrap_or("progress");
        r.skip(&alloc::format!("progress ({kind})"));
        return;
    };
    let parent = str_field(object, "parentToolUseID");
    let agent = str_field(data, "agentId")
        .map(ToString::to_string)
        .or_else(|| parent.map(ToString::to_string))
        .unwrap_or_else(|| "subagent".to_string());
    if let Some(call) = parent {
        r.claude
            .agent_of_call
            .insert(call.to_string(), agent.clone());
    }
    let Some(Value::Object(inner)) = data.get("message") else {
        r.skip("progress (agent_progress)");
        return;
    };
    let uuid = str_field(inner, "uuid").map(ToString::to_string);
    if let Some(uuid) = &uuid
        && !r.claude.embedded.insert(uuid.clone())
    {
        r.skip("progress (agent_progress)");
        return;
    }
    let kind = str_field(inner, "type").unwrap_or("assistant");
    if !matches!(kind, "user" | "assistant") || !chain_line(r, kind, inner, Some(agent), record) {
        r.skip("progress (agent_progress)");
    }
}

/// A `user` or `assistant` line (or one embedded in a progress line);
/// false when it holds nothing to read.
fn chain_line(
    r: &mut TranscriptBuilder,
    kind: &str,
    object: &Map<String, Value>,
    agent: Option<String>,
    record: usize,
) -> bool {
    let Some(Value::Object(message)) = object.get("message") else {
        return false;
    };
    let flag = |key: &str| object.get(key) == Some(&Value::Bool(true));
    let before = r.messages.len();
    let content = message.get("content");

    if kind == "user" && flag("isCompactSummary") {
        summary(r, content_text(content), record);
        return true;
    }
    if kind == "user" && flag("isMeta") {
        let text = content_text(content);
        if text.trim().is_empty() {
            return false;
        }
        let provenance = if text
            .trim_start()
            .starts_with("Base directory for this skill")
        {
            Provenance::Skill
        } else {
            Provenance::Harness
        };
        let mut m = Message::new(MessageRole::User, text, record).from(provenance);
        if provenance == Provenance::Skill {
            m.path = skill_name(&m.text);
        }
        m.agent = agent;
        r.push(m);
        return true;
    }

    let speaker = if kind == "user" {
        MessageRole::User
    } else {
        MessageRole::Assistant
    };
    // The first user line of a subagent is its brief.
    let brief = kind == "user"
        && agent
            .as_ref()
            .is_some_and(|a| !r.claude.briefed.contains(a))
        && !matches!(content, Some(Value::Array(b)) if b.iter().any(|x| x.get("type").and_then(Value::as_str) == Some("tool_result")));
    if brief && let Some(a) = &agent {
        r.claude.briefed.insert(a.clone());
    }
    match content {
        Some(Value::String(text)) => {
            user_or_assistant_text(r, speaker, text, brief, agent.as_deref(), record);
        }
        Some(Value::Array(blocks)) => {
            let result = object.get("toolUseResult");
            for block in blocks {
                let Value::Object(b) = block else {
                    if let Value::String(s) = block {
                        user_or_assistant_text(r, speaker, s, brief, agent.as_deref(), record);
                    }
                    continue;
                };
                match str_field(b, "type") {
                    Some("text") => {
                        let text = str_field(b, "text").unwrap_or_default();
                        user_or_assistant_text(r, speaker, text, brief, agent.as_deref(), record);
                    }
                    Some("thinking") => {
                        let text = str_field(b, "thinking").unwrap_or_default();
                        if !text.trim().is_empty() {
                            let mut m = Message::new(MessageRole::Reasoning, text, record);
                            m.agent = agent.clone();
                            r.push(m);
                        }
                    }
                    Some("tool_use" | "server_tool_use") => {
                        let name = str_field(b, "name").unwrap_or("tool");
                        let arguments = arguments_text(b.get("input"));
                        let id = str_field(b, "id");
                        if matches!(name, "Task" | "Agent")
                            && let Some(id) = id
                        {
                            r.claude.open_task = Some(id.to_string());
                        }
                        r.call(name, arguments, id, record).agent = agent.clone();
                    }
                    Some("tool_result") => {
                        tool_result(r, b, result, agent.clone(), record);
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
    r.messages.len() > before
}

/// Text of a user or assistant line, classified.
fn user_or_assistant_text(
    r: &mut TranscriptBuilder,
    speaker: MessageRole,
    text: &str,
    brief: bool,
    agent: Option<&str>,
    record: usize,
) {
    if text.trim().is_empty() {
        return;
    }
    if speaker == MessageRole::User
        && TranscriptFormat::ClaudeCodeSession
            .profile()
            .opens_summary(text.trim_start())
    {
        // A compaction summary of a log that writes no boundary (1.0.x).
        summary(r, text.to_string(), record);
        return;
    }
    let (provenance, body, typed) = if speaker == MessageRole::User {
        classify_user_text(text)
    } else {
        (Provenance::Said, strip_reminders(text).into_owned(), None)
    };
    let provenance = if brief && provenance == Provenance::Said {
        Provenance::Brief
    } else {
        provenance
    };
    if speaker == MessageRole::User && provenance == Provenance::Said {
        unqueue(r, &body);
    }
    if let Some(typed) = &typed {
        unqueue(r, typed);
    }
    if !body.trim().is_empty() {
        let mut m = Message::new(speaker, body, record).from(provenance);
        m.agent = agent.map(ToString::to_string);
        r.push(m);
    }
    if let Some(typed) = typed.filter(|t| !t.trim().is_empty()) {
        let mut m = Message::new(MessageRole::User, typed, record);
        m.agent = agent.map(ToString::to_string);
        r.push(m);
    }
}

/// A summary line: the summary message, and the compaction it closes (the
/// boundary before it, or a compaction of its own when there is none).
fn summary(r: &mut TranscriptBuilder, text: String, record: usize) {
    let index = r.messages.len();
    r.push(Message::new(MessageRole::Summary, text, record));
    match r.compactions.last_mut() {
        // The boundary before it that has no summary yet: what the log
        // wrote between the two (a message typed as the compaction ran)
        // is already the new context's.
        Some(c) if c.kind == CompactionKind::Summary && c.summary.is_none() => {
            c.summary = Some(index);
        }
        _ => r.compactions.push(Compaction {
            summary: Some(index),
            ..Compaction::at(record, index)
        }),
    }
}

/// Harness text a user line can hold, by the marker it opens with.
const HARNESS_MARKERS: &[&str] = &[
    "<local-command-stdout>",
    "<local-command-stderr>",
    "<local-command-caveat>",
    "Caveat: The messages below were generated by the user while running local commands",
    "[Request interrupted by user",
    "<task-notification>",
    "Stop hook feedback:",
    "<ide_selection>",
    "<ide_opened_file>",
    "<user-memory-input>",
];

/// Whether `text` opens with a marker of text the harness writes in the
/// user's name.
fn is_harness_marker(text: &str) -> bool {
    let t = text.trim_start();
    HARNESS_MARKERS.iter().any(|m| t.starts_with(m))
        || ["<bash-", "<command-", "<bash-notification>"]
            .iter()
            .any(|m| t.starts_with(m))
}

/// A user line's text: who really wrote it, the text to keep, and text the
/// user typed inside a harness wrapper (a command's arguments).
fn classify_user_text(text: &str) -> (Provenance, String, Option<String>) {
    let trimmed = text.trim_start();
    if trimmed.starts_with("<bash-input>")
        || trimmed.starts_with("<bash-stdout>")
        || trimmed.starts_with("<bash-stderr>")
    {
        return (Provenance::UserShell, text.to_string(), None);
    }
    if trimmed.starts_with("<command-name>")
        || trimmed.starts_with("<command-message>")
        || trimmed.starts_with("<command-args>")
    {
        let args = between(text, "<command-args>", "</command-args>")
            .map(|a| a.trim().to_string())
            .filter(|a| !a.is_empty());
        return (Provenance::Harness, text.to_string(), args);
    }
    if HARNESS_MARKERS.iter().any(|m| trimmed.starts_with(m)) {
        return (Provenance::Harness, text.to_string(), None);
    }
    (Provenance::Said, strip_reminders(text).into_owned(), None)
}

fn between<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let rest = text.get(start..)?;
    rest.get(..rest.find(close)?)
}

/// What a rejected tool use's result says.
const REJECTED: &[&str] = &[
    "The user doesn't want to proceed with this tool use",
    "The user doesn't want to take this action right now",
];

/// Where the reason the user typed when rejecting starts: the wording of
/// Claude Code 2.1 and later, then the earlier one.
const REASONS: &[&str] = &[
    "To tell you how to proceed, the user said:",
    "The user provided the following reason for the rejection:",
];

/// The harness's note that can follow a rejection: not the user's words.
const REJECTION_NOTE: &str = "\n\nNote: The user's next message may contain";

/// What the harness writes in the reason's place when the user ends a plan
/// interview: their answers, if any, follow, one question at a time.
const PLAN_INTERVIEW: &str =
    "The user has indicated they have provided enough answers for the plan interview.";

/// What a rejection's result holds of the user's: the reason they typed,
/// or their answers when they ended a plan interview.
enum Rejection {
    Reason(String),
    Answers(String),
    Nothing,
}

fn rejection(raw: &str) -> Rejection {
    let Some(reason) = REASONS.iter().find_map(|marker| {
        let at = raw.find(marker)? + marker.len();
        raw.get(at..)
    }) else {
        return Rejection::Nothing;
    };
    let reason = reason
        .find(REJECTION_NOTE)
        .map_or(reason, |end| reason.get(..end).unwrap_or(reason))
        .trim();
    if let Some(interview) = reason.strip_prefix(PLAN_INTERVIEW) {
        return interview_answers(interview).map_or(Rejection::Nothing, Rejection::Answers);
    }
    if reason.is_empty() {
        Rejection::Nothing
    } else {
        Rejection::Reason(reason.to_string())
    }
}

/// The answers of an ended plan interview (`- "<question>"` and the answer
/// on the lines below, or "(No answer provided)"), one `Q → A` per line.
fn interview_answers(text: &str) -> Option<String> {
    let mut out = String::new();
    let mut question: Option<&str> = None;
    let mut answer = String::new();
    let flush = |question: Option<&str>, answer: &mut String, out: &mut String| {
        let a = answer.trim();
        if let Some(q) = question
            && !a.is_empty()
            && a != "(No answer provided)"
        {
            if !out.is_empty() {
                out.push('\n');
            }
            out.push_str(q);
            out.push_str(" → ");
            out.push_str(a.strip_prefix("Answer:").unwrap_or(a).trim());
        }
        answer.clear();
    };
    for line in text.lines() {
        if let Some(q) = line
            .strip_prefix("- \"")
            .and_then(|q| q.trim_end().strip_suffix('"'))
        {
            flush(question, &mut answer, &mut out);
            question = Some(q.trim());
        } else if question.is_some() && line.starts_with(' ') {
            answer.push_str(line.trim());
            answer.push(' ');
        }
    }
    flush(question, &mut answer, &mut out);
    (!out.is_empty()).then_some(out)
}

fn tool_result(
    r: &mut TranscriptBuilder,
    block: &Map<String, Value>,
    result: Option<&Value>,
    agent: Option<String>,
    record: usize,
) {
    let id = str_field(block, "tool_use_id");
    let raw = content_text(block.get("content"));
    let rejected = REJECTED.iter().any(|p| raw.trim_start().starts_with(p));
    if rejected {
        if let Some(call) = id.and_then(|id| r.call_message(id)) {
            call.status = CallStatus::Rejected;
        }
        r.output(id, raw.clone(), record).provenance = Provenance::Harness;
        let (text, provenance) = match rejection(&raw) {
            Rejection::Reason(reason) => (reason, Provenance::Rejection),
            Rejection::Answers(answers) => (answers, Provenance::Answer),
            Rejection::Nothing => return,
        };
        let mut m = Message::new(MessageRole::User, text, record).from(provenance);
        m.agent = agent;
        r.push(m);
        return;
    }
    let name = id
        .and_then(|id| r.calls.get(id))
        .map(|(name, _)| name.clone())
        .unwrap_or_default();
    if name == "AskUserQuestion"
        && let Some(answers) = answers(&raw)
    {
        r.output(id, raw.clone(), record).agent = agent.clone();
        let mut m = Message::new(MessageRole::User, answers, record).from(Provenance::Answer);
        m.agent = agent;
        r.push(m);
        return;
    }
    // A subagent's result names the subagent.
    if matches!(name.as_str(), "Task" | "Agent")
        && let (Some(id), Some(agent_id)) = (
            id,
            result
                .and_then(|v| v.get("agentId"))
                .and_then(Value::as_str),
        )
    {
        r.claude
            .agent_of_call
            .insert(id.to_string(), agent_id.to_string());
    }
    let file_text = result
        .and_then(|v| v.get("file"))
        .and_then(|f| f.get("content"))
        .and_then(Value::as_str);
    let text = match file_text {
        Some(content) if name == "Read" => content.to_string(),
        _ => {
            let cleaned = strip_reminders(&raw);
            let cleaned = if name == "Read" || looks_numbered(&cleaned) {
                strip_line_numbers(&cleaned).into_owned()
            } else {
                cleaned.into_owned()
            };
            if matches!(name.as_str(), "Task" | "Agent") {
                strip_agent_footer(&cleaned)
            } else {
                cleaned
            }
        }
    };
    r.output(id, text, record).agent = agent;
}

/// What the user answered to the agent's questions (AskUserQuestion's
/// result: `User has answered your questions: "Q"="A", "Q2"="A2". …`), one
/// `Q → A` per line.
fn answers(result: &str) -> Option<String> {
    const HEAD: &str = "User has answered your questions:";
    let body = result.trim_start().strip_prefix(HEAD)?;
    let mut out = String::new();
    let mut rest = body;
    while let Some(q_start) = rest.find('"') {
        let after_q = &rest[q_start + 1..];
        let Some(q_end) = after_q.find("\"=\"") else {
            break;
        };
        let question = &after_q[..q_end];
        let after_a = &after_q[q_end + 3..];
        let a_end = after_a
            .find("\", \"")
            .or_else(|| after_a.find("\"."))
            .or_else(|| after_a.rfind('"'));
        let Some(a_end) = a_end else { break };
        let answer = after_a[..a_end].trim().trim_end_matches("(Recommended)");
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(question.trim());
        out.push_str(" → ");
        out.push_str(answer.trim());
        rest = &after_a[a_end + 1..];
    }
    (!out.is_empty()).then_some(out)
}

/// Whether a result reads like numbered file lines.
fn looks_numbered(text: &str) -> bool {
    text.lines().next().is_some_and(|l| {
        l.trim_start()
            .split_once('→')
            .is_some_and(|(n, _)| n.trim().parse::<u32>().is_ok())
    })
}

/// A subagent's report without the harness's footer (`agentId: … (use
/// SendMessage …)`, `<usage>…</usage>`).
fn strip_agent_footer(text: &str) -> String {
    let cut = ["\nagentId: ", "agentId: ", "<usage>"]
        .iter()
        .filter_map(|m| text.find(m))
        .min()
        .unwrap_or(text.len());
    text.get(..cut).unwrap_or(text).trim_end().to_string()
}

/// Adds a subagent's own log to `t` (see [`Transcript::add_agent_log`]).
pub(crate) fn add_agent_log(t: &mut Transcript, text: &str) -> Result<(), TranscriptError> {
    let file = t.agent_logs.len() + 1;
    let mut r = TranscriptBuilder::default();
    let mut agent_id: Option<String> = None;
    for line in JsonLines::new(text) {
        let (number, value) = match line {
            JsonLine::Value(number, value) => (number, value),
            JsonLine::Broken { cut_off: true, .. } => break,
            JsonLine::Broken { number, error, .. } => {
                return Err(TranscriptError::json(number, &error));
            }
        };
        let Value::Object(object) = value else {
            return Err(TranscriptError::NotAnObject { line: number });
        };
        if agent_id.is_none() {
            agent_id = str_field(&object, "agentId").map(ToString::to_string);
        }
        let kind = str_field(&object, "type").unwrap_or("");
        let before = r.messages.len();
        if matches!(kind, "user" | "assistant") {
            let agent = agent_id
                .clone()
                .or_else(|| Some(alloc::format!("agent-{file}")));
            if !chain_line(&mut r, kind, &object, agent, number) {
                r.skip(kind);
            }
        } else {
            line_in(&mut r, &object, number);
        }
        if let Some(time) = str_field(&object, "timestamp") {
            for m in r.messages.iter_mut().skip(before) {
                m.timestamp = Some(time.to_string());
            }
        }
    }
    let agent = agent_id.unwrap_or_else(|| alloc::format!("agent-{file}"));
    let mut added: Vec<Message> = r
        .into_transcript(TranscriptFormat::ClaudeCodeSession)
        .messages;
    for m in &mut added {
        m.file = file;
        m.agent = Some(agent.clone());
    }
    // The agent's log is whole and in order: it replaces the messages of
    // the agent the main log embeds (`progress` lines), where they stood;
    // without them it goes right after the call that started the agent.
    let embedded: Vec<usize> = t
        .messages
        .iter()
        .enumerate()
        .filter(|(_, m)| m.agent.as_deref() == Some(agent.as_str()))
        .map(|(i, _)| i)
        .collect();
    let at = match embedded.first() {
        Some(&first) => first,
        None => {
            let brief = added
                .iter()
                .find(|m| m.provenance == Provenance::Brief)
                .map(|m| m.text.trim().to_string());
            brief
                .as_deref()
                .and_then(|brief| t.messages.iter().position(|m| starts_agent(m, brief)))
                .map_or(t.messages.len(), |call| call + 1)
        }
    };
    let old = core::mem::take(&mut t.messages);
    let mut map: Vec<usize> = Vec::with_capacity(old.len() + 1);
    let mut added = Some(added);
    for (i, m) in old.into_iter().enumerate() {
        if i == at
            && let Some(added) = added.take()
        {
            t.messages.extend(added);
        }
        map.push(t.messages.len());
        if !embedded.contains(&i) {
            t.messages.push(m);
        }
    }
    if let Some(added) = added.take() {
        t.messages.extend(added);
    }
    map.push(t.messages.len());
    for c in &mut t.compactions {
        c.at = map.get(c.at).copied().unwrap_or(t.messages.len());
        c.summary = c.summary.and_then(|s| map.get(s).copied());
    }
    t.agent_logs.push(agent);
    Ok(())
}

/// Whether `m` is the Task (Agent) call whose prompt is `brief`.
fn starts_agent(m: &Message, brief: &str) -> bool {
    m.is_call()
        && matches!(m.tool_name.as_deref(), Some("Task" | "Agent"))
        && m.tool_arguments.as_deref().is_some_and(|a| {
            serde_json::from_str::<Value>(a).ok().is_some_and(|v| {
                v.get("prompt").and_then(Value::as_str).map(str::trim) == Some(brief)
            })
        })
}

/// A non-message line of an agent log.
fn line_in(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    match str_field(object, "type") {
        Some("attachment") => attachment(r, object, record),
        Some("progress") => progress(r, object, record),
        Some(other) => r.skip(other),
        None => r.skip("unknown record"),
    }
}

/// The name of the skill a "Base directory for this skill: …/NAME" text
/// loaded: the name its `invoked_skills` re-attachment goes by.
fn skill_name(text: &str) -> Option<String> {
    let line = text.lines().next()?;
    let dir = line.split_once(':')?.1.trim().trim_end_matches(['/', '\\']);
    let name = dir.rsplit(['/', '\\']).next()?;
    (!name.is_empty()).then(|| name.to_string())
}
