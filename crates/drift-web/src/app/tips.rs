//! The analysis worker, seen from the page: every new simulation is sent to
//! it, and its answer for the latest simulation is kept.

use std::time::Duration;

use leptos::prelude::*;

use super::state::AppState;
use super::workers::{ANALYSIS, Answer, Worker};
use crate::html::escape;
use crate::worker::{Analysis, request};

/// How long settings must stay put before the worker is asked.
const SETTLE: Duration = Duration::from_millis(120);

/// The worker's analysis of the current simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum Tips {
    /// Asked, not answered yet; meanwhile the previous answer, if any (for
    /// earlier settings: shown as such).
    Pending(Option<Analysis>),
    /// What would flip each action, and what each round did.
    Ready(Analysis),
    /// The worker could not start or answer.
    Unavailable(String),
}

impl Tips {
    /// The part of the analysis that `part` picks, as markup: the latest
    /// answer (while a newer one is asked), an ellipsis before the first,
    /// or why there is none.
    pub fn markup(&self, part: impl Fn(&Analysis) -> &String) -> String {
        match self {
            Tips::Ready(a) | Tips::Pending(Some(a)) => part(a).clone(),
            Tips::Pending(None) => "<p class=\"note\">…</p>".to_string(),
            Tips::Unavailable(why) => {
                format!("<p class=\"note\">Unavailable: {}</p>", escape(why))
            }
        }
    }
}

/// Starts the worker and keeps its analysis of the current simulation.
pub fn tips(state: AppState) -> ReadSignal<Tips> {
    let (tips, set_tips) = signal(Tips::Pending(None));
    let worker = Worker::new(ANALYSIS, move |answer| {
        set_tips.set(match answer {
            Answer::Done(Ok(v)) => match Analysis::from_json(&v) {
                Some(t) => Tips::Ready(t),
                None => Tips::Unavailable("the analysis could not be read".to_string()),
            },
            Answer::Done(Err(why)) | Answer::Stopped(why) | Answer::Gone(why) => {
                Tips::Unavailable(why)
            }
        });
    });
    worker.start();
    // Until the worker answers for new settings, its previous answer stays,
    // dimmed as being for earlier settings (`data-analysing` on the page).
    Effect::new(move |_| {
        let pending = tips.with(|t| matches!(t, Tips::Pending(_)));
        if let Some(body) = document().body() {
            let _ = if pending {
                body.set_attribute("data-analysing", "")
            } else {
                body.remove_attribute("data-analysing")
            };
        }
    });
    // While settings change (a slider dragged), the worker waits: it is asked
    // once they have been still for `SETTLE`, so the page's redraws keep the
    // processor to themselves.
    Effect::new(move |_| {
        if state.with_sim(|_| ()).is_none() {
            return;
        }
        if let Some(why) = worker.gone() {
            set_tips.set(Tips::Unavailable(why));
            return;
        }
        if !tips.with_untracked(|t| matches!(t, Tips::Pending(_))) {
            set_tips.update(|t| {
                *t = match std::mem::replace(t, Tips::Pending(None)) {
                    Tips::Ready(a) => Tips::Pending(Some(a)),
                    _ => Tips::Pending(None),
                };
            });
        }
        worker.ask_later(SETTLE, move |n| {
            state.with_sim_untracked(|sim| request(n, &sim.scenario))
        });
    });
    tips
}
