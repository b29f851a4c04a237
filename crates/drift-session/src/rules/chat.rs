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

/// A word of a clause.
#[derive(Clone, Copy, Debug)]
struct Word {
    /// Lower-cased text, apostrophes dropped (in [`Words::buf`]).
    at: usize,
    len: usize,
    /// A named thing: a path, a file, code, an identifier, a number, a
    /// proper noun.
    named: bool,
}

/// A clause's words.
struct Words {
    buf: alloc::string::String,
    words: Vec<Word>,
}

impl Words {
    fn of(clause: &str) -> Words {
        let mut w = Words {
            buf: alloc::string::String::with_capacity(clause.len()),
            words: Vec::new(),
        };
        let mut start: Option<usize> = None;
        let bytes = clause.as_bytes();
        let mut in_code = false;
        let mut code_start = 0;
        let push = |w: &mut Words, a: usize, b: usize, code: bool| {
            let raw = &clause[a..b];
            let core =
                raw.trim_matches(|c: char| matches!(c, '.' | ',' | ':' | '-' | '/' | '\'' | '"'));
            if core.is_empty() {
                return;
            }
            let offset = a + raw.find(core).unwrap_or(0);
            let at = w.buf.len();
            for c in core.chars() {
                if c == '\'' || c == '\u{2019}' {
                    continue;
                }
                w.buf.extend(c.to_lowercase());
            }
            let letters = core.chars().filter(|c| c.is_alphabetic()).count();
            let upper = core.chars().filter(|c| c.is_uppercase()).count();
            let named = code
                || core.contains(['/', '_', '.', '=', '#', '@', '~', '\\'])
                || core.chars().any(|c| c.is_ascii_digit())
                || (upper >= 1 && offset > 0 && letters > 1)
                || (upper >= 2 && letters > 1);
            w.words.push(Word {
                at,
                len: w.buf.len() - at,
                named,
            });
        };
        for (i, c) in clause.char_indices() {
            if c == '`' {
                if in_code {
                    push(&mut w, code_start, i, true);
                    in_code = false;
                } else {
                    if let Some(s) = start.take() {
                        push(&mut w, s, i, false);
                    }
                    in_code = true;
                    code_start = i + 1;
                }
                continue;
            }
            if in_code {
                continue;
            }
            let part = c.is_alphanumeric()
                || (matches!(
                    c,
                    '_' | '/' | '.' | '-' | '\'' | '\u{2019}' | '=' | '#' | '@' | '~' | '\\' | ':'
                ) && start.is_some());
            let part = part
                || (c == '/' || c == '.' || c == '~')
                    && start.is_none()
                    && bytes.get(i + 1).is_some_and(|b| b.is_ascii_alphanumeric());
            if part && !is_unspaced(c) {
                if start.is_none() {
                    start = Some(i);
                }
            } else if let Some(s) = start.take() {
                push(&mut w, s, i, false);
            }
        }
        if let Some(s) = start {
            push(&mut w, s, clause.len(), false);
        } else if in_code {
            push(&mut w, code_start, clause.len(), true);
        }
        w
    }

    fn len(&self) -> usize {
        self.words.len()
    }

    fn text(&self, i: usize) -> &str {
        self.words
            .get(i)
            .map_or("", |w| &self.buf[w.at..w.at + w.len])
    }

    fn named(&self, i: usize) -> bool {
        self.words.get(i).is_some_and(|w| w.named)
    }

    /// Whether the cue's words start at `i` (`#` a named thing, `*` any word).
    fn matches_at(&self, i: usize, cue: &str) -> bool {
        for (j, part) in (i..).zip(cue.split(' ')) {
            if j >= self.len() {
                return false;
            }
            let ok = match part {
                "#" => self.named(j),
                "*" => true,
                // A verb's -ing form ("before touching").
                "*ing" => self.text(j).len() > 4 && self.text(j).ends_with("ing"),
                _ => self.text(j) == part,
            };
            if !ok {
                return false;
            }
        }
        true
    }

    /// The first position from `from` where `cue` matches.
    fn find(&self, cue: &str, from: usize) -> Option<usize> {
        (from..self.len()).find(|&i| self.matches_at(i, cue))
    }
}

