//! Two careful readers of the same logs, compared: how many of one
//! reader's rules the other found (both ways), how often their fates agree
//! on the rules both found, and how often they decide a unit of the user's
//! alike (a rule, or none). The ceiling a finder or a judge is measured
//! against: no tool can agree with a reader more than another reader does.
//!
//! Two labels are the same rule when they point at overlapping text of the
//! same line, or when their texts share most of their words (one reader
//! quoting a rule where it was said again, or a little more of it). Fates
//! are compared compaction by compaction, by the line of the compaction's
//! marker, so a compaction one reader missed is not compared.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use core::fmt::Write as _;

use crate::labels::{By, LogLabels, NonRule};
use crate::real::Case;
use crate::report::share;
use crate::text::{SAME, overlap, words};

/// Counts of one class of rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RuleCounts {
    /// The first reader's rules, and of those the second found.
    pub first: usize,
    pub first_found: usize,
    /// The second reader's rules, and of those the first found.
    pub second: usize,
    pub second_found: usize,
}

/// The two readers compared.
#[derive(Clone, Debug, Default)]
pub struct Agreement {
    pub repos: usize,
    pub logs: usize,
    /// The user's own words, then every rule.
    pub user: RuleCounts,
    pub all: RuleCounts,
    /// On rules both found, at compactions both labelled: pairs, of those
    /// the same fate, and of those both lost or both carried.
    pub fate_pairs: usize,
    pub fate_same: usize,
    pub fate_lost_same: usize,
    /// Units of the user's both labelled, and of those decided alike.
    pub units: usize,
    pub units_same: usize,
    /// Labels whose anchor no longer decodes.
    pub stale: Vec<String>,
}

/// One reader's rules of a log, decoded.
struct Rules<'a> {
    labels: &'a LogLabels,
    texts: Vec<String>,
    words: Vec<BTreeSet<String>>,
}

