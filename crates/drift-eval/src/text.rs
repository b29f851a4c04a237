//! How a label's text is matched to what the tool reported: by the words
//! they share, so that a rule found with a little more or less context
//! around it still counts as the same rule.

use alloc::string::{String, ToString};

use alloc::collections::BTreeSet;

/// Whether `c` is written without spaces between words (CJK scripts).
fn unspaced(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF   // Hiragana, Katakana
        | 0x3400..=0x4DBF // CJK Extension A
        | 0x4E00..=0x9FFF // CJK Unified Ideographs
        | 0xAC00..=0xD7AF // Hangul
        | 0xF900..=0xFAFF)
}

/// The text's words, lower-cased; in scripts without spaces, each pair of
/// neighbouring characters is a word.
pub fn words(text: &str) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let mut word = String::new();
    let mut previous: Option<char> = None;
    for c in text.chars() {
        if unspaced(c) {
            if !word.is_empty() {
                out.insert(core::mem::take(&mut word));
            }
            if let Some(p) = previous.filter(|p| unspaced(*p)) {
                out.insert([p, c].iter().collect());
            } else {
                out.insert(c.to_string());
            }
            previous = Some(c);
            continue;
        }
        previous = None;
        if c.is_alphanumeric() {
            word.extend(c.to_lowercase());
        } else if !word.is_empty() {
            out.insert(core::mem::take(&mut word));
        }
    }
    if !word.is_empty() {
        out.insert(word);
    }
    out
}

/// How much of the shorter text the longer one holds: the share of the
/// smaller word set found in the other (0 when either is empty).
pub fn overlap(a: &BTreeSet<String>, b: &BTreeSet<String>) -> f64 {
    let small = a.len().min(b.len());
    if small == 0 {
        return 0.0;
    }
    a.intersection(b).count() as f64 / small as f64
}

/// Two texts name the same rule when this share of the shorter is in the
/// longer.
pub const SAME: f64 = 0.5;

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    #[test]
    fn words_and_overlap() {
        let a = words("Never force-push to main.");
        assert_eq!(
            a.iter().map(String::as_str).collect::<Vec<_>>(),
            ["force", "main", "never", "push", "to"]
        );
        let b = words("The user said: never force-push to main; use PRs.");
        assert!((overlap(&a, &b) - 1.0).abs() < 1e-9);
        let zh = words("主要修改claude v1");
        assert!(zh.contains("主要") && zh.contains("修改") && zh.contains("claude"));
        assert_eq!(overlap(&a, &words("")), 0.0);
    }
}
