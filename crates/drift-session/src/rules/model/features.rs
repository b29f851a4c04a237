//! A unit of text as the model sees it: hashed features, each an index
//! into the model's weights.
//!
//! - **Words**, lower-cased, a number as `#`, and in
//!   scripts without spaces each character and each pair of neighbours
//!   (so Chinese, Japanese and Korean are read like English); the first
//!   word, the first two and the last; the first four letters of a long
//!   word (its stem, roughly, in many languages).
//! - **Who gave it**, and the words again crossed with that: a bare
//!   imperative is a rule in an instruction file and a task in chat.
//! - **Its grammar**, roughly: whether it opens with an order (the verbs
//!   of `rules::verbs`), is about a definite thing or things in general,
//!   is negated, conditioned or quantified over (a handful of English
//!   function words); each crossed with who gave it.
//! - **Its shape**: how long it is, whether it asks, quotes, holds code, a
//!   path or a number, is a list item, a heading, a table row, an answer,
//!   where it sits in its text and how long and how formatted that text
//!   is (not for a tool's output, read unit by unit), and where it was
//!   said (after the agent's question or options, in the first message).
//!
//! Every feature is a namespace and a string hashed (FNV-1a) into
//! `2^bits` slots; collisions are rare enough at 18 bits, and a model is
//! a flat table of weights. Which words make a rule, the model learns
//! from the labels; the few words written here only say how a sentence
//! is built. [`Featurizer::fingerprint`] changes with any of this, so a
//! model trained on other features is known to be stale.

use alloc::vec::Vec;

use super::super::{Context, TextOrigin};
use super::candidates::{Candidate, Shape};

/// The namespaces of features.
#[derive(Clone, Copy)]
#[repr(u8)]
enum Ns {
    Word = 1,
    First = 3,
    FirstTwo,
    Last,
    Stem,
    Origin,
    OriginWord,
    OriginFirst,
    Shape,
    OriginShape,
    Bias,
    Grammar,
}

/// The broad class of a text's origin, for crossing with words.
fn origin_class(origin: TextOrigin, restated: bool) -> u8 {
    if restated {
        return 6;
    }
    match origin {
        TextOrigin::Typed => 1,
        TextOrigin::Rejection => 1,
        TextOrigin::Answers => 2,
        TextOrigin::Brief => 3,
        // A tool's output is read as text that instructs would be: a
        // policy it announces is a sentence that instructs.
        TextOrigin::Standing(_) | TextOrigin::Tool => 4,
    }
}

/// The origin itself, finer.
fn origin_id(origin: TextOrigin) -> u8 {
    match origin {
        TextOrigin::Typed => 1,
        TextOrigin::Rejection => 2,
        TextOrigin::Answers => 3,
        TextOrigin::Brief => 4,
        TextOrigin::Tool | TextOrigin::Standing(_) => 16 + origin.source() as u8,
    }
}

/// Hashes features into `2^bits` slots.
#[derive(Clone, Copy, Debug)]
pub struct Hasher {
    mask: u32,
}

impl Hasher {
    /// A hasher into `2^bits` slots.
    pub const fn new(bits: u32) -> Hasher {
        Hasher {
            mask: (1u32 << bits) - 1,
        }
    }

    fn slot(&self, ns: Ns, extra: u8, parts: &[&[u8]]) -> u32 {
        let mut h: u32 = 0x811c_9dc5;
        let mut eat = |b: u8| {
            h ^= u32::from(b);
            h = h.wrapping_mul(0x0100_0193);
        };
        eat(ns as u8);
        eat(extra);
        for (i, p) in parts.iter().enumerate() {
            if i > 0 {
                eat(0xff);
            }
            for &b in *p {
                eat(b);
            }
        }
        // A final mix, so that the low bits depend on every byte.
        h ^= h >> 15;
        h = h.wrapping_mul(0x2c1b_3c6d);
        h ^= h >> 12;
        h & self.mask
    }
}

