//! The page's Web Workers and what they say: the simulator's analysis
//! worker (what would flip each action, and what each round did) and the
//! session page's import worker (a transcript read as a scenario).
//!
//! Finding what would flip every action runs the engine dozens of times per
//! scenario, and reading a session log of megabytes takes longer than a
//! frame; both would stall the page, and their code is a sizeable part of a
//! page that must stay small. So each page starts a worker (a separate
//! WebAssembly module, loaded after the page is up) and asks it.
//!
//! Every protocol is strings. A worker first says [`READY`]; a request is a
//! sequence number, a newline and the body; the reply is a JSON object
//! carrying the same number and either the answer or an `error`. The page
//! keeps only the answer to its latest request. The analysis worker's body
//! is a first line saying what it is asked ([`Ask`]) and the scenario file.
//!
//! - The analysis worker: [`Ask`] says what is asked, [`reply`] answers:
//!   the analysis (per action the lines of [`tipping_text`], the
//!   round-by-round report, the rounds table, the policy's notes:
//!   [`Analysis`]), an export (the file's text; a result of every fact's
//!   timeline, or a chart of hundreds of rows, is written off the page), the
//!   compare view's report ([`compare_html`]), Fix it ([`Remedial`]), the
//!   matrix ([`matrix_markup`]) and a scenario packed for links. The
//!   `*_request` functions write each.
//! - Import: [`import_request`] (the transcript), then
//!   [`compactions_request`] (the compactions of the transcript it sent,
//!   audited from the same reading), and [`import_reply`] (the [`Guesses`],
//!   the [`Compactions`]).

use drift_core::round_losses;
use drift_core::tipping_points;
use drift_core::{
    MatrixRow, Outcome, PolicyChoice, Preset, RemedyHarness, RemedyPaths, Scenario, apply_remedy,
    parse_scenario, remedy_rules, remedy_text, result_to_json, scenario_to_json, simulate,
    window_misfit,
};
use serde_json::{Value, json};

use crate::chart::{Chart, Palette};
use crate::compare::{compare, to_html};
use crate::html::escape;
#[cfg(feature = "session")]
use crate::imported::{Compactions, Guesses};
use crate::page::Fix;
use crate::story::policy_name;
use crate::tables::matrix_html;
use crate::tables::{losses_html, tipping_text};

/// What a worker says once it listens: requests sent before are lost.
pub const READY: &str = "ready";

/// What the analysis worker is asked to do with a scenario: a request's
/// first line names it ([`Ask::line`]), the scenario file follows. An
/// unknown first line is an error, never taken for another request.
#[derive(Clone, Debug, PartialEq)]
pub enum Ask {
    /// What would flip each action, round by round, the rounds table, the
    /// policy's notes: [`Analysis`].
    Analysis,
    /// A file, a drawing titled `title` (else the scenario and policy).
    Export {
        /// What to export.
        export: Export,
        /// The drawing's title, one line.
        title: Option<String>,
    },
    /// The compare view against another preset.
    Compare(Preset),
    /// Fix it: a remedy written out and modelled, shown applied or not.
    Remedy {
        /// The remedy.
        fix: Fix,
        /// Whether the switch shows it applied.
        applied: bool,
    },
    /// The matrix, the scenario in place of row `row`, `current` outlined.
    Matrix {
        /// The scenario's row.
        row: Option<usize>,
        /// The preset on screen.
        current: Option<Preset>,
    },
    /// The scenario as a link carries it ([`crate::link::pack`]).
    Pack,
}

impl Ask {
    /// The request's first line: `analysis`, `svg TITLE`, `compare ID`,
    /// `remedy ID [applied]`, `matrix ROW|- PRESET|-`, `pack`.
    pub fn line(&self) -> String {
        match self {
            Ask::Analysis => "analysis".to_string(),
            Ask::Export { export, title } => match title {
                Some(t) => format!("{} {}", export.id(), t.replace(['\n', '\r'], " ")),
                None => export.id().to_string(),
            },
            Ask::Compare(other) => format!("compare {}", other.id()),
            Ask::Remedy { fix, applied } => {
                format!(
                    "remedy {}{}",
                    fix.id(),
                    if *applied { " applied" } else { "" }
                )
            }
            Ask::Matrix { row, current } => format!(
                "matrix {} {}",
                row.map_or_else(|| "-".to_string(), |r| r.to_string()),
                current.map_or("-", Preset::id)
            ),
            Ask::Pack => "pack".to_string(),
        }
    }

