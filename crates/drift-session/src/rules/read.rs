//! A text as sentences, each in its region: the operator's, restated (a
//! summary, the model's own text) or the harness's.
//!
//! Logical lines ([`super::lines`]) are joined where a sentence wraps onto
//! the next line, cut into sentences, and each sentence is shown to the
//! harness reader ([`super::boilerplate::RegionWalker`]), which knows the
//! harnesses' own texts and wrappers and says which region the sentence is
//! in. Table rows are passed whole; the rule finder reads their cells.

use super::Source;
use super::boilerplate::{RegionWalker, Verdict};
use super::lines::{Line, LineKind, for_each_line};
use crate::entail::scan::{Span, abbreviation_before};

/// Whose text a sentence is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Region {
    /// The operator's: chat, prompts, project files, tool output.
    Operator,
    /// Restated: a compaction summary, the model's own text.
    Restated,
    /// The harness's own: never read for rules.
    Harness,
}

/// What a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UnitKind {
    /// A sentence of running text.
    Sentence,
    /// A sentence that is a list item (or its first sentence).
    Item,
    /// A heading.
    Heading,
    /// A table row, whole.
    Row,
}

/// One sentence or table row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Unit {
    /// Where it is.
    pub(crate) span: Span,
    /// Whose text it is.
    pub(crate) region: Region,
    /// What it is.
    pub(crate) kind: UnitKind,
    /// The operator's content inside a harness's wrapper (AGENTS.md,
    /// CLAUDE.md, memory blocks, a hook's output).
    pub(crate) wrapped: bool,
}

/// A run of lines not yet cut into sentences.
#[derive(Clone, Copy)]
struct Pending {
    span: Span,
    kind: LineKind,
    prefixed: bool,
}

struct Walker<'t, F> {
    text: &'t str,
    reader: RegionWalker,
    pending: Option<Pending>,
    visit: F,
    /// JSON in this text is data (a state file a skill shows, a payload
    /// pasted into chat), not instructions.
    json_is_data: bool,
    /// Typed in a chat: a line that opens with an imperative is an
    /// instruction of its own, even in lowercase.
    typed: bool,
}

impl<F: FnMut(Unit)> Walker<'_, F> {
    fn line(&mut self, line: Line) {
        if line.json && self.json_is_data {
            self.flush();
            return;
        }
        match line.kind {
            LineKind::Prose | LineKind::Item | LineKind::Heading => {
                if let Some(p) = self.pending.as_mut()
                    && line.kind == LineKind::Prose
                    && !line.prefixed
                    && !p.prefixed
                    && wraps(self.text, p.span, line.span)
                    && !(self.typed && instructs_anew(self.text, p.span, line.span))
                {
                    p.span.end = line.span.end;
                    return;
                }
                self.flush();
                self.pending = Some(Pending {
                    span: line.span,
                    kind: line.kind,
                    prefixed: line.prefixed,
                });
            }
            LineKind::Row => {
                self.flush();
                let region = self.reader.region();
                (self.visit)(Unit {
                    span: line.span,
                    region,
                    kind: UnitKind::Row,
                    wrapped: self.reader.wrapped(),
                });
            }
            LineKind::Open | LineKind::Close => {
                self.flush();
                let name = line.span.of(self.text);
                self.reader.tag(name, line.kind == LineKind::Close);
            }
            LineKind::Blank | LineKind::Code | LineKind::Command | LineKind::Log => self.flush(),
        }
    }

    fn flush(&mut self) {
        let Some(p) = self.pending.take() else {
            return;
        };
        let mut first = true;
        let text = self.text;
        split_sentences(text, p.span, |s| {
            let kind = match p.kind {
                LineKind::Heading => UnitKind::Heading,
                LineKind::Item if first => UnitKind::Item,
                _ => UnitKind::Sentence,
            };
            first = false;
            let verdict = self.reader.sentence(s.of(text));
            let (span, region) = match verdict {
                Verdict::Read => (s, self.reader.region()),
                Verdict::ReadFrom(offset) => {
                    (Span::new(s.start + offset, s.end), self.reader.region())
                }
                Verdict::Skip => (s, Region::Harness),
            };
            (self.visit)(Unit {
                span,
                region,
                kind,
                wrapped: self.reader.wrapped(),
            });
        });
    }
}

