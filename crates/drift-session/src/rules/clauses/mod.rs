//! Sentences into clauses, clauses into rules.
//!
//! A sentence is cut where one operative clause may end and another begin:
//! at `;`, at a colon after a lead-in ("Constraints from the user: …"), at
//! a dash between clauses, before ", never", ", don't", ", no …", ", and
//! never" and their kin, before ", max N" and ", and" with a subject and a
//! modal of its own ("…, and NDCG@10 must not drop"), before " and leave",
//! " but keep" and the like, and
//! around a quotation or a parenthesis that is a rule of its own
//! (`"Never close anything tagged legal-hold."`, "(max 250 kB gzipped)").
//! Each clause is read on its own ([`super::cues`]); then the clauses are
//! put back together where one only finishes another:
//!
//! - a head takes the clause after its colon or dash ("The sessions cluster
//!   is the exception: it may be flushed …", "Approver: @kmurphy");
//! - a negated clause about "it", "them" or "there" restates a statement
//!   before it ("Scripts under bin/legacy/ are frozen; do not modify
//!   them") — unless that statement is an instruction of its own ("Keep
//!   PDBs as they are; don't patch them");
//! - after "only X", ", not Y" is a scope of its own; elsewhere it belongs
//!   to its clause ("immutable digests, not :latest");
//! - an instruction without a cue beside a rule is an obligation too ("Use
//!   pnpm, never npm or yarn").
//!
//! A sentence with a correction cue ("Correction:", "I meant", "scratch
//! that") is one correction, whole; a terse answer ("force-push: no",
//! "billing: read-only") or a labelled bound or window ("Budget: $200",
//! "Change window: Sat 22:00–02:00") is one rule, whole. "config-only" is
//! one word, not "only". Tables are read cell by cell; a rule in a row
//! starts at the row's first cell (what the row is about), a row above a
//! separator row is a header, and a column that asks whether the agent may
//! act ("agent may change?", "who may restart", "approver", "window") makes
//! each answer a rule: yes or no a scope, a time a window, a person an
//! approval.

use alloc::vec::Vec;

mod joints;
mod merge;
mod terse;

use joints::*;
use merge::*;
use terse::*;

use super::cues::{
    Bits, ClauseReading, Ctx, correction, diagnostic, may_hold_rule, raw_may_hold_rule,
    read_clause_with, token_triggers,
};
use super::read::{Region, UnitKind, past_code, read};
use super::{Rule, RuleForm, Source};
use crate::entail::scan::{Span, Token, for_each_token};

/// Sentences and table cells longer than this are not read (logs,
/// minified data): it also bounds the work one clause can cost, so the
/// finder stays linear in its input whatever the input.
const MAX_SENTENCE: usize = 800;

/// Table rows longer than this are not read.
const MAX_ROW: usize = 4 * MAX_SENTENCE;

/// How a clause is attached to the one before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Joint {
    Start,
    Semicolon,
    Colon,
    Dash,
    Comma,
    /// ", not …" after an "only".
    Not,
    And,
    But,
    Paren,
}

#[derive(Clone, Copy, Debug)]
struct Piece {
    span: Span,
    joint: Joint,
    reading: ClauseReading,
}

/// A rule found, before it is emitted.
#[derive(Clone, Copy, Debug)]
struct Out {
    span: Span,
    form: RuleForm,
    cue: &'static str,
    head: bool,
    only_scope: bool,
    piece: usize,
}

impl Out {
    /// A rule that is neither a head nor a scope by "only".
    fn bare(span: Span, form: RuleForm, cue: &'static str, piece: usize) -> Out {
        Out {
            span,
            form,
            cue,
            head: false,
            only_scope: false,
            piece,
        }
    }
}

/// A table being read: which column asks whether the agent may act.
#[derive(Clone, Copy, Debug)]
struct Table {
    permission: Option<usize>,
    /// The permission column names who decides ("who may restart?",
    /// "approver"): a name there is an approval.
    approver: bool,
}

