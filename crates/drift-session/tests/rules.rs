//! Precision and recall of the rule finder on the labelled corpus in
//! `tests/rules/`: `rules.txt`, `held_out.txt` and `held_out_2.txt`
//! (documents of every source, in many domains) and `tool_output.txt`
//! (what tools print: policies, and data worded like them), and their
//! sections of `eval/SCORES.md` held to what this test measures (with
//! `DRIFT_WRITE_SCORES=1`, written from it). The finder's model learns from
//! every document here, so every figure here is in-sample; its figures
//! across people are the real sessions' (`cargo xtask eval`).
//!
//! A found rule matches a labelled rule when their spans overlap and both
//! agree on whether the rule is quoted (a label with `@quote` is a rule
//! restated by the assistant or a summary); each found rule matches at most
//! one label and each label at most one found rule, the largest overlaps
//! first. A found rule that matches no label is a false positive, whatever
//! it overlaps; a labelled rule that no found rule matches is a miss.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;

use drift_session::{
    Rule, RuleBook, Source,
    entail::Span,
    find_rules,
    rules::{RuleForm, is_harness_text, operator_content, summary_body},
};
use proptest::prelude::*;

#[path = "../../drift-eval/src/scores_file.rs"]
mod scores_file;

// The corpus's reading of a document's source, shared with the trainer
// (drift-eval, which depends on this crate).
extern crate alloc;
#[path = "../../drift-eval/src/corpus.rs"]
#[allow(dead_code)]
mod corpus;

const DEVELOPMENT: &str = include_str!("rules/rules.txt");
const HELD_OUT: &str = include_str!("rules/held_out.txt");
const HELD_OUT_2: &str = include_str!("rules/held_out_2.txt");
const TOOL_OUTPUT: &str = include_str!("rules/tool_output.txt");

/// One labelled span of a block's document.
struct Label {
    /// `Some((kind, form, quoted))` for a rule, `None` for a non-rule.
    rule: Option<(String, String, bool)>,
    text: String,
    span: Span,
}

/// One labelled document.
struct Block {
    id: String,
    role: String,
    source: String,
    document: String,
    labels: Vec<Label>,
}

fn field<'a>(header: &'a str, name: &str) -> &'a str {
    header
        .split('|')
        .filter_map(|part| part.trim().strip_prefix(name))
        .map(|v| v.trim_start_matches(':').trim())
        .next()
        .unwrap_or("")
}

fn blocks(corpus: &str) -> Vec<Block> {
    let mut out: Vec<Block> = Vec::new();
    let mut in_labels = false;
    let mut lines: Vec<&str> = Vec::new();
    let mut label_lines: Vec<&str> = Vec::new();
    let mut header: Option<&str> = None;
    let mut finish = |header: Option<&str>, lines: &mut Vec<&str>, label_lines: &mut Vec<&str>| {
        if let Some(h) = header {
            out.push(block(h, lines, label_lines));
        }
        lines.clear();
        label_lines.clear();
    };
    for line in corpus.lines() {
        if let Some(h) = line.strip_prefix("=== ") {
            finish(header, &mut lines, &mut label_lines);
            header = Some(h);
            in_labels = false;
        } else if header.is_none() || line.starts_with('#') {
            continue;
        } else if line == "--- labels" {
            in_labels = true;
        } else if in_labels {
            if !line.trim().is_empty() {
                label_lines.push(line);
            }
        } else {
            lines.push(line);
        }
    }
    finish(header, &mut lines, &mut label_lines);
    out
}

fn block(header: &str, lines: &[&str], label_lines: &[&str]) -> Block {
    let id = header.split('|').next().unwrap_or("").trim().to_string();
    let document = lines.join("\n");
    let mut labels = Vec::new();
    let mut cursor = 0;
    for line in label_lines {
        let (head, text) = line.split_once(" | ").expect("a label line has ' | '");
        let text = text.to_string();
        let mut words = head.split_whitespace();
        let rule = match words.next() {
            Some("R") => {
                let kind = words.next().unwrap_or("").to_string();
                let form = words.next().unwrap_or("").to_string();
                let quoted = words.next() == Some("@quote");
                Some((kind, form, quoted))
            }
            Some("N") | None => None,
            Some(other) => panic!("{id}: label type {other}"),
        };
        let at = document
            .get(cursor..)
            .and_then(|rest| rest.find(&text))
            .map(|i| i + cursor)
            .or_else(|| document.find(&text))
            .unwrap_or_else(|| panic!("{id}: label text not in the document: {text}"));
        cursor = at;
        labels.push(Label {
            rule,
            span: Span::new(at, at + text.len()),
            text,
        });
    }
    Block {
        id,
        role: field(header, "role").to_string(),
        source: field(header, "source").to_string(),
        document,
        labels,
    }
}

