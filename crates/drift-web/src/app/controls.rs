//! Every setting, live: scenario and policy pickers, the harness, retention
//! per kind, guards and model parameters.
//!
//! Each control edits the scenario through [`AppState::edit`], which refuses
//! a change the engine would reject; the control then says why, next to
//! itself, and the page keeps showing the last valid run.

use drift_core::{
    Control, Policy, PolicyChoice, Preset, Role, SETTINGS, SettingInfo, Unit, Value, builtin,
    builtin_ids, thousands,
};
use leptos::either::Either;
use leptos::prelude::*;

use super::state::AppState;
use super::tips::Tips;
use crate::page::ScenarioSource;

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
        ScenarioSource::Builtin(id) => id,
        ScenarioSource::Imported(s) => format!("imported:{}", s.id),
    };
    let imported = move || match state.source.get() {
        ScenarioSource::Imported(s) => Some(*s),
        ScenarioSource::Builtin(_) => None,
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
                        state.load(ScenarioSource::Builtin(id), s);
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
    let tips = expect_context::<ReadSignal<Tips>>();
    let policy = Memo::new(move |_| state.scenario.with(|s| s.policy));
    let switches = Memo::new(move |_| policy.get().policy());
    let explain = move || match policy.get() {
        PolicyChoice::Preset(p) => {
            let info = p.info();
            // What a harness preset approximates, leaves out and follows:
            // the analysis worker writes it, so the page carries no prose.
            let notes = move || match tips.get() {
                Tips::Ready(a) | Tips::Pending(Some(a)) if a.policy.0 == info.id => a.policy.1,
                _ => String::new(),
            };
            Either::Left(view! {
                <p class="policy-summary">{info.summary}</p>
                <div class="policy-notes" inner_html=notes></div>
            })
        }
        PolicyChoice::Custom(_) => Either::Right(view! {
            <p class="policy-summary">"A policy built from the switches below."</p>
        }),
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
    // the scenario's window makes one misbehave (the analysis worker's
    // sentence, for the settings on screen).
    let fit = Memo::new(move |_| {
        let id = policy.get().id();
        tips.with(|t| match t {
            Tips::Ready(a) | Tips::Pending(Some(a)) if a.policy.0 == id && !a.misfit.is_empty() => {
                Some(a.misfit.clone())
            }
            _ => None,
        })
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

/// A setting's control: its element id, made from its identifier
/// (`harness-window_tokens`, `retention-standing_rule`).
fn element_id(info: &SettingInfo) -> String {
    format!("{}-{}", info.section, info.name)
}

/// The control for one numeric setting of the registry: a slider for
/// fractions, factors and percents, a number box for counts.
fn setting_control(state: AppState, info: &'static SettingInfo) -> impl IntoView + use<> {
    let setting = info.setting;
    let Control { min, max, step } = info.control;
    let id = element_id(info);
    let label = info.label.to_string();
    match info.unit {
        Unit::Tokens | Unit::Turns => {
            let value = Memo::new(move |_| {
                state.scenario.with(|s| match setting.get(s) {
                    Value::Whole(n) => n,
                    _ => 0,
                })
            });
            let on_change = Callback::new(move |v: u64| {
                state
                    .edit(|s| {
                        let _ = setting.set(s, Value::Whole(v));
                    })
                    .map_err(|e| e.to_string())
            });
            Either::Left(view! {
                <NumberInput id label value min=min as u64 max=max as u64 step=step as u64 on_change />
            })
        }
        _ => {
            let whole = info.unit == Unit::Percent;
            let value = Memo::new(move |_| {
                state.scenario.with(|s| match setting.get(s) {
                    Value::Whole(n) => n as f64,
                    Value::Number(x) => x,
                    Value::Switch(on) => f64::from(u8::from(on)),
                })
            });
            let on_change = Callback::new(move |v: f64| {
                let value = if whole {
                    Value::Whole(v.round() as u64)
                } else {
                    Value::Number(v)
                };
                state
                    .edit(|s| {
                        let _ = setting.set(s, value);
                    })
                    .map_err(|e| e.to_string())
            });
            let format: fn(f64) -> String = if whole {
                percent
            } else if step < 0.01 {
                |v| format!("{v:.3}")
            } else {
                fraction
            };
            Either::Right(view! { <Slider id label value min max step format on_change /> })
        }
    }
}

/// The registry's rows of one section (`harness`, `retention`, `model`, `guards`).
fn section(name: &'static str) -> impl Iterator<Item = &'static SettingInfo> {
    SETTINGS.iter().filter(move |s| s.section == name)
}

/// The harness: window, trigger, sizes, tail, summary, turns.
#[component]
pub fn HarnessPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
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
                    thousands(h.due_above())
                )
            }
        })
    });
    view! {
        <section class="panel harness" aria-labelledby="harness-heading">
            <h2 id="harness-heading">"Harness"</h2>
            <div class="grid">
                {section("harness").map(|info| setting_control(state, info)).collect_view()}
            </div>
            <p class="note">{effective}</p>
        </section>
    }
}

/// One slider per kind.
#[component]
pub fn RetentionPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="panel retention" aria-labelledby="retention-heading">
            <h2 id="retention-heading">"Retention per summarisation"</h2>
            {section("retention").map(|info| setting_control(state, info)).collect_view()}
        </section>
    }
}

/// The four guards.
#[component]
pub fn GuardsPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="panel guards" aria-labelledby="guards-heading">
            <h2 id="guards-heading">"Guards"</h2>
            {section("guards")
                .map(|info| {
                    let setting = info.setting;
                    let checked = Memo::new(move |_| {
                        state.scenario.with(|s| setting.get(s) == Value::Switch(true))
                    });
                    let on_change = Callback::new(move |on: bool| {
                        state
                            .edit(|s| {
                                let _ = setting.set(s, Value::Switch(on));
                            })
                            .map_err(|e| e.to_string())
                    });
                    view! {
                        <Toggle id=element_id(info) label=info.label.to_string() checked on_change hint=info.setting.help() />
                    }
                })
                .collect_view()}
        </section>
    }
}

/// The model parameters.
#[component]
pub fn ModelPanel() -> impl IntoView {
    let state = expect_context::<AppState>();
    view! {
        <section class="panel model" aria-labelledby="model-heading">
            <h2 id="model-heading">"Model"</h2>
            {section("model").map(|info| setting_control(state, info)).collect_view()}
        </section>
    }
}
