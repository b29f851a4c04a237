//! A clause read for its structure: what it is about (its terms: words,
//! named things and values), whether it forbids, requires or permits, how
//! firmly, and what narrows it (only, an exception, a condition, an
//! approver).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::tables::{
    APPROVAL, CJK_FIRM, CJK_NEGATIONS, CJK_ONLY, CJK_PERMITS, CJK_SOFT, CJK_WORDS, CONDITION,
    EXCEPT, FIRM, FOREIGN, JA_NEGATIONS, LIFTED, NEGATIONS, ONLY, SOFT,
};
use crate::entail::lexicon::{is_stopword, number_word, stem};
use crate::entail::scan::{EntityKind, Span, Token, canonical, tokens};
use crate::rules::model::features::is_unspaced;

/// What a term is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum TermKind {
    /// A content word (by stem).
    Word,
    /// A named thing or value: compared as written (canonical form).
    Value(EntityKind),
    /// Two neighbouring characters of a script written without spaces.
    Pair,
    /// A word inside a named thing (`STAGING_DB_PASSWORD` holds
    /// "password"): aligns, weighs little.
    Part,
}

/// One term of a clause.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Term {
    /// The stem, the canonical value, or the character pair.
    pub(crate) key: String,
    pub(crate) kind: TermKind,
    /// Where it is in the clause's text.
    pub(crate) span: Span,
    /// A word right after a negation ("not", "never", "no", "without"),
    /// in the same clause.
    pub(crate) negated: bool,
    /// Its share of its weight: 1, or less for a word of a rule's reason.
    pub(crate) scale: f64,
    /// After "without" or "unless", in the same clause: what would allow
    /// the act ("don't edit it without asking"), not its object.
    pub(crate) unless: bool,
    /// The groups of [`super::tables::SAME`] its stem is in, one bit each
    /// (so words are compared by a mask).
    pub(crate) groups: u128,
}

impl Term {
    /// A term at full weight, with the groups of synonyms its stem is in.
    pub(crate) fn new(key: String, kind: TermKind, span: Span, negated: bool) -> Term {
        let groups = if matches!(kind, TermKind::Word | TermKind::Part) {
            super::groups_of(&key)
        } else {
            0
        };
        Term {
            key,
            kind,
            span,
            negated,
            scale: 1.0,
            unless: false,
            groups,
        }
    }

    /// How much it weighs in an alignment: named things and values most.
    pub(crate) fn weight(&self) -> f64 {
        self.scale
            * match self.kind {
                TermKind::Value(EntityKind::Number) => 2.0,
                TermKind::Value(_) => 2.5,
                TermKind::Word if self.key.len() >= 7 => 1.3,
                TermKind::Word => 1.0,
                TermKind::Pair => 1.0,
                TermKind::Part => 0.3,
            }
    }
}

/// Whether a clause forbids, requires or permits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Polarity {
    Forbids,
    Requires,
    Permits,
}

/// A clause's structure.
#[derive(Clone, Debug, Default)]
pub(crate) struct Frame {
    pub(crate) terms: Vec<Term>,
    /// Negation words present.
    pub(crate) negations: usize,
    /// Firm words present ("must", "never", "only").
    pub(crate) firm: usize,
    /// Soft words present ("should", "prefer", "avoid").
    pub(crate) soft: usize,
    /// "only" and kin.
    pub(crate) only: bool,
    /// An exception.
    pub(crate) except: bool,
    /// A condition ("if", "until", "before").
    pub(crate) condition: bool,
    /// An approval ("ask", "sign-off").
    pub(crate) approval: bool,
    /// The clause says a rule is lifted ("no longer applies").
    pub(crate) lifted: bool,
    /// Permission words ("may", "can", "allowed", "fine to").
    pub(crate) permits: bool,
    /// "always" or "must".
    pub(crate) always: bool,
    /// "never".
    pub(crate) never: bool,
    /// What is preferred and what rejected, for "X, not Y" / "X instead of
    /// Y" / "X over Y" (term keys).
    pub(crate) prefer: Option<(Vec<String>, Vec<String>)>,
    /// Names written as plain words joined by hyphens ("docker-large"),
    /// lower-case: read as words, compared whole for a changed name.
    pub(crate) compounds: Vec<String>,
    /// Where the clause is in the text it was read from.
    pub(crate) span: Span,
}

