//! Text into sentences, sentences into words and entities, with byte spans.
//!
//! One pass over the bytes, no regular expressions. Delimiters are ASCII, so
//! every span starts and ends on a character boundary of the original text;
//! non-ASCII characters are letters as far as the scanner is concerned.
//!
//! ```
//! use drift_session::{entail::{EntityKind, entities}};
//!
//! let text = "We are still on libfoo 2.3.1 (see T-14 and src/deps.toml); do not bump.";
//! let found: Vec<(EntityKind, &str)> = entities(text).map(|e| (e.kind, e.text)).collect();
//! assert_eq!(
//!     found,
//!     [
//!         (EntityKind::Version, "2.3.1"),
//!         (EntityKind::Ticket, "T-14"),
//!         (EntityKind::Path, "src/deps.toml"),
//!     ]
//! );
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

/// A byte range `start..end` of a text (end exclusive).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// `start..end`.
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The spanned text, or "" when the span does not fit `text`.
    pub fn of(self, text: &str) -> &str {
        text.get(self.start..self.end).unwrap_or("")
    }

    /// Its length in bytes.
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether it covers nothing.
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }
}

/// What kind of checkable detail an entity is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EntityKind {
    /// A name a program would use: `payments-api`, `db_prod_01`,
    /// `useState`, `--dry-run`, anything in backticks.
    Identifier,
    /// A ticket or issue: `T-14`, `OPS-1203`, `#512`.
    Ticket,
    /// Dotted numbers with three parts or a `v`: `2.3.1`, `v14`, `1.0.0-rc1`.
    Version,
    /// A number: `42`, `13,000`, `0.15`, `13k`, `500ms`, `99%`, `14:00`.
    Number,
    /// An ISO date: `2026-01-05` (a timestamp counts as its day).
    Date,
    /// A file path, file name or URL: `src/lib.rs`, `Cargo.toml`, `/etc/hosts`.
    Path,
}

impl EntityKind {
    /// A short noun for reports ("version").
    pub const fn noun(self) -> &'static str {
        match self {
            EntityKind::Identifier => "identifier",
            EntityKind::Ticket => "ticket",
            EntityKind::Version => "version",
            EntityKind::Number => "number",
            EntityKind::Date => "date",
            EntityKind::Path => "path",
        }
    }

    /// Whether the entity is a value (version, number, date) rather than a name.
    pub const fn is_numeric(self) -> bool {
        matches!(
            self,
            EntityKind::Version | EntityKind::Number | EntityKind::Date
        )
    }
}

/// A sentence: a span, and whether it sits in code (a fenced block or an
/// indented line), where rules are not read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sentence {
    /// Where it is (trimmed, list markers removed).
    pub span: Span,
    /// Inside code.
    pub code: bool,
}

/// One word or entity of a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The word as written, or the expansion of a contraction ("don't" gives
    /// "do" and "not", both spanning "don't").
    pub text: &'a str,
    /// Where it is in the scanned text.
    pub span: Span,
    /// `Some` for an entity.
    pub entity: Option<EntityKind>,
    /// The first token of a clause (after the sentence start, `,`, `;`,
    /// `:`, a dash or a parenthesis).
    pub clause_start: bool,
}

/// The word at `t`, if there is a token there and it is not an entity.
pub(crate) fn word<'a>(t: Option<&Token<'a>>) -> Option<&'a str> {
    t.filter(|t| t.entity.is_none()).map(|t| t.text)
}

/// The token at `t` is the word `w`, in any case.
pub(crate) fn is(t: Option<&Token<'_>>, w: &str) -> bool {
    word(t).is_some_and(|x| x.eq_ignore_ascii_case(w))
}

/// The token at `t` is one of the words `ws`, in any case.
pub(crate) fn is_any(t: Option<&Token<'_>>, ws: &[&str]) -> bool {
    word(t).is_some_and(|x| ws.iter().any(|w| x.eq_ignore_ascii_case(w)))
}

