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
pub(crate) struct Reading {
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

/// Words skipped at the start of a clause.
const FILLERS: &[&str] = &[
    "additionally",
    "again",
    "also",
    "and",
    "anyway",
    "btw",
    "but",
    "finally",
    "fyi",
    "hey",
    "just",
    "kindly",
    "lastly",
    "now",
    "oh",
    "ok",
    "okay",
    "please",
    "plus",
    "remember",
    "so",
    "then",
    "to",
];

/// How often a standing instruction recurs.
const PERIODIC: &[&str] = &[
    "annually",
    "biweekly",
    "daily",
    "hourly",
    "monthly",
    "nightly",
    "quarterly",
    "weekly",
    "yearly",
];

/// Words that put a span of time ahead of a step ("at least 2 hours'
/// notice", "at least a day in advance").
const ADVANCE: &[&str] = &[
    "ahead",
    "before",
    "beforehand",
    "advance",
    "prior",
    "notice",
];

/// Work stopped for a time, a freeze by another name ("deploys are
/// blocked until …").
const HALTED: &[&str] = &[
    "blocked",
    "paused",
    "locked",
    "suspended",
    "closed",
    "halted",
];

/// Words that are never an instruction's verb besides the function words
/// ([`lexicon::FUNCTION_WORDS`]).
const CLOSED: &[&str] = &[
    "already",
    "another",
    "less",
    "maybe",
    "must",
    "neither",
    "no",
    "none",
    "not",
    "ok",
    "okay",
    "only",
    "perhaps",
    "shall",
    "sorry",
    "still",
    "thanks",
    "three",
    "today",
    "tomorrow",
    "two",
    "until",
    "yes",
    "yesterday",
];

/// Removals that "may be …" leaves to the agent ("old branches may be
/// deleted").
const REMOVALS: &[&str] = &[
    "archived",
    "cleaned",
    "closed",
    "decommissioned",
    "deleted",
    "discarded",
    "dropped",
    "killed",
    "overwritten",
    "pruned",
    "purged",
    "rebooted",
    "recreated",
    "removed",
    "restarted",
    "retired",
    "reverted",
    "skipped",
    "truncated",
    "wiped",
];

/// What changes are called: a convention about them is a rule ("schema
/// changes go through Flyway").
const CHANGE_NOUNS: &[&str] = &[
    "changes",
    "commits",
    "deployments",
    "deploys",
    "edits",
    "hotfixes",
    "merges",
    "migrations",
    "patches",
    "prs",
    "releases",
    "rollouts",
    "updates",
    "upgrades",
];

/// Work that a convention routes somewhere ("escalations go to the Tier 2
/// queue").
const ROUTED: &[&str] = &[
    "bugs",
    "complaints",
    "escalations",
    "incidents",
    "questions",
    "refunds",
    "tickets",
];

/// What the agent produces: in text that only instructs, how it is done
/// is a rule even when said as a fact ("replies are written in the
/// customer's language").
const WORK_NOUNS: &[&str] = &[
    "amounts",
    "answers",
    "branches",
    "changelogs",
    "comments",
    "commits",
    "dates",
    "docs",
    "emails",
    "headings",
    "messages",
    "names",
    "prices",
    "prs",
    "replies",
    "responses",
    "summaries",
    "tags",
    "tests",
    "timestamps",
    "titles",
];

/// Cues that read a rule out of a statement of fact ("escalations go to
/// Tier 2", "old branches can go"): in the model's own text, outside a
/// recap, such a statement is its own account, not a rule restated.
const FACT_CUES: &[&str] = &[
    "behind a flag",
    "can go",
    "convention",
    "excluded",
    "fair game",
    "goes through",
    "goes to",
    "may skip",
    "no approval needed",
    "not by you",
    "not covered by",
    "prefers",
    "read-only",
    "requires",
    "starts at",
    "your scope",
    "yours to",
];

/// What a rule or a sweeping task is called: "not covered by the freeze",
/// "not covered by the cleanup" exempts from one.
const RULE_NOUNS: &[&str] = &[
    "audit",
    "ban",
    "cap",
    "cleanup",
    "deprecation",
    "embargo",
    "freeze",
    "limit",
    "limits",
    "lock",
    "lockdown",
    "migration",
    "moratorium",
    "policy",
    "purge",
    "quota",
    "requirement",
    "restriction",
    "restrictions",
    "rollout",
    "rule",
    "rules",
    "sweep",
];

/// Moods after an opening "always" or "never": "Always happy to pair".
const MOODS: &[&str] = &[
    "amazing",
    "eager",
    "easy",
    "fun",
    "funny",
    "glad",
    "grateful",
    "great",
    "happy",
    "interesting",
    "keen",
    "nice",
    "pleased",
    "surprised",
    "thankful",
    "welcome",
];

/// Subjects after which "must", "always" or "never" describe.
const DESCRIPTIVE: &[&str] = &["it", "that", "there", "this", "what", "which"];

/// Words after "I"/"we" that make a clause the speaker's plan or state.
const PLAN_VERBS: &[&str] = &[
    "agree",
    "already",
    "am",
    "believe",
    "can",
    "checked",
    "could",
    "did",
    "found",
    "going",
    "got",
    "guess",
    "had",
    "have",
    "intend",
    "just",
    "know",
    "might",
    "noticed",
    "plan",
    "ran",
    "see",
    "shall",
    "started",
    "suppose",
    "think",
    "understand",
    "was",
    "were",
    "will",
    "would",
];

/// Resources a scope marks off ("only on the dev cluster").
const RESOURCES: &[&str] = &[
    "account",
    "accounts",
    "bucket",
    "buckets",
    "cluster",
    "clusters",
    "database",
    "databases",
    "db",
    "dev",
    "directories",
    "directory",
    "environment",
    "environments",
    "folder",
    "folders",
    "host",
    "hosts",
    "namespace",
    "namespaces",
    "node",
    "nodes",
    "pool",
    "prod",
    "production",
    "project",
    "projects",
    "region",
    "regions",
    "repo",
    "repos",
    "repository",
    "sandbox",
    "schema",
    "server",
    "servers",
    "service",
    "services",
    "stack",
    "stacks",
    "staging",
    "table",
    "tables",
    "tenant",
    "tenants",
    "workspace",
];

/// Verbs of touching: a negated one marks off a scope ("don't touch X").
const TOUCH: &[&str] = &[
    "alter",
    "altering",
    "alters",
    "edit",
    "editing",
    "edits",
    "modifies",
    "modify",
    "modifying",
    "touch",
    "touches",
    "touching",
    "work",
    "write",
    "writes",
    "writing",
];

/// Prepositions of place after "only".
const PLACES: &[&str] = &[
    "against", "from", "in", "inside", "on", "to", "under", "within",
];

/// What "without" names when it makes a step wait on another.
const STEPS: &[&str] = &[
    "backup",
    "backups",
    "checking",
    "dry",
    "linting",
    "plan",
    "running",
    "saved",
    "snapshot",
    "test",
    "testing",
    "tests",
    "validating",
    "verifying",
];

/// Words after a clause-opening "no" that make it no prohibition.
const NO_IDIOMS: &[&str] = &[
    "doubt",
    "exception",
    "exceptions",
    "idea",
    "longer",
    "matter",
    "need",
    "problem",
    "questions",
    "thanks",
    "way",
    "worries",
    "worry",
];

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

// ------------------------------------------------------------ filters

impl Clause<'_, '_> {
    /// "never mind", "don't worry", "no problem", "not only".
    fn idiom(&self) -> bool {
        let h = self.head();
        // "Always happy to pair", "never a dull moment": a mood, not a rule.
        if self.any(h, &["always", "never"]) && self.word(h + 1).is_some_and(|w| in_table(MOODS, w))
        {
            return true;
        }
        // "Never seen Redis do that before", "never had a problem with
        // it": experience, told without a subject.
        if self.is(h, "never") && self.past_after(h) {
            return true;
        }
        (0..self.len()).any(|i| {
            self.seq(i, &["never", "mind"])
                || self.seq(i, &["do", "not", "worry"])
                || self.seq(i, &["no", "problem"])
                || self.seq(i, &["no", "worries"])
                || self.seq(i, &["not", "sure"])
                || self.seq(i, &["not", "only"])
                || self.seq(i, &["used", "to"])
                || (self.is(i, "no") && self.clause_start(i + 1))
                // A login banner: "Unauthorized access is prohibited",
                // "authorized users only".
                || (self.any(i, &["unauthorized", "unauthorised", "authorized", "authorised"])
                    && self.any(i + 1, &["access", "use", "users", "personnel", "persons"]))
        })
    }

    /// The speaker's own plan or state: "I'll …", "we're at …", "I don't
    /// think …", "let me …".
    fn plan(&self, ctx: Ctx) -> bool {
        let h = self.head();
        // What a reporting frame reports is the operator's, not the
        // speaker's plan ("the operator said we can use up to 4 GPUs").
        if self.framed {
            return false;
        }
        if self.seq(h, &["let", "me"]) {
            return true;
        }
        if ctx.assistant {
            if self.word(h).is_some_and(|w| {
                w.len() > 5 && w.to_ascii_lowercase().ends_with("ing") && !self.is(h, "nothing")
            }) {
                return true;
            }
            if self.has("would") || self.raw(h).eq_ignore_ascii_case("let's") {
                return true;
            }
        }
        let reach = if ctx.assistant {
            self.len()
        } else {
            self.len().min(h + 4)
        };
        for i in 0..reach {
            if !self.any(i, &["i", "we"]) || (i > h + 3 && !self.clause_start(i)) {
                continue;
            }
            // The model's own "I must check …", "I need to …": a plan,
            // unless it recaps the operator's rules.
            if ctx.assistant
                && !ctx.recap
                && self.any(i + 1, &["must", "should", "need", "have", "will", "shall"])
                && !self.is(i + 2, "not")
            {
                return true;
            }
            // "We're not allowed to touch X", "we have to run the smoke
            // tests first", "we can only deploy to staging": the team's
            // rule, which takes in the agent, not the speaker's plan (the
            // model's own "I have to …" stays one).
            if (!ctx.assistant || ctx.recap) && self.bound(i) {
                return false;
            }
            let raw = self.raw(i);
            let contracted = raw.len() > 1 && raw.contains(['\'', '\u{2019}']);
            if contracted {
                let d = raw.ends_with('d') || raw.ends_with('D');
                if d && self.any(i + 1, &["like", "prefer", "rather"]) {
                    return false;
                }
                return true;
            }
            if self.seq(i + 1, &["want", "you"]) || self.seq(i + 1, &["need", "you"]) {
                return false;
            }
            let restriction =
                self.any(i + 1, &["can", "may", "must", "should"]) && self.is(i + 2, "not");
            if !restriction && self.word(i + 1).is_some_and(|w| in_table(PLAN_VERBS, w)) {
                return true;
            }
            if self.seq(i + 1, &["do", "not"])
                && self.any(
                    i + 3,
                    &["think", "know", "believe", "see", "remember", "mind"],
                )
            {
                return true;
            }
            if ctx.assistant && (self.is(i + 1, "need") || self.is(i + 1, "want")) {
                return true;
            }
            if self.word(i + 1).is_some_and(is_past) {
                return true;
            }
        }
        false
    }

    /// After "I" or "we" at `i`, a rule that binds the speaker's side:
    /// "('re) (not) allowed to", "('re) supposed to", "have to", "can
    /// only", "may only", "can't <act>".
    fn bound(&self, i: usize) -> bool {
        let mut k = i + 1;
        if self.any(k, &["are", "am", "were"]) {
            k += 1;
        }
        if self.is(k, "not") {
            k += 1;
        }
        if self.any(
            k,
            &["allowed", "permitted", "supposed", "required", "expected"],
        ) && self.is(k + 1, "to")
        {
            return true;
        }
        // "I have to leave early" is the speaker's own.
        let team = self.is(i, "we");
        // "We have to figure out why" is a task; "we have to run the smoke
        // tests before every deploy" a rule with a cue of its own.
        let cued = (i + 3..self.len()).any(|k| {
            self.any(
                k,
                &[
                    "before", "first", "always", "never", "every", "each", "only", "after",
                    "until", "without", "approval", "review",
                ],
            )
        });
        if team && self.any(i + 1, &["have", "has"]) && self.is(i + 2, "to") && cued {
            return true;
        }
        if team
            && self.any(i + 1, &["can", "may", "must"])
            && self.is(i + 2, "only")
            && self.verb_at(i + 3).is_some()
        {
            return true;
        }
        self.is(i, "we")
            && self.is(i + 1, "can")
            && self.is(i + 2, "not")
            && self.verb_at(i + 3).is_some()
            && !self.any(i + 3, &["get", "go", "make", "do", "find", "see", "tell"])
    }

