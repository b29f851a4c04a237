//! Why an action ended the way it did, in words a person can check.
//!
//! [`explain`] finds the cause (the governing fact that failed, the round it
//! fell below the actionable line, the resource a phrase resolved to) and
//! [`Explanation`]'s `Display` writes it as one sentence. The CLI and the page
//! both use it, so they never disagree about the story; they write token
//! counts with [`thousands`] for the same reason.

use alloc::string::{String, ToString};
use core::fmt;

use crate::grade::{Outcome, Reason};
use crate::run::Run;
use crate::scenario::{Fact, Scenario};

/// A count as people read it, its digits grouped in threes.
///
/// ```
/// assert_eq!(drift_core::thousands(0), "0");
/// assert_eq!(drift_core::thousands(1_234_567), "1,234,567");
/// ```
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The cause behind one action's outcome.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Cause {
    /// Every governing fact was verbatim.
    Intact,
    /// The window overflowed at `turn`, before the action.
    Overflow {
        /// The overflow turn.
        turn: u32,
    },
    /// A delegated action whose subagent never saw `fact`.
    NotForwarded {
        /// Index of the fact.
        fact: usize,
    },
    /// `fact` was below the actionable line (since `round`, when a round took it there).
    Faded {
        /// Index of the fact.
        fact: usize,
        /// 0-based index of the round that took it below the line.
        round: Option<usize>,
        /// Its fidelity when the action ran.
        fidelity: f64,
    },
    /// `fact` was still actionable but degraded.
    Degraded {
        /// Index of the fact.
        fact: usize,
        /// Its fidelity when the action ran.
        fidelity: f64,
    },
    /// The target binding had faded and `verify_bindings` refused the action.
    BindingUnconfirmed {
        /// Index of the binding fact.
        binding: usize,
        /// 0-based index of the round that took it below the line.
        round: Option<usize>,
    },
    /// The bare phrase resolved to another resource.
    Misbound {
        /// Index of the binding fact.
        binding: usize,
        /// 0-based index of the round that took it below the line.
        round: Option<usize>,
        /// Index of the resource acted on.
        resolved: usize,
    },
    /// An irreversible action whose premise only a summary vouched for.
    UnverifiedPremise {
        /// Index of the unverified governing fact.
        fact: usize,
    },
}

impl Cause {
    /// Its identifier, for tables and exports (`faded`, `not_forwarded`, …).
    pub const fn id(&self) -> &'static str {
        match self {
            Cause::Intact => "intact",
            Cause::Overflow { .. } => "overflow",
            Cause::NotForwarded { .. } => "not_forwarded",
            Cause::Faded { .. } => "faded",
            Cause::Degraded { .. } => "degraded",
            Cause::BindingUnconfirmed { .. } => "binding_unconfirmed",
            Cause::Misbound { .. } => "misbound",
            Cause::UnverifiedPremise { .. } => "unverified_premise",
        }
    }
}

/// An action's cause, ready to print.
#[derive(Clone, Copy, Debug)]
pub struct Explanation<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// The run.
    pub run: &'a Run,
    /// Index of the action.
    pub action: usize,
    /// What happened.
    pub cause: Cause,
}

/// Explains action `action` (an index into `scenario.actions`) of `run`.
/// Returns `None` for an index out of range.
///
/// O(governing facts · log rounds): the facts come resolved from the run,
/// and the round a fact fell below the line from its course in closed form.
pub fn explain<'a>(scenario: &'a Scenario, run: &'a Run, action: usize) -> Option<Explanation<'a>> {
    let a = scenario.actions.get(action)?;
    let graded = run.actions().get(action)?;
    let before = graded.rounds_before;
    let facts = &scenario.facts;
    // Indices from the run; checked, so a run of another scenario cannot
    // make the sentence index out of range.
    let governing = || {
        run.governing(action)
            .iter()
            .copied()
            .filter(|&g| g < facts.len())
    };
    let effective = |g: usize| -> f64 {
        let seen = !a.delegated || facts[g].forwarded;
        let f = run.fact_state_after(g, before).map_or(1.0, |s| s.fidelity);
        if seen { f } else { 0.0 }
    };
    let target = run.target(action).filter(|&b| b < facts.len());
    let weakest = || {
        governing().fold(None, |best: Option<(usize, f64)>, g| {
            let e = effective(g);
            match best {
                Some((_, b)) if b <= e => best,
                _ => Some((g, e)),
            }
        })
    };
    let cause = match (graded.outcome, graded.reason) {
        (Outcome::NotReached, _) => Cause::Overflow {
            turn: run.overflow_turn().unwrap_or(a.turn),
        },
        (Outcome::Refused, Reason::BindingUnconfirmed) => {
            let binding = target?;
            Cause::BindingUnconfirmed {
                binding,
                round: run.below_since(binding, before),
            }
        }
        (Outcome::Misbound, _) => {
            let binding = target?;
            Cause::Misbound {
                binding,
                round: run.below_since(binding, before),
                resolved: graded.resolved_resource?,
            }
        }
        (Outcome::Refused, _) => {
            let fact = governing().find(|&g| {
                run.fact_state_after(g, before)
                    .is_some_and(|s| s.unverified)
            })?;
            Cause::UnverifiedPremise { fact }
        }
        (Outcome::Ungoverned, _) => {
            let (fact, fidelity) = weakest()?;
            if a.delegated && !facts[fact].forwarded {
                Cause::NotForwarded { fact }
            } else {
                Cause::Faded {
                    fact,
                    round: run.below_since(fact, before),
                    fidelity,
                }
            }
        }
        (Outcome::WeaklyGoverned, _) => {
            let (fact, fidelity) = weakest()?;
            Cause::Degraded { fact, fidelity }
        }
        (Outcome::Governed, _) => Cause::Intact,
    };
    Some(Explanation {
        scenario,
        run,
        action,
        cause,
    })
}

