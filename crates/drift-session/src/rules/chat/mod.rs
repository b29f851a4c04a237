//! The rules in what people type: chat messages, messages typed while the
//! agent worked, a command's arguments, a subagent's brief, the answers to
//! the agent's questions.
//!
//! What users type is short and informal: a tool choice ("use the gdb
//! without python"), where things go ("write the plan into ROADMAP.md"), a
//! scope ("we don't touch upstream code"), a priority ("speed matters
//! most, only sync the delta"), an output format ("only print function,
//! ref_cycle, opt_cycle"), often in lower case, with typos, and in more
//! languages than English. Most of what they type is not a rule: tasks
//! ("fix the awk error", "commit these changes"), continuations ("go
//! ahead", "继续"), questions, reports of state, pasted output.
//!
//! A text is cut into sentences (code, commands and log lines left out;
//! see [`super::read`]) and clauses (at `;`, `!` between words and the
//! sentence marks of scripts without spaces). A clause is a rule when:
//!
//! 1. it is not talk: not only acknowledgements, not a question, not the
//!    speaker's own state or plan ("I don't know", "it works now");
//! 2. a cue of [`super::chat_tables`] is in it: a strong one ("never",
//!    "don't", "only", "must", "不要", "只") makes it a rule wherever it
//!    is; a weak one ("use X", "with X", "keep", "按照") unless the clause
//!    opens as a one-off task ("fix …", "commit …", "修复 …");
//! 3. or it opens with a verb of standing instructions ("be thorough",
//!    "record every step"), or puts the work somewhere ("write the plan
//!    into `driver_ROADMAP.md`").
//!
//! A brief lists the subagent's task as steps ("Check …", "Grep for …",
//! "List …"): those are not rules; a step that says how thoroughly to work
//! ("Read these files in full", "read this file fully") is, and so is any
//! clause with a cue. Each answer to the agent's questions is the user's
//! choice, also an option picked by its letter ("B. 标准版") or a question
//! answered on its line ("…？你决定", "…? yes").
//!
//! Not all of a typed message is the user's own:
//!
//! - in a long structured paste (a plan, a spec, a long document), and in
//!   the stretch of a message formatted as an assistant's answer, only a
//!   strong cue in a clause that directs counts ("Never edit …", not "the
//!   gateway must not drop frames"); under a heading that names its items
//!   rules ("## Conventions", "约束") each item is one;
//! - after a first line that hands over someone else's review or
//!   suggestions ("结合以下意见…", "What do you think of the following
//!   review?"), and in a paragraph of another program's output (its marks,
//!   an agent's "file.js (line 60)" citations), nothing is;
//! - in a pasted box diagram only the notes the user typed into it are
//!   read (after a gap and "- ", or after the box's edge), each a change
//!   they want held unless it asks something.
//!
//! A role ("You are auditing …", "你要作为…") or a goal ("The goal is …")
//! frames the task; a short "Label: a, b, c" or "snake_case_name, what it
//! holds" defines something (a binding).

use alloc::vec::Vec;

mod answers;
mod pasted;
mod unspaced;
mod words;

pub(crate) use answers::short_answer;
use answers::*;
use pasted::*;
pub(crate) use unspaced::unspaced_cue;
use unspaced::*;
use words::*;

use super::chat_tables::{
    ACKNOWLEDGEMENTS, CJK_ACKNOWLEDGEMENTS, CJK_CUES, FILLERS, OTHER_CUES, PLACES, PLACING_VERBS,
    QUESTION_OPENERS, STANDING_VERBS, STATE_OPENERS, SUPERLATIVES, Strength, TASK_VERBS, WANTING,
    WORD_CUES,
};
use super::read::{Region, UnitKind, read};
use super::{Rule, RuleForm, Source};
use crate::entail::scan::Span;

/// What kind of typed text a clause is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Typed {
    /// A chat message, a queued message, a command's arguments.
    Chat,
    /// A subagent's brief: it only instructs.
    Brief,
    /// The user's answers to the agent's questions: each a choice.
    Answers,
}

