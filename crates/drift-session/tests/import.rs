//! Importing sessions as scenarios: the sample sessions of every format
//! against reviewed snapshots, a generated session of more than a thousand
//! messages, malformed files, and properties over generated transcripts
//! (the import never panics and its scenario always validates and reads
//! back unchanged).

use std::fmt::Write as _;

use drift_core::{Kind, Preset, Role, parse_scenario, scenario_to_json, simulate};
use drift_session::audit::MessageField;
use drift_session::{
    ImportOptions, Imported, import,
    import::{Governance, Notice},
    import_text,
    rules::RuleForm,
};
use drift_session::{
    Message, MessageRole, Transcript, TranscriptError, TranscriptFormat, import::Origin,
    read_transcript,
};
use proptest::prelude::*;

mod common;
mod support;

fn sample_text(name: &str) -> String {
    let path = format!("{}/tests/transcripts/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn sample(name: &str) -> (Transcript, Imported) {
    let transcript = read_transcript(&sample_text(name)).expect("the sample reads");
    let options = ImportOptions {
        id: name.split('.').next().unwrap_or(name).to_string(),
        ..ImportOptions::default()
    };
    let imported = import(&transcript, &options);
    check(&transcript, &imported).unwrap_or_else(|e| panic!("{name}: {e}"));
    (transcript, imported)
}

/// Everything that must hold of any import: the scenario validates, runs,
/// reads back unchanged; the guesses line up with it and point into the
/// transcript; governing facts come before their actions.
fn check(t: &Transcript, imported: &Imported) -> Result<(), String> {
    let s = &imported.scenario;
    s.validate().map_err(|e| format!("invalid: {e}"))?;
    simulate(s).map_err(|e| format!("does not run: {e}"))?;
    let json = scenario_to_json(s);
    let back = parse_scenario(&json).map_err(|e| format!("does not read back: {e}"))?;
    if &back != s {
        return Err("reads back different".into());
    }
    if imported.facts.len() != s.facts.len() || imported.actions.len() != s.actions.len() {
        return Err("guesses and scenario differ in length".into());
    }
    if imported.message_turns.len() != t.messages.len() {
        return Err("message_turns is not one per message".into());
    }
    for (g, f) in imported.facts.iter().zip(&s.facts) {
        let m = t
            .messages
            .get(g.origin.place.message)
            .ok_or("fact outside")?;
        // A binding that names no resource is kept as a standing rule.
        let kind = match (g.form, &f.binds) {
            (RuleForm::Binding, None) => Kind::StandingRule,
            (form, _) => form.kind(),
        };
        if g.id != f.id || kind != f.kind || g.origin.turn != f.turn {
            return Err(format!("fact guess {} does not match its fact", g.id));
        }
        if g.origin.place.field != MessageField::Text
            || m.text
                .get(g.origin.place.span.start..g.origin.place.span.end)
                != Some(f.text.as_str())
        {
            return Err(format!("fact {}: span is not its text", f.id));
        }
        if g.origin.record != m.record || g.origin.role != m.role {
            return Err(format!("fact {}: origin is not its message", f.id));
        }
    }
    for (g, a) in imported.actions.iter().zip(&s.actions) {
        let m = t
            .messages
            .get(g.origin.place.message)
            .ok_or("action outside")?;
        if g.id != a.id || a.irreversible != g.pattern.irreversible || a.target.is_some() {
            return Err(format!("action guess {} does not match its action", g.id));
        }
        if g.origin.place.span.end != m.tool_arguments.as_deref().map_or(0, str::len) {
            return Err(format!("action {}: span is not its arguments", a.id));
        }
        if a.governed_by.is_empty() {
            return Err(format!("action {} is governed by nothing", a.id));
        }
        for id in &a.governed_by {
            let i = s.fact_index(id).ok_or("unknown governing fact")?;
            if imported.facts[i].origin.place.message >= g.origin.place.message {
                return Err(format!("action {}: {id} is not before it", a.id));
            }
            if matches!(g.governance, Governance::EveryConstraintBefore)
                && !s.facts[i].kind.is_constraint()
            {
                return Err(format!("action {}: {id} is no constraint", a.id));
            }
        }
    }
    Ok(())
}

/// Where a guess came from: its message and record.
fn origin(o: &Origin) -> String {
    format!("message {} record {}", o.place.message, o.record)
}

/// A person's view of an import: every guess with where it came from and
/// why, then the scenario file.
fn render(t: &Transcript, imported: &Imported) -> String {
    let s = &imported.scenario;
    let h = &s.harness;
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} · {} messages · {} records skipped · policy {}",
        imported.format.label(),
        t.messages.len(),
        imported.records_skipped,
        s.policy.id()
    );
    let _ = writeln!(
        out,
        "turns {} · system {} · per turn {} · {} turns of another size · window {}",
        h.turns,
        h.system_tokens,
        h.tokens_per_turn,
        s.turn_tokens.len(),
        h.window_tokens
    );
    for n in &imported.notices {
        let _ = writeln!(out, "notice: {n}");
    }
    let _ = writeln!(out, "facts:");
    for (g, f) in imported.facts.iter().zip(&s.facts) {
        let stated = if g.occurrences > 1 {
            format!(" · stated {} times", g.occurrences)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "  {} · {} · {} (from {}) · turn {} · {} · {} \"{}\"{stated}",
            f.id,
            f.kind.id(),
            f.role.id(),
            g.origin.role.id(),
            f.turn,
            origin(&g.origin),
            g.form.id(),
            g.cue,
        );
    }
    let _ = writeln!(out, "actions:");
    for (g, a) in imported.actions.iter().zip(&s.actions) {
        let why = match &g.governance {
            Governance::SharedResources(names) => format!("shares {}", names.join(", ")),
            Governance::EveryConstraintBefore => "every constraint before it".to_string(),
        };
        let _ = writeln!(
            out,
            "  {} · turn {} · {} · {} \"{}\"{}{} · governed by {} ({why})",
            a.id,
            a.turn,
            origin(&g.origin),
            g.pattern.id,
            g.matched,
            if g.in_tool_name {
                " in the tool name"
            } else {
                ""
            },
            if a.irreversible {
                " · irreversible"
            } else {
                ""
            },
            a.governed_by.join(", ")
        );
    }
    let _ = writeln!(out, "skipped:");
    for k in &imported.skipped {
        let _ = writeln!(
            out,
            "  {} · {} · {:?}: nothing before it to govern it",
            origin(&k.origin),
            k.pattern.id,
            k.command
        );
    }
    out.push_str("---\n");
    out.push_str(&scenario_to_json(s));
    out
}

