//! Real compactions scored against their labels.
//!
//! For every labelled compaction, the labelled rules in force (every fate
//! but `withdrawn`) are matched to the rules the tool judged at that
//! compaction by the words they share ([`crate::text`]): each label takes
//! the best, a rule on its labelled line before one elsewhere (a sentence
//! reported whole stands for each rule labelled in it). Then:
//!
//! - **found**: labelled rules the tool judged at all;
//! - **carried, called lost**: of the rules the new context carried (kept,
//!   put back, kept verbatim), the share the tool called weakened, dropped
//!   or contradicted;
//! - **lost, caught**: of the rules the compaction lost, the share the tool
//!   called lost (a rule it never found is not caught);
//! - **reported lost**: every loss the tool shows up front, against the
//!   labelled losses, per compaction: each rule of the user's, a brief's or
//!   the system's one by one, an instruction file or skill once however
//!   many of its rules it lost (the report shows it as one entry);
//! - **rule-like, not rules**: labelled sentences that are no standing rule
//!   and that the tool reported lost at any compaction;
//! - **invented**: the tool's invented rules that a labelled invention
//!   matches (precision), and the labelled ones it found (recall).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use drift_session::judge::FateJudge;
use drift_session::rules::RuleFinder;
use drift_session::{Transcript, read_transcript};

use crate::anchor::fnv64;
use crate::labels::{By, LabelFate, LogLabels};
use crate::text::{SAME, overlap, words};
use crate::view::{CompactionView, Reported, audit};

/// A labelled log, read.
#[derive(Debug)]
pub struct Case {
    pub labels: LogLabels,
    /// The log's file name.
    pub name: String,
    pub bytes: Vec<u8>,
    pub transcript: Transcript,
}

impl Case {
    /// The log's raw lines.
    pub fn lines(&self) -> Vec<&[u8]> {
        self.bytes.split(|b| *b == b'\n').collect()
    }
}

/// The labelled logs among `logs` (each a file name and its bytes), one
/// [`Case`] per label file (`labels`: its name for messages and its text)
/// whose log is there, with the label files that name a log not there.
///
/// # Errors
///
/// A message naming a label file that cannot be read, or a log that the
/// tool cannot read.
pub fn cases(
    labels: Vec<(String, String)>,
    logs: Vec<(String, Vec<u8>)>,
) -> Result<(Vec<Case>, Vec<String>), String> {
    let mut by_hash: BTreeMap<u64, (String, Vec<u8>)> = BTreeMap::new();
    for (name, bytes) in logs {
        by_hash.insert(fnv64(&bytes), (name, bytes));
    }
    let mut cases = Vec::new();
    let mut missing = Vec::new();
    for (shown, text) in labels {
        let labels = LogLabels::parse(&shown, &text).map_err(|e| e.to_string())?;
        let Some((name, bytes)) = by_hash.get(&labels.hash) else {
            missing.push(shown);
            continue;
        };
        let log = String::from_utf8_lossy(bytes).into_owned();
        let transcript = read_transcript(&log).map_err(|e| format!("{name}: {e}"))?;
        cases.push(Case {
            labels,
            name: name.clone(),
            bytes: bytes.clone(),
            transcript,
        });
    }
    Ok((cases, missing))
}

/// Counts of one class of rules.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ClassCounts {
    /// (rule, compaction) pairs labelled in force.
    pub labelled: usize,
    /// Of those, judged by the tool.
    pub found: usize,
    /// Labelled carried and found.
    pub carried: usize,
    /// Of those, called lost.
    pub carried_called_lost: usize,
    /// Labelled lost.
    pub lost: usize,
    /// Of those, called lost by the tool.
    pub lost_caught: usize,
    /// Found pairs whose fate agrees (weakened, dropped and contradicted
    /// kept apart; kept, put back and kept verbatim apart).
    pub exact: usize,
}

impl ClassCounts {
    fn add(&mut self, o: &ClassCounts) {
        self.labelled += o.labelled;
        self.found += o.found;
        self.carried += o.carried;
        self.carried_called_lost += o.carried_called_lost;
        self.lost += o.lost;
        self.lost_caught += o.lost_caught;
        self.exact += o.exact;
    }
}

/// A mismatch worth a look (dev only).
#[derive(Clone, Debug)]
pub struct Miss {
    pub log: String,
    pub compaction: usize,
    pub what: &'static str,
    pub label: String,
    pub reported: String,
}

