//! Word lists and lookups the rule finder reads with, without allocating:
//! a word is lowercased into a small buffer and looked up in a sorted table.

/// `w` in ASCII lowercase, in `buf`; `None` when it is longer than the
/// buffer or not ASCII (no table word is).
pub(crate) fn lower<'b>(w: &str, buf: &'b mut [u8; 24]) -> Option<&'b str> {
    let b = w.as_bytes();
    if b.len() > buf.len() || !b.is_ascii() {
        return None;
    }
    let out = buf.get_mut(..b.len())?;
    for (d, s) in out.iter_mut().zip(b) {
        *d = s.to_ascii_lowercase();
    }
    core::str::from_utf8(out).ok()
}

/// Whether `w` (any case) is in the lowercase `table` (a short list).
pub(crate) fn in_table(table: &[&str], w: &str) -> bool {
    let b = w.as_bytes();
    table
        .iter()
        .any(|t| t.len() == b.len() && t.as_bytes().eq_ignore_ascii_case(b))
}

/// A sorted table of lowercase words, indexed by first letter: a lookup
/// compares only the words of one letter, lengths first.
pub(crate) struct Table {
    words: &'static [&'static str],
    index: [usize; 27],
    /// A bit per (first letter, last letter, length) some word has: most
    /// words that are not in the table are turned away by one test.
    seen: [u64; 64],
}

/// The bit of [`Table::seen`] for a word's first and last byte (lowercase)
/// and length.
const fn seen_bit(first: u8, last: u8, len: usize) -> usize {
    let h = (first as usize).wrapping_mul(31)
        ^ (last as usize).wrapping_mul(131)
        ^ len.wrapping_mul(7919);
    h % 4096
}

impl Table {
    /// Indexes `words` (sorted, lowercase, each starting with `a`–`z`).
    pub(crate) const fn new(words: &'static [&'static str]) -> Table {
        let mut index = [0usize; 27];
        let mut c = 0;
        while c < 27 {
            let target = b'a' + c as u8;
            let mut i = 0;
            while i < words.len() && words[i].as_bytes()[0] < target {
                i += 1;
            }
            index[c] = i;
            c += 1;
        }
        let mut seen = [0u64; 64];
        let mut k = 0;
        while k < words.len() {
            let b = words[k].as_bytes();
            let bit = seen_bit(b[0], b[b.len() - 1], b.len());
            seen[bit / 64] |= 1 << (bit % 64);
            k += 1;
        }
        Table { words, index, seen }
    }

    /// Whether some word of the table could be `b` (false: none is).
    fn may_have(&self, b: &[u8]) -> bool {
        let (Some(first), Some(last)) = (b.first(), b.last()) else {
            return false;
        };
        let bit = seen_bit(
            first.to_ascii_lowercase(),
            last.to_ascii_lowercase(),
            b.len(),
        );
        self.seen
            .get(bit / 64)
            .is_some_and(|w| w & (1 << (bit % 64)) != 0)
    }

    /// The table's entry for `w` (any case).
    pub(crate) fn get(&self, w: &str) -> Option<&'static str> {
        self.position(w).and_then(|k| self.words.get(k)).copied()
    }

    /// Whether `w` (any case) is in the table.
    pub(crate) fn contains(&self, w: &str) -> bool {
        self.position(w).is_some()
    }

    /// Where `w` (any case) is in the table.
    pub(crate) fn position(&self, w: &str) -> Option<usize> {
        let b = w.as_bytes();
        if !self.may_have(b) {
            return None;
        }
        let first = b.first()?.to_ascii_lowercase();
        if !first.is_ascii_lowercase() {
            return None;
        }
        let c = usize::from(first - b'a');
        let from = *self.index.get(c)?;
        let to = self.index.get(c + 1).copied().unwrap_or(self.words.len());
        self.words
            .get(from..to)?
            .iter()
            .position(|t| t.len() == b.len() && t.as_bytes().eq_ignore_ascii_case(b))
            .map(|k| from + k)
    }
}

