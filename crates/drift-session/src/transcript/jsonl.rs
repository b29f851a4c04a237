//! A JSON-lines file read line by line, each non-blank line parsed, and a
//! last line cut off while the log was being written told apart from a
//! broken one.

use serde_json::Value;

/// One non-blank line of a JSON-lines file, by its 1-based number.
pub(crate) enum JsonLine {
    /// The line parsed.
    Value(usize, Value),
    /// The line is not JSON.
    Broken {
        /// Its number.
        number: usize,
        /// Why.
        error: serde_json::Error,
        /// It is the last line, without a newline after it, and ends
        /// mid-record: the log is still being written.
        cut_off: bool,
    },
}

/// The lines of a JSON-lines file, each parsed; blank lines and a
/// byte-order mark are passed over.
pub(crate) struct JsonLines<'a> {
    lines: core::iter::Peekable<core::iter::Enumerate<core::str::Lines<'a>>>,
    ends_in_newline: bool,
}

impl<'a> JsonLines<'a> {
    /// The lines of `text`.
    pub(crate) fn new(text: &'a str) -> JsonLines<'a> {
        JsonLines {
            lines: text.lines().enumerate().peekable(),
            ends_in_newline: text.ends_with('\n'),
        }
    }

    /// Whether the next non-blank line is a JSON object.
    pub(crate) fn next_is_record(&self) -> bool {
        self.lines
            .clone()
            .map(|(_, l)| l.trim())
            .find(|l| !l.is_empty())
            .is_some_and(|l| {
                l.starts_with('{') && serde_json::from_str::<Value>(l).is_ok_and(|v| v.is_object())
            })
    }
}

impl Iterator for JsonLines<'_> {
    type Item = JsonLine;

    fn next(&mut self) -> Option<JsonLine> {
        loop {
            let (i, line) = self.lines.next()?;
            let number = i + 1;
            let line = line.trim_start_matches('\u{FEFF}').trim();
            if line.is_empty() {
                continue;
            }
            return Some(match serde_json::from_str(line) {
                Ok(v) => JsonLine::Value(number, v),
                Err(error) => JsonLine::Broken {
                    number,
                    cut_off: self.lines.peek().is_none() && !self.ends_in_newline && error.is_eof(),
                    error,
                },
            });
        }
    }
}
