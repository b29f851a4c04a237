//! Codex CLI rollouts (`~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl`),
//! as openai/codex writes them (`codex-rs/protocol/src/protocol.rs`,
//! `models.rs`, `core/src/compact.rs`, `core/src/context/`;
//! `tests/transcripts/README.md` cites the commits per fixture).
//!
//! - Since September 2025 every line is `{timestamp, type, payload}`:
//!   `session_meta` (its `base_instructions.text` is the harness's system
//!   prompt; its `instructions`, until 2026, a copy of AGENTS.md),
//!   `response_item` (a Responses item), `compacted` (a compaction),
//!   `turn_context` and `event_msg` (copies of what the items say: counted,
//!   never read twice).
//! - Before that, line 1 is a bare `{id, timestamp, instructions}` object,
//!   the items are bare, and `{"record_type":"state"}` lines are skipped.
//! - Text the harness injects in the user's or developer's name is told by
//!   its markers: AGENTS.md (`<user_instructions>`, later `# AGENTS.md
//!   instructions for <dir>` around `<INSTRUCTIONS>`) is the project's rules
//!   ([`Provenance::ProjectFile`], the wrapper left out); environment
//!   context, permission and sandbox text, mode and skill fragments, turn
//!   aborts are [`Provenance::Harness`]; a `<user_shell_command>` is
//!   [`Provenance::UserShell`]; the compaction summary (it opens "Another
//!   language model started to solve this problem") is a summary.
//! - Tool outputs that are JSON inside a string (the shell tool's
//!   `{"output", "metadata"}`, MCP content arrays and structured content)
//!   are read as their text.
//! - `compacted`: a local compaction's summary is in `message`, and since
//!   2026 what the new context holds is in `replacement_history`; a remote
//!   compaction has an empty `message` and ends its history with an
//!   encrypted `compaction` item.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde_json::{Map, Value};

use super::text::{content_text, push_line};
use super::{
    Compaction, Message, MessageRole, Provenance, TranscriptBuilder, TranscriptFormat, responses,
    str_field,
};

/// Whether a line is a Codex rollout line (any era).
pub(crate) fn is_codex_line(object: &Map<String, Value>) -> bool {
    let envelope = object.contains_key("payload")
        && matches!(
            str_field(object, "type"),
            Some(
                "session_meta"
                    | "response_item"
                    | "event_msg"
                    | "turn_context"
                    | "compacted"
                    | "world_state"
            )
        );
    let bare_meta = !object.contains_key("type")
        && object.contains_key("id")
        && object.contains_key("timestamp");
    let state = str_field(object, "record_type") == Some("state");
    envelope || bare_meta || state
}

/// One line of a rollout.
pub(crate) fn line(r: &mut TranscriptBuilder, object: &Map<String, Value>, record: usize) {
    if str_field(object, "record_type") == Some("state") {
        r.skip("state");
        return;
    }
    let Some(payload) = object.get("payload") else {
        if object.contains_key("id") && !object.contains_key("type") {
            // The meta line of a rollout from before the envelope.
            meta(r, object, record);
        } else if responses::is_item(object) {
            responses::item(r, object, record);
        } else {
            r.skip(str_field(object, "type").unwrap_or("unknown record"));
        }
        return;
    };
    let kind = str_field(object, "type").unwrap_or("");
    let Value::Object(p) = payload else {
        r.skip(kind);
        return;
    };
    match kind {
        "session_meta" => meta(r, p, record),
        "response_item" => responses::item(r, p, record),
        "compacted" => compacted(r, p, record),
        "world_state" => world_state(r, p, record),
        other => r.skip(other),
    }
}

fn meta(r: &mut TranscriptBuilder, meta: &Map<String, Value>, record: usize) {
    let base = meta
        .get("base_instructions")
        .and_then(|b| b.get("text").or(Some(b)))
        .and_then(Value::as_str);
    if let Some(text) = base.filter(|t| !t.trim().is_empty()) {
        r.push(Message::new(MessageRole::System, text, record).from(Provenance::Harness));
    }
    // A copy of AGENTS.md (until 2026): an AGENTS.md message may carry the
    // same text again, which the import counts as one statement.
    let instructions = str_field(meta, "instructions").filter(|t| !t.trim().is_empty());
    if let Some(text) = instructions {
        r.push(Message::new(MessageRole::System, text, record).from(Provenance::ProjectFile));
    }
    if base.is_none() && instructions.is_none() {
        r.skip("session_meta");
    }
}

