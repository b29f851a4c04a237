//! What the benchmarks share: drift-core's seedable generator (so every
//! generated session log is the same on every run and every machine), JSON
//! string literals, the pieces of tool output the generated sessions hold,
//! Claude Code's log envelope, and a benchmark group over a log.
#![allow(dead_code)]

use std::fmt::Write as _;

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use drift_session::read_transcript;

#[path = "../../../drift-core/tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

/// A benchmark group named `name` over `log`: its throughput the log's
/// bytes, `samples` samples, and a first benchmark, `read`, of the log into
/// messages.
pub fn read_group<'a>(
    c: &'a mut Criterion,
    name: &str,
    log: &str,
    samples: usize,
) -> BenchmarkGroup<'a, WallTime> {
    let mut group = c.benchmark_group(name);
    group.throughput(Throughput::Bytes(log.len() as u64));
    group.sample_size(samples);
    group.bench_function("read", |b| {
        b.iter(|| read_transcript(std::hint::black_box(log)).map(|t| t.messages.len()))
    });
    group
}

/// The services the generated sessions name.
pub const SERVICES: &[&str] = &[
    "payments-api",
    "ledger-svc",
    "checkout-web",
    "auth-gateway",
    "search-indexer",
    "billing-worker",
    "db-prod-01",
    "db-staging-01",
];

/// The directories the generated sessions name.
pub const DIRS: &[&str] = &["ledger", "payments", "auth", "search", "billing"];

/// `template` with `{svc}` (one of `services`), `{dir}` (one of [`DIRS`])
/// and `{day}` filled in: one draw each, in that order, whether the
/// template names them or not.
pub fn fill_in(template: &str, seed: &mut Rng, services: &[&str]) -> String {
    template
        .replace("{svc}", seed.pick(services))
        .replace("{dir}", seed.pick(DIRS))
        .replace("{day}", &format!("{:02}", 1 + seed.below(28)))
}

/// An operator's request: one of `asks` filled in by `fill`, and one time
/// in `one_in` one of `rules` after it, which is also returned on its own.
pub fn request(
    seed: &mut Rng,
    fill: fn(&str, &mut Rng) -> String,
    asks: &[&str],
    rules: &[&str],
    one_in: u64,
) -> (String, Option<String>) {
    let mut ask = fill(seed.pick(asks), seed);
    let rule = (seed.below(one_in) == 0).then(|| fill(seed.pick(rules), seed));
    if let Some(rule) = &rule {
        ask.push(' ');
        ask.push_str(rule);
    }
    (ask, rule)
}

/// One time in twelve, a line revealing a change freeze on one of
/// `services`.
pub fn freeze_notice(out: &mut String, seed: &mut Rng, services: &[&str]) {
    if seed.below(12) == 0 {
        let _ = writeln!(
            out,
            "{}: change freeze in effect until 2026-01-{:02}. Deploys need VP approval.",
            seed.pick(services),
            1 + seed.below(28)
        );
    }
}

/// `least` to `least + spread - 1` lines of a request log of `services`.
pub fn request_log(out: &mut String, seed: &mut Rng, services: &[&str], least: u64, spread: u64) {
    for i in 0..(least + seed.below(spread)) {
        let _ = writeln!(
            out,
            "2026-01-02T10:{:02}:{:02}Z INFO {} request id=req-{} latency={}ms status={}",
            i % 60,
            seed.below(60),
            seed.pick(services),
            seed.below(1_000_000),
            seed.below(900),
            [200, 200, 503, 429][seed.below(4) as usize]
        );
    }
}

/// A Rust code listing of `path`: `least` to `least + spread - 1` lines,
/// each `line(i, ms)` for the line's index and a number of milliseconds.
pub fn listing(
    out: &mut String,
    seed: &mut Rng,
    path: &str,
    (least, spread): (u64, u64),
    line: fn(u64, u64) -> String,
) {
    let _ = writeln!(out, "```rust\n// {path}");
    for i in 0..(least + seed.below(spread)) {
        let _ = writeln!(out, "{}", line(i, seed.below(5000)));
    }
    out.push_str("```\n");
}

/// A Rust code listing of 15 to 74 lines from one of [`DIRS`].
pub fn code_listing(out: &mut String, seed: &mut Rng) {
    let path = format!("crates/{}/src/lib.rs", seed.pick(DIRS));
    listing(out, seed, &path, (15, 60), |i, ms| {
        format!("    let delay_{i} = backoff.next(attempt).min(Duration::from_millis({ms}));")
    });
}

/// A test run of 20 to 79 tests over [`DIRS`], one in 25 failing.
pub fn test_run(out: &mut String, seed: &mut Rng) {
    for i in 0..(20 + seed.below(60)) {
        let _ = writeln!(
            out,
            "test {}::tests::case_{i} ... {}",
            seed.pick(DIRS),
            if seed.below(25) == 0 { "FAILED" } else { "ok" }
        );
    }
}

