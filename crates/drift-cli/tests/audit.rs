//! `drift audit` as a user and a CI job see it: a transcript and a summary
//! in; a report, JSON and exit codes out (0 no drift, 1 drift, 2 unreadable
//! input).

use serde_json::Value;

mod support;
use support::{
    assert_contains, drift, drift_with, fails_with_code_2, fails_with_code_2_each,
    fails_with_code_2_given, json, succeeds,
};

/// The sample sessions of drift-core, from this crate's directory.
const CLAUDE: &str = "../drift-session/tests/transcripts/claude-code.jsonl";
const CODEX: &str = "../drift-session/tests/transcripts/codex-rollout.jsonl";
const RESPONSES: &str = "../drift-session/tests/transcripts/responses.json";

fn fixture(name: &str) -> String {
    format!("tests/fixtures/audit/{name}")
}

/// `drift audit --before B --after A [extra…]`, expecting `code` and nothing
/// on stderr; returns stdout.
fn audit(before: &str, after: &str, extra: &[&str], code: i32) -> String {
    let mut args = vec!["audit", "--before", before, "--after", after];
    args.extend(extra);
    let out = drift(&args);
    assert_eq!(
        out.code, code,
        "drift {args:?}:\n{}{}",
        out.stdout, out.stderr
    );
    assert_eq!(out.stderr, "", "drift {args:?}");
    out.stdout
}

/// The report on the fixture `after` against `before`, which exits 1,
/// snapshotted as `snapshot`.
fn drifted(snapshot: &str, before: &str, after: &str) {
    let out = audit(before, &fixture(after), &[], 1);
    insta::assert_snapshot!(snapshot, out);
}

// ------------------------------------------------------------ reports

#[test]
fn a_drifted_claude_code_summary_exits_1_and_says_why() {
    drifted(
        "audit_claude_code_drifted",
        CLAUDE,
        "claude-code.drifted.txt",
    );
}

#[test]
fn a_faithful_summary_exits_0() {
    for (before, after) in [
        (CLAUDE, "claude-code.faithful.txt"),
        (CODEX, "codex.faithful.txt"),
    ] {
        let out = audit(before, &fixture(after), &[], 0);
        assert!(
            out.ends_with("No drift: every constraint carried, every detail supported.\n"),
            "{after}:\n{out}"
        );
    }
}

#[test]
fn merged_tickets_and_vanished_reasons_are_listed() {
    drifted(
        "audit_responses_drifted",
        RESPONSES,
        "responses.drifted.txt",
    );
}

#[test]
fn plain_text_places_are_lines() {
    let out = audit(
        &fixture("plain-before.txt"),
        &fixture("plain-after.txt"),
        &[],
        1,
    );
    assert_contains(&out, "(plain text, 1 message,");
    assert!(
        out.lines().any(|l| l.starts_with("  line 1 [")
            && l.ends_with("]: \"user: We are still on libfoo 2.3.1, do not bump.\"")),
        "{out}"
    );
    assert_contains(&out, "broken by AFTER line 1");
    assert!(
        out.lines().any(|l| l.starts_with("  version")
            && l.contains("2.4.0")
            && l.ends_with("AFTER line 1")),
        "{out}"
    );
}

#[test]
fn json_spans_point_into_both_texts() {
    let after_path = fixture("codex.drifted.txt");
    let after =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(&after_path))
            .unwrap();
    let before = drift_session::read_transcript(
        &std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(CODEX))
            .unwrap(),
    )
    .unwrap();
    let report = json(&audit(CODEX, &after_path, &["--format", "json"], 1));
    assert_eq!(report["format"], "compaction-drift/audit@1");
    assert_eq!(report["drifted"], true);
    assert_eq!(report["before_format"], "codex_session");
    let span = |v: &Value| {
        (
            v["start"].as_u64().unwrap() as usize,
            v["end"].as_u64().unwrap() as usize,
        )
    };
    let unsupported: Vec<&str> = report["unsupported"]
        .as_array()
        .unwrap()
        .iter()
        .map(|u| {
            let (a, b) = span(&u["after"][0]);
            assert_eq!(&after[a..b], u["text"].as_str().unwrap());
            u["text"].as_str().unwrap()
        })
        .collect();
    assert_eq!(unsupported, ["src/config/parser.rs", "2.4.0"]);
    let pin = report["dropped_constraints"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["role"] == "user")
        .expect("the user's pin");
    let message = &before.messages[pin["before"]["message"].as_u64().unwrap() as usize];
    let (a, b) = span(&pin["before"]["span"]);
    assert_eq!(
        &message.text[a..b],
        "We are still on libfoo 2.3.1, do not bump."
    );
    assert!(pin["form"].is_string());
    assert_eq!(pin["cue"], "learned");
    let (a, b) = span(&pin["contradicted_by"]);
    assert!(after[a..b].starts_with("Dependency libfoo was upgraded"));
}

