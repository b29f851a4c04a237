//! `drift import` as a user sees it: a session log in; a scenario file and a
//! summary of what was guessed out; exit 2 naming the file (and the line)
//! for what cannot be read.

use drift_core::{parse_scenario, scenario_to_json};
use drift_session::{ImportOptions, import_text};

mod support;
use support::{assert_contains, drift, drift_with, fails_with_code_2_given};

/// The sample sessions of drift-core, from this crate's directory.
const OPS_CLAUDE: &str = "../drift-session/tests/transcripts/ops-claude-code.jsonl";
const OPS_CODEX: &str = "../drift-session/tests/transcripts/ops-codex-rollout.jsonl";
const OPS_RESPONSES: &str = "../drift-session/tests/transcripts/ops-responses.json";
const NOTES: &str = "../drift-session/tests/transcripts/ops-notes.txt";

fn read(path: &str) -> String {
    std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path))
        .unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// A fresh scratch directory under the target directory.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

#[test]
fn without_o_the_scenario_goes_to_stdout_and_the_summary_to_stderr() {
    let out = drift(&["import", OPS_CLAUDE]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    // The same file the library writes, with the id from the file name.
    let options = ImportOptions {
        id: "ops-claude-code".into(),
        ..ImportOptions::default()
    };
    let expected = import_text(&read(OPS_CLAUDE), &options).unwrap();
    assert_eq!(out.stdout, scenario_to_json(&expected.scenario) + "\n");
    assert_eq!(parse_scenario(&out.stdout).unwrap(), expected.scenario);
    insta::assert_snapshot!("import_ops_claude_code_summary", out.stderr);
}

#[test]
fn with_o_the_file_is_written_and_the_summary_printed() {
    let dir = scratch("import-o");
    let file = dir.join("scenario.json");
    let file = file.to_str().unwrap();
    let out = drift(&[
        "import",
        OPS_CODEX,
        "-o",
        file,
        "--window",
        "128000",
        "--policy",
        "pinned_prefix",
        "--id",
        "ledger-refactor",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    assert!(out.stdout.starts_with("drift import: ../drift-session/tests/transcripts/ops-codex-rollout.jsonl (Codex CLI session, 13 messages; 2 records skipped)\n"), "{}", out.stdout);
    assert_contains(&out.stdout, "Scenario \"ledger-refactor\": 12 turns");
    assert_contains(&out.stdout, "window 128,000, policy pinned_prefix");
    assert!(
        out.stdout.ends_with(&format!("Wrote {file}\n")),
        "{}",
        out.stdout
    );
    let scenario = parse_scenario(&std::fs::read_to_string(file).unwrap()).unwrap();
    assert_eq!(scenario.id, "ledger-refactor");
    assert_eq!(scenario.harness.window_tokens, 128_000);
    assert_eq!(scenario.policy.id(), "pinned_prefix");
    // The written file runs.
    let run = drift(&["run", file]);
    assert_eq!(run.code, 0, "{}", run.stderr);
}

#[test]
fn the_summary_names_lines_items_and_skipped_calls() {
    let dir = scratch("import-summary");
    let file = dir.join("s.json");
    let out = drift(&["import", OPS_RESPONSES, "-o", file.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let s = &out.stdout;
    // A JSON array's records are items.
    assert!(
        s.lines().any(|l| l
            .starts_with("  turn 0     item 4     refunds-above-500-eur  standing rule, ")
            && l.contains("(system, from a developer message; ")
            && l.ends_with("% a rule)")),
        "{s}"
    );
    assert_contains(
        s,
        "payment  payment, charge or refund (\"create_refund\" in the tool name, irreversible)",
    );
    assert_contains(
        s,
        "governed by may-issue-test-refunds (sharing acct_test_42)",
    );
    assert_contains(
        s,
        "Skipped: 1 consequential call with nothing before it to govern it\n  turn 2     item 2     deploy  \"shell: ./scripts/deploy.sh staging\"",
    );
    // Plain text: the line of each sentence.
    let out = drift(&["import", NOTES, "-o", file.to_str().unwrap()]);
    assert!(
        out.stdout.lines().any(|l| l
            .starts_with("  turn 1     line 4     may-restart-db-staging-01-during  ")
            && l.contains("(user, plain text; ")),
        "{}",
        out.stdout
    );
}

#[test]
fn a_transcript_can_come_from_stdin() {
    let log = read(OPS_CLAUDE);
    let out = drift_with(&["import", "-", "--id", "from-stdin"], log.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("drift import: - (Claude Code session"),
        "{}",
        out.stderr
    );
    assert_eq!(parse_scenario(&out.stdout).unwrap().id, "from-stdin");
    let out = drift_with(&["import", "-"], log.as_bytes());
    assert_eq!(parse_scenario(&out.stdout).unwrap().id, "imported-session");
}

#[test]
fn a_small_window_is_raised_and_said() {
    let dir = scratch("import-window");
    let file = dir.join("s.json");
    let out = drift(&[
        "import",
        OPS_CODEX,
        "-o",
        file.to_str().unwrap(),
        "--window",
        "10",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_contains(
        &out.stdout,
        "  note: the system prompt (about 24 tokens) fills the 10-token window: the window is raised to 1000 tokens",
    );
}

#[test]
fn unreadable_input_exits_2_naming_the_file_and_line() {
    // A torn line is named on stderr and skipped; the rest is imported.
    let torn = "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Never deploy.\"}\n{\"type\":\"message\",\n";
    let out = drift_with(&["import", "-"], torn.as_bytes());
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_contains(&out.stderr, "-: line 2 is damaged (not JSON from column");
    assert_contains(&out.stdout, "Never deploy.");
    let dir = scratch("import-broken");
    let array = dir.join("array.jsonl");
    std::fs::write(
        &array,
        "{\"type\":\"message\",\"role\":\"user\",\"content\":\"x\"}\n[1]\n",
    )
    .unwrap();
    fails_with_code_2_given(
        &["import", array.to_str().unwrap()],
        b"",
        &["line 2", "must be a JSON object"],
    );
    // A scenario file is JSON, but no transcript.
    fails_with_code_2_given(
        &["import", "tests/fixtures/passing.json"],
        b"",
        &["tests/fixtures/passing.json", "not a transcript"],
    );
    fails_with_code_2_given(
        &["import", "no-such-file.jsonl"],
        b"",
        &["no-such-file.jsonl", "cannot read"],
    );
    let binary = dir.join("binary.jsonl");
    std::fs::write(&binary, [b'{', 0xff, 0xfe, b'}']).unwrap();
    fails_with_code_2_given(&["import", binary.to_str().unwrap()], b"", &["not UTF-8"]);
}

#[test]
fn bad_arguments_exit_2() {
    fails_with_code_2_given(&["import"], b"", &["import takes one transcript file"]);
    fails_with_code_2_given(
        &["import", OPS_CLAUDE, NOTES],
        b"",
        &["import takes one transcript file"],
    );
    fails_with_code_2_given(
        &["import", OPS_CLAUDE, "--window", "lots"],
        b"",
        &["--window", "lots"],
    );
    fails_with_code_2_given(
        &["import", OPS_CLAUDE, "--policy", "nope"],
        b"",
        &["unknown policy \"nope\""],
    );
    fails_with_code_2_given(
        &["run", "payments-incident", "-o", "x.json"],
        b"",
        &["belong to drift import"],
    );
    let dir = scratch("import-unwritable");
    let target = dir.join("missing-dir").join("s.json");
    fails_with_code_2_given(
        &["import", OPS_CLAUDE, "-o", target.to_str().unwrap()],
        b"",
        &["s.json", "cannot write"],
    );
}

#[test]
fn help_lists_import() {
    let out = drift(&["--help"]);
    assert!(
        out.stdout
            .contains("drift import TRANSCRIPT [-o FILE] [--window N] [--policy ID] [--id ID]")
    );
}

#[test]
fn a_log_with_compactions_is_simulated_beside_what_it_shows() {
    let log = "../drift-session/tests/transcripts/formats/claude-code-2.1.jsonl";
    let out = drift(&["import", log]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_contains(
        &out.stderr,
        "turn sizes adjusted so the model's 1 round(s) fall at the turns where the log compacted",
    );
    assert_contains(&out.stderr, "The model beside the log: ");
    // The announcement before cordoning: the model keeps it above the line
    // at the round, the log shows it dropped.
    assert_contains(
        &out.stderr,
        "post-prod-changes-before: #1 model 0.75 / log dropped ≠",
    );
    let scenario = parse_scenario(&out.stdout).expect("the scenario reads");
    let run = drift_core::simulate(&scenario).expect("it runs");
    assert_eq!(run.rounds().len(), 1);
}
