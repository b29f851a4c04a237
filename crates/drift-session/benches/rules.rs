//! Rule-finder benchmarks: about 10 MB of generated session texts, each
//! read with the source it came from.
//!
//! The session (deterministic: a seeded generator) mixes what a long
//! working day holds: operator messages that ask for things and, one in
//! three, state a rule of some form; assistant text that plans and
//! sometimes quotes a rule back; tool results of 1 to 6 KB — mostly logs,
//! code listings and test runs, and one in five a `cat -n` numbered file,
//! an MCP result as JSON or a markdown table with rules in it; AGENTS.md as
//! Codex injects it; and, every so often, a compaction summary in Claude
//! Code's envelope.
//!
//! - `find_rules`: every message through [`find_rules`].
//! - `rule_book`: the same messages into a [`RuleBook`] (one rule per
//!   text, every place it appeared).
//!
//! `cargo bench -p drift-session --bench rules`; BENCHMARKS.md has the
//! numbers.

use std::fmt::Write as _;
use std::hint::black_box;

mod support;
use support::{DIRS, Rng, SERVICES, json_string};
use support::{code_listing, request, request_log, test_run};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use drift_session::{RuleBook, Source, find_rules};

const RULES: &[&str] = &[
    "Never restart {svc} without an approver on the call.",
    "Drain no more than {n} nodes at once, and never drain a node that runs a kafka-broker pod.",
    "Post each node name in #prod-changes before you cordon it.",
    "Run the sizing queries on {svc} only.",
    "Leave crates/{dir} alone; it is vendored from another team.",
    "Stop the backfill if replication lag goes above {n}0 seconds.",
    "Deploys to {svc} need sign-off from the on-call lead.",
    "Changes are allowed only between 07:00 and 19:00 UTC.",
    "The ticket is OPS-14{n}, not OPS-41{n}.",
    "Correction: the freeze on {svc} ends on 2026-02-{day}, not 2026-01-{day}.",
    "{svc} is the exception: it may be restarted during the Sunday window.",
    "Keep changes inside crates/{dir} unless the task says otherwise.",
];

const ASKS: &[&str] = &[
    "Look at the p99 latency of {svc} next.",
    "Why does {svc} return 503 for some requests?",
    "Can you check what changed in crates/{dir} yesterday?",
    "Summarise the failing tests for {svc}.",
    "The pool is at {n} nodes right now.",
];

const PLANS: &[&str] = &[
    "I'll read the runbook first, then check {svc}.",
    "Checking the logs of {svc} now.",
    "I won't touch {svc} until you confirm.",
    "To confirm the constraint: \"Never restart {svc} without an approver on the call.\"",
    "The build of crates/{dir} passed; next I'll open a draft PR.",
];

fn fill(template: &str, seed: &mut Rng) -> String {
    template
        .replace("{svc}", seed.pick(SERVICES))
        .replace("{dir}", seed.pick(DIRS))
        .replace("{n}", &format!("{}", 1 + seed.below(8)))
        .replace("{day}", &format!("{:02}", 1 + seed.below(28)))
}

/// A tool result: a log, a code listing, a test run, a numbered file read,
/// an MCP result or a table; 1 to 6 KB.
fn tool_result(seed: &mut Rng) -> String {
    let mut out = String::new();
    // Mostly logs, code and test runs, as in a real session; now and then
    // a file, a ticket or a table with rules in it.
    let kind = match seed.below(50) {
        0..15 => 0,
        15..28 => 1,
        28..41 => 2,
        41..45 => 3,
        45..48 => 4,
        _ => 5,
    };
    match kind {
        0 => request_log(&mut out, seed, SERVICES, 15, 60),
        1 => code_listing(&mut out, seed),
        2 => test_run(&mut out, seed),
        3 => {
            // A runbook read with `cat -n` numbering.
            for i in 1..(20 + seed.below(40)) {
                let line = if seed.below(4) == 0 {
                    fill(seed.pick(RULES), seed)
                } else {
                    format!(
                        "Step {i}: check the dashboard of {} and note the error rate.",
                        seed.pick(SERVICES)
                    )
                };
                let _ = writeln!(out, "{i:>6}\u{2192}- {line}");
            }
        }
        4 => {
            // An MCP result: a ticket as JSON.
            let mut body = String::new();
            for _ in 0..(4 + seed.below(12)) {
                let line = if seed.below(3) == 0 {
                    fill(seed.pick(RULES), seed)
                } else {
                    fill(seed.pick(ASKS), seed)
                };
                body.push_str(&line);
                body.push('\n');
            }
            let _ = write!(
                out,
                "{{\"key\":\"OPS-{}\",\"fields\":{{\"summary\":\"Rotate credentials\",\"description\":{}}}}}",
                seed.below(10_000),
                json_string(&body)
            );
        }
        _ => {
            out.push_str("| service | status | notes |\n|---|---|---|\n");
            for _ in 0..(10 + seed.below(40)) {
                let _ = writeln!(
                    out,
                    "| {} | {} | {} |",
                    seed.pick(SERVICES),
                    if seed.below(3) == 0 {
                        "frozen until 2026-12-05"
                    } else {
                        "open"
                    },
                    if seed.below(4) == 0 {
                        "hotfixes need VP approval"
                    } else {
                        ""
                    }
                );
            }
        }
    }
    out
}

