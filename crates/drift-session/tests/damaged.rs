//! Session logs as they reach the reader when something went wrong: cut
//! off while the harness was still writing, cut at any byte, a line
//! garbled or torn. The reader keeps every whole record, names the line it
//! could not read, and nothing downstream (import, audit) panics on what it
//! returns.

use drift_session::{ImportOptions, Transcript, audit_session, import, read_transcript};
use proptest::prelude::*;

/// The JSON-lines fixtures: every era of Claude Code and Codex the readers
/// know, and the older samples.
const LOGS: &[&str] = &[
    "formats/claude-code-1.0.jsonl",
    "formats/claude-code-2.1.jsonl",
    "formats/codex-2025-pre-envelope.jsonl",
    "formats/codex-envelope-local-compact.jsonl",
    "formats/codex-envelope-remote-compact.jsonl",
    "claude-code.jsonl",
    "codex-rollout.jsonl",
    "ops-claude-code.jsonl",
    "ops-codex-rollout.jsonl",
];

fn fixture(name: &str) -> String {
    let path = format!("{}/tests/transcripts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Byte offsets just after each line break.
fn line_ends(text: &str) -> Vec<usize> {
    text.match_indices('\n').map(|(i, _)| i + 1).collect()
}

/// Whatever came back, the rest of the toolkit takes it.
fn downstream(t: &Transcript) {
    let audit = audit_session(t);
    assert_eq!(audit.compactions.len(), t.compactions.len());
    let imported = import(t, &ImportOptions::default());
    assert_eq!(imported.scenario.validate(), Ok(()));
}

#[test]
fn a_log_cut_at_a_line_break_reads_as_the_lines_before_it() {
    for name in LOGS {
        let text = fixture(name);
        let full = read_transcript(&text).unwrap();
        let mut last = 0;
        for end in line_ends(&text) {
            let Ok(t) = read_transcript(&text[..end]) else {
                // Only a prefix with no message yet may be no transcript.
                assert_eq!(last, 0, "{name}: cut at {end}");
                continue;
            };
            assert_eq!(t.truncated, None, "{name}: cut at {end}");
            assert!(
                t.messages.len() >= last,
                "{name}: cut at {end} lost messages"
            );
            last = t.messages.len();
            // The messages of whole lines are the full log's, unchanged.
            for (m, f) in t.messages.iter().zip(&full.messages) {
                assert_eq!(m.record, f.record, "{name}: cut at {end}");
                assert_eq!(m.role, f.role, "{name}: cut at {end}");
                assert_eq!(m.text, f.text, "{name}: cut at {end}");
            }
        }
        assert_eq!(last, full.messages.len(), "{name}");
    }
}

#[test]
fn a_log_cut_inside_its_last_line_says_which_line() {
    for name in LOGS {
        let text = fixture(name);
        let ends = line_ends(&text);
        for pair in ends.windows(2) {
            let (start, next) = (pair[0], pair[1]);
            // Half of the next line, without its line break.
            let mut cut = start + (next - start) / 2;
            while !text.is_char_boundary(cut) {
                cut -= 1;
            }
            if cut <= start {
                continue;
            }
            let whole = read_transcript(&text[..start]);
            match read_transcript(&text[..cut]) {
                Ok(t) => {
                    let line = text[..cut].matches('\n').count() + 1;
                    assert_eq!(t.truncated, Some(line), "{name}: cut at {cut}");
                    let whole = whole.unwrap_or_else(|e| panic!("{name}: {e}"));
                    assert_eq!(t.messages, whole.messages, "{name}: cut at {cut}");
                    downstream(&t);
                }
                // Nothing whole before it: no transcript yet.
                Err(e) => assert!(whole.is_err(), "{name}: cut at {cut}: {e}"),
            }
        }
    }
}

#[test]
fn a_garbled_line_is_skipped_and_named_and_the_rest_read() {
    for name in LOGS {
        let text = fixture(name);
        let full = read_transcript(&text).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        for garbled in 0..lines.len().saturating_sub(1) {
            if lines[garbled].trim().is_empty() {
                continue;
            }
            let mut damaged: Vec<&str> = lines.clone();
            damaged[garbled] = "{\"type\": \"user\", \"message\": {\"role\": \"us";
            let damaged = damaged.join("\n") + "\n";
            let t = read_transcript(&damaged)
                .unwrap_or_else(|e| panic!("{name}: line {} garbled: {e}", garbled + 1));
            let named: Vec<usize> = t.damaged.iter().map(|d| d.line).collect();
            assert_eq!(named, [garbled + 1], "{name}");
            // Every other line is read: the same records give messages (a
            // tool output may read differently without its call, so only
            // the user's own words are compared).
            let others = |m: &&drift_session::Message| m.record != garbled + 1;
            let said = |m: &drift_session::Message| {
                (
                    m.record,
                    (m.role == drift_session::MessageRole::User).then(|| m.text.clone()),
                )
            };
            let expected: Vec<_> = full.messages.iter().filter(others).map(said).collect();
            let got: Vec<_> = t.messages.iter().filter(others).map(said).collect();
            assert_eq!(got, expected, "{name}: line {} garbled", garbled + 1);
            downstream(&t);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, failure_persistence: None, ..ProptestConfig::default() })]

    /// Any prefix, any flipped byte: an answer, never a panic, and an
    /// answer the rest of the toolkit takes.
    #[test]
    fn any_damage_is_an_answer(which in 0..LOGS.len(), at in 0.0f64..1.0, flip in any::<u8>(), cut in any::<bool>()) {
        let text = fixture(LOGS[which]);
        let mut bytes = text.into_bytes();
        let i = ((bytes.len() as f64) * at) as usize;
        if cut {
            bytes.truncate(i);
        } else if let Some(b) = bytes.get_mut(i) {
            *b ^= flip | 1;
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(t) = read_transcript(&text) {
            downstream(&t);
        }
    }
}