    /// "Could you please …", "can you …", "would you …", "please …".
    fn polite_request(&self) -> bool {
        let h = self.head();
        self.is(0, "please")
            || (self.any(h, &["could", "can", "would", "will"]) && self.is(h + 1, "you"))
    }
}

// ------------------------------------------------------------ cues

/// A found cue.
type Cue = Option<(RuleForm, &'static str)>;

/// Every word some cue needs: a clause with none of them holds no rule
/// (a quotation mark or ", not" may still make a binding).
const TRIGGERS: &[&str] = &[
    "abort",
    "above",
    "ack",
    "acknowledge",
    "actually",
    "advance",
    "after",
    "afterward",
    "afterwards",
    "ahead",
    "all",
    "allowed",
    "alone",
    "alter",
    "altering",
    "alters",
    "always",
    "annually",
    "another",
    "any",
    "approval",
    "approvals",
    "approve",
    "approved",
    "approver",
    "approvers",
    "approves",
    "ask",
    "asking",
    "avoid",
    "away",
    "bail",
    "banned",
    "before",
    "beforehand",
    "begin",
    "begins",
    "behind",
    "below",
    "between",
    "beyond",
    "bigger",
    "biweekly",
    "blackout",
    "blocked",
    "budget",
    "can",
    "cap",
    "capped",
    "caps",
    "case",
    "cc",
    "change",
    "changing",
    "check",
    "circumstances",
    "closed",
    "compulsory",
    "confined",
    "consent",
    "correction",
    "daily",
    "default",
    "defer",
    "demanded",
    "disallowed",
    "discouraged",
    "during",
    "each",
    "earlier",
    "edit",
    "editing",
    "edits",
    "emphasised",
    "emphasized",
    "ensure",
    "escalate",
    "every",
    "exceed",
    "exceeds",
    "except",
    "exception",
    "exceptions",
    "exclude",
    "excluded",
    "excluding",
    "exempt",
    "exempted",
    "expect",
    "expected",
    "expects",
    "fair",
    "favor",
    "favour",
    "fewer",
    "fine",
    "first",
    "follow",
    "follows",
    "forbade",
    "forbid",
    "forbidden",
    "forbids",
    "forwarded",
    "free",
    "freeze",
    "freezes",
    "frozen",
    "gated",
    "go",
    "goes",
    "governs",
    "great",
    "greater",
    "green",
    "halt",
    "halted",
    "hand",
    "has",
    "have",
    "higher",
    "hourly",
    "hours",
    "if",
    "inside",
    "insisted",
    "insists",
    "instead",
    "keep",
    "keeps",
    "kill",
    "larger",
    "later",
    "least",
    "leave",
    "leaves",
    "left",
    "less",
    "lgtm",
    "like",
    "limit",
    "limited",
    "limits",
    "locked",
    "long",
    "longer",
    "loop",
    "lower",
    "make",
    "mandatory",
    "manually",
    "matter",
    "max",
    "maximum",
    "may",
    "mean",
    "means",
    "meant",
    "min",
    "minimum",
    "mistake",
    "modifies",
    "modify",
    "modifying",
    "monthly",
    "most",
    "must",
    "need",
    "needs",
    "never",
    "newer",
    "nightly",
    "no",
    "nobody",
    "none",
    "not",
    "nothing",
    "notify",
    "nowhere",
    "off",
    "ok",
    "okay",
    "okays",
    "older",
    "once",
    "only",
    "oops",
    "or",
    "out",
    "outside",
    "over",
    "page",
    "pause",
    "paused",
    "per",
    "period",
    "permission",
    "permitted",
    "pin",
    "ping",
    "precedence",
    "prefer",
    "preferred",
    "prefers",
    "prevails",
    "prior",
    "prohibited",
    "prohibits",
    "quarterly",
    "rather",
    "read",
    "refers",
    "refrain",
    "reiterated",
    "remain",
    "remains",
    "require",
    "required",
    "requires",
    "restricted",
    "review",
    "reviewed",
    "reviewer",
    "reviewers",
    "reviews",
    "routed",
    "safe",
    "same",
    "scope",
    "scoped",
    "scratch",
    "second",
    "sent",
    "shall",
    "shorter",
    "should",
    "sign",
    "signed",
    "signoff",
    "signs",
    "skip",
    "smaller",
    "soon",
    "sorry",
    "start",
    "starts",
    "stay",
    "stays",
    "stick",
    "stop",
    "stressed",
    "supposed",
    "sure",
    "suspended",
    "tag",
    "than",
    "then",
    "throttle",
    "through",
    "thumbs",
    "time",
    "touch",
    "touches",
    "touching",
    "two",
    "typed",
    "under",
    "until",
    "untouched",
    "up",
    "use",
    "version",
    "via",
    "wait",
    "want",
    "weekly",
    "whatever",
    "when",
    "whenever",
    "while",
    "whilst",
    "whoops",
    "window",
    "within",
    "without",
    "work",
    "would",
    "write",
    "writes",
    "writing",
    "yearly",
    "yours",
];

static TRIGGER_TABLE: Table = Table::new(TRIGGERS);

/// A set of [`TRIGGERS`] words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits([u64; 5]);

const fn same(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

impl Bits {
    /// The set of `words`; every one must be a trigger (checked when the
    /// crate is compiled).
    const fn of(words: &[&str]) -> Bits {
        let mut bits = [0u64; 5];
        let mut w = 0;
        while w < words.len() {
            let mut k = 0;
            while k < TRIGGERS.len() && !same(TRIGGERS[k], words[w]) {
                k += 1;
            }
            assert!(k < TRIGGERS.len(), "a cue's word is missing from TRIGGERS");
            bits[k / 64] |= 1 << (k % 64);
            w += 1;
        }
        Bits(bits)
    }

    fn insert(&mut self, k: usize) {
        if let Some(word) = self.0.get_mut(k / 64) {
            *word |= 1 << (k % 64);
        }
    }

    /// Whether the two sets meet.
    fn meets(self, other: Bits) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }

    fn is_empty(self) -> bool {
        self.0.iter().all(|w| *w == 0)
    }

    /// Both sets together.
    pub(crate) const fn union(mut self, other: Bits) -> Bits {
        let mut k = 0;
        while k < self.0.len() {
            self.0[k] |= other.0[k];
            k += 1;
        }
        self
    }
}

/// The trigger words among `tokens`.
#[cfg(test)]
pub(crate) fn triggers(tokens: &[Token<'_>]) -> Bits {
    let mut bits = Bits::default();
    for t in tokens {
        bits = bits.union(token_triggers(t));
    }
    bits
}

/// The trigger words one token is (or stands for: "frozen" for "freeze",
/// "thumbs-up" for "thumbs").
pub(crate) fn token_triggers(t: &Token<'_>) -> Bits {
    const FREEZE: Bits = Bits::of(&["freeze"]);
    const THUMBS: Bits = Bits::of(&["thumbs"]);
    const GO: Bits = Bits::of(&["go"]);
    const SIGN: Bits = Bits::of(&["sign"]);
    const ACK: Bits = Bits::of(&["ack"]);
    const READ_ONLY: Bits = Bits::of(&["read", "only"]);
    const VERSION: Bits = Bits::of(&["version"]);
    if t.entity.is_none()
        && let Some(k) = TRIGGER_TABLE.position(t.text)
    {
        let mut bits = Bits::default();
        bits.insert(k);
        return bits;
    }
    let b = t.text.as_bytes();
    let starts = |p: &[u8]| b.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p));
    if starts(b"freez") || starts(b"froz") {
        FREEZE
    } else if t.text.eq_ignore_ascii_case("thumbs-up") {
        THUMBS
    } else if t.text.eq_ignore_ascii_case("go-ahead") {
        GO
    } else if t.text.eq_ignore_ascii_case("sign-off") {
        SIGN
    } else if t.text == "+1" {
        ACK
    } else if t.text.eq_ignore_ascii_case("read-only") {
        READ_ONLY
    } else if t.entity == Some(EntityKind::Version) {
        VERSION
    } else {
        Bits::default()
    }
}

/// Words each cue needs, one of them at least.
const CORRECTION: Bits = Bits::of(&[
    "correction",
    "scratch",
    "meant",
    "mistake",
    "typed",
    "make",
    "actually",
    "sorry",
    "oops",
    "whoops",
    "wait",
]);
const BINDING: Bits = Bits::of(&["approver", "approvers", "mean", "means", "refers"]);
const CARVE_OUT: Bits = Bits::of(&[
    "exception",
    "exempt",
    "exempted",
    "not",
    "freeze",
    "exclude",
    "excluding",
    "can",
    "may",
    "instead",
    "excluded",
    "outside",
]);
const CONDITION: Bits = Bits::of(&[
    "if",
    "when",
    "whenever",
    "case",
    "stop",
    "halt",
    "abort",
    "pause",
    "kill",
    "page",
    "escalate",
    "bail",
    "only",
    "until",
    "while",
    "whilst",
    "long",
    "soon",
    "after",
    "afterwards",
]);
const LIMIT: Bits = Bits::of(&[
    "most", "than", "up", "maximum", "max", "minimum", "min", "or", "least", "below", "above",
    "under", "over", "exceed", "exceeds", "beyond", "within", "cap", "capped", "caps", "limit",
    "limited", "throttle", "budget", "time", "once", "same", "keep", "stay", "stays", "remain",
    "remains", "only", "start", "starts", "begin", "begins", "per",
]);
const PERMISSION: Bits = Bits::of(&[
    "may",
    "can",
    "free",
    "allowed",
    "permitted",
    "fine",
    "ok",
    "okay",
    "yours",
    "fair",
    "permission",
    "safe",
    "whatever",
]);
const APPROVAL: Bits = Bits::of(&[
    "escalate",
    "defer",
    "hand",
    "without",
    "approval",
    "approvals",
    "approve",
    "approved",
    "approves",
    "okays",
    "sign",
    "signed",
    "signs",
    "signoff",
    "review",
    "reviews",
    "reviewed",
    "reviewer",
    "reviewers",
    "thumbs",
    "ok",
    "go",
    "ahead",
    "lgtm",
    "consent",
    "permission",
    "acknowledge",
    "ack",
    "second",
    "another",
    "two",
    "loop",
    "asking",
    "ask",
    "check",
    "green",
    "tag",
    "ping",
    "cc",
    "notify",
]);
const WINDOW: Bits = Bits::of(HALTED).union(Bits::of(&[
    "hours", "period", "blackout", "freeze", "freezes", "frozen", "window", "not", "never", "no",
    "nothing", "none", "nobody", "only", "outside", "between", "during", "until", "before",
    "after",
]));
const ORDERING: Bits = Bits::of(&[
    "beforehand",
    "afterwards",
    "afterward",
    "advance",
    "before",
    "prior",
    "only",
    "not",
    "wait",
    "least",
    "once",
    "without",
    "first",
    "then",
]);
const SCOPE: Bits = Bits::of(&[
    "touches",
    "touching",
    "modifies",
    "edits",
    "alters",
    "writes",
    "without",
    "stick",
    "leave",
    "leaves",
    "left",
    "off",
    "limits",
    "out",
    "scope",
    "read",
    "nowhere",
    "keep",
    "keeps",
    "stay",
    "stays",
    "remain",
    "remains",
    "limited",
    "restricted",
    "scoped",
    "confined",
    "skip",
    "not",
    "never",
    "no",
    "avoid",
    "only",
]);
const PROHIBITION: Bits = Bits::of(&[
    "forbade",
    "forbid",
    "forbids",
    "prohibits",
    "discouraged",
    "never",
    "not",
    "forbidden",
    "prohibited",
    "banned",
    "disallowed",
    "no",
    "nothing",
    "none",
    "avoid",
    "refrain",
    "away",
    "keep",
]);
const OBLIGATION: Bits = Bits::of(PERIODIC).union(Bits::of(&[
    "governs",
    "precedence",
    "prevails",
    "exceptions",
    "exception",
    "matter",
    "preferred",
    "mandatory",
    "compulsory",
    "must",
    "shall",
    "has",
    "have",
    "need",
    "needs",
    "required",
    "sure",
    "ensure",
    "always",
    "should",
    "would",
    "want",
    "like",
    "prefer",
    "instead",
    "rather",
    "keep",
    "leave",
    "manually",
    "hand",
    "default",
    "every",
    "each",
    "all",
    "any",
    "stays",
    "remain",
    "remains",
    "left",
    "follow",
    "follows",
    "prefer",
    "favor",
    "favour",
    "behind",
    "through",
    "via",
    "prefers",
    "use",
    "pin",
    "version",
    "require",
    "requires",
    "expect",
    "expects",
    "stick",
    "stay",
    "go",
    "goes",
    "routed",
    "sent",
    "forwarded",
    "gated",
    "supposed",
    "expected",
]));
const EXCEPT: Bits = Bits::of(&["except"]);

/// Whether `tokens` (of `raw`) may hold a rule: some word a cue needs is
/// there. Most lines of logs and listings have none and are read no
/// further.
pub(crate) fn may_hold_rule(present: Bits, raw: &str) -> bool {
    !present.is_empty() || raw.contains(['"', '\u{201C}', '\u{201D}']) || raw.contains(", not")
}

/// A number in scientific notation: "3e-4", "1e6".
fn scientific(s: &str) -> bool {
    let Some((m, e)) = s.split_once(['e', 'E']) else {
        return false;
    };
    let e = e.strip_prefix(['-', '+']).unwrap_or(e);
    !m.is_empty()
        && m.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !e.is_empty()
        && e.bytes().all(|b| b.is_ascii_digit())
}

impl Clause<'_, '_> {
    /// "Correction", "scratch that", "I meant", "by mistake", "actually,
    /// …", "sorry, … not …": the operator corrects what was said.
    fn correction(&self, contrast: bool) -> Option<&'static str> {
        for i in 0..self.len() {
            if self.is(i, "correction") && (i == 0 || self.clause_start(i) || i <= 2) {
                return Some("correction");
            }
            if self.seq(i, &["scratch", "that"]) {
                return Some("scratch that");
            }
            if self.seq(i, &["i", "meant"]) && !self.is(i.wrapping_sub(1), "what") {
                return Some("I meant");
            }
            if self.seq(i, &["by", "mistake"]) || self.seq(i, &["my", "mistake"]) {
                return Some("by mistake");
            }
            if self.seq(i, &["i", "typed"]) {
                return Some("I typed");
            }
        }
        let h = self.head();
        if self.seq(h, &["make", "that"]) {
            return Some("make that");
        }
        let opener = (0..self.len().min(2))
            .find(|&i| self.any(i, &["actually", "sorry", "oops", "whoops", "wait"]));
        if let Some(i) = opener {
            let instead = self.has("instead") || self.seq(i + 1, &["the"]) && contrast;
            let should_be = self.find_seq(i, &["should", "be"]).is_some();
            let actually_directive = self.is(i, "actually") && self.verb_at(i + 1).is_some();
            if contrast || instead || should_be || actually_directive {
                return Some(if self.is(i, "actually") {
                    "actually"
                } else if self.is(i, "wait") {
                    "wait"
                } else if self.is(i, "sorry") {
                    "sorry"
                } else {
                    "oops"
                });
            }
        }
        None
    }

