//! Everything that can be wrong with a scenario, one variant per way.

use alloc::string::String;
use core::fmt;

use crate::vocab::{Kind, Role};

/// Which list a duplicate id is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(missing_docs)]
pub enum Collection {
    Facts,
    Actions,
    Resources,
}

impl Collection {
    const fn noun(self) -> &'static str {
        match self {
            Collection::Facts => "fact",
            Collection::Actions => "action",
            Collection::Resources => "resource",
        }
    }
}

/// Why a scenario was rejected. Each variant names the offending field, and
/// the id or turn where there is one; `Display` renders a sentence a person
/// can act on.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum ScenarioError {
    /// The text is not JSON.
    Json {
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser expected.
        message: String,
    },
    /// `format` is not `compaction-drift/scenario@1`.
    WrongFormat {
        /// What the file says.
        found: String,
    },
    /// A required field is absent.
    MissingField {
        /// Where (`facts[2]`, `harness`).
        path: String,
        /// The field.
        field: &'static str,
    },
    /// A field the format does not have.
    UnknownField {
        /// Where.
        path: String,
        /// The field as written.
        field: String,
    },
    /// A field of the wrong JSON type.
    WrongType {
        /// The field's full path.
        path: String,
        /// What it must be.
        expected: &'static str,
    },
    /// A kind that is not one of the nine.
    UnknownKind {
        /// Where.
        path: String,
        /// As written.
        value: String,
    },
    /// A role that is not `system`, `user`, `assistant` or `tool`.
    UnknownRole {
        /// Where.
        path: String,
        /// As written.
        value: String,
    },
    /// A policy id that is not a preset.
    UnknownPolicy {
        /// As written.
        value: String,
    },
    /// A guard that does not exist.
    UnknownGuard {
        /// As written.
        name: String,
    },
    /// Two facts, actions or resources share an id.
    DuplicateId {
        /// Which list.
        collection: Collection,
        /// The repeated id.
        id: String,
    },
    /// An action governed by nothing.
    EmptyGovernedBy {
        /// The action.
        action: String,
    },
    /// `governed_by` names a fact that does not exist.
    UnknownGoverningFact {
        /// The action.
        action: String,
        /// The missing fact id.
        fact: String,
    },
    /// `governed_by` names a fact introduced after the action.
    GoverningFactAfterAction {
        /// The action.
        action: String,
        /// Its turn.
        action_turn: u32,
        /// The fact.
        fact: String,
        /// Its turn.
        fact_turn: u32,
    },
    /// `target` names a fact that does not exist.
    UnknownTarget {
        /// The action.
        action: String,
        /// The missing fact id.
        fact: String,
    },
    /// `target` names a fact that is not a `binding`.
    TargetNotBinding {
        /// The action.
        action: String,
        /// The fact.
        fact: String,
        /// Its kind.
        kind: Kind,
    },
    /// `target` names a binding introduced after the action.
    TargetAfterAction {
        /// The action.
        action: String,
        /// Its turn.
        action_turn: u32,
        /// The binding.
        fact: String,
        /// Its turn.
        fact_turn: u32,
    },
    /// A `binding` fact without `binds`.
    MissingBinds {
        /// The fact.
        fact: String,
    },
    /// `binds` on a fact that is not a `binding`.
    UnexpectedBinds {
        /// The fact.
        fact: String,
        /// Its kind.
        kind: Kind,
    },
    /// `binds.resource` is not in `resources`.
    UnknownResource {
        /// The fact.
        fact: String,
        /// The missing resource id.
        resource: String,
    },
    /// A system fact at a turn other than 0.
    SystemFactNotAtTurnZero {
        /// The fact.
        fact: String,
        /// Its turn.
        turn: u32,
    },
    /// A non-system fact at turn 0.
    FactAtTurnZero {
        /// The fact.
        fact: String,
        /// Its role.
        role: Role,
    },
    /// A fact, action or `turn_tokens` entry outside the session.
    TurnOutOfRange {
        /// What is out of range (`action "rollback"`).
        what: String,
        /// The turn given.
        turn: u64,
        /// The first allowed turn.
        min: u32,
        /// The last allowed turn.
        max: u32,
    },
    /// A turn listed twice in `turn_tokens`.
    DuplicateTurnTokens {
        /// The turn.
        turn: u32,
    },
    /// An integer outside its range (token counts, percents, turns).
    IntegerOutOfRange {
        /// The field's full path.
        field: String,
        /// The value given.
        value: u64,
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// A number outside its range (retentions and model parameters).
    NumberOutOfRange {
        /// The field's full path.
        field: String,
        /// The value given.
        value: f64,
        /// Smallest allowed.
        min: f64,
        /// Largest allowed, if any.
        max: Option<f64>,
    },
    /// `window_tokens <= system_tokens`: the system prompt fills the window.
    WindowNotAboveSystem {
        /// The window.
        window_tokens: u64,
        /// The system prompt.
        system_tokens: u64,
    },
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ScenarioError::*;
        match self {
            Json {
                line,
                column,
                message,
            } => write!(
                f,
                "not valid JSON at line {line}, column {column}: {message}"
            ),
            WrongFormat { found } => write!(
                f,
                "format is \"{found}\"; this reads \"compaction-drift/scenario@1\""
            ),
            MissingField { path, field } => write!(f, "{path}: the field \"{field}\" is required"),
            UnknownField { path, field } => write!(f, "{path}: unknown field \"{field}\""),
            WrongType { path, expected } => write!(f, "{path} must be {expected}"),
            UnknownKind { path, value } => {
                write!(f, "{path}: unknown kind \"{value}\" (kinds: {})", KindList)
            }
            UnknownRole { path, value } => write!(
                f,
                "{path}: unknown role \"{value}\" (roles: system, user, assistant, tool)"
            ),
            UnknownPolicy { value } => write!(f, "policy: unknown preset \"{value}\""),
            UnknownGuard { name } => write!(
                f,
                "guards: unknown guard \"{name}\" (guards: reinject_constraints, verify_bindings, entailment_gate, commitment_audit)"
            ),
            DuplicateId { collection, id } => {
                write!(f, "{}s: the id \"{id}\" is used twice", collection.noun())
            }
            EmptyGovernedBy { action } => {
                write!(f, "action \"{action}\": governed_by names no fact")
            }
            UnknownGoverningFact { action, fact } => write!(
                f,
                "action \"{action}\": governed_by names \"{fact}\", which is not a fact"
            ),
            GoverningFactAfterAction {
                action,
                action_turn,
                fact,
                fact_turn,
            } => write!(
                f,
                "action \"{action}\" (turn {action_turn}): governed_by names \"{fact}\", introduced later at turn {fact_turn}"
            ),
            UnknownTarget { action, fact } => {
                write!(f, "action \"{action}\": target \"{fact}\" is not a fact")
            }
            TargetNotBinding { action, fact, kind } => write!(
                f,
                "action \"{action}\": target \"{fact}\" is a {}, not a binding",
                kind.id()
            ),
            TargetAfterAction {
                action,
                action_turn,
                fact,
                fact_turn,
            } => write!(
                f,
                "action \"{action}\" (turn {action_turn}): target \"{fact}\" is introduced later at turn {fact_turn}"
            ),
            MissingBinds { fact } => {
                write!(f, "fact \"{fact}\": a binding needs \"binds\"")
            }
            UnexpectedBinds { fact, kind } => write!(
                f,
                "fact \"{fact}\": \"binds\" is only allowed on a binding, not a {}",
                kind.id()
            ),
            UnknownResource { fact, resource } => write!(
                f,
                "fact \"{fact}\": binds.resource \"{resource}\" is not in resources"
            ),
            SystemFactNotAtTurnZero { fact, turn } => {
                write!(f, "fact \"{fact}\": a system fact is at turn 0, not {turn}")
            }
            FactAtTurnZero { fact, role } => write!(
                f,
                "fact \"{fact}\": turn 0 is the system prompt; a {role} fact needs a turn of 1 or more"
            ),
            TurnOutOfRange {
                what,
                turn,
                min,
                max,
            } => write!(
                f,
                "{what}: turn {turn} is outside the session ({min}..={max})"
            ),
            DuplicateTurnTokens { turn } => {
                write!(f, "turn_tokens: turn {turn} is given twice")
            }
            IntegerOutOfRange {
                field,
                value,
                min,
                max,
            } => write!(f, "{field} is {value}; it must be between {min} and {max}"),
            NumberOutOfRange {
                field,
                value,
                min,
                max: Some(max),
            } => write!(f, "{field} is {value}; it must be between {min} and {max}"),
            NumberOutOfRange {
                field,
                value,
                min,
                max: None,
            } => write!(
                f,
                "{field} is {value}; it must be a finite number of at least {min}"
            ),
            WindowNotAboveSystem {
                window_tokens,
                system_tokens,
            } => write!(
                f,
                "harness.window_tokens ({window_tokens}) must be larger than harness.system_tokens ({system_tokens})"
            ),
        }
    }
}

struct KindList;

impl fmt::Display for KindList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, kind) in Kind::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(kind.id())?;
        }
        Ok(())
    }
}

impl core::error::Error for ScenarioError {}
