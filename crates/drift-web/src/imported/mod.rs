//! A transcript import as "Your own session" shows it, and its wire form.
//!
//! Reading a large session log takes a while, so the session page reads it
//! in a Web Worker (see [`crate::worker`]). The worker sends back what the
//! page shows, not the importer's whole working: the scenario it built, and
//! for each guess the sentence that explains it. [`Guesses::of`] makes that
//! from an [`Imported`]; [`Guesses::to_json`] and [`Guesses::from_json`]
//! carry it across.

use drift_core::{Kind, PolicyChoice, Scenario, parse_scenario, scenario_to_json};
use drift_core::{Outcome, RoundState};
use drift_session::{
    ImportOptions, Imported, Lineage, MeasuredRetention, Session, SessionAudit, Transcript,
    audit::{AfterPart, Fate, LostRule, Step, StepState},
    import::{Beside, BesideRow, Governance, Measured, Notice},
    rules::{Authority, shorten},
    transcript::CompactionKind,
};

use crate::chart::{Axis, Chart, Marker, Row, Step as ChartStep};
use serde_json::{Value, json};

use crate::html::escape;
use crate::story::plural;
use drift_core::thousands;

/// Why an action was guessed, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ActionNote {
    /// The tool call as `tool: command`.
    pub call: String,
    /// The consequential pattern that matched, as a person writes it.
    pub pattern: String,
    /// Where its governing facts came from.
    pub because: String,
}

/// An imported session: the scenario and every guess explained.
#[derive(Clone, Debug, PartialEq)]
pub struct Guesses {
    /// The scenario as imported (every guess applied).
    pub scenario: Scenario,
    /// What the transcript was read as ("a Codex CLI session").
    pub format: String,
    /// Per scenario fact: who said it, where, how often, and the words that
    /// decided its kind.
    pub facts: Vec<String>,
    /// Per scenario action.
    pub actions: Vec<ActionNote>,
    /// Risky calls with no rule before them, left out.
    pub skipped: usize,
    /// What the import changed or assumed, as sentences.
    pub notices: Vec<String>,
    /// Per scenario fact, its rule in the session's rules (where the log's
    /// fates of it are).
    pub rules: Vec<usize>,
    /// How many rounds fall at the log's compactions.
    pub placed: usize,
}

/// A log's compactions, audited rule by rule, as the session page shows
/// them. Read apart from the guesses (by a second worker), so that a long
/// log's guesses do not wait for the audit of every compaction.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Compactions {
    /// The markup ([`compactions_html`]).
    pub html: String,
    /// Retention measured from them, per kind of rule their summaries judged.
    pub retention: Vec<(Kind, f64)>,
    /// What the log shows of each rule at each compaction with a summary.
    pub measured: Vec<Measured>,
}

/// Reads a session log in any format the importer reads, and finds its
/// rules once for the guesses and the audit, or says why it could not,
/// naming the line.
pub fn read_log(text: &str) -> Result<Session, String> {
    Session::read(text).map_err(|e| format!("The transcript could not be read: {e}"))
}

impl Compactions {
    /// Audits every compaction of `transcript`, or says why it could not be
    /// read, naming the line.
    pub fn read(transcript: &str) -> Result<Compactions, String> {
        read_log(transcript).map(|s| Compactions::of(&s))
    }

    /// Audits every compaction of a session already read.
    pub fn of(session: &Session) -> Compactions {
        let t = &session.transcript;
        let audit = session.audit();
        let mut measured = MeasuredRetention::default();
        measured.add(t, &audit);
        let lineage = drift_session::lineage(t, &audit);
        Compactions {
            html: format!(
                "{}{}",
                compactions_html(&audit, t),
                lineage_html(t, &lineage)
            ),
            retention: measured.retention(),
            measured: drift_session::import::measured(&lineage),
        }
    }

    /// The wire form: `{"html", "retention": [[kind id, share], …],
    /// "measured": [[rule, [[fate id, verbatim] or null, …]], …]}`.
    pub fn to_json(&self) -> Value {
        json!({
            "html": self.html,
            "retention": self
                .retention
                .iter()
                .map(|(k, r)| json!([k.id(), r]))
                .collect::<Vec<_>>(),
            "measured": self
                .measured
                .iter()
                .map(|m| json!([m.rule, m.fates.iter().map(|f| f.map(|(f, v)| json!([f.id(), v]))).collect::<Vec<_>>()]))
                .collect::<Vec<_>>(),
        })
    }

