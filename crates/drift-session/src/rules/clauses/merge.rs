//! A table row or a labelled list read as one rule, and the pieces of a
//! sentence joined back: what a label ("Exceptions:") does to the rule
//! before it, and where a table's separator row follows.

use super::*;

/// Whether the line right after `at` (the end of a table row, in a file or
/// in a JSON string) is a separator row (`|---|:--|`). Reads only that
/// line's separator bytes, so each line is read once.
pub(super) fn separator_follows(text: &str, at: usize) -> bool {
    let b = text.as_bytes();
    let mut i = at;
    while matches!(b.get(i), Some(b' ' | b'\t' | b'\r')) {
        i += 1;
    }
    match (b.get(i), b.get(i + 1)) {
        (Some(b'\n'), _) => i += 1,
        (Some(b'\\'), Some(b'n')) => i += 2,
        _ => return false,
    }
    while matches!(b.get(i), Some(b' ' | b'\t')) {
        i += 1;
    }
    if b.get(i) != Some(&b'|') {
        return false;
    }
    let mut dash = false;
    while let Some(&c) = b.get(i) {
        match c {
            b'-' => dash = true,
            b'|' | b':' | b' ' | b'\t' => {}
            b'\r' | b'\n' | b'\\' | b'"' => break,
            _ => return false,
        }
        i += 1;
    }
    dash
}

/// Labels before a colon that make the rule after them an exception.
pub(super) const EXCEPTION_LABELS: &[&str] =
    &["except", "exception", "exceptions", "exempt", "exemption"];

/// What a short label opening a sentence before a colon does to the rule
/// after it: `Some(true)` when it makes the rule an exception ("Except:
/// config changes may ship"), `Some(false)` when it names the resource the
/// rule is about, so the rule's text keeps it ("payments-api: change
/// freeze in effect"), `None` for any other opening ("Note:", "Summary:").
pub(super) fn label(text: &str, piece: &Piece) -> Option<bool> {
    let words = piece.span.of(text).trim().trim_end_matches(':');
    let reading = &piece.reading;
    if reading.rule.is_some() || reading.imperative.is_some() || reading.head || reading.plan {
        return None;
    }
    if exception_label(words) {
        return Some(true);
    }
    if words.is_empty() || words.split_whitespace().count() > 3 {
        return None;
    }
    let resource = words
        .trim_matches('`')
        .bytes()
        .any(|b| b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'/' | b'.'));
    resource.then_some(false)
}

/// "Except", "Exception", and a named one: "One exception to the
/// freeze", "The only exemption from this".
pub(super) fn exception_label(words: &str) -> bool {
    let mut w = words.split_whitespace().map(str::to_ascii_lowercase);
    let mut first = w.next();
    if first
        .as_deref()
        .is_some_and(|f| matches!(f, "one" | "an" | "the" | "only" | "another" | "a"))
    {
        first = w.next();
        if first.as_deref() == Some("only") {
            first = w.next();
        }
    }
    let Some(label) = first else {
        return false;
    };
    if !EXCEPTION_LABELS.contains(&label.as_str()) {
        return false;
    }
    let rest: alloc::vec::Vec<alloc::string::String> = w.collect();
    rest.is_empty()
        || (rest.len() <= 4
            && rest
                .first()
                .is_some_and(|p| matches!(p.as_str(), "to" | "for" | "from" | "of")))
}

/// Puts a sentence's clauses back together and keeps the rules.
pub(super) fn merge(text: &str, pieces: &[Piece], outs: &mut Vec<Out>) {
    let base = outs.len();
    let any_rule = pieces.iter().any(|p| p.reading.rule.is_some());
    for (k, p) in pieces.iter().enumerate() {
        let prev = k.checked_sub(1).and_then(|j| pieces.get(j));
        let last_is_prev = outs.len() > base && outs.last().is_some_and(|o| o.piece + 1 == k);
        // A head takes the clause after its colon or dash.
        if last_is_prev
            && matches!(p.joint, Joint::Colon | Joint::Dash)
            && let Some(last) = outs.last_mut()
            && last.head
        {
            last.span.end = p.span.end;
            last.head = false;
            last.piece = k;
            continue;
        }
        if p.joint == Joint::Not {
            if last_is_prev && outs.last().is_some_and(|o| o.only_scope) {
                outs.push(Out::bare(p.span, RuleForm::Scope, "not", k));
                continue;
            }
            if last_is_prev && let Some(last) = outs.last_mut() {
                last.span.end = p.span.end;
                last.piece = k;
                continue;
            }
        }
        match p.reading.rule {
            Some((form, cue)) => {
                let restates = p.reading.anaphor
                    && matches!(p.joint, Joint::Semicolon | Joint::Dash | Joint::Comma)
                    && prev.is_some_and(|q| q.reading.imperative.is_none() && !q.reading.plan);
                if restates && let Some(q) = prev {
                    if last_is_prev && let Some(last) = outs.last_mut() {
                        last.span.end = p.span.end;
                        last.piece = k;
                    } else {
                        outs.push(Out::bare(Span::new(q.span.start, p.span.end), form, cue, k));
                    }
                    continue;
                }
                // A label opening the sentence stays with its rule.
                let (mut span, mut form, mut cue) = (p.span, form, cue);
                if k == 1
                    && p.joint == Joint::Colon
                    && let Some(q) = prev
                    && let Some(exception) = label(text, q)
                {
                    span.start = q.span.start;
                    if exception {
                        (form, cue) = (RuleForm::CarveOut, "except");
                    }
                }
                outs.push(Out {
                    span,
                    form,
                    cue,
                    head: p.reading.head,
                    only_scope: p.reading.only_scope,
                    piece: k,
                });
            }
            None => {
                // "One exception to the freeze: hotfix PR #4471 can still
                // ship": whatever follows an exception's label is one.
                if k == 1
                    && p.joint == Joint::Colon
                    && !p.reading.plan
                    && prev.is_some_and(|q| label(text, q) == Some(true))
                    && let Some(q) = prev
                {
                    outs.push(Out {
                        span: Span::new(q.span.start, p.span.end),
                        form: RuleForm::CarveOut,
                        cue: "except",
                        head: false,
                        only_scope: false,
                        piece: k,
                    });
                    continue;
                }
                let Some(verb) = p.reading.imperative else {
                    continue;
                };
                if p.reading.plan || !any_rule {
                    continue;
                }
                let sibling = |q: Option<&Piece>, joint: Joint| {
                    q.is_some_and(|q| q.reading.rule.is_some() && q.reading.directive)
                        && matches!(
                            joint,
                            Joint::Semicolon | Joint::Comma | Joint::And | Joint::Dash
                        )
                };
                let next = pieces.get(k + 1);
                if sibling(prev, p.joint) || next.is_some_and(|n| sibling(Some(n), n.joint)) {
                    outs.push(Out::bare(p.span, RuleForm::Obligation, verb, k));
                }
            }
        }
    }
}
