//! "Your own session": import a real transcript as a scenario, correct the
//! guesses, see the outcomes, and open it in the simulator; or audit a real
//! compaction. A page of its own (`session.html`), so the simulator does not
//! carry the transcript reader.

use std::time::Duration;

use drift_core::{Kind, PolicyChoice, Preset, Scenario, scenario_to_json, simulate};
use drift_session::ImportOptions;
use leptos::html::Textarea;
use leptos::prelude::*;
use wasm_bindgen::JsCast;

use super::audit::AuditView;
use super::dom::{download, file_name, file_text, take_chosen_file};
use super::workers::{Answer, Worker};
use crate::html::escape;
use crate::imported::{Compactions, Guesses};
use crate::link::{self, PageState, ScenarioSource, Tab};
use crate::story;
use crate::tables::{actions_html, headline_html};
use crate::worker::{compactions_request, import_request};

/// Which view the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum View {
    Import,
    Audit,
}

/// The kinds a guessed fact can be given: every kind but a binding, which
/// needs a resource a transcript does not name.
fn guessable_kinds() -> impl Iterator<Item = Kind> {
    Kind::ALL.into_iter().filter(|k| *k != Kind::Binding)
}

/// What the person changed in the guesses.
#[derive(Clone, Debug, Default, PartialEq)]
struct Edits {
    /// Per fact: kept, and its kind.
    facts: Vec<(bool, Kind)>,
    /// Per action: kept, and its governing fact ids.
    actions: Vec<(bool, Vec<String>)>,
}

impl Edits {
    fn of(imported: &Guesses) -> Edits {
        Edits {
            facts: imported
                .scenario
                .facts
                .iter()
                .map(|f| (true, f.kind))
                .collect(),
            actions: imported
                .scenario
                .actions
                .iter()
                .map(|a| (true, a.governed_by.clone()))
                .collect(),
        }
    }
}

/// The imported scenario with the edits applied. Actions left governed by
/// nothing are dropped, and counted.
fn apply(imported: &Guesses, edits: &Edits) -> (Scenario, usize) {
    let mut s = imported.scenario.clone();
    let dropped: Vec<String> = s
        .facts
        .iter()
        .zip(&edits.facts)
        .filter(|(_, (keep, _))| !keep)
        .map(|(f, _)| f.id.clone())
        .collect();
    let mut facts = Vec::with_capacity(s.facts.len());
    for (mut f, (keep, kind)) in s.facts.drain(..).zip(&edits.facts) {
        if *keep {
            f.kind = *kind;
            facts.push(f);
        }
    }
    s.facts = facts;
    let mut orphaned = 0;
    let mut actions = Vec::with_capacity(s.actions.len());
    for (mut a, (keep, governed_by)) in s.actions.drain(..).zip(&edits.actions) {
        if !keep {
            continue;
        }
        a.governed_by = governed_by
            .iter()
            .filter(|g| !dropped.contains(g))
            .cloned()
            .collect();
        if a.governed_by.is_empty() {
            orphaned += 1;
        } else {
            actions.push(a);
        }
    }
    s.actions = actions;
    (s, orphaned)
}

/// The import worker's loader, which Trunk puts beside the page's script.
const WORKER: &str = "drift-import_loader.js";

/// The largest log shown in the text box.
const SHOWN: usize = 1_000_000;

/// How long a read may take before the page says it is reading.
const QUIET: Duration = Duration::from_millis(200);

/// What the page says while it reads `size` bytes.
fn reading(size: usize) -> String {
    format!("Reading {:.1} MB of transcript…", size as f64 / 1_000_000.0)
}

/// Reads `text` on the page itself, after letting it paint its progress
/// line: the way when the import worker cannot run.
fn import_here(
    text: String,
    busy: WriteSignal<Option<String>>,
    done: impl FnOnce(Result<Guesses, String>) + 'static,
) {
    if text.len() > 200_000 {
        busy.set(Some(reading(text.len())));
    }
    set_timeout(
        move || {
            let result = Guesses::read(&text);
            busy.set(None);
            done(result);
        },
        Duration::from_millis(30),
    );
}

