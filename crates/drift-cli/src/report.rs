//! Text and JSON renderings of runs, checks and matrices.

use std::fmt::{self, Write as _};
use std::io::{self, BufWriter, Write as _};

use crate::error::Error;

use drift_core::{
    FactChange, Outcome, OutcomeCounts, PolicyChoice, Preset, Range, ResultJson, Run, SETTINGS,
    Scenario, StandingChange, builtin, builtin_ids, explain, round_losses, thousands,
};

/// Cuts `text` to `width` characters, ending in "…" when cut.
fn clip(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        text.to_string()
    } else {
        let mut s: String = text.chars().take(width.saturating_sub(1)).collect();
        s.push('…');
        s
    }
}

pub(crate) fn policy_name(choice: &PolicyChoice) -> String {
    match choice {
        PolicyChoice::Preset(p) => p.info().name.to_string(),
        PolicyChoice::Custom(_) => "custom policy".to_string(),
    }
}

/// `drift list`.
pub fn list() -> String {
    let mut out = String::from("Built-in scenarios\n");
    for id in builtin_ids() {
        let title = builtin(id).map(|s| s.title).unwrap_or_default();
        let _ = writeln!(out, "  {id:<22} {title}");
    }
    out.push_str("\nReference policies\n");
    for preset in Preset::V1 {
        let info = preset.info();
        let _ = writeln!(out, "  {:<22} {}", info.id, info.summary);
    }
    out.push_str("\nHarness presets (approximations of published behaviour)\n");
    for preset in &Preset::ALL[Preset::V1.len()..] {
        let info = preset.info();
        let _ = writeln!(out, "  {:<22} {}", info.id, info.summary);
        let notes = preset.notes();
        let _ = writeln!(out, "  {:<22} not modelled: {}", "", notes.limits);
        let _ = writeln!(out, "  {:<22} source: {}", "", notes.source);
    }
    out.push_str("\nSettings (--set NAME=VALUE)\n");
    for info in &SETTINGS {
        let range = match info.range {
            Range::Whole { min, max } => format!("{}..={}", thousands(min), thousands(max)),
            Range::Number {
                min,
                max: Some(max),
            } => format!("{min}..={max}"),
            Range::Number { min, max: None } => format!("{min} or more"),
            Range::Switch => "on or off".to_string(),
        };
        let default = info.default.map_or_else(
            || "required".to_string(),
            |v| format!("default {}", info.format(v)),
        );
        let _ = writeln!(
            out,
            "  {:<34} {:<5} {range}, {default}",
            info.id(),
            info.key
        );
        let _ = writeln!(out, "  {:<34} {:<5} {}", "", "", info.setting.help());
    }
    out
}

/// `drift run` on stdout: the text report, or `--format json`'s result@1,
/// written as it is produced through a buffer on the locked stdout, so
/// memory stays flat whatever the report's size (a result@1 holds every
/// fact's state at every round). A closed pipe (`drift run x | head`) ends
/// the report quietly; any other write error is returned.
pub fn print_run(scenario: &Scenario, run: &Run, json: bool) -> Result<(), Error> {
    let stdout = io::stdout();
    let mut out = BufWriter::with_capacity(1 << 16, stdout.lock());
    let written = if json {
        serde_json::to_writer_pretty(&mut out, &ResultJson::new(scenario, run))
            .map_err(io::Error::from)
            .and_then(|()| out.write_all(b"\n"))
    } else {
        let mut sink = Sink::new(&mut out);
        write_run(&mut sink, scenario, run);
        sink.finish()
    };
    match written.and_then(|()| out.flush()) {
        Err(e) if e.kind() != io::ErrorKind::BrokenPipe => {
            Err(Error::input(format!("cannot write the report: {e}")))
        }
        _ => Ok(()),
    }
}

/// `fmt::Write` into an `io::Write`: keeps the first I/O error, after which
/// every write fails at once (so a report to a closed pipe stops costing).
struct Sink<W> {
    inner: W,
    error: Option<io::Error>,
}

impl<W: io::Write> Sink<W> {
    fn new(inner: W) -> Sink<W> {
        Sink { inner, error: None }
    }

    /// The first write error, if any.
    fn finish(self) -> io::Result<()> {
        self.error.map_or(Ok(()), Err)
    }
}

