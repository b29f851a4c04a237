//! `compaction-drift/tipping@1`: a scenario's tipping points as JSON.

use alloc::vec::Vec;

use serde::Serialize;
use serde::ser::{SerializeSeq, SerializeStruct, Serializer};

use super::{
    ActionTipping, FactFix, Flip, RETENTION_TOLERANCE, RetentionTip, WindowTip, tipping_points,
};
use crate::error::ScenarioError;
use crate::scenario::Scenario;

/// The `format` of the tipping points' JSON.
pub const TIPPING_FORMAT: &str = "compaction-drift/tipping@1";

/// A scenario's tipping points, and `compaction-drift/tipping@1`, their one
/// JSON type: `drift tipping --format json` prints it.
///
/// Serialised, it is an object of `format` ([`TIPPING_FORMAT`]),
/// `scenario` (its id), `policy` (the policy's id), `window_tokens` (the
/// window it runs in), `retention_tolerance` ([`RETENTION_TOLERANCE`]) and
/// `actions`, one per entry of [`TippingPoints::actions`]: the action's
/// `id`, `turn` and `outcome`; `retention`, per [`RetentionTip`], its
/// `kind`, `current` value and its `raise` and `lower` [`Flip`]s (`null`,
/// or `at`, `outcome` and `method`); `window`, whose `status` is `holds`,
/// `set_by_policy`, `at` (with `window`, `outcome` and `exact`) or `never`
/// (with `searched_to` and `complete`), as [`WindowTip`]; and `facts`, per
/// [`FactFix`], the fact's id, the `lever`, the `outcome` and whether it
/// `fixes` the action. Numbers are the engine's, unrounded: a flip's `at`
/// is the boundary to the bit.
///
/// ```
/// let scenario = drift_core::builtin("payments-incident").unwrap();
/// let tipping = drift_core::TippingPoints::of(&scenario).unwrap();
/// let json = serde_json::to_string_pretty(&tipping).unwrap();
/// let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
/// assert_eq!(doc["format"], drift_core::TIPPING_FORMAT);
/// assert_eq!(doc["actions"].as_array().unwrap().len(), scenario.actions.len());
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct TippingPoints<'a> {
    /// The scenario.
    pub scenario: &'a Scenario,
    /// What flips each action, in file order (as [`tipping_points`] gives
    /// them); each names its action by index into the scenario's.
    pub actions: Vec<ActionTipping>,
}

impl<'a> TippingPoints<'a> {
    /// The tipping points of every action of `scenario`.
    ///
    /// # Errors
    ///
    /// The scenario's first violation of docs/MODEL.md §6, as
    /// [`tipping_points`] reports it.
    pub fn of(scenario: &'a Scenario) -> Result<TippingPoints<'a>, ScenarioError> {
        Ok(TippingPoints {
            scenario,
            actions: tipping_points(scenario)?,
        })
    }
}

impl Serialize for TippingPoints<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let scenario = self.scenario;
        let mut m = s.serialize_struct("TippingPoints", 6)?;
        m.serialize_field("format", TIPPING_FORMAT)?;
        m.serialize_field("scenario", &scenario.id)?;
        m.serialize_field("policy", scenario.policy.id())?;
        let window = scenario.effective_harness().window_tokens;
        m.serialize_field("window_tokens", &window)?;
        m.serialize_field("retention_tolerance", &RETENTION_TOLERANCE)?;
        m.serialize_field("actions", &Actions(self))?;
        m.end()
    }
}

struct Actions<'a>(&'a TippingPoints<'a>);

