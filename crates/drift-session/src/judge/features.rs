//! A rule read against a summary, as the judge's model sees it: hashed
//! features of the structural reading.
//!
//! Every feature is a name hashed (FNV-1a) into a table of `2^bits` slots:
//! the call the rules of structure make and its reason; how much of the
//! rule the best sentence holds (bucketed), its section (a plan, the
//! user's quoted words, anything else); the force each side has (negation,
//! firm and soft words, "only", exceptions, conditions, approvals,
//! permissions, a rule said to be lifted) and every pair of them across
//! the two sides; a contradiction, a breach, a softer restatement; and the
//! words the best sentence adds to the rule's and the rule's words it
//! leaves out (what tells "we decided", "no longer" and "try to" from a
//! rule kept).

use alloc::collections::BTreeSet;
use alloc::vec::Vec;

use super::frame::{Frame, Polarity};
use super::{Reading, Section, Why, quoted};
use crate::audit::Fate;

/// Feature slots, hashed into `2^bits`.
struct Slots {
    mask: u32,
    out: Vec<u32>,
}

const FNV: u32 = 0x811c_9dc5;

fn fnv(mut h: u32, bytes: &[u8]) -> u32 {
    for b in bytes {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Slots {
    /// The feature named by `parts`, joined.
    fn add(&mut self, parts: &[&str]) {
        let mut h = FNV;
        for p in parts {
            h = fnv(h, p.as_bytes());
            h = fnv(h, b"\x1f");
        }
        self.out.push(h & self.mask);
    }
}

fn fate_tag(f: Fate) -> &'static str {
    f.id()
}

fn why_tag(w: &Why) -> &'static str {
    match w {
        Why::Carried => "carried",
        Why::ValueChanged { .. } => "value",
        Why::Softened => "softened",
        Why::ScopeLost => "scope",
        Why::ExceptionLost => "exception",
        Why::ConditionLost => "condition",
        Why::ApprovalLost => "approval",
        Why::Opposite => "opposite",
        Why::Swapped => "swapped",
        Why::Breached => "breached",
        Why::Less => "less",
        Why::Nowhere => "nowhere",
    }
}

fn section_tag(s: Section) -> &'static str {
    match s {
        Section::Quotes => "quotes",
        Section::Plans => "plans",
        Section::Other => "other",
    }
}

const DIGITS: [&str; 11] = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "10"];

fn bucket(x: f64) -> &'static str {
    DIGITS[(x.clamp(0.0, 1.0) * 10.0) as usize]
}

fn count(n: usize, cap: usize) -> &'static str {
    DIGITS[n.min(cap).min(10)]
}

/// The force a frame has, as named flags.
fn flags(f: &Frame) -> Vec<&'static str> {
    let mut v = Vec::new();
    let mut flag = |on: bool, name: &'static str| {
        if on {
            v.push(name);
        }
    };
    flag(f.negations > 0, "neg");
    flag(f.firm > 0, "firm");
    flag(f.soft > 0, "soft");
    flag(f.only, "only");
    flag(f.except, "except");
    flag(f.condition, "cond");
    flag(f.approval, "approval");
    flag(f.lifted, "lifted");
    flag(f.permits, "permits");
    flag(f.always, "always");
    flag(f.never, "never");
    flag(f.prefer.is_some(), "prefer");
    flag(f.is_firm(), "isfirm");
    v.push(match f.polarity() {
        Polarity::Forbids => "forbids",
        Polarity::Requires => "requires",
        Polarity::Permits => "allows",
    });
    v
}

/// The lower-case words of `text`.
fn words(text: &str) -> impl Iterator<Item = alloc::string::String> + '_ {
    text.split(|c: char| !c.is_alphanumeric() && c != '\'')
        .filter(|w| !w.is_empty() && w.len() <= 24)
        .map(str::to_lowercase)
}