/// An entity found in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entity<'a> {
    /// What it is.
    pub kind: EntityKind,
    /// As written (surrounding punctuation removed).
    pub text: &'a str,
    /// Where.
    pub span: Span,
}

impl Entity<'_> {
    /// The form two mentions are compared in: lowercase; versions without a
    /// leading `v`; numbers without separators, units or currency, with `k`
    /// and `M` multiplied out; paths without a trailing `/`.
    pub fn canonical(&self) -> String {
        canonical(self.kind, self.text)
    }

    /// A single-digit integer ("3 files"): counted, never checked, since
    /// summaries count what a transcript lists.
    pub fn is_trivial(&self) -> bool {
        self.kind == EntityKind::Number && {
            let c = self.canonical();
            c.len() == 1 && c.bytes().all(|b| b.is_ascii_digit())
        }
    }
}

/// Splits `text` into sentences.
///
/// A sentence ends at `.`, `!` or `?` followed by a space (unless a lowercase
/// word follows: "e.g. this"), at a blank line, and at a line break unless
/// the line wraps mid-sentence (it ends in a lowercase letter or comma and
/// the next begins in lowercase). Fenced code blocks and indented lines are
/// one sentence per line, marked `code`.
pub fn sentences(text: &str) -> Vec<Sentence> {
    let mut out = Vec::new();
    let mut fence = false;
    // Start of the prose sentence being built, if any.
    let mut open: Option<usize> = None;
    let mut prev_line_wraps = false;
    let mut offset = 0;
    for raw in text.split_inclusive('\n') {
        let line_start = offset;
        offset += raw.len();
        let line = raw.strip_suffix('\n').unwrap_or(raw);
        let line = line.strip_suffix('\r').unwrap_or(line);
        let trimmed = line.trim_start();
        let is_fence = trimmed.starts_with("```") || trimmed.starts_with("~~~");
        let indented = line.starts_with('\t') || line.starts_with("    ");
        let first = trimmed.bytes().next().unwrap_or(b' ');
        let continues = prev_line_wraps
            && first.is_ascii_lowercase()
            && !is_list_item(trimmed)
            && !starts_with_label(trimmed);
        if is_fence || fence || (indented && !continues) || trimmed.is_empty() {
            if let Some(start) = open.take() {
                push_sentence(&mut out, text, start, line_start, false);
            }
            if is_fence {
                fence = !fence;
            } else if !trimmed.is_empty() {
                push_sentence(&mut out, text, line_start, line_start + line.len(), true);
            }
            prev_line_wraps = false;
            continue;
        }
        if !continues && let Some(start) = open.take() {
            push_sentence(&mut out, text, start, line_start, false);
        }
        let mut start = open.unwrap_or(line_start);
        let bytes = line.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes.get(i).copied().unwrap_or(b' ');
            if matches!(b, b'.' | b'!' | b'?') {
                // Run of closing punctuation after the mark.
                let mut j = i + 1;
                while matches!(bytes.get(j), Some(b'.' | b'!' | b'?' | b'"' | b'\'' | b')')) {
                    j += 1;
                }
                let at_end = j >= bytes.len();
                let space_next = matches!(bytes.get(j), Some(b' ' | b'\t'));
                if at_end || space_next {
                    let mut k = j;
                    while matches!(bytes.get(k), Some(b' ' | b'\t')) {
                        k += 1;
                    }
                    let next = bytes.get(k).copied();
                    let lowercase_next = next.is_some_and(|c| c.is_ascii_lowercase());
                    let abbreviation = b == b'.' && lowercase_next && abbreviation_before(line, i);
                    if at_end || !abbreviation {
                        push_sentence(&mut out, text, start, line_start + j, false);
                        start = line_start + k;
                    }
                }
                i = j;
            } else {
                i += 1;
            }
        }
        let rest = text.get(start..line_start + line.len()).unwrap_or("");
        if rest.trim().is_empty() {
            open = None;
            prev_line_wraps = false;
        } else {
            open = Some(start);
            let last = line.trim_end().bytes().last().unwrap_or(b'.');
            prev_line_wraps = last.is_ascii_lowercase() || last == b',';
        }
    }
    if let Some(start) = open {
        push_sentence(&mut out, text, start, text.len(), false);
    }
    out
}

