//! `drift tipping FILE|ID [--policy ID] [--format text|json]`: for each
//! action, the smallest change that flips its outcome.
//!
//! The numbers come from `drift_core::tipping`, which re-runs the engine to
//! check every one; this file only words them. In text, a retention value is
//! rounded to four decimals towards the side where the outcome has changed
//! (up for a raise, down for a lower bound), so the printed value itself
//! flips it; JSON carries the exact values.

use std::fmt::Write as _;

use drift_core::{
    ActionTipping, FactFix, Flip, Lever, Method, Outcome, RETENTION_TOLERANCE, RetentionTip,
    Scenario, WindowTip, thousands, tipping_points,
};

use crate::report::{json_string, policy_name};

/// Computes the tipping points and renders them; an error is a message for
/// exit code 2.
pub fn command(scenario: &Scenario, json: bool) -> Result<String, String> {
    let tips = tipping_points(scenario).map_err(|e| e.to_string())?;
    Ok(if json {
        to_json(scenario, &tips)
    } else {
        text(scenario, &tips)
    })
}

/// `x` to four decimals, rounded up or down (0 and 1 as they are).
fn four(x: f64, up: bool) -> String {
    if x == 0.0 || x == 1.0 {
        return format!("{x}");
    }
    let scaled = x * 1e4;
    let r = if up { scaled.ceil() } else { scaled.floor() };
    format!("{:.4}", r / 1e4)
}

fn retention_line(t: &RetentionTip) -> String {
    let mut parts = Vec::new();
    // A value to raise to is rounded up, one to lower below rounded down.
    for (flip, word, up) in [(t.raise, "at", true), (t.lower, "below", false)] {
        if let Some(f) = flip {
            let at = four(f.at, up);
            parts.push(format!("{} {word} {at}{}", f.outcome.label(), approx(&f)));
        }
    }
    let what = if parts.is_empty() {
        "no value in [0, 1] changes it".to_string()
    } else {
        parts.join("; ")
    };
    format!("{} {:.2}: {what}", t.kind.label(), t.current)
}

fn approx(f: &Flip) -> String {
    match f.method {
        Method::Exact => String::new(),
        Method::Bisection => format!(" (bisected, ±{RETENTION_TOLERANCE:e})"),
    }
}

fn window_line(w: &WindowTip, current: u64) -> String {
    match *w {
        WindowTip::Holds => format!("does not fail at {}", thousands(current)),
        WindowTip::SetByPolicy => "set by the policy".to_string(),
        WindowTip::At {
            window,
            outcome,
            exact,
        } => format!(
            "{} at {} tokens{}",
            outcome.label(),
            thousands(window),
            if exact {
                " (the smallest larger window that works)"
            } else {
                " (found by bisection under pressure with guards on: a smaller one may also work)"
            }
        ),
        WindowTip::Never {
            searched_to,
            complete: true,
        } => format!(
            "fails at every larger window (from {} tokens nothing is compacted)",
            thousands(searched_to)
        ),
        WindowTip::Never {
            searched_to,
            complete: false,
        } => format!(
            "fails at every larger window up to {} tokens (the search stopped there)",
            thousands(searched_to)
        ),
    }
}

fn fact_line(scenario: &Scenario, now: Outcome, fix: &FactFix) -> String {
    let verb = match fix.lever {
        Lever::Forward => "forward",
        Lever::Externalise => "externalise",
    };
    let id = scenario.facts.get(fix.fact).map_or("", |f| f.id.as_str());
    let result = if fix.outcome == now {
        format!("still {}", now.label())
    } else {
        fix.outcome.label().to_string()
    };
    format!("{verb} \"{id}\": {result}")
}

fn text(scenario: &Scenario, tips: &[ActionTipping]) -> String {
    let mut out = String::new();
    let harness = scenario.effective_harness();
    let _ = writeln!(out, "Tipping points: {} ({})", scenario.title, scenario.id);
    let _ = writeln!(
        out,
        "policy: {} ({}) · window {} · actionable at {:.2}",
        policy_name(&scenario.policy),
        scenario.policy.id(),
        thousands(harness.window_tokens),
        scenario.model.actionable_threshold
    );
    let _ = writeln!(
        out,
        "Each line is one change on its own: one kind's retention, the window, or one fact."
    );
    if scenario.actions.is_empty() {
        let _ = writeln!(out, "\n(no action to flip)");
    }
    for (tip, action) in tips.iter().zip(&scenario.actions) {
        let _ = writeln!(
            out,
            "\n{}  turn {}  {}",
            action.id,
            action.turn,
            tip.outcome.label().to_uppercase()
        );
        if tip.outcome == Outcome::NotReached {
            let _ = writeln!(out, "  retention  cannot move an overflow");
        }
        for t in &tip.retention {
            let _ = writeln!(out, "  retention  {}", retention_line(t));
        }
        let _ = writeln!(
            out,
            "  window     {}",
            window_line(&tip.window, harness.window_tokens)
        );
        if matches!(tip.outcome, Outcome::Governed | Outcome::NotReached) {
            continue;
        }
        if tip.facts.is_empty() {
            let _ = writeln!(
                out,
                "  one fact   none applies (forwarding needs a delegated action, externalising a policy that re-reads)"
            );
        }
        for fix in &tip.facts {
            let _ = writeln!(
                out,
                "  one fact   {}",
                fact_line(scenario, tip.outcome, fix)
            );
        }
    }
    out
}

