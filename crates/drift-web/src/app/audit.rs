//! "Audit a compaction": paste or load what was compacted and the summary
//! that replaced it, and read what the summary lost or invented, each
//! finding highlighted in both texts.
//!
//! The texts stay on the page: they are not put in links or storage (a
//! transcript can be megabytes, and private).

use std::time::Duration;

use drift_session::{
    Audit, audit,
    audit::{IdChange, MessageField},
};
use drift_session::{MessageRole, Transcript, read_transcript};
use leptos::html::Textarea;
use leptos::prelude::*;

use super::dom::{file_text, take_chosen_file};
use crate::marks::{FindingRef, Mark, Marks, Piece, Section, marks, pieces};

/// A short session and a summary of it that drifts in every way the audit
/// reports.
const SAMPLE_BEFORE: &str = "\
user: We are on libfoo 2.3.1. Do not bump libfoo: 2.4 breaks the TLS handshake with the legacy broker.
assistant: Understood, libfoo stays pinned at 2.3.1.
tool: $ cat deploy/README
Deploys to prod-eu need a second approver on ticket OPS-1203. Never deploy on Fridays.
user: The schema migration is tracked in T-14.
assistant: We chose Postgres 14 because the migration tooling needs advisory locks. MySQL was rejected: no transactional DDL.";

const SAMPLE_AFTER: &str = "\
Upgraded libfoo to 2.4.0 to pick up the TLS fixes. Deploys go through OPS-1203 with an approver. \
The schema migration is tracked in T-41. The database is Postgres 14.";

/// The audit of the two texts, with what the page needs to show it.
#[derive(Debug, PartialEq)]
struct Report {
    before: Transcript,
    audit: Audit,
    marks: Marks,
}

fn run_audit(before: &str, after: &str) -> Option<Result<Report, String>> {
    if before.trim().is_empty() || after.trim().is_empty() {
        return None;
    }
    Some(
        read_transcript(before)
            .map(|t| {
                let audit = audit(&t, after);
                let marks = marks(&audit);
                Report {
                    before: t,
                    audit,
                    marks,
                }
            })
            .map_err(|e| format!("BEFORE could not be read: {e}")),
    )
}

/// Text with its marks as DOM: `<mark>`s name their finding, and the one
/// under the pointer (or focus) in the list is outlined in both texts.
fn marked_text(
    text: &str,
    marks: &[Mark],
    active: RwSignal<Option<FindingRef>>,
) -> impl IntoView + use<> {
    pieces(text, marks)
        .into_iter()
        .map(|p| match p {
            Piece::Plain(s) => s.to_string().into_any(),
            Piece::Marked(s, f) => view! {
                <mark
                    class=format!("finding {}", f.section.id())
                    class:active=move || active.get() == Some(f)
                    data-finding=format!("{}-{}", f.section.id(), f.index)
                    on:mouseenter=move |_| active.set(Some(f))
                    on:mouseleave=move |_| active.set(None)
                >
                    {s.to_string()}
                </mark>
            }
            .into_any(),
        })
        .collect_view()
}

/// "user, " for a message with a role; nothing for plain text.
fn said_by(role: MessageRole) -> String {
    if role == MessageRole::Unknown {
        String::new()
    } else {
        format!("{}, ", role.id())
    }
}

