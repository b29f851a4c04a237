//! A text as logical lines, in one pass over its bytes.
//!
//! A logical line is a physical line, or one line of a JSON string value
//! (MCP results put whole documents in one string: `"…\n- Squash-merge
//! only.\n…"`), with what does not belong to the text taken off:
//!
//! - the line numbers of a file read (`     7→text`, `7\ttext`) and of
//!   `grep -n` (`docs/x.md:4:text`);
//! - list markers (`- `, `* `, `1. `), heading marks and blockquote marks;
//! - markup tags at either end (`<system-reminder>`), reported as lines of
//!   their own so the harness reader sees them.
//!
//! Code (fenced, indented or code-looking), shell commands (`$ …`) and log
//! lines (starting with a timestamp) are reported as such and never read
//! for rules. Every span is a byte range of the original text on character
//! boundaries: every delimiter is ASCII, and a prefix is taken off only
//! whole.

use crate::entail::scan::Span;

/// What a logical line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LineKind {
    /// Running text.
    Prose,
    /// A list item, its marker taken off.
    Item,
    /// A markdown heading (marks taken off) or a line in bold.
    Heading,
    /// A table row, from its first `|`.
    Row,
    /// Code: a fence, a line in one, an indented or code-looking line.
    Code,
    /// A shell command (`$ …`).
    Command,
    /// A log line: it starts with a timestamp.
    Log,
    /// An opening markup tag; the span is what is between `<` and `>`.
    Open,
    /// A closing markup tag; the span is what is between `</` and `>`.
    Close,
    /// Nothing but whitespace.
    Blank,
}

/// One logical line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Line {
    /// Its content, prefix and marker taken off, trimmed.
    pub(crate) span: Span,
    /// What it is.
    pub(crate) kind: LineKind,
    /// A line number or `grep` prefix was taken off: the text is a file's.
    pub(crate) prefixed: bool,
    /// Part of a JSON string value.
    pub(crate) json: bool,
}

/// Calls `f` on every logical line of `text`, in order.
pub(crate) fn for_each_line(text: &str, mut f: impl FnMut(Line)) {
    let bytes = text.as_bytes();
    let mut fence = false;
    let mut start = 0;
    loop {
        let end = bytes
            .get(start..)
            .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
            .map_or(bytes.len(), |p| start + p);
        let mut line_end = end;
        if line_end > start && bytes.get(line_end - 1) == Some(&b'\r') {
            line_end -= 1;
        }
        if !fence && is_json_line(bytes, start, line_end) {
            walk_json(text, start, line_end, &mut fence, &mut f);
        } else {
            content(text, start, line_end, &mut fence, false, &mut f);
        }
        if end >= bytes.len() {
            break;
        }
        start = end + 1;
    }
}

fn at(bytes: &[u8], i: usize) -> u8 {
    bytes.get(i).copied().unwrap_or(0)
}

fn skip_spaces(bytes: &[u8], mut i: usize, end: usize) -> usize {
    while i < end && matches!(at(bytes, i), b' ' | b'\t') {
        i += 1;
    }
    i
}

/// A line of JSON: an object or array (`{"…`, `["…`), or a member of a
/// pretty-printed one (`"key": …`).
fn is_json_line(bytes: &[u8], start: usize, end: usize) -> bool {
    let i = skip_spaces(bytes, start, end);
    match at(bytes, i) {
        b'{' => matches!(at(bytes, skip_spaces(bytes, i + 1, end)), b'"' | b'}'),
        b'[' => matches!(
            at(bytes, skip_spaces(bytes, i + 1, end)),
            b'"' | b'{' | b'['
        ),
        b'"' => {
            // `"key": ` with a short key.
            let Some(close) = bytes
                .get(i + 1..end)
                .and_then(|r| r.iter().take(64).position(|&b| b == b'"'))
            else {
                return false;
            };
            at(bytes, skip_spaces(bytes, i + 2 + close, end)) == b':'
        }
        _ => false,
    }
}

