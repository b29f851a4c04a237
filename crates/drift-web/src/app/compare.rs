//! The compare view: the current policy against another preset, on the
//! current scenario, with every action and fact whose fate differs marked.
//!
//! The view is markup the analysis worker writes ([`crate::worker::compare_html`]):
//! two runs of the engine and the report of both, off the page and out of
//! its WebAssembly; the page answers its picker where the change bubbles.

use drift_core::Preset;
use leptos::prelude::*;
use serde_json::Value;

use super::dom::target_id;
use super::state::AppState;
use super::workers::{ANALYSIS, Answer, Worker};
use crate::html::escape;
use crate::worker::compare_request;

/// The compare view, asked of the worker again when the settings or the
/// preset change.
#[component]
pub fn CompareView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (html, set_html) = signal("<p class=\"note\">Comparing…</p>".to_string());
    let worker = Worker::new(ANALYSIS, move |answer| {
        set_html.set(match answer {
            Answer::Done(Ok(Value::String(html))) => html,
            Answer::Done(Ok(_)) => {
                "<p class=\"note\">The worker's answer is not a report.</p>".to_string()
            }
            Answer::Done(Err(why)) | Answer::Stopped(why) | Answer::Gone(why) => format!(
                "<p class=\"note\">These settings cannot be compared: {}</p>",
                escape(&why)
            ),
        });
    });
    Effect::new(move |_| {
        let other = state.compare.get();
        state
            .scenario
            .with(|s| worker.ask(|n| compare_request(n, other, s)));
    });
    let on_change = move |ev: leptos::ev::Event| {
        if target_id(&ev) == "compare-with"
            && let Some(p) = Preset::from_id(&event_target_value(&ev))
        {
            state.compare.set(p);
        }
    };
    view! { <div class="compare" on:change=on_change inner_html=html></div> }
}
