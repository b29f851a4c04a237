//! The page's state as a link: a short, versioned query string.
//!
//! A link names the scenario (a built-in id, or the whole imported file
//! inline) and lists only what differs from that scenario's own settings, so
//! a link with no changes is just `?v=1&s=payments-incident`. Decoding is
//! strict about what it reads: a wrong version, an unknown key or id, a
//! number out of range or a setting the engine rejects is a [`LinkError`]
//! naming the key, never a guess. Old links keep working: version 1 is read
//! by every later version.
//!
//! | key | meaning |
//! | --- | --- |
//! | `v` | format version (1) |
//! | `s` / `src` | built-in scenario id / imported scenario file (base64url JSON) |
//! | `t` | view tab (`timelines`, `rounds`, `matrix`, `compare`) |
//! | `c` | the preset the compare view sets against the current policy |
//! | `p` | policy preset id, or `custom` with `pc pr ps px pf pt pu` and `ph.*` |
//! | `w tr sy tt k b n rv um` | harness: window, trigger %, system, tokens per turn, tail turns, summary, turns, reserve, user message |
//! | `r.<kind>` | retention (`r.sr r.co r.cr r.sc r.ts r.cm r.ra r.ro r.bi`) |
//! | `g` | guards on: letters `r` `v` `e` `c`; empty for none |
//! | `m.at m.ps m.fb m.fe m.lt` | model parameters |
//! | `x` / `nf` | indices of externalised facts / of facts not forwarded, dot-separated |
//!
//! A link carries its state in the query (`?v=1&…`) unless that is longer
//! than [`LONGEST_QUERY`] (an imported session with thousands of turns):
//! then in the fragment (`#v=1&…`), which a browser never sends to the
//! server, since servers refuse request lines of a few kilobytes. See
//! [`url_suffix`] and [`link_query`].

use std::fmt::{self, Write as _};

use drift_core::{
    Guard, Harness, HarnessOverrides, Kind, Policy, PolicyChoice, Preset, Role, RoleSet, Scenario,
    ScenarioError, builtin, parse_scenario, scenario_to_json,
};

/// The current link format.
pub const VERSION: u32 = 1;

/// Which view the page shows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Tab {
    /// One fidelity row per fact.
    #[default]
    Timelines,
    /// The rounds table.
    Rounds,
    /// Scenario × preset outcome counts.
    Matrix,
    /// The current policy against another preset.
    Compare,
}

impl Tab {
    /// Every tab, in display order.
    pub const ALL: [Tab; 4] = [Tab::Timelines, Tab::Rounds, Tab::Matrix, Tab::Compare];

    /// The identifier in links.
    pub const fn id(self) -> &'static str {
        match self {
            Tab::Timelines => "timelines",
            Tab::Rounds => "rounds",
            Tab::Matrix => "matrix",
            Tab::Compare => "compare",
        }
    }

    /// The label on the tab.
    pub const fn label(self) -> &'static str {
        match self {
            Tab::Timelines => "Timelines",
            Tab::Rounds => "Rounds",
            Tab::Matrix => "Matrix",
            Tab::Compare => "Compare",
        }
    }

    fn from_id(id: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|t| t.id() == id)
    }
}

/// Where the scenario comes from.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// A built-in scenario, by id.
    Builtin(String),
    /// A file the user imported, carried whole.
    Imported(Box<Scenario>),
}

impl Source {
    /// The scenario as it was loaded, before any change in the page.
    pub fn scenario(&self) -> Option<Scenario> {
        match self {
            Source::Builtin(id) => builtin(id),
            Source::Imported(s) => Some(s.as_ref().clone()),
        }
    }
}

/// Everything a link carries.
#[derive(Clone, Debug, PartialEq)]
pub struct PageState {
    /// The scenario as loaded.
    pub source: Source,
    /// The scenario with every change made in the page.
    pub scenario: Scenario,
    /// The visible tab.
    pub tab: Tab,
    /// The preset the compare view sets against the current policy.
    pub compare: Preset,
}

