//! Binding drift: identifiers a summary re-attributes.
//!
//! "T-14 is the login bug, T-41 the export timeout" summarised as "Fixed
//! T-41 (the login bug) … next is T-14, the export timeout" keeps both ids
//! and swaps what they mean. Each id is described by the clauses that name
//! it and no other id (a sentence is cut at commas, semicolons, colons,
//! dashes and parentheses): the words of those clauses, in BEFORE and in
//! AFTER. Ids are tickets, identifiers with digits (`db-prod-01`,
//! `billing-node-3`) and versions.
//!
//! - Two ids both in AFTER are **swapped** when each one's AFTER words share
//!   more with the other's BEFORE words than with its own, by at least two
//!   words each.
//! - An id BEFORE describes and AFTER drops is **merged** into another when
//!   that other's AFTER words carry at least half of the dropped one's
//!   BEFORE words, and more of them than of its own. (Look-alike ids, `T-41`
//!   for `T-14`, are also found by the audit's look-alike check.)

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{ChangedId, IdChange, MessageField, Place};
use crate::entail::lexicon;
use crate::entail::scan::{self, EntityKind, Span, Token};
use crate::entail::support::{name_key, stem_key};

/// One id and the words that describe it.
struct Described {
    /// As first written.
    text: String,
    /// Its first place.
    place: Place,
    /// The key of each word's stem with the message it was said in (every
    /// statement, until [`Descriptions::finish`] keeps the first).
    words: Vec<(u64, usize)>,
}

/// What a text says about each id, message by message.
#[derive(Default)]
pub(crate) struct Descriptions {
    /// By the key of the id's lowercase form.
    ids: BTreeMap<u64, Described>,
}

pub(crate) fn is_id(t: &Token<'_>) -> bool {
    match t.entity {
        Some(EntityKind::Ticket | EntityKind::Version) => true,
        Some(EntityKind::Identifier) => t.text.bytes().any(|b| b.is_ascii_digit()),
        _ => false,
    }
}

/// The key of a word that can describe an id, if it is one (no entity, no
/// function or cue word, longer than two letters).
pub(crate) fn describing(t: &Token<'_>) -> bool {
    if t.entity.is_some() || t.text.len() <= 2 {
        return false;
    }
    // No function or cue word is longer than this: lowercase the others
    // on the stack.
    let mut buf = [0u8; 12];
    let Some(lower) = buf.get_mut(..t.text.len()) else {
        return true;
    };
    lower.copy_from_slice(t.text.as_bytes());
    lower.make_ascii_lowercase();
    let Ok(lower) = core::str::from_utf8(lower) else {
        return true;
    };
    !lexicon::is_stopword(lower) && !lexicon::is_cue_word(lower)
}

