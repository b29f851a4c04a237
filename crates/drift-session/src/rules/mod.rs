//! The rule finder: which clauses of a session's texts are rules the agent
//! must obey, of what form, and which are the same rule said again.
//!
//! [`find_rules`] reads one text — a chat message, a system prompt, an
//! AGENTS.md, whatever a tool returned, the model's own text, a compaction
//! summary — and returns every rule clause in it, as a byte span with its
//! [`RuleForm`], the fact [`Kind`] that form is, and the words that decided
//! it. The import, the audit and the hook all read rules through it.
//!
//! ## What is a rule
//!
//! | form | kind | what people write |
//! | --- | --- | --- |
//! | prohibition | standing_rule | "never …", "do not …", "no force-push to main", "kill nothing you didn't start", "force-push: no" |
//! | obligation | standing_rule | "must …", "always …", "make sure …", "squash-merge only", "use pnpm, never npm", "changes ship behind the `mm_v3` flag" |
//! | limit | standing_rule | "at most one replica at a time", "no more than 200 per hour", "up to $200", "within 4 hours" |
//! | ordering | standing_rule | "before you cordon it", "take a dump first", "only after finance confirms", "wait for …" |
//! | condition | standing_rule | "stop if lag goes above 30 seconds", "if a PDB blocks eviction, stop", "until …", "as soon as …" |
//! | approval | standing_rule | "needs sign-off from the security lead", "the approver is …", "wait for my OK" |
//! | window | standing_rule | "only between 14:00 and 16:00 UTC", "frozen until 2026-12-05", "publish nothing on Fridays" |
//! | scope | scope | "only on billing-replica-2", "leave packages/payments-sdk alone", "keep changes inside services/auth", "not in prod-eu1", "X is read-only" |
//! | binding | binding | "the ticket is OPS-1412, not OPS-1421", "when I say \"the blue pool\" I mean np-blue-c5" |
//! | carve-out | carve_out | "X is the exception: …", "exempt from this cleanup", "you may read logs without asking", "anything unused for 90 days can go", "not covered by the freeze" |
//! | correction | correction | "Correction: …", "I meant 3 replicas, not 2", "scratch that: …" |
//!
//! Rules are read from every source: chat, system prompts, project files,
//! files and tickets a tool returned (numbered `cat -n` and `grep -n`
//! lines, list items, markdown tables, JSON string values of MCP results),
//! hooks and skills. In a system prompt, a project file, a skill or a
//! hook's output, which only instruct, a bare instruction ("Respond in the
//! customer's language.") is an obligation; in chat and tool output it
//! needs a cue ("Scale the blue pool to 6 nodes" is a task, a runbook's
//! "Export the ledger diff" a step). A skill is a procedure: its bare
//! steps ("Run the validator", "Save state") are not rules, its stressed
//! lines (bold) and its choices of tool ("Use SWR for …") are, and so is
//! any clause with a cue; a JSON state file it shows is data. In text that
//! only instructs, a clause in a script without spaces is a rule by the
//! strong cues of typed text ("严禁硬编码凭证"). A sentence holds one rule per
//! operative clause:
//! "Drain no more than 2 nodes at once, and never drain a node that runs a
//! kafka-broker pod" is two. A rule's span keeps its operative words whole
//! (a reason after a dash or a semicolon is left out); shorten it only for
//! display.
//!
//! ## What is not
//!
//! - **Harness text.** What each harness writes around a compaction (the
//!   request, the summary's envelope, its closing nudge), about its sandbox,
//!   permissions and approval mode, its environment context and its base
//!   persona, for Claude Code, Codex CLI, the OpenAI Responses API,
//!   OpenHands, Letta, deepagents and opencode ([`is_harness_text`]). A
//!   harness's wrapper around the operator's own content (AGENTS.md,
//!   CLAUDE.md, memory blocks, a hook's output) is skipped and the content
//!   read ([`operator_content`]).
//! - **The model's own plans, questions and state.** In
//!   [`Source::Assistant`] and [`Source::Summary`] text only restatements
//!   are found, marked `quoted`: "To confirm: \"never drain a node that runs
//!   a broker\"" is one, "I'll read the runbook first" and "I won't touch
//!   prod" are not. A summary in its harness envelope is read the same way
//!   whatever source it is passed as ([`summary_body`]).
//! - **Questions and statements of state or history**: "Is the canary at
//!   5%?", "the pool is at 8", "we never had an outage", "the freeze was
//!   lifted yesterday", "only 3 pods are running".
//! - **Code, commands, logs and diagnostics**: fenced or indented code,
//!   `$ …` lines, timestamped log lines, `git log --oneline` lines,
//!   "error: … must …".
//! - **Banners, moods and experience**: "Unauthorized access to this system
//!   is prohibited", "Always happy to pair", "Never seen Redis do that
//!   before".
//!
//! A rule quoted back, restated by a summary or re-injected (AGENTS.md sent
//! again after every compaction) is the same rule: a [`RuleBook`] keeps one
//! per [`rule_key`] with every place it appeared.
//!
//! ## How
//!
//! One pass over the text turns it into logical lines (`lines`: line
//! numbers, list markers and tags taken off; JSON string values split at
//! their `\n` escapes), the lines into sentences (`read`), each in the
//! region the harness reader (`boilerplate`) gives it: the operator's,
//! restated, or the harness's. A sentence without any word a cue needs is
//! not even tokenised. The others are cut into clauses and put back
//! together where one only finishes another (`clauses`), and each clause
//! is read for its cues, most telling first (`cues`, where the order and
//! its exceptions are written down). It is hand-written scanning over
//! [`crate::entail`]'s tokens with reused buffers, linear in its input:
//! about 180 ms for 10 MB of mixed session text (`benches/rules.rs`,
//! `BENCHMARKS.md`).
//!
//! ## Precision and recall
//!
//! Measured on a labelled corpus in `crates/drift-session/tests/rules/`,
//! written for this purpose without reading the finder: chat, system and
//! developer prompts, AGENTS.md and CLAUDE.md as injected and as read by a
//! tool, runbooks, tickets, MCP results, command output, assistant text,
//! compaction summaries and harness boilerplate of seven harnesses, each
//! sentence labelled rule (with kind and form) or not. A found rule counts
//! as correct when it overlaps a labelled rule and agrees on whether it is
//! quoted; each label is matched at most once, so a rule found twice or
//! two rules found as one cost precision or recall. *Kind* and *form* are
//! the share of correct rules whose kind and form agree with the label.
//! `tests/rules.rs` recomputes the three sets' tables and fails when one
//! changes.
//!
//! `rules.txt`, the development set (113 documents, 734 labelled items). The
//! cue lists and exceptions were written while looking at it, so its table
//! is an in-sample figure. The tables of all three sets are in
//! `eval/SCORES.md`, which `cargo xtask eval --write-scores` writes.
//!
//! Its one false rule is a task beside a rule ("Bump commerce-core's minor
//! version, never the major": the bump is the task, only "never the major"
//! is labelled); its two form disagreements are a freeze's exception said
//! as an approval ("hotfixes need VP Eng approval") and a validity period
//! read as "stays" rather than as a window.
//!
//! Before the held-out set was measured, the cue lists were widened with
//! examples of our own in other domains and wordings (ML training, network
//! changes, health data, Kafka, feature flags, GDPR, dbt, Cloud Run,
//! Docker, Ansible, backups, paging, Helm, search ranking) and with
//! non-rules (READMEs, stack traces, PR descriptions, talk about rules);
//! none of them is in either file.
//!
//! `held_out.txt` (50 documents, 289 labelled items, other domains), kept
//! out of the first round of tuning. Measured first, before any change:
//! precision 0.92, recall 0.85, kind 0.89, form 0.80 (133 of 157 rules
//! found correct, 145 found). That measurement exposed three defects, which
//! were fixed: Claude Code's newer closing after a compaction ("Continue
//! the conversation from where it left off …", "Resume directly — do not
//! acknowledge the summary …", "Pick up the last task as if the break never
//! happened") was missing from the harness phrases although the wording was
//! known; a clock range the scanner splits into words ("04:00–05:00") was
//! not seen as a time beside "only during"; a one-word label "Exception:"
//! was never read as a carve-out's head. That gave precision 0.95, recall
//! 0.85, kind 0.89, form 0.81 (134 of 157, 141 found).
//!
//! **Second round, by category.** The recall still fell short of 0.95, so
//! the finder was worked on again, by the categories of what the held-out
//! set missed and found wrongly (below), not by its sentences: for each
//! category we wrote new examples of our own, in other domains and
//! wordings, into `rules.txt` as development documents (the `dev2-` ones,
//! 29 documents) with counterexamples that must stay non-rules, and changed
//! the finder until they were right. Only the held-out set's aggregate
//! table was looked at while doing so. What changed, by category:
//!
//! - *Conventions stated as facts*: "… ship behind the `x` flag", "… are
//!   gated by a feature flag", "staged rollout starts at 1%", "schema
//!   changes go through Atlas", "escalations go to the Tier 2 queue",
//!   "deploys require a green staging run", "X is read-only" in more
//!   places ("treat X as read-only", "you have read-only access", "X:
//!   read-only"); in text that only instructs, how the agent's work is done
//!   said as a fact ("replies are written in the customer's language") and
//!   "Be concise.".
//! - *Leave in other words*: "… can go", "may be deleted", "is yours to
//!   play with", "all yours", "fair game", "safe to delete", "you're free
//!   to", "whatever you want", "not covered by the freeze", "outside the
//!   freeze", "tenant X is excluded", "no approval needed", "hotfixes may
//!   skip staging".
//! - *Cue-less instructions*: a version or tool chosen ("use chart version
//!   4.2.1 for …", "pin X to 1.7.5", "stick to 1.30", "use `helm diff` for
//!   the preview"); terse answers ("force-push: no", "wildcard purges —
//!   never"); labelled values ("Budget: $200", "Max replicas: 5", "Change
//!   window: …"); a quota opening a clause ("One PR per service").
//! - *A rule after "it"*: "it must sit behind the internal load balancer"
//!   is a rule, "it must be the cache" still an inference.
//! - *Two rules joined by ", and" with a new subject and a modal* are cut
//!   in two; so is ", max N".
//! - *"Exception:" before a policy* with a subject and a modal is a
//!   carve-out, not an exception's message.
//! - *Tables*: a permission column whose answers are times, people or
//!   conditions gives a window, an approval or a scope; "approver",
//!   "window" and "who may …" columns count; a row above a separator row
//!   starts a new table.
//! - *Summaries*: reporting frames are taken off whole ("the user
//!   explicitly said not to …", "they asked us not to …", "we were told to
//!   …", "the user insisted on …", "we agreed to …"), the team's rules
//!   said with "we" ("we're not allowed to", "we have to", "we can only")
//!   are not plans, "the user prefers …", "does not want …", "gave
//!   permission to …", a subjunctive request ("that a snapshot be taken
//!   first"), inline enumerators ("(2) ask before …").
//! - *False rules*: OpenHands' prompt sections and `<IMPORTANT>` block
//!   (their tags and opening sentences), login banners ("Unauthorized
//!   access … is prohibited", "Authorized personnel only"), moods after
//!   "always" or "never" ("Always happy to pair"), experience ("Never seen
//!   Redis do that before"), "skip" without a thing named ("skip medium and
//!   low"), `git log --oneline` lines; in the model's own text, outside a
//!   recap, rules read out of statements of fact.
//! - *Seen in use*: a binding needs a real phrase and a named thing
//!   (`a""is,` is none); "Only propose changes under src/" is a scope;
//!   "config-only" is one word, not "only".
//!
//! `held_out.txt` was measured again after that second round (its table is
//! in `eval/SCORES.md`).
//!
//! It is no longer fully unseen: its aggregate numbers were looked at after
//! each round of tuning (not its sentences), so its table is an optimistic
//! figure too. `held_out_2.txt`, written blind by someone else while this
//! round was done and never read for it, is the final and honest measure.
//!
//! `held_out_2.txt` (68 documents, 583 labelled items: BigQuery, legal
//! review, DNS and mail, Terraform, CI, email campaigns, month-end close,
//! robot fleets, firmware, HR, localisation, HPC, order routing, catalogues,
//! transcoding, rostering, open data, registrars, customs, prepress, lab
//! instruments), measured once, after all tuning, and not tuned on since.
//! Its sources use the readers' own ids (`project_file`, `hook_context`,
//! `skill`), grouped in its table (in `eval/SCORES.md`) with the project
//! files and the system prompt.
//!
//! (Its system-prompt row, which holds its skills, lost two false rules
//! when a skill's unstressed procedure steps stopped counting as rules, a
//! change made while tuning on real session logs, not on this set.)
//!
//! On text nobody tuned for, the finder keeps its precision (0.92) and
//! finds about seven rules in ten: short of the 0.95 recall aimed at.
//! It misses most in tool output (0.57): policy files a tool printed
//! ("Job arrays are capped at 1,000 tasks per submission"), a checklist an
//! MCP server returned, a permissions table whose cells say yes and no;
//! and in the model's recaps of rules in its own words (0.32: "tables get
//! created only in `fin_mart_staging`"). Then terse answers ("force-push to
//! the release branch: no"), polite requests ("Would you mind scheduling
//! test sends to the seed list first"), and rules said as facts ("Blanks go
//! between every 10 samples"). Those are the categories to work on next,
//! with examples of our own, as in the second round.

use alloc::string::String;
use alloc::vec::Vec;

use drift_core::Kind;

use crate::entail::scan::Span;

mod boilerplate;
mod book;
pub(crate) mod chat;
mod chat_tables;
mod clauses;
mod cues;
pub(crate) mod force;
mod lines;
mod read;
mod words;

pub use boilerplate::{is_harness_text, operator_content, summary_body};
pub use book::{BookRule, RuleBook, RulePlace, rule_key};
pub use force::{Authority, InForce, RuleFinder, SessionFinder, StandingRule, TextOrigin};

/// The cue of a rule that is the user's answer to the agent's question.
pub(crate) const ANSWER_CUE: &str = "an answer to the agent's question";

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

/// Every rule clause in `text`, in order.
///
/// Text in [`Source::Assistant`] and [`Source::Summary`] yields the rules
/// it restates, with `quoted` set; never the model's own plans, questions
/// or statements of state. Harness text yields nothing; a harness's wrapper
/// around the operator's own content (AGENTS.md, CLAUDE.md, memory blocks)
/// is skipped and the content read.
pub fn find_rules(text: &str, source: Source) -> Vec<Rule> {
    clauses::find(text, source)
}
