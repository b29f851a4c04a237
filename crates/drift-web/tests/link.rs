//! The page state survives a link, and every broken link is a clear error.

#![cfg(not(target_arch = "wasm32"))]

use drift_core::{
    Guard, HarnessOverrides, Kind, Policy, PolicyChoice, Preset, Role, RoleSet, TurnTokens,
    builtin, builtin_ids, parse_scenario, scenario_to_json,
};
use drift_web::link::{
    DEFAULT_COMPARE, LONGEST_QUERY, LinkError, PageState, ScenarioSource, Tab, base64url, decode,
    encode, link_query, url_suffix,
};
use proptest::prelude::*;

fn base(id: &str) -> PageState {
    PageState {
        source: ScenarioSource::Builtin(id.to_string()),
        scenario: builtin(id).unwrap(),
        tab: Tab::Timelines,
        compare: DEFAULT_COMPARE,
        fix: None,
    }
}

/// A random policy: a preset, or custom switches.
fn policy() -> impl Strategy<Value = PolicyChoice> {
    prop_oneof![
        (0..Preset::ALL.len()).prop_map(|i| PolicyChoice::Preset(Preset::ALL[i])),
        (
            any::<[bool; 3]>(),
            any::<[bool; 4]>(),
            0u32..5,
            prop::option::of(1u32..100),
            prop::option::of(1u64..50_000),
            prop::option::of(1u32..=100),
            prop::option::of(0u64..20_000),
        )
            .prop_map(|(flags, roles, head, tail, budget, trigger, reserve)| {
                let protected_roles: RoleSet = Role::ALL
                    .into_iter()
                    .zip(roles)
                    .filter(|(_, on)| *on)
                    .map(|(r, _)| r)
                    .collect();
                PolicyChoice::Custom(Policy {
                    compacts: flags[0],
                    protected_roles,
                    summarises: flags[1],
                    rereads_external: flags[2],
                    keep_first_turns: head,
                    tail_percent: tail,
                    user_budget_tokens: budget,
                    harness: HarnessOverrides {
                        trigger_percent: trigger,
                        reserve_tokens: reserve,
                        ..HarnessOverrides::NONE
                    },
                })
            }),
    ]
}

/// Every setting the page can change, changed at random.
fn state() -> impl Strategy<Value = PageState> {
    let ids: Vec<&'static str> = builtin_ids().collect();
    (
        0..ids.len(),
        policy(),
        (20_000u64..300_000, 1u32..=100, 0u64..4_000, 200u64..5_000),
        (
            1u32..12,
            256u64..16_000,
            60u32..200,
            0u64..5_000,
            1u64..1_000,
        ),
        prop::collection::vec(0.0f64..=1.0, 9),
        any::<[bool; 4]>(),
        (
            0.0f64..=1.0,
            0.0f64..=1.0,
            0.0f64..=1.0,
            0.0f64..4.0,
            0.0f64..=1.0,
        ),
        any::<u64>(),
        (0..Tab::ALL.len(), 0..Preset::ALL.len()),
    )
        .prop_map(
            move |(
                scenario,
                policy,
                (w, tr, sy, tt),
                (k, b, n, rv, um),
                retention,
                guards,
                model,
                flags,
                (tab, compare),
            )| {
                let mut state = base(ids[scenario]);
                let s = &mut state.scenario;
                s.policy = policy;
                s.harness.window_tokens = w;
                s.harness.trigger_percent = tr;
                s.harness.system_tokens = sy;
                s.harness.tokens_per_turn = tt;
                s.harness.tail_turns = k;
                s.harness.summary_tokens = b;
                s.harness.turns = n;
                s.harness.reserve_tokens = rv;
                s.harness.user_message_tokens = um;
                for (kind, r) in Kind::ALL.into_iter().zip(retention) {
                    s.retention.set(kind, r);
                }
                for (g, on) in Guard::ALL.into_iter().zip(guards) {
                    s.guards.set(g, on);
                }
                (
                    s.model.actionable_threshold,
                    s.model.pressure_sensitivity,
                    s.model.fabrication_base,
                    s.model.fabrication_exponent,
                    s.model.laundering_threshold,
                ) = model;
                for (i, f) in s.facts.iter_mut().enumerate() {
                    f.externalised = flags >> (2 * i) & 1 == 1;
                    f.forwarded = flags >> (2 * i + 1) & 1 == 1;
                }
                state.tab = Tab::ALL[tab];
                state.compare = Preset::ALL[compare];
                state
            },
        )
        .prop_filter("valid settings", |s| s.scenario.validate().is_ok())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn every_setting_survives_a_link(state in state()) {
        let link = encode(&state);
        let back = decode(&link).map_err(|e| TestCaseError::fail(format!("{e}: {link}")))?;
        prop_assert_eq!(back, Some(state));
    }

    #[test]
    fn a_truncated_link_is_an_error_or_a_valid_state(state in state(), cut in any::<usize>()) {
        let link = encode(&state);
        let cut = cut % link.len();
        if let Some(prefix) = link.get(..cut) {
            match decode(prefix) {
                Ok(Some(s)) => prop_assert!(s.scenario.validate().is_ok()),
                Ok(None) => prop_assert!(prefix.is_empty()),
                Err(e) => prop_assert!(!e.to_string().is_empty()),
            }
        }
    }

    #[test]
    fn garbage_never_panics(text in "\\PC{0,120}") {
        let _ = decode(&text);
    }

    #[test]
    fn base64url_round_trips(bytes in prop::collection::vec(any::<u8>(), 0..300)) {
        prop_assert_eq!(base64url::decode(&base64url::encode(&bytes)), Some(bytes));
    }
}

