//! `compaction-drift/scenario@1` written: a scenario as the file that
//! reads back as it.

use super::*;

#[derive(Serialize)]
pub(super) struct ScenarioOut<'a> {
    pub(super) format: &'static str,
    pub(super) id: &'a str,
    pub(super) title: &'a str,
    pub(super) description: &'a str,
    pub(super) harness: HarnessOut<'a>,
    #[serde(skip_serializing_if = "<[_]>::is_empty")]
    pub(super) turn_tokens: Vec<TurnTokensOut>,
    pub(super) policy: PolicyOut<'a>,
    pub(super) retention: Map<String, Value>,
    pub(super) guards: Map<String, Value>,
    pub(super) model: ModelOut<'a>,
    pub(super) resources: Vec<ResourceOut<'a>>,
    pub(super) facts: Vec<FactOut<'a>>,
    pub(super) actions: Vec<ActionOut<'a>>,
}

/// A scenario's harness: every field, but those at their default
/// (`reserve_tokens` 0, `user_message_tokens` 200) that v1 files lack.
pub(super) struct HarnessOut<'a>(&'a Harness);

impl Serialize for HarnessOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for field in HarnessField::ALL {
            let value = field.get(self.0);
            let optional = !matches!(field, HarnessField::TriggerPercent);
            let default = Setting::Harness(field).info().default;
            if optional && default == Some(SettingValue::Whole(value)) {
                continue;
            }
            map.serialize_entry(field.name(), &value)?;
        }
        map.end()
    }
}

/// A custom policy's harness overrides: the fields it sets.
pub(super) struct OverridesOut<'a>(&'a HarnessOverrides);

impl Serialize for OverridesOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        for field in HarnessField::ALL {
            if let Some(value) = field.overridden(self.0) {
                map.serialize_entry(field.name(), &value)?;
            }
        }
        map.end()
    }
}

/// The model parameters, in the registry's order.
pub(super) struct ModelOut<'a>(&'a ModelParams);

impl Serialize for ModelOut<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(ModelField::ALL.len()))?;
        for field in ModelField::ALL {
            map.serialize_entry(field.name(), &field.get(self.0))?;
        }
        map.end()
    }
}

#[derive(Serialize)]
#[serde(untagged)]
pub(super) enum PolicyOut<'a> {
    Preset(&'static str),
    Custom {
        compacts: bool,
        protected_roles: Vec<&'static str>,
        summarises: bool,
        rereads_external: bool,
        keep_first_turns: u32,
        tail_percent: Option<u32>,
        user_budget_tokens: Option<u64>,
        #[serde(skip_serializing_if = "Option::is_none")]
        harness: Option<OverridesOut<'a>>,
    },
}

#[derive(Serialize)]
pub(super) struct TurnTokensOut {
    pub(super) turn: u32,
    pub(super) tokens: u64,
}

#[derive(Serialize)]
pub(super) struct ResourceOut<'a> {
    pub(super) id: &'a str,
    pub(super) class: &'a str,
    pub(super) mentions: &'a [u32],
}

#[derive(Serialize)]
pub(super) struct BindsOut<'a> {
    pub(super) phrase: &'a str,
    pub(super) resource: &'a str,
}

#[derive(Serialize)]
pub(super) struct FactOut<'a> {
    pub(super) id: &'a str,
    pub(super) text: &'a str,
    pub(super) role: &'static str,
    pub(super) kind: &'static str,
    pub(super) turn: u32,
    pub(super) externalised: bool,
    pub(super) forwarded: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) binds: Option<BindsOut<'a>>,
}

#[derive(Serialize)]
pub(super) struct ActionOut<'a> {
    pub(super) id: &'a str,
    pub(super) text: &'a str,
    pub(super) turn: u32,
    pub(super) governed_by: &'a [String],
    pub(super) delegated: bool,
    pub(super) irreversible: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) target: Option<&'a str>,
    pub(super) consequence: &'a str,
}

/// Writes `scenario` as a `compaction-drift/scenario@1` file (pretty-printed).
/// Reading it back gives an equal scenario.
///
/// # Example
///
/// ```
/// let scenario = drift_core::builtin("dependency-pin").unwrap();
/// let text = drift_core::scenario_to_json(&scenario);
/// assert_eq!(drift_core::parse_scenario(&text).unwrap(), scenario);
/// ```
pub fn scenario_to_json(scenario: &Scenario) -> String {
    let policy = match &scenario.policy {
        PolicyChoice::Preset(p) => PolicyOut::Preset(p.id()),
        PolicyChoice::Custom(p) => PolicyOut::Custom {
            compacts: p.compacts,
            protected_roles: p.protected_roles.iter().map(Role::id).collect(),
            summarises: p.summarises,
            rereads_external: p.rereads_external,
            keep_first_turns: p.keep_first_turns,
            tail_percent: p.tail_percent,
            user_budget_tokens: p.user_budget_tokens,
            harness: (p.harness != HarnessOverrides::NONE).then_some(OverridesOut(&p.harness)),
        },
    };
    let doc = ScenarioOut {
        format: SCENARIO_FORMAT,
        id: &scenario.id,
        title: &scenario.title,
        description: &scenario.description,
        harness: HarnessOut(&scenario.harness),
        turn_tokens: scenario
            .turn_tokens
            .iter()
            .map(|t| TurnTokensOut {
                turn: t.turn,
                tokens: t.tokens,
            })
            .collect(),
        policy,
        retention: scenario
            .retention
            .iter()
            .map(|(k, v)| (k.id().to_string(), Value::from(v)))
            .collect(),
        guards: Guard::ALL
            .into_iter()
            .map(|g| (g.id().to_string(), Value::Bool(scenario.guards.get(g))))
            .collect(),
        model: ModelOut(&scenario.model),
        resources: scenario
            .resources
            .iter()
            .map(|r| ResourceOut {
                id: &r.id,
                class: &r.class,
                mentions: &r.mentions,
            })
            .collect(),
        facts: scenario
            .facts
            .iter()
            .map(|f| FactOut {
                id: &f.id,
                text: &f.text,
                role: f.role.id(),
                kind: f.kind.id(),
                turn: f.turn,
                externalised: f.externalised,
                forwarded: f.forwarded,
                binds: f.binds.as_ref().map(|b| BindsOut {
                    phrase: &b.phrase,
                    resource: &b.resource,
                }),
            })
            .collect(),
        actions: scenario
            .actions
            .iter()
            .map(|a| ActionOut {
                id: &a.id,
                text: &a.text,
                turn: a.turn,
                governed_by: &a.governed_by,
                delegated: a.delegated,
                irreversible: a.irreversible,
                target: a.target.as_deref(),
                consequence: &a.consequence,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&doc).unwrap_or_default()
}