/// Reads the string values of a JSON line (keys skipped), each split at
/// its `\n` escapes into logical lines.
fn walk_json(text: &str, start: usize, end: usize, fence: &mut bool, f: &mut impl FnMut(Line)) {
    let bytes = text.as_bytes();
    let mut i = start;
    while i < end {
        if at(bytes, i) != b'"' {
            i += 1;
            continue;
        }
        let s = i + 1;
        let mut j = s;
        while j < end {
            match at(bytes, j) {
                b'\\' => j += 2,
                b'"' => break,
                _ => j += 1,
            }
        }
        let e = j.min(end);
        let after = skip_spaces(bytes, e + 1, end);
        if at(bytes, after) != b':' {
            let mut a = s;
            let mut k = s;
            while k < e {
                if at(bytes, k) == b'\\' {
                    if matches!(at(bytes, k + 1), b'n' | b'r') {
                        content(text, a, k, fence, true, f);
                        a = k + 2;
                    }
                    k += 2;
                } else {
                    k += 1;
                }
            }
            content(text, a.min(e), e, fence, true, f);
            f(Line {
                span: Span::new(e, e),
                kind: LineKind::Blank,
                prefixed: false,
                json: true,
            });
        }
        i = e + 1;
    }
}

/// Takes off a file read's line number (`     7→`, `7\t`) or a `grep -n`
/// prefix (`path:4:`); returns where the text starts.
fn line_prefix(bytes: &[u8], start: usize, end: usize, json: bool) -> Option<usize> {
    let d0 = skip_spaces(bytes, start, end);
    let mut i = d0;
    while i < end && at(bytes, i).is_ascii_digit() {
        i += 1;
    }
    let digits = i - d0;
    if (1..=7).contains(&digits) {
        if bytes.get(i..i + 3) == Some("\u{2192}".as_bytes()) {
            return Some(i + 3);
        }
        if d0 == start && at(bytes, i) == b'\t' {
            return Some(i + 1);
        }
        if json && d0 == start && at(bytes, i) == b'\\' && at(bytes, i + 1) == b't' {
            return Some(i + 2);
        }
        return None;
    }
    // `grep -n`: a path without spaces or colons, then `:digits:`.
    let mut j = start;
    let mut pathy = false;
    while j < end && j - start < 200 {
        match at(bytes, j) {
            b':' => break,
            b' ' | b'\t' | b'"' | b'<' | b'>' => return None,
            b'/' | b'.' => {
                pathy = true;
                j += 1;
            }
            _ => j += 1,
        }
    }
    if !pathy || j == start || at(bytes, j) != b':' {
        return None;
    }
    let mut k = j + 1;
    while k < end && at(bytes, k).is_ascii_digit() {
        k += 1;
    }
    (k > j + 1 && matches!(at(bytes, k), b':' | b'-')).then_some(k + 1)
}

/// `2026-05-02T10:14:03Z`, `2026-05-02 10:14`, `[2026-05-02 …`.
fn starts_with_timestamp(b: &[u8]) -> bool {
    let b = b.strip_prefix(b"[").unwrap_or(b);
    let digit = |i: usize| b.get(i).is_some_and(u8::is_ascii_digit);
    (0..4).all(digit)
        && b.get(4) == Some(&b'-')
        && digit(5)
        && digit(6)
        && b.get(7) == Some(&b'-')
        && digit(8)
        && digit(9)
        && matches!(b.get(10), Some(b'T' | b' '))
        && digit(11)
        && digit(12)
        && b.get(13) == Some(&b':')
}

/// A commit hash and its subject, as `git log --oneline` prints them
/// (`a1b2c3d Gate search behind the flag`): the subject is a commit's, not
/// a rule.
fn starts_with_commit(b: &[u8]) -> bool {
    let n = b
        .iter()
        .take(41)
        .take_while(|c| c.is_ascii_digit() || (b'a'..=b'f').contains(c))
        .count();
    (7..=40).contains(&n)
        && b.get(n) == Some(&b' ')
        && b.get(..n).is_some_and(|h| h.iter().any(u8::is_ascii_digit))
}