/// An import being corrected: the guesses as read, what the person changed
/// in them, and the window and harness applied over them as settings
/// (changing those keeps every correction).
#[derive(Clone, Copy)]
struct Import {
    imported: RwSignal<Option<Guesses>>,
    /// The log's compactions audited (by a second worker), once they are.
    compactions: RwSignal<Option<Result<Compactions, String>>>,
    edits: RwSignal<Edits>,
    window_tokens: RwSignal<Option<u64>>,
    preset: RwSignal<Option<Preset>>,
    /// The edited scenario, and how many actions it leaves governed by nothing.
    edited: Memo<Option<(Scenario, usize)>>,
}

impl Import {
    fn new() -> Import {
        let imported = RwSignal::new(None::<Guesses>);
        let compactions = RwSignal::new(None);
        let edits = RwSignal::new(Edits::default());
        let window_tokens = RwSignal::new(None::<u64>);
        let preset = RwSignal::new(None::<Preset>);
        let edited = Memo::new(move |_| {
            imported.with(|i| {
                i.as_ref().map(|i| {
                    let (mut s, orphaned) = edits.with(|e| apply(i, e));
                    if let Some(w) = window_tokens.get() {
                        s.harness.window_tokens = w;
                    }
                    if let Some(p) = preset.get() {
                        s.policy = PolicyChoice::Preset(p);
                    }
                    (s, orphaned)
                })
            })
        });
        Import {
            imported,
            compactions,
            edits,
            window_tokens,
            preset,
            edited,
        }
    }

    /// New guesses, every correction undone.
    fn take(self, guesses: Guesses) {
        self.edits.set(Edits::of(&guesses));
        self.imported.set(Some(guesses));
    }
}

