//! Properties of the runtime guards over generated ledgers, stores,
//! boundaries and rewrites.

use drift_session::Judgement;
use drift_session::{
    BindingLedger, BoundaryGate, CommitmentLedger, ConstraintStore,
    guard::{
        Belief, BindingError, BoundaryError, Claim, ClaimReason, ClaimStatus, Commitment,
        GateSettings, Inventory, Rewrite, RewriteChange,
    },
};
use proptest::prelude::*;

fn config() -> ProptestConfig {
    ProptestConfig {
        cases: 256,
        failure_persistence: None,
        ..ProptestConfig::default()
    }
}

/// Entailment by substring: the gate's and the ledger's logic, without the
/// lexical checker's judgement in the way.
fn substring(claim: &str, source: &str) -> Judgement {
    let hit = source.contains(claim);
    Judgement {
        entailment: if hit { 1.0 } else { 0.0 },
        contradiction: 0.0,
        similarity: if hit { 1.0 } else { 0.0 },
    }
}

// ------------------------------------------------------------ binding ledger

const WORDS: [&str; 6] = [
    "staging",
    "production",
    "analytics",
    "login",
    "export",
    "replica",
];
const CLASSES: [&str; 2] = ["database", "ticket"];

fn phrase() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(&WORDS[..]), 1..3)
        .prop_map(|w| format!("the {}", w.join(" ")))
}

fn inventory() -> impl Strategy<Value = Inventory> {
    prop::collection::vec(
        (
            prop::sample::select(&CLASSES[..]),
            prop::collection::vec(prop::sample::select(&WORDS[..]), 1..3),
        ),
        1..7,
    )
    .prop_map(|resources| {
        let mut inv = Inventory::new();
        for (i, (class, name)) in resources.into_iter().enumerate() {
            inv.add(format!("r{i}"), class, [name.join(" ")]);
        }
        inv
    })
}

proptest! {
    #![proptest_config(config())]

    /// A phrase resolves only to the one inventory resource of its class that
    /// it matches, whatever the ledger believed; otherwise the error names
    /// every candidate and the belief's depth.
    #[test]
    fn bindings_answer_only_from_the_inventory(
        inv in inventory(),
        phrase in phrase(),
        class in prop::sample::select(&CLASSES[..]),
        believed in "r[0-9]|elsewhere",
        other in "r[0-9]|elsewhere",
        depth in 0u32..10,
    ) {
        let mut ledger = BindingLedger::new();
        ledger.inherit_binding(&phrase, &believed, class, depth);
        let matches: Vec<String> = inv.matches(&phrase, class).iter().map(|r| r.id.clone()).collect();
        let result = ledger.resolve(&phrase, &inv);
        match &result {
            Ok(r) => {
                prop_assert_eq!(matches.len(), 1);
                prop_assert_eq!(&r.resource, &matches[0]);
                prop_assert_eq!(r.depth, depth);
                prop_assert_eq!(r.drifted_from.is_some(), r.resource != believed);
            }
            Err(BindingError::Missing { depth: d, .. }) => {
                prop_assert!(matches.is_empty());
                prop_assert_eq!(*d, depth);
            }
            Err(BindingError::Ambiguous { candidates, depth: d, phrase: p, .. }) => {
                prop_assert!(matches.len() >= 2);
                prop_assert_eq!(candidates, &matches);
                prop_assert_eq!(*d, depth);
                prop_assert_eq!(p, &phrase);
            }
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
        // Believing another resource changes nothing but the drift note.
        ledger.inherit_binding(&phrase, &other, class, depth);
        let again = ledger.resolve(&phrase, &inv);
        match (result, again) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a.resource, b.resource),
            (Err(BindingError::Ambiguous { candidates: a, .. }), Err(BindingError::Ambiguous { candidates: b, .. })) => prop_assert_eq!(a, b),
            (Err(BindingError::Missing { .. }), Err(BindingError::Missing { .. })) => {}
            (a, b) => prop_assert!(false, "{a:?} became {b:?}"),
        }
    }

    /// A narrative belief is never a pointer, however deep or well matched.
    #[test]
    fn narrative_beliefs_never_resolve(inv in inventory(), phrase in phrase(), depth in 0u32..10) {
        let mut ledger = BindingLedger::new();
        ledger.inherit_narrative(&phrase, depth);
        let is_narrative = matches!(
            ledger.resolve(&phrase, &inv),
            Err(BindingError::Narrative { depth: d, .. }) if d == depth
        );
        prop_assert!(is_narrative);
    }

    /// Every compaction makes every belief one generation deeper.
    #[test]
    fn compactions_deepen_every_belief(
        phrases in prop::collection::btree_set(phrase(), 1..5),
        rounds in 0u32..6,
    ) {
        let mut ledger = BindingLedger::new();
        for (i, p) in phrases.iter().enumerate() {
            if i % 2 == 0 {
                ledger.bind(p, "r0", "database");
            } else {
                ledger.inherit_narrative(p, 1);
            }
        }
        let before: Vec<u32> = ledger.beliefs().map(|(_, b)| b.depth()).collect();
        for _ in 0..rounds {
            ledger.compacted();
        }
        let after: Vec<u32> = ledger.beliefs().map(|(_, b)| b.depth()).collect();
        for (b, a) in before.iter().zip(&after) {
            prop_assert_eq!(*a, b + rounds);
        }
        let fresh = ledger.beliefs().any(|(_, b)| matches!(b, Belief::Binding { depth: 0, .. }));
        prop_assert!(rounds == 0 || !fresh);
    }
}