#[test]
fn an_unchanged_scenario_is_a_short_link() {
    assert_eq!(
        encode(&base("payments-incident")),
        "v=1&s=payments-incident"
    );
    let mut state = base("payments-incident");
    state.scenario.retention.set(Kind::CarveOut, 0.5);
    state.scenario.facts[1].externalised = true;
    assert_eq!(encode(&state), "v=1&s=payments-incident&r.co=0.5&x=1");
}

#[test]
fn an_imported_scenario_travels_inside_the_link() {
    let mut imported = builtin("dependency-pin").unwrap();
    imported.id = "my-session".to_string();
    imported.title = "Mine, with \"quotes\" & ampersands".to_string();
    let state = PageState {
        source: ScenarioSource::Imported(Box::new(imported.clone())),
        scenario: imported.clone(),
        tab: Tab::Rounds,
        compare: Preset::CodexCli,
        fix: None,
    };
    let link = encode(&state);
    assert!(link.contains("sz=") && !link.contains(' '));
    assert_eq!(decode(&format!("?{link}")).unwrap(), Some(state.clone()));
    // The imported file reads back identically.
    let text = scenario_to_json(&imported);
    assert_eq!(parse_scenario(&text).unwrap(), imported);
    // Compressed, it is a fraction of the file in base64url.
    let sz = link
        .split('&')
        .find_map(|kv| kv.strip_prefix("sz="))
        .unwrap();
    let plain = base64url::encode(text.as_bytes());
    assert!(
        sz.len() * 2 < plain.len(),
        "{} vs {}",
        sz.len(),
        plain.len()
    );
    // A link written before compression, with the file in src, still opens.
    let old = link.replace(&format!("sz={sz}"), &format!("src={plain}"));
    assert_eq!(decode(&format!("?{old}")).unwrap(), Some(state));
    // Both, or a garbled one, is an error naming what is wrong.
    let both = format!("?{link}&src={plain}");
    assert_eq!(decode(&both), Err(LinkError::TwoScenarios));
    let garbled = link.replace(&format!("sz={sz}"), "sz=AAAA");
    assert!(matches!(
        decode(&format!("?{garbled}")),
        Err(LinkError::BadValue { .. })
    ));
}

fn long_file(state: &PageState) -> drift_core::Scenario {
    match &state.source {
        ScenarioSource::Imported(s) => s.as_ref().clone(),
        ScenarioSource::Builtin(id) => builtin(id).unwrap(),
    }
}