/// The import view: where a log comes in, and what became of it.
#[component]
fn ImportView() -> impl IntoView {
    let import = Import::new();
    let text_box = NodeRef::<Textarea>::new();
    let (busy, set_busy) = signal(None::<String>);
    let (error, set_error) = signal(None::<String>);
    let source = StoredValue::new(String::new());

    // Transcripts are read by a worker, so the page stays responsive; only the
    // answer to the latest read counts.
    let done = move |result: Result<Guesses, String>| match result {
        Ok(g) => {
            import.take(g);
            set_error.set(None);
        }
        Err(e) => set_error.set(Some(e)),
    };
    // Once the guesses are in, the same worker audits the log's compactions,
    // so that a long log's guesses do not wait for them; its answer is told
    // apart by its markup.
    let auditing = StoredValue::new(false);
    // The import request whose transcript the worker holds: the audit asks
    // for that reading's compactions instead of sending the log again.
    let read_by = StoredValue::new(None::<u64>);
    let worker = Worker::new(WORKER, move |answer| {
        set_busy.set(None);
        if auditing.get_value() {
            auditing.set_value(false);
            import.compactions.set(Some(match answer {
                Answer::Done(result) => result.and_then(|v| Compactions::from_json(&v)),
                Answer::Stopped(why) => Err(format!("The compactions could not be audited: {why}")),
                Answer::Gone(_) => Compactions::read(&source.get_value()),
            }));
            return;
        }
        match answer {
            Answer::Done(result) => done(result.and_then(|v| Guesses::from_json(&v))),
            // It stopped while reading (a log too large for its memory, say):
            // say so; the next read starts a fresh one.
            Answer::Stopped(why) => {
                set_error.set(Some(format!("The transcript could not be read: {why}")));
            }
            // It cannot run here: read the log on the page.
            Answer::Gone(_) => import_here(source.get_value(), set_busy, done),
        }
    });
    let run_import = move || {
        let text = source.get_value();
        if text.trim().is_empty() {
            return;
        }
        // A new read supersedes an audit still running.
        auditing.set_value(false);
        import.compactions.set(None);
        let size = text.len();
        read_by.set_value(None);
        if let Some(n) = worker.ask(|n| import_request(n, &text)) {
            read_by.set_value(Some(n));
            set_timeout(
                move || {
                    if worker.waiting_for(n) {
                        set_busy.set(Some(reading(size)));
                    }
                },
                QUIET,
            );
        }
    };
    Effect::new(move |_| {
        if import.imported.with(Option::is_none)
            || import.compactions.with_untracked(Option::is_some)
        {
            return;
        }
        let read = read_by.get_value().filter(|_| worker.gone().is_none());
        let Some(read) = read else {
            // Read on the page: the worker cannot run here.
            let text = source.get_value();
            set_timeout(
                move || import.compactions.set(Some(Compactions::read(&text))),
                Duration::from_millis(30),
            );
            return;
        };
        auditing.set_value(true);
        worker.ask(|n| compactions_request(n, read));
    });
    let load_text = move |name: String, text: String| {
        if let Some(el) = text_box.get() {
            // A log of megabytes in a text box makes the page crawl; it is
            // named instead, and pasting replaces it.
            if text.len() > SHOWN {
                el.set_value("");
                el.set_placeholder(&format!(
                    "{name} ({:.1} MB) is loaded. Paste here to read something else.",
                    text.len() as f64 / 1_000_000.0
                ));
            } else {
                el.set_value(&text);
            }
        }
        source.set_value(text);
        run_import();
    };
    // The file last loaded, by name: the native input is emptied after each
    // pick (so the same file can be picked again) and would say "No file
    // chosen" beside a loaded log.
    let (chosen, set_chosen) = signal(None::<String>);
    let on_file = move |ev: leptos::ev::Event| {
        let Some(file) = take_chosen_file(&ev) else {
            return;
        };
        leptos::task::spawn_local(async move {
            match file_text(&file).await {
                Some(text) => {
                    set_chosen.set(Some(format!(
                        "Loaded: {} ({})",
                        file.name(),
                        size_words(text.len())
                    )));
                    load_text(file.name(), text);
                }
                None => set_error.set(Some(format!("{}: the file could not be read", file.name()))),
            }
        });
    };

    view! {
        <div class="import">
            <p class="note">
                "Load or paste a session log (a Claude Code or Codex session, OpenAI Responses items, or plain text). The rules it states become facts, the risky tool calls become actions; every one is a guess you can correct before the simulation uses it. Nothing leaves this page."
            </p>
            <ImportSettings import set_error />
            <textarea
                id="import-text"
                node_ref=text_box
                rows="8"
                spellcheck="false"
                aria-label="Session log"
                on:change=move |ev| {
                    source.set_value(event_target_value(&ev));
                    run_import();
                }
            ></textarea>
            <div class="import-buttons">
                <label class="file-button">
                    "Load a session log… "
                    <input type="file" id="import-file" class="file-input" on:change=on_file />
                </label>
                <span class="file-name" id="import-file-name" role="status">
                    {move || chosen.get().unwrap_or_default()}
                </span>
            </div>
            <p class="note progress" role="status" hidden=move || busy.with(Option::is_none)>{move || busy.get()}</p>
            <p class="control-error" role="alert" hidden=move || error.with(Option::is_none)>{move || error.get()}</p>
            <Show when=move || import.imported.with(Option::is_some)>
                <ImportResults import />
                <FactGuesses import />
                <ActionGuesses import />
            </Show>
        </div>
    }
}

/// The window and the harness the imported scenario runs under.
#[component]
fn ImportSettings(import: Import, set_error: WriteSignal<Option<String>>) -> impl IntoView {
    let Import {
        imported,
        window_tokens,
        preset,
        ..
    } = import;
    view! {
        <div class="import-options">
            <label class="control number">
                <span>"window (tokens)"</span>
                <input
                    type="number"
                    id="import-window"
                    min="1000"
                    step="1000"
                    prop:value=move || {
                        window_tokens
                            .get()
                            .or_else(|| {
                                imported.with(|i| i.as_ref().map(|i| i.scenario.harness.window_tokens))
                            })
                            .unwrap_or(ImportOptions::default().window_tokens)
                            .to_string()
                    }
                    on:change=move |ev| {
                        match event_target_value(&ev).trim().parse::<u64>() {
                            Ok(w) if window_tokens.get_untracked() != Some(w) => window_tokens.set(Some(w)),
                            Ok(_) => {}
                            Err(_) => set_error.set(Some("The window must be a whole number of tokens.".to_string())),
                        }
                    }
                />
            </label>
            <label class="picker">
                <span>"harness"</span>
                <select
                    id="import-policy"
                    on:change=move |ev| preset.set(Preset::from_id(&event_target_value(&ev)))
                >
                    <option value="">"as the log's format suggests"</option>
                    {Preset::ALL.iter().map(|p| view! { <option value=p.id()>{p.info().name}</option> }).collect_view()}
                </select>
            </label>
        </div>
    }
}

