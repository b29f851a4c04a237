//! One rule per text, with every place it was stated: a rule quoted back
//! by the model, restated by a summary, or re-injected (AGENTS.md sent
//! again after every compaction, a hook repeating it) is one rule.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use drift_core::Kind;

use super::{Rule, RuleForm, Source, find_rules};
use crate::entail::scan::Span;

/// Where a rule was stated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RulePlace {
    /// The message (the caller's index).
    pub message: usize,
    /// The clause in that message's text.
    pub span: Span,
    /// Restated there (by the model or a summary) rather than stated.
    pub quoted: bool,
}

/// One rule and every place it appeared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookRule {
    /// Its text where it was first stated (first restated, when it never
    /// was stated).
    pub text: String,
    /// Its kind.
    pub kind: Kind,
    /// Its form.
    pub form: RuleForm,
    /// The words that decided it.
    pub cue: &'static str,
    /// Every place, in the order they were added.
    pub places: Vec<RulePlace>,
}

impl BookRule {
    /// Whether the rule was only ever restated, never stated.
    pub fn only_quoted(&self) -> bool {
        self.places.iter().all(|p| p.quoted)
    }

    /// How many times it appeared.
    pub fn count(&self) -> usize {
        self.places.len()
    }
}

/// The rules of a session, one per normalised text.
///
/// ```
/// use drift_session::{RuleBook, Source};
///
/// let mut book = RuleBook::new();
/// book.add(0, "Drain no more than 2 nodes at once.", Source::Chat);
/// book.add(1, "To confirm: \"Drain no more than 2 nodes at once\".", Source::Assistant);
/// assert_eq!(book.len(), 1);
/// let rule = &book.rules()[0];
/// assert_eq!(rule.places.len(), 2);
/// assert!(!rule.only_quoted());
/// ```
#[derive(Clone, Debug, Default)]
pub struct RuleBook {
    rules: Vec<BookRule>,
    index: BTreeMap<String, usize>,
}

/// Words dropped from the start of a rule's key.
const LEADS: &[&str] = &["also", "and", "but", "just", "oh", "please", "so", "then"];

/// The key two statements of one rule share: lowercase, quotes, backticks
/// and most punctuation dropped, whitespace collapsed, a leading "please"
/// or "and" and trailing punctuation dropped.
pub fn rule_key(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut space = false;
    for c in text.chars() {
        let keep = c.is_alphanumeric() || "-_/.:@#$%*+=<>~'".contains(c);
        if keep {
            if space && !out.is_empty() {
                out.push(' ');
            }
            space = false;
            if c == '\'' {
                continue;
            }
            out.extend(c.to_lowercase());
        } else if c == '\u{2019}' {
            continue;
        } else {
            space = true;
        }
    }
    let mut s = out.as_str();
    loop {
        let trimmed = s
            .trim_end_matches(['.', ':', '!', '?', '-', '*'])
            .trim_end();
        let lead = LEADS
            .iter()
            .find(|l| trimmed.starts_with(**l) && trimmed.as_bytes().get(l.len()) == Some(&b' '));
        let next = match lead {
            Some(l) => trimmed.get(l.len() + 1..).unwrap_or(""),
            None => trimmed,
        };
        if next.len() == s.len() {
            break;
        }
        s = next;
    }
    String::from(s)
}

impl RuleBook {
    /// An empty book.
    pub fn new() -> RuleBook {
        RuleBook::default()
    }

    /// Finds the rules of one message's `text` and adds them; returns how
    /// many rules the book did not have before.
    pub fn add(&mut self, message: usize, text: &str, source: Source) -> usize {
        let before = self.rules.len();
        for rule in find_rules(text, source) {
            self.add_rule(message, text, rule);
        }
        self.rules.len() - before
    }

    /// Adds one rule found in `text` (a message's text); returns its index
    /// in [`RuleBook::rules`].
    pub fn add_rule(&mut self, message: usize, text: &str, rule: Rule) -> usize {
        let clause = rule.span.of(text);
        let key = rule_key(clause);
        let place = RulePlace {
            message,
            span: rule.span,
            quoted: rule.quoted,
        };
        if let Some(&i) = self.index.get(&key)
            && let Some(entry) = self.rules.get_mut(i)
        {
            if !rule.quoted && entry.only_quoted() {
                entry.text = String::from(clause);
                entry.kind = rule.kind;
                entry.form = rule.form;
                entry.cue = rule.cue;
            }
            entry.places.push(place);
            return i;
        }
        let i = self.rules.len();
        self.index.insert(key, i);
        self.rules.push(BookRule {
            text: String::from(clause),
            kind: rule.kind,
            form: rule.form,
            cue: rule.cue,
            places: alloc::vec![place],
        });
        i
    }

    /// The rules, in the order they were first seen.
    pub fn rules(&self) -> &[BookRule] {
        &self.rules
    }

    /// How many rules.
    pub fn len(&self) -> usize {
        self.rules.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.rules.is_empty()
    }

    /// The rule with this text (compared by [`rule_key`]).
    pub fn get(&self, text: &str) -> Option<&BookRule> {
        self.index
            .get(&rule_key(text))
            .and_then(|&i| self.rules.get(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys() {
        assert_eq!(
            rule_key("Please don't merge anything yourself."),
            rule_key("don\u{2019}t merge   anything yourself")
        );
        assert_eq!(
            rule_key("Never edit `ledger.entries`."),
            "never edit ledger.entries"
        );
        assert_eq!(rule_key("... "), "");
    }

    #[test]
    fn a_rule_restated_and_reinjected_is_one_rule() {
        let agents = "- Never force-push to main.\n- Run `pnpm test` before every commit.";
        let mut book = RuleBook::new();
        assert_eq!(book.add(0, agents, Source::ProjectFile), 2);
        assert_eq!(
            book.add(5, "Summary: never force-push to main.", Source::Summary),
            0
        );
        assert_eq!(book.add(9, agents, Source::ProjectFile), 0);
        assert_eq!(book.len(), 2);
        let push = book
            .get("never force-push to main")
            .expect("the rule is in the book");
        assert_eq!(
            push.places
                .iter()
                .map(|p| (p.message, p.quoted))
                .collect::<Vec<_>>(),
            [(0, false), (5, true), (9, false)]
        );
    }

    #[test]
    fn a_rule_stated_after_its_restatement_takes_the_statement() {
        let mut book = RuleBook::new();
        book.add(
            0,
            "The user said never restart the primary.",
            Source::Summary,
        );
        book.add(1, "Never restart the primary.", Source::Chat);
        assert_eq!(book.len(), 1);
        let rule = &book.rules()[0];
        assert_eq!(rule.text, "Never restart the primary.");
        assert_eq!(rule.count(), 2);
        assert!(!rule.only_quoted());
    }
}
