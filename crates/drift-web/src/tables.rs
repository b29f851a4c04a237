//! Static report tables as HTML: the rounds and the scenario × preset
//! matrix. They are rebuilt whole when the settings change, which costs far
//! less page size than reactive tables; every text is escaped.

use std::fmt::Write as _;

use drift_core::thousands;
use drift_core::{ActionTipping, Lever, WindowTip};
use drift_core::{MatrixRow, Outcome, Preset, Run, Scenario, explain};
use drift_core::{Regime, RoundLoss, StandingChange};

use crate::html::{escape, outcome_class};
use crate::story::Story;

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
        "<div class=\"table-wrap\"><table><caption>Each compaction round. <b>Already summarised</b>: \
         of the rules it summarised, the share that were a summary's words already \
         (summary of a summary). Above 15% the round's summary can no longer be trusted: \
         it retells what earlier summaries said, not what happened. <b>Spills</b>: \
         commitments written out before they fade.</caption>\
         <thead><tr><th scope=\"col\">round</th>\
         <th scope=\"col\">turn</th><th scope=\"col\">tokens before</th>\
         <th scope=\"col\">tokens after</th><th scope=\"col\">already summarised</th>\
         <th scope=\"col\">its summary</th><th scope=\"col\">spills</th></tr></thead><tbody>",
    );
    for r in run.rounds() {
        let _ = write!(
            out,
            "<tr><td class=\"num\">{}</td><td class=\"num\">{}</td><td class=\"num\">{}</td>\
             <td class=\"num\">{}</td><td class=\"num\">{:.0}%</td><td>{}</td><td class=\"num\">{}</td></tr>",
            r.index,
            r.turn,
            thousands(r.tokens_before),
            thousands(r.tokens_after),
            r.laundering_rate * 100.0,
            match r.regime {
                Regime::CompressedRecall => "trusted",
                Regime::FabricatedHistory => "untrusted: retold history",
            },
            r.spills
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

/// The matrix ([`drift_core::Matrix`]'s rows): per cell the actions that failed (ungoverned, misbound, not
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
                Ok(c) => {
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
                Err(_) => (
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

/// What would flip an action, in a few words per lever: the retention of a
/// kind, the window, or one fact's flag.
pub fn tipping_text(scenario: &Scenario, tip: &ActionTipping) -> Vec<String> {
    let mut out = Vec::new();
    for r in &tip.retention {
        if let Some(f) = r.raise {
            out.push(format!(
                "{} retention {:.3} or more: {}",
                r.kind.label(),
                f.at,
                f.outcome.label()
            ));
        }
        if let Some(f) = r.lower {
            out.push(format!(
                "{} retention below {:.3}: {}",
                r.kind.label(),
                f.at,
                f.outcome.label()
            ));
        }
    }
    match tip.window {
        WindowTip::At {
            window, outcome, ..
        } => {
            out.push(format!(
                "a window of {} tokens: {}",
                thousands(window),
                outcome.label()
            ));
        }
        WindowTip::Never { complete: true, .. } => out.push("no larger window helps".to_string()),
        WindowTip::Never { .. } | WindowTip::Holds | WindowTip::SetByPolicy => {}
    }
    for fix in &tip.facts {
        let Some(fact) = scenario.facts.get(fix.fact) else {
            continue;
        };
        let lever = match fix.lever {
            Lever::Forward => "forward",
            Lever::Externalise => "externalise",
        };
        out.push(format!("{lever} {}: {}", fact.id, fix.outcome.label()));
    }
    if out.is_empty() {
        out.push("no single change flips it".to_string());
    }
    out
}

/// The round-by-round losses of `run`: per round, which facts crossed
/// below the line, were dropped, became unverified, were spilled or restored,
/// and the later actions each change affects.
pub fn losses_html(scenario: &Scenario, run: &Run, losses: &[RoundLoss]) -> String {
    let mut out = String::from("<ol class=\"losses\">");
    let mut any = false;
    for loss in losses.iter().filter(|l| !l.changes.is_empty()) {
        any = true;
        let index = run.rounds().get(loss.round).map_or(0, |r| r.index);
        let _ = write!(
            out,
            "<li><strong>Round {index}</strong> (turn {}):<ul>",
            loss.turn
        );
        for c in &loss.changes {
            let Some(fact) = scenario.facts.get(c.fact) else {
                continue;
            };
            let what = match c.what {
                StandingChange::CrossedBelow => "fell below the actionable line",
                StandingChange::Dropped => "was dropped",
                StandingChange::Unverified => "became unverified",
                StandingChange::Spilled => "was spilled to a durable store",
                StandingChange::Restored => "was restored verbatim",
            };
            let _ = write!(
                out,
                "<li class=\"{}\"><strong>{}</strong> ({}, {}) {what}: {:.2} → {:.2}",
                match c.what {
                    StandingChange::Spilled | StandingChange::Restored => "gain",
                    _ => "loss",
                },
                escape(&fact.id),
                fact.role,
                fact.kind.label(),
                c.before.fidelity,
                c.after.fidelity
            );
            if !c.affects.is_empty() {
                let names: Vec<String> = c
                    .affects
                    .iter()
                    .filter_map(|a| scenario.actions.get(*a))
                    .map(|a| format!("{} (turn {})", escape(&a.id), a.turn))
                    .collect();
                let _ = write!(out, "; affects {}", names.join(", "));
            }
            out.push_str("</li>");
        }
        out.push_str("</ul></li>");
    }
    out.push_str("</ol>");
    if !any {
        return "<p class=\"note\">No round changes any fact's standing.</p>".to_string();
    }
    out
}

/// The actions of `run`: turn, id, tags and text, outcome (and the resource
/// acted on), fidelity, risk, why and consequence, and what would flip it
/// (`tipping`, one list per action, may be empty). Rows whose outcome just
/// changed carry `changed` (the page flashes them).
pub fn actions_html(
    scenario: &Scenario,
    run: &Run,
    changed: &[bool],
    tipping: &[Vec<String>],
) -> String {
    let with_tips = !tipping.is_empty();
    let mut out = String::from(
        "<table><thead><tr><th scope=\"col\">turn</th><th scope=\"col\">action</th>\
         <th scope=\"col\">outcome</th><th scope=\"col\">fidelity</th><th scope=\"col\">risk</th>\
         <th scope=\"col\">why</th>",
    );
    if with_tips {
        out.push_str("<th scope=\"col\">what would flip it</th>");
    }
    out.push_str("</tr></thead><tbody>");
    for (i, (a, graded)) in scenario.actions.iter().zip(run.actions()).enumerate() {
        let id = escape(&a.id);
        let _ = write!(
            out,
            "<tr data-action=\"{id}\"{}><td class=\"num\">{}</td><th scope=\"row\"><span class=\"action-id\">{id}</span>",
            if changed.get(i).copied().unwrap_or(false) {
                " class=\"changed\""
            } else {
                ""
            },
            a.turn,
        );
        for (on, tag) in [(a.delegated, "subagent"), (a.irreversible, "irreversible")] {
            if on {
                let _ = write!(out, "<span class=\"badge tag\">{tag}</span>");
            }
        }
        let _ = write!(
            out,
            "<span class=\"action-text\">{}</span></th><td><span class=\"{}\">{}</span>",
            escape(&a.text),
            outcome_class(graded.outcome),
            graded.outcome.label()
        );
        if let Some(r) = graded
            .resolved_resource
            .and_then(|r| scenario.resources.get(r))
        {
            let _ = write!(out, "<span class=\"resource\"> → {}</span>", escape(&r.id));
        }
        let why = explain(scenario, run, i)
            .map(|e| e.to_string())
            .unwrap_or_default();
        let _ = write!(
            out,
            "</td><td class=\"num\">{:.2}</td><td class=\"num\">{:.2}</td><td class=\"why-cell\">{}",
            graded.fidelity,
            graded.fabrication_risk,
            escape(&why)
        );
        if graded.outcome != Outcome::Governed && !a.consequence.is_empty() {
            let _ = write!(
                out,
                "<span class=\"consequence\"> {}</span>",
                escape(&a.consequence)
            );
        }
        out.push_str("</td>");
        if with_tips {
            out.push_str("<td class=\"tips\"><ul>");
            for tip in tipping.get(i).into_iter().flatten() {
                let _ = write!(out, "<li>{}</li>", escape(tip));
            }
            out.push_str("</ul></td>");
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
    out
}

/// The headline: the sentence, then one line per action that went wrong
/// (the worst few, and how many more, all in the actions table below).
pub fn headline_html(scenario: &Scenario, story: &Story) -> String {
    let mut out = format!(
        "<p class=\"summary\">{}</p><ul class=\"why\">",
        escape(&story.summary)
    );
    for line in &story.lines {
        let Some(a) = scenario.actions.get(line.action) else {
            continue;
        };
        let _ = write!(
            out,
            "<li><span class=\"{}\">{}</span> <strong>{}</strong>: {}<span class=\"consequence\"> {}</span></li>",
            outcome_class(line.outcome),
            line.outcome.label(),
            escape(&a.id),
            escape(&line.why),
            escape(&a.consequence)
        );
    }
    out.push_str("</ul>");
    if story.more > 0 {
        let _ = write!(
            out,
            "<p class=\"why-more\"><a href=\"#actions-heading\">and {} more</a>, each with its reason in the actions below.</p>",
            story.more
        );
    }
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
        assert!(html.contains("untrusted: retold history"));
        assert!(html.contains("already summarised") && !html.contains("laundering"));
        s.policy = PolicyChoice::Preset(Preset::None);
        let html = rounds_html(&simulate(&s).unwrap());
        assert!(html.contains("overflows at turn 20") && html.contains("No compaction round"));
    }

    #[test]
    fn the_actions_table_and_the_headline_say_what_went_wrong() {
        let mut s = builtin("staging-migration").unwrap();
        let run = simulate(&s).unwrap();
        let changed: Vec<bool> = (0..s.actions.len()).map(|i| i == 1).collect();
        let tips: Vec<Vec<String>> = drift_core::tipping_points(&s)
            .unwrap()
            .iter()
            .map(|t| tipping_text(&s, t))
            .collect();
        let html = actions_html(&s, &run, &changed, &tips);
        assert_eq!(html.matches("<tr data-action=").count(), s.actions.len());
        assert!(html.contains("<tr data-action=\"refund-test\" class=\"changed\">"));
        assert!(html.contains("<span class=\"outcome misbound\">misbound</span><span class=\"resource\"> → db-prod-01</span>"));
        let story = crate::story::tell(&s, &run);
        let head = headline_html(&s, &story);
        assert!(head.starts_with("<p class=\"summary\">Under pinned prefix"));
        assert_eq!(head.matches("<li>").count(), story.lines.len());
        // Texts from a file are escaped.
        s.actions[0].text = "<script>x</script>".to_string();
        assert!(html.contains("<th scope=\"col\">what would flip it</th>"));
        // verify_bindings off: the misbound migration is fixed by nothing but
        // keeping the binding actionable.
        assert!(html.contains("binding retention"), "{html}");
        let html = actions_html(&s, &run, &[], &[]);
        assert!(!html.contains("what would flip it"));
        assert!(html.contains("&lt;script&gt;") && !html.contains("<script>"));
    }

    #[test]
    fn round_by_round_names_the_fact_the_round_and_the_actions() {
        let s = builtin("payments-incident").unwrap();
        let run = simulate(&s).unwrap();
        let losses = drift_core::round_losses(&s, &run);
        let html = losses_html(&s, &run, &losses);
        assert!(
            html.contains("<li><strong>Round 3</strong> (turn 44):"),
            "{html}"
        );
        assert!(html.contains("<strong>payments-freeze</strong> (tool, standing rule) fell below the actionable line: 0.56 → 0.42"), "{html}");
        assert!(html.contains("rollback-payments (turn 63)"), "{html}");
        let mut none = s.clone();
        none.policy = PolicyChoice::Preset(Preset::None);
        let run = simulate(&none).unwrap();
        assert!(
            losses_html(&none, &run, &drift_core::round_losses(&none, &run)).contains("No round")
        );
    }

    #[test]
    fn tipping_text_names_levers_and_outcomes() {
        let s = builtin("payments-incident").unwrap();
        let tips = drift_core::tipping_points(&s).unwrap();
        let rollback = s
            .actions
            .iter()
            .position(|a| a.id == "rollback-payments")
            .unwrap();
        let text = tipping_text(&s, &tips[rollback]);
        assert!(
            text.iter()
                .any(|t| t.starts_with("standing rule retention ")
                    && t.ends_with(": weakly governed")),
            "{text:?}"
        );
        assert!(
            text.iter().any(|t| t.starts_with("a window of ")),
            "{text:?}"
        );
    }

    #[test]
    fn an_action_nothing_flips_says_so() {
        let mut found = 0;
        for id in drift_core::builtin_ids() {
            for p in Preset::ALL {
                let mut s = builtin(id).unwrap();
                s.policy = PolicyChoice::Preset(p);
                let tips = drift_core::tipping_points(&s).unwrap();
                for tip in &tips {
                    let text = tipping_text(&s, tip);
                    if text == ["no single change flips it"] {
                        found += 1;
                        assert!(
                            tip.retention
                                .iter()
                                .all(|r| r.raise.is_none() && r.lower.is_none())
                        );
                        assert!(tip.facts.is_empty());
                    } else {
                        assert!(!text.iter().any(|t| t == "no single change flips it"));
                    }
                }
            }
        }
        assert!(found > 0);
    }

    #[test]
    fn the_matrix_outlines_the_current_cell_and_escapes_ids() {
        let mut s = builtin("staging-migration").unwrap();
        s.id = "<staging>".to_string();
        let rows = [MatrixRow::of(&s)];
        let html = matrix_html(&rows, Some((0, Preset::UserVerbatim)));
        assert_eq!(html.matches("<button").count(), Preset::ALL.len());
        assert!(html.contains("<td class=\"current\"><button type=\"button\" data-row=\"0\" data-preset=\"user_verbatim\""));
        assert!(html.contains(
            "<td class=\"bad\"><button type=\"button\" data-row=\"0\" data-preset=\"pinned_prefix\""
        ));
        assert!(html.contains("&lt;staging&gt;") && !html.contains("<staging>"));
    }
}