// ------------------------------------------------------------ constraint store

fn constraints() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec("[A-Za-z0-9 ,.;:'()-]{1,40}", 0..8)
        .prop_map(|v| v.into_iter().filter(|t| !t.trim().is_empty()).collect())
}

proptest! {
    #![proptest_config(config())]

    /// Every rule is in the block word for word, in the order added; the
    /// block is the same bytes every time; a re-injected context misses none.
    #[test]
    fn the_block_carries_every_rule_verbatim(texts in constraints(), summary in "\\PC{0,200}") {
        let build = || {
            let mut store = ConstraintStore::new();
            for (i, t) in texts.iter().enumerate() {
                store.add(&format!("c{i}"), t).unwrap();
            }
            store
        };
        let store = build();
        let block = store.block();
        prop_assert_eq!(&block, &build().block());
        let mut last = 0;
        for (i, t) in texts.iter().enumerate() {
            let line = format!("[c{i}] {t}\n");
            let at = block[last..].find(&line);
            prop_assert!(at.is_some(), "{line:?} not in order in {block:?}");
            last += at.unwrap_or(0) + line.len();
        }
        prop_assert!(store.missing_from(&block).is_empty());
        prop_assert!(store.missing_from(&store.reinject(&summary)).is_empty());
        prop_assert!(store.reinject(&summary).ends_with(summary.as_str()));
        prop_assert_eq!(block.is_empty(), texts.is_empty());
    }

    /// Rules keep their own line breaks and any characters.
    #[test]
    fn rules_with_any_text_stay_verbatim(text in "\\PC{1,60}(\n\\PC{1,60})?") {
        prop_assume!(!text.trim().is_empty());
        let mut store = ConstraintStore::new();
        store.add("rule", &text).unwrap();
        prop_assert!(store.block().contains(&text));
        prop_assert_eq!(store.missing_from("").len(), 1);
    }
}

// ------------------------------------------------------------ boundary gate

const SENTENCES: [&str; 8] = [
    "libfoo is at 2.3.1",
    "libfoo is at 2.4.0",
    "tests pass",
    "T-14 is done",
    "T-41 is done",
    "the freeze holds",
    "prod was restarted",
    "staging is migrated",
];

fn claims() -> impl Strategy<Value = Vec<Claim>> {
    prop::collection::vec((prop::sample::select(&SENTENCES[..]), any::<bool>()), 0..8).prop_map(
        |v| {
            v.into_iter()
                .map(|(t, a)| {
                    if a {
                        Claim::actionable(t)
                    } else {
                        Claim::narrative(t)
                    }
                })
                .collect()
        },
    )
}

fn some_sentences() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(prop::sample::select(&SENTENCES[..]), 0..5)
        .prop_map(|v| v.into_iter().map(|s| format!("turn: {s}.")).collect())
}

