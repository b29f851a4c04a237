//! The word lists the cues and filters read.

/// Words skipped at the start of a clause.
pub(super) const FILLERS: &[&str] = &[
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
pub(super) const PERIODIC: &[&str] = &[
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
pub(super) const ADVANCE: &[&str] = &[
    "ahead",
    "before",
    "beforehand",
    "advance",
    "prior",
    "notice",
];

/// Work stopped for a time, a freeze by another name ("deploys are
/// blocked until …").
pub(super) const HALTED: &[&str] = &[
    "blocked",
    "paused",
    "locked",
    "suspended",
    "closed",
    "halted",
];

/// Words that are never an instruction's verb besides the function words
/// ([`lexicon::FUNCTION_WORDS`]).
pub(super) const CLOSED: &[&str] = &[
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
pub(super) const REMOVALS: &[&str] = &[
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
pub(super) const CHANGE_NOUNS: &[&str] = &[
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
pub(super) const ROUTED: &[&str] = &[
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
pub(super) const WORK_NOUNS: &[&str] = &[
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
pub(super) const FACT_CUES: &[&str] = &[
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
pub(super) const RULE_NOUNS: &[&str] = &[
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
pub(super) const MOODS: &[&str] = &[
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
pub(super) const DESCRIPTIVE: &[&str] = &["it", "that", "there", "this", "what", "which"];

/// Words after "I"/"we" that make a clause the speaker's plan or state.
pub(super) const PLAN_VERBS: &[&str] = &[
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
pub(super) const RESOURCES: &[&str] = &[
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
pub(super) const TOUCH: &[&str] = &[
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
pub(super) const PLACES: &[&str] = &[
    "against", "from", "in", "inside", "on", "to", "under", "within",
];

/// What "without" names when it makes a step wait on another.
pub(super) const STEPS: &[&str] = &[
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
pub(super) const NO_IDIOMS: &[&str] = &[
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
