//! What the rounds do to each fact (docs/MODEL.md §3), in closed form.
//!
//! Read literally, §3 visits every fact at every round. The engine does not:
//! a fact's course through the rounds has at most four stretches, each a
//! contiguous run of rounds (the rounds are in turn order, and the tail's
//! first turn never moves backwards):
//!
//! 1. **tail**: the fact is among the newest turns;
//! 2. **shelter**: in the head, or protected by its role (a user fact under a
//!    user budget is protected only while it is recent);
//! 3. **exposure**: from then on every round restores it, summarises it or
//!    drops it, the same way each time;
//! 4. under the commitment audit, a spill ends exposure: the fact is spilled
//!    once and restored ever after.
//!
//! During exposure, after `n` summarisations starting at round `c`, the
//! fidelity is `retention^n * prod(1 - pressure_sensitivity * o_k)` over the
//! rounds `c..=j`; depth is `n`; the fabrication risk depends on `n` alone.
//! The engine precomputes per-kind powers (multiplied in the same order as the
//! literal reading, so they agree to the last bit), prefix sums of the
//! pressure factors' logarithms, and the risk after `k` hazards. A fact's
//! state at any round is then O(1), and its spill round a binary search.

use alloc::vec::Vec;

use crate::policy::Policy;
use crate::scenario::Fact;
use crate::schedule::RoundPlan;
use crate::settings::{Guards, ModelParams};
use crate::vocab::{Kind, Retention, Role};

/// How a round treated a fact (the `state` of a timeline entry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RoundState {
    /// Among the newest turns: untouched.
    Tail,
    /// In the policy's kept first turns: untouched.
    Head,
    /// Its role is protected: untouched.
    Protected,
    /// Re-read verbatim from a durable source.
    Restored,
    /// Summarised once more.
    Summarised,
    /// Dropped by a policy that does not summarise.
    Dropped,
    /// Refused the rewrite by the commitment audit and kept durably.
    Spilled,
}

impl RoundState {
    /// The identifier used in results.
    pub const fn id(self) -> &'static str {
        match self {
            RoundState::Tail => "tail",
            RoundState::Head => "head",
            RoundState::Protected => "protected",
            RoundState::Restored => "restored",
            RoundState::Summarised => "summarised",
            RoundState::Dropped => "dropped",
            RoundState::Spilled => "spilled",
        }
    }
}

/// A fact's condition after some rounds.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FactState {
    /// 1 = verbatim; actionable while at least the actionable threshold.
    pub fidelity: f64,
    /// Summarisations the current text has been through.
    pub depth: u32,
    /// Probability the summary asserts something the source does not entail.
    pub fabrication_risk: f64,
    /// Entailed only by an earlier summary (laundered).
    pub unverified: bool,
}

impl FactState {
    /// Verbatim: the state before any round, and after a restore.
    pub const VERBATIM: FactState = FactState {
        fidelity: 1.0,
        depth: 0,
        fabrication_risk: 0.0,
        unverified: false,
    };
}

/// Never (as a round index).
const NEVER: u32 = u32::MAX;

/// What exposure does each round.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Exposure {
    Restored,
    Summarised,
    Dropped,
}

/// One fact's course through the rounds, as round indices (0-based).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Course {
    kind: Kind,
    /// First round at which the fact exists (`turn <= round turn`).
    pub first: u32,
    /// Rounds `first..tail_end` keep it in the tail.
    tail_end: u32,
    /// Rounds `tail_end..exposed_from` shelter it in this state.
    shelter: RoundState,
    /// First round of exposure (`c`).
    pub exposed_from: u32,
    exposure: Exposure,
    /// The round the commitment audit spills it at, or `NEVER`.
    pub spill: u32,
}

/// Everything per run that a fact's state at a round depends on.
#[derive(Debug)]
pub(crate) struct Decay {
    /// `powers[kind][n]`: retention multiplied in `n` times, in sequence.
    powers: [Vec<f64>; 9],
    /// Prefix sums of `ln(1 - s * o_k)` over rounds; empty when no round
    /// has pressure.
    log_pressure: Vec<f64>,
    /// Prefix counts of rounds whose pressure factor is exactly 0.
    zero_pressure: Vec<u32>,
    /// `risk[k]`: fabrication risk after `k` hazards, in sequence.
    risk: Vec<f64>,
    gate: bool,
    threshold: f64,
    /// Per round: whether its regime is `fabricated_history`.
    pub fabricated: Vec<bool>,
}

