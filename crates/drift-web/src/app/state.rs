//! The page's reactive state: what is loaded, what was changed, and the
//! simulation derived from it.
//!
//! The writable state is what a link carries ([`AppState::source`],
//! [`AppState::scenario`], [`AppState::tab`], [`AppState::compare`],
//! [`AppState::fix`]) and the banner ([`AppState::notice`]); the run, the
//! timelines' axis and the story are one memo over them ([`AppState::sim`]),
//! and the compressed form of an imported scenario is kept beside them for
//! its links ([`AppState::packed`]). Effects only push state outward: to
//! the URL and to localStorage.

use std::time::Duration;

use drift_core::{Run, Scenario, ScenarioError, ValidScenario, simulate, simulate_valid};
use leptos::prelude::*;

use super::storage::{self, Saved};
use super::workers::{ANALYSIS, Answer, Worker};
use crate::chart::Axis;
use crate::link::{self, Fix, PageState, ScenarioSource, Tab};
use crate::story::{self, Story};
use crate::worker::pack_request;

/// A message shown in the banner.
#[derive(Clone, Debug, PartialEq)]
pub struct Notice {
    /// The text.
    pub text: String,
    /// Whether it reports a problem (vs. a confirmation).
    pub problem: bool,
}

impl Notice {
    pub fn problem(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            problem: true,
        }
    }

    pub fn info(text: impl Into<String>) -> Notice {
        Notice {
            text: text.into(),
            problem: false,
        }
    }
}

/// The simulation of the current settings, with what the page derives from
/// it for every view. What only some rows show (a fact's timeline, an
/// action's explanation) is made by the rows in view, from `run`.
#[derive(Debug)]
pub struct Sim {
    /// The scenario that was run.
    pub scenario: Scenario,
    /// Its run.
    pub run: Run,
    /// The timelines' shared axis.
    pub axis: Axis,
    /// The headline: the worst few actions explained.
    pub story: Story,
    /// Per action: whether its outcome changed with the last edit.
    pub changed: Vec<bool>,
}

impl PartialEq for Sim {
    fn eq(&self, other: &Sim) -> bool {
        // The run, axis and story are functions of the scenario.
        self.scenario == other.scenario && self.changed == other.changed
    }
}

impl Sim {
    fn of(scenario: Scenario, run: Run, previous: Option<&Sim>) -> Sim {
        let axis = Axis::of(&scenario, &run);
        let story = story::headline(&scenario, &run);
        let changed = match previous {
            Some(p)
                if p.scenario.id == scenario.id
                    && p.scenario.actions.len() == scenario.actions.len() =>
            {
                p.run
                    .actions()
                    .iter()
                    .zip(run.actions())
                    .map(|(a, b)| a.outcome != b.outcome)
                    .collect()
            }
            _ => vec![false; scenario.actions.len()],
        };
        Sim {
            scenario,
            run,
            axis,
            story,
            changed,
        }
    }
}

/// The page's state, provided as context to every component.
#[derive(Clone, Copy, Debug)]
pub struct AppState {
    /// Where the scenario was loaded from.
    pub source: RwSignal<ScenarioSource>,
    /// The scenario with every change made in the page, validated once
    /// when it was set: only a valid scenario gets in ([`AppState::edit`],
    /// [`AppState::load`]), and the run does not check it again.
    pub scenario: RwSignal<ValidScenario>,
    /// The visible tab.
    pub tab: RwSignal<Tab>,
    /// The preset the compare view sets against the current policy.
    pub compare: RwSignal<drift_core::Preset>,
    /// The remedy applied in the simulation, if any.
    pub fix: RwSignal<Option<Fix>>,
    /// The banner.
    pub notice: RwSignal<Option<Notice>>,
    /// An imported scenario's compressed text as the link that opened it
    /// carried it: links to the same scenario reuse it, so the page needs
    /// no compressor (another scenario is written uncompressed).
    pub packed: StoredValue<Option<(Scenario, String)>>,
    /// Compresses an imported scenario loaded here (a file, a drop) for its
    /// links, off the page; until it answers, links carry it uncompressed.
    packer: Worker,
    /// The scenario the packer was last asked about.
    packing: StoredValue<Option<Scenario>>,
    /// Fires when the settings are replaced as a whole (Reset, a loaded
    /// scenario), even with equal values: inputs holding text of their own
    /// show the settings again.
    pub replaced: Trigger,
    /// The simulation of the current settings; an error only when a fix
    /// applied to them makes a scenario that cannot run.
    pub sim: Memo<Result<Sim, ScenarioError>>,
}

