//! The session page's import view, natively tested.

use super::*;
use drift_session::{ImportOptions, import_text};

const LOG: &str = r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"Never restart db-prod-01 without an approver on the call."}]}
{"type":"message","role":"user","content":[{"type":"input_text","text":"Never restart db-prod-01 without an approver on the call."}]}
{"type":"function_call","call_id":"a","name":"shell","arguments":"{\"command\":\"systemctl restart db-prod-01\"}"}
{"type":"function_call","call_id":"b","name":"shell","arguments":"{\"command\":\"kubectl rollout restart deploy/web\"}"}
"#;

fn imported() -> Imported {
    import_text(LOG, &ImportOptions::default()).unwrap()
}

#[test]
fn a_log_lists_its_compactions_and_the_retention_they_measure() {
    let log =
        include_str!("../../../drift-session/tests/transcripts/formats/claude-code-2.1.jsonl");
    let c = Compactions::read(log).unwrap();
    assert!(
        c.html.contains("line 56 · auto · 167,412 tokens before — "),
        "{}",
        c.html
    );
    assert!(c.html.contains("class=\"fate-weakened\""), "{}", c.html);
    assert!(c.html.contains("class=\"fate-dropped\""), "{}", c.html);
    // The lost rules come first, open, with the summary's words (or
    // nowhere) and the fix; the carried ones fold into a count.
    let lost = c
        .html
        .find("<ul class=\"fates lost\">")
        .expect("a lost list");
    let carried = c
        .html
        .find("<details class=\"carried\">")
        .expect("a carried fold");
    assert!(lost < carried, "{}", c.html);
    assert!(c.html.contains("data-line=\"56\" open>"), "{}", c.html);
    assert!(
        c.html
            .contains("<span class=\"evidence\">the summary has: “"),
        "{}",
        c.html
    );
    assert!(
        c.html
            .contains("<span class=\"evidence\">the summary: nowhere"),
        "{}",
        c.html
    );
    assert!(c.html.contains("<p class=\"fix\">Fix: "), "{}", c.html);
    // Tool output is a group of its own, said to be data.
    assert!(
        c.html.contains("<details class=\"from-tools\">"),
        "{}",
        c.html
    );
    // The rules across the compactions, drawn by the chart code.
    let lineage = c
        .html
        .find("<details class=\"lineage\" open>")
        .expect("a lineage");
    assert!(c.html[lineage..].contains("<svg"), "{}", c.html);
    assert!(c.html[lineage..].contains("Your rules across 1 compaction"));
    assert!(!c.retention.is_empty());
    assert!(c.retention.iter().all(|(_, r)| (0.0..=1.0).contains(r)));
    assert_eq!(Compactions::from_json(&c.to_json()).unwrap(), c);
    // A log without a compaction says so; a broken one names its line.
    let plain = Compactions::read(LOG).unwrap();
    assert!(plain.html.contains("no compaction"), "{}", plain.html);
    assert!(plain.retention.is_empty());
    let broken = Compactions::read("{\"a\":1}\n{\"b\":2}\n").unwrap_err();
    assert!(broken.contains("not a transcript"), "{broken}");
    // Through the import worker's protocol.
    // Through the import worker's protocol: the compactions of the log an
    // import request sent, from that one reading; asked again, or of a log
    // a later import replaced, they are an error that says so.
    use crate::worker::{compactions_request, import_reply, import_request};
    let _ = import_reply(&import_request(3, log));
    let reply = import_reply(&compactions_request(4, 3));
    let v: Value = serde_json::from_str(&reply).unwrap();
    assert_eq!(Compactions::from_json(&v["answer"]).unwrap(), c);
    let again: Value = serde_json::from_str(&import_reply(&compactions_request(5, 3))).unwrap();
    assert!(
        again["error"].as_str().unwrap().contains("no longer held"),
        "{again}"
    );
    let _ = import_reply(&import_request(6, log));
    let _ = import_reply(&import_request(7, LOG));
    let stale: Value = serde_json::from_str(&import_reply(&compactions_request(8, 6))).unwrap();
    assert!(
        stale["error"].as_str().unwrap().contains("no longer held"),
        "{stale}"
    );
    let latest: Value = serde_json::from_str(&import_reply(&compactions_request(9, 7))).unwrap();
    assert_eq!(Compactions::from_json(&latest["answer"]).unwrap(), plain);
}