/// Whether `c` belongs to a script written without spaces.
pub(crate) fn is_unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xAC00..=0xD7AF | 0xF900..=0xFAFF)
}

/// Chinese words that hold a cue's characters without its meaning ("用户"
/// is a user, not a use; "可以" in "所以" is nothing).
const CJK_NOT: &[&str] = &[
    "用户",
    "作用",
    "费用",
    "应用",
    "调用",
    "适用",
    "信用",
    "通用",
    "有用",
    "没用",
    "可用",
    "常用",
    "专用",
    "用量",
    "用于",
    "所以",
    "以上",
    "以下",
    "以及",
    "以后",
    "以前",
    "可以看",
    "难以",
    "只是",
    "不只",
    "只要",
    "首先",
    "先生",
    "原先",
    "事先",
    "先进",
    "领先",
    "要求",
    "主要是",
    "需要的",
    "重要",
    "要点",
    "不要紧",
    "以来",
    "别人",
    "区别",
    "类别",
    "级别",
    "分别",
    "特别",
    "识别",
    "个别",
    "不是很",
    "是不是",
    "不能用",
    "我用",
    "已用",
    "优先级",
];

/// Chinese cues of how or where the work is done: a rule even inside a
/// task ("彻底更新…在源文件上做修改").
const CJK_METHOD: &[&str] = &[
    "基于",
    "按照",
    "参考",
    "根据",
    "用",
    "使用",
    "采用",
    "在源文件",
    "写入",
    "输出到",
    "放到",
    "放在",
    "保存到",
    "中文",
    "基础上",
];

/// Openers of a one-off task in Chinese.
const CJK_TASK_VERBS: &[&str] = &[
    "修复",
    "实现",
    "添加",
    "增加",
    "创建",
    "写",
    "生成",
    "检查",
    "查看",
    "对比",
    "比较",
    "列出",
    "设计",
    "删除",
    "更新",
    "继续",
    "执行",
    "完成",
    "优化",
    "读",
    "阅读",
    "深度阅读",
    "深度对比",
    "分析",
    "测试",
    "部署",
    "提交",
    "推送",
    "运行",
    "修改",
    "整理",
    "输出",
    "review",
    "看",
    "帮",
    "全面",
    "彻底",
    "重新",
    "你生成",
];

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

/// A line that picks one of the agent's options: an option letter and a
/// stop or colon ("B. 标准版：…", "C) both").
fn option_choice(clause: &str) -> bool {
    let t = clause.trim_start_matches(['-', '*', ' ']);
    let mut chars = t.chars();
    let (letter, mark, after) = (chars.next(), chars.next(), chars.next());
    // "C:\Users\…" and "D:/data" are drives, not options.
    let drive = mark == Some(':') && matches!(after, Some('\\' | '/'));
    matches!(
        (letter, mark),
        (Some('A'..='E'), Some('.' | ')' | '：' | ':' | '、'))
    ) && !drive
        && t.chars().count() > 4
}

/// A question the agent asked, answered in the same line ("… before the
/// code? yes", "…？你决定"): the user's decision.
fn answered(clause: &str) -> bool {
    let t = clause.trim_end_matches(['.', '。', '!', '！', ' ', '，', ',']);
    let lower = t.to_lowercase();
    [
        "? yes",
        "?yes",
        "？yes",
        "? no",
        "？no",
        "？你决定",
        "? 你决定",
        "？是",
        "？好",
        "？可以",
        "? ok",
        "？ok",
    ]
    .iter()
    .any(|a| lower.ends_with(a))
        || answered_after_a_mark(&lower)
}

/// Whether `text` can be a typed answer: a few words that ask nothing.
pub(crate) fn short_answer(text: &str) -> bool {
    !text.is_empty() && text.chars().count() <= 24 && !text.contains(['?', '？'])
}