fn lower(t: &Token<'_>) -> String {
    t.text.to_lowercase()
}

/// Words that are no content: function words and the cue words a rule's
/// force is made of.
fn is_cue(w: &str) -> bool {
    NEGATIONS.contains(&w)
        || FIRM.contains(&w)
        || matches!(
            w,
            "do" | "dont"
                | "please"
                | "pls"
                | "make"
                | "sure"
                | "you"
                | "we"
                | "us"
                | "our"
                | "should"
                | "would"
                | "could"
                | "can"
                | "may"
                | "will"
                | "shall"
                | "might"
                | "let"
                | "lets"
                | "also"
                | "just"
                | "thing"
                | "things"
                | "stuff"
                | "okay"
                | "ok"
                | "yes"
                | "i"
                | "me"
                | "my"
                | "want"
                | "wants"
                | "like"
                | "need"
                | "user"
                | "users"
                | "explicitly"
                | "asked"
                | "said"
                | "says"
                | "told"
                | "instructed"
                | "requested"
                | "wanted"
                | "agent"
                | "here"
                | "there"
                | "now"
                | "again"
                | "yourself"
                | "itself"
        )
}

/// Reads `text[span]` into a [`Frame`].
pub(crate) fn frame(text: &str, span: Span) -> Frame {
    let toks = elisions(text, tokens(text, span));
    let mut f = Frame {
        span,
        ..Frame::default()
    };
    let words: Vec<String> = toks.iter().map(lower).collect();
    let joined = words.join(" ");
    f.lifted = LIFTED.iter().any(|p| contains_phrase(&joined, p)) || not_needed(&words);
    f.permits = [
        "may",
        "can",
        "allowed",
        "permitted",
        "fine",
        "free",
        "optional",
    ]
    .iter()
    .any(|w| words.iter().any(|x| x == w));
    let mut negate_until_clause = false;
    let mut unless_from: Option<usize> = None;
    // Where the terms of the current clause begin.
    let mut clause_terms = 0;
    let mut unless: Vec<(usize, usize)> = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        // Chinese and Japanese punctuation ends a clause too.
        let cjk_break = i > 0
            && toks.get(i - 1).is_some_and(|p| {
                text.get(p.span.end..t.span.start)
                    .is_some_and(|gap| gap.contains(['，', '；', '：', '、', '。', '！', '？']))
            });
        if t.clause_start || cjk_break {
            negate_until_clause = false;
            clause_terms = f.terms.len();
            if let Some(from) = unless_from.take() {
                unless.push((from, f.terms.len()));
            }
        }
        if t.entity.is_none() && matches!(words[i].as_str(), "without" | "unless") {
            unless_from.get_or_insert(f.terms.len());
        }
        let w = &words[i];
        let mut plain = w.replace('\'', "");
        // A word of a rule in another language reads as its English one.
        if t.entity.is_none() {
            match foreign(&plain) {
                Some("") => continue,
                Some(en) => plain = String::from(en),
                None if !plain.is_ascii() => plain = folded(&plain),
                None => {}
            }
        }
        let under_negation = negate_until_clause;
        if t.entity.is_none() || is_compound(t) {
            if NEGATIONS.contains(&plain.as_str()) {
                f.negations += 1;
                negate_until_clause = true;
            }
            // "instead of X", "rather than X": X is not what is wanted.
            if (plain == "instead" && words.get(i + 1).is_some_and(|w| w == "of"))
                || (plain == "rather" && words.get(i + 1).is_some_and(|w| w == "than"))
            {
                negate_until_clause = true;
            }
            if FIRM.contains(&plain.as_str()) {
                f.firm += 1;
            }
            match plain.as_str() {
                "always" | "must" => f.always = true,
                "never" => f.never = true,
                _ => {}
            }
            // A soft word under a negation is a firm one ("not optional",
            // "none of our jobs may run").
            if SOFT.contains(&plain.as_str()) {
                if under_negation
                    && matches!(plain.as_str(), "optional" | "may" | "might" | "could")
                {
                    f.firm += 1;
                } else {
                    f.soft += 1;
                }
            }
            if ONLY.contains(&plain.as_str()) {
                f.only = true;
            }
            if EXCEPT.contains(&plain.as_str()) && plain != "but" && plain != "other" {
                f.except = true;
            }
            if CONDITION.contains(&plain.as_str()) {
                f.condition = true;
            }
            if APPROVAL.contains(&plain.as_str()) || APPROVAL.contains(&stem(&plain).as_str()) {
                f.approval = true;
            }
        }
        // Terms. A compound of plain words ("force-push", "off-limits") is
        // its words; any other named thing is a value.
        if is_compound(t) {
            f.compounds.push(t.text.to_lowercase());
            for part in t.text.split('-') {
                let mut p = part.to_lowercase();
                match foreign(&p) {
                    Some("") => continue,
                    Some(en) => p = String::from(en),
                    None => {}
                }
                if is_stopword(&p) || is_cue(&p) {
                    continue;
                }
                f.terms.push(Term::new(
                    stem(&p),
                    TermKind::Word,
                    t.span,
                    negate_until_clause,
                ));
            }
            continue;
        }
        // Words written without spaces and joined by slashes ("标准/温暖")
        // are read as words, not as a path.
        let unspaced = t.text.chars().any(is_unspaced);
        if let Some(kind) = t.entity.filter(|_| !unspaced) {
            let key = canonical(kind, t.text);
            // The words inside a named thing ("`kubectl -n prod patch hpa`",
            // "STAGING_DB_PASSWORD"), to align by, at a lower weight.
            if matches!(kind, EntityKind::Identifier | EntityKind::Path) {
                for part in parts_of(t.text) {
                    f.terms.push(Term::new(
                        stem(&part),
                        TermKind::Part,
                        t.span,
                        negate_until_clause,
                    ));
                }
            }
            f.terms.push(Term::new(
                key,
                TermKind::Value(kind),
                t.span,
                negate_until_clause,
            ));
            continue;
        }
        if unspaced {
            let has = |list: &[&str]| list.iter().any(|m| t.text.contains(m));
            if has(CJK_NEGATIONS) {
                f.negations += 1;
                negate_until_clause = true;
                // Japanese puts the negation after the verb and its
                // object: it governs the clause back to its start.
                if has(JA_NEGATIONS) {
                    for term in f.terms.get_mut(clause_terms..).into_iter().flatten() {
                        term.negated = true;
                    }
                }
            }
            if has(CJK_FIRM) {
                f.firm += 1;
            }
            if has(&["必须", "务必", "始终", "总是", "一律", "必ず"]) {
                f.always = true;
            }
            if has(&["永远不", "从不", "绝不", "决不", "絶対に"]) {
                f.never = true;
            }
            if has(CJK_SOFT) {
                f.soft += 1;
            }
            if has(CJK_ONLY) {
                f.only = true;
            }
            if has(CJK_PERMITS) {
                f.permits = true;
            }
            // Latin words written into the unspaced text ("用ascii画出")
            // are words; the rest is read by its characters.
            for (start, end, latin) in script_runs(t.text) {
                let (Some(run), a, b) = (
                    t.text.get(start..end),
                    t.span.start + start,
                    t.span.start + end,
                ) else {
                    continue;
                };
                if latin {
                    let w = run.to_lowercase();
                    if w.len() >= 2 && !is_stopword(&w) && !is_cue(&w) {
                        let numeric = w.bytes().all(|c| c.is_ascii_digit());
                        f.terms.push(Term::new(
                            if numeric { w } else { stem(&w) },
                            if numeric {
                                TermKind::Value(EntityKind::Number)
                            } else {
                                TermKind::Word
                            },
                            Span::new(a, b),
                            negate_until_clause,
                        ));
                    }
                } else {
                    let sub = Token {
                        text: run,
                        span: Span::new(a, b),
                        entity: None,
                        clause_start: false,
                    };
                    pairs(&sub, &mut f.terms, negate_until_clause);
                    cjk_words(&sub, &mut f.terms, negate_until_clause);
                }
            }
            continue;
        }
        if is_stopword(&plain) || is_cue(&plain) || plain.len() < 2 {
            continue;
        }
        // A number the scanner left as a word ("node:20-bookworm"), or
        // written out ("three", "a thousand"; not "one", a pronoun as
        // often as a number).
        let spelled = match plain.as_str() {
            "one" => None,
            "hundred" => Some("100"),
            "thousand" => Some("1000"),
            w => number_word(w),
        };
        let digits = plain.bytes().take_while(u8::is_ascii_digit).count();
        let unit = plain.get(digits..).unwrap_or("");
        let numeric = digits > 0 && unit.len() <= 3 && unit.bytes().all(|b| b.is_ascii_lowercase());
        // A time the scanner cut at its colon ("01:00–03:00"): one value.
        if numeric && unit.is_empty() && plain.len() == 2 {
            let joined = f.terms.last_mut().filter(|last| {
                last.kind == TermKind::Value(EntityKind::Number)
                    && text.get(last.span.end..t.span.start) == Some(":")
                    && last.span.of(text).bytes().all(|b| b.is_ascii_digit())
            });
            if let Some(last) = joined {
                last.key = alloc::format!("{}:{}", last.span.of(text), plain);
                last.span = Span::new(last.span.start, t.span.end);
                continue;
            }
        }
        if numeric || spelled.is_some() {
            f.terms.push(Term::new(
                spelled.map_or_else(|| canonical(EntityKind::Number, &plain), String::from),
                TermKind::Value(EntityKind::Number),
                t.span,
                negate_until_clause,
            ));
            continue;
        }
        f.terms.push(Term::new(
            stem(&plain),
            TermKind::Word,
            t.span,
            negate_until_clause && !NEGATIONS.contains(&plain.as_str()),
        ));
    }
    if let Some(from) = unless_from {
        unless.push((from, f.terms.len()));
    }
    for (from, to) in unless {
        for t in f.terms.get_mut(from..to).into_iter().flatten() {
            t.unless = true;
        }
    }
    f.prefer = preference(text, &toks, &words);
    f
}