/// How many people (repositories) `cases` come from.
pub fn repos(cases: &[&Case]) -> usize {
    let mut repos: Vec<Option<u32>> = cases.iter().map(|c| c.labels.repo).collect();
    repos.sort_unstable();
    repos.dedup();
    repos.len()
}

/// The scores of one set of logs.
#[derive(Clone, Debug, Default)]
pub struct Scores {
    /// The people (repositories) the logs come from.
    pub repos: usize,
    pub logs: usize,
    pub compactions: usize,
    pub by: BTreeMap<By, ClassCounts>,
    /// Fate confusion on found pairs: (label, reported) → count.
    pub confusion: BTreeMap<(LabelFate, Reported), usize>,
    /// Losses the tool showed up front, and the labelled losses.
    pub reported_losses: usize,
    pub labelled_losses: usize,
    /// Reported losses that match no labelled rule.
    pub unlabelled_losses: usize,
    /// Rules of the user's (or a brief's) the tool judged, and how many of
    /// them a label calls a rule.
    pub user_reported: usize,
    pub user_reported_right: usize,
    /// Labelled rule-like sentences that are no rule, by why, and how many
    /// the tool reported lost.
    pub nonrules: BTreeMap<String, (usize, usize)>,
    /// Inventions: reported, of those right; labelled, of those found.
    pub invented_reported: usize,
    pub invented_right: usize,
    pub invented_labelled: usize,
    pub invented_found: usize,
    /// Lineage: the user's labelled rules at each compaction of logs that
    /// compact twice or more; of those, how many the tool gives the
    /// labelled fate, and how many it rightly calls lost or not.
    pub lineage_pairs: usize,
    pub lineage_exact: usize,
    pub lineage_lost_right: usize,
    /// Anchors that did not decode.
    pub stale: Vec<String>,
    pub misses: Vec<Miss>,
}

fn reported_matches(label: LabelFate, reported: Reported) -> bool {
    matches!(
        (label, reported),
        (LabelFate::Kept, Reported::Kept)
            | (LabelFate::Reinjected, Reported::Reinjected)
            | (LabelFate::Verbatim, Reported::Verbatim)
            | (LabelFate::Weakened, Reported::Weakened)
            | (LabelFate::Dropped, Reported::Dropped)
            | (LabelFate::Contradicted, Reported::Contradicted)
            | (LabelFate::Unknown, Reported::Unjudged)
    )
}

/// Scores `cases` (see the module docs), each read with the finder
/// `finder` and the judge `judge` give for it. `misses` collects the
/// mismatches to show.
pub fn score<'j, F: RuleFinder>(
    cases: &[&Case],
    finder: impl Fn(&Case) -> F,
    judge: impl Fn(&Case) -> FateJudge<'j>,
    misses: bool,
) -> Scores {
    let mut s = Scores {
        repos: repos(cases),
        ..Scores::default()
    };
    for &case in cases {
        s.logs += 1;
        let lines = case.lines();
        let log = case.name.as_str();
        let decode = |a: crate::anchor::Anchor, s: &mut Scores| match a.decode(&lines) {
            Ok(t) => Some(t),
            Err(e) => {
                s.stale.push(format!("{}: {e}", case.labels.file));
                None
            }
        };
        let rules: Vec<Option<String>> = case
            .labels
            .rules
            .iter()
            .map(|r| decode(r.anchor, &mut s))
            .collect();
        let nonrules: Vec<Option<String>> = case
            .labels
            .nonrules
            .iter()
            .map(|n| decode(n.anchor, &mut s))
            .collect();
        let views = audit(&case.transcript, &finder(case), &judge(case));
        let mut nonrule_lost = vec![false; nonrules.len()];
        for &(number, line) in &case.labels.compactions {
            s.compactions += 1;
            let Some(view) = views.iter().find(|v| v.line == line) else {
                if misses {
                    s.misses.push(Miss {
                        log: log.to_string(),
                        compaction: number,
                        what: "compaction not found",
                        label: format!("line {line}"),
                        reported: String::new(),
                    });
                }
                continue;
            };
            score_compaction(
                &mut s,
                case,
                log,
                number,
                view,
                &rules,
                &nonrules,
                &mut nonrule_lost,
                misses,
            );
            if case.labels.compactions.len() >= 2 {
                score_lineage(&mut s, case, number, view, &rules);
            }
            // Inventions.
            let labelled: Vec<String> = case
                .labels
                .invented
                .iter()
                .filter(|i| i.compaction == number)
                .filter_map(|i| i.anchor.decode(&lines).ok())
                .collect();
            let labelled_words: Vec<_> = labelled.iter().map(|t| words(t)).collect();
            s.invented_labelled += labelled.len();
            s.invented_reported += view.invented.len();
            let mut found = vec![false; labelled.len()];
            for inv in &view.invented {
                let w = words(inv);
                // A sentence reported whole with its neighbours stands for
                // every labelled invention it holds.
                let mut hit = None;
                for (i, l) in labelled_words.iter().enumerate() {
                    if overlap(l, &w) >= SAME {
                        found[i] = true;
                        hit = Some(i);
                    }
                }
                match hit {
                    Some(_) => s.invented_right += 1,
                    None if misses => s.misses.push(Miss {
                        log: log.to_string(),
                        compaction: number,
                        what: "invented, wrongly",
                        label: String::new(),
                        reported: inv.clone(),
                    }),
                    None => {}
                }
            }
            s.invented_found += found.iter().filter(|f| **f).count();
            if misses {
                for (i, f) in found.iter().enumerate() {
                    if !f {
                        s.misses.push(Miss {
                            log: log.to_string(),
                            compaction: number,
                            what: "invention missed",
                            label: labelled[i].clone(),
                            reported: String::new(),
                        });
                    }
                }
            }
        }
        for (i, n) in case.labels.nonrules.iter().enumerate() {
            let entry = s.nonrules.entry(n.why.clone()).or_default();
            entry.0 += 1;
            if nonrule_lost[i] {
                entry.1 += 1;
            }
        }
    }
    s
}

