//! Import benchmarks: a generated Claude Code session of about 10 MB
//! imported as a scenario.
//!
//! The session (deterministic: a seeded generator) is what a long working
//! day looks like: an operator who asks for things and now and then states
//! a rule, an exception, a scope or a correction; an assistant that explains
//! and calls tools, some of them consequential (restarts, deploys, `rm -rf`,
//! force-pushes, migrations, `DROP TABLE`) and most not; tool results of 1
//! to 6 KB (logs, code listings, test runs) that sometimes reveal a freeze.
//!
//! - `read`: the session log into messages.
//! - `import`: the messages into a scenario and its guesses.
//! - `import_text`: both, as `drift import` does.
//!
//! `cargo bench -p drift-core --bench import`; BENCHMARKS.md has the numbers.

use std::hint::black_box;

mod support;
use support::{ClaudeLog, Rng, SERVICES, read_group};
use support::{code_listing, fill_in, freeze_notice, request, request_log, test_run};

use criterion::{Criterion, criterion_group, criterion_main};
use drift_session::read_transcript;
use drift_session::{ImportOptions, import, import_text};

const OPERATOR: &[&str] = &[
    "Never restart {svc} without an approver on the call.",
    "Do not touch {svc} until the incident review is done.",
    "You may restart {svc} during the Sunday maintenance window.",
    "Only edit files under crates/{dir}.",
    "Correction: the freeze on {svc} ends on 2026-02-{day}, not 2026-01-{day}.",
    "Work is limited to the {dir} namespace today.",
    "Always run the integration suite before a deploy of {svc}.",
];

const ASKS: &[&str] = &[
    "Look at the p99 latency of {svc} next.",
    "Why does {svc} return 503 for some requests?",
    "Can you check what changed in crates/{dir} yesterday?",
    "Summarise the failing tests for {svc}.",
];

const CALLS: &[&str] = &[
    "kubectl -n {dir} rollout restart deployment/{svc}",
    "./scripts/deploy.sh {svc} --env staging",
    "rm -rf target/{dir}-fixtures",
    "git push --force origin feat/{dir}-retry",
    "bin/rails db:migrate VERSION=2026{day}",
    "psql -h {svc} -c 'DROP TABLE tmp_{dir}_stats;'",
];

const QUIET: &[&str] = &[
    "rg -n retry crates/{dir}/src",
    "cargo test -p {dir} --locked",
    "kubectl -n {dir} get pods",
    "git log --oneline -20 -- crates/{dir}",
    "cat config/{dir}.toml",
];

fn fill(template: &str, seed: &mut Rng) -> String {
    fill_in(template, seed, SERVICES)
}

/// A tool result: a log, a code listing or a test run, 1 to 6 KB; now and
/// then it reveals a freeze.
fn tool_result(seed: &mut Rng) -> String {
    let mut out = String::new();
    freeze_notice(&mut out, seed, SERVICES);
    match seed.below(3) {
        0 => request_log(&mut out, seed, SERVICES, 15, 60),
        1 => code_listing(&mut out, seed),
        _ => test_run(&mut out, seed),
    }
    out
}

/// A Claude Code session log of at least `bytes` bytes.
fn session(bytes: usize) -> String {
    let mut seed = Rng::new(0x1A7E_57ED);
    let mut log = ClaudeLog::new(bytes + 16_384, "/home/dev/platform", "s-10mb", "2.0.14");
    while log.len() < bytes {
        let (ask, _) = request(&mut seed, fill, ASKS, OPERATOR, 4);
        log.user(&ask);
        let command = if seed.below(6) == 0 {
            fill(seed.pick(CALLS), &mut seed)
        } else {
            fill(seed.pick(QUIET), &mut seed)
        };
        log.bash_call(
            Some("I must never skip the logs."),
            "Checking that now.",
            &command,
            Some("Run the next step"),
        );
        log.tool_result(&tool_result(&mut seed));
    }
    log.finish()
}

fn benches(c: &mut Criterion) {
    let log = session(10_000_000);
    let transcript = read_transcript(&log).expect("the generated session reads");
    let options = ImportOptions::default();
    let imported = import(&transcript, &options);
    imported
        .scenario
        .validate()
        .expect("the imported scenario validates");
    let governed: usize = imported
        .scenario
        .actions
        .iter()
        .map(|a| a.governed_by.len())
        .sum();
    eprintln!(
        "session: {} bytes, {} messages; scenario: {} turns, {} facts, {} actions ({} governing links), {} skipped",
        log.len(),
        transcript.messages.len(),
        imported.scenario.harness.turns,
        imported.scenario.facts.len(),
        imported.scenario.actions.len(),
        governed,
        imported.skipped.len()
    );

    let mut group = read_group(c, "import_10mb", &log, 10);
    group.bench_function("import", |b| {
        b.iter(|| {
            import(black_box(&transcript), &options)
                .scenario
                .facts
                .len()
        })
    });
    group.bench_function("import_text", |b| {
        b.iter(|| import_text(black_box(&log), &options).map(|i| i.scenario.facts.len()))
    });
    group.finish();
}

criterion_group!(import_benches, benches);
criterion_main!(import_benches);
