//! Tipping points: for each action, the smallest change that flips its
//! outcome.
//!
//! [`tipping_points`] (or [`action_tipping`] for one action) answers three
//! questions per action, each by re-running [`simulate`] on edited copies of
//! the scenario, so every answer is the engine's own verdict rather than a
//! formula's:
//!
//! 1. **Retention** ([`RetentionTip`]): for each kind among the action's
//!    governing facts and its target binding, the nearest retention value
//!    above the current one and the nearest below it at which the outcome
//!    changes. A kind's retention applies to every fact of that kind, so a
//!    change can also move spills and, through them, the laundering regime.
//! 2. **Window** ([`WindowTip`]): for an action that fails (`ungoverned`,
//!    `misbound` or `not_reached`), the smallest larger `window_tokens` at
//!    which it no longer fails.
//! 3. **Single facts** ([`FactFix`]): for an action that is not governed
//!    (and was reached), the outcome after forwarding one governing fact or
//!    the target (delegated actions, fact not forwarded), or after
//!    externalising one (policies that re-read, fact not externalised),
//!    that change alone.
//!
//! Nothing else changes in any of these runs: one kind's retention, or the
//! window, or one fact's flag.
//!
//! [`TippingPoints`] holds a scenario's answers together; it is
//! `compaction-drift/tipping@1`, their JSON (`wire.rs`).
//!
//! ## Retention: exact breakpoints
//!
//! Changing one kind's retention `r` changes nothing in the schedule of
//! rounds. It changes the fidelity of each fact of that kind, which after
//! `n` summarisations starting at round `c` is, in the engine's arithmetic,
//! `r·r·…·r` (`n` factors, multiplied in sequence) times a pressure factor
//! `Q` that does not depend on `r` (1 without context pressure). That product
//! never decreases as `r` grows, so "this fact is actionable at round `j`"
//! holds exactly for `r` at or above one value `c_j`: the smallest double
//! with `r^n · Q >= threshold`, found from `(threshold / Q)^(1/n)` and then
//! corrected to the last bit against the engine's own sequence of products.
//! An action's outcome depends on `r` only through such statements (its
//! facts' fidelity against the threshold, spills, and, with the entailment
//! gate and the commitment audit both on, the laundering rates that spills
//! move) and through "fidelity is exactly 1", which needs `r = 1`. So the
//! outcome is constant on each interval `[c_k, c_k+1)` between consecutive
//! breakpoints, and the engine is run once per interval, outwards from the
//! current value, until the outcome differs:
//!
//! - [`RetentionTip::raise`]: the smallest value `at` above the current one
//!   whose outcome differs; every value in `[current, at)` keeps the current
//!   outcome.
//! - [`RetentionTip::lower`]: the boundary `at` below the current value:
//!   every value in `[at, current]` keeps the current outcome, and the values
//!   just below `at` (down to the next breakpoint) give `outcome`.
//!
//! Which breakpoints are needed: those of the action's own facts of the kind
//! at the last round before it; with both the entailment gate and the
//! commitment audit on and a commitment, rationale or rejected-option kind,
//! those of every governing fact of the kind at every round before the
//! action (their spills move laundering rates).
//!
//! Each reported flip is verified by one more run on the other side of the
//! boundary (the double just below a raise, the boundary itself for a
//! lower), so it is [`Method::Exact`]: it flips at `at` and not at the value
//! one unit in the last place away. Should a verification ever disagree,
//! the boundary is found by bisection between the last value known to keep
//! the outcome and the first known to change it, to within
//! [`RETENTION_TOLERANCE`], and marked [`Method::Bisection`]; that finds a
//! boundary, not necessarily the nearest one.
//!
//! The walk is bounded: after [`MAX_RETENTION_INTERVALS`] intervals in one
//! direction (which takes the gate, the audit and a long session), the
//! search runs the far end (1 above, 0 below) and, if its outcome differs,
//! bisects towards it ([`Method::Bisection`]); if it does not, it reports no
//! flip, and can then miss a range that flips and flips back.
//!
//! ## Window: every schedule, in order
//!
//! The window changes when rounds happen, so the outcome need not be
//! monotone in it. But the schedule only changes where one of the harness's
//! comparisons changes its answer: a round (or overflow) is due while
//! `size · 100 > window · trigger_percent` or `size + reserve > window`, and a
//! token tail (`tail_percent`) keeps its first turn while the next older turn
//! does not fit. From each run the search computes the largest window that
//! gives the same schedule, then runs the first window past it: one run per
//! distinct schedule, upwards from the current window. Without context
//! pressure the outcome is constant on each such range, so the window
//! reported is exactly the smallest larger one at which the action stops
//! failing, and the one below it fails. The search ends at the window where
//! no round is due at all (`(system + all turns) · 100 / trigger_percent`,
//! and `system + all turns + reserve`), beyond which nothing changes: an
//! action that fails there fails at every window ([`WindowTip::Never`] with
//! `complete`). With every guard off, one run at that window answers such
//! actions at once: what fails with nothing compacted is a fact a subagent
//! never sees, whatever the rounds. The search is capped at
//! [`MAX_TOKENS`](crate::MAX_TOKENS) and at
//! [`MAX_WINDOW_RUNS`] runs.
//!
//! With context pressure, fidelity also rises with the window inside one
//! schedule; the search then runs both ends of each range and bisects over
//! integers inside the first range whose far end works. With every guard off
//! the outcome cannot get worse as fidelity rises, so this is exact; with a
//! guard on and pressure, a range whose two ends both fail is taken to fail
//! throughout, and the answer is marked not exact. Every reported window
//! does not fail, and the window one token smaller fails (unless the run
//! budget cut a bisection short, which is also marked not exact).
//!
//! A custom policy that sets `window_tokens` itself gets
//! [`WindowTip::SetByPolicy`].
//!
//! ## Cost
//!
//! One run of a built-in scenario takes a few microseconds. Retention costs
//! one run per breakpoint interval walked, plus one to verify each flip
//! (runs are shared between actions); the window search one run per distinct
//! schedule up to the answer; single facts one run per flag tried. See
//! BENCHMARKS.md.
//!
//! ```
//! use drift_core::{builtin, tipping_points, Kind, Outcome, WindowTip};
//!
//! let scenario = builtin("payments-incident").unwrap();
//! let tips = tipping_points(&scenario).unwrap();
//! let rollback = scenario.actions.iter().position(|a| a.id == "rollback-payments").unwrap();
//! let tip = &tips[rollback];
//! assert_eq!(tip.outcome, Outcome::Ungoverned);
//! // The freeze is a standing rule summarised four times before turn 63:
//! // it stays actionable from 0.5^(1/4) = 0.8409 up.
//! let rule = tip.retention.iter().find(|t| t.kind == Kind::StandingRule).unwrap();
//! let raise = rule.raise.unwrap();
//! assert!((raise.at - 0.5f64.powf(0.25)).abs() < 1e-12);
//! assert_eq!(raise.outcome, Outcome::WeaklyGoverned);
//! assert!(matches!(tip.window, WindowTip::At { .. }));
//! ```

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

