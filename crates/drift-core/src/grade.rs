//! Grading an action against the facts that govern it (docs/MODEL.md §5).

use alloc::vec::Vec;
use core::fmt;

use crate::ids::Ids;
use crate::round::{Course, Decay, FactState};
use crate::scenario::{Action, Fact, IndexedAction, Resource};

/// How an action ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Outcome {
    /// Every governing fact verbatim.
    Governed,
    /// Every governing fact still actionable, some degraded.
    WeaklyGoverned,
    /// Some governing fact no longer actionable: the rule was not in force.
    Ungoverned,
    /// Acted on the wrong resource.
    Misbound,
    /// A guard stopped it loudly.
    Refused,
    /// The window overflowed before it.
    NotReached,
}

impl Outcome {
    /// Every outcome, best first for display.
    pub const ALL: [Outcome; 6] = [
        Outcome::Governed,
        Outcome::WeaklyGoverned,
        Outcome::Refused,
        Outcome::Ungoverned,
        Outcome::Misbound,
        Outcome::NotReached,
    ];

    /// The identifier used in results.
    pub const fn id(self) -> &'static str {
        match self {
            Outcome::Governed => "governed",
            Outcome::WeaklyGoverned => "weakly_governed",
            Outcome::Ungoverned => "ungoverned",
            Outcome::Misbound => "misbound",
            Outcome::Refused => "refused",
            Outcome::NotReached => "not_reached",
        }
    }

    /// The word shown to people.
    pub const fn label(self) -> &'static str {
        match self {
            Outcome::Governed => "governed",
            Outcome::WeaklyGoverned => "weakly governed",
            Outcome::Ungoverned => "ungoverned",
            Outcome::Misbound => "misbound",
            Outcome::Refused => "refused",
            Outcome::NotReached => "not reached",
        }
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<Outcome> {
        Outcome::ALL.into_iter().find(|o| o.id() == id)
    }

    /// How good the outcome is, for the model's invariants: governed (4) >
    /// weakly governed (3) > refused (2) > ungoverned (1) > misbound (0).
    /// `not_reached` does not depend on facts and ranks `None`.
    pub const fn rank(self) -> Option<u8> {
        match self {
            Outcome::Governed => Some(4),
            Outcome::WeaklyGoverned => Some(3),
            Outcome::Refused => Some(2),
            Outcome::Ungoverned => Some(1),
            Outcome::Misbound => Some(0),
            Outcome::NotReached => None,
        }
    }

    /// Whether `drift check` fails on it: the action ran without its rule,
    /// on the wrong resource, or not at all.
    pub const fn is_failure(self) -> bool {
        matches!(
            self,
            Outcome::Ungoverned | Outcome::Misbound | Outcome::NotReached
        )
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// Why an action was not simply graded by its fidelity.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Reason {
    /// Graded by fidelity alone.
    None,
    /// The session overflowed first.
    Overflow,
    /// Its target binding was not actionable and `verify_bindings` refused it.
    BindingUnconfirmed,
    /// Irreversible, with a governing fact only a summary vouches for.
    UnverifiedPremise,
    /// The bare phrase resolved to another resource.
    Misbound,
}

impl Reason {
    /// The identifier used in results (empty for [`Reason::None`]).
    pub const fn id(self) -> &'static str {
        match self {
            Reason::None => "",
            Reason::Overflow => "overflow",
            Reason::BindingUnconfirmed => "binding_unconfirmed",
            Reason::UnverifiedPremise => "unverified_premise",
            Reason::Misbound => "misbound",
        }
    }
}

/// The grade of one action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionOutcome {
    /// How it ran.
    pub outcome: Outcome,
    /// Why, when not by fidelity alone.
    pub reason: Reason,
    /// The lowest effective fidelity among its governing facts (0 when not reached).
    pub fidelity: f64,
    /// `1 - prod(1 - p)` over governing facts it still sees (0 when not reached).
    pub fabrication_risk: f64,
    /// Index into the scenario's resources of what its target resolved to.
    pub resolved_resource: Option<usize>,
    /// How many rounds happened before it.
    pub rounds_before: u32,
}

/// Resources grouped by class, each with its mentions sorted, for resolving
/// a bare phrase to the most salient resource.
#[derive(Debug)]
pub(crate) struct Salience {
    class_of: Vec<usize>,
    classes: Vec<Vec<usize>>,
    mentions: Vec<Vec<u32>>,
}