/// Abbreviations after which a period does not end a sentence when a
/// lowercase word follows ("e.g. this", "approx. twice").
const ABBREVIATIONS: &[&str] = &[
    "al", "approx", "cf", "e.g", "eg", "esp", "etc", "fig", "i.e", "ie", "incl", "max", "min",
    "no", "resp", "vs",
];

/// Whether the word ending at `dot` (the period's index in `line`) is an
/// abbreviation or a single letter (an initial).
pub(crate) fn abbreviation_before(line: &str, dot: usize) -> bool {
    let head = line.get(..dot).unwrap_or("");
    let word = head
        .rsplit(|c: char| c.is_whitespace() || c == '(')
        .next()
        .unwrap_or("");
    let lower = word.to_ascii_lowercase();
    word.chars().count() == 1 || ABBREVIATIONS.binary_search(&lower.as_str()).is_ok()
}

/// "user: …", "note: …": a line that opens with a one-word label.
fn starts_with_label(line: &str) -> bool {
    let word = line
        .bytes()
        .take_while(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'-'))
        .count();
    word > 0 && line.as_bytes().get(word) == Some(&b':')
}

fn is_list_item(line: &str) -> bool {
    let b = line.as_bytes();
    match b {
        [b'-' | b'*' | b'+', b' ', ..] => true,
        [b'#', ..] | [b'>', ..] | [b'|', ..] => true,
        _ => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            digits > 0
                && matches!(b.get(digits), Some(b'.' | b')'))
                && b.get(digits + 1) == Some(&b' ')
        }
    }
}

/// Trims whitespace and a leading list marker, then pushes a non-empty span.
fn push_sentence(out: &mut Vec<Sentence>, text: &str, start: usize, end: usize, code: bool) {
    let Some(s) = text.get(start..end) else {
        return;
    };
    let lead = s.len() - s.trim_start().len();
    let mut a = start + lead;
    let b = start + s.trim_end().len();
    if !code {
        let body = text.get(a..b).unwrap_or("");
        a += list_marker_len(body);
    }
    if a < b {
        out.push(Sentence {
            span: Span::new(a, b),
            code,
        });
    }
}

fn list_marker_len(s: &str) -> usize {
    let b = s.as_bytes();
    let marker = match b {
        [b'-' | b'*' | b'+' | b'>', b' ', ..] => 2,
        [0xE2, 0x80, 0xA2, b' ', ..] => 4, // "• "
        _ => {
            let hashes = b.iter().take_while(|c| **c == b'#').count();
            if hashes > 0 && b.get(hashes) == Some(&b' ') {
                hashes + 1
            } else {
                let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
                if digits > 0
                    && digits < 4
                    && matches!(b.get(digits), Some(b'.' | b')'))
                    && b.get(digits + 1) == Some(&b' ')
                {
                    digits + 2
                } else {
                    0
                }
            }
        }
    };
    let rest = s.get(marker..).unwrap_or("");
    marker + (rest.len() - rest.trim_start().len())
}

/// The words and entities of `text[span]`, spans relative to `text`.
pub fn tokens(text: &str, span: Span) -> Vec<Token<'_>> {
    let mut out = Vec::new();
    for_each_token(text, span, |t| out.push(t));
    out
}

/// Every entity of `text`, in order.
pub fn entities(text: &str) -> impl Iterator<Item = Entity<'_>> {
    let mut found = Vec::new();
    for sentence in sentences(text) {
        for_each_token(text, sentence.span, |t| {
            if let Some(kind) = t.entity {
                found.push(Entity {
                    kind,
                    text: t.text,
                    span: t.span,
                });
            }
        });
    }
    found.into_iter()
}

