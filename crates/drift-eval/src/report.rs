//! The scores as Markdown tables, for a terminal and for `eval/SCORES.md`.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use core::fmt::Write as _;

use crate::labels::{By, LabelFate};
use crate::real::{ClassCounts, Scores, all};
use crate::view::Reported;

/// `n / d` as a share with two decimals, or "–" when `d` is 0.
pub fn share(n: usize, d: usize) -> String {
    if d == 0 {
        "–".to_string()
    } else {
        format!("{:.2}", n as f64 / d as f64)
    }
}

fn row(out: &mut String, name: &str, c: &ClassCounts) {
    let _ = writeln!(
        out,
        "| {name} | {} | {} | {} | {} / {} = {} | {} / {} = {} | {} |",
        c.labelled,
        c.found,
        share(c.found, c.labelled),
        c.carried_called_lost,
        c.carried,
        share(c.carried_called_lost, c.carried),
        c.lost_caught,
        c.lost,
        share(c.lost_caught, c.lost),
        share(c.exact, c.found),
    );
}

/// The tables for one set of logs, headed with who they are measured on.
pub fn real(s: &Scores, people: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Real compactions, {people}: {} people, {} logs, {} compactions\n",
        s.repos, s.logs, s.compactions
    );
    out.push_str("| rules given by | in force (rule × compaction) | found | found share | carried, called lost | lost, caught | fate exact |\n");
    out.push_str("| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n");
    for by in By::ALL {
        if let Some(c) = s.by.get(&by) {
            row(&mut out, by.label(), c);
        }
    }
    row(&mut out, "**all**", &all(s));
    let _ = writeln!(
        out,
        "\nLosses reported up front: {} against {} labelled ({} compactions; the aim allows {:.0}); {} of them match no labelled rule.",
        s.reported_losses,
        s.labelled_losses,
        s.compactions,
        s.labelled_losses as f64 + s.compactions as f64 / 2.0,
        s.unlabelled_losses
    );
    let _ = writeln!(
        out,
        "Rules of the user's (and briefs') the tool judged: {}, of which a labelled rule: {} (precision {}).",
        s.user_reported,
        s.user_reported_right,
        share(s.user_reported_right, s.user_reported)
    );
    let (n, lost): (usize, usize) = s
        .nonrules
        .values()
        .fold((0, 0), |(a, b), (n, l)| (a + n, b + l));
    let detail: Vec<String> = s
        .nonrules
        .iter()
        .map(|(why, (n, l))| format!("{why} {l}/{n}"))
        .collect();
    let _ = writeln!(
        out,
        "Rule-like sentences that are no standing rule, reported lost: {lost} of {n} ({}): {}.",
        share(lost, n),
        detail.join(", ")
    );
    let _ = writeln!(
        out,
        "Invented rules: {} reported, {} right (precision {}); {} labelled, {} found (recall {}).",
        s.invented_reported,
        s.invented_right,
        share(s.invented_right, s.invented_reported),
        s.invented_labelled,
        s.invented_found,
        share(s.invented_found, s.invented_labelled)
    );
    if s.lineage_pairs > 0 {
        let _ = writeln!(
            out,
            "Lineage, logs that compact twice or more: {} of the user's rules × compactions; the labelled fate {} ({}), lost or not right {} ({}); a rule never found counts as wrong.",
            s.lineage_pairs,
            s.lineage_exact,
            share(s.lineage_exact, s.lineage_pairs),
            s.lineage_lost_right,
            share(s.lineage_lost_right, s.lineage_pairs)
        );
    }
    if !s.confusion.is_empty() {
        out.push_str("\nFates of the rules found (labelled → reported):\n\n| labelled |");
        let reported = [
            Reported::Kept,
            Reported::Verbatim,
            Reported::Reinjected,
            Reported::Weakened,
            Reported::Dropped,
            Reported::Contradicted,
            Reported::Unjudged,
        ];
        for r in reported {
            let _ = write!(out, " {} |", r.id());
        }
        out.push_str("\n| --- |");
        out.push_str(&" ---: |".repeat(reported.len()));
        out.push('\n');
        let labels = [
            LabelFate::Kept,
            LabelFate::Verbatim,
            LabelFate::Reinjected,
            LabelFate::Weakened,
            LabelFate::Dropped,
            LabelFate::Contradicted,
            LabelFate::Unknown,
        ];
        for l in labels {
            let _ = write!(out, "| {} |", l.id());
            for r in reported {
                let _ = write!(out, " {} |", s.confusion.get(&(l, r)).copied().unwrap_or(0));
            }
            out.push('\n');
        }
    }
    if !s.stale.is_empty() {
        let _ = writeln!(out, "\n{} anchors no longer decode:", s.stale.len());
        for e in &s.stale {
            let _ = writeln!(out, "- {e}");
        }
    }
    out
}
