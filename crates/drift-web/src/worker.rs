//! The analyses behind the simulator, off the page's thread and in a module
//! of their own: what would flip each action (tipping points) and what each
//! round did (round by round).
//!
//! Finding what would flip every action runs the engine dozens of times per
//! scenario, and both analyses' code is a sizeable part of a page that must
//! stay small; so the simulator starts this worker (a separate WebAssembly
//! module, loaded after the page is up) and asks it. The protocol is two
//! strings: a request [`request`] (a sequence number and the scenario
//! file), a reply [`reply`] (the same number, per action the lines of
//! [`tipping_text`], and the round-by-round report as markup).

use drift_core::losses::round_losses;
use drift_core::tipping::tipping_points;
use drift_core::{Scenario, parse_scenario, scenario_to_json, simulate};
use serde_json::{Value, json};

use crate::tables::{losses_html, tipping_text};

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

/// The worker's answer to a request: `{"seq": n, "tips": [[...], ...],
/// "losses": "..."}`, or `{"seq": n, "error": "..."}`.
pub fn reply(message: &str) -> String {
    let (seq, file) = message.split_once('\n').unwrap_or(("0", ""));
    let seq: u64 = seq.parse().unwrap_or(0);
    let answer = parse_scenario(file).and_then(|s| {
        let run = simulate(&s)?;
        let tips: Vec<Vec<String>> = tipping_points(&s)?
            .iter()
            .map(|t| tipping_text(&s, t))
            .collect();
        Ok((tips, losses_html(&s, &run, &round_losses(&s, &run))))
    });
    match answer {
        Ok((tips, losses)) => json!({ "seq": seq, "tips": tips, "losses": losses }).to_string(),
        Err(e) => json!({ "seq": seq, "error": e.to_string() }).to_string(),
    }
}

/// A reply read back: its sequence number and the analysis (or why there is
/// none).
pub type Reply = (u64, Result<Analysis, String>);

/// Reads a reply.
pub fn read_reply(reply: &str) -> Option<Reply> {
    let v: Value = serde_json::from_str(reply).ok()?;
    let seq = v.get("seq")?.as_u64()?;
    if let Some(e) = v.get("error").and_then(Value::as_str) {
        return Some((seq, Err(e.to_string())));
    }
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
    Some((seq, Ok(Analysis { tips, losses })))
}

/// The worker's entry point: answers every message.
#[cfg(target_arch = "wasm32")]
pub fn start() {
    use wasm_bindgen::JsCast;
    use wasm_bindgen::closure::Closure;

    let Ok(scope) = js_sys::global().dyn_into::<web_sys::DedicatedWorkerGlobalScope>() else {
        return;
    };
    let responder = scope.clone();
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            if let Some(message) = e.data().as_string() {
                let _ = responder.post_message(&reply(&message).into());
            }
        });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
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
    fn a_bad_request_is_an_error_reply_not_a_panic() {
        let (seq, tips) = read_reply(&reply("3\n{not json")).unwrap();
        assert_eq!(seq, 3);
        assert!(tips.unwrap_err().contains("line 1"));
        assert!(read_reply(&reply("garbage")).is_some());
        assert!(read_reply("not a reply").is_none());
    }
}
