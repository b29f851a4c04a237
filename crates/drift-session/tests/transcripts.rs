//! The sample sessions in `tests/transcripts/` read as messages, audit as
//! expected, and no input whatever makes the reader, the checker or the
//! audit panic or point outside its text.

use drift_session::LexicalEntailment;
use drift_session::{Audit, audit, audit::MessageField, audit_text};
use drift_session::{MessageRole, Transcript, TranscriptFormat, read_transcript};
use proptest::prelude::*;

mod support;

fn sample(name: &str) -> Transcript {
    let path = format!("{}/tests/transcripts/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_transcript(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn roles(t: &Transcript) -> Vec<&'static str> {
    t.messages.iter().map(|m| m.role.id()).collect()
}

/// The sample `name`, after checking that it reads as `format` with
/// messages of `roles`, in order.
#[track_caller]
fn sample_of(name: &str, format: TranscriptFormat, roles_in_order: &[&str]) -> Transcript {
    let t = sample(name);
    assert_eq!(t.format, format, "{name}");
    assert_eq!(roles(&t), roles_in_order, "{name}");
    t
}

#[test]
fn claude_code_session() {
    let t = sample_of(
        "claude-code.jsonl",
        TranscriptFormat::ClaudeCodeSession,
        &[
            "user",
            "reasoning",
            "assistant",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "assistant",
            "assistant",
            "tool",
            "assistant",
            "user",
        ],
    );
    assert_eq!(t.skipped, 2, "the snapshot and title lines");
    let read = &t.messages[8];
    assert_eq!(read.tool_name.as_deref(), Some("Read"));
    assert_eq!(
        read.tool_arguments.as_deref(),
        Some(r#"{"file_path":"/home/dev/payments/config/pool.toml"}"#)
    );
    assert_eq!(t.messages[9].tool_name.as_deref(), Some("Read"));
    assert!(t.messages[4].text.contains("change freeze"));
    assert_eq!(t.messages[4].record, 3);
}

#[test]
fn codex_session() {
    let t = sample_of(
        "codex-rollout.jsonl",
        TranscriptFormat::CodexSession,
        &[
            "system",
            "user",
            "user",
            "reasoning",
            "assistant",
            "tool",
            "user",
            "assistant",
            "assistant",
            "tool",
            "assistant",
            "tool",
            "summary",
        ],
    );
    assert_eq!(t.skipped, 2, "the event_msg and turn_context lines");
    assert_eq!(t.messages[8].tool_name.as_deref(), Some("apply_patch"));
    assert_eq!(t.messages[9].tool_name.as_deref(), Some("apply_patch"));
    // The shell tool's output is JSON inside a string: read as its text.
    assert_eq!(
        t.messages[5].text,
        "name = \"libfoo\"\nversion = \"2.3.1\"\n"
    );
}

#[test]
fn responses_items() {
    let t = sample_of(
        "responses.json",
        TranscriptFormat::ResponsesItems,
        &[
            "developer",
            "user",
            "reasoning",
            "assistant",
            "assistant",
            "tool",
            "assistant",
        ],
    );
    assert_eq!(t.messages[4].tool_name.as_deref(), Some("create_file"));
    assert_eq!(t.messages[5].tool_name.as_deref(), Some("create_file"));
    assert_eq!(t.messages[6].record, 7);
}

#[test]
fn the_codex_session_audits_its_fabricated_upgrade() {
    let t = sample("codex-rollout.jsonl");
    let after = "Refactor done: parsing moved to src/config/parser.rs. Dependency libfoo was upgraded to 2.4.0 during the refactor; 41 tests pass.";
    let a = audit(&t, after);
    assert!(a.drifted());
    let unsupported: Vec<&str> = a.unsupported.iter().map(|u| u.text.as_str()).collect();
    assert_eq!(unsupported, ["src/config/parser.rs", "2.4.0"]);
    let pin = a
        .dropped_constraints
        .iter()
        .find(|d| d.text.contains("do not bump"))
        .expect("the pin is dropped");
    assert_eq!(t.messages[pin.before.message].role, MessageRole::User);
    assert_eq!(
        pin.before.of(&t),
        "We are still on libfoo 2.3.1, do not bump."
    );
    assert_eq!(
        pin.contradicted_by.map(|s| s.of(after)),
        Some("Dependency libfoo was upgraded to 2.4.0 during the refactor; 41 tests pass.")
    );
    assert!(
        a.dropped_constraints
            .iter()
            .any(|d| d.role == MessageRole::System),
        "the session instructions' rule"
    );
}

#[test]
fn the_responses_plan_audits_its_merged_tickets() {
    let t = sample("responses.json");
    let after = "Database: Postgres. T-14 covers the ledger schema and the CSV export of ledger entries in pages of 500 (migrations/0001_ledger.sql).";
    let a = audit(&t, after);
    assert!(a.drifted(), "the developer's 'only under migrations/' rule");
    assert_eq!(a.changed_ids.len(), 1);
    assert_eq!(a.changed_ids[0].before_text, "T-41");
    assert_eq!(a.vanished_reasoning.len(), 2);
    // The tool arguments support the path.
    assert!(a.unsupported.is_empty());
}

/// Every span of an audit lies on character boundaries inside its text.
fn spans_fit(a: &Audit, before: &Transcript, after: &str) -> Result<(), TestCaseError> {
    let fits = |text: &str, s: drift_session::entail::Span| {
        s.start <= s.end && text.get(s.start..s.end).is_some()
    };
    let place_fits = |p: &drift_session::audit::Place| {
        before
            .messages
            .get(p.message)
            .is_some_and(|m| match p.field {
                MessageField::Text => fits(&m.text, p.span),
                MessageField::Arguments => fits(m.tool_arguments.as_deref().unwrap_or(""), p.span),
            })
    };
    for d in &a.dropped_constraints {
        prop_assert!(place_fits(&d.before));
        prop_assert!(d.contradicted_by.is_none_or(|s| fits(after, s)));
        prop_assert!(d.closest.is_none_or(|s| fits(after, s)));
    }
    for u in &a.unsupported {
        prop_assert!(!u.after.is_empty());
        prop_assert!(u.after.iter().all(|s| fits(after, *s)));
    }
    for c in &a.changed_ids {
        prop_assert!(fits(after, c.after) && place_fits(&c.before));
    }
    for v in &a.vanished_reasoning {
        prop_assert!(place_fits(&v.before));
    }
    Ok(())
}

/// Text shaped like transcripts and summaries: rule words, ids, versions,
/// paths, punctuation, line breaks, code fences and non-ASCII letters.
fn texty() -> impl Strategy<Value = String> {
    support::texty(
        &[
            "never ",
            "do not bump ",
            "must ",
            "because ",
            "rejected ",
            "T-14 ",
            "T-41 ",
            "2.3.1 ",
            "src/lib.rs ",
            "`x` ",
            "’s ",
        ],
        40,
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn audits_never_panic_and_spans_fit(before in texty(), after in texty()) {
        let t = Transcript::plain(&before);
        let a = audit(&t, &after);
        spans_fit(&a, &t, &after)?;
        prop_assert_eq!(&a, &audit_text(&before, &after));
        // Deterministic, to the byte.
        prop_assert_eq!(a.to_json(), audit(&t, &after).to_json());
    }

    #[test]
    fn the_checker_never_panics(claim in texty(), source in texty()) {
        let j = LexicalEntailment.check(&claim, &source);
        for m in &j.unsupported {
            prop_assert_eq!(claim.get(m.span.start..m.span.end), Some(m.text.as_str()));
        }
        let s = j.judgement();
        prop_assert!((0.0..=1.0).contains(&s.entailment) && (0.0..=1.0).contains(&s.similarity));
    }

    #[test]
    fn the_reader_never_panics(text in "\\PC{0,200}", json_ish in "[\\[\\]{}\":,a-z0-9 \n]{0,200}") {
        let _ = read_transcript(&text);
        let _ = read_transcript(&json_ish);
        let _ = read_transcript(&format!("{{\"type\":\"message\",\"role\":\"user\",\"content\":\"x\"}}\n{json_ish}"));
    }
}