struct Finder<'t> {
    text: &'t str,
    source: Source,
    out: Vec<Rule>,
    /// The tokens of the sentence or row being read.
    tokens: Vec<Token<'t>>,
    /// The trigger words of each of `tokens`.
    bits: Vec<Bits>,
    /// The tokens of the clause being read.
    piece: Vec<Token<'t>>,
    /// Buffers for cutting a sentence into clauses.
    cuts: Vec<(Span, Joint)>,
    pieces: Vec<Piece>,
    table: Option<Table>,
    /// Skip sentences without any word a cue needs (off only in the test
    /// that shows it changes nothing).
    filter: bool,
    /// The sentence being read recaps the operator's rules.
    recap: bool,
    /// The unit being read is an instruction-only text of the operator's.
    standing: bool,
    /// A bare instruction in the unit being read counts (see
    /// [`Ctx::bare`]).
    bare: bool,
}

/// Every rule clause of `text`.
pub(crate) fn find(text: &str, source: Source) -> Vec<Rule> {
    find_with(text, source, true)
}

fn find_with(text: &str, source: Source, filter: bool) -> Vec<Rule> {
    let mut f = Finder {
        text,
        source,
        out: Vec::new(),
        tokens: Vec::new(),
        bits: Vec::new(),
        piece: Vec::new(),
        cuts: Vec::new(),
        pieces: Vec::new(),
        table: None,
        filter,
        recap: false,
        standing: false,
        bare: true,
    };
    read(text, source, |unit| {
        if unit.region == Region::Harness {
            f.table = None;
            return;
        }
        let quoted = unit.region == Region::Restated;
        f.standing = unit.region == Region::Operator
            && matches!(
                source,
                Source::SystemPrompt | Source::ProjectFile | Source::Skill | Source::HookContext
            );
        // A skill's procedure is its steps; what it stresses (bold) are
        // its rules.
        f.bare = source != Source::Skill || emphasised_line(text, unit.span);
        match unit.kind {
            UnitKind::Heading => {
                f.table = None;
                // A line in bold, in text that only instructs, is stressed
                // when a cue says so ("**不要等待，立即返回控制权**"); a
                // bare title in bold ("**Build Scripts**") is none.
                let line = unit.span.of(text);
                let words = line.split_whitespace().count();
                let unspaced = line.chars().any(super::chat::is_unspaced);
                if f.standing
                    && line.starts_with("**")
                    && line.ends_with("**")
                    && line.len() > 4
                    && (words >= 3 || unspaced)
                {
                    f.bare = false;
                    f.sentence(Span::new(unit.span.start + 2, unit.span.end - 2), quoted);
                }
            }
            UnitKind::Row => f.row(unit.span, quoted),
            UnitKind::Sentence | UnitKind::Item => {
                f.table = None;
                f.sentence(unit.span, quoted);
            }
        }
    });
    // A quotation's rules are found before the rest of their sentence.
    f.out.sort_by_key(|r| (r.span.start, r.span.end));
    f.out
}

/// Whether the line `span` is on has a bold span ("**On failure**, log
/// it. Then stop."), looking at most a few hundred bytes either way.
fn emphasised_line(text: &str, span: Span) -> bool {
    const REACH: usize = 600;
    let bytes = text.as_bytes();
    let from = span.start.saturating_sub(REACH);
    let start = bytes
        .get(from..span.start)
        .and_then(|b| b.iter().rposition(|&c| c == b'\n'))
        .map_or(from, |p| from + p + 1);
    let to = span.end.saturating_add(REACH).min(bytes.len());
    let end = bytes
        .get(span.end..to)
        .and_then(|b| b.iter().position(|&c| c == b'\n'))
        .map_or(to, |p| span.end + p);
    bytes
        .get(start..end)
        .is_some_and(|line| line.windows(2).any(|w| w == b"**"))
}

/// Whether `text[span]` starts with the word `w` (any case).
fn starts_with_word(text: &str, span: Span, w: &str) -> bool {
    let s = span
        .of(text)
        .trim_start_matches(|c: char| !c.is_alphanumeric());
    s.len() >= w.len()
        && s.as_bytes()
            .get(..w.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(w.as_bytes()))
        && !s
            .as_bytes()
            .get(w.len())
            .is_some_and(|b| b.is_ascii_alphanumeric())
}

