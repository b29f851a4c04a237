//! The headline, the actions, the rounds and the scenario × preset matrix.

use drift_core::{Outcome, PolicyChoice, Preset, Scenario, builtin, builtin_ids, simulate};
use leptos::prelude::*;

use super::state::{AppState, Sim};
use crate::html::outcome_class;
use crate::share::{Source, Tab};
use crate::tables::{MatrixRow, matrix_html, rounds_html};
use wasm_bindgen::JsCast;

/// The sentence at the top and one why line per failing action.
#[component]
pub fn Headline() -> impl IntoView {
    let state = expect_context::<AppState>();
    // The sentence and its lines, re-rendered only when they change.
    let told = Memo::new(move |_| {
        state.with_sim(|sim| {
            let lines: Vec<(String, Outcome, String, String)> = sim
                .story
                .lines
                .iter()
                .map(|line| {
                    let action = sim.scenario.actions.get(line.action);
                    (
                        action.map(|a| a.id.clone()).unwrap_or_default(),
                        line.outcome,
                        line.why.clone(),
                        action.map(|a| a.consequence.clone()).unwrap_or_default(),
                    )
                })
                .collect();
            (sim.story.summary.clone(), lines)
        })
    });
    let summary = move || told.with(|t| t.as_ref().map(|t| t.0.clone()).unwrap_or_default());
    let lines = move || {
        told.with(|t| {
            t.as_ref().map(|(_, lines)| {
                lines
                    .iter()
                    .map(|(id, outcome, why, consequence)| {
                        view! {
                            <li>
                                <span class=outcome_class(*outcome)>{outcome.label()}</span>
                                " "
                                <strong>{id.clone()}</strong>
                                ": "
                                {why.clone()}
                                <span class="consequence">" " {consequence.clone()}</span>
                            </li>
                        }
                    })
                    .collect_view()
            })
        })
    };
    let error = move || state.sim.with(|r| r.as_ref().err().map(|e| e.to_string()));
    view! {
        <section class="headline" aria-live="polite">
            <p class="summary">{summary}</p>
            <ul class="why">{lines}</ul>
            <p class="control-error" role="alert" hidden=move || error().is_none()>
                {move || error().map(|e| format!("These settings cannot run: {e}"))}
            </p>
        </section>
    }
}

/// One action as its row shows it.
#[derive(Clone, Debug, PartialEq)]
struct ActionView {
    id: String,
    text: String,
    turn: u32,
    tags: Vec<&'static str>,
    outcome: Outcome,
    resource: Option<String>,
    fidelity: f64,
    risk: f64,
    why: String,
    consequence: Option<String>,
    changed: bool,
}

fn action_view(sim: &Sim, i: usize) -> Option<ActionView> {
    let a = sim.scenario.actions.get(i)?;
    let graded = sim.run.actions().get(i)?;
    let mut tags = Vec::new();
    if a.delegated {
        tags.push("subagent");
    }
    if a.irreversible {
        tags.push("irreversible");
    }
    Some(ActionView {
        id: a.id.clone(),
        text: a.text.clone(),
        turn: a.turn,
        tags,
        outcome: graded.outcome,
        resource: graded
            .resolved_resource
            .and_then(|r| sim.scenario.resources.get(r))
            .map(|r| r.id.clone()),
        fidelity: graded.fidelity,
        risk: graded.fabrication_risk,
        why: drift_core::explain(&sim.scenario, &sim.run, i)
            .map(|e| e.to_string())
            .unwrap_or_default(),
        consequence: (graded.outcome != Outcome::Governed && !a.consequence.is_empty())
            .then(|| a.consequence.clone()),
        changed: sim.changed.get(i).copied().unwrap_or(false),
    })
}

