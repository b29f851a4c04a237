//! The yardstick: `drift check`'s work done the straightforward way, as a
//! second implementation written from docs/MODEL.md §2–§5 would do it (adapted
//! from the literal transcription in `tests/support/reference.rs`).
//!
//! Turn by turn; at each round, every fact is visited. Each action is graded
//! when the session reaches its turn, from the facts' states then. Two ways
//! to know when a fact fell below the line (for the explanation):
//!
//! - [`Keep::Timelines`]: every fact's state after every round is kept (the
//!   timelines a `result@1` reports, and what a run would serve states
//!   from), and a failing action's fact is walked back along its timeline;
//! - [`Keep::Latest`]: only the latest state, and per fact the round it last
//!   fell below the line: the least a per-round walk can keep.
//!
//! Lookups are what such a peer would reach for (turn sizes in an array, ids
//! in hash maps), so the cost that remains is the model read literally:
//! rounds × facts.

use std::collections::{HashMap, HashSet};

use drift_core::{Cause, Kind, Outcome, Role, Scenario, explain, simulate};

#[derive(Clone, Copy, Debug)]
struct State {
    f: f64,
    depth: u32,
    p: f64,
    unverified: bool,
    spilled: bool,
}

const FRESH: State = State {
    f: 1.0,
    depth: 0,
    p: 0.0,
    unverified: false,
    spilled: false,
};

/// What the walk keeps of each fact's course.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    /// Every state after every round.
    Timelines,
    /// The latest state and the round it last fell below the line.
    Latest,
}

/// What `drift check` reports, per action: the outcome and, for a failure
/// explained by a fact below the line, that fact and the round (0-based) it
/// fell below the line at.
#[derive(Debug, PartialEq)]
pub struct Checked {
    pub outcome: Outcome,
    pub faded: Option<(usize, Option<usize>)>,
}

/// The fact, and the round it fell below the line at, that `cause` names
/// as below the line, if it names one.
pub fn below_the_line(cause: Cause) -> Option<(usize, Option<usize>)> {
    match cause {
        Cause::Faded { fact, round, .. } => Some((fact, round)),
        Cause::Misbound { binding, round, .. } | Cause::BindingUnconfirmed { binding, round } => {
            Some((binding, round))
        }
        _ => None,
    }
}

/// `drift check`'s findings on `s` (assumed valid) from the engine, in the
/// yardstick's terms: the outcome and the fact (with its round) an
/// explanation names as below the line.
pub fn engine(s: &Scenario) -> Vec<Checked> {
    let run = simulate(s).expect("valid");
    run.actions()
        .iter()
        .enumerate()
        .map(|(a, graded)| Checked {
            outcome: graded.outcome,
            faded: explain(s, &run, a).and_then(|e| below_the_line(e.cause)),
        })
        .collect()
}