/// A sentence about rule words rather than a rule: "The words MUST and
/// NEVER follow RFC 2119", "the key words … are to be interpreted …".
fn mentions_keywords(s: &str) -> bool {
    let b = s.as_bytes();
    (0..b.len()).any(|i| {
        let word = b
            .get(i..i + 4)
            .is_some_and(|w| w.eq_ignore_ascii_case(b"word"));
        if !word {
            return false;
        }
        let before = b.get(..i).unwrap_or(&[]);
        let after = b.get(i + 4..).unwrap_or(&[]);
        let ends_before = |p: &[u8]| {
            before.len() >= p.len() && before[before.len() - p.len()..].eq_ignore_ascii_case(p)
        };
        let plural_space = after.starts_with(b" ") || after.starts_with(b"s ");
        plural_space && (ends_before(b"the ") || ends_before(b"key ") || ends_before(b"key"))
    })
}

/// The model recaps the operator's rules: "recapping your constraints:",
/// "as you said", "per your instruction", "to confirm".
fn recaps(s: &str) -> bool {
    let b = s.as_bytes();
    [
        "constraint",
        "your rule",
        "the rules",
        "instruction",
        "you said",
        "you asked",
        "per your",
        "to confirm",
        "recap",
        "as requested",
        "you told me",
        "reminder",
    ]
    .iter()
    .any(|p| {
        b.windows(p.len())
            .any(|w| w.eq_ignore_ascii_case(p.as_bytes()))
    })
}

/// Whether `s` holds the word "only" (not in a compound: "config-only").
fn has_only(s: &str) -> bool {
    s.split(|c: char| !(c.is_ascii_alphabetic() || c == '-'))
        .any(|w| w.eq_ignore_ascii_case("only"))
}

/// Cuts `seg` into clauses.
fn split(text: &str, seg: Span, pieces: &mut Vec<(Span, Joint)>) {
    let bytes = text.as_bytes();
    let end = seg.end.min(bytes.len());
    let first_then = starts_with_word(text, seg, "first") || seg.of(text).contains(", then ");
    let mut start = seg.start;
    let mut joint = Joint::Start;
    let mut cut = |a: usize, b: usize, next: Joint, start: &mut usize, joint: &mut Joint| {
        pieces.push((Span::new(*start, a), *joint));
        *start = b;
        *joint = next;
    };
    let mut i = seg.start;
    let mut depth = 0usize;
    let mut quote = false;
    while i < end {
        let b = at(bytes, i);
        if b == b'`' {
            i = past_code(bytes, i, end);
            continue;
        }
        if b == b'"' {
            quote = !quote;
            i += 1;
            continue;
        }
        if b == 0xE2 && at(bytes, i + 1) == 0x80 && matches!(at(bytes, i + 2), 0x9C | 0x9D) {
            quote = at(bytes, i + 2) == 0x9C;
            i += 3;
            continue;
        }
        if quote {
            i += 1;
            continue;
        }
        match b {
            b'(' | b'[' => depth += 1,
            b')' | b']' => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            b';' => cut(i, i + 1, Joint::Semicolon, &mut start, &mut joint),
            b':' if matches!(at(bytes, i + 1), b' ' | b'\t') || i + 1 >= end => {
                cut(i, i + 1, Joint::Colon, &mut start, &mut joint);
            }
            b' ' => {
                let k = i + 1;
                let dash = match bytes.get(k..).unwrap_or(&[]) {
                    [b'-', b'-', b' ', ..] => 2,
                    [b'-', b' ', ..] => 1,
                    [0xE2, 0x80, 0x93 | 0x94, b' ', ..] => 3,
                    _ => 0,
                };
                if dash > 0 {
                    cut(i, k + dash + 1, Joint::Dash, &mut start, &mut joint);
                    i = k + dash + 1;
                    continue;
                }
                let lower3 = |w: &[u8]| {
                    bytes
                        .get(k..k + w.len())
                        .is_some_and(|h| h.eq_ignore_ascii_case(w))
                };
                // "stop and wait for me" is one step.
                let mut w0 = i;
                while w0 > start && at(bytes, w0 - 1).is_ascii_alphabetic() {
                    w0 -= 1;
                }
                let stop = ["stop", "halt", "pause"].iter().any(|s| {
                    bytes
                        .get(w0..i)
                        .is_some_and(|w| w.eq_ignore_ascii_case(s.as_bytes()))
                });
                if (lower3(b"and ") || lower3(b"but "))
                    && clause_after_and(bytes, k + 4, end)
                    && !stop
                {
                    let j = if lower3(b"and ") {
                        Joint::And
                    } else {
                        Joint::But
                    };
                    cut(i, k + 4, j, &mut start, &mut joint);
                    i = k + 4;
                    continue;
                }
            }
            b',' if !first_then && at(bytes, i + 1) == b' ' => {
                let k = i + 2;
                if clause_after_comma(bytes, k, end) {
                    cut(i, k, Joint::Comma, &mut start, &mut joint);
                    i = k;
                    continue;
                }
                let mut buf = [0u8; 16];
                let (w, _) = word_at(bytes, k, end, &mut buf);
                if w == "not" && has_only(text.get(start..i).unwrap_or("")) {
                    cut(i, k, Joint::Not, &mut start, &mut joint);
                    i = k;
                    continue;
                }
            }
            _ => {}
        }
        i += 1;
    }
    pieces.push((Span::new(start, end), joint));
}

