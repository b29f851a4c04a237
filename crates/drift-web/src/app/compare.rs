//! The compare view: the current policy against another preset, on the
//! current scenario, with every action and fact whose fate differs marked.

use drift_core::{PolicyChoice, Preset, simulate};
use leptos::prelude::*;

use super::state::AppState;
use crate::compare::{compare, to_html};
use crate::story::policy_name;

/// The compare view. The report is static markup rebuilt when the settings
/// change (cheaper, in code size, than a reactive table).
#[component]
pub fn CompareView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let name_a = move || state.scenario.with(|s| policy_name(&s.policy).to_string());
    let report = Memo::new(move |_| {
        let other = state.compare.get();
        state
            .with_sim(|sim| {
                let mut s = sim.scenario.clone();
                s.policy = PolicyChoice::Preset(other);
                let b = simulate(&s).ok()?;
                let c = compare(&sim.scenario, &sim.run, &b);
                Some(to_html(
                    &c,
                    &sim.scenario,
                    policy_name(&sim.scenario.policy),
                    other.info().name,
                ))
            })
            .flatten()
            .unwrap_or_else(|| "<p class=\"note\">These settings cannot run.</p>".to_string())
    });
    view! {
        <div class="compare">
            <div class="compare-pick">
                <span>{move || format!("{} against", name_a())}</span>
                <label class="picker">
                    <span class="visually-hidden">"Preset to compare with"</span>
                    <select
                        id="compare-with"
                        prop:value=move || state.compare.get().id()
                        on:change=move |ev| {
                            if let Some(p) = Preset::from_id(&event_target_value(&ev)) {
                                state.compare.set(p);
                            }
                        }
                    >
                        {Preset::ALL
                            .iter()
                            .map(|p| view! { <option value=p.id()>{p.info().name}</option> })
                            .collect_view()}
                    </select>
                </label>
            </div>
            <div class="compare-report" inner_html=move || report.get()></div>
        </div>
    }
}
