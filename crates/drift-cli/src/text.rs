//! The wording the reports share: counts with their noun, quoted text on
//! one line, lines of a text, and sections under a heading with their count.

use std::fmt::Write as _;

/// `n` and the noun: `one` for 1, else `many` ("1 rule", "3 rules").
pub fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

/// 1-based line of a byte offset.
pub fn line_of(text: &str, offset: usize) -> usize {
    text.get(..offset)
        .map_or(1, |head| head.matches('\n').count() + 1)
}

/// One line of quoted text, at most `width` characters.
pub fn quote(text: &str, width: usize) -> String {
    let flat: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if flat.chars().count() <= width {
        format!("\"{flat}\"")
    } else {
        let cut: String = flat.chars().take(width.saturating_sub(1)).collect();
        format!("\"{cut}…\"")
    }
}

/// A section's heading after a blank line: `title`, how many (`n`) and, if
/// given, out of how many.
pub fn heading(out: &mut String, title: &str, n: usize, of: Option<usize>) {
    let _ = match of {
        Some(of) => writeln!(out, "\n{title}: {n} of {of}"),
        None => writeln!(out, "\n{title}: {n}"),
    };
}

/// A section listing `items` under a heading with their count, if there
/// are any (nothing if there are none). Returns `items`, for the caller to
/// list.
pub fn section<'a, T>(out: &mut String, title: &str, items: &'a [T]) -> &'a [T] {
    if !items.is_empty() {
        heading(out, title, items.len(), None);
    }
    items
}