impl Decay {
    pub(crate) fn new(
        rounds: &[RoundPlan],
        retention: &Retention,
        model: &ModelParams,
        guards: &Guards,
        summary_tokens: u64,
    ) -> Decay {
        let r = rounds.len();
        let factors = rounds
            .iter()
            .map(|round| 1.0 - model.pressure_sensitivity * round.overshoot);
        let (log_pressure, zero_pressure) = if rounds
            .iter()
            .all(|round| model.pressure_sensitivity * round.overshoot == 0.0)
        {
            (Vec::new(), Vec::new())
        } else {
            let mut logs = Vec::with_capacity(r + 1);
            let mut zeros = Vec::with_capacity(r + 1);
            let (mut log_sum, mut zero_count) = (0.0, 0u32);
            logs.push(log_sum);
            zeros.push(zero_count);
            for factor in factors {
                if factor > 0.0 {
                    log_sum += libm::log(factor);
                } else {
                    zero_count += 1;
                }
                logs.push(log_sum);
                zeros.push(zero_count);
            }
            (logs, zeros)
        };
        let hazard = model.fabrication_hazard(summary_tokens);
        let mut risk = Vec::with_capacity(r + 1);
        let mut p = 0.0;
        risk.push(p);
        for _ in 0..r {
            p = 1.0 - (1.0 - p) * (1.0 - hazard);
            risk.push(p);
        }
        let mut powers: [Vec<f64>; 9] = Default::default();
        for (kind, value) in retention.iter() {
            let mut table = Vec::with_capacity(r + 1);
            let mut f = 1.0;
            table.push(f);
            for _ in 0..r {
                f *= value;
                table.push(f);
            }
            powers[kind.index()] = table;
        }
        Decay {
            powers,
            log_pressure,
            zero_pressure,
            risk,
            gate: guards.entailment_gate,
            threshold: model.actionable_threshold,
            fabricated: alloc::vec![false; r],
        }
    }

    /// Fidelity of a `kind` fact summarised at every round `c..=j`.
    pub(crate) fn summarised_fidelity(&self, kind: Kind, c: u32, j: u32) -> f64 {
        let n = (j - c + 1) as usize;
        let power = self.powers[kind.index()][n];
        if self.log_pressure.is_empty() {
            return power;
        }
        let (c, j) = (c as usize, j as usize);
        if self.zero_pressure[j + 1] > self.zero_pressure[c] {
            return 0.0;
        }
        power * libm::exp(self.log_pressure[j + 1] - self.log_pressure[c])
    }
}

/// The situation a fact is in at every round, before any state is computed.
pub(crate) struct Context<'a> {
    pub rounds: &'a [RoundPlan],
    pub policy: &'a Policy,
    pub guards: &'a Guards,
    pub user_message_tokens: u64,
}

impl Course {
    /// Plans `fact`'s course through the rounds.
    pub(crate) fn plan(fact: &Fact, cx: &Context<'_>, decay: &Decay) -> Course {
        let rounds = cx.rounds;
        let policy = cx.policy;
        let count = rounds.len() as u32;
        let turn = fact.turn;
        // The first round at or after `from` whose `pred` holds (rounds are in turn order).
        let first_from = |from: u32, pred: &dyn Fn(&RoundPlan) -> bool| -> u32 {
            from + rounds[from as usize..].partition_point(|r| !pred(r)) as u32
        };
        let first = first_from(0, &|r| r.turn >= turn);
        let tail_end = if turn == 0 {
            first
        } else {
            first_from(first, &|r| r.tail_start > turn)
        };

        let in_head = turn >= 1 && turn <= policy.keep_first_turns;
        let (shelter, exposed_from) = if in_head {
            (RoundState::Head, NEVER)
        } else if policy.protected_roles.contains(fact.role) {
            let until = if fact.role == Role::User && policy.has_user_budget() {
                // Protected while `turn > t - recent`, i.e. `t < turn + recent`.
                let recent = policy.user_budget_tokens.unwrap_or(0) / cx.user_message_tokens;
                let end = u64::from(turn).saturating_add(recent);
                first_from(tail_end, &|r| u64::from(r.turn) >= end)
            } else {
                NEVER
            };
            (RoundState::Protected, until)
        } else {
            (RoundState::Protected, tail_end)
        };
        let exposed_from = exposed_from.min(count).max(tail_end);

        let restored = (fact.externalised && policy.rereads_external)
            || (cx.guards.reinject_constraints && fact.kind.is_constraint());
        let exposure = if restored {
            Exposure::Restored
        } else if policy.summarises {
            Exposure::Summarised
        } else {
            Exposure::Dropped
        };
        let mut course = Course {
            kind: fact.kind,
            first,
            tail_end,
            shelter,
            exposed_from,
            exposure,
            spill: NEVER,
        };
        let audited = cx.guards.commitment_audit
            && fact.kind.is_commitment_record()
            && !fact.externalised
            && exposure != Exposure::Restored
            && exposed_from < count;
        if audited {
            let c = exposed_from;
            course.spill = match exposure {
                Exposure::Dropped if 0.0 < decay.threshold => c,
                Exposure::Dropped | Exposure::Restored => NEVER,
                Exposure::Summarised => {
                    // Fidelity never rises during exposure: binary search the first fall below.
                    let len = count - c;
                    let (mut lo, mut hi) = (0u32, len);
                    while lo < hi {
                        let mid = lo + (hi - lo) / 2;
                        if decay.summarised_fidelity(fact.kind, c, c + mid) < decay.threshold {
                            hi = mid;
                        } else {
                            lo = mid + 1;
                        }
                    }
                    if lo < len { c + lo } else { NEVER }
                }
            };
        }
        course
    }

