//! One simulation: the rounds, every fact's course, every action's grade.

use alloc::vec::Vec;

use crate::error::ScenarioError;
use crate::grade::{ActionOutcome, Grader, Outcome, Salience};
use crate::harness::Harness;
use crate::policy::Policy;
use crate::round::{Context, Course, Decay, FactState, RoundState};
use crate::scenario::{Index, IndexedAction, Scenario, ValidScenario};
use crate::schedule::{ContextFill, Schedule, TurnSizes};

/// Whether a round's summary can still be trusted.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Regime {
    /// Few of the actionable claims it summarised were already summaries.
    CompressedRecall,
    /// The laundering rate exceeded the threshold: the summary as a whole is
    /// untrusted.
    FabricatedHistory,
}

impl Regime {
    /// The identifier used in results.
    pub const fn id(self) -> &'static str {
        match self {
            Regime::CompressedRecall => "compressed_recall",
            Regime::FabricatedHistory => "fabricated_history",
        }
    }
}

/// One compaction round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Round {
    /// 1-based.
    pub index: u32,
    /// The turn it happened at.
    pub turn: u32,
    /// Context size that triggered it.
    pub tokens_before: u64,
    /// Context size after it (too large when the session overflows anyway).
    pub tokens_after: u64,
    /// Share of the summarised governing facts that were already summaries.
    pub laundering_rate: f64,
    /// Whether the summary is trusted.
    pub regime: Regime,
    /// Facts the commitment audit spilled.
    pub spills: u32,
    /// How far past the trigger the context was, `o` in `[0, 1]`.
    pub overshoot: f64,
    /// The first turn of the tail this round kept.
    pub tail_start: u32,
}

/// A fact's entry for one round.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimelineEntry {
    /// The round (1-based index).
    pub round: u32,
    /// The round's turn.
    pub turn: u32,
    /// What the round did to the fact.
    pub state: RoundState,
    /// The fact afterwards.
    pub fact: FactState,
}

/// Outcome counts of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OutcomeCounts([u32; 6]);

impl OutcomeCounts {
    /// How many actions had `outcome`.
    pub fn get(&self, outcome: Outcome) -> u32 {
        self.0[outcome as usize]
    }

    /// `(outcome, count)` in [`Outcome::ALL`] order.
    pub fn iter(&self) -> impl Iterator<Item = (Outcome, u32)> + '_ {
        Outcome::ALL.into_iter().map(|o| (o, self.get(o)))
    }

    /// Total actions.
    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }
}

/// The result of [`simulate`]: rounds and outcomes, with every fact's state
/// at every round available on request.
#[derive(Debug)]
pub struct Run {
    policy_id: &'static str,
    policy: Policy,
    harness: Harness,
    rounds: Vec<Round>,
    overflow_turn: Option<u32>,
    courses: Vec<Course>,
    decay: Decay,
    actions: Vec<ActionOutcome>,
    /// Per action, its governing facts and target as fact indices.
    links: Vec<IndexedAction>,
    sizes: TurnSizes,
}

/// Simulates `scenario` under its own settings.
///
/// Rounds and outcomes cost O(sized turns + rounds · log turns + facts · log
/// rounds + actions · (governing facts + log rounds)); fact states are
/// computed when asked for, in O(1) each.
///
/// # Errors
///
/// The scenario's first violation of docs/MODEL.md §6 (see [`Scenario::validate`]).
///
/// # Example
///
/// ```
/// let scenario = drift_core::builtin("payments-incident").unwrap();
/// let run = drift_core::simulate(&scenario).unwrap();
/// let rollback = scenario.actions.iter().position(|a| a.id == "rollback-payments").unwrap();
/// assert_eq!(run.actions()[rollback].outcome, drift_core::Outcome::Ungoverned);
/// ```
pub fn simulate(scenario: &Scenario) -> Result<Run, ScenarioError> {
    Ok(run(scenario, scenario.index()?))
}

/// Simulates a scenario validated already ([`Scenario::into_valid`]): what
/// [`simulate`] does, without checking it again.
///
/// # Example
///
/// ```
/// let scenario = drift_core::builtin("payments-incident").unwrap();
/// let valid = scenario.clone().into_valid().unwrap();
/// assert_eq!(
///     drift_core::simulate_valid(&valid).actions(),
///     drift_core::simulate(&scenario).unwrap().actions()
/// );
/// ```
pub fn simulate_valid(scenario: &ValidScenario) -> Run {
    run(scenario.scenario(), scenario.index().clone())
}