impl Salience {
    pub(crate) fn new(resources: &[Resource]) -> Salience {
        // Class names to class indices, in order of first appearance.
        let mut names = Ids::with_capacity(resources.len());
        let mut classes: Vec<Vec<usize>> = Vec::new();
        let mut class_of = Vec::with_capacity(resources.len());
        for (i, r) in resources.iter().enumerate() {
            let c = names.insert(&r.class).unwrap_or_else(|known| known);
            if c == classes.len() {
                classes.push(Vec::new());
            }
            if let Some(members) = classes.get_mut(c) {
                members.push(i);
            }
            class_of.push(c);
        }
        let mentions = resources
            .iter()
            .map(|r| {
                let mut m = r.mentions.clone();
                m.sort_unstable();
                m
            })
            .collect();
        Salience {
            class_of,
            classes,
            mentions,
        }
    }

    /// The resource of `bound`'s class with the latest mention at or before
    /// `turn` (ties: first listed); `bound` when none is mentioned by then.
    pub(crate) fn most_salient(&self, bound: usize, turn: u32) -> usize {
        let mut best: Option<(u32, usize)> = None;
        let members = self.class_of.get(bound).and_then(|&c| self.classes.get(c));
        for &r in members.into_iter().flatten() {
            let m = &self.mentions[r];
            let upto = m.partition_point(|&t| t <= turn);
            if let Some(&latest) = upto.checked_sub(1).map(|i| &m[i])
                && best.is_none_or(|(t, _)| latest > t)
            {
                best = Some((latest, r));
            }
        }
        best.map_or(bound, |(_, r)| r)
    }
}

/// What grading needs from the run.
pub(crate) struct Grader<'a> {
    pub facts: &'a [Fact],
    pub courses: &'a [Course],
    pub decay: &'a Decay,
    pub salience: &'a Salience,
    pub threshold: f64,
    pub verify_bindings: bool,
    pub entailment_gate: bool,
    pub overflow_turn: Option<u32>,
}

impl Grader<'_> {
    /// Effective fidelity of fact `g` for `action` when `rounds_before`
    /// rounds precede it, with its state.
    fn effective(&self, g: usize, action: &Action, rounds_before: u32) -> (f64, FactState) {
        let state = self.courses[g].state_after(rounds_before, self.decay);
        let seen = !action.delegated || self.facts[g].forwarded;
        (if seen { state.fidelity } else { 0.0 }, state)
    }

    pub(crate) fn grade(
        &self,
        action: &Action,
        index: &IndexedAction,
        rounds_before: u32,
    ) -> ActionOutcome {
        let mut graded = ActionOutcome {
            outcome: Outcome::NotReached,
            reason: Reason::Overflow,
            fidelity: 0.0,
            fabrication_risk: 0.0,
            resolved_resource: None,
            rounds_before,
        };
        if self.overflow_turn.is_some_and(|o| o <= action.turn) {
            return graded;
        }
        let mut m = f64::INFINITY;
        let mut kept = 1.0;
        let mut unverified = false;
        for &g in &index.governed_by {
            let (e, state) = self.effective(g, action, rounds_before);
            m = m.min(e);
            if e > 0.0 {
                kept *= 1.0 - state.fabrication_risk;
            }
            unverified |= state.unverified;
        }
        graded.fidelity = m;
        graded.fabrication_risk = 1.0 - kept;
        graded.reason = Reason::None;

        if let Some(target) = index.target {
            let (e, _) = self.effective(target.fact, action, rounds_before);
            let resolved = if e >= self.threshold {
                target.resource
            } else if self.verify_bindings {
                graded.outcome = Outcome::Refused;
                graded.reason = Reason::BindingUnconfirmed;
                return graded;
            } else {
                self.salience.most_salient(target.resource, action.turn)
            };
            graded.resolved_resource = Some(resolved);
            if resolved != target.resource {
                graded.outcome = Outcome::Misbound;
                graded.reason = Reason::Misbound;
                return graded;
            }
        }
        if self.entailment_gate && action.irreversible && unverified {
            graded.outcome = Outcome::Refused;
            graded.reason = Reason::UnverifiedPremise;
            return graded;
        }
        graded.outcome = if m == 1.0 {
            Outcome::Governed
        } else if m >= self.threshold {
            Outcome::WeaklyGoverned
        } else {
            Outcome::Ungoverned
        };
        graded
    }
}