#[test]
fn the_summary_can_come_from_stdin() {
    let summary = std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(fixture("codex.faithful.txt")),
    )
    .unwrap();
    let out = drift_with(&["audit", "--before", CODEX, "--after", "-"], &summary);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stdout.starts_with("drift audit: - against "),
        "{}",
        out.stdout
    );
}

// ------------------------------------------------------------ unreadable input

#[test]
fn a_torn_transcript_line_is_named_and_the_rest_read() {
    let args = [
        "audit",
        "--before",
        &fixture("broken.jsonl"),
        "--after",
        &fixture("plain-after.txt"),
    ];
    let out = drift(&args);
    assert_ne!(out.code, 2, "{}", out.stderr);
    assert_contains(
        &out.stderr,
        "tests/fixtures/audit/broken.jsonl: line 2 is damaged (not JSON from column",
    );
    assert_contains(&out.stderr, "skipped, the rest of the log is read");
    // The line before it is read: its rule is audited.
    assert_contains(&out.stdout, "Do not bump libfoo.");
}

#[test]
fn text_that_is_not_utf8_exits_2() {
    fails_with_code_2(
        &[
            "audit",
            "--before",
            &fixture("plain-before.txt"),
            "--after",
            &fixture("not-utf8.txt"),
        ],
        &[
            "tests/fixtures/audit/not-utf8.txt",
            "AFTER is not UTF-8 text",
        ],
    );
}

#[test]
fn a_missing_file_exits_2() {
    fails_with_code_2(
        &[
            "audit",
            "--before",
            "no/such/session.jsonl",
            "--after",
            &fixture("plain-after.txt"),
        ],
        &["no/such/session.jsonl: cannot read BEFORE"],
    );
}

#[test]
fn json_that_is_no_transcript_exits_2() {
    fails_with_code_2(
        &[
            "audit",
            "--before",
            "tests/fixtures/passing.json",
            "--after",
            &fixture("plain-after.txt"),
        ],
        &["tests/fixtures/passing.json", "not a transcript"],
    );
}

#[test]
fn usage_errors_exit_2() {
    fails_with_code_2_each(&[
        (
            &["audit", "--before", CODEX],
            &["audit needs --before", "--after"],
        ),
        (&["audit"], &["audit needs --before"]),
        (
            &["audit", "--before", CODEX, "--after", "x", "extra"],
            &["audit takes its files as --before and --after"],
        ),
        (
            &["audit", "--before", "-", "--after", "-"],
            &["only one of --before and --after"],
        ),
        (
            &[
                "audit", "--before", CODEX, "--after", CODEX, "--format", "yaml",
            ],
            &["unknown format \"yaml\""],
        ),
    ]);
}

