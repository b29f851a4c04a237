//! A session read once gives what reading it for each use gives: the
//! import and the session audit of a `Session` are those of the transcript,
//! on every fixture and on every real log in `../shared/real-logs/` (read
//! from there, never copied here; the test says when it skipped them).

use std::path::{Path, PathBuf};

use drift_session::{ImportOptions, Session, audit_session, import, read_transcript};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else if p
            .extension()
            .is_some_and(|x| x == "jsonl" || x == "json" || x == "txt")
        {
            out.push(p);
        }
    }
}

fn same_as_read_apart(path: &Path) -> bool {
    let Ok(text) = std::fs::read_to_string(path) else {
        return false;
    };
    let Ok(transcript) = read_transcript(&text) else {
        return false;
    };
    let session = Session::read(&text).expect("it read apart");
    assert_eq!(session.transcript, transcript, "{}", path.display());
    let options = ImportOptions::default();
    assert_eq!(
        session.import(&options),
        import(&transcript, &options),
        "{}",
        path.display()
    );
    assert_eq!(
        session.audit(),
        audit_session(&transcript),
        "{}",
        path.display()
    );
    true
}

#[test]
fn a_fixture_session_imports_and_audits_as_its_transcript_does() {
    let mut all = Vec::new();
    files(
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts"),
        &mut all,
    );
    let read = all.iter().filter(|p| same_as_read_apart(p)).count();
    assert!(read >= 10, "only {read} fixtures read as transcripts");
}

#[test]
fn a_real_session_imports_and_audits_as_its_transcript_does() {
    let dir = std::env::var_os("DRIFT_REAL_LOGS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-logs"),
        PathBuf::from,
    );
    if !dir.is_dir() {
        eprintln!("skipped: no real logs at {}", dir.display());
        return;
    }
    let mut all = Vec::new();
    files(&dir, &mut all);
    let read = all.iter().filter(|p| same_as_read_apart(p)).count();
    assert!(read >= 100, "only {read} real logs read as transcripts");
}
