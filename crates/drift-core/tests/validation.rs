//! Every way a scenario file can be wrong (docs/MODEL.md §6), one test each.
//!
//! Each test starts from one small valid file, [`BASE`], makes one edit and
//! checks two things: the [`ScenarioError`] variant, and that its message
//! names the field and the id or turn, so that a person can find the mistake.

use drift_core::{Collection, Kind, Role, ScenarioError, parse_scenario};
use serde_json::{Value, json};

/// A valid scenario using every section of the format. Its facts are
/// `facts[0] ("approval-gate")`, `facts[1] ("staging-db")` (a binding) and
/// `facts[2] ("freeze")`; its actions `actions[0] ("restart")` at turn 15 and
/// `actions[1] ("rollback")` at turn 30, which targets the binding.
const BASE: &str = r#"{
  "format": "compaction-drift/scenario@1",
  "id": "validation-base",
  "title": "Validation base",
  "description": "A small valid scenario that each test breaks in one place.",
  "harness": {
    "window_tokens": 20000,
    "trigger_percent": 100,
    "system_tokens": 1000,
    "tokens_per_turn": 1000,
    "tail_turns": 3,
    "summary_tokens": 2000,
    "turns": 40
  },
  "turn_tokens": [{"turn": 10, "tokens": 3000}],
  "policy": "pinned_prefix",
  "retention": {"carve_out": 0.5},
  "guards": {"verify_bindings": true},
  "model": {"actionable_threshold": 0.5, "fabrication_exponent": 1.88},
  "resources": [
    {"id": "db-staging", "class": "database", "mentions": [3]},
    {"id": "db-prod", "class": "database", "mentions": [20]}
  ],
  "facts": [
    {"id": "approval-gate", "text": "Never restart production without an approver.",
     "role": "system", "kind": "standing_rule", "turn": 0},
    {"id": "staging-db", "text": "Work on the staging database only.",
     "role": "user", "kind": "binding", "turn": 3,
     "binds": {"phrase": "the staging database", "resource": "db-staging"}},
    {"id": "freeze", "text": "payments-api is frozen until quarter end.",
     "role": "tool", "kind": "standing_rule", "turn": 12}
  ],
  "actions": [
    {"id": "restart", "text": "Restart checkout-web.", "turn": 15,
     "governed_by": ["approval-gate"]},
    {"id": "rollback", "text": "Roll back the staging database.", "turn": 30,
     "governed_by": ["freeze"], "irreversible": true, "target": "staging-db",
     "consequence": "Production data is rolled back during a freeze."}
  ]
}"#;

fn base() -> Value {
    serde_json::from_str(BASE).expect("BASE is JSON")
}

/// A valid policy object, for the tests that edit one.
fn policy_object() -> Value {
    json!({
        "compacts": true,
        "protected_roles": ["system"],
        "summarises": true,
        "rereads_external": false
    })
}

/// The one helper: applies `edit` to [`BASE`], parses the result, and
/// returns the error after checking that its message contains every string
/// of `names`.
fn rejects(edit: impl FnOnce(&mut Value), names: &[&str]) -> ScenarioError {
    let mut value = base();
    edit(&mut value);
    rejects_text(&value.to_string(), names)
}

/// [`rejects`] for text that is not a JSON value (syntax errors).
fn rejects_text(text: &str, names: &[&str]) -> ScenarioError {
    let err = match parse_scenario(text) {
        Ok(_) => panic!("accepted an invalid scenario:\n{text}"),
        Err(e) => e,
    };
    let message = err.to_string();
    for name in names {
        assert!(
            message.contains(name),
            "the message does not name {name:?}:\n  {message}\n  {err:?}"
        );
    }
    assert!(!message.contains('\n'), "one line: {message:?}");
    err
}

fn accepts(edit: impl FnOnce(&mut Value)) -> drift_core::Scenario {
    let mut value = base();
    edit(&mut value);
    parse_scenario(&value.to_string()).unwrap_or_else(|e| panic!("rejected: {e}"))
}

// ------------------------------------------------------------ valid input

#[test]
fn the_base_scenario_is_valid_and_simulates() {
    let s = accepts(|_| {});
    assert_eq!(s.id, "validation-base");
    assert_eq!(s.facts.len(), 3);
    assert_eq!(s.actions.len(), 2);
    assert_eq!(s.actions[1].target.as_deref(), Some("staging-db"));
    let run = drift_core::simulate(&s).unwrap();
    assert_eq!(run.actions().len(), 2);
}

#[test]
fn system_tokens_zero_is_accepted() {
    let s = accepts(|s| s["harness"]["system_tokens"] = json!(0));
    assert_eq!(s.harness.system_tokens, 0);
}

#[test]
fn reserve_tokens_zero_is_accepted() {
    let s = accepts(|s| s["harness"]["reserve_tokens"] = json!(0));
    assert_eq!(s.harness.reserve_tokens, 0);
}

