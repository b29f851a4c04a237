//! The clause finder's unit tests.

use super::*;

/// The documents of the development corpus.
fn documents() -> Vec<&'static str> {
    let corpus = include_str!("../../../tests/rules/rules.txt");
    let mut out = Vec::new();
    let mut rest = corpus;
    while let Some(at) = rest.find("\n=== ") {
        rest = &rest[at + 1..];
        let start = rest.find('\n').map_or(rest.len(), |n| n + 1);
        let end = rest.find("\n--- labels").unwrap_or(rest.len());
        if start <= end {
            out.push(&rest[start..end]);
        }
    }
    out
}

/// Sentences whose cues the development corpus does not hold.
const MORE: &[&str] = &[
    "Stick to the packages/api folder. Under no circumstances push to main.",
    "Changes to the OpenAPI spec need a +1 from Lena. It's fine to rebase feature branches.",
    "Prefer incremental models over full refreshes. Do not join more than 5 tables in one query.",
    "Do not restart a broker while an under-replicated partition exists.",
    "Deploys to production are blocked until 2026-06-02. Reindexing is only allowed at night.",
    "Keep the APK under 40 MB. Keep the learning rate below 3e-4.",
    "Wait until compliance signs off before running it against production.",
    "Maintenance is permitted on Sundays between 01:00 and 05:00 local time.",
    "Do it one POP at a time and wait 10 minutes between POPs.",
    "Token TTLs may not be longer than 1 hour. No deploys after 4pm.",
    "Rotating the root token requires two keyholders to be present.",
    "Actually, make that 60 days for home directories. I said X earlier but I meant Y.",
    "Offboarding: disable the LDAP account first, then revoke the VPN certificate.",
    "Never grant premium currency to player accounts directly \u{2014} use the compensation tool.",
    "Events can only go live on Thursdays. Up to 5,000 gems per compensation without sign-off.",
    "| cluster | owner | agent may change? |\n| prod-eu1 | EU SRE | no |",
    "The user said to cap each API key at 100 requests per minute; they asked that no macro be published without review.",
    "Please save a checkpoint every 500 steps. Feel free to retry flaky tests.",
    "You are not allowed to modify BGP sessions. Dropping tables is strictly forbidden.",
    "Get a thumbs-up from Oskar and the go-ahead from Mira; the freezer is full; frozen until Monday.",
];

#[test]
fn a_skill_s_steps_are_not_its_rules() {
    let skill = "# Deploy helper\n\n## Steps\n\n1. Read the release notes\n2. Build the image with the release tag\n3. Save state\n\n**Smoke-test the canary first.** Then promote it.\n\nUse `helm diff` for the preview.\nNever deploy on Fridays.\n禁止直接修改生产配置。\n\n## State\n\n{\n  \"note\": \"Never retried after the last failure\"\n}\n";
    let found: Vec<&str> = find(skill, Source::Skill)
        .iter()
        .map(|r| r.span.of(skill))
        .collect();
    assert_eq!(
        found,
        [
            "**Smoke-test the canary first.**",
            "Then promote it.",
            "Use `helm diff` for the preview.",
            "Never deploy on Fridays.",
            "禁止直接修改生产配置。",
        ]
    );
    let agents = "When this file and `POLICY.md` conflict, `POLICY.md` governs.";
    assert_eq!(find(agents, Source::ProjectFile).len(), 1);
    assert!(find("The mayor governs the city.", Source::Chat).is_empty());
    // The same steps in a project file are its instructions.
    assert!(find(skill, Source::ProjectFile).len() > found.len());
}

#[test]
fn tables_are_sorted() {
    for table in [TERSE_STATE, MODALS, EXCEPTION_LABELS, LIMIT_LABELS] {
        assert!(table.windows(2).all(|w| w[0] < w[1]), "{:?}", table.first());
    }
}

#[test]
fn the_quick_filter_changes_nothing() {
    let mut docs = documents();
    assert!(docs.len() > 80);
    docs.extend(MORE);
    for doc in docs {
        for source in Source::ALL {
            assert_eq!(
                find_with(doc, source, true),
                find_with(doc, source, false),
                "{source:?}: {doc}"
            );
        }
    }
}
