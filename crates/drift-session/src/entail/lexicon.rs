//! The word lists behind the lexical checker: function words, a small
//! stemmer, abbreviations, number words and families of change verbs. The
//! rule finder reads two of them too: the function words and the words
//! that open a diagnostic.
//!
//! Every list is data; the checker's behaviour changes by editing a table,
//! never a code path. All lookups here take lowercase ASCII and are binary
//! searches over sorted arrays (the unit tests check the sorting).

use alloc::string::String;

/// Function words the checker passes over besides [`FUNCTION_WORDS`]:
/// never content, never evidence of support.
const STOPWORDS: &[&str] = &[
    "above", "again", "against", "around", "below", "between", "doing", "down", "during", "etc",
    "even", "ever", "further", "get", "gets", "got", "having", "hers", "itself", "let", "lets",
    "like", "made", "make", "off", "often", "once", "ours", "out", "own", "per", "theirs",
    "through", "thus", "up", "upon", "use", "used", "using", "via", "whereas", "within", "yours",
];

/// Function words, the ones both the checker and the rule finder pass
/// over: never content, never an instruction's verb.
pub(crate) const FUNCTION_WORDS: &[&str] = &[
    "a",
    "about",
    "after",
    "all",
    "also",
    "although",
    "am",
    "an",
    "and",
    "any",
    "anyone",
    "anything",
    "are",
    "as",
    "at",
    "be",
    "because",
    "been",
    "before",
    "being",
    "both",
    "but",
    "by",
    "can",
    "could",
    "did",
    "do",
    "does",
    "done",
    "each",
    "either",
    "every",
    "everyone",
    "everything",
    "few",
    "for",
    "from",
    "had",
    "has",
    "have",
    "he",
    "her",
    "here",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "just",
    "many",
    "may",
    "me",
    "might",
    "more",
    "most",
    "much",
    "my",
    "nor",
    "nothing",
    "now",
    "of",
    "on",
    "one",
    "onto",
    "or",
    "other",
    "our",
    "over",
    "please",
    "same",
    "she",
    "should",
    "since",
    "so",
    "some",
    "someone",
    "something",
    "such",
    "than",
    "that",
    "the",
    "their",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "though",
    "to",
    "too",
    "under",
    "us",
    "very",
    "was",
    "we",
    "were",
    "what",
    "when",
    "where",
    "whether",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "yet",
    "you",
    "your",
];

/// Words that carry a rule's force (cues), not its topic: never counted as
/// content when comparing a rule with its restatement.
const CUE_WORDS: &[&str] = &[
    "always",
    "cannot",
    "except",
    "forbid",
    "forbidden",
    "keep",
    "must",
    "need",
    "needs",
    "never",
    "no",
    "not",
    "only",
    "prohibit",
    "prohibited",
    "require",
    "required",
    "requires",
    "shall",
    "unless",
    "until",
    "without",
];

/// Words that open a diagnostic ("error: --target must be one of …"): what
/// follows describes a failure, it does not set a rule.
pub(crate) const DIAGNOSTIC_HEADS: &[&str] = &[
    "caused",
    "error",
    "exception",
    "fatal",
    "help",
    "hint",
    "panicked",
    "traceback",
    "warning",
];

/// Abbreviations and their long form (by stem), so that "prod db" and
/// "production database" share content.
const SYNONYMS: &[(&str, &str)] = &[
    ("approv", "approval"),
    ("approval", "approval"),
    ("approver", "approval"),
    ("auth", "authentication"),
    ("authentication", "authentication"),
    ("config", "configuration"),
    ("configuration", "configuration"),
    ("db", "databas"),
    ("dep", "dependency"),
    ("env", "environment"),
    ("k8", "kubernet"),
    ("prod", "production"),
    ("repo", "repository"),
    ("signoff", "approval"),
];

/// Past forms that the suffix rules cannot reach.
const IRREGULAR: &[(&str, &str)] = &[
    ("anything", "anything"),
    ("broke", "break"),
    ("broken", "break"),
    ("built", "build"),
    ("chose", "choos"),
    ("chosen", "choos"),
    ("everything", "everything"),
    ("froze", "freez"),
    ("frozen", "freez"),
    ("instead", "instead"),
    ("kept", "keep"),
    ("nothing", "nothing"),
    ("ran", "run"),
    ("rewritten", "rewrit"),
    ("rewrote", "rewrit"),
    ("shipped", "ship"),
    ("something", "something"),
    ("string", "string"),
    ("written", "writ"),
    ("wrote", "writ"),
];