/// `span` without surrounding whitespace and dangling punctuation.
fn trim(text: &str, span: Span) -> Span {
    let s = span.of(text);
    let lead = s.len() - s.trim_start().len();
    let t = s
        .trim()
        .trim_end_matches([',', ';', ':', '-', '\u{2013}', '\u{2014}', ' ']);
    Span::new(span.start + lead, span.start + lead + t.len())
}

/// The length of a reporting frame that opens `s` ("The user said ", "They
/// asked us not to " up to "not"), so that a restated rule is the rule
/// itself ([`super::words::frame_end`]).
fn frame_len(s: &str) -> usize {
    let mut words = [(0usize, ""); 10];
    let mut n = 0;
    let mut at = 0;
    for w in s.split_inclusive(' ').take(10) {
        if let Some(slot) = words.get_mut(n) {
            let t = w
                .trim()
                .trim_matches(|c: char| c.is_ascii_punctuation() && c != '\'');
            let t = t
                .strip_suffix("'s")
                .or_else(|| t.strip_suffix("\u{2019}s"))
                .unwrap_or(t);
            *slot = (at, t);
            n += 1;
        }
        at += w.len();
    }
    let word = |i: usize| words.get(i).filter(|_| i < n).map(|(_, w)| *w);
    super::words::frame_end(word)
        .and_then(|i| words.get(i))
        .map_or(0, |(at, _)| *at)
}

/// Double-quoted stretches of `span`: each inside, and with its marks.
fn quotations(text: &str, span: Span, mut f: impl FnMut(Span, Span)) {
    let bytes = text.as_bytes();
    let end = span.end.min(bytes.len());
    // The open quotation: where its mark starts and its inside starts.
    let mut open: Option<(usize, usize)> = None;
    let mut i = span.start;
    while i < end {
        let b = at(bytes, i);
        if b == b'`' {
            i = past_code(bytes, i, end);
            continue;
        }
        let curly = b == 0xE2 && at(bytes, i + 1) == 0x80;
        let (len, opens, closes) = match b {
            b'"' => (1, open.is_none(), open.is_some()),
            _ if curly && at(bytes, i + 2) == 0x9C => (3, true, false),
            _ if curly && at(bytes, i + 2) == 0x9D => (3, false, true),
            _ => {
                i += 1;
                continue;
            }
        };
        if closes && let Some((mark, inner)) = open.take() {
            f(Span::new(inner, i), Span::new(mark, i + len));
        } else if opens {
            open = Some((i, i + len));
        }
        i += len;
    }
}

