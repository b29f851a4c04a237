//! The rule finder alone, on every unit the user gave (and every
//! subagent's brief) of logs labelled whole: which of the labelled rules
//! it finds (recall), and which of the rules it finds are labelled
//! (precision). The labels hold every standing rule of that text, so a
//! rule found and not labelled is a false one.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use drift_session::rules::{Authority, InForce, RuleFinder};

use crate::labels::By;
use crate::real::Case;
use crate::text::{SAME, overlap, words};

/// Counts of one class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FinderCounts {
    /// Rules labelled.
    pub labelled: usize,
    /// Of those, found.
    pub found: usize,
    /// Rules the finder reported.
    pub reported: usize,
    /// Of those, a labelled rule.
    pub right: usize,
}

/// The finder's scores on a set of logs.
#[derive(Clone, Debug, Default)]
pub struct FinderScores {
    /// The people (repositories) the logs come from.
    pub repos: usize,
    pub logs: usize,
    /// The user's own words, then briefs.
    pub user: FinderCounts,
    pub brief: FinderCounts,
    /// Labelled rule-like sentences that are no rule, and of those found
    /// as a rule.
    pub nonrules: usize,
    pub nonrules_found: usize,
    /// Labels whose anchor no longer decodes.
    pub stale: Vec<String>,
    /// With `misses`: what was not found, and what was found wrongly.
    pub misses: Vec<String>,
}

/// Scores the finder on `cases`, each read with the finder `finder` gives
/// for it (the shipped one, or one trained without its person).
pub fn score<F: RuleFinder>(
    cases: &[&Case],
    finder: impl Fn(&Case) -> F,
    misses: bool,
) -> FinderScores {
    let mut s = FinderScores {
        repos: crate::real::repos(cases),
        ..FinderScores::default()
    };
    for &case in cases {
        s.logs += 1;
        let lines = case.lines();
        let log = case.name.as_str();
        let found = InForce::read(&case.transcript, &finder(case));
        // What the tool reports as rules: those it is sure of.
        let reported: Vec<(By, usize, &str)> = found
            .rules
            .iter()
            .filter(|r| r.sure)
            .filter_map(|r| {
                let by = match r.authority {
                    Authority::User => By::User,
                    Authority::Brief => By::Brief,
                    _ => return None,
                };
                Some((by, r.record, r.text.as_str()))
            })
            .collect();
        let reported_words: Vec<_> = reported.iter().map(|r| words(r.2)).collect();
        let mut labelled: Vec<(By, usize, String)> = Vec::new();
        for r in &case.labels.rules {
            match r.anchor.decode(&lines) {
                Ok(text) => labelled.push((r.by, r.anchor.line, text)),
                Err(e) => s.stale.push(format!("{}: {e}", case.labels.file)),
            }
        }
        let labelled_words: Vec<_> = labelled.iter().map(|l| words(&l.2)).collect();
        // A rule is found when a rule the finder reports of the same class
        // holds its words (where it was first said or said again).
        for (i, (by, line, text)) in labelled.iter().enumerate() {
            let Some(c) = counts(&mut s, *by) else {
                continue;
            };
            c.labelled += 1;
            let hit = reported
                .iter()
                .zip(&reported_words)
                .any(|(r, rw)| r.0 == *by && overlap(&labelled_words[i], rw) >= SAME);
            if hit {
                c.found += 1;
            } else if misses {
                s.misses
                    .push(format!("{log} L{line} not found ({:?}): {text}", by));
            }
        }
        for (j, (by, line, text)) in reported.iter().enumerate() {
            let right = labelled
                .iter()
                .zip(&labelled_words)
                .any(|(l, lw)| l.0 == *by && overlap(lw, &reported_words[j]) >= SAME);
            let Some(c) = counts(&mut s, *by) else {
                continue;
            };
            c.reported += 1;
            if right {
                c.right += 1;
            } else if misses {
                s.misses.push(format!(
                    "{log} L{line} found, no such rule ({:?}): {text}",
                    by
                ));
            }
        }
        for n in &case.labels.nonrules {
            let Ok(text) = n.anchor.decode(&lines) else {
                s.stale
                    .push(format!("{}: a nonrule's anchor", case.labels.file));
                continue;
            };
            s.nonrules += 1;
            let nw = words(&text);
            if reported
                .iter()
                .zip(&reported_words)
                .any(|(r, rw)| r.1 == n.anchor.line && overlap(&nw, rw) >= SAME)
            {
                s.nonrules_found += 1;
            }
        }
    }
    s
}