    /// "the ticket is X, not Y", `"the app" is X`, "when I say X I mean
    /// Y", "the approver is …".
    fn binding(&self, contrast: bool) -> Cue {
        // The approver named: an approval, not a binding.
        for i in 0..self.len() {
            if self.any(i, &["approver", "approvers"])
                && (self.any(i + 1, &["is", "are"])
                    || i == self.head()
                    || self.any(i.wrapping_sub(1), &["the"]))
            {
                return Some((RuleForm::Approval, "approver"));
            }
        }
        if self.find_seq(0, &["i", "mean"]).is_some()
            && (self.find(0, "say").is_some() || self.quoted_term_before(self.len()))
        {
            return Some((RuleForm::Binding, "I mean"));
        }
        for i in 0..self.len() {
            if self.any(i, &["is", "are", "means", "refers"])
                && self.quoted_term_before(i)
                && self.named_after(i)
            {
                return Some((
                    RuleForm::Binding,
                    if self.is(i, "means") { "means" } else { "is" },
                ));
            }
        }
        if contrast {
            let h = self.head();
            let mut s = h;
            while self.any(s, &["oh", "and", "also", "btw", "fyi", "note"]) {
                s += 1;
            }
            if self.any(s, &["the", "our", "this", "that", "its", "your"]) {
                let copula =
                    (s + 1..(s + 7).min(self.len())).find(|&k| self.any(k, &["is", "are"]));
                if let Some(k) = copula
                    && !self.modal_in(s, k)
                    && !self.any(k + 1, &["not", "no"])
                    && !(s + 1..k)
                        .any(|j| self.any(j, DESCRIPTIVE) || self.word(j).is_some_and(is_past))
                {
                    return Some((RuleForm::Binding, "is … not …"));
                }
            }
        }
        None
    }

    /// A quoted term ends right before token `i` (`"the app" is …`).
    fn quoted_term_before(&self, i: usize) -> bool {
        let Some(t) = self.t.get(i.min(self.len().saturating_sub(1))) else {
            return false;
        };
        let before = self.text.get(..t.span.start).unwrap_or("").trim_end();
        let Some(close) = before.chars().next_back() else {
            return false;
        };
        if !matches!(close, '"' | '\u{201D}' | '\'' | '\u{2019}') {
            return false;
        }
        let inner = &before[..before.len() - close.len_utf8()];
        let open = inner.rfind(['"', '\u{201C}', '\'', '\u{2018}']);
        let clause_start = self.t.first().map_or(0, |t| t.span.start);
        // A real phrase: `"the app"`, not `""`.
        let phrase = |o: usize| {
            inner
                .get(o + 1..)
                .is_some_and(|p| p.bytes().any(|b| b.is_ascii_alphabetic()))
        };
        open.is_some_and(|o| o + 1 >= clause_start && inner.len() - o < 60 && phrase(o))
    }

    /// A named thing after the copula at `i` (within a few words): an
    /// identifier, ticket, path or version, a quoted phrase, or a proper
    /// name ("\"The on-call\" means Hana").
    fn named_after(&self, i: usize) -> bool {
        (i + 1..(i + 8).min(self.len())).any(|k| {
            let Some(t) = self.t.get(k) else {
                return false;
            };
            let quoted = self
                .text
                .get(..t.span.start)
                .is_some_and(|b| b.ends_with(['"', '\'', '\u{201C}', '\u{2018}']));
            match t.entity {
                Some(e) => e != EntityKind::Number,
                None => {
                    quoted
                        || (t.text.chars().next().is_some_and(char::is_uppercase)
                            && !self.clause_start(k))
                }
            }
        })
    }