/// `drift check`'s findings on `s` (assumed valid), the per-round way, in
/// file order of the actions.
pub fn check(s: &Scenario, keep: Keep) -> Vec<Checked> {
    let policy = s.effective_policy();
    let h = s.effective_harness();
    let m = &s.model;
    let line = m.actionable_threshold;
    let mut sizes = vec![h.tokens_per_turn; h.turns as usize + 1];
    for e in &s.turn_tokens {
        sizes[e.turn as usize] = e.tokens;
    }
    let (w, trig) = (h.window_tokens as u128, h.trigger_percent as u128);
    let due = |size: u64| -> bool {
        (size as u128) * 100 > w * trig
            || (h.reserve_tokens > 0
                && (size as i128) > (h.window_tokens as i128 - h.reserve_tokens as i128))
    };
    let thr = h.window_tokens as f64 * h.trigger_percent as f64 / 100.0;
    let hazard = if m.fabrication_base == 0.0 {
        0.0
    } else {
        (m.fabrication_base * (4096.0 / h.summary_tokens as f64).powf(m.fabrication_exponent))
            .min(1.0)
    };
    let index: HashMap<&str, usize> = s
        .facts
        .iter()
        .enumerate()
        .map(|(i, f)| (f.id.as_str(), i))
        .collect();
    let governing_ids: HashSet<&str> = s
        .actions
        .iter()
        .flat_map(|a| a.governed_by.iter().map(String::as_str))
        .collect();
    let governing: Vec<bool> = s
        .facts
        .iter()
        .map(|f| governing_ids.contains(f.id.as_str()))
        .collect();
    let user_recent = match policy.user_budget_tokens {
        Some(u) if policy.protected_roles.contains(Role::User) => Some(u / h.user_message_tokens),
        _ => None,
    };
    // Actions in turn order, each graded when the session reaches its turn.
    let mut pending: Vec<usize> = (0..s.actions.len()).collect();
    pending.sort_by_key(|&a| s.actions[a].turn);
    let mut pending = pending.into_iter().peekable();
    let mut checked: Vec<Option<Checked>> = s.actions.iter().map(|_| None).collect();

    let mut walk = Walk {
        s,
        keep,
        line,
        states: vec![FRESH; s.facts.len()],
        timelines: vec![
            Vec::new();
            if keep == Keep::Timelines {
                s.facts.len()
            } else {
                0
            }
        ],
        first_round: vec![usize::MAX; s.facts.len()],
        below_since: vec![None; s.facts.len()],
        rounds: 0,
    };
    let mut overflow = None;
    let mut size = h.system_tokens;
    for t in 1..=h.turns {
        size += sizes[t as usize];
        if !due(size) {
            continue;
        }
        // Every action up to this turn sees the rounds before it; one at this
        // turn is not reached if the session overflows here.
        let mut at_turn = Vec::new();
        while let Some(a) = pending.next_if(|&a| s.actions[a].turn <= t) {
            checked[a] = Some(walk.grade(a, &index));
            if s.actions[a].turn == t {
                at_turn.push(a);
            }
        }
        let not_reached = |checked: &mut Vec<Option<Checked>>| {
            for &a in &at_turn {
                checked[a] = Some(Checked {
                    outcome: Outcome::NotReached,
                    faded: None,
                });
            }
        };
        if !policy.compacts {
            not_reached(&mut checked);
            overflow = Some(t);
            break;
        }
        let tail_start = match policy.tail_percent {
            Some(p) => {
                let cap = h.window_tokens * p as u64 / 100;
                let mut start = t;
                let mut sum = sizes[t as usize];
                if sum <= cap {
                    while start > 1 && sum + sizes[start as usize - 1] <= cap {
                        start -= 1;
                        sum += sizes[start as usize];
                    }
                }
                start
            }
            None => (t as i64 - h.tail_turns as i64 + 1).max(1) as u32,
        };
        let o = ((size as f64 - thr) / thr).clamp(0.0, 1.0);
        let mut summarised_now = Vec::new();
        let (mut cands, mut deep) = (0u32, 0u32);
        for (i, fact) in s.facts.iter().enumerate() {
            if fact.turn > t {
                continue;
            }
            let st = &mut walk.states[i];
            let protected = policy.protected_roles.contains(fact.role)
                && match (fact.role, user_recent) {
                    (Role::User, Some(n)) => (fact.turn as i64) > t as i64 - n as i64,
                    _ => true,
                };
            let in_tail = fact.turn >= 1 && fact.turn >= tail_start;
            let in_head = fact.turn >= 1 && fact.turn <= policy.keep_first_turns;
            if in_tail || in_head || protected {
                continue;
            }
            if (fact.externalised && policy.rereads_external)
                || (s.guards.reinject_constraints
                    && matches!(
                        fact.kind,
                        Kind::StandingRule | Kind::CarveOut | Kind::Correction
                    ))
                || st.spilled
            {
                *st = State {
                    spilled: st.spilled,
                    ..FRESH
                };
                continue;
            }
            if policy.summarises {
                if governing[i] {
                    cands += 1;
                    if st.depth >= 1 {
                        deep += 1;
                    }
                }
                st.f *= s.retention.get(fact.kind) * (1.0 - m.pressure_sensitivity * o);
                if !(s.guards.entailment_gate && st.depth == 0) {
                    st.p = 1.0 - (1.0 - st.p) * (1.0 - hazard);
                }
                if s.guards.entailment_gate && st.depth >= 1 {
                    st.unverified = true;
                }
                st.depth += 1;
                summarised_now.push(i);
            } else {
                st.f = 0.0;
            }
            if s.guards.commitment_audit
                && matches!(
                    fact.kind,
                    Kind::Commitment | Kind::Rationale | Kind::RejectedOption
                )
                && !fact.externalised
                && st.f < line
            {
                *st = State {
                    spilled: true,
                    ..FRESH
                };
                summarised_now.pop_if(|last| *last == i);
            }
        }
        let rate = if cands > 0 {
            deep as f64 / cands as f64
        } else {
            0.0
        };
        if rate > m.laundering_threshold && s.guards.entailment_gate {
            for &i in &summarised_now {
                walk.states[i].unverified = true;
            }
        }
        walk.record(t);
        // Tokens after: the system prompt, the summary, the kept turns.
        let head_end = policy.keep_first_turns.min(t);
        let mut after = h.system_tokens
            + if policy.summarises {
                h.summary_tokens
            } else {
                0
            };
        for u in tail_start..=t {
            after += sizes[u as usize];
        }
        for u in 1..=head_end.min(tail_start - 1) {
            after += sizes[u as usize];
        }
        if let Some(n) = user_recent {
            let first = (t as i64 - n as i64 + 1).max(1) as u32;
            for u in first..=t {
                if u < tail_start && u > head_end {
                    after += h.user_message_tokens;
                }
            }
        }
        size = after;
        if due(size) {
            not_reached(&mut checked);
            overflow = Some(t);
            break;
        }
    }
    for a in pending {
        checked[a] = Some(if overflow.is_some_and(|o| o <= s.actions[a].turn) {
            Checked {
                outcome: Outcome::NotReached,
                faded: None,
            }
        } else {
            walk.grade(a, &index)
        });
    }
    checked
        .into_iter()
        .map(|c| c.expect("every action graded"))
        .collect()
}

