//! Every setting, live: scenario and policy pickers, the harness, retention
//! per kind, guards and model parameters.
//!
//! Each control edits the scenario through [`AppState::edit`], which refuses
//! a change the engine would reject; the control then says why, next to
//! itself, and the page keeps showing the last valid run.

use drift_core::{
    Guard, Harness, Kind, ModelParams, Policy, PolicyChoice, Preset, Role, builtin, builtin_ids,
};
use leptos::prelude::*;

use super::state::AppState;
use crate::share::Source;
use drift_core::explain::thousands;

/// A labelled range input that acts while it is dragged.
#[component]
pub fn Slider(
    /// Element id (labels point at it).
    id: String,
    /// The label.
    label: String,
    /// The current value.
    #[prop(into)]
    value: Signal<f64>,
    min: f64,
    max: f64,
    step: f64,
    /// How the value reads (also its `aria-valuetext`).
    format: fn(f64) -> String,
    /// Applies a new value; an error is shown beside the slider.
    on_change: Callback<f64, Result<(), String>>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    let text = move || format(value.get());
    view! {
        <div class="control slider">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="range"
                min=min
                max=max
                step=step
                prop:value=move || value.get().to_string()
                aria-valuetext=text
                aria-invalid=move || error.with(Option::is_some).then_some("true")
                on:input:target=move |ev| {
                    // The browser has the number already: no parsing here.
                    let v = ev.target().value_as_number();
                    let result = if v.is_finite() {
                        on_change.run(v)
                    } else {
                        Err("the slider has no number".to_string())
                    };
                    set_error.set(result.err());
                }
            />
            <output class="value">{text}</output>
            <p class="control-error" role="alert" hidden=move || error.with(Option::is_none)>
                {move || error.get()}
            </p>
        </div>
    }
}

/// A labelled whole-number input (token counts, turns).
#[component]
pub fn NumberInput(
    id: String,
    label: String,
    #[prop(into)] value: Signal<u64>,
    min: u64,
    max: u64,
    step: u64,
    on_change: Callback<u64, Result<(), String>>,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    // When the value changes from elsewhere, or the settings are replaced as
    // a whole (Reset, a loaded scenario: perhaps with this same value), the
    // box shows the value in force again, and a complaint about text no
    // longer there goes.
    let replaced = use_context::<AppState>().map(|state| state.replaced);
    let shown = move || {
        if let Some(r) = replaced {
            r.track();
        }
        value.get()
    };
    Effect::new(move |_| {
        shown();
        set_error.set(None);
    });
    view! {
        <div class="control number">
            <label for=id.clone()>{label}</label>
            <input
                id=id
                type="number"
                inputmode="numeric"
                min=min
                max=max
                step=step
                prop:value=move || shown().to_string()
                aria-invalid=move || error.with(Option::is_some).then_some("true")
                on:input=move |ev| {
                    let raw = event_target_value(&ev);
                    let result = raw
                        .trim()
                        .parse::<u64>()
                        .map_err(|_| format!("\"{raw}\" is not a whole number"))
                        .and_then(|v| {
                            if (min..=max).contains(&v) {
                                on_change.run(v)
                            } else {
                                Err(format!("{v} is outside {}..={}", thousands(min), thousands(max)))
                            }
                        });
                    set_error.set(result.err());
                }
            />
            <p class="control-error" role="alert" hidden=move || error.with(Option::is_none)>
                {move || error.get()}
            </p>
        </div>
    }
}

/// A labelled checkbox.
#[component]
pub fn Toggle(
    id: String,
    label: String,
    #[prop(into)] checked: Signal<bool>,
    on_change: Callback<bool, Result<(), String>>,
    #[prop(optional)] hint: &'static str,
) -> impl IntoView {
    let (error, set_error) = signal(None::<String>);
    view! {
        <div class="control toggle">
            <input
                id=id.clone()
                type="checkbox"
                prop:checked=checked
                on:change=move |ev| set_error.set(on_change.run(event_target_checked(&ev)).err())
            />
            <label for=id title=hint>{label}</label>
            <p class="control-error" role="alert" hidden=move || error.with(Option::is_none)>
                {move || error.get()}
            </p>
        </div>
    }
}

fn fraction(v: f64) -> String {
    format!("{v:.2}")
}

fn percent(v: f64) -> String {
    format!("{v:.0}%")
}

