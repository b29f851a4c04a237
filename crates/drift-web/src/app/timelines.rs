//! The timelines: one row per fact (label, role, kind, the externalise and
//! forward switches, a canvas) over a shared turn axis.

use drift_core::{Fact, Policy, PolicyChoice, Preset, Role};
use leptos::html::{Canvas, Div};
use leptos::prelude::*;
use plotters::prelude::*;
use plotters_canvas::CanvasBackend;
use wasm_bindgen::JsCast;

use super::dom::{device_pixel_ratio, observe_width, seen_in_list};
use super::state::AppState;
use crate::chart::{self, Axis, Fill, Palette, Row, size};
use drift_core::thousands;

/// Counts redraws on the element, for tests and measurements.
fn count_draw(canvas: &web_sys::HtmlCanvasElement) {
    let n = canvas
        .get_attribute("data-draws")
        .and_then(|v| v.parse::<u64>().ok())
        .unwrap_or(0);
    let _ = canvas.set_attribute("data-draws", &(n + 1).to_string());
}

/// Sizes `canvas` for `css_width × css_height` CSS pixels at `dpr` device
/// pixels each, clears it, copies `under` onto it if given, and paints.
fn draw_into(
    canvas: &web_sys::HtmlCanvasElement,
    (css_width, css_height): (f64, f64),
    dpr: f64,
    under: Option<&web_sys::HtmlCanvasElement>,
    paint: impl FnOnce(&DrawingArea<CanvasBackend, plotters::coord::Shift>),
) {
    if css_width < 1.0 {
        return;
    }
    let (w, h) = (
        (css_width * dpr).round().max(1.0) as u32,
        (css_height * dpr).round().max(1.0) as u32,
    );
    let fresh = canvas.width() != w || canvas.height() != h;
    if fresh {
        // Resizing reallocates the backing store (and clears it).
        canvas.set_width(w);
        canvas.set_height(h);
    }
    if let Some(ctx) = canvas
        .get_context("2d")
        .ok()
        .flatten()
        .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
    {
        if !fresh {
            ctx.clear_rect(0.0, 0.0, f64::from(w), f64::from(h));
        }
        if let Some(under) = under {
            let _ = ctx.draw_image_with_html_canvas_element(under, 0.0, 0.0);
        }
    }
    if let Some(backend) = CanvasBackend::with_canvas_object(canvas.clone()) {
        let area = backend.into_drawing_area();
        paint(&area);
        let _ = area.present();
    }
    count_draw(canvas);
}

/// What every fact row draws under its own life (see
/// [`chart::draw_ground`]), drawn once into a canvas of its own and copied:
/// a row is then a copy and a few lines, however many rounds there are.
struct Ground {
    canvas: web_sys::HtmlCanvasElement,
    /// The row's size in CSS pixels, and device pixels per CSS pixel.
    width: f64,
    dpr: f64,
}

/// A short description of a row for screen readers.
fn describe(axis: &Axis, row: &Row) -> String {
    let last = row.steps.last();
    let mut text = format!(
        "{}: {} fact from turn {}, {}.",
        row.id,
        row.role.id(),
        row.turn,
        row.kind.label()
    );
    match last {
        None => text.push_str(" No compaction round touches it."),
        Some(s) => {
            text.push_str(&format!(
                " After round {} its fidelity is {:.2} (depth {}, fabrication risk {:.2}).",
                s.round, s.fidelity, s.depth, s.risk
            ));
            if let Some(fell) = row.steps.iter().find(|s| s.fidelity < axis.threshold) {
                text.push_str(&format!(
                    " It falls below the actionable line at round {} (turn {}).",
                    fell.round, fell.turn
                ));
            }
        }
    }
    for m in &row.markers {
        text.push_str(&format!(
            " Action at turn {} sees it at {:.2}: {}; the action is {}.",
            m.turn,
            m.fidelity,
            m.presence(axis.threshold).label(),
            m.outcome.label()
        ));
    }
    text
}