impl AppState {
    /// Reads the link, else the saved settings, else the defaults, and
    /// starts syncing the state to the URL and to storage.
    pub fn init() -> AppState {
        reload_on_new_fragment();
        let (initial, notice, query) = initial_state();
        let packed = StoredValue::new(match (&initial.source, link::packed_in(&query)) {
            (ScenarioSource::Imported(s), Some(p)) => Some((s.as_ref().clone(), p)),
            _ => None,
        });
        let source = RwSignal::new(initial.source);
        let packing: StoredValue<Option<Scenario>> = StoredValue::new(None);
        let packer = Worker::new(ANALYSIS, move |answer| {
            if let Answer::Done(Ok(serde_json::Value::String(p))) = answer
                && let Some(s) = packing.get_value()
                && source
                    .with_untracked(|now| matches!(now, ScenarioSource::Imported(i) if **i == s))
            {
                packed.set_value(Some((s, p)));
                // The link now carries it compressed.
                source.notify();
            }
        });
        // A link or saved settings are validated as they are read, so this
        // keeps what they hold; the default view only if the two disagreed.
        let scenario = initial
            .scenario
            .into_valid()
            .unwrap_or_else(|_| default_scenario());
        let scenario = RwSignal::new(scenario);
        let tab = RwSignal::new(initial.tab);
        let compare = RwSignal::new(initial.compare);
        let fix = RwSignal::new(initial.fix);
        let notice = RwSignal::new(notice);
        let sim = Memo::new(move |previous: Option<&Result<Sim, ScenarioError>>| {
            let current = scenario.get();
            // With a fix applied, the run is that of the scenario with it.
            let (current, run) = match fix.get().and_then(|f| f.apply(&current)) {
                Some(with) => {
                    let run = simulate(&with)?;
                    (with, run)
                }
                None => {
                    let run = simulate_valid(&current);
                    (current.into_inner(), run)
                }
            };
            Ok(Sim::of(
                current,
                run,
                previous.and_then(|p| p.as_ref().ok()),
            ))
        });
        let state = AppState {
            source,
            scenario,
            tab,
            compare,
            fix,
            notice,
            packed,
            packer,
            packing,
            replaced: Trigger::new(),
            sim,
        };
        state.sync_outward();
        state
    }

    /// The page state as a link would carry it.
    pub fn page_state(&self) -> PageState {
        PageState {
            source: self.source.get(),
            scenario: self.scenario.get().into_inner(),
            tab: self.tab.get(),
            compare: self.compare.get(),
            fix: self.fix.get(),
        }
    }

    /// Runs `f` on the current sim; `None` if the settings could not run.
    pub fn with_sim<T>(&self, f: impl FnOnce(&Sim) -> T) -> Option<T> {
        self.sim.with(|r| r.as_ref().ok().map(f))
    }

    /// [`Self::with_sim`] without subscribing to it.
    pub fn with_sim_untracked<T>(&self, f: impl FnOnce(&Sim) -> T) -> Option<T> {
        self.sim.with_untracked(|r| r.as_ref().ok().map(f))
    }

    /// Applies `change` to the scenario if the result is valid.
    ///
    /// # Errors
    ///
    /// The engine's objection; the scenario is left as it was.
    pub fn edit(&self, change: impl FnOnce(&mut Scenario)) -> Result<(), ScenarioError> {
        let mut next = self.editable();
        change(&mut next);
        self.set_valid(next)
    }

    /// A copy of the scenario to change. Apart from [`Self::edit`], which
    /// every control inlines, so that each carries only the change.
    #[inline(never)]
    fn editable(&self) -> Scenario {
        self.scenario.with_untracked(|s| s.scenario().clone())
    }

    /// The scenario `next` if it is valid (see [`Self::editable`]).
    #[inline(never)]
    fn set_valid(&self, next: Scenario) -> Result<(), ScenarioError> {
        self.scenario.set(next.into_valid()?);
        Ok(())
    }

    /// Loads a scenario as the new starting point: a built-in or a file
    /// read by `parse_scenario`, both valid already; anything else that
    /// cannot run leaves the current one in place.
    pub fn load(&self, source: ScenarioSource, scenario: Scenario) {
        let Ok(scenario) = scenario.into_valid() else {
            return;
        };
        if let ScenarioSource::Imported(s) = &source
            && !self
                .packed
                .with_value(|p| p.as_ref().is_some_and(|(k, _)| k == s.as_ref()))
        {
            self.packing.set_value(Some(s.as_ref().clone()));
            self.packer.ask(|n| pack_request(n, s));
        }
        self.source.set(source);
        self.scenario.set(scenario);
        self.fix.set(None);
        self.replaced.notify();
    }