use crate::error::ScenarioError;
use crate::grade::Outcome;
use crate::harness::Harness;
use crate::policy::Policy;
use crate::round::{Context, Course, Decay};
use crate::run::{Run, simulate};
use crate::scenario::{Index, MAX_TOKENS, Scenario};
use crate::schedule::{RoundPlan, Schedule, TurnSizes};
use crate::vocab::{Kind, Retention};

mod wire;

pub use wire::{TIPPING_FORMAT, TippingPoints};

/// The width to which a retention boundary is bisected when its exact
/// breakpoint could not be verified ([`Method::Bisection`]).
pub const RETENTION_TOLERANCE: f64 = 1e-6;

/// The most runs the window search makes before it reports what it has.
pub const MAX_WINDOW_RUNS: u32 = 4096;

/// The most breakpoint intervals the retention search walks each way before
/// it compares the far end (1 or 0) and bisects instead.
pub const MAX_RETENTION_INTERVALS: usize = 64;

/// How a retention boundary was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Method {
    /// A breakpoint of the closed form, verified on both sides to the last
    /// bit.
    Exact,
    /// Bisection to within [`RETENTION_TOLERANCE`].
    Bisection,
}

impl Method {
    /// The identifier used in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            Method::Exact => "exact",
            Method::Bisection => "bisection",
        }
    }
}