/// Where a block's text comes from, as the finder is told. The corpus's
/// `harness_boilerplate` is not a source a reader knows: such a text is
/// passed as what its role makes it, and the finder has to recognise it.
/// Where a block's document comes from, as the trainer reads it too.
fn source_of(block: &Block) -> Source {
    corpus::source(&block.source, &block.role)
}

/// The corpus's sources, grouped as the tables show them.
fn group_of(source: &str) -> &'static str {
    match source {
        "chat" => "chat",
        "system_prompt" | "hook_context" | "skill" => "system prompt",
        "agents_md" | "claude_md" | "project_file" => "AGENTS.md / CLAUDE.md",
        "runbook" | "ticket" | "tool_output" | "mcp_result" => "tool output",
        "assistant_plan" | "assistant" => "assistant",
        "summary" => "compaction summary",
        _ => "harness text",
    }
}

const GROUPS: [&str; 7] = [
    "chat",
    "system prompt",
    "AGENTS.md / CLAUDE.md",
    "tool output",
    "assistant",
    "compaction summary",
    "harness text",
];

fn overlap(a: Span, b: Span) -> usize {
    a.end.min(b.end).saturating_sub(a.start.max(b.start))
}

/// What one block scored.
#[derive(Default, Clone, Copy)]
struct Score {
    labelled: usize,
    found: usize,
    correct: usize,
    kind: usize,
    form: usize,
}

impl Score {
    fn add(&mut self, other: Score) {
        self.labelled += other.labelled;
        self.found += other.found;
        self.correct += other.correct;
        self.kind += other.kind;
        self.form += other.form;
    }
}

/// Scores one block; writes what went wrong to `log`.
fn score(block: &Block, found: &[Rule], log: &mut String) -> Score {
    let rules: Vec<(usize, &Label)> = block
        .labels
        .iter()
        .enumerate()
        .filter(|(_, l)| l.rule.is_some())
        .collect();
    let mut pairs: Vec<(usize, usize, usize)> = Vec::new();
    for (f, rule) in found.iter().enumerate() {
        for &(l, label) in &rules {
            let Some((_, _, quoted)) = &label.rule else {
                continue;
            };
            let o = overlap(rule.span, label.span);
            if o > 0 && *quoted == rule.quoted {
                pairs.push((o, f, l));
            }
        }
    }
    pairs.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let mut used_found = BTreeSet::new();
    let mut used_label = BTreeSet::new();
    let mut s = Score {
        labelled: rules.len(),
        found: found.len(),
        ..Score::default()
    };
    for (_, f, l) in pairs {
        if used_found.contains(&f) || used_label.contains(&l) {
            continue;
        }
        used_found.insert(f);
        used_label.insert(l);
        s.correct += 1;
        let (Some(rule), Some(label)) = (found.get(f), block.labels.get(l)) else {
            continue;
        };
        let Some((kind, form, _)) = &label.rule else {
            continue;
        };
        if rule.kind.id() == kind {
            s.kind += 1;
        }
        if rule.form.id() == form {
            s.form += 1;
        } else {
            let _ = writeln!(
                log,
                "{:<34} form  {} {} (cue {:?}) for {} {}: {}",
                block.id,
                rule.kind.id(),
                rule.form.id(),
                rule.cue,
                kind,
                form,
                label.text
            );
        }
    }
    for &(l, label) in &rules {
        if !used_label.contains(&l) {
            let _ = writeln!(log, "{:<34} miss  {}", block.id, label.text);
        }
    }
    for (f, rule) in found.iter().enumerate() {
        if !used_found.contains(&f) {
            let _ = writeln!(
                log,
                "{:<34} false {} (cue {:?}{}): {}",
                block.id,
                rule.form.id(),
                rule.cue,
                if rule.quoted { ", quoted" } else { "" },
                rule.span.of(&block.document)
            );
        }
    }
    s
}

