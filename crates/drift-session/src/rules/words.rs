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

/// Whether `w` (any case) is in the sorted lowercase `table`.
pub(crate) fn in_table(table: &[&str], w: &str) -> bool {
    let mut buf = [0u8; 24];
    lower(w, &mut buf).is_some_and(|l| table.binary_search(&l).is_ok())
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
    "adjust",
    "alert",
    "announce",
    "apply",
    "approve",
    "archive",
    "ask",
    "assign",
    "attach",
    "audit",
    "avoid",
    "backfill",
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
    "clean",
    "clear",
    "close",
    "commit",
    "compact",
    "configure",
    "confirm",
    "contact",
    "convert",
    "copy",
    "cordon",
    "create",
    "cut",
    "deactivate",
    "decommission",
    "delete",
    "deploy",
    "deprecate",
    "destroy",
    "disable",
    "discard",
    "document",
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
    "export",
    "extend",
    "fail",
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
    "freeze",
    "generate",
    "get",
    "give",
    "go",
    "grant",
    "grep",
    "halt",
    "hand",
    "hold",
    "ignore",
    "import",
    "include",
    "inform",
    "install",
    "invalidate",
    "isolate",
    "keep",
    "kill",
    "label",
    "launch",
    "leave",
    "limit",
    "lint",
    "load",
    "lock",
    "loop",
    "lower",
    "maintain",
    "make",
    "mark",
    "merge",
    "migrate",
    "mirror",
    "modify",
    "monitor",
    "move",
    "mute",
    "notify",
    "open",
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
    "prepare",
    "preserve",
    "print",
    "promote",
    "prune",
    "publish",
    "pull",
    "purge",
    "push",
    "put",
    "query",
    "raise",
    "read",
    "rebase",
    "reboot",
    "rebuild",
    "record",
    "recreate",
    "redact",
    "redeploy",
    "reduce",
    "refresh",
    "refund",
    "reindex",
    "reject",
    "release",
    "reload",
    "remove",
    "rename",
    "repair",
    "replace",
    "reply",
    "report",
    "request",
    "rerun",
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
    "shut",
    "sign",
    "skip",
    "snapshot",
    "split",
    "squash",
    "start",
    "stash",
    "stay",
    "stop",
    "store",
    "submit",
    "suspend",
    "switch",
    "sync",
    "tag",
    "take",
    "tell",
    "terminate",
    "test",
    "throttle",
    "touch",
    "track",
    "transfer",
    "trigger",
    "truncate",
    "turn",
    "uncordon",
    "undo",
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
    "write",
];

/// The entry of sorted lowercase `table` equal to `w` (any case).
fn entry(table: &[&'static str], w: &str) -> Option<&'static str> {
    let mut buf = [0u8; 24];
    let l = lower(w, &mut buf)?;
    table
        .binary_search(&l)
        .ok()
        .and_then(|i| table.get(i).copied())
}

/// `w` as an instruction's verb: in [`VERBS`], or a compound of one
/// ("re-enable", "force-push", "squash-merge", "feature-flag").
pub(crate) fn verb_entry(w: &str) -> Option<&'static str> {
    if let Some(v) = entry(VERBS, w) {
        return Some(v);
    }
    let (head, tail) = w.rsplit_once('-')?;
    let compound = !head.is_empty() && head.bytes().all(|b| b.is_ascii_alphabetic());
    if compound { entry(VERBS, tail) } else { None }
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

/// Days, months and other words that name a time.
const TIME_WORDS: &[&str] = &[
    "apr",
    "april",
    "aug",
    "august",
    "dec",
    "december",
    "eod",
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
    "noon",
    "nov",
    "november",
    "oct",
    "october",
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
    in_table(TIME_WORDS, w)
}

/// Whether `text` holds a clock time (`14:00`, `9:30`).
pub(crate) fn has_clock(text: &str) -> bool {
    let b = text.as_bytes();
    b.windows(4).enumerate().any(|(i, w)| {
        w[0].is_ascii_digit()
            && w[1] == b':'
            && w[2].is_ascii_digit()
            && w[3].is_ascii_digit()
            && !b.get(i + 4).is_some_and(u8::is_ascii_digit)
    })
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
        for table in [VERBS, PAST, NOT_PAST, TIME_WORDS, TIME_UNITS] {
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
        assert!(is_time_word("Fridays"));
    }
}
