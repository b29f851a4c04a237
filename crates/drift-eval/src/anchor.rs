//! Anchors: where a label points in a log, without a word of the log.
//!
//! `L<line>:<start>-<end>#<check>` is the byte range `start..end` of the
//! raw JSON line `line` (1-based), inside one JSON string literal, and the
//! FNV-1a 32 checksum (hex) of the text it decodes to. Decoding a range
//! undoes the string's escapes; the checksum says whether the log is the
//! one the label was made on.

use alloc::string::{String, ToString};
use alloc::vec::Vec;

use core::fmt;

/// FNV-1a, 64 bits, over `bytes`: a log's name in the labels.
pub fn fnv64(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// FNV-1a, 32 bits, over `text`'s UTF-8 bytes: an anchor's checksum.
pub fn fnv32(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.as_bytes() {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

/// A place in a log's raw lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anchor {
    /// 1-based line.
    pub line: usize,
    /// Byte range in the raw line.
    pub start: usize,
    pub end: usize,
    /// FNV-1a 32 of the decoded text.
    pub check: u32,
}

/// Why an anchor does not point at text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnchorError {
    /// Not of the form `L<line>:<start>-<end>#<check>`.
    Syntax(String),
    /// The log has no such line, or the range does not fit it.
    OutOfRange(Anchor),
    /// The range is not the inside of a JSON string.
    NotText(Anchor),
    /// The decoded text's checksum differs: another log, or another version.
    Checksum { anchor: Anchor, found: u32 },
}

impl fmt::Display for AnchorError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnchorError::Syntax(s) => {
                write!(f, "{s:?} is not an anchor (L<line>:<start>-<end>#<check>)")
            }
            AnchorError::OutOfRange(a) => write!(f, "{a} is outside its line"),
            AnchorError::NotText(a) => write!(f, "{a} is not inside a JSON string"),
            AnchorError::Checksum { anchor, found } => {
                write!(f, "{anchor} decodes to text with checksum {found:08x}")
            }
        }
    }
}

impl fmt::Display for Anchor {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "L{}:{}-{}#{:08x}",
            self.line, self.start, self.end, self.check
        )
    }
}

impl Anchor {
    /// Parses `L12:30-80#1a2b3c4d`.
    ///
    /// # Errors
    ///
    /// [`AnchorError::Syntax`] for anything else.
    pub fn parse(s: &str) -> Result<Anchor, AnchorError> {
        let bad = || AnchorError::Syntax(s.to_string());
        let rest = s.strip_prefix('L').ok_or_else(bad)?;
        let (line, rest) = rest.split_once(':').ok_or_else(bad)?;
        let (range, check) = rest.split_once('#').ok_or_else(bad)?;
        let (start, end) = range.split_once('-').ok_or_else(bad)?;
        let anchor = Anchor {
            line: line.parse().map_err(|_| bad())?,
            start: start.parse().map_err(|_| bad())?,
            end: end.parse().map_err(|_| bad())?,
            check: u32::from_str_radix(check, 16).map_err(|_| bad())?,
        };
        if anchor.start > anchor.end || anchor.line == 0 {
            return Err(bad());
        }
        Ok(anchor)
    }

    /// The text this anchor points at in `lines` (the log's raw lines).
    ///
    /// # Errors
    ///
    /// An [`AnchorError`] when the range does not fit, is not inside a JSON
    /// string, or decodes to text of another checksum.
    pub fn decode(self, lines: &[&[u8]]) -> Result<String, AnchorError> {
        let raw = lines
            .get(self.line - 1)
            .and_then(|l| l.get(self.start..self.end))
            .ok_or(AnchorError::OutOfRange(self))?;
        let text = unescape(raw).ok_or(AnchorError::NotText(self))?;
        let found = fnv32(&text);
        if found != self.check {
            return Err(AnchorError::Checksum {
                anchor: self,
                found,
            });
        }
        Ok(text)
    }
}

/// The text of the inside of a JSON string literal (no quotes around it).
fn unescape(raw: &[u8]) -> Option<String> {
    let mut out: Vec<u8> = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        match raw[i] {
            b'"' => return None,
            b'\\' => {
                let e = *raw.get(i + 1)?;
                match e {
                    b'n' => out.push(b'\n'),
                    b't' => out.push(b'\t'),
                    b'r' => out.push(b'\r'),
                    b'b' => out.push(8),
                    b'f' => out.push(12),
                    b'/' | b'\\' | b'"' => out.push(e),
                    b'u' => {
                        let hex = |at: usize| {
                            core::str::from_utf8(raw.get(at..at + 4)?)
                                .ok()
                                .and_then(|h| u32::from_str_radix(h, 16).ok())
                        };
                        let mut cp = hex(i + 2)?;
                        let mut len = 6;
                        if (0xD800..0xDC00).contains(&cp) && raw.get(i + 6..i + 8) == Some(b"\\u") {
                            let low = hex(i + 8)?;
                            cp = 0x10000
                                + ((cp - 0xD800) << 10)
                                + (low.wrapping_sub(0xDC00) & 0x3FF);
                            len = 12;
                        }
                        let c = char::from_u32(cp).unwrap_or('\u{FFFD}');
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        i += len;
                        continue;
                    }
                    _ => return None,
                }
                i += 2;
            }
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn an_anchor_decodes_escapes_and_checks_its_text() {
        let line = br#"{"content":"only print\nfunction, \u00e9t\u00e9 \ud83d\ude00 \"q\""}"#;
        let lines: Vec<&[u8]> = vec![line];
        let start = 12;
        let end = line.len() - 2;
        let text = "only print\nfunction, été 😀 \"q\"";
        let a = Anchor {
            line: 1,
            start,
            end,
            check: fnv32(text),
        };
        assert_eq!(a.decode(&lines), Ok(text.to_string()));
        assert_eq!(Anchor::parse(&a.to_string()), Ok(a));
        let wrong = Anchor { check: 1, ..a };
        assert!(matches!(
            wrong.decode(&lines),
            Err(AnchorError::Checksum { .. })
        ));
        let outside = Anchor { start: 0, ..a };
        assert!(matches!(
            outside.decode(&lines),
            Err(AnchorError::NotText(_))
        ));
        assert!(matches!(
            Anchor { line: 2, ..a }.decode(&lines),
            Err(AnchorError::OutOfRange(_))
        ));
        assert!(Anchor::parse("L1:5-3#00").is_err());
        assert!(Anchor::parse("12:3-4#00").is_err());
    }

    #[test]
    fn fnv_matches_the_reference_values() {
        assert_eq!(fnv64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv32("a"), 0xe40c_292c);
    }
}
