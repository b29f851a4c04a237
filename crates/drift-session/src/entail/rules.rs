//! Reading a sentence for its force: is it a rule, a reason, a rejection;
//! what does it forbid; what is it about (its terms); and does another
//! sentence say the same or break it.
//!
//! All of it works on [`Token`]s and word lists; nothing here knows what a
//! transcript or a summary is.

use alloc::string::String;
use alloc::vec::Vec;

use serde::Serialize;

use super::lexicon::{self, Family};
use super::scan::{EntityKind, Token, is, is_any, word};
use super::support::Support;

/// What makes a sentence a rule ("constraint"): the cue the audit found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RuleCue {
    /// "never …"
    Never,
    /// "do not …", "don't …", "should not …" at the head of a clause.
    DoNot,
    /// "must …", "must not …", "… is required".
    Must,
    /// "only …" as an instruction ("only touch src/").
    Only,
    /// "without" naming a safeguard ("without an approver").
    Without,
    /// "freeze", "frozen".
    Freeze,
    /// "always …"
    Always,
    /// "forbidden", "prohibited", "not allowed", "may not".
    Forbidden,
    /// "except …", "unless …" opening a clause (a carve-out).
    Except,
}

impl RuleCue {
    /// The cue as a person would quote it.
    pub const fn label(self) -> &'static str {
        match self {
            RuleCue::Never => "never",
            RuleCue::DoNot => "do not",
            RuleCue::Must => "must",
            RuleCue::Only => "only",
            RuleCue::Without => "without",
            RuleCue::Freeze => "freeze",
            RuleCue::Always => "always",
            RuleCue::Forbidden => "forbidden",
            RuleCue::Except => "except",
        }
    }
}

/// Why-and-why-not content that summaries drop first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ReasoningKind {
    /// The reason for a decision ("because the tooling needs advisory locks").
    Rationale,
    /// An option that was ruled out ("MySQL rejected").
    RejectedOption,
}

impl ReasoningKind {
    /// "rationale" or "rejected option".
    pub const fn label(self) -> &'static str {
        match self {
            ReasoningKind::Rationale => "rationale",
            ReasoningKind::RejectedOption => "rejected option",
        }
    }
}

fn stem_of(t: Option<&Token<'_>>) -> Option<String> {
    word(t).map(lexicon::stem)
}

/// Subjects after which "must", "always" or "do not" describe rather than
/// instruct ("it must be the cache", "I don't know").
const DESCRIPTIVE_SUBJECTS: &[&str] = &["i", "it", "that", "there", "this", "what", "which"];

/// Words before "only" that make it an instruction.
const ONLY_LEADS: &[&str] = &[
    "can", "may", "must", "please", "should", "to", "we", "will", "you",
];

/// Words before "do not" that keep it an instruction.
const DO_NOT_LEADS: &[&str] = &[
    "agents", "and", "but", "just", "please", "so", "then", "we", "you",
];

/// What "without" must name to make a rule: a safeguard (by stem).
const SAFEGUARDS: &[&str] = &[
    "ack",
    "approval",
    "ask",
    "backup",
    "canary",
    "check",
    "confirm",
    "confirmation",
    "consent",
    "dry",
    "flag",
    "lgtm",
    "lock",
    "oncall",
    "owner",
    "permission",
    "plan",
    "review",
    "reviewer",
    "sign",
    "test",
    "ticket",
];

/// "been", "run", "crashed": a participle after "must have" makes it a
/// guess about the past.
fn perfect(t: Option<&Token<'_>>) -> bool {
    word(t).is_some_and(|w| {
        let w = w.to_ascii_lowercase();
        w == "been" || w.ends_with("ed") || w.ends_with("en") || lexicon::family(&w).is_some()
    })
}

