//! The trained finder measured across people: k-fold by repository. Every
//! person's logs are read by a model trained on the other folds' people
//! only (and the rule corpus), so no log is scored by a model that learned
//! from its person; figures are summed over the folds. The frozen group is
//! neither trained on nor scored here.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use drift_session::judge::FateJudge;
use drift_session::judge::model::JudgeModel;
use drift_session::rules::model::{Model, ModelFinder};

use crate::judging::{self, JudgeExample};
use crate::labels::{By, People};
use crate::real::Case;
use crate::train::{self, Example, Settings};

/// How many folds.
pub const FOLDS: usize = 5;

/// The fold of every person (repository) not frozen among `cases`.
pub fn person_folds(cases: &[&Case], k: usize) -> BTreeMap<u32, usize> {
    let mut rules: BTreeMap<u32, usize> = BTreeMap::new();
    for c in cases {
        if c.labels.split.people() == People::Frozen {
            continue;
        }
        let n = c.labels.rules.iter().filter(|r| r.by == By::User).count();
        *rules.entry(c.labels.repo.unwrap_or(0)).or_default() += n;
    }
    train::folds(&rules, k)
}

/// The logs of `cases` whose person is not frozen: who a fold may learn
/// from.
fn open<'c>(cases: &[&'c Case]) -> Vec<&'c Case> {
    cases
        .iter()
        .copied()
        .filter(|c| c.labels.split.people() != People::Frozen)
        .collect()
}

/// One model per fold, each trained on every other fold's people: the
/// rule finder's and the judge's.
#[derive(Debug)]
pub struct Folds {
    /// Each person's fold.
    of: BTreeMap<u32, usize>,
    /// Each fold's rule finder, as bytes.
    models: Vec<Vec<u8>>,
    /// Each fold's judge, as bytes.
    judges: Vec<Vec<u8>>,
}

impl Folds {
    /// The [`FOLDS`] models of `cases`' people (the frozen group left
    /// out), each trained on the others: the finder's with the rule
    /// corpus, the judge's with `judged` (every judge item of every person
    /// not frozen and of none, [`crate::judging`]).
    pub fn train(
        cases: &[&Case],
        corpus: &[crate::corpus::Document],
        settings: Settings,
        judged: &[JudgeExample],
    ) -> Folds {
        let mut folds = Folds::train_judges(cases, judged);
        let examples = train::dataset(&open(cases), corpus);
        folds.models = fold_models(&examples, &folds.of, FOLDS, settings);
        folds
    }

    /// The judge's [`FOLDS`] models alone (the finder of every fold finds
    /// nothing): for measuring the judge by itself.
    pub fn train_judges(cases: &[&Case], judged: &[JudgeExample]) -> Folds {
        let of = person_folds(&open(cases), FOLDS);
        Folds {
            models: Vec::new(),
            judges: judge_models(judged, &of),
            of,
        }
    }

    /// The judge that reads `repo`'s pairs and compactions: its fold's,
    /// which never learned from that person (a judge that calls every rule
    /// dropped for a person in no fold).
    pub fn judge(&self, repo: Option<u32>) -> FateJudge<'_> {
        let model = repo
            .and_then(|r| self.of.get(&r))
            .and_then(|&f| self.judges.get(f))
            .and_then(|b| JudgeModel::from_bytes(b).ok())
            .unwrap_or_else(|| JudgeModel::empty());
        FateJudge::new(model)
    }

    /// How many folds.
    pub fn k(&self) -> usize {
        self.models.len()
    }

    /// The finder that reads `case`: the model of its person's fold, which
    /// never learned from that person (a model that finds nothing for a
    /// person in no fold: the frozen group).
    pub fn finder(&self, case: &Case) -> ModelFinder<'_> {
        let model = self
            .of
            .get(&case.labels.repo.unwrap_or(0))
            .and_then(|&f| self.models.get(f))
            .and_then(|b| Model::from_bytes(b).ok())
            .unwrap_or_else(|| Model::empty());
        ModelFinder { model }
    }
}

/// Each fold's judge, trained on the other folds' people and the items of
/// no person.
fn judge_models(judged: &[JudgeExample], of: &BTreeMap<u32, usize>) -> Vec<Vec<u8>> {
    (0..FOLDS)
        .map(|f| {
            let train: Vec<&JudgeExample> = judged
                .iter()
                .filter(|e| match e.repo {
                    None => true,
                    Some(r) => of.get(&r).is_some_and(|&g| g != f),
                })
                .collect();
            judging::train(&train, 0, judging::SETTINGS).to_bytes()
        })
        .collect()
}

/// Each fold's model, trained on the others (`examples` from every
/// person not frozen).
pub fn fold_models(
    examples: &[Example],
    folds: &BTreeMap<u32, usize>,
    k: usize,
    settings: Settings,
) -> Vec<Vec<u8>> {
    (0..k)
        .map(|f| {
            // A group in no fold (the rule corpus) is always learned from.
            let train: Vec<&Example> = examples
                .iter()
                .filter(|e| folds.get(&e.repo).is_none_or(|&g| g != f))
                .collect();
            train::train(&train, 0, settings).to_bytes()
        })
        .collect()
}
