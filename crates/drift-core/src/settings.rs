//! The settings a scenario runs under, declared once.
//!
//! [`SETTINGS`] lists every harness field, retention, model parameter and
//! guard with its identifier in scenario files, its key in page links, its
//! label, unit, valid range, default and the range a control offers;
//! [`Setting::help`] says in a sentence what each does. The file
//! format ([`crate::parse_scenario`], [`crate::scenario_to_json`]),
//! validation, the page's link codec and controls, and the `drift` command's
//! `--set` all read it, so adding a setting means adding one row here (and
//! the field it reads and writes).
//!
//! ```
//! use drift_core::{Setting, Value, builtin, find_setting};
//!
//! let mut scenario = builtin("payments-incident").unwrap();
//! let window = find_setting("window_tokens").unwrap();
//! assert_eq!(window.id(), "harness.window_tokens");
//! assert_eq!(window.key, "w");
//! let value = window.parse("64000").unwrap();
//! window.setting.set(&mut scenario, value).unwrap();
//! assert_eq!(scenario.harness.window_tokens, 64_000);
//! assert_eq!(window.setting.get(&scenario), Value::Whole(64_000));
//!
//! // Out of range is refused with the field named.
//! let carve_out = find_setting("retention.carve_out").unwrap();
//! let err = carve_out.check(&carve_out.id(), Value::Number(1.5)).unwrap_err();
//! assert_eq!(err.to_string(), "retention.carve_out is 1.5; it must be between 0 and 1");
//! ```

use alloc::string::{String, ToString};
use core::fmt;

use crate::error::ScenarioError;
use crate::harness::{Harness, HarnessField};
use crate::scenario::{MAX_TOKENS, MAX_TURNS, Scenario};
use crate::vocab::Kind;

/// The guards of docs/MODEL.md §3 and §5.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Guards {
    /// Restore standing rules, carve-outs and corrections verbatim every round.
    pub reinject_constraints: bool,
    /// Refuse an action whose target binding is no longer actionable.
    pub verify_bindings: bool,
    /// Catch fresh fabrication; mark summary-of-summary claims unverified and
    /// refuse irreversible actions on them.
    pub entailment_gate: bool,
    /// Spill commitments, rationales and rejected options before they fade.
    pub commitment_audit: bool,
}

/// One guard, for code that treats them uniformly (parsing, URLs, toggles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[allow(missing_docs)]
pub enum Guard {
    ReinjectConstraints,
    VerifyBindings,
    EntailmentGate,
    CommitmentAudit,
}

impl Guard {
    /// All four guards.
    pub const ALL: [Guard; 4] = [
        Guard::ReinjectConstraints,
        Guard::VerifyBindings,
        Guard::EntailmentGate,
        Guard::CommitmentAudit,
    ];

    /// The identifier in scenario files.
    pub const fn id(self) -> &'static str {
        match self {
            Guard::ReinjectConstraints => "reinject_constraints",
            Guard::VerifyBindings => "verify_bindings",
            Guard::EntailmentGate => "entailment_gate",
            Guard::CommitmentAudit => "commitment_audit",
        }
    }

    /// A short display label.
    pub const fn label(self) -> &'static str {
        match self {
            Guard::ReinjectConstraints => "re-inject constraints",
            Guard::VerifyBindings => "verify bindings",
            Guard::EntailmentGate => "entailment gate",
            Guard::CommitmentAudit => "commitment audit",
        }
    }

    /// One sentence: what the guard does.
    pub const fn help(self) -> &'static str {
        match self {
            Guard::ReinjectConstraints => {
                "Rules, carve-outs and corrections are re-injected verbatim after every round."
            }
            Guard::VerifyBindings => {
                "An action on a binding that is no longer actionable is refused instead of guessed."
            }
            Guard::EntailmentGate => {
                "Summary-of-summary claims are unverified; irreversible actions on them are refused."
            }
            Guard::CommitmentAudit => {
                "Commitments, rationales and rejected options are spilled to a durable store before they fade."
            }
        }
    }

    /// Parses an identifier.
    pub fn from_id(id: &str) -> Option<Guard> {
        Guard::ALL.into_iter().find(|g| g.id() == id)
    }
}