impl Descriptions {
    /// Adds what one sentence says about its ids: `text` is the text its
    /// tokens' spans are relative to, `stems` the stem key of each token
    /// that [`describing`] keeps (any value for the others), `place` makes a
    /// place of a span.
    pub(crate) fn read_sentence(
        &mut self,
        text: &str,
        tokens: &[Token<'_>],
        stems: &[Option<u64>],
        message: usize,
        place: impl Fn(Span) -> Place,
    ) {
        let ids: Vec<usize> = (0..tokens.len())
            .filter(|&i| tokens.get(i).is_some_and(is_id))
            .collect();
        if ids.is_empty() {
            return;
        }
        // An id in parentheses labels the words before it: "the login
        // bug (T-14)".
        let trailing = |i: usize| {
            tokens.get(i).is_some_and(|t| {
                text.get(..t.span.start)
                    .is_some_and(|before| before.trim_end().ends_with(['(', '[']))
            })
        };
        for &i in &ids {
            let Some(t) = tokens.get(i) else { continue };
            self.ids
                .entry(name_key(t.text))
                .or_insert_with(|| Described {
                    text: t.text.to_string(),
                    place: place(t.span),
                    words: Vec::new(),
                });
        }
        // Each word with the id that owns it; then one look-up per id.
        let mut words: Vec<(usize, u64)> = Vec::new();
        for (i, stem) in stems.iter().enumerate() {
            let Some(stem) = stem else { continue };
            let prev = ids.iter().rev().find(|&&j| j < i).copied();
            let next = ids.iter().find(|&&j| j > i).copied();
            let owner = match (prev, next) {
                (_, Some(n)) if trailing(n) => n,
                (Some(p), _) => p,
                (None, Some(n)) => n,
                (None, None) => continue,
            };
            words.push((owner, *stem));
        }
        words.sort_unstable_by_key(|(owner, _)| *owner);
        for group in words.chunk_by(|a, b| a.0 == b.0) {
            let Some(owner) = group.first().and_then(|(o, _)| tokens.get(*o)) else {
                continue;
            };
            if let Some(entry) = self.ids.get_mut(&name_key(owner.text)) {
                entry.words.extend(group.iter().map(|(_, w)| (*w, message)));
            }
        }
    }

    /// Adds what `text` says about its ids (message 0).
    fn read(&mut self, text: &str) {
        for sentence in scan::sentences(text) {
            if sentence.code {
                continue;
            }
            let tokens = scan::tokens(text, sentence.span);
            let stems: Vec<Option<u64>> = tokens
                .iter()
                .map(|t| describing(t).then(|| stem_key(&lexicon::stem(t.text))))
                .collect();
            self.read_sentence(text, &tokens, &stems, 0, |span| Place {
                message: 0,
                field: MessageField::Text,
                span,
            });
        }
    }

    /// Keeps each id's words once, with the first message that said them.
    pub(crate) fn finish(&mut self) {
        for d in self.ids.values_mut() {
            d.words.sort_unstable();
            d.words.dedup_by_key(|(w, _)| *w);
        }
    }

    /// The id with this key if it was first mentioned before message
    /// `upto`, with the words said about it before then.
    fn get(&self, key: u64, upto: usize) -> Option<(&str, Place, Vec<u64>)> {
        self.ids
            .get(&key)
            .filter(|d| d.place.message < upto)
            .map(|d| (d.text.as_str(), d.place, d.words_upto(upto).collect()))
    }
}

impl Described {
    /// The words said about it before message `upto`, sorted.
    fn words_upto(&self, upto: usize) -> impl Iterator<Item = u64> + '_ {
        self.words
            .iter()
            .filter(move |(_, m)| *m < upto)
            .map(|(w, _)| *w)
    }
}

/// An id in AFTER: its text, where it stands, and the words that describe it.
type InAfter<'a> = (&'a str, Place, Vec<u64>);

/// How many words two sorted lists share.
fn shared(a: &[u64], b: &[u64]) -> usize {
    let (mut i, mut j, mut n) = (0, 0, 0);
    while let (Some(x), Some(y)) = (a.get(i), b.get(j)) {
        match x.cmp(y) {
            core::cmp::Ordering::Less => i += 1,
            core::cmp::Ordering::Greater => j += 1,
            core::cmp::Ordering::Equal => {
                n += 1;
                i += 1;
                j += 1;
            }
        }
    }
    n
}

