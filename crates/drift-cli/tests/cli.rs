//! The `drift` binary as a user and a CI job see it: arguments in, text,
//! JSON and exit codes out (0 success, 1 a failing check, 2 bad input).

use drift_core::{Preset, builtin, builtin_ids, result_to_json, simulate};
use serde_json::Value;

mod support;
use support::{
    assert_contains, drift, fails_with_code_2, fails_with_code_2_each, json, strings, succeeds,
};

/// The outcome of `action` in a result@1 document.
fn outcome<'a>(result: &'a Value, action: &str) -> &'a str {
    result["actions"]
        .as_array()
        .expect("actions")
        .iter()
        .find(|a| a["id"] == action)
        .unwrap_or_else(|| panic!("no action {action}"))["outcome"]
        .as_str()
        .expect("outcome is a string")
}

// ------------------------------------------------------------ list and help

#[test]
fn list_names_every_builtin_and_every_preset() {
    let out = succeeds(&["list"]);
    for id in builtin_ids() {
        let title = builtin(id).unwrap().title;
        assert!(
            out.lines().any(|l| l.contains(id) && l.contains(&title)),
            "{id} missing:\n{out}"
        );
    }
    for preset in Preset::ALL {
        let info = preset.info();
        assert!(
            out.lines()
                .any(|l| l.split_whitespace().next() == Some(info.id)),
            "{} missing:\n{out}",
            info.id
        );
        if !preset.notes().source.is_empty() {
            assert!(
                out.contains(preset.notes().source),
                "{} source missing",
                info.id
            );
        }
    }
}

#[test]
fn help_and_no_arguments_print_usage() {
    for args in [&["--help"][..], &["-h"], &[], &["help"]] {
        let out = succeeds(args);
        assert!(out.contains("USAGE:"), "drift {args:?}:\n{out}");
        for command in ["run", "check", "matrix", "list"] {
            assert!(out.contains(&format!("drift {command}")), "{command}");
        }
    }
}

#[test]
fn version() {
    let out = succeeds(&["--version"]);
    assert_eq!(out, format!("drift {}\n", env!("CARGO_PKG_VERSION")));
}

// ------------------------------------------------------------ run

#[test]
fn run_text_reports_rounds_fidelity_and_why() {
    let out = succeeds(&["run", "payments-incident"]);
    assert!(out.starts_with("Payments incident"), "{out}");
    assert!(out.contains("policy: pinned prefix (pinned_prefix)"));
    // The rounds table.
    assert_contains(&out, "\nRounds\n");
    assert!(out.contains("regime") && out.contains("compressed_recall"));
    // The fidelity table, with a row per fact.
    assert_contains(&out, "\nFidelity after each round\n");
    let scenario = builtin("payments-incident").unwrap();
    for fact in &scenario.facts {
        assert!(
            out.lines().any(|l| l.trim_start().starts_with(&fact.id)),
            "no row for {}",
            fact.id
        );
    }
    // Round by round: the freeze falls below the line at round 3.
    assert_contains(&out, "\nRound by round (actionable at 0.50)\n");
    let round3 = out.find("  round 3 (turn 44)\n").expect("round 3");
    let freeze = out[round3..].lines().nth(1).unwrap();
    assert!(
        freeze.contains("payments-freeze") && freeze.contains("below the line"),
        "{freeze}"
    );
    assert!(
        freeze.contains("affects restart-ledger-replica (turn 54), rollback-payments (turn 63)")
    );
    // The actions, with the why and the consequence of the one that matters.
    assert!(out.contains("UNGOVERNED"));
    assert!(out.contains("why: "));
    let rollback = scenario
        .actions
        .iter()
        .find(|a| a.id == "rollback-payments")
        .unwrap();
    let actions = out.find("\nActions\n").expect("the actions");
    let at = out[actions..]
        .find("rollback-payments")
        .expect("rollback-payments row");
    let block = &out[actions + at..];
    assert!(
        block.lines().next().unwrap().contains("UNGOVERNED"),
        "{block}"
    );
    assert!(
        block.contains("payments-freeze"),
        "the why names the freeze"
    );
    assert_contains(block, &format!("consequence: {}", rollback.consequence));
    assert!(out.trim_end().ends_with("5 ungoverned"), "{out}");
}