impl<W: io::Write> fmt::Write for Sink<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        if self.error.is_some() {
            return Err(fmt::Error);
        }
        self.inner.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}

/// `drift run --format text`, written to `out` as it is produced: every
/// section costs time linear in what it prints (the round-by-round section
/// and each explanation read the facts' courses in closed form). Write
/// errors are `out`'s to keep.
fn write_run(out: &mut impl fmt::Write, scenario: &Scenario, run: &Run) {
    let h = run.harness();
    let _ = writeln!(out, "{} ({})", scenario.title, scenario.id);
    let _ = writeln!(
        out,
        "policy: {} ({})",
        policy_name(&scenario.policy),
        run.policy_id()
    );
    let _ = writeln!(
        out,
        "harness: window {} · trigger {}% · system {} · {}/turn · tail {} turns · summary {} · {} turn{}{}",
        thousands(h.window_tokens),
        h.trigger_percent,
        thousands(h.system_tokens),
        thousands(h.tokens_per_turn),
        h.tail_turns,
        thousands(h.summary_tokens),
        h.turns,
        if h.turns == 1 { "" } else { "s" },
        if h.reserve_tokens > 0 {
            format!(" · reserve {}", thousands(h.reserve_tokens))
        } else {
            String::new()
        }
    );
    match run.overflow_turn() {
        Some(t) => {
            let _ = writeln!(out, "overflow: the window overflows at turn {t}");
        }
        None => {
            let _ = writeln!(out, "overflow: none");
        }
    }

    let _ = writeln!(out, "\nRounds");
    if run.rounds().is_empty() {
        let _ = writeln!(out, "  (no compaction round)");
    } else {
        let _ = writeln!(
            out,
            "  {:>3}  {:>5}  {:>9}  {:>9}  {:>10}  {:<18}  {:>6}",
            "#", "turn", "before", "after", "laundering", "regime", "spills"
        );
        for r in run.rounds() {
            let _ = writeln!(
                out,
                "  {:>3}  {:>5}  {:>9}  {:>9}  {:>10.2}  {:<18}  {:>6}",
                r.index,
                r.turn,
                thousands(r.tokens_before),
                thousands(r.tokens_after),
                r.laundering_rate,
                r.regime.id(),
                r.spills
            );
        }
    }

    fidelity_table(out, scenario, run);
    round_by_round(out, scenario, run);

    let _ = writeln!(out, "\nActions");
    if scenario.actions.is_empty() {
        let _ = writeln!(out, "  (no action to grade)");
    }
    for (i, (action, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
        let _ = writeln!(
            out,
            "  turn {:<4} {:<24} {:<16} fidelity {:.2}  risk {:.2}{}",
            action.turn,
            clip(&action.id, 24),
            graded.outcome.label().to_uppercase(),
            graded.fidelity,
            graded.fabrication_risk,
            match graded
                .resolved_resource
                .and_then(|r| scenario.resources.get(r))
            {
                Some(r) => format!("  → {}", r.id),
                None => String::new(),
            }
        );
        let _ = writeln!(out, "            {}", action.text);
        if let Some(why) = explain(scenario, run, i) {
            let _ = writeln!(out, "            why: {why}");
        }
        if graded.outcome != Outcome::Governed && !action.consequence.is_empty() {
            let _ = writeln!(out, "            consequence: {}", action.consequence);
        }
    }
    let counts = run.counts();
    let _ = writeln!(out, "\n{}", counts_line(&counts));
}

/// Per fact, fidelity after each round ("·" before the fact existed).
fn fidelity_table(out: &mut impl fmt::Write, scenario: &Scenario, run: &Run) {
    const MAX_COLUMNS: usize = 24;
    let rounds = run.rounds().len();
    if rounds == 0 || scenario.facts.is_empty() {
        return;
    }
    // Long runs show their first and last rounds.
    let columns: Vec<Option<usize>> = if rounds <= MAX_COLUMNS {
        (0..rounds).map(Some).collect()
    } else {
        let half = MAX_COLUMNS / 2;
        (0..half)
            .map(Some)
            .chain([None])
            .chain((rounds - half..rounds).map(Some))
            .collect()
    };
    let _ = writeln!(out, "\nFidelity after each round");
    let _ = write!(out, "  {:<22} {:<9} {:<15}", "fact", "role", "kind");
    for c in &columns {
        match c {
            Some(j) => {
                let _ = write!(out, " {:>4}", format!("r{}", j + 1));
            }
            None => {
                let _ = out.write_str("    …");
            }
        }
    }
    let _ = out.write_char('\n');
    for (i, fact) in scenario.facts.iter().enumerate() {
        let _ = write!(
            out,
            "  {:<22} {:<9} {:<15}",
            clip(&fact.id, 22),
            fact.role.id(),
            fact.kind.label()
        );
        for c in &columns {
            match c.map(|j| run.fact_state(i, j)) {
                Some(Some((_, s))) => {
                    let _ = write!(out, " {:>4.2}", s.fidelity);
                }
                Some(None) => {
                    let _ = out.write_str("    ·");
                }
                None => {
                    let _ = out.write_str("    …");
                }
            }
        }
        let _ = out.write_char('\n');
    }
}

/// Per round, the facts that crossed the actionable line, were dropped,
/// spilled or marked unverified, and the later actions each change reaches.
/// Consecutive rounds that changed nothing share a line.
fn round_by_round(out: &mut impl fmt::Write, scenario: &Scenario, run: &Run) {
    if run.rounds().is_empty() {
        return;
    }
    let _ = writeln!(
        out,
        "\nRound by round (actionable at {:.2})",
        scenario.model.actionable_threshold
    );
    let losses = round_losses(scenario, run);
    let width = losses
        .iter()
        .flat_map(|r| &r.changes)
        .map(|c| change_label(c).chars().count())
        .max()
        .unwrap_or(0);
    let mut quiet: Option<(usize, usize)> = None;
    let flush = |out: &mut dyn fmt::Write, quiet: &mut Option<(usize, usize)>| {
        let Some((first, last)) = quiet.take() else {
            return;
        };
        let rounds = run.rounds();
        let (a, b) = (&rounds[first], &rounds[last]);
        if first == last {
            let _ = writeln!(
                out,
                "  round {} (turn {}): no fact changed standing",
                a.index, a.turn
            );
        } else {
            let _ = writeln!(
                out,
                "  rounds {}–{} (turns {}–{}): no fact changed standing",
                a.index, b.index, a.turn, b.turn
            );
        }
    };
    for round in &losses {
        if round.changes.is_empty() {
            let first = quiet.map_or(round.round, |(first, _)| first);
            quiet = Some((first, round.round));
            continue;
        }
        flush(out, &mut quiet);
        let index = run.rounds().get(round.round).map_or(0, |r| r.index);
        let _ = writeln!(out, "  round {index} (turn {})", round.turn);
        for change in &round.changes {
            let id = scenario
                .facts
                .get(change.fact)
                .map_or("", |f| f.id.as_str());
            let _ = writeln!(
                out,
                "    {:<22} {:<width$}  {:.2} → {:.2}  {}",
                clip(id, 22),
                change_label(change),
                change.before.fidelity,
                change.after.fidelity,
                reach(scenario, change)
            );
        }
    }
    flush(out, &mut quiet);
}

fn change_label(change: &FactChange) -> String {
    let newly_unverified = change.after.unverified && !change.before.unverified;
    match change.what {
        StandingChange::CrossedBelow if newly_unverified => {
            "below the line, unverified".to_string()
        }
        StandingChange::Spilled => "spilled (kept verbatim)".to_string(),
        what => what.label().to_string(),
    }
}

/// "affects a (turn 54), b (turn 63)", or what a recovery keeps in force.
fn reach(scenario: &Scenario, change: &FactChange) -> String {
    let actions: Vec<String> = change
        .affects
        .iter()
        .filter_map(|&a| scenario.actions.get(a))
        .map(|a| format!("{} (turn {})", a.id, a.turn))
        .collect();
    match (change.what.is_loss(), actions.is_empty()) {
        (true, true) => "affects no later action".to_string(),
        (true, false) => format!("affects {}", actions.join(", ")),
        (false, true) => "no later action relies on it".to_string(),
        (false, false) => format!("keeps in force for {}", actions.join(", ")),
    }
}

fn counts_line(counts: &OutcomeCounts) -> String {
    let parts: Vec<String> = counts
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(o, n)| format!("{n} {}", o.label()))
        .collect();
    let total = counts.total();
    let noun = if total == 1 { "action" } else { "actions" };
    if parts.is_empty() {
        format!("{total} {noun}.")
    } else {
        format!("{total} {noun}: {}", parts.join(", "))
    }
}

