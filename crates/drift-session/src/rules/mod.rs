//! The rule finder: which units of a session's texts are rules the agent
//! must obey, of what form, how sure the finder is, and which are the same
//! rule said again.
//!
//! [`find_rules`] reads one text (a chat message, a system prompt, an
//! AGENTS.md, whatever a tool returned, a compaction summary) and returns
//! every rule in it, as a byte span with its [`RuleForm`], the fact
//! [`Kind`] that form is and how sure the finder is. The import, the audit,
//! the report and the hook all read rules through it, with one model.
//!
//! ## What is a rule
//!
//! A standing rule bounds how the work goes on after it is said: not a
//! task ("fix the login page"), a question, a report of state or history,
//! or a plan. What people write, by form:
//!
//! | form | kind | what people write |
//! | --- | --- | --- |
//! | prohibition | standing_rule | "never …", "do not …", "no force-push to main", "force-push: no" |
//! | obligation | standing_rule | "must …", "always …", "use pnpm, never npm", "comments in Vietnamese" |
//! | limit | standing_rule | "at most one replica at a time", "keep scripts under 500 lines" |
//! | ordering | standing_rule | "before you cordon it", "take a dump first", "wait for …" |
//! | condition | standing_rule | "stop if lag goes above 30 seconds", "until …" |
//! | approval | standing_rule | "needs sign-off from the security lead", "wait for my OK" |
//! | window | standing_rule | "only between 14:00 and 16:00 UTC", "frozen until 2026-12-05" |
//! | scope | scope | "only on billing-replica-2", "leave packages/payments-sdk alone" |
//! | binding | binding | "the ticket is OPS-1412, not OPS-1421" |
//! | carve-out | carve_out | "X is the exception: …", "you may read logs without asking" |
//! | correction | correction | "Correction: …", "I meant 3 replicas, not 2" |
//!
//! ## Who may give one: structure vetoes, the model decides
//!
//! Structure says only what can never be a rule; the model decides the
//! rest. [`givers`] lists the messages that may give rules in the context
//! a log is of (the main agent's, or in a subagent's own log, the
//! subagent's), each with its [`TextOrigin`] and [`Authority`]:
//!
//! - the user's own words: typed, queued, a slash command's arguments, the
//!   reason typed when rejecting a tool call, the answers chosen to the
//!   agent's questions (read with their question);
//! - a subagent's brief;
//! - text that only instructs: system and developer prompts, instruction
//!   files (as injected, or read by a tool), skills, hooks' context;
//! - a tool's output that may announce the workspace's policy: a command's
//!   output, a ticket, a document of the workspace read by a file tool
//!   (Markdown, text, a file without an extension; not code, data or a
//!   dependency's files), a policy file. It is [`Authority::ToolPolicy`]:
//!   a record of what a tool showed, never a rule of the user's.
//!
//! Never a giver: the harness's own text around a compaction, its sandbox
//! and persona ([`is_harness_text`]; a harness's wrapper around the
//! operator's content is taken off and the content read,
//! [`operator_content`]), the model's own words, web pages and fetched
//! URLs, files read for the task. In summaries and the model's text only
//! restatements are read (marked `quoted`), to know a rule said again.
//!
//! ## How
//!
//! [`model::candidates()`] cuts a text into units: sentences, list items,
//! headings, table rows, and for answers one per chosen option; code,
//! logs, and in a summary the reporting frames around a rule ("the user
//! said not to …") are taken off (`read`, `lines`, `boilerplate`). Each
//! unit becomes hashed features ([`model::Featurizer`]: its words, first
//! and last words, stems and characters of scripts without spaces, who gave
//! it, crossed with its words, its shape, and where it was said: after the
//! agent's question or options, in the first message) and the shipped
//! model ([`model::Model::shipped`], `model/finder.bin`) gives the chance
//! that it is a rule and its form. A rule is *sure* from its giver's
//! threshold on and *possibly a rule* from a lower one: only sure rules
//! are reported lost up front, restated or sent by the hook; the others
//! are shown folded. Every unit is read in one linear pass with reused
//! buffers.
//!
//! The model is learned by `cargo xtask train` (crate `drift-eval`, module
//! `train`) from every labelled log of `eval/real` whose person is not in
//! the frozen group and from the rule corpus in `tests/rules/`, byte for
//! byte the same from the same labels; a test fails when the labels
//! change and the model was not rebuilt. `docs/LABELLING.md` says what a
//! label is.
//!
//! A rule said again (quoted back, restated by a summary, re-injected
//! after a compaction) is the same rule: a [`RuleBook`] keeps one per
//! [`rule_key`] with every place it appeared, and [`InForce`] takes back
//! a rule its giver withdrew or corrected.
//!
//! ## Precision and recall
//!
//! Measured by person: `cargo xtask eval` trains on four fifths of the
//! people and measures on the fifth, five times, and once on a frozen
//! group of people no model was trained on; the figures are in
//! `eval/SCORES.md`, the record of each measurement in `BENCHMARKS.md`.
//! The rule corpus's tables (`tests/rules.rs`) are in-sample: the model
//! learns from those documents too.