    /// Reads a first line written by [`Ask::line`].
    pub fn read(line: &str) -> Result<Ask, String> {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        if let Some(export) = Export::ALL.into_iter().find(|e| e.id() == kind) {
            let title = (!rest.is_empty()).then(|| rest.to_string());
            return Ok(Ask::Export { export, title });
        }
        match kind {
            "analysis" if rest.is_empty() => Ok(Ask::Analysis),
            "pack" if rest.is_empty() => Ok(Ask::Pack),
            "compare" => Preset::from_id(rest)
                .map(Ask::Compare)
                .ok_or_else(|| format!("no preset {rest:?}")),
            "remedy" => {
                let (id, applied) = match rest.split_once(' ') {
                    Some((id, "applied")) => (id, true),
                    _ => (rest, false),
                };
                let fix = Fix::from_id(id).ok_or_else(|| format!("no remedy {id:?}"))?;
                Ok(Ask::Remedy { fix, applied })
            }
            "matrix" => {
                let mut words = rest.split(' ');
                let row = words.next().and_then(|r| r.parse().ok());
                let current = words.next().and_then(Preset::from_id);
                Ok(Ask::Matrix { row, current })
            }
            _ => Err(format!("the worker has no request {line:?}")),
        }
    }

    /// The message asking this of `scenario`, numbered `seq`.
    pub fn message(&self, seq: u64, scenario: &Scenario) -> String {
        format!("{seq}\n{}\n{}", self.line(), scenario_to_json(scenario))
    }
}

/// Splits a request into its sequence number and body.
fn split(message: &str) -> (u64, &str) {
    let (seq, body) = message.split_once('\n').unwrap_or(("0", ""));
    (seq.parse().unwrap_or(0), body)
}

/// The reply to `message`: `{"seq": n, "answer": …}` with what `work` made
/// of its body, or `{"seq": n, "error": "…"}`.
fn answer(message: &str, work: impl FnOnce(&str) -> Result<Value, String>) -> String {
    let (seq, body) = split(message);
    match work(body) {
        Ok(answer) => json!({ "seq": seq, "answer": answer }),
        Err(e) => json!({ "seq": seq, "error": e }),
    }
    .to_string()
}

/// A reply read back: its sequence number and its answer (or the error it
/// carries); `None` for anything that is not a reply.
pub fn read_envelope(reply: &str) -> Option<Reply<Value>> {
    let mut v: Value = serde_json::from_str(reply).ok()?;
    let seq = v.get("seq")?.as_u64()?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Some((seq, Err(e.to_string())));
    }
    Some((seq, Ok(v.get_mut("answer")?.take())))
}

/// A reply read back, its answer as `read` reads it; `None` for anything
/// that is not such a reply.
fn read_answer<T>(
    reply: &str,
    read: impl FnOnce(&Value) -> Option<Result<T, String>>,
) -> Option<Reply<T>> {
    let (seq, answer) = read_envelope(reply)?;
    Some((
        seq,
        match answer {
            Ok(v) => read(&v)?,
            Err(e) => Err(e),
        },
    ))
}

/// What the worker found for one scenario.
#[derive(Clone, Debug, PartialEq)]
pub struct Analysis {
    /// Per action, what would flip it.
    pub tips: Vec<Vec<String>>,
    /// The round-by-round report, as markup.
    pub losses: String,
    /// The scenario's policy id, and for a harness preset what it
    /// approximates, leaves out and follows, as markup (else empty).
    pub policy: (String, String),
    /// When the policy is a harness preset in a window far too small for
    /// it, the sentence that says so ([`window_misfit`]), else empty.
    pub misfit: String,
    /// The rounds table, as markup ([`crate::tables::rounds_html`]).
    pub rounds: String,
}

/// What a harness preset approximates, leaves out and follows, as markup;
/// empty for the reference policies.
pub fn preset_notes_html(preset: Preset) -> String {
    let n = preset.notes();
    if n.approximates.is_empty() {
        return String::new();
    }
    format!(
        "<p class=\"policy-approx\">{}</p><p class=\"policy-approx\">Not modelled: {}</p><p class=\"policy-source\">Source: {}</p>",
        escape(n.approximates),
        escape(n.limits),
        escape(n.source)
    )
}

/// The message asking for the analysis of `scenario` ([`Ask::Analysis`]).
pub fn request(seq: u64, scenario: &Scenario) -> String {
    Ask::Analysis.message(seq, scenario)
}

/// What the simulator exports through its worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// The timelines as SVG, in the dark colours or the light.
    Svg {
        /// The dark colours.
        dark: bool,
    },
    /// The result (`result@1` JSON).
    Json,
    /// The actions as CSV.
    Csv,
}

impl Export {
    const ALL: [Export; 4] = [
        Export::Svg { dark: false },
        Export::Svg { dark: true },
        Export::Json,
        Export::Csv,
    ];

