//! Round by round: what each compaction round took from the facts, what it
//! gave back, and which later actions each change reaches.
//!
//! [`round_losses`] reads a finished [`Run`] and returns one [`RoundLoss`]
//! per round, in order. A round lists a fact (at most once) when the round
//! changed its standing in one of these ways, compared with the fact just
//! before the round (verbatim if it had not met a round yet):
//!
//! | [`StandingChange`] | the fact before the round | after it |
//! | --- | --- | --- |
//! | [`Dropped`](StandingChange::Dropped) | fidelity above 0 | dropped by a policy that does not summarise (fidelity 0) |
//! | [`CrossedBelow`](StandingChange::CrossedBelow) | actionable (`f >= threshold`) | summarised below the threshold |
//! | [`Unverified`](StandingChange::Unverified) | verified | summarised and unverified (the entailment gate's mark) |
//! | [`Spilled`](StandingChange::Spilled) | anything | spilled by the commitment audit (verbatim) |
//! | [`Restored`](StandingChange::Restored) | degraded: fidelity below 1, depth at least 1 or unverified | re-read verbatim |
//!
//! When more than one row applies, the first in this order names the change:
//! a drop that takes a fact below the line is a `Dropped`, and a summary that
//! takes it below the line and marks it unverified is a `CrossedBelow` whose
//! `after.unverified` is set. Under contract v1.1 a restored fact was already
//! verbatim before the round (a fact is restored from its first exposed round
//! on, and a spilled fact is verbatim from the spill), so `Restored` does not
//! occur with the current model; the row keeps the list honest should a
//! restore ever follow a loss.
//!
//! ## Which actions a change affects
//!
//! A change of fact `g` in a round at turn `t` *affects* action `a` when all
//! of these hold:
//!
//! - `a` comes after the round (`a.turn > t`) and was reached (the window did
//!   not overflow first);
//! - `g` governs `a` or is its target, and `a` sees it (`a` is not delegated,
//!   or `g` is forwarded: a fact a subagent never sees is lost whatever the
//!   rounds do);
//! - the change is the latest of its sort for `g` before `a`, and still holds
//!   when `a` runs, as one of the reasons `a` got its grade:
//!   - `Dropped` or `CrossedBelow` of a governing fact: `g` is still below
//!     the line at `a`, and `a` is `ungoverned`;
//!   - `Dropped` or `CrossedBelow` of the target binding: `a` is `misbound`,
//!     or `refused` because the binding could not be confirmed;
//!   - a change that left `g` unverified: `g` governs `a`, is still
//!     unverified at `a`, and `a` is `refused` for an unverified premise;
//!   - `Spilled` or `Restored`: `a` sees `g` verbatim, and no later change of
//!     `g` came between (the recovery is what keeps `g` in force there).
//!
//! So a fact below the line at an action that is `misbound` for another
//! reason does not count: restoring that fact alone would not change the
//! grade's cause. Actions are listed in file order.
//!
//! ```
//! use drift_core::{StandingChange, builtin, round_losses, simulate};
//!
//! let scenario = builtin("payments-incident").unwrap();
//! let run = simulate(&scenario).unwrap();
//! let losses = round_losses(&scenario, &run);
//! let freeze = scenario.fact_index("payments-freeze").unwrap();
//! let round3 = &losses[2];
//! assert_eq!(round3.turn, 44);
//! let lost = round3.changes.iter().find(|c| c.fact == freeze).unwrap();
//! assert_eq!(lost.what, StandingChange::CrossedBelow);
//! let ids: Vec<&str> = lost.affects.iter().map(|&a| scenario.actions[a].id.as_str()).collect();
//! assert_eq!(ids, ["restart-ledger-replica", "rollback-payments"]);
//! ```

use alloc::vec::Vec;

use crate::grade::{Outcome, Reason};
use crate::round::{FactState, RoundState};
use crate::run::Run;
use crate::scenario::Scenario;

/// What a round did to a fact's standing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StandingChange {
    /// Summarised from actionable to below the actionable threshold.
    CrossedBelow,
    /// Dropped by a policy that does not summarise.
    Dropped,
    /// Summarised and newly unverified (only a summary vouches for it).
    Unverified,
    /// Refused a rewrite by the commitment audit and kept verbatim.
    Spilled,
    /// Re-read verbatim after having been degraded.
    Restored,
}