impl Guards {
    /// Whether `guard` is on.
    pub const fn get(&self, guard: Guard) -> bool {
        match guard {
            Guard::ReinjectConstraints => self.reinject_constraints,
            Guard::VerifyBindings => self.verify_bindings,
            Guard::EntailmentGate => self.entailment_gate,
            Guard::CommitmentAudit => self.commitment_audit,
        }
    }

    /// Turns `guard` on or off.
    pub fn set(&mut self, guard: Guard, on: bool) {
        match guard {
            Guard::ReinjectConstraints => self.reinject_constraints = on,
            Guard::VerifyBindings => self.verify_bindings = on,
            Guard::EntailmentGate => self.entailment_gate = on,
            Guard::CommitmentAudit => self.commitment_audit = on,
        }
    }
}

/// The model's numeric parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ModelParams {
    /// A fact is actionable while its fidelity is at least this.
    pub actionable_threshold: f64,
    /// How much context pressure (overshoot past the trigger) cuts retention.
    pub pressure_sensitivity: f64,
    /// Fabrication hazard per summarisation at a 4096-token summary.
    pub fabrication_base: f64,
    /// How fast the hazard grows as the summary budget shrinks.
    pub fabrication_exponent: f64,
    /// Laundering rate above which a round's regime is `fabricated_history`.
    pub laundering_threshold: f64,
}

impl ModelParams {
    /// The defaults of docs/MODEL.md §6.
    pub const DEFAULT: ModelParams = ModelParams {
        actionable_threshold: 0.5,
        pressure_sensitivity: 0.0,
        fabrication_base: 0.05,
        fabrication_exponent: 1.88,
        laundering_threshold: 0.15,
    };
}

impl Default for ModelParams {
    fn default() -> Self {
        ModelParams::DEFAULT
    }
}

impl ModelParams {
    /// The fabrication hazard of one summarisation into `summary_tokens`:
    /// `min(1, base * (4096 / B) ^ exponent)`, and 0 when the base is 0
    /// (even where the power overflows).
    pub fn fabrication_hazard(&self, summary_tokens: u64) -> f64 {
        if self.fabrication_base == 0.0 {
            return 0.0;
        }
        let ratio = 4096.0 / summary_tokens as f64;
        (self.fabrication_base * libm::pow(ratio, self.fabrication_exponent)).min(1.0)
    }
}

/// One model parameter of [`ModelParams`], for code that treats them uniformly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ModelField {
    /// [`ModelParams::actionable_threshold`].
    ActionableThreshold,
    /// [`ModelParams::pressure_sensitivity`].
    PressureSensitivity,
    /// [`ModelParams::fabrication_base`].
    FabricationBase,
    /// [`ModelParams::fabrication_exponent`].
    FabricationExponent,
    /// [`ModelParams::laundering_threshold`].
    LaunderingThreshold,
}

impl ModelField {
    /// Every parameter, in the order of the scenario format.
    pub const ALL: [ModelField; 5] = [
        ModelField::ActionableThreshold,
        ModelField::PressureSensitivity,
        ModelField::FabricationBase,
        ModelField::FabricationExponent,
        ModelField::LaunderingThreshold,
    ];

    /// The field's name in a scenario file's `model` object.
    pub const fn name(self) -> &'static str {
        match self {
            ModelField::ActionableThreshold => "actionable_threshold",
            ModelField::PressureSensitivity => "pressure_sensitivity",
            ModelField::FabricationBase => "fabrication_base",
            ModelField::FabricationExponent => "fabrication_exponent",
            ModelField::LaunderingThreshold => "laundering_threshold",
        }
    }

    /// The parameter's value in `m`.
    pub const fn get(self, m: &ModelParams) -> f64 {
        match self {
            ModelField::ActionableThreshold => m.actionable_threshold,
            ModelField::PressureSensitivity => m.pressure_sensitivity,
            ModelField::FabricationBase => m.fabrication_base,
            ModelField::FabricationExponent => m.fabrication_exponent,
            ModelField::LaunderingThreshold => m.laundering_threshold,
        }
    }

    /// Sets the parameter in `m`.
    pub fn set(self, m: &mut ModelParams, v: f64) {
        match self {
            ModelField::ActionableThreshold => m.actionable_threshold = v,
            ModelField::PressureSensitivity => m.pressure_sensitivity = v,
            ModelField::FabricationBase => m.fabrication_base = v,
            ModelField::FabricationExponent => m.fabrication_exponent = v,
            ModelField::LaunderingThreshold => m.laundering_threshold = v,
        }
    }
}