    fn id(self) -> &'static str {
        match self {
            Export::Svg { dark: false } => "svg",
            Export::Svg { dark: true } => "svg-dark",
            Export::Json => "json",
            Export::Csv => "csv",
        }
    }

    /// The file's text for `scenario`, a drawing titled `title` (else the
    /// scenario and its policy).
    fn write(self, scenario: &Scenario, title: Option<&str>) -> Result<String, String> {
        let run = simulate(scenario).map_err(|e| e.to_string())?;
        Ok(match self {
            Export::Svg { dark } => crate::chart::to_svg(
                &Chart::new(scenario, &run),
                &title.map_or_else(
                    || format!("{} under {}", scenario.id, run.policy_id()),
                    str::to_string,
                ),
                if dark {
                    &Palette::DARK
                } else {
                    &Palette::LIGHT
                },
            ),
            Export::Json => result_to_json(scenario, &run),
            Export::Csv => crate::csv::actions(scenario, &run),
        })
    }
}

/// The message asking for `export` of `scenario`.
/// A drawing is titled `title` (one line: [`crate::page::export_title`]).
pub fn export_request(seq: u64, export: Export, title: &str, scenario: &Scenario) -> String {
    let title = Some(title.to_string());
    Ask::Export { export, title }.message(seq, scenario)
}

/// An export reply read back: its sequence number and the file's text.
pub fn read_export_reply(reply: &str) -> Option<Reply<String>> {
    read_answer(reply, |v| Some(Ok(v.as_str()?.to_string())))
}

/// The message asking for `scenario` under its own policy against `other`
/// (the compare view's report).
/// The message asking for `scenario` as a link carries it
/// ([`crate::link::pack`]): the page reads compressed links but does not
/// compress.
pub fn pack_request(seq: u64, scenario: &Scenario) -> String {
    Ask::Pack.message(seq, scenario)
}

/// The message asking for the matrix: every built-in under every preset,
/// `scenario` (the current settings) in place of row `row` (the last,
/// after the built-ins, for an imported one), the cell of `current`
/// outlined.
pub fn matrix_request(
    seq: u64,
    row: Option<usize>,
    current: Option<Preset>,
    scenario: &Scenario,
) -> String {
    let row = row.map_or_else(|| "-".to_string(), |r| r.to_string());
    let current = current.map_or("-", Preset::id);
    format!(
        "{seq}\nmatrix {row} {current}\n{}",
        scenario_to_json(scenario)
    )
}

/// The matrix's markup ([`crate::tables::matrix_html`]) for
/// [`matrix_request`].
pub fn matrix_markup(row: Option<usize>, current: Option<Preset>, scenario: &Scenario) -> String {
    // The built-ins never change: their rows are worked out once per
    // worker, and each request runs only the scenario on screen.
    static BUILT_INS: std::sync::OnceLock<Vec<MatrixRow>> = std::sync::OnceLock::new();
    let built_ins = BUILT_INS.get_or_init(|| {
        drift_core::builtin_ids()
            .filter_map(drift_core::builtin)
            .map(|s| MatrixRow::of(&s))
            .collect()
    });
    let mut rows = built_ins.clone();
    match row {
        Some(r) if r < rows.len() => rows[r] = MatrixRow::of(scenario),
        Some(_) => rows.push(MatrixRow::of(scenario)),
        None => {}
    }
    matrix_html(&rows, row.zip(current))
}

pub fn compare_request(seq: u64, other: Preset, scenario: &Scenario) -> String {
    Ask::Compare(other).message(seq, scenario)
}

/// The compare view as markup: its picker (`other` chosen), then
/// `scenario` under its own policy against `other`, every action and fact
/// whose fate differs marked.
///
/// # Errors
///
/// The scenario does not run under `other`.
pub fn compare_html(scenario: &Scenario, other: Preset) -> Result<String, String> {
    let a = simulate(scenario).map_err(|e| e.to_string())?;
    let mut s = scenario.clone();
    s.policy = PolicyChoice::Preset(other);
    let b = simulate(&s).map_err(|e| e.to_string())?;
    let mut out = format!(
        "<div class=\"compare-pick\"><span>{} against</span><label class=\"picker\"><span class=\"visually-hidden\">Preset to compare with</span><select id=\"compare-with\">",
        escape(policy_name(&scenario.policy))
    );
    options(
        &mut out,
        Preset::ALL
            .into_iter()
            .map(|p| (p.id().to_string(), p.info().name, p == other)),
    );
    out.push_str("</select></label></div><div class=\"compare-report\">");
    out.push_str(&to_html(
        &compare(scenario, &a, &b),
        scenario,
        policy_name(&scenario.policy),
        other.info().name,
    ));
    out.push_str("</div>");
    Ok(out)
}