    /// Back to the loaded scenario's own settings.
    pub fn reset(&self) {
        if let Some(s) = self
            .source
            .with_untracked(ScenarioSource::scenario)
            .and_then(|s| s.into_valid().ok())
        {
            self.scenario.set(s);
        }
        self.fix.set(None);
        self.replaced.notify();
        self.notice.set(None);
    }

    /// Keeps the URL and localStorage in step with the state, debounced so
    /// that dragging a slider writes once it rests (and the link, which
    /// carries an imported session whole, is written only then).
    fn sync_outward(self) {
        let pending: StoredValue<Option<TimeoutHandle>> = StoredValue::new(None);
        Effect::new(move |_| {
            self.source.track();
            self.scenario.track();
            self.tab.track();
            self.compare.track();
            self.fix.track();
            if let Some(handle) = pending.get_value() {
                handle.clear();
            }
            let handle = set_timeout_with_handle(
                move || {
                    let query = self.query(&untrack(|| self.page_state()));
                    replace_url(&query);
                    storage::save(&query);
                },
                Duration::from_millis(150),
            )
            .ok();
            pending.set_value(handle);
        });
    }
}

/// A link pasted over the page's own address may differ only in its
/// fragment (a long state), which does not load the page again: reload it
/// then, so the link shows what it says. (The page's own updates replace the
/// address and never fire `hashchange`.)
fn reload_on_new_fragment() {
    // The listener lives as long as the page.
    let _ = window_event_listener(leptos::ev::hashchange, |_| {
        let _ = window().location().reload();
    });
}

/// The state to start from, why not the link's or the saved one when they
/// do not read, and the query it came from.
/// The default view's scenario, validated.
fn default_scenario() -> ValidScenario {
    let s = PageState::default_state().scenario;
    let id = s.id.clone();
    s.into_valid().unwrap_or_else(|_| ValidScenario::empty(&id))
}

fn initial_state() -> (PageState, Option<Notice>, String) {
    let location = window().location();
    let search = location.search().unwrap_or_default();
    let hash = location.hash().unwrap_or_default();
    let query = link::link_query(&search, &hash).to_string();
    match link::decode(&query) {
        Ok(Some(state)) => return (state, None, query),
        Err(e) => {
            return (
                PageState::default_state(),
                Some(Notice::problem(format!(
                    "This link could not be read: {e}. Showing the default view instead."
                ))),
                String::new(),
            );
        }
        Ok(None) => {}
    }
    let unreadable = |e: &dyn std::fmt::Display| {
        Some(Notice::problem(format!(
            "Your saved settings could not be read ({e}); starting from the defaults."
        )))
    };
    match storage::load() {
        Saved::Found(saved) => match link::decode(&saved) {
            Ok(Some(state)) => (state, None, saved),
            Ok(None) => (PageState::default_state(), None, String::new()),
            Err(e) => (PageState::default_state(), unreadable(&e), String::new()),
        },
        Saved::Unreadable(e) => (PageState::default_state(), unreadable(&e), String::new()),
        Saved::Nothing => (PageState::default_state(), None, String::new()),
    }
}

/// Replaces the URL's query (or fragment) without adding a history entry.
fn replace_url(query: &str) {
    let Ok(history) = window().history() else {
        return;
    };
    let path = window().location().pathname().unwrap_or_default();
    let _ = history.replace_state_with_url(
        &wasm_bindgen::JsValue::NULL,
        "",
        Some(&format!("{path}{}", link::url_suffix(query))),
    );
}

impl AppState {
    /// `state` as a link's query: an imported scenario compressed as the
    /// link that opened it had it, else uncompressed.
    pub fn query(&self, state: &PageState) -> String {
        let packed = self.packed.with_value(|p| match (p, &state.source) {
            (Some((s, packed)), ScenarioSource::Imported(now)) if s == now.as_ref() => {
                Some(packed.clone())
            }
            _ => None,
        });
        link::encode_packed(state, packed.as_deref())
    }

    /// The full URL of the current state, for sharing.
    pub fn share_url(&self) -> String {
        let location = window().location();
        let origin = location.origin().unwrap_or_default();
        let path = location.pathname().unwrap_or_default();
        let query = self.query(&self.page_state());
        format!("{origin}{path}{}", link::url_suffix(&query))
    }
}