/// A compound of plain words ("force-push", "go-ahead"): read as words.
fn is_compound(t: &Token<'_>) -> bool {
    t.entity == Some(EntityKind::Identifier)
        && t.text
            .split('-')
            .all(|p| p.len() > 1 && p.chars().all(char::is_alphabetic))
}

/// The words of a named thing: split at separators and case changes,
/// lower-cased, at least three letters, no pure numbers.
fn parts_of(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    let mut prev_lower = false;
    for c in text.chars() {
        let boundary = !c.is_alphanumeric() || (c.is_uppercase() && prev_lower);
        if boundary && !word.is_empty() {
            out.push(core::mem::take(&mut word));
        }
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        }
        prev_lower = c.is_lowercase();
    }
    if !word.is_empty() {
        out.push(word);
    }
    out.retain(|w| w.len() >= 3 && !w.chars().all(|c| c.is_ascii_digit()) && !is_stopword(w));
    if out.len() <= 1 {
        // A single word is the thing itself.
        out.clear();
    }
    out
}

/// Every pair of neighbouring characters of a token written without
/// spaces (and a lone character as itself).
fn pairs(t: &Token<'_>, out: &mut Vec<Term>, negated: bool) {
    let chars: Vec<(usize, char)> = t.text.char_indices().collect();
    if chars.len() == 1 {
        out.push(Term::new(
            t.text.to_string(),
            TermKind::Pair,
            t.span,
            negated,
        ));
        return;
    }
    for w in chars.windows(2) {
        let (a, ca) = w[0];
        let (_, cb) = w[1];
        let mut key = String::new();
        key.push(ca);
        key.push(cb);
        let start = t.span.start + a;
        out.push(Term::new(
            key,
            TermKind::Pair,
            Span::new(start, start + ca.len_utf8() + cb.len_utf8()),
            negated,
        ));
    }
}