/// Answers typed after a question or an option, set off by a dash or an
/// arrow the way a person fills in a list of questions: "run them in
/// parallel?  - no", "是否保留旧接口？ → 不需要", "autosave drafts (as
/// today)   - yes". The answer is short and asks nothing.
fn answered_after_a_mark(lower: &str) -> bool {
    const MARKS: &[&str] = &[" - ", " – ", " — ", " → ", " -> ", "→"];
    const YES_NO: &[&str] = &[
        "yes",
        "no",
        "ok",
        "是",
        "否",
        "要",
        "不要",
        "不支持",
        "不需要",
        "可以",
        "不用",
    ];
    let Some((at, mark)) = MARKS
        .iter()
        .filter_map(|m| lower.rfind(m).map(|i| (i, *m)))
        .max_by_key(|(i, _)| *i)
    else {
        return false;
    };
    let (Some(before), Some(answer)) = (lower.get(..at), lower.get(at + mark.len()..)) else {
        return false;
    };
    let before = before.trim_end();
    let answer = answer.trim();
    if !short_answer(answer) {
        return false;
    }
    // After a question: any short answer. After an option: a yes or a
    // no, with room before the dash the way a filled-in form has.
    before.ends_with(['?', '？'])
        || (YES_NO.contains(&answer)
            && lower
                .get(..at)
                .is_some_and(|b| b.ends_with("  ") || b.ends_with('）') || b.ends_with(')')))
}

/// An identifier and what it holds, as a user specifies a schema or a
/// config: "2. user_data_store，用户的个人数据", "retry_limit: how often a
/// job is retried".
fn named_definition(clause: &str) -> bool {
    let t = clause.trim_start_matches(['-', '*', ' ']);
    let digits = t.chars().take_while(char::is_ascii_digit).count();
    let t = match t.get(digits..) {
        Some(r) if digits > 0 && (r.starts_with(". ") || r.starts_with('.')) => {
            r.trim_start_matches('.').trim_start()
        }
        _ => t,
    };
    let name_len = t
        .chars()
        .take_while(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || *c == '_')
        .map(char::len_utf8)
        .sum::<usize>();
    let Some(name) = t.get(..name_len) else {
        return false;
    };
    let rest = t.get(name_len..).unwrap_or("");
    let Some(what) = ['，', ',', ':', '：']
        .iter()
        .find_map(|m| rest.strip_prefix(*m))
    else {
        return false;
    };
    name.contains('_')
        && name.len() >= 4
        && !name.starts_with('_')
        && what.trim().chars().count() >= 4
}

/// A label and the list it names, said on its own: "Approp subtypes:
/// Supplemental, Maintenance, Enhancement", "Environments: dev, staging,
/// prod" (three or more short items).
fn label_list(clause: &str) -> bool {
    let Some((label, items)) = clause.split_once(": ") else {
        return false;
    };
    let label_words = label.split_whitespace().count();
    let items: Vec<&str> = items
        .trim_end_matches(['.', ';'])
        .split(", ")
        .map(str::trim)
        .collect();
    (1..=4).contains(&label_words)
        && !label.contains(['(', '`'])
        && items.len() >= 3
        && items.iter().all(|i| {
            !i.is_empty() && i.split_whitespace().count() <= 3 && !i.contains(['`', '/', '\\', '{'])
        })
}

