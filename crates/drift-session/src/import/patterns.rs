//! Consequential tool calls: the pattern table of [`crate::import`](mod@crate::import) and how
//! a call's command is read.
//!
//! A call's *command* is its arguments as text: for JSON arguments, the
//! values under a command key ([`COMMAND_KEYS`]: `command`, `cmd`, `query`
//! …) when there is one, else every string value, joined by spaces, except
//! those under keys that hold file contents or prose ([`CONTENT_KEYS`]: a
//! file written with `DELETE FROM` in it is no deletion); for anything
//! else, the arguments as written. The
//! command is cut into segments at line breaks, `;`, `|`, `&`, parentheses
//! and backticks, and each segment into words (runs of ASCII letters and
//! digits, compared case-insensitively) that remember whether they open a
//! `-flag`; a word that opens a flag (`--delete-emptydir-data`) or is
//! followed by `/` (a directory or a resource kind: `deploy/payments-api`)
//! matches no verb. A pattern
//! matches when all the steps of one of its forms match words of one
//! segment, in order. The tool's name is read the same way, as a segment of
//! its own (`create_refund`).
//!
//! A **read-only** segment matches nothing, whatever words its arguments
//! hold (`grep -rn "DROP TABLE" migrations/` searches, it drops nothing):
//! one whose program (after `sudo`, `env`, `time`, `nohup`, `timeout` and a
//! shell's `-c`) only reads ([`READ_ONLY_PROGRAMS`]: `cat`, `ls`, `grep`,
//! `head`, `jq` …), or whose program and subcommand only read
//! ([`READ_ONLY_SUBCOMMANDS`]: `kubectl get`, `git status`, `terraform
//! plan` …), or a database client (`psql`, `mysql`, `sqlite3`, …) whose SQL
//! only reads (`SELECT`, `EXPLAIN`, `SHOW`, `\d`: no write or DDL word).

use alloc::string::String;
use alloc::vec::Vec;

use serde_json::Value;

/// One step of a pattern's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// One of these words.
    Word(&'static [&'static str]),
    /// A word that starts with one of these.
    Prefix(&'static [&'static str]),
    /// One of these words opening a `-flag` or `--flag`.
    Flag(&'static [&'static str]),
    /// A short flag of letters only that has all of these (`-rf`, `-Rfv`).
    Letters(&'static str),
}

use Step::{Flag, Letters, Prefix, Word};

/// A consequential tool call, as a pattern over its command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pattern {
    /// Identifier; imported actions are named after it (`rm-rf`, `deploy-2`).
    pub id: &'static str,
    /// The pattern as a person would write it ("rm -rf").
    pub label: &'static str,
    /// Whether an action it matches is marked irreversible.
    pub irreversible: bool,
    /// What goes wrong if it runs ungoverned (the action's `consequence`).
    pub consequence: &'static str,
    /// Alternative step sequences; any one matching is a match.
    forms: &'static [&'static [Step]],
}

/// Verbs that make a money word a money movement.
const MONEY_VERBS: &[&str] = &[
    "capture", "confirm", "create", "execute", "issue", "pay", "post", "put", "send", "submit",
];
/// Words that name money (by prefix: "payments", "charges").
const MONEY: &[&str] = &["charge", "payment", "payout", "refund"];