impl Serialize for Actions<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let scenario = self.0.scenario;
        let mut seq = s.serialize_seq(Some(self.0.actions.len()))?;
        for tip in &self.0.actions {
            let action = scenario.actions.get(tip.action);
            seq.serialize_element(&ActionOut {
                id: action.map_or("", |a| a.id.as_str()),
                turn: action.map_or(0, |a| a.turn),
                outcome: tip.outcome.id(),
                retention: tip.retention.iter().map(RetentionOut::of).collect(),
                window: WindowOut::of(tip.window),
                facts: tip
                    .facts
                    .iter()
                    .map(|fix| FactOut::of(scenario, fix))
                    .collect(),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
struct ActionOut<'a> {
    id: &'a str,
    turn: u32,
    outcome: &'static str,
    retention: Vec<RetentionOut>,
    window: WindowOut,
    facts: Vec<FactOut<'a>>,
}

#[derive(Serialize)]
struct RetentionOut {
    kind: &'static str,
    current: f64,
    raise: Option<FlipOut>,
    lower: Option<FlipOut>,
}

impl RetentionOut {
    fn of(t: &RetentionTip) -> RetentionOut {
        RetentionOut {
            kind: t.kind.id(),
            current: t.current,
            raise: t.raise.map(FlipOut::of),
            lower: t.lower.map(FlipOut::of),
        }
    }
}

#[derive(Serialize)]
struct FlipOut {
    at: f64,
    outcome: &'static str,
    method: &'static str,
}

impl FlipOut {
    fn of(f: Flip) -> FlipOut {
        FlipOut {
            at: f.at,
            outcome: f.outcome.id(),
            method: f.method.id(),
        }
    }
}

#[derive(Serialize)]
#[serde(tag = "status", rename_all = "snake_case")]
enum WindowOut {
    Holds,
    SetByPolicy,
    At {
        window: u64,
        outcome: &'static str,
        exact: bool,
    },
    Never {
        searched_to: u64,
        complete: bool,
    },
}

impl WindowOut {
    fn of(w: WindowTip) -> WindowOut {
        match w {
            WindowTip::Holds => WindowOut::Holds,
            WindowTip::SetByPolicy => WindowOut::SetByPolicy,
            WindowTip::At {
                window,
                outcome,
                exact,
            } => WindowOut::At {
                window,
                outcome: outcome.id(),
                exact,
            },
            WindowTip::Never {
                searched_to,
                complete,
            } => WindowOut::Never {
                searched_to,
                complete,
            },
        }
    }
}

#[derive(Serialize)]
struct FactOut<'a> {
    fact: &'a str,
    lever: &'static str,
    outcome: &'static str,
    fixes: bool,
}

impl<'a> FactOut<'a> {
    fn of(scenario: &'a Scenario, fix: &FactFix) -> FactOut<'a> {
        FactOut {
            fact: scenario.facts.get(fix.fact).map_or("", |f| f.id.as_str()),
            lever: fix.lever.id(),
            outcome: fix.outcome.id(),
            fixes: fix.fixes(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builtin::builtin;
    use crate::grade::Outcome;
    use crate::tipping::{Lever, Method};
    use crate::vocab::Kind;
    use alloc::vec;

    #[test]
    fn the_json_is_the_tipping_document() {
        let scenario = builtin("payments-incident").unwrap();
        let tipping = TippingPoints {
            scenario: &scenario,
            actions: vec![
                ActionTipping {
                    action: 1,
                    outcome: Outcome::Ungoverned,
                    retention: vec![RetentionTip {
                        kind: Kind::StandingRule,
                        current: 0.75,
                        raise: Some(Flip::exact(0.8, Outcome::WeaklyGoverned)),
                        lower: None,
                    }],
                    window: WindowTip::At {
                        window: 40_000,
                        outcome: Outcome::Governed,
                        exact: true,
                    },
                    facts: vec![FactFix {
                        fact: 0,
                        lever: Lever::Forward,
                        outcome: Outcome::Governed,
                    }],
                },
                ActionTipping {
                    action: 0,
                    outcome: Outcome::Governed,
                    retention: Vec::new(),
                    window: WindowTip::Never {
                        searched_to: 90_000,
                        complete: false,
                    },
                    facts: Vec::new(),
                },
            ],
        };
        let (a0, a1) = (&scenario.actions[0], &scenario.actions[1]);
        let expected = serde_json::json!({
            "format": "compaction-drift/tipping@1",
            "scenario": "payments-incident",
            "policy": scenario.policy.id(),
            "window_tokens": scenario.effective_harness().window_tokens,
            "retention_tolerance": 1e-6,
            "actions": [
                {
                    "id": a1.id, "turn": a1.turn, "outcome": "ungoverned",
                    "retention": [{
                        "kind": "standing_rule", "current": 0.75,
                        "raise": {"at": 0.8, "outcome": "weakly_governed", "method": "exact"},
                        "lower": null,
                    }],
                    "window": {"status": "at", "window": 40_000, "outcome": "governed", "exact": true},
                    "facts": [{
                        "fact": scenario.facts[0].id, "lever": "forward",
                        "outcome": "governed", "fixes": true,
                    }],
                },
                {
                    "id": a0.id, "turn": a0.turn, "outcome": "governed",
                    "retention": [],
                    "window": {"status": "never", "searched_to": 90_000, "complete": false},
                    "facts": [],
                },
            ],
        });
        assert_eq!(serde_json::to_value(&tipping).unwrap(), expected);
        let text = serde_json::to_string(&tipping).unwrap();
        assert!(text.starts_with(r#"{"format":"compaction-drift/tipping@1","#));

        let holds = TippingPoints {
            scenario: &scenario,
            actions: vec![ActionTipping {
                window: WindowTip::SetByPolicy,
                ..tipping.actions[1].clone()
            }],
        };
        let doc = serde_json::to_value(&holds).unwrap();
        assert_eq!(
            doc["actions"][0]["window"],
            serde_json::json!({"status": "set_by_policy"})
        );
        assert_eq!(Method::Bisection.id(), "bisection");
    }
}
