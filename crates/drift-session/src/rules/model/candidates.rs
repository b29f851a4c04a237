//! What the model reads: a text cut into the units a rule can be (a
//! sentence, a list item, a table row, an answer), each with where it sits.
//!
//! The cut is structure, not judgement: the sentence reader (`read`)
//! joins wrapped lines, splits sentences, passes over code, commands and
//! log lines, and tells the harness's own text (never a rule) from the
//! operator's and from what a summary or the model restates. A sentence is
//! cut again at a semicolon, where two instructions are often typed as one
//! ("use uv; never pip"). An answer to the agent's questions is one unit a
//! line (`question → option`).

use alloc::vec::Vec;

use super::super::TextOrigin;
use super::super::read::{Region, UnitKind, read};
use crate::entail::scan::Span;

/// Sentences longer than this are not read (logs, minified data, pasted
/// output): it bounds the work one unit can cost.
pub const MAX_UNIT: usize = 800;

/// One unit of a text a rule can be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Candidate {
    /// Where it is in the text.
    pub span: Span,
    /// What it is.
    pub shape: Shape,
    /// Restated: in a summary or the model's own text.
    pub restated: bool,
    /// The operator's content inside a harness's wrapper (AGENTS.md,
    /// CLAUDE.md, a hook's output).
    pub wrapped: bool,
    /// Its place among the text's units (0-based).
    pub index: u32,
    /// How many units the text has.
    pub of: u32,
}

/// What kind of unit a candidate is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// A sentence of running text.
    Sentence,
    /// A list item (or its first sentence).
    Item,
    /// A heading.
    Heading,
    /// A table row, whole.
    Row,
    /// A line `question → option` of the answers to the agent's questions.
    Answer,
}

/// The units of `text`, read as coming from `origin`.
pub fn candidates(text: &str, origin: TextOrigin) -> Vec<Candidate> {
    let mut out: Vec<Candidate> = Vec::new();
    if origin == TextOrigin::Answers {
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let t = line.trim();
            if !t.is_empty() && t.len() <= MAX_UNIT {
                let lead = line.len() - line.trim_start().len();
                out.push(Candidate {
                    span: Span::new(at + lead, at + lead + t.len()),
                    shape: Shape::Answer,
                    restated: false,
                    wrapped: false,
                    index: 0,
                    of: 0,
                });
            }
            at += line.len();
        }
    } else {
        read(text, origin.source(), |u| {
            if u.region == Region::Harness {
                return;
            }
            let shape = match u.kind {
                UnitKind::Sentence => Shape::Sentence,
                UnitKind::Item => Shape::Item,
                UnitKind::Heading => Shape::Heading,
                UnitKind::Row => Shape::Row,
            };
            let restated = u.region == Region::Restated;
            split_at_semicolons(text, u.span, |span| {
                let span = if restated {
                    past_report(text, span)
                } else {
                    span
                };
                if span.end - span.start > MAX_UNIT || !has_word(span.of(text)) {
                    return;
                }
                out.push(Candidate {
                    span,
                    shape,
                    restated,
                    wrapped: u.wrapped,
                    index: 0,
                    of: 0,
                });
            });
        });
    }
    let of = u32::try_from(out.len()).unwrap_or(u32::MAX);
    for (i, c) in out.iter_mut().enumerate() {
        c.index = u32::try_from(i).unwrap_or(u32::MAX);
        c.of = of;
    }
    out
}

/// A unit a summary restates, without the frame it is reported in: a short
/// label ("Rule:", "Constraint:") and "the user said (that)", so that the
/// rule it restates reads as the rule itself.
fn past_report(text: &str, span: Span) -> Span {
    let s = span.of(text);
    let mut start = 0;
    if let Some(colon) = s.find(':').filter(|&c| c <= 30)
        && s[..colon].split_whitespace().count().le(&3)
        && s[..colon].chars().all(|c| c.is_alphabetic() || c == ' ')
    {
        start = colon + 1;
    }
    let rest = &s[start..];
    let lead = rest.len() - rest.trim_start().len();
    let words: alloc::vec::Vec<(usize, &str)> = rest[lead..]
        .split(' ')
        .scan(0usize, |at, w| {
            let here = *at;
            *at += w.len() + 1;
            Some((here, w))
        })
        .take(5)
        .collect();
    let lower = |w: &str| w.trim_matches(',').to_ascii_lowercase();
    if let Some(verb) = words
        .iter()
        .position(|(_, w)| crate::rules::verbs::REPORTING.contains(&lower(w).as_str()))
        && verb <= 3
        && words[..verb].iter().any(|(_, w)| lower(w) == "user")
    {
        let mut next = verb + 1;
        if words
            .get(next)
            .is_some_and(|(_, w)| matches!(lower(w).as_str(), "that" | "to" | "us"))
        {
            next += 1;
        }
        if let Some(&(at, _)) = words.get(next) {
            start += lead + at;
        }
    }
    let a = span.start + start;
    let t = text.get(a..span.end).unwrap_or("");
    let a = a + (t.len() - t.trim_start().len());
    Span::new(a.min(span.end), span.end)
}

/// Whether `s` holds a letter (or a character of a script without spaces).
fn has_word(s: &str) -> bool {
    s.chars().any(char::is_alphabetic)
}

/// Calls `f` on each part of `span` between semicolons outside backticks,
/// trimmed (a table row is left whole).
fn split_at_semicolons(text: &str, span: Span, mut f: impl FnMut(Span)) {
    let bytes = text.as_bytes();
    let mut start = span.start;
    let mut code = false;
    let mut emit = |a: usize, b: usize| {
        let s = text.get(a..b).unwrap_or("");
        let lead = s.len() - s.trim_start().len();
        let t = s.trim();
        if !t.is_empty() {
            f(Span::new(a + lead, a + lead + t.len()));
        }
    };
    if span.of(text).starts_with('|') {
        emit(span.start, span.end);
        return;
    }
    for i in span.start..span.end.min(bytes.len()) {
        match bytes[i] {
            b'`' => code = !code,
            b';' if !code && bytes.get(i + 1).is_none_or(|b| b.is_ascii_whitespace()) => {
                emit(start, i + 1);
                start = i + 1;
            }
            _ => {}
        }
    }
    emit(start, span.end);
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn texts(text: &str, origin: TextOrigin) -> Vec<&str> {
        candidates(text, origin)
            .iter()
            .map(|c| c.span.of(text))
            .collect()
    }

    #[test]
    fn sentences_clauses_and_answers() {
        assert_eq!(
            texts(
                "Fix the build. Use uv; never pip.\n```\nrm -rf build; make\n```\nThanks!",
                TextOrigin::Typed
            ),
            ["Fix the build.", "Use uv;", "never pip.", "Thanks!"]
        );
        assert_eq!(
            texts(
                "Which database? → PostgreSQL\nKeep the v1 API? → Keep it",
                TextOrigin::Answers
            ),
            ["Which database? → PostgreSQL", "Keep the v1 API? → Keep it"]
        );
        let c = candidates("One. Two.", TextOrigin::Typed);
        assert_eq!((c[1].index, c[1].of), (1, 2));
        // A summary's report frame comes off what it restates.
        let summary = TextOrigin::Standing(crate::rules::Source::Summary);
        assert_eq!(
            texts(
                "Rule: never restart db-prod-01. The user said that PRs need review.",
                summary
            ),
            ["never restart db-prod-01.", "PRs need review."]
        );
    }
}