/// The user's labelled rules at one compaction of a log that compacts
/// twice or more, against the fate the lineage gives them (the same
/// matching as [`score_compaction`]; a rule never found counts as wrong).
fn score_lineage(
    s: &mut Scores,
    case: &Case,
    number: usize,
    view: &CompactionView,
    rules: &[Option<String>],
) {
    let reported_words: Vec<_> = view.rules.iter().map(|r| words(&r.text)).collect();
    for (i, r) in case.labels.rules.iter().enumerate() {
        if r.by != By::User {
            continue;
        }
        let Some(fate) = r.fates.iter().find(|(n, _)| *n == number).map(|f| f.1) else {
            continue;
        };
        let Some(text) = rules[i].as_deref().filter(|_| fate != LabelFate::Withdrawn) else {
            continue;
        };
        s.lineage_pairs += 1;
        let lw = words(text);
        let best = reported_words
            .iter()
            .enumerate()
            .map(|(j, rw)| {
                let same_line = view.rules[j].line == r.anchor.line;
                (same_line, overlap(&lw, rw), j)
            })
            .filter(|(_, o, _)| *o >= SAME)
            .max_by(|a, b| {
                (a.0, a.1)
                    .partial_cmp(&(b.0, b.1))
                    .unwrap_or(core::cmp::Ordering::Equal)
            });
        if let Some((_, _, j)) = best {
            let reported = view.rules[j].fate;
            s.lineage_exact += usize::from(reported_matches(fate, reported));
            s.lineage_lost_right += usize::from(fate.is_loss() == reported.is_loss());
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn score_compaction(
    s: &mut Scores,
    case: &Case,
    log: &str,
    number: usize,
    view: &CompactionView,
    rules: &[Option<String>],
    nonrules: &[Option<String>],
    nonrule_lost: &mut [bool],
    misses: bool,
) {
    let reported_words: Vec<_> = view.rules.iter().map(|r| words(&r.text)).collect();
    // Labelled pairs in force here.
    let pairs: Vec<(usize, LabelFate)> = case
        .labels
        .rules
        .iter()
        .enumerate()
        .filter_map(|(i, r)| {
            let fate = r.fates.iter().find(|(n, _)| *n == number)?.1;
            (fate != LabelFate::Withdrawn && rules[i].is_some()).then_some((i, fate))
        })
        .collect();
    // Candidate matches, best first.
    let mut candidates: Vec<(f64, bool, usize, usize)> = Vec::new();
    for (p, &(i, _)) in pairs.iter().enumerate() {
        let lw = words(rules[i].as_deref().unwrap_or(""));
        for (j, rw) in reported_words.iter().enumerate() {
            let o = overlap(&lw, rw);
            if o >= SAME {
                let same_line = view.rules[j].line == case.labels.rules[i].anchor.line;
                candidates.push((o, same_line, p, j));
            }
        }
    }
    candidates.sort_by(|a, b| {
        (b.1, b.0)
            .partial_cmp(&(a.1, a.0))
            .unwrap_or(core::cmp::Ordering::Equal)
    });
    // Each label takes its best reported rule; a rule reported whole may
    // stand for several labels that are parts of it.
    let mut pair_match: Vec<Option<usize>> = vec![None; pairs.len()];
    let mut taken = vec![false; view.rules.len()];
    for (_, _, p, j) in candidates {
        if pair_match[p].is_none() {
            pair_match[p] = Some(j);
            taken[j] = true;
        }
    }
    for (p, &(i, fate)) in pairs.iter().enumerate() {
        let rule = &case.labels.rules[i];
        let c = s.by.entry(rule.by).or_default();
        c.labelled += 1;
        if fate.is_loss() {
            c.lost += 1;
        }
        let Some(j) = pair_match[p] else {
            if misses {
                s.misses.push(Miss {
                    log: log.to_string(),
                    compaction: number,
                    what: if fate.is_loss() {
                        "lost rule not found"
                    } else {
                        "rule not found"
                    },
                    label: format!(
                        "[{} {}] {}",
                        rule.by_id,
                        fate.id(),
                        rules[i].as_deref().unwrap_or("")
                    ),
                    reported: String::new(),
                });
            }
            continue;
        };
        let reported = view.rules[j].fate;
        c.found += 1;
        if fate.is_carried() {
            c.carried += 1;
            if reported.is_loss() {
                c.carried_called_lost += 1;
            }
        }
        if fate.is_loss() && reported.is_loss() {
            c.lost_caught += 1;
        }
        if reported_matches(fate, reported) {
            c.exact += 1;
        } else if misses && (fate.is_loss() != reported.is_loss()) {
            s.misses.push(Miss {
                log: log.to_string(),
                compaction: number,
                what: "wrong fate",
                label: format!(
                    "[{} {}] {}",
                    rule.by_id,
                    fate.id(),
                    rules[i].as_deref().unwrap_or("")
                ),
                reported: format!("[{}] {}", reported.id(), view.rules[j].text),
            });
        }
        *s.confusion.entry((fate, reported)).or_default() += 1;
    }
    s.labelled_losses += pairs.iter().filter(|(_, f)| f.is_loss()).count();
    // What the tool reported that no labelled rule matched. A file lost
    // is one entry up front, matched when any of its lost rules is.
    let mut groups: BTreeMap<&str, bool> = BTreeMap::new();
    for (j, r) in view.rules.iter().enumerate() {
        if let Some(g) = r
            .group
            .as_deref()
            .filter(|_| r.up_front && r.fate.is_loss())
        {
            *groups.entry(g).or_default() |= taken[j];
        }
    }
    s.reported_losses += groups.len();
    s.unlabelled_losses += groups.values().filter(|&&matched| !matched).count();
    for (j, r) in view.rules.iter().enumerate() {
        let grouped = r.group.is_some();
        if matches!(r.by, Some(By::User | By::Brief)) {
            s.user_reported += 1;
            if taken[j] {
                s.user_reported_right += 1;
            }
        }
        if r.up_front && r.fate.is_loss() && !grouped {
            s.reported_losses += 1;
        }
        if taken[j] {
            continue;
        }
        // A labelled rule-like sentence that is no rule?
        let hit = nonrules.iter().enumerate().find(|(k, t)| {
            t.as_deref().is_some_and(|t| {
                case.labels.nonrules[*k].anchor.line == r.line
                    && overlap(&words(t), &reported_words[j]) >= SAME
            })
        });
        if let Some((k, _)) = hit {
            if r.fate.is_loss() {
                nonrule_lost[k] = true;
            }
        } else if r.up_front && r.fate.is_loss() && !grouped {
            s.unlabelled_losses += 1;
            if misses && matches!(r.by, Some(By::User | By::Brief)) {
                s.misses.push(Miss {
                    log: log.to_string(),
                    compaction: number,
                    what: "reported lost, no such rule",
                    label: String::new(),
                    reported: format!("[{} line {}] {}", r.fate.id(), r.line, r.text),
                });
            }
        }
    }
}

/// Sums a class over every class.
pub fn all(s: &Scores) -> ClassCounts {
    let mut t = ClassCounts::default();
    for c in s.by.values() {
        t.add(c);
    }
    t
}
