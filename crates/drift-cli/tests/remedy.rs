//! `drift remedy`: each harness's change as text to paste (snapshots), the
//! JSON form, where the rules come from, and bad input.

mod support;
use support::{assert_contains, drift_in, fails_with_code_2_each, json, strings};

use std::path::Path;

/// Runs `drift remedy args…` from this crate's directory with a fixed HOME,
/// and puts `[drift]` for the path of the drift under test, so that the
/// text does not depend on the machine.
fn remedy(args: &[&str]) -> support::Output {
    let mut all = vec!["remedy"];
    all.extend_from_slice(args);
    let mut out = drift_in(
        &all,
        b"",
        Path::new(env!("CARGO_MANIFEST_DIR")),
        &[("HOME", "/home/you")],
    );
    let exe = std::fs::canonicalize(env!("CARGO_BIN_EXE_drift"))
        .unwrap()
        .display()
        .to_string();
    out.stdout = out.stdout.replace(&exe, "[drift]");
    out
}

fn succeeds(args: &[&str]) -> String {
    let out = remedy(args);
    assert_eq!(out.code, 0, "drift remedy {args:?}: {}", out.stderr);
    assert_eq!(out.stderr, "");
    out.stdout
}

const FORMATS: &str = "../drift-session/tests/transcripts/formats";

/// One test per harness (named after it): `drift remedy SCENARIO --harness
/// HARNESS`, its text snapshotted as `remedy_HARNESS`.
macro_rules! remedy_snapshots {
    ($($harness:ident on $scenario:literal;)*) => {$(
        #[test]
        fn $harness() {
            let out = succeeds(&[$scenario, "--harness", stringify!($harness)]);
            insta::assert_snapshot!(concat!("remedy_", stringify!($harness)), out);
        }
    )*};
}

remedy_snapshots! {
    claude_code on "payments-incident";
    openai_compact on "payments-incident";
    openhands_summarizing on "staging-migration";
    openhands_masking on "coding-day";
    letta_sliding on "payments-incident";
    deepagents on "payments-incident";
    opencode on "coding-day";
}

#[test]
fn codex_cli() {
    let out = succeeds(&["payments-incident", "--harness", "codex_cli"]);
    assert!(out.contains("only when it compacts locally"));
    assert!(
        out.contains("experimental_compact_prompt_file = \"/home/you/.codex/compact-prompt.md\"")
    );
    insta::assert_snapshot!("remedy_codex_cli", out);
}

/// Without --harness, the scenario's policy names it (coding-day runs
/// under claude_code).
#[test]
fn the_policy_names_the_harness() {
    let out = succeeds(&["coding-day"]);
    assert!(
        out.starts_with("drift remedy: scenario \"coding-day\" under Claude Code (claude_code)")
    );
}

#[test]
fn a_claude_code_log() {
    let log = format!("{FORMATS}/claude-code-2.1.jsonl");
    let out = succeeds(&[&log]);
    assert!(out.contains("under Claude Code (claude_code)"));
    insta::assert_snapshot!("remedy_claude_code_log", out);
}

#[test]
fn a_codex_log() {
    let log = format!("{FORMATS}/codex-envelope-local-compact.jsonl");
    let out = succeeds(&[&log]);
    assert!(out.contains("under Codex CLI (codex_cli)"));
    // A runbook the agent printed is data: its rule is carried only when
    // asked for, with its source.
    let rule = "Never drain nodes during the 14:00-15:00 UTC billing batch window.";
    assert!(!out.contains(rule), "{out}");
    let asked = succeeds(&[&log, "--tool-policy"]);
    assert_contains(&asked, &format!("- {rule}\n"));
    insta::assert_snapshot!("remedy_codex_log", out);
}