impl<'t> Finder<'t> {
    /// Reads the tokens of a sentence or row into `self.tokens`, with the
    /// trigger words of each.
    fn tokenize(&mut self, span: Span) {
        self.tokens.clear();
        self.bits.clear();
        let text = self.text;
        let (tokens, bits) = (&mut self.tokens, &mut self.bits);
        for_each_token(text, span, |t| {
            // "config-only", "only-child": one word, whose "only" marks
            // nothing off ("read-only" is read as such).
            if let Some(last) = tokens.last_mut()
                && last.entity.is_none()
                && t.entity.is_none()
                && t.span.start == last.span.end + 1
                && text.as_bytes().get(last.span.end) == Some(&b'-')
                && (t.text.eq_ignore_ascii_case("only") || last.text.eq_ignore_ascii_case("only"))
                && let Some(word) = text.get(last.span.start..t.span.end)
            {
                last.text = word;
                last.span.end = t.span.end;
                if let Some(b) = bits.last_mut() {
                    *b = token_triggers(last);
                }
                return;
            }
            bits.push(token_triggers(&t));
            tokens.push(t);
        });
    }

    fn ctx(&self, question: bool) -> Ctx {
        Ctx {
            assistant: self.source == Source::Assistant,
            question,
            guards: self.filter,
            recap: self.recap,
            standing: self.standing,
            bare: self.bare,
        }
    }

    /// Reads the clause `span` of the unit whose tokens are in
    /// `self.tokens`: its tokens are theirs, the first one opening it.
    fn read_piece(&mut self, span: Span, question: bool) -> ClauseReading {
        let text = self.text;
        let from = self.tokens.partition_point(|t| t.span.start < span.start);
        let to = self.tokens.partition_point(|t| t.span.end <= span.end);
        self.piece.clear();
        if let Some(tokens) = self.tokens.get(from..to.max(from)) {
            self.piece.extend_from_slice(tokens);
        }
        if let Some(first) = self.piece.first_mut() {
            first.clause_start = true;
        }
        let present = self
            .bits
            .get(from..to.max(from))
            .unwrap_or(&[])
            .iter()
            .fold(Bits::default(), |a, b| a.union(*b));
        let contrast = span.of(text).contains(", not ");
        read_clause_with(&self.piece, present, text, self.ctx(question), contrast)
    }

    fn emit(&mut self, outs: &[Out], quoted: bool) {
        for o in outs {
            let mut span = trim(self.text, o.span);
            span.start += frame_len(span.of(self.text));
            if span.is_empty() {
                continue;
            }
            self.out.push(Rule {
                span,
                kind: o.form.kind(),
                form: o.form,
                cue: o.cue,
                quoted,
            });
        }
    }

    fn sentence(&mut self, span: Span, quoted: bool) {
        let text = self.text;
        let s = span.of(text);
        // In a system prompt or a project file a bare instruction is a
        // rule: every sentence is read.
        let filter = self.filter && !self.standing;
        if s.len() > MAX_SENTENCE || (filter && !raw_may_hold_rule(s)) {
            return;
        }
        if diagnostic(s) || mentions_keywords(s) {
            return;
        }
        let question = s
            .trim_end_matches(['"', ')', '\'', '*', '\u{201D}'])
            .ends_with('?');
        self.recap = self.source == Source::Assistant && recaps(s);
        self.tokenize(span);
        let present = self.bits.iter().fold(Bits::default(), |a, b| a.union(*b));
        if filter && !may_hold_rule(present, s) {
            return;
        }
        if self.source != Source::Assistant
            && !question
            && let Some(cue) = correction(&self.tokens, present, text, s.contains(", not "))
        {
            let out = Out::bare(span, RuleForm::Correction, cue, 0);
            self.emit(&[out], quoted);
            return;
        }
        if let Some((form, cue)) = terse(s, self.source) {
            let out = Out::bare(span, form, cue, 0);
            self.emit(&[out], quoted);
            return;
        }
        // Quotations that are rules of their own.
        let mut consumed: [Option<Span>; 8] = [None; 8];
        let mut count = 0;
        let mut regions: [Option<(Span, Span)>; 8] = [None; 8];
        let mut r = 0;
        quotations(text, span, |inner, whole| {
            if let Some(slot) = regions.get_mut(r) {
                *slot = Some((inner, whole));
                r += 1;
            }
        });
        for (inner, whole) in regions.iter().flatten().copied() {
            let words = inner.of(text).split_whitespace().count();
            if words < 3 {
                continue;
            }
            let mut outs = Vec::new();
            self.segment(inner, false, &mut outs);
            if !outs.is_empty() {
                self.emit(&outs, quoted);
                if let Some(slot) = consumed.get_mut(count) {
                    *slot = Some(whole);
                    count += 1;
                }
            }
        }
        let mut start = span.start;
        let mut outs = Vec::new();
        for whole in consumed.iter().flatten().copied() {
            if whole.start > start {
                self.segment(Span::new(start, whole.start), question, &mut outs);
            }
            start = start.max(whole.end);
        }
        if start < span.end {
            self.segment(Span::new(start, span.end), question, &mut outs);
        }
        self.emit(&outs, quoted);
    }