/// A retention value at which an action's outcome changes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Flip {
    /// The boundary (see [`RetentionTip`] for which side is which).
    pub at: f64,
    /// The outcome on the far side of the boundary.
    pub outcome: Outcome,
    /// How the boundary was found.
    pub method: Method,
}

impl Flip {
    /// A boundary found exactly.
    const fn exact(at: f64, outcome: Outcome) -> Flip {
        Flip {
            at,
            outcome,
            method: Method::Exact,
        }
    }

    /// A boundary found by bisection.
    const fn bisected(at: f64, outcome: Outcome) -> Flip {
        Flip {
            at,
            outcome,
            method: Method::Bisection,
        }
    }
}

/// One kind's retention against one action.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RetentionTip {
    /// The kind (of a governing fact or of the target binding).
    pub kind: Kind,
    /// The kind's retention in the scenario.
    pub current: f64,
    /// The smallest retention above `current` whose outcome differs: the
    /// outcome there is `outcome`, and every value in `[current, at)` keeps
    /// the current one. `None`: no value in `(current, 1]` changes it.
    pub raise: Option<Flip>,
    /// The boundary below `current`: every value in `[at, current]` keeps
    /// the current outcome, just below `at` it is `outcome`. `None`: no value
    /// in `[0, current)` changes it.
    pub lower: Option<Flip>,
}

/// The window against one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WindowTip {
    /// The action does not fail at the current window.
    Holds,
    /// The policy sets `window_tokens` itself.
    SetByPolicy,
    /// The smallest larger window at which the action does not fail.
    At {
        /// `window_tokens`.
        window: u64,
        /// The outcome there.
        outcome: Outcome,
        /// Whether no smaller window above the current one works (see the
        /// module docs for when this can be false).
        exact: bool,
    },
    /// No larger window up to `searched_to` keeps the action from failing.
    Never {
        /// The largest window examined.
        searched_to: u64,
        /// Whether the search covered every window: from `searched_to` on
        /// nothing is compacted and nothing changes.
        complete: bool,
    },
}

/// A single-fact change.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lever {
    /// Put the fact in the subagent's brief (`forwarded = true`).
    Forward,
    /// Keep the fact in a store the policy re-reads (`externalised = true`).
    Externalise,
}

impl Lever {
    /// The identifier used in JSON.
    pub const fn id(self) -> &'static str {
        match self {
            Lever::Forward => "forward",
            Lever::Externalise => "externalise",
        }
    }
}

/// The outcome after one single-fact change.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FactFix {
    /// Index of the fact.
    pub fact: usize,
    /// What was changed.
    pub lever: Lever,
    /// The action's outcome with that change alone.
    pub outcome: Outcome,
}

impl FactFix {
    /// Whether the change leaves the action governed or weakly governed.
    pub const fn fixes(&self) -> bool {
        matches!(self.outcome, Outcome::Governed | Outcome::WeaklyGoverned)
    }
}

/// Everything that flips one action.
#[derive(Clone, Debug, PartialEq)]
pub struct ActionTipping {
    /// Index of the action.
    pub action: usize,
    /// Its outcome in the scenario as given.
    pub outcome: Outcome,
    /// Per kind of its governing facts and target, in [`Kind::ALL`] order.
    /// Empty when the action is not reached (retention cannot move an
    /// overflow).
    pub retention: Vec<RetentionTip>,
    /// The window.
    pub window: WindowTip,
    /// Single-fact changes tried, governing facts first (in `governed_by`
    /// order), then the target. Empty for a governed or unreached action.
    pub facts: Vec<FactFix>,
}

/// Tipping points of every action of `scenario`, in file order.
///
/// # Errors
///
/// The scenario's first violation of docs/MODEL.md §6, as [`simulate`] reports it.
pub fn tipping_points(scenario: &Scenario) -> Result<Vec<ActionTipping>, ScenarioError> {
    tipping_of(scenario, None)
}

/// Tipping points of action `action` (an index into `scenario.actions`)
/// alone, or `None` for an index out of range. The answer is the one
/// [`tipping_points`] gives for it (unless the window search reaches
/// [`MAX_WINDOW_RUNS`], a budget one action spends more slowly); it is
/// cheaper when only one action is wanted, as the window search stops once
/// that action is answered.
///
/// # Errors
///
/// The scenario's first violation of docs/MODEL.md §6, as [`simulate`] reports it.
pub fn action_tipping(
    scenario: &Scenario,
    action: usize,
) -> Result<Option<ActionTipping>, ScenarioError> {
    Ok(tipping_of(scenario, Some(action))?.pop())
}

