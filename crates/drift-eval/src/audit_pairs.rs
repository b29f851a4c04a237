//! The audit's labelled before/after pairs (drift-session's
//! `tests/labelled/*.txt`): a whole before and after each, written for the
//! project, with what a careful reader finds wrong and each rule's fate.
//! drift-session's `tests/labelled.rs` scores the audit on them (it
//! includes this file); the judge's trainer learns from the rules' fates of
//! `pairs.txt`, never from `held_out.txt`.
//!
//! A pair is `=== <id>`, `expect: <labels>`, optional `rule: <fate> |
//! <clause>`, `invented: <text>`, `swap: <id> <id>` and `merge: <id> <id>`
//! lines, then `--- before` and `--- after`, each followed by its text.

use alloc::collections::BTreeSet;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// One labelled pair.
#[derive(Clone, Debug, Default)]
pub struct Pair {
    pub id: String,
    pub expect: BTreeSet<String>,
    /// `rule: <fate> | <clause>` lines.
    pub rules: Vec<(String, String)>,
    /// `invented:` lines.
    pub invented: Vec<String>,
    /// `swap:` and `merge:` lines: the two ids.
    pub rebound: Vec<(String, String)>,
    pub before: String,
    pub after: String,
}

/// The pairs of a file's text.
pub fn parse(text: &str) -> Vec<Pair> {
    let mut out = Vec::new();
    let mut current: Option<Pair> = None;
    let mut section = "";
    for line in text.lines() {
        if let Some(id) = line.strip_prefix("=== ") {
            out.extend(current.take());
            current = Some(Pair {
                id: id.trim().to_string(),
                ..Pair::default()
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
                } else if let Some(rule) = line.strip_prefix("rule:") {
                    if let Some((fate, clause)) = rule.split_once('|') {
                        pair.rules
                            .push((fate.trim().to_string(), clause.trim().to_string()));
                    }
                } else if let Some(text) = line.strip_prefix("invented:") {
                    pair.invented.push(text.trim().to_string());
                } else if let Some(ids) = line
                    .strip_prefix("swap:")
                    .or_else(|| line.strip_prefix("merge:"))
                {
                    let ids: Vec<&str> = ids.split_whitespace().collect();
                    if let [a, b] = ids.as_slice() {
                        pair.rebound.push((a.to_string(), b.to_string()));
                    }
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