/// A Claude Code session log being written: each record in the envelope
/// of a session at `cwd` with id `session`, written by Claude Code
/// `version`, each record's parent the one before.
pub struct ClaudeLog {
    out: String,
    line: u64,
    calls: u64,
    cwd: &'static str,
    session: &'static str,
    version: &'static str,
}

impl ClaudeLog {
    pub fn new(
        capacity: usize,
        cwd: &'static str,
        session: &'static str,
        version: &'static str,
    ) -> ClaudeLog {
        ClaudeLog {
            out: String::with_capacity(capacity),
            line: 0,
            calls: 0,
            cwd,
            session,
            version,
        }
    }

    /// The log's length so far, in bytes.
    pub fn len(&self) -> usize {
        self.out.len()
    }

    /// Appends a record of type `kind`: the envelope around `fields` (JSON
    /// members, each followed by a comma).
    pub fn record(&mut self, kind: &str, fields: &str) {
        self.line += 1;
        let _ = writeln!(
            self.out,
            r#"{{"parentUuid":"u-{}","isSidechain":false,"userType":"external","cwd":"{}","sessionId":"{}","version":"{}","gitBranch":"main","type":"{kind}",{fields}"uuid":"u-{}","timestamp":"2026-01-02T10:00:00.000Z"}}"#,
            self.line - 1,
            self.cwd,
            self.session,
            self.version,
            self.line
        );
    }

    /// Appends a record of type `kind` holding `message` (a JSON object).
    pub fn message(&mut self, kind: &str, message: &str) {
        self.record(kind, &format!(r#""message":{message},"#));
    }

    /// Appends the user's message `text`.
    pub fn user(&mut self, text: &str) {
        self.message(
            "user",
            &format!(r#"{{"role":"user","content":{}}}"#, json_string(text)),
        );
    }

    /// Appends the assistant's message: `thinking` if any, `text`, then a
    /// Bash call of `command` with its `description` if any. The calls are
    /// `toolu_1`, `toolu_2`, … in the order made.
    pub fn bash_call(
        &mut self,
        thinking: Option<&str>,
        text: &str,
        command: &str,
        description: Option<&str>,
    ) {
        let thinking = thinking
            .map(|t| format!(r#"{{"type":"thinking","thinking":{}}},"#, json_string(t)))
            .unwrap_or_default();
        let description = description
            .map(|d| format!(r#","description":{}"#, json_string(d)))
            .unwrap_or_default();
        self.calls += 1;
        let call = self.calls;
        self.message(
            "assistant",
            &format!(
                r#"{{"role":"assistant","content":[{thinking}{{"type":"text","text":{}}},{{"type":"tool_use","id":"toolu_{call}","name":"Bash","input":{{"command":{}{description}}}}}]}}"#,
                json_string(text),
                json_string(command)
            ),
        );
    }

    /// Appends the result `content` of the latest tool call.
    pub fn tool_result(&mut self, content: &str) {
        let call = self.calls;
        self.message(
            "user",
            &format!(
                r#"{{"role":"user","content":[{{"tool_use_id":"toolu_{call}","type":"tool_result","content":{}}}]}}"#,
                json_string(content)
            ),
        );
    }

    /// The log.
    pub fn finish(self) -> String {
        self.out
    }
}

/// The services of [`claude_session`]: all but the databases.
const APPS: &[&str] = SERVICES.split_at(6).0;

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

fn fill(template: &str, seed: &mut Rng) -> String {
    fill_in(template, seed, APPS)
}

/// A Claude Code session log of at least `bytes` bytes (a long day: an
/// operator who asks for things and now and then states a rule, an
/// exception, a scope or a correction; an assistant that calls a tool each
/// turn; tool results of 20 to 100 log lines that sometimes reveal a
/// freeze) with a compaction at each of `marks` (byte offsets), each
/// summary keeping every third rule stated so far.
pub fn claude_session(bytes: usize, marks: &[usize]) -> String {
    let mut seed = Rng::new(0x400C_C0DE);
    let mut log = ClaudeLog::new(bytes + 16_384, "/home/dev/platform", "s-10mb", "2.1.84");
    let mut rules: Vec<String> = Vec::new();
    let mut next_mark = 0;
    while log.len() < bytes {
        if next_mark < marks.len() && log.len() >= marks[next_mark] {
            next_mark += 1;
            log.record(
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
            log.record("user", &extra);
            continue;
        }
        let (ask, rule) = request(&mut seed, fill, ASKS, RULES, 5);
        rules.extend(rule);
        log.user(&ask);
        let command = format!(
            "kubectl -n {} logs deploy/{}",
            seed.pick(DIRS),
            seed.pick(APPS)
        );
        log.bash_call(
            None,
            "Checking that now.",
            &command,
            Some("Run the next step"),
        );
        let mut output = String::new();
        freeze_notice(&mut output, &mut seed, APPS);
        request_log(&mut output, &mut seed, APPS, 20, 80);
        log.tool_result(&output);
    }
    log.finish()
}
