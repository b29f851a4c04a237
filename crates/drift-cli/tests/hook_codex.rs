//! `drift hook codex` as Codex runs it: a `SessionStart` hook with matcher
//! `compact`, its input and output as openai/codex's hook code defines them
//! (`codex-rs/hooks/src/events/session_start.rs`), on fixtures and on the
//! real Codex logs of `../shared/real-logs/` (read from there, never copied
//! here; skipped with a message when absent), and `--install` on
//! `.codex/hooks.json` in a temporary directory.

mod support;
use support::{
    TempDir, assert_contains, drift_in, formats, hook_context, json, quiet_hook_failure,
};

use std::path::{Path, PathBuf};

fn real_logs() -> Option<PathBuf> {
    let dir = std::env::var_os("DRIFT_REAL_LOGS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-logs"),
        PathBuf::from,
    );
    dir.join("SOURCES.md").is_file().then_some(dir)
}

/// The hook's input as Codex sends it: `SessionStartCommandInput`, every
/// field it has (Codex denies unknown ones on its side, and sends these).
fn input(transcript: serde_json::Value, source: &str) -> String {
    serde_json::json!({
        "session_id": "019e0000-0000-7000-8000-00000000c0de",
        "transcript_path": transcript,
        "cwd": "/home/dana/src/billing-infra",
        "hook_event_name": "SessionStart",
        "model": "gpt-5.5-codex",
        "permission_mode": "default",
        "source": source,
    })
    .to_string()
}

fn hook(args: &[&str], stdin: &str) -> support::Output {
    let mut all = vec!["hook", "codex"];
    all.extend_from_slice(args);
    drift_in(&all, stdin.as_bytes(), &formats(), &[])
}

/// The remote-compaction fixture, with the user's second message left out
/// of what the compaction kept in the clear: a rule only its encrypted
/// summary could carry.
fn remote_without_the_kept_ok(dir: &Path) -> PathBuf {
    let log =
        std::fs::read_to_string(formats().join("codex-envelope-remote-compact.jsonl")).unwrap();
    let mut out = String::new();
    for line in log.lines() {
        let mut v: serde_json::Value = serde_json::from_str(line).unwrap();
        if v["type"] == "compacted" {
            let kept = v["payload"]["replacement_history"].as_array_mut().unwrap();
            let before = kept.len();
            kept.retain(|item| !item.to_string().contains("wait for my OK"));
            assert_eq!(kept.len() + 1, before, "the fixture keeps the message");
        }
        out.push_str(&v.to_string());
        out.push('\n');
    }
    let path = dir.join("rollout.jsonl");
    std::fs::write(&path, out).unwrap();
    path
}

#[test]
fn an_encrypted_compaction_restates_what_it_may_have_lost() {
    // What the compaction kept in the clear holds every rule: nothing to say.
    let log = formats().join("codex-envelope-remote-compact.jsonl");
    let out = hook(&[], &input(log.display().to_string().into(), "compact"));
    assert_eq!(
        (out.code, out.stdout.as_str(), out.stderr.as_str()),
        (0, "", "")
    );
    // A rule only the encrypted summary could carry is restated as unknown.
    let dir = TempDir::new("codex-remote");
    let log = remote_without_the_kept_ok(dir.path());
    let out = hook(&[], &input(log.display().to_string().into(), "compact"));
    let text = hook_context(&out);
    assert_contains(
        &text,
        "nobody can read what its summary kept (the summary is encrypted), so it may have lost the 1 rule stated earlier",
    );
    assert_contains(
        &text,
        "[unknown: the summary is encrypted] the user, line 18, 2026-04-22T14:05:00.020Z:\nAlso: wait for my OK before deleting any namespace with more than 10 pods.",
    );
    assert!(!text.contains("preview-shared"), "kept verbatim: {text}");
}

#[test]
fn a_local_compaction_restates_only_what_it_lost() {
    // Local compaction keeps the recent user messages verbatim: what they
    // say is never restated.
    let log = formats().join("codex-envelope-local-compact.jsonl");
    let out = hook(&[], &input(log.display().to_string().into(), "compact"));
    assert_eq!(out.code, 0, "{}", out.stderr);
    if !out.stdout.is_empty() {
        let text = hook_context(&out);
        assert!(!text.contains("[unknown"), "{text}");
    }
}

#[test]
fn other_sources_and_events_print_nothing_and_fail_open() {
    let log = formats().join("codex-envelope-remote-compact.jsonl");
    for source in ["startup", "resume", "clear"] {
        let out = hook(&[], &input(log.display().to_string().into(), source));
        assert_eq!(
            (out.code, out.stdout.as_str(), out.stderr.as_str()),
            (0, "", "")
        );
    }
    // Codex sends a null transcript_path when it keeps no log.
    let out = hook(&[], &input(serde_json::Value::Null, "compact"));
    quiet_hook_failure(&out, &["transcript_path", "Codex CLI"]);
    // Registered for PreCompact by mistake.
    let pre = serde_json::json!({
        "session_id": "s", "turn_id": "t", "transcript_path": null, "cwd": "/",
        "hook_event_name": "PreCompact", "model": "m", "trigger": "auto",
    });
    let out = hook(&[], &pre.to_string());
    quiet_hook_failure(
        &out,
        &["PreCompact", "drift hook codex is a SessionStart hook"],
    );
    let out = hook(&[], "{ not json");
    quiet_hook_failure(&out, &["Codex CLI hook"]);
    let out = hook(&["--max-tokens", "zero"], "");
    quiet_hook_failure(&out, &["--max-tokens"]);
}

