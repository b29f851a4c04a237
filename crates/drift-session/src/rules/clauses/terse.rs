//! Terse answers ("Tests: passing", "Limit: 3") read as rules or as the
//! state they report.

use super::*;

/// Labels of a terse answer that report a state ("Breaking changes: no",
/// "Tests: passing"), not what the agent may do.
pub(super) const TERSE_STATE: &[&str] = &[
    "blocker",
    "blockers",
    "breaking",
    "ci",
    "deployed",
    "done",
    "errors",
    "failed",
    "failing",
    "issues",
    "merged",
    "needed",
    "open",
    "passing",
    "ready",
    "regressions",
    "required",
    "status",
    "tests",
    "warnings",
];

/// Labels whose value is a bound ("Budget: $200", "Max replicas: 5").
pub(super) const LIMIT_LABELS: &[&str] = &[
    "budget", "cap", "ceiling", "limit", "max", "maximum", "min", "minimum", "quota",
];

/// A terse answer about an action: "force-push: no", "wildcard purges —
/// never" (a prohibition), "the billing schema: read-only" (a scope). In a
/// tool's output only a label that asks for leave counts ("downtime
/// allowed: no"); the model's own text gives none.
pub(super) fn terse(s: &str, source: Source) -> Option<(RuleForm, &'static str)> {
    let (label, answer) = s
        .split_once(": ")
        .or_else(|| s.split_once(" \u{2014} "))
        .or_else(|| s.split_once(" \u{2013} "))
        .or_else(|| s.split_once(" - "))?;
    let label = label
        .trim()
        .trim_matches(|c: char| matches!(c, '*' | '`' | '_'));
    let answer = answer
        .trim()
        .trim_end_matches(['.', '!', '*', ')'])
        .trim()
        .to_ascii_lowercase();
    let words = label.split_whitespace().count();
    if words == 0 || words > 4 || !label.bytes().any(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let lower = label.to_ascii_lowercase();
    let form = match answer.as_str() {
        "no" | "never" | "not allowed" | "forbidden" | "not ok" | "no way" => {
            (RuleForm::Prohibition, "no")
        }
        "read-only" | "off-limits" | "hands off" | "don't touch" | "do not touch" => {
            (RuleForm::Scope, "read-only")
        }
        // A bound or a window given as a value: "Budget: $200 a month",
        // "Max replicas: 5", "Change window: Sat 22:00–02:00 UTC".
        _ => {
            let last = lower.rsplit(' ').next().unwrap_or("");
            let short = answer.split_whitespace().count() <= 8;
            let digit = answer.bytes().any(|b| b.is_ascii_digit());
            let bound = super::super::words::in_table(LIMIT_LABELS, last)
                || lower.starts_with("max ")
                || lower.starts_with("maximum ");
            let timed = super::super::words::has_clock(&answer)
                || answer
                    .split(|c: char| !c.is_ascii_alphabetic())
                    .any(super::super::words::is_time_word);
            let configured = source == Source::ToolOutput && last != "budget";
            if bound && digit && short && !configured && source != Source::Assistant {
                return Some((RuleForm::Limit, "max"));
            }
            if (last == "window" || last == "hours")
                && timed
                && short
                && source != Source::Assistant
            {
                return Some((RuleForm::Window, "window"));
            }
            return None;
        }
    };
    let state = lower
        .split(|c: char| !c.is_ascii_alphabetic())
        .any(|w| super::super::words::in_table(TERSE_STATE, w));
    let leave = ["allowed", "permitted", "may", "can", "ok"]
        .iter()
        .any(|w| lower.split_whitespace().any(|x| x == *w));
    let ok = match source {
        Source::Assistant => false,
        Source::ToolOutput => leave,
        _ => true,
    };
    (ok && !state).then_some(form)
}
