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

use std::fmt::Write as _;
use std::hint::black_box;

mod support;
use support::{Rng, json_string};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use drift_session::read_transcript;
use drift_session::{ImportOptions, import, import_text};

const SERVICES: &[&str] = &[
    "payments-api",
    "ledger-svc",
    "checkout-web",
    "auth-gateway",
    "search-indexer",
    "billing-worker",
    "db-prod-01",
    "db-staging-01",
];

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

const DIRS: &[&str] = &["ledger", "payments", "auth", "search", "billing"];

fn fill(template: &str, seed: &mut Rng) -> String {
    template
        .replace("{svc}", seed.pick(SERVICES))
        .replace("{dir}", seed.pick(DIRS))
        .replace("{day}", &format!("{:02}", 1 + seed.below(28)))
}

/// A tool result: a log, a code listing or a test run, 1 to 6 KB; now and
/// then it reveals a freeze.
fn tool_result(seed: &mut Rng) -> String {
    let mut out = String::new();
    if seed.below(12) == 0 {
        let _ = writeln!(
            out,
            "{}: change freeze in effect until 2026-01-{:02}. Deploys need VP approval.",
            seed.pick(SERVICES),
            1 + seed.below(28)
        );
    }
    match seed.below(3) {
        0 => {
            for i in 0..(15 + seed.below(60)) {
                let _ = writeln!(
                    out,
                    "2026-01-02T10:{:02}:{:02}Z INFO {} request id=req-{} latency={}ms status={}",
                    i % 60,
                    seed.below(60),
                    seed.pick(SERVICES),
                    seed.below(1_000_000),
                    seed.below(900),
                    [200, 200, 503, 429][seed.below(4) as usize]
                );
            }
        }
        1 => {
            let _ = writeln!(out, "```rust\n// crates/{}/src/lib.rs", seed.pick(DIRS));
            for i in 0..(15 + seed.below(60)) {
                let _ = writeln!(
                    out,
                    "    let delay_{i} = backoff.next(attempt).min(Duration::from_millis({}));",
                    seed.below(5000)
                );
            }
            out.push_str("```\n");
        }
        _ => {
            for i in 0..(20 + seed.below(60)) {
                let _ = writeln!(
                    out,
                    "test {}::tests::case_{i} ... {}",
                    seed.pick(DIRS),
                    if seed.below(25) == 0 { "FAILED" } else { "ok" }
                );
            }
        }
    }
    out
}

/// A Claude Code session log of at least `bytes` bytes.
fn session(bytes: usize) -> String {
    let mut seed = Rng::new(0x1A7E_57ED);
    let mut out = String::with_capacity(bytes + 16_384);
    let mut line = 0u64;
    let mut push = |out: &mut String, kind: &str, message: String| {
        line += 1;
        let _ = writeln!(
            out,
            r#"{{"parentUuid":"u-{}","isSidechain":false,"userType":"external","cwd":"/home/dev/platform","sessionId":"s-10mb","version":"2.0.14","gitBranch":"main","type":"{kind}","message":{message},"uuid":"u-{line}","timestamp":"2026-01-02T10:00:00.000Z"}}"#,
            line.saturating_sub(1)
        );
    };
    let mut call = 0u64;
    while out.len() < bytes {
        let mut ask = fill(seed.pick(ASKS), &mut seed);
        if seed.below(4) == 0 {
            ask.push(' ');
            ask.push_str(&fill(seed.pick(OPERATOR), &mut seed));
        }
        push(
            &mut out,
            "user",
            format!(r#"{{"role":"user","content":{}}}"#, json_string(&ask)),
        );
        call += 1;
        let command = if seed.below(6) == 0 {
            fill(seed.pick(CALLS), &mut seed)
        } else {
            fill(seed.pick(QUIET), &mut seed)
        };
        push(
            &mut out,
            "assistant",
            format!(
                r#"{{"role":"assistant","content":[{{"type":"thinking","thinking":"I must never skip the logs."}},{{"type":"text","text":"Checking that now."}},{{"type":"tool_use","id":"toolu_{call}","name":"Bash","input":{{"command":{},"description":"Run the next step"}}}}]}}"#,
                json_string(&command)
            ),
        );
        push(
            &mut out,
            "user",
            format!(
                r#"{{"role":"user","content":[{{"tool_use_id":"toolu_{call}","type":"tool_result","content":{}}}]}}"#,
                json_string(&tool_result(&mut seed))
            ),
        );
    }
    out
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

    let mut group = c.benchmark_group("import_10mb");
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.sample_size(10);
    group.bench_function("read", |b| {
        b.iter(|| read_transcript(black_box(&log)).map(|t| t.messages.len()))
    });
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
