//! One clause read for a rule: is it one, of what form, and which words
//! decided it.
//!
//! The cues are looked for in a fixed order, the most specific first, so
//! that a clause with several ("never restart X during business hours")
//! takes the form its most telling cue gives it (a window, not a bare
//! prohibition):
//!
//! 1. a binding ("the ticket is X, not Y", "when I say X I mean Y") or an
//!    approver named ("the approver is …");
//! 2. a carve-out that says so ("is the exception", "exempt", "does not
//!    cover", "is not covered by the freeze", "tenant X is excluded");
//! 3. a condition ("if …, stop", "stop if", "until …", "as soon as");
//! 4. a limit ("at most N", "no more than N", "up to N", "within N hours");
//! 5. a permission ("you may", "you can", "is allowed", and in other words:
//!    "… can go", "may be deleted", "is yours to play with", "fair game",
//!    "safe to delete", "you're free to", "hotfixes may skip staging");
//! 6. an approval in the main clause ("needs sign-off from", "must be
//!    reviewed by", "wait for my OK", "the owner approves"), or a gate
//!    lifted ("no approval needed", "doesn't need sign-off": a carve-out);
//! 7. a time window or freeze ("between 14:00 and 16:00", "frozen until");
//! 8. an ordering ("before you X", "X first", "only after", "wait for");
//! 9. a scope ("only on X", "leave X alone", "do not touch X");
//! 10. a prohibition ("never", "do not", "no X", "kill nothing");
//! 11. an obligation ("must", "always", "make sure", "X only", "keep …"),
//!     also a choice of version or tool ("use chart version 4.2.1 for …",
//!     "pin X to 1.7.5") and a convention stated as a fact ("matchmaking
//!     changes ship behind the `mm_v3` flag", "schema changes go through
//!     Atlas", "escalations go to the Tier 2 queue", "deploys require a
//!     green staging run", "the user prefers small PRs"; in text that only
//!     instructs, "replies are written in the customer's language").
//!
//! Before any of that a clause is dropped when it is an idiom ("never
//! mind", "don't worry", "always happy to pair", a login banner's
//! "unauthorized access is prohibited"), experience ("never seen Redis do
//! that"), a question (unless a polite request: "could you please avoid
//! …?"), or the speaker's own plan or state ("I'll …", "we're at …", "I
//! don't think …"). A reporting frame opening the clause ("the user asked
//! that …", "they told us not to …", "we were told to …") is taken off and
//! what it reports is read as the rule. Each cue also checks that it
//! instructs rather than describes: "never" before a past form ("we never
//! had an outage") and a freeze that "was lifted" are history, "only 3 pods
//! are running" is state, "it must be the cache" is an inference (but "it
//! must sit behind the internal load balancer" a rule). In the model's own
//! text, outside a recap, a rule read out of a statement of fact
//! ([`FACT_CUES`]) is its own account, not a rule restated.

use crate::entail::lexicon;
use crate::entail::scan::{EntityKind, Token};

use super::RuleForm;
use super::words::{
    INSISTING, Table, frame_end, has_clock, in_table, is_participle, is_past, is_time_unit,
    is_time_word, verb_entry,
};

mod approvals;
mod bindings;
mod filters;
mod limits;
mod lists;
mod scopes;
#[cfg(test)]
mod tests;
mod triggers;

use lists::*;
#[cfg(test)]
pub(crate) use triggers::triggers;
use triggers::*;
pub(crate) use triggers::{Bits, may_hold_rule, token_triggers};

