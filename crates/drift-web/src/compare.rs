//! Two policies side by side on one scenario: which actions and which facts
//! end differently.

use std::fmt::Write as _;

use drift_core::{Outcome, OutcomeCounts, Run, Scenario};

use crate::html::{escape, outcome_class};

/// What became of a fact by the time it was last needed.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Fate {
    /// Still actionable, at this fidelity.
    Actionable(f64),
    /// Below the actionable line since the round at this turn.
    Lost {
        /// The turn of the round that took it below the line.
        since: u32,
    },
}

/// One action under both policies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ActionPair {
    /// Index of the action.
    pub action: usize,
    /// Outcome under the first policy.
    pub a: Outcome,
    /// Outcome under the second.
    pub b: Outcome,
}

impl ActionPair {
    /// Whether the two policies grade it differently.
    pub fn differs(&self) -> bool {
        self.a != self.b
    }
}

/// One fact under both policies.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FactPair {
    /// Index of the fact.
    pub fact: usize,
    /// The turn it was last needed (its last governing action, else the end).
    pub needed_at: u32,
    /// Its fate under the first policy.
    pub a: Fate,
    /// Its fate under the second.
    pub b: Fate,
}

impl FactPair {
    /// Whether one policy keeps it actionable and the other loses it.
    pub fn differs(&self) -> bool {
        matches!(self.a, Fate::Actionable(_)) != matches!(self.b, Fate::Actionable(_))
    }
}

/// Everything the compare view shows.
#[derive(Clone, Debug, PartialEq)]
pub struct Comparison {
    /// Actions in file order.
    pub actions: Vec<ActionPair>,
    /// Facts in file order.
    pub facts: Vec<FactPair>,
    /// Outcome counts under each policy.
    pub counts: (OutcomeCounts, OutcomeCounts),
    /// Round counts under each policy.
    pub rounds: (usize, usize),
    /// Overflow turns under each policy.
    pub overflow: (Option<u32>, Option<u32>),
}

/// The fate of fact `f` in `run`, as seen at `turn`.
fn fate(scenario: &Scenario, run: &Run, f: usize, turn: u32) -> Fate {
    let threshold = scenario.model.actionable_threshold;
    let mut since = None;
    let mut fidelity = 1.0;
    for entry in run.timeline(f).take_while(|e| e.turn < turn) {
        fidelity = entry.fact.fidelity;
        if fidelity < threshold {
            since.get_or_insert(entry.turn);
        } else {
            since = None;
        }
    }
    match since {
        Some(since) => Fate::Lost { since },
        None => Fate::Actionable(fidelity),
    }
}

/// Compares `a` and `b`, two runs of `scenario` under different policies.
pub fn compare(scenario: &Scenario, a: &Run, b: &Run) -> Comparison {
    let actions = a
        .actions()
        .iter()
        .zip(b.actions())
        .enumerate()
        .map(|(i, (x, y))| ActionPair {
            action: i,
            a: x.outcome,
            b: y.outcome,
        })
        .collect();
    let end = scenario.harness.turns.saturating_add(1);
    let facts = scenario
        .facts
        .iter()
        .enumerate()
        .map(|(i, fact)| {
            let needed_at = scenario
                .actions
                .iter()
                .filter(|act| act.governed_by.contains(&fact.id))
                .map(|act| act.turn)
                .max()
                .unwrap_or(end);
            FactPair {
                fact: i,
                needed_at,
                a: fate(scenario, a, i, needed_at),
                b: fate(scenario, b, i, needed_at),
            }
        })
        .collect();
    Comparison {
        actions,
        facts,
        counts: (a.counts(), b.counts()),
        rounds: (a.rounds().len(), b.rounds().len()),
        overflow: (a.overflow_turn(), b.overflow_turn()),
    }
}

fn fate_text(fate: Fate) -> String {
    match fate {
        Fate::Actionable(f) => format!("actionable ({f:.2})"),
        Fate::Lost { since } => format!("lost since turn {since}"),
    }
}

fn counts_text(c: &OutcomeCounts) -> String {
    let parts: Vec<String> = c
        .iter()
        .filter(|(_, n)| *n > 0)
        .map(|(o, n)| format!("{n} {}", o.label()))
        .collect();
    parts.join(", ")
}

