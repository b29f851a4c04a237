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

use std::fmt::Write as _;
use std::hint::black_box;

mod support;
use support::{Rng, json_string};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use drift_session::{
    DEFAULT_RESTATE_TOKENS, audit_latest_compaction, losses, read_transcript, restate,
};

const SERVICES: &[&str] = &[
    "payments-api",
    "ledger-svc",
    "checkout-web",
    "auth-gateway",
    "search-indexer",
    "billing-worker",
];

const RULES: &[&str] = &[
    "Never restart {svc} without an approver on the call.",
    "Do not touch {svc} until the incident review is done.",
    "You may restart {svc} during the Sunday maintenance window.",
    "Only edit files under crates/{dir}.",
    "Correction: the freeze on {svc} ends on 2026-02-{day}, not 2026-01-{day}.",
    "Always run the integration suite before a deploy of {svc}.",
];

const ASKS: &[&str] = &[
    "Look at the p99 latency of {svc} next.",
    "Why does {svc} return 503 for some requests?",
    "Can you check what changed in crates/{dir} yesterday?",
];

const DIRS: &[&str] = &["ledger", "payments", "auth", "search", "billing"];

fn fill(template: &str, seed: &mut Rng) -> String {
    template
        .replace("{svc}", seed.pick(SERVICES))
        .replace("{dir}", seed.pick(DIRS))
        .replace("{day}", &format!("{:02}", 1 + seed.below(28)))
}

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
    for i in 0..(20 + seed.below(80)) {
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
    out
}

/// Appends one line of a Claude Code log: its envelope around `extra`.
fn record(out: &mut String, line: &mut u64, kind: &str, extra: &str) {
    *line += 1;
    let _ = writeln!(
        out,
        r#"{{"parentUuid":"u-{}","isSidechain":false,"userType":"external","cwd":"/home/dev/platform","sessionId":"s-10mb","version":"2.1.84","gitBranch":"main","type":"{kind}",{extra}"uuid":"u-{}","timestamp":"2026-01-02T10:00:00.000Z"}}"#,
        *line - 1,
        *line
    );
}

/// A Claude Code session log of at least `bytes` bytes with three
/// compactions, the last at about 95% of it.
fn session(bytes: usize) -> String {
    let mut seed = Rng::new(0x400C_C0DE);
    let mut out = String::with_capacity(bytes + 16_384);
    let mut line = 0u64;
    let mut rules: Vec<String> = Vec::new();
    let marks = [bytes * 3 / 10, bytes * 6 / 10, bytes * 95 / 100];
    let mut next_mark = 0;
    let mut call = 0u64;
    while out.len() < bytes {
        if next_mark < marks.len() && out.len() >= marks[next_mark] {
            next_mark += 1;
            record(
                &mut out,
                &mut line,
                "system",
                r#""subtype":"compact_boundary","content":"Conversation compacted","compactMetadata":{"trigger":"auto","preTokens":167000},"#,
            );
            // The summary keeps every third rule.
            let kept: Vec<&str> = rules.iter().step_by(3).map(String::as_str).collect();
            let summary = format!(
                "This session is being continued from a previous conversation that ran out of context. The summary below covers the earlier portion of the conversation.\n\nSummary:\n1. Primary Request and Intent: keep the services healthy.\n2. Constraints:\n- {}",
                kept.join("\n- ")
            );
            let extra = format!(
                r#""message":{{"role":"user","content":{}}},"isCompactSummary":true,"isVisibleInTranscriptOnly":true,"#,
                json_string(&summary)
            );
            record(&mut out, &mut line, "user", &extra);
            continue;
        }
        let mut ask = fill(seed.pick(ASKS), &mut seed);
        if seed.below(5) == 0 {
            let rule = fill(seed.pick(RULES), &mut seed);
            ask.push(' ');
            ask.push_str(&rule);
            rules.push(rule);
        }
        let extra = format!(
            r#""message":{{"role":"user","content":{}}},"#,
            json_string(&ask)
        );
        record(&mut out, &mut line, "user", &extra);
        call += 1;
        let command = format!(
            "kubectl -n {} logs deploy/{}",
            seed.pick(DIRS),
            seed.pick(SERVICES)
        );
        let extra = format!(
            r#""message":{{"role":"assistant","content":[{{"type":"text","text":"Checking that now."}},{{"type":"tool_use","id":"toolu_{call}","name":"Bash","input":{{"command":{},"description":"Run the next step"}}}}]}},"#,
            json_string(&command)
        );
        record(&mut out, &mut line, "assistant", &extra);
        let extra = format!(
            r#""message":{{"role":"user","content":[{{"tool_use_id":"toolu_{call}","type":"tool_result","content":{}}}]}},"#,
            json_string(&tool_result(&mut seed))
        );
        record(&mut out, &mut line, "user", &extra);
    }
    out
}

fn benches(c: &mut Criterion) {
    let log = session(10_000_000);
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

    let mut group = c.benchmark_group("hook_10mb");
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.sample_size(10);
    group.bench_function("read", |b| {
        b.iter(|| read_transcript(black_box(&log)).map(|t| t.messages.len()))
    });
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