/// A `world_state` line (0.145+): what the harness puts into every
/// context. AGENTS.md's text (`state.agents_md.text`) is the project's
/// rules; the rest (environments, permissions, modes, skills listed) is
/// the harness about itself.
fn world_state(r: &mut TranscriptBuilder, payload: &Map<String, Value>, record: usize) {
    let agents_md = payload
        .get("state")
        .and_then(|s| s.get("agents_md"))
        .and_then(|a| a.get("text"))
        .and_then(Value::as_str)
        .filter(|t| !t.trim().is_empty());
    match agents_md {
        Some(text) => {
            r.push(
                Message::new(MessageRole::Developer, text, record).from(Provenance::ProjectFile),
            );
        }
        None => r.skip("world_state"),
    }
}

fn compacted(r: &mut TranscriptBuilder, payload: &Map<String, Value>, record: usize) {
    let message = str_field(payload, "message").unwrap_or_default();
    let history = payload
        .get("replacement_history")
        .and_then(Value::as_array)
        .map_or(&[][..], Vec::as_slice);
    // What the new context holds, read as messages of their own.
    let mut kept = TranscriptBuilder::default();
    let mut encrypted = false;
    for item in history {
        let Value::Object(item) = item else { continue };
        let kind = str_field(item, "type").unwrap_or("");
        if matches!(kind, "compaction" | "compaction_summary") {
            encrypted = true;
            continue;
        }
        responses::item(&mut kept, item, record);
    }
    let kept: Vec<Message> = kept
        .messages
        .into_iter()
        .filter(|m| m.role != MessageRole::Summary)
        .collect();
    let at = r.messages.len();
    // The kept messages the log holds before this compaction, newest
    // first (the history keeps the newest of the same text).
    let mut preserved: Vec<usize> = Vec::new();
    for k in &kept {
        let found = r.messages[..at].iter().enumerate().rev().find(|(i, m)| {
            m.role == k.role && m.text.trim() == k.text.trim() && !preserved.contains(i)
        });
        if let Some((i, _)) = found {
            preserved.push(i);
        }
    }
    preserved.sort_unstable();
    let summary = if message.trim().is_empty() {
        None
    } else {
        r.push(Message::new(MessageRole::Summary, message, record));
        Some(at)
    };
    let window = payload.get("window_number").and_then(Value::as_u64);
    r.compactions.push(Compaction {
        summary,
        encrypted: summary.is_none() && encrypted,
        kept,
        preserved,
        window,
        ..Compaction::at(record, at)
    });
}

/// The role of a message item.
pub(crate) fn message_role(role: Option<&str>) -> Option<MessageRole> {
    match role {
        Some("user") => Some(MessageRole::User),
        Some("assistant") => Some(MessageRole::Assistant),
        Some("system") => Some(MessageRole::System),
        Some("developer") => Some(MessageRole::Developer),
        Some("tool") => Some(MessageRole::Tool),
        _ => None,
    }
}

/// The harness fragments a message's text can be, by their markers
/// (openai/codex `core/src/context/*.rs`): the provenance, and the
/// operator's content inside when there is some (AGENTS.md).
fn fragment(text: &str) -> Option<(Provenance, Option<&str>)> {
    let t = text.trim_start();
    if t.starts_with(IDE_CONTEXT) {
        // The IDE's context is the harness's; the request after it, the
        // user's own words.
        return Some((Provenance::Said, ide_request(t)));
    }
    if t.starts_with("<user_instructions>") {
        let inner = inside(t, "<user_instructions>", "</user_instructions>");
        return Some((Provenance::ProjectFile, inner));
    }
    if t.starts_with("# AGENTS.md instructions for") {
        let inner = inside(t, "<INSTRUCTIONS>", "</INSTRUCTIONS>");
        return Some((Provenance::ProjectFile, inner));
    }
    if t.starts_with("<user_shell_command>") {
        return Some((Provenance::UserShell, None));
    }
    if let Some(input) = prompt_input(t) {
        // A prompt file the user ran (`/prompts:<name>`, spec-kit's): its
        // body instructs the agent the way a skill's does; the user's own
        // words are the input it quotes, when there is any.
        return Some(if input.is_empty() {
            (Provenance::Skill, None)
        } else {
            (Provenance::Said, Some(input))
        });
    }
    if TITLE_PROMPTS.iter().any(|p| t.starts_with(p)) {
        return Some((Provenance::Harness, None));
    }
    const HARNESS: &[&str] = &[
        "<environment_context>",
        "<permissions instructions>",
        "<turn_aborted>",
        "<skill>",
        "<subagent_notification>",
        "<model_switch>",
        "<collaboration_mode>",
        "<realtime_conversation>",
        "<personality_spec>",
        "<apps_instructions>",
        "<skills_instructions>",
        "<plugins_instructions>",
        "<spawned_agent_context>",
        "<user_action>",
    ];
    HARNESS
        .iter()
        .any(|m| t.starts_with(m))
        .then_some((Provenance::Harness, None))
}