proptest! {
    #![proptest_config(config())]

    /// The laundering rate is laundered over actionable claims; crossing
    /// succeeds exactly when nothing is fabricated and the rate is within the
    /// threshold; a refused boundary leaves the gate as it was.
    #[test]
    fn the_gate_refuses_exactly_what_it_should(
        claims in claims(),
        raw in some_sentences(),
        prior in some_sentences(),
        threshold in 0.0f64..1.0,
    ) {
        let prior = prior.join(" ");
        let mut gate = BoundaryGate::with_settings(GateSettings { laundering_threshold: threshold, ..GateSettings::default() });
        let report = gate.assess(&claims, &raw, &prior, &substring);
        let actionable = claims.iter().filter(|c| c.actionable).count();
        let laundered = report.claims.iter().filter(|r| claims[r.claim].actionable && r.reason.is_laundering()).count();
        prop_assert_eq!(report.actionable, actionable);
        prop_assert_eq!(report.laundered, laundered);
        prop_assert!((0.0..=1.0).contains(&report.laundering_rate));
        if actionable > 0 {
            prop_assert!((report.laundering_rate - laundered as f64 / actionable as f64).abs() < 1e-12);
        }
        for r in &report.claims {
            let text = &claims[r.claim].text;
            if raw.iter().any(|s| s.contains(text.as_str())) {
                prop_assert_eq!(r.status, ClaimStatus::Verified);
            }
            if prior.is_empty() {
                prop_assert_ne!(r.reason, ClaimReason::Laundered);
            }
        }
        let before = gate.clone();
        match gate.cross(&claims, &raw, &prior, &substring) {
            Ok(r) => {
                prop_assert!(!raw.is_empty());
                prop_assert!(r.laundering_rate <= threshold);
                prop_assert_eq!(gate.boundaries(), 1);
                let unverified = r.claims.iter().filter(|c| c.status == ClaimStatus::Unverified).count();
                prop_assert_eq!(gate.unverified().len(), unverified);
            }
            Err(BoundaryError::NoRawSpans) => prop_assert!(raw.is_empty()),
            Err(BoundaryError::Laundering { rate, .. }) => prop_assert!(rate > threshold),
            Err(e) => prop_assert!(false, "unexpected {e:?}"),
        }
        if gate.boundaries() == 0 {
            prop_assert_eq!(&gate, &before);
        }
    }

    /// An unverified claim stays unverified at the next boundary when only its
    /// tag supports it, and no irreversible action may rest on it.
    #[test]
    fn unverified_tags_carry_forward(claims in claims(), raw in some_sentences(), prior in some_sentences()) {
        let prior = prior.join(" ");
        let mut gate = BoundaryGate::with_settings(GateSettings { laundering_threshold: 1.0, ..GateSettings::default() });
        prop_assume!(gate.cross(&claims, &raw, &prior, &substring).is_ok());
        let tags: Vec<String> = gate.unverified().iter().map(|t| t.text.clone()).collect();
        for tag in &tags {
            prop_assert!(gate.permit_irreversible(&[tag.as_str()], &substring).is_err());
        }
        let next: Vec<Claim> = tags.iter().map(|t| Claim::actionable(t.clone())).collect();
        let report = gate.cross(&next, &["unrelated."], "", &substring);
        prop_assert!(report.is_ok());
        for r in report.unwrap().claims {
            prop_assert_eq!(r.reason, ClaimReason::CarriedForward);
            prop_assert_eq!(r.since, Some(1));
        }
    }
}

// ------------------------------------------------------------ commitment ledger

#[derive(Clone, Debug)]
enum Edit {
    Keep,
    Drop,
    Weaken,
    Strengthen,
}

fn ledger() -> impl Strategy<Value = CommitmentLedger> {
    prop::collection::vec((0usize..3, 0usize..3), 1..4).prop_map(|shape| {
        let mut l = CommitmentLedger::new();
        for (i, (why, not)) in shape.into_iter().enumerate() {
            let mut c = Commitment::new(format!("c{i}"), format!("decision {i} holds"));
            for k in 0..why {
                c = c.because(format!("reason {i}.{k} applies"));
            }
            for k in 0..not {
                c = c.rejecting(format!("option {i}.{k} rejected"));
            }
            l.commit(c).unwrap();
        }
        l
    })
}