fn counts(s: &mut FinderScores, by: By) -> Option<&mut FinderCounts> {
    match by {
        By::User => Some(&mut s.user),
        By::Brief => Some(&mut s.brief),
        _ => None,
    }
}

/// The scores as a Markdown table, headed with who they are measured on.
pub fn report(s: &FinderScores, people: &str) -> String {
    use core::fmt::Write as _;
    let share = |a: usize, b: usize| {
        if b == 0 {
            "–".to_string()
        } else {
            #[allow(clippy::cast_precision_loss)]
            let r = a as f64 / b as f64;
            format!("{a} / {b} = {r:.2}")
        }
    };
    let mut out = String::new();
    let _ = writeln!(
        out,
        "### The rule finder alone, {people}: {} people, {} logs\n",
        s.repos, s.logs
    );
    let _ = writeln!(
        out,
        "| rules given by | labelled | found (recall) | reported | right (precision) |"
    );
    let _ = writeln!(out, "| --- | ---: | ---: | ---: | ---: |");
    for (name, c) in [
        ("the user's own words", s.user),
        ("a subagent's brief", s.brief),
    ] {
        let _ = writeln!(
            out,
            "| {name} | {} | {} | {} | {} |",
            c.labelled,
            share(c.found, c.labelled),
            c.reported,
            share(c.right, c.reported)
        );
    }
    let _ = writeln!(
        out,
        "\nRule-like sentences that are no standing rule, found as a rule: {}.",
        share(s.nonrules_found, s.nonrules)
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::anchor::fnv32;
    use crate::labels::LogLabels;

    const LOG: &str = concat!(
        r#"{"type":"user","message":{"role":"user","content":"Never push to main. Use uv, not pip. The lab printer is slow."},"uuid":"u1","sessionId":"s"}"#,
        "\n"
    );

    /// The anchor of `quote` in the log's first line.
    fn anchor(quote: &str) -> String {
        let start = LOG.find(quote).expect("quoted");
        format!("L1:{start}-{}#{:08x}", start + quote.len(), fnv32(quote))
    }

    #[test]
    fn recall_and_precision_of_the_typed_rules() {
        let labels = format!(
            "log 0\nsplit finder\n\
             rule r1 {} by=user kind=standing_rule form=prohibition\n\
             rule r2 {} by=user kind=standing_rule form=obligation\n\
             nonrule {} why=status\n",
            anchor("Never push to main."),
            anchor("The lab printer is slow."),
            anchor("The lab printer is slow."),
        );
        let case = Case {
            labels: LogLabels::parse("t.labels", &labels).unwrap(),
            name: "t.jsonl".into(),
            bytes: LOG.as_bytes().to_vec(),
            transcript: drift_session::read_transcript(LOG).unwrap(),
        };
        let s = score(&[&case], |_| drift_session::rules::SessionFinder, true);
        assert!(s.stale.is_empty(), "{:?}", s.stale);
        assert_eq!(s.logs, 1);
        // "Never push to main" found; the printer (labelled a rule here to
        // be missed) not; "use uv, not pip" found and not labelled.
        assert_eq!((s.user.labelled, s.user.found), (2, 1));
        assert_eq!((s.user.reported, s.user.right), (2, 1));
        assert_eq!((s.nonrules, s.nonrules_found), (1, 0));
        assert_eq!(s.misses.len(), 2, "{:?}", s.misses);
        assert!(
            report(&s, "across people")
                .contains("| the user's own words | 2 | 1 / 2 = 0.50 | 2 | 1 / 2 = 0.50 |")
        );
    }
}