/// Verbs an instruction starts with, in their base form.
pub(crate) const VERBS: &[&str] = &[
    "abort",
    "accept",
    "access",
    "ack",
    "acknowledge",
    "activate",
    "add",
    "address",
    "adjust",
    "alert",
    "analyze",
    "annotate",
    "announce",
    "anonymize",
    "answer",
    "apologise",
    "apologize",
    "apply",
    "approve",
    "archive",
    "ask",
    "assign",
    "assume",
    "attach",
    "audit",
    "avoid",
    "backfill",
    "backport",
    "backup",
    "batch",
    "block",
    "bootstrap",
    "build",
    "bump",
    "call",
    "cancel",
    "cap",
    "change",
    "check",
    "cherry-pick",
    "cite",
    "clean",
    "clear",
    "close",
    "collect",
    "comment",
    "commit",
    "compact",
    "compress",
    "configure",
    "confirm",
    "consult",
    "contact",
    "convert",
    "copy",
    "cordon",
    "create",
    "cut",
    "deactivate",
    "decommission",
    "decrypt",
    "delete",
    "demote",
    "deploy",
    "deprecate",
    "deprovision",
    "dequeue",
    "destroy",
    "detach",
    "direct",
    "disable",
    "discard",
    "disclose",
    "document",
    "downgrade",
    "download",
    "drain",
    "drop",
    "dump",
    "edit",
    "email",
    "enable",
    "encrypt",
    "enforce",
    "ensure",
    "escalate",
    "evict",
    "exclude",
    "execute",
    "explain",
    "export",
    "expose",
    "extend",
    "fail",
    "failover",
    "favor",
    "favour",
    "fence",
    "fetch",
    "file",
    "finish",
    "fix",
    "flag",
    "flush",
    "follow",
    "force",
    "fork",
    "format",
    "forward",
    "freeze",
    "generate",
    "get",
    "give",
    "go",
    "grant",
    "greet",
    "grep",
    "halt",
    "hand",
    "handle",
    "hash",
    "hide",
    "hold",
    "ignore",
    "import",
    "include",
    "indent",
    "inform",
    "install",
    "invalidate",
    "isolate",
    "join",
    "keep",
    "kill",
    "label",
    "launch",
    "leave",
    "limit",
    "link",
    "lint",
    "load",
    "lock",
    "loop",
    "lower",
    "maintain",
    "make",
    "mark",
    "mask",
    "mention",
    "merge",
    "message",
    "migrate",
    "mirror",
    "modify",
    "monitor",
    "move",
    "mute",
    "notify",
    "offboard",
    "offer",
    "onboard",
    "open",
    "optimize",
    "override",
    "page",
    "paste",
    "patch",
    "pause",
    "pin",
    "ping",
    "plan",
    "post",
    "prefer",
    "prefix",
    "prepare",
    "preserve",
    "print",
    "prioritise",
    "prioritize",
    "promise",
    "promote",
    "propose",
    "provision",
    "prune",
    "publish",
    "pull",
    "purge",
    "push",
    "put",
    "query",
    "queue",
    "quote",
    "raise",
    "read",
    "reassign",
    "rebalance",
    "rebase",
    "reboot",
    "rebuild",
    "recommend",
    "record",
    "recreate",
    "redact",
    "redeploy",
    "redirect",
    "reduce",
    "refer",
    "refresh",
    "refund",
    "reindex",
    "reject",
    "relabel",
    "release",
    "reload",
    "remind",
    "remove",
    "rename",
    "renew",
    "repair",
    "rephrase",
    "replace",
    "replicate",
    "reply",
    "report",
    "request",
    "rerun",
    "reschedule",
    "reset",
    "resize",
    "resolve",
    "respond",
    "restart",
    "restore",
    "resume",
    "retry",
    "return",
    "reuse",
    "reveal",
    "revert",
    "review",
    "revoke",
    "roll",
    "rollback",
    "rotate",
    "route",
    "run",
    "save",
    "scale",
    "schedule",
    "scrub",
    "send",
    "set",
    "share",
    "ship",
    "show",
    "shut",
    "sign",
    "skip",
    "snapshot",
    "spell",
    "split",
    "squash",
    "start",
    "stash",
    "stay",
    "stick",
    "stop",
    "store",
    "submit",
    "suggest",
    "summarise",
    "summarize",
    "suspend",
    "switch",
    "sync",
    "tag",
    "taint",
    "take",
    "tell",
    "terminate",
    "test",
    "text",
    "thank",
    "throttle",
    "touch",
    "track",
    "transfer",
    "translate",
    "treat",
    "trigger",
    "truncate",
    "try",
    "turn",
    "uncordon",
    "undo",
    "unfence",
    "uninstall",
    "unlock",
    "unpause",
    "unpin",
    "update",
    "upgrade",
    "upload",
    "use",
    "vacuum",
    "validate",
    "verify",
    "wait",
    "wipe",
    "work",
    "wrap",
    "write",
];