/// Every real Codex log that compacts: the hook answers as Codex accepts,
/// restates no tool output as a rule, and with `--tool-policy` restates the
/// policies tools printed, marked as such, word for word from the log.
#[test]
fn on_real_codex_logs_it_answers_as_codex_accepts() {
    let Some(dir) = real_logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let mut compacting = 0;
    let mut restated = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if !name.starts_with("codex-") || !name.ends_with(".jsonl") {
            continue;
        }
        let raw = std::fs::read_to_string(&path).unwrap_or_default();
        if !raw.contains("\"type\":\"compacted\"") {
            continue;
        }
        compacting += 1;
        let stdin = input(path.display().to_string().into(), "compact");
        let out = hook(&[], &stdin);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        assert_eq!(out.stderr, "", "{name}");
        if !out.stdout.is_empty() {
            let text = hook_context(&out);
            assert!(
                !text.contains("what a tool printed"),
                "{name}: a tool's output restated as a rule: {text}"
            );
        }
        let out = hook(&["--tool-policy"], &stdin);
        assert_eq!(out.code, 0, "{name}: {}", out.stderr);
        if out.stdout.is_empty() {
            continue;
        }
        let text = hook_context(&out);
        for block in text.split("\n\n[").skip(1) {
            let mut lines = block.lines();
            let (Some(who), Some(rule)) = (lines.next(), lines.next()) else {
                continue;
            };
            if who.contains("(what a tool printed") {
                // A tool's output can sit in the log JSON-escaped twice:
                // compare without quotes and backslashes.
                let bare = |s: &str| s.replace(['\\', '"'], "");
                assert!(
                    bare(&raw).contains(&bare(rule)),
                    "{name}: {rule:?} is not in the log"
                );
                restated += 1;
            }
        }
    }
    assert!(compacting >= 4, "{compacting} compacting Codex logs");
    assert!(
        restated > 0,
        "nothing restated with --tool-policy on any real Codex log"
    );
}

fn install(dir: &Path, args: &[&str], env: &[(&str, &str)]) -> support::Output {
    let mut all = vec!["hook", "codex", "--install"];
    all.extend_from_slice(args);
    let home = dir.join("home");
    let mut vars = vec![("HOME", home.to_str().unwrap())];
    vars.extend_from_slice(env);
    drift_in(&all, b"", dir, &vars)
}

#[test]
fn install_writes_codex_hooks_json_and_says_to_trust_it() {
    let dir = TempDir::new("install-codex");
    let out = install(dir.path(), &[], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let file = dir.path().join(".codex/hooks.json");
    assert!(!file.exists(), "nothing written without --write");
    assert_contains(&out.stdout, "Nothing written");
    let out = install(dir.path(), &["--write"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_contains(&out.stdout, "/hooks");
    let v = json(&std::fs::read_to_string(&file).unwrap());
    let group = &v["hooks"]["SessionStart"][0];
    assert_eq!(group["matcher"], "compact");
    let handler = &group["hooks"][0];
    assert_eq!(handler["type"], "command");
    assert!(
        handler["command"]
            .as_str()
            .unwrap()
            .ends_with(" hook codex"),
        "{handler}"
    );
    // Twice changes nothing.
    let again = install(dir.path(), &["--write"], &[]);
    assert_contains(&again.stdout, "already registered");
    // --user honours CODEX_HOME.
    let codex_home = dir.path().join("codex-home");
    let out = install(
        dir.path(),
        &["--user", "--write"],
        &[("CODEX_HOME", codex_home.to_str().unwrap())],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(codex_home.join("hooks.json").exists());
    let out = install(dir.path(), &["--user", "--write"], &[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(dir.path().join("home/.codex/hooks.json").exists());
}

#[test]
fn hook_help_is_the_hooks_own() {
    for args in [&["hook", "--help"][..], &["hook", "codex", "--help"][..]] {
        let out = drift_in(args, b"", &formats(), &[]);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert!(out.stdout.starts_with("drift hook: "), "{}", out.stdout);
        assert!(!out.stdout.contains("COMMANDS:"), "{}", out.stdout);
        assert_contains(&out.stdout, "PreCompact and PostCompact");
    }
    let out = drift_in(&["hook", "gemini"], b"", &formats(), &[]);
    quiet_hook_failure(&out, &["no hook for \"gemini\"", "claude-code and codex"]);
}