/// What the edited import comes to: a summary, the way to the simulator and
/// to a file, and the simulation's headline and actions, live.
#[component]
fn ImportResults(import: Import) -> impl IntoView {
    let Import {
        imported,
        compactions,
        edited,
        ..
    } = import;
    let results = Memo::new(move |_| {
        edited.with(|e| {
            let (s, orphaned) = e.as_ref()?;
            Some(match simulate(s) {
                Ok(run) => {
                    let story = story::tell(s, &run);
                    Ok((
                        headline_html(s, &story),
                        actions_html(s, &run, &[], &[]),
                        *orphaned,
                    ))
                }
                Err(e) => Err(e.to_string()),
            })
        })
    });
    // The simulator, on the edited scenario; `measured`: with the retention
    // this log's compactions showed for each kind they judged.
    let open = move |measured: bool| {
        let Some((mut s, _)) = edited.get_untracked() else {
            return;
        };
        let loaded = s.clone();
        if measured {
            compactions.with_untracked(|c| {
                for (kind, r) in c.iter().flatten().flat_map(|c| &c.retention) {
                    s.retention.set(*kind, *r);
                }
            });
        }
        let state = PageState {
            source: ScenarioSource::Imported(Box::new(loaded)),
            scenario: s,
            tab: Tab::Timelines,
            compare: link::DEFAULT_COMPARE,
            fix: None,
        };
        let _ = window()
            .location()
            .set_href(&format!("../{}", link::url_suffix(&link::encode(&state))));
    };
    let open_in_simulator = move |_| open(false);
    // The model beside the log: the edited scenario's run against the fates
    // the log's compactions show, rule by rule.
    let beside = Memo::new(move |_| {
        let (s, _) = edited.get()?;
        let (facts, placed) = imported.with(|g| g.as_ref().map(|g| (g.fact_rules(), g.placed)))?;
        let run = simulate(&s).ok()?;
        compactions.with(|c| match c {
            Some(Ok(c)) => Some(crate::imported::beside_html(
                &drift_session::import::beside(&s, &run, &facts, &c.measured, placed),
            )),
            _ => None,
        })
    });
    let audited = move || {
        compactions.with(|c| match c {
            None => "<p class=\"note\">Auditing its compactions…</p>".to_string(),
            Some(Ok(c)) => c.html.clone(),
            Some(Err(e)) => format!("<p class=\"note\">{}</p>", escape(e)),
        })
    };
    let measured = move || {
        compactions.with(|c| match c {
            Some(Ok(c)) => c
                .retention
                .iter()
                .map(|(k, r)| format!("{} {:.2}", k.label(), r))
                .collect::<Vec<_>>()
                .join(", "),
            _ => String::new(),
        })
    };
    let export = move |_| {
        if let Some((s, _)) = edited.get_untracked() {
            let policy = s.policy.id();
            let _ = download(
                &file_name(&[&s.id, policy, "scenario"], "json"),
                "application/json",
                scenario_to_json(&s).as_bytes(),
            );
        }
    };
    let summary = move || {
        let edited = edited.get();
        imported.with(|i| {
            i.as_ref()
                .zip(edited.as_ref())
                .map(|(i, (s, _))| i.summary(s))
        })
    };
    view! {
        <p class="note import-summary">{summary}</p>
        <div class="import-buttons">
            <button type="button" id="open-in-simulator" on:click=open_in_simulator>"Open in the simulator →"</button>
            <button type="button" id="export-imported" on:click=export>"Export the scenario file"</button>
        </div>
        <h3>"Compactions, rule by rule"</h3>
        <div class="compactions" inner_html=audited></div>
        <div class="beside-log" hidden=move || beside.with(Option::is_none)>
            <h3>"The model beside the log"</h3>
            <p class="note">"The scenario's rounds fall at the log's own compactions: for each rule, the fidelity the model gives it after each round beside the fate the log shows there. Change the retention, the harness or a rule's kind and watch where they meet."</p>
            <div inner_html=move || beside.get().unwrap_or_default()></div>
        </div>
        <p class="import-buttons" hidden=move || measured().is_empty()>
            <button type="button" id="use-measured-retention" on:click=move |_| open(true)>
                "Use the retention measured here →"
            </button>
            <span class="note">{move || format!(" the share of each kind of rule its summaries kept: {}", measured())}</span>
        </p>
        <div class="import-results" aria-live="polite">
            {move || {
                results.with(|r| match r {
                    Some(Ok((head, table, orphaned))) => {
                        let note = (*orphaned > 0).then(|| format!(
                            "{orphaned} action(s) left governed by nothing are not simulated."
                        ));
                        view! {
                            <div class="headline" inner_html=head.clone()></div>
                            <p class="note">{note}</p>
                            <div class="table-wrap" inner_html=table.clone()></div>
                        }
                        .into_any()
                    }
                    Some(Err(e)) => view! { <p class="control-error" role="alert">{escape(e)}</p> }.into_any(),
                    None => ().into_any(),
                })
            }}
        </div>
    }
}