/// The consequential patterns, in the order they are tried: the first that
/// matches names the action, so the destructive ones come first.
pub const PATTERNS: &[Pattern] = &[
    Pattern {
        id: "rm-rf",
        label: "rm -rf",
        irreversible: true,
        consequence: "Files are deleted recursively, with no undo.",
        forms: &[
            &[Word(&["rm"]), Letters("rf")],
            &[
                Word(&["rm"]),
                Flag(&["r", "recursive"]),
                Flag(&["f", "force"]),
            ],
        ],
    },
    Pattern {
        id: "drop",
        label: "drop table",
        irreversible: true,
        consequence: "A table, database or schema and its data are dropped.",
        forms: &[
            &[
                Word(&["drop"]),
                Word(&[
                    "collection",
                    "database",
                    "index",
                    "keyspace",
                    "schema",
                    "table",
                    "view",
                ]),
            ],
            &[Word(&["dropdb", "dropdatabase"])],
        ],
    },
    Pattern {
        id: "truncate",
        label: "truncate",
        irreversible: true,
        consequence: "Every row of a table (or a file's contents) is removed.",
        forms: &[&[Word(&["truncate"])]],
    },
    Pattern {
        id: "delete",
        label: "delete",
        irreversible: true,
        consequence: "Data or a resource is deleted.",
        forms: &[&[Word(&["delete"])], &[Word(&["find"]), Flag(&["delete"])]],
    },
    Pattern {
        id: "destroy",
        label: "terraform destroy",
        irreversible: true,
        consequence: "Infrastructure is destroyed.",
        forms: &[
            &[Word(&["destroy"])],
            &[Word(&["helm"]), Word(&["uninstall"])],
        ],
    },
    Pattern {
        id: "force-push",
        label: "git push --force",
        irreversible: true,
        consequence: "The remote branch's history is overwritten.",
        forms: &[
            &[Word(&["git"]), Word(&["push"]), Flag(&["f", "force"])],
            &[Word(&["force"]), Word(&["push"])],
        ],
    },
    Pattern {
        id: "reset-hard",
        label: "git reset --hard",
        irreversible: true,
        consequence: "Uncommitted work is thrown away.",
        forms: &[&[Word(&["git"]), Word(&["reset"]), Flag(&["hard"])]],
    },
    Pattern {
        id: "publish",
        label: "publish",
        irreversible: true,
        consequence: "A release is published; a published version cannot be taken back.",
        forms: &[&[Word(&["publish"])]],
    },
    Pattern {
        id: "payment",
        label: "payment, charge or refund",
        irreversible: true,
        consequence: "Money moves.",
        forms: &[
            &[Prefix(MONEY), Word(MONEY_VERBS)],
            &[Word(MONEY_VERBS), Prefix(MONEY)],
        ],
    },
    Pattern {
        id: "drain",
        label: "kubectl drain or cordon",
        irreversible: false,
        consequence: "A node stops taking work and its pods are evicted.",
        forms: &[&[Word(&["kubectl"]), Word(&["cordon", "drain"])]],
    },
    Pattern {
        id: "scale",
        label: "scale",
        irreversible: false,
        consequence: "A workload's replicas change.",
        forms: &[&[Word(&["kubectl"]), Word(&["scale", "autoscale"])]],
    },
    Pattern {
        id: "push-main",
        label: "git push to main",
        irreversible: false,
        consequence: "A change lands on the main branch without review.",
        forms: &[&[Word(&["git"]), Word(&["push"]), Word(&["main", "master"])]],
    },
    Pattern {
        id: "migrate",
        label: "migrate",
        irreversible: false,
        consequence: "A schema migration runs.",
        forms: &[
            &[Word(&["migrate"])],
            &[Word(&["psql", "mysql", "sqlite3"]), Flag(&["f", "file"])],
        ],
    },
    Pattern {
        id: "restart",
        label: "restart",
        irreversible: false,
        consequence: "A running service restarts.",
        forms: &[&[Word(&["reboot", "restart"])]],
    },
    Pattern {
        id: "rollback",
        label: "rollback",
        irreversible: false,
        consequence: "A service is rolled back to an earlier version.",
        forms: &[
            &[Word(&["rollback"])],
            &[Word(&["roll"]), Word(&["back"])],
            &[Word(&["rollout"]), Word(&["undo"])],
        ],
    },
    Pattern {
        id: "deploy",
        label: "deploy",
        irreversible: false,
        consequence: "A change is deployed.",
        forms: &[
            &[Word(&["deploy"])],
            &[Word(&["kubectl"]), Word(&["apply"])],
            &[Word(&["terraform"]), Word(&["apply"])],
            &[Word(&["helm"]), Word(&["install", "upgrade"])],
            &[Word(&["pulumi"]), Word(&["up"])],
        ],
    },
];