/// A compaction summary in Claude Code's envelope.
fn summary(seed: &mut Rng) -> String {
    let mut out = String::from(
        "This session is being continued from a previous conversation that ran out of context. The conversation is summarized below:\nSummary:\n1. Primary Request and Intent: ",
    );
    for _ in 0..(3 + seed.below(6)) {
        out.push_str("The user said: ");
        out.push_str(&fill(seed.pick(RULES), seed));
        out.push('\n');
    }
    out.push_str("Please continue the conversation from where we left it off without asking the user any further questions.\n");
    out
}

const AGENTS: &str = "# AGENTS.md instructions for /srv/platform\n\n<INSTRUCTIONS>\n- Use pnpm, never npm or yarn.\n- Keep changes inside services/auth unless the task says otherwise.\n- Run `pnpm -w lint` before every commit.\n- No force-push to main.\n</INSTRUCTIONS>";

/// The messages of a session of at least `bytes` bytes, each with its
/// source.
fn session(bytes: usize) -> Vec<(String, Source)> {
    let mut seed = Rng::new(0x5EED_2013);
    let mut out = Vec::new();
    let mut total = 0;
    let push = |out: &mut Vec<(String, Source)>, text: String, source: Source| {
        let n = text.len();
        out.push((text, source));
        n
    };
    while total < bytes {
        if seed.below(40) == 0 {
            total += push(&mut out, AGENTS.to_string(), Source::ProjectFile);
        }
        let (ask, _) = request(&mut seed, fill, ASKS, RULES, 3);
        total += push(&mut out, ask, Source::Chat);
        total += push(
            &mut out,
            fill(seed.pick(PLANS), &mut seed),
            Source::Assistant,
        );
        total += push(&mut out, tool_result(&mut seed), Source::ToolOutput);
        if seed.below(60) == 0 {
            total += push(&mut out, summary(&mut seed), Source::Summary);
        }
    }
    out
}

fn benches(c: &mut Criterion) {
    let messages = session(10_000_000);
    let bytes: usize = messages.iter().map(|(t, _)| t.len()).sum();
    let found: usize = messages.iter().map(|(t, s)| find_rules(t, *s).len()).sum();
    let mut book = RuleBook::new();
    for (i, (t, s)) in messages.iter().enumerate() {
        book.add(i, t, *s);
    }
    eprintln!(
        "session: {bytes} bytes, {} messages; {found} rule clauses, {} distinct rules",
        messages.len(),
        book.len()
    );

    let mut group = c.benchmark_group("rules_10mb");
    group.throughput(Throughput::Bytes(bytes as u64));
    group.sample_size(10);
    group.bench_function("find_rules", |b| {
        b.iter(|| {
            messages
                .iter()
                .map(|(t, s)| find_rules(black_box(t), *s).len())
                .sum::<usize>()
        })
    });
    group.bench_function("rule_book", |b| {
        b.iter(|| {
            let mut book = RuleBook::new();
            for (i, (t, s)) in messages.iter().enumerate() {
                book.add(i, black_box(t), *s);
            }
            book.len()
        })
    });
    group.finish();
}

criterion_group!(rules_benches, benches);
criterion_main!(rules_benches);