/// Bytes that end a chunk: whitespace and punctuation that never belongs to
/// an entity.
fn is_separator(b: u8) -> bool {
    b.is_ascii_whitespace()
        || matches!(
            b,
            b',' | b';'
                | b'('
                | b')'
                | b'['
                | b']'
                | b'{'
                | b'}'
                | b'"'
                | b'<'
                | b'>'
                | b'|'
                | b'='
                | b'*'
                | b'!'
                | b'?'
                | b'&'
                | b'^'
                | b'`'
        )
}

/// Calls `f` on every token of `text[span]`, in order.
pub(crate) fn for_each_token<'a>(text: &'a str, span: Span, mut f: impl FnMut(Token<'a>)) {
    let bytes = text.as_bytes();
    let end = span.end.min(bytes.len());
    let mut i = span.start.min(end);
    let mut clause_start = true;
    let mut in_ticks = false;
    while i < end {
        let b = bytes.get(i).copied().unwrap_or(b' ');
        if b == b'`' {
            in_ticks = !in_ticks;
            i += 1;
            continue;
        }
        if is_separator(b) {
            if matches!(b, b',' | b';' | b'(' | b')') {
                clause_start = true;
            }
            i += 1;
            continue;
        }
        // A chunk: up to the next separator, keeping "20,000" whole.
        let start = i;
        while i < end {
            let c = bytes.get(i).copied().unwrap_or(b' ');
            if c == b',' && digit_group_follows(bytes, i) {
                i += 4;
                continue;
            }
            if is_separator(c) {
                break;
            }
            i += 1;
        }
        let ticked = in_ticks
            && start > 0
            && bytes.get(start - 1) == Some(&b'`')
            && bytes.get(i) == Some(&b'`');
        let raw = text.get(start..i).unwrap_or("");
        if !raw.is_empty()
            && raw
                .chars()
                .all(|c| matches!(c, '-' | '\u{2013}' | '\u{2014}'))
        {
            // A dash between clauses ("-", "--", "–", "—").
            clause_start = true;
            continue;
        }
        let (a, b2, ends_clause) = strip_chunk(text, start, i);
        let Some(chunk) = text.get(a..b2) else {
            continue;
        };
        if chunk.is_empty() {
            if ends_clause {
                clause_start = true;
            }
            continue;
        }
        let kind = classify(chunk, ticked);
        match kind {
            Some(kind) => f(Token {
                text: chunk,
                span: Span::new(a, b2),
                entity: Some(kind),
                clause_start,
            }),
            None => words(chunk, a, clause_start, &mut f),
        }
        clause_start = ends_clause;
    }
}

fn digit_group_follows(bytes: &[u8], comma: usize) -> bool {
    comma > 0
        && bytes.get(comma - 1).is_some_and(u8::is_ascii_digit)
        && (1..=3).all(|k| bytes.get(comma + k).is_some_and(u8::is_ascii_digit))
        && !bytes.get(comma + 4).is_some_and(u8::is_ascii_digit)
}

/// Strips punctuation around a chunk (a possessive "'s" too); returns the
/// new bounds and whether a clause ends after it (a trailing `:` or `.`).
fn strip_chunk(text: &str, mut a: usize, mut b: usize) -> (usize, usize, bool) {
    let mut ends_clause = false;
    while a < b {
        let Some(s) = text.get(a..b) else {
            break;
        };
        if s.len() > 2 && (s.ends_with("'s") || s.ends_with("'S")) {
            b -= 2;
            continue;
        }
        if s.len() > 4 && s.ends_with("\u{2019}s") {
            b -= 4;
            continue;
        }
        let Some(last) = s.chars().next_back() else {
            break;
        };
        let strip = if last.is_ascii() {
            matches!(last, '.' | ':' | '\'' | '/' | '\\' | '-')
        } else {
            !last.is_alphanumeric()
        };
        if !strip {
            break;
        }
        if matches!(last, '.' | ':') {
            ends_clause = true;
        }
        b -= last.len_utf8();
    }
    if text
        .get(a..b)
        .is_some_and(|s| s.starts_with("..") && !s.starts_with("../"))
    {
        while text.get(a..b).is_some_and(|s| s.starts_with('.')) {
            a += 1;
        }
    }
    while a < b {
        let Some(first) = text.get(a..b).and_then(|s| s.chars().next()) else {
            break;
        };
        let strip = if first.is_ascii() {
            matches!(first, '\'' | ':')
        } else {
            !first.is_alphanumeric()
        };
        if !strip {
            break;
        }
        a += first.len_utf8();
    }
    (a, b, ends_clause)
}