/// A picker's `<option>`s: each value, label, and whether it is chosen.
fn options<'a>(out: &mut String, items: impl Iterator<Item = (String, &'a str, bool)>) {
    for (value, label, selected) in items {
        out.push_str(&format!(
            "<option value=\"{}\"{}>{}</option>",
            escape(&value),
            if selected { " selected" } else { "" },
            escape(label)
        ));
    }
}

/// The message asking for `fix` written out for `scenario`.
pub fn remedy_request(seq: u64, fix: Fix, applied: bool, scenario: &Scenario) -> String {
    Ask::Remedy { fix, applied }.message(seq, scenario)
}

/// "Fix it" as markup: the pickers, the switch, the buttons, and what the
/// worker wrote (`model` and `markdown`; no markdown while it writes or
/// when it could not).
pub fn fix_markup(chosen: Fix, applied: bool, model: &str, markdown: Option<&str>) -> String {
    let mut out = String::from(
        "<div class=\"compare-pick\"><label class=\"picker\"><span>Harness</span><select id=\"fix-harness\">",
    );
    options(
        &mut out,
        RemedyHarness::ALL
            .into_iter()
            .map(|h| (h.id().to_string(), h.name(), h == chosen.harness)),
    );
    out.push_str(
        "</select></label><label class=\"picker\"><span>Remedy</span><select id=\"fix-remedy\">",
    );
    options(
        &mut out,
        chosen.harness.remedies().iter().map(|&remedy| {
            let f = Fix {
                harness: chosen.harness,
                remedy,
            };
            (f.id(), remedy.id(), f == chosen)
        }),
    );
    let checked = if applied { " checked" } else { "" };
    let disabled = if markdown.is_some() { "" } else { " disabled" };
    out.push_str(&format!(
        "</select></label><label class=\"switch\"><input type=\"checkbox\" id=\"fix-apply\"{checked}> Apply it in the simulation</label></div><div class=\"fix-model\">{model}</div><div class=\"fix-text\"><div class=\"compare-pick\"><button type=\"button\" id=\"fix-copy\"{disabled}>Copy</button><button type=\"button\" id=\"fix-download\"{disabled}>Download (.md)</button></div><pre id=\"fix-markdown\">{}</pre></div>",
        escape(markdown.unwrap_or(""))
    ));
    out
}

/// What the page's remedies name that depends on a machine it cannot see:
/// `drift` on the PATH, and a home directory to replace.
fn page_paths() -> RemedyPaths {
    RemedyPaths {
        drift: "drift".to_string(),
        home: "/home/you".to_string(),
    }
}

/// What "Fix it" shows for `fix` on `scenario`: the remedy written out as
/// Markdown, and as markup the run without it beside the run with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Remedial {
    /// The rules it carries (those governing an action that fails without
    /// it), the text to paste and where, its sources, and what the harness
    /// has no mechanism for; `None` when it cannot be applied.
    pub markdown: Option<String>,
    /// The view ([`fix_markup`]): the pickers, the switch, how many actions
    /// run without their rules without it and with it, what the model
    /// represents of it and what not, the comparison of both runs with
    /// every action and fact whose fate differs marked, and the Markdown.
    pub html: String,
}

/// [`Remedial`] for `fix` on `scenario`, the switch shown `applied` or not.
/// A scenario the remedy cannot be applied to is said so in the view.
pub fn remedial(fix: Fix, applied: bool, scenario: &Scenario) -> Remedial {
    match modelled(fix, scenario) {
        Ok((model, markdown)) => Remedial {
            html: fix_markup(fix, applied, &model, Some(&markdown)),
            markdown: Some(markdown),
        },
        Err(e) => Remedial {
            html: fix_markup(
                fix,
                applied,
                &format!(
                    "<p class=\"note\">This remedy cannot be applied here: {}</p>",
                    escape(&e)
                ),
                None,
            ),
            markdown: None,
        },
    }
}

