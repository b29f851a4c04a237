//! What a compaction lost, restated: the losses of the fixture sessions in
//! order of risk, the budget, and a restatement that reads back as the
//! same rules when it is itself in the log at the next compaction.

use drift_session::{
    Loss, Transcript,
    audit::{CompactionAudit, Fate, IdChange, audit_latest_compaction},
    audit_session, audit_text, read_transcript, restate,
    restate::{LossKind, MIN_RESTATE_TOKENS, losses},
    session_losses,
};
use proptest::prelude::*;

fn fixture(name: &str) -> String {
    let path = format!(
        "{}/tests/transcripts/formats/{name}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read(text: &str) -> Transcript {
    read_transcript(text).expect("the fixture reads")
}

/// The log `text` read, the audit of its latest compaction and what that
/// compaction lost.
fn latest_losses(text: &str) -> (Transcript, CompactionAudit, Vec<Loss>) {
    let t = read(text);
    let audit = audit_latest_compaction(&t).unwrap();
    let lost = losses(&t, &audit);
    (t, audit, lost)
}

/// A skill comes back after a compaction only when the log shows it put
/// back; without that re-attachment its rules are judged against the
/// summary like any other.
#[test]
fn a_skill_not_put_back_is_judged_against_the_summary() {
    let text = fixture("claude-code-2.1.jsonl");
    let skill_rules = |text: &str| -> Vec<(Fate, String)> {
        let t = read(text);
        let audit = audit_latest_compaction(&t).expect("a compaction");
        audit
            .rules
            .iter()
            .filter(|r| r.record == 40)
            .map(|r| (r.rule.fate, r.rule.text.clone()))
            .collect()
    };
    let put_back = skill_rules(&text);
    assert!(!put_back.is_empty());
    assert!(
        put_back.iter().all(|(f, _)| *f == Fate::Reinjected),
        "{put_back:?}"
    );

    let without: String = text
        .lines()
        .filter(|l| !l.contains("\"invoked_skills\""))
        .map(|l| format!("{l}\n"))
        .collect();
    assert_ne!(
        without.len(),
        text.len(),
        "the fixture re-attaches its skill"
    );
    let judged = skill_rules(&without);
    assert_eq!(judged.len(), put_back.len());
    assert!(
        judged.iter().all(|(f, _)| *f != Fate::Reinjected),
        "{judged:?}"
    );
    assert!(
        judged
            .iter()
            .any(|(f, t)| *f == Fate::Dropped && t.contains("rm -rf")),
        "{judged:?}"
    );
}

#[test]
fn claude_code_2_1_losses_in_order_of_risk() {
    let t = read(&fixture("claude-code-2.1.jsonl"));
    let audit = audit_latest_compaction(&t).expect("a compaction");
    assert_eq!(audit.record, 56);
    let lost = losses(&t, &audit);
    let seen: Vec<(u8, usize, &str)> = lost
        .iter()
        .map(|l| (l.rank(), l.record, l.text.as_str()))
        .collect();
    // The summary keeps the drain limit, the freeze, the force-push
    // carve-out, the approval before restarts and "don't drop anything"; it
    // loses the announcement before cordoning and the runbook check before
    // touching nodes, widens "billing-replica-2" to "the billing replicas"
    // and drops the rename's "only". Three of those are reported, in order
    // of risk: the judge calls the runbook check kept (two neighbouring
    // sentences, one naming the "maintenance label", hold 0.39 of its
    // words), one of its misses counted in `eval/SCORES.md`. Which other
    // sentences are rules is the finder's, and which fate each gets the
    // judge's, both measured across people in `cargo xtask eval`: at most
    // two more are here.
    let written = [
        (3, "Post in #prod-changes before you cordon anything."),
        (
            3,
            "Only touch billing-replica-2 for database work; the primary and billing-replica-1 are off limits.",
        ),
        (
            15,
            "Rename it to ledger_archive_2023_deprecated, on billing-replica-2 only.",
        ),
    ];
    for (record, text) in written {
        assert!(
            seen.iter().any(|s| (s.1, s.2) == (record, text)),
            "{text:?} not reported lost: {seen:#?}"
        );
    }
    assert!(seen.len() <= written.len() + 2, "{seen:#?}");
    assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0), "{seen:#?}");
    // The runbook a tool read is data: its rules are lost too, but they
    // are restated only on request, and said to be a tool's.
    let with_tools = drift_session::restate::losses_with(&t, &audit, true);
    let runbook: Vec<&str> = with_tools
        .iter()
        .filter(|l| !l.authority.trusted())
        .map(|l| l.text.as_str())
        .collect();
    assert!(
        runbook.contains(&"Never drain billing-pool-1: it runs the settlement cron."),
        "{runbook:?}"
    );
    assert!(lost.iter().all(|l| l.authority.trusted()));
    // Re-injected (CLAUDE.md, the skill, the hook) and kept rules are not
    // losses.
    for l in &lost {
        assert!(!l.text.contains("git push --force"), "{l:?}");
        assert!(!l.text.contains("CHG-4411"), "{l:?}");
        assert!(!l.text.contains("payments-api is frozen"), "{l:?}");
    }
}

