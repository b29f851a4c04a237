//! The transcript readers' unit tests.

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
fn a_torn_line_is_skipped_and_named() {
    let log = "{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n{\"type\": oops}\n{\"type\":\"message\",\"role\":\"user\",\"content\":\"again\"}\n";
    let t = read_transcript(log).unwrap();
    assert_eq!(t.messages.len(), 2);
    assert_eq!(t.messages[1].record, 3);
    assert_eq!(t.damaged.len(), 1);
    assert_eq!(t.damaged[0].line, 2);
    assert!(t.damaged[0].column > 0);
    // A record that is JSON but no object is still an error.
    let err = read_transcript("{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n[1]\n")
        .unwrap_err();
    assert_eq!(err, TranscriptError::NotAnObject { line: 2 });
}

#[test]
fn a_last_line_cut_off_is_read_up_to_and_said() {
    let log = "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Never deploy.\"}\n{\"type\":\"message\",\"role\":\"user\",\"con";
    let t = read_transcript(log).unwrap();
    assert_eq!(t.messages.len(), 1);
    assert_eq!(t.truncated, Some(2));
    assert!(t.damaged.is_empty());
    // The same line with a line break after it is torn, not cut off.
    let torn = read_transcript(&alloc::format!("{log}\n")).unwrap();
    assert_eq!(torn.truncated, None);
    assert_eq!(torn.damaged.iter().map(|d| d.line).collect::<Vec<_>>(), [2]);
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
    let wrapped = alloc::format!("{{\"input\":{items}}}");
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
    assert_eq!(t.messages[0].provenance, Provenance::ProjectFile);
    assert_eq!(t.skipped, 1);
    assert_eq!(t.skipped_records, [("event_msg".to_string(), 1)]);
    assert_eq!(t.compactions.len(), 1);
    assert_eq!(t.compactions[0].summary, Some(2));
    assert_eq!(t.compactions[0].at, 2);
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
            MessageRole::Tool,
            MessageRole::User,
        ]
    );
    assert_eq!(
        t.messages[3].tool_arguments.as_deref(),
        Some(r#"{"command":"ls"}"#)
    );
    assert_eq!(t.messages[4].tool_name.as_deref(), Some("Bash"));
    assert_eq!(t.messages[4].text, "src\nCargo.toml");
    assert_eq!(t.messages[4].record, 3);
    // A sidechain line is the subagent's: its brief.
    assert_eq!(t.messages[5].provenance, Provenance::Brief);
    assert_eq!(t.messages[5].agent.as_deref(), Some("sidechain"));
    assert_eq!(t.skipped, 1);
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
