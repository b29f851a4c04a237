//! What a person typed as an answer rather than an order: a choice among
//! options, a question answered on the same line, a short reply, a
//! definition or a list of labels.

use super::*;

/// A line that picks one of the agent's options: an option letter and a
/// stop or colon ("B. 标准版：…", "C) both").
pub(super) fn option_choice(clause: &str) -> bool {
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
pub(super) fn answered(clause: &str) -> bool {
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
pub(super) fn answered_after_a_mark(lower: &str) -> bool {
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
pub(super) fn named_definition(clause: &str) -> bool {
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
pub(super) fn label_list(clause: &str) -> bool {
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
pub(super) fn definition(w: &Words, first: usize, clause: &str) -> bool {
    let Some((name, what)) = clause.split_once(" = ") else {
        return false;
    };
    let name_words = name.split_whitespace().count();
    (1..=5).contains(&name_words) && !what.trim().is_empty() && w.len() - first >= 3
}