/// The model's markup for `fix` on `scenario`, and the remedy as Markdown.
fn modelled(fix: Fix, scenario: &Scenario) -> Result<(String, String), String> {
    let h = fix.harness;
    let remedied = apply_remedy(scenario, h, fix.remedy).map_err(|e| e.to_string())?;
    let without = simulate(&remedied.without).map_err(|e| e.to_string())?;
    let with = simulate(&remedied.with).map_err(|e| e.to_string())?;
    let rules = remedy_rules(&remedied, &without);
    let mut markdown = if rules.is_empty() {
        format!(
            "No action fails under {} for want of a standing rule, carve-out, correction, scope or binding: nothing to carry.\n",
            h.name()
        )
    } else {
        remedy_text(h, fix.remedy, &rules, &page_paths()).markdown(h)
    };
    if let Some(none) = h.no_mechanism() {
        markdown.push_str(&format!("\n{none}\n"));
    }
    let ungoverned = |run: &drift_core::Run| run.counts().get(Outcome::Ungoverned);
    let misfit = window_misfit(&remedied.without, &without)
        .map(|m| {
            format!(
                "<p class=\"note warn\" id=\"fix-misfit\">{}</p>",
                escape(&m)
            )
        })
        .unwrap_or_default();
    let mut html = format!(
        "<p class=\"fix-counts\" id=\"fix-counts\">Actions that run without their rules: <strong>{}</strong> without it, <strong>{}</strong> with it (of {}).</p><ul class=\"fix-notes\">",
        ungoverned(&without),
        ungoverned(&with),
        without.actions().len()
    );
    html.insert_str(0, &misfit);
    for line in &remedied.modelled {
        html.push_str(&format!("<li>Modelled: {}</li>", escape(line)));
    }
    for line in &remedied.not_modelled {
        html.push_str(&format!("<li>Not modelled: {}</li>", escape(line)));
    }
    html.push_str("</ul>");
    html.push_str(&to_html(
        &compare(&remedied.without, &without, &with),
        &remedied.without,
        "without the fix",
        "with the fix",
    ));
    Ok((html, markdown))
}

impl Remedial {
    /// The remedy in a reply's answer.
    pub fn from_json(v: &Value) -> Option<Remedial> {
        Some(Remedial {
            markdown: v.get("markdown")?.as_str().map(str::to_string),
            html: v.get("html")?.as_str()?.to_string(),
        })
    }
}

/// Reads a remedy reply.
pub fn read_remedy_reply(reply: &str) -> Option<Reply<Remedial>> {
    read_answer(reply, |v| Some(Ok(Remedial::from_json(v)?)))
}

/// The analysis worker's answer to a request: for an analysis
/// `{"tips": [[...], ...], "losses": "..."}`, for an export the file's text.
pub fn reply(message: &str) -> String {
    answer(message, |body| {
        let (line, file) = body
            .split_once('\n')
            .ok_or_else(|| "the request names no scenario file".to_string())?;
        let ask = Ask::read(line)?;
        let s = parse_scenario(file).map_err(|e| e.to_string())?;
        match ask {
            Ask::Analysis => analysis(&s),
            Ask::Export { export, title } => export.write(&s, title.as_deref()).map(Value::String),
            Ask::Pack => Ok(Value::String(crate::link::pack(&s))),
            Ask::Matrix { row, current } => Ok(Value::String(matrix_markup(row, current, &s))),
            Ask::Compare(other) => compare_html(&s, other).map(Value::String),
            Ask::Remedy { fix, applied } => {
                let r = remedial(fix, applied, &s);
                Ok(json!({ "markdown": r.markdown, "html": r.html }))
            }
        }
    })
}

/// [`Ask::Analysis`] of `s`: the reply [`Analysis::from_json`] reads.
fn analysis(s: &Scenario) -> Result<Value, String> {
    let run = simulate(s).map_err(|e| e.to_string())?;
    let tips: Vec<Vec<String>> = tipping_points(s)
        .map_err(|e| e.to_string())?
        .iter()
        .map(|t| tipping_text(s, t))
        .collect();
    let losses = losses_html(s, &run, &round_losses(s, &run));
    let notes = match s.policy {
        PolicyChoice::Preset(p) => preset_notes_html(p),
        PolicyChoice::Custom(_) => String::new(),
    };
    Ok(json!({
        "tips": tips,
        "losses": losses,
        "policy": [s.policy.id(), notes],
        "misfit": window_misfit(s, &run).unwrap_or_default(),
        "rounds": crate::tables::rounds_html(&run),
    }))
}

/// A reply read back: its sequence number and the answer (or why there is
/// none).
pub type Reply<T> = (u64, Result<T, String>);

/// Reads a reply.
pub fn read_reply(reply: &str) -> Option<Reply<Analysis>> {
    read_answer(reply, |v| Some(Ok(Analysis::from_json(v)?)))
}

