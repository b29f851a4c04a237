//! A session's rules across its compactions: fates in order, depth, the
//! user's restatements, and claims laundered through a summary.

mod common;

use common::{claude_log, summary};
use drift_session::{
    audit::{Fate, StepState},
    audit_session, lineage, read_transcript,
};

const RULE: &str = "Never push to the release branch without a green CI run.";

#[test]
fn a_rule_carried_dropped_and_restated() {
    let log = claude_log(&[
        ("user", RULE),
        ("user", "Add the changelog entry for the parser fix."),
        (
            "summary",
            &summary(&format!(
                "The user asked for a changelog entry. Standing rule: {RULE}"
            )),
        ),
        ("assistant", "Writing the changelog entry."),
        (
            "summary",
            &summary("The changelog entry for the parser fix is written."),
        ),
        ("user", RULE),
        ("assistant", "Understood."),
        (
            "summary",
            &summary(&format!(
                "The changelog entry is written. Standing rule: {RULE}"
            )),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let l = lineage(&t, &audit_session(&t));
    assert_eq!(l.compactions.len(), 3);
    let r = l.rules.iter().find(|r| r.text == RULE).expect("the rule");
    let fates: Vec<Option<Fate>> = r.steps.iter().map(|s| s.fate).collect();
    assert_eq!(
        fates,
        [Some(Fate::Kept), Some(Fate::Dropped), Some(Fate::Kept)]
    );
    let depths: Vec<Option<usize>> = r.steps.iter().map(|s| s.depth).collect();
    // One summary deep; no copy; said again, then one summary deep again.
    assert_eq!(depths, [Some(1), None, Some(1)]);
    assert_eq!(r.restated_after_loss(), [3]);
    assert_eq!(r.stated.len(), 2, "first and again: {:?}", r.stated);
    assert_eq!(r.last_stated(), *r.stated.last().unwrap());
    assert_eq!(r.depth, Some(1));
}

#[test]
fn a_rule_stated_between_compactions_is_not_yet_at_the_first() {
    let log = claude_log(&[
        ("user", "Survey the parser crates."),
        (
            "summary",
            &summary("The user asked for a survey of the parser crates."),
        ),
        ("user", RULE),
        (
            "summary",
            &summary(&format!("Survey under way. Standing rule: {RULE}")),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let l = lineage(&t, &audit_session(&t));
    let r = l.rules.iter().find(|r| r.text == RULE).expect("the rule");
    assert_eq!(r.steps[0].state, StepState::NotYet);
    assert_eq!(r.steps[1].state, StepState::Judged);
    assert!(!r.steps[1].restated, "a first statement is no restatement");
    assert_eq!(r.steps[1].depth, Some(1));
}

#[test]
fn a_claim_only_the_summary_before_supports_is_laundered() {
    let log = claude_log(&[
        ("user", "Survey the parser crates."),
        (
            "summary",
            &summary(
                "The tokenizer benchmark regressed by forty percent after the arena allocator change.",
            ),
        ),
        ("user", "Now write the survey into docs/parsers.md."),
        (
            "assistant",
            "Writing docs/parsers.md with a section per parser crate.",
        ),
        (
            "summary",
            &summary(
                "The tokenizer benchmark regressed by forty percent after the arena allocator change. \
                 The survey is being written into docs/parsers.md with a section per parser crate.",
            ),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let l = lineage(&t, &audit_session(&t));
    assert_eq!(
        l.compactions[0].laundering.laundered.len(),
        0,
        "nothing before the first"
    );
    let second = &l.compactions[1].laundering;
    assert_eq!(second.laundered.len(), 1, "{second:?}");
    assert!(
        second.laundered[0].text.contains("tokenizer benchmark"),
        "{second:?}"
    );
    assert!(second.claims >= 2);
    assert!(second.share > 0.0 && second.share < 1.0);
    assert_eq!(
        second.over_line,
        second.share > drift_session::audit::LAUNDERING_LINE
    );
}

#[test]
fn retention_counts_each_round_the_agent_still_had_the_rule() {
    use drift_core::Kind;
    use drift_session::MeasuredRetention;
    // Dropped at the first compaction, never said again: the second one
    // has nothing left to summarise, so it is one step, not two.
    let log = claude_log(&[
        ("user", RULE),
        (
            "summary",
            &summary("The user asked for a changelog entry for the parser fix."),
        ),
        ("assistant", "Writing the changelog entry."),
        (
            "summary",
            &summary("The changelog entry for the parser fix is written."),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let mut m = MeasuredRetention::default();
    m.add(&t, &audit_session(&t));
    let (_, c) = m
        .kinds
        .iter()
        .find(|(k, _)| *k == Kind::StandingRule)
        .expect("standing rules measured");
    assert_eq!((c.rules, c.dropped), (1, 1));
    assert_eq!(c.by_depth[0].0, 1);
    // Carried once, then dropped from the summary of a summary: one step
    // at depth 0, one at depth 1.
    let log = claude_log(&[
        ("user", RULE),
        ("summary", &summary(&format!("Standing rule: {RULE}"))),
        ("assistant", "Writing the changelog entry."),
        (
            "summary",
            &summary("The changelog entry for the parser fix is written."),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let mut m = MeasuredRetention::default();
    m.add(&t, &audit_session(&t));
    let (_, c) = &m.kinds[0];
    assert_eq!((c.rules, c.kept, c.dropped), (2, 1, 1));
    assert_eq!(c.by_depth[0], (1, 1.0));
    assert_eq!(c.by_depth[1], (1, 0.0));
    assert_eq!(c.estimate(), Some(0.5));
}

#[test]
fn the_model_beside_the_log_rule_by_rule() {
    use drift_session::{
        ImportOptions, import,
        import::{Notice, beside, measured},
    };
    let mut turns: Vec<(String, String)> = vec![("user".into(), RULE.into())];
    for i in 0..30 {
        turns.push((
            "user".into(),
            format!("Next, port module {i} to the new parser API."),
        ));
        turns.push((
            "assistant".into(),
            format!("Module {i} ported; its tests pass."),
        ));
        if i == 9 {
            turns.push((
                "summary".into(),
                summary(&format!("Modules 0 to 9 are ported. Standing rule: {RULE}")),
            ));
        }
        if i == 20 {
            turns.push((
                "summary".into(),
                summary("Modules 0 to 20 are ported to the new parser API."),
            ));
        }
    }
    let borrowed: Vec<(&str, &str)> = turns
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let t = read_transcript(&common::claude_log(&borrowed)).expect("the log reads");
    let imported = import(&t, &ImportOptions::default());
    assert!(imported.notices.contains(&Notice::RoundsPlaced {
        placed: 2,
        wanted: 2
    }));
    let run = drift_core::simulate(&imported.scenario).expect("it runs");
    let l = lineage(&t, &audit_session(&t));
    let facts: Vec<(String, usize)> = imported
        .facts
        .iter()
        .map(|g| (g.id.clone(), g.rule))
        .collect();
    let b = beside(&imported.scenario, &run, &facts, &measured(&l), 2);
    assert_eq!(b.rounds, 2);
    let row = b
        .rows
        .iter()
        .find(|r| r.text == RULE)
        .expect("the rule's row");
    let measured: Vec<Option<Fate>> = row.cells.iter().map(|c| c.measured).collect();
    assert_eq!(measured, [Some(Fate::Kept), Some(Fate::Dropped)]);
    // The model (retention 0.75 a round) keeps it above the line at the
    // first round; the log kept it there too, then dropped it.
    assert_eq!(row.cells[0].agree, Some(true));
    assert!(row.cells.iter().all(|c| c.modelled.is_some()));
    // At the second, the model still has it above the line (0.75 × 0.75)
    // where the log shows it dropped: a disagreement to look at.
    assert_eq!(row.cells[1].agree, Some(false));
    assert!(row.disagrees());
    assert_eq!((b.compared, b.agree), (2, 1));
}

#[test]
fn calls_that_ran_after_their_rule_was_lost() {
    use drift_session::{ImportOptions, import, import::actions_after_loss};
    let rule = "Never delete the prod-east namespace without asking me first.";
    let log = |restate: bool| {
        let mut turns: Vec<(&str, &str)> = vec![
            ("user", rule),
            ("user", "Clean up the preview namespaces."),
            ("bash", "kubectl get namespaces"),
            ("summary", &*SUMMARY),
        ];
        if restate {
            turns.push(("user", rule));
        }
        turns.push(("bash", "kubectl delete namespace prod-east"));
        common::claude_log(&turns)
    };
    let found = |text: String| {
        let t = read_transcript(&text).expect("the log reads");
        let audit = audit_session(&t);
        let imported = import(&t, &ImportOptions::default());
        actions_after_loss(&t, &audit, &imported)
    };
    let after = found(log(false));
    assert_eq!(after.len(), 1, "{after:?}");
    assert_eq!(after[0].rule_text, rule);
    assert_eq!((after[0].fate, after[0].compaction), (Fate::Dropped, 1));
    assert!(after[0].call.contains("kubectl delete namespace prod-east"));
    assert!(
        after[0].governs.contains("prod-east"),
        "{}",
        after[0].governs
    );
    // Said again after the compaction: the call ran with its rule.
    assert!(found(log(true)).is_empty());
}

static SUMMARY: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    summary("The user asked to clean up the preview namespaces; the list is read.")
});
