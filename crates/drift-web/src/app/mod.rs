//! The Leptos application (wasm32 only).

#[cfg(feature = "session")]
mod audit;
mod compare;
mod controls;
mod dom;
mod files;
mod fix;
mod panels;
#[cfg(feature = "session")]
mod session;
mod state;
mod storage;
mod timelines;
mod tips;
mod workers;

use leptos::either::EitherOf5;
use leptos::prelude::*;

use crate::link::Tab;
pub use state::AppState;

/// Installs the panic banner and mounts the simulator on `<body>`.
pub fn start() {
    install_panic_banner();
    leptos::mount::mount_to_body(App);
}

/// Installs the panic banner and mounts "Your own session" (import and
/// audit) on `<body>`. It is a page of its own, built as its own module, so
/// the simulator does not carry the transcript reader.
#[cfg(feature = "session")]
pub fn start_session() {
    install_panic_banner();
    leptos::mount::mount_to_body(session::SessionPage);
}

/// A panic shows a banner with a way out instead of a dead page.
fn install_panic_banner() {
    std::panic::set_hook(Box::new(|info| {
        web_sys::console::error_1(&format!("Compaction Drift stopped: {info}").into());
        let document = document();
        if let (Ok(banner), Some(body)) = (document.create_element("div"), document.body()) {
            banner.set_class_name("panic-banner");
            let _ = banner.set_attribute("role", "alert");
            banner.set_text_content(Some(
                "Something went wrong inside the page and it stopped. Your settings are in the address bar; reload to continue.",
            ));
            let _ = body.prepend_with_node_1(&banner);
        }
    }));
}

/// The whole page.
#[component]
pub fn App() -> impl IntoView {
    let state = AppState::init();
    provide_context(state);
    provide_context(dom::palette_signal());
    provide_context(tips::tips(state));
    files::accept_drops(state);

    // On a phone the settings start folded, so the timelines come first.
    let wide = window()
        .inner_width()
        .ok()
        .and_then(|w| w.as_f64())
        .is_none_or(|w| w > 760.0);
    let description = Memo::new(move |_| state.scenario.with(|s| s.description.clone()));
    let title = Memo::new(move |_| state.scenario.with(|s| s.title.clone()));
    let notice = move || {
        state.notice.get().map(|n| {
            view! {
                <div class="notice" class:problem=n.problem role=if n.problem { "alert" } else { "status" }>
                    <span>{n.text}</span>
                    <button type="button" class="dismiss" aria-label="Dismiss" on:click=move |_| state.notice.set(None)>
                        "×"
                    </button>
                </div>
            }
        })
    };
    let tab_button = move |tab: Tab| {
        view! {
            <button
                type="button"
                role="tab"
                id=format!("tab-{}", tab.id())
                aria-selected=move || (state.tab.get() == tab).to_string()
                class:active=move || state.tab.get() == tab
                on:click=move |_| state.tab.set(tab)
            >
                {tab.label()}
            </button>
        }
    };
    let view_for_tab = move || match state.tab.get() {
        Tab::Timelines => EitherOf5::A(view! { <timelines::Timelines /> }),
        Tab::Rounds => EitherOf5::B(view! { <panels::RoundsPanel /> }),
        Tab::Matrix => EitherOf5::C(view! { <panels::MatrixView /> }),
        Tab::Compare => EitherOf5::D(view! { <compare::CompareView /> }),
        Tab::Fix => EitherOf5::E(view! { <fix::FixView /> }),
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1>"Compaction Drift"</h1>
                <p class="tagline">"What automatic context compaction does to the rules your agent must obey."</p>
            </div>
            <div class="pickers">
                <controls::ScenarioPicker />
                <controls::PolicyPicker />
            </div>
            <files::Toolbar />
        </header>
        {notice}
        <panels::Headline />
        <div class="layout">
            <details class="drawer" open=wide>
                <summary>"Settings"</summary>
                <aside class="controls" aria-label="Settings">
                    <section class="panel scenario-info" aria-labelledby="scenario-heading">
                        <h2 id="scenario-heading">{title}</h2>
                        <p>{description}</p>
                    </section>
                    <controls::PolicyPanel />
                    <controls::HarnessPanel />
                    <controls::RetentionPanel />
                    <controls::GuardsPanel />
                    <controls::ModelPanel />
                </aside>
            </details>
            <main class="views">
                <div class="tabs" role="tablist" aria-label="Views">
                    {Tab::ALL.into_iter().map(tab_button).collect_view()}
                    <a class="tab-link" href="session/">"Your own session: import or audit →"</a>
                </div>
                <div class="tab-panel" role="tabpanel">{view_for_tab}</div>
                <panels::ActionsPanel />
            </main>
        </div>
        <footer class="foot">
            <p>
                "Runs entirely in your browser; nothing you load leaves this page. The numbers are engineering judgement: drag the sliders to disagree with them. "
                "Harness presets approximate published behaviour and name their sources."
            </p>
        </footer>
    }
}