/// A markup tag at `i` (`<name …>`, `</name>`, `<name/>`): whether it
/// closes, the span of its inside, and where it ends.
pub(crate) fn tag_at(bytes: &[u8], i: usize, end: usize) -> Option<(bool, Span, usize)> {
    if at(bytes, i) != b'<' {
        return None;
    }
    let close = at(bytes, i + 1) == b'/';
    let name = if close { i + 2 } else { i + 1 };
    if !at(bytes, name).is_ascii_alphabetic() {
        return None;
    }
    let mut j = name;
    while j < end && j - name < 200 {
        match at(bytes, j) {
            b'>' => {
                let mut inner_end = j;
                if at(bytes, inner_end - 1) == b'/' {
                    inner_end -= 1;
                }
                return Some((close, Span::new(name, inner_end), j + 1));
            }
            b'<' | b'\n' => return None,
            _ => j += 1,
        }
    }
    None
}

/// A closing tag that ends the text at `end`: its span and where it starts.
fn closing_tag_before(bytes: &[u8], start: usize, end: usize) -> Option<(Span, usize)> {
    if end <= start || at(bytes, end - 1) != b'>' {
        return None;
    }
    let mut k = end - 1;
    while k > start && end - k < 200 {
        k -= 1;
        if at(bytes, k) == b'<' {
            let (close, inner, after) = tag_at(bytes, k, end)?;
            return (close && after == end).then_some((inner, k));
        }
    }
    None
}

/// A list marker at the start of `b`: its length, with the space after it.
fn list_marker(b: &[u8]) -> Option<usize> {
    let n = match b {
        [b'-' | b'*' | b'+', b' ', ..] => 2,
        [0xE2, 0x80, 0xA2, b' ', ..] => 4,
        _ => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            if (1..=3).contains(&digits)
                && matches!(b.get(digits), Some(b'.' | b')'))
                && b.get(digits + 1) == Some(&b' ')
            {
                digits + 2
            } else {
                return None;
            }
        }
    };
    let rest = b.get(n..).unwrap_or(&[]);
    let checkbox = match rest {
        [b'[', b' ' | b'x' | b'X', b']', b' ', ..] => 4,
        _ => 0,
    };
    Some(n + checkbox)
}

/// A line of a program rather than of prose.
fn looks_like_code(b: &[u8]) -> bool {
    let starts = |p: &[u8]| b.starts_with(p);
    if starts(b"//") || starts(b"/*") || starts(b"#!") || starts(b"#include") || starts(b"#[") {
        return true;
    }
    matches!(b.last(), Some(b'{' | b'}' | b';'))
        && b.iter()
            .any(|c| matches!(c, b'(' | b'=' | b'{' | b'}' | b'[' | b'"'))
}