/// The run of `scenario`, whose ids `index` resolves.
fn run(scenario: &Scenario, index: Index) -> Run {
    let harness = index.harness;
    let policy = index.policy;
    let sizes = TurnSizes::new(
        &harness,
        scenario.turn_tokens.iter().map(|e| (e.turn, e.tokens)),
    );
    let schedule = Schedule::compute(&harness, &policy, &sizes);
    let plans = &schedule.rounds;
    let count = plans.len() as u32;
    let mut decay = Decay::new(
        plans,
        &scenario.retention,
        &scenario.model,
        &scenario.guards,
        harness.summary_tokens,
    );
    let cx = Context {
        rounds: plans,
        policy: &policy,
        guards: &scenario.guards,
        user_message_tokens: harness.user_message_tokens,
    };
    let courses: Vec<Course> = scenario
        .facts
        .iter()
        .map(|fact| Course::plan(fact, &cx, &decay))
        .collect();

    // Laundering (§3): per round, governing facts summarised, and those of
    // them already summaries before it. Each fact is summarised over one
    // contiguous run of rounds, so difference arrays count them in O(1) each.
    let mut summarised = alloc::vec![0i64; plans.len() + 1];
    let mut laundered = alloc::vec![0i64; plans.len() + 1];
    let mut spills = alloc::vec![0u32; plans.len()];
    for (course, &governs) in courses.iter().zip(&index.governing) {
        if let Some(s) = spills.get_mut(course.spill as usize) {
            *s += 1;
        }
        let c = course.exposed_from;
        if !governs || c >= count || !course.summarised_at(c) {
            continue;
        }
        let end = course.spill.min(count - 1) as usize + 1;
        summarised[c as usize] += 1;
        summarised[end] -= 1;
        if c as usize + 1 < end {
            laundered[c as usize + 1] += 1;
            laundered[end] -= 1;
        }
    }
    let (mut in_round, mut deep) = (0i64, 0i64);
    let mut rounds = Vec::with_capacity(plans.len());
    for (j, plan) in plans.iter().enumerate() {
        in_round += summarised[j];
        deep += laundered[j];
        let rate = if in_round > 0 {
            deep as f64 / in_round as f64
        } else {
            0.0
        };
        let regime = if rate > scenario.model.laundering_threshold {
            decay.fabricated[j] = true;
            Regime::FabricatedHistory
        } else {
            Regime::CompressedRecall
        };
        rounds.push(Round {
            index: j as u32 + 1,
            turn: plan.turn,
            tokens_before: plan.tokens_before,
            tokens_after: plan.tokens_after,
            laundering_rate: rate,
            regime,
            spills: spills[j],
            overshoot: plan.overshoot,
            tail_start: plan.tail_start,
        });
    }

    let salience = Salience::new(&scenario.resources);
    let grader = Grader {
        facts: &scenario.facts,
        courses: &courses,
        decay: &decay,
        salience: &salience,
        threshold: scenario.model.actionable_threshold,
        verify_bindings: scenario.guards.verify_bindings,
        entailment_gate: scenario.guards.entailment_gate,
        overflow_turn: schedule.overflow_turn,
    };
    let actions = scenario
        .actions
        .iter()
        .zip(&index.actions)
        .map(|(action, indexed)| {
            let rounds_before = plans.partition_point(|r| r.turn < action.turn) as u32;
            grader.grade(action, indexed, rounds_before)
        })
        .collect();

    Run {
        links: index.actions,
        policy_id: scenario.policy.id(),
        policy,
        harness,
        rounds,
        overflow_turn: schedule.overflow_turn,
        courses,
        decay,
        actions,
        sizes,
    }
}