impl PageState {
    /// The default view: the first built-in scenario, unchanged.
    pub fn default_state() -> PageState {
        let id = drift_core::builtin_ids()
            .next()
            .unwrap_or("payments-incident");
        let scenario = builtin(id).unwrap_or_else(|| fallback_scenario(id));
        PageState {
            source: Source::Builtin(id.to_string()),
            scenario,
            tab: Tab::Timelines,
            compare: DEFAULT_COMPARE,
        }
    }
}

/// What the compare view sets against the current policy until asked otherwise.
pub const DEFAULT_COMPARE: Preset = Preset::OpenaiCompact;

/// A scenario with no facts, used only if a built-in failed to load (a bug
/// the built-in tests catch), so the page never has nothing to show.
fn fallback_scenario(id: &str) -> Scenario {
    Scenario {
        id: id.to_string(),
        title: String::new(),
        description: String::new(),
        harness: Harness {
            window_tokens: 32_000,
            trigger_percent: 100,
            system_tokens: 2_000,
            tokens_per_turn: 1_500,
            tail_turns: 6,
            summary_tokens: 4_000,
            turns: 70,
            reserve_tokens: 0,
            user_message_tokens: Harness::DEFAULT_USER_MESSAGE_TOKENS,
        },
        turn_tokens: Vec::new(),
        policy: PolicyChoice::default(),
        retention: Default::default(),
        guards: Default::default(),
        model: Default::default(),
        resources: Vec::new(),
        facts: Vec::new(),
        actions: Vec::new(),
    }
}

/// Why a link could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// No `v`, or a version this page does not read.
    Version(Option<String>),
    /// A key this format does not have.
    UnknownKey(String),
    /// A key given twice.
    Repeated(String),
    /// Both a built-in (`s`) and an inline scenario (`src`).
    TwoScenarios,
    /// A value that is not what the key takes.
    BadValue {
        /// The key.
        key: String,
        /// The value as written.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// A built-in scenario id that does not exist.
    UnknownScenario(String),
    /// The inline scenario file does not read.
    BadScenario(ScenarioError),
    /// The settings read, but the engine rejects them.
    Invalid(ScenarioError),
    /// Not a query string (bad percent-encoding).
    Garbled,
}

impl fmt::Display for LinkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LinkError::Version(None) => {
                write!(
                    f,
                    "this link has no version (v=…): it is not a Compaction Drift link"
                )
            }
            LinkError::Version(Some(v)) => write!(
                f,
                "this link is version {v}; this page reads version {VERSION}"
            ),
            LinkError::UnknownKey(k) => write!(f, "the link has an unknown setting \"{k}\""),
            LinkError::Repeated(k) => write!(f, "the link gives \"{k}\" twice"),
            LinkError::TwoScenarios => {
                write!(
                    f,
                    "the link names two scenarios (s and src); it can show one"
                )
            }
            LinkError::BadValue {
                key,
                value,
                expected,
            } => write!(f, "the link sets {key}={value}; {key} takes {expected}"),
            LinkError::UnknownScenario(id) => {
                write!(
                    f,
                    "the link names a scenario \"{id}\" this page does not have"
                )
            }
            LinkError::BadScenario(e) => write!(f, "the scenario in the link does not read: {e}"),
            LinkError::Invalid(e) => write!(f, "the link's settings are not valid: {e}"),
            LinkError::Garbled => write!(f, "the link is garbled (bad %-encoding)"),
        }
    }
}

impl std::error::Error for LinkError {}

// ------------------------------------------------------------ short codes

const KIND_CODES: [(Kind, &str); 9] = [
    (Kind::StandingRule, "sr"),
    (Kind::CarveOut, "co"),
    (Kind::Correction, "cr"),
    (Kind::Scope, "sc"),
    (Kind::TaskState, "ts"),
    (Kind::Commitment, "cm"),
    (Kind::Rationale, "ra"),
    (Kind::RejectedOption, "ro"),
    (Kind::Binding, "bi"),
];

const GUARD_CODES: [(Guard, char); 4] = [
    (Guard::ReinjectConstraints, 'r'),
    (Guard::VerifyBindings, 'v'),
    (Guard::EntailmentGate, 'e'),
    (Guard::CommitmentAudit, 'c'),
];