/// Keys of JSON arguments whose values are file contents or prose, not a
/// command: they are not read for patterns or resources.
pub const CONTENT_KEYS: &[&str] = &[
    "content",
    "contents",
    "description",
    "diff",
    "edits",
    "file_text",
    "new_str",
    "new_string",
    "old_str",
    "old_string",
    "justification",
    "patch",
    "prefix_rule",
    "prompt",
    "text",
    "todos",
];

/// Programs that only read, whatever their arguments.
pub const READ_ONLY_PROGRAMS: &[&str] = &[
    "cat",
    "ls",
    "ll",
    "grep",
    "egrep",
    "fgrep",
    "rg",
    "ag",
    "head",
    "tail",
    "less",
    "more",
    "wc",
    "echo",
    "printf",
    "jq",
    "yq",
    "diff",
    "stat",
    "du",
    "df",
    "ps",
    "pwd",
    "which",
    "whoami",
    "date",
    "tree",
    "file",
    "sort",
    "uniq",
    "cut",
    "nl",
    "column",
    "realpath",
    "basename",
    "dirname",
    "uptime",
    "hostname",
    "id",
    "top",
    "free",
    "dig",
    "nslookup",
    "ping",
    "md5sum",
    "sha256sum",
    "history",
    "true",
];

/// Programs whose listed subcommands only read.
pub const READ_ONLY_SUBCOMMANDS: &[(&str, &[&str])] = &[
    (
        "kubectl",
        &[
            "get",
            "describe",
            "logs",
            "top",
            "explain",
            "version",
            "diff",
            "events",
            "api-resources",
            "cluster-info",
            "auth",
            "wait",
        ],
    ),
    (
        "git",
        &[
            "status",
            "log",
            "diff",
            "show",
            "fetch",
            "blame",
            "grep",
            "rev-parse",
            "ls-files",
            "describe",
            "shortlog",
            "reflog",
            "remote",
        ],
    ),
    (
        "terraform",
        &[
            "plan",
            "show",
            "validate",
            "fmt",
            "output",
            "init",
            "providers",
            "version",
        ],
    ),
    (
        "helm",
        &[
            "list", "ls", "status", "get", "history", "template", "lint", "diff", "show", "search",
        ],
    ),
    (
        "docker",
        &[
            "ps", "images", "logs", "inspect", "stats", "version", "info",
        ],
    ),
    ("gh", &["view", "list", "status", "diff", "checks"]),
    (
        "cargo",
        &[
            "check", "test", "build", "clippy", "fmt", "tree", "metadata", "doc",
        ],
    ),
    ("npm", &["test", "ls", "list", "view", "outdated", "audit"]),
    (
        "systemctl",
        &["status", "show", "list-units", "is-active", "cat"],
    ),
    ("journalctl", &[]),
    ("find", &[]),
    ("sed", &[]),
    ("awk", &[]),
];

/// Database clients: read-only when their SQL only reads.
const SQL_CLIENTS: &[&str] = &[
    "psql",
    "mysql",
    "sqlite3",
    "sqlcmd",
    "clickhouse",
    "bq",
    "cqlsh",
];

/// SQL words that write or change a schema.
const SQL_WRITES: &[&str] = &[
    "alter", "create", "delete", "drop", "grant", "insert", "merge", "rename", "replace", "revoke",
    "truncate", "update", "upsert", "vacuum", "reindex", "copy",
];

/// Words that only wrap the program they run.
const WRAPPERS: &[&str] = &[
    "sudo", "env", "time", "nohup", "nice", "exec", "command", "timeout",
];

/// Shells whose `-c` argument is the program run.
const SHELLS: &[&str] = &["bash", "sh", "zsh", "dash", "fish"];

/// How deep JSON arguments are read.
const MAX_DEPTH: usize = 16;

/// Keys that hold the command a call runs (`command`, `cmd`, a query):
/// when arguments have one, it is the command, and the rest (a working
/// directory, a sandbox mode, a timeout) is not.
pub const COMMAND_KEYS: &[&str] = &["command", "commands", "cmd", "query", "sql", "script"];

