//! The labelled sets read, and every label points where it should: into a
//! log that is there, at a compaction the reader finds. Reads the real logs
//! from `../shared/real-logs/` (or `$DRIFT_REAL_LOGS`); says so and passes
//! when they are absent.

use drift_eval::files::{cases, real_logs, root};
use drift_eval::labels::Split;
use drift_eval::{finder, real};

#[test]
fn every_label_points_into_its_log() {
    let Some(logs) = real_logs() else {
        eprintln!("skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)");
        return;
    };
    let (cases, missing) = cases(&root().join("eval/real"), &logs).expect("the labels read");
    assert!(missing.is_empty(), "labelled logs not found: {missing:?}");
    assert!(cases.len() >= 60, "{} labelled logs", cases.len());
    let mut compactions = 0;
    for split in [Split::Dev, Split::HeldOut] {
        let scores = real::score(&cases, split, true);
        assert!(
            scores.stale.is_empty(),
            "anchors that no longer decode: {:?}",
            scores.stale
        );
        let lost: Vec<String> = scores
            .misses
            .iter()
            .filter(|m| m.what == "compaction not found")
            .map(|m| format!("{} #{}", m.log, m.compaction))
            .collect();
        assert!(
            lost.is_empty(),
            "labelled compactions the reader misses: {lost:?}"
        );
        compactions += scores.compactions;
    }
    assert!(compactions >= 60, "{compactions} labelled compactions");
    // The finder's set: whole logs, every typed rule labelled.
    let whole = finder::score(&cases, Split::Finder, false);
    assert!(
        whole.stale.is_empty(),
        "anchors that no longer decode: {:?}",
        whole.stale
    );
    assert!(whole.logs >= 60, "{} logs labelled whole", whole.logs);
    assert!(whole.user.labelled + whole.brief.labelled >= 100);
}