/// French elides an article or pronoun before a vowel ("d'entraînement",
/// "l'API"): the word after the apostrophe, in place of the letter.
fn elisions<'a>(text: &'a str, toks: Vec<Token<'a>>) -> Vec<Token<'a>> {
    toks.into_iter()
        .map(|t| {
            if t.entity.is_some()
                || !matches!(
                    t.text,
                    "d" | "l" | "qu" | "n" | "j" | "s" | "c" | "m" | "D" | "L"
                )
            {
                return t;
            }
            let rest = text.get(t.span.end..).unwrap_or("");
            let Some(after) = rest.strip_prefix(['\'', '’']) else {
                return t;
            };
            let len: usize = after
                .chars()
                .take_while(|c| c.is_alphabetic())
                .map(char::len_utf8)
                .sum();
            let start = t.span.end + (rest.len() - after.len());
            match text.get(start..start + len) {
                Some(word) if len > 0 => Token {
                    text: word,
                    span: Span::new(start, start + len),
                    entity: None,
                    clause_start: t.clause_start,
                },
                _ => t,
            }
        })
        .collect()
}

/// A Latin word without its accents ("démo" → "demo"), so that it meets
/// its English cognate.
fn folded(word: &str) -> String {
    word.chars()
        .map(|c| match c {
            'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' => 'a',
            'ç' => 'c',
            'è' | 'é' | 'ê' | 'ë' => 'e',
            'ì' | 'í' | 'î' | 'ï' => 'i',
            'ñ' => 'n',
            'ò' | 'ó' | 'ô' | 'õ' | 'ö' => 'o',
            'ù' | 'ú' | 'û' | 'ü' => 'u',
            c => c,
        })
        .collect()
}