/// A call's command: see the module docs.
pub(crate) fn command_text(arguments: &str) -> String {
    let first = arguments.trim_start().as_bytes().first();
    if matches!(first, Some(b'{' | b'[' | b'"'))
        && let Ok(value) = serde_json::from_str::<Value>(arguments)
    {
        let mut out = String::new();
        let commands: Vec<&Value> = match &value {
            Value::Object(map) => COMMAND_KEYS.iter().filter_map(|k| map.get(*k)).collect(),
            _ => Vec::new(),
        };
        if commands.is_empty() {
            collect(&value, &mut out, 0);
        } else {
            for c in commands {
                collect(c, &mut out, 0);
            }
        }
        return out;
    }
    String::from(arguments)
}

fn collect(value: &Value, out: &mut String, depth: usize) {
    if depth > MAX_DEPTH {
        return;
    }
    match value {
        Value::String(s) => {
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(s);
        }
        Value::Array(items) => {
            for item in items {
                collect(item, out, depth + 1);
            }
        }
        Value::Object(map) => {
            for (key, item) in map {
                let content = CONTENT_KEYS.iter().any(|k| key.eq_ignore_ascii_case(k));
                if !content {
                    collect(item, out, depth + 1);
                }
            }
        }
        _ => {}
    }
}

/// A word of a segment: a byte range of the text, and how many dashes open
/// its flag (0 when it does not open one).
#[derive(Clone, Copy, Debug)]
struct Piece {
    start: usize,
    end: usize,
    dashes: usize,
    /// The word is the whole flag (`-rf`, not `-rf=1` or `--dry-run`).
    whole: bool,
    /// A `/` follows it: a directory or a resource kind (`deploy/api`),
    /// not a verb.
    before_slash: bool,
}

fn splits_segments(b: u8) -> bool {
    matches!(b, b'\n' | b'\r' | b';' | b'|' | b'&' | b'(' | b')' | b'`')
}

fn splits_tokens(b: u8) -> bool {
    b.is_ascii_whitespace() || matches!(b, b'"' | b'\'' | b',' | b'=' | b'[' | b']' | b'{' | b'}')
}

/// The segments of `text`, each as its words.
fn segments(text: &str) -> Vec<Vec<Piece>> {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut words: Vec<Piece> = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes.get(i).copied().unwrap_or(b' ');
        if splits_segments(b) {
            if !words.is_empty() {
                out.push(core::mem::take(&mut words));
            }
            i += 1;
            continue;
        }
        if splits_tokens(b) {
            i += 1;
            continue;
        }
        // A shell token: up to the next separator.
        let token_start = i;
        while i < bytes.len() {
            let c = bytes.get(i).copied().unwrap_or(b' ');
            if splits_tokens(c) || splits_segments(c) {
                break;
            }
            i += 1;
        }
        let token = bytes.get(token_start..i).unwrap_or(&[]);
        let dashes = token.iter().take_while(|&&c| c == b'-').count();
        let mut first = true;
        let mut j = token_start + dashes;
        while j < i {
            if !bytes.get(j).is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
                continue;
            }
            let start = j;
            while j < i && bytes.get(j).is_some_and(u8::is_ascii_alphanumeric) {
                j += 1;
            }
            words.push(Piece {
                start,
                end: j,
                dashes: if first { dashes } else { 0 },
                whole: first && j == i,
                before_slash: bytes.get(j) == Some(&b'/'),
            });
            first = false;
        }
    }
    if !words.is_empty() {
        out.push(words);
    }
    out
}

impl Step {
    fn matches(self, word: &Piece, text: &str) -> bool {
        let Some(w) = text.get(word.start..word.end) else {
            return false;
        };
        let eq = |list: &[&str]| list.iter().any(|x| w.eq_ignore_ascii_case(x));
        match self {
            Word(list) => word.dashes == 0 && !word.before_slash && eq(list),
            Prefix(list) => list.iter().any(|p| {
                w.get(..p.len())
                    .is_some_and(|head| head.eq_ignore_ascii_case(p))
            }),
            Flag(list) => word.dashes > 0 && eq(list),
            Letters(letters) => {
                word.dashes == 1
                    && word.whole
                    && w.bytes().all(|b| b.is_ascii_alphabetic())
                    && letters
                        .bytes()
                        .all(|l| w.bytes().any(|b| b.eq_ignore_ascii_case(&l)))
            }
        }
    }
}