/// A definition the user gives: a short name, `=`, what it is ("FY = July
/// 1 - June 30", "Speedup = cycles_before / cycles_after").
fn definition(w: &Words, first: usize, clause: &str) -> bool {
    let Some((name, what)) = clause.split_once(" = ") else {
        return false;
    };
    let name_words = name.split_whitespace().count();
    (1..=5).contains(&name_words) && !what.trim().is_empty() && w.len() - first >= 3
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

/// A clause in a script written without spaces.
fn classify_unspaced(clause: &str, typed: Typed, pasted: bool) -> Option<(RuleForm, &'static str)> {
    let bare: alloc::string::String = clause
        .chars()
        .filter(|c| {
            !c.is_whitespace()
                && !matches!(c, '，' | '。' | '！' | '？' | '、' | '.' | ',' | '!' | '?')
        })
        .collect();
    if bare.is_empty() || CJK_ACKNOWLEDGEMENTS.contains(&bare.as_str()) {
        return None;
    }
    if typed == Typed::Answers || answered(clause) || option_choice(clause) {
        return Some((RuleForm::Obligation, super::ANSWER_CUE));
    }
    if clause.ends_with('？') || clause.ends_with('?') || clause.contains('吗') {
        return None;
    }
    if bare.chars().count() < 3 {
        return None;
    }
    // A lead-in ("注意要根据最新目标：") introduces the rule; a role ("你要
    // 作为一个顶级的系统架构师") frames the task.
    let lead_in = clause.trim_end().ends_with(['：', ':']);
    let role = [
        "你要作为",
        "你作为",
        "作为一个",
        "作为一名",
        "你是一个",
        "你是一名",
    ]
    .iter()
    .any(|r| bare.starts_with(r));
    if (lead_in || role) && !typed_strong_cjk(clause) {
        return None;
    }
    let task_opener = CJK_TASK_VERBS.iter().any(|v| bare.starts_with(v));
    for &(cue, form, strength) in CJK_CUES {
        let Some(at) = clause.find(cue) else { continue };
        // A cue inside a word that does not mean it.
        if CJK_NOT.iter().any(|n| {
            n.contains(cue) && {
                let lead = n.find(cue).unwrap_or(0);
                at >= lead && clause.get(at - lead..).is_some_and(|s| s.starts_with(n))
            }
        }) {
            continue;
        }
        let method = CJK_METHOD.contains(&cue);
        match strength {
            // "Check the runbook before touching nodes": an order before a
            // recurring act holds even after a task's verb.
            Strength::Strong
                if pasted || !task_opener || is_constraint(form) || cue == "before *ing" =>
            {
                return Some((form, cue));
            }
            Strength::Weak if !pasted && (!task_opener || method) => return Some((form, cue)),
            _ => {}
        }
    }
    // Latin words in a mixed clause ("用 uv, not pip").
    let latin: alloc::string::String = clause
        .chars()
        .map(|c| if is_unspaced(c) { ' ' } else { c })
        .collect();
    if latin.split_whitespace().count() >= 3 {
        return classify(&latin, typed, pasted)
            .filter(|(_, cue)| *cue != "an instruction that holds");
    }
    None
}

/// Whether a clause of a script written without spaces holds a strong
/// cue of typed text.
fn typed_strong_cjk(clause: &str) -> bool {
    CJK_CUES
        .iter()
        .any(|(cue, _, strength)| *strength == Strength::Strong && clause.contains(cue))
}

/// The strong cue (or an ordering's) of a clause in a script written
/// without spaces, in text that only instructs: "严禁硬编码凭证", "先阅读
/// 文档，然后提问"; a cue inside a word that does not mean it is none.
pub(crate) fn unspaced_cue(clause: &str) -> Option<(RuleForm, &'static str)> {
    let lead_in = clause.trim_end_matches(['*', ' ']).ends_with(['：', ':']);
    if !clause.chars().any(is_unspaced) || lead_in {
        return None;
    }
    CJK_CUES
        .iter()
        .filter(|(_, form, strength)| *strength == Strength::Strong || *form == RuleForm::Ordering)
        .find(|(cue, _, _)| {
            clause.match_indices(cue).any(|(at, _)| {
                !CJK_NOT.iter().any(|n| {
                    n.contains(cue) && {
                        let lead = n.find(cue).unwrap_or(0);
                        at >= lead && clause.get(at - lead..).is_some_and(|s| s.starts_with(n))
                    }
                })
            })
        })
        .map(|&(cue, form, _)| (form, cue))
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

/// Whether a text is a plan the user adopts ("Implement the following
/// plan:"), or a long structured document: only strong cues count there.
fn is_paste(text: &str) -> bool {
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let headings = text
        .lines()
        .filter(|l| l.trim_start().starts_with('#'))
        .count();
    text.trim_start()
        .starts_with("Implement the following plan")
        || (lines >= 40 && headings >= 3)
        || text.len() >= 6_000
}

/// In a long message formatted the way an assistant's answer is (bold
/// spans, check marks, headings, three or more), the stretch from its
/// first formatted paragraph to its last: another model's answer, pasted.
/// What the user wrote before or after it is their own.
fn formatted_answer(text: &str) -> Option<Span> {
    const MARKS: [&str; 5] = ["**", "✅", "❌", "✔", "###"];
    if text.len() < 1_200 {
        return None;
    }
    let count = |t: &str| MARKS.iter().map(|m| t.matches(m).count()).sum::<usize>();
    if count(text) < 6 {
        return None;
    }
    let mut region: Option<Span> = None;
    let mut at = 0;
    for para in text.split("\n\n") {
        let span = Span::new(at, at + para.len());
        at += para.len() + 2;
        if count(para) > 0 {
            region = Some(region.map_or(span, |r| Span::new(r.start, span.end)));
        }
    }
    region
}

/// Nouns of material someone else wrote that a lead-in hands over: a
/// review, comments, suggestions, feedback.
const HANDED_OVER: &[&str] = &[
    "意见",
    "建议",
    "反馈",
    "评审",
    "评论",
    "review:",
    "review.",
    "review below",
    "following review",
    "reviewer",
    "feedback",
    "comments",
    "suggestions",
];

/// Where a message's own words end when its first line hands over
/// material pasted after it ("What do you make of the following review?",
/// "结合以下意见进一步优化"): the lines after it are the other author's,
/// not the user's rules (the user adopts them as the task, not as rules).
fn handed_over(text: &str) -> Option<usize> {
    let first_end = text.find('\n')?;
    let first = text.get(..first_end)?.to_lowercase();
    let rest = text.get(first_end..)?;
    let body_lines = rest.lines().filter(|l| !l.trim().is_empty()).count();
    let pointed = [
        "以下",
        "如下",
        "下面",
        "一下意见",
        "following",
        "below",
        "these",
        "this review",
    ]
    .iter()
    .any(|p| first.contains(p));
    let own = ["我的", "my "].iter().any(|p| first.contains(p));
    (body_lines >= 3 && pointed && !own && HANDED_OVER.iter().any(|n| first.contains(n)))
        .then_some(first_end)
}

/// Marks another program's output carries: Claude Code's and other
/// terminals' tree and status glyphs, box drawing.
const PROGRAM_MARKS: &[char] = &[
    '⎿', '●', '⏺', '✻', '│', '└', '├', '╭', '╰', '┌', '┐', '┘', '─', '═', '║', '▶', '⏵',
];

/// Marks of an assistant's formatted answer, pasted back.
const ANSWER_MARKS: &[&str] = &["**", "✅", "❌", "✔", "⚠", "→ ", "| ", "###", "##"];

/// The paragraphs of a typed message that are pasted material rather than
/// the user's own words: any paragraph with another program's marks, and
/// in a long message (1,200 bytes or more) a paragraph of three or more
/// lines formatted the way an assistant's answer is (headings, tables,
/// bold, check marks).
fn pasted_spans(text: &str) -> Vec<Span> {
    let long = text.len() >= 1_200;
    let mut out = Vec::new();
    let mut start = 0;
    let flush = |a: usize, b: usize, out: &mut Vec<Span>| {
        let para = &text[a..b];
        if para.trim().is_empty() {
            return;
        }
        let lines = para.lines().filter(|l| !l.trim().is_empty()).count();
        let program = para.chars().any(|c| PROGRAM_MARKS.contains(&c)) || cites_lines(para);
        let formatted = ANSWER_MARKS.iter().filter(|m| para.contains(*m)).count();
        if program || (long && lines >= 3 && formatted >= 1) {
            out.push(Span::new(a, b));
        }
    };
    let mut i = 0;
    while let Some(k) = text[i..].find("\n\n") {
        let end = i + k;
        flush(start, end, &mut out);
        start = end + 2;
        i = start;
    }
    flush(start, text.len(), &mut out);
    out
}

/// Whether a paragraph cites file lines the way an agent's report does
/// ("ui.js (line 60)", twice or more): another agent's output, pasted.
fn cites_lines(para: &str) -> bool {
    para.match_indices("(line ")
        .filter(|(i, m)| {
            para.get(i + m.len()..)
                .is_some_and(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
        })
        .count()
        >= 2
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
mod tests {
    use super::*;
    use alloc::vec;

    fn rules(text: &str) -> Vec<&str> {
        find(text, Typed::Chat)
            .iter()
            .map(|r| r.span.of(text))
            .collect()
    }

    #[test]
    fn what_users_type_as_rules() {
        for rule in [
            "use the gdb without python",
            "put it in the file we already have",
            "we don't touch upstream code",
            "speed matters most, only sync the delta",
            "only print function, ref_cycle, opt_cycle",
            "no default port",
            "always read config.toml",
            "record every step",
            "write the plan into driver_ROADMAP.md to track the progress",
            "use /local/nick/qemu/build/qemu-system-riscv64",
            "Be thorough.",
            "don't implement now",
            "风格颜色方面不要改动",
            "主要修改claude v1.",
            "智能体系统用 github.com/vercel 来实现",
            "ask me if the schema is unclear",
            "有问题问我",
            "one build of the whole tree is the simplest way",
            "we want the lowest latency on the hot path",
            "I need to reach the best cycle count",
            "read the datasheet\nfocus on the vector unit",
            "run the suites in parallel?   - no",
            "是否保留旧接口？ - 不需要",
            "autosave drafts (as today)   - yes",
            "결과에 이모지를 사용하지 마세요",
            "반드시 테스트를 먼저 실행해",
            "nhớ viết comment bằng tiếng việt",
            "đừng chạy script trên máy chính",
        ] {
            assert_eq!(rules(rule).len(), 1, "{rule:?}: {:?}", rules(rule));
        }
    }

    #[test]
    fn what_users_type_that_is_no_rule() {
        for talk in [
            "go ahead",
            "continue",
            "继续",
            "yes",
            "commit these changes",
            "push it",
            "why all 0?",
            "I don't know.",
            "fix the awk error",
            "review the plan again with max effort",
            "what's the input value and output value?",
            "so verification pass?",
            "全部执行",
            "深度对比这两个文档",
            "it doesn't work",
            "no, that's wrong",
            "I want to see the most recent log",
            "what is the best way to do this?",
            "why is it slow? check the logs",
            "the parser - a small one",
            "계속해",
            "고마워, 잘 됐어",
            "cảm ơn",
            "tiếp tục đi",
        ] {
            assert!(rules(talk).is_empty(), "{talk:?}: {:?}", rules(talk));
        }
    }

    #[test]
    fn a_brief_s_steps_are_the_task_and_its_manner_a_rule() {
        let brief = "Search the repo for the config loader.\n\n1. Check if there is a `config/` folder\n2. Grep for \"load_config\" across all .py files\n3. Read the full README.md\n   - D:\\work\\app\\settings.toml\n   - `docs/setup.md` (if present)\n\nReport under 300 words.";
        let found: Vec<&str> = find(brief, Typed::Brief)
            .iter()
            .map(|r| r.span.of(brief))
            .collect();
        assert_eq!(
            found,
            ["Read the full README.md", "Report under 300 words."]
        );
    }

    #[test]
    fn options_picked_and_questions_answered_in_the_line() {
        let text = "- B. 标准版：只展示核心结果\n  - C. 在第三步才要求登录；  - A. 先展示摘要\n是否保留现有的登录页？你决定，按最新设计来";
        let found = rules(text);
        assert!(found.contains(&"B. 标准版：只展示核心结果"), "{found:?}");
        assert!(
            found.iter().any(|r| r.starts_with("C. 在第三步")),
            "{found:?}"
        );
        assert!(
            found
                .iter()
                .any(|r| r.starts_with("是否保留现有的登录页？你决定")),
            "{found:?}"
        );
        let answers = "Deploy target: staging first? yes\nnext the cache size is fixed";
        assert_eq!(rules(answers), ["Deploy target: staging first? yes"]);
    }

    #[test]
    fn material_handed_over_is_not_the_user_s() {
        let text = "What do you think of the following review comments?\nThe API must stay versioned.\nNever expose the admin port.\nUse one queue per tenant.";
        assert!(rules(text).is_empty(), "{:?}", rules(text));
        let own = "My comments below:\n- never expose the admin port\n- use one queue per tenant\n- keep the API versioned";
        assert_eq!(rules(own).len(), 3, "{:?}", rules(own));
    }

    #[test]
    fn a_plan_s_conventions_are_rules_and_its_steps_are_not() {
        let plan = "Implement the following plan:\n\n# Plan: Move the docs site\n\n## Steps\n1. Copy the pages to `site/`\n2. Update the links\n\n## Conventions\n- Page names in kebab-case\n- Images under `site/img/`\n\n## Verification\n- All links resolve\n\nComments go above the code they describe, as requested.";
        assert_eq!(
            rules(plan),
            [
                "Page names in kebab-case",
                "Images under `site/img/`",
                "Comments go above the code they describe, as requested."
            ]
        );
    }

    #[test]
    fn another_agent_s_report_pasted_is_not_the_user_s() {
        let text = "next round\n\nThe retry helper is never called: api.ts (line 60), api.ts (line 103).\nThe cache should be keyed by tenant (cache.ts (line 12)).\nUse a shared client for all calls.\n\nkeep the old endpoint";
        assert_eq!(rules(text), ["keep the old endpoint"]);
        let plan = "Implement the following plan:\n\n# Plan\n\nThe gateway must not drop frames during the switch.\nNever edit the generated bindings.";
        assert_eq!(rules(plan), ["Never edit the generated bindings."]);
    }

    #[test]
    fn a_list_defined_a_gerund_instruction_and_a_format_for_each() {
        assert_eq!(
            rules("Release channels: stable, beta, nightly"),
            ["Release channels: stable, beta, nightly"]
        );
        assert_eq!(
            rules("Thus, logging every run to runs.md"),
            ["Thus, logging every run to runs.md"]
        );
        assert_eq!(
            rules("Each entry has a title, a date and an owner."),
            ["Each entry has a title, a date and an owner."]
        );
        assert_eq!(
            rules("1. order_events, 每个订单的状态变化"),
            ["order_events, 每个订单的状态变化"]
        );
        assert_eq!(
            rules("time the loop with bench/timer.c to measure latency"),
            ["time the loop with bench/timer.c to measure latency"]
        );
        assert!(rules("你要作为一个资深的架构师，通读整个仓库").is_empty());
        assert!(rules("注意要根据以下目标：").is_empty());
        assert!(rules("我用 pytest 跑了一遍").is_empty());
        let brief = "Targets: `a.md`, `b.md`, `c.md`";
        assert!(find(brief, Typed::Brief).is_empty());
    }

    #[test]
    fn notes_typed_into_a_pasted_diagram_are_the_user_s() {
        let text = "这是流程图：\n  ┌──────────────┐\n  │ 第一步 输入邮箱        - 默认填入上次的邮箱   │\n  │ 第二步 发送验证码      - 这里对吗？        │\n  │ 第三步 完成注册                          │\n  └──────────────┘";
        assert_eq!(rules(text), ["默认填入上次的邮箱"]);
    }

    #[test]
    fn stressed_lines_negations_and_exclusions_in_a_brief() {
        let brief = "Audit the config loaders.\n\n**Read these files in full**\n- `a.py`\n- `b.py`\n\nEXCLUDE the vendored copies. This is a READ-ONLY task.\n\nDo not speculate; cite the line.";
        let found: Vec<&str> = find(brief, Typed::Brief)
            .iter()
            .map(|r| r.span.of(brief))
            .collect();
        assert_eq!(
            found,
            [
                "Read these files in full",
                "EXCLUDE the vendored copies.",
                "This is a READ-ONLY task.",
                "Do not speculate;",
                "cite the line."
            ]
        );
        let brief = "Look into the release notes.\n\n1. `CHANGES.md` — read this file fully\n2. `docs/` — list what is there";
        let found: Vec<&str> = find(brief, Typed::Brief)
            .iter()
            .map(|r| r.span.of(brief))
            .collect();
        assert_eq!(found, ["read this file fully"]);
    }

    #[test]
    fn a_message_holds_several_rules() {
        let text =
            "no default port ! remove it. also, always read config.toml; never hardcode paths";
        assert_eq!(
            rules(text),
            vec![
                "no default port !",
                "also, always read config.toml;",
                "never hardcode paths"
            ]
        );
    }
}