/// Emits the words of a chunk that is not an entity: runs of letters and
/// digits with inner apostrophes, contractions expanded.
fn words<'a>(chunk: &'a str, offset: usize, mut clause_start: bool, f: &mut impl FnMut(Token<'a>)) {
    let mut iter = chunk.char_indices().peekable();
    while let Some((i, c)) = iter.next() {
        if !is_word_char(c) {
            continue;
        }
        let mut j = i + c.len_utf8();
        while let Some(&(k, d)) = iter.peek() {
            if is_word_char(d) {
                j = k + d.len_utf8();
                iter.next();
            } else if (d == '\'' || d == '\u{2019}')
                && chunk
                    .get(k + d.len_utf8()..)
                    .and_then(|r| r.chars().next())
                    .is_some_and(is_word_char)
            {
                iter.next();
            } else {
                break;
            }
        }
        let word = chunk.get(i..j).unwrap_or("");
        let span = Span::new(offset + i, offset + j);
        let mut emit = |text: &'a str| {
            f(Token {
                text,
                span,
                entity: None,
                clause_start,
            });
            clause_start = false;
        };
        match contraction(word) {
            Some((base, not)) => {
                emit(base);
                if not {
                    emit("not");
                }
            }
            None => emit(word),
        }
    }
}

fn is_word_char(c: char) -> bool {
    c.is_alphanumeric()
}

/// "don't" → ("do", true); "won't" → ("will", true); "cannot" → ("can",
/// true); "it's" → ("it", false).
fn contraction(word: &str) -> Option<(&str, bool)> {
    let apostrophe = word.find(['\'', '\u{2019}']);
    let lower_is = |s: &str| word.eq_ignore_ascii_case(s);
    if lower_is("cannot") {
        return Some(("can", true));
    }
    let at = apostrophe?;
    let head = word.get(..at)?;
    let tail = word.get(at..)?.trim_start_matches(['\'', '\u{2019}']);
    if tail.eq_ignore_ascii_case("t") && head.len() > 1 && head.to_ascii_lowercase().ends_with('n')
    {
        let base = head.get(..head.len() - 1)?;
        let base = if base.eq_ignore_ascii_case("wo") {
            "will"
        } else if base.eq_ignore_ascii_case("ca") {
            "can"
        } else if base.eq_ignore_ascii_case("sha") {
            "shall"
        } else {
            base
        };
        return Some((base, true));
    }
    Some((head, false))
}

/// Decides whether a chunk is an entity, and which.
fn classify(chunk: &str, ticked: bool) -> Option<EntityKind> {
    let b = chunk.as_bytes();
    // Most chunks are plain words: letters, at most an initial capital.
    let plain = b.iter().all(u8::is_ascii_alphabetic)
        && !b
            .windows(2)
            .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase());
    if plain && !ticked {
        return None;
    }
    if chunk.contains("://") {
        return Some(EntityKind::Path);
    }
    if is_date(b) {
        return Some(EntityKind::Date);
    }
    if is_ticket(b) {
        return Some(EntityKind::Ticket);
    }
    if let Some(kind) = numeric(b) {
        return Some(kind);
    }
    if is_path(chunk) {
        return Some(EntityKind::Path);
    }
    if is_identifier(chunk) || (ticked && chunk.bytes().any(|c| c.is_ascii_alphanumeric())) {
        return Some(EntityKind::Identifier);
    }
    None
}