/// What the clause is read within.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Ctx {
    /// The model's own text: its plans are not rules.
    pub(crate) assistant: bool,
    /// The sentence is a question.
    pub(crate) question: bool,
    /// Look for a cue only where its words are (off only in the test that
    /// shows this changes nothing).
    pub(crate) guards: bool,
    /// The sentence recaps the operator's rules ("recapping your
    /// constraints: …", "as you said, …"): the model's "I should …" there
    /// restates a rule rather than plans.
    pub(crate) recap: bool,
    /// Text that only instructs (a system prompt, a project file, a skill,
    /// a hook's output): a bare instruction there is standing.
    pub(crate) standing: bool,
    /// In standing text, a bare instruction without any cue counts only
    /// when this is set: a skill's procedure steps ("Run the validator",
    /// "Save state") are how it works, not its rules; its emphasised lines
    /// and its choices of tool are.
    pub(crate) bare: bool,
}

/// What a clause is.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ClauseReading {
    /// The rule it states, with its cue.
    pub(crate) rule: Option<(RuleForm, &'static str)>,
    /// An instruction's verb, when the clause starts with one.
    pub(crate) imperative: Option<&'static str>,
    /// The speaker's own plan or state.
    pub(crate) plan: bool,
    /// A negated rule about "it", "them", "there" or "that": it restates
    /// the clause before it ("are frozen; do not modify them").
    pub(crate) anaphor: bool,
    /// A scope by "only": a following "not X" is its own scope.
    pub(crate) only_scope: bool,
    /// A head that takes the clause after it as its content ("X is the
    /// exception: …", "… is a content freeze: …", "Approver: …").
    pub(crate) head: bool,
    /// The clause opens as an instruction: a verb, "never", "do not",
    /// "no", "always", "only".
    pub(crate) directive: bool,
}
/// A clause's tokens, read.
struct Clause<'a, 't> {
    t: &'a [Token<'t>],
    text: &'t str,
    /// The first token after the fillers and a reporting frame, once
    /// computed.
    h: usize,
    /// A reporting frame opens the clause ("the user asked that …").
    framed: bool,
    /// The instruction's verb, once computed.
    imp: core::cell::Cell<Option<Option<&'static str>>>,
    /// The trigger words present.
    present: Bits,
}

impl<'a, 't> Clause<'a, 't> {
    fn with(t: &'a [Token<'t>], text: &'t str, present: Bits) -> Clause<'a, 't> {
        let mut c = Clause {
            t,
            text,
            h: 0,
            framed: false,
            imp: core::cell::Cell::new(None),
            present,
        };
        (c.h, c.framed) = c.compute_head();
        c
    }
}