impl Analysis {
    /// The analysis in a reply's answer.
    pub fn from_json(v: &Value) -> Option<Analysis> {
        let tips = v
            .get("tips")?
            .as_array()?
            .iter()
            .map(|lines| {
                lines
                    .as_array()
                    .map(|l| {
                        l.iter()
                            .filter_map(|x| x.as_str().map(str::to_string))
                            .collect()
                    })
                    .unwrap_or_default()
            })
            .collect();
        let losses = v.get("losses")?.as_str()?.to_string();
        let policy = v.get("policy")?.as_array()?;
        let text = |i: usize| policy.get(i).and_then(Value::as_str).map(str::to_string);
        let field = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
        Some(Analysis {
            tips,
            losses,
            policy: (text(0)?, text(1)?),
            misfit: field("misfit")?,
            rounds: field("rounds")?,
        })
    }
}

#[cfg(feature = "session")]
/// The message asking for `transcript` to be imported.
pub fn import_request(seq: u64, transcript: &str) -> String {
    format!("{seq}\n{transcript}")
}

#[cfg(feature = "session")]
/// The first line of a request for a transcript's compactions (see
/// [`compactions_request`]).
const COMPACTIONS: &str = "drift:compactions";

#[cfg(feature = "session")]
std::thread_local! {
    /// The session the import worker read last, with the number of the
    /// request that sent it: its compactions are audited from this one
    /// reading, so a log crosses to the worker, is parsed and has its rules
    /// found once.
    static LAST_READ: core::cell::RefCell<Option<(u64, drift_session::Session)>> =
        const { core::cell::RefCell::new(None) };
}

#[cfg(feature = "session")]
/// The message asking the import worker to audit, rule by rule, the
/// compactions of the transcript that import request `read` sent
/// ([`crate::imported::Compactions`]). The transcript is not sent again.
pub fn compactions_request(seq: u64, read: u64) -> String {
    format!("{seq}\n{COMPACTIONS} {read}")
}

#[cfg(feature = "session")]
/// The import worker's answer: to an import request the [`Guesses`] (see
/// [`Guesses::to_json`]) or why the transcript could not be read, naming the
/// line; to a compactions request the [`Compactions`] of the transcript
/// that request names, or why it is no longer held (a later import replaced
/// it, or its compactions were already audited).
pub fn import_reply(message: &str) -> String {
    let (seq, _) = split(message);
    answer(message, |text| match text.strip_prefix(COMPACTIONS) {
        Some(rest) => {
            let read = rest.trim().parse::<u64>().ok();
            let held = LAST_READ.with_borrow_mut(|last| last.take_if(|(n, _)| Some(*n) == read));
            match held {
                Some((_, t)) => Ok(Compactions::of(&t).to_json()),
                None => Err("The compactions could not be audited: the log is no longer held; load it again".to_string()),
            }
        }
        None => {
            let session = crate::imported::read_log(text)?;
            let guesses = Guesses::of_session(&session);
            LAST_READ.with_borrow_mut(|last| *last = Some((seq, session)));
            Ok(guesses.to_json())
        }
    })
}

#[cfg(feature = "session")]
/// An import reply read back: its sequence number and the guesses (or why
/// there are none).
pub fn read_import_reply(reply: &str) -> Option<Reply<Guesses>> {
    read_answer(reply, |v| Some(Guesses::from_json(v)))
}

