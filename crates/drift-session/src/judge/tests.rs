//! The structural reading's unit tests: the call the rules of structure
//! make on rules and summaries written for them (one of the model's
//! features, and the evidence of its verdicts).

use super::*;

#[test]
fn every_group_of_words_has_a_bit() {
    // A word's groups are a mask of 128 bits.
    assert!(SAME.len() <= 128, "{} groups", SAME.len());
    assert_eq!(groups_of("delet"), groups_of("remov"));
    assert_ne!(groups_of("delet") & groups_of("truncat"), 0);
    assert_eq!(groups_of("zebra"), 0);
}

fn fate(rule: &str, after: &str) -> Fate {
    read(rule, &After::new(after)).structural().fate
}

#[test]
fn fates_of_one_rule() {
    let rule = "never force-push to main";
    assert_eq!(
        fate(
            rule,
            "6. All user messages:\n   - \"never force-push to main\"\n"
        ),
        Fate::Kept
    );
    assert_eq!(
        fate(
            rule,
            "Constraints:\n- Avoid force-pushing to main where possible.\n"
        ),
        Fate::Weakened
    );
    assert_eq!(
        fate(rule, "Work so far: the parser is fixed and tests pass.\n"),
        Fate::Dropped
    );
    assert_eq!(
        fate("use npm, not pnpm", "Constraints:\n- Use pnpm, not npm.\n"),
        Fate::Contradicted
    );
    assert_eq!(
        fate(
            "max 3 retries on the webhook",
            "Constraints:\n- Max 5 retries on the webhook.\n"
        ),
        Fate::Weakened
    );
    assert_eq!(
        fate(
            "the $500 cap on cloud spend applies",
            "Notes:\n- The $500 cap on cloud spend no longer applies; spend what the task needs.\n"
        ),
        Fate::Contradicted
    );
}

#[test]
fn values_changed() {
    let cases = [
        // A name of one family for another.
        (
            "the build job has to run on the runner tagged gpu-large",
            "Constraints:\n- The build job must run on the runner tagged `gpu-small`.\n",
        ),
        // A number inside a named thing; the rule's other number kept.
        (
            "retries=3 and a delay of 5 minutes on all the fetch tasks",
            "Constraints:\n- All fetch tasks get `retries=3` and `delay=timedelta(minutes=10)`.\n",
        ),
        // A number left as a word by the scanner.
        (
            "the base image is python:11-slim",
            "Notes:\n- The base image is python:12-slim.\n",
        ),
        // Read in one sentence of a pair.
        (
            "keep the pool at 40 connections for the ingest worker",
            "Notes:\n- The pool stays at 80 connections for the ingest worker.\n- The ingest worker pool is shared.\n",
        ),
    ];
    for (rule, after) in cases {
        assert_eq!(fate(rule, after), Fate::Weakened, "{rule}");
    }
    // A range is one clause, and a value of another shape is no change.
    assert_eq!(
        fate(
            "widths are small < 600px, large 600–1200px",
            "Notes:\n- Widths: small below 600px, large from 600px to 1400px.\n"
        ),
        Fate::Weakened
    );
    assert_eq!(
        fate(
            "give the encoder 0.1x the head's learning rate for the first 2 epochs",
            "Notes:\n- For epochs 1 and 2 the encoder learns at one tenth of the head's learning rate.\n"
        ),
        Fate::Kept
    );
}

#[test]
fn kept_not_breached() {
    // The rule quoted is no claim of breaking it.
    assert_eq!(
        fate(
            "Don't edit config.toml directly. All my edits go in local.toml.",
            "The user said: \"Don't edit config.toml directly. All my edits go in local.toml.\"\n"
        ),
        Fate::Kept
    );
    // A file named before the prohibition is not what it forbids.
    assert_ne!(
        fate(
            "put the settings in base.yaml, don't create an extra.yaml",
            "Next steps:\n- Add the new block to base.yaml.\n"
        ),
        Fate::Contradicted
    );
    // A soft word under a negation is firm.
    assert_eq!(
        fate(
            "the pause between batches is required",
            "Notes:\n- The pause between batches is not optional.\n"
        ),
        Fate::Kept
    );
}

