//! Precision and recall of the audit on the labelled pairs in
//! `tests/labelled/pairs.txt` (the set the checker was tuned on) and
//! `tests/labelled/held_out.txt` (written afterwards, never tuned on), and
//! the tables in the `audit` module docs held to what this test measures.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use drift_session::{Audit, audit_text};

/// One labelled pair.
struct Pair {
    id: String,
    expect: BTreeSet<String>,
    before: String,
    after: String,
}

const TUNED: &str = include_str!("labelled/pairs.txt");
const HELD_OUT: &str = include_str!("labelled/held_out.txt");

fn pairs(text: &str) -> Vec<Pair> {
    let mut out = Vec::new();
    let mut current: Option<Pair> = None;
    let mut section = "";
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("=== ") {
            out.extend(current.take());
            current = Some(Pair {
                id: id.trim().to_string(),
                expect: BTreeSet::new(),
                before: String::new(),
                after: String::new(),
            });
            section = "";
            continue;
        }
        let Some(pair) = current.as_mut() else {
            continue;
        };
        match line {
            "--- before" => section = "before",
            "--- after" => section = "after",
            _ if section.is_empty() => {
                if let Some(labels) = line.strip_prefix("expect:") {
                    pair.expect = labels
                        .split_whitespace()
                        .filter(|l| *l != "none")
                        .map(String::from)
                        .collect();
                }
            }
            _ => {
                let target = if section == "before" {
                    &mut pair.before
                } else {
                    &mut pair.after
                };
                target.push_str(line);
                target.push('\n');
            }
        }
    }
    out.extend(current);
    out
}

/// The finding kinds an audit reports for a pair.
fn found(audit: &Audit) -> BTreeSet<String> {
    let mut kinds = BTreeSet::new();
    if !audit.dropped_constraints.is_empty() {
        kinds.insert("dropped_constraint".to_string());
    }
    if audit
        .dropped_constraints
        .iter()
        .any(|d| d.contradicted_by.is_some())
    {
        kinds.insert("contradiction".to_string());
    }
    if !audit.unsupported.is_empty() {
        kinds.insert("unsupported".to_string());
    }
    if !audit.changed_ids.is_empty() {
        kinds.insert("changed_id".to_string());
    }
    if !audit.vanished_reasoning.is_empty() {
        kinds.insert("dropped_reasoning".to_string());
    }
    kinds
}

const KINDS: [&str; 5] = [
    "dropped_constraint",
    "contradiction",
    "unsupported",
    "changed_id",
    "dropped_reasoning",
];

const LABELS: [&str; 6] = [
    "dropped_constraint",
    "contradiction",
    "unsupported",
    "changed_id",
    "dropped_reasoning",
    "invented_claim",
];

fn ratio(a: usize, b: usize) -> String {
    if b == 0 {
        "–".to_string()
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

/// The markdown table of the audit docs, one row per finding kind and one
/// for "anything wrong at all".
fn table(pairs: &[Pair], results: &[BTreeSet<String>]) -> String {
    let mut out = String::from(
        "| finding | pairs labelled | reported | correct | precision | recall |\n| --- | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for kind in KINDS {
        let labelled = pairs.iter().filter(|p| p.expect.contains(kind)).count();
        let reported = results.iter().filter(|r| r.contains(kind)).count();
        let correct = pairs
            .iter()
            .zip(results)
            .filter(|(p, r)| p.expect.contains(kind) && r.contains(kind))
            .count();
        let _ = writeln!(
            out,
            "| {kind} | {labelled} | {reported} | {correct} | {} | {} |",
            ratio(correct, reported),
            ratio(correct, labelled)
        );
    }
    let labelled = pairs.iter().filter(|p| !p.expect.is_empty()).count();
    let reported = results.iter().filter(|r| !r.is_empty()).count();
    let correct = pairs
        .iter()
        .zip(results)
        .filter(|(p, r)| !p.expect.is_empty() && !r.is_empty())
        .count();
    let _ = writeln!(
        out,
        "| any (the pair is unfaithful) | {labelled} | {reported} | {correct} | {} | {} |",
        ratio(correct, reported),
        ratio(correct, labelled)
    );
    out
}

#[test]
fn the_labelled_sets_are_well_formed() {
    let tuned = pairs(TUNED);
    let held_out = pairs(HELD_OUT);
    assert!(tuned.len() >= 40, "{} pairs", tuned.len());
    assert!(held_out.len() >= 15, "{} pairs", held_out.len());
    let mut ids = BTreeSet::new();
    for p in tuned.iter().chain(&held_out) {
        assert!(ids.insert(&p.id), "duplicate id {}", p.id);
        assert!(!p.before.trim().is_empty(), "{}: empty before", p.id);
        assert!(!p.after.trim().is_empty(), "{}: empty after", p.id);
        for label in &p.expect {
            assert!(LABELS.contains(&label.as_str()), "{}: label {label}", p.id);
        }
    }
    assert!(tuned.iter().filter(|p| p.expect.is_empty()).count() >= 15);
}

/// Audits every pair; returns the table and the pairs whose findings differ
/// from their labels.
fn measure(pairs: &[Pair]) -> (String, String) {
    let results: Vec<BTreeSet<String>> = pairs
        .iter()
        .map(|p| found(&audit_text(&p.before, &p.after)))
        .collect();
    let mut misses = String::new();
    for (p, r) in pairs.iter().zip(&results) {
        let expected: BTreeSet<&str> = p
            .expect
            .iter()
            .map(String::as_str)
            .filter(|l| KINDS.contains(l))
            .collect();
        let got: BTreeSet<&str> = r.iter().map(String::as_str).collect();
        if expected != got {
            let _ = writeln!(misses, "{:<34} expected {expected:?}, found {got:?}", p.id);
        }
    }
    let table = table(pairs, &results);
    println!("{table}\n{misses}");
    (table, misses)
}

fn assert_documented(name: &str, table: &str, misses: &str) {
    let docs = include_str!("../src/audit.rs");
    let block: Vec<String> = table.lines().map(|l| format!("//! {l}")).collect();
    assert!(
        docs.contains(&block.join("\n")),
        "the audit docs lack the measured table for {name}:\n{table}\nmisses:\n{misses}"
    );
}

#[test]
fn precision_and_recall_match_the_documented_tables() {
    let tuned = measure(&pairs(TUNED));
    let held_out = measure(&pairs(HELD_OUT));
    assert_documented("pairs.txt", &tuned.0, &tuned.1);
    assert_documented("held_out.txt", &held_out.0, &held_out.1);
}