/// Every action's tipping points, or `only` one's.
fn tipping_of(
    scenario: &Scenario,
    only: Option<usize>,
) -> Result<Vec<ActionTipping>, ScenarioError> {
    let index = scenario.index()?;
    let base = simulate(scenario)?;
    if only.is_some_and(|a| a >= scenario.actions.len()) {
        return Ok(Vec::new());
    }
    let wanted = |a: usize| only.is_none_or(|o| o == a);
    let mut oracle = Oracle {
        scratch: scenario.clone(),
        cache: BTreeMap::new(),
    };
    let basis = Basis::new(scenario, &index);
    let windows = window_tips(&mut oracle, scenario, &index, &base, &wanted);
    let mut out = Vec::with_capacity(if only.is_some() {
        1
    } else {
        scenario.actions.len()
    });
    for (a, (graded, window)) in base.actions().iter().zip(windows).enumerate() {
        if !wanted(a) {
            continue;
        }
        let outcome = graded.outcome;
        let mut tipping = ActionTipping {
            action: a,
            outcome,
            retention: Vec::new(),
            window,
            facts: Vec::new(),
        };
        if outcome != Outcome::NotReached {
            let mut kinds: Vec<Kind> = basis.own_facts(a).map(|i| scenario.facts[i].kind).collect();
            kinds.sort_unstable();
            kinds.dedup();
            for kind in kinds {
                let tip = basis.retention_tip(&mut oracle, a, graded.rounds_before, kind, outcome);
                tipping.retention.push(tip);
            }
        }
        if !matches!(outcome, Outcome::Governed | Outcome::NotReached) {
            tipping.facts = fact_fixes(&mut oracle, scenario, &index, a);
        }
        out.push(tipping);
    }
    Ok(out)
}

/// Runs the engine on edited copies of the scenario.
struct Oracle {
    scratch: Scenario,
    /// Outcomes of every action by (kind, retention bits).
    cache: BTreeMap<(usize, u64), Option<Vec<Outcome>>>,
}

impl Oracle {
    fn outcomes(&self) -> Option<Vec<Outcome>> {
        let run = simulate(&self.scratch).ok()?;
        Some(run.actions().iter().map(|a| a.outcome).collect())
    }

    /// Action `a`'s outcome with `kind`'s retention at `r`.
    fn with_retention(&mut self, kind: Kind, r: f64, a: usize) -> Option<Outcome> {
        let key = (kind as usize, r.to_bits());
        if !self.cache.contains_key(&key) {
            let before = self.scratch.retention.get(kind);
            self.scratch.retention.set(kind, r);
            let outcomes = self.outcomes();
            self.scratch.retention.set(kind, before);
            self.cache.insert(key, outcomes);
        }
        self.cache.get(&key)?.as_ref()?.get(a).copied()
    }

    /// The run at `window` tokens.
    fn with_window(&mut self, window: u64) -> Option<Run> {
        let before = self.scratch.harness.window_tokens;
        self.scratch.harness.window_tokens = window;
        let run = simulate(&self.scratch).ok();
        self.scratch.harness.window_tokens = before;
        run
    }
}

// ------------------------------------------------------------ retention

/// What the retention search needs from the scenario, computed once.
struct Basis<'a> {
    scenario: &'a Scenario,
    index: &'a Index,
    /// Every retention 1: `summarised_fidelity` is then the pressure factor.
    unit: Decay,
    /// Per fact: the first round of its summarised exposure, if it has one.
    summarised_from: Vec<Option<u32>>,
}

