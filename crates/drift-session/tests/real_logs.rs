//! Every real log in `../shared/real-logs/` (sessions people committed to
//! public repositories; see its `SOURCES.md`) reads, and every compaction
//! its row in `SOURCES.md` counts is found: summaries and Claude Code's
//! microcompactions. The logs are read from there, never copied here; the
//! test says it skipped when they are absent.

use std::path::PathBuf;

use drift_session::{read_transcript, transcript::CompactionKind};

fn logs() -> Option<PathBuf> {
    let dir = std::env::var_os("DRIFT_REAL_LOGS").map_or_else(
        || PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/real-logs"),
        PathBuf::from,
    );
    dir.join("SOURCES.md").is_file().then_some(dir)
}

/// A row of `SOURCES.md`: the file, its compactions, its microcompactions.
fn rows(sources: &str) -> Vec<(String, usize, usize)> {
    sources
        .lines()
        .filter(|l| l.starts_with("| ") && l.contains(".json"))
        .filter_map(|l| {
            let cells: Vec<&str> = l.split('|').map(str::trim).collect();
            let file = cells.get(1)?.to_string();
            let comp = cells.get(8)?.parse().ok()?;
            // Claude Code rows count `cb/ics/summ/micro`; the others have
            // no microcompaction.
            let counts = cells.get(9)?;
            let micro = if counts.contains('/') {
                counts.split('/').nth(3)?.parse().ok()?
            } else {
                0
            };
            Some((file, comp, micro))
        })
        .collect()
}

#[test]
fn every_real_log_reads_and_every_compaction_is_found() {
    let Some(dir) = logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let sources = std::fs::read_to_string(dir.join("SOURCES.md")).expect("SOURCES.md reads");
    let rows = rows(&sources);
    assert!(rows.len() >= 180, "{} rows in SOURCES.md", rows.len());
    let mut wrong = Vec::new();
    for (file, comp, micro) in &rows {
        let text =
            std::fs::read_to_string(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        match read_transcript(&text) {
            Ok(t) => {
                let summaries = t
                    .compactions
                    .iter()
                    .filter(|c| c.kind == CompactionKind::Summary)
                    .count();
                let cleared = t.compactions.len() - summaries;
                if (summaries, cleared) != (*comp, *micro) {
                    wrong.push(format!(
                        "{file}: {summaries} compactions and {cleared} microcompactions, SOURCES.md says {comp} and {micro}"
                    ));
                }
            }
            // A log with nothing but a title or where a session came from
            // holds no conversation, and says so.
            Err(e) if e.to_string().contains("no conversation") && *comp == 0 => {}
            Err(e) => wrong.push(format!("{file}: {e}")),
        }
    }
    assert!(wrong.is_empty(), "{}", wrong.join("\n"));
}
