//! The JSON formats at the boundary: `compaction-drift/scenario@1` in and
//! out, `compaction-drift/result@1` out (docs/MODEL.md §6, §7).
//!
//! Reading goes through a light JSON document (the `json` module: what a
//! `serde_json::Value` would hold, strings borrowed from the text) and
//! converts by hand, so every error names the exact field (`facts[3]
//! ("freeze").kind`) rather than a byte offset; JSON syntax errors keep
//! serde_json's line and column.

use alloc::borrow::{Cow, ToOwned};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use serde::Serialize;
use serde::ser::{SerializeMap, SerializeSeq, Serializer};
use serde_json::{Map, Value};

use crate::error::ScenarioError;
use crate::harness::{Harness, HarnessField, HarnessOverrides};
use crate::json::{self, Json};
use crate::policy::{Policy, PolicyChoice, Preset};
use crate::run::Run;
use crate::scenario::{Action, Binds, Fact, MAX_TOKENS, MAX_TURNS, Resource, Scenario, TurnTokens};
use crate::settings::{
    Guard, Guards, ModelField, ModelParams, Range, Setting, Value as SettingValue,
};
use crate::vocab::{Kind, Retention, Role, RoleSet};

mod result;
mod write;

pub use result::{ResultJson, result_to_json};
pub use write::scenario_to_json;

/// The `format` of a scenario file.
pub const SCENARIO_FORMAT: &str = "compaction-drift/scenario@1";
/// The `format` of a result.
pub const RESULT_FORMAT: &str = "compaction-drift/result@1";

/// Reads and validates a scenario file.
///
/// # Errors
///
/// A JSON syntax error with its line and column, or the first violation of
/// docs/MODEL.md §6 naming the field and the id or turn.
///
/// # Example
///
/// ```
/// let err = drift_core::parse_scenario(r#"{"format": "compaction-drift/scenario@2"}"#).unwrap_err();
/// assert_eq!(err.to_string(), r#"format is "compaction-drift/scenario@2"; this reads "compaction-drift/scenario@1""#);
/// ```
pub fn parse_scenario(text: &str) -> Result<Scenario, ScenarioError> {
    #[cfg(feature = "streamed-read")]
    if let Some(scenario) = streamed::read(text) {
        scenario.validate()?;
        return Ok(scenario);
    }
    // From a `Value`: keys in its order, so of two mistakes the one named is
    // the first in that order, however the file was read first.
    let value: Value = serde_json::from_str(text).map_err(|e| ScenarioError::Json {
        line: e.line(),
        column: e.column(),
        message: json_message(&e),
    })?;
    let scenario = read_scenario(&Json::from_value(&value), &mut InDocument)?;
    scenario.validate()?;
    Ok(scenario)
}

