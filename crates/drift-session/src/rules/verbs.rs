//! The verbs an instruction opens with, and the small readings built on
//! them: where a typed line starts an order of its own (the sentence
//! reader cuts there), and whether a clause instructs at all (the judge's
//! reading of a rule). Structure, not a decision: whether a unit is a rule
//! is the model's to say ([`super::model`]).

/// Verbs that open an instruction that holds while the work goes on: a
/// clause that opens with one is a rule even without a cue ("record every
/// step", "be thorough", "report under 600 words").
pub(crate) const STANDING_VERBS: &[&str] = &[
    "be",
    "keep",
    "stay",
    "stick",
    "use",
    "record",
    "log",
    "track",
    "document",
    "follow",
    "respect",
    "obey",
    "treat",
    "prefer",
    "favor",
    "favour",
    "focus",
    "leave",
    "preserve",
    "maintain",
    "retain",
    "mirror",
    "match",
    "reuse",
    "put",
    "write",
    "save",
    "store",
    "place",
    "output",
    "cite",
    "quote",
    "flag",
    "mark",
    "name",
    "format",
    "return",
    "report",
    "answer",
    "reply",
    "respond",
    "speak",
    "talk",
    "communicate",
    "comment",
];

/// Verbs that open a one-off task: the clause is a rule only with a cue
/// of its own ("fix the parser", but "fix the parser without touching the
/// lexer").
pub(crate) const TASK_VERBS: &[&str] = &[
    "fix",
    "implement",
    "add",
    "create",
    "build",
    "make",
    "review",
    "check",
    "look",
    "find",
    "search",
    "explain",
    "tell",
    "show",
    "list",
    "compare",
    "analyze",
    "analyse",
    "design",
    "plan",
    "remove",
    "delete",
    "commit",
    "push",
    "merge",
    "deploy",
    "run",
    "test",
    "debug",
    "update",
    "refactor",
    "rename",
    "move",
    "copy",
    "install",
    "continue",
    "start",
    "try",
    "help",
    "do",
    "finish",
    "complete",
    "summarize",
    "summarise",
    "investigate",
    "verify",
    "read",
    "open",
    "go",
    "give",
    "provide",
    "generate",
    "draft",
    "prepare",
    "set",
    "clean",
    "revert",
    "undo",
    "restore",
    "download",
    "upload",
    "fetch",
    "clone",
    "describe",
    "rewrite",
    "improve",
    "optimize",
    "optimise",
    "convert",
    "port",
    "migrate",
    "upgrade",
    "resolve",
    "handle",
    "answer",
    "figure",
    "dig",
    "grep",
    "ls",
    "cat",
    "open",
    "launch",
    "call",
    "ask",
    "let",
    "lets",
    "think",
    "consider",
    "pick",
    "choose",
    "decide",
    "send",
];

/// Verbs that put the work somewhere: with a place after them ("write the
/// plan into ROADMAP.md", "put it in the file we already have") they make
/// a rule of where things go.
pub(crate) const PLACING_VERBS: &[&str] = &[
    "write", "put", "save", "store", "place", "output", "record", "log", "document", "dump",
    "keep", "add", "append",
];

/// Whether a line opening with `word` (lower-case, apostrophes dropped)
/// opens an order of its own: an imperative, or "never", "always",
/// "dont", "only", "please".
pub(crate) fn opens_an_order(word: &str) -> bool {
    TASK_VERBS.contains(&word)
        || STANDING_VERBS.contains(&word)
        || matches!(word, "never" | "always" | "dont" | "only" | "please")
}

/// Whether a clause opening with `word` instructs: an imperative of work,
/// of a standing kind, or of placing something.
pub(crate) fn opens_instruction(word: &str) -> bool {
    STANDING_VERBS.contains(&word) || TASK_VERBS.contains(&word) || PLACING_VERBS.contains(&word)
}

/// Whether `text` can be a typed answer: a few words that ask nothing.
pub(crate) fn short_answer(text: &str) -> bool {
    !text.is_empty() && text.chars().count() <= 24 && !text.contains(['?', '？'])
}

/// Verbs that report an instruction as the operator's ("the user asked
/// that …"): a summary's frame around a rule it restates.
pub(crate) const REPORTING: &[&str] = &[
    "asked",
    "asks",
    "wants",
    "wanted",
    "requested",
    "requests",
    "required",
    "requires",
    "insisted",
    "instructed",
    "told",
    "said",
    "prefers",
    "preferred",
    "specified",
    "demanded",
    "says",
    "stated",
    "emphasized",
    "emphasised",
    "noted",
    "mentioned",
];