/// Whether `c` belongs to a script written without spaces (Chinese,
/// Japanese, Korean).
pub(crate) fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// The words of `text`, lower-cased into `buf`, as byte ranges of it.
fn words(text: &str, buf: &mut Vec<u8>, spans: &mut Vec<(usize, usize)>) {
    buf.clear();
    spans.clear();
    let mut start: Option<usize> = None;
    let mut digits = false;
    let close = |start: &mut Option<usize>,
                 digits: &mut bool,
                 buf: &mut Vec<u8>,
                 spans: &mut Vec<(usize, usize)>| {
        if let Some(s) = start.take() {
            if *digits {
                buf.truncate(s);
                buf.push(b'#');
            }
            spans.push((s, buf.len()));
        }
        *digits = false;
    };
    let mut previous_unspaced: Option<char> = None;
    for c in text.chars() {
        if is_unspaced(c) {
            close(&mut start, &mut digits, buf, spans);
            let s = buf.len();
            let mut tmp = [0u8; 4];
            buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
            spans.push((s, buf.len()));
            if let Some(p) = previous_unspaced {
                let s = buf.len();
                buf.extend_from_slice(p.encode_utf8(&mut tmp).as_bytes());
                buf.extend_from_slice(c.encode_utf8(&mut tmp).as_bytes());
                spans.push((s, buf.len()));
            }
            previous_unspaced = Some(c);
            continue;
        }
        previous_unspaced = None;
        if c.is_alphanumeric() || c == '\'' || c == '_' {
            if c == '\'' && start.is_none() {
                continue;
            }
            if start.is_none() {
                start = Some(buf.len());
            }
            digits |= c.is_numeric();
            let mut tmp = [0u8; 4];
            for l in c.to_lowercase() {
                buf.extend_from_slice(l.encode_utf8(&mut tmp).as_bytes());
            }
        } else {
            close(&mut start, &mut digits, buf, spans);
        }
    }
    close(&mut start, &mut digits, buf, spans);
}

/// What a whole text is like, read once for all its units: a unit of a
/// long formatted text (another model's answer pasted, a document) is
/// rarely a rule of the person who pasted it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TextStats {
    lines: usize,
    bold: usize,
    headings: usize,
    fences: usize,
    marks: usize,
}

impl TextStats {
    /// The stats of `text`.
    pub fn of(text: &str) -> TextStats {
        let mut s = TextStats::default();
        for line in text.lines() {
            s.lines += 1;
            let t = line.trim_start();
            if t.starts_with('#') {
                s.headings += 1;
            }
            if t.starts_with("```") {
                s.fences += 1;
            }
        }
        s.bold = text.matches("**").count() / 2;
        s.marks = text
            .chars()
            .filter(|c| {
                matches!(
                    c,
                    '✅' | '❌' | '✔' | '⚠' | '🔴' | '🟢' | '📊' | '🎯' | '→' | '•'
                )
            })
            .count();
        s
    }
}

/// Reusable buffers for [`Featurizer::features`].
#[derive(Debug, Default)]
pub struct Scratch {
    buf: Vec<u8>,
    spans: Vec<(usize, usize)>,
}

/// Turns units into feature slots.
#[derive(Clone, Copy, Debug)]
pub struct Featurizer {
    hasher: Hasher,
}

/// Buckets for a count: 0, 1, 2, 3–4, 5–8, 9–16, 17–32, 33–64, more.
fn bucket(n: usize) -> u8 {
    match n {
        0 => 0,
        1 => 1,
        2 => 2,
        3..=4 => 3,
        5..=8 => 4,
        9..=16 => 5,
        17..=32 => 6,
        33..=64 => 7,
        _ => 8,
    }
}

/// A text whose units are read: the text, who gave it, where it was said,
/// and its stats (once per text).
#[derive(Clone, Copy, Debug)]
pub struct Text<'t> {
    /// The text.
    pub text: &'t str,
    /// Who gave it and how.
    pub origin: TextOrigin,
    /// Where in the session it was said.
    pub context: &'t Context,
    /// Its stats.
    pub stats: TextStats,
}

impl<'t> Text<'t> {
    /// `text` from `origin`, said in `context`.
    pub fn new(text: &'t str, origin: TextOrigin, context: &'t Context) -> Text<'t> {
        Text {
            text,
            origin,
            context,
            stats: TextStats::of(text),
        }
    }
}

impl Featurizer {
    /// Features hashed into `2^bits` slots.
    pub const fn new(bits: u32) -> Featurizer {
        Featurizer {
            hasher: Hasher::new(bits),
        }
    }

