//! The scanner's unit tests.

use super::*;
use alloc::vec;

fn kinds(text: &str) -> Vec<(EntityKind, &str)> {
    entities(text).map(|e| (e.kind, e.text)).collect()
}

fn sentence_texts(text: &str) -> Vec<&str> {
    sentences(text).iter().map(|s| s.span.of(text)).collect()
}

#[test]
fn word_lists_are_sorted() {
    assert!(COMPOUND_PARTS.windows(2).all(|w| w[0] < w[1]));
    assert!(ABBREVIATIONS.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_lowercase_identifier_starts_a_sentence() {
    let text = "Rules first. payments-api is frozen, e.g. for the audit. vs. that, fine.";
    assert_eq!(
        sentence_texts(text),
        [
            "Rules first.",
            "payments-api is frozen, e.g. for the audit.",
            "vs. that, fine."
        ]
    );
}

#[test]
fn sentences_split_on_marks_lines_and_blank_lines() {
    let text = "We are on libfoo 2.3.1. Do not bump it!\nNext line\n\n- a bullet\n- another, e.g. this one.";
    assert_eq!(
        sentence_texts(text),
        [
            "We are on libfoo 2.3.1.",
            "Do not bump it!",
            "Next line",
            "a bullet",
            "another, e.g. this one."
        ]
    );
}

#[test]
fn wrapped_lines_continue_a_sentence() {
    let text = "Never restart the payments service\nwithout an approver on call.\nThen stop.";
    assert_eq!(
        sentence_texts(text),
        [
            "Never restart the payments service\nwithout an approver on call.",
            "Then stop."
        ]
    );
}

#[test]
fn a_labelled_line_starts_a_sentence() {
    let text = "tool: warning: field `id` is never read\nuser: every function must have docs.";
    assert_eq!(
        sentence_texts(text),
        [
            "tool: warning: field `id` is never read",
            "user: every function must have docs."
        ]
    );
}

#[test]
fn code_is_marked() {
    let text = "Run this:\n```\nnever do this in code\n```\n    indented never\nProse.";
    let s = sentences(text);
    let texts: Vec<(&str, bool)> = s.iter().map(|s| (s.span.of(text), s.code)).collect();
    assert_eq!(
        texts,
        [
            ("Run this:", false),
            ("never do this in code", true),
            ("indented never", true),
            ("Prose.", false)
        ]
    );
}

#[test]
fn entities_of_every_kind() {
    assert_eq!(
        kinds("Tickets T-14, OPS-1203 and #512 on 2026-01-05, logged 2026-01-05T10:36:12Z."),
        [
            (EntityKind::Ticket, "T-14"),
            (EntityKind::Ticket, "OPS-1203"),
            (EntityKind::Ticket, "#512"),
            (EntityKind::Date, "2026-01-05"),
            (EntityKind::Date, "2026-01-05T10:36:12Z"),
        ]
    );
    assert_eq!(
        kinds("Upgrade v14 to 1.0.0-rc1, keep 2.3; 13,000 tokens at 99% in 500ms by 14:00."),
        [
            (EntityKind::Version, "v14"),
            (EntityKind::Version, "1.0.0-rc1"),
            (EntityKind::Number, "2.3"),
            (EntityKind::Number, "13,000"),
            (EntityKind::Number, "99%"),
            (EntityKind::Number, "500ms"),
            (EntityKind::Number, "14:00"),
        ]
    );
    assert_eq!(
        kinds("Edit src/lib.rs, Cargo.toml, /etc/hosts, .env and https://example.com/a."),
        [
            (EntityKind::Path, "src/lib.rs"),
            (EntityKind::Path, "Cargo.toml"),
            (EntityKind::Path, "/etc/hosts"),
            (EntityKind::Path, ".env"),
            (EntityKind::Path, "https://example.com/a"),
        ]
    );
    assert_eq!(
        kinds("payments-api, db_prod_01, useState, db01, --dry-run and `cargo` matter."),
        [
            (EntityKind::Identifier, "payments-api"),
            (EntityKind::Identifier, "db_prod_01"),
            (EntityKind::Identifier, "useState"),
            (EntityKind::Identifier, "db01"),
            (EntityKind::Identifier, "--dry-run"),
            (EntityKind::Identifier, "cargo"),
        ]
    );
}

#[test]
fn prose_is_not_entities() {
    assert_eq!(
        kinds(
            "A follow-up on the read-only, end-to-end check and/or e.g. the 1st try, i.e. the API."
        ),
        vec![]
    );
}

#[test]
fn contractions_expand() {
    let text = "Don't bump; it won't build and we can't wait.";
    let words: Vec<&str> = tokens(text, Span::new(0, text.len()))
        .iter()
        .map(|t| t.text)
        .collect();
    assert_eq!(
        words,
        [
            "Do", "not", "bump", "it", "will", "not", "build", "and", "we", "can", "not", "wait"
        ]
    );
}

#[test]
fn clause_starts() {
    let text = "We are on 2.3.1, do not bump (ever).";
    let starts: Vec<&str> = tokens(text, Span::new(0, text.len()))
        .iter()
        .filter(|t| t.clause_start)
        .map(|t| t.text)
        .collect();
    assert_eq!(starts, ["We", "do", "ever"]);
}

#[test]
fn canonical_forms() {
    let c = |kind, t| canonical(kind, t);
    assert_eq!(c(EntityKind::Number, "13,000"), "13000");
    assert_eq!(c(EntityKind::Number, "13k"), "13000");
    assert_eq!(c(EntityKind::Number, "$1,200"), "1200");
    assert_eq!(c(EntityKind::Number, "007"), "7");
    assert_eq!(c(EntityKind::Number, "0.15"), "0.15");
    assert_eq!(c(EntityKind::Version, "v2.4.0"), "2.4.0");
    assert_eq!(c(EntityKind::Path, "src/"), "src");
    assert_eq!(c(EntityKind::Path, "src/Lex.rs:40:7"), "src/lex.rs");
    assert_eq!(c(EntityKind::Ticket, "T-14"), "t-14");
    assert_eq!(c(EntityKind::Date, "2026-01-05T10:36:12Z"), "2026-01-05");
}

#[test]
fn spans_point_at_the_text() {
    let text = "Ünïcode first: see `T-41` and «db-prod-02».";
    for e in entities(text) {
        assert_eq!(e.span.of(text), e.text);
    }
    assert_eq!(kinds(text).len(), 2);
}