impl<'t> Clause<'_, 't> {
    fn len(&self) -> usize {
        self.t.len()
    }

    /// The word at `i` (not an entity).
    fn word(&self, i: usize) -> Option<&'t str> {
        self.t.get(i).filter(|t| t.entity.is_none()).map(|t| t.text)
    }

    fn is(&self, i: usize, w: &str) -> bool {
        self.word(i).is_some_and(|x| x.eq_ignore_ascii_case(w))
    }

    fn any(&self, i: usize, ws: &[&str]) -> bool {
        self.word(i)
            .is_some_and(|x| ws.iter().any(|w| x.eq_ignore_ascii_case(w)))
    }

    fn entity(&self, i: usize) -> Option<EntityKind> {
        self.t.get(i).and_then(|t| t.entity)
    }

    /// The token as written ("I'll" for the token "I").
    fn raw(&self, i: usize) -> &'t str {
        self.t.get(i).map_or("", |t| t.span.of(self.text))
    }

    fn clause_start(&self, i: usize) -> bool {
        self.t.get(i).is_some_and(|t| t.clause_start)
    }

    /// A past "was" or "were" within the few words from `from`, before
    /// the clause ends: "No other nodes were touched" reports what
    /// happened ("no pods were to be evicted" still rules).
    fn reported_after(&self, from: usize) -> bool {
        (from..(from + 4).min(self.len()))
            .take_while(|&k| k == from || !self.clause_start(k))
            .find(|&k| self.any(k, &["was", "were"]))
            .is_some_and(|k| !self.is(k + 1, "to"))
    }

    /// Words `ws` at `i`, `i + 1`, ….
    fn seq(&self, i: usize, ws: &[&str]) -> bool {
        ws.iter().enumerate().all(|(k, w)| self.is(i + k, w))
    }

    /// The first `i >= from` where `ws` starts.
    fn find_seq(&self, from: usize, ws: &[&str]) -> Option<usize> {
        (from..self.len()).find(|&i| self.seq(i, ws))
    }

    fn find(&self, from: usize, w: &str) -> Option<usize> {
        (from..self.len()).find(|&i| self.is(i, w))
    }

    fn find_any(&self, from: usize, ws: &[&str]) -> Option<usize> {
        (from..self.len()).find(|&i| self.any(i, ws))
    }

    fn has(&self, w: &str) -> bool {
        self.find(0, w).is_some()
    }

    fn any_of(&self, ws: &[&str]) -> bool {
        self.find_any(0, ws).is_some()
    }

    /// `yes` when the word at `i` is one of `ws`, else `no`: a cue named
    /// after the word that gave it.
    fn named(&self, i: usize, ws: &[&str], yes: &'static str, no: &'static str) -> &'static str {
        if self.any(i, ws) { yes } else { no }
    }

    /// The places of the four words after "at least N" at `i` (within the
    /// first `n` tokens), when "at least N" stands there.
    fn after_at_least(&self, i: usize, n: usize) -> Option<core::ops::Range<usize>> {
        (self.seq(i, &["at", "least"]) && self.number(i + 2)).then(|| i + 3..(i + 7).min(n))
    }

    /// A number: digits, a number word, "one".
    fn number(&self, i: usize) -> bool {
        match self.t.get(i) {
            Some(t) => match t.entity {
                Some(EntityKind::Number) => true,
                None => lexicon::number_word(t.text).is_some(),
                Some(EntityKind::Identifier) => {
                    t.text.split_once('-').is_some_and(|(n, unit)| {
                        n.bytes().all(|b| b.is_ascii_digit()) && is_time_unit(unit)
                    }) || scientific(t.text)
                }
                _ => false,
            },
            None => false,
        }
    }

    /// A word inside backticks ("`helm diff`").
    fn ticked(&self, i: usize) -> bool {
        let Some(t) = self.t.get(i) else {
            return false;
        };
        let b = self.text.as_bytes();
        let line_start = self
            .text
            .get(..t.span.start)
            .and_then(|h| h.rfind('\n'))
            .map_or(0, |n| n + 1);
        let start = self.t.first().map_or(0, |f| f.span.start).max(line_start);
        b.get(start..t.span.start)
            .is_some_and(|h| h.iter().filter(|&&c| c == b'`').count() % 2 == 1)
    }

    /// Part of a slashed name the scanner read as words ("apps/web").
    fn slashed(&self, i: usize) -> bool {
        let Some(t) = self.t.get(i) else {
            return false;
        };
        let b = self.text.as_bytes();
        b.get(t.span.end) == Some(&b'/')
            || t.span.start.checked_sub(1).and_then(|p| b.get(p)) == Some(&b'/')
    }

    /// The first token after the fillers ("please", "also", "and" …).
    fn head(&self) -> usize {
        self.h
    }

    fn compute_head(&self) -> (usize, bool) {
        let mut i = 0;
        let mut framed = false;
        loop {
            while i < self.len()
                && (self.word(i).is_some_and(|w| in_table(FILLERS, w)) || self.enumerator(i))
            {
                i += 1;
            }
            // A reporting frame: "the user said (that|to) …", "they asked
            // us not to …", "we were told to …".
            match frame_end(|k| self.word(i + k)) {
                Some(k) if k > 0 => {
                    i += k;
                    framed = true;
                }
                _ => return (i, framed),
            }
        }
    }

    /// An enumerator opening an inline list item: "(1)", "2)", "b)".
    fn enumerator(&self, i: usize) -> bool {
        let Some(t) = self.t.get(i) else {
            return false;
        };
        let short = t.text.len() <= 2
            && (t.entity == Some(EntityKind::Number)
                || (t.text.len() == 1 && t.text.bytes().all(|b| b.is_ascii_lowercase())));
        short && self.text.as_bytes().get(t.span.end) == Some(&b')')
    }

    /// The instruction's verb at `i`: a verb, not followed by a finite
    /// verb that would make it a noun ("Deploy #5521 finished").
    fn verb_at(&self, i: usize) -> Option<&'static str> {
        let t = self.t.get(i)?;
        let v = match t.entity {
            None => verb_entry(t.text)?,
            Some(EntityKind::Identifier) if t.text.contains('-') => verb_entry(t.text)?,
            Some(_) => return None,
        };
        // "Change window for the cutover is …": a noun phrase, not an
        // instruction ("keep it as it is" is one).
        let reach = (i + 1..(i + 8).min(self.len()))
            .take_while(|&k| !self.clause_start(k))
            .take_while(|&k| {
                !self.any(
                    k,
                    &[
                        "that", "if", "when", "whether", "as", "so", "once", "before", "after",
                        "until", "unless", "while", "because", "since",
                    ],
                )
            });
        // Verbs that take a clause ("verify ISR is back to 3") keep it an
        // instruction.
        let takes_clause = in_table(
            &[
                "assert", "check", "confirm", "ensure", "make", "test", "validate", "verify",
            ],
            t.text,
        );
        let copula = reach.clone().any(|k| {
            self.any(k, &["is", "are"])
                && !self.any(
                    k - 1,
                    &["it", "they", "this", "that", "there", "what", "which"],
                )
        });
        if copula && !takes_clause {
            return None;
        }
        let finite = !takes_clause
            && (i + 1..(i + 3).min(self.len())).any(|k| {
                self.any(
                    k,
                    &[
                        "is",
                        "are",
                        "was",
                        "were",
                        "has",
                        "had",
                        "finished",
                        "completed",
                        "failed",
                        "passed",
                        "succeeded",
                        "started",
                        "ran",
                        "took",
                        "look",
                        "looks",
                    ],
                )
            });
        (!finite).then_some(v)
    }

    /// The instruction's verb when the clause starts with one.
    fn imperative(&self) -> Option<&'static str> {
        if let Some(known) = self.imp.get() {
            return known;
        }
        let v = self.compute_imperative();
        self.imp.set(Some(v));
        v
    }

    fn compute_imperative(&self) -> Option<&'static str> {
        let h = self.head();
        let h = if self.is(h, "always") || self.is(h, "never") {
            h + 1
        } else {
            h
        };
        // A word no table has ("Encrypt everything …", "Log every run")
        // counts when it opens the clause and is followed by what a verb
        // takes.
        let object = self.t.get(h + 1).is_some_and(|t| {
            t.entity.is_some()
                || in_table(
                    &[
                        "the",
                        "a",
                        "an",
                        "all",
                        "every",
                        "each",
                        "any",
                        "it",
                        "them",
                        "this",
                        "these",
                        "those",
                        "everything",
                        "nothing",
                        "your",
                        "our",
                    ],
                    t.text,
                )
        });
        self.verb_at(h)
            .or_else(|| (self.loose_verb(h) && object).then_some("instruction"))
    }

    /// A modal or adverb that makes the words between `from` and `to` an
    /// instruction.
    fn modal_in(&self, from: usize, to: usize) -> bool {
        (from..to.min(self.len())).any(|i| {
            self.any(
                i,
                &[
                    "must", "should", "shall", "always", "never", "required", "need", "needs",
                ],
            ) && !(self.any(i, &["must", "shall", "should"]) && self.described(i))
                && !(self.any(i, &["need", "needs"])
                    && self.any(
                        i.wrapping_sub(1),
                        &["may", "might", "could", "would", "will"],
                    ))
                || (self.is(i, "not") && self.any(i.wrapping_sub(1), &["do", "does", "must"]))
                || (self.is(i, "to") && self.any(i.wrapping_sub(1), &["has", "have"]))
                || self.subjunctive(i)
        })
    }

    /// A bare "be" after its subject: the subjunctive of a request ("(the
    /// user asked) that snapshots be taken before each reindex").
    fn subjunctive(&self, i: usize) -> bool {
        i > 0
            && self.is(i, "be")
            && self.word(i - 1).is_some()
            && !self.any(
                i - 1,
                &[
                    "to", "will", "would", "can", "could", "may", "might", "should", "must",
                    "shall", "not", "let", "please", "always", "never", "also", "just", "ever",
                    "or", "and", "it", "that", "this", "there",
                ],
            )
            && self.word(i + 1).is_some_and(is_participle)
    }

    /// Whether the part `from..to` is an instruction: it starts with a verb
    /// (after fillers) or holds a modal.
    fn directive(&self, from: usize, to: usize) -> bool {
        let mut i = from;
        while i < to && self.word(i).is_some_and(|w| in_table(FILLERS, w)) {
            i += 1;
        }
        // "All firewall changes go through the CAB first": a convention
        // stated of every case.
        let quantified = self.any(i, &["all", "every", "each", "any"])
            && !(i + 1..to.min(self.len())).any(|k| self.word(k).is_some_and(is_past));
        self.verb_at(i).is_some()
            || self.loose_verb(i)
            || self.is(i, "no")
            || quantified
            || self.modal_in(from, to)
    }

    /// A word that may be an instruction's verb though no table has it
    /// ("shift traffic back"): not a function word, not a past, gerund,
    /// adverb or third-person form, not followed by a finite verb.
    fn loose_verb(&self, i: usize) -> bool {
        let Some(w) = self.word(i) else {
            return false;
        };
        let b = w.as_bytes();
        let ends = |s: &[u8]| b.len() > s.len() && b[b.len() - s.len()..].eq_ignore_ascii_case(s);
        let inflected = ends(b"ed") || ends(b"ing") || ends(b"ly") || (ends(b"s") && !ends(b"ss"));
        b.len() >= 3
            && !inflected
            && !in_table(lexicon::FUNCTION_WORDS, w)
            && !in_table(CLOSED, w)
            && !self.any(
                i + 1,
                &[
                    "is", "are", "was", "were", "has", "have", "had", "will", "would", "can", "may",
                ],
            )
    }

    /// The first clause start after `i`, or the end.
    fn next_clause(&self, i: usize) -> usize {
        (i + 1..self.len())
            .find(|&k| self.clause_start(k))
            .unwrap_or(self.len())
    }

    /// A time: a clock time, a day or month, a date, "business hours",
    /// "this week", at `i`.
    fn time_at(&self, i: usize) -> bool {
        if self.entity(i) == Some(EntityKind::Date) {
            return true;
        }
        // A clock the scanner split into words ("04:00\u{2013}05:00").
        let at = self.t.get(i).map_or(0, |t| t.span.start);
        let mut end = (at + 5).min(self.text.len());
        while end > at && !self.text.is_char_boundary(end) {
            end -= 1;
        }
        if has_clock(self.raw(i)) || has_clock(self.text.get(at..end).unwrap_or("")) {
            return true;
        }
        if self.word(i).is_some_and(is_time_word) {
            return true;
        }
        (self.any(
            i,
            &[
                "business", "office", "working", "trading", "market", "peak", "quiet", "support",
            ],
        ) && self.is(i + 1, "hours"))
            || (self.any(i, &["this", "next"])
                && self.any(i + 1, &["week", "weekend", "month", "sprint", "quarter"]))
            || self.seq(i, &["end", "of", "day"])
    }

    /// The text from token `from` to token `to` (exclusive).
    fn raw_range(&self, from: usize, to: usize) -> &'t str {
        let to = to.min(self.len());
        if from >= to {
            return "";
        }
        let (Some(a), Some(b)) = (self.t.get(from), self.t.get(to - 1)) else {
            return "";
        };
        self.text.get(a.span.start..b.span.end).unwrap_or("")
    }

    /// Whether the words `from..to` name a time.
    fn time_in(&self, from: usize, to: usize) -> bool {
        has_clock(self.raw_range(from, to)) || (from..to.min(self.len())).any(|i| self.time_at(i))
    }

    /// A negation at `i`.
    fn negation(&self, i: usize) -> bool {
        self.any(i, &["not", "never", "no", "nothing", "none", "nobody"])
    }

    fn negated(&self) -> bool {
        (0..self.len()).any(|i| self.negation(i))
    }

    /// A past form right after `i` (skipping adverbs): "never had".
    fn past_after(&self, i: usize) -> bool {
        let mut k = i + 1;
        while self.any(k, &["really", "ever", "once", "actually", "even"]) {
            k += 1;
        }
        self.word(k).is_some_and(is_participle) && !self.any(k, &["left"])
    }

    /// History or experience after `i` ("never had", "never seen"), not a
    /// present passive that states a convention ("secrets are never
    /// written to disk").
    fn history_after(&self, i: usize) -> bool {
        let passive = self.any(i.wrapping_sub(1), &["is", "are", "be", "get", "gets"])
            && !self.any(i.wrapping_sub(2), DESCRIPTIVE);
        self.past_after(i) && !passive
    }

    /// A descriptive subject before the modal at `i` ("it must be the
    /// cache", "that must have failed"); but after "it" or "this" an
    /// action or a passive states a rule ("it must sit behind the internal
    /// load balancer", "this must be encrypted").
    fn described(&self, i: usize) -> bool {
        let before = i.wrapping_sub(1);
        if !self.any(before, DESCRIPTIVE) {
            return false;
        }
        if !self.any(before, &["it", "this"]) {
            return true;
        }
        let mut k = i + 1;
        while self.any(k, &["not", "never", "always", "only", "also"]) {
            k += 1;
        }
        if self.is(k, "be") {
            return !self.word(k + 1).is_some_and(is_participle);
        }
        let inference = self.any(
            k,
            &[
                "belong", "cause", "come", "depend", "explain", "feel", "happen", "have", "know",
                "look", "mean", "seem", "take",
            ],
        );
        inference || !(self.verb_at(k).is_some() || self.loose_verb(k))
    }
}