    /// The feature slots of candidate `c` of `t`, pushed onto `out`
    /// (cleared first), each once.
    pub fn features(&self, t: &Text<'_>, c: &Candidate, scratch: &mut Scratch, out: &mut Vec<u32>) {
        let Text {
            text,
            origin,
            context,
            ref stats,
        } = *t;
        out.clear();
        let h = &self.hasher;
        let push = |ns: Ns, extra: u8, parts: &[&[u8]], out: &mut Vec<u32>| {
            out.push(h.slot(ns, extra, parts));
        };
        let unit = c.span.of(text);
        let class = origin_class(origin, c.restated);
        push(Ns::Bias, 0, &[], out);
        push(Ns::Origin, origin_id(origin), &[], out);
        push(Ns::Origin, 100 + class, &[], out);
        let Scratch { buf, spans } = scratch;
        words(unit, buf, spans);
        let word = |i: usize| -> &[u8] {
            let (a, b) = spans[i];
            &buf[a..b]
        };
        for i in 0..spans.len() {
            let w = word(i);
            push(Ns::Word, 0, &[w], out);
            push(Ns::OriginWord, class, &[w], out);
            if w.len() >= 6 && w.is_ascii() {
                push(Ns::Stem, 0, &[&w[..4]], out);
            }
        }
        if !spans.is_empty() {
            push(Ns::First, 0, &[word(0)], out);
            push(Ns::OriginFirst, class, &[word(0)], out);
            if spans.len() > 1 {
                push(Ns::FirstTwo, 0, &[word(0), word(1)], out);
            }
            push(Ns::Last, 0, &[word(spans.len() - 1)], out);
        }
        // Grammar: an order (an imperative first), what it is about (a
        // definite thing, or things in general), and whether it bounds how
        // the work goes on (negated, conditioned, quantified over).
        if !spans.is_empty() {
            let w0 = core::str::from_utf8(word(0)).unwrap_or("");
            let w0 = w0.strip_suffix("n't").unwrap_or(w0);
            let imperative = super::super::verbs::opens_instruction(w0);
            let mut definite = false;
            let mut general = false;
            let mut negated = false;
            let mut conditioned = false;
            for i in 0..spans.len() {
                match core::str::from_utf8(word(i)).unwrap_or("") {
                    "the" | "this" | "that" | "these" | "those" | "it" | "my" | "our" if i <= 2 => {
                        definite = true
                    }
                    "never" => {
                        general = true;
                        negated = true;
                    }
                    "every" | "each" | "all" | "any" | "always" | "default" | "whenever"
                    | "anything" | "everything" | "ever" => general = true,
                    "not" | "don't" | "dont" | "no" | "without" | "instead" => negated = true,
                    "if" | "when" | "unless" | "until" | "before" | "after" | "only" => {
                        conditioned = true
                    }
                    _ => {}
                }
            }
            let short = spans.len() <= 8;
            let g = [
                (1, imperative),
                (2, imperative && definite),
                (3, imperative && general),
                (4, imperative && negated),
                (5, imperative && conditioned),
                (6, imperative && short),
                (7, !imperative && negated),
                (8, !imperative && general),
                (
                    9,
                    imperative && definite && !general && !negated && !conditioned,
                ),
                (10, general && negated),
            ];
            for (id, on) in g {
                if on {
                    push(Ns::Grammar, id, &[], out);
                    push(Ns::Grammar, 100 + id, &[&[class]], out);
                }
            }
        }
        // Shape.
        let trimmed = unit.trim_end();
        let shape = |id: u8, out: &mut Vec<u32>| {
            push(Ns::Shape, id, &[], out);
            push(Ns::OriginShape, id, &[&[class]], out);
        };
        shape(10 + bucket(spans.len()), out);
        // A tool's output is read unit by unit: how long it is and where
        // in it a unit stands tell the command that printed it, not
        // whether a line is a policy.
        let whole = origin != TextOrigin::Tool;
        if whole {
            shape(30 + bucket(text.len() / 64), out);
        }
        shape(
            50 + match c.shape {
                Shape::Sentence => 0,
                Shape::Item => 1,
                Shape::Heading => 2,
                Shape::Row => 3,
                Shape::Answer => 4,
            },
            out,
        );
        if whole {
            shape(
                60 + match (c.index, c.of) {
                    (_, 1) => 0,
                    (0, _) => 1,
                    (i, n) if i + 1 == n => 2,
                    _ => 3,
                },
                out,
            );
            shape(70 + bucket(c.of as usize), out);
            shape(140 + bucket(stats.lines), out);
            shape(150 + bucket(stats.bold), out);
            shape(160 + bucket(stats.headings), out);
            shape(170 + bucket(stats.fences), out);
            shape(180 + bucket(stats.marks), out);
        }
        let flags = [
            (90, trimmed.ends_with(['?', '？'])),
            (91, trimmed.ends_with('!')),
            (92, unit.contains('`')),
            (93, unit.contains("://")),
            (
                94,
                unit.split_whitespace()
                    .any(|w| w.contains('/') && w.len() > 2),
            ),
            (95, unit.contains(['"', '“', '”', '「'])),
            (96, unit.contains("**")),
            (
                97,
                unit.split_whitespace()
                    .any(|w| w.len() >= 3 && w.chars().all(|c| c.is_ascii_uppercase())),
            ),
            (98, unit.chars().next().is_some_and(char::is_lowercase)),
            (99, unit.chars().any(is_unspaced)),
            (100, !unit.is_ascii() && !unit.chars().any(is_unspaced)),
            (101, c.wrapped),
            (102, unit.contains('→') || unit.contains("->")),
            (103, unit.contains(['(', '[', '{'])),
            (104, unit.contains(':')),
            (110, context.after_question),
            (111, context.after_options),
            (112, context.first),
            (113, context.after_question && spans.len() <= 6),
            (114, context.after_options && spans.len() <= 6),
        ];
        for (id, on) in flags {
            if on {
                shape(id, out);
            }
        }
        out.sort_unstable();
        out.dedup();
    }
}