/// [`VERBS`], indexed.
static VERB_TABLE: Table = Table::new(VERBS);

/// `w` as an instruction's verb: in [`VERBS`], or a compound of one
/// ("re-enable", "force-push", "squash-merge", "feature-flag").
pub(crate) fn verb_entry(w: &str) -> Option<&'static str> {
    if let Some(v) = VERB_TABLE.get(w) {
        return Some(v);
    }
    let (head, tail) = w.rsplit_once('-')?;
    let compound = !head.is_empty() && head.bytes().all(|b| b.is_ascii_alphabetic());
    if compound { VERB_TABLE.get(tail) } else { None }
}

/// Whether `w` is an instruction's verb (see [`verb_entry`]).
#[cfg(test)]
pub(crate) fn is_verb(w: &str) -> bool {
    verb_entry(w).is_some()
}

/// Irregular past forms (and "been").
const PAST: &[&str] = &[
    "ate",
    "became",
    "been",
    "began",
    "bought",
    "broke",
    "brought",
    "built",
    "came",
    "caught",
    "chose",
    "did",
    "drew",
    "drove",
    "fell",
    "felt",
    "flew",
    "forgot",
    "found",
    "froze",
    "gave",
    "got",
    "grew",
    "had",
    "held",
    "hid",
    "kept",
    "knew",
    "led",
    "left",
    "lost",
    "made",
    "meant",
    "met",
    "paid",
    "ran",
    "rode",
    "rose",
    "said",
    "sat",
    "saw",
    "sent",
    "shook",
    "sold",
    "spent",
    "spoke",
    "stole",
    "stood",
    "threw",
    "told",
    "took",
    "understood",
    "was",
    "went",
    "were",
    "woke",
    "won",
    "wore",
    "wrote",
];

/// Words in "-ed" that are not past forms.
const NOT_PAST: &[&str] = &[
    "bed", "bleed", "breed", "embed", "exceed", "feed", "need", "proceed", "red", "seed", "shed",
    "shred", "speed", "succeed", "wed",
];

/// Whether `w` looks like a verb's past form ("had", "crashed").
pub(crate) fn is_past(w: &str) -> bool {
    let mut buf = [0u8; 24];
    let Some(l) = lower(w, &mut buf) else {
        return false;
    };
    if PAST.binary_search(&l).is_ok() {
        return true;
    }
    l.len() > 4 && l.ends_with("ed") && NOT_PAST.binary_search(&l).is_err()
}

/// Who reports a rule in a summary or a recap ("the user asked that …",
/// "the team insisted on …"). "I" and "we" report only to the agent ("I
/// told you to …") or in the passive ("we were told to …").
const REPORTERS: &[&str] = &[
    "client",
    "customer",
    "he",
    "lead",
    "manager",
    "operator",
    "owner",
    "requester",
    "she",
    "stakeholder",
    "team",
    "they",
    "user",
    "users",
];

