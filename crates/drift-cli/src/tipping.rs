//! `drift tipping FILE|ID [--policy ID] [--format text|json]`: for each
//! action, the smallest change that flips its outcome.
//!
//! The numbers come from `drift_core::tipping_points`, which re-runs the
//! engine to check every one, and the JSON is drift-core's
//! `TippingPoints` (`compaction-drift/tipping@1`); this file words them
//! and lays the JSON out. In text, a retention value is rounded to four
//! decimals towards the side where the outcome has changed (up for a raise,
//! down for a lower bound), so the printed value itself flips it; JSON
//! carries the exact values.

use std::fmt::Write as _;
use std::io;

use drift_core::{
    FactFix, Flip, Lever, Method, Outcome, RETENTION_TOLERANCE, RetentionTip, Scenario,
    TippingPoints, WindowTip, thousands,
};
use serde::Serialize as _;
use serde_json::ser::Formatter;

use crate::error::Error;
use crate::report::policy_name;

/// Computes the tipping points and renders them.
pub fn command(scenario: &Scenario, json: bool) -> Result<String, Error> {
    let tipping = TippingPoints::of(scenario).map_err(|e| Error::input(e.to_string()))?;
    Ok(if json {
        Layout::print(&tipping)
    } else {
        text(&tipping)
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

fn text(tipping: &TippingPoints<'_>) -> String {
    let scenario = tipping.scenario;
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
    for (tip, action) in tipping.actions.iter().zip(&scenario.actions) {
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

/// `tipping@1` laid out as `drift tipping --format json` prints it: the
/// document's members one to a line; each action on lines of its own, its
/// id, turn and outcome on the first and its retention, window and facts
/// each on the next; a list's entries one to a line, each entry whole on
/// it. Numbers as Rust writes them (`1`, `0.75`), the tolerance at the top
/// in exponent form (`1e-6`).
#[derive(Debug, Default)]
struct Layout {
    /// Per open object or array, outermost first: its members or entries
    /// so far.
    open: Vec<usize>,
}

impl Layout {
    /// The document, laid out, with a final newline.
    fn print(tipping: &TippingPoints<'_>) -> String {
        let mut out = Vec::new();
        let mut json = serde_json::Serializer::with_formatter(&mut out, Layout::default());
        // Writing to memory cannot fail, and every key is a string.
        let _ = tipping.serialize(&mut json);
        out.push(b'\n');
        String::from_utf8(out).unwrap_or_default()
    }

    /// How deep the innermost open object or array is (the document is 1).
    fn depth(&self) -> usize {
        self.open.len()
    }

    /// Counts one more member or entry of the innermost; returns how many
    /// came before it.
    fn next(&mut self) -> usize {
        self.open.last_mut().map_or(0, |n| {
            *n += 1;
            *n - 1
        })
    }
}

/// A new line indented to `depth` levels of two spaces.
fn line<W: ?Sized + io::Write>(w: &mut W, depth: usize) -> io::Result<()> {
    write!(w, "\n{:1$}", "", 2 * depth)
}

impl Formatter for Layout {
    fn begin_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.push(0);
        w.write_all(b"[")
    }

    fn end_array<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        let depth = self.depth();
        let entries = self.open.pop().unwrap_or(0);
        // The actions close on a line of their own even when there are none.
        if entries > 0 || depth == 2 {
            line(w, depth - 1)?;
        }
        w.write_all(b"]")
    }

    fn begin_array_value<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        self.next();
        if !first {
            w.write_all(b",")?;
        }
        line(w, self.depth())
    }

    fn begin_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        self.open.push(0);
        w.write_all(b"{")
    }

    fn end_object<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        let depth = self.depth();
        self.open.pop();
        if depth == 1 {
            line(w, 0)?;
        }
        w.write_all(b"}")
    }

    fn begin_object_key<W: ?Sized + io::Write>(
        &mut self,
        w: &mut W,
        first: bool,
    ) -> io::Result<()> {
        let before = self.next();
        if !first {
            w.write_all(b",")?;
        }
        match self.depth() {
            // The document's members, one to a line.
            1 => line(w, 1),
            // An action's retention, window and facts, after its id, turn
            // and outcome.
            3 if before >= 3 => line(w, 3),
            _ if first => Ok(()),
            _ => w.write_all(b" "),
        }
    }

    fn begin_object_value<W: ?Sized + io::Write>(&mut self, w: &mut W) -> io::Result<()> {
        w.write_all(b": ")
    }

    fn write_f64<W: ?Sized + io::Write>(&mut self, w: &mut W, value: f64) -> io::Result<()> {
        if self.depth() == 1 {
            write!(w, "{value:e}")
        } else {
            write!(w, "{value}")
        }
    }
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

    #[test]
    fn the_layout_is_the_documents() {
        let scenario = drift_core::builtin("payments-incident").unwrap();
        let none = TippingPoints {
            scenario: &scenario,
            actions: Vec::new(),
        };
        assert_eq!(
            Layout::print(&none),
            "{\n  \"format\": \"compaction-drift/tipping@1\",\n  \"scenario\": \"payments-incident\",\n  \"policy\": \"pinned_prefix\",\n  \"window_tokens\": 32000,\n  \"retention_tolerance\": 1e-6,\n  \"actions\": [\n  ]\n}\n"
        );
        // Strings are escaped as JSON needs.
        let mut out = Vec::new();
        let mut json = serde_json::Serializer::with_formatter(&mut out, Layout::default());
        "a\"b\\\n\u{1}".serialize(&mut json).unwrap();
        assert_eq!(out, b"\"a\\\"b\\\\\\n\\u0001\"");
    }
}