/// Whether `c` belongs to a script written without spaces.
pub(crate) fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Phrases that are talk, whatever cue they hold.
const TALK: &[&str] = &[
    "dont know",
    "dont think",
    "not sure",
    "no idea",
    "no problem",
    "no worries",
    "dont worry",
    "never mind",
    "not yet",
    "not working",
    "doesnt work",
    "does not work",
    "not found",
    "no such",
    "no luck",
    "no way",
    "no longer",
    "not bad",
    "no clue",
    "why not",
];

/// Words after "no" that make no prohibition ("no, that's wrong").
const NO_EXCLUDE: &[&str] = &[
    "i",
    "you",
    "it",
    "we",
    "that",
    "this",
    "thats",
    "its",
    "the",
    "a",
    "one",
    "matter",
    "more",
    "thanks",
    "need",
    "problem",
    "idea",
    "worries",
    "way",
    "longer",
    "luck",
    "wait",
    "not",
    "no",
    "yes",
    "ok",
    "okay",
    "changes",
    "change",
    "issue",
    "issues",
    "error",
    "errors",
    "output",
    "difference",
];

/// Whether a clause wants something pushed to its extreme: a verb of
/// wanting by "we" or "I" among its first words, a superlative after it.
fn aims_at_extreme(w: &Words, first: usize) -> bool {
    let speaker = (first..w.len().min(first + 2)).any(|i| matches!(w.text(i), "we" | "i"));
    let Some(want) = (first..w.len().min(first + 4)).find(|&i| {
        let t = w.text(i);
        WANTING
            .iter()
            .any(|v| t == *v || t.strip_suffix('s') == Some(v))
    }) else {
        return false;
    };
    speaker && (want + 1..w.len()).any(|i| in_list(SUPERLATIVES, w.text(i)))
}

/// Whether a line opening with `word` (lowercase, no apostrophe) gives an
/// order: a verb of the task or of standing instructions, or "never",
/// "always", "dont", "only", "please".
pub(crate) fn opens_an_order(word: &str) -> bool {
    in_list(TASK_VERBS, word)
        || in_list(STANDING_VERBS, word)
        || matches!(word, "never" | "always" | "dont" | "only" | "please")
}

fn in_list(list: &[&str], w: &str) -> bool {
    list.contains(&w)
}

/// The rule a clause states, if it states one.
fn classify(clause: &str, typed: Typed, pasted: bool) -> Option<(RuleForm, &'static str)> {
    let found = classify_clause(clause, typed, pasted)?;
    // "Actually, keep the fixtures in CI": a directive that corrects what
    // came before it.
    let opens_correcting = clause
        .trim_start()
        .get(..8)
        .is_some_and(|w| w.eq_ignore_ascii_case("actually"));
    if !pasted
        && opens_correcting
        && !matches!(
            found.0,
            RuleForm::CarveOut | RuleForm::Binding | RuleForm::Correction
        )
    {
        return Some((RuleForm::Correction, "actually"));
    }
    Some(found)
}