/// `drift check`: the report and whether it failed.
pub fn check(scenario: &Scenario, run: &Run) -> (String, bool) {
    let mut out = String::new();
    let mut failed = 0;
    for (i, (action, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
        if !graded.outcome.is_failure() {
            continue;
        }
        failed += 1;
        let _ = writeln!(
            out,
            "FAIL {} (turn {}): {}",
            action.id,
            action.turn,
            graded.outcome.label()
        );
        if let Some(why) = explain(scenario, run, i) {
            let _ = writeln!(out, "     {why}");
        }
    }
    let total = scenario.actions.len();
    if failed == 0 {
        let _ = writeln!(
            out,
            "ok: {} under {}: no action is ungoverned, misbound or not reached ({total} checked)",
            scenario.id,
            run.policy_id()
        );
    } else {
        let _ = writeln!(
            out,
            "{}: {failed} of {total} actions failed under {}",
            scenario.id,
            run.policy_id()
        );
    }
    (out, failed > 0)
}

/// Outcome counts for every scenario under every preset
/// ([`drift_core::Matrix`]), as the terminal shows them.
pub struct Matrix {
    matrix: drift_core::Matrix,
}

impl Matrix {
    pub fn compute(scenarios: &[Scenario]) -> Matrix {
        Matrix {
            matrix: drift_core::Matrix::of(scenarios),
        }
    }

    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = write!(out, "{:<24}", "");
        for o in Outcome::ALL {
            let _ = write!(out, " {:>11}", o.label());
        }
        out.push('\n');
        for row in &self.matrix.rows {
            let _ = writeln!(out, "{}", row.id);
            for (preset, cell) in Preset::ALL.iter().zip(&row.cells) {
                let _ = write!(out, "  {:<22}", preset.id());
                match cell {
                    Ok(counts) => {
                        for (_, n) in counts.iter() {
                            let _ = write!(out, " {n:>11}");
                        }
                    }
                    Err(e) => {
                        let _ = write!(out, " invalid under this preset: {e}");
                    }
                }
                out.push('\n');
            }
        }
        out
    }

    /// `compaction-drift/matrix@1`.
    pub fn json(&self) -> String {
        self.matrix.to_json()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use drift_core::simulate;

    /// Takes `room` bytes, then fails as a closed pipe does.
    struct Pipe {
        taken: Vec<u8>,
        room: usize,
    }

    impl io::Write for Pipe {
        fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
            if self.taken.len() >= self.room {
                return Err(io::ErrorKind::BrokenPipe.into());
            }
            let n = buf.len().min(self.room - self.taken.len());
            self.taken.extend_from_slice(&buf[..n]);
            Ok(n)
        }

        fn flush(&mut self) -> io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_report_streams_what_it_writes_and_keeps_the_first_error() {
        let scenario = builtin("payments-incident").unwrap();
        let run = simulate(&scenario).unwrap();
        let mut whole = String::new();
        write_run(&mut whole, &scenario, &run);
        assert!(
            whole.contains("Round by round")
                && whole.ends_with("8 actions: 2 governed, 1 weakly governed, 5 ungoverned\n")
        );

        let mut pipe = Pipe {
            taken: Vec::new(),
            room: usize::MAX,
        };
        let mut sink = Sink::new(&mut pipe);
        write_run(&mut sink, &scenario, &run);
        assert!(sink.finish().is_ok());
        assert_eq!(pipe.taken, whole.as_bytes());

        let mut pipe = Pipe {
            taken: Vec::new(),
            room: 100,
        };
        let mut sink = Sink::new(&mut pipe);
        write_run(&mut sink, &scenario, &run);
        let error = sink.finish().unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::BrokenPipe);
        assert_eq!(pipe.taken, &whole.as_bytes()[..100]);
    }

    #[test]
    fn numbers_and_clipping() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
        assert_eq!(clip("abcdef", 4), "abc…");
        assert_eq!(clip("abc", 4), "abc");
    }
}