fn snapshot(name: &str) -> (Transcript, Imported) {
    let (t, imported) = sample(name);
    insta::assert_snapshot!(name, render(&t, &imported));
    (t, imported)
}

fn kinds(imported: &Imported) -> Vec<(&str, Kind, Role)> {
    imported
        .scenario
        .facts
        .iter()
        .map(|f| (f.id.as_str(), f.kind, f.role))
        .collect()
}

// ---------------------------------------------------------- the samples

#[test]
fn claude_code_sample() {
    let (_, imported) = snapshot("claude-code.jsonl");
    assert_eq!(imported.format, TranscriptFormat::ClaudeCodeSession);
    assert_eq!(
        imported.scenario.policy,
        drift_core::PolicyChoice::Preset(Preset::ClaudeCode)
    );
    assert_eq!(imported.scenario.harness.turns, 12);
    assert_eq!(imported.scenario.harness.system_tokens, 0);
}

#[test]
fn codex_sample() {
    let (_, imported) = snapshot("codex-rollout.jsonl");
    // The session instructions are the system prompt.
    assert_eq!(imported.scenario.harness.turns, 12);
    assert_eq!(imported.message_turns[0].turn, 0);
    assert_eq!(
        kinds(&imported)[0],
        ("keep-commits-small", Kind::StandingRule, Role::System)
    );
}

#[test]
fn responses_sample() {
    let (_, imported) = snapshot("responses.json");
    assert_eq!(
        kinds(&imported),
        [("only-propose-changes-under", Kind::Scope, Role::System)]
    );
    assert!(imported.scenario.actions.is_empty());
}

