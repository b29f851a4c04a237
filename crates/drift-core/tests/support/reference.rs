//! docs/MODEL.md §2–§5 transcribed literally: every fact visited at every round.
//!
//! Slow on purpose and written without looking at the engine's closed form,
//! so the property tests can hold the engine to the contract on generated
//! scenarios the conformance suite does not cover.

use drift_core::{Kind, Outcome, Role, Scenario};

#[derive(Clone, Copy, Debug)]
pub struct State {
    pub f: f64,
    pub depth: u32,
    pub p: f64,
    pub unverified: bool,
    pub spilled: bool,
}

#[derive(Debug)]
pub struct RefRound {
    pub turn: u32,
    pub tokens_before: u64,
    pub tokens_after: u64,
    pub rate: f64,
    pub fabricated: bool,
    pub spills: u32,
    /// (state id, state) per fact existing at this round, `None` otherwise.
    pub facts: Vec<Option<(&'static str, State)>>,
}

#[derive(Debug)]
pub struct RefAction {
    pub outcome: Outcome,
    pub fidelity: f64,
    pub risk: f64,
    pub resolved: Option<usize>,
}

#[derive(Debug)]
pub struct RefRun {
    pub overflow: Option<u32>,
    pub rounds: Vec<RefRound>,
    pub actions: Vec<RefAction>,
}

/// Runs `s` (assumed valid) the literal way.
pub fn run(s: &Scenario) -> RefRun {
    let policy = s.effective_policy();
    let h = s.effective_harness();
    let tokens = |t: u32| -> u64 {
        s.turn_tokens
            .iter()
            .find(|e| e.turn == t)
            .map_or(h.tokens_per_turn, |e| e.tokens)
    };
    let (w, trig) = (h.window_tokens as u128, h.trigger_percent as u128);
    let due = |size: u64| -> bool {
        (size as u128) * 100 > w * trig
            || (h.reserve_tokens > 0
                && (size as i128) > (h.window_tokens as i128 - h.reserve_tokens as i128))
    };
    let thr = h.window_tokens as f64 * h.trigger_percent as f64 / 100.0;
    let m = &s.model;
    let hazard = if m.fabrication_base == 0.0 {
        0.0
    } else {
        (m.fabrication_base * (4096.0 / h.summary_tokens as f64).powf(m.fabrication_exponent))
            .min(1.0)
    };
    let governing: Vec<bool> = s
        .facts
        .iter()
        .map(|f| s.actions.iter().any(|a| a.governed_by.contains(&f.id)))
        .collect();
    let user_recent = |policy: &drift_core::Policy| -> Option<u64> {
        match policy.user_budget_tokens {
            Some(u) if policy.protected_roles.contains(Role::User) => {
                Some(u / h.user_message_tokens)
            }
            _ => None,
        }
    };

    let mut states: Vec<State> = s
        .facts
        .iter()
        .map(|_| State {
            f: 1.0,
            depth: 0,
            p: 0.0,
            unverified: false,
            spilled: false,
        })
        .collect();
    let mut rounds = Vec::new();
    // Snapshot of every fact's state after each round (for grading).
    let mut snapshots: Vec<Vec<State>> = Vec::new();
    let mut overflow = None;
    let mut size = h.system_tokens;
    for t in 1..=h.turns {
        size += tokens(t);
        if !due(size) {
            continue;
        }
        if !policy.compacts {
            overflow = Some(t);
            break;
        }
        // The tail.
        let tail_start = match policy.tail_percent {
            Some(p) => {
                let cap = h.window_tokens * p as u64 / 100;
                let mut start = t;
                let mut sum = tokens(t);
                if sum <= cap {
                    while start > 1 && sum + tokens(start - 1) <= cap {
                        start -= 1;
                        sum += tokens(start);
                    }
                }
                start
            }
            None => (t as i64 - h.tail_turns as i64 + 1).max(1) as u32,
        };
        let in_tail = |turn: u32| turn >= 1 && turn >= tail_start;
        let in_head = |turn: u32| turn >= 1 && turn <= policy.keep_first_turns;
        let o = ((size as f64 - thr) / thr).clamp(0.0, 1.0);
        let mut summarised_now = vec![false; s.facts.len()];
        let mut names: Vec<Option<&'static str>> = vec![None; s.facts.len()];
        let (mut cands, mut deep, mut spills) = (0u32, 0u32, 0u32);
        for (i, fact) in s.facts.iter().enumerate() {
            if fact.turn > t {
                continue;
            }
            let st = &mut states[i];
            let protected = policy.protected_roles.contains(fact.role)
                && match (fact.role, user_recent(&policy)) {
                    (Role::User, Some(n)) => (fact.turn as i64) > t as i64 - n as i64,
                    _ => true,
                };
            let name = if in_tail(fact.turn) {
                "tail"
            } else if in_head(fact.turn) {
                "head"
            } else if protected {
                "protected"
            } else if (fact.externalised && policy.rereads_external)
                || (s.guards.reinject_constraints
                    && matches!(
                        fact.kind,
                        Kind::StandingRule | Kind::CarveOut | Kind::Correction
                    ))
                || st.spilled
            {
                st.f = 1.0;
                st.depth = 0;
                st.p = 0.0;
                st.unverified = false;
                "restored"
            } else {
                let mut name = if policy.summarises {
                    if governing[i] {
                        cands += 1;
                        if st.depth >= 1 {
                            deep += 1;
                        }
                    }
                    let r = s.retention.get(fact.kind) * (1.0 - m.pressure_sensitivity * o);
                    st.f *= r;
                    if !(s.guards.entailment_gate && st.depth == 0) {
                        st.p = 1.0 - (1.0 - st.p) * (1.0 - hazard);
                    }
                    if s.guards.entailment_gate && st.depth >= 1 {
                        st.unverified = true;
                    }
                    st.depth += 1;
                    summarised_now[i] = true;
                    "summarised"
                } else {
                    st.f = 0.0;
                    "dropped"
                };
                if s.guards.commitment_audit
                    && matches!(
                        fact.kind,
                        Kind::Commitment | Kind::Rationale | Kind::RejectedOption
                    )
                    && !fact.externalised
                    && st.f < m.actionable_threshold
                {
                    st.f = 1.0;
                    st.depth = 0;
                    st.p = 0.0;
                    st.unverified = false;
                    st.spilled = true;
                    spills += 1;
                    summarised_now[i] = false;
                    name = "spilled";
                }
                name
            };
            names[i] = Some(name);
        }
        let rate = if cands > 0 {
            deep as f64 / cands as f64
        } else {
            0.0
        };
        let fabricated = rate > m.laundering_threshold;
        if fabricated && s.guards.entailment_gate {
            for (i, now) in summarised_now.iter().enumerate() {
                if *now {
                    states[i].unverified = true;
                }
            }
        }
        // Tokens after.
        let f_keep = policy.keep_first_turns.min(t);
        let kept: Vec<u32> = (1..=t)
            .filter(|&u| u >= tail_start || u <= f_keep)
            .collect();
        let mut after = h.system_tokens
            + if policy.summarises {
                h.summary_tokens
            } else {
                0
            }
            + kept.iter().map(|&u| tokens(u)).sum::<u64>();
        if let Some(n) = user_recent(&policy) {
            let extra = (1..=t)
                .filter(|&u| (u as i64) > t as i64 - n as i64 && !kept.contains(&u))
                .count() as u64;
            after += h.user_message_tokens * extra;
        }
        rounds.push(RefRound {
            turn: t,
            tokens_before: size,
            tokens_after: after,
            rate,
            fabricated,
            spills,
            facts: names
                .iter()
                .zip(&states)
                .map(|(n, st)| n.map(|n| (n, *st)))
                .collect(),
        });
        snapshots.push(states.clone());
        size = after;
        if due(size) {
            overflow = Some(t);
            break;
        }
    }

    let fresh = State {
        f: 1.0,
        depth: 0,
        p: 0.0,
        unverified: false,
        spilled: false,
    };
    let actions = s
        .actions
        .iter()
        .map(|a| {
            if overflow.is_some_and(|o| o <= a.turn) {
                return RefAction {
                    outcome: Outcome::NotReached,
                    fidelity: 0.0,
                    risk: 0.0,
                    resolved: None,
                };
            }
            let before = rounds.iter().filter(|r| r.turn < a.turn).count();
            let state = |g: usize| {
                if before == 0 {
                    fresh
                } else {
                    snapshots[before - 1][g]
                }
            };
            let eff = |g: usize| {
                if a.delegated && !s.facts[g].forwarded {
                    0.0
                } else {
                    state(g).f
                }
            };
            let mut gov: Vec<usize> = Vec::new();
            for id in &a.governed_by {
                let g = s.fact_index(id).unwrap();
                if !gov.contains(&g) {
                    gov.push(g);
                }
            }
            let m_min = gov.iter().map(|&g| eff(g)).fold(f64::INFINITY, f64::min);
            let mut keep = 1.0;
            for &g in &gov {
                if eff(g) > 0.0 {
                    keep *= 1.0 - state(g).p;
                }
            }
            let risk = 1.0 - keep;
            let mut resolved = None;
            if let Some(t) = &a.target {
                let b = s.fact_index(t).unwrap();
                let bound_id = &s.facts[b].binds.as_ref().unwrap().resource;
                let bound = s.resources.iter().position(|r| &r.id == bound_id).unwrap();
                let r = if eff(b) >= m.actionable_threshold {
                    bound
                } else if s.guards.verify_bindings {
                    return RefAction {
                        outcome: Outcome::Refused,
                        fidelity: m_min,
                        risk,
                        resolved: None,
                    };
                } else {
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
                    best.map_or(bound, |(_, i)| i)
                };
                resolved = Some(r);
                if r != bound {
                    return RefAction {
                        outcome: Outcome::Misbound,
                        fidelity: m_min,
                        risk,
                        resolved,
                    };
                }
            }
            if s.guards.entailment_gate
                && a.irreversible
                && gov.iter().any(|&g| state(g).unverified)
            {
                return RefAction {
                    outcome: Outcome::Refused,
                    fidelity: m_min,
                    risk,
                    resolved,
                };
            }
            let outcome = if m_min == 1.0 {
                Outcome::Governed
            } else if m_min >= m.actionable_threshold {
                Outcome::WeaklyGoverned
            } else {
                Outcome::Ungoverned
            };
            RefAction {
                outcome,
                fidelity: m_min,
                risk,
                resolved,
            }
        })
        .collect();
    RefRun {
        overflow,
        rounds,
        actions,
    }
}