/// `2026-01-05`, or a timestamp on that day (`2026-01-05T10:36:12Z`).
fn is_date(b: &[u8]) -> bool {
    let day = b.len() >= 10
        && b.iter().take(10).enumerate().all(|(i, c)| {
            if i == 4 || i == 7 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        });
    day && match b.get(10) {
        None => true,
        Some(b'T') => b[11..]
            .iter()
            .all(|c| c.is_ascii_digit() || matches!(c, b':' | b'.' | b'Z' | b'+' | b'-')),
        Some(_) => false,
    }
}

/// `T-14`, `OPS-1203`, `#512`.
fn is_ticket(b: &[u8]) -> bool {
    if let [b'#', rest @ ..] = b {
        return !rest.is_empty() && rest.len() <= 7 && rest.iter().all(u8::is_ascii_digit);
    }
    let Some(dash) = b.iter().position(|c| *c == b'-') else {
        return false;
    };
    let (prefix, digits) = (&b[..dash], &b[dash + 1..]);
    !prefix.is_empty()
        && prefix.len() <= 10
        && prefix.first().is_some_and(u8::is_ascii_uppercase)
        && prefix
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        && !digits.is_empty()
        && digits.len() <= 7
        && digits.iter().all(u8::is_ascii_digit)
}

/// Versions and numbers.
fn numeric(b: &[u8]) -> Option<EntityKind> {
    let (body, v) = match b {
        [b'v' | b'V', rest @ ..] if rest.first().is_some_and(u8::is_ascii_digit) => (rest, true),
        _ => (b, false),
    };
    let body = match body {
        [b'$' | b'-' | b'+', rest @ ..] if !v => rest,
        _ => body,
    };
    let body = body.strip_prefix("\u{20AC}".as_bytes()).unwrap_or(body);
    let body = body.strip_prefix("\u{00A3}".as_bytes()).unwrap_or(body);
    if !body.first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    // Dotted numeric parts, then an optional suffix.
    let mut parts = 0;
    let mut i = 0;
    loop {
        let digits = body[i..]
            .iter()
            .take_while(|c| c.is_ascii_digit() || **c == b',')
            .count();
        if digits == 0 {
            return None;
        }
        i += digits;
        parts += 1;
        if body.get(i) == Some(&b'.') && body.get(i + 1).is_some_and(u8::is_ascii_digit) {
            i += 1;
        } else {
            break;
        }
    }
    let suffix = &body[i..];
    if parts >= 3 || v {
        // A pre-release or build suffix: "-rc1", "+build5".
        let ok = suffix.is_empty()
            || (matches!(suffix.first(), Some(b'-' | b'+'))
                && suffix.len() > 1
                && suffix[1..]
                    .iter()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'.' | b'-')));
        return ok.then_some(EntityKind::Version);
    }
    let time = suffix.first() == Some(&b':')
        && suffix.len() == 3
        && suffix[1..].iter().all(u8::is_ascii_digit);
    let unit = suffix.is_empty()
        || time
        || matches!(
            suffix,
            b"%" | b"k"
                | b"K"
                | b"m"
                | b"M"
                | b"b"
                | b"B"
                | b"x"
                | b"ms"
                | b"s"
                | b"h"
                | b"d"
                | b"min"
                | b"kb"
                | b"KB"
                | b"mb"
                | b"MB"
                | b"gb"
                | b"GB"
                | b"tb"
                | b"TB"
                | b"GiB"
                | b"MiB"
                | b"KiB"
                | b"px"
                | b"rpm"
                | b"rps"
                | b"qps"
        );
    unit.then_some(EntityKind::Number)
}