/// The first rule cue of a sentence, strictly read (for the text that was
/// compacted), and the index of its token.
pub(crate) fn rule_cue(tokens: &[Token<'_>]) -> Option<(RuleCue, usize)> {
    let diagnostic = tokens.iter().take(3).any(|t| {
        t.clause_start && (is_any(Some(t), lexicon::DIAGNOSTIC_HEADS) || is(Some(t), "note"))
    });
    if diagnostic {
        return None;
    }
    for (i, t) in tokens.iter().enumerate() {
        let Some(w) = word(Some(t)) else {
            continue;
        };
        // Every cue starts with one of these letters and is short: skip the
        // rest without lowercasing them.
        let first = w.bytes().next().unwrap_or(b' ').to_ascii_lowercase();
        if w.len() > 10 || !b"abeflmnoprsuw".contains(&first) {
            continue;
        }
        let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
        let prev2 = i.checked_sub(2).and_then(|p| tokens.get(p));
        let next = tokens.get(i + 1);
        let lower = w.to_ascii_lowercase();
        let cue = match lower.as_str() {
            "never" if !is(next, "mind") => Some(RuleCue::Never),
            "not" => {
                let do_not = is_any(prev, &["do", "does"])
                    && (prev.is_some_and(|p| p.clause_start) || is_any(prev2, DO_NOT_LEADS));
                let should_not = is(prev, "should") && !is_any(prev2, DESCRIPTIVE_SUBJECTS);
                if do_not || should_not {
                    Some(RuleCue::DoNot)
                } else if is(prev, "may") || is_any(next, &["allowed", "permitted"]) {
                    Some(RuleCue::Forbidden)
                } else {
                    None
                }
            }
            // "must have been" guesses; "must have a doc comment" rules.
            "must" | "shall"
                if !is_any(prev, DESCRIPTIVE_SUBJECTS)
                    && (!is(next, "have") || !perfect(tokens.get(i + 2))) =>
            {
                Some(RuleCue::Must)
            }
            "required" if is_any(prev, &["is", "are"]) => Some(RuleCue::Must),
            "only"
                if (t.clause_start || is_any(prev, ONLY_LEADS))
                    && !is_any(prev, &["not", "if"]) =>
            {
                Some(RuleCue::Only)
            }
            "without" => {
                let guarded = tokens.iter().skip(i + 1).take(4).any(|n| match n.entity {
                    None => SAFEGUARDS.contains(&lexicon::stem(n.text).as_str()),
                    Some(_) => n.text.to_ascii_lowercase().contains("dry-run"),
                });
                (guarded || t.clause_start).then_some(RuleCue::Without)
            }
            "always" if !is_any(prev, DESCRIPTIVE_SUBJECTS) => Some(RuleCue::Always),
            "forbidden" | "prohibited" | "banned" => Some(RuleCue::Forbidden),
            "limits" if is(prev, "off") => Some(RuleCue::Forbidden),
            "except" => Some(RuleCue::Except),
            "unless" if t.clause_start => Some(RuleCue::Except),
            _ if lower.starts_with("freez") || lower.starts_with("froz") => Some(RuleCue::Freeze),
            _ => None,
        };
        if let Some(cue) = cue {
            return Some((cue, i));
        }
    }
    None
}

/// Words (by stem) that mark a rejection in a summary ("MySQL ruled out",
/// "Postgres over MySQL", "not Redis").
const REJECTION_MARKS: &[&str] = &[
    "abandon", "against", "avoid", "discard", "dismiss", "drop", "exclud", "instead", "never",
    "no", "not", "out", "over", "rather", "reject", "unlik", "veto", "vs", "without",
];

/// Whether the tokens mark something as rejected.
pub(crate) fn rejection_mark(tokens: &[Token<'_>]) -> bool {
    tokens.iter().any(|t| {
        t.entity.is_none() && {
            let s = lexicon::stem(t.text);
            REJECTION_MARKS.binary_search(&s.as_str()).is_ok()
        }
    })
}

/// A reason or rejection found in a sentence: its kind and the token range
/// that holds what must survive (the reason, the rejected option).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Reasoning {
    pub(crate) kind: ReasoningKind,
    /// The cue's first token and how many tokens it has.
    pub(crate) cue: usize,
    pub(crate) cue_len: usize,
    pub(crate) from: usize,
    pub(crate) to: usize,
}

impl Reasoning {
    /// What must survive: the terms of `from..to` without the cue itself.
    pub(crate) fn terms(&self, tokens: &[Token<'_>]) -> Terms {
        let cue = self.cue..self.cue + self.cue_len;
        Terms::of_where(tokens, self.from, self.to, |j| !cue.contains(&j))
    }
}

/// The reasons and rejections in a sentence (at most one of each).
pub(crate) fn reasoning(tokens: &[Token<'_>]) -> Vec<Reasoning> {
    let mut out = Vec::new();
    let n = tokens.len();
    let clause_end = |i: usize| {
        (i + 1..n)
            .find(|&j| tokens.get(j).is_some_and(|t| t.clause_start))
            .unwrap_or(n)
    };
    let clause_begin = |i: usize| {
        (0..=i)
            .rev()
            .find(|&j| tokens.get(j).is_some_and(|t| t.clause_start))
            .unwrap_or(0)
    };
    let mut rationale = None;
    let mut rejection = None;
    for i in 0..n {
        let t = tokens.get(i);
        let next = tokens.get(i + 1);
        if rationale.is_none() {
            let since_clause = is(t, "since")
                && is_any(
                    next,
                    &["we", "it", "its", "our", "they", "there", "this", "that"],
                );
            let one = is_any(t, &["because", "otherwise", "rationale", "reason"]) || since_clause;
            let two = (is(t, "so") && is(next, "that"))
                || (is(t, "due") && is(next, "to"))
                || (is(t, "given") && is(next, "that"));
            let three = is(t, "in") && is(next, "order") && is(tokens.get(i + 2), "to");
            let after = if one {
                Some(i + 1)
            } else if two {
                Some(i + 2)
            } else if three {
                Some(i + 3)
            } else {
                None
            };
            if let Some(from) = after {
                rationale = Some(Reasoning {
                    kind: ReasoningKind::Rationale,
                    cue: i,
                    cue_len: from - i,
                    from,
                    to: n,
                });
            }
        }
        if rejection.is_none() {
            // Stem only the words that can be a rejection cue.
            let stem = word(t)
                .filter(|w| {
                    let lower = w.as_bytes().first().map(u8::to_ascii_lowercase);
                    matches!(lower, Some(b'r' | b'd' | b'a' | b'v')) && w.len() >= 4
                })
                .map(lexicon::stem)
                .unwrap_or_default();
            let two = |a: &[&str], b: &str| is_any(t, a) && is(next, b);
            let (cue_len, from, to) = if two(&["instead"], "of") || two(&["rather"], "than") {
                (2, i + 2, clause_end(i))
            } else if matches!(
                stem.as_str(),
                "reject" | "discard" | "abandon" | "dismiss" | "veto"
            ) {
                (1, clause_begin(i), clause_end(i))
            } else if two(&["ruled", "rule", "rules"], "out")
                || two(&["decided", "decide"], "against")
                || two(&["turned"], "down")
            {
                (2, clause_begin(i), clause_end(i))
            } else if is(t, "not") && is(next, "an") && is(tokens.get(i + 2), "option") {
                (3, clause_begin(i), clause_end(i))
            } else {
                (0, 0, 0)
            };
            if cue_len > 0 {
                rejection = Some(Reasoning {
                    kind: ReasoningKind::RejectedOption,
                    cue: i,
                    cue_len,
                    from,
                    to,
                });
            }
        }
    }
    out.extend(rationale);
    out.extend(rejection);
    out
}

/// What a sentence (or part of one) is about: its content stems and its
/// entities.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Terms {
    pub(crate) stems: Vec<String>,
    pub(crate) entities: Vec<(EntityKind, String)>,
}

impl Terms {
    /// The terms of `tokens[from..to]`, without cue words, function words
    /// and trivial numbers.
    pub(crate) fn of(tokens: &[Token<'_>], from: usize, to: usize) -> Terms {
        Terms::of_where(tokens, from, to, |_| true)
    }

    /// As [`Terms::of`], keeping only tokens whose index passes `keep`.
    pub(crate) fn of_where(
        tokens: &[Token<'_>],
        from: usize,
        to: usize,
        keep: impl Fn(usize) -> bool,
    ) -> Terms {
        let mut terms = Terms::default();
        for (i, t) in tokens.iter().enumerate().take(to).skip(from) {
            if !keep(i) {
                continue;
            }
            match t.entity {
                Some(kind) => {
                    let e = super::scan::Entity {
                        kind,
                        text: t.text,
                        span: t.span,
                    };
                    if !e.is_trivial() {
                        let c = e.canonical();
                        if !terms.entities.iter().any(|(k, x)| *k == kind && *x == c) {
                            terms.entities.push((kind, c));
                        }
                    }
                }
                None => {
                    let lower = t.text.to_ascii_lowercase();
                    if lower.chars().count() < 2
                        || lexicon::is_stopword(&lower)
                        || lexicon::is_cue_word(&lower)
                    {
                        continue;
                    }
                    let s = lexicon::stem(&lower);
                    if !terms.stems.contains(&s) {
                        terms.stems.push(s);
                    }
                }
            }
        }
        terms
    }

    /// Whether there is nothing to compare.
    pub(crate) fn is_empty(&self) -> bool {
        self.stems.is_empty() && self.entities.is_empty()
    }

    /// The weighted share of these terms that `bag` has (entities weigh
    /// `entity_weight`, stems 1); 0 when there are no terms.
    pub(crate) fn coverage(&self, bag: &Support, entity_weight: f64) -> f64 {
        self.weighted(bag, entity_weight, false).0
    }

    /// Whether the name `entity` is not in `bag` but every word of it is
    /// ("billing-replica-2" against "the billing replicas"): `bag` names
    /// a wider class the name belongs to.
    pub(crate) fn generalised(kind: EntityKind, entity: &str, bag: &Support) -> bool {
        if kind.is_numeric() || bag.supports(kind, entity) {
            return false;
        }
        let mut parts = entity
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|p| p.len() >= 3 && !p.bytes().any(|b| b.is_ascii_digit()))
            .peekable();
        parts.peek().is_some()
            && parts.all(|p| bag.has_stem(&lexicon::stem(&p.to_ascii_lowercase())))
    }

    /// The weighted share of these terms that `bag` has, a name it only
    /// generalises counting half when `loose`; and whether one did.
    fn weighted(&self, bag: &Support, entity_weight: f64, loose: bool) -> (f64, bool) {
        let mut total = 0.0;
        let mut hit = 0.0;
        let mut wider = false;
        for s in &self.stems {
            total += 1.0;
            if bag.has_stem(s) {
                hit += 1.0;
            }
        }
        for (kind, e) in &self.entities {
            total += entity_weight;
            if bag.supports(*kind, e) {
                hit += entity_weight;
            } else if loose && Terms::generalised(*kind, e, bag) {
                hit += entity_weight / 2.0;
                wider = true;
            }
        }
        (if total > 0.0 { hit / total } else { 0.0 }, wider)
    }

    /// How many terms `bag` has, not counting the stem `except`.
    pub(crate) fn hits(&self, bag: &Support, except: &str) -> usize {
        self.stems
            .iter()
            .filter(|s| s.as_str() != except && bag.has_stem(s))
            .count()
            + self
                .entities
                .iter()
                .filter(|(k, e)| bag.supports(*k, e))
                .count()
    }
}

/// Something a rule forbids: the verbs (by family, or by stem when the verb
/// is in no family), what the rule is about, and the condition that lifts
/// it ("without a dry-run", "until 2026-01-05").
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Prohibition {
    pub(crate) families: Vec<Family>,
    pub(crate) stems: Vec<String>,
    pub(crate) topic: Terms,
    pub(crate) condition: Terms,
}

/// Words after a forbidden verb that keep it forbidden in a claim
/// ("bumping is not allowed", "deploys are on hold", "deploys need
/// approval").
const HELD_AFTER: &[&str] = &[
    "after",
    "banned",
    "block",
    "blocked",
    "defer",
    "deferred",
    "forbidden",
    "frozen",
    "halt",
    "hold",
    "need",
    "needs",
    "not",
    "once",
    "paus",
    "paused",
    "postpon",
    "prohibited",
    "requir",
    "until",
    "wait",
];

/// Words before a verb that negate it in a claim.
/// ("locked for merges", "careful with deletes": not an act either.)
const NEGATORS: &[&str] = &[
    "avoid", "careful", "caution", "lock", "never", "no", "nor", "not", "refus", "stop", "without",
];

/// Words that open a rule's condition.
const CONDITIONS: &[&str] = &["before", "except", "unless", "until", "without"];

/// The prohibitions of one rule sentence.
pub(crate) fn prohibitions(tokens: &[Token<'_>]) -> Vec<Prohibition> {
    let n = tokens.len();
    let condition_at = (0..n).find(|&i| is_any(tokens.get(i), CONDITIONS));
    let mut out = Vec::new();
    for i in 0..n {
        let t = tokens.get(i);
        let prev = i.checked_sub(1).and_then(|p| tokens.get(p));
        let stem = stem_of(t).unwrap_or_default();
        let mut verbs: Vec<usize> = Vec::new();
        let mut families: Vec<Family> = Vec::new();
        if stem == "freez" {
            families.extend(Family::FROZEN);
            verbs.push(i);
        } else if (is(t, "never") && !is(tokens.get(i + 1), "mind"))
            || (is(t, "not")
                && is_any(
                    prev,
                    &[
                        "do", "does", "must", "should", "shall", "may", "will", "can",
                    ],
                ))
        {
            // The verb(s) it governs: up to five words on, within the clause.
            let mut first_plain = None;
            for j in i + 1..n.min(i + 6) {
                let Some(tj) = tokens.get(j) else { break };
                if tj.clause_start || is_any(Some(tj), CONDITIONS) {
                    break;
                }
                if tj.entity.is_some() {
                    continue;
                }
                let s = lexicon::stem(tj.text);
                if let Some(f) = lexicon::family(&s) {
                    families.push(f);
                    verbs.push(j);
                } else if first_plain.is_none()
                    && !lexicon::is_stopword(&tj.text.to_ascii_lowercase())
                    && !is_any(Some(tj), &["ever", "directly", "manually", "yet", "again"])
                {
                    first_plain = Some(j);
                }
            }
            if verbs.is_empty()
                && let Some(j) = first_plain
            {
                verbs.push(j);
            }
            if verbs.is_empty() {
                continue;
            }
            verbs.insert(0, i);
        } else if is(t, "no")
            && let Some(f) = stem_of(tokens.get(i + 1)).and_then(|s| lexicon::family(&s))
        {
            families.push(f);
            verbs.extend([i, i + 1]);
        } else if is_any(t, &["forbidden", "prohibited", "banned"])
            || (is(t, "allowed") && is(prev, "not"))
        {
            let begin = (0..=i)
                .rev()
                .find(|&j| tokens.get(j).is_some_and(|x| x.clause_start))
                .unwrap_or(0);
            for j in begin..i {
                if let Some(f) = stem_of(tokens.get(j)).and_then(|s| lexicon::family(&s)) {
                    families.push(f);
                    verbs.push(j);
                }
            }
            if verbs.is_empty() {
                continue;
            }
            verbs.push(i);
        } else {
            continue;
        }
        let stems: Vec<String> = verbs
            .iter()
            .skip(1)
            .filter_map(|&j| stem_of(tokens.get(j)))
            .filter(|s| lexicon::family(s).is_none())
            .collect();
        let cond_from = condition_at.filter(|&c| c > i);
        let topic_end = cond_from.unwrap_or(n);
        let topic = Terms::of_where(tokens, 0, topic_end, |j| !verbs.contains(&j));
        let condition = match cond_from {
            Some(c) => Terms::of(tokens, c + 1, n),
            None => Terms::default(),
        };
        families.sort_unstable();
        families.dedup();
        out.push(Prohibition {
            families,
            stems,
            topic,
            condition,
        });
    }
    out
}

impl Prohibition {
    /// The index of a claim token that does what this forbids, about the
    /// same topic, not negated and not under the rule's condition.
    pub(crate) fn breach(&self, claim: &[Token<'_>], claim_bag: &Support) -> Option<usize> {
        if !self.condition.is_empty() && self.condition.hits(claim_bag, "") > 0 {
            return None;
        }
        for (j, t) in claim.iter().enumerate() {
            if t.entity.is_some() {
                continue;
            }
            let s = lexicon::stem(t.text);
            let forbidden = lexicon::family(&s).is_some_and(|f| self.families.contains(&f))
                || self.stems.contains(&s);
            if !forbidden || negated(claim, j) {
                continue;
            }
            if self.topic.hits(claim_bag, &s) > 0 {
                return Some(j);
            }
        }
        None
    }
}

/// Whether the verb at `j` is negated or held within its clause.
fn negated(tokens: &[Token<'_>], j: usize) -> bool {
    let begin = (0..=j)
        .rev()
        .find(|&k| tokens.get(k).is_some_and(|x| x.clause_start))
        .unwrap_or(0);
    let before = tokens
        .iter()
        .enumerate()
        .take(j)
        .skip(begin.max(j.saturating_sub(4)));
    for (_, t) in before {
        if t.entity.is_none() && NEGATORS.contains(&lexicon::stem(t.text).as_str()) {
            return true;
        }
    }
    for t in tokens.iter().skip(j + 1).take(3) {
        if t.clause_start {
            break;
        }
        if t.entity.is_none() {
            let lower = t.text.to_ascii_lowercase();
            if HELD_AFTER.contains(&lower.as_str())
                || HELD_AFTER.contains(&lexicon::stem(&lower).as_str())
            {
                return true;
            }
        }
    }
    false
}

/// Two ids that a summary could confuse: both have digits and they differ
/// only in their digits (in at most two places: "t-14" and "t-41",
/// "db-prod-01" and "db-prod-02"), or by one inserted digit ("t-14" and
/// "t-144"). Takes canonical (lowercase) forms.
pub fn lookalike(a: &str, b: &str) -> bool {
    let (x, y) = (a.as_bytes(), b.as_bytes());
    if x == y || !x.iter().any(u8::is_ascii_digit) || !y.iter().any(u8::is_ascii_digit) {
        return false;
    }
    if x.len() == y.len() {
        let mut differ = 0;
        for (p, q) in x.iter().zip(y) {
            if p != q {
                if !(p.is_ascii_digit() && q.is_ascii_digit()) {
                    return false;
                }
                differ += 1;
            }
        }
        return differ <= 2;
    }
    let (long, short) = if x.len() > y.len() { (x, y) } else { (y, x) };
    if long.len() != short.len() + 1 {
        return false;
    }
    let cut = long.iter().zip(short).take_while(|(p, q)| p == q).count();
    long.get(cut).is_some_and(u8::is_ascii_digit) && long.get(cut + 1..) == short.get(cut..)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::scan::{Span, tokens};
    use crate::entail::support::Bag;

    fn toks(text: &str) -> Vec<Token<'_>> {
        tokens(text, Span::new(0, text.len()))
    }

    fn cue(text: &str) -> Option<RuleCue> {
        rule_cue(&toks(text)).map(|(c, _)| c)
    }

    #[test]
    fn tables_are_sorted() {
        assert!(REJECTION_MARKS.windows(2).all(|w| w[0] < w[1]));
    }

    #[test]
    fn rules_and_descriptions() {
        for (text, expected) in [
            (
                "Never restart prod without an approver.",
                Some(RuleCue::Never),
            ),
            (
                "We are still on libfoo 2.3.1, do not bump.",
                Some(RuleCue::DoNot),
            ),
            ("Don't touch the billing tables.", Some(RuleCue::DoNot)),
            ("Migrations must run in a transaction.", Some(RuleCue::Must)),
            ("Only edit files under src/.", Some(RuleCue::Only)),
            ("You may only restart staging.", Some(RuleCue::Only)),
            (
                "Restarting the workers without a canary is how we lost Tuesday.",
                Some(RuleCue::Without),
            ),
            (
                "payments-api is under a change freeze.",
                Some(RuleCue::Freeze),
            ),
            (
                "Force pushes are not allowed on main.",
                Some(RuleCue::Forbidden),
            ),
            (
                "Always run cargo test with --locked.",
                Some(RuleCue::Always),
            ),
            (
                "Rate limits apply to every tenant except acme-corp.",
                Some(RuleCue::Except),
            ),
            ("error: --target must be one of: x86, arm", None),
            ("I don't know why it fails.", None),
            ("It must be the cache.", None),
            (
                "Every public function must have a doc comment.",
                Some(RuleCue::Must),
            ),
            ("The job must have crashed overnight.", None),
            ("It only took three seconds.", None),
            ("Not only that, it also leaks.", None),
            ("The build passed without warnings.", None),
            ("It always fails on Mondays.", None),
        ] {
            assert_eq!(cue(text), expected, "{text}");
        }
    }

    #[test]
    fn reasons_and_rejections() {
        let t = toks(
            "Postgres 14, chosen because the migration tooling requires advisory locks; MySQL rejected.",
        );
        let r = reasoning(&t);
        assert_eq!(r.len(), 2);
        let why = r[0].terms(&t);
        assert!(why.stems.contains(&String::from("advisory")));
        assert_eq!(r[1].kind, ReasoningKind::RejectedOption);
        let what = r[1].terms(&t);
        assert!(what.stems.is_empty());
        assert_eq!(
            what.entities,
            [(EntityKind::Identifier, String::from("mysql"))]
        );
        assert!(reasoning(&toks("Since 2024 the job runs nightly.")).is_empty());
    }

    /// The one prohibition `rule` states.
    fn the_prohibition(rule: &str) -> Prohibition {
        let mut p = prohibitions(&toks(rule));
        assert_eq!(p.len(), 1);
        p.remove(0)
    }

    /// Whether `claim` breaks `p`.
    fn breaks(p: &Prohibition, claim: &str) -> bool {
        let c = toks(claim);
        p.breach(&c, &Bag::of_tokens(&c).support).is_some()
    }

    #[test]
    fn a_negated_instruction_is_broken_by_an_affirmative_claim() {
        let p = the_prohibition("We are still on libfoo 2.3.1, do not bump.");
        assert_eq!(p.families, [Family::Version]);
        for (claim, broken) in [
            (
                "Dependency libfoo was upgraded to 2.4.0 during the refactor.",
                true,
            ),
            ("Next: bump libfoo.", true),
            ("libfoo stays on 2.3.1; it was not bumped.", false),
            ("libfoo must not be upgraded.", false),
            ("The test timeout was bumped to 30s.", false),
        ] {
            assert_eq!(breaks(&p, claim), broken, "{claim}");
        }
    }

    #[test]
    fn a_condition_lifts_the_prohibition() {
        let p = the_prohibition("Never call the payment endpoint without a dry-run flag first.");
        assert!(!breaks(
            &p,
            "Called the payment endpoint with the dry-run flag."
        ));
        assert!(breaks(
            &p,
            "Called the payment endpoint to settle the batch."
        ));
    }

    #[test]
    fn a_freeze_forbids_deploys_of_its_topic() {
        let p = the_prohibition("payments-api is in a change freeze until 2026-01-05.");
        assert!(breaks(&p, "Deployed the payments-api hotfix."));
        assert!(!breaks(&p, "Deployed the search hotfix."));
        assert!(!breaks(&p, "Deploy payments-api on 2026-01-05."));
    }

    #[test]
    fn lookalikes() {
        assert!(lookalike("t-14", "t-41"));
        assert!(lookalike("db-prod-01", "db-prod-02"));
        assert!(lookalike("t-14", "t-144"));
        assert!(!lookalike("t-14", "t-14"));
        assert!(!lookalike("t-14", "x-14"));
        assert!(!lookalike("t-14", "t-2345"));
        assert!(!lookalike("payments-api", "payment-api"));
    }
}
