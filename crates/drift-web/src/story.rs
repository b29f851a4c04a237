//! The sentence at the top of the page and the why line of every action that
//! did not run as its rules say, in plain words generated from the run.

use drift_core::{Outcome, PolicyChoice, Run, Scenario, explain};

/// The headline of a run.
#[derive(Clone, Debug, PartialEq)]
pub struct Story {
    /// "Under pinned prefix, 4 of 8 actions run without their rule."
    pub summary: String,
    /// One line per action that was ungoverned, misbound or refused.
    pub lines: Vec<StoryLine>,
}

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

/// Tells what `run` did to `scenario`'s actions.
pub fn tell(scenario: &Scenario, run: &Run) -> Story {
    let counts = run.counts();
    let total = counts.total();
    if total == 0 {
        return Story {
            summary: format!(
                "Under {}, nothing is graded: the scenario has no action.",
                policy_name(&scenario.policy)
            ),
            lines: Vec::new(),
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
    let lines = run
        .actions()
        .iter()
        .enumerate()
        .filter(|(_, a)| {
            matches!(
                a.outcome,
                Outcome::Ungoverned | Outcome::Misbound | Outcome::Refused
            )
        })
        .filter_map(|(i, a)| {
            let why = explain(scenario, run, i)?;
            Some(StoryLine {
                action: i,
                outcome: a.outcome,
                why: why.to_string(),
            })
        })
        .collect();
    Story { summary, lines }
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
    fn joins_read_as_english() {
        let p = |v: &[&str]| join(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(p(&["a"]), "a");
        assert_eq!(p(&["a", "b"]), "a and b");
        assert_eq!(p(&["a", "b", "c"]), "a, b and c");
    }
}