/// The guessed facts: keep or drop each, change its kind.
#[component]
fn FactGuesses(import: Import) -> impl IntoView {
    let Import {
        imported, edits, ..
    } = import;
    let fact_rows = move || {
        imported.with(|i| {
            let Some(i) = i.as_ref() else {
                return Vec::new();
            };
            i.scenario
                .facts
                .iter()
                .zip(&i.facts)
                .enumerate()
                .map(|(n, (f, g))| {
                    let keep = move || edits.with(|e| e.facts.get(n).is_some_and(|x| x.0));
                    let kind = move || edits.with(|e| e.facts.get(n).map_or("", |x| x.1.id()));
                    let why = g.clone();
                    view! {
                        <tr class:dropped=move || !keep() data-fact=f.id.clone()>
                            <td>
                                <input
                                    type="checkbox"
                                    aria-label=format!("keep {}", f.id)
                                    prop:checked=keep
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        edits.update(|e| if let Some(x) = e.facts.get_mut(n) { x.0 = on });
                                    }
                                />
                            </td>
                            <td class="num">{f.turn}</td>
                            <th scope="row"><span class="badge guess">"guess"</span> " " {f.id.clone()}</th>
                            <td>
                                <select
                                    aria-label=format!("kind of {}", f.id)
                                    prop:value=kind
                                    on:change=move |ev| {
                                        if let Some(k) = Kind::from_id(&event_target_value(&ev)) {
                                            edits.update(|e| if let Some(x) = e.facts.get_mut(n) { x.1 = k });
                                        }
                                    }
                                >
                                    {guessable_kinds().map(|k| view! { <option value=k.id()>{k.label()}</option> }).collect_view()}
                                </select>
                            </td>
                            <td class="fact-sentence">{f.text.clone()}<span class="consequence">" " {why}</span></td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <h3>"Facts (guessed: keep, drop or change the kind)"</h3>
        <div class="table-wrap">
            <table class="guesses facts">
                <thead>
                    <tr>
                        <th scope="col">"keep"</th>
                        <th scope="col">"turn"</th>
                        <th scope="col">"fact"</th>
                        <th scope="col">"kind"</th>
                        <th scope="col">"sentence, and why it was read as a rule"</th>
                    </tr>
                </thead>
                <tbody>{fact_rows}</tbody>
            </table>
        </div>
    }
}

/// The guessed actions: keep or drop each, choose what governs it.
#[component]
fn ActionGuesses(import: Import) -> impl IntoView {
    let Import {
        imported, edits, ..
    } = import;
    let action_rows = move || {
        imported.with(|i| {
            let Some(i) = i.as_ref() else {
                return Vec::new();
            };
            i.scenario
                .actions
                .iter()
                .zip(&i.actions)
                .enumerate()
                .map(|(n, (a, g))| {
                    let keep = move || edits.with(|e| e.actions.get(n).is_some_and(|x| x.0));
                    // The facts it may be governed by: those before it.
                    let choices: Vec<(String, bool)> = i
                        .scenario
                        .facts
                        .iter()
                        .filter(|f| f.turn <= a.turn)
                        .map(|f| (f.id.clone(), a.governed_by.contains(&f.id)))
                        .collect();
                    let size = choices.len().clamp(2, 6).to_string();
                    view! {
                        <tr class:dropped=move || !keep() data-action=a.id.clone()>
                            <td>
                                <input
                                    type="checkbox"
                                    aria-label=format!("keep {}", a.id)
                                    prop:checked=keep
                                    on:change=move |ev| {
                                        let on = event_target_checked(&ev);
                                        edits.update(|e| if let Some(x) = e.actions.get_mut(n) { x.0 = on });
                                    }
                                />
                            </td>
                            <td class="num">{a.turn}</td>
                            <th scope="row">
                                <span class="badge guess">"guess"</span> " " {a.id.clone()}
                                <span class="action-text"><code>{g.call.clone()}</code></span>
                                <span class="consequence">{format!("matched “{}”{}; {}", g.pattern, if a.irreversible { ", irreversible" } else { "" }, g.because)}</span>
                            </th>
                            <td>
                                <select
                                    multiple
                                    size=size
                                    aria-label=format!("facts governing {}", a.id)
                                    on:change=move |ev| {
                                        let Some(select) = ev.target().and_then(|t| t.dyn_into::<web_sys::HtmlSelectElement>().ok()) else { return };
                                        let options = select.selected_options();
                                        let chosen: Vec<String> = (0..options.length())
                                            .filter_map(|k| options.item(k))
                                            .filter_map(|o| o.get_attribute("value"))
                                            .collect();
                                        edits.update(|e| if let Some(x) = e.actions.get_mut(n) { x.1 = chosen });
                                    }
                                >
                                    {choices
                                        .into_iter()
                                        .map(|(id, on)| { let value = id.clone(); view! { <option value=value selected=on>{id}</option> } })
                                        .collect_view()}
                                </select>
                            </td>
                        </tr>
                    }
                })
                .collect::<Vec<_>>()
        })
    };
    view! {
        <h3>"Actions (guessed: keep, drop or choose what governs them)"</h3>
        <div class="table-wrap">
            <table class="guesses actions">
                <thead>
                    <tr>
                        <th scope="col">"keep"</th>
                        <th scope="col">"turn"</th>
                        <th scope="col">"action"</th>
                        <th scope="col">"governed by"</th>
                    </tr>
                </thead>
                <tbody>{action_rows}</tbody>
            </table>
        </div>
    }
}

/// The page: its header, the two views, a way back.
#[component]
pub fn SessionPage() -> impl IntoView {
    let initial = if window()
        .location()
        .search()
        .unwrap_or_default()
        .contains("view=audit")
    {
        View::Audit
    } else {
        View::Import
    };
    let view = RwSignal::new(initial);
    let tab = move |v: View, id: &'static str, label: &'static str| {
        view! {
            <button
                type="button"
                role="tab"
                id=id
                aria-selected=move || (view.get() == v).to_string()
                class:active=move || view.get() == v
                on:click=move |_| view.set(v)
            >
                {label}
            </button>
        }
    };
    view! {
        <header class="top">
            <div class="brand">
                <h1>"Compaction Drift · Your own session"</h1>
                <p class="tagline">"Import a real session as a scenario, or check a real compaction against what it replaced."</p>
            </div>
            <a class="tab-link" href="../">"← The simulator"</a>
        </header>
        <main class="session-page">
            <div class="tabs" role="tablist" aria-label="Views">
                {tab(View::Import, "tab-import", "Import a session")}
                {tab(View::Audit, "tab-audit", "Audit a compaction")}
            </div>
            {move || match view.get() {
                View::Import => view! { <ImportView /> }.into_any(),
                View::Audit => view! { <AuditView /> }.into_any(),
            }}
        </main>
        <footer class="foot">
            <p>"Everything runs in your browser. The reading is lexical: it sees rules, identifiers, versions, numbers, paths and tickets, not paraphrase."</p>
        </footer>
    }
}

/// A file's size for people: bytes, KB or MB.
fn size_words(bytes: usize) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{:.0} KB", bytes as f64 / 1_000.0),
        _ => format!("{:.1} MB", bytes as f64 / 1_000_000.0),
    }
}