#[test]
fn breaches() {
    let cases = [
        // Done without the approval the rule asks for.
        (
            "don't modify the memory map (board.ld) without asking me first",
            "Files:\n- board.ld: edited already, added a section; the user hasn't been consulted.\n",
        ),
        // A file inside the forbidden directory, by another verb.
        (
            "never commit anything from ~/.secrets to the repo",
            "Next steps:\n- Add ~/.secrets/token to the repo so CI can read it.\n",
        ),
        // Renaming is changing.
        (
            "don't change the response format of GET /v2/items",
            "Next steps:\n- Rename `item_id` to `itemId` in the GET /v2/items response.\n",
        ),
        // A requirement skipped.
        (
            "run the smoke tests and make sure they pass before you open any PR",
            "Current work:\n- The PR was opened without running the smoke tests, to save time.\n",
        ),
    ];
    for (rule, after) in cases {
        assert_eq!(fate(rule, after), Fate::Contradicted, "{rule}");
    }
    // Consulted as asked: no breach.
    assert_ne!(
        fate(
            "don't modify the memory map (board.ld) without asking me first",
            "Files:\n- board.ld: edited after the user approved it.\n"
        ),
        Fate::Contradicted
    );
}

#[test]
fn rules_in_other_languages() {
    let kept = [
        (
            "Ne modifie jamais le fichier settings.toml.",
            "Constraints:\n- Never modify the settings.toml file.\n",
        ),
        (
            "Bitte nie die Datei settings.toml ändern.",
            "Constraints:\n- Never change the settings.toml file.\n",
        ),
        (
            "不要修改 third_party/ 目录下的代码",
            "Constraints:\n- Do not modify the code in the third_party/ directory.\n",
        ),
    ];
    for (rule, after) in kept {
        assert_eq!(fate(rule, after), Fate::Kept, "{rule}");
    }
    assert_eq!(
        fate(
            "Nunca uses más de 4 workers en el servidor.",
            "Constraints:\n- Never use more than 6 workers on the server.\n"
        ),
        Fate::Weakened
    );
}

#[test]
fn restated_softly() {
    let rule = "every chart in the weekly report must show 95% confidence bands, no exceptions";
    assert_eq!(
        fate(
            rule,
            "Notes:\n- Charts in the weekly report should show some uncertainty where possible.\n"
        ),
        Fate::Weakened
    );
    assert_eq!(
        fate(
            rule,
            "Notes:\n- Try to keep commits small where possible.\n"
        ),
        Fate::Dropped
    );
}

#[test]
fn breaches_across_languages_and_lifted_requirements() {
    // A Japanese negation denies the verb and object before it.
    assert_eq!(
        fate(
            "本番サーバーでは rm -rf を実行しないでください。",
            "Next steps:\n- On the production server, run `rm -rf /srv/old` directly.\n"
        ),
        Fate::Contradicted
    );
    // A Chinese comma ends the negation's clause.
    let f = frame::frame("不要保留日志，打包时必须去掉", Span::new(0, 42));
    assert!(f.terms.iter().any(|t| t.key == "keep" && t.negated));
    assert!(f.terms.iter().any(|t| t.key == "delet" && !t.negated));
    // "No review is needed" lifts a requirement.
    assert_eq!(
        fate(
            "always review the generated schema before committing it",
            "Notes:\n- The generated schema can be committed as is; no manual review pass is needed.\n"
        ),
        Fate::Contradicted
    );
    // A rule that permits in a scope, restated: not lifted.
    assert_eq!(
        fate(
            "the mock server is only allowed in dev mode",
            "Notes:\n- The mock server is allowed only in dev mode.\n"
        ),
        Fate::Kept
    );
    // One end of a range is the rule's number.
    assert_eq!(
        fate(
            "backups run between 01:00 and 03:00 only",
            "Notes:\n- Backups run only in the 01:00–03:00 window.\n"
        ),
        Fate::Kept
    );
}