impl<'a> Rules<'a> {
    fn of(labels: &'a LogLabels, lines: &[&[u8]], stale: &mut Vec<String>) -> Rules<'a> {
        let texts: Vec<String> = labels
            .rules
            .iter()
            .map(|r| {
                r.anchor.decode(lines).unwrap_or_else(|e| {
                    stale.push(format!("{}: {e}", labels.file));
                    String::new()
                })
            })
            .collect();
        let words = texts.iter().map(|t| words(t)).collect();
        Rules {
            labels,
            texts,
            words,
        }
    }

    /// The rule of `other` that is the same as this reader's rule `i`, if any.
    fn same_in(&self, i: usize, other: &Rules<'_>) -> Option<usize> {
        let a = &self.labels.rules[i];
        (0..other.labels.rules.len()).find(|&j| {
            let b = &other.labels.rules[j];
            let same_text = a.anchor.line == b.anchor.line
                && a.anchor.start < b.anchor.end
                && b.anchor.start < a.anchor.end;
            same_text
                || (!self.texts[i].is_empty()
                    && !other.texts[j].is_empty()
                    && (overlap(&self.words[i], &other.words[j]) >= SAME
                        || overlap(&other.words[j], &self.words[i]) >= SAME))
        })
    }
}

/// The lines of a reader's units of the user's, each a rule (true) or not.
fn units(labels: &LogLabels) -> BTreeMap<usize, bool> {
    let user = |why: &NonRule| why.why != "harness";
    let mut out: BTreeMap<usize, bool> = BTreeMap::new();
    for n in labels.nonrules.iter().filter(|n| user(n)) {
        out.entry(n.anchor.line).or_insert(false);
    }
    for r in labels.rules.iter().filter(|r| r.by == By::User) {
        out.insert(r.anchor.line, true);
    }
    out
}

fn count(c: &mut RuleCounts, first: bool, found: bool) {
    if first {
        c.first += 1;
        c.first_found += usize::from(found);
    } else {
        c.second += 1;
        c.second_found += usize::from(found);
    }
}

/// Compares the first reader's labels (`first`, with their logs) with the
/// second reader's (`second`, for the logs among `first` they read).
pub fn compare(first: &[Case], second: &[LogLabels]) -> Agreement {
    let mut a = Agreement::default();
    let mut repos = BTreeSet::new();
    for s in second {
        let Some(case) = first.iter().find(|c| c.labels.hash == s.hash) else {
            a.stale
                .push(format!("{}: no first reading of its log", s.file));
            continue;
        };
        a.logs += 1;
        repos.insert(case.labels.repo);
        let lines = case.lines();
        let one = Rules::of(&case.labels, &lines, &mut a.stale);
        let two = Rules::of(s, &lines, &mut a.stale);
        for (reader, other, first) in [(&one, &two, true), (&two, &one, false)] {
            for (i, r) in reader.labels.rules.iter().enumerate() {
                let found = reader.same_in(i, other).is_some();
                count(&mut a.all, first, found);
                if r.by == By::User {
                    count(&mut a.user, first, found);
                }
            }
        }
        // Fates by the line of the compaction's marker.
        let line_of = |l: &LogLabels, n: usize| {
            l.compactions
                .iter()
                .find(|&&(number, _)| number == n)
                .map(|&(_, line)| line)
        };
        for (i, r) in one.labels.rules.iter().enumerate() {
            let Some(j) = one.same_in(i, &two) else {
                continue;
            };
            let other = &two.labels.rules[j];
            for &(n, fate) in &r.fates {
                let Some(line) = line_of(one.labels, n) else {
                    continue;
                };
                let theirs = other
                    .fates
                    .iter()
                    .find(|&&(m, _)| line_of(two.labels, m) == Some(line))
                    .map(|&(_, f)| f);
                if let Some(theirs) = theirs {
                    a.fate_pairs += 1;
                    a.fate_same += usize::from(theirs == fate);
                    a.fate_lost_same += usize::from(theirs.is_loss() == fate.is_loss());
                }
            }
        }
        let (u1, u2) = (units(one.labels), units(two.labels));
        for (line, rule) in &u1 {
            if let Some(theirs) = u2.get(line) {
                a.units += 1;
                a.units_same += usize::from(theirs == rule);
            }
        }
    }
    a.repos = repos.len();
    a
}

/// The comparison as Markdown.
pub fn report(a: &Agreement) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### Two readers: {} people, {} logs\n",
        a.repos, a.logs
    );
    out.push_str("| rules given by | the first reader's | found by the second | the second reader's | found by the first |\n| --- | ---: | ---: | ---: | ---: |\n");
    for (name, c) in [("the user's own words", a.user), ("**all**", a.all)] {
        let _ = writeln!(
            out,
            "| {name} | {} | {} / {} = {} | {} | {} / {} = {} |",
            c.first,
            c.first_found,
            c.first,
            share(c.first_found, c.first),
            c.second,
            c.second_found,
            c.second,
            share(c.second_found, c.second),
        );
    }
    let _ = writeln!(
        out,
        "\nFates, on the rules both found at the compactions both labelled: {} pairs; the same fate {} ({}); both lost or both carried {} ({}).",
        a.fate_pairs,
        a.fate_same,
        share(a.fate_same, a.fate_pairs),
        a.fate_lost_same,
        share(a.fate_lost_same, a.fate_pairs),
    );
    let _ = writeln!(
        out,
        "Units of the user's both labelled: {}; decided alike (a rule, or none) {} ({}).",
        a.units,
        a.units_same,
        share(a.units_same, a.units),
    );
    if !a.stale.is_empty() {
        let _ = writeln!(out, "\n{} labels could not be compared:", a.stale.len());
        for e in &a.stale {
            let _ = writeln!(out, "- {e}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchor::fnv32;

    const LOG: &str = concat!(
        r#"{"type":"user","message":{"role":"user","content":"Never push to main. Use uv, not pip. Fix the build."},"uuid":"u1","sessionId":"s"}"#,
        "\n",
        r#"{"type":"user","message":{"role":"user","content":"Summary: the user wants uv."},"uuid":"u2","sessionId":"s"}"#,
        "\n"
    );

    fn anchor(quote: &str) -> String {
        let start = LOG.find(quote).expect("quoted");
        format!("L1:{start}-{}#{:08x}", start + quote.len(), fnv32(quote))
    }

    #[test]
    fn two_readers_compared_both_ways() {
        let first = format!(
            "log 1\nrepo 2\nsplit unseen\ncompaction 1 L2\n\
             rule r1 {} by=user kind=standing_rule form=prohibition fates=1:dropped\n\
             rule r2 {} by=user kind=standing_rule form=obligation fates=1:kept\n\
             nonrule {} why=task\n",
            anchor("Never push to main."),
            anchor("Use uv, not pip."),
            anchor("Fix the build."),
        );
        // The second reader quotes a little more of one rule, misses the
        // other, gives another fate, and calls the task a rule.
        let second = format!(
            "log 1\nrepo 2\nsplit unseen\ncompaction 1 L2\n\
             rule r1 {} by=user kind=standing_rule form=obligation fates=1:weakened\n\
             rule r2 {} by=user kind=standing_rule form=obligation\n",
            anchor("Use uv, not pip. Fix"),
            anchor("Fix the build."),
        );
        let case = Case {
            labels: LogLabels::parse("a.labels", &first).unwrap(),
            name: "t.jsonl".into(),
            bytes: LOG.as_bytes().to_vec(),
            transcript: drift_session::read_transcript(LOG).unwrap(),
        };
        let a = compare(&[case], &[LogLabels::parse("b.labels", &second).unwrap()]);
        assert!(a.stale.is_empty(), "{:?}", a.stale);
        assert_eq!((a.logs, a.repos), (1, 1));
        // The first reader's uv rule overlaps the second's longer quote.
        assert_eq!((a.user.first, a.user.first_found), (2, 1));
        // The second's uv rule is found; its task-as-rule overlaps no rule
        // of the first's.
        assert_eq!((a.user.second, a.user.second_found), (2, 1));
        assert_eq!((a.fate_pairs, a.fate_same, a.fate_lost_same), (1, 0, 0));
        // One line, a rule for both.
        assert_eq!((a.units, a.units_same), (1, 1));
        let text = report(&a);
        assert!(
            text.contains("| the user's own words | 2 | 1 / 2 = 0.50 | 2 | 1 / 2 = 0.50 |"),
            "{text}"
        );
    }
}
