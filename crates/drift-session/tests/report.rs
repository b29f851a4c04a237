//! The report people act on: lost rules one by one with since when, a
//! skill's losses as one entry, carried rules as a count.

mod common;

use common::{claude_log, summary};
use drift_session::{audit::Fate, audit_session, read_transcript, report, rules::Authority};

const RULE: &str = "Never push to the release branch without a green CI run.";

#[test]
fn a_rule_still_missing_says_since_when() {
    let log = claude_log(&[
        ("user", RULE),
        ("user", "Add the changelog entry for the parser fix."),
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
    let r = report(&t, &audit_session(&t));
    assert_eq!(r.compactions.len(), 2);
    let first = r.compactions[0]
        .lost
        .iter()
        .find(|l| l.text == RULE)
        .expect("lost at 1");
    assert_eq!(
        (first.fate, first.since, first.authority),
        (Fate::Dropped, None, Authority::User)
    );
    assert!(
        first.summary.is_none(),
        "a dropped rule is nowhere in the summary"
    );
    assert!(first.fix.contains("CLAUDE.md"), "{}", first.fix);
    let second = r.compactions[1]
        .lost
        .iter()
        .find(|l| l.text == RULE)
        .expect("lost at 2");
    assert_eq!(second.since, Some(1));
}

#[test]
fn a_rule_restated_after_a_loss_is_a_new_loss() {
    let log = claude_log(&[
        ("user", RULE),
        (
            "summary",
            &summary("The user asked for a changelog entry for the parser fix."),
        ),
        ("user", RULE),
        ("assistant", "Understood."),
        (
            "summary",
            &summary("The changelog entry for the parser fix is written."),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let r = report(&t, &audit_session(&t));
    let second = r.compactions[1]
        .lost
        .iter()
        .find(|l| l.text == RULE)
        .expect("lost at 2");
    assert_eq!(second.since, None);
}

#[test]
fn a_skill_not_put_back_is_one_entry() {
    let skill = "Base directory for this skill: /work/app/.claude/skills/release\n\n\
                 # Releasing\n\n\
                 - Never tag a release from a dirty tree.\n\
                 - Always run the smoke tests before you tag.\n\
                 - Only publish from the release branch.\n";
    let log = claude_log(&[
        ("user", "Cut the 2.4 release."),
        ("skill", skill),
        ("assistant", "Running the release steps."),
        (
            "summary",
            &summary("The user asked to cut the 2.4 release; the tag is not made yet."),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let audit = audit_session(&t);
    let r = report(&t, &audit);
    let c = &r.compactions[0];
    assert_eq!(c.files.len(), 1, "{:?}", c.files);
    let file = &c.files[0];
    assert!(file.skill && file.source.contains("release"), "{file:?}");
    assert!(file.lost.len() >= 2, "{file:?}");
    assert!(file.fix.contains("invoke it again"), "{}", file.fix);
    // One entry up front for the file, none of its rules one by one.
    assert!(
        c.lost
            .iter()
            .all(|l| l.authority != Authority::Instructions)
    );
    assert_eq!(c.shown_lost(), c.lost.len() + 1);
}

#[test]
fn carried_rules_are_counted_not_listed() {
    let log = claude_log(&[
        ("user", RULE),
        (
            "summary",
            &summary(&format!("Standing rule from the user: {RULE}")),
        ),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let r = report(&t, &audit_session(&t));
    let c = &r.compactions[0];
    assert!(c.lost.is_empty(), "{:?}", c.lost);
    assert_eq!(c.carried, 1);
    assert!(!c.broke_rules());
}