fn classify_clause(clause: &str, typed: Typed, pasted: bool) -> Option<(RuleForm, &'static str)> {
    let trimmed = clause.trim();
    if trimmed.is_empty() {
        return None;
    }
    if !pasted && typed == Typed::Chat && named_definition(trimmed) {
        return Some((RuleForm::Binding, "a definition"));
    }
    if trimmed.chars().any(is_unspaced) {
        return classify_unspaced(trimmed, typed, pasted);
    }
    let w = Words::of(trimmed);
    if w.len() == 0 {
        return None;
    }
    // Fillers at the start.
    let mut first = 0;
    while first < w.len() && in_list(FILLERS, w.text(first)) && w.len() - first > 1 {
        first += 1;
    }
    let opener = w.text(first);
    // Talk.
    if (first..w.len()).all(|i| in_list(ACKNOWLEDGEMENTS, w.text(i))) {
        return None;
    }
    if typed == Typed::Answers || answered(trimmed) {
        return Some((RuleForm::Obligation, super::ANSWER_CUE));
    }
    if !pasted && typed == Typed::Chat && label_list(trimmed) {
        return Some((RuleForm::Binding, "a list the user defines"));
    }
    if !pasted && definition(&w, first, trimmed) {
        return Some((RuleForm::Binding, "a definition"));
    }
    // "Do not speculate;" is no question, "do we need it" is.
    let negated = matches!(w.text(first + 1), "not" | "nt");
    let question = trimmed.ends_with('?')
        || (in_list(QUESTION_OPENERS, opener)
            && !negated
            && !trimmed.ends_with(['.', '!', ';', '；', ':']));
    let polite = ["could you", "can you", "would you", "will you"]
        .iter()
        .any(|p| w.find(p, first) == Some(first));
    if question && !polite {
        return None;
    }
    if TALK.iter().any(|t| w.find(t, first).is_some()) && !has_strong(&w, first, "talk") {
        return None;
    }
    // The user's own review or approval is a gate, whoever says it ("I
    // will review", "I'll check it first").
    if let Some((cue, form)) = [
        ("i will review", RuleForm::Approval),
        ("ill review", RuleForm::Approval),
        ("let me review", RuleForm::Approval),
        ("i want to review", RuleForm::Approval),
        ("i need to review", RuleForm::Approval),
        ("i will check", RuleForm::Approval),
    ]
    .into_iter()
    .find(|(c, _)| w.find(c, first).is_some())
    {
        return Some((form, cue));
    }
    // A choice among the agent's options ("B. the standard edition").
    if option_choice(trimmed) {
        return Some((RuleForm::Obligation, super::ANSWER_CUE));
    }
    // A goal pushed to its extreme, set by the user's own wanting ("we
    // want the lowest latency"): the work keeps aiming at it.
    if !pasted && typed == Typed::Chat && !question && aims_at_extreme(&w, first) {
        return Some((RuleForm::Obligation, "a goal the user sets"));
    }
    let state = in_list(STATE_OPENERS, opener)
        && ![
            "want you",
            "need you",
            "would like",
            "prefer",
            "expect",
            "read-only",
            "read only",
            "when i say",
            "i meant",
        ]
        .iter()
        .any(|p| w.find(p, first).is_some());
    if state && !(w.find("you", first).is_some() && has_strong(&w, first, "state")) {
        return None;
    }
    let task_opener = in_list(TASK_VERBS, opener);
    // Cues, most telling first.
    for &(cue, form, strength) in WORD_CUES.iter().chain(OTHER_CUES) {
        let Some(at) = find_cue(&w, cue, first) else {
            continue;
        };
        if form == RuleForm::Prohibition && cue == "no *" {
            // "no" before a word that names something forbidden.
            if at + 1 >= w.len() || in_list(NO_EXCLUDE, w.text(at + 1)) {
                continue;
            }
        }
        let method = matches!(
            cue,
            "use #"
                | "using #"
                | "with #"
                | "via #"
                | "based on"
                | "according to"
                | "without"
                | "instead of"
                | "rather than"
                | "in english"
                | "in chinese"
                | "as a table"
                | "to measure"
                | "done by"
                | "done with"
        );
        if cue == "only" && !instructs_only(&w, first, at) && !after_label(trimmed, "only") {
            continue;
        }
        if cue == "stop"
            && (at + 1 >= w.len() || in_list(&["here", "now", "there", "and"], w.text(at + 1)))
        {
            // "Stop here and write up what changed": this turn's halt.
            continue;
        }
        if cue == "the goal is" && typed == Typed::Brief {
            // A brief's goal is its task.
            continue;
        }
        if cue == "if" && !outside_parentheses(trimmed, "if") {
            // "`README.md` (if present)": a list entry's condition.
            continue;
        }
        // In pasted material a strong cue counts where it instructs ("Never
        // edit X", "as requested"), not where it describes ("the gateway
        // must not drop frames").
        if pasted && !directive(&w, first) && !cue.starts_with("as ") {
            continue;
        }
        // A role or a goal is the task's frame, not a rule: "You are
        // auditing the cold-boot files of each agent".
        if (strength == Strength::Weak || cue == "no *") && framing(&w, first) {
            continue;
        }
        match strength {
            // "Check the runbook before touching nodes": an order before a
            // recurring act holds even after a task's verb.
            Strength::Strong
                if pasted || !task_opener || is_constraint(form) || cue == "before *ing" =>
            {
                return Some((form, cue));
            }
            Strength::Weak if pasted => {}
            Strength::Weak if !task_opener || method => return Some((form, cue)),
            _ => {}
        }
    }
    if pasted {
        return None;
    }
    // A verb of standing instructions, or the work put somewhere.
    if (in_list(STANDING_VERBS, opener) || gerund_of(opener, STANDING_VERBS))
        && w.len() - first >= 2
    {
        return Some((RuleForm::Obligation, "an instruction that holds"));
    }
    if in_list(PLACING_VERBS, opener) && places_something(&w, first) {
        return Some((RuleForm::Obligation, "where the work goes"));
    }
    // In a brief, the steps it lists ("Check …", "Grep for …", "List …")
    // are the one-off task; a step that says how thoroughly to do it
    // ("Read the full .gitignore", "read this file fully") holds for the
    // whole of the work.
    if typed == Typed::Brief
        && task_opener
        && w.len() - first >= 3
        && (first..w.len()).any(|i| in_list(THOROUGHLY, w.text(i)))
    {
        return Some((RuleForm::Obligation, "an instruction of the brief"));
    }
    None
}