fn is_path(chunk: &str) -> bool {
    let b = chunk.as_bytes();
    if !b.iter().any(|c| matches!(c, b'/' | b'\\' | b'.')) {
        return false;
    }
    if b.contains(&b'\\') && b.iter().any(u8::is_ascii_alphanumeric) {
        return true;
    }
    if b.contains(&b'/') {
        if chunk.starts_with('/')
            || chunk.starts_with("./")
            || chunk.starts_with("../")
            || chunk.starts_with("~/")
        {
            return b.iter().any(u8::is_ascii_alphanumeric);
        }
        let slashes = b.iter().filter(|c| **c == b'/').count();
        let components_ok = chunk.split('/').all(|c| !c.is_empty());
        if !components_ok {
            return false;
        }
        if slashes >= 2 || has_extension(chunk) {
            return true;
        }
        return chunk.split('/').any(|c| {
            c.bytes()
                .any(|x| x.is_ascii_digit() || matches!(x, b'_' | b'.' | b'-' | b'@'))
        });
    }
    // A dotfile: ".env", ".gitignore".
    if let [b'.', rest @ ..] = b {
        return rest.len() >= 2
            && rest
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'));
    }
    has_extension(chunk)
        && chunk
            .bytes()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.' | b'@'))
        && chunk.split('.').filter(|p| p.len() > 1).count() >= 2
}

/// "name.ext": the last dotted part is 1 to 6 letters or digits, starting
/// with a letter, after a name with a letter or digit.
fn has_extension(chunk: &str) -> bool {
    let last = chunk.rsplit('/').next().unwrap_or(chunk);
    let Some((name, ext)) = last.rsplit_once('.') else {
        return false;
    };
    !name.is_empty()
        && name.bytes().any(|c| c.is_ascii_alphanumeric())
        && (1..=6).contains(&ext.len())
        && ext.bytes().next().is_some_and(|c| c.is_ascii_alphabetic())
        && ext.bytes().all(|c| c.is_ascii_alphanumeric())
}

/// Parts of hyphenated English compounds ("follow-up", "read-only",
/// "end-to-end"): a hyphenated word with one of these is a word, not a name.
const COMPOUND_PARTS: &[&str] = &[
    "a", "all", "and", "anti", "as", "at", "back", "based", "best", "by", "check", "co", "cross",
    "de", "down", "dry", "end", "ex", "first", "follow", "free", "full", "half", "hand", "hard",
    "high", "in", "last", "level", "like", "long", "low", "mid", "multi", "non", "of", "off", "on",
    "one", "only", "open", "opt", "or", "out", "over", "per", "point", "post", "pre", "re", "read",
    "real", "right", "safe", "self", "semi", "set", "short", "side", "sign", "so", "soft", "step",
    "sub", "term", "the", "time", "to", "top", "two", "un", "under", "up", "well", "wide", "write",
];

fn is_identifier(chunk: &str) -> bool {
    let b = chunk.as_bytes();
    if !b.iter().any(u8::is_ascii_alphanumeric) {
        return false;
    }
    // Long command-line flags: "--dry-run", "--locked".
    if let [b'-', b'-', rest @ ..] = b {
        return rest.first().is_some_and(u8::is_ascii_alphabetic)
            && rest
                .iter()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'_'));
    }
    if !b
        .first()
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_' || *c == b'@' || *c == b'$')
    {
        return false;
    }
    if b.windows(2).any(|w| w == b"::" || w == b"->") {
        return true;
    }
    let inner_underscore = b
        .windows(3)
        .any(|w| w[1] == b'_' && w[0] != b'_' && w[2] != b'_')
        || (b.first() == Some(&b'_') && b.len() > 1);
    if inner_underscore
        && b.iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'.'))
    {
        return true;
    }
    let name_bytes = b
        .iter()
        .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'-' | b'.' | b'_' | b'@'));
    if !name_bytes {
        return false;
    }
    let letters = b.iter().any(u8::is_ascii_alphabetic);
    let digits = b.iter().any(u8::is_ascii_digit);
    if letters && digits {
        return !is_ordinal(b);
    }
    // camelCase and PascalCase with an inner capital: "useState", "GitHub".
    if b.windows(2)
        .any(|w| w[0].is_ascii_lowercase() && w[1].is_ascii_uppercase())
        && !b.contains(&b'.')
    {
        return true;
    }
    if b.contains(&b'-') && !b.contains(&b'.') {
        let parts: Vec<&str> = chunk.split('-').collect();
        // "follow-up", "read-only", and verbal compounds ("force-pushed",
        // "hard-coding") are words.
        return parts.len() >= 2
            && parts.iter().all(|p| !p.is_empty())
            && !parts.iter().any(|p| {
                let verbal = p.len() > 4
                    && (ends_with_ignore_case(p, "ed") || ends_with_ignore_case(p, "ing"));
                verbal
                    || COMPOUND_PARTS
                        .binary_search_by(|x| cmp_ignore_case(x, p))
                        .is_ok()
            });
    }
    false
}