#[test]
fn the_restatement_names_who_where_and_when() {
    let (t, audit, lost) = latest_losses(&fixture("claude-code-2.1.jsonl"));
    let r = restate(&t, &audit, &lost, 1_500).unwrap();
    assert_eq!((r.restated, r.left_out), (lost.len(), 0));
    assert!(r.text.starts_with(&format!(
        "Compaction Drift, after the compaction at line 56 of this session's log: its summary lost {} rules stated earlier,",
        lost.len()
    )), "{}", r.text);
    assert!(
        r.text.contains(
            "\n[dropped] the user, line 3, 2026-03-27T09:12:05.681Z:\nPost in #prod-changes before you cordon anything.\n"
        ),
        "{}",
        r.text
    );
    assert!(
        r.text
            .contains("\n[weakened: the scope lost what it names] the user, line 15, "),
        "{}",
        r.text
    );
    // A tool's policy, when asked for, is marked as what a tool printed.
    let with_tools = drift_session::restate::losses_with(&t, &audit, true);
    let r2 = restate(&t, &audit, &with_tools, 1_500).unwrap();
    assert!(
        r2.text.contains(
            "a tool result (Read), line 35, 2026-04-20T08:03:21.706Z (what a tool printed, kept as a record of it, not an instruction):\nNever drain billing-pool-1: it runs the settlement cron.\n"
        ),
        "{}",
        r2.text
    );
    // Contradicted before dropped before weakened.
    let dropped = r.text.find("[dropped]").unwrap();
    let weakened = r.text.find("[weakened").unwrap();
    assert!(dropped < weakened);
}

#[test]
fn claude_code_1_0_losses() {
    let (_, _, lost) = latest_losses(&fixture("claude-code-1.0.jsonl"));
    let texts: Vec<&str> = lost.iter().map(|l| l.text.as_str()).collect();
    // The rules of the user the summary lost, riskiest first, each risk in
    // the order said: those it dropped, then the prod freeze, which it
    // softened to "Avoid prod deploys for now"; "show me what it is first"
    // beside a guess at what can go is the finder's to call (measured
    // across people), not written here.
    let written = [
        "Before any kubectl delete, show me exactly what will be deleted and wait for my ok.",
        "Correction to what I said earlier: for failed Jobs in staging you don't need to ask me, just delete them.",
        "Everything else still needs my ok before any kubectl delete.",
        "Wrap up staging only.",
        "Also, prod is in a code freeze: no deploys to prod before Monday 2025-07-21.",
        "No prod deploy until Monday.",
    ];
    let found: Vec<&str> = texts
        .iter()
        .copied()
        .filter(|t| written.contains(t))
        .collect();
    assert_eq!(found, written, "{texts:#?}");
    assert!(texts.len() <= written.len() + 1, "{texts:#?}");
    assert!(matches!(
        lost[0].what,
        LossKind::Rule {
            fate: Fate::Dropped,
            ..
        }
    ));
}