/// Words that say how thoroughly a step is done: "read the full file",
/// "read it fully", "the entire log".
const THOROUGHLY: &[&str] = &[
    "full",
    "fully",
    "entire",
    "entirely",
    "whole",
    "verbatim",
    "thoroughly",
    "completely",
    "exhaustively",
];

/// Whether a clause instructs: it opens with a verb of instruction, a
/// negation or a modal word, or speaks to the agent ("you", "we").
fn directive(w: &Words, first: usize) -> bool {
    let opener = w.text(first);
    opens_instruction(opener)
        || in_list(
            &[
                "never", "dont", "do", "no", "always", "only", "avoid", "must", "you", "we",
                "please", "make", "ensure", "prefer",
            ],
            opener,
        )
}

/// Whether a clause frames the work rather than constrains it: a role
/// ("you are …", "your job is …") or a goal ("the goal is …").
fn framing(w: &Words, first: usize) -> bool {
    [
        "you are",
        "youre",
        "your job",
        "your task",
        "your mission",
        "your role",
        "the goal is",
    ]
    .iter()
    .any(|p| w.find(p, first) == Some(first))
}

/// Whether `word` is the "-ing" form of a verb of `verbs` ("recording",
/// "logging", "writing").
fn gerund_of(word: &str, verbs: &[&str]) -> bool {
    let Some(stem) = word.strip_suffix("ing") else {
        return false;
    };
    if stem.len() < 2 {
        return false;
    }
    let undoubled = stem
        .get(..stem.len() - 1)
        .filter(|s| stem.ends_with(|c: char| s.ends_with(c)));
    verbs
        .iter()
        .any(|v| *v == stem || undoubled == Some(*v) || v.strip_suffix('e') == Some(stem))
}

/// Whether `word` (lower-case) is a verb an instruction opens with.
pub(crate) fn opens_instruction(word: &str) -> bool {
    in_list(STANDING_VERBS, word) || in_list(TASK_VERBS, word) || in_list(PLACING_VERBS, word)
}

/// Whether `word` comes right after a label's colon ("RE: the tracker:
/// only Approp bills count").
fn after_label(clause: &str, word: &str) -> bool {
    let lower = clause.to_lowercase();
    lower
        .match_indices(word)
        .any(|(i, _)| lower[..i].trim_end().ends_with(':'))
}

/// Whether the word `word` (lower-case) is in `clause` outside any
/// parenthesis.
fn outside_parentheses(clause: &str, word: &str) -> bool {
    let mut depth = 0usize;
    let mut outside = alloc::string::String::with_capacity(clause.len());
    for c in clause.chars() {
        match c {
            '(' | '（' => depth += 1,
            ')' | '）' => depth = depth.saturating_sub(1),
            _ if depth == 0 => outside.extend(c.to_lowercase()),
            _ => {}
        }
    }
    outside
        .split(|c: char| !c.is_alphanumeric())
        .any(|w| w == word)
}