/// Small numbers written as words, for "three tests" against "3 tests".
const NUMBER_WORDS: &[(&str, &str)] = &[
    ("eight", "8"),
    ("eleven", "11"),
    ("five", "5"),
    ("four", "4"),
    ("nine", "9"),
    ("one", "1"),
    ("seven", "7"),
    ("six", "6"),
    ("ten", "10"),
    ("three", "3"),
    ("twelve", "12"),
    ("twenty", "20"),
    ("two", "2"),
    ("zero", "0"),
];

/// Verbs that change the world, by stem, grouped into families: a rule
/// against one member ("do not bump") is broken by any other ("upgraded").
const VERB_FAMILIES: &[(&str, Family)] = &[
    ("alter", Family::Change),
    ("bounc", Family::Restart),
    ("bump", Family::Version),
    ("call", Family::Call),
    ("chang", Family::Change),
    ("delet", Family::Delete),
    ("deploy", Family::Deploy),
    ("destroy", Family::Delete),
    ("disabl", Family::Disable),
    ("downgrad", Family::Version),
    ("drop", Family::Delete),
    ("edit", Family::Change),
    ("eras", Family::Delete),
    ("execut", Family::Run),
    ("hit", Family::Call),
    ("invok", Family::Call),
    ("launch", Family::Deploy),
    ("merg", Family::Merge),
    ("migrat", Family::Migrate),
    ("modifi", Family::Change),
    ("modify", Family::Change),
    ("publish", Family::Deploy),
    ("purg", Family::Delete),
    ("push", Family::Deploy),
    ("reboot", Family::Restart),
    ("releas", Family::Deploy),
    ("remov", Family::Delete),
    ("restart", Family::Restart),
    ("revert", Family::Rollback),
    ("rewrit", Family::Change),
    ("roll", Family::Rollback),
    ("rollback", Family::Rollback),
    ("rollout", Family::Deploy),
    ("run", Family::Run),
    ("ship", Family::Deploy),
    ("touch", Family::Change),
    ("truncat", Family::Delete),
    ("updat", Family::Version),
    ("upgrad", Family::Version),
    ("wip", Family::Delete),
];

/// A family of change verbs (see [`family`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) enum Family {
    Call,
    Change,
    Delete,
    Deploy,
    Disable,
    Merge,
    Migrate,
    Restart,
    Rollback,
    Run,
    Version,
}

impl Family {
    /// The families a freeze forbids: a frozen service is not deployed,
    /// upgraded, merged into, restarted or rolled back. ("Change" is left
    /// out: "the pool change on Monday" is a noun far more often than an
    /// act against the freeze.)
    pub(crate) const FROZEN: [Family; 5] = [
        Family::Deploy,
        Family::Merge,
        Family::Restart,
        Family::Rollback,
        Family::Version,
    ];
}

