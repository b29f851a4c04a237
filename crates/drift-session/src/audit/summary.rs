//! What a summary says, read once ([`Summary`]), and what of it the log
//! does not back: rules nobody gave ([`invented`]), details no message
//! supports ([`details`]), ids it merged ([`merges`]).

use super::*;
use crate::rules::verbs::REPORTING;

/// AFTER, read once: its sentences, their tokens and bags, and windows of
/// two sentences.
pub(super) struct Summary<'a> {
    pub(super) sentences: Vec<SummarySentence<'a>>,
    pub(super) windows: Vec<Window>,
}

pub(super) struct SummarySentence<'a> {
    pub(super) span: Span,
    pub(super) tokens: Vec<Token<'a>>,
    pub(super) bag: Support,
}

pub(super) struct Window {
    pub(super) span: Span,
    pub(super) bag: Support,
    /// Its first sentence restates a rule, as the rule finder reads it.
    pub(super) restates: bool,
    pub(super) rejection: bool,
}

impl<'a> Summary<'a> {
    pub(super) fn read(after: &'a str) -> Summary<'a> {
        let sentences: Vec<SummarySentence<'a>> = scan::sentences(after)
            .into_iter()
            .map(|s| {
                let tokens = scan::tokens(after, s.span);
                let bag = Bag::of_tokens(&tokens).support;
                SummarySentence {
                    span: s.span,
                    tokens,
                    bag,
                }
            })
            .collect();
        // Where the summary restates a rule, as the rule finder reads it.
        let restated: Vec<Span> = crate::rules::find_rules(after, Source::Summary)
            .into_iter()
            .map(|r| r.span)
            .collect();
        let mut windows = Vec::new();
        for (i, s) in sentences.iter().enumerate() {
            let next = sentences.get(i + 1);
            let tokens: Vec<Token<'a>> = s
                .tokens
                .iter()
                .chain(next.map_or(&[][..], |n| n.tokens.as_slice()))
                .copied()
                .collect();
            let restates = restated
                .iter()
                .any(|r| r.start < s.span.end && s.span.start < r.end);
            windows.push(Window {
                span: Span::new(s.span.start, next.map_or(s.span.end, |n| n.span.end)),
                bag: Bag::of_tokens(&tokens).support,
                restates,
                rejection: rejection_mark(&tokens),
            });
        }
        Summary { sentences, windows }
    }

    /// The window with the best coverage of `terms` among those `eligible`;
    /// of windows that cover as much, the first that restates a rule, else
    /// the first.
    pub(super) fn best(
        &self,
        terms: &Terms,
        eligible: impl Fn(&Window) -> bool,
    ) -> Option<(f64, Span)> {
        let mut best: Option<(f64, bool, Span)> = None;
        for w in self.windows.iter().filter(|w| eligible(w)) {
            let c = terms.coverage(&w.bag, ENTITY_WEIGHT);
            let better = best.is_none_or(|(b, restates, _)| {
                c > b + 1e-9 || (c > b - 1e-9 && w.restates && !restates)
            });
            if better {
                best = Some((c, w.restates, w.span));
            }
        }
        best.map(|(c, _, span)| (c, span))
    }
}

/// Words a rule opens with.
pub(super) const OPENERS: &[&str] = &[
    "never", "do", "don't", "dont", "always", "only", "must", "no", "avoid", "ask", "keep",
    "leave", "stop", "wait", "ensure", "prefer", "require", "nothing", "none",
];

/// Labels a summary puts before a rule ("Rule: …", "- Constraint: …").
pub(super) const LABELS: &[&str] = &[
    "rule",
    "rules",
    "constraint",
    "constraints",
    "note",
    "important",
    "reminder",
];

/// Who an attribution names.
pub(super) const OPERATORS: &[&str] = &[
    "user", "operator", "they", "he", "she", "customer", "team", "owner",
];

/// Opening words of what a harness writes around a summary: no rule of
/// anyone's.
pub(super) const HARNESS_OPENINGS: &[&str] = &[
    "please continue the conversation",
    "continue with the last task",
    "this session is being continued",
    "if you need specific details from before compaction",
    "another language model started to solve this problem",
    "resume directly",
    "do not acknowledge",
    "pick up the last task",
];

/// Rules AFTER states that BEFORE never gave: sentences that read as a rule,
/// or say what the operator asked, whose terms no rule or statement of the
/// operator's in BEFORE has half of.
pub(super) fn invented(
    summary: &Summary<'_>,
    before: &Before<'_>,
    after: &str,
) -> Vec<InventedRule> {
    let mut out = Vec::new();
    for s in &summary.sentences {
        let text = s.span.of(after);
        let lower = text.trim().to_ascii_lowercase();
        if HARNESS_OPENINGS.iter().any(|h| lower.starts_with(h)) {
            continue;
        }
        let words: Vec<String> = s
            .tokens
            .iter()
            .filter(|t| t.entity.is_none())
            .map(|t| t.text.to_ascii_lowercase())
            .collect();
        let attributed = words
            .windows(2)
            .any(|w| OPERATORS.contains(&w[0].as_str()) && REPORTING.contains(&w[1].as_str()));
        // An instruction: a sentence that opens with a rule's word (after a
        // label like "Rule:"), or a short one with a rule's cue.
        let opens = words
            .iter()
            .skip_while(|w| LABELS.contains(&w.as_str()))
            .take(1)
            .any(|w| OPENERS.contains(&w.as_str()));
        let instruction = opens || (words.len() <= 16 && rule_cue(&s.tokens).is_some());
        if !attributed && !instruction {
            continue;
        }
        let terms = Terms::of(&s.tokens, 0, s.tokens.len());
        if terms.is_empty() {
            continue;
        }
        if !sourced(&terms, before.sources) {
            out.push(InventedRule {
                after: s.span,
                text: text.to_string(),
                why: Invention::Unsourced,
            });
        }
    }
    out
}

/// Whether one source has half of `terms`, or two together three quarters
/// (entities weigh double): a rule AFTER states that has a source before.
pub(super) fn sourced(terms: &Terms, sources: &[(usize, Support)]) -> bool {
    // Each source's hits as a mask over the first 64 terms.
    let weights: Vec<f64> = terms
        .stems
        .iter()
        .map(|_| 1.0)
        .chain(terms.entities.iter().map(|_| ENTITY_WEIGHT))
        .take(64)
        .collect();
    let total: f64 = weights.iter().sum();
    if total == 0.0 {
        return true;
    }
    let weight = |mask: u64| -> f64 {
        weights
            .iter()
            .enumerate()
            .filter(|(i, _)| mask & (1 << i) != 0)
            .map(|(_, w)| w)
            .sum()
    };
    let mut masks: Vec<u64> = sources
        .iter()
        .map(|(_, bag)| {
            let mut mask = 0u64;
            for (i, s) in terms.stems.iter().enumerate().take(64) {
                if bag.has_stem(s) {
                    mask |= 1 << i;
                }
            }
            for (j, (kind, e)) in terms.entities.iter().enumerate() {
                let i = terms.stems.len() + j;
                if i < 64 && bag.supports(*kind, e) {
                    mask |= 1 << i;
                }
            }
            mask
        })
        .filter(|m| *m != 0)
        .collect();
    masks.sort_by_key(|m| core::cmp::Reverse(m.count_ones()));
    masks.truncate(8);
    if masks.iter().any(|&m| weight(m) / total >= CARRIED) {
        return true;
    }
    masks.iter().enumerate().any(|(i, &a)| {
        masks
            .iter()
            .skip(i + 1)
            .any(|&b| weight(a | b) / total >= 0.75)
    })
}

/// (b) and the changed ids of (c); also the number of distinct details.
pub(super) fn details(
    summary: &Summary<'_>,
    before: &Before<'_>,
    after: &str,
) -> (Vec<Unsupported>, Vec<ChangedId>, usize) {
    let mut seen: BTreeMap<(EntityKind, String), Option<usize>> = BTreeMap::new();
    let mut unsupported: Vec<Unsupported> = Vec::new();
    let mut changed = Vec::new();
    for s in &summary.sentences {
        for t in &s.tokens {
            let Some(kind) = t.entity else { continue };
            let e = Entity {
                kind,
                text: t.text,
                span: t.span,
            };
            if e.is_trivial() {
                continue;
            }
            let key = (kind, e.canonical());
            if let Some(slot) = seen.get(&key) {
                if let Some(u) = slot.and_then(|i| unsupported.get_mut(i)) {
                    u.after.push(t.span);
                }
                continue;
            }
            if before.support.supports(kind, t.text, before.upto) {
                seen.insert(key, None);
                continue;
            }
            let canonical = t.text.to_ascii_lowercase();
            let resembles = matches!(kind, EntityKind::Identifier | EntityKind::Ticket)
                .then(|| {
                    before
                        .ids()
                        .filter(|m| lookalike(&canonical, &m.canonical))
                        .min_by_key(|m| m.first)
                })
                .flatten();
            let lookalike = resembles.map(|m| BeforeMention {
                text: m.text.clone(),
                before: m.first,
            });
            if let Some(m) = resembles {
                changed.push(ChangedId {
                    change: IdChange::Changed,
                    after_text: t.span.of(after).to_string(),
                    after: t.span,
                    before_text: m.text.clone(),
                    before: m.first,
                });
            }
            seen.insert(key, Some(unsupported.len()));
            unsupported.push(Unsupported {
                kind,
                text: t.text.to_string(),
                after: alloc::vec![t.span],
                lookalike,
            });
        }
    }
    (unsupported, changed, seen.len())
}

/// The merged ids of (c).
pub(super) fn merges(
    summary: &Summary<'_>,
    before: &Before<'_>,
    transcript: &Transcript,
) -> Vec<ChangedId> {
    // Ids AFTER mentions, with the sentences that mention them.
    let mut mentioned: BTreeMap<String, Vec<(usize, Span)>> = BTreeMap::new();
    for (i, s) in summary.sentences.iter().enumerate() {
        for t in &s.tokens {
            if matches!(t.entity, Some(EntityKind::Identifier | EntityKind::Ticket)) {
                mentioned
                    .entry(t.text.to_ascii_lowercase())
                    .or_default()
                    .push((i, t.span));
            }
        }
    }
    let sentence_terms = |place: &Place| {
        let text = match transcript.messages.get(place.message) {
            Some(m) if place.field == MessageField::Text => m.text.as_str(),
            Some(m) => m.tool_arguments.as_deref().unwrap_or(""),
            None => "",
        };
        let tokens = scan::tokens(text, place.span);
        Terms::of(&tokens, 0, tokens.len())
    };
    let mut out = Vec::new();
    for (kept, after_mentions) in &mentioned {
        let Some(kept_before) = before.id(name_key(kept)) else {
            continue;
        };
        // What BEFORE says about the kept id itself.
        let own: Vec<Terms> = before
            .id_sentences(kept_before)
            .map(sentence_terms)
            .collect();
        for gone_before in before.ids() {
            let gone = &gone_before.canonical;
            if mentioned.contains_key(gone) || !lookalike(kept, gone) {
                continue;
            }
            for place in before.id_sentences(gone_before) {
                let mut terms = sentence_terms(place);
                terms
                    .stems
                    .retain(|s| !own.iter().any(|o| o.stems.contains(s)));
                terms.entities.retain(|(k, e)| {
                    e != gone
                        && e != kept
                        && !own.iter().any(|o| o.entities.contains(&(*k, e.clone())))
                });
                if terms.is_empty() {
                    continue;
                }
                let absorbed = after_mentions.iter().find(|(i, _)| {
                    summary
                        .sentences
                        .get(*i)
                        .is_some_and(|s| terms.coverage(&s.bag, ENTITY_WEIGHT) >= CARRIED)
                });
                if let Some((_, span)) = absorbed {
                    out.push(ChangedId {
                        change: IdChange::Merged,
                        after_text: kept_before.text.clone(),
                        after: *span,
                        before_text: gone_before.text.clone(),
                        before: *place,
                    });
                    break;
                }
            }
        }
    }
    out
}