/// Verbs that report a rule.
const REPORTING: &[&str] = &[
    "agreed",
    "asked",
    "asks",
    "clarified",
    "confirmed",
    "demanded",
    "directed",
    "emphasised",
    "emphasized",
    "insisted",
    "insists",
    "instructed",
    "mentioned",
    "noted",
    "reiterated",
    "reminded",
    "requested",
    "said",
    "says",
    "specified",
    "stated",
    "stressed",
    "told",
    "wanted",
    "wants",
    "warned",
];

/// Adverbs and auxiliaries between a reporter and its verb ("the user
/// explicitly said", "the user has asked").
const REPORT_ADVERBS: &[&str] = &[
    "again",
    "also",
    "clearly",
    "earlier",
    "explicitly",
    "firmly",
    "had",
    "has",
    "have",
    "originally",
    "repeatedly",
    "specifically",
    "strongly",
];

/// Reporting verbs that make what they report a rule whatever its words
/// ("the user insisted on small PRs", "they stressed keeping the API
/// stable"), where "asked" may report a task.
pub(crate) const INSISTING: &[&str] = &[
    "demanded",
    "emphasised",
    "emphasized",
    "insisted",
    "insists",
    "reiterated",
    "stressed",
];

/// Verbs a passive report is made with ("we were told to …").
const TOLD: &[&str] = &["asked", "instructed", "reminded", "told", "warned"];

/// Whom a report addresses ("asked us not to …").
const ADDRESSEES: &[&str] = &["me", "them", "us", "you"];

/// Where a rule starts after a reporting frame that opens a clause: "The
/// user explicitly said not to …" gives the index of "not", "User asked us
/// to keep …" of "keep", "We were told that …" of the word after "that".
/// `word(i)` is the clause's `i`-th word; `None` when no frame opens it or
/// nothing follows the frame.
pub(crate) fn frame_end<'a>(word: impl Fn(usize) -> Option<&'a str>) -> Option<usize> {
    let is = |i: usize, w: &str| word(i).is_some_and(|x| x.eq_ignore_ascii_case(w));
    let any = |i: usize, ws: &[&str]| word(i).is_some_and(|x| in_table(ws, x));
    let mut i = 0;
    if any(i, &["the", "a", "our", "my", "your"]) {
        i += 1;
    }
    let speaker = any(i, &["i", "we"]);
    if speaker && any(i + 1, &["was", "were"]) && any(i + 2, TOLD) {
        i += 3;
    } else if speaker && any(i + 1, &["have", "had"]) && is(i + 2, "been") && any(i + 3, TOLD) {
        i += 4;
    } else {
        if !speaker && !any(i, REPORTERS) {
            return None;
        }
        i += 1;
        let mut k = 0;
        while k < 3 && any(i, REPORT_ADVERBS) {
            i += 1;
            k += 1;
        }
        if !any(i, REPORTING) {
            return None;
        }
        let on = any(i, &["insisted", "insists"]);
        i += 1;
        // "the user insisted on squash merges".
        if on && is(i, "on") {
            i += 1;
        }
        // "I told you to …", "we said that …": the speaker reports to the
        // agent, not about their own doings.
        if speaker && !any(i, &["you", "to", "that", "not"]) {
            return None;
        }
        if any(i, ADDRESSEES) {
            i += 1;
        } else if is(i, "the") && any(i + 1, &["agent", "assistant"]) {
            i += 2;
        }
    }
    if any(i, &["that", "to"]) {
        i += 1;
    }
    word(i).map(|_| i)
}

/// Irregular past participles that are not also past forms ("never seen
/// Redis do that", "never heard of it"): after "never" they tell of
/// experience, not a rule.
const PARTICIPLES: &[&str] = &[
    "beaten",
    "broken",
    "chosen",
    "done",
    "driven",
    "eaten",
    "fallen",
    "flown",
    "forgotten",
    "given",
    "gone",
    "gotten",
    "grown",
    "heard",
    "hidden",
    "known",
    "ridden",
    "risen",
    "seen",
    "shown",
    "spoken",
    "stolen",
    "taken",
    "thought",
    "thrown",
    "tried",
    "woken",
    "worn",
    "written",
];