    /// Whether the round at index `j` summarises this fact (step 4, counting
    /// a summarisation that the audit then spills).
    pub(crate) fn summarised_at(&self, j: u32) -> bool {
        self.exposure == Exposure::Summarised && j >= self.exposed_from && j <= self.spill
    }

    /// The fact's treatment and state at round index `j` (the fact must exist
    /// then: `j >= first`).
    pub(crate) fn state_at(&self, j: u32, decay: &Decay) -> (RoundState, FactState) {
        if j < self.tail_end {
            return (RoundState::Tail, FactState::VERBATIM);
        }
        if j < self.exposed_from {
            return (self.shelter, FactState::VERBATIM);
        }
        if self.exposure == Exposure::Restored || j > self.spill {
            return (RoundState::Restored, FactState::VERBATIM);
        }
        if j == self.spill {
            return (RoundState::Spilled, FactState::VERBATIM);
        }
        match self.exposure {
            Exposure::Dropped => (
                RoundState::Dropped,
                FactState {
                    fidelity: 0.0,
                    ..FactState::VERBATIM
                },
            ),
            _ => {
                let c = self.exposed_from;
                let n = j - c + 1;
                let hazards = if decay.gate { n - 1 } else { n };
                let unverified = decay.gate && (n >= 2 || decay.fabricated[c as usize]);
                (
                    RoundState::Summarised,
                    FactState {
                        fidelity: decay.summarised_fidelity(self.kind, c, j),
                        depth: n,
                        fabrication_risk: decay.risk[hazards as usize],
                        unverified,
                    },
                )
            }
        }
    }

    /// The first round (index) of the stretch of rounds, ending at round
    /// `rounds_before - 1`, after each of which the fact was below the
    /// actionable line; `None` when it was not below the line after round
    /// `rounds_before - 1` (or did not exist yet, or no round came before).
    ///
    /// Only exposure takes a fact below the line, and exposure's fidelity
    /// never rises, so the stretch starts where exposure first fell below
    /// the line: at its first round when dropped, by binary search when
    /// summarised. O(log rounds).
    pub(crate) fn below_since(&self, rounds_before: u32, decay: &Decay) -> Option<u32> {
        let last = rounds_before.checked_sub(1)?;
        if last < self.first || self.state_at(last, decay).1.fidelity >= decay.threshold {
            return None;
        }
        // Below the line at `last`: `last` lies in `exposed_from..spill`,
        // dropped or summarised.
        let c = self.exposed_from;
        if self.exposure != Exposure::Summarised {
            return Some(c);
        }
        let (mut lo, mut hi) = (c, last);
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            if decay.summarised_fidelity(self.kind, c, mid) < decay.threshold {
                hi = mid;
            } else {
                lo = mid + 1;
            }
        }
        Some(lo)
    }

    /// The rounds (indices below `count`, ascending, each once) at which the
    /// fact's standing can change: exposure's first round (a drop, or a
    /// first summary already below the line or unverified), the next one
    /// (the entailment gate's mark on a second summary), the round its
    /// summaries first fall below the line, and its spill. Everywhere else
    /// the state repeats the round before, or is verbatim after verbatim.
    /// O(log rounds).
    pub(crate) fn turning_points(&self, count: u32, decay: &Decay) -> impl Iterator<Item = u32> {
        let mut points = [NEVER; 4];
        let c = self.exposed_from;
        // Rounds `c..end` are exposed without a restore.
        let end = self.spill.min(count);
        if c < end && self.exposure != Exposure::Restored {
            points[0] = c;
            if self.exposure == Exposure::Summarised {
                points[1] = c + 1;
                points[2] = self.below_since(end, decay).unwrap_or(NEVER);
            }
        }
        points[3] = self.spill;
        points.sort_unstable();
        let mut previous = NEVER;
        points.into_iter().filter(move |&j| {
            let fresh = j < count && j >= self.first && j != previous;
            previous = j;
            fresh
        })
    }

    /// The fact's state after every round before index `rounds_before` (the
    /// state an action sees when `rounds_before` rounds precede it).
    pub(crate) fn state_after(&self, rounds_before: u32, decay: &Decay) -> FactState {
        match rounds_before.checked_sub(1) {
            Some(j) if j >= self.first => self.state_at(j, decay).1,
            _ => FactState::VERBATIM,
        }
    }
}