use alloc::string::String;
use alloc::vec::Vec;

use drift_core::Kind;

use crate::entail::scan::Span;

mod boilerplate;
mod book;
pub(crate) mod force;
mod lines;
pub mod model;
mod read;
pub(crate) mod verbs;

pub use boilerplate::{is_harness_text, operator_content, summary_body};
pub use book::{BookRule, RuleBook, RulePlace, rule_key};
pub use force::{
    Authority, Context, Giver, InForce, RuleFinder, SessionFinder, StandingRule, TextOrigin, givers,
};

/// Where a text comes from: who wrote it and how it reached the agent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Source {
    /// The operator's chat messages.
    Chat,
    /// A system or developer prompt.
    SystemPrompt,
    /// AGENTS.md, CLAUDE.md and their kin, as the harness injected them.
    ProjectFile,
    /// Anything a tool returned: files read, tickets, MCP results, command
    /// output.
    ToolOutput,
    /// What a hook added to the context.
    HookContext,
    /// A skill's body.
    Skill,
    /// The model's own text.
    Assistant,
    /// A harness's compaction summary.
    Summary,
}

impl Source {
    /// Every source, in declaration order.
    pub const ALL: [Source; 8] = [
        Source::Chat,
        Source::SystemPrompt,
        Source::ProjectFile,
        Source::ToolOutput,
        Source::HookContext,
        Source::Skill,
        Source::Assistant,
        Source::Summary,
    ];

    /// The snake_case id.
    pub const fn id(self) -> &'static str {
        match self {
            Source::Chat => "chat",
            Source::SystemPrompt => "system_prompt",
            Source::ProjectFile => "project_file",
            Source::ToolOutput => "tool_output",
            Source::HookContext => "hook_context",
            Source::Skill => "skill",
            Source::Assistant => "assistant",
            Source::Summary => "summary",
        }
    }

    /// The source with this id.
    pub fn from_id(id: &str) -> Option<Source> {
        Source::ALL.into_iter().find(|s| s.id() == id)
    }

    /// Whether what this source says about rules restates them: the
    /// model's own text and compaction summaries.
    pub const fn restates(self) -> bool {
        matches!(self, Source::Assistant | Source::Summary)
    }
}

/// What a rule does: the shape of its operative clause.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RuleForm {
    /// Forbids an action or a method: "never", "do not", "no force-push".
    Prohibition,
    /// Requires one: "must", "always", "make sure", "X only".
    Obligation,
    /// Bounds a number: "at most", "no more than", "up to", "within 4 hours".
    Limit,
    /// Marks off what the work may touch: "only on X", "leave X alone".
    Scope,
    /// Orders steps: "before you X", "Y first", "only after", "wait for".
    Ordering,
    /// Makes a step depend on a condition: "stop if", "until", "as soon as".
    Condition,
    /// Needs someone's yes: "needs sign-off from", "the approver is".
    Approval,
    /// Bounds the time: "between 07:00 and 19:00", "frozen until Friday".
    Window,
    /// Binds a phrase to one thing: "the ticket is X, not Y".
    Binding,
    /// An exception to a rule, or a permission: "X is the exception".
    CarveOut,
    /// The operator corrects what was said before.
    Correction,
}

impl RuleForm {
    /// Every form, in declaration order.
    pub const ALL: [RuleForm; 11] = [
        RuleForm::Prohibition,
        RuleForm::Obligation,
        RuleForm::Limit,
        RuleForm::Scope,
        RuleForm::Ordering,
        RuleForm::Condition,
        RuleForm::Approval,
        RuleForm::Window,
        RuleForm::Binding,
        RuleForm::CarveOut,
        RuleForm::Correction,
    ];

    /// The snake_case id.
    pub const fn id(self) -> &'static str {
        match self {
            RuleForm::Prohibition => "prohibition",
            RuleForm::Obligation => "obligation",
            RuleForm::Limit => "limit",
            RuleForm::Scope => "scope",
            RuleForm::Ordering => "ordering",
            RuleForm::Condition => "condition",
            RuleForm::Approval => "approval",
            RuleForm::Window => "window",
            RuleForm::Binding => "binding",
            RuleForm::CarveOut => "carve_out",
            RuleForm::Correction => "correction",
        }
    }

    /// A label for people: the id, but for two forms whose id is spelled
    /// for machines.
    pub const fn label(self) -> &'static str {
        match self {
            RuleForm::Window => "time window",
            RuleForm::CarveOut => "carve-out",
            _ => self.id(),
        }
    }

    /// The form with this id.
    pub fn from_id(id: &str) -> Option<RuleForm> {
        RuleForm::ALL.into_iter().find(|f| f.id() == id)
    }

    /// The kind of fact a rule of this form is: scopes, bindings,
    /// carve-outs and corrections are their own kinds, every other form a
    /// standing rule.
    pub const fn kind(self) -> Kind {
        match self {
            RuleForm::Scope => Kind::Scope,
            RuleForm::Binding => Kind::Binding,
            RuleForm::CarveOut => Kind::CarveOut,
            RuleForm::Correction => Kind::Correction,
            _ => Kind::StandingRule,
        }
    }
}

