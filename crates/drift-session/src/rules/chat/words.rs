//! A clause as words: each lowercased, with where it is, for the finder's
//! cue matching.

use super::*;

/// A word of a clause.
#[derive(Clone, Copy, Debug)]
pub(super) struct Word {
    /// Lower-cased text, apostrophes dropped (in [`Words::buf`]).
    pub(super) at: usize,
    pub(super) len: usize,
    /// A named thing: a path, a file, code, an identifier, a number, a
    /// proper noun.
    pub(super) named: bool,
}

/// A clause's words.
pub(super) struct Words {
    pub(super) buf: alloc::string::String,
    pub(super) words: Vec<Word>,
}

impl Words {
    pub(super) fn of(clause: &str) -> Words {
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

    pub(super) fn len(&self) -> usize {
        self.words.len()
    }

    pub(super) fn text(&self, i: usize) -> &str {
        self.words
            .get(i)
            .map_or("", |w| &self.buf[w.at..w.at + w.len])
    }

    pub(super) fn named(&self, i: usize) -> bool {
        self.words.get(i).is_some_and(|w| w.named)
    }

    /// Whether the cue's words start at `i` (`#` a named thing, `*` any word).
    pub(super) fn matches_at(&self, i: usize, cue: &str) -> bool {
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
    pub(super) fn find(&self, cue: &str, from: usize) -> Option<usize> {
        (from..self.len()).find(|&i| self.matches_at(i, cue))
    }
}