fn ends_with_ignore_case(s: &str, suffix: &str) -> bool {
    s.len() >= suffix.len()
        && s.as_bytes()[s.len() - suffix.len()..].eq_ignore_ascii_case(suffix.as_bytes())
}

/// Orders a lowercase table entry against any-case text, without allocating.
fn cmp_ignore_case(lower: &str, text: &str) -> core::cmp::Ordering {
    lower
        .bytes()
        .cmp(text.bytes().map(|b| b.to_ascii_lowercase()))
}

fn is_ordinal(b: &[u8]) -> bool {
    let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    digits > 0
        && matches!(
            &b[digits..],
            b"st" | b"nd" | b"rd" | b"th" | b"ST" | b"ND" | b"RD" | b"TH"
        )
}

/// See [`Entity::canonical`].
pub(crate) fn canonical(kind: EntityKind, text: &str) -> String {
    match kind {
        EntityKind::Number => canonical_number(text),
        EntityKind::Version => {
            let t = text.strip_prefix(['v', 'V']).unwrap_or(text);
            t.to_ascii_lowercase()
        }
        // A timestamp is its day.
        EntityKind::Date => String::from(text.get(..10).unwrap_or(text)),
        EntityKind::Path => {
            // "src/lex.rs:40:7" is the file src/lex.rs.
            let mut t = text.trim_end_matches('/');
            for _ in 0..2 {
                if let Some((head, line)) = t.rsplit_once(':')
                    && !line.is_empty()
                    && line.bytes().all(|b| b.is_ascii_digit())
                {
                    t = head;
                }
            }
            t.to_ascii_lowercase()
        }
        _ => text.to_ascii_lowercase(),
    }
}

fn canonical_number(text: &str) -> String {
    let t = text.trim_start_matches(['$', '+']);
    let t = t.strip_prefix('\u{20AC}').unwrap_or(t);
    let t = t.strip_prefix('\u{00A3}').unwrap_or(t);
    let negative = t.starts_with('-');
    let t = t.trim_start_matches('-');
    let numeric_len = t
        .bytes()
        .take_while(|c| c.is_ascii_digit() || matches!(c, b',' | b'.' | b':'))
        .count();
    let (num, unit) = t.split_at(numeric_len.min(t.len()));
    let mut digits: String = num.chars().filter(|c| *c != ',').collect();
    let multiplier = match unit {
        "k" | "K" => 3,
        "M" => 6,
        "B" => 9,
        _ => 0,
    };
    if multiplier > 0 && !digits.contains(['.', ':']) {
        for _ in 0..multiplier {
            digits.push('0');
        }
    }
    let trimmed = if digits.contains(['.', ':']) {
        digits.as_str()
    } else {
        let t = digits.trim_start_matches('0');
        if t.is_empty() { "0" } else { t }
    };
    let mut out = String::with_capacity(trimmed.len() + 1);
    if negative {
        out.push('-');
    }
    out.push_str(trimmed);
    out
}

#[cfg(test)]
mod tests;
