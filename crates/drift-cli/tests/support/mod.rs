//! Running the `drift` binary as a user and a CI job do, for every test file
//! of this crate. (Each test file uses part of it.)
#![allow(dead_code)]

use std::io::Write as _;
use std::path::Path;
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// What one invocation produced.
#[derive(Debug)]
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// `drift args…` with piped standard streams, run in `dir`.
fn command(args: &[&str], dir: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_drift"));
    command
        .args(args)
        .current_dir(dir)
        .env("RUST_BACKTRACE", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    command
}

/// What `child` (drift run with `args`) wrote and its exit code, once it
/// finishes. Fails the test if drift panicked.
fn output(child: Child, args: &[&str]) -> Output {
    let out = child.wait_with_output().expect("drift finishes");
    let output = Output {
        code: out.status.code().expect("drift exits with a code"),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    };
    assert!(
        !output.stderr.contains("panicked") && !output.stderr.contains("stack backtrace"),
        "drift {args:?} panicked:\n{}",
        output.stderr
    );
    output
}

/// Runs `drift args…` from this crate's directory (so that fixture paths,
/// and the messages naming them, are `tests/fixtures/…`), feeding `stdin`.
/// Fails the test if drift panicked.
pub fn drift_with(args: &[&str], stdin: &[u8]) -> Output {
    let mut child = command(args, Path::new(env!("CARGO_MANIFEST_DIR")))
        .spawn()
        .expect("the drift binary runs");
    if let Some(mut pipe) = child.stdin.take() {
        pipe.write_all(stdin).expect("stdin takes the input");
    }
    output(child, args)
}

/// Runs `drift args…` in `dir`, with `env` set, feeding `stdin`. Fails the
/// test if drift panicked.
pub fn drift_in(args: &[&str], stdin: &[u8], dir: &Path, env: &[(&str, &str)]) -> Output {
    let mut child = command(args, dir)
        .envs(env.iter().copied())
        .spawn()
        .expect("the drift binary runs");
    if let Some(mut pipe) = child.stdin.take() {
        // A command that does not read stdin may close it first.
        let _ = pipe.write_all(stdin);
    }
    output(child, args)
}

/// A fresh empty directory for one test, removed when dropped.
pub struct TempDir(pub std::path::PathBuf);

impl TempDir {
    pub fn new(name: &str) -> TempDir {
        let dir = std::env::temp_dir().join(format!("drift-test-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("a temporary directory");
        TempDir(dir)
    }

    pub fn path(&self) -> &std::path::Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs `drift args…` with nothing on stdin.
pub fn drift(args: &[&str]) -> Output {
    drift_with(args, b"")
}

/// Runs `drift args…` and expects success with nothing on stderr.
pub fn succeeds(args: &[&str]) -> String {
    let out = drift(args);
    assert_eq!(out.code, 0, "drift {args:?}: {}", out.stderr);
    assert_eq!(out.stderr, "", "drift {args:?}");
    out.stdout
}

/// Runs `drift args…` feeding `stdin` and expects exit code 2, nothing on
/// stdout, and a message on stderr that starts with `drift: ` and whose
/// first line contains every string of `names`. Returns that line.
pub fn fails_with_code_2_given(args: &[&str], stdin: &[u8], names: &[&str]) -> String {
    let out = drift_with(args, stdin);
    assert_eq!(out.code, 2, "drift {args:?}:\n{}", out.stderr);
    assert_eq!(out.stdout, "", "drift {args:?}");
    assert!(out.stderr.starts_with("drift: "), "{}", out.stderr);
    let first = out.stderr.lines().next().unwrap_or_default().to_string();
    for name in names {
        assert!(first.contains(name), "{name:?} not in: {first}");
    }
    first
}

/// [`fails_with_code_2_given`] with nothing on stdin.
pub fn fails_with_code_2(args: &[&str], names: &[&str]) -> String {
    fails_with_code_2_given(args, b"", names)
}

/// Fails the test, showing `text`, unless `text` contains `part`.
#[track_caller]
pub fn assert_contains(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} is not in:\n{text}");
}

/// The string `key` of each item of the array `list`.
pub fn strings<'a>(list: &'a Value, key: &str) -> Vec<&'a str> {
    list.as_array()
        .expect("an array")
        .iter()
        .map(|item| item[key].as_str().expect("a string"))
        .collect()
}

/// [`fails_with_code_2`] for each case of `(args, names)`.
pub fn fails_with_code_2_each(cases: &[(&[&str], &[&str])]) {
    for (args, names) in cases {
        fails_with_code_2(args, names);
    }
}

/// `text` as JSON, or the test fails showing it.
pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}):\n{text}"))
}

/// The session logs of every format drift-session's tests read.
pub fn formats() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../drift-session/tests/transcripts/formats")
}

/// The additionalContext of a SessionStart hook's answer, after checking
/// it is what Claude Code and Codex both accept: exit 0, nothing on
/// stderr, one JSON object (and a newline) whose only key is
/// `hookSpecificOutput`, holding only `hookEventName` (`SessionStart`) and
/// `additionalContext`, within the 10,000 characters either passes on whole.
pub fn hook_context(out: &Output) -> String {
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stderr, "");
    assert!(out.stdout.ends_with('\n'));
    assert_eq!(out.stdout.lines().count(), 1, "one JSON object");
    let v = json(&out.stdout);
    let keys: Vec<&String> = v.as_object().expect("an object").keys().collect();
    assert_eq!(keys, ["hookSpecificOutput"], "{v}");
    let specific = v["hookSpecificOutput"].as_object().expect("an object");
    let mut inner: Vec<&String> = specific.keys().collect();
    inner.sort();
    assert_eq!(inner, ["additionalContext", "hookEventName"], "{v}");
    assert_eq!(specific["hookEventName"], "SessionStart");
    let text = specific["additionalContext"]
        .as_str()
        .expect("additionalContext is a string")
        .to_string();
    assert!(text.chars().count() <= 10_000, "{} characters", text.len());
    text
}

/// A hook that failed quietly: nothing on stdout, exit 0, one line on
/// stderr naming `names`.
pub fn quiet_hook_failure(out: &Output, names: &[&str]) {
    assert_eq!(out.code, 0, "a hook never exits otherwise: {}", out.stderr);
    assert_eq!(out.stdout, "");
    assert_eq!(out.stderr.lines().count(), 1, "{}", out.stderr);
    assert!(out.stderr.starts_with("drift hook: "), "{}", out.stderr);
    for n in names {
        assert!(out.stderr.contains(n), "{n:?} not in {}", out.stderr);
    }
}
