//! The labelled sets read, every label points where it should (into a log
//! that is there, at a compaction the reader finds), every person is in one
//! split, and `eval/SCORES.md` holds what they measure: the verdict sets'
//! tables always, the real logs' (across people, in-sample, and the two
//! readers compared) when the logs are there. The frozen group's figures
//! are never measured here: that is done once, at the end of each change to
//! the finder or the judge. Reads the real logs from `../shared/real-logs/`
//! (or `$DRIFT_REAL_LOGS`); says so and passes when they are absent. With
//! `DRIFT_WRITE_SCORES=1` it writes its sections of `eval/SCORES.md`
//! instead of checking them; `cargo xtask eval --write-scores` writes the
//! whole file.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use drift_eval::agreement::{self, Agreement};
use drift_eval::cv::Folds;
use drift_eval::files::{cases, corpus, judge_items, labels, real_logs, root, verdict_items};
use drift_eval::labels::{LogLabels, People};
use drift_eval::real::Case;
use drift_eval::scores::{Figure, Measured};
use drift_eval::scores_file::{self, FILE};
use drift_eval::train::Settings;
use drift_eval::verdicts::VerdictSet;
use drift_eval::{judging, scores, verdicts, view};
use drift_session::judge::FateJudge;

/// The real logs measured once for every test here.
struct Logs {
    cases: Vec<Case>,
    /// Label files whose log is not there.
    missing: Vec<String>,
    /// Every figure but the frozen group's.
    measured: Vec<Measured>,
    /// The judge across people, on the written pairs and the real fates.
    judge: judging::PairScores,
    /// Written pairs whose rule cannot be read.
    stale_pairs: Vec<String>,
    second: Agreement,
}

/// The labelled real logs scored, or `None` without the logs: across
/// people (each person read by a model trained without them, as `cargo
/// xtask eval` trains it) and in-sample (the shipped model).
fn measured() -> Option<&'static Logs> {
    static MEASURED: OnceLock<Option<Logs>> = OnceLock::new();
    MEASURED
        .get_or_init(|| {
            let logs = real_logs()?;
            let (cases, missing) =
                cases(&root().join("eval/real"), &logs).expect("the labels read");
            let all: Vec<&Case> = cases.iter().collect();
            let (judged, stale_pairs) = judge_items(&cases).expect("the written pairs read");
            let learned = judging::learned(&judged);
            let folds = Folds::train(
                &all,
                &corpus().expect("the rule corpus reads"),
                Settings::default(),
                &judging::examples(&learned),
            );
            let judge = scores::judge_across(&learned, &folds, false);
            let figures = [Figure::Across, Figure::AcrossUntuned, Figure::InSample];
            let measured = scores::measure(&cases, &folds, &figures, false);
            let second: Vec<LogLabels> = labels(&root().join("eval/second"))
                .expect("the second reader's labels read")
                .iter()
                .map(|(shown, text)| LogLabels::parse(shown, text).expect("a label file"))
                .collect();
            let second = agreement::compare(&cases, &second);
            Some(Logs {
                cases,
                missing,
                measured,
                judge,
                stale_pairs,
                second,
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
    assert!(m.cases.len() >= 230, "{} labelled logs", m.cases.len());
    // Every anchor decodes, and every labelled compaction is one the
    // reader finds: the frozen group's too (read, never scored here).
    let mut stale = Vec::new();
    let mut lost = Vec::new();
    let mut compactions = 0;
    for c in &m.cases {
        let lines = c.lines();
        let anchors = c
            .labels
            .rules
            .iter()
            .map(|r| r.anchor)
            .chain(c.labels.nonrules.iter().map(|n| n.anchor))
            .chain(c.labels.invented.iter().map(|i| i.anchor));
        for a in anchors {
            if let Err(e) = a.decode(&lines) {
                stale.push(format!("{}: {e}", c.labels.file));
            }
        }
        for &(n, line) in &c.labels.compactions {
            compactions += 1;
            if !c.transcript.summaries().any(|s| s.record == line) {
                lost.push(format!("{} #{n} (line {line})", c.name));
            }
        }
    }
    assert!(stale.is_empty(), "anchors that no longer decode: {stale:?}");
    assert!(
        lost.is_empty(),
        "labelled compactions the reader misses: {lost:?}"
    );
    assert!(compactions >= 200, "{compactions} labelled compactions");
    for f in &m.measured {
        assert!(f.finder.stale.is_empty(), "{:?}", f.finder.stale);
    }
    let whole: usize = m
        .measured
        .iter()
        .filter(|f| f.figure == Figure::Across)
        .map(|f| f.finder.user.labelled + f.finder.brief.labelled)
        .sum();
    assert!(
        whole >= 400,
        "{whole} rules of the user's and briefs labelled"
    );
}

#[test]
fn every_person_is_in_one_group_and_a_fifth_are_frozen() {
    let Some(m) = measured() else {
        eprintln!("{NO_LOGS}");
        return;
    };
    // The splits `dev`, `held_out` and `finder` were drawn by log before
    // the labels were split by person; all three are the people the
    // hand-written parts were tuned on, so a person may be in several of
    // them, but in one group of people only.
    let mut groups: BTreeMap<u32, BTreeSet<People>> = BTreeMap::new();
    for c in &m.cases {
        let repo = c
            .labels
            .repo
            .unwrap_or_else(|| panic!("{}: no `repo` line", c.labels.file));
        groups
            .entry(repo)
            .or_default()
            .insert(c.labels.split.people());
    }
    let split_people: Vec<_> = groups.iter().filter(|(_, g)| g.len() > 1).collect();
    assert!(
        split_people.is_empty(),
        "people whose logs are in more than one group: {split_people:?}"
    );
    let count = |p: People| groups.values().filter(|g| g.contains(&p)).count();
    let frozen = count(People::Frozen);
    assert!(
        frozen * 5 >= groups.len(),
        "{frozen} of {} people frozen",
        groups.len()
    );
    assert!(
        count(People::Unseen) >= 5,
        "{} people unseen",
        count(People::Unseen)
    );
}

#[test]
fn two_readers_compared() {
    let Some(m) = measured() else {
        eprintln!("{NO_LOGS}");
        return;
    };
    let a = &m.second;
    assert!(a.stale.is_empty(), "{:?}", a.stale);
    assert!(
        a.logs >= 20 && a.repos >= 10,
        "{} logs of {} people read twice",
        a.logs,
        a.repos
    );
}

/// Holds section `name` of `eval/SCORES.md` to `text` (writes it with
/// `DRIFT_WRITE_SCORES` set).
fn hold((name, text): (String, String)) {
    if let Err(e) = scores_file::hold(&root(), &name, &text, scores_file::writing()) {
        panic!("{e}");
    }
}

#[test]
fn the_verdict_sets_match_eval_scores() {
    for set in VerdictSet::ALL {
        let items = verdict_items(&root().join("eval/verdicts"), set).expect("the items read");
        assert!(!items.is_empty(), "no verdict items for {}", set.id());
        let judge = FateJudge::shipped();
        let s = verdicts::score(&items, |rule, after| view::judge(&judge, rule, after));
        hold(scores::verdicts(&s, set));
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
    for f in &m.measured {
        assert!(f.real.stale.is_empty(), "anchors that no longer decode");
        hold(scores::finder(&f.finder, f.figure));
        hold(scores::real(&f.real, f.figure));
    }
    assert!(
        m.stale_pairs.is_empty(),
        "written pairs whose rule cannot be read: {:?}",
        m.stale_pairs
    );
    hold(scores::judge_pairs(&m.judge, Figure::Across));
    hold(scores::agreement(&m.second));
}