/// The heading under which a prompt file quotes what the user typed after
/// its name (spec-kit's "## User Input" and a fenced `$ARGUMENTS`).
const PROMPT_INPUT: &str = "## User Input";

/// The user's input inside a prompt file's expansion: the fenced block
/// under [`PROMPT_INPUT`] when the message opens with it. `None` for any
/// other message.
fn prompt_input(text: &str) -> Option<&str> {
    let rest = text.strip_prefix(PROMPT_INPUT)?.trim_start();
    let body = rest.strip_prefix("```")?;
    let body = body.get(body.find('\n')? + 1..)?;
    Some(body.get(..body.find("```")?)?.trim())
}

/// Openings of the prompts a harness sends in the user's role to name a
/// task (Codex's title generator): the harness's words.
const TITLE_PROMPTS: &[&str] = &[
    "You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title",
];

/// The header of the context the Codex IDE extension wraps a request in.
const IDE_CONTEXT: &str = "# Context from my IDE setup";
/// The heading of the user's request inside it.
const IDE_REQUEST: &str = "## My request for Codex:";

/// The user's request inside the IDE extension's wrapper (empty when there
/// is none).
fn ide_request(text: &str) -> Option<&str> {
    let start = text
        .find(IDE_REQUEST)
        .map_or(text.len(), |i| i + IDE_REQUEST.len());
    Some(text.get(start..).unwrap_or("").trim())
}

fn inside<'t>(text: &'t str, open: &str, close: &str) -> Option<&'t str> {
    let start = text.find(open)? + open.len();
    let rest = text.get(start..)?;
    Some(rest.get(..rest.rfind(close).unwrap_or(rest.len()))?.trim())
}

/// A message's content parts, each read for what it is: consecutive parts
/// of the same provenance make one message.
pub(crate) fn classify_parts(
    r: &mut TranscriptBuilder,
    role: MessageRole,
    content: Option<&Value>,
    record: usize,
) {
    let parts: Vec<&str> = match content {
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| match p {
                Value::String(s) => Some(s.as_str()),
                Value::Object(o) => str_field(o, "text").or_else(|| str_field(o, "refusal")),
                _ => None,
            })
            .collect(),
        Some(Value::String(s)) => alloc::vec![s.as_str()],
        other => {
            let text = content_text(other);
            if !text.is_empty() {
                r.push(Message::new(role, text, record));
            }
            return;
        }
    };
    let mut pending: Option<(MessageRole, Provenance, String)> = None;
    let flush = |r: &mut TranscriptBuilder,
                 pending: &mut Option<(MessageRole, Provenance, String)>| {
        if let Some((role, provenance, text)) = pending.take()
            && !text.trim().is_empty()
        {
            r.push(Message::new(role, text, record).from(provenance));
        }
    };
    for part in parts {
        let trimmed = part.trim_start();
        let (role, provenance, text) = if TranscriptFormat::CodexSession
            .profile()
            .opens_summary(trimmed)
        {
            (MessageRole::Summary, Provenance::Said, part)
        } else if let Some((provenance, inner)) =
            matches!(role, MessageRole::User | MessageRole::Developer)
                .then(|| fragment(part))
                .flatten()
        {
            (role, provenance, inner.unwrap_or(part))
        } else {
            (role, Provenance::Said, part)
        };
        match &mut pending {
            Some((r0, p0, text0)) if *r0 == role && *p0 == provenance => push_line(text0, text),
            _ => {
                flush(r, &mut pending);
                pending = Some((role, provenance, text.to_string()));
            }
        }
    }
    flush(r, &mut pending);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prompt_file_run_is_its_instructions_and_the_users_input() {
        let empty = "## User Input\n\n```text\n\n```\n\nYou **MUST** consider the user input.\n\n## Outline\n\nNever skip a step.";
        assert_eq!(fragment(empty), Some((Provenance::Skill, None)));
        let typed = "## User Input\n\n```text\nonly touch the billing module\n```\n\nYou **MUST** consider the user input.";
        assert_eq!(
            fragment(typed),
            Some((Provenance::Said, Some("only touch the billing module")))
        );
        // A heading of that name further down is the user's own text.
        assert_eq!(fragment("Fix it.\n## User Input\n```text\nx\n```"), None);
        let title = "You are a helpful assistant. You will be presented with a user prompt, and your job is to provide a short title for a task.";
        assert_eq!(fragment(title), Some((Provenance::Harness, None)));
    }
}
