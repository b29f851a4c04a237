//! Whether a summary's term is the rule's value: the same id, path, number
//! or name, written with more or less of it.

use super::*;

/// Whether a unit's term is the rule's value: the same, or for a path the
/// same file named with more or less of its directory.
pub(super) fn same_value(kind: EntityKind, key: &str, u: &frame::Term) -> bool {
    if u.key == key {
        return true;
    }
    // A number as one end of a range ("02:00" in "02:00–04:00").
    if kind.is_numeric()
        && matches!(u.kind, TermKind::Value(_))
        && u.key.split(['–', '—', '~']).any(|part| part == key)
    {
        return true;
    }
    // A flag or name written inside a longer one ("--verbose" in
    // "quiet+--verbose").
    if kind == EntityKind::Identifier
        && key.len() >= 4
        && matches!(u.kind, TermKind::Value(_))
        && (within(&u.key, key) || (u.key.len() >= 4 && within(key, &u.key)))
    {
        return true;
    }
    // A file of the working directory named without its "./" ("hsim" for
    // "./hsim").
    if kind == EntityKind::Path
        && key
            .strip_prefix("./")
            .is_some_and(|k| k == u.key || stem(k) == u.key)
    {
        return true;
    }
    // A site's page named by its last part, written as a word ("Vercel"
    // for "github.com/vercel").
    if kind == EntityKind::Path
        && key.split('/').next().is_some_and(|host| host.contains('.'))
        && matches!(u.kind, TermKind::Word | TermKind::Part)
        && key.rsplit('/').next().is_some_and(|last| {
            last.len() >= 4
                && last.chars().all(char::is_alphabetic)
                && (last == u.key || stem(last) == u.key)
        })
    {
        return true;
    }
    // The same file named with more or less of its directory, or a file
    // inside the rule's directory ("~/.ssh/config" in "~/.ssh").
    kind == EntityKind::Path
        && matches!(u.kind, TermKind::Value(EntityKind::Path))
        && (u.key.ends_with(&alloc::format!("/{key}"))
            || key.ends_with(&alloc::format!("/{}", u.key))
            || (key.len() >= 3 && u.key.starts_with(&alloc::format!("{key}/"))))
}

/// Whether `name` is written inside `longer` as a whole: what stands
/// next to it is no part of a name ("--verbose" in "quiet+--verbose", not
/// "orders" in "orders_archive").
pub(super) fn within(longer: &str, name: &str) -> bool {
    let part = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || matches!(c, '_' | '-'));
    longer.match_indices(name).any(|(i, m)| {
        let before = longer.get(..i).and_then(|b| b.chars().next_back());
        let after = longer.get(i + m.len()..).and_then(|a| a.chars().next());
        !part(before) && !part(after)
    })
}

pub(super) fn same_kind(a: EntityKind, b: TermKind) -> bool {
    match b {
        TermKind::Value(b) => a == b || (a.is_numeric() && b.is_numeric()),
        _ => false,
    }
}

/// Whether a value could stand for another of the rule's: numbers for
/// numbers, look-alike ids, paths that share a directory.
pub(super) fn close(kind: EntityKind, a: &str, b: &str) -> bool {
    match kind {
        // A number for a number of the same shape: "0.1" is not "1".
        EntityKind::Number => {
            a.contains('.') == b.contains('.') && a.contains(':') == b.contains(':')
        }
        EntityKind::Version | EntityKind::Date => true,
        _ => {
            let head = |s: &'_ str| -> String {
                String::from(
                    s.trim_start_matches('-')
                        .split(['-', '_', '/', '.', ':', '='])
                        .next()
                        .unwrap_or(""),
                )
            };
            lookalike(a, b)
                || shared_prefix(a.trim_start_matches('-'), b.trim_start_matches('-')) >= 4
                || (!head(a).is_empty() && head(a) == head(b))
        }
    }
}

/// The runs of digits in a named thing ("minutes=10" holds "10").
pub(super) fn embedded_numbers(key: &str) -> impl Iterator<Item = String> + '_ {
    key.split(|c: char| !c.is_ascii_digit())
        .filter(|d| !d.is_empty() && d.len() <= 6)
        .map(String::from)
}

pub(super) fn shared_prefix(a: &str, b: &str) -> usize {
    a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count()
}

/// A unit and its neighbour read as one.
pub(super) fn merged(a: &Frame, b: &Frame) -> Frame {
    let mut m = a.clone();
    m.terms.extend(b.terms.iter().cloned());
    m.negations += b.negations;
    m.firm += b.firm;
    m.soft += b.soft;
    m.only |= b.only;
    m.except |= b.except;
    m.condition |= b.condition;
    m.approval |= b.approval;
    m.lifted |= b.lifted;
    m.permits |= b.permits;
    m.always |= b.always;
    m.never |= b.never;
    if m.prefer.is_none() {
        m.prefer = b.prefer.clone();
    }
    m.compounds.extend(b.compounds.iter().cloned());
    m.span = Span::new(a.span.start.min(b.span.start), a.span.end.max(b.span.end));
    m
}

/// A name of the rule written as hyphened words, gone, where the unit
/// names another of the same family: the same first word, another after
/// it ("docker-large" → "docker-medium", "ingress-system" →
/// "ingress-nginx").
pub(super) fn changed_compound(rule: &Frame, unit: &Frame) -> Option<(String, String)> {
    let names = || {
        unit.compounds.iter().map(String::as_str).chain(
            unit.values()
                .filter(|t| t.kind == TermKind::Value(EntityKind::Identifier))
                .map(|t| t.key.as_str()),
        )
    };
    rule.compounds.iter().find_map(|c| {
        let (head, tail) = c.split_once('-')?;
        if names().any(|n| n == c) || rule.compounds.iter().filter(|x| *x == c).count() > 1 {
            return None;
        }
        let other = names().find(|n| {
            n.split_once('-')
                .is_some_and(|(h, t)| h == head && t != tail && !c.contains(n))
                && !rule.compounds.iter().any(|x| x == n)
        })?;
        Some((c.clone(), String::from(other)))
    })
}
