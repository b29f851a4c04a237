//! The words some cue needs, as bits: a clause with none of them holds no
//! rule, and each form's cue is read only when its words are present.

use super::*;

/// A found cue.
pub(super) type Cue = Option<(RuleForm, &'static str)>;

/// Every word some cue needs: a clause with none of them holds no rule
/// (a quotation mark or ", not" may still make a binding).
pub(super) const TRIGGERS: &[&str] = &[
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

pub(super) static TRIGGER_TABLE: Table = Table::new(TRIGGERS);

/// A set of [`TRIGGERS`] words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Bits(pub(super) [u64; 5]);

pub(super) const fn same(a: &str, b: &str) -> bool {
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
    pub(super) const fn of(words: &[&str]) -> Bits {
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

    pub(super) fn insert(&mut self, k: usize) {
        if let Some(word) = self.0.get_mut(k / 64) {
            *word |= 1 << (k % 64);
        }
    }

    /// Whether the two sets meet.
    pub(super) fn meets(self, other: Bits) -> bool {
        self.0.iter().zip(other.0).any(|(a, b)| a & b != 0)
    }

    pub(super) fn is_empty(self) -> bool {
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
pub(super) const CORRECTION: Bits = Bits::of(&[
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
pub(super) const BINDING: Bits = Bits::of(&["approver", "approvers", "mean", "means", "refers"]);
pub(super) const CARVE_OUT: Bits = Bits::of(&[
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
pub(super) const CONDITION: Bits = Bits::of(&[
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
pub(super) const LIMIT: Bits = Bits::of(&[
    "most", "than", "up", "maximum", "max", "minimum", "min", "or", "least", "below", "above",
    "under", "over", "exceed", "exceeds", "beyond", "within", "cap", "capped", "caps", "limit",
    "limited", "throttle", "budget", "time", "once", "same", "keep", "stay", "stays", "remain",
    "remains", "only", "start", "starts", "begin", "begins", "per",
]);
pub(super) const PERMISSION: Bits = Bits::of(&[
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
pub(super) const APPROVAL: Bits = Bits::of(&[
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
pub(super) const WINDOW: Bits = Bits::of(HALTED).union(Bits::of(&[
    "hours", "period", "blackout", "freeze", "freezes", "frozen", "window", "not", "never", "no",
    "nothing", "none", "nobody", "only", "outside", "between", "during", "until", "before",
    "after",
]));
pub(super) const ORDERING: Bits = Bits::of(&[
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
pub(super) const SCOPE: Bits = Bits::of(&[
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
pub(super) const PROHIBITION: Bits = Bits::of(&[
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
pub(super) const OBLIGATION: Bits = Bits::of(PERIODIC).union(Bits::of(&[
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
pub(super) const EXCEPT: Bits = Bits::of(&["except"]);

/// Whether `tokens` (of `raw`) may hold a rule: some word a cue needs is
/// there. Most lines of logs and listings have none and are read no
/// further.
pub(crate) fn may_hold_rule(present: Bits, raw: &str) -> bool {
    !present.is_empty() || raw.contains(['"', '\u{201C}', '\u{201D}']) || raw.contains(", not")
}

/// A number in scientific notation: "3e-4", "1e6".
pub(super) fn scientific(s: &str) -> bool {
    let Some((m, e)) = s.split_once(['e', 'E']) else {
        return false;
    };
    let e = e.strip_prefix(['-', '+']).unwrap_or(e);
    !m.is_empty()
        && m.bytes().all(|b| b.is_ascii_digit() || b == b'.')
        && !e.is_empty()
        && e.bytes().all(|b| b.is_ascii_digit())
}