/// Where `read_scenario` finds the four lists.
trait Lists {
    fn turn_tokens(&mut self, top: &Obj<'_>) -> Result<Vec<TurnTokens>, ScenarioError>;
    fn resources(&mut self, top: &Obj<'_>) -> Result<Vec<Resource>, ScenarioError>;
    fn facts(&mut self, top: &Obj<'_>) -> Result<Vec<Fact>, ScenarioError>;
    fn actions(&mut self, top: &Obj<'_>) -> Result<Vec<Action>, ScenarioError>;
}

/// In the document, beside the other fields.
struct InDocument;

/// Every element of `list` (absent: none), read by `read`.
fn each<T>(
    list: Option<&[Json<'_>]>,
    read: fn(&Json<'_>, usize) -> Result<T, ScenarioError>,
) -> Result<Vec<T>, ScenarioError> {
    list.unwrap_or_default()
        .iter()
        .enumerate()
        .map(|(i, v)| read(v, i))
        .collect()
}

impl Lists for InDocument {
    fn turn_tokens(&mut self, top: &Obj<'_>) -> Result<Vec<TurnTokens>, ScenarioError> {
        each(top.array("turn_tokens")?, read_turn_tokens)
    }

    fn resources(&mut self, top: &Obj<'_>) -> Result<Vec<Resource>, ScenarioError> {
        each(top.array("resources")?, read_resource)
    }

    fn facts(&mut self, top: &Obj<'_>) -> Result<Vec<Fact>, ScenarioError> {
        each(Some(top.required_array("facts")?), read_fact)
    }

    fn actions(&mut self, top: &Obj<'_>) -> Result<Vec<Action>, ScenarioError> {
        each(Some(top.required_array("actions")?), read_action)
    }
}

/// The one-pass reading of a right file (feature `streamed-read`).
#[cfg(feature = "streamed-read")]
mod streamed {
    use super::*;
    use serde::de::{DeserializeSeed, MapAccess, SeqAccess, Visitor};

    /// Reads a file whose every field is right, in one pass: the top-level
    /// object's fields as a document, but the elements of its four lists each
    /// converted as soon as it is parsed and then dropped, so a scenario of any
    /// size never stands in memory twice over. `None` at the first thing amiss
    /// (a mistake, a list named twice), for the reading that names it.
    pub(super) fn read(text: &str) -> Option<Scenario> {
        let mut de = serde_json::Deserializer::from_str(text);
        let mut top = serde::Deserializer::deserialize_map(&mut de, Streamed::default()).ok()?;
        de.end().ok()?;
        let rest = Json::Object(core::mem::take(&mut top.rest));
        read_scenario(&rest, &mut top).ok()
    }

    /// The top-level object read in one pass: the lists already converted, the
    /// other fields kept as a document.
    #[derive(Default)]
    struct Streamed<'a> {
        rest: Vec<(Cow<'a, str>, Json<'a>)>,
        turn_tokens: Option<Vec<TurnTokens>>,
        resources: Option<Vec<Resource>>,
        facts: Option<Vec<Fact>>,
        actions: Option<Vec<Action>>,
    }

    /// The one thing the streamed reading says when it gives up.
    fn gave_up<E: serde::de::Error>() -> E {
        E::custom("read again from a document")
    }

    impl Lists for Streamed<'_> {
        fn turn_tokens(&mut self, _: &Obj<'_>) -> Result<Vec<TurnTokens>, ScenarioError> {
            Ok(self.turn_tokens.take().unwrap_or_default())
        }

        fn resources(&mut self, _: &Obj<'_>) -> Result<Vec<Resource>, ScenarioError> {
            Ok(self.resources.take().unwrap_or_default())
        }

        fn facts(&mut self, top: &Obj<'_>) -> Result<Vec<Fact>, ScenarioError> {
            self.facts
                .take()
                .ok_or_else(|| ScenarioError::MissingField {
                    path: top.display_path(),
                    field: "facts",
                })
        }

        fn actions(&mut self, top: &Obj<'_>) -> Result<Vec<Action>, ScenarioError> {
            self.actions
                .take()
                .ok_or_else(|| ScenarioError::MissingField {
                    path: top.display_path(),
                    field: "actions",
                })
        }
    }

    impl<'de> Visitor<'de> for Streamed<'de> {
        type Value = Streamed<'de>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a scenario object")
        }

        fn visit_map<A: MapAccess<'de>>(mut self, mut map: A) -> Result<Streamed<'de>, A::Error> {
            fn once<T, E: serde::de::Error>(
                slot: &mut Option<Vec<T>>,
                list: Vec<T>,
            ) -> Result<(), E> {
                match slot.replace(list) {
                    None => Ok(()),
                    Some(_) => Err(gave_up()),
                }
            }
            while let Some(key) = map.next_key_seed(json::Key)? {
                match key.as_ref() {
                    "turn_tokens" => once(
                        &mut self.turn_tokens,
                        map.next_value_seed(Elements(read_turn_tokens))?,
                    )?,
                    "resources" => once(
                        &mut self.resources,
                        map.next_value_seed(Elements(read_resource))?,
                    )?,
                    "facts" => once(&mut self.facts, map.next_value_seed(Elements(read_fact))?)?,
                    "actions" => once(
                        &mut self.actions,
                        map.next_value_seed(Elements(read_action))?,
                    )?,
                    _ => {
                        let value = map.next_value()?;
                        self.rest.push((key, value));
                    }
                }
            }
            Ok(self)
        }
    }

    /// A list whose elements are each read by the function as it is parsed.
    struct Elements<T>(fn(&Json<'_>, usize) -> Result<T, ScenarioError>);

    impl<'de, T> DeserializeSeed<'de> for Elements<T> {
        type Value = Vec<T>;

        fn deserialize<D: serde::Deserializer<'de>>(self, d: D) -> Result<Vec<T>, D::Error> {
            d.deserialize_seq(self)
        }
    }

    impl<'de, T> Visitor<'de> for Elements<T> {
        type Value = Vec<T>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str("a list")
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<T>, A::Error> {
            let mut items = Vec::new();
            while let Some(element) = seq.next_element::<Json<'de>>()? {
                items.push((self.0)(&element, items.len()).map_err(|_| gave_up())?);
            }
            Ok(items)
        }
    }
}

/// serde_json's message without its trailing " at line L column C".
fn json_message(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) => full[..i].to_owned(),
        None => full,
    }
}