/// Reads one logical line `start..end`.
fn content(
    text: &str,
    start: usize,
    end: usize,
    fence: &mut bool,
    json: bool,
    f: &mut impl FnMut(Line),
) {
    let bytes = text.as_bytes();
    let mut end = end.min(bytes.len());
    while end > start && at(bytes, end - 1).is_ascii_whitespace() {
        end -= 1;
    }
    let emit = |f: &mut dyn FnMut(Line), a: usize, b: usize, kind: LineKind, prefixed: bool| {
        f(Line {
            span: Span::new(a, b.max(a)),
            kind,
            prefixed,
            json,
        });
    };
    let (mut i, prefixed) = match line_prefix(bytes, start, end, json) {
        Some(p) => (p, true),
        None => (start, false),
    };
    let mut indent = 0;
    while i < end {
        match at(bytes, i) {
            b' ' => indent += 1,
            b'\t' => indent += 4,
            _ => break,
        }
        i += 1;
    }
    if i >= end {
        emit(f, i, i, LineKind::Blank, prefixed);
        return;
    }
    let rest = bytes.get(i..end).unwrap_or(&[]);
    if rest.starts_with(b"```") || rest.starts_with(b"~~~") {
        *fence = !*fence;
        emit(f, i, end, LineKind::Code, prefixed);
        return;
    }
    if *fence {
        emit(f, i, end, LineKind::Code, prefixed);
        return;
    }
    if starts_with_timestamp(rest) || starts_with_commit(rest) {
        emit(f, i, end, LineKind::Log, prefixed);
        return;
    }
    if rest == b"$" || rest.starts_with(b"$ ") {
        emit(f, i, end, LineKind::Command, prefixed);
        return;
    }
    // Tags at the start, each a line of its own.
    while let Some((close, inner, after)) = tag_at(bytes, i, end) {
        let kind = if close {
            LineKind::Close
        } else {
            LineKind::Open
        };
        emit(f, inner.start, inner.end, kind, prefixed);
        i = skip_spaces(bytes, after, end);
    }
    if i >= end {
        return;
    }
    // Closing tags at the end, reported after the content.
    let mut tails: [Option<Span>; 4] = [None; 4];
    for slot in &mut tails {
        let Some((inner, tag_start)) = closing_tag_before(bytes, i, end) else {
            break;
        };
        *slot = Some(inner);
        end = tag_start;
        while end > i && at(bytes, end - 1).is_ascii_whitespace() {
            end -= 1;
        }
    }
    if i < end {
        let mut rest = bytes.get(i..end).unwrap_or(&[]);
        if rest.starts_with(b"> ") {
            i = skip_spaces(bytes, i + 1, end);
            rest = bytes.get(i..end).unwrap_or(&[]);
        }
        let kind = if rest.first() == Some(&b'|') {
            LineKind::Row
        } else if let Some(m) = list_marker(rest) {
            i += m;
            LineKind::Item
        } else if rest.first() == Some(&b'#') {
            let hashes = rest.iter().take_while(|c| **c == b'#').count();
            if rest.get(hashes) == Some(&b' ') || hashes == rest.len() {
                i = skip_spaces(bytes, i + hashes, end);
                LineKind::Heading
            } else {
                LineKind::Prose
            }
        } else if rest.len() > 4 && rest.starts_with(b"**") && rest.ends_with(b"**") {
            LineKind::Heading
        } else if indent >= 4 || looks_like_code(rest) {
            LineKind::Code
        } else {
            LineKind::Prose
        };
        emit(f, i, end, kind, prefixed);
    }
    for inner in tails.iter().flatten() {
        emit(f, inner.start, inner.end, LineKind::Close, prefixed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn lines(text: &str) -> Vec<(LineKind, &str)> {
        let mut out = Vec::new();
        for_each_line(text, |l| {
            if l.kind != LineKind::Blank {
                out.push((l.kind, l.span.of(text)));
            }
        });
        out
    }

    #[test]
    fn prefixes_markers_and_tags_come_off() {
        use LineKind::*;
        let text = "     7→- Never edit rows directly.\n12\tAt most one stack per PR.\ndocs/a.md:4:Backups MUST be encrypted.\n<system-reminder>\nAs you answer:\n</system-reminder>\n<cwd>/srv</cwd>\n| a | b |\n## Hard rules\n$ cat AGENTS.md\n2026-05-02T10:14:03Z Run make test\na1b2c3d Never retry on 4xx\n```\nnever = 1;\n```\n    indented code";
        assert_eq!(
            lines(text),
            [
                (Item, "Never edit rows directly."),
                (Prose, "At most one stack per PR."),
                (Prose, "Backups MUST be encrypted."),
                (Open, "system-reminder"),
                (Prose, "As you answer:"),
                (Close, "system-reminder"),
                (Open, "cwd"),
                (Prose, "/srv"),
                (Close, "cwd"),
                (Row, "| a | b |"),
                (Heading, "Hard rules"),
                (Command, "$ cat AGENTS.md"),
                (Log, "2026-05-02T10:14:03Z Run make test"),
                (Log, "a1b2c3d Never retry on 4xx"),
                (Code, "```"),
                (Code, "never = 1;"),
                (Code, "```"),
                (Code, "indented code"),
            ]
        );
    }

    #[test]
    fn json_string_values_are_lines() {
        use LineKind::*;
        let text = r###"{"path":"CONTRIBUTING.md","content":"## Pull requests\n- Squash-merge only.\n"}"###;
        assert_eq!(
            lines(text),
            [
                (Prose, "CONTRIBUTING.md"),
                (Heading, "Pull requests"),
                (Item, "Squash-merge only."),
            ]
        );
    }

    #[test]
    fn any_bytes_are_read_without_panicking() {
        for text in [
            "\"",
            "{\"",
            "{\"a\":\"\\",
            "<",
            "</",
            "<a",
            "1\u{2192}",
            "1\u{2192}",
            "x:1:",
            "| ",
            "- ",
            "\u{2022} ",
            "**",
            "#",
            "[\"\\n\\",
            "é\u{2192}ü<é>",
        ] {
            let _ = lines(text);
        }
    }
}