impl StandingChange {
    /// The identifier used in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            StandingChange::CrossedBelow => "crossed_below",
            StandingChange::Dropped => "dropped",
            StandingChange::Unverified => "unverified",
            StandingChange::Spilled => "spilled",
            StandingChange::Restored => "restored",
        }
    }

    /// Words for people.
    pub const fn label(self) -> &'static str {
        match self {
            StandingChange::CrossedBelow => "below the line",
            StandingChange::Dropped => "dropped",
            StandingChange::Unverified => "unverified",
            StandingChange::Spilled => "spilled",
            StandingChange::Restored => "restored",
        }
    }

    /// Whether the change takes something away (the others give it back).
    pub const fn is_loss(self) -> bool {
        matches!(
            self,
            StandingChange::CrossedBelow | StandingChange::Dropped | StandingChange::Unverified
        )
    }
}

/// One fact's change in one round.
#[derive(Clone, Debug, PartialEq)]
pub struct FactChange {
    /// Index of the fact in the scenario.
    pub fact: usize,
    /// What happened.
    pub what: StandingChange,
    /// The fact just before the round (verbatim before its first round).
    pub before: FactState,
    /// The fact after the round.
    pub after: FactState,
    /// Indices of the later actions the change affects (see the module
    /// docs), in file order.
    pub affects: Vec<usize>,
}

/// The changes of one round.
#[derive(Clone, Debug, PartialEq)]
pub struct RoundLoss {
    /// 0-based index into [`Run::rounds`].
    pub round: usize,
    /// The round's turn.
    pub turn: u32,
    /// The facts it changed, in file order.
    pub changes: Vec<FactChange>,
}

impl RoundLoss {
    /// The changes that take something away.
    pub fn losses(&self) -> impl Iterator<Item = &FactChange> {
        self.changes.iter().filter(|c| c.what.is_loss())
    }
}

/// How a round changed a fact, if it did.
fn classify(
    state: RoundState,
    before: &FactState,
    after: &FactState,
    thr: f64,
) -> Option<StandingChange> {
    let degraded = before.fidelity < 1.0 || before.depth > 0 || before.unverified;
    Some(match state {
        RoundState::Spilled => StandingChange::Spilled,
        RoundState::Restored if degraded => StandingChange::Restored,
        RoundState::Dropped if before.fidelity > 0.0 => StandingChange::Dropped,
        _ if before.fidelity >= thr && after.fidelity < thr => StandingChange::CrossedBelow,
        _ if after.unverified && !before.unverified => StandingChange::Unverified,
        _ => return None,
    })
}

