//! The trained finder measured across people: k-fold by repository. Every
//! person's logs are read by a model trained on the other folds' people
//! only (and the rule corpus), so no log is scored by a model that learned
//! from its person; figures are summed over the folds. The frozen group is
//! neither trained on nor scored here.

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use drift_session::rules::model::{Model, ModelFinder};

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

/// One model per fold, each trained on every other fold's people.
#[derive(Debug)]
pub struct Folds {
    /// Each person's fold.
    of: BTreeMap<u32, usize>,
    /// Each fold's model, as bytes.
    models: Vec<Vec<u8>>,
}

impl Folds {
    /// The [`FOLDS`] models of `cases`' people (the frozen group left
    /// out), each trained on the others and the rule corpus.
    pub fn train(cases: &[&Case], corpus: &[crate::corpus::Document], settings: Settings) -> Folds {
        let open: Vec<&Case> = cases
            .iter()
            .copied()
            .filter(|c| c.labels.split.people() != People::Frozen)
            .collect();
        let of = person_folds(&open, FOLDS);
        let examples = train::dataset(&open, corpus);
        Folds {
            models: fold_models(&examples, &of, FOLDS, settings),
            of,
        }
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
