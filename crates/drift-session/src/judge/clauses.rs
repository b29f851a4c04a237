//! A rule read as clauses for the judge: what it says and why, each clause
//! a frame, lead-ins and imperatives recognised.

use super::*;

/// A rule as clauses: what it says and why.
#[derive(Clone, Debug)]
pub(super) struct RuleClauses {
    /// Every clause, and whether it is operative (a reason is not).
    pub(super) clauses: Vec<(Frame, bool)>,
    /// All of it, as one frame.
    pub(super) whole: Frame,
}

/// Cuts a rule into clauses (sentences, `;`, dashes, commas before a new
/// clause) and tells the operative ones from the reasons.
pub(super) fn rule_clauses(text: &str) -> RuleClauses {
    let mut spans: Vec<Span> = Vec::new();
    let mut start = 0;
    let bytes = text.as_bytes();
    let mut i = 0;
    let cut = |spans: &mut Vec<Span>, a: usize, b: usize| {
        if text.get(a..b).is_some_and(|s| !s.trim().is_empty()) {
            spans.push(Span::new(a, b));
        }
    };
    while i < bytes.len() {
        let rest = &text[i..];
        let len = rest.chars().next().map_or(1, char::len_utf8);
        let ends = match rest.chars().next() {
            Some(';' | '。' | '；' | '！' | '？') => true,
            // A dash between two digits is a range ("640–1024px").
            Some('—' | '–') => {
                !(text[..i].ends_with(|c: char| c.is_ascii_digit())
                    && rest[len..].starts_with(|c: char| c.is_ascii_digit()))
            }
            Some('.' | '!' | '?') => rest[1..].starts_with(' ') || rest.len() == 1,
            Some(',') if lead_in(&text[start..i]) => true,
            Some(',') => {
                let next = rest[1..]
                    .trim_start()
                    .split(|c: char| !c.is_alphanumeric() && c != '\'')
                    .next()
                    .unwrap_or("");
                tables::REASONS.contains(&next.to_lowercase().replace('\'', "").as_str())
            }
            Some(' ') => rest.starts_with(" - "),
            _ => false,
        };
        if ends {
            cut(&mut spans, start, i);
            start = i + len;
        }
        i += len;
    }
    cut(&mut spans, start, text.len());
    let mut clauses: Vec<(Frame, bool)> = Vec::new();
    let n = spans.len();
    let mut after_question = false;
    let mut asked_at: Vec<usize> = Vec::new();
    for (k, span) in spans.into_iter().enumerate() {
        let f = frame(text, span);
        let first_word = span
            .of(text)
            .trim()
            .split(|c: char| !c.is_alphanumeric() && c != '\'')
            .next()
            .unwrap_or("")
            .to_lowercase()
            .replace('\'', "");
        let cued = f.negations + f.firm + f.soft > 0 || f.only || f.permits;
        let latin = !span
            .of(text)
            .chars()
            .any(crate::rules::model::features::is_unspaced);
        // A question answered after it ("Where should it live? → at the
        // repo root"): the answer is the rule, the question its context.
        let asked = k + 1 < n
            && text
                .get(span.end..)
                .is_some_and(|r| r.starts_with(['?', '？']));
        if asked {
            asked_at.push(k);
        }
        let answer = core::mem::replace(&mut after_question, asked);
        let reason = asked
            || !answer
                && (k > 0 || lead_in(span.of(text)))
                && latin
                && (tables::REASONS.contains(&first_word.as_str())
                    || !cued && !imperative(&first_word));
        clauses.push((f, !reason));
    }
    // A question answered with no words of its own ("… first? yes") is
    // the rule, agreed to.
    for k in 1..clauses.len() {
        if clauses.get(k).is_some_and(|(f, _)| f.terms.is_empty())
            && let Some(q) = clauses.get_mut(k - 1)
            && asked_at.contains(&(k - 1))
        {
            q.1 = true;
        }
    }
    if clauses.iter().all(|(_, op)| !op) {
        for c in &mut clauses {
            c.1 = true;
        }
    }
    let mut whole = frame(text, Span::new(0, 0));
    whole.span = Span::new(0, text.len());
    for (f, operative) in &clauses {
        let scale = if *operative { 1.0 } else { REASON_WEIGHT };
        let mut m = f.clone();
        for t in &mut m.terms {
            t.scale *= scale;
        }
        whole = merged(&whole, &m);
        whole.span = Span::new(0, text.len());
    }
    // Force and markers come from the operative clauses only.
    let ops: Vec<&Frame> = clauses.iter().filter(|(_, o)| *o).map(|(f, _)| f).collect();
    whole.negations = ops.iter().map(|f| f.negations).sum();
    whole.firm = ops.iter().map(|f| f.firm).sum();
    whole.soft = ops.iter().map(|f| f.soft).sum();
    whole.only = ops.iter().any(|f| f.only);
    whole.except = ops.iter().any(|f| f.except);
    whole.approval = ops.iter().any(|f| f.approval);
    whole.condition = ops.iter().any(|f| f.condition);
    whole.permits = ops.iter().any(|f| f.permits);
    whole.prefer = ops.iter().find_map(|f| f.prefer.clone());
    RuleClauses { clauses, whole }
}

/// A few words before a comma that only lead into the rule ("Right, my
/// mistake, don't drop anything", "Also, …").
pub(super) fn lead_in(part: &str) -> bool {
    let words: Vec<String> = part
        .split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty())
        .map(|w| w.to_lowercase().replace('\'', ""))
        .collect();
    !words.is_empty() && words.len() <= 3 && words.iter().all(|w| LEAD_INS.contains(&w.as_str()))
}

/// Words a lead-in is made of.
pub(super) const LEAD_INS: &[&str] = &[
    "right",
    "ok",
    "okay",
    "my",
    "mistake",
    "sorry",
    "oops",
    "also",
    "and",
    "but",
    "actually",
    "wait",
    "no",
    "yes",
    "well",
    "so",
    "oh",
    "hmm",
    "btw",
    "anyway",
    "again",
    "please",
    "note",
    "fyi",
    "correction",
    "update",
    "hey",
    "alright",
    "sure",
    "fine",
    "good",
    "great",
    "thanks",
];

/// A verb that opens an instruction.
pub(super) fn imperative(w: &str) -> bool {
    crate::rules::verbs::opens_instruction(w)
}
