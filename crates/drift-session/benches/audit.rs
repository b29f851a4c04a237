//! Audit benchmarks: a generated Claude Code session of about 1 MB (user
//! rules, assistant reasoning, tool calls and long tool outputs with code,
//! logs, paths, ids and versions) against a 2 KB summary.
//!
//! - `read`: the session log into messages.
//! - `audit`: the audit of the messages against the summary.
//! - `read_and_audit`: both, as `drift audit` does.
//! - `audit_plain_text`: the same content as one plain-text message.
//!
//! And a 10 MB Claude Code session with five compactions (the hook
//! benchmark's generator, `support::claude_session`):
//!
//! - `session_10mb/audit_session`: every compaction audited, as `drift
//!   audit` does on a log.
//! - `session_10mb/read_and_audit_session`: the log read, then audited.
//! - `session_10mb/lineage`: every rule across the compactions and each
//!   summary's laundered claims, from the audit.
//! - `session_10mb/read_audit_and_lineage`: all of it, as `drift audit
//!   --lineage` does.
//!
//! `cargo bench -p drift-session --bench audit`; BENCHMARKS.md has the numbers.

use std::fmt::Write as _;
use std::hint::black_box;

mod support;
use support::{ClaudeLog, Rng, claude_session, listing, read_group};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use drift_session::read_transcript;
use drift_session::{audit, audit_session, audit_text, lineage};

const SERVICES: &[&str] = &[
    "payments-api",
    "billing-worker",
    "ledger-svc",
    "auth-gateway",
    "search-indexer",
    "checkout-web",
];
const FILES: &[&str] = &[
    "src/config/loader.rs",
    "src/net/backoff.rs",
    "src/db/query.rs",
    "crates/ledger/src/entry.rs",
    "config/pool.toml",
    "tests/integration/retry.rs",
];
const RULES: &[&str] = &[
    "Never restart {svc} without an approver on the call.",
    "Do not bump libfoo past 2.3.1 while the refactor is open.",
    "{svc} is in a change freeze until 2026-01-05.",
    "Only edit files under crates/ledger for T-{n}.",
    "Always run cargo test with --locked before pushing.",
    "Never call the payment endpoint without a dry-run flag first.",
];
const REASONS: &[&str] = &[
    "I moved the retry into {file} because the caller cannot tell a timeout from a refusal.",
    "We chose Postgres 14 for {svc} because the migration tooling requires advisory locks; MySQL rejected.",
    "Paging by 500 rows instead of a bigger timeout, because the timeout only hides the memory spike.",
    "The cache TTL is 300s so that stale prices cannot outlive a deploy of {svc}.",
];

/// Fills in `{svc}`, `{file}` and `{n}`.
fn fill(template: &str, seq: &mut Rng) -> String {
    template
        .replace("{svc}", seq.pick(SERVICES))
        .replace("{file}", seq.pick(FILES))
        .replace("{n}", &(10 + seq.below(90)).to_string())
}

/// A tool output: a log, a code listing or a test run, 1 to 4 KB.
fn tool_output(seq: &mut Rng) -> String {
    let mut out = String::new();
    match seq.below(3) {
        0 => {
            for i in 0..(20 + seq.below(40)) {
                let _ = writeln!(
                    out,
                    "2026-01-02T10:{:02}:{:02}Z INFO {} request id=req-{} latency={}ms status={} path=/v1/{}",
                    i % 60,
                    seq.below(60),
                    seq.pick(SERVICES),
                    seq.below(1_000_000),
                    seq.below(900),
                    [200, 200, 200, 503, 429][seq.below(5) as usize],
                    seq.pick(&["charges", "refunds", "ledger", "sessions"])
                );
            }
        }
        1 => {
            let file = seq.pick(FILES);
            listing(&mut out, seq, file, (15, 40), |i, ms| {
                format!(
                    "    let retry_{i} = backoff.next(attempt_{i}).min(Duration::from_millis({ms}));"
                )
            });
        }
        _ => {
            for i in 0..(20 + seq.below(30)) {
                let _ = writeln!(
                    out,
                    "test {}::tests::case_{i} ... {}",
                    seq.pick(&["parser", "ledger", "backoff", "pool"]),
                    if seq.below(20) == 0 { "FAILED" } else { "ok" }
                );
            }
            let _ = writeln!(out, "test result: ok. {} passed; 1 failed", seq.below(400));
        }
    }
    out
}