/// The English word a word of another language stands for ("" for a
/// function word), if the table has it.
fn foreign(word: &str) -> Option<&'static str> {
    FOREIGN
        .binary_search_by(|(k, _)| k.as_bytes().cmp(word.as_bytes()))
        .ok()
        .and_then(|i| FOREIGN.get(i))
        .map(|(_, en)| *en)
}

/// The runs of a token written without spaces: (start, end, Latin), a
/// Latin run being ASCII letters and digits.
fn script_runs(text: &str) -> Vec<(usize, usize, bool)> {
    let mut runs: Vec<(usize, usize, bool)> = Vec::new();
    for (i, c) in text.char_indices() {
        let latin = c.is_ascii_alphanumeric();
        let end = i + c.len_utf8();
        match runs.last_mut() {
            Some(last) if last.2 == latin && last.1 == i => last.1 = end,
            _ => runs.push((i, end, latin)),
        }
    }
    runs
}

/// The weight of a word translated from Chinese or Japanese.
pub(crate) const TRANSLATED: f64 = 0.7;

/// The words of [`CJK_WORDS`] inside a token written without spaces, as
/// English words, longest first at each place: what a rule in Chinese or
/// Japanese says, for a summary in English (and the other way round).
fn cjk_words(t: &Token<'_>, out: &mut Vec<Term>, negated: bool) {
    let text = t.text;
    let mut i = 0;
    while i < text.len() {
        let rest = text.get(i..).unwrap_or("");
        let mut found: Option<(usize, &str)> = None;
        // Entries are at most six characters long.
        for n in (1..=6).rev() {
            let end = rest.char_indices().nth(n).map_or(rest.len(), |(e, _)| e);
            if let Some(en) = rest.get(..end).and_then(cjk_word) {
                found = Some((end, en));
                break;
            }
        }
        match found {
            Some((len, en)) => {
                for w in en.split(' ').filter(|w| !is_stopword(w) && !is_cue(w)) {
                    out.push(Term {
                        // A translation is a guess: it weighs less than a
                        // word written in the rule itself.
                        scale: TRANSLATED,
                        ..Term::new(
                            stem(w),
                            TermKind::Word,
                            Span::new(t.span.start + i, t.span.start + i + len),
                            negated,
                        )
                    });
                }
                i += len;
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
}

fn cjk_word(s: &str) -> Option<&'static str> {
    CJK_WORDS
        .binary_search_by(|(k, _)| k.as_bytes().cmp(s.as_bytes()))
        .ok()
        .and_then(|i| CJK_WORDS.get(i))
        .map(|(_, en)| *en)
}

/// "No review pass is needed", "none of it is required": a requirement
/// said to be none.
fn not_needed(words: &[String]) -> bool {
    words.iter().enumerate().any(|(i, w)| {
        matches!(w.as_str(), "no" | "none" | "nothing")
            && words.iter().enumerate().skip(i + 1).take(8).any(|(j, n)| {
                matches!(n.as_str(), "needed" | "necessary" | "required")
                    && j > 0
                    && words
                        .get(j - 1)
                        .is_some_and(|b| matches!(b.as_str(), "is" | "are" | "be" | "was"))
            })
    })
}

fn contains_phrase(joined: &str, phrase: &str) -> bool {
    let p = phrase.replace('\'', "");
    let j = joined.replace('\'', "");
    j == p
        || j.starts_with(&alloc::format!("{p} "))
        || j.ends_with(&alloc::format!(" {p}"))
        || j.contains(&alloc::format!(" {p} "))
}

/// "X, not Y", "X instead of Y", "X rather than Y", "X over Y", "not Y
/// but X": the terms preferred and rejected.
fn preference(
    text: &str,
    toks: &[Token<'_>],
    words: &[String],
) -> Option<(Vec<String>, Vec<String>)> {
    let key = |t: &Token<'_>, w: &str| -> Option<String> {
        if let Some(kind) = t.entity {
            return Some(canonical(kind, t.text));
        }
        (!is_stopword(w) && !is_cue(w) && w.len() >= 2).then(|| stem(w))
    };
    let side = |range: core::ops::Range<usize>| -> Vec<String> {
        range
            .filter_map(|i| key(&toks[i], &words[i]))
            .collect::<Vec<_>>()
    };
    for i in 0..words.len() {
        let (split, skip) = match words[i].as_str() {
            "instead" if words.get(i + 1).is_some_and(|w| w == "of") => (i, 2),
            "rather" if words.get(i + 1).is_some_and(|w| w == "than") => (i, 2),
            "over" => (i, 1),
            "not" if i > 0 && toks[i].clause_start => (i, 1),
            _ => continue,
        };
        // The two sides: a few words either way, within the clause.
        let before_start = (0..split)
            .rev()
            .find(|&k| toks[k].clause_start)
            .unwrap_or(0);
        let after_end = (split + skip..words.len())
            .find(|&k| k > split + skip && toks[k].clause_start)
            .unwrap_or(words.len());
        // A clause opened by a parenthesis ("use X (X_init) rather than
        // Y") belongs to the one before it.
        let opened_by_paren = |k: usize| {
            k > 0
                && toks.get(k - 1).zip(toks.get(k)).is_some_and(|(a, b)| {
                    text.get(a.span.end..b.span.start)
                        .is_some_and(|gap| gap.contains('('))
                })
        };
        let before_start = if opened_by_paren(before_start) {
            (0..before_start)
                .rev()
                .find(|&k| toks[k].clause_start)
                .unwrap_or(0)
        } else {
            before_start
        };
        let before = side(before_start.max(split.saturating_sub(8))..split);
        let after = side(split + skip..after_end.min(split + skip + 6));
        if !before.is_empty() && !after.is_empty() {
            return Some((before, after));
        }
    }
    None
}

impl Frame {
    /// Forbids, requires or permits.
    pub(crate) fn polarity(&self) -> Polarity {
        if self.negations > 0 {
            Polarity::Forbids
        } else if self.permits && self.firm == 0 {
            Polarity::Permits
        } else {
            Polarity::Requires
        }
    }

    /// Said firmly (a firm word, a prohibition or "only"), not only softly.
    pub(crate) fn is_firm(&self) -> bool {
        self.firm > 0 || (self.negations > 0 && self.soft == 0) || self.only
    }

    /// The named things and values.
    pub(crate) fn values(&self) -> impl Iterator<Item = &Term> {
        self.terms
            .iter()
            .filter(|t| matches!(t.kind, TermKind::Value(_)))
    }

    /// The sum of its terms' weights.
    pub(crate) fn weight(&self) -> f64 {
        self.terms.iter().map(Term::weight).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(text: &str) -> Frame {
        frame(text, Span::new(0, text.len()))
    }

    #[test]
    fn a_rule_read_for_its_structure() {
        let r = f("don't bump the chart version in Chart.yaml by hand");
        assert_eq!(r.polarity(), Polarity::Forbids);
        assert!(r.is_firm());
        let keys: Vec<&str> = r.terms.iter().map(|t| t.key.as_str()).collect();
        assert_eq!(
            keys,
            [
                "bump",
                "chart",
                "version",
                "chart",
                "yaml",
                "chart.yaml",
                "hand"
            ]
        );
        assert!(r.terms[0].negated);
        let soft = f("try to avoid bumping the chart version by hand");
        assert!(soft.soft > 0 && soft.firm == 0);
        assert!(!soft.is_firm());
        assert!(f("the $500 cap no longer applies").lifted);
        assert!(f("only touch src/parser").only);
        assert_eq!(
            f("use npm, not pnpm").prefer,
            Some((alloc::vec!["npm".into()], alloc::vec!["pnpm".into()]))
        );
        assert_eq!(
            f("use pnpm instead of npm").prefer,
            Some((alloc::vec!["pnpm".into()], alloc::vec!["npm".into()]))
        );
        let zh = f("风格颜色不要改动");
        assert!(zh.terms.iter().any(|t| t.key == "颜色"));
    }
}
