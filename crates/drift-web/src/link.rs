//! The page's state ([`PageState`]) as a link: a short, versioned query
//! string.
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
//! | `s` / `sz` | built-in scenario id / imported scenario file, lz-string compressed, base64url (`src`, the file uncompressed, is read too) |
//! | `t` | view tab (`timelines`, `rounds`, `matrix`, `compare`, `fix`) |
//! | `c` | the preset the compare view sets against the current policy |
//! | `f` | the remedy applied in the simulation: harness and remedy ids, `claude_code.restate_hook` |
//! | `p` | policy preset id, or `custom` with `pc pr ps px pf pt pu` and `ph.<harness key>` |
//! | `w tr sy …`, `r.sr …`, `m.at …` | a harness field, a kind's retention, a model parameter: each setting's key in [`drift_core::SETTINGS`] |
//! | `g` | guards on: their letters in [`drift_core::SETTINGS`] (`r` `v` `e` `c`); empty for none |
//! | `x` / `nf` | indices of externalised facts / of facts not forwarded, dot-separated |
//!
//! A link carries its state in the query (`?v=1&…`) unless that is longer
//! than [`LONGEST_QUERY`] (an imported session with thousands of turns):
//! then in the fragment (`#v=1&…`), which a browser never sends to the
//! server, since servers refuse request lines of a few kilobytes. See
//! [`url_suffix`] and [`link_query`].

use std::fmt::{self, Write as _};

use drift_core::{
    HarnessField, HarnessOverrides, MAX_TOKENS, MAX_TURNS, Policy, PolicyChoice, Preset, Range,
    Role, RoleSet, SETTINGS, Scenario, ScenarioError, Setting, SettingInfo, Unit, Value, builtin,
    parse_scenario, scenario_to_json,
};

pub use crate::page::{DEFAULT_COMPARE, Fix, PageState, ScenarioSource, Tab};

/// The current link format.
pub const VERSION: u32 = 1;

/// Why a link could not be read.
#[derive(Clone, Debug, PartialEq)]
pub enum LinkError {
    /// No `v`, or a version this page does not read.
    Version(Option<String>),
    /// A key this format does not have.
    UnknownKey(String),
    /// A key given twice.
    Repeated(String),
    /// Two of a built-in (`s`) and an inline scenario (`src`, `sz`).
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
                    "the link names two scenarios (s, src or sz); it can show one"
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

const ROLE_CODES: [(Role, char); 4] = [
    (Role::System, 's'),
    (Role::User, 'u'),
    (Role::Assistant, 'a'),
    (Role::Tool, 't'),
];

/// The settings a link carries as `key=value`: harness, retention, model,
/// in the order links have always written them. Guards travel together in
/// `g`.
fn valued_settings() -> impl Iterator<Item = &'static SettingInfo> {
    let section = |s: &SettingInfo| match s.setting {
        Setting::Harness(_) => 0,
        Setting::Retention(_) => 1,
        Setting::Model(_) => 2,
        Setting::Guard(_) => 3,
    };
    (0..3).flat_map(move |k| SETTINGS.iter().filter(move |s| section(s) == k))
}

/// The guards' settings, whose keys are the letters of `g`.
fn guard_settings() -> impl Iterator<Item = &'static SettingInfo> {
    SETTINGS
        .iter()
        .filter(|s| matches!(s.setting, Setting::Guard(_)))
}

/// The largest whole number a link may give a harness field: what its type
/// holds (a percent or a turn count, or a token count). Validation then
/// names the field when the value is outside its range.
fn largest(info: &SettingInfo) -> u64 {
    match info.unit {
        Unit::Tokens => MAX_TOKENS,
        _ => u64::from(MAX_TURNS),
    }
}

/// The key a custom policy's override of `field` has: `ph.` and the field's key.
fn override_key(field: HarnessField) -> String {
    format!("ph.{}", Setting::Harness(field).info().key)
}

/// A setting's value as a link writes it.
fn link_value(value: Value) -> String {
    match value {
        Value::Whole(n) => n.to_string(),
        Value::Number(x) => number(x),
        Value::Switch(on) => u8::from(on).to_string(),
    }
}

/// Whether two values of a setting differ (to the bit, for numbers).
fn differs(a: Value, b: Value) -> bool {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.to_bits() != y.to_bits(),
        _ => a != b,
    }
}

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