/// Whether `w` is a past form or a past participle ("had", "seen").
pub(crate) fn is_participle(w: &str) -> bool {
    is_past(w) || in_table(PARTICIPLES, w)
}

/// Days, months and other words that name a time.
const TIME_WORDS: &[&str] = &[
    "afternoon",
    "afternoons",
    "apr",
    "april",
    "aug",
    "august",
    "dec",
    "december",
    "eod",
    "evening",
    "evenings",
    "feb",
    "february",
    "fri",
    "friday",
    "fridays",
    "jan",
    "january",
    "jul",
    "july",
    "jun",
    "june",
    "march",
    "midnight",
    "mon",
    "monday",
    "mondays",
    "morning",
    "mornings",
    "night",
    "nightly",
    "nights",
    "noon",
    "nov",
    "november",
    "oct",
    "october",
    "overnight",
    "saturday",
    "saturdays",
    "sep",
    "sept",
    "september",
    "sunday",
    "sundays",
    "thu",
    "thursday",
    "thursdays",
    "today",
    "tonight",
    "tue",
    "tuesday",
    "tuesdays",
    "wednesday",
    "wednesdays",
    "weekday",
    "weekdays",
    "weekend",
    "weekends",
];

/// Whether `w` names a day, a month or a moment.
pub(crate) fn is_time_word(w: &str) -> bool {
    static TABLE: Table = Table::new(TIME_WORDS);
    TABLE.contains(w)
}

/// Whether `text` holds a clock time (`14:00`, `9:30`, `4pm`, `10 am`).
pub(crate) fn has_clock(text: &str) -> bool {
    let b = text.as_bytes();
    let meridiem = (0..b.len()).any(|i| {
        if !b.get(i).is_some_and(u8::is_ascii_digit) {
            return false;
        }
        let mut j = i + 1;
        if b.get(j) == Some(&b' ') {
            j += 1;
        }
        let mark = b
            .get(j..j + 2)
            .is_some_and(|m| m.eq_ignore_ascii_case(b"am") || m.eq_ignore_ascii_case(b"pm"));
        mark && !b.get(j + 2).is_some_and(u8::is_ascii_alphanumeric)
    });
    let colon = b.windows(4).enumerate().any(|(i, w)| {
        w[0].is_ascii_digit()
            && w[1] == b':'
            && w[2].is_ascii_digit()
            && w[3].is_ascii_digit()
            && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
    });
    meridiem || colon
}

/// Units of time ("hours", "30d" is a number entity).
const TIME_UNITS: &[&str] = &[
    "day", "days", "h", "hour", "hours", "hr", "hrs", "min", "mins", "minute", "minutes", "month",
    "months", "ms", "s", "sec", "second", "seconds", "secs", "week", "weeks", "year", "years",
];

/// Whether `w` is a unit of time.
pub(crate) fn is_time_unit(w: &str) -> bool {
    in_table(TIME_UNITS, w)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_are_sorted() {
        for table in [
            VERBS,
            PAST,
            NOT_PAST,
            PARTICIPLES,
            TIME_WORDS,
            TIME_UNITS,
            REPORTERS,
            REPORTING,
            REPORT_ADVERBS,
            INSISTING,
            TOLD,
            ADDRESSEES,
        ] {
            assert!(table.windows(2).all(|w| w[0] < w[1]), "{:?}", table.first());
        }
    }

    #[test]
    fn lookups() {
        assert!(is_verb("Use"));
        assert!(is_verb("re-enable"));
        assert!(is_verb("Squash-merge"));
        assert!(!is_verb("the"));
        assert!(is_past("had"));
        assert!(is_past("crashed"));
        assert!(!is_past("exceed"));
        assert!(has_clock("between 14:00 and 16:00"));
        assert!(has_clock("02:00\u{2013}04:00 UTC"));
        assert!(!has_clock("ratio 1:200"));
        assert!(has_clock("no deploys after 4pm"));
        assert!(has_clock("before 10 AM"));
        assert!(!has_clock("3 amps"));
        assert!(is_time_word("Fridays"));
    }
}