/// The scenario picker with the scenario's description.
#[component]
pub fn ScenarioPicker() -> impl IntoView {
    let state = expect_context::<AppState>();
    let current = move || match state.source.get() {
        Source::Builtin(id) => id,
        Source::Imported(s) => format!("imported:{}", s.id),
    };
    let imported = move || match state.source.get() {
        Source::Imported(s) => Some(*s),
        Source::Builtin(_) => None,
    };
    view! {
        <label class="picker">
            <span>"Scenario"</span>
            <select
                id="scenario"
                prop:value=current
                on:change=move |ev| {
                    let id = event_target_value(&ev);
                    if let Some(s) = builtin(&id) {
                        state.load(Source::Builtin(id), s);
                    }
                }
            >
                {builtin_ids()
                    .map(|id| {
                        let title = builtin(id).map(|s| s.title).unwrap_or_default();
                        view! { <option value=id title=title>{id}</option> }
                    })
                    .collect_view()}
                {move || {
                    imported()
                        .map(|s| {
                            view! {
                                <option value=format!("imported:{}", s.id)>
                                    {format!("{} (imported)", s.id)}
                                </option>
                            }
                        })
                }}
            </select>
        </label>
    }
}

/// The policy picker: presets and "custom".
#[component]
pub fn PolicyPicker() -> impl IntoView {
    let state = expect_context::<AppState>();
    let current = Memo::new(move |_| state.scenario.with(|s| s.policy.id()));
    view! {
        <label class="picker">
            <span>"Policy"</span>
            <select
                id="policy"
                prop:value=current
                on:change=move |ev| {
                    let id = event_target_value(&ev);
                    let _ = state
                        .edit(|s| {
                            s.policy = match Preset::from_id(&id) {
                                Some(p) => PolicyChoice::Preset(p),
                                None => PolicyChoice::Custom(s.policy.policy()),
                            };
                        });
                }
            >
                <optgroup label="Reference policies">
                    {Preset::V1
                        .iter()
                        .map(|p| view! { <option value=p.id()>{p.info().name}</option> })
                        .collect_view()}
                </optgroup>
                <optgroup label="Harnesses (approximations)">
                    {Preset::ALL[Preset::V1.len()..]
                        .iter()
                        .map(|p| view! { <option value=p.id()>{p.info().name}</option> })
                        .collect_view()}
                </optgroup>
                <option value="custom">"custom"</option>
            </select>
        </label>
    }
}