#[test]
fn every_harness_cites_its_sources_in_json() {
    for h in [
        "claude_code",
        "codex_cli",
        "openai_compact",
        "openhands_summarizing",
        "openhands_masking",
        "letta_sliding",
        "deepagents",
        "opencode",
    ] {
        let out = succeeds(&["coding-day", "--harness", h, "--format", "json"]);
        let v = json(&out);
        assert_eq!(v["format"], "compaction-drift/remedy@1");
        assert_eq!(v["harness"]["id"], h);
        assert_eq!(v["source"]["kind"], "scenario");
        let remedies = v["remedies"].as_array().unwrap();
        assert!(!remedies.is_empty(), "{h}");
        for r in remedies {
            assert!(!r["sources"].as_array().unwrap().is_empty(), "{h}: {r}");
            assert!(!r["paste"].as_array().unwrap().is_empty(), "{h}: {r}");
            let model = &r["model"];
            assert!(
                model["failing_with"].as_u64() <= model["failing_without"].as_u64()
                    || r["id"] == "keep_first",
                "{h}: {model}"
            );
            assert!(!model["modelled"].as_array().unwrap().is_empty());
        }
        // Each rule listed appears word for word in every paste.
        for rule in v["rules"].as_array().unwrap() {
            let text = rule["text"].as_str().unwrap();
            for r in remedies {
                if r["id"] == "restate_hook" || r["id"] == "keep_first" {
                    continue;
                }
                let pasted: String = r["paste"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|p| p["text"].as_str().unwrap().to_string())
                    .collect();
                let literal = serde_json::Value::from(text).to_string();
                assert!(
                    pasted.contains(text) || pasted.contains(&literal),
                    "{h} {}: {text}",
                    r["id"]
                );
            }
        }
    }
}

#[test]
fn a_log_in_json_lists_what_its_compactions_lost() {
    let log = format!("{FORMATS}/claude-code-2.1.jsonl");
    let v = json(&succeeds(&[&log, "--format", "json"]));
    assert_eq!(v["source"]["kind"], "log");
    let rules = strings(&v["rules"], "text");
    assert!(rules.contains(&"Post in #prod-changes before you cordon anything."));
    assert!(
        rules.contains(&"Rename it to ledger_archive_2023_deprecated, on billing-replica-2 only.")
    );
    let runbook = "Never drain billing-pool-1: it runs the settlement cron.";
    assert!(!rules.contains(&runbook));
    let asked = json(&succeeds(&[&log, "--format", "json", "--tool-policy"]));
    assert!(strings(&asked["rules"], "text").contains(&runbook));
    assert!(
        v["remedies"][0]["model"].is_null(),
        "a log is not simulated"
    );
}

/// Behind an encrypted compaction, what the summary kept cannot be read: a
/// policy a tool returned (which the compaction does not keep verbatim) is
/// carried when asked for, and says why.
#[test]
fn an_encrypted_compaction_carries_what_it_may_have_lost() {
    let out = succeeds(&[
        "tests/fixtures/remedy/encrypted-compaction.json",
        "--tool-policy",
    ]);
    assert_contains(&out, "under OpenAI compact (openai_compact)");
    assert_contains(
        &out,
        "      \"Never deploy payments-api before the quarter-end freeze lifts on 2026-01-05.\"\n      unknown: the summary is encrypted",
    );
    assert_contains(&out, "instructions=RULES");
}

#[test]
fn nothing_to_carry() {
    let out = succeeds(&["planning-scratchpad", "--harness", "claude_code"]);
    assert_contains(&out, "nothing to carry");
    let out = succeeds(&[
        "tests/fixtures/audit/plain-before.txt",
        "--harness",
        "deepagents",
    ]);
    assert_contains(&out, "The log records no compaction: nothing to carry.");
}

#[test]
fn bad_input_exits_2_naming_it() {
    fails_with_code_2_each(&[
        (
            &["remedy", "payments-incident"],
            &["payments-incident", "pinned_prefix", "--harness"],
        ),
        (
            &["remedy", "payments-incident", "--harness", "pinned_prefix"],
            &["--harness pinned_prefix", "opencode"],
        ),
        (&["remedy", "no-such-thing"], &["no-such-thing"]),
        (
            &[
                "remedy",
                "tests/fixtures/invalid-kind.json",
                "--harness",
                "claude_code",
            ],
            &["tests/fixtures/invalid-kind.json"],
        ),
        (
            &["remedy", "tests/fixtures/audit/plain-before.txt"],
            &["plain text names no harness"],
        ),
        (&["remedy"], &["remedy takes one"]),
        (
            &["run", "payments-incident", "--harness", "claude_code"],
            &["--harness belongs to drift remedy"],
        ),
    ]);
}
