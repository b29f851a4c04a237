//! The sentence at the top of the page and the why line of every action that
//! did not run as its rules say, in plain words generated from the run.

use drift_core::{Outcome, PolicyChoice, Run, Scenario, explain};

/// The headline of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    /// "Under pinned prefix, 4 of 8 actions run without their rule."
    pub summary: String,
    /// One line per action that was ungoverned, misbound or refused (by
    /// [`headline`]: the worst few).
    pub lines: Vec<StoryLine>,
    /// How many more went wrong (none from [`tell`]).
    pub more: usize,
}

/// How many actions that went wrong a headline explains when there are
/// many: the worst; the others are "and N more".
pub const FEW: usize = 3;

/// Why one action went wrong.
#[derive(Clone, Debug, PartialEq)]
pub struct StoryLine {
    /// Index of the action.
    pub action: usize,
    /// Its outcome.
    pub outcome: Outcome,
    /// The explanation.
    pub why: String,
}

/// The display name of the policy in force.
pub fn policy_name(policy: &PolicyChoice) -> &'static str {
    match policy {
        PolicyChoice::Preset(p) => p.info().name,
        PolicyChoice::Custom(_) => "a custom policy",
    }
}

/// `n` and the word for one or for many.
pub(crate) fn plural(n: impl Into<u64>, one: &str, many: &str) -> String {
    let n = n.into();
    if n == 1 {
        format!("{n} {one}")
    } else {
        format!("{n} {many}")
    }
}

/// Tells what `run` did to `scenario`'s actions, explaining every one that
/// went wrong.
pub fn tell(scenario: &Scenario, run: &Run) -> Story {
    told(scenario, run, usize::MAX)
}

/// Tells what `run` did to `scenario`'s actions in a sentence and the
/// [`FEW`] worst actions (misbound before ungoverned before refused, then
/// irreversible first, then the least fidelity); the rest are counted in
/// [`Story::more`]. With a handful, every one is explained.
pub fn headline(scenario: &Scenario, run: &Run) -> Story {
    told(scenario, run, FEW)
}

/// Why action `action` went wrong, if it did.
fn line(scenario: &Scenario, run: &Run, action: usize) -> Option<StoryLine> {
    let a = run.actions().get(action)?;
    if !matches!(
        a.outcome,
        Outcome::Ungoverned | Outcome::Misbound | Outcome::Refused
    ) {
        return None;
    }
    Some(StoryLine {
        action,
        outcome: a.outcome,
        why: explain(scenario, run, action)?.to_string(),
    })
}

fn told(scenario: &Scenario, run: &Run, few: usize) -> Story {
    let counts = run.counts();
    let total = counts.total();
    if total == 0 {
        return Story {
            summary: format!(
                "Under {}, nothing is graded: the scenario has no action.",
                policy_name(&scenario.policy)
            ),
            lines: Vec::new(),
            more: 0,
        };
    }
    let mut parts = Vec::new();
    let ungoverned = counts.get(Outcome::Ungoverned);
    parts.push(format!(
        "{} of {total} {} without {}",
        ungoverned,
        if total == 1 {
            "action runs"
        } else {
            "actions run"
        },
        if ungoverned == 1 {
            "its rule"
        } else {
            "their rules"
        },
    ));
    let misbound = counts.get(Outcome::Misbound);
    if misbound > 0 {
        parts.push(format!(
            "{} on the wrong resource",
            plural(misbound, "acts", "act")
        ));
    }
    let refused = counts.get(Outcome::Refused);
    if refused > 0 {
        parts.push(format!(
            "{} refused by a guard",
            plural(refused, "is", "are")
        ));
    }
    let not_reached = counts.get(Outcome::NotReached);
    if not_reached > 0 {
        parts.push(format!(
            "{} never reached: the window overflows at turn {}",
            plural(not_reached, "is", "are"),
            run.overflow_turn().unwrap_or_default()
        ));
    }
    let summary = format!("Under {}, {}.", policy_name(&scenario.policy), join(&parts));
    let mut rest: Vec<usize> = (0..run.actions().len())
        .filter(|&i| badness(scenario, run, i).is_some())
        .collect();
    // "And one more" is not worth folding away.
    let worst: Vec<usize> = if rest.len() > few.saturating_add(2) {
        (0..few)
            .filter_map(|_| {
                let k = (0..rest.len()).min_by_key(|&k| badness(scenario, run, rest[k]))?;
                Some(rest.remove(k))
            })
            .collect()
    } else {
        std::mem::take(&mut rest)
    };
    let lines = worst
        .into_iter()
        .filter_map(|i| line(scenario, run, i))
        .collect();
    Story {
        summary,
        lines,
        more: rest.len(),
    }
}

