//! What in a message the user pasted or handed over rather than typed: a
//! plan adopted, a structured document, formatted answers, quoted program
//! output; only strong cues count there.

use super::*;

/// Whether a text is a plan the user adopts ("Implement the following
/// plan:"), or a long structured document: only strong cues count there.
pub(super) fn is_paste(text: &str) -> bool {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let headings = text
        .lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .count();
    text.trim_start()
        .starts_with("Implement the following plan")
        || (lines >= 40 && headings >= 3)
        || text.len() >= 6_000
}

/// In a long message formatted the way an assistant's answer is (bold
/// spans, check marks, headings, three or more), the stretch from its
/// first formatted paragraph to its last: another model's answer, pasted.
/// What the user wrote before or after it is their own.
pub(super) fn formatted_answer(text: &str) -> Option<Span> {
    const MARKS: [&str; 5] = ["**", "✅", "❌", "✔", "###"];
    if text.len() < 1_200 {
        return None;
    }
    let count = |t: &str| MARKS.iter().map(|m| t.matches(m).count()).sum::<usize>();
    if count(text) < 6 {
        return None;
    }
    let mut region: Option<Span> = None;
    let mut at = 0;
    for para in text.split("\n\n") {
        let span = Span::new(at, at + para.len());
        at += para.len() + 2;
        if count(para) > 0 {
            region = Some(region.map_or(span, |r| Span::new(r.start, span.end)));
        }
    }
    region
}

/// Nouns of material someone else wrote that a lead-in hands over: a
/// review, comments, suggestions, feedback.
pub(super) const HANDED_OVER: &[&str] = &[
    "意见",
    "建议",
    "反馈",
    "评审",
    "评论",
    "review:",
    "review.",
    "review below",
    "following review",
    "reviewer",
    "feedback",
    "comments",
    "suggestions",
];

/// Where a message's own words end when its first line hands over
/// material pasted after it ("What do you make of the following review?",
/// "结合以下意见进一步优化"): the lines after it are the other author's,
/// not the user's rules (the user adopts them as the task, not as rules).
pub(super) fn handed_over(text: &str) -> Option<usize> {
    let first_end = text.find('\n')?;
    let first = text.get(..first_end)?.to_lowercase();
    let rest = text.get(first_end..)?;
    let body_lines = rest.lines().filter(|l| !l.trim().is_empty()).count();
    let pointed = [
        "以下",
        "如下",
        "下面",
        "一下意见",
        "following",
        "below",
        "these",
        "this review",
    ]
    .iter()
    .any(|p| first.contains(p));
    let own = ["我的", "my "].iter().any(|p| first.contains(p));
    (body_lines >= 3 && pointed && !own && HANDED_OVER.iter().any(|n| first.contains(n)))
        .then_some(first_end)
}

/// Marks another program's output carries: Claude Code's and other
/// terminals' tree and status glyphs, box drawing.
pub(super) const PROGRAM_MARKS: &[char] = &[
    '⎿', '●', '⏺', '✻', '│', '└', '├', '╭', '╰', '┌', '┐', '┘', '─', '═', '║', '▶', '⏵',
];

/// Marks of an assistant's formatted answer, pasted back.
pub(super) const ANSWER_MARKS: &[&str] = &["**", "✅", "❌", "✔", "⚠", "→ ", "| ", "###", "##"];

/// The paragraphs of a typed message that are pasted material rather than
/// the user's own words: any paragraph with another program's marks, and
/// in a long message (1,200 bytes or more) a paragraph of three or more
/// lines formatted the way an assistant's answer is (headings, tables,
/// bold, check marks).
pub(super) fn pasted_spans(text: &str) -> Vec<Span> {
    let long = text.len() >= 1_200;
    let mut out = Vec::new();
    let mut start = 0;
    let flush = |a: usize, b: usize, out: &mut Vec<Span>| {
        let para = &text[a..b];
        if para.trim().is_empty() {
            return;
        }
        let lines = para.lines().filter(|l| !l.trim().is_empty()).count();
        let program = para.chars().any(|c| PROGRAM_MARKS.contains(&c)) || cites_lines(para);
        let formatted = ANSWER_MARKS.iter().filter(|m| para.contains(*m)).count();
        if program || (long && lines >= 3 && formatted >= 1) {
            out.push(Span::new(a, b));
        }
    };
    let mut i = 0;
    while let Some(k) = text[i..].find("\n\n") {
        let end = i + k;
        flush(start, end, &mut out);
        start = end + 2;
        i = start;
    }
    flush(start, text.len(), &mut out);
    out
}

/// Whether a paragraph cites file lines the way an agent's report does
/// ("ui.js (line 60)", twice or more): another agent's output, pasted.
pub(super) fn cites_lines(para: &str) -> bool {
    para.match_indices("(line ")
        .filter(|(i, m)| {
            para.get(i + m.len()..)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count()
        >= 2
}