/// Verbs that choose a tool or a method: a bare instruction with one is a
/// rule even among a skill's steps ("Use SWR for request deduplication").
const CHOICE_VERBS: &[&str] = &["use", "prefer", "prioritize", "prioritise", "keep", "avoid"];

/// Reads one clause.
#[cfg(test)]
pub(crate) fn read_clause(
    tokens: &[Token<'_>],
    text: &str,
    ctx: Ctx,
    contrast: bool,
) -> ClauseReading {
    read_clause_with(tokens, triggers(tokens), text, ctx, contrast)
}

/// [`read_clause`], with the clause's trigger words already known.
pub(crate) fn read_clause_with(
    tokens: &[Token<'_>],
    present: Bits,
    text: &str,
    ctx: Ctx,
    contrast: bool,
) -> ClauseReading {
    let c = Clause::with(tokens, text, present);
    let mut r = ClauseReading::default();
    if c.len() < 2 && ctx.standing {
        // A clause of a script written without spaces is one word here.
        r.rule = super::chat::unspaced_cue(c.raw_range(0, c.len()));
        if r.rule.is_some() {
            return r;
        }
    }
    if c.len() == 1 {
        // A label: "Approver: …", "Exception: …".
        r.rule = c
            .binding(false)
            .filter(|(f, _)| *f == RuleForm::Approval)
            .or_else(|| c.carve_out().filter(|(_, cue)| *cue == "exception"));
        r.head = r.rule.is_some();
        return r;
    }
    if c.len() < 2 || c.idiom() {
        return r;
    }
    r.imperative = c.imperative();
    let h = c.head();
    r.directive = r.imperative.is_some()
        || c.any(h, &["never", "no", "always", "only", "avoid"])
        || c.seq(h, &["do", "not"]);
    if c.plan(ctx) {
        r.plan = true;
        return r;
    }
    if ctx.question && !c.polite_request() {
        return r;
    }
    let mut only_scope = false;
    let p = if ctx.guards {
        c.present
    } else {
        Bits([u64::MAX; 5])
    };
    let quotes = c
        .raw_range(0, c.len())
        .contains(['"', '\u{201C}', '\u{201D}', '\'', '\u{2019}']);
    let rule = None
        .or_else(|| {
            (p.meets(BINDING) || contrast || quotes)
                .then(|| c.binding(contrast))
                .flatten()
        })
        .or_else(|| p.meets(CARVE_OUT).then(|| c.carve_out()).flatten())
        .or_else(|| p.meets(CONDITION).then(|| c.condition()).flatten())
        .or_else(|| p.meets(LIMIT).then(|| c.limit()).flatten())
        .or_else(|| p.meets(PERMISSION).then(|| c.permission()).flatten())
        .or_else(|| p.meets(APPROVAL).then(|| c.approval()).flatten())
        .or_else(|| p.meets(WINDOW).then(|| c.window()).flatten())
        .or_else(|| p.meets(ORDERING).then(|| c.ordering()).flatten())
        .or_else(|| {
            if !p.meets(SCOPE) {
                return None;
            }
            let (cue, by_only) = c.scope();
            only_scope = by_only && cue.is_some_and(|(f, _)| f == RuleForm::Scope);
            cue
        })
        .or_else(|| p.meets(PROHIBITION).then(|| c.prohibition()).flatten())
        .or_else(|| {
            (p.meets(OBLIGATION) || contrast)
                .then(|| c.obligation(contrast))
                .flatten()
        })
        .or_else(|| (p.meets(EXCEPT) && c.has("except")).then_some((RuleForm::CarveOut, "except")))
        .or_else(|| {
            // "The user insisted on small PRs": what an insisting frame
            // reports is a rule whatever its words.
            let insisted = c.framed
                && (0..h).any(|k| c.word(k).is_some_and(|w| in_table(INSISTING, w)))
                && h + 1 < c.len();
            insisted.then_some((RuleForm::Obligation, "insisted"))
        })
        .or_else(|| {
            // "Replies are written in the customer's language." in a
            // system prompt: how the agent's work is done, said as a fact.
            if ctx.standing && c.convention() {
                return Some((RuleForm::Obligation, "convention"));
            }
            // "Be concise." in a system prompt.
            if ctx.standing && c.is(h, "be") && h + 1 < c.len() && c.word(h + 1).is_some() {
                return Some((RuleForm::Obligation, "be"));
            }
            // A rule in a script written without spaces, in text that only
            // instructs: its cue is a substring ("严禁硬编码凭证").
            if ctx.standing
                && let Some(rule) = super::chat::unspaced_cue(c.raw_range(0, c.len()))
            {
                return Some(rule);
            }
            // "Respond in the customer's language." in a system prompt.
            let bare = ctx.standing && c.imperative().is_some() && !c.has("may");
            let chosen = c.imperative().is_some_and(|v| in_table(CHOICE_VERBS, v));
            (bare && (ctx.bare || chosen)).then(|| {
                (
                    RuleForm::Obligation,
                    c.imperative().unwrap_or("instruction"),
                )
            })
        });
    // The model's own statements of fact are not rules it restates: only a
    // cue that instructs counts there, unless it recaps the operator's.
    let rule = rule.filter(|(_, cue)| !(ctx.assistant && !ctx.recap && in_table(FACT_CUES, cue)));
    r.rule = rule;
    r.only_scope = only_scope;
    if let Some((form, cue)) = rule {
        r.head = matches!(cue, "exception" | "approver")
            || (cue == "freeze" && c.freeze().is_some_and(|(_, head)| head))
            || form == RuleForm::Correction;
        let negative = (0..c.len()).any(|i| c.negation(i)) || matches!(cue, "leave … alone");
        let last = c.len().saturating_sub(1);
        r.anaphor = negative
            && (0..c.len()).any(|i| {
                (c.any(i, &["it", "them", "there", "those"]) || (i == last && c.is(i, "that")))
                    && (i.saturating_sub(5)..i).any(|k| c.negation(k) || c.is(k, "leave"))
            });
    }
    r
}

/// The correction cue of a sentence, if it corrects what was said.
pub(crate) fn correction(
    tokens: &[Token<'_>],
    present: Bits,
    text: &str,
    contrast: bool,
) -> Option<&'static str> {
    if !present.meets(CORRECTION) {
        return None;
    }
    Clause::with(tokens, text, present).correction(contrast)
}

/// Whether the words of `raw` may hold a rule: a quicker, looser
/// [`may_hold_rule`] that reads letters only (no entities, no
/// contractions expanded beyond "n't"), for text not yet tokenised.
pub(crate) fn raw_may_hold_rule(raw: &str) -> bool {
    if raw.contains(['"', '\u{201C}', '\u{201D}']) || raw.contains(", not") {
        return true;
    }
    let b = raw.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if !b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
            continue;
        }
        let start = i;
        while b.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        let word = raw.get(start..i).unwrap_or("");
        if TRIGGER_TABLE.contains(word) {
            return true;
        }
        let lower_is =
            |p: &[u8]| word.len() >= p.len() && word.as_bytes()[..p.len()].eq_ignore_ascii_case(p);
        if lower_is(b"freez") || lower_is(b"froz") || word.eq_ignore_ascii_case("cannot") {
            return true;
        }
        // "don't", "shouldn't": the "n" ends the word before the apostrophe.
        let apostrophe =
            matches!(b.get(i), Some(b'\'')) || b.get(i..i + 3) == Some("\u{2019}".as_bytes());
        if apostrophe && word.ends_with(['n', 'N']) {
            return true;
        }
    }
    false
}