/// Where a setting's value lives in a [`Scenario`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Setting {
    /// A field of the scenario's harness.
    Harness(HarnessField),
    /// The retention of one kind.
    Retention(Kind),
    /// A model parameter.
    Model(ModelField),
    /// One guard, on or off.
    Guard(Guard),
}

/// A setting's value.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    /// A count: tokens, turns or a percent.
    Whole(u64),
    /// A fraction or a factor.
    Number(f64),
    /// On or off.
    Switch(bool),
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Whole(n) => write!(f, "{n}"),
            Value::Number(x) => write!(f, "{x}"),
            Value::Switch(on) => write!(f, "{on}"),
        }
    }
}

/// A value of the wrong sort for a setting (a fraction for a token count).
#[derive(Clone, Debug, PartialEq)]
pub struct WrongValue {
    /// The setting's identifier (`harness.window_tokens`).
    pub setting: String,
    /// What it takes.
    pub expected: &'static str,
    /// What was given, as written.
    pub given: String,
}

impl fmt::Display for WrongValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} takes {}, not \"{}\"",
            self.setting, self.expected, self.given
        )
    }
}

impl core::error::Error for WrongValue {}

impl Setting {
    /// The setting's value in `scenario`.
    pub fn get(self, scenario: &Scenario) -> Value {
        match self {
            Setting::Harness(f) => Value::Whole(f.get(&scenario.harness)),
            Setting::Retention(k) => Value::Number(scenario.retention.get(k)),
            Setting::Model(f) => Value::Number(f.get(&scenario.model)),
            Setting::Guard(g) => Value::Switch(scenario.guards.get(g)),
        }
    }

    /// Sets the setting in `scenario` (ranges are checked by validation, or
    /// beforehand with [`SettingInfo::check`]). A whole number is taken for
    /// a fraction.
    ///
    /// # Errors
    ///
    /// [`WrongValue`] when `value` is of another sort than the setting's.
    pub fn set(self, scenario: &mut Scenario, value: Value) -> Result<(), WrongValue> {
        match (self, value) {
            (Setting::Harness(f), Value::Whole(n)) => f.set(&mut scenario.harness, n),
            (Setting::Retention(k), Value::Number(x)) => scenario.retention.set(k, x),
            (Setting::Retention(k), Value::Whole(n)) => scenario.retention.set(k, n as f64),
            (Setting::Model(f), Value::Number(x)) => f.set(&mut scenario.model, x),
            (Setting::Model(f), Value::Whole(n)) => f.set(&mut scenario.model, n as f64),
            (Setting::Guard(g), Value::Switch(on)) => scenario.guards.set(g, on),
            _ => {
                let info = self.info();
                return Err(WrongValue {
                    setting: info.id(),
                    expected: info.range.expected(),
                    given: value.to_string(),
                });
            }
        }
        Ok(())
    }

    /// One sentence: what the setting does.
    pub const fn help(self) -> &'static str {
        match self {
            Setting::Harness(f) => match f {
                HarnessField::WindowTokens => {
                    "The context window: how many tokens the model can hold."
                }
                HarnessField::TriggerPercent => {
                    "A round is due when the context passes this percent of the window."
                }
                HarnessField::SystemTokens => "The system prompt, which every round keeps.",
                HarnessField::TokensPerTurn => {
                    "The size of a turn the scenario gives no size of its own."
                }
                HarnessField::TailTurns => "How many of the newest turns a round keeps verbatim.",
                HarnessField::SummaryTokens => {
                    "The size of the summary a round writes; a smaller one fabricates more."
                }
                HarnessField::Turns => "The length of the session.",
                HarnessField::ReserveTokens => {
                    "A round is also due within this many tokens of the window (0: off)."
                }
                HarnessField::UserMessageTokens => {
                    "The size of one user message, for a policy's user budget."
                }
            },
            Setting::Retention(_) => {
                "The fraction of a fact's operative detail that one summarisation keeps."
            }
            Setting::Model(f) => match f {
                ModelField::ActionableThreshold => {
                    "A fact is actionable while its fidelity is at least this."
                }
                ModelField::PressureSensitivity => {
                    "How much context pressure (overshoot past the trigger) cuts retention."
                }
                ModelField::FabricationBase => {
                    "The fabrication hazard of one summarisation into 4,096 tokens."
                }
                ModelField::FabricationExponent => {
                    "How fast the fabrication hazard grows as the summary budget shrinks."
                }
                ModelField::LaunderingThreshold => {
                    "The laundering rate above which a round's summary is untrusted."
                }
            },
            Setting::Guard(g) => g.help(),
        }
    }

    /// The setting's row of [`SETTINGS`].
    pub fn info(self) -> &'static SettingInfo {
        let index = match self {
            Setting::Harness(f) => f as usize,
            Setting::Retention(k) => HarnessField::ALL.len() + k.index(),
            Setting::Model(f) => HarnessField::ALL.len() + Kind::ALL.len() + f as usize,
            Setting::Guard(g) => {
                HarnessField::ALL.len() + Kind::ALL.len() + ModelField::ALL.len() + g as usize
            }
        };
        &SETTINGS[index]
    }
}