/// Where an object sits in the file; written out only for a message.
#[derive(Clone, Copy, Debug)]
enum Path<'v> {
    /// The scenario itself (written as nothing).
    Top,
    /// A named object: `harness`, `model`, `policy`, `policy.harness`.
    Named(&'static str),
    /// `turn_tokens[3]`.
    Entry(&'static str, usize),
    /// `facts[3] ("freeze")`: an element of a list, with its id when it has one.
    Element(&'static str, usize, Option<&'v str>),
    /// `facts[3] ("freeze").binds`.
    Binds(&'static str, usize, Option<&'v str>),
}

impl<'v> Path<'v> {
    /// Element `i` of `list`, `value`.
    fn element(list: &'static str, i: usize, value: &'v Json<'v>) -> Path<'v> {
        Path::Element(list, i, value.get("id").and_then(Json::as_str))
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Path::Top => Ok(()),
            Path::Named(name) => f.write_str(name),
            Path::Entry(list, i) | Path::Element(list, i, None) => write!(f, "{list}[{i}]"),
            Path::Element(list, i, Some(id)) => write!(f, "{list}[{i}] (\"{id}\")"),
            Path::Binds(list, i, id) => write!(f, "{}.binds", Path::Element(list, i, id)),
        }
    }
}

/// A JSON object being read, with its path for messages.
struct Obj<'v> {
    path: Path<'v>,
    map: &'v [(Cow<'v, str>, Json<'v>)],
}