/// Whether the line `next` continues the sentence of `open`: `open` does
/// not end a sentence and `next` starts in lowercase.
///
/// A line of a script written without spaces, or one with a question
/// mark (a question and its answer: "…？yes"), is not wrapped: people
/// writing it break the line where the sentence ends.
fn wraps(text: &str, open: Span, next: Span) -> bool {
    let open_text = open.of(text);
    let last = open_text.bytes().last().unwrap_or(b'.');
    let first = next.of(text).bytes().next().unwrap_or(b'A');
    let last_line = open_text.rsplit('\n').next().unwrap_or(open_text);
    let ends_there = last_line
        .chars()
        .any(|c| c == '?' || c == '？' || super::model::features::is_unspaced(c));
    !matches!(last, b'.' | b'!' | b'?' | b':' | b'*' | b'|')
        && first.is_ascii_lowercase()
        && !ends_there
}

/// Words a wrapped sentence ends its line with: the sentence goes on.
const GOES_ON: &[&str] = &[
    "a", "an", "the", "to", "of", "for", "with", "in", "on", "at", "by", "from", "into", "and",
    "or", "but", "that", "which", "who", "is", "are", "was", "be", "we", "you", "i", "it", "if",
    "when", "not", "no", "any", "all", "this", "these", "your", "our", "my", "as", "so", "than",
];

/// Whether the line `next`, typed under the line ending `open`, is an
/// instruction of its own: people typing a list of orders break the line
/// between them without a full stop ("read the datasheet\nfocus on the
/// vector unit"). It is when `next` opens with an imperative verb (or
/// "never", "always", "don't") and `open` does not end on a word that
/// carries its sentence on.
fn instructs_anew(text: &str, open: Span, next: Span) -> bool {
    let last = open
        .of(text)
        .trim_end()
        .rsplit(|c: char| !c.is_alphanumeric() && c != '\'')
        .find(|w| !w.is_empty())
        .unwrap_or("")
        .to_ascii_lowercase();
    let first: alloc::string::String = next
        .of(text)
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
        .replace('\'', "");
    !GOES_ON.contains(&last.as_str()) && super::verbs::opens_an_order(&first)
}

/// Every sentence and table row of `text`, in order, with its region.
pub(crate) fn read(text: &str, source: Source, visit: impl FnMut(Unit)) {
    let mut walker = Walker {
        text,
        reader: RegionWalker::new(source),
        pending: None,
        visit,
        json_is_data: matches!(source, Source::Skill | Source::ProjectFile),
        typed: source == Source::Chat,
    };
    for_each_line(text, |line| walker.line(line));
    walker.flush();
}

/// Closing punctuation that may follow a sentence's end mark.
fn closer_len(bytes: &[u8], i: usize) -> usize {
    match bytes.get(i..).unwrap_or(&[]) {
        [b'.' | b'!' | b'?' | b'"' | b'\'' | b')' | b']' | b'*', ..] => 1,
        // ” and ’
        [0xE2, 0x80, 0x9D | 0x99, ..] => 3,
        _ => 0,
    }
}

/// Where a scan of `bytes[..end]` goes on after the code span opening
/// with the backtick at `i`: past its closing backtick, or at `end` when
/// it is not closed. Code is not prose: nothing in it ends or splits one.
pub(crate) fn past_code(bytes: &[u8], i: usize, end: usize) -> usize {
    let from = i + 1;
    bytes
        .get(from..end)
        .and_then(|rest| rest.iter().position(|&b| b == b'`'))
        .map_or(end, |k| from + k + 1)
}

/// Whether an answer ends the line at `at`: a one-word answer ("yes",
/// "no", "ok"), or a short one set off by a dash or an arrow the way a
/// filled-in list of questions has it ("?   - no", "？ → 不需要").
fn answer_after(text: &str, at: usize) -> bool {
    let rest = text.get(at..).unwrap_or("");
    let line = rest.split('\n').next().unwrap_or("");
    let word = line.trim().trim_end_matches(['.', '!']);
    let set_off = word
        .strip_prefix(['-', '–', '—', '→'])
        .or_else(|| word.strip_prefix("->"))
        .map(str::trim);
    (line.starts_with(' ')
        && ["yes", "no", "ok"]
            .iter()
            .any(|a| word.eq_ignore_ascii_case(a)))
        || set_off.is_some_and(super::verbs::short_answer)
}

