//! The analysis worker, seen from the page: every new simulation is sent to
//! it, and its answer for the latest simulation is kept.

use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen::closure::Closure;

use super::state::AppState;
use crate::worker::{Analysis, read_reply, request};

/// Where Trunk puts the worker's loader, next to the page.
const WORKER: &str = "drift-tipping_loader.js";

/// The worker's analysis of the current simulation.
#[derive(Clone, Debug, PartialEq)]
pub enum Tips {
    /// Asked, not answered yet.
    Pending,
    /// What would flip each action, and what each round did.
    Ready(Analysis),
    /// The worker could not start or answer.
    Unavailable(String),
}

/// Starts the worker and keeps its analysis of the current simulation.
pub fn tips(state: AppState) -> ReadSignal<Tips> {
    let (tips, set_tips) = signal(Tips::Pending);
    let seq = StoredValue::new(0u64);
    let worker = match web_sys::Worker::new(WORKER) {
        Ok(w) => w,
        Err(_) => {
            set_tips.set(Tips::Unavailable("the worker could not start".to_string()));
            return tips;
        }
    };
    let on_message =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |e: web_sys::MessageEvent| {
            let Some((n, answer)) = e.data().as_string().and_then(|r| read_reply(&r)) else {
                return;
            };
            if n == seq.get_value() {
                set_tips.set(match answer {
                    Ok(t) => Tips::Ready(t),
                    Err(e) => Tips::Unavailable(e),
                });
            }
        });
    worker.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    on_message.forget();
    let on_error = Closure::<dyn Fn(web_sys::Event)>::new(move |_| {
        set_tips.set(Tips::Unavailable("the worker stopped".to_string()));
    });
    worker.set_onerror(Some(on_error.as_ref().unchecked_ref()));
    on_error.forget();
    let worker = StoredValue::new_local(worker);
    Effect::new(move |_| {
        let message = state.with_sim(|sim| {
            seq.update_value(|n| *n += 1);
            request(seq.get_value(), &sim.scenario)
        });
        if let Some(m) = message {
            set_tips.set(Tips::Pending);
            worker.with_value(|w| {
                let _ = w.post_message(&m.into());
            });
        }
    });
    tips
}