#[test]
fn ops_claude_code() {
    let (t, imported) = snapshot("ops-claude-code.jsonl");
    use Kind::*;
    // Which sentences are rules is the model's (measured across people in
    // `cargo xtask eval`; the snapshot holds what it says here). What is
    // held here is the import's part: who gave each, one fact per rule
    // said twice, a tool's policy as the tool's, and what governs what.
    let found = kinds(&imported);
    for fact in [
        ("never-restart-db-prod-01-without", StandingRule, Role::User),
        ("touch-only-payments-namespace", Scope, Role::User),
        (
            "payments-api-change-freeze-effect",
            StandingRule,
            Role::Tool,
        ),
        ("except-config-only-changes", CarveOut, Role::Tool),
        ("correction-call-approver-today", Correction, Role::User),
    ] {
        assert!(found.contains(&fact), "{fact:?} not in {found:?}");
    }
    assert!(
        found
            .iter()
            .any(|f| f.0 == "deploys-rollbacks-need-vp" && f.2 == Role::Tool),
        "{found:?}"
    );
    // The rule restated at line 9 is one fact; the model's thinking and the
    // subagent's brief make none.
    let restated = imported
        .facts
        .iter()
        .find(|f| f.id == "never-restart-db-prod-01-without")
        .unwrap();
    assert_eq!(restated.occurrences, 2);
    let ids: Vec<&str> = imported
        .scenario
        .actions
        .iter()
        .map(|a| a.id.as_str())
        .collect();
    assert_eq!(ids, ["deploy", "restart", "drop", "force-push"]);
    // The restart shares the payments-api deployment with what governs it:
    // the carve-out the tool showed for payments-api among them.
    let restart = &imported.scenario.actions[1];
    assert!(
        restart
            .governed_by
            .iter()
            .any(|g| g == "except-config-only-changes"),
        "{:?}",
        restart.governed_by
    );
    let drop = &imported.actions[2];
    assert_eq!(
        drop.governance,
        Governance::SharedResources(vec!["db-prod-01".into()])
    );
    assert!(imported.scenario.actions[2].irreversible);
    // With no resource in common, the force-push answers to every rule,
    // carve-out and correction before it, not to a scope.
    let before: Vec<&str> = imported
        .scenario
        .facts
        .iter()
        .filter(|f| f.turn < imported.scenario.actions[3].turn && f.kind != Scope)
        .map(|f| f.id.as_str())
        .collect();
    assert_eq!(imported.scenario.actions[3].governed_by, before);
    assert_eq!(imported.records_skipped, 1, "the title line");
    // The subagent's line is its brief: read, and no fact of anyone's.
    let brief = t
        .messages
        .iter()
        .find(|m| m.provenance == drift_session::transcript::Provenance::Brief)
        .expect("the sidechain line is the subagent's brief");
    assert_eq!(brief.text, "Subagent brief: never deploy anything.");
    assert!(
        imported
            .facts
            .iter()
            .all(|f| f.origin.place.message != t.messages.iter().position(|m| m == brief).unwrap())
    );
    assert_eq!(t.messages.len(), imported.scenario.harness.turns as usize);
}

#[test]
fn ops_codex() {
    let (_, imported) = snapshot("ops-codex-rollout.jsonl");
    use Kind::*;
    let found = kinds(&imported);
    assert_eq!(found[0], ("never-push-main", StandingRule, Role::System));
    assert!(found.contains(&("only-edit-files-under", Scope, Role::User)));
    assert!(found.contains(&("do-not-run-slow", StandingRule, Role::User)));
    // "Actually, keep target/ledger-fixtures …. Do not delete it again."
    assert!(found.contains(&("do-not-delete-again", StandingRule, Role::User)));
    // The harness's own summary restates the rule: it relays it, it states
    // no rule of its own.
    assert!(found.iter().all(|f| f.2 != Role::Assistant), "{found:?}");
    let actions: Vec<(&str, bool)> = imported
        .scenario
        .actions
        .iter()
        .map(|a| (a.id.as_str(), a.irreversible))
        .collect();
    assert_eq!(
        actions,
        [("rm-rf", true), ("push-main", false), ("publish", true)]
    );
    assert_eq!(
        imported.scenario.policy,
        drift_core::PolicyChoice::Preset(Preset::CodexCli)
    );
}

#[test]
fn ops_responses() {
    let (_, imported) = snapshot("ops-responses.json");
    use Kind::*;
    assert_eq!(
        kinds(&imported),
        [
            ("refunds-above-500-eur", StandingRule, Role::System),
            ("may-issue-test-refunds", CarveOut, Role::System),
            ("meant-eu-sandbox-not", Correction, Role::User),
        ]
    );
    // The deploy came before any rule: not an action.
    assert_eq!(imported.skipped.len(), 1);
    assert_eq!(imported.skipped[0].pattern.id, "deploy");
    let refund = &imported.actions[0];
    assert!(refund.in_tool_name);
    assert_eq!(
        refund.governance,
        Governance::SharedResources(vec!["acct_test_42".into()])
    );
    assert_eq!(imported.scenario.actions[1].id, "truncate");
}