const ROLE_CODES: [(Role, char); 4] = [
    (Role::System, 's'),
    (Role::User, 'u'),
    (Role::Assistant, 'a'),
    (Role::Tool, 't'),
];

/// The harness fields: link key, getter, setter.
type HarnessField = (&'static str, fn(&Harness) -> u64, fn(&mut Harness, u64));

const HARNESS_FIELDS: [HarnessField; 9] = [
    ("w", |h| h.window_tokens, |h, v| h.window_tokens = v),
    (
        "tr",
        |h| h.trigger_percent.into(),
        |h, v| h.trigger_percent = v as u32,
    ),
    ("sy", |h| h.system_tokens, |h, v| h.system_tokens = v),
    ("tt", |h| h.tokens_per_turn, |h, v| h.tokens_per_turn = v),
    ("k", |h| h.tail_turns.into(), |h, v| h.tail_turns = v as u32),
    ("b", |h| h.summary_tokens, |h, v| h.summary_tokens = v),
    ("n", |h| h.turns.into(), |h, v| h.turns = v as u32),
    ("rv", |h| h.reserve_tokens, |h, v| h.reserve_tokens = v),
    (
        "um",
        |h| h.user_message_tokens,
        |h, v| h.user_message_tokens = v,
    ),
];

/// Fields that hold turns or percents, not token counts.
fn is_u32_field(key: &str) -> bool {
    matches!(key, "tr" | "k" | "n")
}

type OverrideField = (
    &'static str,
    fn(&HarnessOverrides) -> Option<u64>,
    fn(&mut HarnessOverrides, u64),
);

const OVERRIDE_FIELDS: [OverrideField; 9] = [
    (
        "ph.w",
        |o| o.window_tokens,
        |o, v| o.window_tokens = Some(v),
    ),
    (
        "ph.tr",
        |o| o.trigger_percent.map(u64::from),
        |o, v| o.trigger_percent = Some(v as u32),
    ),
    (
        "ph.sy",
        |o| o.system_tokens,
        |o, v| o.system_tokens = Some(v),
    ),
    (
        "ph.tt",
        |o| o.tokens_per_turn,
        |o, v| o.tokens_per_turn = Some(v),
    ),
    (
        "ph.k",
        |o| o.tail_turns.map(u64::from),
        |o, v| o.tail_turns = Some(v as u32),
    ),
    (
        "ph.b",
        |o| o.summary_tokens,
        |o, v| o.summary_tokens = Some(v),
    ),
    (
        "ph.n",
        |o| o.turns.map(u64::from),
        |o, v| o.turns = Some(v as u32),
    ),
    (
        "ph.rv",
        |o| o.reserve_tokens,
        |o, v| o.reserve_tokens = Some(v),
    ),
    (
        "ph.um",
        |o| o.user_message_tokens,
        |o, v| o.user_message_tokens = Some(v),
    ),
];

type ModelField = (
    &'static str,
    fn(&drift_core::ModelParams) -> f64,
    fn(&mut drift_core::ModelParams, f64),
);

const MODEL_FIELDS: [ModelField; 5] = [
    (
        "m.at",
        |m| m.actionable_threshold,
        |m, v| m.actionable_threshold = v,
    ),
    (
        "m.ps",
        |m| m.pressure_sensitivity,
        |m, v| m.pressure_sensitivity = v,
    ),
    (
        "m.fb",
        |m| m.fabrication_base,
        |m, v| m.fabrication_base = v,
    ),
    (
        "m.fe",
        |m| m.fabrication_exponent,
        |m, v| m.fabrication_exponent = v,
    ),
    (
        "m.lt",
        |m| m.laundering_threshold,
        |m, v| m.laundering_threshold = v,
    ),
];

// ------------------------------------------------------------ encoding

/// The longest state a link carries in its query.
pub const LONGEST_QUERY: usize = 2_000;

/// What follows the page's path in a link to `query` (an encoded state):
/// `?query`, or `#query` when it is longer than [`LONGEST_QUERY`].
pub fn url_suffix(query: &str) -> String {
    if query.len() <= LONGEST_QUERY {
        format!("?{query}")
    } else {
        format!("#{query}")
    }
}

/// The state a page's address carries, from its query (`location.search`)
/// and fragment (`location.hash`): the fragment's when it has one.
pub fn link_query<'a>(search: &'a str, hash: &'a str) -> &'a str {
    match hash.strip_prefix('#').unwrap_or(hash) {
        "" => search,
        fragment => fragment,
    }
}

/// Writes `state` as a query string (without the leading `?`).
pub fn encode(state: &PageState) -> String {
    let mut q = Query::default();
    q.push("v", VERSION.to_string());
    let base = match &state.source {
        Source::Builtin(id) => {
            q.push("s", id.clone());
            builtin(id)
        }
        Source::Imported(s) => {
            q.push("src", base64url::encode(minified(s).as_bytes()));
            Some(s.as_ref().clone())
        }
    };
    if state.tab != Tab::default() {
        q.push("t", state.tab.id().to_string());
    }
    if state.compare != DEFAULT_COMPARE {
        q.push("c", state.compare.id().to_string());
    }
    let s = &state.scenario;
    let base = base.unwrap_or_else(|| s.clone());
    if s.policy != base.policy {
        match &s.policy {
            PolicyChoice::Preset(p) => q.push("p", p.id().to_string()),
            PolicyChoice::Custom(p) => {
                q.push("p", "custom".to_string());
                encode_custom(&mut q, p);
            }
        }
    }
    for (key, get, _) in HARNESS_FIELDS {
        if get(&s.harness) != get(&base.harness) {
            q.push(key, get(&s.harness).to_string());
        }
    }
    for (kind, code) in KIND_CODES {
        let v = s.retention.get(kind);
        if v.to_bits() != base.retention.get(kind).to_bits() {
            q.push(&format!("r.{code}"), number(v));
        }
    }
    if s.guards != base.guards {
        let letters: String = GUARD_CODES
            .iter()
            .filter(|(g, _)| s.guards.get(*g))
            .map(|(_, c)| *c)
            .collect();
        q.push("g", letters);
    }
    for (key, get, _) in MODEL_FIELDS {
        if get(&s.model).to_bits() != get(&base.model).to_bits() {
            q.push(key, number(get(&s.model)));
        }
    }
    let flags = |scenario: &Scenario, pick: fn(&drift_core::Fact) -> bool| -> String {
        let mut out = String::new();
        for (i, f) in scenario.facts.iter().enumerate() {
            if pick(f) {
                if !out.is_empty() {
                    out.push('.');
                }
                let _ = write!(out, "{i}");
            }
        }
        out
    };
    let externalised = |f: &drift_core::Fact| f.externalised;
    let not_forwarded = |f: &drift_core::Fact| !f.forwarded;
    if flags(s, externalised) != flags(&base, externalised) {
        q.push("x", flags(s, externalised));
    }
    if flags(s, not_forwarded) != flags(&base, not_forwarded) {
        q.push("nf", flags(s, not_forwarded));
    }
    q.finish()
}

fn encode_custom(q: &mut Query, p: &Policy) {
    let bit = |b: bool| if b { "1" } else { "0" }.to_string();
    q.push("pc", bit(p.compacts));
    let roles: String = ROLE_CODES
        .iter()
        .filter(|(r, _)| p.protected_roles.contains(*r))
        .map(|(_, c)| *c)
        .collect();
    q.push("pr", roles);
    q.push("ps", bit(p.summarises));
    q.push("px", bit(p.rereads_external));
    if p.keep_first_turns != 0 {
        q.push("pf", p.keep_first_turns.to_string());
    }
    if let Some(t) = p.tail_percent {
        q.push("pt", t.to_string());
    }
    if let Some(u) = p.user_budget_tokens {
        q.push("pu", u.to_string());
    }
    for (key, get, _) in OVERRIDE_FIELDS {
        if let Some(v) = get(&p.harness) {
            q.push(key, v.to_string());
        }
    }
}

/// The scenario file without insignificant whitespace, for an inline link.
fn minified(s: &Scenario) -> String {
    strip_json_whitespace(&scenario_to_json(s))
}

/// Removes whitespace outside strings from valid JSON.
fn strip_json_whitespace(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let mut in_string = false;
    let mut escaped = false;
    for c in json.chars() {
        if in_string {
            out.push(c);
            match (escaped, c) {
                (true, _) => escaped = false,
                (false, '\\') => escaped = true,
                (false, '"') => in_string = false,
                _ => {}
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// A float in its shortest form that reads back to the same bits.
fn number(v: f64) -> String {
    format!("{v}")
}

#[derive(Default)]
struct Query(Vec<(String, String)>);

impl Query {
    fn push(&mut self, key: &str, value: String) {
        self.0.push((key.to_string(), value));
    }

    fn finish(self) -> String {
        let mut out = String::new();
        for (i, (k, v)) in self.0.iter().enumerate() {
            if i > 0 {
                out.push('&');
            }
            out.push_str(k);
            out.push('=');
            percent_encode(&mut out, v);
        }
        out
    }
}

fn percent_encode(out: &mut String, value: &str) {
    for b in value.bytes() {
        match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            _ => {
                let _ = write!(out, "%{b:02X}");
            }
        }
    }
}

fn percent_decode(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = value.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

// ------------------------------------------------------------ decoding

/// Query keys that other tools append to links; ignored.
fn is_foreign_tracking(key: &str) -> bool {
    key.starts_with("utm_") || matches!(key, "fbclid" | "gclid" | "ref")
}

/// Reads a query string (with or without the leading `?`).
///
/// Returns `Ok(None)` for an empty query (no link state at all).
///
/// # Errors
///
/// A [`LinkError`] naming the first thing wrong.
pub fn decode(query: &str) -> Result<Option<PageState>, LinkError> {
    let query = query.strip_prefix('?').unwrap_or(query);
    if query.trim().is_empty() {
        return Ok(None);
    }
    let mut pairs: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let key = percent_decode(k).ok_or(LinkError::Garbled)?;
        let value = percent_decode(v).ok_or(LinkError::Garbled)?;
        if is_foreign_tracking(&key) {
            continue;
        }
        if pairs.iter().any(|(seen, _)| *seen == key) {
            return Err(LinkError::Repeated(key));
        }
        pairs.push((key, value));
    }
    let get = |key: &str| {
        pairs
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    match get("v") {
        Some("1") => {}
        other => return Err(LinkError::Version(other.map(str::to_string))),
    }
    for (key, _) in &pairs {
        if !is_known_key(key) {
            return Err(LinkError::UnknownKey(key.clone()));
        }
    }
    let source = match (get("s"), get("src")) {
        (Some(_), Some(_)) => return Err(LinkError::TwoScenarios),
        (Some(id), None) => {
            if builtin(id).is_none() {
                return Err(LinkError::UnknownScenario(id.to_string()));
            }
            Source::Builtin(id.to_string())
        }
        (None, Some(data)) => {
            let bytes = base64url::decode(data)
                .ok_or_else(|| bad("src", data, "a base64url scenario file"))?;
            let text = String::from_utf8(bytes)
                .map_err(|_| bad("src", data, "a base64url scenario file"))?;
            Source::Imported(Box::new(
                parse_scenario(&text).map_err(LinkError::BadScenario)?,
            ))
        }
        (None, None) => PageState::default_state().source,
    };
    let mut scenario = source
        .scenario()
        .ok_or_else(|| LinkError::UnknownScenario(String::new()))?;
    let tab = match get("t") {
        Some(t) => {
            Tab::from_id(t).ok_or_else(|| bad("t", t, "timelines, rounds, matrix or compare"))?
        }
        None => Tab::default(),
    };
    let compare = match get("c") {
        Some(c) => Preset::from_id(c).ok_or_else(|| bad("c", c, "a policy preset id"))?,
        None => DEFAULT_COMPARE,
    };

    if let Some(p) = get("p") {
        scenario.policy = if p == "custom" {
            PolicyChoice::Custom(decode_custom(&get)?)
        } else {
            PolicyChoice::Preset(
                Preset::from_id(p).ok_or_else(|| bad("p", p, "a policy preset id or custom"))?,
            )
        };
    } else if let Some(key) = ["pc", "pr", "ps", "px", "pf", "pt", "pu"]
        .into_iter()
        .chain(OVERRIDE_FIELDS.iter().map(|f| f.0))
        .find(|k| get(k).is_some())
    {
        return Err(bad(key, get(key).unwrap_or(""), "p=custom alongside it"));
    }
    for (key, _, set) in HARNESS_FIELDS {
        if let Some(v) = get(key) {
            let max = if is_u32_field(key) {
                u64::from(drift_core::scenario::MAX_TURNS)
            } else {
                drift_core::scenario::MAX_TOKENS
            };
            set(&mut scenario.harness, integer(key, v, max)?);
        }
    }
    for (kind, code) in KIND_CODES {
        let key = format!("r.{code}");
        if let Some(v) = get(&key) {
            scenario.retention.set(kind, fraction(&key, v)?);
        }
    }
    if let Some(letters) = get("g") {
        let mut guards = drift_core::Guards::default();
        for c in letters.chars() {
            let (g, _) = GUARD_CODES
                .iter()
                .find(|(_, code)| *code == c)
                .ok_or_else(|| bad("g", letters, "guard letters from r, v, e, c"))?;
            guards.set(*g, true);
        }
        scenario.guards = guards;
    }
    for (key, _, set) in MODEL_FIELDS {
        if let Some(v) = get(key) {
            let x = if key == "m.fe" {
                decimal(v)
                    .filter(|x| x.is_finite() && *x >= 0.0)
                    .ok_or_else(|| bad(key, v, "a number of 0 or more"))?
            } else {
                fraction(key, v)?
            };
            set(&mut scenario.model, x);
        }
    }
    let facts = scenario.facts.len();
    if let Some(list) = get("x") {
        let set = indices("x", list, facts)?;
        for (i, f) in scenario.facts.iter_mut().enumerate() {
            f.externalised = set.contains(&i);
        }
    }
    if let Some(list) = get("nf") {
        let set = indices("nf", list, facts)?;
        for (i, f) in scenario.facts.iter_mut().enumerate() {
            f.forwarded = !set.contains(&i);
        }
    }
    scenario.validate().map_err(LinkError::Invalid)?;
    Ok(Some(PageState {
        source,
        scenario,
        tab,
        compare,
    }))
}

fn is_known_key(key: &str) -> bool {
    const FIXED: [&str; 16] = [
        "v", "s", "src", "t", "c", "p", "pc", "pr", "ps", "px", "pf", "pt", "pu", "g", "x", "nf",
    ];
    FIXED.contains(&key)
        || HARNESS_FIELDS.iter().any(|f| f.0 == key)
        || OVERRIDE_FIELDS.iter().any(|f| f.0 == key)
        || MODEL_FIELDS.iter().any(|f| f.0 == key)
        || KIND_CODES
            .iter()
            .any(|(_, c)| key.strip_prefix("r.") == Some(c))
}

fn decode_custom<'a>(get: &impl Fn(&str) -> Option<&'a str>) -> Result<Policy, LinkError> {
    let flag = |key: &str| -> Result<bool, LinkError> {
        match get(key) {
            Some("1") => Ok(true),
            Some("0") => Ok(false),
            Some(v) => Err(bad(key, v, "0 or 1")),
            None => Err(LinkError::BadValue {
                key: key.to_string(),
                value: String::new(),
                expected: "0 or 1 (p=custom needs it)",
            }),
        }
    };
    let mut roles = RoleSet::EMPTY;
    let letters = get("pr").unwrap_or("");
    for c in letters.chars() {
        let (r, _) = ROLE_CODES
            .iter()
            .find(|(_, code)| *code == c)
            .ok_or_else(|| bad("pr", letters, "role letters from s, u, a, t"))?;
        roles = roles.with(*r);
    }
    let mut harness = HarnessOverrides::NONE;
    for (key, _, set) in OVERRIDE_FIELDS {
        if let Some(v) = get(key) {
            let max = if matches!(key, "ph.tr" | "ph.k" | "ph.n") {
                u64::from(drift_core::scenario::MAX_TURNS)
            } else {
                drift_core::scenario::MAX_TOKENS
            };
            set(&mut harness, integer(key, v, max)?);
        }
    }
    Ok(Policy {
        compacts: flag("pc")?,
        protected_roles: roles,
        summarises: flag("ps")?,
        rereads_external: flag("px")?,
        keep_first_turns: match get("pf") {
            Some(v) => integer("pf", v, u64::from(drift_core::scenario::MAX_TURNS))? as u32,
            None => 0,
        },
        tail_percent: get("pt")
            .map(|v| integer("pt", v, 99).map(|n| n as u32))
            .transpose()?,
        user_budget_tokens: get("pu")
            .map(|v| integer("pu", v, drift_core::scenario::MAX_TOKENS))
            .transpose()?,
        harness,
    })
}

fn bad(key: &str, value: &str, expected: &'static str) -> LinkError {
    LinkError::BadValue {
        key: key.to_string(),
        value: value.chars().take(40).collect(),
        expected,
    }
}

fn integer(key: &str, v: &str, max: u64) -> Result<u64, LinkError> {
    v.parse::<u64>()
        .ok()
        .filter(|n| *n <= max)
        .ok_or_else(|| bad(key, v, "a whole number in range"))
}

/// A decimal number as JSON writes them. Read by serde_json, which the page
/// has already, rather than `str::parse`, whose tables would add kilobytes
/// to the page. That reader can land one unit in the last place off on long
/// mantissas; links carry the shortest form that reads back exactly, so the
/// neighbour that prints as written is the number meant.
fn decimal(v: &str) -> Option<f64> {
    let x = serde_json::from_str::<f64>(v).ok()?;
    if format!("{x}") == v {
        return Some(x);
    }
    [x.next_up(), x.next_down()]
        .into_iter()
        .find(|y| format!("{y}") == v)
        .or(Some(x))
}

fn fraction(key: &str, v: &str) -> Result<f64, LinkError> {
    decimal(v)
        .filter(|x| (0.0..=1.0).contains(x))
        .ok_or_else(|| bad(key, v, "a number from 0 to 1"))
}

fn indices(key: &str, list: &str, len: usize) -> Result<Vec<usize>, LinkError> {
    if list.is_empty() {
        return Ok(Vec::new());
    }
    list.split('.')
        .map(|i| {
            i.parse::<usize>()
                .ok()
                .filter(|i| *i < len)
                .ok_or_else(|| bad(key, list, "fact numbers separated by dots"))
        })
        .collect()
}

/// Unpadded base64url (RFC 4648 §5), for scenario files inside links.
pub mod base64url {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

    /// Encodes without padding.
    pub fn encode(bytes: &[u8]) -> String {
        let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
        for chunk in bytes.chunks(3) {
            let n = chunk
                .iter()
                .enumerate()
                .fold(0u32, |n, (i, b)| n | (u32::from(*b) << (16 - 8 * i)));
            for i in 0..=chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            }
        }
        out
    }

    /// Decodes unpadded base64url; `None` on any other character or length.
    pub fn decode(text: &str) -> Option<Vec<u8>> {
        let text = text.trim_end_matches('=');
        if text.len() % 4 == 1 {
            return None;
        }
        let mut out = Vec::with_capacity(text.len() * 3 / 4);
        for chunk in text.as_bytes().chunks(4) {
            let mut n = 0u32;
            for (i, c) in chunk.iter().enumerate() {
                let v = ALPHABET.iter().position(|a| a == c)? as u32;
                n |= v << (18 - 6 * i);
            }
            for i in 0..chunk.len() - 1 {
                out.push((n >> (16 - 8 * i)) as u8);
            }
        }
        Some(out)
    }
}
