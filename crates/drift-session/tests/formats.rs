//! Every log format era the readers support, read from fixtures written from
//! the harnesses' published shapes (`tests/transcripts/README.md` cites
//! them): the harness named, who said what, the compactions the log records,
//! the actions the agent took and the calls that are not actions.

use drift_session::{
    ImportOptions, Imported, MessageRole, Transcript, TranscriptFormat, import,
    import::SkipReason,
    read_transcript,
    transcript::{CallStatus, CompactionTrigger, Provenance},
};

fn path(name: &str) -> String {
    format!(
        "{}/tests/transcripts/formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

fn read(name: &str) -> Transcript {
    let text = std::fs::read_to_string(path(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    read_transcript(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// The Claude Code 2.1 session with its subagent's log added.
fn with_subagent() -> Transcript {
    let mut t = read("claude-code-2.1.jsonl");
    let agent = std::fs::read_to_string(path(
        "claude-code-2.1/subagents/agent-a7c41e9d2b3f60815.jsonl",
    ))
    .unwrap();
    t.add_agent_log(&agent).unwrap();
    t
}

fn imported(t: &Transcript) -> Imported {
    import(t, &ImportOptions::default())
}

/// The commands of the actions, as the import writes them.
fn actions(i: &Imported) -> Vec<&str> {
    i.scenario.actions.iter().map(|a| a.text.as_str()).collect()
}

/// Whether some action's text contains `needle`.
fn acts(i: &Imported, needle: &str) -> bool {
    actions(i).iter().any(|a| a.contains(needle))
}

/// Fails the test unless, for each of `commands`, some action's text
/// contains it.
#[track_caller]
fn acts_on_all(i: &Imported, commands: &[&str]) {
    for taken in commands {
        assert!(acts(i, taken), "{taken} in {:#?}", actions(i));
    }
}

/// Fails the test if some action's text contains one of `commands`.
#[track_caller]
fn acts_on_none(i: &Imported, commands: &[&str]) {
    for read_only in commands {
        assert!(!acts(i, read_only), "{read_only} is no action");
    }
}

/// Fails the test unless, for each `(needle, provenance)`, the first
/// message containing `needle` has that provenance.
#[track_caller]
fn assert_provenances(t: &Transcript, cases: &[(&str, Provenance)]) {
    for &(needle, expected) in cases {
        assert_eq!(provenance(t, needle), expected, "{needle}");
    }
}

/// The provenance of the first message containing `needle`.
fn provenance(t: &Transcript, needle: &str) -> Provenance {
    provenance_of(t, needle)[0].1
}

fn provenance_of(t: &Transcript, needle: &str) -> Vec<(MessageRole, Provenance)> {
    t.messages
        .iter()
        .filter(|m| m.text.contains(needle))
        .map(|m| (m.role, m.provenance))
        .collect()
}

#[test]
fn claude_code_2_1_opens_with_a_snapshot_and_is_still_claude_code() {
    let t = read("claude-code-2.1.jsonl");
    assert_eq!(t.format, TranscriptFormat::ClaudeCodeSession);
    assert_eq!(t.format.harness(), "Claude Code");
    let skipped: Vec<&str> = t.skipped_records.iter().map(|(k, _)| k.as_str()).collect();
    assert_eq!(skipped[0], "file-history-snapshot");
    for kind in [
        "permission-mode",
        "last-prompt",
        "attachment (hook_success)",
    ] {
        assert!(skipped.contains(&kind), "{kind} in {skipped:?}");
    }
}

#[test]
fn claude_code_2_1_reads_every_voice() {
    let t = with_subagent();
    // A queued command is the user speaking mid-turn.
    assert_eq!(
        provenance_of(
            &t,
            "ask me before restarting anything in the payments namespace"
        ),
        [(MessageRole::User, Provenance::Queued)]
    );
    // A hook's additional context is text the model saw, once per injection.
    let hook = provenance_of(&t, "Every #prod-changes post must reference CHG-4411.");
    assert_eq!(hook.len(), 2);
    assert!(
        hook.iter()
            .all(|h| *h == (MessageRole::System, Provenance::Hook))
    );
    // A skill's body is the skill's.
    assert_eq!(
        provenance(&t, "Never run `rm -rf` anywhere except under ./tmp/"),
        Provenance::Skill
    );
    // Read results lose their numbering, arrow form and tab form.
    let claude_md = t
        .messages
        .iter()
        .find(|m| m.role == MessageRole::Tool && m.text.contains("Never use `git push --force`"))
        .expect("the CLAUDE.md read");
    assert!(!claude_md.text.contains('→'), "{}", claude_md.text);
    let runbook = t
        .messages
        .iter()
        .find(|m| m.text.contains("3. Never drain billing-pool-1"))
        .expect("the runbook read");
    assert!(
        runbook
            .text
            .lines()
            .any(|l| l.starts_with("3. Never drain billing-pool-1"))
    );
    // The compaction summary is the harness's, not the user's.
    assert_eq!(
        provenance_of(
            &t,
            "This session is being continued from a previous conversation"
        )[0]
        .0,
        MessageRole::Summary
    );
    // The subagent's brief and its own calls carry its id, once each.
    let delegated: Vec<&str> = t
        .messages
        .iter()
        .filter(|m| m.agent.as_deref() == Some("a7c41e9d2b3f60815"))
        .filter_map(|m| m.tool_arguments.as_deref())
        .filter(|a| a.contains("drain billing-pool-3"))
        .collect();
    assert_eq!(
        delegated.len(),
        1,
        "the embedded copy and the log's are one"
    );
    assert!(t.messages.iter().any(|m| m.provenance == Provenance::Brief));
}

#[test]
fn claude_code_2_1_compaction_is_surfaced() {
    let t = read("claude-code-2.1.jsonl");
    assert_eq!(t.compactions.len(), 1);
    let c = &t.compactions[0];
    assert_eq!(c.record, 56);
    assert_eq!(c.trigger, Some(CompactionTrigger::Auto));
    assert_eq!(c.tokens_before, Some(167_412));
    let summary = c.summary.expect("the isCompactSummary line");
    assert_eq!(t.messages[summary].record, 57);
    assert_eq!(c.at, summary);
    let i = imported(&t);
    assert_eq!(i.compactions.len(), 1);
    assert_eq!(i.compactions[0].tokens_before, Some(167_412));
}

#[test]
fn claude_code_2_1_actions_and_non_actions() {
    let t = with_subagent();
    let i = imported(&t);
    acts_on_all(
        &i,
        &[
            "terraform -chdir=infra/billing-pool apply tfplan",
            "git push --force-with-lease origin feat/ledger-rename",
            "kubectl --context billing-prod drain billing-pool-5 billing-pool-6",
            "helm upgrade ledger-worker",
            "rm -rf ./tmp/tfplan-cache",
        ],
    );
    // The subagent's drains are delegated actions, once each.
    let drains: Vec<&drift_core::Action> = i
        .scenario
        .actions
        .iter()
        .filter(|a| a.text.contains("drain billing-pool-3"))
        .collect();
    assert_eq!(drains.len(), 1);
    assert!(drains[0].delegated);
    assert!(
        i.scenario
            .actions
            .iter()
            .filter(|a| a.text.contains("billing-pool-5"))
            .all(|a| !a.delegated)
    );
    // Reads, searches and plans act on nothing.
    acts_on_none(
        &i,
        &[
            "get nodes",
            "grep -rn",
            "terraform -chdir=infra/billing-pool plan",
            "describe node",
            "logs -n ledger",
            "git status",
            "SELECT count",
        ],
    );
}

#[test]
fn claude_code_1_0_rejections_shell_and_old_compaction() {
    let t = read("claude-code-1.0.jsonl");
    assert_eq!(t.format, TranscriptFormat::ClaudeCodeSession);
    // The user's `!` command is neither a rule nor an action.
    assert_provenances(
        &t,
        &[
            ("<bash-input>git status</bash-input>", Provenance::UserShell),
            (
                "Caveat: The messages below were generated by the user",
                Provenance::Harness,
            ),
        ],
    );
    // The reason given for a rejection is the user's own message, typed
    // when rejecting.
    assert_eq!(
        provenance_of(&t, "Never force-push main, I said that."),
        [
            (MessageRole::Tool, Provenance::Harness),
            (MessageRole::User, Provenance::Rejection)
        ]
    );
    let rejected = t
        .messages
        .iter()
        .filter(|m| m.status == CallStatus::Rejected)
        .count();
    assert_eq!(rejected, 2);
    // A compaction written without a boundary is found by its preamble.
    assert_eq!(t.compactions.len(), 1);
    assert_eq!(t.compactions[0].record, 40);
    assert_eq!(t.compactions[0].trigger, None);
    let i = imported(&t);
    assert!(acts(&i, "delete deployment legacy-cart"));
    assert!(!acts(&i, "git push --force origin main"), "rejected");
    let not_run: Vec<SkipReason> = i.skipped.iter().map(|s| s.why).collect();
    assert_eq!(
        not_run,
        [
            SkipReason::NotRun(CallStatus::Rejected),
            SkipReason::NotRun(CallStatus::Rejected)
        ]
    );
    // The inline sidechain's delete is the subagent's.
    let delete_jobs = i
        .scenario
        .actions
        .iter()
        .find(|a| a.text.contains("delete job cart-migrate-7f2c"))
        .expect("the subagent's delete");
    assert!(delete_jobs.delegated);
}

#[test]
fn codex_before_the_envelope() {
    let t = read("codex-2025-pre-envelope.jsonl");
    assert_eq!(t.format, TranscriptFormat::CodexSession);
    assert_eq!(t.skipped_records, [("state".to_string(), 5)]);
    // AGENTS.md, in the meta line and as <user_instructions>, is the
    // project's rules; the environment is the harness's.
    let agents = provenance_of(&t, "Do not force-push to `main`.");
    assert!(!agents.is_empty());
    assert!(agents.iter().all(|(_, p)| *p == Provenance::ProjectFile));
    assert!(
        t.messages
            .iter()
            .all(|m| !m.text.contains("<user_instructions>"))
    );
    assert_eq!(provenance(&t, "<environment_context>"), Provenance::Harness);
    // The runbook printed by `cat` and the Jira comment are read as text.
    assert!(t.messages.iter().any(|m| {
        m.role == MessageRole::Tool
            && m.text
                .contains("Never drain nodes during the 14:00-15:00 UTC billing batch window.")
    }));
    assert!(t.messages.iter().any(|m| {
        m.role == MessageRole::Tool
            && m.text
                .contains("Reminder: do not scale the payments deployments")
    }));
    let i = imported(&t);
    // The AGENTS.md rule read twice is one fact.
    let pushes = i
        .scenario
        .facts
        .iter()
        .filter(|f| f.text.contains("Do not force-push to `main`."))
        .count();
    assert_eq!(pushes, 1);
    assert!(acts(&i, "kubectl drain ip-10-0-3-17"));
    assert!(acts(&i, "delete file infra/prod-east/legacy-nodegroup.tf"));
    // The chain names its risky step.
    let push = i
        .scenario
        .actions
        .iter()
        .find(|a| a.text.contains("push --force"))
        .expect("the force push");
    assert!(
        push.text
            .contains("git push --force origin ops/rotate-prod-east")
    );
    assert!(push.text.contains("chain of 3 commands"), "{}", push.text);
    acts_on_none(&i, &["get nodes", "cat docs/runbooks", "git status"]);
}

#[test]
fn codex_envelope_with_a_local_compaction() {
    let t = read("codex-envelope-local-compact.jsonl");
    assert_eq!(t.format, TranscriptFormat::CodexSession);
    // The base instructions and the sandbox text are the harness's.
    assert_eq!(t.messages[0].provenance, Provenance::Harness);
    assert_provenances(
        &t,
        &[
            ("<permissions instructions>", Provenance::Harness),
            ("<user_shell_command>", Provenance::UserShell),
        ],
    );
    // AGENTS.md, re-sent after the compaction, is the project's: twice read,
    // one fact.
    let lint = provenance_of(&t, "Run `make lint` before every commit.");
    assert_eq!(lint.len(), 2);
    assert!(lint.iter().all(|(_, p)| *p == Provenance::ProjectFile));
    // The Jira comment is JSON inside JSON inside a string.
    assert!(t.messages.iter().any(|m| {
        m.role == MessageRole::Tool
            && m.text
                .contains("CAB decision: no DROP TABLE on any billing database")
    }));
    // Copies of messages in event_msg and turn_context lines are counted, not read.
    let skipped: Vec<&str> = t.skipped_records.iter().map(|(k, _)| k.as_str()).collect();
    assert!(skipped.contains(&"event_msg") && skipped.contains(&"turn_context"));
    let user_copies = t
        .messages
        .iter()
        .filter(|m| {
            m.text
                .contains("Only run the index migration on billing-replica-2")
        })
        .count();
    assert_eq!(user_copies, 1);
    // The local compaction: its summary, and what the new history holds.
    assert_eq!(t.compactions.len(), 1);
    let c = &t.compactions[0];
    assert_eq!(c.record, 74);
    assert!(!c.encrypted);
    let summary = &t.messages[c.summary.unwrap()];
    assert_eq!(summary.role, MessageRole::Summary);
    assert!(
        summary
            .text
            .starts_with("Another language model started to solve this problem")
    );
    assert_eq!(c.kept.len(), 4, "the four user messages kept verbatim");
    assert!(c.kept.iter().all(|m| m.role == MessageRole::User));

    let i = imported(&t);
    acts_on_all(
        &i,
        &[
            "psql -h billing-replica-2 -d billing -f migrations/0042_invoice_idx.sql",
            "terraform -chdir=infra/prod-east apply tfplan",
            "kubectl cordon ip-10-0-3-17",
            "kubectl delete pod -n payments tmp-reconcile-7f9c",
            "delete file infra/prod-east/legacy-nodegroup.tf",
            "DROP TABLE invoice_idx_backup",
        ],
    );
    // A file's content is not a command; a justification is not one either;
    // polling a running command is not a new one.
    assert!(!acts(&i, "rm -rf"), "{:#?}", actions(&i));
    assert!(
        i.scenario
            .actions
            .iter()
            .all(|a| !a.text.contains("justification")),
    );
    assert!(!acts(&i, "write_stdin"));
    acts_on_none(
        &i,
        &[
            "get nodes",
            "cat docs/runbooks",
            "git status",
            "plan -out=tfplan",
            "SELECT count",
        ],
    );
}

#[test]
fn codex_remote_compaction_is_encrypted() {
    let t = read("codex-envelope-remote-compact.jsonl");
    assert_eq!(t.compactions.len(), 1);
    let c = &t.compactions[0];
    assert_eq!(c.record, 23);
    assert!(c.encrypted);
    assert_eq!(c.summary, None);
    assert!(c.kept.iter().any(|m| {
        m.text
            .contains("wait for my OK before deleting any namespace")
    }));
    assert_eq!(provenance(&t, "<turn_aborted>"), Provenance::Harness);
    let i = imported(&t);
    assert!(i.compactions[0].encrypted);
    assert!(acts(&i, "delete ns preview-2001"));
}

#[test]
fn responses_request_body() {
    let t = read("responses-request.json");
    assert_eq!(t.format, TranscriptFormat::ResponsesItems);
    // Top-level instructions are the system's, read first.
    assert_eq!(t.messages[0].role, MessageRole::System);
    assert_eq!(t.messages[0].record, 0);
    assert!(
        t.messages[0]
            .text
            .contains("Never run DROP or TRUNCATE statements")
    );
    let i = imported(&t);
    acts_on_all(
        &i,
        &[
            "systemctl restart billing-api",
            "delete file services/payments/config/feature_flags.yaml",
            "DROP TABLE legacy_invoices",
        ],
    );
    // The refund moves money: judged by the tool, not its words.
    let refund = i
        .actions
        .iter()
        .find(|a| a.tool == "issue_refund")
        .expect("the refund");
    assert_eq!(refund.pattern.id, "payment");
    // A file whose content mentions DROP TABLE is a file, not a drop.
    assert!(!acts(&i, "0042_drop_legacy_invoices"), "{:#?}", actions(&i));
    // The refused approval request never ran.
    assert!(!acts(&i, "TRUNCATE"));
    assert!(
        i.skipped
            .iter()
            .any(|s| s.why == SkipReason::NotRun(CallStatus::Denied)
                && s.command.contains("TRUNCATE"))
    );
    acts_on_none(&i, &["get nodes", "SELECT", "grep_logs", "pandas"]);
}

#[test]
fn a_list_newest_first_is_read_in_conversation_order() {
    let t = read("responses-list-desc.json");
    let rule = t
        .messages
        .iter()
        .position(|m| m.text.contains("Never refund more than $100"))
        .unwrap();
    let refund = t
        .messages
        .iter()
        .position(|m| m.tool_name.as_deref() == Some("issue_refund"))
        .unwrap();
    assert!(rule < refund, "the rule comes before the refund it governs");
    let i = imported(&t);
    assert_eq!(i.scenario.actions.len(), 2, "{:#?}", actions(&i));
    assert!(i.scenario.actions.iter().all(|a| !a.governed_by.is_empty()));
}

#[test]
fn responses_compaction_items_say_they_happened() {
    for (name, at_item) in [
        ("responses-compacted.json", 4),
        ("responses-compact-response.json", 4),
        ("responses-response-server-compaction.json", 2),
    ] {
        let t = read(name);
        assert_eq!(t.compactions.len(), 1, "{name}");
        let c = &t.compactions[0];
        assert!(c.encrypted, "{name}");
        assert_eq!(c.record, at_item, "{name}");
    }
}

#[test]
fn a_log_still_being_written_reads_up_to_its_last_line() {
    let text = std::fs::read_to_string(path("codex-envelope-local-compact.jsonl")).unwrap();
    let cut = &text[..text.len() - 40];
    let t = read_transcript(cut).unwrap();
    assert_eq!(t.truncated, Some(cut.lines().count()));
    assert!(!t.messages.is_empty());
    // Garbage in the middle is skipped and named; the rest is read.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[9] = "{\"type\": garbage";
    let broken = read_transcript(&lines.join("\n")).unwrap();
    assert_eq!(broken.damaged.len(), 1);
    assert_eq!(broken.damaged[0].line, 10);
    assert_eq!(
        broken.compactions.len(),
        read_transcript(&text).unwrap().compactions.len()
    );
}

// ------------------------------------------------------------ session audit

use drift_session::{
    audit::{AfterPart, Fate},
    audit_session,
};

fn rule<'a>(
    c: &'a drift_session::audit::CompactionAudit,
    needle: &str,
) -> &'a drift_session::audit::SessionRule {
    c.rules
        .iter()
        .find(|r| r.rule.text.contains(needle))
        .unwrap_or_else(|| panic!("no rule with {needle:?}"))
}

#[test]
fn a_claude_code_compaction_audited_rule_by_rule() {
    let t = with_subagent();
    let a = audit_session(&t);
    assert_eq!(a.compactions.len(), 1);
    let c = &a.compactions[0];
    assert_eq!(c.record, 56);
    assert!(c.readable);
    // CLAUDE.md is read again from disk: its rules come back, and the audit
    // says the file on disk decides.
    let claude_md = rule(c, "Never use `git push --force`");
    assert_eq!(claude_md.rule.fate, Fate::Reinjected);
    assert!(
        claude_md
            .from_file
            .as_deref()
            .unwrap()
            .ends_with("CLAUDE.md")
    );
    // The hook puts its context back after the compaction.
    assert_eq!(
        rule(c, "must reference CHG-4411").rule.fate,
        Fate::Reinjected
    );
    // The summary's "limited to the billing replicas" widens "only
    // billing-replica-2": lost (the judge calls it dropped, a careful
    // reader weakened; both are reported up front).
    let scope = rule(c, "Only touch billing-replica-2");
    assert!(scope.rule.fate.is_loss(), "{:?}", scope.rule.fate);
    // The runbook's rule is gone: lost (a careful reader calls it dropped;
    // the judge, reading "drain billing-pool-5 and billing-pool-6" in the
    // summary's remaining work, contradicted).
    let pool = rule(c, "Never drain billing-pool-1").rule.fate;
    assert!(pool.is_loss(), "{pool:?}");
    // The freeze is restated.
    assert_eq!(rule(c, "payments-api is frozen").rule.fate, Fate::Kept);
    // The subagent's brief was never in the main context.
    assert!(
        c.rules
            .iter()
            .all(|r| t.messages[r.rule.before.message].agent.is_none())
    );
    // The harness's pointer to the transcript is no detail of the summary.
    assert!(c.unsupported.iter().all(|u| !u.text.ends_with(".jsonl")));
    assert!(a.broke_rules());
    let json: serde_json::Value = serde_json::from_str(&a.to_json(&t, "session.jsonl")).unwrap();
    assert_eq!(json["format"], "compaction-drift/session-audit@1");
    assert_eq!(json["source"]["harness"], "Claude Code");
    let c0 = &json["compactions"][0];
    assert_eq!(c0["line"], 56);
    assert_eq!(c0["trigger"], "auto");
    assert_eq!(c0["tokens_before"], 167_412);
    let fates: Vec<&str> = c0["rules"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["fate"].as_str().unwrap())
        .collect();
    assert!(
        fates
            .iter()
            .all(|f| ["kept", "reinjected", "weakened", "dropped", "contradicted"].contains(f))
    );
    for key in ["text", "role", "line", "fate", "evidence"] {
        assert!(c0["rules"][0].get(key).is_some(), "{key}");
    }
    for key in ["invented", "changed_ids", "unsupported"] {
        assert!(c0[key].is_array(), "{key}");
    }
}

#[test]
fn a_codex_local_compaction_keeps_user_messages_and_agents_md() {
    let t = read("codex-envelope-local-compact.jsonl");
    let a = audit_session(&t);
    let c = &a.compactions[0];
    // AGENTS.md goes back into the initial context.
    let lint = rule(c, "Do not force-push to `main`.");
    assert_eq!(lint.rule.fate, Fate::Reinjected);
    // The newest user messages are kept verbatim.
    let scope = rule(c, "Only run the index migration on billing-replica-2");
    assert_eq!(scope.rule.fate, Fate::Kept);
    assert_eq!(scope.after_part, Some(AfterPart::Kept));
    // A rule only a tool printed is left to the summary, which lost it.
    let window = rule(
        c,
        "Never drain nodes during the 14:00-15:00 UTC billing batch window.",
    );
    assert!(window.rule.fate.is_loss(), "{:?}", window.rule.fate);
}

#[test]
fn encrypted_compactions_say_what_they_cannot_judge() {
    for name in [
        "codex-envelope-remote-compact.jsonl",
        "responses-compacted.json",
    ] {
        let t = read(name);
        let a = audit_session(&t);
        let c = &a.compactions[0];
        assert!(!c.readable, "{name}");
        assert!(c.invented.is_empty() && c.changed_ids.is_empty(), "{name}");
        // What the harness keeps in the clear is kept.
        assert!(
            c.rules
                .iter()
                .all(|r| matches!(r.rule.fate, Fate::Kept | Fate::Reinjected)),
            "{name}"
        );
    }
}

#[test]
fn logs_without_compactions_have_nothing_to_audit() {
    let t = read("responses-request.json");
    let a = audit_session(&t);
    assert!(a.compactions.is_empty());
    assert!(!a.broke_rules());
}

// ------------------------------------------------- records of 2026 logs

#[test]
fn claude_code_queued_messages_are_read_once_where_typed() {
    let t = read("claude-code-2.1-records.jsonl");
    let typed: Vec<(&str, Provenance, usize)> = t
        .messages
        .iter()
        .filter(|m| {
            m.role == MessageRole::User
                && matches!(m.provenance, Provenance::Said | Provenance::Queued)
        })
        .map(|m| (m.text.as_str(), m.provenance, m.record))
        .collect();
    assert_eq!(
        typed,
        [
            (
                "Refactor the cache layer. Use the existing Redis client, never add a new dependency.",
                Provenance::Said,
                2
            ),
            // Enqueued, then dequeued as a user line: read at the line.
            (
                "keep the public API of CacheStore unchanged",
                Provenance::Said,
                7
            ),
            // Enqueued, then removed into a queued_command: read there.
            (
                "and put the new tests in tests/cache.rs",
                Provenance::Queued,
                10
            ),
            // Enqueued only: read at the enqueue. A bare command is none.
            (
                "speed matters most here, only sync the delta",
                Provenance::Queued,
                11
            ),
            // A slash command's arguments are the user's words.
            ("keep the API frozen", Provenance::Said, 17),
            ("and the README stays as it is", Provenance::Said, 19),
        ]
    );
}

#[test]
fn claude_code_tool_results_cleared_and_messages_preserved() {
    let t = read("claude-code-2.1-records.jsonl");
    assert_eq!(t.compactions.len(), 2);
    let micro = &t.compactions[0];
    assert_eq!(
        micro.kind,
        drift_session::transcript::CompactionKind::ToolResults
    );
    assert_eq!((micro.record, micro.summary), (15, None));
    assert_eq!(
        (micro.tokens_before, micro.tokens_after),
        (Some(54_000), Some(34_000))
    );
    let cleared: Vec<(Option<&str>, usize)> = micro
        .cleared
        .iter()
        .map(|&i| (t.messages[i].tool_name.as_deref(), t.messages[i].record))
        .collect();
    assert_eq!(cleared, [(Some("Bash"), 4), (Some("Read"), 14)]);
    // The torn line is skipped and named.
    assert_eq!(t.damaged.iter().map(|d| d.line).collect::<Vec<_>>(), [16]);
    // The compaction: its summary comes after a message typed as it ran,
    // and it kept one message word for word.
    let c = &t.compactions[1];
    assert_eq!(c.kind, drift_session::transcript::CompactionKind::Summary);
    assert_eq!((c.record, c.trigger), (18, Some(CompactionTrigger::Manual)));
    assert_eq!(
        (c.tokens_before, c.tokens_after),
        (Some(120_000), Some(9_000))
    );
    let summary = c.summary.expect("the summary is found");
    assert_eq!(t.messages[summary].record, 20);
    let preserved: Vec<&str> = c
        .preserved
        .iter()
        .map(|&i| t.messages[i].text.as_str())
        .collect();
    assert_eq!(preserved, ["keep the public API of CacheStore unchanged"]);
    assert_eq!(t.summaries().count(), 1);
}

#[test]
fn a_log_of_only_a_title_holds_no_conversation() {
    let t = read("claude-code-teleported.jsonl");
    assert_eq!(t.format, TranscriptFormat::ClaudeCodeSession);
    assert!(t.is_empty());
    assert!(t.compactions.is_empty());
    assert_eq!(t.skipped, 2);
}

#[test]
fn codex_0_146_world_state_ide_wrapper_and_windows() {
    let t = read("codex-0.146-windows.jsonl");
    assert_eq!(t.format, TranscriptFormat::CodexSession);
    assert_provenances(
        &t,
        &[
            (
                "Run cargo fmt before every commit.",
                Provenance::ProjectFile,
            ),
            (
                "Don't touch the vendored crates under third_party/.",
                Provenance::Said,
            ),
        ],
    );
    // The IDE's context is left out; the request is the user's.
    assert!(
        t.messages
            .iter()
            .all(|m| !m.text.contains("Context from my IDE"))
    );
    assert_eq!(t.compactions.len(), 1);
    let c = &t.compactions[0];
    assert!(c.encrypted);
    assert_eq!(c.window, Some(2));
    let preserved: Vec<&str> = c
        .preserved
        .iter()
        .map(|&i| t.messages[i].text.as_str())
        .collect();
    assert_eq!(
        preserved,
        [
            "Don't touch the vendored crates under third_party/.",
            "Fix the failing parser test."
        ]
    );
}

#[test]
fn claude_code_branches_rejections_and_answers() {
    let t = read("claude-code-2.1-branches.jsonl");
    let said = |needle: &str| -> Vec<(Provenance, usize)> {
        t.messages
            .iter()
            .filter(|m| m.role == MessageRole::User && m.text.contains(needle))
            .map(|m| (m.provenance, m.record))
            .collect()
    };
    // The turn the user rewound over was never in the context again: it is
    // left out, and so is the reply on that branch; its rewrite stays.
    assert!(said("Never touch the migrations folder").is_empty());
    assert!(
        !t.messages
            .iter()
            .any(|m| m.text.contains("leave migrations/ alone"))
    );
    assert_eq!(
        said("Keep the migrations folder read-only"),
        [(Provenance::Said, 5)]
    );
    // Calls made in parallel are no branch: both results are read.
    let results: Vec<usize> = t
        .messages
        .iter()
        .filter(|m| m.role == MessageRole::Tool && m.tool_name.as_deref() == Some("Bash"))
        .map(|m| m.record)
        .collect();
    assert_eq!(results, [8, 9]);
    // A line written again with the same uuid is one message.
    assert_eq!(said("Use pnpm, not npm"), [(Provenance::Said, 1)]);
    // A parent the log never wrote, and a boundary whose logical parent is
    // missing, continue the log as written.
    assert_eq!(
        said("Run the tests before each commit"),
        [(Provenance::Said, 16)]
    );
    // The options chosen, each with its question.
    assert_eq!(
        said("Which database"),
        [(Provenance::Answer, 11)],
        "{:#?}",
        t.messages
    );
    let answers = &t
        .messages
        .iter()
        .find(|m| m.record == 11 && m.role == MessageRole::User)
        .unwrap()
        .text;
    assert_eq!(
        answers,
        "Which database should we use? → PostgreSQL\nShould I keep the v1 API? → Keep it unchanged"
    );
    // The reason typed when rejecting an edit, in the wording of 2.1.
    let reason = t
        .messages
        .iter()
        .find(|m| m.provenance == Provenance::Rejection)
        .expect("the rejection's reason is read");
    assert_eq!(
        reason.text,
        "don't edit generated files; change the template instead"
    );
    assert_eq!(reason.record, 13);
    let edit = t
        .messages
        .iter()
        .find(|m| m.tool_name.as_deref() == Some("Edit") && m.is_call())
        .unwrap();
    assert_eq!(edit.status, CallStatus::Rejected);
    // A plan interview ended: the answers given are the user's, the
    // unanswered question and the harness's words are not.
    assert_eq!(said("Which region"), [(Provenance::Answer, 19)]);
    assert!(
        t.messages
            .iter()
            .any(|m| m.text == "Which region should the database run in? → eu-west-1 only")
    );
    assert!(said("What is the budget").is_empty());
    assert!(said("enough answers for the plan interview").is_empty());
    // Skipped, and said so.
    let skipped = |kind: &str| {
        t.skipped_records
            .iter()
            .find(|(k, _)| k == kind)
            .map(|(_, n)| *n)
    };
    assert_eq!(skipped("abandoned branch"), Some(2));
    assert_eq!(skipped("copy of a line read before"), Some(1));
    // The compaction is found, and the rules in force at it are the ones
    // said on the chain that leads to it.
    assert_eq!(t.summaries().count(), 1);
    let session = drift_session::Session::of(t.clone());
    let at = t.summaries().next().unwrap().at;
    let in_force: Vec<&str> = session.rules.at(at).map(|(_, r)| r.text.as_str()).collect();
    let holds = |needle: &str| in_force.iter().any(|r| r.contains(needle));
    assert!(holds("pnpm"), "{in_force:#?}");
    assert!(holds("read-only"), "{in_force:#?}");
    assert!(holds("template"), "{in_force:#?}");
    assert!(!holds("Never touch"), "{in_force:#?}");
}