#[test]
fn plain_text_notes() {
    let (_, imported) = snapshot("ops-notes.txt");
    assert_eq!(imported.scenario.harness.turns, 1);
    assert!(
        imported
            .scenario
            .facts
            .iter()
            .all(|f| f.role == Role::User && f.turn == 1)
    );
    assert_eq!(imported.scenario.facts.len(), 4);
}

// ------------------------------------------------- a long generated session

/// A Claude Code session of `exchanges` rounds of user message, assistant
/// text and tool call, and tool result; every seventh user message states
/// one of a few rules, every fifth call is consequential.
fn long_session(exchanges: usize) -> String {
    const RULES: [&str; 4] = [
        "Never restart payments-api without an approver.",
        "Do not delete anything under data/legacy-import.",
        "Only edit files under crates/ledger.",
        "You may deploy ledger-svc only during the Sunday window.",
    ];
    const CALLS: [&str; 5] = [
        "kubectl -n payments rollout restart deployment/payments-api",
        "rm -rf data/legacy-import/2025",
        "cargo test -p ledger",
        "./deploy.sh ledger-svc",
        "git status",
    ];
    let mut out = String::new();
    let mut push = |kind: &str, message: String| {
        let _ = writeln!(
            out,
            r#"{{"type":"{kind}","message":{message},"uuid":"u","sessionId":"s"}}"#
        );
    };
    for i in 0..exchanges {
        let rule = if i % 7 == 0 {
            RULES[(i / 7) % RULES.len()]
        } else {
            ""
        };
        push(
            "user",
            format!(r#"{{"role":"user","content":"Step {i}: look at the importer next. {rule}"}}"#),
        );
        let command = if i % 5 == 0 {
            CALLS[(i / 5) % CALLS.len()]
        } else {
            "cargo check"
        };
        push(
            "assistant",
            format!(
                r#"{{"role":"assistant","content":[{{"type":"text","text":"Checking step {i}."}},{{"type":"tool_use","id":"t{i}","name":"Bash","input":{{"command":"{command}"}}}}]}}"#
            ),
        );
        push(
            "user",
            format!(
                r#"{{"role":"user","content":[{{"type":"tool_result","tool_use_id":"t{i}","content":"ok {i}"}}]}}"#
            ),
        );
    }
    out
}

#[test]
fn a_session_of_more_than_a_thousand_messages() {
    let text = long_session(400);
    let t = read_transcript(&text).unwrap();
    assert_eq!(t.messages.len(), 1_600);
    let imported = import(&t, &ImportOptions::default());
    check(&t, &imported).unwrap();
    let s = &imported.scenario;
    assert_eq!(s.harness.turns, 1_600);
    // Four distinct rules, each restated: one fact apiece.
    assert_eq!(
        kinds(&imported),
        [
            (
                "never-restart-payments-api-without",
                Kind::StandingRule,
                Role::User
            ),
            ("do-not-delete-anything", Kind::StandingRule, Role::User),
            ("only-edit-files-under", Kind::Scope, Role::User),
            ("may-deploy-ledger-svc-only", Kind::CarveOut, Role::User),
        ]
    );
    let stated: usize = imported.facts.iter().map(|f| f.occurrences).sum();
    assert_eq!(stated, 400usize.div_ceil(7));
    // Every fifth call: restart, rm -rf, (cargo test), deploy, (git status).
    assert_eq!(s.actions.len(), 3 * 400 / 25);
    // What governs the `n`th action (from 0) whose id starts with `prefix`.
    let governing = |prefix: &str, n: usize| {
        let mut named = s.actions.iter().filter(|a| a.id.starts_with(prefix));
        named.nth(n).unwrap().governed_by.as_slice()
    };
    let first: Vec<&str> = s.actions.iter().take(3).map(|a| a.id.as_str()).collect();
    assert_eq!(first, ["restart", "rm-rf", "deploy"]);
    assert_eq!(
        s.actions[0].governed_by,
        ["never-restart-payments-api-without"]
    );
    assert_eq!(
        s.actions[1].governed_by,
        ["never-restart-payments-api-without"],
        "before the data rule"
    );
    assert_eq!(governing("rm-rf", 1), ["do-not-delete-anything"]);
    // The first deploy names ledger-svc before any fact does: every rule
    // before it governs it (the scope is no rule).
    assert_eq!(
        s.actions[2].governed_by,
        [
            "never-restart-payments-api-without",
            "do-not-delete-anything"
        ]
    );
    assert_eq!(governing("deploy", 2), ["may-deploy-ledger-svc-only"]);
    // Same input, same file.
    assert_eq!(
        scenario_to_json(s),
        scenario_to_json(&import(&t, &ImportOptions::default()).scenario)
    );
}

// ------------------------------------------------------- malformed files

#[test]
fn a_broken_line_is_skipped_and_named() {
    let mut text = sample_text("ops-codex-rollout.jsonl");
    let lines: Vec<&str> = text.lines().collect();
    let broken = format!(
        "{}\n{}\n{{\"type\": response_item\n{}\n",
        lines[0], lines[1], lines[2]
    );
    // A torn line is skipped and named; the lines around it are read.
    let imported = import_text(&broken, &ImportOptions::default()).unwrap();
    assert_eq!(imported.damaged, [3]);

    text.push_str("[1, 2]\n");
    let err = import_text(&text, &ImportOptions::default()).unwrap_err();
    assert_eq!(err, TranscriptError::NotAnObject { line: 16 });
    assert!(err.to_string().contains("line 16"));
}

#[test]
fn foreign_json_is_refused() {
    let err = import_text(
        "{\"name\": \"x\"}\n{\"name\": \"y\"}\n",
        &ImportOptions::default(),
    )
    .unwrap_err();
    assert_eq!(err, TranscriptError::NotATranscript);
    let scenario = r#"{"format": "compaction-drift/scenario@1", "id": "x"}"#;
    assert_eq!(
        import_text(scenario, &ImportOptions::default()).unwrap_err(),
        TranscriptError::NotATranscript
    );
}

#[test]
fn empty_and_system_only_transcripts_still_validate() {
    let imported = import_text("", &ImportOptions::default()).unwrap();
    assert_eq!(imported.notices, [Notice::NoTurns]);
    assert_eq!(imported.scenario.harness.turns, 1);
    assert_eq!(imported.scenario.validate(), Ok(()));
    let system = r#"{"type":"session_meta","payload":{"instructions":"Never push to main."}}"#;
    let imported = import_text(system, &ImportOptions::default()).unwrap();
    assert_eq!(imported.notices, [Notice::NoTurns]);
    assert_eq!(imported.scenario.facts[0].turn, 0);
    assert_eq!(imported.scenario.validate(), Ok(()));
}

#[test]
fn options_out_of_range_are_clamped_and_said() {
    let options = ImportOptions {
        id: "x".into(),
        window_tokens: 0,
        policy: Some(Preset::None),
        estimate: drift_session::import::TokenEstimate { chars_per_token: 0 },
        tail_turns: 0,
        summary_tokens: 0,
    };
    let (t, _) = sample("ops-notes.txt");
    let imported = import(&t, &options);
    check(&t, &imported).unwrap();
    let fields: Vec<&str> = imported
        .notices
        .iter()
        .filter_map(|n| match n {
            Notice::Clamped { field, .. } => Some(*field),
            _ => None,
        })
        .collect();
    assert_eq!(fields, ["window_tokens", "tail_turns", "summary_tokens"]);
    // One character per token when asked for none.
    assert_eq!(
        imported.scenario.harness.tokens_per_turn,
        t.messages[0].text.chars().count() as u64
    );
}

// ------------------------------------------------------------ properties

/// Text made of rule words, cues, resources, commands and noise.
fn texty() -> impl Strategy<Value = String> {
    support::texty(
        &[
            "Never restart payments-api. ",
            "do not ",
            "except ",
            "Only touch src/. ",
            "Correction: ",
            "I meant ",
            "not db-prod-01 but db-prod-02. ",
            "may deploy during ",
            "rm -rf /tmp/x ",
            "git push --force ",
            "DROP TABLE t; ",
            "payments-api ",
        ],
        24,
    )
}

fn role() -> impl Strategy<Value = MessageRole> {
    prop_oneof![
        Just(MessageRole::System),
        Just(MessageRole::Developer),
        Just(MessageRole::User),
        Just(MessageRole::Assistant),
        Just(MessageRole::Reasoning),
        Just(MessageRole::Tool),
        Just(MessageRole::Summary),
        Just(MessageRole::Unknown),
    ]
}

fn message() -> impl Strategy<Value = Message> {
    (
        role(),
        texty(),
        prop::option::of(prop_oneof![
            Just("Bash"),
            Just("shell"),
            Just("delete_file"),
            Just("create_refund")
        ]),
        prop::option::of(texty()),
        any::<bool>(),
        1usize..1_000,
    )
        .prop_map(|(role, text, tool, args, json, record)| {
            let mut m = Message::new(role, text, record);
            m.tool_name = tool.map(str::to_string);
            m.tool_arguments = args.map(|a| {
                if json {
                    serde_json::json!({ "command": a, "content": "DELETE FROM x" }).to_string()
                } else {
                    a
                }
            });
            m
        })
}

fn transcript() -> impl Strategy<Value = Transcript> {
    (prop::collection::vec(message(), 0..40), 0usize..4).prop_map(|(messages, format)| {
        let format = [
            TranscriptFormat::PlainText,
            TranscriptFormat::ResponsesItems,
            TranscriptFormat::CodexSession,
            TranscriptFormat::ClaudeCodeSession,
        ][format];
        Transcript::new(format, messages)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn imports_always_validate(t in transcript(), window in 0u64..5_000, per in 0u32..8) {
        let options = ImportOptions {
            window_tokens: window,
            estimate: drift_session::import::TokenEstimate { chars_per_token: per },
            ..ImportOptions::default()
        };
        let imported = import(&t, &options);
        if let Err(e) = check(&t, &imported) {
            return Err(TestCaseError::fail(e));
        }
        // Deterministic.
        prop_assert_eq!(&imported, &import(&t, &options));
    }

    #[test]
    fn importing_text_never_panics(text in "\\PC{0,300}", json_ish in "[\\[\\]{}\":,a-z0-9 \n]{0,200}") {
        for input in [text.clone(), json_ish.clone(), format!("{{\"type\":\"message\",\"role\":\"user\",\"content\":\"x\"}}\n{json_ish}")] {
            if let Ok(imported) = import_text(&input, &ImportOptions::default()) {
                let t = read_transcript(&input).unwrap();
                if let Err(e) = check(&t, &imported) {
                    return Err(TestCaseError::fail(e));
                }
            }
        }
    }
}

/// A session's rounds fall where its log compacted: the turn sizes are
/// adjusted so the model's threshold is first passed at those turns.
#[test]
fn the_rounds_fall_at_the_logs_compactions() {
    let mut turns: Vec<(String, String)> = Vec::new();
    turns.push((
        "user".into(),
        "Never push to the release branch without a green CI run.".into(),
    ));
    for i in 0..60 {
        turns.push((
            "user".into(),
            format!("Next, port module {i} to the new parser API."),
        ));
        turns.push((
            "assistant".into(),
            format!("Module {i} ported; its tests pass."),
        ));
        if i == 17 || i == 38 || i == 50 {
            turns.push(("summary".into(), format!("Summary:\n1. Primary Request and Intent:\n   Port the modules to the new parser API; {i} are done.")));
        }
    }
    let borrowed: Vec<(&str, &str)> = turns
        .iter()
        .map(|(a, b)| (a.as_str(), b.as_str()))
        .collect();
    let log = common::claude_log(&borrowed);
    let imported = import_text(&log, &ImportOptions::default()).expect("the log reads");
    let wanted: Vec<u32> = imported.compactions.iter().map(|c| c.turn).collect();
    assert_eq!(wanted.len(), 3);
    assert!(
        imported.notices.contains(&Notice::RoundsPlaced {
            placed: 3,
            wanted: 3
        }),
        "{:?}",
        imported.notices
    );
    let run = simulate(&imported.scenario).expect("the scenario runs");
    let rounds: Vec<u32> = run.rounds().iter().map(|r| r.turn).collect();
    assert_eq!(rounds, wanted);
    assert_eq!(run.overflow_turn(), None);
    // The file reads back as it was written.
    let back = parse_scenario(&scenario_to_json(&imported.scenario)).expect("it reads back");
    assert_eq!(back, imported.scenario);
}
