//! The 40 conformance pairs of docs/MODEL.md: an independent implementation's
//! results, which this engine must reproduce (integers and states exactly,
//! fidelities and risks within 1e-9).

use std::fs;
use std::path::{Path, PathBuf};

use drift_core::{parse_scenario, result_to_json, simulate};
use serde_json::Value;

const TOLERANCE: f64 = 1e-9;

fn cases() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance");
    let mut cases: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".scenario.json"))
        .collect();
    cases.sort();
    cases
}

/// Compares `actual` to `expected` field by field; returns the differences.
fn compare(expected: &Value, actual: &Value) -> Vec<String> {
    let mut diffs = Vec::new();
    let d = &mut diffs;
    keys(d, exact, "", &["overflow_turn", "policy"], expected, actual);
    let (er, ar) = arrays(expected, actual, "rounds");
    exact(d, "rounds.len".into(), &er.len().into(), &ar.len().into());
    for (i, (e, a)) in er.iter().zip(ar).enumerate() {
        let at = format!("rounds[{i}].");
        let counts = [
            "index",
            "turn",
            "tokens_before",
            "tokens_after",
            "regime",
            "spills",
        ];
        keys(d, exact, &at, &counts, e, a);
        keys(d, close, &at, &["laundering_rate"], e, a);
    }
    let (ef, af) = arrays(expected, actual, "facts");
    assert_eq!(ef.len(), af.len());
    for (e, a) in ef.iter().zip(af) {
        let id = e["id"].as_str().unwrap();
        exact(d, format!("fact {id}.id"), &e["id"], &a["id"]);
        let (et, at) = arrays(e, a, "timeline");
        exact(
            d,
            format!("fact {id}.timeline.len"),
            &et.len().into(),
            &at.len().into(),
        );
        for (k, (e, a)) in et.iter().zip(at).enumerate() {
            let at = format!("fact {id}.timeline[{k}].");
            let states = ["round", "turn", "state", "depth", "unverified"];
            keys(d, exact, &at, &states, e, a);
            keys(d, close, &at, &["fidelity", "fabrication_risk"], e, a);
        }
    }
    let (ea, aa) = arrays(expected, actual, "actions");
    assert_eq!(ea.len(), aa.len());
    for (e, a) in ea.iter().zip(aa) {
        let at = format!("action {}.", e["id"].as_str().unwrap());
        let outcomes = ["id", "turn", "outcome", "reason", "resolved_resource"];
        keys(d, exact, &at, &outcomes, e, a);
        keys(d, close, &at, &["fidelity", "fabrication_risk"], e, a);
    }
    diffs
}

/// The arrays `key` of `e` and `a`.
fn arrays<'v>(e: &'v Value, a: &'v Value, key: &str) -> (&'v Vec<Value>, &'v Vec<Value>) {
    (e[key].as_array().unwrap(), a[key].as_array().unwrap())
}

/// Compares field `name` of `e` and `a` with `compare` ([`exact`] or
/// [`close`]) for each of `names`, the difference named `{at}{name}`.
fn keys(
    d: &mut Vec<String>,
    compare: fn(&mut Vec<String>, String, &Value, &Value),
    at: &str,
    names: &[&str],
    e: &Value,
    a: &Value,
) {
    for name in names {
        compare(d, format!("{at}{name}"), &e[*name], &a[*name]);
    }
}

fn exact(diffs: &mut Vec<String>, path: String, e: &Value, a: &Value) {
    if e != a {
        diffs.push(format!("{path}: expected {e}, got {a}"));
    }
}

fn close(diffs: &mut Vec<String>, path: String, e: &Value, a: &Value) {
    match (e.as_f64(), a.as_f64()) {
        (Some(x), Some(y)) if (x - y).abs() <= TOLERANCE => {}
        _ => diffs.push(format!("{path}: expected {e}, got {a}")),
    }
}

#[test]
fn every_conformance_case_agrees() {
    let cases = cases();
    assert_eq!(cases.len(), 40, "the suite has 40 pairs");
    let mut failures = Vec::new();
    for path in &cases {
        let name = path
            .file_name()
            .unwrap()
            .to_string_lossy()
            .replace(".scenario.json", "");
        let scenario = parse_scenario(&fs::read_to_string(path).unwrap())
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let expected: Value = serde_json::from_str(
            &fs::read_to_string(path.with_file_name(format!("{name}.result.json"))).unwrap(),
        )
        .unwrap();
        let run = simulate(&scenario).unwrap();
        let actual: Value = serde_json::from_str(&result_to_json(&scenario, &run)).unwrap();
        assert_eq!(actual["format"], "compaction-drift/result@1");
        assert_eq!(actual["scenario"], expected["scenario"]);
        let diffs = compare(&expected, &actual);
        if !diffs.is_empty() {
            failures.push(format!(
                "{name}:\n  {}",
                diffs[..diffs.len().min(8)].join("\n  ")
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} cases differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn the_comparison_can_fail() {
    // Guard against a comparison that accepts anything.
    let e: Value = serde_json::json!({"overflow_turn": null, "policy": "none", "rounds": [],
        "facts": [], "actions": [{"id": "a", "turn": 1, "outcome": "governed", "reason": "",
        "resolved_resource": null, "fidelity": 1.0, "fabrication_risk": 0.0}]});
    let mut a = e.clone();
    assert!(compare(&e, &a).is_empty());
    a["actions"][0]["fidelity"] = 0.999.into();
    assert_eq!(compare(&e, &a).len(), 1);
}