fn ratio(a: usize, b: usize) -> String {
    if b == 0 {
        "–".to_string()
    } else {
        format!("{:.2}", a as f64 / b as f64)
    }
}

fn row(out: &mut String, name: &str, s: Score) {
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} | {} | {} | {} |",
        s.labelled,
        s.found,
        s.correct,
        ratio(s.correct, s.found),
        ratio(s.correct, s.labelled),
        ratio(s.kind, s.correct),
        ratio(s.form, s.correct),
    );
}

/// Runs the finder over a corpus; returns the table and what went wrong.
fn measure(corpus: &str) -> (String, String) {
    let mut log = String::new();
    let mut groups = [Score::default(); GROUPS.len()];
    let mut all = Score::default();
    for block in blocks(corpus) {
        let found = find_rules(&block.document, source_of(&block));
        let s = score(&block, &found, &mut log);
        let g = GROUPS
            .iter()
            .position(|g| *g == group_of(&block.source))
            .unwrap_or(0);
        if let Some(slot) = groups.get_mut(g) {
            slot.add(s);
        }
        all.add(s);
    }
    let mut table = String::from(
        "| source | rules labelled | found | correct | precision | recall | kind | form |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    for (name, s) in GROUPS.iter().zip(groups) {
        row(&mut table, name, s);
    }
    row(&mut table, "**all**", all);
    println!("{table}\n{log}");
    (table, log)
}

#[test]
fn the_corpus_is_well_formed() {
    let development = blocks(DEVELOPMENT);
    let held_out = blocks(HELD_OUT);
    let held_out_2 = blocks(HELD_OUT_2);
    assert!(development.len() >= 80, "{} blocks", development.len());
    assert!(held_out.len() >= 45, "{} blocks", held_out.len());
    assert!(held_out_2.len() >= 60, "{} blocks", held_out_2.len());
    let mut ids = BTreeSet::new();
    let mut items = 0;
    for b in development.iter().chain(&held_out).chain(&held_out_2) {
        assert!(ids.insert(b.id.clone()), "duplicate id {}", b.id);
        assert!(!b.document.trim().is_empty(), "{}: empty document", b.id);
        assert!(!b.labels.is_empty(), "{}: no labels", b.id);
        for label in &b.labels {
            assert_eq!(label.span.of(&b.document), label.text, "{}", b.id);
            if let Some((kind, form, _)) = &label.rule {
                let form =
                    RuleForm::from_id(form).unwrap_or_else(|| panic!("{}: form {form}", b.id));
                assert_eq!(form.kind().id(), kind, "{}: {}", b.id, label.text);
            }
        }
        items += b.labels.len();
    }
    assert!(items >= 1300, "{items} labelled items");
}

/// Holds section `name` of `eval/SCORES.md` to the measured `table`, under
/// `heading` and `note`.
fn hold(name: &str, heading: &str, note: &str, (table, log): (String, String)) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let text = format!("### {heading}\n\n{note}\n\n{table}");
    if let Err(e) = scores_file::hold(&root, name, &text, scores_file::writing()) {
        panic!("{e}\nwhat went wrong:\n{log}");
    }
}

/// How a found rule counts, said once for the three sets.
const COUNTED: &str = "each sentence labelled rule (with kind and form) or \
    not; the `rules` module docs say how a found rule counts.";

/// Said of every set: the model learned from it.
const LEARNED: &str = "The rule finder's model learns from every document of \
    the corpus: an in-sample figure (across people: the real sessions' tables).";

#[test]
fn the_development_set_matches_eval_scores() {
    hold(
        "rules-development",
        "`rules.txt`: learned from",
        &format!(
            "`crates/drift-session/tests/rules/rules.txt`: chat, system and \
             developer prompts, project files as injected and as read by a tool, \
             runbooks, tickets, MCP results, command output, assistant text, \
             compaction summaries and harness text, {COUNTED} {LEARNED}"
        ),
        measure(DEVELOPMENT),
    );
}