/// A worker's entry point: says [`READY`], then answers every message with
/// `answer`.
#[cfg(target_arch = "wasm32")]
pub fn start(answer: fn(&str) -> String) {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
        return;
    };
    let responder = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Some(message) = e.data().as_string() {
                let _ = responder.post_message(&answer(&message).into());
            }
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let _ = scope.post_message(&READY.into());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_request_reads_back_as_written() {
        let fix = Fix::from_id("codex_cli.restate_hook").unwrap();
        for ask in [
            Ask::Analysis,
            Ask::Export {
                export: Export::Svg { dark: true },
                title: Some("a b; c".to_string()),
            },
            Ask::Export {
                export: Export::Csv,
                title: None,
            },
            Ask::Compare(Preset::GeminiCli),
            Ask::Remedy { fix, applied: true },
            Ask::Remedy {
                fix,
                applied: false,
            },
            Ask::Matrix {
                row: Some(5),
                current: Some(Preset::Cline),
            },
            Ask::Matrix {
                row: None,
                current: None,
            },
            Ask::Pack,
        ] {
            assert_eq!(Ask::read(&ask.line()), Ok(ask.clone()), "{}", ask.line());
        }
    }

    #[test]
    fn a_pack_request_comes_back_as_the_link_text_that_opens_the_scenario() {
        let mut s = drift_core::builtin("coding-day").unwrap();
        s.id = "mine".to_string();
        let (seq, packed) = read_export_reply(&reply(&pack_request(9, &s))).unwrap();
        assert_eq!(seq, 9);
        let packed = packed.unwrap();
        assert_eq!(packed, crate::link::pack(&s));
        let state = crate::link::decode(&format!("?v=1&sz={packed}"))
            .unwrap()
            .unwrap();
        assert_eq!(state.scenario, s);
    }

    #[test]
    fn a_matrix_request_comes_back_as_every_row_with_the_current_one_outlined() {
        let mut s = drift_core::builtin("staging-migration").unwrap();
        s.retention.set(drift_core::Kind::Binding, 1.0);
        let row = drift_core::builtin_ids().position(|b| b == "staging-migration");
        let (seq, html) = read_export_reply(&reply(&matrix_request(
            4,
            row,
            Some(Preset::UserVerbatim),
            &s,
        )))
        .unwrap();
        assert_eq!(seq, 4);
        let html = html.unwrap();
        assert_eq!(html, matrix_markup(row, Some(Preset::UserVerbatim), &s));
        for id in drift_core::builtin_ids() {
            assert!(html.contains(&format!(">{id}<")), "{id}");
        }
        assert_eq!(html.matches("data-preset=").count(), 5 * Preset::ALL.len());
        // An imported scenario is the last row.
        let mut imported = s.clone();
        imported.id = "mine".to_string();
        let html = matrix_markup(Some(5), None, &imported);
        assert!(html.contains(">mine<"));
        assert_eq!(html.matches("data-preset=").count(), 6 * Preset::ALL.len());
    }

    #[test]
    fn a_compare_request_comes_back_as_the_report() {
        let s = drift_core::builtin("staging-migration").unwrap();
        let (seq, html) = read_export_reply(&reply(&compare_request(
            9,
            drift_core::Preset::OpenaiCompact,
            &s,
        )))
        .unwrap();
        assert_eq!(seq, 9);
        let html = html.unwrap();
        let a = simulate(&s).unwrap();
        let mut t = s.clone();
        t.policy = PolicyChoice::Preset(drift_core::Preset::OpenaiCompact);
        let b = simulate(&t).unwrap();
        let direct = to_html(
            &compare(&s, &a, &b),
            &s,
            policy_name(&s.policy),
            drift_core::Preset::OpenaiCompact.info().name,
        );
        assert!(html.contains(&direct), "{html}");
        assert!(
            html.contains("<option value=\"openai_compact\" selected>"),
            "{html}"
        );
        let (_, e) = read_export_reply(&reply("2\ncompare nonesuch\n{}")).unwrap();
        assert!(e.unwrap_err().contains("nonesuch"));
    }

    #[test]
    fn a_remedy_request_comes_back_written_out_and_modelled() {
        use drift_core::{Remedy, RemedyHarness};
        let s = drift_core::builtin("payments-incident").unwrap();
        let fix = Fix {
            harness: RemedyHarness::ClaudeCode,
            remedy: Remedy::ClaudeMd,
        };
        let (seq, r) = read_remedy_reply(&reply(&remedy_request(3, fix, false, &s))).unwrap();
        assert_eq!(seq, 3);
        let r = r.unwrap();
        let text = r.markdown.as_deref().unwrap_or_default();
        assert!(r.html.contains("id=\"fix-apply\">"), "{}", r.html);
        assert!(
            text.starts_with("# Claude Code: the rules in the project-root CLAUDE.md"),
            "{text}"
        );
        assert!(
            text.contains("```markdown\n## Rules that hold for the whole session"),
            "{text}"
        );
        // payments-incident under Claude Code: five actions fail without it.
        assert!(
            r.html.contains("<strong>5</strong> without it"),
            "{}",
            r.html
        );
        assert!(r.html.contains("class=\"differs\""), "{}", r.html);
        let hook = Fix {
            remedy: Remedy::RestateHook,
            ..fix
        };
        let (_, r) = read_remedy_reply(&reply(&remedy_request(4, hook, true, &s))).unwrap();
        let r = r.unwrap();
        assert!(r.html.contains("id=\"fix-apply\" checked>"), "{}", r.html);
        assert!(
            r.markdown
                .unwrap_or_default()
                .contains("\"command\": \"drift hook claude-code\"")
        );
        // An id that names no remedy is an error reply, not a panic.
        let (_, e) = read_remedy_reply(&reply("5\nremedy letta_sliding.restate_hook\n{}")).unwrap();
        assert!(e.unwrap_err().contains("letta_sliding.restate_hook"));
    }

    #[test]
    fn a_request_comes_back_as_tipping_lines_per_action() {
        let s = drift_core::builtin("payments-incident").unwrap();
        let (seq, analysis) = read_reply(&reply(&request(7, &s))).unwrap();
        assert_eq!(seq, 7);
        let analysis = analysis.unwrap();
        assert!(
            analysis
                .losses
                .contains("<strong>Round 3</strong> (turn 44)")
        );
        let tips = analysis.tips;
        assert_eq!(tips.len(), s.actions.len());
        let rollback = s
            .actions
            .iter()
            .position(|a| a.id == "rollback-payments")
            .unwrap();
        assert!(
            tips[rollback].iter().any(|t| t.starts_with("a window of ")),
            "{:?}",
            tips[rollback]
        );
    }

    #[test]
    fn exports_come_back_as_the_files_text() {
        let s = drift_core::builtin("payments-incident").unwrap();
        let run = simulate(&s).unwrap();
        let ask = |export| {
            let title = "payments-incident under pinned_prefix; edited: window (tokens) 64,000";
            let (seq, text) =
                read_export_reply(&reply(&export_request(5, export, title, &s))).unwrap();
            assert_eq!(seq, 5);
            text.unwrap()
        };
        assert_eq!(ask(Export::Json), result_to_json(&s, &run));
        assert_eq!(ask(Export::Csv), crate::csv::actions(&s, &run));
        let (light, dark) = (
            ask(Export::Svg { dark: false }),
            ask(Export::Svg { dark: true }),
        );
        assert!(light.starts_with("<svg") && light.contains("payments-freeze"));
        // The title on two lines, the key beneath.
        assert!(light.contains(">\npayments-incident under pinned_prefix\n<"));
        assert!(light.contains(">\nedited: window (tokens) 64,000\n<"));
        assert!(light.contains(">\nactionable line\n<") && light.contains(">\nnot there\n<"));
        assert_ne!(light, dark);
        // A broken scenario is an error, not a file.
        let (_, e) = read_export_reply(&reply("6\njson\n{oops")).unwrap();
        assert!(e.unwrap_err().contains("line 1"));
        // An analysis reply is not an export's.
        assert_eq!(read_export_reply(&reply(&request(7, &s))), None);
    }

    #[test]
    fn a_bad_request_is_an_error_reply_not_a_panic() {
        let (seq, tips) = read_reply(&reply("3\nanalysis\n{not json")).unwrap();
        assert_eq!(seq, 3);
        assert!(tips.unwrap_err().contains("line 1"));
        // A request the worker does not know is named, never taken for another.
        let (_, e) = read_reply(&reply("4\n{not json\n{}")).unwrap();
        assert_eq!(e.unwrap_err(), "the worker has no request \"{not json\"");
        let (_, e) = read_reply(&reply("5\nremedy nowhere.at_all\n{}")).unwrap();
        assert_eq!(e.unwrap_err(), "no remedy \"nowhere.at_all\"");
        let (_, e) = read_reply(&reply("6\nanalysis")).unwrap();
        assert_eq!(e.unwrap_err(), "the request names no scenario file");
        assert!(read_reply(&reply("garbage")).is_some());
        assert!(read_reply("not a reply").is_none());
    }

    #[cfg(feature = "session")]
    #[test]
    fn an_import_request_comes_back_as_guesses() {
        let log = concat!(
            r#"{"type":"message","role":"user","content":"Never restart db-prod-01 without an approver."}"#,
            "\n",
            r#"{"type":"function_call","call_id":"a","name":"shell","arguments":"{\"command\":\"systemctl restart db-prod-01\"}"}"#,
            "\n"
        );
        let (seq, guesses) = read_import_reply(&import_reply(&import_request(4, log))).unwrap();
        assert_eq!(seq, 4);
        let g = guesses.unwrap();
        assert_eq!(g.scenario.facts.len(), 1);
        assert_eq!(g.scenario.actions.len(), 1);
        assert_eq!(
            g.actions[0].because,
            "governed by the facts that name db-prod-01"
        );
    }

    #[cfg(feature = "session")]
    #[test]
    fn a_torn_line_is_named_and_an_unreadable_transcript_is_an_error_reply() {
        let (seq, guesses) = read_import_reply(&import_reply(
            "9\n{\"type\":\"message\",\"role\":\"user\",\"content\":\"Never deploy on Fridays.\"}\n{oops\n",
        ))
        .unwrap();
        assert_eq!(seq, 9);
        let g = guesses.unwrap();
        assert!(
            g.notices
                .iter()
                .any(|n| n.contains("line 2 could not be read")),
            "{:?}",
            g.notices
        );
        let (_, bad) = read_import_reply(&import_reply("3\n{\"a\":1}\n{\"b\":2}\n")).unwrap();
        let e = bad.unwrap_err();
        assert!(e.starts_with("The transcript could not be read: "), "{e}");
        assert!(read_import_reply("{}").is_none());
    }
}