#[test]
fn a_long_state_travels_in_the_fragment_and_reads_back_from_it() {
    // An imported session of a thousand turns of their own sizes.
    let mut long = builtin("payments-incident").unwrap();
    long.harness.turns = 1_000;
    long.turn_tokens = (1..=1_000)
        .map(|turn| TurnTokens {
            turn,
            tokens: 100 + u64::from(turn) * 7 % 900,
        })
        .collect();
    let state = PageState {
        source: ScenarioSource::Imported(Box::new(long.clone())),
        scenario: long,
        tab: Tab::Timelines,
        compare: DEFAULT_COMPARE,
        fix: None,
    };
    let query = encode(&state);
    assert!(query.len() > LONGEST_QUERY, "{}", query.len());
    // A long session compresses well: its turn sizes repeat in shape.
    let file = scenario_to_json(&long_file(&state));
    assert!(
        query.len() * 4 < base64url::encode(file.as_bytes()).len(),
        "{}",
        query.len()
    );
    let suffix = url_suffix(&query);
    assert_eq!(suffix, format!("#{query}"));
    // As the page reads its address: the fragment wins over any query.
    assert_eq!(
        decode(link_query("?v=1&s=dependency-pin", &suffix)).unwrap(),
        Some(state)
    );
    // A short one stays in the query, and an empty fragment is no state.
    let short = encode(&base("dependency-pin"));
    assert_eq!(url_suffix(&short), format!("?{short}"));
    assert_eq!(link_query("?v=1&s=x", "#"), "?v=1&s=x");
    assert_eq!(link_query("?v=1&s=x", ""), "?v=1&s=x");
}

#[test]
fn no_query_is_no_state() {
    assert_eq!(decode(""), Ok(None));
    assert_eq!(decode("?"), Ok(None));
}

#[test]
fn tracking_parameters_are_ignored() {
    let state = decode("v=1&s=staging-migration&utm_source=chat&fbclid=x").unwrap();
    assert_eq!(state, Some(base("staging-migration")));
}

/// Every malformed link is an error that names what is wrong.
#[test]
fn malformed_links_are_clear_errors() {
    let cases: &[(&str, &str)] = &[
        ("s=payments-incident", "no version"),
        ("v=2&s=payments-incident", "version 2"),
        ("v=one", "version one"),
        ("v=1&s=payments-inc", "\"payments-inc\""),
        ("v=1&s=payments-incident&w=320x", "w=320x"),
        ("v=1&s=payments-incident&w=", "w="),
        ("v=1&s=payments-incident&w=-5", "w=-5"),
        ("v=1&s=payments-incident&w=99999999999999999999999", "w="),
        ("v=1&s=payments-incident&tr=0", "harness.trigger_percent"),
        ("v=1&s=payments-incident&tr=250", "harness.trigger_percent"),
        ("v=1&s=payments-incident&sy=40000", "window_tokens"),
        ("v=1&s=payments-incident&r.sr=1.5", "r.sr=1.5"),
        ("v=1&s=payments-incident&r.sr=NaN", "r.sr=NaN"),
        ("v=1&s=payments-incident&r.zz=0.5", "\"r.zz\""),
        ("v=1&s=payments-incident&m.fe=-1", "m.fe=-1"),
        ("v=1&s=payments-incident&m.at=inf", "m.at=inf"),
        ("v=1&s=payments-incident&g=rvq", "g=rvq"),
        ("v=1&s=payments-incident&p=pinned", "p=pinned"),
        ("v=1&s=payments-incident&p=custom", "pc"),
        (
            "v=1&s=payments-incident&p=custom&pc=1&pr=sz&ps=1&px=0",
            "pr=sz",
        ),
        (
            "v=1&s=payments-incident&p=custom&pc=2&pr=s&ps=1&px=0",
            "pc=2",
        ),
        (
            "v=1&s=payments-incident&p=custom&pc=1&pr=s&ps=1&px=0&pt=100",
            "pt=100",
        ),
        ("v=1&s=payments-incident&pc=1", "p=custom"),
        ("v=1&s=payments-incident&x=1.99", "x=1.99"),
        ("v=1&s=payments-incident&nf=a", "nf=a"),
        ("v=1&s=payments-incident&t=charts", "t=charts"),
        ("v=1&s=payments-incident&t=compare&c=codex", "c=codex"),
        ("v=1&s=payments-incident&s=staging-migration", "twice"),
        ("v=1&src=AAAA", "does not read"),
        ("v=1&s=payments-incident&src=AAAA", "two scenarios"),
        ("v=1&src=not*base64", "base64url"),
        ("v=1&s=payments-incident&zoom=2", "\"zoom\""),
        ("v=1&s=%ZZ", "garbled"),
        ("v=1&s=%E2%82", "garbled"),
        ("\u{0}\u{1}garbage", "version"),
    ];
    for (link, names) in cases {
        match decode(link) {
            Err(e) => {
                let message = e.to_string();
                assert!(
                    message.contains(names),
                    "{link}: \"{message}\" does not name {names}"
                );
            }
            Ok(state) => panic!("{link} decoded to {state:?}"),
        }
    }
}