/// One finding in the list.
fn finding_item(
    report: &Report,
    after: &str,
    f: FindingRef,
    active: RwSignal<Option<FindingRef>>,
) -> Option<impl IntoView + use<>> {
    let a = &report.audit;
    let text = match f.section {
        Section::Dropped => {
            let d = a.dropped_constraints.get(f.index)?;
            let mut s = format!("\"{}\" ({}{})", d.text, said_by(d.role), d.form.label());
            if let Some(c) = d.contradicted_by {
                s.push_str(&format!(" is contradicted by \"{}\"", c.of(after)));
            }
            if d.occurrences > 1 {
                s.push_str(&format!(" (said {} times)", d.occurrences));
            }
            s
        }
        Section::Unsupported => {
            let u = a.unsupported.get(f.index)?;
            let mut s = format!("{} \"{}\" appears nowhere in BEFORE", u.kind.noun(), u.text);
            if let Some(l) = &u.lookalike {
                s.push_str(&format!("; BEFORE has the look-alike \"{}\"", l.text));
            }
            s
        }
        Section::ChangedId => {
            let c = a.changed_ids.get(f.index)?;
            let how = match c.change {
                IdChange::Changed => "changed",
                IdChange::Merged => "merged",
                IdChange::Swapped => "swapped",
            };
            format!(
                "\"{}\" in the summary stands where BEFORE had \"{}\" ({how})",
                c.after_text, c.before_text
            )
        }
        Section::Reasoning => {
            let r = a.vanished_reasoning.get(f.index)?;
            let by = said_by(r.role);
            format!(
                "{}: \"{}\"{}",
                r.kind.label(),
                r.text,
                if by.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", by.trim_end_matches(", "))
                }
            )
        }
    };
    Some(view! {
        <li
            tabindex="0"
            class:active=move || active.get() == Some(f)
            data-finding=format!("{}-{}", f.section.id(), f.index)
            on:mouseenter=move |_| active.set(Some(f))
            on:mouseleave=move |_| active.set(None)
            on:focus=move |_| active.set(Some(f))
            on:blur=move |_| active.set(None)
        >
            {text}
        </li>
    })
}

/// One of the two texts: its box, its signal, and its edit waiting to be
/// read. Typing re-audits once the text rests (a megabyte of transcript is
/// not read on every keystroke); each text waits on its own, so an edit of
/// one never cancels the other's.
#[derive(Clone, Copy)]
struct TextInput {
    node: NodeRef<Textarea>,
    set: WriteSignal<String>,
    pending: StoredValue<Option<TimeoutHandle>>,
}

impl TextInput {
    fn new(set: WriteSignal<String>) -> TextInput {
        TextInput {
            node: NodeRef::new(),
            set,
            pending: StoredValue::new(None),
        }
    }

    fn cancel(self) {
        if let Some(h) = self.pending.get_value() {
            h.clear();
        }
    }

    /// An edit: read once the text has rested.
    fn later(self, text: String) {
        self.cancel();
        let set = self.set;
        let handle =
            set_timeout_with_handle(move || set.set(text), Duration::from_millis(250)).ok();
        self.pending.set_value(handle);
    }

    /// Its box, labelled, with a button to load a file into it (`id` and
    /// `{id}-file`).
    fn view(self, id: &'static str, label: &'static str) -> impl IntoView {
        let load = move |ev: leptos::ev::Event| {
            if let Some(file) = take_chosen_file(&ev) {
                leptos::task::spawn_local(async move {
                    self.fill(file_text(&file).await.unwrap_or_default());
                });
            }
        };
        view! {
            <div class="audit-input">
                <label for=id>{label}</label>
                <textarea
                    id=id
                    node_ref=self.node
                    rows="10"
                    spellcheck="false"
                    on:input=move |ev| self.later(event_target_value(&ev))
                ></textarea>
                <label class="file-button">
                    "Load a file…"
                    <input type="file" class="file-input" id=format!("{id}-file") on:change=load />
                </label>
            </div>
        }
    }

    /// Text put in at once (a sample, a file): read now, replacing any edit
    /// still waiting.
    fn fill(self, text: String) {
        self.cancel();
        if let Some(el) = self.node.get() {
            el.set_value(&text);
        }
        self.set.set(text);
    }
}