fn edits() -> impl Strategy<Value = Vec<(Edit, bool)>> {
    prop::collection::vec(
        (
            prop_oneof![
                Just(Edit::Keep),
                Just(Edit::Drop),
                Just(Edit::Weaken),
                Just(Edit::Strengthen)
            ],
            any::<bool>(),
        ),
        10,
    )
}

/// Applies `edits` to the ledger's window (one per entry, in order), spilling
/// the entries whose flag is set; adds `extra` new ids.
fn rewrite_of(ledger: &mut CommitmentLedger, edits: &[(Edit, bool)], extra: usize) -> Rewrite {
    let window: Vec<(String, String)> = ledger
        .window()
        .into_iter()
        .map(|(i, t)| (i.to_string(), t.to_string()))
        .collect();
    let mut entries = Vec::new();
    let keep = (Edit::Keep, false);
    for (k, (id, text)) in window.into_iter().enumerate() {
        let (edit, durable) = edits.get(k).unwrap_or(&keep);
        if *durable {
            ledger.spill(&id);
        }
        match edit {
            Edit::Keep => entries.push((id, text)),
            Edit::Drop => {}
            Edit::Weaken => entries.push((id, text[..text.len() - 1].to_string())),
            Edit::Strengthen => entries.push((id, format!("{text} and more"))),
        }
    }
    for k in 0..extra {
        entries.push((format!("new{k}"), "made up".to_string()));
    }
    Rewrite { entries }
}

proptest! {
    #![proptest_config(config())]

    /// The window rewritten as itself always passes, and reads back whole.
    #[test]
    fn an_identity_rewrite_passes(ledger in ledger()) {
        let rewrite = Rewrite::parse(&ledger.window_text());
        let expected: Vec<(String, String)> = ledger.window().into_iter().map(|(i, t)| (i.to_string(), t.to_string())).collect();
        prop_assert_eq!(&rewrite.entries, &expected);
        prop_assert_eq!(ledger.validate(&rewrite, &substring), Ok(()));
    }

    /// A rewrite is refused for exactly the entries it drops or alters
    /// without a record, the ids it invents and the records it strengthens;
    /// validation changes nothing; after the named spills only the
    /// assertions and strengthenings remain.
    #[test]
    fn rewrites_may_only_weaken(mut ledger in ledger(), edits in edits(), extra in 0usize..3) {
        let rewrite = rewrite_of(&mut ledger, &edits, extra);
        let before = ledger.clone();
        let result = ledger.validate(&rewrite, &substring);
        prop_assert_eq!(&ledger, &before);
        let window: Vec<String> = ledger.window().into_iter().map(|(i, _)| i.to_string()).collect();
        let mut expect_spill = Vec::new();
        let mut expect_strong = Vec::new();
        for (k, id) in window.iter().enumerate() {
            let edit = edits.get(k).map_or(&Edit::Keep, |(e, _)| e);
            let durable = ledger.is_durable(id);
            match edit {
                Edit::Keep => {}
                Edit::Drop | Edit::Weaken if !durable => expect_spill.push(id.clone()),
                Edit::Strengthen if !durable => expect_spill.push(id.clone()),
                Edit::Strengthen => expect_strong.push(id.clone()),
                _ => {}
            }
        }
        let expect_asserted: Vec<String> = (0..extra).map(|k| format!("new{k}")).collect();
        match result {
            Ok(()) => {
                prop_assert!(expect_spill.is_empty() && expect_strong.is_empty() && expect_asserted.is_empty());
            }
            Err(refused) => {
                let spill: Vec<String> = refused.must_spill.iter().map(|s| s.id.clone()).collect();
                prop_assert_eq!(&spill, &expect_spill);
                prop_assert_eq!(&refused.strengthened, &expect_strong);
                prop_assert_eq!(&refused.asserted, &expect_asserted);
                for s in &refused.must_spill {
                    let dropped = rewrite.entries.iter().all(|(i, _)| *i != s.id);
                    prop_assert_eq!(dropped, s.change == RewriteChange::Dropped);
                }
                for id in spill {
                    ledger.spill(&id);
                }
                match ledger.validate(&rewrite, &substring) {
                    Ok(()) => prop_assert!(expect_asserted.is_empty() && expect_strong.is_empty()),
                    Err(again) => prop_assert!(again.must_spill.is_empty()),
                }
            }
        }
    }
}