    /// The rules of one stretch of a sentence, appended to `outs`.
    fn segment(&mut self, seg: Span, question: bool, outs: &mut Vec<Out>) {
        let text = self.text;
        let mut cuts = core::mem::take(&mut self.cuts);
        let mut pieces = core::mem::take(&mut self.pieces);
        cuts.clear();
        pieces.clear();
        split(text, seg, &mut cuts);
        for &(span, joint) in &cuts {
            let span = trim(text, span);
            if span.is_empty() {
                continue;
            }
            let reading = self.read_piece(span, question);
            // A parenthesis that is a rule of its own.
            let mut piece_span = span;
            if let Some(paren) = self.parenthesis(span, question) {
                let after = text.get(paren.1.end..span.end).unwrap_or("");
                if after
                    .trim_matches(|c: char| c.is_ascii_punctuation() || c.is_whitespace())
                    .is_empty()
                {
                    piece_span = trim(text, Span::new(span.start, paren.1.start));
                }
                let reading = if piece_span == span {
                    reading
                } else {
                    self.read_piece(piece_span, question)
                };
                pieces.push(Piece {
                    span: piece_span,
                    joint,
                    reading,
                });
                pieces.push(Piece {
                    span: paren.0,
                    joint: Joint::Paren,
                    reading: paren.2,
                });
                continue;
            }
            pieces.push(Piece {
                span: piece_span,
                joint,
                reading,
            });
        }
        merge(text, &pieces, outs);
        self.cuts = cuts;
        self.pieces = pieces;
    }

    /// The first parenthesis in `span` whose inside is a rule: its inside,
    /// its whole and the reading.
    fn parenthesis(&mut self, span: Span, question: bool) -> Option<(Span, Span, ClauseReading)> {
        let s = span.of(self.text);
        let open = s.find('(')?;
        let close = open + s.get(open..)?.find(')')?;
        let inner = Span::new(span.start + open + 1, span.start + close);
        if inner.of(self.text).split_whitespace().count() < 2 {
            return None;
        }
        let reading = self.read_piece(inner, question);
        let strong = reading.rule.is_some_and(|(f, _)| {
            matches!(
                f,
                RuleForm::Limit | RuleForm::Prohibition | RuleForm::Approval
            )
        });
        strong.then_some((
            inner,
            Span::new(span.start + open, span.start + close + 1),
            reading,
        ))
    }

