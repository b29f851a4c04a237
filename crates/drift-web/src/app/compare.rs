//! The compare view: the current policy against another preset, on the
//! current scenario, with every action and fact whose fate differs marked.

use drift_core::Preset;
use leptos::prelude::*;

use super::state::AppState;
use super::tips::Tips;
use crate::html::escape;
use crate::story::policy_name;

/// The compare view. The report is written by the analysis worker with
/// the rest of its analysis (static markup), and dimmed while it works on
/// new settings.
#[component]
pub fn CompareView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let tips = expect_context::<ReadSignal<Tips>>();
    let name_a = move || state.scenario.with(|s| policy_name(&s.policy).to_string());
    let report = move || {
        tips.with(|t| match t {
            Tips::Ready(a) | Tips::Pending(Some(a)) => a.compare.clone(),
            Tips::Pending(None) => "<p class=\"note\">…</p>".to_string(),
            Tips::Unavailable(why) => format!("<p class=\"note\">Unavailable: {}</p>", escape(why)),
        })
    };
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
            <div class="compare-report" inner_html=report></div>
        </div>
    }
}