#[test]
fn help_names_the_command() {
    let out = drift(&["--help"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout
            .contains("drift audit --before BEFORE --after AFTER [--format text|json]")
    );
    assert!(out.stdout.contains("Codex CLI or Claude Code session log"));
}

const FORMATS: &str = "../drift-session/tests/transcripts/formats";

#[test]
fn a_session_log_is_audited_compaction_by_compaction() {
    let log = format!("{FORMATS}/claude-code-2.1.jsonl");
    let out = drift(&["audit", &log]);
    assert_eq!(out.code, 1, "a rule was weakened: {}", out.stdout);
    assert_contains(
        &out.stdout,
        "Compaction 1 at line 56 (auto, 167,412 tokens before)",
    );
    assert_contains(&out.stdout, "WEAKENED");
    assert_contains(
        &out.stdout,
        "/home/dana/src/billing-infra/CLAUDE.md is re-read from disk",
    );
    // Tool output is a group of its own, never a rule of the user's.
    assert_contains(&out.stdout, "From tool output, lost (");
    assert_contains(&out.stdout, "; data, not instructions");
    // The agent log next to the session is read with it.
    let json = json(&drift(&["audit", &log, "--format", "json"]).stdout);
    assert_eq!(json["format"], "compaction-drift/session-audit@1");
    assert_eq!(json["source"]["file"], log.as_str());
    assert_eq!(json["source"]["harness"], "Claude Code");
    // The report block: the lost rules first, with who, where and the fix.
    let report = &json["compactions"][0]["report"];
    assert_eq!(report["number"], 1);
    let lost = report["lost"].as_array().unwrap();
    // The rules of the user's the summary was written to lose (which
    // other sentences are rules is the finder's, measured across people);
    // the judge calls the runbook check kept, one of its misses measured in
    // eval/SCORES.md.
    for rule in [
        "Post in #prod-changes before you cordon anything.",
        "Rename it to ledger_archive_2023_deprecated, on billing-replica-2 only.",
    ] {
        assert!(lost.iter().any(|l| l["text"] == rule), "{rule}: {lost:?}");
    }
    assert!(
        lost.iter().any(|l| l["text"]
            .as_str()
            .unwrap()
            .starts_with("Only touch billing-replica-2")),
        "{lost:?}"
    );
    assert_contains(&out.stdout, &format!("Lost: {} rules", lost.len()));
    // Surest first.
    let confidence: Vec<u64> = lost
        .iter()
        .map(|l| l["confidence"].as_u64().unwrap())
        .collect();
    assert!(
        confidence.windows(2).all(|w| w[0] >= w[1]),
        "{confidence:?}"
    );
    assert!(
        lost.iter()
            .all(|l| l["authority"] == "user" && l["fix"].is_string())
    );
    let dropped = lost.iter().find(|l| l["fate"] == "dropped").unwrap();
    assert!(dropped["summary"].is_null());
    let from_tools = report["from_tools"].as_array().unwrap();
    assert!(
        from_tools
            .iter()
            .any(|l| l["text"] == "Never drain billing-pool-1: it runs the settlement cron."),
        "{from_tools:?}"
    );
    assert!(from_tools.iter().all(|l| l["authority"] == "tool_policy"));
    assert!(report["carried"].as_u64().unwrap() > 0);
    let rules = json["compactions"][0]["rules"].as_array().unwrap();
    assert!(
        rules
            .iter()
            .any(|r| r["fate"] == "weakened" && r["evidence"]["after"]["in"] == "summary")
    );
}

/// Several logs are audited side by side, and reported in the order given,
/// each as it is alone; the first that cannot be read, in that order, is
/// the error.
#[test]
fn several_logs_are_reported_in_the_order_given() {
    let logs: Vec<String> = [
        "claude-code-2.1.jsonl",
        "codex-envelope-local-compact.jsonl",
        "claude-code-1.0.jsonl",
        "responses-compacted.json",
    ]
    .iter()
    .map(|n| format!("{FORMATS}/{n}"))
    .collect();
    let args: Vec<&str> = std::iter::once("audit")
        .chain(logs.iter().map(String::as_str))
        .collect();
    let together = drift(&args);
    let alone: Vec<String> = logs.iter().map(|l| drift(&["audit", l]).stdout).collect();
    assert_eq!(together.stdout, alone.join("\n"));
    let broken = drift(&[
        "audit",
        &logs[0],
        "no/such/first.jsonl",
        &logs[1],
        "no/such/second.jsonl",
    ]);
    assert_eq!(broken.code, 2, "{}", broken.stderr);
    assert_contains(&broken.stderr, "no/such/first.jsonl");
    assert!(!broken.stderr.contains("second"), "{}", broken.stderr);
}

#[test]
fn lineage_follows_each_rule_across_compactions() {
    let log = format!("{FORMATS}/claude-code-2.1.jsonl");
    let out = drift(&["audit", &log, "--lineage"]);
    assert_contains(&out.stdout, "Lineage: ");
    assert_contains(&out.stdout, "#1 DROPPED");
    assert_contains(&out.stdout, "now: no faithful copy");
    let json = json(&drift(&["audit", &log, "--format", "json"]).stdout);
    let rules = json["lineage"]["rules"].as_array().unwrap();
    assert!(!rules.is_empty());
    assert!(
        rules
            .iter()
            .all(|r| r["steps"].as_array().unwrap().len() == 1)
    );
    assert!(
        rules
            .iter()
            .any(|r| r["steps"][0]["fate"] == "dropped" && r["depth"].is_null())
    );
    assert_eq!(json["lineage"]["compactions"][0]["number"], 1);
    // --lineage belongs to drift audit.
    let wrong = drift(&["run", "billing-freeze", "--lineage"]);
    assert_eq!(wrong.code, 2, "{}", wrong.stderr);
    assert_contains(&wrong.stderr, "--lineage and --all belong to drift audit");
    let pair = drift(&["audit", "--before", &log, "--after", &log, "--lineage"]);
    assert_eq!(pair.code, 2, "{}", pair.stderr);
    assert_contains(&pair.stderr, "--lineage and --all read session logs");
}

#[test]
fn an_encrypted_compaction_that_keeps_every_rule_exits_0() {
    let out = drift(&[
        "audit",
        &format!("{FORMATS}/codex-envelope-remote-compact.jsonl"),
    ]);
    assert_eq!(out.code, 0, "{}", out.stdout);
    assert_contains(
        &out.stdout,
        "Its summary cannot be read (the summary is encrypted)",
    );
    let none = drift(&["audit", &format!("{FORMATS}/responses-request.json")]);
    assert_eq!(none.code, 0);
    assert_contains(&none.stdout, "records no compaction");
}

#[test]
fn retention_is_measured_from_logs() {
    let logs = [
        format!("{FORMATS}/claude-code-2.1.jsonl"),
        format!("{FORMATS}/claude-code-1.0.jsonl"),
        format!("{FORMATS}/codex-envelope-local-compact.jsonl"),
        format!("{FORMATS}/codex-envelope-remote-compact.jsonl"),
    ];
    let mut args = vec!["audit", "--retention"];
    args.extend(logs.iter().map(String::as_str));
    let text = succeeds(&args);
    assert_contains(
        &text,
        "Retention measured from 4 logs, 3 compactions whose summary could be read (1 encrypted, not counted)",
    );
    assert_contains(&text, "\"retention\": {");
    args.extend(["--format", "json"]);
    let doc = json(&succeeds(&args));
    assert_eq!(doc["format"], "compaction-drift/retention@1");
    assert_eq!(doc["logs"], 4);
    let retention = doc["retention"].as_object().unwrap();
    assert!(!retention.is_empty());
    for (kind, value) in retention {
        let v = value.as_f64().unwrap();
        assert!((0.0..=1.0).contains(&v), "{kind} {v}");
        let k = &doc["kinds"][kind];
        let judged = k["rules"].as_u64().unwrap();
        let sum = ["kept", "weakened", "dropped", "contradicted"]
            .iter()
            .map(|f| k[f].as_u64().unwrap())
            .sum::<u64>();
        assert_eq!(judged, sum);
        assert!(k["low"].as_f64().unwrap() <= v && v <= k["high"].as_f64().unwrap());
    }
    // The block reads as a scenario's retention.
    let mut scenario: serde_json::Value = serde_json::from_str(&drift_core::scenario_to_json(
        &drift_core::builtin("payments-incident").unwrap(),
    ))
    .unwrap();
    scenario["retention"] = doc["retention"].clone();
    drift_core::parse_scenario(&scenario.to_string()).expect("the block is a valid retention");
}

#[test]
fn bad_session_logs_exit_2_naming_the_line() {
    let torn = drift_with(
        &["audit", "-"],
        b"{\"type\":\"user\",\"message\":{\"role\":\"user\",\"content\":\"hi\"},\"sessionId\":\"s\"}\n{oops\n{\"type\":\"user\"}\n",
    );
    assert_eq!(torn.code, 0, "{}", torn.stderr);
    assert_contains(&torn.stderr, "-: line 2 is damaged");
    fails_with_code_2_given(
        &["audit", "-"],
        b"{\"a\":1}\n{\"b\":2}\n",
        &["not a transcript"],
    );
    fails_with_code_2(&["audit", "no-such-log.jsonl"], &["no-such-log.jsonl"]);
    fails_with_code_2(
        &["run", "payments-incident", "--retention"],
        &["--retention belongs to drift audit"],
    );
}