/// What the chosen policy does, where it comes from, and its switches.
#[component]
pub fn PolicyPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let policy = Memo::new(move |_| state.scenario.with(|s| s.policy));
    let switches = Memo::new(move |_| policy.get().policy());
    let explain = move || match policy.get() {
        PolicyChoice::Preset(p) => {
            let info = p.info();
            view! {
                <p class="policy-summary">{info.summary}</p>
                <Show when=move || !info.approximates.is_empty()>
                    <p class="policy-approx">{info.approximates}</p>
                    <p class="policy-approx">"Not modelled: " {info.limits}</p>
                    <p class="policy-source">"Source: " {info.source}</p>
                </Show>
            }
            .into_any()
        }
        PolicyChoice::Custom(_) => view! {
            <p class="policy-summary">"A policy built from the switches below."</p>
        }
        .into_any(),
    };
    // Any switch turns the policy into a custom one.
    let set = move |change: fn(&mut Policy, u64), v: u64| -> Result<(), String> {
        state
            .edit(|s| {
                let mut p = s.policy.policy();
                change(&mut p, v);
                s.policy = PolicyChoice::Custom(p);
            })
            .map_err(|e| e.to_string())
    };
    let flag = move |get: fn(&Policy) -> bool, change: fn(&mut Policy, u64)| {
        (
            Signal::derive(move || get(&switches.get())),
            Callback::new(move |on: bool| set(change, u64::from(on))),
        )
    };
    let (compacts, set_compacts) = flag(|p| p.compacts, |p, v| p.compacts = v == 1);
    let (summarises, set_summarises) = flag(|p| p.summarises, |p, v| p.summarises = v == 1);
    let (rereads, set_rereads) = flag(|p| p.rereads_external, |p, v| p.rereads_external = v == 1);
    let role_toggle = move |role: Role| {
        let checked = Signal::derive(move || switches.get().protected_roles.contains(role));
        let on_change = Callback::new(move |on: bool| {
            state
                .edit(|s| {
                    let mut p = s.policy.policy();
                    p.protected_roles = if on {
                        p.protected_roles.with(role)
                    } else {
                        p.protected_roles.without(role)
                    };
                    s.policy = PolicyChoice::Custom(p);
                })
                .map_err(|e| e.to_string())
        });
        view! {
            <Toggle
                id=format!("protect-{}", role.id())
                label=role.id().to_string()
                checked=checked
                on_change=on_change
            />
        }
    };
    let optional =
        move |get: fn(&Policy) -> Option<u64>, put: fn(&mut Policy, Option<u64>), default: u64| {
            let on = Signal::derive(move || get(&switches.get()).is_some());
            let value = Signal::derive(move || get(&switches.get()).unwrap_or(default));
            let toggle = Callback::new(move |checked: bool| {
                state
                    .edit(|s| {
                        let mut p = s.policy.policy();
                        put(&mut p, checked.then_some(default));
                        s.policy = PolicyChoice::Custom(p);
                    })
                    .map_err(|e| e.to_string())
            });
            let change = Callback::new(move |v: u64| {
                state
                    .edit(|s| {
                        let mut p = s.policy.policy();
                        put(&mut p, Some(v));
                        s.policy = PolicyChoice::Custom(p);
                    })
                    .map_err(|e| e.to_string())
            });
            (on, value, toggle, change)
        };
    let (tail_on, tail, tail_toggle, tail_change) = optional(
        |p| p.tail_percent.map(u64::from),
        |p, v| p.tail_percent = v.map(|v| v as u32),
        30,
    );
    let (budget_on, budget, budget_toggle, budget_change) = optional(
        |p| p.user_budget_tokens,
        |p, v| p.user_budget_tokens = v,
        20_000,
    );
    let head = Signal::derive(move || u64::from(switches.get().keep_first_turns));
    // The harness presets are meant for the windows they run at; say so when
    // the scenario's window makes one misbehave.
    let fit = Memo::new(move |_| {
        state
            .with_sim(|sim| {
                let PolicyChoice::Preset(p) = sim.scenario.policy else {
                    return None;
                };
                if Preset::V1.contains(&p) {
                    return None;
                }
                let h = sim.run.harness();
                let lead = format!(
                    "{} is meant for windows of 100k tokens and more; with {} tokens",
                    p.info().name,
                    thousands(h.window_tokens)
                );
                if let Some(o) = sim.run.overflow_turn() {
                    return Some(format!("{lead} it overflows at turn {o}."));
                }
                let rounds = sim.run.rounds().len() as u32;
                (rounds > 0 && rounds * 3 >= h.turns)
                    .then(|| format!("{lead} it compacts {rounds} times in {} turns.", h.turns))
            })
            .flatten()
    });
    view! {
        <section class="panel policy" aria-labelledby="policy-heading">
            <h2 id="policy-heading">"Your harness"</h2>
            {explain}
            <p class="note warn" role="status" hidden=move || fit.with(Option::is_none)>
                {move || fit.get()}
            </p>
            <fieldset class="switches">
                <legend>"Switches (changing one makes the policy custom)"</legend>
                <Toggle id="sw-compacts".to_string() label="compacts".to_string() checked=compacts on_change=set_compacts />
                <Toggle id="sw-summarises".to_string() label="summarises (else drops)".to_string() checked=summarises on_change=set_summarises />
                <Toggle id="sw-rereads".to_string() label="re-reads externalised facts".to_string() checked=rereads on_change=set_rereads />
                <div class="roles" role="group" aria-label="Protected roles">
                    <span>"protected roles:"</span>
                    {Role::ALL.into_iter().map(role_toggle).collect_view()}
                </div>
                <NumberInput
                    id="sw-head".to_string()
                    label="keep first turns".to_string()
                    value=head
                    min=0
                    max=1_000
                    step=1
                    on_change=Callback::new(move |v: u64| set(|p, v| p.keep_first_turns = v as u32, v))
                />
                <Toggle id="sw-tail-on".to_string() label="tail by % of window".to_string() checked=tail_on on_change=tail_toggle />
                <Show when=move || tail_on.get()>
                    <NumberInput id="sw-tail".to_string() label="tail %".to_string() value=tail min=1 max=99 step=1 on_change=tail_change />
                </Show>
                <Toggle id="sw-budget-on".to_string() label="user message budget".to_string() checked=budget_on on_change=budget_toggle />
                <Show when=move || budget_on.get()>
                    <NumberInput id="sw-budget".to_string() label="user budget (tokens)".to_string() value=budget min=1 max=10_000_000 step=1000 on_change=budget_change />
                </Show>
            </fieldset>
        </section>
    }
}