/// One list per round of `run` (which must be `scenario`'s): the facts the
/// round changed and the later actions each change affects.
///
/// Costs O(rounds + facts · log rounds + actions · governing facts): a fact's
/// standing can change at no more than four rounds, which its course in
/// closed form names, so no round is walked fact by fact.
/// A `run` of another scenario gives a meaningless list, never a panic.
pub fn round_losses(scenario: &Scenario, run: &Run) -> Vec<RoundLoss> {
    let thr = scenario.model.actionable_threshold;
    let rounds = run.rounds();
    // Every change, fact by fact (so in file order within a round).
    let mut found: Vec<(usize, FactChange)> = Vec::new();
    let mut per_round = alloc::vec![0usize; rounds.len()];
    for i in 0..scenario.facts.len() {
        for j in run.turning_points(i) {
            let Some((state, after)) = run.fact_state(i, j) else {
                continue;
            };
            let prior = j
                .checked_sub(1)
                .and_then(|p| run.fact_state(i, p))
                .map_or(FactState::VERBATIM, |(_, s)| s);
            if let Some(what) = classify(state, &prior, &after, thr) {
                per_round[j] += 1;
                found.push((
                    j,
                    FactChange {
                        fact: i,
                        what,
                        before: prior,
                        after,
                        affects: Vec::new(),
                    },
                ));
            }
        }
    }
    let mut out: Vec<RoundLoss> = rounds
        .iter()
        .zip(&per_round)
        .enumerate()
        .map(|(j, (round, &n))| RoundLoss {
            round: j,
            turn: round.turn,
            changes: Vec::with_capacity(n),
        })
        .collect();
    // Per fact: (round index, position in that round's changes), in round order.
    let mut by_fact: Vec<Vec<(usize, usize)>> = alloc::vec![Vec::new(); scenario.facts.len()];
    for (j, change) in found {
        let changes = &mut out[j].changes;
        by_fact[change.fact].push((j, changes.len()));
        changes.push(change);
    }

    for (a, (action, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
        if graded.outcome == Outcome::NotReached {
            continue;
        }
        let rounds_before = graded.rounds_before as usize;
        // The latest change of `g` before the action that `pick` accepts.
        let latest = |g: usize, pick: &dyn Fn(&FactChange) -> bool| -> Option<(usize, usize)> {
            by_fact.get(g)?.iter().rev().copied().find(|&(j, k)| {
                j < rounds_before && out.get(j).and_then(|r| r.changes.get(k)).is_some_and(pick)
            })
        };
        let last_change = |g: usize| -> Option<(usize, usize)> {
            by_fact
                .get(g)?
                .iter()
                .rev()
                .copied()
                .find(|&(j, _)| j < rounds_before)
        };
        let mut hits: Vec<(usize, usize)> = Vec::new();
        // Ids come resolved from the run (each governing fact once).
        let roles = run
            .governing(a)
            .iter()
            .map(|&g| (g, true))
            .chain(run.target(a).map(|b| (b, false)));
        for (g, governs) in roles {
            let Some(fact) = scenario.facts.get(g) else {
                continue;
            };
            if action.delegated && !fact.forwarded {
                continue;
            }
            let Some(seen) = run.fact_state_at_turn(g, action.turn) else {
                continue;
            };
            let below = seen.fidelity < thr;
            let crossing = |c: &FactChange| {
                matches!(
                    c.what,
                    StandingChange::CrossedBelow | StandingChange::Dropped
                )
            };
            if governs && below && graded.outcome == Outcome::Ungoverned {
                hits.extend(latest(g, &crossing));
            }
            let binding_lost =
                matches!(graded.reason, Reason::Misbound | Reason::BindingUnconfirmed);
            if !governs && below && binding_lost {
                hits.extend(latest(g, &crossing));
            }
            if governs && seen.unverified && graded.reason == Reason::UnverifiedPremise {
                hits.extend(latest(g, &|c: &FactChange| {
                    c.after.unverified && !c.before.unverified
                }));
            }
            if seen == FactState::VERBATIM
                && let Some((j, k)) = last_change(g)
                && matches!(
                    out[j].changes[k].what,
                    StandingChange::Spilled | StandingChange::Restored
                )
            {
                hits.push((j, k));
            }
        }
        for (j, k) in hits {
            let affects = &mut out[j].changes[k].affects;
            if affects.last() != Some(&a) {
                affects.push(a);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn state(fidelity: f64, depth: u32, unverified: bool) -> FactState {
        FactState {
            fidelity,
            depth,
            fabrication_risk: 0.0,
            unverified,
        }
    }

    #[test]
    fn one_change_per_fact_in_the_documented_order() {
        let v = FactState::VERBATIM;
        let thr = 0.5;
        let s = RoundState::Summarised;
        assert_eq!(
            classify(s, &state(0.6, 1, false), &state(0.4, 2, true), thr),
            Some(StandingChange::CrossedBelow)
        );
        assert_eq!(
            classify(s, &state(0.9, 1, false), &state(0.8, 2, true), thr),
            Some(StandingChange::Unverified)
        );
        assert_eq!(
            classify(s, &state(0.4, 2, false), &state(0.3, 3, false), thr),
            None
        );
        assert_eq!(
            classify(RoundState::Dropped, &v, &state(0.0, 0, false), thr),
            Some(StandingChange::Dropped)
        );
        assert_eq!(
            classify(
                RoundState::Dropped,
                &state(0.0, 0, false),
                &state(0.0, 0, false),
                thr
            ),
            None
        );
        assert_eq!(
            classify(RoundState::Spilled, &state(0.6, 1, false), &v, thr),
            Some(StandingChange::Spilled)
        );
        assert_eq!(classify(RoundState::Restored, &v, &v, thr), None);
        assert_eq!(
            classify(RoundState::Restored, &state(0.6, 1, false), &v, thr),
            Some(StandingChange::Restored)
        );
        assert_eq!(classify(RoundState::Tail, &v, &v, thr), None);
    }
}
