//! The cues read on clauses one at a time.

use super::*;
use crate::entail::scan::{Span, tokens};

fn read(text: &str) -> Option<(RuleForm, &'static str)> {
    let t = tokens(text, Span::new(0, text.len()));
    let ctx = Ctx {
        guards: true,
        ..Ctx::default()
    };
    read_clause(&t, text, ctx, text.contains(", not ")).rule
}

#[test]
fn tables_are_sorted() {
    for table in [
        FILLERS,
        MOODS,
        FACT_CUES,
        CHANGE_NOUNS,
        ROUTED,
        WORK_NOUNS,
        REMOVALS,
        RULE_NOUNS,
        DESCRIPTIVE,
        PLAN_VERBS,
        RESOURCES,
        TOUCH,
        PLACES,
        STEPS,
        NO_IDIOMS,
    ] {
        assert!(table.windows(2).all(|w| w[0] < w[1]), "{:?}", table.first());
    }
}

#[test]
fn forms() {
    use RuleForm::*;
    for (text, form) in [
        ("Drain no more than 2 nodes at once", Some(Limit)),
        (
            "never drain a node that runs a kafka-broker pod.",
            Some(Prohibition),
        ),
        (
            "Before you cordon anything, post the node list in #ops-drain.",
            Some(Ordering),
        ),
        (
            "Run the sizing queries on billing-replica-2 only",
            Some(Scope),
        ),
        ("leave packages/payments-sdk alone", Some(Scope)),
        (
            "Stop the backfill if replication lag goes above 30 seconds",
            Some(Condition),
        ),
        ("at most one replica at a time", Some(Limit)),
        (
            "Post each node name in #prod-changes before you cordon it",
            Some(Ordering),
        ),
        (
            "Refunds above $500 require approval from a finance lead.",
            Some(Approval),
        ),
        (
            "Do NOT fail over during the 02:00\u{2013}04:00 UTC batch window.",
            Some(Window),
        ),
        ("the ticket is OPS-1412, not OPS-1421", Some(Binding)),
        ("The sessions cluster is the exception", Some(CarveOut)),
        ("Schema migrations must go through Flyway", Some(Obligation)),
        ("We never had an outage on the EU edge.", None),
        ("Only 3 pods are running on node-7 right now.", None),
        ("FYI the freeze was lifted yesterday.", None),
        ("Before the migration the orders table had 2M rows.", None),
        ("I'll read the runbook first.", None),
        ("I won't touch prod.", None),
        ("The pool is at 8 nodes.", None),
        ("Don't worry, I have the export already.", None),
        ("Freeze exceptions are tracked in CHG-7781.", None),
        ("The capacity team approved it.", None),
    ] {
        assert_eq!(read(text).map(|(f, _)| f), form, "{text}");
    }
}

#[test]
fn diagnostics() {
    assert!(diagnostic("error: --target must be one of: x86"));
    assert!(diagnostic("##[warning]Node.js 16 actions are deprecated."));
    assert!(!diagnostic("Never deploy on Fridays: the team is away."));
}