type HarnessField = (
    &'static str,
    &'static str,
    fn(&Harness) -> u64,
    fn(&mut Harness, u64),
    u64,
    u64,
    u64,
);

/// Harness fields: id, label, get, set, min, max, step.
const HARNESS: [HarnessField; 9] = [
    (
        "h-window",
        "window (tokens)",
        |h| h.window_tokens,
        |h, v| h.window_tokens = v,
        1_000,
        2_000_000,
        1_000,
    ),
    (
        "h-system",
        "system prompt (tokens)",
        |h| h.system_tokens,
        |h, v| h.system_tokens = v,
        0,
        1_000_000,
        100,
    ),
    (
        "h-turn",
        "tokens per turn",
        |h| h.tokens_per_turn,
        |h, v| h.tokens_per_turn = v,
        1,
        1_000_000,
        100,
    ),
    (
        "h-tail",
        "tail (turns kept)",
        |h| h.tail_turns.into(),
        |h, v| h.tail_turns = v as u32,
        1,
        1_000,
        1,
    ),
    (
        "h-summary",
        "summary budget (tokens)",
        |h| h.summary_tokens,
        |h, v| h.summary_tokens = v,
        1,
        1_000_000,
        256,
    ),
    (
        "h-turns",
        "turns",
        |h| h.turns.into(),
        |h, v| h.turns = v as u32,
        1,
        100_000,
        1,
    ),
    (
        "h-reserve",
        "reserve (tokens)",
        |h| h.reserve_tokens,
        |h, v| h.reserve_tokens = v,
        0,
        1_000_000,
        1_000,
    ),
    (
        "h-user",
        "user message (tokens)",
        |h| h.user_message_tokens,
        |h, v| h.user_message_tokens = v,
        1,
        100_000,
        10,
    ),
    (
        "h-trigger",
        "",
        |h| h.trigger_percent.into(),
        |h, v| h.trigger_percent = v as u32,
        1,
        100,
        1,
    ),
];

/// The harness: window, trigger, sizes, tail, summary, turns.
#[component]
pub fn HarnessPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let field = move |(id, label, get, put, min, max, step): HarnessField| {
        let value = Memo::new(move |_| state.scenario.with(|s| get(&s.harness)));
        let on_change = Callback::new(move |v: u64| {
            state
                .edit(|s| put(&mut s.harness, v))
                .map_err(|e| e.to_string())
        });
        view! {
            <NumberInput id=id.to_string() label=label.to_string() value min max step on_change />
        }
    };
    let (_, _, get_trigger, put_trigger, ..) = HARNESS[8];
    let trigger = Memo::new(move |_| state.scenario.with(|s| get_trigger(&s.harness) as f64));
    let effective = Memo::new(move |_| {
        state.scenario.with(|s| {
            let p = s.effective_policy();
            let h = s.effective_harness();
            let mut notes = Vec::new();
            if let Some(t) = p.harness.trigger_percent {
                notes.push(format!("the policy triggers at {t}%"));
            }
            if let Some(r) = p.harness.reserve_tokens {
                notes.push(format!("the policy reserves {} tokens", thousands(r)));
            }
            if notes.is_empty() {
                String::new()
            } else {
                format!(
                    "In effect: {}; rounds are due above {} tokens.",
                    notes.join(", "),
                    thousands(due_at(&h))
                )
            }
        })
    });
    view! {
        <section class="panel harness" aria-labelledby="harness-heading">
            <h2 id="harness-heading">"Harness"</h2>
            <div class="grid">
                {HARNESS[..2].iter().copied().map(field).collect_view()}
                <Slider
                    id="h-trigger".to_string()
                    label="trigger (% of window)".to_string()
                    value=trigger
                    min=1.0
                    max=100.0
                    step=1.0
                    format=percent
                    on_change=Callback::new(move |v: f64| {
                        state.edit(|s| put_trigger(&mut s.harness, v.round() as u64)).map_err(|e| e.to_string())
                    })
                />
                {HARNESS[2..8].iter().copied().map(field).collect_view()}
            </div>
            <p class="note">{effective}</p>
        </section>
    }
}