    /// Reads the wire form back.
    ///
    /// # Errors
    ///
    /// The markup is missing, or a retention is not `[kind id, share]`.
    pub fn from_json(v: &Value) -> Result<Compactions, String> {
        let html = v
            .get("html")
            .and_then(Value::as_str)
            .ok_or("the compactions reply has no markup")?
            .to_string();
        let retention = v
            .get("retention")
            .and_then(Value::as_array)
            .ok_or("the compactions reply has no retention list")?
            .iter()
            .map(|x| match x.as_array().map(Vec::as_slice) {
                Some([k, r]) => k
                    .as_str()
                    .and_then(Kind::from_id)
                    .zip(r.as_f64())
                    .ok_or_else(|| {
                        "a retention in the compactions reply is not [kind, share]".to_string()
                    }),
                _ => Err("a retention in the compactions reply is not [kind, share]".to_string()),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let bad = || {
            "a rule's fates in the compactions reply are not [rule, [[fate, verbatim] or null]]"
                .to_string()
        };
        let measured = v
            .get("measured")
            .and_then(Value::as_array)
            .ok_or("the compactions reply has no measured list")?
            .iter()
            .map(|m| {
                let [rule, fates] = m.as_array().map(Vec::as_slice).ok_or_else(bad)? else {
                    return Err(bad());
                };
                let rule = rule
                    .as_u64()
                    .and_then(|n| usize::try_from(n).ok())
                    .ok_or_else(bad)?;
                let fates = fates
                    .as_array()
                    .ok_or_else(bad)?
                    .iter()
                    .map(|f| match f.as_array().map(Vec::as_slice) {
                        None if f.is_null() => Ok(None),
                        Some([fate, verbatim]) => fate
                            .as_str()
                            .and_then(Fate::from_id)
                            .zip(verbatim.as_bool())
                            .map(Some)
                            .ok_or_else(bad),
                        _ => Err(bad()),
                    })
                    .collect::<Result<Vec<_>, _>>()?;
                Ok(Measured { rule, fates })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Compactions {
            html,
            retention,
            measured,
        })
    }
}

/// At most this many rules drawn across the compactions.
const LINEAGE_ROWS: usize = 60;

/// Each message's turn as the import counts them (the system prompt is
/// turn 0, every other message one turn).
fn message_turns(t: &Transcript) -> Vec<u32> {
    let mut turn = 0u32;
    t.messages
        .iter()
        .map(|m| {
            if m.role.fact_role() != Some(drift_core::Role::System) {
                turn = turn.saturating_add(1);
            }
            turn
        })
        .collect()
}

/// The height a measured fate is drawn at: the line a rule's row follows
/// (its own words at the top, a summary's copy a little below, weakened at
/// the model's line, lost at the bottom).
fn fate_height(step: &Step) -> f64 {
    match (step.state, step.fate) {
        (StepState::Judged, Some(Fate::Reinjected)) => 1.0,
        (StepState::Judged, Some(Fate::Kept)) if step.verbatim => 1.0,
        (StepState::Judged, Some(Fate::Kept)) => 0.85,
        (StepState::Judged, Some(Fate::Weakened)) => 0.5,
        (StepState::Judged, Some(Fate::Dropped | Fate::Contradicted)) => 0.0,
        _ => 0.25,
    }
}

/// A measured fate in the colour of the outcome it would give an action.
fn fate_outcome(step: &Step) -> Outcome {
    match (step.state, step.fate) {
        (StepState::Judged, Some(Fate::Reinjected)) => Outcome::Governed,
        (StepState::Judged, Some(Fate::Kept)) if step.verbatim => Outcome::Governed,
        (StepState::Judged, Some(Fate::Kept | Fate::Weakened)) => Outcome::WeaklyGoverned,
        (StepState::Judged, Some(Fate::Dropped | Fate::Contradicted)) => Outcome::Ungoverned,
        _ => Outcome::NotReached,
    }
}

/// The rules of the user's, a brief's and the system's across the log's
/// compactions, drawn by the simulator's chart code: one row per rule, a
/// step at each compaction (its height and dot the fate the log shows, the
/// strip below how many summaries deep the agent's copy is), and a blue dot
/// where the user said it again.
pub fn lineage_html(t: &Transcript, lineage: &Lineage) -> String {
    if lineage.compactions.is_empty() || lineage.rules.is_empty() {
        return String::new();
    }
    let turns = message_turns(t);
    let turn_of = |message: usize| turns.get(message).copied().unwrap_or(0);
    let at: Vec<u32> = t
        .compactions
        .iter()
        .map(|c| c.at.checked_sub(1).map_or(0, turn_of))
        .collect();
    let record_turn = |line: usize| {
        t.messages
            .iter()
            .position(|m| m.record == line)
            .map_or(0, turn_of)
    };
    let total = turns.last().copied().unwrap_or(1).max(1);
    let rows: Vec<Row> = lineage
        .rules
        .iter()
        .take(LINEAGE_ROWS)
        .enumerate()
        .map(|(i, r)| {
            let shown: Vec<&Step> = r
                .steps
                .iter()
                .filter(|s| !matches!(s.state, StepState::NotYet | StepState::Untouched))
                .collect();
            let steps: Vec<ChartStep> = shown
                .iter()
                .map(|s| ChartStep {
                    turn: at.get(s.compaction - 1).copied().unwrap_or(0),
                    round: s.compaction as u32,
                    fidelity: fate_height(s),
                    risk: 0.0,
                    depth: s.depth.unwrap_or(0) as u32,
                    unverified: false,
                    state: RoundState::Summarised,
                })
                .collect();
            let mut markers: Vec<Marker> = shown
                .iter()
                .zip(&steps)
                .map(|(s, c)| Marker {
                    action: 0,
                    turn: c.turn,
                    fidelity: c.fidelity,
                    outcome: fate_outcome(s),
                })
                .collect();
            markers.extend(r.stated.iter().skip(1).map(|&line| Marker {
                action: 0,
                turn: record_turn(line),
                fidelity: 1.0,
                outcome: Outcome::Refused,
            }));
            Row {
                fact: i,
                id: shorten(&r.text, 48),
                role: if r.authority == Authority::System {
                    drift_core::Role::System
                } else {
                    drift_core::Role::User
                },
                kind: r.kind,
                turn: r.stated.first().map_or(0, |&l| record_turn(l)),
                externalised: false,
                forwarded: true,
                steps,
                markers,
            }
        })
        .collect();
    let chart = Chart {
        axis: Axis {
            turns: total,
            rounds: at.clone(),
            threshold: 0.5,
            overflow: None,
        },
        rows,
    };
    let svg = crate::chart::to_svg(
        &chart,
        &format!(
            "Your rules across {} (the fate the log shows)",
            plural(
                lineage.compactions.len() as u64,
                "compaction",
                "compactions"
            )
        ),
        &crate::chart::Palette::LIGHT,
    );
    let more = lineage.rules.len().saturating_sub(LINEAGE_ROWS);
    format!(
        "<details class=\"lineage\" open><summary>{} across the compactions</summary><p class=\"note\">One row per rule, a step at each compaction: at the top in its own words (kept word for word, put back, or said again), a little below when a summary carries it, at the line when weakened, at the bottom when dropped or contradicted; the strip below darkens with each summary its copy has passed through; a blue dot where it was said again. The height is the fate the log shows, not a measured fidelity.{}</p><div class=\"lineage-chart\">{svg}</div></details>",
        plural(lineage.rules.len() as u64, "rule", "rules"),
        if more > 0 {
            format!(
                " The first {LINEAGE_ROWS} are drawn; `drift audit --lineage` lists all {}.",
                lineage.rules.len()
            )
        } else {
            String::new()
        }
    )
}

/// The model beside the log (see [`drift_session::import::beside`]): how often the
/// two agree on whether a rule is carried, then one row per rule (those
/// that disagree first), a cell per round: the fidelity the model gives it
/// after the round, and the fate the log shows at the compaction.
pub fn beside_html(b: &Beside) -> String {
    if b.rounds == 0 || b.rows.is_empty() {
        return "<p class=\"note\" id=\"beside-none\">No round of the model falls at a compaction of this log's, so there is nothing to set side by side.</p>".to_string();
    }
    let mut rows: Vec<&BesideRow> = b.rows.iter().collect();
    rows.sort_by_key(|r| !r.disagrees());
    let disagree = rows.iter().filter(|r| r.disagrees()).count();
    let mut out = format!(
        "<p class=\"beside-summary\">The model and the log agree on whether a rule is carried in {} of {} rule × compaction ({}); {} disagree at least once. Carried in the model: fidelity at the actionable line or above; in the log: kept, put back or weakened.</p>",
        b.agree,
        b.compared,
        if b.compared == 0 {
            "nothing to compare".to_string()
        } else {
            format!("{:.0}%", 100.0 * b.agree as f64 / b.compared as f64)
        },
        plural(disagree as u64, "rule", "rules")
    );
    out.push_str(
        "<div class=\"table-wrap\"><table class=\"beside\"><thead><tr><th scope=\"col\">rule</th>",
    );
    for k in 1..=b.rounds {
        out.push_str(&format!("<th scope=\"col\">#{k} model · log</th>"));
    }
    out.push_str("</tr></thead><tbody>");
    for row in rows.iter().take(LINEAGE_ROWS) {
        out.push_str(&format!(
            "<tr data-fact=\"{}\"{}><th scope=\"row\"><code>{}</code><br><span class=\"why\">{}</span></th>",
            escape(&row.id),
            if row.disagrees() { " class=\"disagrees\"" } else { "" },
            escape(&row.id),
            escape(&shorten(&row.text, 90))
        ));
        for c in &row.cells {
            let model = c.modelled.map_or("—".to_string(), |f| format!("{f:.2}"));
            let log = match (c.measured, c.verbatim) {
                (Some(Fate::Kept), true) => "verbatim".to_string(),
                (Some(f), _) => f.id().to_string(),
                (None, _) => "—".to_string(),
            };
            let class = match c.agree {
                Some(true) => "agree",
                Some(false) => "disagree",
                None => "silent",
            };
            out.push_str(&format!(
                "<td class=\"{class}\">{model} · <span class=\"fate-{log}\">{log}</span>{}</td>",
                if c.agree == Some(false) { " ≠" } else { "" }
            ));
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table></div>");
    out
}

/// At most this many characters of a quote in the list.
const QUOTE: usize = 240;

/// One lost rule as a list item: the fate, the words, who gave it and
/// where, the summary's words (or nowhere) and why.
fn lost_item(r: &LostRule, detail: bool) -> String {
    let since = r
        .since
        .map_or(String::new(), |n| format!(" · lost since compaction {n}"));
    let mut li = format!(
        "<li class=\"fate-{0}\" data-rule=\"{1}\"><span class=\"fate\">{0}</span> “{2}” <span class=\"who\">{3}, line {4}{since} · a rule at {5}%</span>",
        r.fate.id(),
        r.rule,
        escape(&shorten(&r.text, QUOTE)),
        escape(&r.authority.giver(&r.source)),
        r.line,
        r.confidence / 10
    );
    if detail {
        let words = match &r.summary {
            Some(w) => format!(
                "{}: “{}”",
                if r.fate == Fate::Contradicted {
                    "the summary says"
                } else {
                    "the summary has"
                },
                escape(&shorten(w, QUOTE))
            ),
            None => "the summary: nowhere".to_string(),
        };
        li.push_str(&format!("<br><span class=\"evidence\">{words}</span>"));
        if !r.why.is_empty() {
            li.push_str(&format!(" <span class=\"why\">({})</span>", escape(&r.why)));
        }
    }
    li.push_str("</li>");
    li
}

/// A log's compactions as "Your own session" lists them, from the report
/// model ([`drift_session::report`]): per compaction its line, trigger and
/// size, then the rules of yours (a brief's, the system's) it lost with the
/// summary's words and the fix, the files and skills it lost rules of, the
/// carried rules as a count that opens, the re-injected ones per file, the
/// tool-output policies apart, and the rules its summary invented.
pub fn compactions_html(audit: &SessionAudit, transcript: &Transcript) -> String {
    if audit.compactions.is_empty() {
        return "<p class=\"note\" id=\"compactions-none\">The log records no compaction.</p>"
            .to_string();
    }
    let report = drift_session::report(transcript, audit);
    let mut out = format!(
        "<p class=\"compactions-summary\">{} in this log:</p>",
        plural(audit.compactions.len() as u64, "compaction", "compactions")
    );
    for (c, a) in report.compactions.iter().zip(&audit.compactions) {
        let mut head = format!("line {}", c.line);
        if let Some(t) = a.trigger {
            head.push_str(&format!(" · {}", t.id()));
        }
        match (c.tokens_before, c.tokens_after) {
            (Some(b), Some(n)) => {
                head.push_str(&format!(" · {} → {} tokens", thousands(b), thousands(n)));
            }
            (Some(b), None) => head.push_str(&format!(" · {} tokens before", thousands(b))),
            _ => {}
        }
        let mut said: Vec<String> = Vec::new();
        if let Some(why) = &c.unreadable {
            said.push(format!(
                "unreadable ({why}): {} in force cannot be judged",
                plural(c.unjudged as u64, "rule", "rules")
            ));
        }
        if c.kind == CompactionKind::ToolResults {
            said.push(format!(
                "{} cleared",
                plural(c.cleared as u64, "tool result", "tool results")
            ));
        }
        let mut count = |n: usize, what: &str| {
            if n > 0 {
                said.push(format!("{n} {what}"));
            }
        };
        let by_fate = |f: Fate| c.lost.iter().filter(|r| r.fate == f).count();
        count(by_fate(Fate::Contradicted), "contradicted");
        count(by_fate(Fate::Dropped), "dropped");
        count(by_fate(Fate::Weakened), "weakened");
        count(
            c.files.len(),
            if c.files.len() == 1 {
                "file lost rules"
            } else {
                "files lost rules"
            },
        );
        count(c.carried, "carried");
        count(c.possibly.len(), "possibly lost");
        count(c.reinjected.iter().map(|g| g.rules).sum(), "re-injected");
        count(c.from_tools.len(), "from tool output lost");
        count(c.invented.len(), "invented");
        if !a.changed_ids.is_empty() {
            said.push(plural(
                a.changed_ids.len() as u64,
                "id re-bound",
                "ids re-bound",
            ));
        }
        if said.is_empty() {
            said.push("no rule in force".to_string());
        }
        out.push_str(&format!(
            "<details class=\"compaction\" data-line=\"{}\"{}><summary>{} — {}</summary>",
            c.line,
            if c.broke_rules() { " open" } else { "" },
            escape(&head),
            escape(&said.join(", "))
        ));
        if !c.lost.is_empty() {
            out.push_str("<ul class=\"fates lost\">");
            for r in &c.lost {
                out.push_str(&lost_item(r, true));
            }
            out.push_str("</ul>");
            let mut fixes: Vec<&str> = Vec::new();
            for r in &c.lost {
                if !fixes.contains(&r.fix.as_str()) {
                    fixes.push(&r.fix);
                }
            }
            for f in fixes {
                out.push_str(&format!("<p class=\"fix\">Fix: {}</p>", escape(f)));
            }
        } else if c.unreadable.is_none() {
            out.push_str("<p class=\"note\">Lost: none of your rules.</p>");
        }
        if !c.possibly.is_empty() {
            out.push_str(&format!(
                "<details class=\"possibly\"><summary>Possibly lost: {} the finder is not sure {} (never restated by the hook)</summary><ul class=\"fates\">",
                plural(c.possibly.len() as u64, "sentence", "sentences"),
                if c.possibly.len() == 1 { "is a rule" } else { "are rules" }
            ));
            for r in &c.possibly {
                out.push_str(&lost_item(r, true));
            }
            out.push_str("</ul></details>");
        }
        for f in &c.files {
            out.push_str(&format!(
                "<details class=\"file-loss\"><summary>{} {}: {} of its {} lost</summary><ul class=\"fates\">",
                if f.skill { "Skill" } else { "File" },
                escape(&f.source),
                f.lost.len(),
                f.rules
            ));
            for r in &f.lost {
                out.push_str(&lost_item(r, false));
            }
            out.push_str(&format!(
                "</ul><p class=\"fix\">Fix: {}</p></details>",
                escape(&f.fix)
            ));
        }
        if c.carried > 0 {
            out.push_str(&format!(
                "<details class=\"carried\"><summary>{} carried</summary><ul class=\"fates\">",
                plural(c.carried as u64, "rule", "rules")
            ));
            for r in a
                .rules
                .iter()
                .filter(|r| r.sure && r.rule.fate == Fate::Kept)
            {
                let how = if r.after_part == Some(AfterPart::Kept) {
                    "kept word for word by the harness".to_string()
                } else {
                    r.rule
                        .evidence
                        .map(|e| {
                            format!(
                                "the summary: “{}”",
                                escape(&shorten(e.span.of(a.summary_text(transcript)), QUOTE))
                            )
                        })
                        .unwrap_or_default()
                };
                out.push_str(&format!(
                    "<li class=\"fate-kept\"><span class=\"fate\">kept</span> “{}” <span class=\"who\">{}, line {}</span><br><span class=\"evidence\">{how}</span></li>",
                    escape(&shorten(&r.rule.text, QUOTE)),
                    escape(&r.authority.giver(&r.source)),
                    r.record
                ));
            }
            out.push_str("</ul></details>");
        }
        if !c.reinjected.is_empty() {
            let groups: Vec<String> = c
                .reinjected
                .iter()
                .map(|g| {
                    format!(
                        "{} ({}{})",
                        escape(&g.source),
                        g.rules,
                        if g.from_disk {
                            ", re-read from disk"
                        } else {
                            ""
                        }
                    )
                })
                .collect();
            out.push_str(&format!(
                "<p class=\"reinjected\"><span class=\"fate\">re-injected</span> by the harness: {}</p>",
                groups.join(", ")
            ));
        }
        if !c.from_tools.is_empty() {
            out.push_str(&format!(
                "<details class=\"from-tools\"><summary>From tool output, lost: {} (data, not instructions; never restated unasked)</summary><ul class=\"fates\">",
                c.from_tools.len()
            ));
            for r in &c.from_tools {
                out.push_str(&lost_item(r, false));
            }
            out.push_str("</ul></details>");
        }
        if !c.invented.is_empty() {
            out.push_str("<ul class=\"fates invented\">");
            for i in &c.invented {
                out.push_str(&format!(
                    "<li class=\"fate-invented\"><span class=\"fate\">invented</span> “{}” <span class=\"why\">({})</span></li>",
                    escape(&shorten(i.text.trim(), QUOTE)),
                    escape(i.reason)
                ));
            }
            out.push_str("</ul>");
        }
        out.push_str("</details>");
    }
    out
}

impl Guesses {
    /// Each guessed fact's id with the index of the rule in force it
    /// stands for, as [`drift_session::import::beside`] pairs them.
    pub fn fact_rules(&self) -> Vec<(String, usize)> {
        self.scenario
            .facts
            .iter()
            .zip(&self.rules)
            .map(|(f, &r)| (f.id.clone(), r))
            .collect()
    }

    /// Reads `transcript` (any format the importer reads) with the default
    /// options, or says why it could not, naming the line.
    pub fn read(transcript: &str) -> Result<Guesses, String> {
        read_log(transcript).map(|s| Guesses::of_session(&s))
    }

    /// The guesses of a session already read, imported with the default
    /// options.
    pub fn of_session(session: &Session) -> Guesses {
        Guesses::of(&session.import(&ImportOptions::default()))
    }

    /// The guesses of an import, explained.
    pub fn of(imported: &Imported) -> Guesses {
        Guesses {
            scenario: imported.scenario.clone(),
            format: imported.format.label().to_string(),
            facts: imported
                .facts
                .iter()
                .map(|g| {
                    let times = if g.occurrences > 1 {
                        format!(" · said {} times", g.occurrences)
                    } else {
                        String::new()
                    };
                    format!(
                        "{} · record {}{times}; {}, {}% a rule",
                        g.origin.role.id(),
                        g.origin.record,
                        g.form.label(),
                        g.confidence / 10
                    )
                })
                .collect(),
            actions: imported
                .actions
                .iter()
                .map(|g| ActionNote {
                    call: format!("{}: {}", g.tool, g.command),
                    pattern: g.pattern.label.to_string(),
                    because: match &g.governance {
                        Governance::SharedResources(names) => {
                            format!("governed by the facts that name {}", names.join(", "))
                        }
                        Governance::EveryConstraintBefore => {
                            "governed by every rule before it (no shared resource)".to_string()
                        }
                    },
                })
                .collect(),
            skipped: imported.skipped.len(),
            notices: imported
                .notices
                .iter()
                .map(ToString::to_string)
                .chain(imported.damaged.iter().map(|line| {
                    format!("line {line} could not be read (a torn line) and was skipped")
                }))
                .collect(),
            rules: imported.facts.iter().map(|g| g.rule).collect(),
            placed: imported
                .notices
                .iter()
                .find_map(|n| match n {
                    Notice::RoundsPlaced { placed, .. } => Some(*placed),
                    _ => None,
                })
                .unwrap_or(0),
        }
    }

    /// What was read and guessed, in a paragraph, for the scenario as the
    /// person has set it (`edited`: its window and policy may differ).
    pub fn summary(&self, edited: &Scenario) -> String {
        let h = &edited.harness;
        let policy = match edited.policy {
            PolicyChoice::Preset(p) => p.info().name,
            PolicyChoice::Custom(_) => "a custom policy",
        };
        let count = |n: usize, one: &str, many: &str| plural(n as u64, one, many);
        let skipped = if self.skipped == 0 {
            String::new()
        } else {
            format!(
                ", {} skipped (no rule before them)",
                count(self.skipped, "risky call", "risky calls")
            )
        };
        let system = if h.system_tokens == 0 {
            "no system prompt".to_string()
        } else {
            format!(
                "a system prompt of about {} tokens",
                thousands(h.system_tokens)
            )
        };
        let mut text = format!(
            "Read as {}: {}, {system}, a {}-token window, {policy}; {} and {} guessed{skipped}. Token sizes are estimates (characters ÷ 4).",
            self.format,
            plural(h.turns, "turn", "turns"),
            thousands(h.window_tokens),
            count(self.facts.len(), "fact", "facts"),
            count(self.actions.len(), "action", "actions"),
        );
        for n in &self.notices {
            text.push_str(&format!(" Note: {n}."));
        }
        text
    }

    /// The wire form: a JSON object whose `scenario` is a scenario@1 file.
    pub fn to_json(&self) -> Value {
        json!({
            "scenario": scenario_to_json(&self.scenario),
            "format": self.format,
            "facts": self.facts,
            "actions": self
                .actions
                .iter()
                .map(|a| json!([a.call, a.pattern, a.because]))
                .collect::<Vec<_>>(),
            "skipped": self.skipped,
            "notices": self.notices,
            "rules": self.rules,
            "placed": self.placed,
        })
    }

    /// Reads the wire form back.
    ///
    /// # Errors
    ///
    /// What is missing or malformed, or the scenario's own validation error;
    /// a reply whose guesses do not match its scenario's facts and actions.
    pub fn from_json(v: &Value) -> Result<Guesses, String> {
        let text = |v: &Value, what: &str| {
            v.as_str()
                .map(str::to_string)
                .ok_or_else(|| format!("the import reply's {what} is not text"))
        };
        let texts = |key: &str| -> Result<Vec<String>, String> {
            v.get(key)
                .and_then(Value::as_array)
                .ok_or_else(|| format!("the import reply has no {key} list"))?
                .iter()
                .map(|x| text(x, key))
                .collect()
        };
        let scenario = parse_scenario(&text(
            v.get("scenario").unwrap_or(&Value::Null),
            "scenario",
        )?)
        .map_err(|e| format!("the imported scenario: {e}"))?;
        let actions = v
            .get("actions")
            .and_then(Value::as_array)
            .ok_or("the import reply has no actions list")?
            .iter()
            .map(|a| match a.as_array().map(Vec::as_slice) {
                Some([call, pattern, because]) => Ok(ActionNote {
                    call: text(call, "action call")?,
                    pattern: text(pattern, "action pattern")?,
                    because: text(because, "action reason")?,
                }),
                _ => {
                    Err("an action in the import reply is not [call, pattern, reason]".to_string())
                }
            })
            .collect::<Result<Vec<_>, _>>()?;
        let guesses = Guesses {
            format: text(v.get("format").unwrap_or(&Value::Null), "format")?,
            facts: texts("facts")?,
            actions,
            skipped: v
                .get("skipped")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or("the import reply's skipped count is not a count")?,
            notices: texts("notices")?,
            rules: v
                .get("rules")
                .and_then(Value::as_array)
                .ok_or("the import reply has no rules list")?
                .iter()
                .map(|r| {
                    r.as_u64()
                        .and_then(|n| usize::try_from(n).ok())
                        .ok_or_else(|| "a rule in the import reply is not an index".to_string())
                })
                .collect::<Result<Vec<_>, _>>()?,
            placed: v
                .get("placed")
                .and_then(Value::as_u64)
                .and_then(|n| usize::try_from(n).ok())
                .ok_or("the import reply's placed count is not a count")?,
            scenario,
        };
        if guesses.facts.len() != guesses.scenario.facts.len()
            || guesses.rules.len() != guesses.scenario.facts.len()
            || guesses.actions.len() != guesses.scenario.actions.len()
        {
            return Err("the import reply's guesses do not match its scenario".to_string());
        }
        Ok(guesses)
    }
}

#[cfg(test)]
mod tests;
