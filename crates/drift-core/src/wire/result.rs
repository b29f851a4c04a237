//! `compaction-drift/result@1`: a run as JSON, serialised lazily so a
//! large report streams.

use super::*;

/// A run as a `compaction-drift/result@1` document, ready to serialise:
/// nothing is built until a serializer asks, and then entry by entry, so a
/// result of any size streams to a writer in constant memory (every fact's
/// timeline alone can be hundreds of megabytes of JSON).
///
/// [`result_to_json`] writes it pretty-printed to a string; a front end with
/// `std` writes the same bytes to a stream with
/// `serde_json::to_writer_pretty`.
///
/// ```
/// let scenario = drift_core::builtin("payments-incident").unwrap();
/// let run = drift_core::simulate(&scenario).unwrap();
/// let doc = drift_core::ResultJson::new(&scenario, &run);
/// let json = serde_json::to_string_pretty(&doc).unwrap();
/// assert_eq!(json, drift_core::result_to_json(&scenario, &run));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ResultJson<'a> {
    scenario: &'a Scenario,
    run: &'a Run,
}

impl<'a> ResultJson<'a> {
    /// `run` (of `scenario`) as a result document.
    pub fn new(scenario: &'a Scenario, run: &'a Run) -> ResultJson<'a> {
        ResultJson { scenario, run }
    }
}

impl Serialize for ResultJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let (scenario, run) = (self.scenario, self.run);
        ResultOut {
            format: RESULT_FORMAT,
            scenario: &scenario.id,
            policy: run.policy_id(),
            overflow_turn: run.overflow_turn(),
            rounds: RoundsOut { run },
            facts: FactsOut { scenario, run },
            actions: ActionsOut { scenario, run },
        }
        .serialize(serializer)
    }
}

#[derive(Serialize)]
pub(super) struct ResultOut<'a> {
    pub(super) format: &'static str,
    pub(super) scenario: &'a str,
    pub(super) policy: &'static str,
    pub(super) overflow_turn: Option<u32>,
    pub(super) rounds: RoundsOut<'a>,
    pub(super) facts: FactsOut<'a>,
    pub(super) actions: ActionsOut<'a>,
}

/// The rounds, serialised lazily.
pub(super) struct RoundsOut<'a> {
    pub(super) run: &'a Run,
}

/// The actions' grades, serialised lazily.
pub(super) struct ActionsOut<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) run: &'a Run,
}

impl Serialize for RoundsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let rounds = self.run.rounds();
        let mut seq = serializer.serialize_seq(Some(rounds.len()))?;
        for r in rounds {
            seq.serialize_element(&RoundOut {
                index: r.index,
                turn: r.turn,
                tokens_before: r.tokens_before,
                tokens_after: r.tokens_after,
                laundering_rate: r.laundering_rate,
                regime: r.regime.id(),
                spills: r.spills,
            })?;
        }
        seq.end()
    }
}

impl Serialize for ActionsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let scenario = self.scenario;
        let graded = self.run.actions();
        let mut seq = serializer.serialize_seq(Some(scenario.actions.len().min(graded.len())))?;
        for (a, g) in scenario.actions.iter().zip(graded) {
            seq.serialize_element(&ActionResultOut {
                id: &a.id,
                turn: a.turn,
                outcome: g.outcome.id(),
                reason: g.reason.id(),
                fidelity: g.fidelity,
                fabrication_risk: g.fabrication_risk,
                resolved_resource: g
                    .resolved_resource
                    .and_then(|r| scenario.resources.get(r))
                    .map(|r| r.id.as_str()),
            })?;
        }
        seq.end()
    }
}

#[derive(Serialize)]
pub(super) struct RoundOut {
    pub(super) index: u32,
    pub(super) turn: u32,
    pub(super) tokens_before: u64,
    pub(super) tokens_after: u64,
    pub(super) laundering_rate: f64,
    pub(super) regime: &'static str,
    pub(super) spills: u32,
}

/// Every fact's timeline, serialised lazily (never materialised as a whole).
pub(super) struct FactsOut<'a> {
    pub(super) scenario: &'a Scenario,
    pub(super) run: &'a Run,
}

#[derive(Serialize)]
pub(super) struct FactResultOut<'a> {
    pub(super) id: &'a str,
    pub(super) timeline: TimelineOut<'a>,
}

pub(super) struct TimelineOut<'a> {
    pub(super) run: &'a Run,
    pub(super) fact: usize,
}

#[derive(Serialize)]
pub(super) struct EntryOut {
    pub(super) round: u32,
    pub(super) turn: u32,
    pub(super) state: &'static str,
    pub(super) fidelity: f64,
    pub(super) depth: u32,
    pub(super) fabrication_risk: f64,
    pub(super) unverified: bool,
}

#[derive(Serialize)]
pub(super) struct ActionResultOut<'a> {
    pub(super) id: &'a str,
    pub(super) turn: u32,
    pub(super) outcome: &'static str,
    pub(super) reason: &'static str,
    pub(super) fidelity: f64,
    pub(super) fabrication_risk: f64,
    pub(super) resolved_resource: Option<&'a str>,
}

impl Serialize for FactsOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.scenario.facts.len()))?;
        for (i, fact) in self.scenario.facts.iter().enumerate() {
            seq.serialize_element(&FactResultOut {
                id: &fact.id,
                timeline: TimelineOut {
                    run: self.run,
                    fact: i,
                },
            })?;
        }
        seq.end()
    }
}

impl Serialize for TimelineOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let entries = self.run.timeline(self.fact);
        let mut seq = serializer.serialize_seq(Some(entries.len()))?;
        for e in entries {
            seq.serialize_element(&EntryOut {
                round: e.round,
                turn: e.turn,
                state: e.state.id(),
                fidelity: e.fact.fidelity,
                depth: e.fact.depth,
                fabrication_risk: e.fact.fabrication_risk,
                unverified: e.fact.unverified,
            })?;
        }
        seq.end()
    }
}

/// Writes `run` (of `scenario`) as `compaction-drift/result@1`, pretty-printed.
///
/// # Example
///
/// ```
/// let scenario = drift_core::builtin("payments-incident").unwrap();
/// let run = drift_core::simulate(&scenario).unwrap();
/// let json = drift_core::result_to_json(&scenario, &run);
/// assert!(json.starts_with("{\n  \"format\": \"compaction-drift/result@1\""));
/// ```
pub fn result_to_json(scenario: &Scenario, run: &Run) -> String {
    serde_json::to_string_pretty(&ResultJson::new(scenario, run)).unwrap_or_default()
}