/// Each action with its outcome, reason, fidelity, risk and consequence.
#[component]
pub fn ActionsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let count = Memo::new(move |_| state.with_sim(|s| s.scenario.actions.len()).unwrap_or(0));
    view! {
        <section class="panel actions" aria-labelledby="actions-heading">
            <h2 id="actions-heading">"Actions"</h2>
            <div class="table-wrap">
                <table>
                    <thead>
                        <tr>
                            <th scope="col">"turn"</th>
                            <th scope="col">"action"</th>
                            <th scope="col">"outcome"</th>
                            <th scope="col">"fidelity"</th>
                            <th scope="col">"risk"</th>
                            <th scope="col">"why"</th>
                        </tr>
                    </thead>
                    <tbody>
                        <For each=move || 0..count.get() key=|i| *i let:i>
                            <ActionRow index=i />
                        </For>
                    </tbody>
                </table>
            </div>
        </section>
    }
}

/// One action's row; it is rebuilt only when that action's view changes.
#[component]
fn ActionRow(index: usize) -> impl IntoView {
    let state = expect_context::<AppState>();
    let data = Memo::new(move |_| state.with_sim(|sim| action_view(sim, index)).flatten());
    move || {
        data.get().map(|d| {
            let key = d.id.clone();
            view! {
                <tr data-action=key class:changed=d.changed>
                    <td class="num">{d.turn}</td>
                    <th scope="row">
                        <span class="action-id">{d.id}</span>
                        {d.tags.into_iter().map(|t| view! { <span class="badge tag">{t}</span> }).collect_view()}
                        <span class="action-text">{d.text}</span>
                    </th>
                    <td>
                        <span class=outcome_class(d.outcome)>{d.outcome.label()}</span>
                        {d.resource.map(|r| view! { <span class="resource">" → " {r}</span> })}
                    </td>
                    <td class="num">{format!("{:.2}", d.fidelity)}</td>
                    <td class="num">{format!("{:.2}", d.risk)}</td>
                    <td class="why-cell">
                        {d.why}
                        {d.consequence.map(|c| view! { <span class="consequence">" " {c}</span> })}
                    </td>
                </tr>
            }
        })
    }
}

/// The rounds table.
#[component]
pub fn RoundsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let html = Memo::new(move |_| {
        state
            .with_sim(|sim| rounds_html(&sim.run))
            .unwrap_or_default()
    });
    view! { <div class="rounds" inner_html=move || html.get()></div> }
}

/// Scenario × preset outcome counts; a click loads the cell.
#[component]
pub fn MatrixView() -> impl IntoView {
    let state = expect_context::<AppState>();
    // Rows: every built-in, and the imported scenario if there is one; the
    // current scenario's row uses the current settings.
    let rows = Memo::new(move |_| {
        let source = state.source.get();
        let mut rows: Vec<(Source, Scenario)> = builtin_ids()
            .filter_map(|id| builtin(id).map(|s| (Source::Builtin(id.to_string()), s)))
            .collect();
        if let Source::Imported(s) = &source {
            rows.push((source.clone(), s.as_ref().clone()));
        }
        rows
    });
    let html = Memo::new(move |_| {
        let current = state.scenario.get();
        let source = state.source.get();
        rows.with(|rows| {
            let mut here = None;
            let table: Vec<MatrixRow> = rows
                .iter()
                .enumerate()
                .map(|(r, (src, base))| {
                    let scenario = if *src == source {
                        if let PolicyChoice::Preset(p) = current.policy {
                            here = Some((r, p));
                        }
                        &current
                    } else {
                        base
                    };
                    let cells = Preset::ALL
                        .iter()
                        .map(|&p| {
                            let mut s = scenario.clone();
                            s.policy = PolicyChoice::Preset(p);
                            simulate(&s).ok().map(|run| run.counts())
                        })
                        .collect();
                    MatrixRow {
                        id: scenario.id.clone(),
                        cells,
                    }
                })
                .collect();
            matrix_html(&table, here)
        })
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
        let Some((src, base)) = rows.with(|rows| rows.get(row).cloned()) else {
            return;
        };
        if src != state.source.get_untracked() {
            state.load(src, base);
        }
        let _ = state.edit(|s| s.policy = PolicyChoice::Preset(preset));
        state.tab.set(Tab::Timelines);
    };
    view! { <div class="matrix table-wrap" on:click=open inner_html=move || html.get()></div> }
}