impl<'v> Obj<'v> {
    fn new(
        value: &'v Json<'v>,
        path: Path<'v>,
        allowed: &[&str],
    ) -> Result<Obj<'v>, ScenarioError> {
        let map = value.as_object().ok_or_else(|| ScenarioError::WrongType {
            path: path.to_string(),
            expected: "an object",
        })?;
        let obj = Obj { path, map };
        if let Some((key, _)) = map.iter().find(|(k, _)| !allowed.contains(&k.as_ref())) {
            return Err(ScenarioError::UnknownField {
                path: obj.display_path(),
                field: key.to_string(),
            });
        }
        Ok(obj)
    }

    fn display_path(&self) -> String {
        match self.path {
            Path::Top => "scenario".to_string(),
            path => path.to_string(),
        }
    }

    fn field(&self, key: &str) -> String {
        match self.path {
            Path::Top => key.to_string(),
            path => format!("{path}.{key}"),
        }
    }

    /// The value of `key` (its last, if repeated); `null` counts as absent.
    fn get(&self, key: &str) -> Option<&'v Json<'v>> {
        json::get(self.map, key).filter(|v| !v.is_null())
    }

    fn required(&self, key: &'static str) -> Result<&'v Json<'v>, ScenarioError> {
        self.get(key).ok_or_else(|| ScenarioError::MissingField {
            path: self.display_path(),
            field: key,
        })
    }

    fn wrong(&self, key: &str, expected: &'static str) -> ScenarioError {
        ScenarioError::WrongType {
            path: self.field(key),
            expected,
        }
    }

    fn string(&self, key: &str) -> Result<Option<String>, ScenarioError> {
        self.get(key)
            .map(|v| {
                v.as_str()
                    .map(str::to_owned)
                    .ok_or_else(|| self.wrong(key, "a string"))
            })
            .transpose()
    }

    fn required_string(&self, key: &'static str) -> Result<String, ScenarioError> {
        self.required(key)?
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| self.wrong(key, "a string"))
    }

    fn bool(&self, key: &str) -> Result<Option<bool>, ScenarioError> {
        self.get(key)
            .map(|v| v.as_bool().ok_or_else(|| self.wrong(key, "true or false")))
            .transpose()
    }

    fn required_bool(&self, key: &'static str) -> Result<bool, ScenarioError> {
        self.required(key)?
            .as_bool()
            .ok_or_else(|| self.wrong(key, "true or false"))
    }

    /// A whole number no larger than `max`.
    fn integer(&self, key: &str, max: u64) -> Result<Option<u64>, ScenarioError> {
        self.integer_in(key, 0, max)
    }

    /// A whole number in `min..=max` (the message states the range).
    fn integer_in(&self, key: &str, min: u64, max: u64) -> Result<Option<u64>, ScenarioError> {
        let Some(v) = self.get(key) else {
            return Ok(None);
        };
        let n = v
            .as_u64()
            .ok_or_else(|| self.wrong(key, "a whole number of 0 or more"))?;
        if !(min..=max).contains(&n) {
            return Err(ScenarioError::IntegerOutOfRange {
                field: self.field(key),
                value: n,
                min,
                max,
            });
        }
        Ok(Some(n))
    }

    fn tokens(&self, key: &str) -> Result<Option<u64>, ScenarioError> {
        self.integer(key, MAX_TOKENS)
    }

    fn turns(&self, key: &str) -> Result<Option<u32>, ScenarioError> {
        Ok(self.integer(key, u64::from(MAX_TURNS))?.map(|n| n as u32))
    }

    /// A turn: its range is checked by validation (which names the fact or
    /// action and the session's length); a number no session can reach is
    /// reported here.
    fn turn(&self, key: &'static str) -> Result<u32, ScenarioError> {
        let v = self.required(key)?;
        let n = v
            .as_u64()
            .ok_or_else(|| self.wrong(key, "a whole number of 0 or more"))?;
        u32::try_from(n)
            .ok()
            .filter(|t| *t <= MAX_TURNS)
            .ok_or_else(|| ScenarioError::TurnOutOfRange {
                what: self.display_path(),
                turn: n,
                min: 0,
                max: MAX_TURNS,
            })
    }

    fn number(&self, key: &str) -> Result<Option<f64>, ScenarioError> {
        self.get(key)
            .map(|v| v.as_f64().ok_or_else(|| self.wrong(key, "a number")))
            .transpose()
    }

    fn array(&self, key: &str) -> Result<Option<&'v [Json<'v>]>, ScenarioError> {
        self.get(key)
            .map(|v| v.as_array().ok_or_else(|| self.wrong(key, "an array")))
            .transpose()
    }

    fn required_array(&self, key: &'static str) -> Result<&'v [Json<'v>], ScenarioError> {
        self.required(key)?
            .as_array()
            .ok_or_else(|| self.wrong(key, "an array"))
    }
}

const SCENARIO_FIELDS: &[&str] = &[
    "format",
    "id",
    "title",
    "description",
    "harness",
    "turn_tokens",
    "policy",
    "retention",
    "guards",
    "model",
    "resources",
    "facts",
    "actions",
];

/// The fields of a `harness` object, from the settings registry.
const HARNESS_FIELDS: [&str; 9] = {
    let mut names = [""; 9];
    let mut i = 0;
    while i < 9 {
        names[i] = HarnessField::ALL[i].name();
        i += 1;
    }
    names
};

/// The fields of the `model` object, from the settings registry.
const MODEL_FIELDS: [&str; 5] = {
    let mut names = [""; 5];
    let mut i = 0;
    while i < 5 {
        names[i] = ModelField::ALL[i].name();
        i += 1;
    }
    names
};

