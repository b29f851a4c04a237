//! What a source can vouch for: every name and value it mentions, as a
//! sorted set of hashes, so that checking a claim's entities costs a binary
//! search each however large the source.
//!
//! Names are words, identifiers, tickets and paths (with every suffix of a
//! path at a `/`, its components and its file stem, so "lib.rs" and
//! "drift-core" are supported by "crates/drift-core/src/lib.rs"). Values
//! are versions (and their shorter prefixes: "2.3.1" supports "2.3"),
//! numbers, dates, number words ("three") and every run of digits inside
//! any token.

use alloc::vec::Vec;

use super::lexicon;
use super::scan::{self, EntityKind, Token};

const NAME: u8 = 1;
const VALUE: u8 = 2;
const STEM: u8 = 3;

/// The key of a name (a word, identifier, ticket or path).
pub(crate) fn name_key(s: &str) -> u64 {
    key(NAME, s)
}

/// FNV-1a over a class byte and the lowercase bytes of `s`.
pub(crate) fn key(class: u8, s: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in core::iter::once(class).chain(s.bytes().map(|b| b.to_ascii_lowercase())) {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// The key of a stem (see [`lexicon::stem`]).
pub(crate) fn stem_key(stem: &str) -> u64 {
    key(STEM, stem)
}

/// Collects keys; [`SupportBuilder::finish`] sorts them.
#[derive(Debug, Default)]
pub(crate) struct SupportBuilder {
    keys: Vec<u64>,
}

impl SupportBuilder {
    /// Adds every sentence of `text`.
    #[cfg(test)]
    pub(crate) fn add_text(&mut self, text: &str) {
        for sentence in scan::sentences(text) {
            scan::for_each_token(text, sentence.span, |t| self.add_token(&t));
        }
    }

    /// How many keys it holds so far (with repeats).
    pub(crate) fn len(&self) -> usize {
        self.keys.len()
    }

    /// Adds one token.
    pub(crate) fn add_token(&mut self, t: &Token<'_>) {
        match t.entity {
            None => {
                self.keys.push(key(NAME, t.text));
                if let Some(digits) = lexicon::number_word(t.text) {
                    self.keys.push(key(VALUE, digits));
                }
            }
            Some(kind) => self.add_entity(kind, t.text),
        }
    }

    /// Adds a stem (for coverage of words; see [`Bag`]).
    pub(crate) fn add_stem(&mut self, stem: &str) {
        self.keys.push(stem_key(stem));
    }

    fn add_entity(&mut self, kind: EntityKind, text: &str) {
        let canonical = scan::canonical(kind, text);
        match kind {
            EntityKind::Version => {
                self.keys.push(key(VALUE, &canonical));
                let mut rest = canonical.as_str();
                while let Some((head, _)) = rest.rsplit_once(['.', '-', '+']) {
                    self.keys.push(key(VALUE, head));
                    rest = head;
                }
            }
            EntityKind::Number | EntityKind::Date => {
                self.keys.push(key(VALUE, &canonical));
            }
            EntityKind::Ticket => {
                self.keys.push(key(NAME, &canonical));
            }
            EntityKind::Identifier => {
                self.keys.push(key(NAME, &canonical));
                for part in canonical.split([':', '.', '/']).filter(|p| !p.is_empty()) {
                    self.keys.push(key(NAME, part));
                }
            }
            EntityKind::Path => {
                self.keys.push(key(NAME, &canonical));
                let mut rest = canonical.as_str();
                while let Some((_, tail)) = rest.split_once(['/', '\\']) {
                    if !tail.is_empty() {
                        self.keys.push(key(NAME, tail));
                    }
                    rest = tail;
                }
                for part in canonical.split(['/', '\\']).filter(|p| !p.is_empty()) {
                    self.keys.push(key(NAME, part));
                    if let Some((stem, _)) = part.rsplit_once('.')
                        && !stem.is_empty()
                    {
                        self.keys.push(key(NAME, stem));
                    }
                }
            }
        }
        for run in digit_runs(text) {
            self.keys.push(key(VALUE, run));
        }
    }

    /// The finished set.
    pub(crate) fn finish(mut self) -> Support {
        self.keys.sort_unstable();
        self.keys.dedup();
        Support { keys: self.keys }
    }

    /// Sorts the keys for every prefix of a sequence of messages: `marks`
    /// holds, in order, how many keys had been added when each message
    /// began, and that message's index.
    pub(crate) fn finish_by_message(self, marks: &[(usize, usize)]) -> PrefixSupport {
        let mut keys: Vec<(u64, usize)> = Vec::with_capacity(self.keys.len());
        let mut next = marks.iter().peekable();
        let mut message = 0;
        for (i, k) in self.keys.into_iter().enumerate() {
            while let Some(&&(from, m)) = next.peek() {
                if from > i {
                    break;
                }
                message = m;
                next.next();
            }
            keys.push((k, message));
        }
        // Sorted by key, then message: the first of each key is where it
        // was first said.
        keys.sort_unstable();
        keys.dedup_by_key(|(k, _)| *k);
        PrefixSupport { keys }
    }
}

/// Runs of ASCII digits, without leading zeros ("db-prod-01" gives "1").
fn digit_runs(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|r| !r.is_empty())
        .map(|r| {
            let t = r.trim_start_matches('0');
            if t.is_empty() { "0" } else { t }
        })
}

/// A sealed set of keys.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Support {
    keys: Vec<u64>,
}

