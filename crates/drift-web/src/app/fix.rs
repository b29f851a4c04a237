//! "Fix it": for the current scenario, a harness's remedy written out (to
//! copy or download) and modelled: the run without it beside the run with
//! it, every action and fact whose fate differs marked. "Apply it in the
//! simulation" puts the run with it on screen (and in the link).
//!
//! The view is markup the analysis worker writes ([`crate::worker::remedial`]):
//! its module holds the remedies' prose and runs the comparison, so the
//! page's own WebAssembly holds neither; the page answers the markup's
//! inputs and buttons where their events bubble.

use drift_core::{PolicyChoice, RemedyHarness};
use leptos::prelude::*;

use super::dom::{copy_text, download, file_name, target_id};
use super::state::{AppState, Notice};
use super::workers::{ANALYSIS, Answer, Worker};
use crate::html::escape;
use crate::link::Fix;
use crate::worker::{Remedial, remedy_request};

/// The fix the view starts with: the one applied, else the first remedy of
/// the harness the policy approximates (Claude Code's for any other).
fn first_fix(state: AppState) -> Fix {
    state.fix.get_untracked().unwrap_or_else(|| {
        Fix::first(
            state
                .scenario
                .with_untracked(|s| match s.policy {
                    PolicyChoice::Preset(p) => RemedyHarness::of_preset(p),
                    PolicyChoice::Custom(_) => None,
                })
                .unwrap_or(RemedyHarness::ClaudeCode),
        )
    })
}

/// The "Fix it" view: one piece of markup (cheaper, in code size, than a
/// reactive one), its inputs and buttons answered where the events bubble.
#[component]
pub fn FixView() -> impl IntoView {
    let state = expect_context::<AppState>();
    let chosen = RwSignal::new(first_fix(state));
    // Written out and modelled by the analysis worker, for the scenario as
    // edited (without any fix).
    let (html, set_html) = signal("<p class=\"note\">Writing the remedy…</p>".to_string());
    let (markdown, set_markdown) = signal(None::<String>);
    let worker = Worker::new(ANALYSIS, move |answer| {
        let why = match answer {
            Answer::Done(Ok(v)) => match Remedial::from_json(&v) {
                Some(r) => {
                    set_html.set(r.html);
                    set_markdown.set(r.markdown);
                    return;
                }
                None => "the worker's answer is not a remedy".to_string(),
            },
            Answer::Done(Err(why)) | Answer::Stopped(why) | Answer::Gone(why) => why,
        };
        set_html.set(format!(
            "<p class=\"note\">The remedy cannot be shown here: {}</p>",
            escape(&why)
        ));
        set_markdown.set(None);
    });
    Effect::new(move |_| {
        let fix = chosen.get();
        let applied = state.fix.get_untracked().is_some();
        state
            .scenario
            .with(|s| worker.ask(|n| remedy_request(n, fix, applied, s)));
    });
    let on_change = move |ev: leptos::ev::Event| {
        let next = match target_id(&ev).as_str() {
            "fix-harness" => RemedyHarness::from_id(&event_target_value(&ev)).map(Fix::first),
            "fix-remedy" => Fix::from_id(&event_target_value(&ev)),
            "fix-apply" => {
                state
                    .fix
                    .set(event_target_checked(&ev).then(|| chosen.get_untracked()));
                None
            }
            _ => None,
        };
        // Choosing another remedy while one is applied applies that one.
        if let Some(fix) = next {
            chosen.set(fix);
            if state.fix.get_untracked().is_some() {
                state.fix.set(Some(fix));
            }
        }
    };
    let on_click = move |ev: leptos::ev::MouseEvent| {
        let id = target_id(&ev);
        let Some(md) = markdown.get_untracked() else {
            return;
        };
        match id.as_str() {
            "fix-copy" => {
                copy_text(md, move |copied| {
                    state.notice.set(Some(if copied {
                        Notice::info("The remedy is on the clipboard.")
                    } else {
                        Notice::info("Select the remedy's text below and copy it.")
                    }));
                });
            }
            "fix-download" => {
                let fix = chosen.get_untracked();
                let name = state.scenario.with_untracked(|s| {
                    file_name(&[&s.id, "fix", fix.harness.id(), fix.remedy.id()], "md")
                });
                if let Err(e) = download(&name, "text/markdown", md.as_bytes()) {
                    state
                        .notice
                        .set(Some(Notice::problem(format!("Download failed: {e}"))));
                }
            }
            _ => {}
        }
    };
    view! {
        <div class="fix compare" on:change=on_change on:click=on_click inner_html=html></div>
    }
}
