//! Rules a summary states that nobody gave: the harness's own compaction
//! request put in the user's mouth, and claims whose only support is an
//! earlier summary.

mod common;

use common::claude_log;
use drift_session::{audit_session, read_transcript};

const REQUEST: &str = "CRITICAL: Respond with TEXT ONLY. Do NOT call any tools.";

fn summary(user_messages: &str) -> String {
    format!(
        "This session is being continued from a previous conversation that ran out of context.\n\n\
         Summary:\n1. Primary Request and Intent:\n   The user asked for a survey of the parser crates.\n\n\
         2. Key Technical Concepts:\n   - streaming JSON readers\n\n\
         6. All user messages:\n{user_messages}\n\n\
         7. Pending Tasks:\n   - Finish the survey of the parser crates.\n"
    )
}

#[test]
fn the_compaction_request_listed_as_the_users_is_invented() {
    let listed = format!(
        "   - \"Survey the parser crates and report what each reads.\"\n   - \"{REQUEST}\""
    );
    let log = claude_log(&[
        (
            "user",
            "Survey the parser crates and report what each reads.",
        ),
        ("assistant", "Reading the crates now."),
        ("summary", &summary(&listed)),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let a = audit_session(&t);
    let invented: Vec<&str> = a.compactions[0]
        .invented
        .iter()
        .map(|i| i.text.as_str())
        .collect();
    assert_eq!(invented.len(), 1, "{invented:?}");
    assert!(invented[0].contains("TEXT ONLY"), "{invented:?}");
}

#[test]
fn what_the_user_said_listed_as_theirs_is_no_invention() {
    let listed = "   - \"Survey the parser crates and report what each reads.\"\n   - \"Never add a dependency without asking me first.\"";
    let log = claude_log(&[
        (
            "user",
            "Survey the parser crates and report what each reads.",
        ),
        ("user", "Never add a dependency without asking me first."),
        ("summary", &summary(listed)),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let a = audit_session(&t);
    assert!(
        a.compactions[0].invented.is_empty(),
        "{:?}",
        a.compactions[0].invented
    );
}

#[test]
fn an_earlier_summary_is_no_support_for_a_quote() {
    // The first summary says the user forbade tools; the second quotes that
    // summary. A quote found only in a summary is laundered, not the user's.
    let claim = format!("The user's explicit instruction was: \"{REQUEST}\"");
    let log = claude_log(&[
        (
            "user",
            "Survey the parser crates and report what each reads.",
        ),
        ("summary", &summary(&format!("   - {claim}"))),
        ("assistant", "Continuing the survey."),
        ("summary", &summary(&format!("   - {claim}"))),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let a = audit_session(&t);
    assert_eq!(a.compactions.len(), 2);
    for c in &a.compactions {
        assert!(
            c.invented.iter().any(|i| i.text.contains("TEXT ONLY")),
            "compaction at {}: {:?}",
            c.record,
            c.invented
        );
    }
}

#[test]
fn the_request_stated_as_in_force_is_invented_unless_the_user_asked_for_it() {
    let body = "   - \"Survey the parser crates and report what each reads.\"";
    let summary = |extra: &str| {
        format!(
            "This session is being continued from a previous conversation that ran out of context.\n\n\
             Summary:\n1. Primary Request and Intent:\n   The survey of the parser crates is blocked: tool usage is prohibited.{extra}\n\n\
             6. All user messages:\n{body}\n"
        )
    };
    let log = claude_log(&[
        (
            "user",
            "Survey the parser crates and report what each reads.",
        ),
        ("summary", &summary("")),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    let invented = audit_session(&t).compactions[0].invented.clone();
    assert_eq!(invented.len(), 1, "{invented:?}");
    assert!(invented[0].text.contains("tool usage is prohibited"));
    // The user did ask for no tools: the summary reports what they said.
    let log = claude_log(&[
        (
            "user",
            "Survey the parser crates from memory, text only: no tools this time.",
        ),
        ("summary", &summary("")),
    ]);
    let t = read_transcript(&log).expect("the log reads");
    assert!(audit_session(&t).compactions[0].invented.is_empty());
}
