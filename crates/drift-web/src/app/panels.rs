//! The headline, the actions, the rounds and the scenario × preset matrix.

use drift_core::{PolicyChoice, Preset, builtin, builtin_ids};
use leptos::prelude::*;

use super::dom::{EAGER_ROWS, seen, target_id};
use super::state::AppState;
use super::tips::Tips;
use super::workers::{ANALYSIS, Answer, Worker};
use crate::html::escape;
use crate::link::{ScenarioSource, Tab};
use crate::tables::{actions_html, headline_html};
use crate::worker::matrix_request;
use wasm_bindgen::JsCast;

/// The sentence at the top and the why lines of the worst few actions that
/// went wrong.
#[component]
pub fn Headline() -> impl IntoView {
    let state = expect_context::<AppState>();
    // With a fix applied, a line says so, with buttons answered where their
    // clicks bubble.
    let html = Memo::new(move |_| {
        let mut html = state
            .with_sim(|sim| headline_html(&sim.scenario, &sim.story))
            .unwrap_or_default();
        if let Some(f) = state.fix.get() {
            html.push_str(&format!(
                "<p class=\"note\" id=\"fix-applied\">With {}'s remedy {} applied. <button type=\"button\" class=\"link-button\" id=\"fix-remove\">Remove it</button> <button type=\"button\" class=\"link-button\" id=\"fix-see\">See what it changes</button></p>",
                escape(f.harness.name()),
                f.remedy.id()
            ));
        }
        html
    });
    let error = move || state.sim.with(|r| r.as_ref().err().map(|e| e.to_string()));
    let on_click = move |ev: leptos::ev::MouseEvent| match target_id(&ev).as_str() {
        "fix-remove" => state.fix.set(None),
        "fix-see" => state.tab.set(Tab::Fix),
        _ => {}
    };
    view! {
        <section class="headline" aria-live="polite">
            <div on:click=on_click inner_html=move || html.get()></div>
            <p class="control-error" role="alert" hidden=move || error().is_none()>
                {move || error().map(|e| format!("These settings cannot run: {e}"))}
            </p>
        </section>
    }
}

/// Each action with its outcome, reason, fidelity, risk and consequence;
/// an action whose outcome just changed flashes. Made at once, then again
/// only while on screen or near it: a long table below hundreds of rows does
/// not follow every slider.
#[component]
pub fn ActionsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tips = expect_context::<ReadSignal<Tips>>();
    let wrap = NodeRef::<leptos::html::Div>::new();
    let seen = seen(wrap);
    // A short table follows every change wherever it is.
    let in_view = move || seen.get() || state.scenario.with(|s| s.actions.len()) <= EAGER_ROWS;
    let html = Memo::new_owning(move |last: Option<String>| match last {
        Some(last) if !in_view() => (last, false),
        last => {
            let now = state
                .with_sim(|sim| {
                    let lines = tips.with(|t| match t {
                        Tips::Ready(a) | Tips::Pending(Some(a))
                            if a.tips.len() == sim.scenario.actions.len() =>
                        {
                            a.tips.clone()
                        }
                        Tips::Ready(_) | Tips::Pending(_) => {
                            vec![vec!["…".to_string()]; sim.scenario.actions.len()]
                        }
                        Tips::Unavailable(why) => {
                            vec![vec![format!("unavailable: {why}")]; sim.scenario.actions.len()]
                        }
                    });
                    actions_html(&sim.scenario, &sim.run, &sim.changed, &lines)
                })
                .unwrap_or_default();
            let changed = last.as_ref() != Some(&now);
            (now, changed)
        }
    });
    view! {
        <section class="panel actions" aria-labelledby="actions-heading">
            <h2 id="actions-heading">"Actions"</h2>
            <div class="table-wrap" node_ref=wrap inner_html=move || html.get()></div>
        </section>
    }
}

/// The rounds table (written by the analysis worker).
#[component]
pub fn RoundsPanel() -> impl IntoView {
    let tips = expect_context::<ReadSignal<Tips>>();
    let html = move || tips.with(|t| t.markup(|a| &a.rounds));
    view! { <div class="rounds" inner_html=html></div> }
}

/// The matrix row of `source`: its built-in's, or the last (imported).
fn source_row(source: &ScenarioSource) -> Option<usize> {
    match source {
        ScenarioSource::Builtin(id) => builtin_ids().position(|b| b == id),
        ScenarioSource::Imported(_) => Some(builtin_ids().count()),
    }
}

/// Scenario × preset outcome counts, written by the analysis worker (every
/// built-in under every preset: a hundred runs, off the page); a click
/// loads the cell.
#[component]
pub fn MatrixView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let (html, set_html) =
        signal("<p class=\"note\">Running every scenario under every preset…</p>".to_string());
    let worker = Worker::new(ANALYSIS, move |answer| {
        set_html.set(match answer {
            Answer::Done(Ok(serde_json::Value::String(html))) => html,
            Answer::Done(Ok(_)) => {
                "<p class=\"note\">The worker's answer is not a table.</p>".to_string()
            }
            Answer::Done(Err(why)) | Answer::Stopped(why) | Answer::Gone(why) => {
                format!(
                    "<p class=\"note\">The matrix is unavailable: {}</p>",
                    escape(&why)
                )
            }
        });
    });
    // The current scenario's row uses the current settings.
    Effect::new(move |_| {
        let row = state.source.with(source_row);
        state.scenario.with(|s| {
            let current = match s.policy {
                PolicyChoice::Preset(p) => Some(p),
                PolicyChoice::Custom(_) => None,
            };
            worker.ask(|n| matrix_request(n, row, current, s));
        });
    });
    // One handler for every cell: the button says which row and preset.
    let open = move |ev: leptos::ev::MouseEvent| {
        let Some(button) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
            .and_then(|e| e.closest("button[data-row]").ok().flatten())
        else {
            return;
        };
        let row = button
            .get_attribute("data-row")
            .and_then(|r| r.parse::<usize>().ok());
        let preset = button
            .get_attribute("data-preset")
            .and_then(|p| Preset::from_id(&p));
        let (Some(row), Some(preset)) = (row, preset) else {
            return;
        };
        // A built-in's row loads it; the last, imported, row is already the
        // current scenario.
        if let Some(id) = builtin_ids().nth(row)
            && state.source.with_untracked(source_row) != Some(row)
            && let Some(base) = builtin(id)
        {
            state.load(ScenarioSource::Builtin(id.to_string()), base);
        }
        let _ = state.edit(|s| s.policy = PolicyChoice::Preset(preset));
        state.tab.set(Tab::Timelines);
    };
    view! { <div class="matrix table-wrap" on:click=open inner_html=move || html.get()></div> }
}

/// Round by round: what each round did to the facts, and the later actions
/// each change affects (written by the analysis worker).
#[component]
pub fn LossesPanel() -> impl IntoView {
    let tips = expect_context::<ReadSignal<Tips>>();
    let html = move || tips.with(|t| t.markup(|a| &a.losses));
    view! {
        <section class="round-by-round" aria-labelledby="losses-heading">
            <h2 id="losses-heading">"Round by round"</h2>
            <div class="losses" inner_html=html></div>
        </section>
    }
}
