//! The page mounted in a real browser (wasm-bindgen-test in headless Chromium):
//! moving a retention slider re-runs the engine, changes an action's outcome
//! and redraws the canvases.

#![cfg(target_arch = "wasm32")]

use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use web_sys::{Event, EventInit, HtmlCanvasElement, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

/// Lets effects and timers run.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let _ = web_sys::window()
            .unwrap()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 50);
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
}

fn query<T: JsCast>(selector: &str) -> T {
    web_sys::window()
        .unwrap()
        .document()
        .unwrap()
        .query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("no element matches {selector}"))
        .dyn_into::<T>()
        .unwrap_or_else(|_| panic!("{selector} is not the expected element"))
}

fn text(selector: &str) -> String {
    query::<web_sys::Element>(selector)
        .text_content()
        .unwrap_or_default()
}

fn draws(selector: &str) -> u64 {
    query::<HtmlCanvasElement>(selector)
        .get_attribute("data-draws")
        .and_then(|d| d.parse().ok())
        .unwrap_or(0)
}

#[wasm_bindgen_test]
async fn moving_a_retention_slider_changes_an_outcome_and_redraws() {
    drift_web::app::start();
    settle().await;
    // The canvases are sized by a ResizeObserver: wait for the first layout.
    for _ in 0..40 {
        if draws(".row[data-fact=\"eu-residency\"] canvas") > 0 {
            break;
        }
        settle().await;
    }
    let outcome = "tr[data-action=\"copy-eu-logs\"] .outcome";
    assert_eq!(text(outcome), "ungoverned");
    let canvas = ".row[data-fact=\"eu-residency\"] canvas";
    let before = draws(canvas);
    assert!(before >= 1, "the row was never drawn");

    let slider: HtmlInputElement = query("#retention-standing_rule");
    slider.set_value("1");
    let init = EventInit::new();
    init.set_bubbles(true);
    slider
        .dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
    for _ in 0..40 {
        settle().await;
        if text(outcome) != "ungoverned" {
            break;
        }
    }

    assert_eq!(text(outcome), "governed");
    assert!(draws(canvas) > before, "the canvas was not redrawn");
    assert!(text(".summary").starts_with("Under pinned prefix"));
}