/// Where one form matches in a segment: the byte range from its first
/// word to its last.
fn match_form(form: &[Step], words: &[Piece], text: &str) -> Option<(usize, usize)> {
    let mut next = 0;
    let mut range: Option<(usize, usize)> = None;
    for step in form {
        let found = words
            .iter()
            .enumerate()
            .skip(next)
            .find(|(_, w)| step.matches(w, text))?;
        next = found.0 + 1;
        let w = found.1;
        range = Some(range.map_or((w.start, w.end), |(s, _)| (s, w.end)));
    }
    range
}

/// A pattern's match: the pattern, the matched words as written, the
/// segment they are in, and how many segments the command has.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Found<'t> {
    pub pattern: &'static Pattern,
    pub matched: &'t str,
    pub segment: &'t str,
    pub segments: usize,
}

/// The first pattern (in table order) that matches `text` outside its
/// read-only segments.
pub(crate) fn find(text: &str) -> Option<Found<'_>> {
    let all = segments(text);
    let risky: Vec<&Vec<Piece>> = all.iter().filter(|words| !read_only(words, text)).collect();
    for pattern in PATTERNS {
        for form in pattern.forms {
            for words in &risky {
                if let Some((start, end)) = match_form(form, words, text) {
                    let seg_start = words.first().map_or(start, |w| w.start);
                    let seg_end = words.last().map_or(end, |w| w.end);
                    return Some(Found {
                        pattern,
                        matched: text.get(start..end).unwrap_or(""),
                        segment: segment_text(text, seg_start, seg_end),
                        segments: all.len(),
                    });
                }
            }
        }
    }
    None
}

/// A segment's text from its first word to its last, widened to the
/// tokens around them (a path or flag the words are part of).
fn segment_text(text: &str, start: usize, end: usize) -> &str {
    let bytes = text.as_bytes();
    let is_edge = |b: u8| splits_segments(b) || b == b'"' || b == b'\'';
    let mut s = start;
    while s > 0 && bytes.get(s - 1).is_some_and(|&b| !is_edge(b)) {
        s -= 1;
    }
    let mut e = end;
    while bytes.get(e).is_some_and(|&b| !splits_segments(b)) {
        e += 1;
    }
    text.get(s..e).map_or("", str::trim)
}