    /// "is the exception", "exempt", "exclude", "does not cover", "do not
    /// count against", "freeze or not", "can … instead".
    fn carve_out(&self) -> Cue {
        let h = self.head();
        for i in 0..self.len() {
            if self.is(i, "exception") {
                let named = self.any(i.wrapping_sub(2), &["is", "are"])
                    && self.any(i.wrapping_sub(1), &["the", "an"]);
                let label = i == h && (self.len() <= i + 2 || self.is(i + 1, "granted"));
                let of = self.seq(i.wrapping_sub(2), &["with", "the"]) && self.is(i + 1, "of");
                if named || label || of {
                    return Some((RuleForm::CarveOut, "exception"));
                }
            }
            if self.is(i, "exempt") || self.is(i, "exempted") {
                return Some((RuleForm::CarveOut, "exempt"));
            }
            if self.is(i, "not")
                && (self.any(i + 1, &["cover", "covers"])
                    || (self.is(i + 1, "count")
                        && self.any(i + 2, &["against", "toward", "towards"]))
                    || (self.is(i + 1, "apply") && self.is(i + 2, "to"))
                    || self.seq(i + 1, &["subject", "to"]))
            {
                return Some((RuleForm::CarveOut, "does not cover"));
            }
            if self.seq(i, &["freeze", "or", "not"]) {
                return Some((RuleForm::CarveOut, "freeze or not"));
            }
            // "Internal tooling is not covered by the freeze": a rule that
            // does not reach it.
            if self.is(i, "not")
                && self.any(i + 1, &["covered", "affected", "bound", "governed"])
                && self.is(i + 2, "by")
                && (i + 3..(i + 7).min(self.len()))
                    .any(|k| self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w)))
            {
                return Some((RuleForm::CarveOut, "not covered by"));
            }
            // "Internal tooling is outside the freeze".
            if self.is(i, "outside")
                && self.any(i.wrapping_sub(1), &["is", "are", "falls", "fall", "stays"])
                && (i + 1..(i + 4).min(self.len()))
                    .any(|k| self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w)))
            {
                return Some((RuleForm::CarveOut, "not covered by"));
            }
            // "Tenant acme-gmbh is excluded (from the migration)".
            // A thing named ("tenant acme-gmbh", "Finance marts") or a rule
            // or sweep it is kept out of ("… from this cleanup"), not a
            // description ("tenants are excluded from billing when …").
            let named = (0..i).any(|k| {
                self.entity(k).is_some_and(|e| !e.is_numeric())
                    || (k > 0
                        && self
                            .raw(k)
                            .chars()
                            .next()
                            .is_some_and(char::is_uppercase))
                    || self.entity(k).is_some()
                    // "tenant acme", "project sandbox-7": a resource by name.
                    || (self
                        .word(k)
                        .is_some_and(|w| in_table(RESOURCES, w) && !w.ends_with('s'))
                        && self.word(k + 1).is_some()
                        && k + 1 < i)
            }) || (self.is(i + 1, "from")
                && (i + 2..(i + 5).min(self.len())).any(|k| {
                    self.any(k, &["this", "these"])
                        || self.word(k).is_some_and(|w| in_table(RULE_NOUNS, w))
                }));
            if self.is(i, "excluded")
                && self.any(
                    i.wrapping_sub(1),
                    &["is", "are", "be", "stays", "stay", "remains", "remain"],
                )
                && named
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "excluded"));
            }
        }
        if self.any(h, &["exclude", "excluding"]) {
            return Some((RuleForm::CarveOut, "exclude"));
        }
        if let Some(i) = self.find_any(0, &["can", "may"])
            && !self.is(i + 1, "not")
            && self.find(i, "instead").is_some()
        {
            return Some((RuleForm::CarveOut, "can … instead"));
        }
        None
    }

    /// Whether the words from `k` on are a time ("until Friday").
    fn time_follows(&self, k: usize) -> bool {
        self.time_in(k, k + 3)
    }

    /// "if …, stop", "stop if …", "only if", "until <event>", "as soon
    /// as", "after that, …".
    fn condition(&self) -> Cue {
        let h = self.head();
        if self.any(h, &["if", "when", "whenever"]) || self.seq(h, &["in", "case"]) {
            if self.seq(h, &["when", "i", "say"]) {
                return None;
            }
            let mut main = self.next_clause(h);
            if main >= self.len() {
                // No comma: "if X then Y", "if X just Y", "if the build
                // fails revert it".
                let n = self.len();
                main = self
                    .find_any(h + 2, &["then", "just"])
                    .map(|k| k + 1)
                    .or_else(|| {
                        (h + 3..n).find(|&k| {
                            self.verb_at(k).is_some()
                                && !self.any(
                                    k - 1,
                                    &[
                                        "the", "a", "an", "to", "we", "you", "i", "they", "it",
                                        "will", "would", "can", "not",
                                    ],
                                )
                        })
                    })
                    .unwrap_or(n);
            }
            if main < self.len() && self.directive(main, self.len()) {
                return Some((
                    RuleForm::Condition,
                    if self.is(h, "if") { "if" } else { "when" },
                ));
            }
            return None;
        }
        if self.any(
            h,
            &[
                "stop", "halt", "abort", "pause", "kill", "page", "escalate", "bail",
            ],
        ) && self.find_any(h + 1, &["if", "when", "once"]).is_some()
        {
            return Some((RuleForm::Condition, "stop if"));
        }
        if let Some(i) = self.find(0, "only")
            && self.any(i + 1, &["if", "when"])
        {
            return Some((
                RuleForm::Condition,
                if self.is(i + 1, "if") {
                    "only if"
                } else {
                    "only when"
                },
            ));
        }
        if let Some(i) = self.find(0, "until")
            && self.approval_word(i + 1)
            && (self.directive(0, i) || self.negated())
        {
            // "Wait until compliance signs off", "don't run it until
            // the lead approves".
            return Some((RuleForm::Approval, "until … signs off"));
        }
        if let Some(i) = self
            .find_any(0, &["while", "whilst"])
            .or(self.find_seq(0, &["as", "long", "as"]))
            && i > 0
            && (self.directive(0, i) || self.negated())
        {
            return Some((RuleForm::Condition, "while"));
        }
        if let Some(i) = self.find(0, "until")
            && !self.time_follows(i + 1)
            && !self.is(i.wrapping_sub(1), "not")
            && (self.directive(0, i)
                || self.negated()
                || self
                    .find_any(0, &["left", "keep", "leave", "wait"])
                    .is_some())
        {
            return Some((RuleForm::Condition, "until"));
        }
        if let Some(i) = self.find_seq(0, &["as", "soon", "as"])
            && (self.directive(0, i) || self.directive(self.next_clause(i), self.len()))
        {
            return Some((RuleForm::Condition, "as soon as"));
        }
        if (self.seq(h, &["after", "that"])
            || self.seq(h, &["after", "which"])
            || self.is(h, "afterwards"))
            && self.directive(self.next_clause(h), self.len())
        {
            return Some((RuleForm::Condition, "after that"));
        }
        None
    }

    /// An approval named from token `from` on ("signs off", "approves",
    /// "gives the OK").
    fn approval_word(&self, from: usize) -> bool {
        (from..self.len()).any(|i| {
            self.any(
                i,
                &[
                    "approves", "approved", "approval", "sign-off", "signoff", "lgtm", "okays",
                    "reviewed", "reviews", "review",
                ],
            ) || (self.any(i, &["signs", "signed", "sign"]) && self.is(i + 1, "off"))
                || self.raw(i) == "OK"
                || self.seq(i, &["green", "light"])
        })
    }

    /// "at most N", "no more than N", "up to N", "a maximum of N", "within
    /// N hours", "cap … at N", "N at a time", "keep … at N".
    fn limit(&self) -> Cue {
        let n = self.len();
        let frame = self.imperative().is_some()
            || self.modal_in(0, n)
            || self.has("may")
            || self.has("can");
        // "The limit was raised to 20 last week": history.
        let history =
            !self.modal_in(0, n) && (0..n).any(|k| self.any(k, &["was", "were", "had", "been"]));
        for i in 0..n {
            if self.seq(i, &["at", "most"]) && self.number(i + 2) {
                return Some((RuleForm::Limit, "at most"));
            }
            let comparative = self.any(
                i,
                &[
                    "more", "fewer", "less", "longer", "shorter", "higher", "lower", "greater",
                    "larger", "bigger", "smaller", "later", "earlier", "older", "newer",
                ],
            ) && self.is(i + 1, "than");
            // A bound on a quantity ("batch more than 50k", "be longer
            // than 1 hour"), not a property of the object ("instances older
            // than 7 days").
            let bounds = i > 0
                && (self.any(
                    i - 1,
                    &[
                        "be", "is", "are", "no", "not", "never", "any", "take", "last", "run",
                    ],
                ) || self.verb_at(i - 1).is_some()
                    || self.any(i, &["more", "fewer", "less"]));
            if comparative
                && bounds
                && (self.number(i + 2)
                    || (self.any(i + 2, &["a", "an"]) && self.number(i + 3))
                    || (self.any(i + 2, &["a", "an"])
                        && self.word(i + 3).is_some_and(is_time_unit)))
            {
                if self.any(i.wrapping_sub(1), &["no", "not"]) {
                    return Some((RuleForm::Limit, "no more than"));
                }
                if (0..i).any(|k| self.negation(k)) {
                    return Some((RuleForm::Limit, "more than"));
                }
            }
            if self.seq(i, &["up", "to"])
                && (self.number(i + 2) || (self.is(i + 2, "a") && self.number(i + 3)))
                && (frame || i == self.head())
            {
                return Some((RuleForm::Limit, "up to"));
            }
            if self.any(i, &["maximum", "max", "minimum", "min"]) {
                let k = if self.is(i + 1, "of") { i + 2 } else { i + 1 };
                let at = self.is(k, "at") && self.number(k + 1);
                let near = (i + 1..(i + 4).min(n)).any(|j| self.number(j));
                if self.number(k)
                    || at
                    || (near && self.any(i.wrapping_sub(1), &["a", "the"]))
                    || self.number(i.wrapping_sub(1))
                {
                    return Some((
                        RuleForm::Limit,
                        self.named(i, &["minimum", "min"], "minimum", "maximum"),
                    ));
                }
            }
            if self.number(i)
                && self.is(i + 1, "or")
                && self.any(i + 2, &["fewer", "less", "below", "under", "lower"])
            {
                return Some((RuleForm::Limit, "or below"));
            }
            if let Some(mut after) = self.after_at_least(i, n) {
                let ahead = after.any(|k| self.any(k, ADVANCE) || self.is(k, "after"));
                if !ahead && !self.is(i.wrapping_sub(1), "without") {
                    return Some((RuleForm::Limit, "at least"));
                }
            }
            let bound = self.any(
                i,
                &[
                    "below", "above", "under", "over", "exceed", "exceeds", "beyond",
                ],
            ) && self.number(i + 1);
            let kept = (i.saturating_sub(6)..i)
                .any(|k| self.any(k, &["keep", "stay", "stays", "remain", "remains", "be"]));
            let negated = (0..i).any(|k| self.negation(k)) && !self.any(i, &["under", "over"]);
            if bound && (negated || (kept && !history)) {
                return Some((
                    RuleForm::Limit,
                    self.named(i, &["below"], "below", "exceed"),
                ));
            }
            if self.is(i, "within") && self.number(i + 1) && !history {
                let unit = self.word(i + 2).is_some_and(is_time_unit)
                    || self
                        .raw(i + 1)
                        .bytes()
                        .last()
                        .is_some_and(|b| matches!(b, b'h' | b'd' | b's' | b'm'));
                if unit {
                    return Some((RuleForm::Limit, "within"));
                }
            }
            if self.any(
                i,
                &["cap", "capped", "caps", "limit", "limited", "throttle"],
            ) {
                let at = (i + 1..(i + 9).min(n)).find(|&k| self.any(k, &["at", "to", "of", "is"]));
                // "This change caps retries at 3": a description.
                let described = self.any(i, &["caps"]) && self.imperative().is_none();
                if let Some(k) = at
                    && self.number(k + 1)
                    && !history
                    && !described
                {
                    return Some((
                        RuleForm::Limit,
                        self.named(i, &["limit", "limited"], "limit", "cap"),
                    ));
                }
            }
            if self.is(i, "budget") {
                let at = (i + 1..(i + 3).min(n)).find(|&k| self.any(k, &["is", "of"]));
                if at.is_some_and(|k| self.number(k + 1)) && !history {
                    return Some((RuleForm::Limit, "budget"));
                }
            }
            if self.seq(i, &["at", "a", "time"])
                && (self.number(i.wrapping_sub(1)) || self.number(i.wrapping_sub(2)))
                || self.seq(i, &["at", "once"]) && (1..4).any(|d| self.number(i.wrapping_sub(d)))
                || self.seq(i, &["at", "the", "same", "time"]) && (0..i).any(|k| self.number(k))
            {
                return Some((RuleForm::Limit, "at a time"));
            }
            if self.any(i, &["keep", "stay", "stays", "remain", "remains"]) {
                let at = (i + 1..(i + 6).min(n)).find(|&k| self.is(k, "at"));
                if at.is_some_and(|k| self.number(k + 1)) {
                    return Some((RuleForm::Limit, "keep … at"));
                }
            }
            if self.is(i, "only")
                && (i + 1..(i + 7).min(n)).any(|k| self.number(k) && self.raw(k).ends_with('%'))
            {
                return Some((RuleForm::Limit, "only N%"));
            }
            // "Staged rollout starts at 1%", "the canary begins with 5% of
            // traffic".
            if self.any(i, &["starts", "start", "begins", "begin"])
                && self.any(i + 1, &["at", "with"])
                && self.number(i + 2)
                && self.raw(i + 2).ends_with('%')
                && !history
                && (0..n).any(|k| {
                    self.any(
                        k,
                        &[
                            "rollout", "rollouts", "canary", "canaries", "ramp", "exposure",
                            "traffic", "release", "launch",
                        ],
                    )
                })
            {
                return Some((RuleForm::Limit, "starts at"));
            }
            if self.is(i, "only") && self.find(i, "last").is_some_and(|k| self.number(k + 1)) {
                return Some((RuleForm::Limit, "only the last"));
            }
            // "One PR per service.", "2 deploys per day": a quota that
            // opens the clause.
            if i == self.head()
                && self.number(i)
                && !history
                && (i + 2..(i + 5).min(n)).any(|k| self.is(k, "per") && k + 1 < n)
                && !(i + 1..n).any(|k| {
                    self.any(k, &["is", "are", "was", "were", "has", "have"])
                        || self.word(k).is_some_and(is_past)
                })
            {
                return Some((RuleForm::Limit, "N per"));
            }
            if self.is(i, "only")
                && self.number(i + 1)
                && (i + 2..n).any(|k| {
                    self.any(k, &["per", "a", "each"])
                        && self.word(k + 1).is_some_and(|w| {
                            is_time_unit(w)
                                || in_table(
                                    &["batch", "change", "deploy", "pr", "release", "run"],
                                    w,
                                )
                        })
                })
            {
                return Some((RuleForm::Limit, "only N per"));
            }
        }
        None
    }

    /// "you may", "you can", "feel free", "is allowed", "are fine
    /// anywhere", "may be … during".
    fn permission(&self) -> Cue {
        let cue = self.permission_cue()?;
        let n = self.len();
        let only = (0..n).any(|i| self.is(i, "only"));
        // Leave given to the agent by name ("you may restart db-staging-01
        // during business hours") is a carve-out whatever its time.
        let granted = (0..n).any(|i| {
            self.any(i, &["may", "can"])
                && self.any(i.wrapping_sub(1), &["you", "agents", "agent", "assistant"])
        });
        // "Maintenance is permitted on Sundays between 01:00 and 05:00",
        // "reindexing is only allowed at night": a window; "purging is
        // allowed only on .dlq queues": a scope.
        if granted && !only {
            return Some(cue);
        }
        if self.time_in(0, n) && !self.has("exception") {
            return Some((RuleForm::Window, cue.1));
        }
        if only {
            return Some((RuleForm::Scope, cue.1));
        }
        Some(cue)
    }

    fn permission_cue(&self) -> Cue {
        for i in 0..self.len() {
            if self.any(i, &["may", "can"])
                && !self.is(i + 1, "not")
                && !self.seq(i + 1, &["or", "may"])
            {
                // "You can find the logs in …", "you may need to restart":
                // information or possibility, not leave.
                let informational = self.any(
                    i + 1,
                    &[
                        "also",
                        "be",
                        "check",
                        "configure",
                        "find",
                        "get",
                        "have",
                        "install",
                        "learn",
                        "need",
                        "see",
                        "try",
                        "use",
                        "view",
                        "want",
                    ],
                );
                let subject = self.any(i.wrapping_sub(1), &["you", "agents", "agent", "assistant"])
                    && !informational;
                let when = (i + 1..self.len()).any(|k| {
                    self.any(k, &["during", "anytime", "freely", "whenever"])
                        || self.seq(k, &["any", "time"])
                        || self.seq(k, &["without", "asking"])
                });
                if subject || when {
                    return Some((
                        RuleForm::CarveOut,
                        if self.is(i, "may") { "may" } else { "can" },
                    ));
                }
            }
            if self.seq(i, &["feel", "free"]) {
                return Some((RuleForm::CarveOut, "feel free"));
            }
            // "You're free to restart the dev pools".
            if self.is(i, "free")
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && (0..i).any(|k| self.any(k, &["you", "agents", "agent", "assistant"]))
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "free to"));
            }
            // A negation of the main clause, not of a relative one
            // ("anything that nobody queried … can go").
            let negated = (0..i)
                .take_while(|&k| {
                    !self.any(
                        k,
                        &[
                            "that", "which", "who", "whose", "if", "unless", "when", "where",
                        ],
                    )
                })
                .any(|k| self.negation(k));
            if self.any(i, &["may", "can"]) && !self.is(i + 1, "not") && !negated {
                // "Anything unused for 90 days can go", "branches older
                // than a month may be deleted": leave to remove.
                let go = self.is(i + 1, "go")
                    && (i + 2 >= self.len()
                        || self.clause_start(i + 2)
                        || self.any(i + 2, &["away", "too", "now", "as", "once", "after"]));
                let removed =
                    self.is(i + 1, "be") && self.word(i + 2).is_some_and(|w| in_table(REMOVALS, w));
                if go || removed {
                    return Some((RuleForm::CarveOut, "can go"));
                }
                // "Hotfixes may skip staging": leave to pass a rule by.
                if self.any(i + 1, &["skip", "bypass", "override", "exceed", "ignore"])
                    && (self.head()..i)
                        .any(|k| self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w)))
                {
                    return Some((RuleForm::CarveOut, "may skip"));
                }
            }
            // "The ANALYTICS_DEV database is yours to play with", "staging
            // is fair game", "you have permission to restart workers".
            if self.is(i, "yours") && self.is(i + 1, "to") && !negated {
                return Some((RuleForm::CarveOut, "yours to"));
            }
            if self.seq(i, &["fair", "game"]) && !negated {
                return Some((RuleForm::CarveOut, "fair game"));
            }
            if self.is(i, "permission")
                && self.is(i + 1, "to")
                && self.any(
                    i.wrapping_sub(1),
                    &[
                        "gave", "given", "has", "have", "granted", "got", "with", "full",
                    ],
                )
                && !negated
            {
                return Some((RuleForm::CarveOut, "permission to"));
            }
            if self.any(i, &["allowed", "permitted"])
                && (self.any(i.wrapping_sub(1), &["is", "are", "be"])
                    || (self.any(
                        i.wrapping_sub(1),
                        &["only", "always", "also", "still", "generally", "usually"],
                    ) && self.any(i.wrapping_sub(2), &["is", "are", "be"])))
                && !self.is(i + 1, "not")
                && !(0..i).any(|k| self.negation(k) || self.is(k, "would"))
            {
                return Some((RuleForm::CarveOut, "allowed"));
            }
            if self.any(i, &["fine", "ok", "okay"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "fine to"));
            }
            // "Anything in /tmp/scratch is safe to delete", "the dev pool
            // is all yours", "do whatever you want in the sandbox".
            let removal = self.word(i + 2).is_some_and(|w| {
                in_table(
                    &[
                        "archive", "clean", "delete", "drop", "kill", "prune", "purge", "reboot",
                        "recreate", "remove", "restart", "truncate", "wipe",
                    ],
                    w,
                )
            });
            if self.is(i, "safe")
                && self.is(i + 1, "to")
                && removal
                && self.any(i.wrapping_sub(1), &["is", "are"])
                && !self.any(i.wrapping_sub(2), DESCRIPTIVE)
                && !negated
            {
                return Some((RuleForm::CarveOut, "safe to"));
            }
            if self.seq(i, &["all", "yours"]) && !negated {
                return Some((RuleForm::CarveOut, "yours to"));
            }
            if self.is(i, "whatever")
                && self.is(i + 1, "you")
                && self.any(i + 2, &["want", "like", "need"])
                && !negated
            {
                return Some((RuleForm::CarveOut, "whatever you want"));
            }
            if self.any(i, &["fine", "ok", "okay"])
                && self.any(i.wrapping_sub(1), &["is", "are"])
                && !self.any(i.wrapping_sub(2), DESCRIPTIVE)
                && (i >= 3 || self.any(i + 1, &["anywhere", "to"]))
            {
                return Some((RuleForm::CarveOut, "fine"));
            }
        }
        None
    }

    /// Which tokens are in a subordinate part ("before you ask for
    /// review", "until the DBA has checked"): an approval's cue must be in
    /// the main clause.
    fn subordinate(&self, i: usize) -> bool {
        (0..i)
            .rev()
            .take_while(|&k| !self.clause_start(k + 1) || k + 1 > i)
            .any(|k| {
                self.any(
                    k,
                    &["before", "until", "after", "if", "unless", "once", "when"],
                ) && (k + 1..=i).all(|j| !self.clause_start(j))
            })
    }

    /// "needs sign-off from", "requires approval", "must be reviewed by",
    /// "wait for my OK", "ask X before", "loop X in".
    fn approval(&self) -> Cue {
        let n = self.len();
        // "You have my approval to restart billing-node-4 once …": an
        // approval given is a permission.
        for i in 2..n {
            if self.any(i, &["approval", "blessing", "go-ahead"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && self.any(i - 1, &["my", "our"])
                && self.any(i - 2, &["have", "has", "got", "given", "granted", "with"])
                && !(0..i).any(|k| self.negation(k))
            {
                return Some((RuleForm::CarveOut, "permission to"));
            }
        }
        let frame = (0..n).any(|i| {
            self.any(
                i,
                &[
                    "need",
                    "needs",
                    "require",
                    "requires",
                    "required",
                    "must",
                    "should",
                    "shall",
                    "wait",
                    "without",
                    "get",
                    "goes",
                    "through",
                    "ask",
                    "asking",
                    "acknowledge",
                    "loop",
                    "want",
                    "wants",
                ],
            ) || (self.is(i, "for") && self.any(i + 1, &["approval", "review", "sign"]))
        });
        let h = self.head();
        // "No sign-off needed for dev restarts", "restarts don't need
        // approval": a gate lifted, which is leave.
        for i in 0..n {
            let end = if self.any(i, &["approval", "approvals", "review", "permission"])
                || self.raw(i).eq_ignore_ascii_case("sign-off")
                || self.raw(i) == "OK"
            {
                i + 1
            } else if self.seq(i, &["sign", "off"]) {
                i + 2
            } else {
                continue;
            };
            let needless = (i.saturating_sub(4)..i).any(|k| {
                self.is(k, "not") && self.any(k + 1, &["need", "needs", "require", "requires"])
            });
            let none = self.is(i.wrapping_sub(1), "no")
                && self.any(end, &["needed", "required", "necessary"]);
            if needless || none {
                return Some((RuleForm::CarveOut, "no approval needed"));
            }
        }
        for i in 0..n {
            if self.subordinate(i) && i != h {
                continue;
            }
            // "wants every migration reviewed by Priya": a participle the
            // wish takes, not a past.
            let wished = (i.saturating_sub(5)..i).any(|k| {
                self.any(
                    k,
                    &[
                        "want", "wants", "wanted", "need", "needs", "require", "requires", "get",
                        "gets",
                    ],
                )
            });
            let past = self.any(i.wrapping_sub(1), &["was", "were", "has", "have", "had"])
                || (self.any(i, &["approved", "reviewed", "signed", "acknowledged"])
                    && !self.any(i.wrapping_sub(1), &["be", "been", "is", "are"])
                    && !wished);
            let cue = if self.any(
                i,
                &["approval", "approvals", "approve", "approved", "approves"],
            ) {
                Some("approval")
            } else if self.any(i, &["sign-off", "signoff"])
                || (self.any(i, &["sign", "signed", "signs"]) && self.is(i + 1, "off"))
            {
                Some("sign-off")
            } else if self.any(
                i,
                &["review", "reviews", "reviewed", "reviewer", "reviewers"],
            ) {
                Some("review")
            } else if self.seq(i, &["thumbs", "up"])
                || self.raw(i).eq_ignore_ascii_case("thumbs-up")
            {
                Some("thumbs-up")
            } else if self.raw(i) == "OK"
                && self.any(
                    i.wrapping_sub(1),
                    &[
                        "my", "his", "her", "their", "an", "explicit", "the", "written", "our",
                    ],
                )
            {
                Some("OK")
            } else if self.raw(i) == "+1"
                && self.any(
                    i.wrapping_sub(1),
                    &["a", "an", "the", "your", "his", "her", "their"],
                )
            {
                Some("+1")
            } else if (self.seq(i, &["go", "ahead"]) && i != h)
                || self.raw(i).eq_ignore_ascii_case("go-ahead")
            {
                Some("go-ahead")
            } else if self.any(i, &["lgtm", "consent", "permission", "acknowledge", "ack"]) {
                Some("acknowledge")
            } else if self.any(i, &["second", "another", "two", "2"])
                && self.any(
                    i + 1,
                    &[
                        "human",
                        "humans",
                        "person",
                        "people",
                        "pair",
                        "engineer",
                        "engineers",
                        "keyholders",
                        "approvers",
                        "reviewers",
                        "signatures",
                        "eyes",
                    ],
                )
            {
                Some("a second human")
            } else if (self.is(i, "loop") && self.find(i + 1, "in").is_some_and(|k| k <= i + 4))
                || (i == h
                    && self.any(i, &["tag", "ping", "cc", "notify"])
                    && self.any(i + 1, &["me", "us"])
                    && self.any(i + 2, &["on", "about", "for", "in"])
                    && self.any(i + 3, &["anything", "any", "every", "all", "each"]))
            {
                // "loop Dana in", "tag me on anything that changes IAM".
                Some("loop in")
            } else if self.any(i, &["escalate", "defer", "hand"])
                && (i + 1..(i + 4).min(n)).any(|k| {
                    self.is(k, "to")
                        && (self.any(k + 1, &["me", "us", "someone", "legal", "security"])
                            || self.any(
                                k + 2,
                                &[
                                    "human", "person", "lead", "manager", "engineer", "approver",
                                    "reviewer",
                                ],
                            ))
                })
            {
                Some("escalate to a human")
            } else if self.is(i, "asking") && self.is(i.wrapping_sub(1), "without") {
                Some("without asking")
            } else if self.is(i, "without")
                && (self.any(i + 1, &["me", "us", "supervision", "oversight"])
                    || (self.any(i + 1, &["a", "an", "someone"])
                        && self.any(i + 2, &["human", "person", "reviewer", "approver", "lead"])))
            {
                Some(if self.any(i + 1, &["me", "us"]) {
                    "without me"
                } else {
                    "without an approver"
                })
            } else if self.is(i, "ask")
                && i == h
                && self.find_any(i, &["before", "first"]).is_some()
            {
                Some("ask before")
            } else if self.seq(i, &["check", "with"]) && i == h {
                Some("check with")
            } else {
                None
            };
            let Some(cue) = cue else {
                continue;
            };
            if past && !matches!(cue, "ask before" | "check with") {
                continue;
            }
            let present = (self.is(i, "approves") || self.seq(i, &["signs", "off"])) && i > h;
            if frame || i == h || present || cue == "escalate to a human" {
                return Some((RuleForm::Approval, cue));
            }
        }
        None
    }

    /// The freeze cue: "frozen", "is a … freeze", "freeze until"; with
    /// whether it names a time, and whether it heads what follows.
    fn freeze(&self) -> Option<(usize, bool)> {
        for i in 0..self.len() {
            let Some(w) = self.word(i) else { continue };
            let lower_is = |p: &str| {
                w.len() >= p.len() && w.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes())
            };
            if !(lower_is("frozen") || lower_is("freeze")) || lower_is("freezer") {
                continue;
            }
            let history = self.any(i.wrapping_sub(1), &["was", "were", "been", "lifted"])
                || self.any(
                    i + 1,
                    &[
                        "was",
                        "were",
                        "lifted",
                        "ended",
                        "exception",
                        "exceptions",
                        "ends",
                    ],
                );
            if history {
                continue;
            }
            let frozen = lower_is("frozen");
            let framed = (frozen
                && (self.any(
                    i.wrapping_sub(1),
                    &["is", "are", "stay", "stays", "remain", "remains"],
                ) || self.is(i + 1, "until")))
                || (!frozen
                    && (self.any(i + 1, &["until", "through", "in", "on"])
                        || (0..i)
                            .rev()
                            .take(4)
                            .any(|k| self.any(k, &["is", "are", "under", "in"]))));
            if framed {
                let head = !frozen && (0..i).rev().take(4).any(|k| self.any(k, &["is", "are"]));
                return Some((i, head));
            }
        }
        None
    }

    /// Clock times, days, "business hours", freezes, change windows.
    fn window(&self) -> Cue {
        let n = self.len();
        if let Some((i, _)) = self.freeze() {
            let timed = self.time_in(0, n);
            let cue = if self
                .word(i)
                .is_some_and(|w| w.to_ascii_lowercase().starts_with("frozen"))
            {
                "frozen"
            } else {
                "freeze"
            };
            return Some((
                if timed {
                    RuleForm::Window
                } else {
                    RuleForm::Scope
                },
                cue,
            ));
        }
        if !self.time_in(0, n) {
            return None;
        }
        // "Deploys are blocked until 2026-06-02", "merges are paused until
        // Monday": a freeze by another name.
        if let Some(i) = self.find_any(0, HALTED)
            && self.any(
                i.wrapping_sub(1),
                &["is", "are", "remain", "remains", "stay", "stays", "be"],
            )
            && self.any(i + 1, &["until", "till", "through", "for"])
        {
            return Some((RuleForm::Window, "blocked until"));
        }
        if let Some(i) = self.find(0, "window")
            && (self.any(i + 1, &["is", "are"]) || i <= 3)
        {
            return Some((RuleForm::Window, "window"));
        }
        // "Quiet hours are 22:00 to 07:00", "the blackout period is …".
        if let Some(i) = self.find_any(0, &["hours", "period", "blackout"])
            && self.any(i + 1, &["is", "are"])
            && self.time_in(i + 2, n)
        {
            return Some((RuleForm::Window, "hours"));
        }
        let cue = [
            "between", "during", "until", "outside", "only", "before", "after",
        ]
        .into_iter()
        .find(|w| self.has(w));
        // "only" frames a time it stands beside: "only between 09:00 and
        // 17:00", "Tuesday to Thursday only", "business hours only".
        let only_time = (0..n).any(|i| {
            self.is(i, "only")
                && (self.time_in(i + 1, i + 2)
                    || (self.any(
                        i + 1,
                        &[
                            "between", "during", "on", "before", "after", "until", "in", "outside",
                        ],
                    ) && self.time_in(i + 2, i + 4))
                    || self.time_in(i.saturating_sub(2), i)
                    || (i + 1..(i + 6).min(n)).any(|k| {
                        self.any(
                            k,
                            &["on", "during", "between", "at", "after", "before", "until"],
                        ) && self.time_in(k + 1, k + 3)
                            && self.entity(k + 1) != Some(EntityKind::Date)
                    }))
        });
        // "never deployed on Fridays" is history, not a window.
        let negated = (0..n).any(|i| self.negation(i) && !self.history_after(i));
        let framed = negated
            || only_time
            || self.has("outside")
            || (cue.is_some()
                && !self.has("only")
                && (self.imperative().is_some() || self.modal_in(0, n)));
        if framed {
            return Some((RuleForm::Window, cue.unwrap_or("time window")));
        }
        None
    }

    /// "before you X", "X first", "first …, then …", "only after", "wait
    /// for", "once X, Y", "without a saved plan", "N hours ahead".
    fn ordering(&self) -> Cue {
        let n = self.len();
        let h = self.head();
        for i in 0..n {
            if self.any(i, &["before"]) || self.seq(i, &["prior", "to"]) {
                if self.time_follows(i + 1) {
                    continue;
                }
                let directive = if i == h {
                    let main = self.next_clause(i);
                    main < n && self.directive(main, n)
                } else {
                    self.directive(h, i) || self.any(h, &["always", "never"])
                };
                if directive {
                    return Some((RuleForm::Ordering, "before"));
                }
            }
            if self.seq(i, &["only", "after"]) || self.seq(i, &["not", "until"]) {
                return Some((RuleForm::Ordering, "only after"));
            }
            if self.is(i, "wait")
                && !(i > 0 && self.negation(i - 1))
                && (self.any(i + 1, &["for", "until"])
                    || self.seq(i + 1, &["at", "least"])
                    || self.number(i + 1))
            {
                return Some((RuleForm::Ordering, "wait for"));
            }
            if let Some(mut after) = self.after_at_least(i, n)
                && after.any(|k| self.any(k, ADVANCE))
            {
                return Some((RuleForm::Ordering, "ahead"));
            }
            if self.is(i, "once")
                && !self.any(i.wrapping_sub(1), &["at", "than"])
                && !self.any(i + 1, &["a", "an", "per", "every", "more"])
                && i > h
                && self.directive(h, i)
            {
                return Some((RuleForm::Ordering, "once"));
            }
            if self.is(i, "once") && i == h {
                let main = self.next_clause(i);
                if main < n && self.directive(main, n) {
                    return Some((RuleForm::Ordering, "once"));
                }
            }
            if self.is(i, "without")
                && (i + 1..(i + 4).min(n)).any(|k| self.word(k).is_some_and(|w| in_table(STEPS, w)))
                && (self.negated() || self.directive(h, i))
            {
                return Some((RuleForm::Ordering, "without"));
            }
        }
        // "X first", "first X, then Y".
        let last = (0..n)
            .rev()
            .find(|&i| self.word(i).is_some() || self.entity(i).is_some());
        let first_last = last.is_some_and(|i| {
            self.any(i, &["first", "beforehand", "afterwards", "afterward"])
                || self.seq(i.wrapping_sub(1), &["in", "advance"])
        });
        let first_then = self.is(h, "first") && self.find(h + 1, "then").is_some();
        // "Route 10% to it first and hold for an hour", "run with --check
        // first, then …".
        let first_comma = (h + 2..n).any(|i| {
            self.any(i, &["first", "beforehand"])
                && (self.any(i + 1, &["then", "and"]) || self.clause_start(i + 1))
        });
        if (first_last || first_comma) && (self.directive(h, n) || self.imperative().is_some())
            || first_then
        {
            return Some((RuleForm::Ordering, "first"));
        }
        None
    }

    /// "only on X", "leave X alone", "keep changes inside Y", "off-limits",
    /// "out of scope", "read-only", "do not touch X", "not in X".
    fn scope(&self) -> (Cue, bool) {
        let n = self.len();
        let h = self.head();
        let must_be = (0..n).any(|i| self.any(i, &["must", "should"]) && self.is(i + 1, "be"));
        let method =
            (0..n).any(|i| self.any(i, &["directly", "manually"]) || self.seq(i, &["by", "hand"]));
        for i in 0..n {
            // "The audit indices stay untouched".
            if self.any(i, &["stay", "stays", "remain", "remains", "be"])
                && self.any(i + 1, &["untouched", "alone"])
                && i > h
            {
                return (Some((RuleForm::Scope, "leave … alone")), false);
            }
            // "nightly-report was left alone": a report.
            let reported =
                self.is(i, "left") && self.any(i.wrapping_sub(1), &["was", "were", "been", "got"]);
            if self.any(i, &["leave", "leaves", "left"]) && !reported {
                let end = (i + 8).min(n);
                if (i + 1..end).any(|k| self.any(k, &["alone", "untouched"])) {
                    return (Some((RuleForm::Scope, "leave … alone")), false);
                }
                if i == h
                    && self.is(i, "leave")
                    && let Some(k) = self.find(i + 1, "to")
                    && k <= i + 5
                    && !self.number(k + 1)
                {
                    return (Some((RuleForm::Scope, "leave … to")), false);
                }
            }
            if self.seq(i, &["off", "limits"]) || self.raw(i).eq_ignore_ascii_case("off-limits") {
                return (Some((RuleForm::Scope, "off-limits")), false);
            }
            if self.seq(i, &["out", "of", "scope"]) {
                return (Some((RuleForm::Scope, "out of scope")), false);
            }
            // "packages/legacy-* are read-only", "treat vendor/ as
            // read-only", "billing: read-only".
            let read_only = if self.seq(i, &["read", "only"]) {
                Some(i + 2)
            } else if self.is(i, "read-only") {
                Some(i + 1)
            } else {
                None
            };
            if let Some(end) = read_only
                && self.find_seq(0, &["by", "design"]).is_none()
                && (self.any(
                    i.wrapping_sub(1),
                    &[
                        "is", "are", "be", "stay", "stays", "remain", "remains", "as", "keep",
                        "have", "has", "with", "get",
                    ],
                ) || (self.clause_start(i) && i > 0)
                    || (i == h
                        && (end >= n
                            || self.any(
                                end,
                                &["unless", "until", "except", "outside", "during", "while"],
                            ))))
            {
                return (Some((RuleForm::Scope, "read-only")), false);
            }
            if self.seq(i, &["nowhere", "else"]) {
                return (Some((RuleForm::Scope, "nowhere else")), false);
            }
            if self.any(i, &["keep", "keeps"])
                && (i + 1..(i + 5).min(n)).any(|k| {
                    self.any(k, &["inside", "within", "under"])
                        || (self.is(k, "in")
                            && self.any(k - 1, &["changes", "work", "edits", "everything", "it"]))
                })
                && !(i + 1..(i + 5).min(n)).any(|k| self.is(k, "out"))
            {
                return (Some((RuleForm::Scope, "keep … inside")), false);
            }
            if self.any(i, &["stick", "stay", "stays", "remain", "remains"])
                && self.any(i + 1, &["within", "inside", "in", "to"])
                && !self.number(i + 2)
                && !(self.is(i + 1, "to") && self.any(i, &["stay", "stays", "remain", "remains"]))
            {
                return (Some((RuleForm::Scope, "stay within")), false);
            }
            if self.any(i, &["keep", "stay", "stays", "remain", "remains", "leave"])
                && (i + 1..(i + 6).min(n))
                    .any(|k| self.is(k, "as") && self.any(k + 1, &["they", "it", "is"]))
            {
                return (Some((RuleForm::Scope, "as they are")), false);
            }
            if self.any(i, &["limited", "restricted", "scoped", "confined"])
                && self.is(i + 1, "to")
                && !must_be
            {
                return (Some((RuleForm::Scope, "limited to")), false);
            }
        }
        // "the other services in that release stay."
        let last = (0..n)
            .rev()
            .find(|&i| self.word(i).is_some() || self.entity(i).is_some());
        if let Some(l) = last
            && self.any(l, &["stay", "stays"])
            && l > h
            && !self.any(h, &["i", "we", "you"])
        {
            return (Some((RuleForm::Scope, "stay")), false);
        }
        // Touching, negated: "don't touch X", "avoid touching X".
        if !method {
            for i in 0..n {
                let negated = i > 0
                    && (self.negation(i - 1)
                        || self.any(i - 1, &["avoid", "without"])
                        || (self.is(i - 1, "to") && self.negation(i.wrapping_sub(2))));
                // "it never writes to the source database": a description.
                if !negated || self.any(i.wrapping_sub(2), DESCRIPTIVE) {
                    continue;
                }
                if self.is(i + 1, "there") && self.verb_at(i).is_some() {
                    return (Some((RuleForm::Scope, "not there")), false);
                }
                let writes = self.any(i, &["write", "writing"]);
                let somewhere = (i + 1..(i + 4).min(n)).any(|k| {
                    self.entity(k).is_some_and(|e| !e.is_numeric())
                        || self.word(k).is_some_and(|w| in_table(RESOURCES, w))
                        || self.slashed(k)
                });
                if self.any(i, TOUCH) && (!writes || somewhere) {
                    return (Some((RuleForm::Scope, "do not touch")), false);
                }
                if self.any(i, &["change", "changing"]) {
                    let object = (i + 1..(i + 6).min(n)).any(|k| {
                        self.entity(k).is_some_and(|e| !e.is_numeric())
                            || self.any(k, &["any", "anything"])
                            || (self.is(k, "in") && self.any(k + 1, &["this", "that"]))
                    });
                    if object {
                        return (Some((RuleForm::Scope, "do not change")), false);
                    }
                }
            }
        }
        let skip = (0..n).find(|&i| {
            self.is(i, "skip")
                && (i == h
                    || self.clause_start(i)
                    || (i > 0
                        && self.clause_start(i - 1)
                        && self.any(i - 1, &["so", "then", "just", "please"])))
        });
        // "so skip it", "skip the payments tables": a thing named; not
        // "skip medium and low".
        if let Some(i) = skip
            && (i + 1..(i + 4).min(n)).any(|k| {
                self.entity(k).is_some_and(|e| !e.is_numeric())
                    || self.slashed(k)
                    || self.word(k).is_some_and(|w| {
                        in_table(RESOURCES, w)
                            || in_table(
                                &[
                                    "all", "any", "anything", "every", "it", "that", "the", "them",
                                    "these", "this", "those",
                                ],
                                w,
                            )
                    })
            })
        {
            return (Some((RuleForm::Scope, "skip")), false);
        }
        // "Account deletions are handled by the privacy team, not by you";
        // "your scope is billing questions".
        for i in 0..n {
            if self.is(i, "not")
                && (self.seq(i + 1, &["by", "you"])
                    || (self.is(i + 1, "you") && i + 2 >= n)
                    || self.seq(i + 1, &["by", "the", "agent"]))
            {
                return (Some((RuleForm::Scope, "not by you")), false);
            }
            if self.seq(i, &["your", "scope"]) && self.any(i + 2, &["is", "covers"]) {
                return (Some((RuleForm::Scope, "your scope")), false);
            }
        }
        let not_to_verb = self.is(h + 1, "to") && self.verb_at(h + 2).is_some();
        if self.is(h, "not")
            && !not_to_verb
            && (self.any(h + 1, PLACES) || self.entity(h + 1).is_some())
        {
            return (Some((RuleForm::Scope, "not in")), false);
        }
        (self.only(must_be), true)
    }

    /// "only": a scope when it marks off a place or a thing ("only on X",
    /// "touch only X", "in X only"); otherwise an obligation ("squash-merge
    /// only", "only plan").
    fn only(&self, must_be: bool) -> Cue {
        let n = self.len();
        let i = self.find(0, "only")?;
        if self.any(i.wrapping_sub(1), &["not", "if"])
            || self.any(i + 1, &["if", "when", "after", "once", "during", "between"])
        {
            return None;
        }
        if self.any(i.wrapping_sub(1), DESCRIPTIVE) {
            return None;
        }
        // "Only 3 pods are running", "only two people know it": state.
        if self.number(i + 1)
            && (i == self.head()
                || (i + 2..n).any(|k| self.any(k, &["is", "are", "was", "were", "has", "have"])))
        {
            return None;
        }
        if must_be {
            return Some((RuleForm::Obligation, "only"));
        }
        let place = |k: usize| {
            self.entity(k).is_some_and(|e| !e.is_numeric())
                || self.word(k).is_some_and(|w| in_table(RESOURCES, w))
                || self.slashed(k)
        };
        // A named thing, not a compound word ("europe-west4", not
        // "squash-merge").
        let named = |k: usize| {
            self.t.get(k).is_some_and(|t| {
                matches!(t.entity, Some(EntityKind::Path | EntityKind::Ticket))
                    || (t.entity.is_some()
                        && t.text
                            .bytes()
                            .any(|b| b.is_ascii_digit() || matches!(b, b'/' | b'.' | b'_' | b':')))
            })
        };
        if self.imperative().is_some() && i + 1 < n && place(i + 1) {
            return Some((RuleForm::Scope, "only"));
        }
        if self.any(i + 1, PLACES) && (!self.is(i + 1, "from") || place(i + 2) || place(i + 3)) {
            return Some((RuleForm::Scope, "only"));
        }
        if self.verb_at(i + 1).is_some() {
            let object = i + 2 < n;
            return Some((
                if object {
                    RuleForm::Scope
                } else {
                    RuleForm::Obligation
                },
                "only",
            ));
        }
        if i > 0
            && self.verb_at(i - 1).is_some()
            && (place(i + 1)
                || self.any(i + 1, &["the", "this", "that", "these"])
                || self.word(i + 1).is_some())
            && i + 1 < n
        {
            return Some((RuleForm::Scope, "only"));
        }
        // "… in gke-prod-west only", "works on apps/web and packages/ui only".
        let back = i.saturating_sub(5);
        let located = (back..i)
            .any(|k| self.any(k, PLACES) && (!self.is(k, "from") || (k + 1..i).any(place)));
        if located || (i > 0 && place(i - 1) && (self.word(i - 1).is_some() || named(i - 1))) {
            return Some((RuleForm::Scope, "only"));
        }
        Some((RuleForm::Obligation, "only"))
    }

    /// "never", "do not", "must not", "no X", "kill nothing", "avoid",
    /// "keep … out of", "not yours to".
    fn prohibition(&self) -> Cue {
        let n = self.len();
        let h = self.head();
        for i in 0..n {
            if self.is(i, "never") {
                let descriptive = self.any(i.wrapping_sub(1), DESCRIPTIVE)
                    || self.any(i.wrapping_sub(1), &["i", "we", "he", "she", "they"])
                        && self.past_after(i);
                if !descriptive && !self.history_after(i) {
                    return Some((RuleForm::Prohibition, "never"));
                }
            }
            if self.is(i, "not") {
                let prev = i.wrapping_sub(1);
                if self.any(prev, &["do", "does"]) {
                    let lead = prev == h
                        || self.clause_start(prev)
                        || self.any(
                            prev.wrapping_sub(1),
                            &[
                                "please", "you", "and", "but", "so", "then", "just", "we",
                                "agents", "also", "still", "again", "and", "or",
                            ],
                        );
                    if lead && !self.is(prev, "does") {
                        return Some((RuleForm::Prohibition, "do not"));
                    }
                }
                let described = if self.is(prev, "should") {
                    self.any(prev.wrapping_sub(1), DESCRIPTIVE)
                } else {
                    self.described(prev)
                };
                if self.any(prev, &["must", "shall", "should"]) && !described {
                    return Some((RuleForm::Prohibition, "must not"));
                }
                if self.is(prev, "may") {
                    return Some((RuleForm::Prohibition, "may not"));
                }
                if self.is(prev, "can")
                    && (prev == h
                        || self.any(
                            prev.wrapping_sub(1),
                            &["you", "agents", "agent", "assistant"],
                        )
                        || (self.is(prev.wrapping_sub(1), "we") && self.bound(prev - 1)))
                {
                    return Some((RuleForm::Prohibition, "cannot"));
                }
                let are = self.any(prev, &["is", "are", "be", "am"])
                    || self.raw(prev).to_ascii_lowercase().ends_with("'re")
                    || self.raw(prev).ends_with("\u{2019}re")
                    || self.raw(prev).to_ascii_lowercase().ends_with("'m");
                if are && self.any(i + 1, &["allowed", "permitted", "supposed"]) {
                    return Some((RuleForm::Prohibition, "not allowed"));
                }
                if self.any(i + 1, &["yours", "ours"]) && self.is(i + 2, "to") {
                    return Some((RuleForm::Prohibition, "not yours to"));
                }
                // "not bump the major", and after a reporting frame "(said)
                // not to bump the major".
                let verb = if self.is(i + 1, "to") { i + 2 } else { i + 1 };
                if i == h && self.verb_at(verb).is_some() {
                    return Some((RuleForm::Prohibition, "not"));
                }
                // "The user does not want new dependencies", "I don't want
                // any schema changes": a wish that forbids. The speaker's
                // own "I don't want to wait" is not one.
                if self.any(prev, &["do", "does", "did"]) && self.any(i + 1, &["want", "wants"]) {
                    let who = prev.wrapping_sub(1);
                    let reporter = self.word(who).is_some_and(|w| {
                        in_table(
                            &[
                                "user", "operator", "customer", "client", "team", "they", "he",
                                "she",
                            ],
                            w,
                        )
                    });
                    let speaker = self.any(who, &["i", "we"]) && !self.is(i + 2, "to");
                    if (reporter || speaker) && i + 2 < n {
                        return Some((RuleForm::Prohibition, "does not want"));
                    }
                }
            }
            if self.any(
                i,
                &[
                    "forbidden",
                    "prohibited",
                    "banned",
                    "disallowed",
                    "discouraged",
                    "forbade",
                    "forbid",
                    "forbids",
                    "prohibits",
                ],
            ) {
                return Some((RuleForm::Prohibition, "forbidden"));
            }
            if self.is(i, "no")
                && (i == h || self.clause_start(i))
                && i + 1 < n
                && !self.word(i + 1).is_some_and(|w| in_table(NO_IDIOMS, w))
                && !self.any(i + 1, &["more", "fewer", "less"])
                && !self.reported_after(i + 1)
            {
                return Some((RuleForm::Prohibition, "no"));
            }
            // "nothing to commit", "nothing to deploy": a report.
            if self.any(i, &["nothing", "none"])
                && (i == h || (i > 0 && self.verb_at(i - 1).is_some() && i - 1 == h))
                && !(self.is(i + 1, "to") && self.verb_at(i + 2).is_some())
            {
                return Some((RuleForm::Prohibition, "nothing"));
            }
            if self.is(i, "avoid")
                && (i == h || self.any(i.wrapping_sub(1), &["please", "you", "should", "must"]))
            {
                return Some((RuleForm::Prohibition, "avoid"));
            }
            if self.seq(i, &["under", "no", "circumstances"])
                || self.seq(i, &["in", "no", "case"])
                || self.seq(i, &["at", "no", "time"])
            {
                return Some((RuleForm::Prohibition, "under no circumstances"));
            }
            if self.seq(i, &["refrain", "from"]) || self.seq(i, &["stay", "away", "from"]) {
                return Some((RuleForm::Prohibition, "refrain from"));
            }
            if self.is(i, "keep") && (i + 1..(i + 8).min(n)).any(|k| self.seq(k, &["out", "of"])) {
                return Some((RuleForm::Prohibition, "keep … out of"));
            }
        }
        None
    }

    /// A convention about the agent's work said as a fact: its subject is
    /// work the agent produces, its verb a present passive ("replies are
    /// written in …", "all prices are quoted including VAT").
    fn convention(&self) -> bool {
        let n = self.len();
        let h = self.head();
        let Some(v) = (h + 1..n.min(h + 6)).find(|&k| self.any(k, &["is", "are"])) else {
            return false;
        };
        let subject = (h..v).any(|k| self.word(k).is_some_and(|w| in_table(WORK_NOUNS, w)));
        let passive = self.word(v + 1).is_some_and(|w| {
            is_participle(w) && !in_table(&["broken", "done", "failed", "finished", "merged"], w)
        });
        subject && passive && v + 2 < n
    }

    /// "must", "always", "make sure", "have to", "X instead", "keep …",
    /// "every commit", "needs", "stays formal", "follows".
    fn obligation(&self, contrast: bool) -> Cue {
        let n = self.len();
        let h = self.head();
        let imperative = self.imperative();
        for i in 0..n {
            // Which text wins a conflict: "when this file and X conflict,
            // X governs", "user instructions take precedence".
            if (self.any(i, &["governs", "prevails"]) && (i + 1 == n || self.is(i + 1, "over")))
                || (self.any(i, &["take", "takes"]) && self.is(i + 1, "precedence"))
            {
                return Some((RuleForm::Obligation, "takes precedence"));
            }
            let guess = self.is(i + 1, "have") && self.word(i + 2).is_some_and(is_past);
            if self.any(i, &["must", "shall"])
                && !self.any(i + 1, &["not", "never"])
                && !self.described(i)
                && !guess
            {
                return Some((RuleForm::Obligation, "must"));
            }
            if self.any(i, &["has", "have", "need", "needs"])
                && self.is(i + 1, "to")
                && !self.any(i.wrapping_sub(1), &["may", "might", "could", "would", "no"])
                && !self.any(i.wrapping_sub(1), DESCRIPTIVE)
            {
                return Some((RuleForm::Obligation, "have to"));
            }
            if self.any(i, &["is", "are"])
                && self.any(i + 1, &["preferred", "mandatory", "compulsory"])
            {
                return Some((RuleForm::Obligation, "preferred"));
            }
            if self.any(i, &["is", "are"]) && self.is(i + 1, "required") {
                return Some((RuleForm::Obligation, "required"));
            }
            // "We're supposed to use pnpm", "you are expected to write
            // tests": a person's duty (a job "expected to finish" is not).
            if self.any(i, &["supposed", "expected"])
                && self.is(i + 1, "to")
                && self.verb_at(i + 2).is_some()
                && !self.any(i + 2, &["get", "receive", "have", "hear", "see", "meet"])
                && !self.is(i.wrapping_sub(1), "not")
                && (i.saturating_sub(3)..i)
                    .any(|k| self.any(k, &["we", "you", "i", "agents", "agent", "assistant"]))
            {
                return Some((RuleForm::Obligation, "supposed to"));
            }
            if self.seq(i, &["make", "sure"])
                || (self.is(i, "ensure") && (i == h || self.is(i.wrapping_sub(1), "please")))
                || self.seq(i, &["be", "sure", "to"])
            {
                return Some((RuleForm::Obligation, "make sure"));
            }
            if self.is(i, "always")
                && !self.any(i.wrapping_sub(1), DESCRIPTIVE)
                && !self.past_after(i)
            {
                return Some((RuleForm::Obligation, "always"));
            }
            let expectation = (i.saturating_sub(3)..i)
                .any(|k| self.any(k, DESCRIPTIVE) || self.is(k, "one"))
                || (self.is(i + 1, "be")
                    && self
                        .word(i + 2)
                        .is_some_and(|w| !is_past(w) && !w.ends_with("en"))
                    && i + 3 >= n);
            // "The scheduler should pick up new jobs": an expectation.
            // "You should", "commits should be signed", "all PRs should":
            // rules.
            let passive = self.is(i + 1, "be") || self.any(i + 1, &["always", "never", "only"]);
            let agent = self.any(
                i.wrapping_sub(1),
                &["you", "we", "i", "agents", "agent", "assistant", "everyone"],
            );
            let definite = (i.saturating_sub(4)..i).any(|k| self.any(k, &["the", "this", "that"]));
            let expectation = expectation || (!passive && !agent && definite);
            if self.is(i, "should") && !expectation && !self.is(i + 1, "not") {
                return Some((RuleForm::Obligation, "should"));
            }
            if self.seq(i, &["would", "be", "great", "if"])
                || self.seq(i, &["i", "want", "you"])
                || self.seq(i, &["i", "need", "you"])
                || (self.is(i, "i")
                    && self.raw(i).len() > 1
                    && self.any(i + 1, &["like", "prefer"]))
            {
                return Some((RuleForm::Obligation, "I'd like"));
            }
        }
        if imperative.is_some() {
            if self.has("instead") || self.find_seq(0, &["rather", "than"]).is_some() || contrast {
                return Some((RuleForm::Obligation, "instead"));
            }
            // "Use chart version 4.2.1 for ingress-nginx", "pin terraform
            // to 1.7.5", "use `uv` for installs": a version or a tool
            // chosen, not a task.
            let stick = self.any(h, &["stick", "stay"]) && self.any(h + 1, &["to", "on", "with"]);
            if self.any(h, &["use", "pin"]) || stick {
                let reach = if stick { (h + 5).min(n) } else { n };
                let version = (h + 1..reach).any(|k| {
                    self.entity(k) == Some(EntityKind::Version)
                        || (self.is(k, "version")
                            && (self.number(k + 1)
                                || self.entity(k + 1) == Some(EntityKind::Version)))
                });
                let tool_for = (h + 1..(h + 4).min(n))
                    .any(|k| self.entity(k).is_some_and(|e| !e.is_numeric()) || self.ticked(k))
                    && (h + 2..(h + 6).min(n)).any(|k| self.is(k, "for"));
                let number = if stick {
                    self.number(h + 2)
                } else {
                    self.is(h, "pin") && (h + 2..n).any(|k| self.number(k))
                };
                if version || number {
                    return Some((RuleForm::Obligation, "use version"));
                }
                if tool_for && self.is(h, "use") {
                    return Some((RuleForm::Obligation, "use … for"));
                }
            }
            if self.is(h, "keep") {
                return Some((RuleForm::Obligation, "keep"));
            }
            if self.any(h, &["prefer", "favor", "favour"]) {
                return Some((RuleForm::Obligation, "prefer"));
            }
            if self.is(h, "leave")
                && (h + 1..n).any(|k| {
                    self.any(
                        k,
                        &[
                            "off", "on", "running", "open", "enabled", "disabled", "in", "as",
                        ],
                    )
                })
            {
                return Some((RuleForm::Obligation, "leave"));
            }
            if self.any(
                h,
                &["sync", "run", "do", "apply", "update", "edit", "deploy"],
            ) && (self.has("manually") || self.find_seq(0, &["by", "hand"]).is_some())
            {
                return Some((RuleForm::Obligation, "manually"));
            }
            if self.find_seq(0, &["by", "default"]).is_some() {
                return Some((RuleForm::Obligation, "by default"));
            }
            if let Some(k) = self.find_any(h + 1, &["every", "each"]) {
                let next = self.word(k + 1).unwrap_or("");
                // "every 30 minutes", "every commit", "log every experiment".
                if !next.eq_ignore_ascii_case("other") && k + 1 < n {
                    return Some((RuleForm::Obligation, "every"));
                }
            }
            // "rotate them monthly" (an adverb at the end), not "the nightly
            // ETL".
            let periodic = (h + 1..n).any(|k| {
                self.any(k, PERIODIC)
                    && (k + 1 == n
                        || self.clause_start(k + 1)
                        || self.any(k + 1, &["at", "on", "before", "after", "and", "from"]))
            });
            if periodic {
                return Some((RuleForm::Obligation, "periodically"));
            }
            if self.find_seq(0, &["no", "exceptions"]).is_some()
                || self.find_seq(0, &["without", "exception"]).is_some()
                || self.find_seq(0, &["no", "matter", "what"]).is_some()
            {
                return Some((RuleForm::Obligation, "no exceptions"));
            }
        }
        // Conventions stated as facts: "Matchmaking changes ship behind
        // the `mm_v3` flag", "all firewall changes go through the CAB",
        // "the user prefers squash merges".
        let history = (0..n).any(|k| self.any(k, &["was", "were", "had", "did"]));
        if !history {
            // "… ship behind the `mm_v3` flag", "… are gated by a feature
            // flag".
            let gate = self
                .find(0, "behind")
                .filter(|&b| !self.word(b.wrapping_sub(1)).is_some_and(is_past))
                .or_else(|| self.find(0, "gated").map(|g| g + 1));
            if let Some(b) = gate
                && (b + 1..(b + 6).min(n))
                    .any(|k| self.any(k, &["flag", "flags", "toggle", "toggles", "feature-flag"]))
            {
                return Some((RuleForm::Obligation, "behind a flag"));
            }
            let changes = (h..n).any(|k| {
                self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w))
                    && !self.any(
                        k.wrapping_sub(1),
                        &["the", "this", "that", "these", "those"],
                    )
            }) || self.any(h, &["all", "every", "each", "any", "new"]);
            let through = (h + 1..n).any(|k| {
                self.any(k, &["go", "goes", "get", "gets", "are", "is", "must"])
                    && (k + 1..(k + 3).min(n)).any(|j| self.any(j, &["through", "via"]))
            });
            if changes && through {
                return Some((RuleForm::Obligation, "goes through"));
            }
            // "The user requires every workflow to pin actions", "policy
            // expects all buckets to be encrypted".
            if let Some(r) = self.find_any(1, &["requires", "require", "expects", "expect"])
                && self.word(r - 1).is_some_and(|w| {
                    in_table(
                        &[
                            "client",
                            "compliance",
                            "customer",
                            "he",
                            "i",
                            "legal",
                            "operator",
                            "policy",
                            "security",
                            "she",
                            "team",
                            "they",
                            "user",
                            "we",
                        ],
                        w,
                    )
                })
                && (r + 2..(r + 7).min(n)).any(|k| self.is(k, "to"))
            {
                return Some((RuleForm::Obligation, "requires"));
            }
            // "Deploys to production require a green staging run".
            if let Some(r) = self.find_any(h + 1, &["requires", "require"])
                && r + 1 < n
                && (self
                    .word(h)
                    .is_some_and(|w| w.len() > 4 && w.ends_with("ing"))
                    || (h..r).any(|k| self.word(k).is_some_and(|w| in_table(CHANGE_NOUNS, w))))
            {
                return Some((RuleForm::Obligation, "requires"));
            }
            // "Escalations go to the Tier 2 queue": work routed by rule.
            let routed = (h..n).any(|k| {
                self.word(k).is_some_and(|w| in_table(ROUTED, w))
                    || (k > h && self.is(k, "requests"))
            }) && !self.any_of(&["automatically", "automatic"])
                && (h + 1..n).any(|k| {
                    (self.any(k, &["go", "goes"]) && self.is(k + 1, "to"))
                        || (self.any(k, &["routed", "sent", "forwarded"])
                            && self.any(k.wrapping_sub(1), &["are", "is", "get", "gets", "be"])
                            && self.is(k + 1, "to"))
                });
            if routed {
                return Some((RuleForm::Obligation, "goes to"));
            }
            if let Some(p) = self.find_any(1, &["prefers", "prefer"])
                && (self.any(p - 1, &["i", "we"])
                    || self.word(p - 1).is_some_and(|w| {
                        in_table(&["user", "operator", "customer", "client", "team"], w)
                    }))
                && p + 1 < n
            {
                return Some((RuleForm::Obligation, "prefers"));
            }
        }
        // "Every Deployment needs resource requests."
        if self.any(h, &["every", "each", "all", "any"])
            && self
                .find_any(h + 1, &["needs", "need", "gets", "get"])
                .is_some()
        {
            return Some((RuleForm::Obligation, "needs"));
        }
        // "Tone stays formal", "left running".
        for i in 0..n {
            if self.any(i, &["stays", "stay", "remain", "remains"])
                && i > h
                && self.word(i + 1).is_some()
                && !self.any(i + 1, &["at", "in", "within", "as", "the", "a"])
            {
                return Some((RuleForm::Obligation, "stays"));
            }
            if self.is(i, "left")
                && self.any(
                    i + 1,
                    &["running", "on", "off", "open", "enabled", "disabled", "in"],
                )
                && i > h
            {
                return Some((RuleForm::Obligation, "left running"));
            }
            if self.any(i, &["follow", "follows"])
                && i > h
                && i <= h + 4
                && !self.any(h, &["i", "we", "you", "the", "this", "it"])
                && self
                    .t
                    .get(i + 1)
                    .is_some_and(|t| t.text.chars().next().is_some_and(char::is_uppercase))
            {
                return Some((RuleForm::Obligation, "follows"));
            }
        }
        None
    }
}