/// The context size above which a round is due.
fn due_at(h: &Harness) -> u64 {
    let trigger = h.window_tokens * u64::from(h.trigger_percent) / 100;
    if h.reserve_tokens > 0 {
        trigger.min(h.window_tokens.saturating_sub(h.reserve_tokens))
    } else {
        trigger
    }
}

/// One slider per kind.
#[component]
pub fn RetentionPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="panel retention" aria-labelledby="retention-heading">
            <h2 id="retention-heading">"Retention per summarisation"</h2>
            {Kind::ALL
                .into_iter()
                .map(|kind| {
                    let value = Memo::new(move |_| state.scenario.with(|s| s.retention.get(kind)));
                    let on_change = Callback::new(move |v: f64| {
                        state.edit(|s| s.retention.set(kind, v)).map_err(|e| e.to_string())
                    });
                    view! {
                        <Slider
                            id=format!("retention-{}", kind.id())
                            label=kind.label().to_string()
                            value
                            min=0.0
                            max=1.0
                            step=0.01
                            format=fraction
                            on_change
                        />
                    }
                })
                .collect_view()}
        </section>
    }
}

/// The four guards.
#[component]
pub fn GuardsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    let hint = |g: Guard| match g {
        Guard::ReinjectConstraints => {
            "Rules, carve-outs and corrections are re-injected verbatim after every round."
        }
        Guard::VerifyBindings => {
            "An action on a binding that is no longer actionable is refused instead of guessed."
        }
        Guard::EntailmentGate => {
            "Summary-of-summary claims are unverified; irreversible actions on them are refused."
        }
        Guard::CommitmentAudit => {
            "Commitments, rationales and rejected options are spilled to a durable store before they fade."
        }
    };
    view! {
        <section class="panel guards" aria-labelledby="guards-heading">
            <h2 id="guards-heading">"Guards"</h2>
            {Guard::ALL
                .into_iter()
                .map(|g| {
                    let checked = Memo::new(move |_| state.scenario.with(|s| s.guards.get(g)));
                    let on_change = Callback::new(move |on: bool| {
                        state.edit(|s| s.guards.set(g, on)).map_err(|e| e.to_string())
                    });
                    view! {
                        <Toggle id=format!("guard-{}", g.id()) label=g.label().to_string() checked on_change hint=hint(g) />
                    }
                })
                .collect_view()}
        </section>
    }
}

type ModelField = (
    &'static str,
    &'static str,
    fn(&ModelParams) -> f64,
    fn(&mut ModelParams, f64),
    f64,
    f64,
    f64,
);

const MODEL: [ModelField; 5] = [
    (
        "m-threshold",
        "actionable threshold",
        |m| m.actionable_threshold,
        |m, v| m.actionable_threshold = v,
        0.0,
        1.0,
        0.01,
    ),
    (
        "m-pressure",
        "pressure sensitivity",
        |m| m.pressure_sensitivity,
        |m, v| m.pressure_sensitivity = v,
        0.0,
        1.0,
        0.01,
    ),
    (
        "m-fab",
        "fabrication level",
        |m| m.fabrication_base,
        |m, v| m.fabrication_base = v,
        0.0,
        0.5,
        0.005,
    ),
    (
        "m-exp",
        "fabrication exponent",
        |m| m.fabrication_exponent,
        |m, v| m.fabrication_exponent = v,
        0.0,
        4.0,
        0.01,
    ),
    (
        "m-laundering",
        "laundering threshold",
        |m| m.laundering_threshold,
        |m, v| m.laundering_threshold = v,
        0.0,
        1.0,
        0.01,
    ),
];

/// The model parameters.
#[component]
pub fn ModelPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="panel model" aria-labelledby="model-heading">
            <h2 id="model-heading">"Model"</h2>
            {MODEL
                .into_iter()
                .map(|(id, label, get, put, min, max, step)| {
                    let value = Memo::new(move |_| state.scenario.with(|s| get(&s.model)));
                    let on_change = Callback::new(move |v: f64| {
                        state.edit(|s| put(&mut s.model, v)).map_err(|e| e.to_string())
                    });
                    let format: fn(f64) -> String = if step < 0.01 { |v| format!("{v:.3}") } else { fraction };
                    view! {
                        <Slider id=id.to_string() label=label.to_string() value min max step format on_change />
                    }
                })
                .collect_view()}
        </section>
    }
}