#[test]
fn run_text_snapshot() {
    insta::assert_snapshot!(
        "run_payments_incident",
        succeeds(&["run", "payments-incident"])
    );
}

#[test]
fn run_json_is_the_engine_result() {
    let out = succeeds(&["run", "payments-incident", "--format", "json"]);
    let doc = json(&out);
    assert_eq!(doc["format"], "compaction-drift/result@1");
    assert_eq!(doc["scenario"], "payments-incident");
    assert_eq!(doc["policy"], "pinned_prefix");
    let scenario = builtin("payments-incident").unwrap();
    let run = simulate(&scenario).unwrap();
    assert_eq!(out, format!("{}\n", result_to_json(&scenario, &run)));
}

#[test]
fn run_json_with_short_options() {
    let long = succeeds(&[
        "run",
        "staging-migration",
        "--format",
        "json",
        "--policy",
        "codex_cli",
    ]);
    let short = succeeds(&["run", "-f", "json", "-p", "codex_cli", "staging-migration"]);
    assert_eq!(long, short);
    assert_eq!(json(&short)["policy"], "codex_cli");
}

/// `drift run … | head`: the reader goes away after a few lines, long before
/// the report ends (13 MB of JSON here). drift stops there, quietly.
#[test]
fn a_closed_pipe_ends_a_long_report_quietly() {
    use std::io::Read as _;
    use std::process::{Command, Stdio};

    for format in ["json", "text"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_drift"))
            .args([
                "run",
                "payments-incident",
                "--set",
                "harness.turns=100000",
                "--format",
                format,
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the drift binary runs");
        let mut head = [0u8; 64];
        let mut stdout = child.stdout.take().expect("stdout is piped");
        stdout.read_exact(&mut head).expect("the report starts");
        drop(stdout);
        let out = child.wait_with_output().expect("drift finishes");
        let start = String::from_utf8_lossy(&head);
        match format {
            "json" => assert!(
                start.starts_with("{\n  \"format\": \"compaction-drift/result@1\""),
                "{start}"
            ),
            _ => assert!(start.starts_with("Payments incident"), "{start}"),
        }
        assert_eq!(out.status.code(), Some(0), "--format {format}");
        assert_eq!(
            String::from_utf8_lossy(&out.stderr),
            "",
            "--format {format}"
        );
    }
}

#[test]
fn policy_option_replaces_the_scenarios_policy() {
    let default = json(&succeeds(&["run", "payments-incident", "--format", "json"]));
    let verbatim = json(&succeeds(&[
        "run",
        "payments-incident",
        "--format",
        "json",
        "--policy",
        "user_verbatim",
    ]));
    assert_eq!(verbatim["policy"], "user_verbatim");
    assert_eq!(outcome(&default, "copy-eu-logs"), "ungoverned");
    assert_eq!(outcome(&verbatim, "copy-eu-logs"), "governed");

    let text = succeeds(&["run", "payments-incident", "--policy", "user_verbatim"]);
    assert_contains(&text, "policy: user verbatim (user_verbatim)");
}

#[test]
fn a_file_path_works_as_input() {
    let out = succeeds(&["run", "tests/fixtures/passing.json"]);
    assert_contains(&out, "(short-session)");
    assert!(out.contains("GOVERNED"));
    let doc = json(&succeeds(&[
        "run",
        "tests/fixtures/passing.json",
        "--format",
        "json",
    ]));
    assert_eq!(doc["scenario"], "short-session");
    assert_eq!(outcome(&doc, "push-docs"), "governed");
}

#[test]
fn a_builtin_written_to_a_file_gives_the_same_result() {
    let dir = std::env::temp_dir().join(format!("drift-cli-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("payments.json");
    std::fs::write(
        &path,
        drift_core::builtin_source("payments-incident").unwrap(),
    )
    .unwrap();
    let from_file = succeeds(&["run", path.to_str().unwrap(), "--format", "json"]);
    let _ = std::fs::remove_dir_all(&dir);
    let builtin = succeeds(&["run", "payments-incident", "--format", "json"]);
    assert_eq!(from_file, builtin);
}

// ------------------------------------------------------------ check

#[test]
fn check_fails_with_one_line_per_failing_action() {
    let out = drift(&["check", "payments-incident"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let fails: Vec<&str> = out
        .stdout
        .lines()
        .filter(|l| l.starts_with("FAIL "))
        .collect();
    assert_eq!(fails.len(), 5, "{}", out.stdout);
    assert!(
        fails
            .iter()
            .any(|l| l.starts_with("FAIL rollback-payments (turn 63): ungoverned")),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout
            .contains("payments-incident: 5 of 8 actions failed under pinned_prefix")
    );
    insta::assert_snapshot!("check_payments_incident", out.stdout);
}

#[test]
fn check_counts_not_reached_as_a_failure() {
    let out = drift(&["check", "payments-incident", "--policy", "none"]);
    assert_eq!(out.code, 1);
    assert_contains(&out.stdout, "FAIL rollback-payments (turn 63): not reached");
}

#[test]
fn check_passes_on_a_scenario_that_keeps_its_rules() {
    let out = succeeds(&["check", "tests/fixtures/passing.json"]);
    assert!(!out.contains("FAIL"), "{out}");
    assert!(
        out.starts_with("ok: short-session under pinned_prefix"),
        "{out}"
    );
}

#[test]
fn check_fails_the_same_file_under_a_policy_that_overflows() {
    let out = drift(&["check", "tests/fixtures/passing.json", "--policy", "none"]);
    assert_eq!(out.code, 1);
    assert!(out.stdout.contains("FAIL push-docs (turn 26): not reached"));
}

// ------------------------------------------------------------ matrix

#[test]
fn matrix_text_lists_every_scenario_and_preset() {
    let out = succeeds(&["matrix"]);
    let header = out.lines().next().unwrap();
    for label in [
        "governed",
        "weakly governed",
        "refused",
        "ungoverned",
        "not reached",
    ] {
        assert_contains(header, label);
    }
    for id in builtin_ids() {
        assert!(out.lines().any(|l| l == id), "{id}");
    }
    for preset in Preset::ALL {
        let rows = out
            .lines()
            .filter(|l| l.split_whitespace().next() == Some(preset.id()))
            .count();
        assert_eq!(rows, builtin_ids().len(), "{}", preset.id());
    }
    assert_eq!(
        out.lines().count(),
        1 + builtin_ids().len() * (1 + Preset::ALL.len())
    );
}

#[test]
fn matrix_json_has_every_cell_and_its_counts_match_the_engine() {
    let doc = json(&succeeds(&["matrix", "--format", "json"]));
    assert_eq!(doc["format"], "compaction-drift/matrix@1");
    let presets: Vec<&str> = doc["presets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p.as_str().unwrap())
        .collect();
    let expected: Vec<&str> = Preset::ALL.iter().map(|p| p.id()).collect();
    assert_eq!(presets, expected);
    let scenarios = doc["scenarios"].as_array().unwrap();
    assert_eq!(scenarios.len(), builtin_ids().len());
    assert_eq!(builtin_ids().len(), 5);
    for (row, id) in scenarios.iter().zip(builtin_ids()) {
        assert_eq!(row["id"], id);
        let cells = row["cells"].as_array().unwrap();
        assert_eq!(cells.len(), Preset::ALL.len());
        for (cell, preset) in cells.iter().zip(Preset::ALL) {
            assert_eq!(cell["policy"], preset.id());
            let mut scenario = builtin(id).unwrap();
            scenario.policy = drift_core::PolicyChoice::Preset(preset);
            let counts = simulate(&scenario).unwrap().counts();
            for (o, n) in counts.iter() {
                assert_eq!(
                    cell["counts"][o.id()],
                    n,
                    "{id} × {} {}",
                    preset.id(),
                    o.id()
                );
            }
        }
    }
}

#[test]
fn matrix_of_named_inputs() {
    let doc = json(&succeeds(&[
        "matrix",
        "tests/fixtures/passing.json",
        "dependency-pin",
        "--format",
        "json",
    ]));
    let ids = strings(&doc["scenarios"], "id");
    assert_eq!(ids, ["short-session", "dependency-pin"]);
    let cells = doc["scenarios"][0]["cells"].as_array().unwrap();
    assert_eq!(cells[0]["policy"], "none");
    assert_eq!(cells[0]["counts"]["not_reached"], 1);
}

// ------------------------------------------------------------ bad input

#[test]
fn an_invalid_file_names_the_file_and_the_field() {
    let out = drift(&["run", "tests/fixtures/invalid-kind.json"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.lines().count(), 1, "one line: {}", out.stderr);
    assert!(
        out.stderr.starts_with(
            "drift: tests/fixtures/invalid-kind.json: facts[1] (\"docs-only\").kind: unknown kind \"rule\""
        ),
        "{}",
        out.stderr
    );
}

#[test]
fn an_invalid_file_fails_check_and_matrix_the_same_way() {
    for command in ["check", "matrix"] {
        let line = fails_with_code_2(
            &[command, "tests/fixtures/invalid-kind.json"],
            &[
                "tests/fixtures/invalid-kind.json",
                "facts[1] (\"docs-only\").kind",
            ],
        );
        assert_contains(&line, "\"rule\"");
    }
}

#[test]
fn a_json_syntax_error_names_line_and_column() {
    let out = drift(&["run", "tests/fixtures/broken.json"]);
    assert_eq!(out.code, 2);
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(
        out.stderr
            .starts_with("drift: tests/fixtures/broken.json: not valid JSON at line 4, column 3"),
        "{}",
        out.stderr
    );
}

#[test]
fn a_file_that_is_not_a_scenario() {
    let line = fails_with_code_2(&["run", "Cargo.toml"], &["Cargo.toml", "not valid JSON"]);
    assert_contains(&line, "line 1");
}

#[test]
fn unknown_builtin() {
    let line = fails_with_code_2(&["run", "payments-incdent"], &["payments-incdent"]);
    for id in builtin_ids() {
        assert!(line.contains(id), "the message lists the built-ins: {line}");
    }
}

#[test]
fn unknown_policy() {
    let line = fails_with_code_2(
        &["run", "payments-incident", "--policy", "pinned"],
        &[
            "unknown policy",
            "\"pinned\"",
            "pinned_prefix",
            "deepagents",
        ],
    );
    assert!(!line.contains("USAGE"));
}

#[test]
fn unknown_format() {
    fails_with_code_2(
        &["run", "payments-incident", "--format", "xml"],
        &["unknown format", "\"xml\"", "text", "json"],
    );
}

#[test]
fn unknown_command() {
    fails_with_code_2(
        &["simulate", "payments-incident"],
        &["unknown command", "\"simulate\""],
    );
}

#[test]
fn a_scenario_given_as_a_command_gets_a_hint() {
    fails_with_code_2(
        &["payments-incident"],
        &["unknown command", "drift run payments-incident"],
    );
}

#[test]
fn unknown_option() {
    fails_with_code_2(&["run", "payments-incident", "--verbose"], &["--verbose"]);
}

#[test]
fn missing_scenario() {
    for command in ["run", "check"] {
        fails_with_code_2(&[command], &["which scenario"]);
    }
}

#[test]
fn missing_option_value() {
    fails_with_code_2(&["run", "payments-incident", "--policy"], &["--policy"]);
    fails_with_code_2(&["run", "payments-incident", "--format"], &["--format"]);
}

#[test]
fn two_scenarios_for_run() {
    fails_with_code_2(
        &["run", "payments-incident", "dependency-pin"],
        &["one scenario"],
    );
}

#[test]
fn a_missing_file() {
    fails_with_code_2(
        &["run", "tests/fixtures/does-not-exist.json"],
        &["tests/fixtures/does-not-exist.json", "no such file"],
    );
}

#[test]
fn run_honours_a_policy_object_in_the_file() {
    let doc = json(&succeeds(&[
        "run",
        "tests/fixtures/custom-policy.json",
        "--format",
        "json",
    ]));
    assert_eq!(doc["policy"], "custom");
    // The object's own trigger (90% of 20,000 tokens) sets the first round.
    assert_eq!(doc["rounds"][0]["tokens_before"], 19_000);
    let outcomes = strings(&doc["actions"], "outcome");
    assert_eq!(outcomes, ["governed", "weakly_governed"]);
    // --policy replaces the object with a preset.
    let preset = json(&succeeds(&[
        "run",
        "tests/fixtures/custom-policy.json",
        "--policy",
        "pinned_prefix",
        "--format",
        "json",
    ]));
    assert_eq!(preset["policy"], "pinned_prefix");
    assert_eq!(preset["rounds"][0]["tokens_before"], 21_000);
    assert_eq!(preset["actions"][0]["outcome"], "weakly_governed");
}

#[test]
fn list_says_where_each_harness_preset_comes_from() {
    let out = succeeds(&["list"]);
    for preset in &Preset::ALL[Preset::V1.len()..] {
        let info = preset.info();
        assert!(out.contains(preset.notes().source), "{}", info.id);
        assert!(out.contains(preset.notes().limits), "{}", info.id);
    }
}

#[test]
fn audit_options_elsewhere_are_an_error() {
    fails_with_code_2(
        &["run", "payments-incident", "--before", "x.txt"],
        &["--before and --after belong to drift audit"],
    );
}

#[test]
fn a_session_with_nothing_to_grade_says_so() {
    let text = succeeds(&["run", "tests/fixtures/quiet.json"]);
    assert_contains(&text, " · 1 turn\n");
    assert_contains(&text, "  (no compaction round)\n");
    assert!(
        text.ends_with("Actions\n  (no action to grade)\n\n0 actions.\n"),
        "{text}"
    );
    let check = succeeds(&["check", "tests/fixtures/quiet.json"]);
    assert_contains(&check, "(0 checked)");
    let tipping = succeeds(&["tipping", "tests/fixtures/quiet.json"]);
    assert!(tipping.ends_with("\n\n(no action to flip)\n"), "{tipping}");
}

#[test]
fn set_changes_one_setting_by_id_name_or_link_key() {
    let rounds = |args: &[&str]| {
        let mut all = vec!["run", "payments-incident", "--format", "json"];
        all.extend_from_slice(args);
        json(&succeeds(&all))["rounds"].as_array().unwrap().len()
    };
    let base = rounds(&[]);
    let wide = rounds(&["--set", "harness.window_tokens=64000"]);
    assert!(
        wide < base,
        "a wider window compacts less: {wide} vs {base}"
    );
    assert_eq!(rounds(&["--set", "window_tokens=64,000"]), wide);
    assert_eq!(rounds(&["--set", "w=64000"]), wide);

    // A guard and a retention, in one command.
    let doc = json(&succeeds(&[
        "run",
        "staging-migration",
        "--set",
        "guards.verify_bindings=on",
        "--set",
        "retention.binding=0.2",
        "--format",
        "json",
    ]));
    let outcomes = strings(&doc["actions"], "outcome");
    assert!(outcomes.contains(&"refused"), "{outcomes:?}");
    assert!(!outcomes.contains(&"misbound"), "{outcomes:?}");

    // check judges the changed settings: re-injecting the rules leaves only
    // the action whose rule the subagent never saw.
    let out = drift(&[
        "check",
        "payments-incident",
        "--set",
        "reinject_constraints=on",
    ]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert_contains(
        &out.stdout,
        "payments-incident: 1 of 8 actions failed under pinned_prefix",
    );
}

#[test]
fn a_bad_set_names_the_setting_and_what_it_takes() {
    let line = fails_with_code_2(
        &["run", "payments-incident", "--set", "windw=1"],
        &[
            "--set windw=1",
            "no setting \"windw\"",
            "harness.window_tokens",
        ],
    );
    assert!(!line.contains("USAGE"));
    fails_with_code_2_each(&[
        (
            &[
                "run",
                "payments-incident",
                "--set",
                "retention.carve_out=1.5",
            ],
            &["retention.carve_out is 1.5; it must be between 0 and 1"],
        ),
        (
            &["run", "payments-incident", "--set", "turns=many"],
            &["harness.turns takes a whole number, not \"many\""],
        ),
        (
            &["run", "payments-incident", "--set", "window_tokens"],
            &["--set window_tokens: give NAME=VALUE"],
        ),
    ]);
    // Valid alone, invalid in this scenario: the scenario is named.
    fails_with_code_2(
        &["run", "payments-incident", "--set", "system_tokens=40000"],
        &["payments-incident", "window_tokens"],
    );
    fails_with_code_2(
        &["audit", "--before", "x", "--after", "y", "--set", "w=1"],
        &["--set belongs to drift run, check, tipping and matrix"],
    );
}

#[test]
fn list_shows_every_setting_with_its_range_and_default() {
    let out = succeeds(&["list"]);
    for info in &drift_core::SETTINGS {
        assert!(out.contains(&info.id()), "{} missing", info.id());
    }
    assert_contains(&out, "harness.window_tokens");
    assert_contains(&out, "1..=100, default 100%");
    assert_contains(&out, "guards.entailment_gate");
}