fn read_scenario(value: &Json<'_>, lists: &mut dyn Lists) -> Result<Scenario, ScenarioError> {
    // A foreign file is told so before any of its fields are.
    value.as_object().ok_or_else(|| ScenarioError::WrongType {
        path: "scenario".to_string(),
        expected: "a JSON object",
    })?;
    match value.get("format") {
        None | Some(Json::Null) => {
            return Err(ScenarioError::MissingField {
                path: "scenario".to_string(),
                field: "format",
            });
        }
        Some(Json::Str(s)) if s == SCENARIO_FORMAT => {}
        Some(other) => {
            return Err(ScenarioError::WrongFormat {
                found: other
                    .as_str()
                    .map_or_else(|| other.to_value().to_string(), str::to_owned),
            });
        }
    }
    let top = Obj::new(value, Path::Top, SCENARIO_FIELDS)?;
    let id = top.required_string("id")?;
    let harness = read_harness(Obj::new(
        top.required("harness")?,
        Path::Named("harness"),
        &HARNESS_FIELDS,
    )?)?;

    let turn_tokens = lists.turn_tokens(&top)?;

    let policy = match top.get("policy") {
        None => PolicyChoice::default(),
        Some(Json::Str(id)) => Preset::from_id(id)
            .map(PolicyChoice::Preset)
            .ok_or_else(|| ScenarioError::UnknownPolicy {
                value: id.to_string(),
            })?,
        Some(v @ Json::Object(_)) => PolicyChoice::Custom(read_policy(v)?),
        Some(_) => return Err(top.wrong("policy", "a preset id or a policy object")),
    };

    let mut retention = Retention::default();
    if let Some(v) = top.get("retention") {
        let map = v
            .as_object()
            .ok_or_else(|| top.wrong("retention", "an object"))?;
        for (key, value) in map {
            let kind = Kind::from_id(key).ok_or_else(|| ScenarioError::UnknownKind {
                path: "retention".to_string(),
                value: key.to_string(),
            })?;
            let r = value.as_f64().ok_or_else(|| ScenarioError::WrongType {
                path: format!("retention.{key}"),
                expected: "a number",
            })?;
            retention.set(kind, r);
        }
    }

    let mut guards = Guards::default();
    if let Some(v) = top.get("guards") {
        let map = v
            .as_object()
            .ok_or_else(|| top.wrong("guards", "an object"))?;
        for (key, value) in map {
            let guard = Guard::from_id(key).ok_or_else(|| ScenarioError::UnknownGuard {
                name: key.to_string(),
            })?;
            let on = value.as_bool().ok_or_else(|| ScenarioError::WrongType {
                path: format!("guards.{key}"),
                expected: "true or false",
            })?;
            guards.set(guard, on);
        }
    }

    let mut model = ModelParams::default();
    if let Some(v) = top.get("model") {
        let m = Obj::new(v, Path::Named("model"), &MODEL_FIELDS)?;
        for field in ModelField::ALL {
            if let Some(x) = m.number(field.name())? {
                field.set(&mut model, x);
            }
        }
    }

    let resources = lists.resources(&top)?;
    let facts = lists.facts(&top)?;
    let actions = lists.actions(&top)?;

    Ok(Scenario {
        id,
        title: top.string("title")?.unwrap_or_default(),
        description: top.string("description")?.unwrap_or_default(),
        harness,
        turn_tokens,
        policy,
        retention,
        guards,
        model,
        resources,
        facts,
        actions,
    })
}

/// `turn_tokens[i]`.
fn read_turn_tokens(v: &Json<'_>, i: usize) -> Result<TurnTokens, ScenarioError> {
    let e = Obj::new(v, Path::Entry("turn_tokens", i), &["turn", "tokens"])?;
    let tokens = e.required("tokens").and_then(|_| e.tokens("tokens"))?;
    Ok(TurnTokens {
        turn: e.turn("turn")?,
        tokens: tokens.unwrap_or_default(),
    })
}

/// `resources[i]`.
fn read_resource(v: &Json<'_>, i: usize) -> Result<Resource, ScenarioError> {
    let r = Obj::new(
        v,
        Path::element("resources", i, v),
        &["id", "class", "mentions"],
    )?;
    let mut mentions = Vec::new();
    for (k, m) in r.array("mentions")?.into_iter().flatten().enumerate() {
        let turn = m.as_u64().ok_or_else(|| ScenarioError::WrongType {
            path: format!("{}.mentions[{k}]", r.path),
            expected: "a turn (a whole number)",
        })?;
        mentions.push(u32::try_from(turn).unwrap_or(u32::MAX));
    }
    Ok(Resource {
        id: r.required_string("id")?,
        class: r.required_string("class")?,
        mentions,
    })
}