/// The facts' states as the walk goes.
struct Walk<'s> {
    s: &'s Scenario,
    keep: Keep,
    line: f64,
    states: Vec<State>,
    /// `Keep::Timelines`: each fact's state after each round from its first.
    timelines: Vec<Vec<State>>,
    first_round: Vec<usize>,
    /// `Keep::Latest`: the round each fact last fell below the line, while it stays there.
    below_since: Vec<Option<usize>>,
    /// Rounds so far.
    rounds: usize,
}

impl Walk<'_> {
    /// After a round at turn `t`: every fact that exists keeps its state.
    fn record(&mut self, t: u32) {
        let round = self.rounds;
        for (i, fact) in self.s.facts.iter().enumerate() {
            if fact.turn > t {
                continue;
            }
            if self.first_round[i] == usize::MAX {
                self.first_round[i] = round;
            }
            let st = self.states[i];
            match self.keep {
                Keep::Timelines => self.timelines[i].push(st),
                Keep::Latest => {
                    if st.f < self.line {
                        self.below_since[i].get_or_insert(round);
                    } else {
                        self.below_since[i] = None;
                    }
                }
            }
        }
        self.rounds += 1;
    }

    /// The round fact `g` fell below the line and has stayed there since.
    fn faded_at(&self, g: usize) -> Option<usize> {
        match self.keep {
            Keep::Latest => self.below_since[g],
            Keep::Timelines => {
                let first = self.first_round[g];
                let timeline = &self.timelines[g];
                let mut since = None;
                for (k, st) in timeline.iter().enumerate().rev() {
                    if st.f >= self.line {
                        break;
                    }
                    since = Some(first + k);
                }
                since
            }
        }
    }

    /// Grades action `a` on the states now.
    fn grade(&self, a: usize, index: &HashMap<&str, usize>) -> Checked {
        let s = self.s;
        let a = &s.actions[a];
        let line = self.line;
        let eff = |g: usize| {
            if a.delegated && !s.facts[g].forwarded {
                0.0
            } else {
                self.states[g].f
            }
        };
        let mut gov: Vec<usize> = Vec::new();
        for id in &a.governed_by {
            let g = index[id.as_str()];
            if !gov.contains(&g) {
                gov.push(g);
            }
        }
        let weakest = gov
            .iter()
            .copied()
            .fold(None, |best: Option<(usize, f64)>, g| match best {
                Some((_, b)) if b <= eff(g) => best,
                _ => Some((g, eff(g))),
            });
        let m_min = weakest.map_or(f64::INFINITY, |(_, f)| f);
        if let Some(target) = &a.target {
            let b = index[target.as_str()];
            let bound_id = &s.facts[b].binds.as_ref().expect("a binding").resource;
            let bound = s
                .resources
                .iter()
                .position(|r| &r.id == bound_id)
                .expect("bound");
            if eff(b) < line {
                let faded = Some((b, self.faded_at(b)));
                if s.guards.verify_bindings {
                    return Checked {
                        outcome: Outcome::Refused,
                        faded,
                    };
                }
                let class = &s.resources[bound].class;
                let mut best: Option<(u32, usize)> = None;
                for (i, res) in s.resources.iter().enumerate() {
                    if &res.class != class {
                        continue;
                    }
                    if let Some(latest) =
                        res.mentions.iter().copied().filter(|&m| m <= a.turn).max()
                        && best.is_none_or(|(t, _)| latest > t)
                    {
                        best = Some((latest, i));
                    }
                }
                if best.map_or(bound, |(_, i)| i) != bound {
                    return Checked {
                        outcome: Outcome::Misbound,
                        faded,
                    };
                }
            }
        }
        if s.guards.entailment_gate
            && a.irreversible
            && gov.iter().any(|&g| self.states[g].unverified)
        {
            return Checked {
                outcome: Outcome::Refused,
                faded: None,
            };
        }
        let outcome = if m_min == 1.0 {
            Outcome::Governed
        } else if m_min >= line {
            Outcome::WeaklyGoverned
        } else {
            Outcome::Ungoverned
        };
        let faded = (outcome == Outcome::Ungoverned)
            .then(|| weakest.expect("a governing fact").0)
            .filter(|&g| !a.delegated || s.facts[g].forwarded)
            .map(|g| (g, self.faded_at(g)));
        Checked { outcome, faded }
    }
}