/// Whether an "only" at `at` instructs: it opens the clause, follows a
/// verb the clause opens with or a modal, or comes after what it limits
/// ("squash-merge only"); not "a fresh agent can only reach it by…".
fn instructs_only(w: &Words, first: usize, at: usize) -> bool {
    if at <= first + 1 || at + 1 >= w.len() {
        return true;
    }
    let before = w.text(at - 1);
    let opener = w.text(first);
    let modal = matches!(before, "must" | "should" | "shall");
    let said_by_subject = matches!(
        before,
        "can" | "could" | "will" | "would" | "may" | "is" | "are" | "was" | "were" | "has" | "have"
    );
    if said_by_subject {
        return false;
    }
    modal || opens_instruction(opener) || in_list(&["you", "we"], opener)
}

/// A form that constrains even a task ("fix the parser, never the lexer").
fn is_constraint(form: RuleForm) -> bool {
    !matches!(form, RuleForm::Ordering | RuleForm::Condition)
}

/// Where `cue` matches a clause's words from `first`: a word cue, or the
/// `*`/`#` forms.
fn find_cue(w: &Words, cue: &str, first: usize) -> Option<usize> {
    w.find(cue, first)
}

/// Whether a strong cue (of any form) is in the clause.
fn has_strong(w: &Words, first: usize, _why: &str) -> bool {
    WORD_CUES
        .iter()
        .chain(OTHER_CUES)
        .filter(|(_, _, s)| *s == Strength::Strong)
        .filter(|(cue, _, _)| !matches!(*cue, "no *"))
        .any(|(cue, _, _)| w.find(cue, first).is_some())
}

/// Whether a placing verb puts the work in a named place ("into
/// ROADMAP.md", "in the file we already have").
fn places_something(w: &Words, first: usize) -> bool {
    (first + 1..w.len()).any(|i| {
        in_list(PLACES, w.text(i))
            && (w.named(i + 1)
                || w.named(i + 2)
                || [
                    "file",
                    "folder",
                    "directory",
                    "dir",
                    "doc",
                    "docs",
                    "readme",
                ]
                .iter()
                .any(|f| (i + 1..(i + 5).min(w.len())).any(|k| w.text(k) == *f)))
    })
}

/// Cuts a sentence into clauses: at `;`, at a `!` between words, and at
/// the sentence marks of scripts without spaces.
fn clauses(text: &str, span: Span, mut f: impl FnMut(Span)) {
    let s = span.of(text);
    let mut start = 0;
    let emit = |a: usize, b: usize, f: &mut dyn FnMut(Span)| {
        let part = &s[a..b];
        let lead = part.len() - part.trim_start().len();
        let t = part.trim();
        if !t.is_empty() {
            f(Span::new(
                span.start + a + lead,
                span.start + a + lead + t.len(),
            ));
        }
    };
    let mut chars = s.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let answer_follows = matches!(c, '？' | '?') && {
            let rest = s[i + c.len_utf8()..].lines().next().unwrap_or("").trim();
            let lower = rest.to_lowercase();
            // "…？yes", or an answer that more words follow after a stop
            // ("…？你决定，根据最新功能设计").
            !rest.is_empty()
                && ["yes", "no", "ok", "你决定", "是", "好", "可以", "对", "不"]
                    .iter()
                    .any(|a| {
                        lower.starts_with(a)
                            && (rest.chars().count() <= 6
                                || lower.get(a.len()..).is_some_and(|after| {
                                    after.starts_with(['，', ',', '。', '；', ';', ' '])
                                }))
                    })
        };
        let cut = match c {
            '？' | '?' if answer_follows => false,
            ';' | '；' | '。' | '！' | '？' => true,
            // A long clause of a script without spaces is cut at its
            // commas and colons too: each part is said on its own.
            '，' | '：' => i - start > 24,
            '!' => chars.peek().is_some_and(|(_, n)| n.is_whitespace()),
            _ => false,
        };
        if cut {
            let end = i + c.len_utf8();
            emit(start, end, &mut f);
            start = end;
        }
    }
    if start < s.len() {
        emit(start, s.len(), &mut f);
    }
}

