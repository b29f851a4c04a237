//! Static report tables as HTML: the rounds and the scenario × preset
//! matrix. They are rebuilt whole when the settings change, which costs far
//! less page size than reactive tables; every text is escaped.

use std::fmt::Write as _;

use drift_core::{Outcome, OutcomeCounts, Preset, Run};

use crate::html::escape;

/// 12345 → "12,345".
pub fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rounds of `run`, with a note when the window overflows.
pub fn rounds_html(run: &Run) -> String {
    let mut out = String::new();
    if let Some(t) = run.overflow_turn() {
        let _ = write!(
            out,
            "<p class=\"note\">The window overflows at turn {t}: nothing after it runs.</p>"
        );
    }
    if run.rounds().is_empty() {
        out.push_str("<p class=\"note\">No compaction round happens in this session.</p>");
        return out;
    }
    out.push_str(
        "<div class=\"table-wrap\"><table><thead><tr><th scope=\"col\">round</th>\
         <th scope=\"col\">turn</th><th scope=\"col\">tokens before</th>\
         <th scope=\"col\">tokens after</th><th scope=\"col\">laundering rate</th>\
         <th scope=\"col\">regime</th><th scope=\"col\">spills</th></tr></thead><tbody>",
    );
    for r in run.rounds() {
        let _ = write!(
            out,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{:.2}</td><td>{}</td><td class=\"num\">{}</td></tr>",
            r.index,
            r.turn,
            thousands(r.tokens_before),
            thousands(r.tokens_after),
            r.laundering_rate,
            r.regime.id().replace('_', " "),
            r.spills
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

/// One row of the matrix: a scenario's id and its counts under each of
/// [`Preset::ALL`] (`None` where it does not run).
#[derive(Clone, Debug, PartialEq)]
pub struct MatrixRow {
    /// The scenario's id.
    pub id: String,
    /// Counts per preset.
    pub cells: Vec<Option<OutcomeCounts>>,
}

/// The matrix: per cell the actions that failed (ungoverned, misbound, not
/// reached) out of all, as a button carrying `data-row` and `data-preset`
/// for one delegated click handler. `current` outlines the cell in view.
pub fn matrix_html(rows: &[MatrixRow], current: Option<(usize, Preset)>) -> String {
    let mut out = String::from(
        "<table><caption>Actions that ran without their rules (ungoverned, misbound or not reached) \
         out of all, per preset. Click a cell to open it.</caption><thead><tr><th scope=\"col\">scenario</th>",
    );
    for p in Preset::ALL {
        let _ = write!(
            out,
            "<th scope=\"col\" title=\"{}\">{}</th>",
            escape(p.info().summary),
            p.id().replace('_', " ")
        );
    }
    out.push_str("</tr></thead><tbody>");
    for (r, row) in rows.iter().enumerate() {
        let id = escape(&row.id);
        let _ = write!(out, "<tr><th scope=\"row\">{id}</th>");
        for (preset, cell) in Preset::ALL.iter().zip(&row.cells) {
            let (text, title, bad) = match cell {
                Some(c) => {
                    let failing = c.get(Outcome::Ungoverned)
                        + c.get(Outcome::Misbound)
                        + c.get(Outcome::NotReached);
                    let parts: Vec<String> = c
                        .iter()
                        .filter(|(_, n)| *n > 0)
                        .map(|(o, n)| format!("{n} {}", o.label()))
                        .collect();
                    (
                        format!("{failing}/{}", c.total()),
                        parts.join(", "),
                        failing > 0,
                    )
                }
                None => (
                    "—".to_string(),
                    "does not run under this preset".to_string(),
                    false,
                ),
            };
            let mut class = String::new();
            if current == Some((r, *preset)) {
                class.push_str("current ");
            }
            if bad {
                class.push_str("bad");
            }
            let _ = write!(
                out,
                "<td class=\"{}\"><button type=\"button\" data-row=\"{r}\" data-preset=\"{}\" title=\"{title}\" \
                 aria-label=\"{id} under {}: {title}\">{text}</button></td>",
                class.trim_end(),
                preset.id(),
                preset.id(),
            );
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use drift_core::{PolicyChoice, builtin, simulate};

    #[test]
    fn numbers_read_with_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }

    #[test]
    fn the_rounds_table_lists_every_round_and_the_overflow() {
        let mut s = builtin("payments-incident").unwrap();
        let html = rounds_html(&simulate(&s).unwrap());
        assert_eq!(html.matches("<tr>").count(), 1 + 5);
        assert!(html.contains("<td class=\"num\">32,900</td>"));
        assert!(html.contains("fabricated history"));
        s.policy = PolicyChoice::Preset(Preset::None);
        let html = rounds_html(&simulate(&s).unwrap());
        assert!(html.contains("overflows at turn 20") && html.contains("No compaction round"));
    }

    #[test]
    fn the_matrix_outlines_the_current_cell_and_escapes_ids() {
        let s = builtin("staging-migration").unwrap();
        let cells = Preset::ALL
            .iter()
            .map(|&p| {
                let mut s = s.clone();
                s.policy = PolicyChoice::Preset(p);
                simulate(&s).ok().map(|r| r.counts())
            })
            .collect();
        let rows = [MatrixRow {
            id: "<staging>".to_string(),
            cells,
        }];
        let html = matrix_html(&rows, Some((0, Preset::UserVerbatim)));
        assert_eq!(html.matches("<button").count(), Preset::ALL.len());
        assert!(html.contains("<td class=\"current\"><button type=\"button\" data-row=\"0\" data-preset=\"user_verbatim\""));
        assert!(html.contains(
            "<td class=\"bad\"><button type=\"button\" data-row=\"0\" data-preset=\"pinned_prefix\""
        ));
        assert!(html.contains("&lt;staging&gt;") && !html.contains("<staging>"));
    }
}