impl<'a> Basis<'a> {
    fn new(scenario: &'a Scenario, index: &'a Index) -> Basis<'a> {
        let harness = &index.harness;
        let sizes = TurnSizes::new(
            harness,
            scenario.turn_tokens.iter().map(|e| (e.turn, e.tokens)),
        );
        let plans: Vec<RoundPlan> = Schedule::compute(harness, &index.policy, &sizes).rounds;
        let mut unit_retention = Retention::default();
        for kind in Kind::ALL {
            unit_retention.set(kind, 1.0);
        }
        let unit = Decay::new(
            &plans,
            &unit_retention,
            &scenario.model,
            &scenario.guards,
            harness.summary_tokens,
        );
        let cx = Context {
            rounds: &plans,
            policy: &index.policy,
            guards: &scenario.guards,
            user_message_tokens: harness.user_message_tokens,
        };
        let count = plans.len() as u32;
        let summarised_from = scenario
            .facts
            .iter()
            .map(|fact| {
                let course = Course::plan(fact, &cx, &unit);
                let c = course.exposed_from;
                (c < count && course.summarised_at(c)).then_some(c)
            })
            .collect();
        Basis {
            scenario,
            index,
            unit,
            summarised_from,
        }
    }

    /// Action `a`'s governing facts, then its target (a fact may repeat).
    fn own_facts(&self, a: usize) -> impl Iterator<Item = usize> + '_ {
        let indexed = self.index.actions.get(a);
        let governing = indexed
            .into_iter()
            .flat_map(|x| x.governed_by.iter().copied());
        governing.chain(indexed.and_then(|x| x.target).map(|t| t.fact))
    }

    /// The retention values at which action `a`'s outcome can change with
    /// `kind`'s retention, when `rounds_before` rounds precede it: the
    /// breakpoints, 0 and 1, sorted. Empty when the retention cannot matter.
    fn breakpoints(&self, a: usize, rounds_before: u32, kind: Kind) -> Vec<f64> {
        let Some(last) = rounds_before.checked_sub(1) else {
            return Vec::new();
        };
        let guards = &self.scenario.guards;
        let through_laundering =
            guards.entailment_gate && guards.commitment_audit && kind.is_commitment_record();
        let facts = &self.scenario.facts;
        let mut considered: Vec<usize> = if through_laundering {
            (0..facts.len())
                .filter(|&i| self.index.governing.get(i).copied().unwrap_or(false))
                .collect()
        } else {
            self.own_facts(a).collect()
        };
        considered.retain(|&i| facts.get(i).is_some_and(|f| f.kind == kind));
        considered.sort_unstable();
        considered.dedup();
        let thr = self.scenario.model.actionable_threshold;
        let mut points = Vec::new();
        let mut any = false;
        for i in considered {
            let Some(c) = self.summarised_from.get(i).copied().flatten() else {
                continue;
            };
            if c > last {
                continue;
            }
            let first = if through_laundering { c } else { last };
            for j in first..=last {
                any = true;
                let q = self.unit.summarised_fidelity(kind, c, j);
                points.extend(boundary(j - c + 1, q, thr));
            }
        }
        if !any {
            return Vec::new();
        }
        points.push(0.0);
        points.push(1.0);
        points.sort_unstable_by(f64::total_cmp);
        points.dedup_by(|x, y| x.to_bits() == y.to_bits());
        points
    }

    fn retention_tip(
        &self,
        oracle: &mut Oracle,
        a: usize,
        rounds_before: u32,
        kind: Kind,
        now: Outcome,
    ) -> RetentionTip {
        let current = self.scenario.retention.get(kind);
        let mut tip = RetentionTip {
            kind,
            current,
            raise: None,
            lower: None,
        };
        let points = self.breakpoints(a, rounds_before, kind);
        // The interval [points[m], points[m + 1]) holds the current value.
        let Some(m) = points.partition_point(|&p| p <= current).checked_sub(1) else {
            return tip;
        };
        let mut at = |r: f64| oracle.with_retention(kind, r, a);

        // Upwards: the first interval whose outcome differs.
        let mut kept = current;
        for (step, &p) in points[m + 1..].iter().enumerate() {
            if step == MAX_RETENTION_INTERVALS {
                tip.raise = towards(&mut at, now, kept, 1.0)
                    .map(|(_, far, outcome)| Flip::bisected(far, outcome));
                break;
            }
            let Some(o) = at(p) else { break };
            if o != now {
                let below = p.next_down();
                tip.raise = Some(if below <= kept || at(below) == Some(now) {
                    Flip::exact(p, o)
                } else {
                    let (_, far, outcome) = bisect(&mut at, now, kept, (p, o));
                    Flip::bisected(far, outcome)
                });
                break;
            }
            kept = p;
        }

        // Downwards: the first interval below whose outcome differs.
        let mut kept = current;
        for (step, &p) in points[1..=m].iter().rev().enumerate() {
            if step == MAX_RETENTION_INTERVALS {
                tip.lower = towards(&mut at, now, kept, 0.0)
                    .map(|(near, _, outcome)| Flip::bisected(near, outcome));
                break;
            }
            let below = p.next_down();
            let Some(o) = at(below) else { break };
            if o != now {
                tip.lower = Some(if p >= kept || at(p) == Some(now) {
                    Flip::exact(p, o)
                } else {
                    let (near, _, outcome) = bisect(&mut at, now, kept, (below, o));
                    Flip::bisected(near, outcome)
                });
                break;
            }
            kept = below;
        }
        tip
    }
}