/// Verbs that choose a tool or a method: a bare instruction with one is a
/// rule even among a skill's steps ("Use SWR for request deduplication").
const CHOICE_VERBS: &[&str] = &["use", "prefer", "prioritize", "prioritise", "keep", "avoid"];

/// Reads one clause.
#[cfg(test)]
pub(crate) fn read_clause(tokens: &[Token<'_>], text: &str, ctx: Ctx, contrast: bool) -> Reading {
    read_clause_with(tokens, triggers(tokens), text, ctx, contrast)
}

/// [`read_clause`], with the clause's trigger words already known.
pub(crate) fn read_clause_with(
    tokens: &[Token<'_>],
    present: Bits,
    text: &str,
    ctx: Ctx,
    contrast: bool,
) -> Reading {
    let c = Clause::with(tokens, text, present);
    let mut r = Reading::default();
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::entail::scan::{Span, tokens};

    fn read(text: &str) -> Option<(RuleForm, &'static str)> {
        let t = tokens(text, Span::new(0, text.len()));
        let ctx = Ctx {
            guards: true,
            ..Ctx::default()
        };
        read_clause(&t, text, ctx, text.contains(", not ")).rule
    }

    #[test]
    fn tables_are_sorted() {
        for table in [
            FILLERS,
            MOODS,
            FACT_CUES,
            CHANGE_NOUNS,
            ROUTED,
            WORK_NOUNS,
            REMOVALS,
            RULE_NOUNS,
            DESCRIPTIVE,
            PLAN_VERBS,
            RESOURCES,
            TOUCH,
            PLACES,
            STEPS,
            NO_IDIOMS,
        ] {
            assert!(table.windows(2).all(|w| w[0] < w[1]), "{:?}", table.first());
        }
    }

    #[test]
    fn forms() {
        use RuleForm::*;
        for (text, form) in [
            ("Drain no more than 2 nodes at once", Some(Limit)),
            (
                "never drain a node that runs a kafka-broker pod.",
                Some(Prohibition),
            ),
            (
                "Before you cordon anything, post the node list in #ops-drain.",
                Some(Ordering),
            ),
            (
                "Run the sizing queries on billing-replica-2 only",
                Some(Scope),
            ),
            ("leave packages/payments-sdk alone", Some(Scope)),
            (
                "Stop the backfill if replication lag goes above 30 seconds",
                Some(Condition),
            ),
            ("at most one replica at a time", Some(Limit)),
            (
                "Post each node name in #prod-changes before you cordon it",
                Some(Ordering),
            ),
            (
                "Refunds above $500 require approval from a finance lead.",
                Some(Approval),
            ),
            (
                "Do NOT fail over during the 02:00\u{2013}04:00 UTC batch window.",
                Some(Window),
            ),
            ("the ticket is OPS-1412, not OPS-1421", Some(Binding)),
            ("The sessions cluster is the exception", Some(CarveOut)),
            ("Schema migrations must go through Flyway", Some(Obligation)),
            ("We never had an outage on the EU edge.", None),
            ("Only 3 pods are running on node-7 right now.", None),
            ("FYI the freeze was lifted yesterday.", None),
            ("Before the migration the orders table had 2M rows.", None),
            ("I'll read the runbook first.", None),
            ("I won't touch prod.", None),
            ("The pool is at 8 nodes.", None),
            ("Don't worry, I have the export already.", None),
            ("Freeze exceptions are tracked in CHG-7781.", None),
            ("The capacity team approved it.", None),
        ] {
            assert_eq!(read(text).map(|(f, _)| f), form, "{text}");
        }
    }

    #[test]
    fn diagnostics() {
        assert!(diagnostic("error: --target must be one of: x86"));
        assert!(diagnostic("##[warning]Node.js 16 actions are deprecated."));
        assert!(!diagnostic("Never deploy on Fridays: the team is away."));
    }
}
