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
//! keeps only the answer to its latest request.
//!
//! - Analysis: [`request`] (the scenario file) and [`reply`] (per action the
//!   lines of [`tipping_text`], and the round-by-round report as markup).
//! - Exports, by the same worker: [`export_request`] (what to export on a
//!   line of its own, then the scenario file) and [`reply`] (the file's
//!   text). A result of every fact's timeline, or a chart of hundreds of
//!   rows, is written off the page.
//! - Import: [`import_request`] (the transcript) and [`import_reply`] (the
//!   [`Guesses`]).

use drift_core::round_losses;
use drift_core::tipping_points;
use drift_core::{Scenario, parse_scenario, result_to_json, scenario_to_json, simulate};
use serde_json::{Value, json};

use crate::chart::{Chart, Palette};
#[cfg(feature = "session")]
use crate::imported::Guesses;
use crate::tables::{losses_html, tipping_text};

/// What a worker says once it listens: requests sent before are lost.
pub const READY: &str = "ready";

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
}

/// The message asking for the tipping points of `scenario`.
pub fn request(seq: u64, scenario: &Scenario) -> String {
    format!("{seq}\n{}", scenario_to_json(scenario))
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

    /// The file's text for `scenario`.
    fn write(self, scenario: &Scenario) -> Result<String, String> {
        let run = simulate(scenario).map_err(|e| e.to_string())?;
        Ok(match self {
            Export::Svg { dark } => crate::chart::to_svg(
                &Chart::new(scenario, &run),
                &format!("{} under {}", scenario.id, run.policy_id()),
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
pub fn export_request(seq: u64, export: Export, scenario: &Scenario) -> String {
    format!("{seq}\n{}\n{}", export.id(), scenario_to_json(scenario))
}

/// An export reply read back: its sequence number and the file's text.
pub fn read_export_reply(reply: &str) -> Option<Reply<String>> {
    read_answer(reply, |v| Some(Ok(v.as_str()?.to_string())))
}

/// The analysis worker's answer to a request: for an analysis
/// `{"tips": [[...], ...], "losses": "..."}`, for an export the file's text.
pub fn reply(message: &str) -> String {
    answer(message, |body| {
        if let Some((kind, file)) = body.split_once('\n')
            && let Some(export) = Export::ALL.into_iter().find(|e| e.id() == kind)
        {
            let s = parse_scenario(file).map_err(|e| e.to_string())?;
            return export.write(&s).map(Value::String);
        }
        let file = body;
        let s = parse_scenario(file).map_err(|e| e.to_string())?;
        let run = simulate(&s).map_err(|e| e.to_string())?;
        let tips: Vec<Vec<String>> = tipping_points(&s)
            .map_err(|e| e.to_string())?
            .iter()
            .map(|t| tipping_text(&s, t))
            .collect();
        let losses = losses_html(&s, &run, &round_losses(&s, &run));
        Ok(json!({ "tips": tips, "losses": losses }))
    })
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
        Some(Analysis { tips, losses })
    }
}

#[cfg(feature = "session")]
/// The message asking for `transcript` to be imported.
pub fn import_request(seq: u64, transcript: &str) -> String {
    format!("{seq}\n{transcript}")
}

#[cfg(feature = "session")]
/// The import worker's answer: the [`Guesses`] (see [`Guesses::to_json`]),
/// or why the transcript could not be read, naming the line.
pub fn import_reply(message: &str) -> String {
    answer(message, |text| Guesses::read(text).map(|g| g.to_json()))
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
            let (seq, text) = read_export_reply(&reply(&export_request(5, export, &s))).unwrap();
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
        assert!(light.contains("payments-incident under pinned_prefix"));
        assert_ne!(light, dark);
        // A broken scenario is an error, not a file.
        let (_, e) = read_export_reply(&reply("6\njson\n{oops")).unwrap();
        assert!(e.unwrap_err().contains("line 1"));
        // An analysis reply is not an export's.
        assert_eq!(read_export_reply(&reply(&request(7, &s))), None);
    }

    #[test]
    fn a_bad_request_is_an_error_reply_not_a_panic() {
        let (seq, tips) = read_reply(&reply("3\n{not json")).unwrap();
        assert_eq!(seq, 3);
        assert!(tips.unwrap_err().contains("line 1"));
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
    fn a_broken_transcript_is_an_error_reply_naming_the_line() {
        let (seq, guesses) = read_import_reply(&import_reply(
            "9\n{\"type\":\"message\",\"role\":\"user\",\"content\":\"hi\"}\n{oops\n",
        ))
        .unwrap();
        assert_eq!(seq, 9);
        let e = guesses.unwrap_err();
        assert!(
            e.starts_with("The transcript could not be read: ") && e.contains("line 2"),
            "{e}"
        );
        assert!(read_import_reply("{}").is_none());
    }
}