/// The harness fields an object gives, each a whole number in its range.
fn read_overrides(h: &Obj<'_>) -> Result<HarnessOverrides, ScenarioError> {
    let mut overrides = HarnessOverrides::NONE;
    for field in HarnessField::ALL {
        let Range::Whole { min, max } = Setting::Harness(field).info().range else {
            continue;
        };
        let value = h.integer_in(field.name(), min, max)?;
        field.set_override(&mut overrides, value);
    }
    Ok(overrides)
}

/// A scenario's `harness`: the fields without a default are required.
fn read_harness(h: Obj<'_>) -> Result<Harness, ScenarioError> {
    for field in HarnessField::ALL {
        if Setting::Harness(field).info().default.is_none() {
            h.required(field.name())?;
        }
    }
    let given = read_overrides(&h)?;
    let mut harness = Harness {
        window_tokens: 0,
        trigger_percent: 0,
        system_tokens: 0,
        tokens_per_turn: 0,
        tail_turns: 0,
        summary_tokens: 0,
        turns: 0,
        reserve_tokens: 0,
        user_message_tokens: 0,
    };
    for field in HarnessField::ALL {
        let value = match (
            field.overridden(&given),
            Setting::Harness(field).info().default,
        ) {
            (Some(v), _) | (None, Some(SettingValue::Whole(v))) => v,
            _ => 0,
        };
        field.set(&mut harness, value);
    }
    Ok(harness)
}

fn read_policy<'v>(v: &'v Json<'v>) -> Result<Policy, ScenarioError> {
    let p = Obj::new(
        v,
        Path::Named("policy"),
        &[
            "compacts",
            "protected_roles",
            "summarises",
            "rereads_external",
            "keep_first_turns",
            "tail_percent",
            "user_budget_tokens",
            "harness",
        ],
    )?;
    let compacts = p.required_bool("compacts")?;
    let mut protected_roles = RoleSet::EMPTY;
    for (i, r) in p.required_array("protected_roles")?.iter().enumerate() {
        let name = r.as_str().ok_or_else(|| ScenarioError::WrongType {
            path: format!("policy.protected_roles[{i}]"),
            expected: "a role name",
        })?;
        let role = Role::from_id(name).ok_or_else(|| ScenarioError::UnknownRole {
            path: "policy.protected_roles".to_string(),
            value: name.to_string(),
        })?;
        protected_roles = protected_roles.with(role);
    }
    let harness = match p.get("harness") {
        Some(h) => read_overrides(&Obj::new(
            h,
            Path::Named("policy.harness"),
            &HARNESS_FIELDS,
        )?)?,
        None => HarnessOverrides::NONE,
    };
    Ok(Policy {
        compacts,
        protected_roles,
        summarises: p.required_bool("summarises")?,
        rereads_external: p.required_bool("rereads_external")?,
        keep_first_turns: p.turns("keep_first_turns")?.unwrap_or(0),
        tail_percent: p.integer_in("tail_percent", 1, 99)?.map(|n| n as u32),
        user_budget_tokens: p.tokens("user_budget_tokens")?,
        harness,
    })
}

/// `facts[i]`.
fn read_fact(v: &Json<'_>, i: usize) -> Result<Fact, ScenarioError> {
    let f = Obj::new(
        v,
        Path::element("facts", i, v),
        &[
            "id",
            "text",
            "role",
            "kind",
            "turn",
            "externalised",
            "forwarded",
            "binds",
        ],
    )?;
    let id = f.required_string("id")?;
    let text = f.required_string("text")?;
    let role_name = f.required_string("role")?;
    let role = Role::from_id(&role_name).ok_or_else(|| ScenarioError::UnknownRole {
        path: f.field("role"),
        value: role_name,
    })?;
    let kind_name = f.required_string("kind")?;
    let kind = Kind::from_id(&kind_name).ok_or_else(|| ScenarioError::UnknownKind {
        path: f.field("kind"),
        value: kind_name,
    })?;
    let turn = f.turn("turn")?;
    let binds = match f.get("binds") {
        Some(v) => {
            // A fact is always an element of `facts`.
            let path = match f.path {
                Path::Element(list, i, id) => Path::Binds(list, i, id),
                _ => Path::Named("binds"),
            };
            let b = Obj::new(v, path, &["phrase", "resource"])?;
            Some(Binds {
                phrase: b.required_string("phrase")?,
                resource: b.required_string("resource")?,
            })
        }
        None => None,
    };
    Ok(Fact {
        id,
        text,
        role,
        kind,
        turn,
        externalised: f.bool("externalised")?.unwrap_or(false),
        forwarded: f.bool("forwarded")?.unwrap_or(true),
        binds,
    })
}