/// Texts every part of the featurizer reads: typed, answered, a brief,
/// an instruction file, a tool's output, a summary's restatement.
const PROBES: &[(&str, TextOrigin)] = &[
    (
        "Never push to `main` without a review! The build took 4 minutes; keep it under 10.\n- Use pnpm, not npm.\n## Deploys\n| env | rule |\n| prod | needs **SRE** approval |",
        TextOrigin::Typed,
    ),
    (
        "Which database? → Postgres 16 (Recommended)",
        TextOrigin::Answers,
    ),
    (
        "You are exploring src/. Do NOT edit files. Report back.",
        TextOrigin::Brief,
    ),
    (
        "# Rules\n1. Always run `make test` before committing.\n2. 不要修改 vendor/ 目录。",
        TextOrigin::Standing(crate::rules::Source::ProjectFile),
    ),
    (
        "payments-api: change freeze until 2026-01-05.\ndeployment.apps/x restarted",
        TextOrigin::Tool,
    ),
    (
        "The user said never to restart db-prod-01 without an approver.",
        TextOrigin::Standing(crate::rules::Source::Summary),
    ),
];

impl Featurizer {
    /// A fingerprint of how texts become features (units and slots of a
    /// fixed set of texts, hashed): a model trained with other features
    /// reads them wrong, so it is part of what a model was trained from.
    pub fn fingerprint(&self) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut eat = |bytes: &[u8]| {
            for &b in bytes {
                h ^= u64::from(b);
                h = h.wrapping_mul(0x0000_0100_0000_01b3);
            }
        };
        let mut scratch = Scratch::default();
        let mut slots = Vec::new();
        let contexts = [
            Context::default(),
            Context {
                after_question: true,
                after_options: true,
                first: true,
            },
        ];
        for (text, origin) in PROBES {
            for context in &contexts {
                let t = Text::new(text, *origin, context);
                for c in super::candidates(text, *origin) {
                    eat(&(c.span.start as u64).to_le_bytes());
                    eat(&(c.span.end as u64).to_le_bytes());
                    self.features(&t, &c, &mut scratch, &mut slots);
                    for s in &slots {
                        eat(&s.to_le_bytes());
                    }
                }
            }
        }
        h
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::scan::Span;
    use alloc::string::String;

    fn words_of(text: &str) -> Vec<String> {
        let mut buf = Vec::new();
        let mut spans = Vec::new();
        words(text, &mut buf, &mut spans);
        spans
            .iter()
            .map(|&(a, b)| String::from_utf8(buf[a..b].to_vec()).unwrap())
            .collect()
    }

    #[test]
    fn words_of_every_script() {
        assert_eq!(
            words_of("Don't push to main 3 times, use PR-42."),
            [
                "don't", "push", "to", "main", "#", "times", "use", "pr", "#"
            ]
        );
        assert_eq!(
            words_of("禁止提交"),
            ["禁", "止", "禁止", "提", "止提", "交", "提交"]
        );
    }

    #[test]
    fn the_same_unit_gives_the_same_features() {
        let f = Featurizer::new(18);
        let text = "Never push to main.";
        let c = Candidate {
            span: Span::new(0, text.len()),
            shape: Shape::Sentence,
            restated: false,
            wrapped: false,
            index: 0,
            of: 1,
        };
        let mut s = Scratch::default();
        let mut slots_of = |origin| {
            let mut out = Vec::new();
            let t = Text {
                text,
                origin,
                context: &Context::default(),
                stats: TextStats::default(),
            };
            f.features(&t, &c, &mut s, &mut out);
            out
        };
        let a = slots_of(TextOrigin::Typed);
        let b = slots_of(TextOrigin::Typed);
        assert_eq!(a, b);
        assert!(a.iter().all(|&i| i < 1 << 18));
        let other = slots_of(TextOrigin::Standing(crate::rules::Source::ProjectFile));
        assert_ne!(a, other, "who gave it is read");
    }
}