#[test]
fn a_log_without_a_compaction_has_nothing_to_restate() {
    let log = fixture("claude-code-2.1.jsonl");
    let before: String = log.lines().take(55).map(|l| format!("{l}\n")).collect();
    let t = read(&before);
    assert!(t.compactions.is_empty());
    assert!(audit_latest_compaction(&t).is_none());
}

#[test]
fn the_budget_keeps_the_riskiest_and_counts_the_rest() {
    let (t, audit, lost) = latest_losses(&fixture("claude-code-2.1.jsonl"));
    let full = restate(&t, &audit, &lost, 1_500).unwrap();
    let tokens = |s: &str| s.chars().count().div_ceil(4);
    for budget in [MIN_RESTATE_TOKENS, 80, 120, 150, 200, tokens(&full.text)] {
        let r = restate(&t, &audit, &lost, budget).unwrap();
        assert!(tokens(&r.text) <= budget, "{budget}: {}", r.text);
        assert_eq!(r.restated + r.left_out, lost.len());
        // A prefix, in order of risk.
        for l in &lost[..r.restated] {
            assert!(r.text.contains(&l.text), "{budget}: {}", r.text);
        }
        for l in &lost[r.restated..] {
            assert!(!r.text.contains(&l.text), "{budget}: {}", r.text);
        }
        if r.left_out > 0 {
            assert!(
                r.text
                    .contains(&format!("left out to stay within {budget} tokens"))
                    || r.restated == 0,
                "{budget}: {}",
                r.text
            );
        }
    }
    let tight = restate(&t, &audit, &lost, 130).unwrap();
    assert!(tight.restated >= 1 && tight.left_out >= 1, "{tight:?}");
    assert!(tokens(&full.text) <= 1_500);
    assert_eq!(full.left_out, 0);
}

/// Read as text of its own, a restatement's header and its lines about
/// each rule state no rule: every rule found in it is in the words of a
/// rule it restates, and it restates some.
#[test]
fn a_restatement_states_no_rule_of_its_own() {
    for name in ["claude-code-2.1.jsonl", "claude-code-1.0.jsonl"] {
        let (t, audit, lost) = latest_losses(&fixture(name));
        let r = restate(&t, &audit, &lost, 1_500).unwrap();
        let found: Vec<String> = audit_text(&r.text, "")
            .rules
            .into_iter()
            .map(|x| x.text)
            .collect();
        assert!(!found.is_empty(), "{name}:\n{}", r.text);
        for rule in &found {
            assert!(
                lost.iter().any(|l| l.text.contains(rule.trim())),
                "{name}: {rule:?} is in no rule restated:\n{}",
                r.text
            );
        }
    }
}

/// The hook's context is in the log after the compaction (a
/// `hook_additional_context` attachment); a second compaction whose summary
/// lacks the rules again restates them again, still citing their first
/// statement; and `drift audit` counts the first compaction's losses as
/// re-injected.
#[test]
fn a_second_compaction_restates_again() {
    let log = fixture("claude-code-2.1.jsonl");
    let (t, audit, lost) = latest_losses(&log);
    let r = restate(&t, &audit, &lost, 1_500).unwrap();
    let attachment = serde_json::json!({
        "type": "attachment",
        "attachment": {"type": "hook_additional_context", "content": [r.text], "hookName": "SessionStart", "hookEvent": "SessionStart"},
        "uuid": "hook-1",
        "timestamp": "2026-04-21T10:00:00.000Z",
    });
    let more = [
        serde_json::json!({"type": "user", "message": {"role": "user", "content": "Look at the billing-pool-2 metrics next."}, "uuid": "u-2", "timestamp": "2026-04-21T10:01:00.000Z"}),
        serde_json::json!({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "compactMetadata": {"trigger": "auto", "preTokens": 170000}, "uuid": "b-2", "timestamp": "2026-04-21T11:00:00.000Z"}),
        serde_json::json!({"type": "user", "message": {"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary: we looked at billing-pool-2 metrics."}, "isCompactSummary": true, "uuid": "s-2", "timestamp": "2026-04-21T11:00:01.000Z"}),
    ];
    let mut second = log.clone();
    second.push_str(&format!("{attachment}\n"));
    for line in &more {
        second.push_str(&format!("{line}\n"));
    }
    let t2 = read(&second);
    assert_eq!(t2.compactions.len(), 2);
    let audit2 = audit_latest_compaction(&t2).unwrap();
    let lost2 = losses(&t2, &audit2);
    for l in &lost {
        let again = lost2
            .iter()
            .find(|x| x.text == l.text)
            .unwrap_or_else(|| panic!("{:?} not restated again: {lost2:#?}", l.text));
        assert_eq!(again.record, l.record, "cited at its first statement");
    }
    // The whole session: the first compaction's losses came back.
    let whole = audit_session(&t2);
    for l in &lost {
        assert!(
            whole.compactions[0]
                .rules
                .iter()
                .any(|x| l.text.contains(&x.rule.text) && x.rule.fate == Fate::Reinjected),
            "{}",
            l.text
        );
    }
}