/// One rule clause found in a text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rule {
    /// The clause, as a byte span of the text it was found in.
    pub span: Span,
    /// The kind of fact it is (follows from the form).
    pub kind: Kind,
    /// What it does.
    pub form: RuleForm,
    /// The words that decided it, as a person would quote them.
    pub cue: &'static str,
    /// Restated: found in the model's own text or in a compaction summary
    /// (also one wrapped in a harness's envelope), not stated there.
    pub quoted: bool,
    /// How sure the finder is that it is a rule, in thousandths.
    pub confidence: u16,
    /// Sure enough to report it as a rule; otherwise "possibly a rule".
    pub sure: bool,
}

impl Rule {
    /// The clause's text in `text`.
    pub fn text(self, text: &str) -> &str {
        self.span.of(text)
    }
}

/// A rule's text for display: whitespace collapsed and, when longer than
/// `max_chars` characters, cut at a word boundary with "…". The rule's own
/// span keeps its operative words whole; this is only for showing it.
///
/// ```
/// use drift_session::rules::shorten;
///
/// assert_eq!(shorten("Never  drain\na node", 40), "Never drain a node");
/// assert_eq!(
///     shorten("Drain no more than 2 nodes at once, and never drain a broker", 24),
///     "Drain no more than 2…"
/// );
/// ```
pub fn shorten(text: &str, max_chars: usize) -> String {
    let mut out = String::with_capacity(text.len().min(max_chars * 4));
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    if out.chars().count() <= max_chars {
        return out;
    }
    let budget = max_chars.saturating_sub(1);
    let cut = out.char_indices().nth(budget).map_or(out.len(), |(i, _)| i);
    let head = out.get(..cut).unwrap_or("");
    let head = match head.rfind(' ') {
        Some(space) if space > 0 => head.get(..space).unwrap_or(head),
        _ => head,
    };
    let mut short = String::from(head.trim_end_matches([',', ';', ':', ' ']));
    short.push('\u{2026}');
    short
}

/// Every sentence, list item and table row of `text`, with whether it is a
/// heading; code, commands, log lines and the harness's own sentences left
/// out: a summary as the judge reads it.
pub(crate) fn read_units(text: &str, mut f: impl FnMut(Span, bool)) {
    read::read(text, Source::Chat, |u| {
        if u.region != read::Region::Harness {
            f(u.span, u.kind == read::UnitKind::Heading);
        }
    });
}

/// Every rule clause in `text` the finder is sure of, in order.
///
/// Text in [`Source::Assistant`] and [`Source::Summary`] yields the rules
/// it restates, with `quoted` set; never the model's own plans, questions
/// or statements of state. Harness text yields nothing; a harness's wrapper
/// around the operator's own content (AGENTS.md, CLAUDE.md, memory blocks)
/// is skipped and the content read.
pub fn find_rules(text: &str, source: Source) -> Vec<Rule> {
    SessionFinder
        .find(text, TextOrigin::of(source), &Context::default())
        .into_iter()
        .filter(|r| r.sure)
        .collect()
}

/// A finder that calls every unit of a text a rule, of the form its
/// words suggest: what is tested here is who may give rules, what is
/// one rule and what is taken back, not which words are rules (the
/// model's, measured in `cargo xtask eval`).
#[cfg(test)]
pub(crate) struct EveryUnit;

#[cfg(test)]
impl RuleFinder for EveryUnit {
    fn find(&self, text: &str, origin: TextOrigin, _: &Context) -> Vec<Rule> {
        model::candidates(text, origin)
            .into_iter()
            .map(|c| {
                let unit = c.span.of(text).to_lowercase();
                let form = if unit.contains("may ") {
                    RuleForm::CarveOut
                } else if unit.contains("never") {
                    RuleForm::Prohibition
                } else {
                    RuleForm::Obligation
                };
                Rule {
                    span: c.span,
                    kind: form.kind(),
                    form,
                    cue: "every unit",
                    quoted: c.restated,
                    confidence: 1000,
                    sure: true,
                }
            })
            .collect()
    }
}