fn role_badge(role: Role) -> &'static str {
    match role {
        Role::System => "badge role-system",
        Role::User => "badge role-user",
        Role::Assistant => "badge role-assistant",
        Role::Tool => "badge role-tool",
    }
}

/// What hovering shows.
#[derive(Clone, Debug, PartialEq)]
struct Hover {
    row: usize,
    left: f64,
    text: String,
}

/// The timelines view. Every fact has its row, but a row works out its
/// timeline and draws it only while it is on screen or near it (see
/// [`seen`]): a session of hundreds of facts costs what the rows in view
/// cost.
#[component]
pub fn Timelines() -> impl IntoView {
    let state = expect_context::<AppState>();
    let palette = expect_context::<ReadSignal<Palette>>();
    let axis_wrap = NodeRef::<Div>::new();
    let width = observe_width(axis_wrap);
    let hover = RwSignal::new(None::<Hover>);
    let axis_canvas = NodeRef::<Canvas>::new();
    // Rows redraw only when their own data or the shared axis changes.
    let axis = Memo::new(move |_| state.with_sim(|sim| sim.axis.clone()));
    // The facts as the rows show them, numbered afresh when any of them
    // changes (another scenario): settings and switches leave them as they
    // are, so the rows do not follow every change to the settings.
    let facts = Memo::new_owning(move |last: Option<(u32, Vec<Fact>)>| {
        state.scenario.with(|s| match last {
            Some(last)
                if last.1.len() == s.facts.len()
                    && last.1.iter().zip(&s.facts).all(|(a, b)| {
                        (&a.id, &a.text, a.role, a.kind, a.turn)
                            == (&b.id, &b.text, b.role, b.kind, b.turn)
                    }) =>
            {
                (last, false)
            }
            last => ((last.map_or(0, |l| l.0 + 1), s.facts.clone()), true),
        })
    });
    Effect::new(move |_| {
        let (Some(canvas), w, p) = (axis_canvas.get(), width.get(), palette.get()) else {
            return;
        };
        axis.with(|axis| {
            if let Some(axis) = axis {
                let dpr = device_pixel_ratio();
                draw_into(&canvas, (w, size::AXIS), dpr, None, |area| {
                    let _ = chart::draw_axis(area, axis, &p, dpr);
                });
            }
        });
    });
    // The rows' shared ground, drawn again when the axis, the width or the
    // colours change; `grounded` then tells the rows in view to redraw.
    let ground = StoredValue::new_local(None::<Ground>);
    let grounded = RwSignal::new(0u32);
    Effect::new(move |_| {
        let (w, p) = (width.get(), palette.get());
        axis.with(|axis| {
            let Some(axis) = axis.as_ref().filter(|_| w >= 1.0) else {
                return;
            };
            let canvas = ground
                .with_value(|g| g.as_ref().map(|g| g.canvas.clone()))
                .or_else(|| document().create_element("canvas").ok()?.dyn_into().ok());
            let Some(canvas) = canvas else { return };
            let dpr = device_pixel_ratio();
            draw_into(&canvas, (w, size::ROW), dpr, None, |area| {
                let _ = chart::draw_ground(area, axis, &p, dpr);
            });
            ground.set_value(Some(Ground {
                canvas,
                width: w,
                dpr,
            }));
            grounded.update(|n| *n += 1);
        });
    });
    view! {
        <div class="timelines">
            <div class="legend" aria-hidden="true">
                <span class="key fidelity">"fidelity"</span>
                <span class="key risk">"fabrication risk"</span>
                <span class="key threshold">"actionable line"</span>
                <span class="key depth">"depth (darker = summarised more)"</span>
                <span class="key dashed">"dashed: unverified"</span>
                <span class="key dot there">"an action it governs: the rule there"</span>
                <span class="key dot degraded">"there, degraded"</span>
                <span class="key dot missing">"not there (hover: how the action ended)"</span>
            </div>
            <FillRow width />
            <For
                each=move || facts.with(|(n, f)| (0..f.len()).map(|i| (*n, i)).collect::<Vec<_>>())
                key=|row| *row
                let:row
            >
                {facts
                    .with_untracked(|f| f.1.get(row.1).cloned())
                    .map(|fact| view! { <FactRow index=row.1 fact axis ground grounded hover /> })}
            </For>
            <div class="row axis-row">
                <div class="label axis-label">"turn"</div>
                <div class="plot" node_ref=axis_wrap>
                    <canvas
                        class="axis"
                        node_ref=axis_canvas
                        aria-hidden="true"
                        style:height=format!("{}px", size::AXIS)
                    ></canvas>
                </div>
            </div>
            <super::panels::LossesPanel />
        </div>
    }
}