/// A diagnostic opens the text: "error: …", "warning: …", "##[error]".
pub(crate) fn diagnostic(s: &str) -> bool {
    let s = s.trim_start();
    if s.starts_with("##[") {
        return true;
    }
    let word: &str = s.split([':', ' ', '[']).next().unwrap_or("");
    let colon = s.as_bytes().get(word.len()) == Some(&b':');
    // "RuntimeError: …", "TypeError: …", "DeprecationWarning: …".
    let named = ["Error", "Exception", "Warning"]
        .iter()
        .any(|e| word.len() > e.len() && word.ends_with(e));
    if colon && named {
        return true;
    }
    // "Exception: invoices from closed accounts must be kept": a policy's
    // exception, not an exception's message, when a subject and a modal
    // follow.
    if colon && (word.eq_ignore_ascii_case("exception") || word.eq_ignore_ascii_case("exceptions"))
    {
        let rest = s.get(word.len() + 1..).unwrap_or("").trim_start();
        let mut words = rest
            .split(|c: char| !(c.is_ascii_alphanumeric() || c == '\''))
            .filter(|w| !w.is_empty());
        let first = words.next().unwrap_or("");
        let opens_modal = in_table(
            &[
                "can", "cannot", "could", "expected", "failed", "invalid", "may", "must", "not",
                "should", "unable",
            ],
            first,
        );
        let modal = words.take(12).any(|w| {
            in_table(
                &[
                    "can", "may", "must", "never", "only", "shall", "should", "stay", "stays",
                ],
                w,
            )
        });
        if modal && !opens_modal {
            return false;
        }
    }
    colon && (in_table(lexicon::DIAGNOSTIC_HEADS, word) || in_table(&["panic", "warn"], word))
}