/// Every rule clause of a text people typed.
pub(crate) fn find(text: &str, typed: Typed) -> Vec<Rule> {
    let mut out = Vec::new();
    if typed == Typed::Answers {
        // One choice a line.
        let mut at = 0;
        for line in text.split_inclusive('\n') {
            let t = line.trim();
            if !t.is_empty() {
                let lead = line.len() - line.trim_start().len();
                let span = Span::new(at + lead, at + lead + t.len());
                out.push(Rule {
                    span,
                    kind: RuleForm::Obligation.kind(),
                    form: RuleForm::Obligation,
                    cue: super::ANSWER_CUE,
                    quoted: false,
                });
            }
            at += line.len();
        }
        return out;
    }
    let pasted = typed == Typed::Chat && is_paste(text);
    let mut paste = if typed == Typed::Chat && !pasted {
        pasted_spans(text)
    } else {
        Vec::new()
    };
    let answer = if typed == Typed::Chat && !pasted {
        formatted_answer(text)
    } else {
        None
    };
    if typed == Typed::Chat
        && let Some(end) = handed_over(text)
    {
        paste.push(Span::new(end, text.len()));
    }
    let notes = if typed == Typed::Chat {
        annotations(text)
    } else {
        Vec::new()
    };
    // Under a heading that names its items rules ("## Conventions"), each
    // item is one, in a pasted plan too.
    let mut rule_section = false;
    read(text, Source::Chat, |unit| {
        if unit.region == Region::Harness {
            return;
        }
        if unit.kind == UnitKind::Heading {
            rule_section = names_rules(unit.span.of(text));
            // A line in bold is stressed, not a title, when it instructs:
            // "**Read these files in full**".
            let line = unit.span.of(text);
            let bold = line.starts_with("**") && line.ends_with("**");
            if bold
                && let Some(inner) = line.get(2..line.len() - 2)
                && let Some((form, cue)) = classify(inner, typed, pasted)
            {
                out.push(Rule {
                    span: Span::new(unit.span.start + 2, unit.span.end - 2),
                    kind: form.kind(),
                    form,
                    cue,
                    quoted: false,
                });
            }
            return;
        }
        if paste
            .iter()
            .any(|p| p.start <= unit.span.start && unit.span.end <= p.end)
        {
            return;
        }
        if unit.kind == UnitKind::Row && typed != Typed::Answers {
            return;
        }
        if notes
            .iter()
            .any(|n| unit.span.start <= n.start && n.end <= unit.span.end)
        {
            // A diagram's line: only the user's notes in it are read.
            return;
        }
        let mut found = false;
        let mut tails: Vec<Span> = Vec::new();
        let inside = |r: Option<Span>| {
            r.is_some_and(|a| a.start <= unit.span.start && unit.span.end <= a.end)
        };
        let pasted = pasted || inside(answer);
        clauses(text, unit.span, |clause| {
            if let Some((form, cue)) = classify(clause.of(text), typed, pasted) {
                found = true;
                out.push(Rule {
                    span: clause,
                    kind: form.kind(),
                    form,
                    cue,
                    quoted: false,
                });
            } else if let Some(dash) = clause.of(text).rfind(" — ") {
                // "`notes.md` — read this file fully": what follows a
                // dash may instruct on its own.
                tails.push(Span::new(clause.start + dash + " — ".len(), clause.end));
            }
        });
        for tail in tails {
            if let Some((form, cue)) = classify(tail.of(text), typed, pasted) {
                found = true;
                out.push(Rule {
                    span: tail,
                    kind: form.kind(),
                    form,
                    cue,
                    quoted: false,
                });
            }
        }
        if rule_section && !found && unit.kind == UnitKind::Item {
            out.push(Rule {
                span: unit.span,
                kind: RuleForm::Obligation.kind(),
                form: RuleForm::Obligation,
                cue: "an item under a heading of rules",
                quoted: false,
            });
        }
    });
    // A note the user put into a pasted design is a change they want to
    // hold, unless it asks something: then only a part with a cue of its
    // own is ("is this the right API? it should call the skill's tool").
    for note in notes {
        let n = note.of(text);
        let asks = n.contains(['?', '？', '吗', '嘛']);
        let mut from = 0;
        let mut keep: Option<Span> = None;
        let mut parts: Vec<(Span, bool)> = Vec::new();
        for (i, c) in n.char_indices().chain(core::iter::once((n.len(), '，'))) {
            if !matches!(c, '，' | ',' | '；' | ';') {
                continue;
            }
            let part = n.get(from..i).unwrap_or("");
            let lead = part.len() - part.trim_start().len();
            let t = part.trim();
            let span = Span::new(note.start + from + lead, note.start + from + lead + t.len());
            from = i + c.len_utf8();
            parts.push((span, t.ends_with(['?', '？', '吗', '嘛'])));
        }
        for (span, question) in parts {
            if question {
                keep = None;
                continue;
            }
            keep = Some(keep.map_or(span, |k| Span::new(k.start, span.end)));
            let t = keep.map_or("", |k| k.of(text));
            if t.chars().count() < 3 {
                continue;
            }
            let rule = classify(t, typed, false)
                .or((!asks).then_some((RuleForm::Obligation, "a note on a pasted design")));
            if let (Some((form, cue)), Some(k)) = (rule, keep) {
                out.retain(|r: &Rule| r.span.start != k.start);
                out.push(Rule {
                    span: k,
                    kind: form.kind(),
                    form,
                    cue,
                    quoted: false,
                });
            }
        }
    }
    out.sort_by_key(|r| (r.span.start, r.span.end));
    out
}