/// A Claude Code session of at least `bytes` bytes.
fn session(bytes: usize) -> String {
    let mut seq = Rng::new(0x5EED);
    let mut log = ClaudeLog::new(bytes + 8192, "/home/dev/payments", "s-1", "2.0.14");
    while log.len() < bytes {
        let rule = fill(seq.pick(RULES), &mut seq);
        let ask = format!(
            "Look at {} next: p99 is {}ms since the deploy of {}. {}",
            seq.pick(SERVICES),
            200 + seq.below(900),
            seq.pick(FILES),
            if seq.below(3) == 0 { rule.as_str() } else { "" }
        );
        log.user(&ask);
        let reason = fill(seq.pick(REASONS), &mut seq);
        let command = format!("rg -n retry {} && cargo test -p ledger", seq.pick(FILES));
        log.bash_call(Some("Check the logs first."), &reason, &command, None);
        log.tool_result(&tool_output(&mut seq));
    }
    log.finish()
}

/// A summary of the session: some rules kept, some lost, a few invented
/// details.
const SUMMARY: &str = "\
Session so far: investigating latency across payments-api, billing-worker and ledger-svc.
Rules: never restart payments-api without an approver on the call. Always run cargo test with --locked before pushing.
libfoo was upgraded to 2.4.0 to pick up the timeout fix.
The retry logic moved into src/net/retry_policy.rs; the pool settings are in config/pool.toml.
We chose Postgres 14 because the migration tooling requires advisory locks.
T-41 and T-14 are in progress; checkout-web still returns 503 for about 2% of requests.
Next: page through ledger entries 500 rows at a time and re-run tests/integration/retry.rs.
";

fn benches(c: &mut Criterion) {
    let log = session(1_000_000);
    let transcript = read_transcript(&log).expect("the generated session reads");
    let plain: String = transcript
        .messages
        .iter()
        .map(|m| m.text.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    eprintln!(
        "session: {} bytes, {} messages; as plain text: {} bytes",
        log.len(),
        transcript.messages.len(),
        plain.len()
    );
    let report = audit(&transcript, SUMMARY);
    eprintln!(
        "audit: {} rules ({} carried), {} details ({} supported), {} reasons ({} kept), {} id changes",
        report.counts.constraints,
        report.counts.constraints_carried,
        report.counts.details,
        report.counts.details_supported,
        report.counts.reasoning,
        report.counts.reasoning_kept,
        report.changed_ids.len()
    );

    let mut group = read_group(c, "audit_1mb", &log, 30);
    group.bench_function("audit", |b| {
        b.iter(|| audit(black_box(&transcript), black_box(SUMMARY)).counts)
    });
    group.bench_function("read_and_audit", |b| {
        b.iter(|| {
            let t = read_transcript(black_box(&log)).expect("reads");
            audit(&t, black_box(SUMMARY)).counts
        })
    });
    group.throughput(Throughput::Bytes(plain.len() as u64));
    group.bench_function("audit_plain_text", |b| {
        b.iter(|| audit_text(black_box(&plain), black_box(SUMMARY)).counts)
    });
    group.finish();

    let bytes = 10_000_000;
    let marks: Vec<usize> = [15, 35, 55, 75, 95]
        .iter()
        .map(|p| bytes * p / 100)
        .collect();
    let log = claude_session(bytes, &marks);
    let transcript = read_transcript(&log).expect("the generated session reads");
    let report = audit_session(&transcript);
    eprintln!(
        "session: {} bytes, {} messages, {} compactions; rules judged per compaction: {:?}",
        log.len(),
        transcript.messages.len(),
        report.compactions.len(),
        report
            .compactions
            .iter()
            .map(|c| c.rules.len())
            .collect::<Vec<_>>()
    );
    let mut group = c.benchmark_group("session_10mb");
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.sample_size(10);
    group.bench_function("audit_session", |b| {
        b.iter(|| audit_session(black_box(&transcript)).compactions.len())
    });
    group.bench_function("read_and_audit_session", |b| {
        b.iter(|| {
            let t = read_transcript(black_box(&log)).expect("reads");
            audit_session(&t).compactions.len()
        })
    });
    let audited = audit_session(&transcript);
    group.bench_function("lineage", |b| {
        b.iter(|| {
            lineage(black_box(&transcript), black_box(&audited))
                .rules
                .len()
        })
    });
    group.bench_function("read_audit_and_lineage", |b| {
        b.iter(|| {
            let t = read_transcript(black_box(&log)).expect("reads");
            let a = audit_session(&t);
            lineage(&t, &a).rules.len()
        })
    });
    group.finish();
}

criterion_group!(audit_benches, benches);
criterion_main!(audit_benches);
