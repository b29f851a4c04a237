//! `drift tipping` as a user sees it: the text report, the JSON document
//! and its agreement with the engine, options and bad input.

use drift_core::{Method, WindowTip, tipping_points};
use drift_core::{PolicyChoice, Preset, builtin, builtin_ids};
use serde_json::Value;

mod support;
use support::{assert_contains, fails_with_code_2_each, succeeds};

#[test]
fn text_snapshot() {
    insta::assert_snapshot!(
        "tipping_payments_incident",
        succeeds(&["tipping", "payments-incident"])
    );
}

#[test]
fn text_names_every_action_and_the_levers() {
    let out = succeeds(&["tipping", "coding-day"]);
    let scenario = builtin("coding-day").unwrap();
    for action in &scenario.actions {
        assert!(
            out.contains(&format!("\n{}  turn {}", action.id, action.turn)),
            "{}",
            action.id
        );
    }
    // Claude Code re-reads memory files: externalising is a lever there.
    assert_contains(&out, "externalise \"keep-legacy-import\": governed");
    // Under pinned_prefix it is not.
    let out = succeeds(&["tipping", "coding-day", "--policy", "pinned_prefix"]);
    assert!(!out.contains("externalise"), "{out}");
    assert_contains(&out, "policy: pinned prefix (pinned_prefix)");
}

#[test]
fn json_is_the_engines_answer() {
    for id in builtin_ids() {
        for preset in [
            None,
            Some(Preset::ExternalisedState),
            Some(Preset::SlidingWindow),
        ] {
            let mut args = vec!["tipping", id, "--format", "json"];
            let mut scenario = builtin(id).unwrap();
            if let Some(p) = preset {
                args.extend(["--policy", p.id()]);
                scenario.policy = PolicyChoice::Preset(p);
            }
            let doc: Value = serde_json::from_str(&succeeds(&args)).expect("JSON");
            assert_eq!(doc["format"], "compaction-drift/tipping@1");
            assert_eq!(doc["scenario"], id);
            assert_eq!(doc["policy"], scenario.policy.id());
            assert_eq!(doc["retention_tolerance"], 1e-6);
            let tips = tipping_points(&scenario).unwrap();
            let actions = doc["actions"].as_array().unwrap();
            assert_eq!(actions.len(), tips.len());
            for (json, tip) in actions.iter().zip(&tips) {
                let here = format!("{id} {preset:?} {}", json["id"]);
                assert_eq!(json["id"], scenario.actions[tip.action].id.as_str());
                assert_eq!(json["outcome"], tip.outcome.id(), "{here}");
                let kinds = json["retention"].as_array().unwrap();
                assert_eq!(kinds.len(), tip.retention.len(), "{here}");
                for (k, t) in kinds.iter().zip(&tip.retention) {
                    assert_eq!(k["kind"], t.kind.id());
                    assert_eq!(k["current"].as_f64(), Some(t.current));
                    for (side, flip) in [("raise", t.raise), ("lower", t.lower)] {
                        match flip {
                            None => assert!(k[side].is_null(), "{here}"),
                            Some(f) => {
                                // Exact to the bit.
                                assert_eq!(k[side]["at"].as_f64(), Some(f.at), "{here}");
                                assert_eq!(k[side]["outcome"], f.outcome.id());
                                assert_eq!(
                                    k[side]["method"],
                                    if f.method == Method::Exact {
                                        "exact"
                                    } else {
                                        "bisection"
                                    }
                                );
                            }
                        }
                    }
                }
                let w = &json["window"];
                match tip.window {
                    WindowTip::Holds => assert_eq!(w["status"], "holds"),
                    WindowTip::SetByPolicy => assert_eq!(w["status"], "set_by_policy"),
                    WindowTip::At {
                        window,
                        outcome,
                        exact,
                    } => {
                        assert_eq!(w["status"], "at");
                        assert_eq!(w["window"].as_u64(), Some(window));
                        assert_eq!(w["outcome"], outcome.id());
                        assert_eq!(w["exact"], exact);
                    }
                    WindowTip::Never {
                        searched_to,
                        complete,
                    } => {
                        assert_eq!(w["status"], "never");
                        assert_eq!(w["searched_to"].as_u64(), Some(searched_to));
                        assert_eq!(w["complete"], complete);
                    }
                }
                let facts = json["facts"].as_array().unwrap();
                assert_eq!(facts.len(), tip.facts.len(), "{here}");
                for (f, fix) in facts.iter().zip(&tip.facts) {
                    assert_eq!(f["fact"], scenario.facts[fix.fact].id.as_str());
                    assert_eq!(f["lever"], fix.lever.id());
                    assert_eq!(f["outcome"], fix.outcome.id());
                    assert_eq!(f["fixes"], fix.fixes());
                }
            }
        }
    }
}

#[test]
fn printed_retention_values_flip_the_outcome() {
    // "weakly governed at 0.8409": 0.8409 itself works, 0.8408 does not.
    let out = succeeds(&["tipping", "payments-incident"]);
    let rollback = out.split("\nrollback-payments").nth(1).unwrap();
    assert_contains(rollback, "standing rule 0.75: weakly governed at 0.8409");
    let mut s = builtin("payments-incident").unwrap();
    let a = s
        .actions
        .iter()
        .position(|x| x.id == "rollback-payments")
        .unwrap();
    for (r, outcome) in [(0.8409, "weakly_governed"), (0.8408, "ungoverned")] {
        s.retention.set(drift_core::Kind::StandingRule, r);
        let run = drift_core::simulate(&s).unwrap();
        assert_eq!(run.actions()[a].outcome.id(), outcome, "{r}");
    }
}

#[test]
fn a_file_and_bad_input() {
    let out = succeeds(&["tipping", "tests/fixtures/passing.json"]);
    assert_contains(&out, "(short-session)");
    fails_with_code_2_each(&[
        (&["tipping"], &["tipping: which scenario?"]),
        (&["tipping", "a", "b"], &["tipping takes one scenario"]),
        (
            &["tipping", "tests/fixtures/invalid-kind.json"],
            &["tests/fixtures/invalid-kind.json"],
        ),
        (
            &["tipping", "nope"],
            &["nope: no such file or built-in scenario"],
        ),
        (
            &["tipping", "payments-incident", "--format", "yaml"],
            &["unknown format"],
        ),
        (
            &["tipping", "payments-incident", "--policy", "nope"],
            &["unknown policy"],
        ),
    ]);
}

#[test]
fn usage_lists_the_command() {
    let out = succeeds(&["--help"]);
    assert_contains(
        &out,
        "drift tipping <FILE|ID> [--policy ID] [--format text|json]",
    );
}