/// Words of a heading that names what is under it rules: conventions,
/// constraints, guidelines, principles.
const RULE_HEADINGS: &[&str] = &[
    "convention",
    "conventions",
    "rule",
    "rules",
    "constraint",
    "constraints",
    "guideline",
    "guidelines",
    "principle",
    "principles",
    "guardrail",
    "guardrails",
    "invariant",
    "invariants",
    "non-negotiables",
    "约束",
    "规则",
    "规范",
    "原则",
    "注意事项",
];

/// Whether a heading names its items rules ("## Conventions", "Hard
/// rules", "约束").
fn names_rules(heading: &str) -> bool {
    let lower = heading.to_lowercase();
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .any(|w| RULE_HEADINGS.contains(&w))
        || RULE_HEADINGS
            .iter()
            .filter(|h| h.chars().any(is_unspaced))
            .any(|h| lower.contains(h))
}

/// The notes a user typed into a pasted diagram's lines: in a line drawn
/// with box characters, text after a wide gap that opens with "- "
/// ("│  Phase 2 — loading    - don't name the method here   │"), up to
/// the next wide gap or box character.
fn annotations(text: &str) -> Vec<Span> {
    let mut out = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        let start = at;
        at += line.len();
        if !line.contains('│') {
            continue;
        }
        // A note typed after the box's edge, after a stop of its own:
        // "…   │；3. give the user two options here。".
        if let Some(edge) = line.rfind('│') {
            let after = line.get(edge + '│'.len_utf8()..).unwrap_or("");
            if let Some(rest) = after
                .trim_start()
                .strip_prefix('；')
                .or_else(|| after.trim_start().strip_prefix(';'))
            {
                let rest = rest.trim_start();
                let digits = rest.chars().take_while(char::is_ascii_digit).count();
                let rest = match rest.get(digits..) {
                    Some(r) if digits > 0 && r.starts_with(". ") => r.get(2..).unwrap_or(""),
                    _ => rest,
                };
                let end = rest
                    .find('。')
                    .map_or(rest.trim_end().len(), |e| e + '。'.len_utf8());
                let note = rest.get(..end).unwrap_or("").trim();
                if note.chars().count() >= 4 {
                    let offset = line.len() - rest.len();
                    out.push(Span::new(start + offset, start + offset + note.len()));
                }
            }
        }
        let mut from = 0;
        while let Some(k) = line.get(from..).and_then(|r| r.find("  - ")) {
            let gap = from + k;
            let before = line.get(..gap).unwrap_or("");
            let content_before = before
                .trim_matches(|c: char| c.is_whitespace() || c == '│')
                .chars()
                .count()
                > 0;
            let note_start = gap + "  - ".len();
            let rest = line.get(note_start..).unwrap_or("");
            let note_len = rest
                .find("   ")
                .into_iter()
                .chain(rest.find('│'))
                .min()
                .unwrap_or(rest.trim_end().len());
            let note = rest.get(..note_len).unwrap_or("").trim();
            if content_before && note.chars().count() >= 4 {
                let lead = rest.len() - rest.trim_start().len();
                let s = start + note_start + lead;
                out.push(Span::new(s, s + note.len()));
            }
            from = note_start + note_len.max(1);
            while from < line.len() && !line.is_char_boundary(from) {
                from += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests;