/// The audit view.
#[component]
pub fn AuditView() -> impl IntoView {
    let (before, set_before) = signal(String::new());
    let (after, set_after) = signal(String::new());
    let active = RwSignal::new(None::<FindingRef>);
    let report = Memo::new(move |_| before.with(|b| after.with(|a| run_audit(b, a))));
    let before_field = TextInput::new(set_before);
    let after_field = TextInput::new(set_after);
    let body = move || {
        let after_text = after.get();
        report.with(|r| match r {
            None => view! {
                <p class="note">"Paste or load both texts to audit them, or try the sample."</p>
            }
            .into_any(),
            Some(Err(e)) => view! { <p class="control-error" role="alert">{e.clone()}</p> }.into_any(),
            Some(Ok(report)) => {
                let a = &report.audit;
                let c = &a.counts;
                let verdict = if a.drifted() {
                    "The summary drifted: it lost a rule or asserts what the transcript does not say."
                } else {
                    "No rule lost and nothing unsupported found."
                };
                let sections = Section::ALL
                    .into_iter()
                    .map(|section| {
                        let len = match section {
                            Section::Dropped => a.dropped_constraints.len(),
                            Section::Unsupported => a.unsupported.len(),
                            Section::ChangedId => a.changed_ids.len(),
                            Section::Reasoning => a.vanished_reasoning.len(),
                        };
                        let items = (0..len)
                            .filter_map(|index| {
                                finding_item(report, &after_text, FindingRef { section, index }, active)
                            })
                            .collect_view();
                        view! {
                            <section class=format!("findings {}", section.id())>
                                <h3>{format!("{} ({len})", section.title())}</h3>
                                <ul>{items}</ul>
                            </section>
                        }
                    })
                    .collect_view();
                let messages = report
                    .marks
                    .messages()
                    .into_iter()
                    .filter_map(|i| {
                        let m = report.before.messages.get(i)?;
                        let text_marks = report.marks.before.get(&(i, MessageField::Text)).map_or(&[][..], Vec::as_slice);
                        let arg_marks = report.marks.before.get(&(i, MessageField::Arguments)).map_or(&[][..], Vec::as_slice);
                        Some(view! {
                            <div class="message">
                                <div class="message-head">
                                    {format!("#{} · {} · record {}", i + 1, m.role.id(), m.record)}
                                </div>
                                <p class="message-text">{marked_text(&m.text, text_marks, active)}</p>
                                {m.tool_arguments.as_ref().map(|args| view! {
                                    <pre class="message-args">{marked_text(args, arg_marks, active)}</pre>
                                })}
                            </div>
                        })
                    })
                    .collect_view();
                let unmarked = report.before.messages.len() - report.marks.messages().len();
                view! {
                    <p class="audit-verdict" class:problem=a.drifted()>{verdict}</p>
                    <p class="note">
                        {format!(
                            "BEFORE read as {}: {} messages. {} of {} constraints carried, {} of {} details supported, {} of {} reasons kept.",
                            a.before_format.label(),
                            c.before_messages,
                            c.constraints_carried,
                            c.constraints,
                            c.details_supported,
                            c.details,
                            c.reasoning_kept,
                            c.reasoning
                        )}
                    </p>
                    <div class="findings-list">{sections}</div>
                    <div class="audit-texts">
                        <div class="audit-pane">
                            <h3>"BEFORE, where the findings are"</h3>
                            {messages}
                            <p class="note">{format!("{unmarked} messages without findings are not shown.")}</p>
                        </div>
                        <div class="audit-pane">
                            <h3>"AFTER"</h3>
                            <p class="message-text">{marked_text(&after_text, &report.marks.after, active)}</p>
                        </div>
                    </div>
                }
                .into_any()
            }
        })
    };

    view! {
        <div class="audit">
            <p class="note">
                "Paste what was compacted (plain text, or a JSON-lines transcript: OpenAI Responses items, a Codex or a Claude Code session log) and the summary that replaced it. Nothing leaves this page."
            </p>
            <div class="audit-inputs">
                {before_field.view("audit-before", "BEFORE: what was compacted")}
                {after_field.view("audit-after", "AFTER: the summary that replaced it")}
            </div>
            <button
                type="button"
                id="audit-sample"
                on:click=move |_| {
                    before_field.fill(SAMPLE_BEFORE.to_string());
                    after_field.fill(SAMPLE_AFTER.to_string());
                }
            >
                "Try a sample"
            </button>
            <div class="audit-report" aria-live="polite">{body}</div>
        </div>
    }
}
