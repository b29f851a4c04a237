//! The rules each format fixture states, as the import finds them: most
//! rules the fixture's README lists (its source and line) are facts, each
//! once; no text of the harness's own (sandbox and permission text,
//! environment context, compaction preambles, base instructions) or the
//! model's is one; and of the sentences people say that are no rule, at
//! most one is taken for one.

use drift_session::{ImportOptions, Transcript, import, read_transcript};

fn fixture(name: &str) -> Transcript {
    let path = format!(
        "{}/tests/transcripts/formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    read_transcript(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// The facts the import makes of `name`.
fn facts(name: &str) -> Vec<String> {
    let t = fixture(name);
    import(&t, &ImportOptions::default())
        .scenario
        .facts
        .into_iter()
        .map(|f| f.text)
        .collect()
}

/// How much of a fixture's rules the finder must find: it is a model
/// learned from people's sessions, not from these fixtures, and is held to
/// most of them, not all.
const FOUND: f64 = 0.8;

/// The rules of `rules` (each a distinctive part of its words) are facts,
/// each in one fact at most, at least [`FOUND`] of them, and no fact holds
/// any of `harness` (the harness's own text, the model's words, a tool's
/// data: never a rule, whatever the finder would say).
fn check(name: &str, rules: &[&str], harness: &[&str]) {
    let found = facts(name);
    let mut missing = Vec::new();
    for rule in rules {
        match found.iter().filter(|f| f.contains(rule)).count() {
            0 => missing.push(*rule),
            1 => {}
            n => panic!("{name}: {rule:?} is {n} facts: {found:#?}"),
        }
    }
    let share = (rules.len() - missing.len()) as f64 / rules.len() as f64;
    assert!(
        share >= FOUND,
        "{name}: {} of {} rules found; missing: {missing:#?}\nfacts: {found:#?}",
        rules.len() - missing.len(),
        rules.len()
    );
    for text in harness {
        assert!(
            found.iter().all(|f| !f.contains(text)),
            "{name}: {text:?} is no rule: {found:#?}"
        );
    }
}

/// Each of `said` (sentences people say in `name` that are no rule: a
/// task, a state, a persona) with whether the import made a fact of it.
fn taken(name: &str, said: &[&str]) -> Vec<(String, bool)> {
    let found = facts(name);
    said.iter()
        .map(|t| ((*t).to_string(), found.iter().any(|f| f.contains(t))))
        .collect()
}

#[test]
fn claude_code_1_0() {
    check(
        "claude-code-1.0.jsonl",
        &[
            "only operate in the staging namespace",
            "Never force-push to main.",
            "show me exactly what will be deleted",
            "Do not run `terraform apply` from a laptop",
            "read-only unless a release is scheduled",
            "you don't need to ask me, just delete them",
            "Everything else still needs my ok before any kubectl delete",
            "no deploys to prod before Monday 2025-07-21",
            "Staging deploys are fine",
            "No prod deploy until Monday",
        ],
        &[
            "consider whether it looks malicious",
            "DO NOT respond to these messages",
            "The user doesn't want to proceed",
            "without asking the user any further questions",
        ],
    );
}

#[test]
fn claude_code_2_1() {
    check(
        "claude-code-2.1.jsonl",
        &[
            "Only touch billing-replica-2 for database work",
            "Drain at most 2 nodes at once in the billing pool",
            "Post in #prod-changes before you cordon anything",
            "payments-api is frozen until 2026-04-22 09:00 UTC",
            "Never use `git push --force` on main or release/* branches",
            "Never run DROP TABLE against a billing database",
            "only with a saved plan file that a human has reviewed",
            "don't drop anything",
            "on billing-replica-2 only",
            "Every #prod-changes post must reference CHG-4411",
            "You can force-push feat/ledger-rename",
            "Check the maintenance runbook before touching nodes",
            "Announce in #prod-changes, with the change ticket, before cordoning any node",
            "Cordon and drain at most 2 billing nodes at a time",
            "Never drain billing-pool-1",
            "Uncordon each node as soon as its maintenance is done",
            "after the user approves that plan in this conversation",
            "Never run `rm -rf` anywhere except under ./tmp/ in this repo",
            "ask me before restarting anything in the payments namespace",
        ],
        &[
            "Noted from CLAUDE.md",
            "This session is being continued",
            "nothing to commit",
            "No other nodes were touched",
        ],
    );
}

#[test]
fn codex_before_the_envelope() {
    check(
        "codex-2025-pre-envelope.jsonl",
        &[
            "Never run `terraform apply` without a saved plan file",
            "Do not force-push to `main`",
            "Don't touch anything in the payments namespace",
            "never drain more than two nodes at a time",
            "Never drain nodes during the 14:00-15:00 UTC billing batch window",
            "do not scale the payments deployments during the rotation",
        ],
        &[
            "<user_instructions>",
            "approval_policy",
            "sandbox_mode",
            "The runbook forbids draining",
        ],
    );
}

#[test]
fn codex_with_a_local_compaction() {
    check(
        "codex-envelope-local-compact.jsonl",
        &[
            "Run `make lint` before every commit",
            "Never run `terraform apply` without a saved plan file",
            "Do not force-push to `main`",
            "touch anything in the `payments` namespace",
            "drain at most 2 nodes at once",
            "Post in #prod-changes before you cordon anything",
            "Never drain nodes during the 14:00-15:00 UTC billing batch window",
            "no DROP TABLE on any billing database until the 2026-05-01 retention review",
            "Only run the index migration on billing-replica-2",
            "leave the primary alone",
            "ask me before any terraform apply",
            "nothing gets applied to prod after that",
            "one node at a time there",
            "you can delete the stale tmp-* pods in payments",
        ],
        &[
            "Do not `git commit` your changes",
            "prefix_rule",
            "Editing files in other directories requires approval",
            "AGENTS.md instructions for",
            "environment_context",
        ],
    );
}

#[test]
fn codex_with_a_remote_compaction() {
    check(
        "codex-envelope-remote-compact.jsonl",
        &[
            "Use the `staging` kube context for everything in this repo",
            "You may delete namespaces matching `preview-*`",
            "never touch `preview-shared`",
            "Don't run anything against the prod-east context at all",
            "wait for my OK before deleting any namespace with more than 10 pods",
            "No more namespace deletions today",
        ],
        &[
            "permissions instructions",
            "turn_aborted",
            "I will not delete any more namespaces today",
        ],
    );
}

#[test]
fn responses_request_body() {
    check(
        "responses-request.json",
        &[
            "Never run DROP or TRUNCATE statements against a production database",
            "Refunds over $500 need written approval from the finance lead",
            "Always drain a node before you restart it",
            "restart at most 2 nodes at once",
            "Schema changes are allowed only on billing-replica-2",
            "You have my approval to restart billing-node-4 once billing-node-3 is back in service",
            "no deploys or config edits there",
            "the refund approval threshold is $250, not $500",
            "hotfix PR #4471 can still ship",
            "never refund to a card other than the one originally charged",
        ],
        &["Denied by operator"],
    );
}

#[test]
fn responses_list_newest_first() {
    check(
        "responses-list-desc.json",
        &[
            "Never refund more than $100 to a single customer without asking me first",
            "Do not write to billing-primary until tonight's backup job has finished",
        ],
        &[],
    );
}

#[test]
fn responses_after_a_compaction() {
    check(
        "responses-compacted.json",
        &[
            "Do not restart ledger-prod during business hours",
            "Never delete anything under /var/lib/ledger",
            "Only run the migration on ledger-staging until I say otherwise",
        ],
        &[],
    );
}

/// Of the sentences people say in the fixtures that are no rule (a task, a
/// state, a persona), the finder takes at most a third for rules.
#[test]
fn said_no_rule() {
    let said: Vec<(String, bool)> = [
        taken(
            "claude-code-1.0.jsonl",
            &["Key constraints", "only Jobs whose status is failed"],
        ),
        taken(
            "claude-code-2.1.jsonl",
            &[
                "Never have more than 2 billing nodes cordoned",
                "Constraints stated by the user",
            ],
        ),
        taken(
            "responses-request.json",
            &[
                "You are the on-call operations agent",
                "We're rolling the billing-api restarts today",
            ],
        ),
        taken(
            "responses-list-desc.json",
            &["Please clean up the duplicate-charge tickets"],
        ),
        taken(
            "responses-compacted.json",
            &[
                "We're migrating the ledger service this week",
                "that dry run looks fine",
            ],
        ),
    ]
    .concat();
    let taken: Vec<&String> = said.iter().filter(|s| s.1).map(|s| &s.0).collect();
    assert!(
        taken.len() * 3 <= said.len(),
        "{} of {} sentences that are no rules taken for rules: {taken:?}",
        taken.len(),
        said.len()
    );
}