/// `actions[i]`.
fn read_action(v: &Json<'_>, i: usize) -> Result<Action, ScenarioError> {
    let a = Obj::new(
        v,
        Path::element("actions", i, v),
        &[
            "id",
            "text",
            "turn",
            "governed_by",
            "delegated",
            "irreversible",
            "target",
            "consequence",
        ],
    )?;
    let id = a.required_string("id")?;
    let text = a.required_string("text")?;
    let turn = a.turn("turn")?;
    let mut governed_by = Vec::new();
    for (i, g) in a.required_array("governed_by")?.iter().enumerate() {
        let fact = g.as_str().ok_or_else(|| ScenarioError::WrongType {
            path: format!("{}.governed_by[{i}]", a.path),
            expected: "a fact id",
        })?;
        governed_by.push(fact.to_owned());
    }
    Ok(Action {
        id,
        text,
        turn,
        governed_by,
        delegated: a.bool("delegated")?.unwrap_or(false),
        irreversible: a.bool("irreversible")?.unwrap_or(false),
        target: a.string("target")?,
        consequence: a.string("consequence")?.unwrap_or_default(),
    })
}

#[cfg(all(test, feature = "streamed-read"))]
mod tests {
    use super::*;
    use crate::builtin::{builtin_ids, builtin_source};

    /// Read from a `Value`, as a file with a mistake is.
    fn from_document(text: &str) -> Result<Scenario, ScenarioError> {
        let value: Value = serde_json::from_str(text).unwrap();
        read_scenario(&Json::from_value(&value), &mut InDocument)
    }

    #[test]
    fn a_right_file_is_read_in_one_pass_as_a_document_reads_it() {
        for id in builtin_ids() {
            let text = builtin_source(id).unwrap();
            let streamed = streamed::read(text);
            assert!(streamed.is_some(), "{id} is read again");
            assert_eq!(streamed, from_document(text).ok(), "{id}");
            // The lists first, the fields in another order: the same scenario.
            let value: Value = serde_json::from_str(text).unwrap();
            let mut shuffled = String::from("{");
            let map = value.as_object().unwrap();
            for (k, v) in map.iter().rev() {
                if shuffled.len() > 1 {
                    shuffled.push(',');
                }
                shuffled.push_str(&format!("{}:{v}", Value::from(k.as_str())));
            }
            shuffled.push('}');
            assert_eq!(streamed::read(&shuffled), streamed, "{id} shuffled");
        }
    }

    #[test]
    fn anything_amiss_is_left_to_the_document_reading() {
        let text = builtin_source("payments-incident").unwrap();
        let twice = text.replacen("\"facts\":", "\"facts\": [], \"facts\":", 1);
        assert!(streamed::read(&twice).is_none());
        // As a `Value` reads it, the last list counts.
        assert_eq!(
            parse_scenario(&twice).unwrap(),
            parse_scenario(text).unwrap()
        );
        // A list given twice, the last time as null: absent, as a `Value` has it.
        let null = text.replacen("\"facts\":", "\"turn_tokens\": null, \"facts\":", 1);
        assert!(streamed::read(&null).is_none());
        let read = parse_scenario(&null).unwrap();
        assert!(
            read.turn_tokens.is_empty() && !parse_scenario(text).unwrap().turn_tokens.is_empty()
        );
        assert_eq!(Ok(read), from_document(&null));
        for broken in [
            text.replacen("\"facts\":", "\"colour\": 1, \"facts\":", 1),
            text.replacen("\"role\": \"system\"", "\"role\": \"root\"", 1),
            text.replacen("\"facts\":", "\"fact\":", 1),
            format!("{text} 1"),
            "[]".to_string(),
        ] {
            assert!(streamed::read(&broken).is_none(), "{broken}");
            assert!(parse_scenario(&broken).is_err());
        }
    }
}