/// The comparison as HTML (a static report: every text escaped), with the
/// rows that differ marked `differs`. `a` and `b` name the two policies.
pub fn to_html(c: &Comparison, scenario: &Scenario, a: &str, b: &str) -> String {
    let (a, b) = (escape(a), escape(b));
    let mut out = String::new();
    let differing = c.actions.iter().filter(|p| p.differs()).count();
    let facts = c.facts.iter().filter(|p| p.differs()).count();
    let overflow = |o: Option<u32>| {
        o.map(|t| format!(", overflows at turn {t}"))
            .unwrap_or_default()
    };
    let _ = write!(
        out,
        "<p class=\"compare-summary\">{differing} of {} actions and {facts} of {} facts end differently.</p>\
         <ul class=\"compare-totals\"><li><strong>{a}</strong>: {} rounds{}; {}</li>\
         <li><strong>{b}</strong>: {} rounds{}; {}</li></ul>",
        c.actions.len(),
        c.facts.len(),
        c.rounds.0,
        overflow(c.overflow.0),
        counts_text(&c.counts.0),
        c.rounds.1,
        overflow(c.overflow.1),
        counts_text(&c.counts.1),
    );
    let _ = write!(
        out,
        "<div class=\"table-wrap\"><table class=\"compare-actions\"><caption>Actions (rows that differ are marked)</caption>\
         <thead><tr><th scope=\"col\">turn</th><th scope=\"col\">action</th><th scope=\"col\">{a}</th><th scope=\"col\">{b}</th></tr></thead><tbody>"
    );
    for p in &c.actions {
        let Some(action) = scenario.actions.get(p.action) else {
            continue;
        };
        let _ = write!(
            out,
            "<tr class=\"{}\" data-action=\"{}\"><td class=\"num\">{}</td><th scope=\"row\">{}<span class=\"fact-words\">{}</span></th>\
             <td><span class=\"{}\">{}</span></td><td><span class=\"{}\">{}</span></td></tr>",
            if p.differs() { "differs" } else { "" },
            escape(&action.id),
            action.turn,
            escape(&action.id),
            escape(&action.text),
            outcome_class(p.a),
            p.a.label(),
            outcome_class(p.b),
            p.b.label(),
        );
    }
    let _ = write!(
        out,
        "</tbody></table></div><div class=\"table-wrap\"><table class=\"compare-facts\"><caption>Facts, when they were last needed</caption>\
         <thead><tr><th scope=\"col\">fact</th><th scope=\"col\">from</th><th scope=\"col\">needed at</th>\
         <th scope=\"col\">{a}</th><th scope=\"col\">{b}</th></tr></thead><tbody>"
    );
    for p in &c.facts {
        let Some(fact) = scenario.facts.get(p.fact) else {
            continue;
        };
        let _ = write!(
            out,
            "<tr class=\"{}\" data-fact=\"{}\"><th scope=\"row\">{}<span class=\"fact-words\">{}</span></th><td>{} · {}</td><td class=\"num\">{}</td><td>{}</td><td>{}</td></tr>",
            if p.differs() { "differs" } else { "" },
            escape(&fact.id),
            escape(&fact.id),
            escape(&fact.text),
            fact.role,
            fact.kind.label(),
            p.needed_at,
            fate_text(p.a),
            fate_text(p.b),
        );
    }
    out.push_str("</tbody></table></div>");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use drift_core::{PolicyChoice, Preset, builtin, simulate};

    fn under(id: &str, preset: Preset) -> (Scenario, Run) {
        let mut s = builtin(id).unwrap();
        s.policy = PolicyChoice::Preset(preset);
        let run = simulate(&s).unwrap();
        (s, run)
    }

    #[test]
    fn claude_code_and_openai_compact_part_on_the_typed_rule() {
        let (s, a) = under("coding-day", Preset::ClaudeCode);
        let (_, b) = under("coding-day", Preset::OpenaiCompact);
        let c = compare(&s, &a, &b);
        let clean = s
            .actions
            .iter()
            .position(|x| x.id == "clean-data-dir")
            .unwrap();
        assert_eq!(
            c.actions[clean],
            ActionPair {
                action: clean,
                a: Outcome::Ungoverned,
                b: Outcome::Governed
            }
        );
        let rule = s.fact_index("keep-legacy-import").unwrap();
        assert!(c.facts[rule].differs());
        assert!(matches!(c.facts[rule].a, Fate::Lost { since: 124 }));
        assert_eq!(c.facts[rule].b, Fate::Actionable(1.0));
        assert_eq!(c.facts[rule].needed_at, 158);
        // The tool-discovered rule is lost under both: same fate.
        let dba = s.fact_index("dba-review").unwrap();
        assert!(!c.facts[dba].differs());
        // The memory-file rule is kept under both.
        let memory = s.fact_index("no-main-push").unwrap();
        assert!(!c.facts[memory].differs());
    }

    #[test]
    fn the_report_marks_what_differs_and_escapes_what_it_shows() {
        let (mut s, a) = under("coding-day", Preset::ClaudeCode);
        let (_, b) = under("coding-day", Preset::OpenaiCompact);
        let c = compare(&s, &a, &b);
        let html = to_html(&c, &s, "Claude Code", "<OpenAI & co>");
        assert!(html.contains("<tr class=\"differs\" data-action=\"clean-data-dir\">"));
        assert!(html.contains("<tr class=\"\" data-action=\"run-migration\">"));
        assert!(html.contains("<tr class=\"differs\" data-fact=\"keep-legacy-import\">"));
        assert!(html.contains("&lt;OpenAI &amp; co&gt;") && !html.contains("<OpenAI"));
        assert!(html.contains("3 of 6 actions and 1 of 8 facts end differently."));
        // Ids from an imported file are text, never markup.
        s.actions[0].id = "<img src=x onerror=alert(1)>".to_string();
        let html = to_html(&c, &s, "a", "b");
        assert!(!html.contains("<img"));
    }

    #[test]
    fn a_policy_against_itself_differs_nowhere() {
        let (s, a) = under("payments-incident", Preset::PinnedPrefix);
        let (_, b) = under("payments-incident", Preset::PinnedPrefix);
        let c = compare(&s, &a, &b);
        assert!(c.actions.iter().all(|p| !p.differs()));
        assert!(c.facts.iter().all(|p| !p.differs()));
        assert_eq!(c.counts.0, c.counts.1);
    }
}