/// Height of the context-fill chart, in CSS pixels.
const FILL_HEIGHT: f64 = 120.0;

/// The context's size over the session, above the facts.
#[component]
fn FillRow(width: ReadSignal<f64>) -> impl IntoView {
    let state = expect_context::<AppState>();
    let palette = expect_context::<ReadSignal<Palette>>();
    let canvas = NodeRef::<Canvas>::new();
    // Made again only when the run's tokens move: a change that moves none
    // (a retention, say) leaves the chart as it is, without replaying every
    // turn of the session.
    let fill = Memo::new_owning(move |last: Option<Option<(Fill, u32)>>| {
        state
            .with_sim(|sim| match last {
                Some(Some(last)) if last.0.matches(&sim.run) => (Some(last), false),
                _ => (Some((Fill::new(&sim.run), sim.axis.turns)), true),
            })
            .unwrap_or((None, true))
    });
    let hover = RwSignal::new(None::<(f64, String)>);
    Effect::new(move |_| {
        let (Some(c), w, p) = (canvas.get(), width.get(), palette.get()) else {
            return;
        };
        fill.with(|f| {
            if let Some((fill, turns)) = f {
                let dpr = device_pixel_ratio();
                draw_into(&c, (w, FILL_HEIGHT), dpr, None, |area| {
                    let _ = chart::draw_fill(area, fill, *turns, &p, dpr);
                });
            }
        });
    });
    let label = move || {
        fill.with(|f| {
            f.as_ref().map(|(fill, _)| {
                format!(
                    "Tokens in context over {} turns: a window of {} tokens, rounds due above {}; {} rounds{}.",
                    fill.end,
                    thousands(fill.window),
                    thousands(fill.due_at),
                    fill.rounds.len(),
                    if fill.overflowed { ", then the window overflows" } else { "" }
                )
            })
        })
    };
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(c) = canvas.get() else { return };
        let rect = c.get_bounding_client_rect();
        let x = f64::from(ev.client_x()) - rect.left();
        let text = fill.with(|f| {
            let (fill, turns) = f.as_ref()?;
            let frame = chart::Frame::new(rect.width() as u32, FILL_HEIGHT as u32, 1.0, *turns);
            let turn = frame.turn_at(x);
            let within = (f64::from(*turns) / rect.width().max(1.0)) * 8.0;
            let (i, (t, before, after)) = fill.round_near(turn, within.max(0.5))?;
            Some(format!(
                "round {} at turn {t}: {} → {} tokens",
                i + 1,
                thousands(before),
                thousands(after)
            ))
        });
        hover.set(text.map(|t| (x, t)));
    };
    view! {
        <div class="row fill-row">
            <div class="label">
                <div class="fact-id">"Tokens in context"</div>
                <p class="fact-text">
                    "Each turn adds its tokens; each round drops the context back. Orange bars: turns more than twice the usual size."
                </p>
            </div>
            <div class="plot">
                <canvas
                    node_ref=canvas
                    role="img"
                    aria-label=label
                    style:height=format!("{FILL_HEIGHT}px")
                    on:mousemove=on_move
                    on:mouseleave=move |_| hover.set(None)
                ></canvas>
                {move || {
                    hover.get().map(|(left, text)| {
                        view! { <div class="tooltip" role="status" style:left=format!("{left}px")>{text}</div> }
                    })
                }}
            </div>
        </div>
    }
}

