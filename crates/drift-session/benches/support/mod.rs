//! What the benchmarks share: drift-core's seedable generator (so every
//! generated session log is the same on every run and every machine), and
//! JSON string literals for the logs they write.
#![allow(dead_code)]

use std::fmt::Write as _;

#[path = "../../../drift-core/tests/support/rng.rs"]
mod rng;
pub use rng::Rng;

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    serde_json::Value::from(s).to_string()
}

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

/// A Claude Code session log of at least `bytes` bytes (a long day: an
/// operator who asks for things and now and then states a rule, an
/// exception, a scope or a correction; an assistant that calls a tool each
/// turn; tool results of 20 to 100 log lines that sometimes reveal a
/// freeze) with a compaction at each of `marks` (byte offsets), each
/// summary keeping every third rule stated so far.
pub fn claude_session(bytes: usize, marks: &[usize]) -> String {
    let mut seed = Rng::new(0x400C_C0DE);
    let mut out = String::with_capacity(bytes + 16_384);
    let mut line = 0u64;
    let mut rules: Vec<String> = Vec::new();
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