/// Writes `state` as a query string (without the leading `?`), an
/// imported scenario compressed (`sz`).
pub fn encode(state: &PageState) -> String {
    let packed = match &state.source {
        ScenarioSource::Imported(s) => Some(pack(s)),
        ScenarioSource::Builtin(_) => None,
    };
    encode_packed(state, packed.as_deref())
}

/// [`encode`] with an imported scenario's compressed text given (`sz`, as
/// [`packed_in`] read it from the link that opened it), or else written
/// uncompressed (`src`): a page that only reads compressed links carries
/// no compressor.
pub fn encode_packed(state: &PageState, packed: Option<&str>) -> String {
    let mut q = Query::default();
    q.push("v", VERSION.to_string());
    let base = match &state.source {
        ScenarioSource::Builtin(id) => {
            q.push("s", id.clone());
            builtin(id)
        }
        ScenarioSource::Imported(s) => {
            match packed {
                Some(p) => q.push("sz", p.to_string()),
                None => q.push("src", base64url::encode(minified(s).as_bytes())),
            }
            Some(s.as_ref().clone())
        }
    };
    if state.tab != Tab::default() {
        q.push("t", state.tab.id().to_string());
    }
    if state.compare != DEFAULT_COMPARE {
        q.push("c", state.compare.id().to_string());
    }
    if let Some(fix) = state.fix {
        q.push("f", fix.id());
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
    let changed = |q: &mut Query, model: bool| {
        for info in valued_settings() {
            if matches!(info.setting, Setting::Model(_)) != model {
                continue;
            }
            let (now, was) = (info.setting.get(s), info.setting.get(&base));
            if differs(now, was) {
                q.push(info.key, link_value(now));
            }
        }
    };
    // Harness and retention, then the guards, then the model: the order
    // links have always had.
    changed(&mut q, false);
    if s.guards != base.guards {
        let letters: String = guard_settings()
            .filter(|info| info.setting.get(s) == Value::Switch(true))
            .map(|info| info.key)
            .collect();
        q.push("g", letters);
    }
    changed(&mut q, true);
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
    for field in HarnessField::ALL {
        if let Some(v) = field.overridden(&p.harness) {
            q.push(&override_key(field), v.to_string());
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
    let inline = match (get("src"), get("sz")) {
        (Some(_), Some(_)) => return Err(LinkError::TwoScenarios),
        (Some(data), None) => Some(
            base64url::decode(data)
                .and_then(|bytes| String::from_utf8(bytes).ok())
                .ok_or_else(|| bad("src", data, "a base64url scenario file"))?,
        ),
        (None, Some(data)) => {
            Some(decompressed(data).ok_or_else(|| bad("sz", data, "a compressed scenario file"))?)
        }
        (None, None) => None,
    };
    let source = match (get("s"), inline) {
        (Some(_), Some(_)) => return Err(LinkError::TwoScenarios),
        (Some(id), None) => {
            if builtin(id).is_none() {
                return Err(LinkError::UnknownScenario(id.to_string()));
            }
            ScenarioSource::Builtin(id.to_string())
        }
        (None, Some(text)) => ScenarioSource::Imported(Box::new(
            parse_scenario(&text).map_err(LinkError::BadScenario)?,
        )),
        (None, None) => PageState::default_state().source,
    };
    let mut scenario = source
        .scenario()
        .ok_or_else(|| LinkError::UnknownScenario(String::new()))?;
    let tab = match get("t") {
        Some(t) => Tab::from_id(t)
            .ok_or_else(|| bad("t", t, "timelines, rounds, matrix, compare or fix"))?,
        None => Tab::default(),
    };
    let compare = match get("c") {
        Some(c) => Preset::from_id(c).ok_or_else(|| bad("c", c, "a policy preset id"))?,
        None => DEFAULT_COMPARE,
    };
    let fix = match get("f") {
        Some(f) => Some(Fix::from_id(f).ok_or_else(|| {
            bad(
                "f",
                f,
                "a harness and one of its remedies, as claude_code.restate_hook",
            )
        })?),
        None => None,
    };

    if let Some(p) = get("p") {
        scenario.policy = if p == "custom" {
            PolicyChoice::Custom(decode_custom(&get)?)
        } else {
            PolicyChoice::Preset(
                Preset::from_id(p).ok_or_else(|| bad("p", p, "a policy preset id or custom"))?,
            )
        };
    } else if let Some(key) = POLICY_KEYS
        .iter()
        .map(|k| k.to_string())
        .chain(HarnessField::ALL.into_iter().map(override_key))
        .find(|k| get(k).is_some())
    {
        return Err(bad(&key, get(&key).unwrap_or(""), "p=custom alongside it"));
    }
    for info in valued_settings() {
        if let Some(v) = get(info.key) {
            let value = read_value(info, v)?;
            info.setting
                .set(&mut scenario, value)
                .map_err(|_| bad(info.key, v, info.range.expected()))?;
        }
    }
    if let Some(letters) = get("g") {
        let mut on = Vec::new();
        for c in letters.chars() {
            let info = guard_settings()
                .find(|info| info.key.chars().eq([c]))
                .ok_or_else(|| bad("g", letters, "guard letters from r, v, e, c"))?;
            on.push(info.setting);
        }
        for info in guard_settings() {
            let _ = info
                .setting
                .set(&mut scenario, Value::Switch(on.contains(&info.setting)));
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
        fix,
    }))
}

/// The keys of a custom policy's switches.
const POLICY_KEYS: [&str; 7] = ["pc", "pr", "ps", "px", "pf", "pt", "pu"];

fn is_known_key(key: &str) -> bool {
    const FIXED: [&str; 10] = ["v", "s", "src", "sz", "t", "c", "f", "p", "g", "x"];
    FIXED.contains(&key)
        || key == "nf"
        || POLICY_KEYS.contains(&key)
        || valued_settings().any(|s| s.key == key)
        || key.strip_prefix("ph.").and_then(find_harness_key).is_some()
}

/// The harness field whose link key is `key`.
fn find_harness_key(key: &str) -> Option<HarnessField> {
    HarnessField::ALL
        .into_iter()
        .find(|f| Setting::Harness(*f).info().key == key)
}

/// A setting's value as a link gives it, checked against what the setting
/// takes (a harness field: a whole number its type holds, whose range
/// validation checks, naming the field).
fn read_value(info: &SettingInfo, v: &str) -> Result<Value, LinkError> {
    match info.range {
        Range::Whole { .. } => integer(info.key, v, largest(info)).map(Value::Whole),
        Range::Number { min, max } => decimal(v)
            .filter(|x| x.is_finite() && *x >= min && max.is_none_or(|m| *x <= m))
            .map(Value::Number)
            .ok_or_else(|| bad(info.key, v, info.range.expected())),
        Range::Switch => match v {
            "1" => Ok(Value::Switch(true)),
            "0" => Ok(Value::Switch(false)),
            _ => Err(bad(info.key, v, "0 or 1")),
        },
    }
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
    for field in HarnessField::ALL {
        let key = override_key(field);
        if let Some(v) = get(&key) {
            let value = integer(&key, v, largest(Setting::Harness(field).info()))?;
            field.set_override(&mut harness, Some(value));
        }
    }
    Ok(Policy {
        compacts: flag("pc")?,
        protected_roles: roles,
        summarises: flag("ps")?,
        rereads_external: flag("px")?,
        keep_first_turns: match get("pf") {
            Some(v) => integer("pf", v, u64::from(MAX_TURNS))? as u32,
            None => 0,
        },
        tail_percent: get("pt")
            .map(|v| integer("pt", v, 99).map(|n| n as u32))
            .transpose()?,
        user_budget_tokens: get("pu")
            .map(|v| integer("pu", v, MAX_TOKENS))
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

/// An imported scenario as a link carries it (`sz`): its minified file,
/// compressed.
pub fn pack(scenario: &Scenario) -> String {
    compressed(&minified(scenario))
}

/// The compressed scenario (`sz`) of a link's `query`, as written.
pub fn packed_in(query: &str) -> Option<String> {
    query
        .trim_start_matches(['?', '#'])
        .split('&')
        .find_map(|kv| kv.strip_prefix("sz="))
        .and_then(percent_decode)
}

/// `text` compressed with lz-string, in base64url.
fn compressed(text: &str) -> String {
    base64url::encode(&lz_str::compress_to_uint8_array(text))
}

/// The text [`compressed`] wrote, or `None` when `data` is not that.
fn decompressed(data: &str) -> Option<String> {
    let bytes = base64url::decode(data)?;
    String::from_utf16(&lz_str::decompress_from_uint8_array(&bytes)?).ok()
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