/// What a setting's number counts, for reading it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Unit {
    /// Tokens.
    Tokens,
    /// Turns.
    Turns,
    /// A percent of the window.
    Percent,
    /// A fraction from 0 to 1.
    Fraction,
    /// A dimensionless factor.
    Factor,
    /// On or off.
    Switch,
}

impl Unit {
    /// How the unit reads after a value ("tokens"); empty for fractions and
    /// factors.
    pub const fn word(self) -> &'static str {
        match self {
            Unit::Tokens => "tokens",
            Unit::Turns => "turns",
            Unit::Percent => "% of the window",
            Unit::Fraction | Unit::Factor | Unit::Switch => "",
        }
    }
}

/// The values a setting accepts.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Range {
    /// Whole numbers from `min` to `max`.
    Whole {
        /// Smallest allowed.
        min: u64,
        /// Largest allowed.
        max: u64,
    },
    /// Finite numbers from `min` to `max` (unbounded above without one).
    Number {
        /// Smallest allowed.
        min: f64,
        /// Largest allowed, if any.
        max: Option<f64>,
    },
    /// `true` or `false`.
    Switch,
}

impl Range {
    /// What the range takes, in words.
    pub const fn expected(self) -> &'static str {
        match self {
            Range::Whole { .. } => "a whole number",
            Range::Number { max: Some(_), .. } => "a number from 0 to 1",
            Range::Number { max: None, .. } => "a number of 0 or more",
            Range::Switch => "true or false",
        }
    }
}

/// The range a control in the page offers, and its step: narrower than the
/// valid range where the valid one is too wide to drag through.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Control {
    /// The control's lowest value.
    pub min: f64,
    /// The control's highest value.
    pub max: f64,
    /// The step between values.
    pub step: f64,
}

/// Everything declared about one setting. See [`SETTINGS`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SettingInfo {
    /// Where the value lives.
    pub setting: Setting,
    /// The object of a scenario file that holds it (`harness`, `retention`,
    /// `model`, `guards`).
    pub section: &'static str,
    /// Its field in that object (`window_tokens`).
    pub name: &'static str,
    /// Its key in a page link (`w`, `r.sr`, `m.at`; a guard's letter in `g`).
    pub key: &'static str,
    /// The label of its control.
    pub label: &'static str,
    /// What its number counts.
    pub unit: Unit,
    /// The values validation accepts.
    pub range: Range,
    /// The value of a scenario file that leaves it out; `None` when a
    /// scenario must give it.
    pub default: Option<Value>,
    /// The control's range and step.
    pub control: Control,
}

impl SettingInfo {
    /// The identifier in scenario files and on the command line:
    /// `section.name` (`harness.window_tokens`).
    pub fn id(&self) -> String {
        alloc::format!("{}.{}", self.section, self.name)
    }