/// How bad action `i`'s outcome is, worst least (`None`: nothing went
/// wrong).
fn badness(scenario: &Scenario, run: &Run, i: usize) -> Option<(u8, bool, u64, usize)> {
    let a = run.actions().get(i)?;
    let rank = match a.outcome {
        Outcome::Misbound => 0,
        Outcome::Ungoverned => 1,
        Outcome::Refused => 2,
        _ => return None,
    };
    let irreversible = scenario.actions.get(i)?.irreversible;
    Some((rank, !irreversible, (a.fidelity * 1e9) as u64, i))
}

/// "a", "a and b", "a, b and c".
fn join(parts: &[String]) -> String {
    match parts {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payments_story_names_the_freeze_and_the_round() {
        let s = drift_core::builtin("payments-incident").unwrap();
        let run = drift_core::simulate(&s).unwrap();
        let story = tell(&s, &run);
        assert!(
            story
                .summary
                .starts_with("Under pinned prefix, 5 of 8 actions run without their rules"),
            "{}",
            story.summary
        );
        let rollback = s
            .actions
            .iter()
            .position(|a| a.id == "rollback-payments")
            .unwrap();
        let line = story.lines.iter().find(|l| l.action == rollback).unwrap();
        assert_eq!(line.outcome, Outcome::Ungoverned);
        assert!(
            line.why.contains("payments-freeze") && line.why.contains("round 3"),
            "{}",
            line.why
        );
    }

    #[test]
    fn a_scenario_without_actions_says_nothing_is_graded() {
        let mut s = drift_core::builtin("payments-incident").unwrap();
        s.actions.clear();
        let story = tell(&s, &drift_core::simulate(&s).unwrap());
        assert_eq!(
            story.summary,
            "Under pinned prefix, nothing is graded: the scenario has no action."
        );
        assert!(story.lines.is_empty());
    }

    #[test]
    fn a_long_list_folds_to_the_worst_few_and_a_count() {
        let mut s = drift_core::builtin("payments-incident").unwrap();
        let rollback = s
            .actions
            .iter()
            .position(|a| a.id == "rollback-payments")
            .unwrap();
        for k in 0..10 {
            let mut a = s.actions[rollback].clone();
            a.id = format!("rollback-{k}");
            a.irreversible = k == 7;
            s.actions.push(a);
        }
        let run = drift_core::simulate(&s).unwrap();
        let all = tell(&s, &run);
        let short = headline(&s, &run);
        assert_eq!(short.summary, all.summary);
        assert_eq!(all.more, 0);
        assert_eq!(short.lines.len(), FEW);
        assert_eq!(short.lines.len() + short.more, all.lines.len());
        // The worst first (irreversible before the rest of the ungoverned),
        // and no worse one left out.
        let bad = |i: usize| badness(&s, &run, i).unwrap();
        assert!(
            short
                .lines
                .windows(2)
                .all(|w| bad(w[0].action) < bad(w[1].action))
        );
        assert!(s.actions[short.lines[0].action].irreversible);
        let last = bad(short.lines[FEW - 1].action);
        for l in &all.lines {
            if !short.lines.iter().any(|x| x.action == l.action) {
                assert!(bad(l.action) > last, "{} is worse", l.action);
            }
        }
        for l in &short.lines {
            assert_eq!(all.lines.iter().find(|x| x.action == l.action), Some(l));
        }
        // A handful is told whole.
        let s = drift_core::builtin("payments-incident").unwrap();
        let run = drift_core::simulate(&s).unwrap();
        assert_eq!(headline(&s, &run), tell(&s, &run));
        assert_eq!(line(&s, &run, s.actions.len()), None);
    }

    #[test]
    fn joins_read_as_english() {
        let p = |v: &[&str]| join(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(p(&["a"]), "a");
        assert_eq!(p(&["a", "b"]), "a and b");
        assert_eq!(p(&["a", "b", "c"]), "a, b and c");
    }
}