/// Past the last interval searched: if the outcome at `end` differs from
/// `now`, [`bisect`] between `kept` and `end`.
fn towards(
    at: &mut impl FnMut(f64) -> Option<Outcome>,
    now: Outcome,
    kept: f64,
    end: f64,
) -> Option<(f64, f64, Outcome)> {
    let o = at(end).filter(|&o| o != now)?;
    Some(bisect(at, now, kept, (end, o)))
}

/// Bisects between `kept` (outcome `now`) and `changed` (another outcome)
/// until they are within [`RETENTION_TOLERANCE`]; returns both ends and the
/// outcome at the changed one.
fn bisect(
    at: &mut impl FnMut(f64) -> Option<Outcome>,
    now: Outcome,
    mut kept: f64,
    changed: (f64, Outcome),
) -> (f64, f64, Outcome) {
    let (mut far, mut outcome) = changed;
    while (far - kept).abs() > RETENTION_TOLERANCE {
        let mid = kept + (far - kept) / 2.0;
        match at(mid) {
            Some(o) if o == now => kept = mid,
            Some(o) => (far, outcome) = (mid, o),
            None => break,
        }
    }
    (kept, far, outcome)
}

/// The engine's fidelity of a fact summarised `n` times at retention `r`
/// with pressure factor `q`: `r` multiplied in `n` times in sequence, then
/// `q` (as `round::Decay` computes it).
fn fidelity(r: f64, n: u32, q: f64) -> f64 {
    let mut f = 1.0;
    for _ in 0..n {
        f *= r;
    }
    f * q
}

/// The smallest retention in `[0, 1]` at which a fact summarised `n` times
/// with pressure factor `q` is actionable, or `None` when not even 1 is.
fn boundary(n: u32, q: f64, thr: f64) -> Option<f64> {
    let holds = |r: f64| fidelity(r, n, q) >= thr;
    if !holds(1.0) {
        return None;
    }
    if holds(0.0) {
        return Some(0.0);
    }
    // Here 0 < thr <= q. Start from the closed form and correct it to the bit.
    let mut x = libm::pow(thr / q, 1.0 / f64::from(n)).clamp(0.0, 1.0);
    for _ in 0..16 {
        if holds(x) {
            let below = x.next_down();
            if !holds(below) {
                return Some(x);
            }
            x = below;
        } else {
            x = x.next_up();
        }
    }
    // Non-negative doubles order like their bits: bisect those.
    let (mut lo, mut hi) = (0.0f64.to_bits(), 1.0f64.to_bits());
    while hi - lo > 1 {
        let mid = lo + (hi - lo) / 2;
        if holds(f64::from_bits(mid)) {
            hi = mid;
        } else {
            lo = mid;
        }
    }
    Some(f64::from_bits(hi))
}

// ------------------------------------------------------------ single facts