    /// Reads a value as written on a command line or in a link: a whole
    /// number, a decimal, or `true`/`false` (also `on`/`off`, `1`/`0` for a
    /// switch).
    ///
    /// # Errors
    ///
    /// [`WrongValue`] when the text is not of the setting's sort. The range
    /// is checked separately ([`SettingInfo::check`]).
    pub fn parse(&self, text: &str) -> Result<Value, WrongValue> {
        let text = text.trim();
        let value = match self.range {
            Range::Whole { .. } => text
                .replace([',', '_'], "")
                .parse::<u64>()
                .ok()
                .map(Value::Whole),
            Range::Number { .. } => serde_json::from_str::<f64>(text)
                .ok()
                .filter(|x| x.is_finite())
                .map(Value::Number),
            Range::Switch => match text {
                "true" | "on" | "1" => Some(Value::Switch(true)),
                "false" | "off" | "0" => Some(Value::Switch(false)),
                _ => None,
            },
        };
        value.ok_or_else(|| WrongValue {
            setting: self.id(),
            expected: self.range.expected(),
            given: text.to_string(),
        })
    }

    /// Checks `value` against the valid range; the error names `field` (the
    /// path a person should fix: `harness.turns`, or `policy.harness.turns`
    /// where a custom policy set it).
    ///
    /// # Errors
    ///
    /// [`ScenarioError::IntegerOutOfRange`] or
    /// [`ScenarioError::NumberOutOfRange`] naming `field`.
    pub fn check(&self, field: &str, value: Value) -> Result<(), ScenarioError> {
        match (self.range, value) {
            (Range::Whole { min, max }, Value::Whole(n)) if !(min..=max).contains(&n) => {
                Err(ScenarioError::IntegerOutOfRange {
                    field: field.to_string(),
                    value: n,
                    min,
                    max,
                })
            }
            (Range::Number { min, max }, Value::Number(x))
                if !(x.is_finite() && x >= min && max.is_none_or(|m| x <= m)) =>
            {
                Err(ScenarioError::NumberOutOfRange {
                    field: field.to_string(),
                    value: x,
                    min,
                    max,
                })
            }
            _ => Ok(()),
        }
    }

    /// `value` as a person reads it: token counts with thousands separators,
    /// percents with `%`, fractions to the control's precision.
    pub fn format(&self, value: Value) -> String {
        match value {
            Value::Whole(n) if self.unit == Unit::Percent => alloc::format!("{n}%"),
            Value::Whole(n) => crate::explain::thousands(n),
            Value::Number(x) if self.control.step < 0.01 => alloc::format!("{x:.3}"),
            Value::Number(x) => alloc::format!("{x:.2}"),
            Value::Switch(on) => (if on { "on" } else { "off" }).to_string(),
        }
    }
}

/// Finds a setting by its identifier (`harness.window_tokens`), its field
/// name alone (`window_tokens`, `carve_out`) or its link key (`w`, `r.co`).
pub fn find_setting(name: &str) -> Option<&'static SettingInfo> {
    SETTINGS.iter().find(|s| {
        s.name == name
            || s.key == name
            || name
                .strip_prefix(s.section)
                .and_then(|rest| rest.strip_prefix('.'))
                == Some(s.name)
    })
}

const TOKENS: Range = Range::Whole {
    min: 1,
    max: MAX_TOKENS,
};
const TOKENS_OR_NONE: Range = Range::Whole {
    min: 0,
    max: MAX_TOKENS,
};
const TURNS: Range = Range::Whole {
    min: 1,
    max: MAX_TURNS as u64,
};
const FRACTION: Range = Range::Number {
    min: 0.0,
    max: Some(1.0),
};
const SLIDER: Control = Control {
    min: 0.0,
    max: 1.0,
    step: 0.01,
};

/// A row with no default and the default slider.
const fn row(
    setting: Setting,
    key: &'static str,
    label: &'static str,
    unit: Unit,
    range: Range,
) -> SettingInfo {
    let (section, name) = match setting {
        Setting::Harness(field) => ("harness", field.name()),
        Setting::Retention(kind) => ("retention", kind.id()),
        Setting::Model(field) => ("model", field.name()),
        Setting::Guard(guard) => ("guards", guard.id()),
    };
    SettingInfo {
        setting,
        section,
        name,
        key,
        label,
        unit,
        range,
        default: None,
        control: SLIDER,
    }
}

impl SettingInfo {
    /// This row with a default (the value of a file that leaves it out).
    const fn or(self, default: Value) -> SettingInfo {
        SettingInfo {
            default: Some(default),
            ..self
        }
    }

    /// This row with its control's range and step.
    const fn control(self, min: f64, max: f64, step: f64) -> SettingInfo {
        SettingInfo {
            control: Control { min, max, step },
            ..self
        }
    }
}

