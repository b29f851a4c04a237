//! The hook's core on a 10 MB session: what `drift hook claude-code` does
//! between reading the log's bytes and printing its answer.
//!
//! The session (deterministic: a seeded generator) is a long Claude Code
//! day: an operator who asks for things and now and then states a rule, an
//! exception, a scope or a correction; an assistant that calls a tool each
//! turn; tool results of 1 to 6 KB (logs, listings, test runs) that
//! sometimes reveal a freeze; three compactions, the last near the end,
//! each summary keeping a few of the rules.
//!
//! - `read`: the log into messages.
//! - `audit_latest`: the latest compaction audited.
//! - `restate`: its losses, restated within 1,500 tokens.
//! - `hook`: all three from the text, as the hook runs them.
//!
//! `cargo bench -p drift-session --bench hook`; BENCHMARKS.md has the numbers.
//! With `HOOK_BENCH_LOG=path` set, the generated log is also written there.

use std::hint::black_box;

mod support;
use support::{claude_session, read_group};

use criterion::{Criterion, criterion_group, criterion_main};
use drift_session::{
    audit::audit_latest_compaction,
    read_transcript, restate,
    restate::{DEFAULT_RESTATE_TOKENS, losses},
};

fn benches(c: &mut Criterion) {
    let bytes = 10_000_000;
    let log = claude_session(bytes, &[bytes * 3 / 10, bytes * 6 / 10, bytes * 95 / 100]);
    // For timing the `drift` process on the same log (BENCHMARKS.md).
    if let Some(path) = std::env::var_os("HOOK_BENCH_LOG") {
        std::fs::write(&path, &log).expect("HOOK_BENCH_LOG is writable");
    }
    let transcript = read_transcript(&log).expect("the generated session reads");
    let audit = audit_latest_compaction(&transcript).expect("a compaction");
    let lost = losses(&transcript, &audit);
    let answer =
        restate(&transcript, &audit, &lost, DEFAULT_RESTATE_TOKENS).expect("something to restate");
    eprintln!(
        "session: {} bytes, {} messages, {} compactions; the latest at line {}: {} rules judged, {} lost; restated {}, left out {} ({} characters)",
        log.len(),
        transcript.messages.len(),
        transcript.compactions.len(),
        audit.record,
        audit.rules.len(),
        lost.len(),
        answer.restated,
        answer.left_out,
        answer.text.chars().count()
    );

    let mut group = read_group(c, "hook_10mb", &log, 10);
    group.bench_function("audit_latest", |b| {
        b.iter(|| audit_latest_compaction(black_box(&transcript)).map(|a| a.rules.len()))
    });
    group.bench_function("restate", |b| {
        b.iter(|| {
            let lost = losses(black_box(&transcript), &audit);
            restate(&transcript, &audit, &lost, DEFAULT_RESTATE_TOKENS).map(|r| r.restated)
        })
    });
    group.bench_function("hook", |b| {
        b.iter(|| {
            let t = read_transcript(black_box(&log)).ok()?;
            let audit = audit_latest_compaction(&t)?;
            let lost = losses(&t, &audit);
            restate(&t, &audit, &lost, DEFAULT_RESTATE_TOKENS).map(|r| r.text.len())
        })
    });
    group.finish();
}

criterion_group!(hook_benches, benches);
criterion_main!(hook_benches);