/// Whether the `.` at `dot` follows an option's letter ("B." opening the
/// sentence that starts at `start`, or after an inline list marker " - ").
fn option_letter(text: &str, start: usize, dot: usize) -> bool {
    let bytes = text.as_bytes();
    let Some(letter) = dot.checked_sub(1) else {
        return false;
    };
    if !bytes.get(letter).is_some_and(u8::is_ascii_uppercase)
        || !matches!(bytes.get(dot + 1), Some(b' '))
    {
        return false;
    }
    let before = text.get(start.min(letter)..letter).unwrap_or("");
    before.trim_matches([' ', '-', '*']).is_empty() || before.ends_with(" - ")
}

/// Calls `f` on every sentence of `text[span]`, trimmed: a sentence ends at
/// `.`, `!` or `?` (and any closing quotes or brackets) before a space or
/// the end, except after an abbreviation followed by a lowercase word, and
/// never inside backticks.
pub(crate) fn split_sentences(text: &str, span: Span, mut f: impl FnMut(Span)) {
    let bytes = text.as_bytes();
    let end = span.end.min(bytes.len());
    let mut start = span.start.min(end);
    let mut i = start;
    let emit = |a: usize, b: usize, f: &mut dyn FnMut(Span)| {
        let s = text.get(a..b).unwrap_or("");
        let lead = s.len() - s.trim_start().len();
        let trimmed = s.trim();
        if !trimmed.is_empty() {
            f(Span::new(a + lead, a + lead + trimmed.len()));
        }
    };
    while i < end {
        let b = bytes.get(i).copied().unwrap_or(b' ');
        if b == b'`' {
            i = past_code(bytes, i, end);
            continue;
        }
        if !matches!(b, b'.' | b'!' | b'?') {
            i += 1;
            continue;
        }
        if b == b'?' && answer_after(text, i + 1) {
            // "Staging first? yes": the question and its answer are one.
            i += 1;
            continue;
        }
        if b == b'.' && option_letter(text, start, i) {
            // "B. the standard edition": an option's letter, not a sentence.
            i += 1;
            continue;
        }
        let mut j = i + 1;
        loop {
            let n = closer_len(bytes, j);
            if n == 0 || j + n > end {
                break;
            }
            j += n;
        }
        let at_end = j >= end;
        let space = matches!(bytes.get(j), Some(b' ' | b'\t'));
        if at_end || space {
            let mut k = j;
            while k < end && matches!(bytes.get(k), Some(b' ' | b'\t')) {
                k += 1;
            }
            let lower_next = bytes.get(k).is_some_and(u8::is_ascii_lowercase);
            let abbreviation = b == b'.' && lower_next && abbreviation_before(text, i);
            if at_end || !abbreviation {
                emit(start, j, &mut f);
                start = k;
            }
        }
        i = j;
    }
    if start < end {
        emit(start, end, &mut f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn sentences(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        split_sentences(text, Span::new(0, text.len()), |s| out.push(s.of(text)));
        out
    }

    #[test]
    fn sentences_end_where_they_should() {
        assert_eq!(
            sentences(
                "Per your instruction: \"Stop if lag goes above 60 seconds.\" I checked, e.g. twice. Run `get ... count=1` first! Done?"
            ),
            [
                "Per your instruction: \"Stop if lag goes above 60 seconds.\"",
                "I checked, e.g. twice.",
                "Run `get ... count=1` first!",
                "Done?"
            ]
        );
    }

    #[test]
    fn wrapped_lines_are_one_sentence() {
        let text = "Never restart the\nprimary. Then stop.\nNext line.";
        let mut out = Vec::new();
        read(text, Source::Chat, |u| {
            out.push((u.region, u.span.of(text)))
        });
        assert_eq!(
            out,
            [
                (Region::Operator, "Never restart the\nprimary."),
                (Region::Operator, "Then stop."),
                (Region::Operator, "Next line."),
            ]
        );
    }
}