#[test]
fn optional_fields_may_be_null_or_absent() {
    let s = accepts(|s| {
        s["title"] = Value::Null;
        s["policy"] = Value::Null;
        s["harness"]["trigger_percent"] = Value::Null;
        let obj = s.as_object_mut().unwrap();
        for key in ["description", "turn_tokens", "retention", "guards", "model"] {
            obj.remove(key);
        }
    });
    assert_eq!(s.title, "");
    assert_eq!(s.harness.trigger_percent, 100);
    assert_eq!(s.policy, drift_core::PolicyChoice::default());
}

#[test]
fn a_policy_object_with_every_switch_is_accepted() {
    let s = accepts(|s| {
        let mut p = policy_object();
        p["keep_first_turns"] = json!(2);
        p["tail_percent"] = json!(99);
        p["user_budget_tokens"] = json!(4000);
        p["harness"] = json!({"trigger_percent": 90, "system_tokens": 0});
        s["policy"] = p;
    });
    assert_eq!(s.effective_harness().trigger_percent, 90);
    assert_eq!(s.effective_harness().system_tokens, 0);
}

// ------------------------------------------------------------ JSON itself

#[test]
fn json_syntax_error_names_line_and_column() {
    // Line 3 lacks the comma after "x"; the parser notices at the next key.
    let text =
        "{\n  \"format\": \"compaction-drift/scenario@1\",\n  \"id\": \"x\"\n  \"harness\": {}\n}";
    let err = rejects_text(text, &["line 4, column 3"]);
    assert!(
        matches!(
            err,
            ScenarioError::Json {
                line: 4,
                column: 3,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn truncated_file_is_a_json_error() {
    let err = rejects_text(&BASE[..BASE.len() / 2], &["not valid JSON", "line"]);
    assert!(matches!(err, ScenarioError::Json { .. }), "{err:?}");
}

#[test]
fn a_number_too_large_for_json_is_a_json_error() {
    let text = BASE.replace(
        "\"fabrication_exponent\": 1.88",
        "\"fabrication_exponent\": 1e400",
    );
    let at = text.find("1e400").unwrap();
    let line = text[..at].matches('\n').count() + 1;
    let err = rejects_text(&text, &[&format!("line {line},"), "out of range"]);
    assert!(
        matches!(err, ScenarioError::Json { line: l, .. } if l == line),
        "{err:?}"
    );
}

#[test]
fn a_top_level_array_is_the_wrong_type() {
    let err = rejects_text("[]", &["scenario", "object"]);
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

// ------------------------------------------------------------ format

#[test]
fn wrong_format() {
    let err = rejects(
        |s| s["format"] = json!("compaction-drift/scenario@2"),
        &["format", "compaction-drift/scenario@2"],
    );
    assert!(
        matches!(&err, ScenarioError::WrongFormat { found } if found == "compaction-drift/scenario@2"),
        "{err:?}"
    );
}

#[test]
fn format_of_the_wrong_type_is_a_wrong_format() {
    let err = rejects(|s| s["format"] = json!(1), &["format", "\"1\""]);
    assert!(matches!(err, ScenarioError::WrongFormat { .. }), "{err:?}");
}

#[test]
fn a_result_file_is_not_a_scenario() {
    let err = rejects(
        |s| s["format"] = json!("compaction-drift/result@1"),
        &["compaction-drift/result@1"],
    );
    assert!(matches!(err, ScenarioError::WrongFormat { .. }), "{err:?}");
}

#[test]
fn missing_format() {
    let err = rejects(
        |s| {
            s.as_object_mut().unwrap().remove("format");
        },
        &["scenario", "\"format\"", "required"],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "format",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn format_is_checked_before_the_other_fields() {
    // A foreign file hears about its format, not about its first odd field.
    let err = rejects_text(r#"{"format": "other@1", "colour": "blue"}"#, &["other@1"]);
    assert!(matches!(err, ScenarioError::WrongFormat { .. }), "{err:?}");
}

// ------------------------------------------------------------ missing fields

#[test]
fn missing_id() {
    let err = rejects(
        |s| {
            s.as_object_mut().unwrap().remove("id");
        },
        &["scenario", "\"id\""],
    );
    assert!(
        matches!(err, ScenarioError::MissingField { field: "id", .. }),
        "{err:?}"
    );
}

#[test]
fn missing_harness_field() {
    let err = rejects(
        |s| {
            s["harness"].as_object_mut().unwrap().remove("turns");
        },
        &["harness", "\"turns\""],
    );
    assert!(
        matches!(&err, ScenarioError::MissingField { path, field: "turns" } if path == "harness"),
        "{err:?}"
    );
}

#[test]
fn missing_facts() {
    let err = rejects(
        |s| {
            s.as_object_mut().unwrap().remove("facts");
        },
        &["\"facts\""],
    );
    assert!(
        matches!(err, ScenarioError::MissingField { field: "facts", .. }),
        "{err:?}"
    );
}

#[test]
fn missing_actions() {
    let err = rejects(
        |s| {
            s.as_object_mut().unwrap().remove("actions");
        },
        &["\"actions\""],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "actions",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn missing_fact_field() {
    let err = rejects(
        |s| {
            s["facts"][2].as_object_mut().unwrap().remove("kind");
        },
        &["facts[2] (\"freeze\")", "\"kind\""],
    );
    assert!(
        matches!(err, ScenarioError::MissingField { field: "kind", .. }),
        "{err:?}"
    );
}

#[test]
fn missing_action_field() {
    let err = rejects(
        |s| {
            s["actions"][1]
                .as_object_mut()
                .unwrap()
                .remove("governed_by");
        },
        &["actions[1] (\"rollback\")", "\"governed_by\""],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "governed_by",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn missing_binds_resource() {
    let err = rejects(
        |s| {
            s["facts"][1]["binds"]
                .as_object_mut()
                .unwrap()
                .remove("resource");
        },
        &["facts[1] (\"staging-db\").binds", "\"resource\""],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "resource",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn missing_resource_class() {
    let err = rejects(
        |s| {
            s["resources"][1].as_object_mut().unwrap().remove("class");
        },
        &["resources[1] (\"db-prod\")", "\"class\""],
    );
    assert!(
        matches!(err, ScenarioError::MissingField { field: "class", .. }),
        "{err:?}"
    );
}

#[test]
fn missing_turn_tokens_tokens() {
    let err = rejects(
        |s| s["turn_tokens"] = json!([{"turn": 10}]),
        &["turn_tokens[0]", "\"tokens\""],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "tokens",
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn missing_policy_switch() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p.as_object_mut().unwrap().remove("summarises");
            s["policy"] = p;
        },
        &["policy", "\"summarises\""],
    );
    assert!(
        matches!(
            err,
            ScenarioError::MissingField {
                field: "summarises",
                ..
            }
        ),
        "{err:?}"
    );
}

// ------------------------------------------------------------ unknown fields

#[test]
fn unknown_top_level_field() {
    let err = rejects(|s| s["colour"] = json!("blue"), &["scenario", "\"colour\""]);
    assert!(
        matches!(&err, ScenarioError::UnknownField { path, field } if path == "scenario" && field == "colour"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_harness() {
    let err = rejects(
        |s| s["harness"]["window"] = json!(1000),
        &["harness", "\"window\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownField { path, field } if path == "harness" && field == "window"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_a_fact() {
    let err = rejects(
        |s| s["facts"][2]["priority"] = json!("high"),
        &["facts[2] (\"freeze\")", "\"priority\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownField { field, .. } if field == "priority"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_an_action() {
    let err = rejects(
        |s| s["actions"][1]["owner"] = json!("sre"),
        &["actions[1] (\"rollback\")", "\"owner\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownField { field, .. } if field == "owner"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_a_policy_object() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["pinned"] = json!(true);
            s["policy"] = p;
        },
        &["policy", "\"pinned\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownField { path, field } if path == "policy" && field == "pinned"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_a_policy_harness() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["harness"] = json!({"trigger": 90});
            s["policy"] = p;
        },
        &["policy.harness", "\"trigger\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownField { path, .. } if path == "policy.harness"),
        "{err:?}"
    );
}

#[test]
fn unknown_field_in_binds() {
    let err = rejects(
        |s| s["facts"][1]["binds"]["region"] = json!("eu"),
        &["facts[1] (\"staging-db\").binds", "\"region\""],
    );
    assert!(matches!(err, ScenarioError::UnknownField { .. }), "{err:?}");
}

#[test]
fn unknown_field_in_a_resource() {
    let err = rejects(
        |s| s["resources"][0]["owner"] = json!("dba"),
        &["resources[0] (\"db-staging\")", "\"owner\""],
    );
    assert!(matches!(err, ScenarioError::UnknownField { .. }), "{err:?}");
}

#[test]
fn unknown_field_in_the_model() {
    let err = rejects(
        |s| s["model"]["temperature"] = json!(0.7),
        &["model", "\"temperature\""],
    );
    assert!(matches!(err, ScenarioError::UnknownField { .. }), "{err:?}");
}

#[test]
fn unknown_field_in_turn_tokens() {
    let err = rejects(
        |s| s["turn_tokens"][0]["note"] = json!("a long tool result"),
        &["turn_tokens[0]", "\"note\""],
    );
    assert!(matches!(err, ScenarioError::UnknownField { .. }), "{err:?}");
}

// ------------------------------------------------------------ unknown names

#[test]
fn unknown_kind() {
    let err = rejects(
        |s| s["facts"][2]["kind"] = json!("rule"),
        &["facts[2] (\"freeze\").kind", "\"rule\"", "standing_rule"],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownKind { value, .. } if value == "rule"),
        "{err:?}"
    );
}

#[test]
fn unknown_role() {
    let err = rejects(
        |s| s["facts"][2]["role"] = json!("operator"),
        &["facts[2] (\"freeze\").role", "\"operator\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownRole { value, .. } if value == "operator"),
        "{err:?}"
    );
}

#[test]
fn unknown_protected_role_in_a_policy_object() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["protected_roles"] = json!(["system", "admin"]);
            s["policy"] = p;
        },
        &["policy.protected_roles", "\"admin\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownRole { value, .. } if value == "admin"),
        "{err:?}"
    );
}

#[test]
fn unknown_policy() {
    let err = rejects(|s| s["policy"] = json!("pinned"), &["policy", "\"pinned\""]);
    assert!(
        matches!(&err, ScenarioError::UnknownPolicy { value } if value == "pinned"),
        "{err:?}"
    );
}

#[test]
fn custom_is_not_a_preset_id() {
    let err = rejects(|s| s["policy"] = json!("custom"), &["policy", "\"custom\""]);
    assert!(
        matches!(err, ScenarioError::UnknownPolicy { .. }),
        "{err:?}"
    );
}

#[test]
fn unknown_guard() {
    let err = rejects(
        |s| s["guards"]["verify_binding"] = json!(true),
        &["guards", "\"verify_binding\"", "verify_bindings"],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownGuard { name } if name == "verify_binding"),
        "{err:?}"
    );
}

#[test]
fn unknown_retention_key() {
    let err = rejects(
        |s| s["retention"]["rules"] = json!(0.5),
        &["retention", "\"rules\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownKind { path, value } if path == "retention" && value == "rules"),
        "{err:?}"
    );
}

// ------------------------------------------------------------ duplicate ids

#[test]
fn duplicate_fact_id() {
    let err = rejects(
        |s| s["facts"][2]["id"] = json!("approval-gate"),
        &["fact", "\"approval-gate\"", "twice"],
    );
    assert!(
        matches!(&err, ScenarioError::DuplicateId { collection: Collection::Facts, id } if id == "approval-gate"),
        "{err:?}"
    );
}

#[test]
fn duplicate_action_id() {
    let err = rejects(
        |s| s["actions"][1]["id"] = json!("restart"),
        &["action", "\"restart\"", "twice"],
    );
    assert!(
        matches!(&err, ScenarioError::DuplicateId { collection: Collection::Actions, id } if id == "restart"),
        "{err:?}"
    );
}

#[test]
fn duplicate_resource_id() {
    let err = rejects(
        |s| s["resources"][1]["id"] = json!("db-staging"),
        &["resource", "\"db-staging\"", "twice"],
    );
    assert!(
        matches!(&err, ScenarioError::DuplicateId { collection: Collection::Resources, id } if id == "db-staging"),
        "{err:?}"
    );
}

// ------------------------------------------------------------ governed_by and target

#[test]
fn empty_governed_by() {
    let err = rejects(
        |s| s["actions"][1]["governed_by"] = json!([]),
        &["action \"rollback\"", "governed_by"],
    );
    assert!(
        matches!(&err, ScenarioError::EmptyGovernedBy { action } if action == "rollback"),
        "{err:?}"
    );
}

#[test]
fn governed_by_names_an_unknown_fact() {
    let err = rejects(
        |s| s["actions"][1]["governed_by"] = json!(["freeze", "frieze"]),
        &["action \"rollback\"", "governed_by", "\"frieze\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownGoverningFact { action, fact } if action == "rollback" && fact == "frieze"),
        "{err:?}"
    );
}

#[test]
fn governing_fact_introduced_after_the_action() {
    let err = rejects(
        |s| s["facts"][2]["turn"] = json!(31),
        &["action \"rollback\" (turn 30)", "\"freeze\"", "turn 31"],
    );
    assert!(
        matches!(
            &err,
            ScenarioError::GoverningFactAfterAction { action, action_turn: 30, fact, fact_turn: 31 }
                if action == "rollback" && fact == "freeze"
        ),
        "{err:?}"
    );
}

#[test]
fn a_governing_fact_at_the_action_turn_is_accepted() {
    accepts(|s| s["facts"][2]["turn"] = json!(30));
}

#[test]
fn target_unknown() {
    let err = rejects(
        |s| s["actions"][1]["target"] = json!("prod-db"),
        &["action \"rollback\"", "target", "\"prod-db\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownTarget { action, fact } if action == "rollback" && fact == "prod-db"),
        "{err:?}"
    );
}

#[test]
fn target_not_a_binding() {
    let err = rejects(
        |s| s["actions"][1]["target"] = json!("freeze"),
        &["action \"rollback\"", "target \"freeze\"", "standing_rule"],
    );
    assert!(
        matches!(
            &err,
            ScenarioError::TargetNotBinding { action, fact, kind: Kind::StandingRule }
                if action == "rollback" && fact == "freeze"
        ),
        "{err:?}"
    );
}

#[test]
fn target_introduced_after_the_action() {
    let err = rejects(
        |s| s["facts"][1]["turn"] = json!(35),
        &["action \"rollback\" (turn 30)", "\"staging-db\"", "turn 35"],
    );
    assert!(
        matches!(
            &err,
            ScenarioError::TargetAfterAction { action, action_turn: 30, fact, fact_turn: 35 }
                if action == "rollback" && fact == "staging-db"
        ),
        "{err:?}"
    );
}

// ------------------------------------------------------------ binds

#[test]
fn binds_missing_on_a_binding() {
    let err = rejects(
        |s| {
            s["facts"][1].as_object_mut().unwrap().remove("binds");
        },
        &["fact \"staging-db\"", "binds"],
    );
    assert!(
        matches!(&err, ScenarioError::MissingBinds { fact } if fact == "staging-db"),
        "{err:?}"
    );
}

#[test]
fn binds_present_on_a_non_binding() {
    let err = rejects(
        |s| s["facts"][2]["binds"] = json!({"phrase": "the API", "resource": "db-prod"}),
        &["fact \"freeze\"", "binds", "standing_rule"],
    );
    assert!(
        matches!(
            &err,
            ScenarioError::UnexpectedBinds { fact, kind: Kind::StandingRule } if fact == "freeze"
        ),
        "{err:?}"
    );
}

#[test]
fn binds_resource_unknown() {
    let err = rejects(
        |s| s["facts"][1]["binds"]["resource"] = json!("db-qa"),
        &["fact \"staging-db\"", "binds.resource", "\"db-qa\""],
    );
    assert!(
        matches!(&err, ScenarioError::UnknownResource { fact, resource } if fact == "staging-db" && resource == "db-qa"),
        "{err:?}"
    );
}

// ------------------------------------------------------------ turns

#[test]
fn system_fact_not_at_turn_zero() {
    let err = rejects(
        |s| s["facts"][0]["turn"] = json!(1),
        &["fact \"approval-gate\"", "turn 0", "not 1"],
    );
    assert!(
        matches!(&err, ScenarioError::SystemFactNotAtTurnZero { fact, turn: 1 } if fact == "approval-gate"),
        "{err:?}"
    );
}

#[test]
fn non_system_fact_at_turn_zero() {
    let err = rejects(
        |s| s["facts"][2]["turn"] = json!(0),
        &["fact \"freeze\"", "turn 0", "tool"],
    );
    assert!(
        matches!(&err, ScenarioError::FactAtTurnZero { fact, role: Role::Tool } if fact == "freeze"),
        "{err:?}"
    );
}

#[test]
fn fact_after_the_session() {
    let err = rejects(
        |s| s["facts"][2]["turn"] = json!(41),
        &["fact \"freeze\"", "turn 41", "1..=40"],
    );
    assert!(
        matches!(
            err,
            ScenarioError::TurnOutOfRange {
                turn: 41,
                min: 1,
                max: 40,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn action_after_the_session() {
    let err = rejects(
        |s| s["actions"][1]["turn"] = json!(41),
        &["action \"rollback\"", "turn 41", "1..=40"],
    );
    assert!(
        matches!(
            err,
            ScenarioError::TurnOutOfRange {
                turn: 41,
                min: 1,
                max: 40,
                ..
            }
        ),
        "{err:?}"
    );
}

#[test]
fn action_at_turn_zero() {
    let err = rejects(
        |s| s["actions"][0]["turn"] = json!(0),
        &["action \"restart\"", "turn 0", "1..=40"],
    );
    assert!(
        matches!(err, ScenarioError::TurnOutOfRange { turn: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn turn_tokens_entry_after_the_session() {
    let err = rejects(
        |s| s["turn_tokens"][0]["turn"] = json!(41),
        &["turn_tokens", "turn 41", "1..=40"],
    );
    assert!(
        matches!(err, ScenarioError::TurnOutOfRange { turn: 41, .. }),
        "{err:?}"
    );
}

#[test]
fn turn_tokens_entry_at_turn_zero() {
    let err = rejects(
        |s| s["turn_tokens"][0]["turn"] = json!(0),
        &["turn_tokens", "turn 0"],
    );
    assert!(
        matches!(err, ScenarioError::TurnOutOfRange { turn: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn turn_given_twice_in_turn_tokens() {
    let err = rejects(
        |s| {
            s["turn_tokens"] = json!([
                {"turn": 10, "tokens": 3000},
                {"turn": 11, "tokens": 500},
                {"turn": 10, "tokens": 900}
            ]);
        },
        &["turn_tokens", "turn 10", "twice"],
    );
    assert!(
        matches!(err, ScenarioError::DuplicateTurnTokens { turn: 10 }),
        "{err:?}"
    );
}

#[test]
fn turn_tokens_entry_of_zero_tokens() {
    let err = rejects(
        |s| s["turn_tokens"][0]["tokens"] = json!(0),
        &["turn_tokens", "turn 10", "tokens", "is 0"],
    );
    assert!(
        matches!(
            err,
            ScenarioError::IntegerOutOfRange {
                value: 0,
                min: 1,
                ..
            }
        ),
        "{err:?}"
    );
}

// ------------------------------------------------------------ numbers in range

/// Sets `section.key` to `value` and expects a [`ScenarioError::NumberOutOfRange`]
/// naming `section.key`.
fn number_out_of_range(section: &str, key: &str, value: f64) {
    let field = format!("{section}.{key}");
    let err = rejects(
        |s| s[section][key] = json!(value),
        &[&field, &format!("is {value}")],
    );
    assert!(
        matches!(&err, ScenarioError::NumberOutOfRange { field: f, value: v, .. } if *f == field && *v == value),
        "{err:?}"
    );
}

#[test]
fn retention_above_one() {
    number_out_of_range("retention", "carve_out", 1.5);
}

#[test]
fn retention_below_zero() {
    number_out_of_range("retention", "rationale", -0.1);
}

#[test]
fn retention_of_every_kind_is_range_checked() {
    for kind in Kind::ALL {
        number_out_of_range("retention", kind.id(), 1.01);
    }
}

#[test]
fn actionable_threshold_out_of_range() {
    number_out_of_range("model", "actionable_threshold", 1.2);
    number_out_of_range("model", "actionable_threshold", -0.5);
}

#[test]
fn pressure_sensitivity_out_of_range() {
    number_out_of_range("model", "pressure_sensitivity", 2.0);
    number_out_of_range("model", "pressure_sensitivity", -0.25);
}

#[test]
fn fabrication_base_out_of_range() {
    number_out_of_range("model", "fabrication_base", 1.5);
    number_out_of_range("model", "fabrication_base", -0.01);
}

#[test]
fn laundering_threshold_out_of_range() {
    number_out_of_range("model", "laundering_threshold", 1.5);
    number_out_of_range("model", "laundering_threshold", -1.0);
}

#[test]
fn fabrication_exponent_negative() {
    let err = rejects(
        |s| s["model"]["fabrication_exponent"] = json!(-0.5),
        &["model.fabrication_exponent", "is -0.5", "at least 0"],
    );
    assert!(
        matches!(err, ScenarioError::NumberOutOfRange { max: None, .. }),
        "{err:?}"
    );
}

#[test]
fn range_ends_are_accepted() {
    let s = accepts(|s| {
        s["retention"] = json!({"carve_out": 0.0, "binding": 1.0});
        s["model"] = json!({
            "actionable_threshold": 1.0,
            "pressure_sensitivity": 1.0,
            "fabrication_base": 0.0,
            "fabrication_exponent": 0.0,
            "laundering_threshold": 0.0
        });
    });
    assert_eq!(s.model.actionable_threshold, 1.0);
    assert_eq!(s.retention.get(Kind::CarveOut), 0.0);
}

// ------------------------------------------------------------ integers in range

/// Sets `harness.key` to `value` and expects an
/// [`ScenarioError::IntegerOutOfRange`] naming `harness.key`.
fn harness_integer_out_of_range(key: &str, value: u64) -> ScenarioError {
    let field = format!("harness.{key}");
    let err = rejects(
        |s| s["harness"][key] = json!(value),
        &[&field, &format!("is {value}")],
    );
    assert!(
        matches!(&err, ScenarioError::IntegerOutOfRange { field: f, value: v, .. } if *f == field && *v == value),
        "{err:?}"
    );
    err
}

#[test]
fn trigger_percent_zero() {
    let err = harness_integer_out_of_range("trigger_percent", 0);
    assert!(err.to_string().contains("between 1 and 100"), "{err}");
}

#[test]
fn trigger_percent_above_one_hundred() {
    let err = harness_integer_out_of_range("trigger_percent", 101);
    assert!(err.to_string().contains("between 1 and 100"), "{err}");
}

#[test]
fn tail_turns_zero() {
    harness_integer_out_of_range("tail_turns", 0);
}

#[test]
fn tokens_per_turn_zero() {
    harness_integer_out_of_range("tokens_per_turn", 0);
}

#[test]
fn summary_tokens_zero() {
    harness_integer_out_of_range("summary_tokens", 0);
}

#[test]
fn turns_zero() {
    harness_integer_out_of_range("turns", 0);
}

#[test]
fn user_message_tokens_zero() {
    harness_integer_out_of_range("user_message_tokens", 0);
}

#[test]
fn window_tokens_zero() {
    harness_integer_out_of_range("window_tokens", 0);
}

#[test]
fn turns_beyond_the_largest_session() {
    let turns = u64::from(drift_core::MAX_TURNS) + 1;
    harness_integer_out_of_range("turns", turns);
}

#[test]
fn token_count_beyond_the_largest() {
    harness_integer_out_of_range("tokens_per_turn", drift_core::MAX_TOKENS + 1);
}

#[test]
fn tail_percent_zero() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["tail_percent"] = json!(0);
            s["policy"] = p;
        },
        &["policy.tail_percent", "is 0", "between 1 and 99"],
    );
    assert!(
        matches!(err, ScenarioError::IntegerOutOfRange { value: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn tail_percent_one_hundred() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["tail_percent"] = json!(100);
            s["policy"] = p;
        },
        &["policy.tail_percent", "is 100", "between 1 and 99"],
    );
    assert!(
        matches!(err, ScenarioError::IntegerOutOfRange { value: 100, .. }),
        "{err:?}"
    );
}

#[test]
fn user_budget_tokens_zero() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["protected_roles"] = json!(["system", "user"]);
            p["user_budget_tokens"] = json!(0);
            s["policy"] = p;
        },
        &["policy.user_budget_tokens", "is 0"],
    );
    assert!(
        matches!(err, ScenarioError::IntegerOutOfRange { value: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn window_equal_to_system_tokens() {
    let err = rejects(
        |s| s["harness"]["system_tokens"] = json!(20000),
        &[
            "harness.window_tokens (20000)",
            "harness.system_tokens (20000)",
        ],
    );
    assert!(
        matches!(
            err,
            ScenarioError::WindowNotAboveSystem {
                window_tokens: 20000,
                system_tokens: 20000
            }
        ),
        "{err:?}"
    );
}

#[test]
fn window_below_system_tokens() {
    let err = rejects(
        |s| s["harness"]["window_tokens"] = json!(800),
        &["window_tokens (800)", "system_tokens (1000)"],
    );
    assert!(
        matches!(err, ScenarioError::WindowNotAboveSystem { .. }),
        "{err:?}"
    );
}

#[test]
fn window_not_above_system_after_a_policy_override() {
    // The scenario's own harness is fine; the policy's override is not.
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["harness"] = json!({"window_tokens": 1000});
            s["policy"] = p;
        },
        &["window_tokens (1000)", "system_tokens (1000)"],
    );
    assert!(
        matches!(
            err,
            ScenarioError::WindowNotAboveSystem {
                window_tokens: 1000,
                system_tokens: 1000
            }
        ),
        "{err:?}"
    );
}

#[test]
fn a_policy_override_is_validated_like_the_harness() {
    let err = rejects(
        |s| {
            let mut p = policy_object();
            p["harness"] = json!({"tail_turns": 0});
            s["policy"] = p;
        },
        &["policy.harness.tail_turns", "is 0"],
    );
    assert!(
        matches!(err, ScenarioError::IntegerOutOfRange { value: 0, .. }),
        "{err:?}"
    );
}

#[test]
fn a_turn_no_session_can_reach_is_reported_as_written() {
    rejects(
        |s| s["facts"][1]["turn"] = json!(5_000_000_000u64),
        &["facts[1]", "turn 5000000000"],
    );
}

// ------------------------------------------------------------ JSON types

/// Sets `harness.window_tokens` to `value` and expects a
/// [`ScenarioError::WrongType`] naming it.
fn window_tokens_of_the_wrong_type(value: Value) {
    let err = rejects(
        |s| s["harness"]["window_tokens"] = value,
        &["harness.window_tokens", "whole number"],
    );
    assert!(
        matches!(&err, ScenarioError::WrongType { path, .. } if path == "harness.window_tokens"),
        "{err:?}"
    );
}

#[test]
fn string_where_a_number_is_expected() {
    window_tokens_of_the_wrong_type(json!("32000"));
}

#[test]
fn negative_token_count() {
    window_tokens_of_the_wrong_type(json!(-32000));
}

#[test]
fn fractional_token_count() {
    window_tokens_of_the_wrong_type(json!(32000.5));
}

#[test]
fn boolean_token_count() {
    window_tokens_of_the_wrong_type(json!(true));
}

#[test]
fn negative_turn_tokens_entry() {
    let err = rejects(
        |s| s["turn_tokens"][0]["tokens"] = json!(-5),
        &["turn_tokens[0].tokens", "whole number"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn fractional_fact_turn() {
    let err = rejects(
        |s| s["facts"][2]["turn"] = json!(12.5),
        &["facts[2] (\"freeze\").turn", "whole number"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn string_action_turn() {
    let err = rejects(
        |s| s["actions"][1]["turn"] = json!("30"),
        &["actions[1] (\"rollback\").turn", "whole number"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn string_model_value() {
    let err = rejects(
        |s| s["model"]["fabrication_base"] = json!("0.05"),
        &["model.fabrication_base", "a number"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn string_retention_value() {
    let err = rejects(
        |s| s["retention"]["carve_out"] = json!("high"),
        &["retention.carve_out", "a number"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn guard_that_is_not_a_boolean() {
    let err = rejects(
        |s| s["guards"]["verify_bindings"] = json!("yes"),
        &["guards.verify_bindings", "true or false"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn flag_that_is_not_a_boolean() {
    let err = rejects(
        |s| s["actions"][1]["irreversible"] = json!(1),
        &["actions[1] (\"rollback\").irreversible", "true or false"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn governed_by_entry_that_is_not_a_string() {
    let err = rejects(
        |s| s["actions"][1]["governed_by"] = json!(["freeze", 2]),
        &["actions[1] (\"rollback\").governed_by[1]", "fact id"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn facts_that_are_not_an_array() {
    let err = rejects(|s| s["facts"] = json!({}), &["facts", "an array"]);
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn fact_that_is_not_an_object() {
    let err = rejects(
        |s| s["facts"][1] = json!("staging-db"),
        &["facts[1]", "an object"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn policy_of_the_wrong_type() {
    let err = rejects(|s| s["policy"] = json!(3), &["policy", "preset id"]);
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

#[test]
fn resource_mention_that_is_not_a_turn() {
    let err = rejects(
        |s| s["resources"][1]["mentions"] = json!([20, "later"]),
        &["resources[1] (\"db-prod\").mentions[1]", "turn"],
    );
    assert!(matches!(err, ScenarioError::WrongType { .. }), "{err:?}");
}

// ------------------------------------------------------------ edits after parsing

#[test]
fn simulate_validates_an_edited_scenario() {
    // A front end edits the parsed struct; simulate checks it again.
    let mut s = accepts(|_| {});
    s.actions[1].governed_by.clear();
    let err = drift_core::simulate(&s).unwrap_err();
    assert!(
        matches!(&err, ScenarioError::EmptyGovernedBy { action } if action == "rollback"),
        "{err:?}"
    );
    assert_eq!(s.validate(), Err(err));
}

// ------------------------------------------------------------ repeated keys and key order

/// A file is read as `serde_json::Value` reads it: a key given twice counts
/// with its last value, even where the first would be a mistake.
#[test]
fn a_repeated_key_counts_with_its_last_value() {
    let text = BASE
        .replace(
            r#""retention": {"carve_out": 0.5}"#,
            r#""retention": {"carve_out": "half", "carve_out": 0.5}"#,
        )
        .replace(
            r#""id": "freeze", "text""#,
            r#""id": 12, "id": "freeze", "kind": "planet", "text""#,
        );
    let repeated = parse_scenario(&text).unwrap_or_else(|e| panic!("rejected: {e}"));
    assert_eq!(repeated, parse_scenario(BASE).unwrap());
    assert_eq!(repeated.retention.get(Kind::CarveOut), 0.5);
}

/// Of two mistakes in one object, the one named is the first in key order,
/// wherever each stands in the file.
#[test]
fn of_two_mistakes_the_first_in_key_order_is_named() {
    for (first, second) in [("zeta", "alpha"), ("alpha", "zeta")] {
        let text = BASE.replace(
            r#""id": "freeze", "text""#,
            &format!(r#""{first}": 1, "{second}": 2, "id": "freeze", "text""#),
        );
        let err = rejects_text(&text, &["facts[2] (\"freeze\")", "\"alpha\""]);
        assert!(
            matches!(&err, ScenarioError::UnknownField { field, .. } if field == "alpha"),
            "{err:?}"
        );
    }
    let text = BASE.replace(
        r#""retention": {"carve_out": 0.5}"#,
        r#""retention": {"scope": "wide", "carve_out": "half"}"#,
    );
    rejects_text(&text, &["retention.carve_out"]);
}

/// The empty scenario a front end falls back on is valid as built, and runs
/// as `simulate` runs it.
#[test]
fn the_empty_scenario_is_valid() {
    let empty = drift_core::ValidScenario::empty("nothing");
    assert_eq!(empty.id, "nothing");
    assert_eq!(empty.scenario().validate(), Ok(()));
    let checked = empty.scenario().clone().into_valid().unwrap();
    assert_eq!(checked, empty);
    let run = drift_core::simulate_valid(&empty);
    let simulated = drift_core::simulate(empty.scenario()).unwrap();
    assert_eq!(run.rounds(), simulated.rounds());
    assert_eq!(run.harness(), simulated.harness());
}