#[test]
fn invalid_settings_are_reported_as_the_engine_sees_them() {
    let Err(LinkError::Invalid(e)) = decode("v=1&s=payments-incident&n=30") else {
        panic!("turns shorter than the actions must be rejected");
    };
    assert!(e.to_string().contains("outside the session"), "{e}");
}

#[test]
fn an_applied_fix_travels_in_the_link() {
    use drift_core::RemedyHarness;
    use drift_web::link::Fix;
    for h in RemedyHarness::ALL {
        for &remedy in h.remedies() {
            let mut state = base("payments-incident");
            state.tab = Tab::Fix;
            state.fix = Some(Fix { harness: h, remedy });
            let query = encode(&state);
            assert!(
                query.contains(&format!("f={}.{}", h.id(), remedy.id())),
                "{query}"
            );
            assert_eq!(decode(&query).unwrap(), Some(state));
        }
    }
    // A remedy the harness does not offer, or a word that is no remedy, is
    // named, not guessed at.
    for bad in [
        "letta_sliding.restate_hook",
        "claude_code",
        "claude_code.hook",
        "x.y",
    ] {
        let e = decode(&format!("v=1&s=payments-incident&f={bad}")).unwrap_err();
        assert!(e.to_string().contains(&format!("f={bad}")), "{e}");
    }
}

/// Links written before the 2026 presets and the harness table still open
/// as they did: every preset and remedy id they could hold.
#[test]
fn links_with_earlier_preset_and_remedy_names_open() {
    let earlier = [
        "none",
        "sliding_window",
        "recursive_summary",
        "pinned_prefix",
        "user_verbatim",
        "externalised_state",
        "codex_cli",
        "claude_code",
        "openai_compact",
        "openhands_summarizing",
        "openhands_masking",
        "letta_sliding",
        "deepagents",
    ];
    for id in earlier {
        let state = decode(&format!("?v=1&s=coding-day&p={id}&c={id}"))
            .unwrap_or_else(|e| panic!("{id}: {e}"))
            .unwrap();
        assert_eq!(state.scenario.policy.id(), id);
        assert_eq!(state.compare.id(), id);
    }
    let fixes = [
        "claude_code.restate_hook",
        "claude_code.claude_md",
        "codex_cli.compact_prompt",
        "codex_cli.instructions",
        "openai_compact.instructions",
        "openhands_summarizing.keep_first",
        "openhands_summarizing.instructions",
        "openhands_masking.instructions",
        "letta_sliding.memory_block",
        "deepagents.instructions",
        "opencode.compacting_plugin",
        "opencode.instructions",
    ];
    for id in fixes {
        let state = decode(&format!("?v=1&s=coding-day&f={id}"))
            .unwrap_or_else(|e| panic!("{id}: {e}"))
            .unwrap();
        assert_eq!(state.fix.map(|f| f.id()), Some(id.to_string()));
    }
}