impl Run {
    /// The policy id for results: a preset id or `custom`.
    pub fn policy_id(&self) -> &'static str {
        self.policy_id
    }

    /// The policy switches in effect.
    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// The harness in effect (after the policy's overrides).
    pub fn harness(&self) -> &Harness {
        &self.harness
    }

    /// The compaction rounds, in turn order.
    pub fn rounds(&self) -> &[Round] {
        &self.rounds
    }

    /// The tokens in context turn by turn, and each turn's size: what a
    /// context-fill chart draws. O(turns).
    ///
    /// ```
    /// let scenario = drift_core::builtin("payments-incident").unwrap();
    /// let run = drift_core::simulate(&scenario).unwrap();
    /// let fill = run.context_fill();
    /// let first = run.rounds()[0];
    /// // The round's turn appears twice: before the round and after it.
    /// let at: Vec<u64> = fill.points.iter().filter(|p| p.0 == first.turn).map(|p| p.1).collect();
    /// assert_eq!(at, [first.tokens_before, first.tokens_after]);
    /// assert_eq!(fill.turn_tokens.len(), scenario.harness.turns as usize);
    /// ```
    pub fn context_fill(&self) -> ContextFill {
        ContextFill::new(&self.harness, &self.sizes, &self.rounds, self.overflow_turn)
    }

    /// The tokens turn `turn` adds to the context (0 outside the session).
    pub fn turn_tokens(&self, turn: u32) -> u64 {
        if turn > self.harness.turns {
            return 0;
        }
        self.sizes.tokens(turn)
    }

    /// The turn the window overflowed at, if it did.
    pub fn overflow_turn(&self) -> Option<u32> {
        self.overflow_turn
    }

    /// Each action's grade, in file order.
    pub fn actions(&self) -> &[ActionOutcome] {
        &self.actions
    }

    /// How many actions had each outcome.
    pub fn counts(&self) -> OutcomeCounts {
        let mut counts = OutcomeCounts::default();
        for a in &self.actions {
            counts.0[a.outcome as usize] += 1;
        }
        counts
    }

    /// Fact `fact`'s treatment and state at round index `round` (0-based),
    /// or `None` when the fact did not exist yet or either index is out of range.
    pub fn fact_state(&self, fact: usize, round: usize) -> Option<(RoundState, FactState)> {
        let course = self.courses.get(fact)?;
        let j = u32::try_from(round).ok()?;
        (round < self.rounds.len() && j >= course.first).then(|| course.state_at(j, &self.decay))
    }

    /// The facts that govern action `action`, as indices into the scenario's
    /// facts: each once, in the order `governed_by` first names them. Empty
    /// for an index out of range.
    pub fn governing(&self, action: usize) -> &[usize] {
        self.links.get(action).map_or(&[], |a| &a.governed_by)
    }

    /// The binding fact action `action` targets, as an index into the
    /// scenario's facts.
    pub fn target(&self, action: usize) -> Option<usize> {
        self.links.get(action)?.target.map(|t| t.fact)
    }

    /// The first round (0-based index) of the stretch of rounds, ending just
    /// before the action that `rounds_before` rounds precede, after each of
    /// which fact `fact` was below the actionable line; `None` when it was
    /// not below the line then. O(log rounds).
    pub(crate) fn below_since(&self, fact: usize, rounds_before: u32) -> Option<usize> {
        let course = self.courses.get(fact)?;
        let before = rounds_before.min(self.rounds.len() as u32);
        course.below_since(before, &self.decay).map(|j| j as usize)
    }

    /// The rounds (0-based, ascending) at which fact `fact`'s standing can
    /// change; at every other round its state is the one it had just before
    /// (or verbatim, before its first round). At most four.
    pub(crate) fn turning_points(&self, fact: usize) -> impl Iterator<Item = usize> + '_ {
        let count = self.rounds.len() as u32;
        self.courses
            .get(fact)
            .into_iter()
            .flat_map(move |c| c.turning_points(count, &self.decay))
            .map(|j| j as usize)
    }

    /// Fact `fact`'s state after the first `rounds_before` rounds (verbatim
    /// before its first round), as an action with `rounds_before` rounds
    /// before it sees it.
    pub(crate) fn fact_state_after(&self, fact: usize, rounds_before: u32) -> Option<FactState> {
        let course = self.courses.get(fact)?;
        Some(course.state_after(rounds_before, &self.decay))
    }

    /// Fact `fact`'s state as seen at `turn`, after every round before it.
    pub fn fact_state_at_turn(&self, fact: usize, turn: u32) -> Option<FactState> {
        let course = self.courses.get(fact)?;
        let before = self.rounds.partition_point(|r| r.turn < turn) as u32;
        Some(course.state_after(before, &self.decay))
    }

    /// Fact `fact`'s timeline: one entry per round at which it existed.
    /// Empty for an index out of range.
    pub fn timeline(&self, fact: usize) -> impl ExactSizeIterator<Item = TimelineEntry> + '_ {
        let first = self.courses.get(fact).map_or(self.rounds.len(), |c| {
            (c.first as usize).min(self.rounds.len())
        });
        self.rounds[first..]
            .iter()
            .enumerate()
            .map(move |(k, round)| {
                let (state, fact_state) =
                    self.courses[fact].state_at((first + k) as u32, &self.decay);
                TimelineEntry {
                    round: round.index,
                    turn: round.turn,
                    state,
                    fact: fact_state,
                }
            })
    }
}