const fn harness(
    field: HarnessField,
    key: &'static str,
    label: &'static str,
    unit: Unit,
    range: Range,
) -> SettingInfo {
    row(Setting::Harness(field), key, label, unit, range)
}

const fn retention(kind: Kind, key: &'static str) -> SettingInfo {
    let setting = Setting::Retention(kind);
    row(setting, key, kind.label(), Unit::Fraction, FRACTION)
        .or(Value::Number(kind.default_retention()))
}

const fn model(
    field: ModelField,
    key: &'static str,
    label: &'static str,
    unit: Unit,
    range: Range,
) -> SettingInfo {
    row(Setting::Model(field), key, label, unit, range)
        .or(Value::Number(field.get(&ModelParams::DEFAULT)))
}

const fn guard(guard: Guard, key: &'static str) -> SettingInfo {
    let setting = Setting::Guard(guard);
    row(setting, key, guard.label(), Unit::Switch, Range::Switch)
        .or(Value::Switch(false))
        .control(0.0, 1.0, 1.0)
}

/// Every setting, in the order of the scenario format: the nine harness
/// fields, the nine retentions, the five model parameters, the four guards.
/// [`Setting::info`] finds a setting's row.
pub const SETTINGS: [SettingInfo; 27] = [
    harness(
        HarnessField::WindowTokens,
        "w",
        "window (tokens)",
        Unit::Tokens,
        TOKENS,
    )
    .control(1_000.0, 2_000_000.0, 1_000.0),
    harness(
        HarnessField::TriggerPercent,
        "tr",
        "trigger (% of window)",
        Unit::Percent,
        Range::Whole { min: 1, max: 100 },
    )
    .or(Value::Whole(Harness::DEFAULT_TRIGGER_PERCENT as u64))
    .control(1.0, 100.0, 1.0),
    harness(
        HarnessField::SystemTokens,
        "sy",
        "system prompt (tokens)",
        Unit::Tokens,
        TOKENS_OR_NONE,
    )
    .control(0.0, 1_000_000.0, 100.0),
    harness(
        HarnessField::TokensPerTurn,
        "tt",
        "tokens per turn",
        Unit::Tokens,
        TOKENS,
    )
    .control(1.0, 1_000_000.0, 100.0),
    harness(
        HarnessField::TailTurns,
        "k",
        "tail (turns kept)",
        Unit::Turns,
        TURNS,
    )
    .control(1.0, 1_000.0, 1.0),
    harness(
        HarnessField::SummaryTokens,
        "b",
        "summary budget (tokens)",
        Unit::Tokens,
        TOKENS,
    )
    .control(1.0, 1_000_000.0, 256.0),
    harness(HarnessField::Turns, "n", "turns", Unit::Turns, TURNS).control(1.0, 100_000.0, 1.0),
    harness(
        HarnessField::ReserveTokens,
        "rv",
        "reserve (tokens)",
        Unit::Tokens,
        TOKENS_OR_NONE,
    )
    .or(Value::Whole(0))
    .control(0.0, 1_000_000.0, 1_000.0),
    harness(
        HarnessField::UserMessageTokens,
        "um",
        "user message (tokens)",
        Unit::Tokens,
        TOKENS,
    )
    .or(Value::Whole(Harness::DEFAULT_USER_MESSAGE_TOKENS))
    .control(1.0, 100_000.0, 10.0),
    retention(Kind::StandingRule, "r.sr"),
    retention(Kind::CarveOut, "r.co"),
    retention(Kind::Correction, "r.cr"),
    retention(Kind::Scope, "r.sc"),
    retention(Kind::TaskState, "r.ts"),
    retention(Kind::Commitment, "r.cm"),
    retention(Kind::Rationale, "r.ra"),
    retention(Kind::RejectedOption, "r.ro"),
    retention(Kind::Binding, "r.bi"),
    model(
        ModelField::ActionableThreshold,
        "m.at",
        "actionable threshold",
        Unit::Fraction,
        FRACTION,
    ),
    model(
        ModelField::PressureSensitivity,
        "m.ps",
        "pressure sensitivity",
        Unit::Fraction,
        FRACTION,
    ),
    model(
        ModelField::FabricationBase,
        "m.fb",
        "fabrication level",
        Unit::Fraction,
        FRACTION,
    )
    .control(0.0, 0.5, 0.005),
    model(
        ModelField::FabricationExponent,
        "m.fe",
        "fabrication exponent",
        Unit::Factor,
        Range::Number {
            min: 0.0,
            max: None,
        },
    )
    .control(0.0, 4.0, 0.01),
    model(
        ModelField::LaunderingThreshold,
        "m.lt",
        "laundering threshold",
        Unit::Fraction,
        FRACTION,
    ),
    guard(Guard::ReinjectConstraints, "r"),
    guard(Guard::VerifyBindings, "v"),
    guard(Guard::EntailmentGate, "e"),
    guard(Guard::CommitmentAudit, "c"),
];

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeSet;
    use alloc::vec::Vec;

    #[test]
    fn every_setting_has_its_own_row_ids_and_keys() {
        let all: Vec<Setting> = HarnessField::ALL
            .into_iter()
            .map(Setting::Harness)
            .chain(Kind::ALL.into_iter().map(Setting::Retention))
            .chain(ModelField::ALL.into_iter().map(Setting::Model))
            .chain(Guard::ALL.into_iter().map(Setting::Guard))
            .collect();
        assert_eq!(all.len(), SETTINGS.len());
        for (setting, row) in all.iter().zip(&SETTINGS) {
            assert_eq!(setting.info().setting, *setting);
            assert_eq!(row.setting, *setting);
        }
        let ids: BTreeSet<String> = SETTINGS.iter().map(SettingInfo::id).collect();
        let keys: BTreeSet<&str> = SETTINGS.iter().map(|s| s.key).collect();
        let names: BTreeSet<&str> = SETTINGS.iter().map(|s| s.name).collect();
        assert_eq!(ids.len(), 27);
        assert_eq!(keys.len(), 27);
        assert_eq!(names.len(), 27, "a bare name must find one setting");
    }

    #[test]
    fn defaults_are_valid_and_match_the_types_defaults() {
        let scenario = crate::builtin("planning-scratchpad").unwrap();
        for info in &SETTINGS {
            if let Some(default) = info.default {
                info.check(&info.id(), default).unwrap();
            }
            info.check(&info.id(), info.setting.get(&scenario)).unwrap();
            assert!(info.control.min <= info.control.max && info.control.step > 0.0);
        }
        assert_eq!(ModelParams::default(), ModelParams::DEFAULT);
    }

    #[test]
    fn lookups_by_id_name_and_key() {
        let a = find_setting("harness.turns").unwrap();
        assert_eq!(find_setting("turns"), Some(a));
        assert_eq!(find_setting("n"), Some(a));
        assert_eq!(find_setting("r.bi").unwrap().name, "binding");
        assert_eq!(find_setting("guards.verify_bindings").unwrap().key, "v");
        assert!(find_setting("harness.binding").is_none());
        assert!(find_setting("window").is_none());
    }

    #[test]
    fn parse_set_get_and_check() {
        let mut s = crate::builtin("payments-incident").unwrap();
        for info in &SETTINGS {
            let text = match info.range {
                Range::Whole { min, .. } => (min + 3).to_string(),
                Range::Number { .. } => "0.25".to_string(),
                Range::Switch => "on".to_string(),
            };
            let v = info.parse(&text).unwrap();
            info.setting.set(&mut s, v).unwrap();
            assert_eq!(info.setting.get(&s), v, "{}", info.id());
        }
        let window = Setting::Harness(HarnessField::WindowTokens).info();
        assert_eq!(window.parse("200,000").unwrap(), Value::Whole(200_000));
        assert!(window.parse("0.5").is_err());
        assert!(window.setting.set(&mut s, Value::Number(0.5)).is_err());
        let gate = Setting::Guard(Guard::EntailmentGate).info();
        assert_eq!(
            gate.parse("maybe").unwrap_err().to_string(),
            "guards.entailment_gate takes true or false, not \"maybe\""
        );
        let exponent = Setting::Model(ModelField::FabricationExponent).info();
        assert!(exponent.check("e", Value::Number(9.0)).is_ok());
        assert!(exponent.check("e", Value::Number(f64::INFINITY)).is_err());
        assert_eq!(window.format(Value::Whole(200_000)), "200,000");
    }
}