impl Reading {
    /// The reading's feature slots in a table of `2^bits`; `rule` is the
    /// rule's text and `after` the summary's, for the words each side has.
    pub fn slots(&self, rule: &str, after: &str, bits: u32) -> Vec<u32> {
        let mut s = Slots {
            mask: (1u32 << bits.min(31)) - 1,
            out: Vec::with_capacity(160),
        };
        s.add(&["bias"]);
        let call = fate_tag(self.structural.fate);
        s.add(&["call", call]);
        s.add(&["call", call, why_tag(&self.structural.why)]);
        let rule_flags = flags(&self.rule);
        for f in &rule_flags {
            s.add(&["r", f]);
        }
        s.add(&["rterms", count(self.rule.terms.len() / 3, 6)]);
        if let Some((why, _)) = &self.contradicted {
            s.add(&["contra", why_tag(why)]);
        }
        if self.breach.is_some() {
            s.add(&["breach"]);
        }
        if self.done.is_some() {
            s.add(&["done"]);
            s.add(&["done", call]);
            s.add(&["done", why_tag(&self.structural.why)]);
        }
        if let Some((cov, _)) = self.softened {
            s.add(&["softer", bucket(cov)]);
        }
        if let Some(w) = &self.weakening {
            s.add(&["weak", why_tag(w)]);
        }
        let Some(best) = &self.best else {
            s.add(&["nothing"]);
            return s.out;
        };
        let a = &best.alignment;
        let sec = section_tag(best.section);
        s.add(&["sec", sec]);
        s.add(&["cov", bucket(a.coverage)]);
        s.add(&["cov", bucket(a.coverage), sec]);
        s.add(&["cov", bucket(a.coverage), call]);
        s.add(&["words", bucket(a.words)]);
        s.add(&["matched", count(a.matched, 8)]);
        s.add(&["matchedwords", count(a.matched_words, 5)]);
        if a.flipped > 0 {
            s.add(&["flipped", count(a.flipped, 3)]);
        }
        if a.changed.is_some() {
            s.add(&["changed"]);
        }
        if a.widened {
            s.add(&["widened"]);
        }
        if self.carried {
            s.add(&["carried"]);
        }
        if self.breach.is_some() {
            s.add(&["breach", sec]);
        }
        let span = best.frame.span;
        if quoted(after, span) {
            s.add(&["quoted"]);
        }
        let found_flags = flags(&best.frame);
        for f in &found_flags {
            s.add(&["f", f]);
            s.add(&["f", f, sec]);
        }
        for r in &rule_flags {
            for f in &found_flags {
                s.add(&["x", r, f]);
            }
            if !found_flags.contains(r) {
                s.add(&["lost", r]);
            }
        }
        // Words each side has that the other lacks.
        let rule_words: BTreeSet<_> = words(rule).collect();
        let found_text = span.of(after);
        let found_words: BTreeSet<_> = words(found_text).collect();
        for w in found_words.difference(&rule_words).take(48) {
            s.add(&["add", w]);
        }
        for w in rule_words.difference(&found_words).take(48) {
            s.add(&["miss", w]);
        }
        // The runner-up and the plan's best: how much each holds, where,
        // with what force, and the words it adds.
        for other in &self.others {
            let tag = if other.section == Section::Plans {
                "plan"
            } else {
                "next"
            };
            let osec = section_tag(other.section);
            s.add(&[tag, "cov", bucket(other.alignment.coverage)]);
            s.add(&[tag, "cov", bucket(other.alignment.coverage), osec]);
            s.add(&[tag, "words", bucket(other.alignment.words)]);
            if other.alignment.flipped > 0 {
                s.add(&[tag, "flipped"]);
            }
            if other.alignment.changed.is_some() {
                s.add(&[tag, "changed"]);
            }
            for f in flags(&other.frame) {
                s.add(&[tag, "f", f]);
                for r in &rule_flags {
                    s.add(&[tag, "x", r, f]);
                }
            }
            let text = other.frame.span.of(after);
            for w in words(text)
                .collect::<BTreeSet<_>>()
                .difference(&rule_words)
                .take(32)
            {
                s.add(&[tag, "add", w]);
            }
        }
        s.out
    }
}