/// Whether a segment only reads (see the module docs).
fn read_only(words: &[Piece], text: &str) -> bool {
    let word = |i: usize| words.get(i).and_then(|w| text.get(w.start..w.end));
    let lower = |i: usize| word(i).map(str::to_ascii_lowercase);
    // Skip wrappers and a shell's -c.
    let mut i = 0;
    while let Some(w) = lower(i) {
        let piece = &words[i];
        if WRAPPERS.contains(&w.as_str())
            || piece.dashes > 0
            || w.bytes().all(|b| b.is_ascii_digit())
        {
            i += 1;
            continue;
        }
        if SHELLS.contains(&w.as_str()) {
            i += 1;
            continue;
        }
        break;
    }
    let Some(program) = lower(i) else {
        return false;
    };
    if READ_ONLY_PROGRAMS.contains(&program.as_str()) {
        return true;
    }
    if SQL_CLIENTS.contains(&program.as_str()) {
        // Flags are not SQL; a file of SQL (`-f`) may hold anything.
        let flags = || words.iter().skip(i + 1).filter(|w| w.dashes > 0);
        if flags().any(|w| {
            text.get(w.start..w.end)
                .is_some_and(|f| f == "f" || f == "file")
        }) {
            return false;
        }
        let rest = (i + 1..words.len())
            .filter(|&k| words[k].dashes == 0)
            .filter_map(&lower);
        let mut reads = false;
        for w in rest {
            if SQL_WRITES.contains(&w.as_str()) {
                return false;
            }
            reads |= matches!(
                w.as_str(),
                "select" | "explain" | "show" | "describe" | "d" | "dt" | "l"
            );
        }
        return reads;
    }
    let Some((_, subs)) = READ_ONLY_SUBCOMMANDS.iter().find(|(p, _)| *p == program) else {
        return false;
    };
    match program.as_str() {
        // Read-only unless told to write.
        "find" => !(i..words.len())
            .any(|k| matches!(lower(k).as_deref(), Some("delete" | "exec" | "execdir"))),
        "sed" => !words
            .iter()
            .any(|w| w.dashes > 0 && text.get(w.start..w.end).is_some_and(|f| f.starts_with('i'))),
        "awk" | "journalctl" => true,
        _ => {
            // The subcommand is the first word after the program that names
            // one (flags and their values, `--context prod`, come between).
            for k in i + 1..words.len().min(i + 8) {
                if words[k].dashes > 0 {
                    continue;
                }
                let Some(sub) = lower(k) else { break };
                if subs.contains(&sub.as_str()) {
                    return true;
                }
                let listing = (program == "git"
                    && sub == "branch"
                    && !words.iter().skip(k).any(|w| w.dashes > 0))
                    || (program == "kubectl"
                        && ((sub == "config" && lower(k + 1).as_deref() == Some("view"))
                            || (sub == "rollout"
                                && matches!(lower(k + 1).as_deref(), Some("status" | "history")))));
                if listing {
                    return true;
                }
                if MUTATING_SUBCOMMANDS.contains(&sub.as_str()) {
                    return false;
                }
            }
            false
        }
    }
}