/// What every prefix of a sequence of messages can vouch for: each key
/// with the first message that has it.
#[derive(Clone, Debug, Default)]
pub(crate) struct PrefixSupport {
    keys: Vec<(u64, usize)>,
}

impl PrefixSupport {
    fn has(&self, k: u64, messages: usize) -> bool {
        let i = self.keys.partition_point(|(key, _)| *key < k);
        self.keys
            .get(i)
            .is_some_and(|(key, m)| *key == k && *m < messages)
    }

    /// Whether the messages before `messages` mention the entity (see
    /// [`Support::supports`]).
    pub(crate) fn supports(&self, kind: EntityKind, text: &str, messages: usize) -> bool {
        let canonical = scan::canonical(kind, text);
        if kind.is_numeric() {
            self.has(key(VALUE, &canonical), messages)
        } else {
            self.has(key(NAME, &canonical), messages)
        }
    }
}

impl Support {
    /// Everything `text` mentions.
    #[cfg(test)]
    pub(crate) fn of(text: &str) -> Support {
        let mut b = SupportBuilder::default();
        b.add_text(text);
        b.finish()
    }

    fn has(&self, k: u64) -> bool {
        self.keys.binary_search(&k).is_ok()
    }

    /// Whether it mentions nothing.
    pub(crate) fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// Whether the source mentions the entity `text` of `kind`.
    pub(crate) fn supports(&self, kind: EntityKind, text: &str) -> bool {
        let canonical = scan::canonical(kind, text);
        if kind.is_numeric() {
            self.has(key(VALUE, &canonical))
        } else {
            self.has(key(NAME, &canonical))
        }
    }

    /// Whether the source has the stem.
    pub(crate) fn has_stem(&self, stem: &str) -> bool {
        self.has(stem_key(stem))
    }
}

/// The content of a short text (an AFTER sentence, a claim): its stems and
/// everything it mentions.
#[derive(Clone, Debug, Default)]
pub(crate) struct Bag {
    pub(crate) support: Support,
}

impl Bag {
    /// The bag of the tokens.
    pub(crate) fn of_tokens<'t, 'a: 't>(tokens: impl IntoIterator<Item = &'t Token<'a>>) -> Bag {
        let mut b = SupportBuilder::default();
        for t in tokens {
            b.add_token(t);
            if t.entity.is_none() {
                b.add_stem(&lexicon::stem(t.text));
            }
        }
        Bag {
            support: b.finish(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_support_their_suffixes_and_parts() {
        let s = Support::of("See crates/drift-core/src/lib.rs and `drift_core::audit`.");
        for (kind, text) in [
            (EntityKind::Path, "crates/drift-core/src/lib.rs"),
            (EntityKind::Path, "src/lib.rs"),
            (EntityKind::Path, "lib.rs"),
            (EntityKind::Identifier, "drift-core"),
            (EntityKind::Identifier, "drift_core"),
            (EntityKind::Identifier, "audit"),
        ] {
            assert!(s.supports(kind, text), "{text}");
        }
        assert!(!s.supports(EntityKind::Path, "core/src/main.rs"));
        assert!(!s.supports(EntityKind::Path, "other/src/lib.rs"));
    }

    #[test]
    fn values_match_in_canonical_form() {
        let s = Support::of("We keep libfoo v2.3.1, 13,000 tokens, three retries, db-prod-01.");
        for (kind, text) in [
            (EntityKind::Version, "2.3.1"),
            (EntityKind::Number, "2.3"),
            (EntityKind::Number, "13k"),
            (EntityKind::Number, "13000"),
            (EntityKind::Number, "3"),
            (EntityKind::Number, "01"),
        ] {
            assert!(s.supports(kind, text), "{text}");
        }
        assert!(!s.supports(EntityKind::Version, "2.4.0"));
        assert!(!s.supports(EntityKind::Number, "14000"));
    }

    #[test]
    fn names_are_case_insensitive() {
        let s = Support::of("Tickets t-14 and Payments-API.");
        assert!(s.supports(EntityKind::Ticket, "T-14"));
        assert!(s.supports(EntityKind::Identifier, "payments-api"));
        assert!(!s.supports(EntityKind::Ticket, "T-41"));
    }
}