fn lookup<T: Copy>(table: &[(&'static str, T)], key: &str) -> Option<T> {
    table
        .binary_search_by(|(k, _)| (*k).cmp(key))
        .ok()
        .and_then(|i| table.get(i))
        .map(|(_, v)| *v)
}

/// Whether `lower` (a lowercase word) is a function word.
pub(crate) fn is_stopword(lower: &str) -> bool {
    FUNCTION_WORDS.binary_search(&lower).is_ok() || STOPWORDS.binary_search(&lower).is_ok()
}

/// Whether `lower` (a lowercase word) is a rule cue rather than content.
pub(crate) fn is_cue_word(lower: &str) -> bool {
    CUE_WORDS.binary_search(&lower).is_ok()
}

/// The digits a number word stands for ("three", "Three" → "3"). Checks
/// length and letters before it looks anything up: it runs on every word.
pub(crate) fn number_word(word: &str) -> Option<&'static str> {
    let b = word.as_bytes();
    if !(3..=6).contains(&b.len()) || !b.iter().all(u8::is_ascii_alphabetic) {
        return None;
    }
    let mut buf = [0u8; 6];
    for (d, s) in buf.iter_mut().zip(b) {
        *d = s.to_ascii_lowercase();
    }
    let lower = core::str::from_utf8(buf.get(..b.len())?).ok()?;
    lookup(NUMBER_WORDS, lower)
}

/// The family of a change verb, by stem.
pub(crate) fn family(stem: &str) -> Option<Family> {
    lookup(VERB_FAMILIES, stem)
}

/// A light suffix stemmer for English: enough to make "upgrade",
/// "upgraded", "upgrades" and "upgrading" one stem, and "called" and
/// "calls" "call". Abbreviations map to their long form ("prod" →
/// "production"). Input of any case; output lowercase.
pub(crate) fn stem(word: &str) -> String {
    let mut s = String::with_capacity(word.len());
    for c in word.chars() {
        if c == '\u{2019}' {
            s.push('\'');
        } else {
            s.extend(c.to_lowercase());
        }
    }
    if let Some(base) = s.strip_suffix("'s") {
        let n = base.len();
        s.truncate(n);
    }
    if let Some(irregular) = lookup(IRREGULAR, &s) {
        return String::from(irregular);
    }
    strip_suffixes(&mut s);
    if let Some(long) = lookup(SYNONYMS, &s) {
        return String::from(long);
    }
    s
}

fn strip_suffixes(s: &mut String) {
    let len = s.len();
    if len > 4 && (s.ends_with("ies") || s.ends_with("ied")) {
        s.truncate(len - 3);
        s.push('y');
    } else if len > 5 && s.ends_with("ing") {
        s.truncate(len - 3);
        undouble(s);
    } else if len > 4 && s.ends_with("ed") && !s.ends_with("eed") {
        s.truncate(len - 2);
        undouble(s);
    } else if len > 4
        && s.ends_with("es")
        && (s.ends_with("sses") || s.ends_with("xes") || s.ends_with("ches") || s.ends_with("shes"))
    {
        s.truncate(len - 2);
    } else if len > 3
        && s.ends_with('s')
        && !s.ends_with("ss")
        && !s.ends_with("us")
        && !s.ends_with("is")
    {
        s.truncate(len - 1);
    }
    let len = s.len();
    if len > 3 && s.ends_with('e') && !s.ends_with("ee") {
        s.truncate(len - 1);
    }
}

/// "dropp" → "drop", "committ" → "commit", but "call" and "add" stay.
fn undouble(s: &mut String) {
    let bytes = s.as_bytes();
    if let [.., a, b] = bytes
        && a == b
        && b"bdgmnprt".contains(b)
        && bytes.len() > 3
    {
        let n = s.len() - 1;
        s.truncate(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sorted<T>(table: &[(&str, T)]) -> bool {
        table.windows(2).all(|w| w[0].0 < w[1].0)
    }

    #[test]
    fn tables_are_sorted_for_binary_search() {
        assert!(FUNCTION_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(STOPWORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(CUE_WORDS.windows(2).all(|w| w[0] < w[1]));
        assert!(sorted(SYNONYMS));
        assert!(sorted(IRREGULAR));
        assert!(sorted(NUMBER_WORDS));
        assert!(sorted(VERB_FAMILIES));
    }

    #[test]
    fn inflections_share_a_stem() {
        for group in [
            &["upgrade", "upgraded", "upgrades", "upgrading"][..],
            &["bump", "bumped", "bumping", "bumps"],
            &["call", "called", "calls", "calling"],
            &["drop", "dropped", "dropping"],
            &["release", "released", "releases"],
            &["freeze", "frozen", "froze", "freezing"],
            &["modify", "modified", "modifies"],
            &["commit", "committed"],
            &["database", "databases", "db"],
            &["prod", "production"],
            &["approver", "approval", "approved"],
        ] {
            let first = stem(group[0]);
            for w in group {
                assert_eq!(stem(w), first, "{w} vs {}", group[0]);
            }
        }
        assert_eq!(stem("add"), "add");
        assert_eq!(stem("added"), "add");
        assert_eq!(stem("pass"), "pass");
        assert_eq!(stem("status"), "status");
        assert_eq!(stem("Payments-API's"), "payments-api");
    }

    #[test]
    fn families_group_synonyms() {
        assert_eq!(family(&stem("bumped")), Some(Family::Version));
        assert_eq!(family(&stem("upgrading")), Some(Family::Version));
        assert_eq!(family(&stem("shipped")), Some(Family::Deploy));
        assert_eq!(family(&stem("deployed")), Some(Family::Deploy));
        assert_eq!(family(&stem("restarted")), Some(Family::Restart));
        assert_eq!(family(&stem("database")), None);
    }
}
