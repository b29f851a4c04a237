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
use crate::transcript::Transcript;

/// What a text says about each id.
#[derive(Default)]
struct Descriptions {
    /// Lowercase id → (as first written, first place, words).
    ids: BTreeMap<String, (String, Place, BTreeSet<String>)>,
}

fn is_id(t: &Token<'_>) -> bool {
    match t.entity {
        Some(EntityKind::Ticket | EntityKind::Version) => true,
        Some(EntityKind::Identifier) => t.text.bytes().any(|b| b.is_ascii_digit()),
        _ => false,
    }
}

impl Descriptions {
    /// Adds what `text` says about its ids (spans relative to `text`,
    /// places made by `place`).
    fn read(&mut self, text: &str, place: impl Fn(Span) -> Place) {
        for sentence in scan::sentences(text) {
            if sentence.code {
                continue;
            }
            let tokens = scan::tokens(text, sentence.span);
            let ids: Vec<usize> = (0..tokens.len()).filter(|&i| is_id(&tokens[i])).collect();
            if ids.is_empty() {
                continue;
            }
            // An id in parentheses labels the words before it: "the login
            // bug (T-14)".
            let trailing = |i: usize| {
                text.get(..tokens[i].span.start)
                    .is_some_and(|before| before.trim_end().ends_with(['(', '[']))
            };
            for &i in &ids {
                let t = &tokens[i];
                self.ids
                    .entry(t.text.to_ascii_lowercase())
                    .or_insert_with(|| (t.text.to_string(), place(t.span), BTreeSet::new()));
            }
            // Each word with the id that owns it; then one look-up per id.
            let mut words: Vec<(usize, String)> = Vec::new();
            for (i, t) in tokens.iter().enumerate() {
                if t.entity.is_some() {
                    continue;
                }
                let w = t.text.to_ascii_lowercase();
                if w.len() <= 2 || lexicon::is_stopword(&w) || lexicon::is_cue_word(&w) {
                    continue;
                }
                let prev = ids.iter().rev().find(|&&j| j < i).copied();
                let next = ids.iter().find(|&&j| j > i).copied();
                let owner = match (prev, next) {
                    (_, Some(n)) if trailing(n) => n,
                    (Some(p), _) => p,
                    (None, Some(n)) => n,
                    (None, None) => continue,
                };
                words.push((owner, lexicon::stem(&w)));
            }
            words.sort_unstable_by_key(|(owner, _)| *owner);
            for group in words.chunk_by_mut(|a, b| a.0 == b.0) {
                let Some(owner) = group.first().and_then(|(o, _)| tokens.get(*o)) else {
                    continue;
                };
                if let Some(entry) = self.ids.get_mut(&owner.text.to_ascii_lowercase()) {
                    entry
                        .2
                        .extend(group.iter_mut().map(|(_, w)| core::mem::take(w)));
                }
            }
        }
    }
}

fn shared(a: &BTreeSet<String>, b: &BTreeSet<String>) -> usize {
    a.intersection(b).count()
}

/// Ids AFTER re-attributes (swaps and merges not found already in `found`).
pub(crate) fn rebound(
    before: &Transcript,
    upto: usize,
    after: &str,
    found: &[ChangedId],
) -> Vec<ChangedId> {
    let mut b = Descriptions::default();
    for (m, message) in before.messages.iter().enumerate().take(upto) {
        b.read(&message.text, |span| Place {
            message: m,
            field: MessageField::Text,
            span,
        });
    }
    let mut a = Descriptions::default();
    a.read(after, |span| Place {
        message: 0,
        field: MessageField::Text,
        span,
    });
    let known: BTreeSet<String> = found
        .iter()
        .flat_map(|c| {
            [
                c.before_text.to_ascii_lowercase(),
                c.after_text.to_ascii_lowercase(),
            ]
        })
        .collect();
    let mut out = Vec::new();
    let ids: Vec<&String> = a.ids.keys().filter(|id| b.ids.contains_key(*id)).collect();
    // Swaps.
    for (i, x) in ids.iter().enumerate() {
        for y in ids.iter().skip(i + 1) {
            let (Some((_, xp, xb)), Some((_, yp, yb))) = (b.ids.get(*x), b.ids.get(*y)) else {
                continue;
            };
            let (Some((xt, xa_place, xa)), Some((yt, ya_place, ya))) =
                (a.ids.get(*x), a.ids.get(*y))
            else {
                continue;
            };
            let own = (shared(xa, xb), shared(ya, yb));
            let cross = (shared(xa, yb), shared(ya, xb));
            if cross.0 >= own.0 + 2 && cross.1 >= own.1 + 2 {
                out.push(ChangedId {
                    change: IdChange::Swapped,
                    after_text: xt.clone(),
                    after: xa_place.span,
                    before_text: yt.clone(),
                    before: *yp,
                });
                out.push(ChangedId {
                    change: IdChange::Swapped,
                    after_text: yt.clone(),
                    after: ya_place.span,
                    before_text: xt.clone(),
                    before: *xp,
                });
            }
        }
    }
    // Merges: an id BEFORE describes that AFTER drops. An id can merge
    // only into one whose AFTER words carry half of its own, so one with
    // fewer than that among all such words is passed over at once.
    let candidates: BTreeSet<&String> = a
        .ids
        .iter()
        .filter(|(kept, _)| b.ids.contains_key(*kept) && !known.contains(*kept))
        .flat_map(|(_, (_, _, words))| words)
        .collect();
    for (gone, (gone_text, gone_place, gone_words)) in &b.ids {
        if a.ids.contains_key(gone) || known.contains(gone) || gone_words.len() < 2 {
            continue;
        }
        let reachable = gone_words.iter().filter(|w| candidates.contains(w)).count();
        if reachable * 2 < gone_words.len() {
            continue;
        }
        let best = a
            .ids
            .iter()
            .filter(|(kept, _)| b.ids.contains_key(*kept) && !known.contains(*kept))
            .map(|(kept, (kept_text, kept_place, kept_after))| {
                let own = b.ids.get(kept).map_or(0, |(_, _, w)| shared(kept_after, w));
                (shared(kept_after, gone_words), own, kept_text, kept_place)
            })
            .filter(|(carried, own, ..)| *carried * 2 >= gone_words.len() && carried > own)
            .max_by_key(|(carried, ..)| *carried);
        if let Some((_, _, kept_text, kept_place)) = best {
            out.push(ChangedId {
                change: IdChange::Merged,
                after_text: kept_text.clone(),
                after: kept_place.span,
                before_text: gone_text.clone(),
                before: *gone_place,
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
