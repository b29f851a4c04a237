//! The labelled sets read, every label points where it should (into a log
//! that is there, at a compaction the reader finds), and `eval/SCORES.md`
//! holds what they measure: the verdict sets' tables always, the real
//! logs' (splits `dev`, `held_out` and `finder`) when the logs are there.
//! Reads the real logs from `../shared/real-logs/` (or `$DRIFT_REAL_LOGS`);
//! says so and passes when they are absent. With `DRIFT_WRITE_SCORES=1` it
//! writes its sections of `eval/SCORES.md` instead of checking them;
//! `cargo xtask eval --write-scores` writes the whole file.

use std::sync::OnceLock;

use drift_eval::files::{cases, real_logs, root, verdict_items};
use drift_eval::finder::{self, FinderScores};
use drift_eval::labels::Split;
use drift_eval::real::{self, Scores};
use drift_eval::scores_file::{self, FILE};
use drift_eval::{scores, verdicts, view};

/// The real logs measured once for every test here.
struct Measured {
    logs: usize,
    /// Label files whose log is not there.
    missing: Vec<String>,
    dev: Scores,
    held_out: Scores,
    finder: FinderScores,
}

/// The labelled real logs scored (with their misses), or `None` without
/// the logs.
fn measured() -> Option<&'static Measured> {
    static MEASURED: OnceLock<Option<Measured>> = OnceLock::new();
    MEASURED
        .get_or_init(|| {
            let logs = real_logs()?;
            let (cases, missing) =
                cases(&root().join("eval/real"), &logs).expect("the labels read");
            Some(Measured {
                logs: cases.len(),
                missing,
                dev: real::score(&cases, Split::Dev, true),
                held_out: real::score(&cases, Split::HeldOut, true),
                finder: finder::score(&cases, Split::Finder, false),
            })
        })
        .as_ref()
}

const NO_LOGS: &str = "skipped: no real logs at ../shared/real-logs (or $DRIFT_REAL_LOGS)";

#[test]
fn every_label_points_into_its_log() {
    let Some(m) = measured() else {
        eprintln!("{NO_LOGS}");
        return;
    };
    assert!(
        m.missing.is_empty(),
        "labelled logs not found: {:?}",
        m.missing
    );
    assert!(m.logs >= 60, "{} labelled logs", m.logs);
    let mut compactions = 0;
    for scores in [&m.dev, &m.held_out] {
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
    let whole = &m.finder;
    assert!(
        whole.stale.is_empty(),
        "anchors that no longer decode: {:?}",
        whole.stale
    );
    assert!(whole.logs >= 60, "{} logs labelled whole", whole.logs);
    assert!(whole.user.labelled + whole.brief.labelled >= 100);
}

/// Holds section `name` of `eval/SCORES.md` to `text` (writes it with
/// `DRIFT_WRITE_SCORES` set).
fn hold((name, text): (&str, String)) {
    if let Err(e) = scores_file::hold(&root(), name, &text, scores_file::writing()) {
        panic!("{e}");
    }
}

#[test]
fn the_verdict_sets_match_eval_scores() {
    for split in [Split::Dev, Split::HeldOut] {
        let items = verdict_items(&root().join("eval/verdicts"), split).expect("the items read");
        assert!(!items.is_empty(), "no verdict items for {}", split.id());
        hold(scores::verdicts(
            &verdicts::score(&items, view::judge),
            split,
        ));
    }
}

#[test]
fn the_real_logs_match_eval_scores() {
    let Some(m) = measured() else {
        eprintln!("{NO_LOGS}, so {FILE}'s real-log sections are not checked");
        return;
    };
    if !m.missing.is_empty() {
        eprintln!(
            "skipped: {} labelled logs are not there, so {FILE}'s real-log sections are not checked",
            m.missing.len()
        );
        return;
    }
    assert!(m.finder.stale.is_empty(), "anchors that no longer decode");
    hold(scores::finder(&m.finder));
    for (s, split) in [(&m.dev, Split::Dev), (&m.held_out, Split::HeldOut)] {
        assert!(s.stale.is_empty(), "anchors that no longer decode");
        hold(scores::real(s, split));
    }
}
