//! The action outcomes as CSV (RFC 4180), for spreadsheets.

use std::fmt::Write as _;

use drift_core::{Run, Scenario, explain};

fn field(out: &mut String, value: &str) {
    if value.contains([',', '"', '\n', '\r']) {
        out.push('"');
        out.push_str(&value.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(value);
    }
}

/// One row per action: id, turn, outcome, reason (what decided it:
/// `faded`, `not_forwarded`, `misbound`, …), why (the sentence the page
/// shows), fidelity, risk, resource, delegated, irreversible, text,
/// consequence.
pub fn actions(scenario: &Scenario, run: &Run) -> String {
    let mut out = String::from(
        "action,turn,outcome,reason,why,fidelity,fabrication_risk,resolved_resource,delegated,irreversible,text,consequence\r\n",
    );
    for (i, (a, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
        field(&mut out, &a.id);
        let resource = graded
            .resolved_resource
            .and_then(|r| scenario.resources.get(r))
            .map_or("", |r| r.id.as_str());
        let why = explain(scenario, run, i);
        let reason = match graded.reason.id() {
            "" => why.map_or("", |w| w.cause.id()),
            id => id,
        };
        let _ = write!(out, ",{},{},{reason},", a.turn, graded.outcome.id());
        field(&mut out, &why.map(|w| w.to_string()).unwrap_or_default());
        let _ = write!(
            out,
            ",{:.6},{:.6},",
            graded.fidelity, graded.fabrication_risk
        );
        field(&mut out, resource);
        let _ = write!(out, ",{},{},", a.delegated, a.irreversible);
        field(&mut out, &a.text);
        out.push(',');
        field(&mut out, &a.consequence);
        out.push_str("\r\n");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_quoted_row_per_action() {
        let s = drift_core::builtin("staging-migration").unwrap();
        let run = drift_core::simulate(&s).unwrap();
        let csv = actions(&s, &run);
        let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
        assert_eq!(lines.len(), s.actions.len() + 1);
        let migration = lines
            .iter()
            .find(|l| l.starts_with("run-migration,"))
            .unwrap();
        assert!(migration.contains(",misbound,misbound,"), "{migration}");
        // Every row says what decided it, and why in words.
        for line in &lines[1..] {
            let cells: Vec<&str> = line.splitn(6, ',').collect();
            assert!(!cells[3].is_empty(), "no reason: {line}");
            assert!(cells[4].len() > 10, "no why: {line}");
        }
        assert!(migration.contains(",db-prod-01,"), "{migration}");
        // A consequence with a comma is quoted.
        assert!(migration.ends_with('"'), "{migration}");
    }

    #[test]
    fn quotes_are_doubled() {
        let mut out = String::new();
        field(&mut out, "say \"hi\", then go");
        assert_eq!(out, "\"say \"\"hi\"\", then go\"");
    }
}