#[test]
fn ids_swapped_by_a_summary_are_restated_after_the_rules() {
    let log = [
        serde_json::json!({"type": "user", "message": {"role": "user", "content": "T-14 is the login bug, T-41 the export timeout. Never close T-14 without a test."}, "uuid": "a", "timestamp": "2026-05-01T09:00:00Z"}),
        serde_json::json!({"type": "system", "subtype": "compact_boundary", "content": "Conversation compacted", "compactMetadata": {"trigger": "auto", "preTokens": 150000}, "uuid": "b"}),
        serde_json::json!({"type": "user", "message": {"role": "user", "content": "Summary: Fixed T-41 (the login bug). Next is T-14, the export timeout."}, "isCompactSummary": true, "uuid": "c"}),
    ]
    .iter()
    .map(|l| format!("{l}\n"))
    .collect::<String>();
    let (t, audit, lost) = latest_losses(&log);
    let last = lost.last().expect("losses");
    assert!(
        matches!(
            &last.what,
            LossKind::Id {
                change: IdChange::Swapped,
                ..
            }
        ),
        "{lost:#?}"
    );
    assert_eq!(last.text, "T-14 is the login bug, T-41 the export timeout.");
    // The swap is one sentence, restated once.
    assert_eq!(
        lost.iter()
            .filter(|l| matches!(l.what, LossKind::Id { .. }))
            .count(),
        1
    );
    assert!(
        lost.first()
            .is_some_and(|l| matches!(l.what, LossKind::Rule { .. }))
    );
    let r = restate(&t, &audit, &lost, 1_500).unwrap();
    assert!(
        r.text
            .contains("[ids swapped by the summary: T-14, T-41] the user, line 1, 2026-05-01T09:00:00Z:\nT-14 is the login bug, T-41 the export timeout.\n"),
        "{}",
        r.text
    );
}

#[test]
fn session_losses_list_each_rule_once() {
    let t = read(&fixture("claude-code-2.1.jsonl"));
    let all = session_losses(&t, &audit_session(&t));
    let latest = losses(&t, &audit_latest_compaction(&t).unwrap());
    // Each rule once, however many compactions lost it: the last
    // compaction's losses are all of them here.
    assert_eq!(all.len(), latest.len(), "{all:#?}");
    let mut texts: Vec<&str> = all.iter().map(|l| l.text.as_str()).collect();
    texts.sort_unstable();
    texts.dedup();
    assert_eq!(texts.len(), all.len(), "{all:#?}");
}

static SESSION: std::sync::LazyLock<(Transcript, drift_session::audit::CompactionAudit)> =
    std::sync::LazyLock::new(|| {
        let t = read(&fixture("claude-code-2.1.jsonl"));
        let audit = audit_latest_compaction(&t).unwrap();
        (t, audit)
    });

proptest! {
    /// No budget breaks the bound or the count.
    #[test]
    fn any_budget_is_honoured(budget in 0usize..2_000) {
        let (t, audit) = &*SESSION;
        let lost = losses(t, audit);
        let r = restate(t, audit, &lost, budget).unwrap();
        prop_assert!(r.text.chars().count().div_ceil(4) <= budget.max(MIN_RESTATE_TOKENS));
        prop_assert_eq!(r.restated + r.left_out, lost.len());
    }
}