/// One fact's row: its label always, its timeline only while in view.
#[component]
fn FactRow(
    index: usize,
    /// The fact as loaded (its switches are followed separately).
    fact: Fact,
    axis: Memo<Option<Axis>>,
    ground: StoredValue<Option<Ground>, LocalStorage>,
    grounded: RwSignal<u32>,
    hover: RwSignal<Option<Hover>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    let palette = expect_context::<ReadSignal<Palette>>();
    let canvas = NodeRef::<Canvas>::new();
    let plot = NodeRef::<Div>::new();
    let in_view = seen_in_list(plot, state.scenario.with_untracked(|s| s.facts.len()));
    // The timeline, made from the run while the row is in view; out of view
    // the row keeps the last one and follows no change, so a change to the
    // settings costs nothing here.
    let row = Memo::new_owning(move |last: Option<Option<Row>>| match last {
        Some(last) if !in_view.get() => (last, false),
        last => {
            let now = if in_view.get() {
                state
                    .with_sim(|sim| Row::of(&sim.scenario, &sim.run, index))
                    .flatten()
            } else {
                None
            };
            let changed = last.as_ref() != Some(&now);
            (now, changed)
        }
    });
    // Its switches as the row last seen has them, else as loaded.
    let loaded = (fact.externalised, fact.forwarded);
    let switches =
        move || row.with(|r| r.as_ref().map_or(loaded, |r| (r.externalised, r.forwarded)));
    Effect::new(move |_| {
        let Some(c) = canvas.get() else { return };
        if !in_view.get() {
            // Its memory back; drawn again when it comes back into view.
            c.set_width(0);
            c.set_height(0);
            return;
        }
        // Redrawn when its life or the ground under it changes.
        grounded.track();
        let p = palette.get_untracked();
        ground.with_value(|g| {
            axis.with_untracked(|axis| {
                row.with(|row| {
                    if let (Some(g), Some(axis), Some(row)) = (g, axis, row) {
                        draw_into(&c, (g.width, size::ROW), g.dpr, Some(&g.canvas), |area| {
                            let _ = chart::draw_life(area, axis, row, &p, g.dpr);
                        });
                    }
                })
            })
        });
    });
    // Described while in view, like the drawing.
    let label = move || {
        in_view.get().then(|| {
            axis.with(|axis| row.with(|row| Some(describe(axis.as_ref()?, row.as_ref()?))))
        })?
    };
    let toggle = move |externalise: bool| {
        move |ev: leptos::ev::Event| {
            let on = event_target_checked(&ev);
            let _ = state.edit(|s| {
                if let Some(f) = s.facts.get_mut(index) {
                    if externalise {
                        f.externalised = on;
                    } else {
                        f.forwarded = on;
                    }
                }
            });
        }
    };
    // Externalised under a policy that never re-reads the store: the box
    // changes nothing, so say so by it and offer the switch that counts it.
    let ignored = Memo::new(move |_| {
        switches().0
            && !state
                .scenario
                .with(|s| s.effective_policy().rereads_external)
    });
    let policy_name = move || {
        state.scenario.with(|s| match s.policy {
            PolicyChoice::Preset(p) => p.info().name.to_string(),
            PolicyChoice::Custom(_) => "this custom policy".to_string(),
        })
    };
    let reread = move |_: leptos::ev::MouseEvent| {
        let _ = state.edit(|s| {
            s.policy = match s.policy {
                PolicyChoice::Preset(Preset::PinnedPrefix) => {
                    PolicyChoice::Preset(Preset::ExternalisedState)
                }
                other => PolicyChoice::Custom(Policy {
                    rereads_external: true,
                    ..other.policy()
                }),
            };
        });
    };
    let on_move = move |ev: leptos::ev::MouseEvent| {
        let Some(c) = canvas.get() else { return };
        let rect = c.get_bounding_client_rect();
        let x = f64::from(ev.client_x()) - rect.left();
        let text = row
            .with_untracked(|row| {
                let row = row.as_ref()?;
                state.with_sim_untracked(|sim| {
                    let frame = chart::Frame::new(
                        rect.width() as u32,
                        size::ROW as u32,
                        1.0,
                        sim.axis.turns,
                    );
                    // An action marker under the pointer explains the action.
                    if let Some(m) = row
                        .markers
                        .iter()
                        .find(|m| (f64::from(frame.x(f64::from(m.turn))) - x).abs() <= 6.0)
                    {
                        let action = sim.scenario.actions.get(m.action)?;
                        let why = drift_core::explain(&sim.scenario, &sim.run, m.action)
                            .map(|e| e.to_string())
                            .unwrap_or_default();
                        return Some(format!(
                            "turn {}: {}: {} ({:.2}); the action is {}. {}",
                            m.turn,
                            action.id,
                            m.presence(sim.axis.threshold).label(),
                            m.fidelity,
                            m.outcome.label(),
                            why
                        ));
                    }
                    let step = chart::step_at(&sim.axis, row, rect.width() as u32, 1.0, x)?;
                    Some(format!(
                        "round {} (turn {}): {}, fidelity {:.2}, depth {}, risk {:.2}{}",
                        step.round,
                        step.turn,
                        chart::state_label(step.state),
                        step.fidelity,
                        step.depth,
                        step.risk,
                        if step.unverified { ", unverified" } else { "" }
                    ))
                })
            })
            .flatten();
        hover.set(text.map(|text| Hover {
            row: index,
            left: x,
            text,
        }));
    };
    let tooltip = move || {
        hover.get().filter(|h| h.row == index).map(|h| {
            view! {
                <div class="tooltip" role="status" style:left=format!("{}px", h.left)>{h.text}</div>
            }
        })
    };
    let turn = if fact.turn == 0 {
        "system prompt".to_string()
    } else {
        format!("turn {}", fact.turn)
    };
    view! {
        <div class="row" data-fact=fact.id.clone()>
            <div class="label">
                <div class="fact-id" title=fact.text.clone()>{fact.id.clone()}</div>
                <div class="fact-meta">
                    <span class=role_badge(fact.role)>{fact.role.id()}</span>
                    <span class="kind">{fact.kind.label()}</span>
                    <span class="turn">{turn}</span>
                </div>
                <p class="fact-text">{fact.text}</p>
                <div class="fact-switches">
                    <label>
                        <input
                            type="checkbox"
                            class="externalise"
                            prop:checked=move || switches().0
                            on:change=toggle(true)
                        />
                        "externalise"
                    </label>
                    <label>
                        <input
                            type="checkbox"
                            class="forward"
                            prop:checked=move || switches().1
                            on:change=toggle(false)
                        />
                        "forward to subagents"
                    </label>
                </div>
                <p class="note warn ext-note" role="status" hidden=move || !ignored.get()>
                    "Not counted: " {policy_name} " never re-reads externalised facts. "
                    <button type="button" class="reread" on:click=reread>
                        "Re-read them"
                    </button>
                </p>
            </div>
            <div class="plot" node_ref=plot>
                <canvas
                    node_ref=canvas
                    role="img"
                    aria-label=label
                    style:height=format!("{}px", size::ROW)
                    on:mousemove=on_move
                    on:mouseleave=move |_| hover.set(None)
                ></canvas>
                {tooltip}
            </div>
        </div>
    }
}