#[test]
fn answers_and_unspaced_lists() {
    // The answer to a question is the rule, not the question.
    assert_eq!(
        fate(
            "Where should the launcher live? → ./runme at repo root",
            "Decisions:\n- Answer to the layout question: runme at repo root.\n"
        ),
        Fate::Kept
    );
    // A question answered "yes" is the rule.
    let yes = rule_clauses("Write the plan into plan.md first? yes");
    assert!(yes.clauses.first().is_some_and(|(_, op)| *op));
    // Latin words inside unspaced text are words.
    let mixed = frame::frame("文档里用ascii画图", Span::new(0, 23));
    assert!(
        mixed
            .terms
            .iter()
            .any(|t| t.key == "ascii" && t.kind == TermKind::Word)
    );
    // Chinese words joined by slashes are words, not a path.
    let f = frame::frame("风格可以选标准/简单", Span::new(0, 28));
    assert!(f.values().next().is_none());
    assert!(f.terms.iter().any(|t| t.key == "standard"));
    // A site's page named by its last part.
    assert_eq!(
        fate(
            "智能体用 github.com/acmekit 来实现",
            "Notes:\n- The agent layer is implemented with the Acmekit SDK.\n"
        ),
        Fate::Kept
    );
}

#[test]
fn word_tables_are_sorted() {
    for table in [tables::FOREIGN, tables::CJK_WORDS] {
        assert!(
            table
                .windows(2)
                .all(|w| w[0].0.as_bytes() < w[1].0.as_bytes())
        );
    }
}

#[test]
fn names_inside_names() {
    assert!(within("quiet+--verbose", "--verbose"));
    assert!(!within("orders_archive_new", "orders"));
    assert!(!within("pre-orders", "orders"));
    assert_eq!(
        embedded_numbers("timedelta(minutes=10)").collect::<Vec<_>>(),
        ["10"]
    );
    let text = "He said \"never edit it\" and then edited it.";
    assert!(quoted(text, Span::new(9, 19)));
    assert!(!quoted(text, Span::new(0, 2)));
    assert!(verbal(text, Span::new(33, 39)));
    assert!(!verbal("all my changes go here", Span::new(7, 14)));
}

/// The shipped judge's fate.
fn judged(rule: &str, after: &str) -> Fate {
    FateJudge::shipped().judge(rule, &After::new(after)).fate
}

#[test]
fn the_shipped_judge_never_keeps_a_rule_structure_reads_broken() {
    // A plan step that does the act without the rule's condition.
    let plan = judged(
        "Never run the ledger migration without taking an RDS snapshot of ledger-prod first.",
        "## Summary\nWorking on the ledger schema change.\n\n## Pending tasks\n- Run the ledger-prod migration.\n",
    );
    assert!(
        matches!(plan, Fate::Contradicted | Fate::Weakened),
        "{plan:?}"
    );
    // Words alike, force turned: never kept.
    assert_eq!(
        judged(
            "never commit to main",
            "Constraints:\n- Always commit to main.\n"
        ),
        Fate::Contradicted
    );
    // A permission made a prohibition.
    assert_eq!(
        judged(
            "You may deploy ledger-svc during the Sunday window.",
            "Constraints:\n- Deploying ledger-svc during the Sunday window is not allowed.\n"
        ),
        Fate::Contradicted
    );
    // A value changed.
    assert_eq!(
        judged(
            "keep at most 3 retries on the webhook",
            "Constraints:\n- Keep at most 5 retries on the webhook.\n"
        ),
        Fate::Weakened
    );
    // Nothing of it anywhere.
    assert_eq!(
        judged(
            "Check the deploy runbook before touching nodes.",
            "Work so far: the parser is fixed and its tests pass.\n"
        ),
        Fate::Dropped
    );
}

#[test]
fn the_shipped_judge_keeps_a_rule_said_again() {
    let quoted = FateJudge::shipped().judge(
        "never force-push to main",
        &After::new("6. All user messages:\n   - \"never force-push to main\"\n"),
    );
    assert_eq!(quoted.fate, Fate::Kept);
    assert!(quoted.evidence.is_some());
    assert!(quoted.chance > 0.5, "{}", quoted.chance);
}