#[test]
fn the_model_beside_the_log_lists_what_disagrees_first() {
    let log =
        include_str!("../../../drift-session/tests/transcripts/formats/claude-code-2.1.jsonl");
    let g = Guesses::read(log).unwrap();
    let c = Compactions::read(log).unwrap();
    assert_eq!(g.placed, 1);
    let run = drift_core::simulate(&g.scenario).unwrap();
    let facts = g.fact_rules();
    let b = drift_session::import::beside(&g.scenario, &run, &facts, &c.measured, g.placed);
    let html = beside_html(&b);
    assert!(html.contains("The model and the log agree"), "{html}");
    // Every row that disagrees comes before every row that agrees.
    let first = html.find("<tr data-fact=").expect("a row");
    let agrees = html
        .find("<td class=\"agree\">")
        .expect("a row that agrees");
    let last_disagreeing = html
        .rfind("class=\"disagrees\"")
        .expect("a row that disagrees");
    assert!(
        first < last_disagreeing && last_disagreeing < agrees,
        "{html}"
    );
    assert!(
        html.contains("<tr data-fact=\"post-prod-changes-before\" class=\"disagrees\">"),
        "{html}"
    );
    assert!(
        html.contains("0.75 · <span class=\"fate-dropped\">dropped</span> ≠"),
        "{html}"
    );
    // The wire forms carry what the page needs.
    assert_eq!(Guesses::from_json(&g.to_json()).unwrap(), g);
    assert_eq!(Compactions::from_json(&c.to_json()).unwrap(), c);
    // Nothing to compare without a placed round.
    let none = drift_session::import::beside(&g.scenario, &run, &facts, &c.measured, 0);
    assert!(beside_html(&none).contains("id=\"beside-none\""));
}

#[test]
fn explains_each_guess() {
    let i = imported();
    let g = Guesses::of(&i);
    assert_eq!(g.facts.len(), i.scenario.facts.len());
    assert!(
        g.facts[0].starts_with("user · record 1 · said 2 times; ")
            && g.facts[0].ends_with("% a rule"),
        "{}",
        g.facts[0]
    );
    assert_eq!(g.actions.len(), i.scenario.actions.len());
    assert_eq!(g.actions[0].call, "shell: systemctl restart db-prod-01");
    assert_eq!(
        g.actions[0].because,
        "governed by the facts that name db-prod-01"
    );
    assert_eq!(
        g.actions[1].because,
        "governed by every rule before it (no shared resource)"
    );
    assert_eq!(g.format, i.format.label());
}

#[test]
fn the_summary_counts_in_words() {
    let g = Guesses::of(&imported());
    assert_eq!(
        g.summary(&g.scenario),
        "Read as OpenAI Responses items: 4 turns, no system prompt, a 200,000-token window, OpenAI compact; 1 fact and 2 actions guessed. Token sizes are estimates (characters ÷ 4)."
    );
    let mut one = g.clone();
    one.actions.truncate(1);
    one.skipped = 1;
    one.notices = vec!["the window is raised".to_string()];
    let mut s = g.scenario.clone();
    s.harness.turns = 1;
    s.policy = PolicyChoice::Preset(drift_core::Preset::ClaudeCode);
    assert_eq!(
        one.summary(&s),
        "Read as OpenAI Responses items: 1 turn, no system prompt, a 200,000-token window, Claude Code; 1 fact and 1 action guessed, 1 risky call skipped (no rule before them). Token sizes are estimates (characters ÷ 4). Note: the window is raised."
    );
}

#[test]
fn the_wire_form_round_trips() {
    let g = Guesses::of(&imported());
    let back = Guesses::from_json(&serde_json::from_str(&g.to_json().to_string()).unwrap());
    assert_eq!(back, Ok(g));
}

#[test]
fn a_malformed_reply_is_an_error_naming_what_is_wrong() {
    let good = Guesses::of(&imported()).to_json();
    let broken = |key: &str, value: Value| {
        let mut v = good.clone();
        v[key] = value;
        Guesses::from_json(&v).unwrap_err()
    };
    assert!(broken("scenario", json!("{")).starts_with("the imported scenario: "));
    assert!(broken("facts", json!(["only one", 2])).contains("facts is not text"));
    assert!(broken("facts", json!([])).contains("do not match its scenario"));
    assert!(broken("actions", json!([["a", "b"]])).contains("not [call, pattern, reason]"));
    assert!(broken("skipped", json!(-1)).contains("skipped count"));
    assert!(broken("notices", json!(null)).contains("no notices list"));
    assert!(Guesses::from_json(&json!(null)).is_err());
}