#[test]
fn the_held_out_set_matches_eval_scores() {
    hold(
        "rules-held-out",
        "`held_out.txt`: learned from",
        &format!(
            "`crates/drift-session/tests/rules/held_out.txt`: documents of other \
             domains, {COUNTED} Held out from the hand-written finder the model \
             replaced. {LEARNED}"
        ),
        measure(HELD_OUT),
    );
}

#[test]
fn the_second_held_out_set_matches_eval_scores() {
    hold(
        "rules-held-out-2",
        "`held_out_2.txt`: learned from",
        &format!(
            "`crates/drift-session/tests/rules/held_out_2.txt`: written by someone \
             else, {COUNTED} Its sources use the readers' own ids \
             (`project_file`, `hook_context`, `skill`), grouped here with the \
             project files and the system prompt. {LEARNED}"
        ),
        measure(HELD_OUT_2),
    );
}

#[test]
fn the_tool_output_set_matches_eval_scores() {
    hold(
        "rules-tool-output",
        "`tool_output.txt`: learned from",
        &format!(
            "`crates/drift-session/tests/rules/tool_output.txt`: what tools print \
             (command output, runbooks, tickets, MCP results, one line to a \
             page), the workspace's policies among data worded like them, in \
             eight languages, {COUNTED} {LEARNED}"
        ),
        measure(TOOL_OUTPUT),
    );
}

/// Text made of what the finder reacts to: cues, quotes, tags, JSON,
/// numbered lines, tables, multi-byte characters, and noise.
fn texty() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("never ".to_string()),
        Just("do not ".to_string()),
        Just("only on ".to_string()),
        Just("at most 3 ".to_string()),
        Just("before you ".to_string()),
        Just("is the exception: ".to_string()),
        Just("Correction: ".to_string()),
        Just("\"the app\" is ".to_string()),
        Just(", not ".to_string()),
        Just("; ".to_string()),
        Just(" \u{2014} ".to_string()),
        Just("(max 2) ".to_string()),
        Just("\u{201C}".to_string()),
        Just("\u{201D}".to_string()),
        Just("\"".to_string()),
        Just("`".to_string()),
        Just("<system-reminder>".to_string()),
        Just("</system-reminder>".to_string()),
        Just("<INSTRUCTIONS>\n".to_string()),
        Just("{\"a\":\"".to_string()),
        Just("\\n- ".to_string()),
        Just("\\".to_string()),
        Just("\"}".to_string()),
        Just("     7\u{2192}".to_string()),
        Just("\n| a | b |\n|---|---|\n| x | no |".to_string()),
        Just("This session is being continued from a previous conversation. ".to_string()),
        Just("SessionStart:compact hook success: ".to_string()),
        Just("\n```\n".to_string()),
        Just(". ".to_string()),
        Just("\n".to_string()),
        Just("\u{2192}".to_string()),
        Just("’s ".to_string()),
        Just("ünï ".to_string()),
        "[a-z]{1,8} ",
        "\\PC{1,6}",
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

fn fits(text: &str, span: Span) -> bool {
    span.start < span.end
        && span.end <= text.len()
        && text.is_char_boundary(span.start)
        && text.is_char_boundary(span.end)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn any_text_is_read_without_panicking_and_spans_fit(text in texty()) {
        let mut book = RuleBook::new();
        for (i, source) in Source::ALL.into_iter().enumerate() {
            let rules = find_rules(&text, source);
            for rule in &rules {
                prop_assert!(fits(&text, rule.span), "{:?} in {:?}", rule, text);
                prop_assert_eq!(rule.kind, rule.form.kind());
                prop_assert!(!rule.cue.is_empty());
            }
            // In order.
            for w in rules.windows(2) {
                prop_assert!(w[0].span.start <= w[1].span.start);
            }
            book.add(i, &text, source);
        }
        let _ = is_harness_text(&text);
        let content = operator_content(&text);
        prop_assert!(content.is_empty() || text.contains(content));
        if let Some(body) = summary_body(&text) {
            prop_assert!(fits(&text, body));
        }
    }
}
