//! Sharing, importing and exporting: copy link, reset, load a scenario file
//! (picker or drop), and export the chart (PNG, SVG), the result (JSON), the
//! actions (CSV) and the edited scenario (JSON).

use drift_core::{parse_scenario, scenario_to_json};
use leptos::html::Input;
use leptos::prelude::*;

use super::dom::{
    copy_text, device_pixel_ratio, download, download_svg_as_png, file_name, file_text,
    take_chosen_file,
};
use super::state::{AppState, Notice};
use super::workers::{ANALYSIS, Answer, Worker};
use crate::chart::Palette;
use crate::link::ScenarioSource;
use crate::page::export_title;
use crate::worker::{Export, export_request};

const PNG: &str = "image/png";

/// The width and height an SVG document gives itself, in CSS pixels.
fn svg_size(svg: &str) -> Option<(u32, u32)> {
    let head = &svg[..svg.find('>')?];
    let attr = |key: &str| -> Option<u32> {
        let rest = &head[head.find(key)? + key.len()..];
        rest[..rest.find('"')?].parse().ok()
    };
    Some((attr(" width=\"")?, attr(" height=\"")?))
}

/// Reads `file` and loads it as a scenario; a file that does not read leaves
/// the session as it was and says what is wrong.
pub fn import(state: AppState, file: web_sys::File) {
    let name = file.name();
    leptos::task::spawn_local(async move {
        let text = match file_text(&file).await {
            Some(text) => text,
            None => {
                state.notice.set(Some(Notice::problem(format!(
                    "{name}: the file could not be read"
                ))));
                return;
            }
        };
        match parse_scenario(&text) {
            Ok(scenario) => {
                state.load(
                    ScenarioSource::Imported(Box::new(scenario.clone())),
                    scenario,
                );
                state
                    .notice
                    .set(Some(Notice::info(format!("Loaded {name}."))));
            }
            Err(e) => state.notice.set(Some(Notice::problem(format!(
                "{name} was not loaded: {e}. The current scenario is unchanged."
            )))),
        }
    });
}

/// The first file of a drop or a file input.
fn first_file(files: Option<web_sys::FileList>) -> Option<web_sys::File> {
    files.and_then(|f| f.get(0))
}

/// Accepts scenario files dropped anywhere on the page.
pub fn accept_drops(state: AppState) {
    let _ = window_event_listener(leptos::ev::dragover, |ev| ev.prevent_default());
    let _ = window_event_listener(leptos::ev::drop, move |ev| {
        ev.prevent_default();
        if let Some(file) = first_file(ev.data_transfer().and_then(|d| d.files())) {
            import(state, file);
        }
    });
}

/// The toolbar: copy link, export, import, reset.
#[component]
pub fn Toolbar() -> impl IntoView {
    let state = expect_context::<AppState>();
    let palette = expect_context::<ReadSignal<Palette>>();
    let picker = NodeRef::<Input>::new();
    let (link, set_link) = signal(None::<String>);
    let names = move |what: &str, ext: &str| {
        state
            .scenario
            .with_untracked(|s| file_name(&[&s.id, s.policy.id(), what], ext))
    };
    let report = move |result: Result<(), String>| {
        if let Err(e) = result {
            state
                .notice
                .set(Some(Notice::problem(format!("Export failed: {e}"))));
        }
    };
    let copy = move |_| {
        let url = state.share_url();
        set_link.set(Some(url.clone()));
        copy_text(url, move |copied| {
            state.notice.set(Some(if copied {
                Notice::info("Link copied. Anyone who opens it sees exactly this view.")
            } else {
                Notice::info("Copy the link from the box next to the button.")
            }));
        });
    };
    // An exported chart is titled with what it shows: the scenario, the
    // policy, the user's edits and the fix applied.
    let title = move |policy: &str| {
        let base = state.source.with_untracked(ScenarioSource::scenario);
        state
            .scenario
            .with_untracked(|s| export_title(base.as_ref(), s, policy, state.fix.get_untracked()))
    };
    // The drawings, the result and the CSV are written by the analysis
    // worker (a second one, started at the first export), off the page: for
    // a long session they are megabytes. A PNG is the worker's SVG drawn on
    // a canvas here. The latest export asked for is saved.
    let asked = StoredValue::new((String::new(), ""));
    let exports = Worker::new(ANALYSIS, move |answer| {
        let (name, mime) = asked.get_value();
        match answer {
            Answer::Done(Ok(text)) => match text.as_str() {
                Some(svg) if mime == PNG => match svg_size(svg) {
                    Some(size) => {
                        download_svg_as_png(name, svg, size, device_pixel_ratio(), report)
                    }
                    None => report(Err("the chart could not be drawn".to_string())),
                },
                Some(text) => report(download(&name, mime, text.as_bytes())),
                None => report(Err("the worker's answer is not a file".to_string())),
            },
            Answer::Done(Err(why)) | Answer::Stopped(why) | Answer::Gone(why) => report(Err(why)),
        }
    });
    let export = move |export: Export, what: &str, ext: &str, mime: &'static str| {
        asked.set_value((names(what, ext), mime));
        // What is on screen: with a fix applied, the scenario it runs.
        exports.ask(|n| {
            state
                .with_sim_untracked(|sim| {
                    export_request(n, export, &title(sim.run.policy_id()), &sim.scenario)
                })
                .unwrap_or_default()
        });
    };
    let export_svg = move |_| {
        let dark = palette.get_untracked() == Palette::DARK;
        export(Export::Svg { dark }, "timelines", "svg", "image/svg+xml");
    };
    let export_png = move |_| {
        let dark = palette.get_untracked() == Palette::DARK;
        export(Export::Svg { dark }, "timelines", "png", PNG);
    };
    let export_json = move |_| export(Export::Json, "result", "json", "application/json");
    let export_csv = move |_| export(Export::Csv, "actions", "csv", "text/csv");
    let export_scenario = move |_| {
        let json = state.scenario.with_untracked(|s| scenario_to_json(s));
        report(download(
            &names("scenario", "json"),
            "application/json",
            json.as_bytes(),
        ));
    };
    view! {
        <div class="toolbar" role="toolbar" aria-label="Share and files">
            <button type="button" id="copy-link" on:click=copy>"Copy link"</button>
            <input
                class="link-box"
                type="text"
                readonly
                aria-label="Link to this view"
                hidden=move || link.with(Option::is_none)
                prop:value=move || link.get().unwrap_or_default()
            />
            <details class="menu">
                <summary>"Export"</summary>
                <div class="menu-items">
                    <button type="button" id="export-png" on:click=export_png>"Chart as PNG"</button>
                    <button type="button" id="export-svg" on:click=export_svg>"Chart as SVG"</button>
                    <button type="button" id="export-json" on:click=export_json>"Result (JSON)"</button>
                    <button type="button" id="export-csv" on:click=export_csv>"Actions (CSV)"</button>
                    <button type="button" id="export-scenario" on:click=export_scenario>"Scenario file"</button>
                </div>
            </details>
            <button type="button" id="import" on:click=move |_| {
                if let Some(input) = picker.get() {
                    input.click();
                }
            }>"Import…"</button>
            <input
                type="file"
                id="import-file"
                accept=".json,application/json"
                hidden
                node_ref=picker
                on:change=move |ev| {
                    if let Some(file) = take_chosen_file(&ev) {
                        import(state, file);
                    }
                }
            />
            <button type="button" id="reset" on:click=move |_| state.reset()>"Reset"</button>
        </div>
    }
}