/// Ids AFTER re-attributes (swaps and merges not found already in
/// `found`), against what the messages before `upto` said (`before`, read
/// with the audit's one pass and [`Descriptions::finish`]ed).
pub(crate) fn rebound(
    before: &Descriptions,
    upto: usize,
    after: &str,
    found: &[ChangedId],
) -> Vec<ChangedId> {
    let mut after_ids = Descriptions::default();
    after_ids.read(after);
    after_ids.finish();
    let a: BTreeMap<u64, InAfter<'_>> = after_ids
        .ids
        .keys()
        .filter_map(|k| Some((*k, after_ids.get(*k, 1)?)))
        .collect();
    // The BEFORE ids AFTER names, with their words.
    let b: BTreeMap<u64, (&str, Place, Vec<u64>)> = a
        .keys()
        .filter_map(|k| Some((*k, before.get(*k, upto)?)))
        .collect();
    let known: BTreeSet<u64> = found
        .iter()
        .flat_map(|c| [name_key(&c.before_text), name_key(&c.after_text)])
        .collect();
    let mut out = Vec::new();
    let ids: Vec<u64> = a.keys().filter(|id| b.contains_key(*id)).copied().collect();
    // Swaps.
    for (i, x) in ids.iter().enumerate() {
        for y in ids.iter().skip(i + 1) {
            let (Some((_, xp, xb)), Some((_, yp, yb))) = (b.get(x), b.get(y)) else {
                continue;
            };
            let (Some((xt, xa_place, xa)), Some((yt, ya_place, ya))) = (a.get(x), a.get(y)) else {
                continue;
            };
            let own = (shared(xa, xb), shared(ya, yb));
            let cross = (shared(xa, yb), shared(ya, xb));
            if cross.0 >= own.0 + 2 && cross.1 >= own.1 + 2 {
                // Each id of the pair stands where BEFORE had the other.
                for (now, now_place, was, was_place) in
                    [(xt, xa_place, yt, yp), (yt, ya_place, xt, xp)]
                {
                    out.push(ChangedId {
                        change: IdChange::Swapped,
                        after_text: (*now).to_string(),
                        after: now_place.span,
                        before_text: (*was).to_string(),
                        before: *was_place,
                    });
                }
            }
        }
    }
    // Merges: an id BEFORE describes that AFTER drops. An id can merge
    // only into one whose AFTER words carry half of its own, so one with
    // fewer than that among all such words is passed over at once.
    let kept: Vec<(&u64, &InAfter<'_>)> = a
        .iter()
        .filter(|(k, _)| b.contains_key(*k) && !known.contains(*k))
        .collect();
    let candidates: BTreeSet<u64> = kept
        .iter()
        .flat_map(|(_, (_, _, words))| words.iter().copied())
        .collect();
    for (gone, described) in &before.ids {
        if described.place.message >= upto || a.contains_key(gone) || known.contains(gone) {
            continue;
        }
        let (n, reachable) = described.words_upto(upto).fold((0, 0), |(n, r), w| {
            (n + 1, r + usize::from(candidates.contains(&w)))
        });
        if n < 2 || reachable * 2 < n {
            continue;
        }
        let Some((gone_text, gone_place, gone_words)) = before.get(*gone, upto) else {
            continue;
        };
        let best = kept
            .iter()
            .map(|(k, (kept_text, kept_place, kept_after))| {
                let own = b.get(*k).map_or(0, |(_, _, w)| shared(kept_after, w));
                (shared(kept_after, &gone_words), own, kept_text, kept_place)
            })
            .filter(|(carried, own, ..)| *carried * 2 >= gone_words.len() && carried > own)
            .max_by_key(|(carried, ..)| *carried);
        if let Some((_, _, kept_text, kept_place)) = best {
            out.push(ChangedId {
                change: IdChange::Merged,
                after_text: (*kept_text).to_string(),
                after: kept_place.span,
                before_text: (*gone_text).to_string(),
                before: gone_place,
            });
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use crate::audit::{IdChange, audit_text};

    #[test]
    fn a_swap_of_two_tickets_is_found() {
        let before = "user: T-14 is the login bug, T-41 the export timeout.";
        let after = "Fixed T-41 (the login bug). Next is T-14, the export timeout.";
        let a = audit_text(before, after);
        let swaps: alloc::vec::Vec<(&str, &str)> = a
            .changed_ids
            .iter()
            .filter(|c| c.change == IdChange::Swapped)
            .map(|c| (c.after_text.as_str(), c.before_text.as_str()))
            .collect();
        assert_eq!(
            swaps,
            [("T-41", "T-14"), ("T-14", "T-41")],
            "{:#?}",
            a.changed_ids
        );
        assert!(a.broke_rules());
        // The faithful version is clean.
        let faithful = "Fixed T-14 (the login bug). Next is T-41, the export timeout.";
        let clean = audit_text(before, faithful);
        assert!(clean.changed_ids.is_empty(), "{:#?}", clean.changed_ids);
    }

    #[test]
    fn hosts_merged_into_one() {
        let before = "user: billing-node-3 runs the settlement cron nightly. billing-node-4 serves invoice exports only.";
        let after = "billing-node-3 runs the settlement cron nightly and serves invoice exports.";
        let a = audit_text(before, after);
        assert!(
            a.changed_ids
                .iter()
                .any(|c| c.change == IdChange::Merged && c.before_text == "billing-node-4"),
            "{:#?}",
            a.changed_ids
        );
    }
}