/// Subcommands that change something, whichever program they belong to:
/// the search for a read-only subcommand stops at them.
const MUTATING_SUBCOMMANDS: &[&str] = &[
    "add",
    "annotate",
    "apply",
    "autoscale",
    "branch",
    "checkout",
    "cherry-pick",
    "clean",
    "commit",
    "cordon",
    "cp",
    "create",
    "delete",
    "destroy",
    "drain",
    "edit",
    "exec",
    "expose",
    "import",
    "install",
    "kill",
    "label",
    "merge",
    "patch",
    "publish",
    "push",
    "rebase",
    "replace",
    "reset",
    "restart",
    "revert",
    "rm",
    "rollback",
    "rollout",
    "run",
    "scale",
    "set",
    "stash",
    "stop",
    "switch",
    "taint",
    "tag",
    "uncordon",
    "uninstall",
    "untaint",
    "upgrade",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn id(command: &str) -> Option<(&'static str, &str)> {
        find(command).map(|f| (f.pattern.id, f.matched))
    }

    #[test]
    fn the_table() {
        let cases: &[(&str, Option<(&str, &str)>)] = &[
            ("rm -rf /tmp/payments-cache", Some(("rm-rf", "rm -rf"))),
            ("sudo rm -Rfv build/", Some(("rm-rf", "rm -Rfv"))),
            ("rm -r -f data/", Some(("rm-rf", "rm -r -f"))),
            ("rm old.log", None),
            (
                "psql -c 'DROP TABLE ledger_entries;'",
                Some(("drop", "DROP TABLE")),
            ),
            ("dropdb billing", Some(("drop", "dropdb"))),
            (
                "kubectl -n payments delete pod payments-api-7d9f8",
                Some(("delete", "delete")),
            ),
            (
                "curl -X DELETE https://api.example.com/v1/users/42",
                Some(("delete", "DELETE")),
            ),
            (
                "terraform destroy -auto-approve",
                Some(("destroy", "destroy")),
            ),
            (
                "git push --force origin feat/x",
                Some(("force-push", "git push --force")),
            ),
            ("git push -f", Some(("force-push", "git push -f"))),
            (
                "git push --force-with-lease",
                Some(("force-push", "git push --force")),
            ),
            ("git push origin feat/f", None),
            (
                "git push origin main",
                Some(("push-main", "git push origin main")),
            ),
            (
                "git reset --hard HEAD~3",
                Some(("reset-hard", "git reset --hard")),
            ),
            ("cargo publish -p confkit", Some(("publish", "publish"))),
            (
                "curl -X POST https://api.stripe.com/v1/refunds -d charge=ch_1",
                Some(("payment", "POST https://api.stripe.com/v1/refunds")),
            ),
            ("grep -rn payment src/", None),
            ("bin/rails db:migrate", Some(("migrate", "migrate"))),
            ("./scripts/deploy.sh staging", Some(("deploy", "deploy"))),
            ("kubectl get deployments", None),
            (
                "kubectl -n payments apply -f k8s/",
                Some(("deploy", "kubectl -n payments apply")),
            ),
            (
                "helm upgrade payments charts/payments",
                Some(("deploy", "helm upgrade")),
            ),
            (
                "kubectl rollout restart deployment/payments-api",
                Some(("restart", "restart")),
            ),
            ("kubectl rollout status deployment/payments-api", None),
            (
                "kubectl rollout undo deployment/payments-api",
                Some(("rollback", "rollout undo")),
            ),
            ("helm rollback payments 41", Some(("rollback", "rollback"))),
            ("ls; sudo reboot", Some(("restart", "reboot"))),
            (
                "kubectl rollout restart deploy/api",
                Some(("restart", "restart")),
            ),
            ("kubectl get deploy/api -o yaml", None),
            ("ls migrate/ restart/", None),
            ("echo drop; echo table", None),
            // Read-only programs and subcommands act on nothing.
            ("grep -rn \"DROP TABLE\" migrations/", None),
            ("kubectl --context prod logs deploy/api | grep delete", None),
            ("git log --oneline -- scripts/deploy.sh", None),
            ("terraform -chdir=infra plan -out=tfplan", None),
            ("cat runbooks/restart.md", None),
            ("psql -h replica -c \"SELECT count(*) FROM ledger\"", None),
            (
                "psql -h replica -c \"DROP TABLE ledger_2023\"",
                Some(("drop", "DROP TABLE")),
            ),
            ("bash -lc \"kubectl get pods -n payments\"", None),
            (
                "make lint && git add -A && git push --force origin feat/x",
                Some(("force-push", "git push --force")),
            ),
            (
                "find /tmp -name '*.log' -delete",
                Some(("delete", "find /tmp -name '*.log' -delete")),
            ),
            ("git branch -D old-feature", None),
        ];
        for (command, want) in cases {
            assert_eq!(id(command), *want, "{command}");
        }
    }

    #[test]
    fn the_risky_segment_of_a_chain_is_named() {
        let f = find("make lint && git add -A && git push --force origin ops/rotate").unwrap();
        assert_eq!(f.segment, "git push --force origin ops/rotate");
        assert_eq!(f.segments, 3);
    }

    #[test]
    fn json_arguments_are_read_without_file_contents() {
        let write = r#"{"file_path":"db/cleanup.sql","content":"DELETE FROM sessions;"}"#;
        assert_eq!(command_text(write), "db/cleanup.sql");
        let bash = r#"{"command":"kubectl delete ns scratch","description":"Check the deploy"}"#;
        assert_eq!(command_text(bash), "kubectl delete ns scratch");
        let codex = r#"{"command":["bash","-lc","git push -f"],"timeout_ms":10000}"#;
        assert_eq!(command_text(codex), "bash -lc git push -f");
        let exec = r#"{"cmd":"kubectl drain node-3","justification":"delete pods to drain"}"#;
        assert_eq!(command_text(exec), "kubectl drain node-3");
        assert_eq!(command_text("*** Begin Patch"), "*** Begin Patch");
        assert_eq!(command_text("{not json"), "{not json");
    }

    #[test]
    fn every_pattern_has_a_form_and_a_unique_id() {
        for (i, p) in PATTERNS.iter().enumerate() {
            assert!(!p.forms.is_empty() && p.forms.iter().all(|f| !f.is_empty()));
            assert!(PATTERNS[..i].iter().all(|q| q.id != p.id), "{}", p.id);
        }
    }
}