    fn row(&mut self, span: Span, quoted: bool) {
        let text = self.text;
        let s = span.of(text);
        if s.len() > MAX_ROW {
            self.table = None;
            return;
        }
        let mut cells: Vec<Span> = Vec::new();
        let mut start = 0;
        let mut ticks = false;
        for (i, b) in s.bytes().enumerate() {
            match b {
                b'`' => ticks = !ticks,
                b'|' if !ticks => {
                    if i > start || start > 0 {
                        cells.push(trim(text, Span::new(span.start + start, span.start + i)));
                    }
                    start = i + 1;
                }
                _ => {}
            }
        }
        if start < s.len() {
            cells.push(trim(text, Span::new(span.start + start, span.end)));
        }
        // A leading `|` leaves an empty first cell.
        if cells.first().is_some_and(|c| c.is_empty()) {
            cells.remove(0);
        }
        let separator = cells
            .iter()
            .all(|c| c.of(text).bytes().all(|b| matches!(b, b'-' | b':' | b' ')));
        if separator {
            return;
        }
        // A row right above a separator row is a header, also in the middle
        // of a text whose earlier table ended without a blank line.
        let header = self.table.is_none() || separator_follows(text, span.end);
        let table = match self.table {
            Some(table) if !header => table,
            _ => {
                let permission = cells.iter().position(|c| {
                    let c = c.of(text).to_ascii_lowercase();
                    c.ends_with('?')
                        || c.contains("may ")
                        || c.contains("allowed")
                        || c.contains("can ")
                        || c.contains("permitted")
                        || c.contains("window")
                        || c.contains("approver")
                        || c.contains("sign-off")
                });
                let approver = permission
                    .and_then(|k| cells.get(k))
                    .map(|c| c.of(text).to_ascii_lowercase())
                    .is_some_and(|c| {
                        c.contains("who")
                            || c.contains("approv")
                            || c.contains("sign-off")
                            || c.contains("by whom")
                    });
                self.table = Some(Table {
                    permission,
                    approver,
                });
                return;
            }
        };
        if self.filter && table.permission.is_none() && !raw_may_hold_rule(s) {
            return;
        }
        self.tokenize(span);
        let present = self.bits.iter().fold(Bits::default(), |a, b| a.union(*b));
        if self.filter && table.permission.is_none() && !may_hold_rule(present, s) {
            return;
        }
        let mut outs: Vec<Out> = Vec::new();
        for (k, cell) in cells.iter().copied().enumerate() {
            if cell.is_empty() {
                continue;
            }
            if Some(k) == table.permission {
                let c = cell.of(text);
                let lower = c.to_ascii_lowercase();
                let answer = ["yes", "no", "read-only", "allowed", "denied", "never"]
                    .into_iter()
                    .find(|a| lower.starts_with(a));
                let timed = lower.contains("hours")
                    || super::words::has_clock(c)
                    || c.split(|ch: char| !ch.is_ascii_alphabetic())
                        .any(super::words::is_time_word);
                if let Some(answer) = answer {
                    outs.push(Out::bare(
                        cell,
                        if timed || lower.contains("only") {
                            RuleForm::Window
                        } else {
                            RuleForm::Scope
                        },
                        answer,
                        k,
                    ));
                    continue;
                }
                // The answer is a time, a person or a condition rather
                // than yes or no: "Sun 02:00–04:00 UTC", "@rkhan", "on-call
                // lead", "staging only".
                let blank = c
                    .trim_matches(|ch: char| ch.is_whitespace() || ch.is_ascii_punctuation())
                    .is_empty()
                    || ["n/a", "none", "tbd", "\u{2014}", "\u{2013}"]
                        .iter()
                        .any(|b| lower == *b);
                if blank {
                    continue;
                }
                let (form, cue) = if timed {
                    (RuleForm::Window, "when")
                } else if table.approver
                    || c.contains('@')
                    || ["sign-off", "approv", "ok from", "go-ahead"]
                        .iter()
                        .any(|w| lower.contains(w))
                {
                    (RuleForm::Approval, "who")
                } else {
                    (RuleForm::Scope, "permission")
                };
                outs.push(Out::bare(cell, form, cue, k));
                continue;
            }
            if cell.len() <= MAX_SENTENCE {
                self.segment(cell, false, &mut outs);
            }
        }
        // A rule about the row's subject starts at the first cell; rules
        // side by side of the same family are one.
        let joins = |f: RuleForm| {
            matches!(
                f,
                RuleForm::Window
                    | RuleForm::Scope
                    | RuleForm::Prohibition
                    | RuleForm::Limit
                    | RuleForm::Obligation
            )
        };
        let mut merged: Vec<Out> = Vec::new();
        for o in outs {
            if let Some(last) = merged.last_mut()
                && joins(last.form)
                && joins(o.form)
            {
                last.span.end = o.span.end;
                continue;
            }
            merged.push(o);
        }
        if let Some(first) = merged.first_mut()
            && (joins(first.form) || Some(first.piece) == table.permission)
            && let Some(key) = cells.first()
            && key.end <= first.span.start
        {
            first.span.start = key.start;
        }
        self.emit(&merged, quoted);
    }
}

#[cfg(test)]
mod tests;