fn fact_fixes(oracle: &mut Oracle, scenario: &Scenario, index: &Index, a: usize) -> Vec<FactFix> {
    let Some(action) = scenario.actions.get(a) else {
        return Vec::new();
    };
    let Some(indexed) = index.actions.get(a) else {
        return Vec::new();
    };
    let mut facts: Vec<usize> = indexed.governed_by.clone();
    if let Some(t) = indexed.target
        && !facts.contains(&t.fact)
    {
        facts.push(t.fact);
    }
    let mut out = Vec::new();
    for g in facts {
        let Some(fact) = scenario.facts.get(g) else {
            continue;
        };
        let levers = [
            (Lever::Forward, action.delegated && !fact.forwarded),
            (
                Lever::Externalise,
                index.policy.rereads_external && !fact.externalised,
            ),
        ];
        for (lever, applies) in levers {
            if !applies {
                continue;
            }
            let edit = |s: &mut Scenario, on: bool| match lever {
                Lever::Forward => s.facts[g].forwarded = on,
                Lever::Externalise => s.facts[g].externalised = on,
            };
            edit(&mut oracle.scratch, true);
            let outcome = oracle.outcomes().and_then(|o| o.get(a).copied());
            edit(&mut oracle.scratch, false);
            if let Some(outcome) = outcome {
                out.push(FactFix {
                    fact: g,
                    lever,
                    outcome,
                });
            }
        }
    }
    out
}

// ------------------------------------------------------------ window

/// The largest window that gives `run`'s schedule, `run` being the run at
/// `harness.window_tokens` (see the module docs).
fn same_schedule_until(run: &Run, harness: &Harness, policy: &Policy, sizes: &TurnSizes) -> u64 {
    let w = u128::from(harness.window_tokens);
    let trigger = u128::from(harness.trigger_percent.max(1));
    let reserve = u128::from(harness.reserve_tokens);
    // The largest window at which a context of `size` is still due (it is at `w`).
    let due_until = |size: u64| -> u128 {
        let s = u128::from(size);
        let mut until = w;
        if s * 100 > w * trigger {
            until = until.max((s * 100 - 1) / trigger);
        }
        if reserve > 0 && s + reserve > w {
            until = until.max(s + reserve - 1);
        }
        until
    };
    let mut end = u128::MAX;
    for round in run.rounds() {
        end = end.min(due_until(round.tokens_before));
        if let Some(percent) = policy.tail_percent
            && round.tail_start > 1
        {
            // The tail keeps its first turn while the next older one does not fit:
            // window * percent / 100 < sum(tail_start - 1 ..= turn).
            let older = u128::from(sizes.sum(round.tail_start - 1, round.turn));
            let percent = u128::from(percent.max(1));
            end = end.min(((older * 100).saturating_sub(1) / percent).max(w));
        }
    }
    if let Some(turn) = run.overflow_turn() {
        let size = if policy.compacts {
            run.rounds().last().map_or(0, |r| r.tokens_after)
        } else {
            harness.system_tokens.saturating_add(sizes.sum(1, turn))
        };
        end = end.min(due_until(size));
    }
    u64::try_from(end).unwrap_or(u64::MAX)
}