/// "the change freeze (tool, turn 4)"
struct FactRef<'a>(&'a Fact);

impl fmt::Display for FactRef<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let fact = self.0;
        if fact.turn == 0 {
            write!(f, "\"{}\" (system prompt)", fact.id)
        } else {
            write!(f, "\"{}\" ({}, turn {})", fact.id, fact.role, fact.turn)
        }
    }
}

impl Explanation<'_> {
    fn round_phrase(&self, round: Option<usize>) -> String {
        match round.and_then(|j| self.run.rounds().get(j)) {
            Some(r) => alloc::format!(" since round {} at turn {}", r.index, r.turn),
            None => String::new(),
        }
    }
}

impl fmt::Display for Explanation<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.scenario;
        let action = &s.actions[self.action];
        let who = if action.delegated {
            "a subagent"
        } else {
            "the agent"
        };
        match self.cause {
            Cause::Intact => write!(
                f,
                "At turn {}, every rule it needs is still verbatim in context.",
                action.turn
            ),
            Cause::Overflow { turn } => write!(
                f,
                "The window overflowed at turn {turn}; the session never reached turn {}.",
                action.turn
            ),
            Cause::NotForwarded { fact } => write!(
                f,
                "{} was never in the subagent's brief; at turn {} {who} acts without it.",
                FactRef(&s.facts[fact]),
                action.turn
            ),
            Cause::Faded {
                fact,
                round,
                fidelity,
            } => write!(
                f,
                "{} is below the actionable line{} (fidelity {:.2}); at turn {} {who} acts without it.",
                FactRef(&s.facts[fact]),
                self.round_phrase(round),
                fidelity,
                action.turn
            ),
            Cause::Degraded { fact, fidelity } => write!(
                f,
                "{} survives only as a summary (fidelity {:.2}); at turn {} {who} acts on a paraphrase.",
                FactRef(&s.facts[fact]),
                fidelity,
                action.turn
            ),
            Cause::BindingUnconfirmed { binding, round } => write!(
                f,
                "{} is below the actionable line{}; verify_bindings cannot confirm what it points at and refuses the action at turn {}.",
                FactRef(&s.facts[binding]),
                self.round_phrase(round),
                action.turn
            ),
            Cause::Misbound {
                binding,
                round,
                resolved,
            } => {
                let fact = &s.facts[binding];
                let phrase = fact.binds.as_ref().map_or("", |b| b.phrase.as_str());
                let bound = fact.binds.as_ref().map_or("", |b| b.resource.as_str());
                write!(
                    f,
                    "{} is below the actionable line{}; at turn {} \"{phrase}\" resolves to the most recently mentioned {}, not {bound}.",
                    FactRef(fact),
                    self.round_phrase(round),
                    action.turn,
                    s.resources.get(resolved).map_or("", |r| r.id.as_str()),
                )
            }
            Cause::UnverifiedPremise { fact } => write!(
                f,
                "{} is vouched for only by an earlier summary; the entailment gate refuses the irreversible action at turn {}.",
                FactRef(&s.facts[fact]),
                action.turn
            ),
        }
    }
}

/// When `scenario` runs a harness preset in a window far too small for it,
/// one sentence saying so: the harness presets are meant for the windows
/// those harnesses run at (100k tokens and more), and in a small one a
/// preset overflows, or compacts at least once every four turns, which no
/// such harness does. `None` for the reference policies, a custom policy,
/// and a window that fits.
pub fn window_misfit(scenario: &Scenario, run: &Run) -> Option<String> {
    let crate::policy::PolicyChoice::Preset(p) = scenario.policy else {
        return None;
    };
    if crate::policy::Preset::V1.contains(&p) {
        return None;
    }
    let h = run.harness();
    let lead = alloc::format!(
        "{} is meant for windows of 100k tokens and more; with {} tokens",
        p.info().name,
        thousands(h.window_tokens)
    );
    if let Some(o) = run.overflow_turn() {
        return Some(alloc::format!("{lead} it overflows at turn {o}."));
    }
    let rounds = u32::try_from(run.rounds().len()).unwrap_or(u32::MAX);
    (rounds > 0 && rounds.saturating_mul(4) >= h.turns)
        .then(|| alloc::format!("{lead} it compacts {rounds} times in {} turns.", h.turns))
}