fn flip_json(f: Option<Flip>) -> String {
    match f {
        None => "null".to_string(),
        Some(f) => format!(
            "{{\"at\": {}, \"outcome\": \"{}\", \"method\": \"{}\"}}",
            f.at,
            f.outcome.id(),
            match f.method {
                Method::Exact => "exact",
                Method::Bisection => "bisection",
            }
        ),
    }
}

fn window_json(w: &WindowTip) -> String {
    match *w {
        WindowTip::Holds => "{\"status\": \"holds\"}".to_string(),
        WindowTip::SetByPolicy => "{\"status\": \"set_by_policy\"}".to_string(),
        WindowTip::At {
            window,
            outcome,
            exact,
        } => format!(
            "{{\"status\": \"at\", \"window\": {window}, \"outcome\": \"{}\", \"exact\": {exact}}}",
            outcome.id()
        ),
        WindowTip::Never {
            searched_to,
            complete,
        } => format!(
            "{{\"status\": \"never\", \"searched_to\": {searched_to}, \"complete\": {complete}}}"
        ),
    }
}

fn to_json(scenario: &Scenario, tips: &[ActionTipping]) -> String {
    let mut out = String::from("{\n  \"format\": \"compaction-drift/tipping@1\",\n");
    let _ = writeln!(out, "  \"scenario\": {},", json_string(&scenario.id));
    let _ = writeln!(out, "  \"policy\": \"{}\",", scenario.policy.id());
    let _ = writeln!(
        out,
        "  \"window_tokens\": {},",
        scenario.effective_harness().window_tokens
    );
    let _ = writeln!(out, "  \"retention_tolerance\": {RETENTION_TOLERANCE:e},");
    out.push_str("  \"actions\": [");
    for (i, (tip, action)) in tips.iter().zip(&scenario.actions).enumerate() {
        let _ = write!(
            out,
            "{}\n    {{\"id\": {}, \"turn\": {}, \"outcome\": \"{}\",\n      \"retention\": [",
            if i > 0 { "," } else { "" },
            json_string(&action.id),
            action.turn,
            tip.outcome.id()
        );
        for (k, t) in tip.retention.iter().enumerate() {
            let _ = write!(
                out,
                "{}\n        {{\"kind\": \"{}\", \"current\": {}, \"raise\": {}, \"lower\": {}}}",
                if k > 0 { "," } else { "" },
                t.kind.id(),
                t.current,
                flip_json(t.raise),
                flip_json(t.lower)
            );
        }
        if !tip.retention.is_empty() {
            out.push_str("\n      ");
        }
        let _ = write!(
            out,
            "],\n      \"window\": {},\n      \"facts\": [",
            window_json(&tip.window)
        );
        for (k, fix) in tip.facts.iter().enumerate() {
            let id = scenario.facts.get(fix.fact).map_or("", |f| f.id.as_str());
            let _ = write!(
                out,
                "{}\n        {{\"fact\": {}, \"lever\": \"{}\", \"outcome\": \"{}\", \"fixes\": {}}}",
                if k > 0 { "," } else { "" },
                json_string(id),
                fix.lever.id(),
                fix.outcome.id(),
                fix.fixes()
            );
        }
        if !tip.facts.is_empty() {
            out.push_str("\n      ");
        }
        out.push_str("]}");
    }
    out.push_str("\n  ]\n}\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_goes_to_the_side_that_flips() {
        assert_eq!(four(std::f64::consts::FRAC_1_SQRT_2, true), "0.7072");
        assert_eq!(four(std::f64::consts::FRAC_1_SQRT_2, false), "0.7071");
        assert_eq!(four(0.5, true), "0.5000");
        assert_eq!(four(1.0, false), "1");
    }
}