/// The window tip of every action `wanted` accepts (the others get
/// [`WindowTip::Holds`] and are not searched for).
fn window_tips(
    oracle: &mut Oracle,
    scenario: &Scenario,
    index: &Index,
    base: &Run,
    wanted: &dyn Fn(usize) -> bool,
) -> Vec<WindowTip> {
    let outcomes: Vec<Outcome> = base.actions().iter().map(|a| a.outcome).collect();
    let mut tips: Vec<WindowTip> = alloc::vec![WindowTip::Holds; outcomes.len()];
    let mut pending: Vec<usize> = (0..outcomes.len())
        .filter(|&a| wanted(a) && outcomes[a].is_failure())
        .collect();
    if pending.is_empty() {
        return tips;
    }
    if index.policy.harness.window_tokens.is_some() {
        for a in pending {
            tips[a] = WindowTip::SetByPolicy;
        }
        return tips;
    }
    let harness = index.harness;
    let policy = &index.policy;
    let sizes = TurnSizes::new(
        &harness,
        scenario.turn_tokens.iter().map(|e| (e.turn, e.tokens)),
    );
    // From here on nothing is ever due: no round, no overflow.
    let everything = u128::from(harness.system_tokens) + u128::from(sizes.sum(1, harness.turns));
    let trigger = u128::from(harness.trigger_percent.max(1));
    let mut quiet = (everything * 100).div_ceil(trigger);
    if harness.reserve_tokens > 0 {
        quiet = quiet.max(everything + u128::from(harness.reserve_tokens));
    }
    let quiet = u64::try_from(quiet).unwrap_or(u64::MAX);
    let limit = quiet.min(MAX_TOKENS);
    let pressure = scenario.model.pressure_sensitivity > 0.0;
    let g = &scenario.guards;
    let guarded =
        g.reinject_constraints || g.verify_bindings || g.entailment_gate || g.commitment_audit;
    let exact = !pressure || !guarded;

    let at_window = |w: u64| Harness {
        window_tokens: w,
        ..harness
    };
    let mut runs = 0u32;
    let never = |searched_to: u64| WindowTip::Never {
        searched_to,
        complete: searched_to >= quiet,
    };
    if harness.window_tokens >= limit {
        for a in pending {
            tips[a] = never(harness.window_tokens);
        }
        return tips;
    }
    if !guarded && limit == quiet {
        // With every guard off, an action that fails with nothing compacted
        // fails at every window: it governs by a fact (or targets a binding)
        // that a subagent never sees, and that does not depend on rounds.
        runs += 1;
        if let Some(run) = oracle.with_window(quiet) {
            for &a in &pending {
                if run.actions().get(a).is_some_and(|x| x.outcome.is_failure()) {
                    tips[a] = never(quiet);
                }
            }
            pending.retain(|&a| matches!(tips[a], WindowTip::Holds));
        }
        if pending.is_empty() {
            return tips;
        }
    }
    let (mut lo, mut hi) = (
        harness.window_tokens,
        same_schedule_until(base, &harness, policy, &sizes),
    );
    let mut searched = lo;
    loop {
        hi = hi.min(limit);
        // With pressure, fidelity rises within a schedule: try the far end too.
        if pressure && hi > lo && runs < MAX_WINDOW_RUNS {
            runs += 1;
            let Some(far) = oracle.with_window(hi) else {
                break;
            };
            for &a in &pending {
                let Some(o) = far.actions().get(a).map(|x| x.outcome) else {
                    continue;
                };
                if o.is_failure() {
                    continue;
                }
                // Bisect (lo, hi]: lo fails, hi does not.
                let (mut fails, mut works, mut outcome) = (lo, hi, o);
                while works - fails > 1 && runs < MAX_WINDOW_RUNS {
                    let mid = fails + (works - fails) / 2;
                    runs += 1;
                    match oracle
                        .with_window(mid)
                        .and_then(|r| r.actions().get(a).map(|x| x.outcome))
                    {
                        Some(o) if o.is_failure() => fails = mid,
                        Some(o) => (works, outcome) = (mid, o),
                        None => break,
                    }
                }
                tips[a] = WindowTip::At {
                    window: works,
                    outcome,
                    exact: exact && works - fails == 1,
                };
            }
            pending.retain(|&a| matches!(tips[a], WindowTip::Holds));
        }
        searched = hi;
        if pending.is_empty() || hi >= limit || runs >= MAX_WINDOW_RUNS {
            break;
        }
        lo = hi + 1;
        runs += 1;
        let Some(run) = oracle.with_window(lo) else {
            break;
        };
        searched = lo;
        for &a in &pending {
            if let Some(o) = run.actions().get(a).map(|x| x.outcome)
                && !o.is_failure()
            {
                tips[a] = WindowTip::At {
                    window: lo,
                    outcome: o,
                    exact,
                };
            }
        }
        pending.retain(|&a| matches!(tips[a], WindowTip::Holds));
        hi = same_schedule_until(&run, &at_window(lo), policy, &sizes);
        if pending.is_empty() {
            break;
        }
    }
    for a in pending {
        tips[a] = never(searched);
    }
    tips
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn boundaries_are_exact_to_the_bit() {
        for n in 1..40 {
            for &q in &[1.0, 0.97, 0.5, 0.123] {
                for &thr in &[0.5, 0.1, 0.3333, 0.9, 1e-9] {
                    match boundary(n, q, thr) {
                        Some(b) => {
                            assert!(fidelity(b, n, q) >= thr, "n {n} q {q} thr {thr}");
                            if b > 0.0 {
                                assert!(
                                    fidelity(b.next_down(), n, q) < thr,
                                    "n {n} q {q} thr {thr}"
                                );
                            }
                        }
                        None => assert!(fidelity(1.0, n, q) < thr),
                    }
                }
            }
        }
        assert_eq!(boundary(3, 1.0, 0.0), Some(0.0));
        assert_eq!(boundary(1, 0.0, 0.5), None);
        assert_eq!(boundary(1, 1.0, 1.0), Some(1.0));
    }
}
