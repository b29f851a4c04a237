//! The judge learned and measured.
//!
//! The judge's model learns from three kinds of before/after pairs, each a
//! rule, a summary and the rule's fate there:
//!
//! - **real fates**: every rule labelled in force at a real compaction
//!   (`eval/real/`) whose fate the summary decided (kept, weakened,
//!   dropped, contradicted; not a rule the harness put back or kept
//!   verbatim), against that compaction's summary;
//! - **written pairs** (`eval/judge/<repo>.pairs`, [`Pair`]): for a real
//!   rule of a labelled log, a line a careful reader wrote as a summary
//!   might state it (kept in other words, softened, a detail lost, told as
//!   history, inverted, a plan step that breaks it, work told as done that
//!   broke it, the topic without the rule, a plan step that obeys it
//!   without stating it), put into a real summary of the same person that does not carry
//!   the rule; and that summary alone (the rule absent). The
//!   line is stored as a template: the rule's own words are references to
//!   its words (`{3}`, `{3-5}`), so nobody's words are in this
//!   repository; they are read from the log at run time;
//! - **the verdict sets' dev half** (`eval/verdicts/dev-*.txt`) and **the
//!   audit's labelled pairs** that were tuned on (drift-session's
//!   `tests/labelled/pairs.txt`, [`crate::audit_pairs`]), written for the
//!   project, of no person: always learned from. Their held-out halves are
//!   never learned from.
//!
//! Every pair of a person is in that person's fold ([`crate::cv`]): a
//! figure across people reads each person's pairs and compactions with a
//! model that never learned from that person. The frozen group's pairs
//! are never learned from; they are measured once, by the shipped model.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt::Write as _;

use drift_session::audit::{Fate, judged_summary};
use drift_session::judge::model::{JUDGED, JudgeWeights, softmax};
use drift_session::judge::{After, read};
use drift_session::transcript::CompactionKind;

use crate::anchor::{Anchor, fnv32};
use crate::labels::{LabelFate, People};
use crate::real::Case;
use crate::report::share;
use crate::verdicts::Item;
use crate::view::Reported;

/// The bits of the judge's feature tables.
pub const BITS: u32 = 14;

/// The trainer's version: part of what a model is trained from.
pub const TRAINER: u64 = 2;

/// What a written line does to its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum PairKind {
    /// The rule in other words, whole: kept.
    Reworded,
    /// Its firm word made soft: weakened.
    Softened,
    /// A value changed, or a condition, exception, approver or scope gone:
    /// weakened.
    DetailLost,
    /// Told as something decided in the past: weakened.
    History,
    /// The opposite, or the rule said to be lifted: contradicted.
    Inverted,
    /// A plan step that does what it forbids, or without its condition:
    /// contradicted.
    PlanBreach,
    /// The same subject without the rule: dropped.
    TopicOnly,
    /// A plan step on the same subject that obeys the rule without
    /// stating it: dropped.
    PlanCompliant,
    /// Work told as done that broke the rule: contradicted.
    DoneBreach,
    /// The summary alone, the rule not in it: dropped.
    Absent,
}

impl PairKind {
    /// Every kind, in report order.
    pub const ALL: [PairKind; 10] = [
        PairKind::Reworded,
        PairKind::Softened,
        PairKind::DetailLost,
        PairKind::History,
        PairKind::Inverted,
        PairKind::PlanBreach,
        PairKind::TopicOnly,
        PairKind::PlanCompliant,
        PairKind::DoneBreach,
        PairKind::Absent,
    ];

    /// As the pair files write it.
    pub const fn id(self) -> &'static str {
        match self {
            PairKind::Reworded => "reworded",
            PairKind::Softened => "softened",
            PairKind::DetailLost => "detail_lost",
            PairKind::History => "history",
            PairKind::Inverted => "inverted",
            PairKind::PlanBreach => "plan_breach",
            PairKind::TopicOnly => "topic_only",
            PairKind::PlanCompliant => "plan_compliant",
            PairKind::DoneBreach => "done_breach",
            PairKind::Absent => "absent",
        }
    }

    fn parse(s: &str) -> Option<PairKind> {
        PairKind::ALL.into_iter().find(|k| k.id() == s)
    }

    /// The fate a careful reader gives it.
    pub const fn fate(self) -> Fate {
        match self {
            PairKind::Reworded => Fate::Kept,
            PairKind::Softened | PairKind::DetailLost | PairKind::History => Fate::Weakened,
            PairKind::Inverted | PairKind::PlanBreach | PairKind::DoneBreach => Fate::Contradicted,
            PairKind::TopicOnly | PairKind::PlanCompliant | PairKind::Absent => Fate::Dropped,
        }
    }
}

/// Where a written line goes in its summary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum At {
    /// Among what the summary states.
    State,
    /// Under its plan (next steps, pending tasks).
    Plan,
}

/// A written pair: a line for a real rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pair {
    /// The rule's log (FNV-1a 64 of its bytes) and where the rule is.
    pub log: u64,
    pub anchor: Anchor,
    pub kind: PairKind,
    pub at: At,
    /// The line, its rule's words as references ([`fill`]).
    pub template: String,
}

/// Reads a pair file: `#` comments, then one pair a line, `<log> <anchor>
/// <kind> <state|plan> <template>`.
///
/// # Errors
///
/// A message naming the line that is not of the format.
pub fn parse_pairs(file: &str, text: &str) -> Result<Vec<Pair>, String> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.starts_with('#') {
            continue;
        }
        let err = |what: &str| format!("{file}:{}: {what}", i + 1);
        let mut parts = line.splitn(5, ' ');
        let mut next = || parts.next().unwrap_or("");
        let log = u64::from_str_radix(next(), 16).map_err(|_| err("a log hash (16 hex)"))?;
        let anchor = Anchor::parse(next()).map_err(|e| err(&format!("an anchor: {e}")))?;
        let kind = PairKind::parse(next()).ok_or_else(|| err("a kind of pair"))?;
        let at = match next() {
            "state" => At::State,
            "plan" => At::Plan,
            _ => return Err(err("`state` or `plan`")),
        };
        let template = next().to_string();
        if template.trim().is_empty() {
            return Err(err("a line to put in the summary"));
        }
        out.push(Pair {
            log,
            anchor,
            kind,
            at,
            template,
        });
    }
    Ok(out)
}

/// `s` without what is not a letter or a digit at either end.
fn core(s: &str) -> &str {
    s.trim_matches(|c: char| !c.is_alphanumeric())
}

/// The line a template stands for, its references filled from `rule`'s
/// words (split at white space): `{i}` is word `i`, `{i-j}` words `i` to
/// `j` joined by a space, each without the punctuation at its ends;
/// `{#i-j}` is the rule's characters `i` to `j` (for scripts written
/// without spaces); `{{` is `{`.
///
/// # Errors
///
/// A message naming a reference the rule has no words for.
pub fn fill(template: &str, rule: &str) -> Result<String, String> {
    let words: Vec<&str> = rule.split_whitespace().collect();
    let mut out = String::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        out.push_str(&rest[..open]);
        let after = &rest[open + 1..];
        if let Some(tail) = after.strip_prefix('{') {
            out.push('{');
            rest = tail;
            continue;
        }
        let close = after
            .find('}')
            .ok_or_else(|| format!("an unclosed reference in {template:?}"))?;
        let reference = &after[..close];
        if let Some(chars) = reference.strip_prefix('#') {
            let (a, b) = chars.split_once('-').unwrap_or((chars, chars));
            let (Ok(a), Ok(b)) = (a.parse::<usize>(), b.parse::<usize>()) else {
                return Err(format!("{{{reference}}} is no reference"));
            };
            let run: String = rule
                .chars()
                .skip(a)
                .take((b + 1).saturating_sub(a))
                .collect();
            if b < a || run.chars().count() != b + 1 - a {
                return Err(format!("{{{reference}}}: the rule is shorter"));
            }
            out.push_str(&run);
            rest = &after[close + 1..];
            continue;
        }
        let (a, b) = match reference.split_once('-') {
            Some((a, b)) => (a.parse::<usize>(), b.parse::<usize>()),
            None => (reference.parse::<usize>(), reference.parse::<usize>()),
        };
        let (Ok(a), Ok(b)) = (a, b) else {
            return Err(format!("{{{reference}}} is no reference"));
        };
        let run = words
            .get(a..=b)
            .ok_or_else(|| format!("{{{reference}}}: the rule has {} words", words.len()))?;
        out.push_str(core(&run.join(" ")));
        rest = &after[close + 1..];
    }
    out.push_str(rest);
    Ok(out)
}

/// Whether a line of a summary is a heading of its plan.
fn plan_heading(line: &str) -> bool {
    let t = line
        .trim()
        .trim_start_matches(|c: char| c.is_ascii_digit() || matches!(c, '.' | '#' | ' ' | '*'))
        .to_lowercase();
    t.len() < 60
        && [
            "next step",
            "optional next step",
            "pending",
            "current work",
            "next steps",
            "todo",
            "remaining",
            "plan",
        ]
        .iter()
        .any(|h| t.starts_with(h))
}

/// `base` with `line` put in: under its last plan heading (or a plan
/// heading of its own at the end) for a plan step, else among its
/// statements before any plan, at a place chosen by `seed`.
pub fn insert(base: &str, line: &str, at: At, seed: u32) -> String {
    let lines: Vec<&str> = base.lines().collect();
    let bullet = format!("- {line}");
    let plan = lines.iter().rposition(|l| plan_heading(l));
    let index = match at {
        At::Plan => match plan {
            Some(p) => p + 1,
            None => {
                let mut out = String::from(base.trim_end());
                if !out.is_empty() {
                    out.push_str("\n\n");
                }
                let _ = write!(out, "Next steps:\n{bullet}\n");
                return out;
            }
        },
        At::State => {
            let end = lines
                .iter()
                .position(|l| plan_heading(l))
                .unwrap_or(lines.len());
            if end == 0 { 0 } else { 1 + seed as usize % end }
        }
    };
    let mut out = String::new();
    for (i, l) in lines.iter().enumerate() {
        if i == index {
            out.push_str(&bullet);
            out.push('\n');
        }
        out.push_str(l);
        out.push('\n');
    }
    if index >= lines.len() {
        out.push_str(&bullet);
        out.push('\n');
    }
    out
}

/// A summary to put a written line in when its person's logs hold none
/// that leaves the rule out: headings only.
pub const SKELETON: &str = "Summary of the session so far:\n";

/// Where a pair comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Origin {
    /// A labelled fate at a real compaction.
    Real,
    /// A written pair of this kind.
    Written(PairKind),
    /// The verdict sets' dev half.
    Verdict,
    /// The audit's labelled pairs that were tuned on (drift-session's
    /// `tests/labelled/pairs.txt`).
    Audit,
}

/// One rule and one summary, with the fate a careful reader gives it.
#[derive(Clone, Debug)]
pub struct JudgeItem {
    /// The person; none for the verdict sets.
    pub repo: Option<u32>,
    pub people: Option<People>,
    pub origin: Origin,
    pub rule: String,
    pub after: String,
    /// The written line put into the summary, for a written pair.
    pub line: Option<String>,
    pub fate: Fate,
}

fn label_fate(f: LabelFate) -> Option<Fate> {
    Some(match f {
        LabelFate::Kept => Fate::Kept,
        LabelFate::Weakened => Fate::Weakened,
        LabelFate::Dropped => Fate::Dropped,
        LabelFate::Contradicted => Fate::Contradicted,
        _ => return None,
    })
}

/// The summaries of `case`'s labelled compactions, by number.
fn summaries(case: &Case) -> Vec<(usize, String)> {
    case.labels
        .compactions
        .iter()
        .filter_map(|&(n, line)| {
            let c = case
                .transcript
                .compactions
                .iter()
                .find(|c| c.record == line && c.kind == CompactionKind::Summary)?;
            let text = judged_summary(&case.transcript, c);
            (!text.trim().is_empty()).then_some((n, text))
        })
        .collect()
}

/// Every labelled fate the summary decided at the compactions of `cases`.
pub fn real_items(cases: &[&Case]) -> Vec<JudgeItem> {
    let mut out = Vec::new();
    for case in cases {
        let lines = case.lines();
        let summaries = summaries(case);
        for r in &case.labels.rules {
            let Ok(rule) = r.anchor.decode(&lines) else {
                continue;
            };
            for &(n, f) in &r.fates {
                let (Some(fate), Some((_, after))) =
                    (label_fate(f), summaries.iter().find(|(m, _)| *m == n))
                else {
                    continue;
                };
                out.push(JudgeItem {
                    repo: case.labels.repo,
                    people: Some(case.labels.split.people()),
                    origin: Origin::Real,
                    rule: rule.clone(),
                    after: after.clone(),
                    line: None,
                    fate,
                });
            }
        }
    }
    out
}

/// A labelled summary of a person's, with the rules labelled in it
/// (carried, weakened or contradicted there: the summary holds them).
struct Held {
    text: String,
    holds: Vec<String>,
}

/// Each labelled summary of `case`, with the rules it holds.
fn held(case: &Case) -> Vec<Held> {
    let lines = case.lines();
    summaries(case)
        .into_iter()
        .map(|(n, text)| Held {
            text,
            holds: case
                .labels
                .rules
                .iter()
                .filter(|r| {
                    r.fates.iter().any(|&(m, f)| {
                        m == n && f != LabelFate::Dropped && f != LabelFate::Withdrawn
                    })
                })
                .filter_map(|r| r.anchor.decode(&lines).ok())
                .collect(),
        })
        .collect()
}

/// Letters and digits only, lower case: text compared whatever its
/// spacing and punctuation.
fn squeezed(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

/// The written pairs, read against `cases` (every labelled log, for the
/// rules' text and their person's summaries): the items, and the pairs
/// whose rule cannot be read (its log is missing, or the anchor is stale).
pub fn pair_items(cases: &[Case], pairs: &[Pair]) -> (Vec<JudgeItem>, Vec<String>) {
    let by_log: BTreeMap<u64, &Case> = cases.iter().map(|c| (c.labels.hash, c)).collect();
    let mut person: BTreeMap<Option<u32>, Vec<(Held, String)>> = BTreeMap::new();
    for c in cases {
        for h in held(c) {
            let key = squeezed(&h.text);
            person.entry(c.labels.repo).or_default().push((h, key));
        }
    }
    let mut out = Vec::new();
    let mut stale = Vec::new();
    let mut absent_done: Vec<(u64, Anchor)> = Vec::new();
    for p in pairs {
        let Some(case) = by_log.get(&p.log) else {
            stale.push(format!("{:016x}: no labelled log", p.log));
            continue;
        };
        let lines = case.lines();
        let read = p
            .anchor
            .decode(&lines)
            .map_err(|e| e.to_string())
            .and_then(|rule| fill(&p.template, &rule).map(|line| (rule, line)));
        let (rule, line) = match read {
            Ok(r) => r,
            Err(e) => {
                stale.push(format!("{:016x}: {e}", p.log));
                continue;
            }
        };
        let seed = fnv32(&format!("{:016x}{}", p.log, rule));
        let base = person
            .get(&case.labels.repo)
            .and_then(|summaries| choose_base(summaries, &rule, seed));
        let item = |after: String, origin: Origin, fate: Fate| JudgeItem {
            repo: case.labels.repo,
            people: Some(case.labels.split.people()),
            origin,
            rule: rule.clone(),
            after,
            line: (origin != Origin::Written(PairKind::Absent)).then(|| line.clone()),
            fate,
        };
        if let Some(b) = base
            && !absent_done.contains(&(p.log, p.anchor))
        {
            absent_done.push((p.log, p.anchor));
            out.push(item(
                b.to_string(),
                Origin::Written(PairKind::Absent),
                Fate::Dropped,
            ));
        }
        let after = insert(base.unwrap_or(SKELETON), &line, p.at, seed);
        out.push(item(after, Origin::Written(p.kind), p.kind.fate()));
    }
    (out, stale)
}

/// The summary a rule's written lines go in: one of its person's labelled
/// summaries that does not hold it (the rule is not labelled kept,
/// weakened or contradicted there, and its words are not in it), chosen
/// by `seed`; none when there is none (the line then goes in
/// [`SKELETON`]).
fn choose_base<'a>(summaries: &'a [(Held, String)], rule: &str, seed: u32) -> Option<&'a str> {
    let key: String = squeezed(rule).chars().take(60).collect();
    let open: Vec<&str> = summaries
        .iter()
        .filter(|(h, text)| {
            let named = key.chars().count() >= 12 && text.contains(&key);
            !(named || h.holds.iter().any(|r| r == rule))
        })
        .map(|(h, _)| h.text.as_str())
        .collect();
    (!open.is_empty()).then(|| open[seed as usize % open.len()])
}

/// The verdict items as judge items (of no person).
pub fn verdict_items(items: &[Item]) -> Vec<JudgeItem> {
    items
        .iter()
        .map(|i| JudgeItem {
            repo: None,
            people: None,
            origin: Origin::Verdict,
            rule: i.rule.clone(),
            after: i.after.clone(),
            line: None,
            fate: match i.class.fate() {
                Reported::Weakened => Fate::Weakened,
                Reported::Dropped => Fate::Dropped,
                Reported::Contradicted => Fate::Contradicted,
                _ => Fate::Kept,
            },
        })
        .collect()
}

/// The rules' fates of the audit's labelled pairs (of no person).
pub fn audit_items(pairs: &[crate::audit_pairs::Pair]) -> Vec<JudgeItem> {
    pairs
        .iter()
        .flat_map(|p| {
            p.rules.iter().filter_map(move |(fate, clause)| {
                Some(JudgeItem {
                    repo: None,
                    people: None,
                    origin: Origin::Audit,
                    rule: clause.clone(),
                    after: p.after.clone(),
                    line: None,
                    fate: Fate::from_id(fate).filter(|f| *f != Fate::Reinjected)?,
                })
            })
        })
        .collect()
}

/// The items a model may learn from: of people not frozen, and of no
/// person.
pub fn learned(items: &[JudgeItem]) -> Vec<JudgeItem> {
    items
        .iter()
        .filter(|i| i.people != Some(People::Frozen))
        .cloned()
        .collect()
}

/// An item as the model learns it.
#[derive(Clone, Debug)]
pub struct JudgeExample {
    pub repo: Option<u32>,
    pub slots: Vec<u32>,
    /// Its fate's index in [`JUDGED`].
    pub class: usize,
    /// Where it comes from.
    pub origin: Origin,
}

/// The index of `fate` in [`JUDGED`].
pub fn class_of(fate: Fate) -> usize {
    JUDGED.iter().position(|f| *f == fate).unwrap_or(2)
}

/// `items` read and hashed into features.
pub fn examples(items: &[JudgeItem]) -> Vec<JudgeExample> {
    items
        .iter()
        .map(|i| {
            let after = After::new(&i.after);
            JudgeExample {
                repo: i.repo,
                slots: read(&i.rule, &after).slots(&i.rule, &i.after, BITS),
                class: class_of(i.fate),
                origin: i.origin,
            }
        })
        .collect()
}

/// How the judge's model is trained.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct JudgeSettings {
    pub epochs: usize,
    pub rate: f64,
    pub l2: f64,
}

/// The settings `cargo xtask train` uses.
pub const SETTINGS: JudgeSettings = JudgeSettings {
    epochs: 12,
    rate: 0.05,
    l2: 1e-5,
};

/// A generator of the same numbers every time (xorshift64).
fn shuffled(n: usize, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut x = seed | 1;
    for i in (1..n).rev() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let j = (x % (i as u64 + 1)) as usize;
        idx.swap(i, j);
    }
    idx
}

/// How much an example of `origin` weighs: a real compaction's fate is
/// what the judge is for, and there are fewer of them than written pairs.
fn origin_weight(origin: Origin) -> f64 {
    match origin {
        Origin::Real => REAL_WEIGHT,
        Origin::Written(_) | Origin::Verdict | Origin::Audit => 1.0,
    }
}

/// The weight of a real compaction's labelled fate against a written pair.
pub const REAL_WEIGHT: f64 = 3.0;

/// How far the fates' prior moves from what was learned from (mostly
/// losses, as the written pairs are by design) toward real compactions'
/// (mostly rules kept): half way, between the verdict sets' balance and
/// real sessions'.
pub const PRIOR: f64 = 0.5;

/// Trains the judge's model on `examples`: a softmax over the fates,
/// AdaGrad, a real compaction's fate weighing [`REAL_WEIGHT`], then each
/// fate's bias moved toward real compactions' prior ([`PRIOR`]).
pub fn train(examples: &[&JudgeExample], inputs: u64, s: JudgeSettings) -> JudgeWeights {
    let size = 1usize << BITS;
    let mut w = alloc::vec![0.0f64; 4 * size];
    let mut g = alloc::vec![1e-8f64; 4 * size];
    let mut bias = [0.0f64; 4];
    let mut gb = [1e-8f64; 4];
    for epoch in 0..s.epochs {
        for &i in &shuffled(examples.len(), 0x9e37_79b9 ^ epoch as u64) {
            let e = examples[i];
            let mut score = bias;
            for (k, sc) in score.iter_mut().enumerate() {
                for &slot in &e.slots {
                    *sc += w[k * size + slot as usize];
                }
            }
            let p = softmax(score.map(|x| x as f32));
            for k in 0..4 {
                let target = if k == e.class { 1.0 } else { 0.0 };
                let grad = (f64::from(p[k]) - target) * origin_weight(e.origin);
                gb[k] += grad * grad;
                bias[k] -= s.rate * grad / libm::sqrt(gb[k]);
                for &slot in &e.slots {
                    let j = k * size + slot as usize;
                    let gj = grad + s.l2 * w[j];
                    g[j] += gj * gj;
                    w[j] -= s.rate * gj / libm::sqrt(g[j]);
                }
            }
        }
    }
    // The fates' prior as real compactions have it, not as the written
    // pairs do (they are mostly losses, by design): each bias moved by the
    // log of how much likelier the fate is among real fates than among
    // what was learned from.
    let mut real = [1.0f64; 4];
    let mut learned = [1.0f64; 4];
    for e in examples {
        learned[e.class] += origin_weight(e.origin);
        if e.origin == Origin::Real {
            real[e.class] += 1.0;
        }
    }
    let (rt, lt): (f64, f64) = (real.iter().sum(), learned.iter().sum());
    for (k, b) in bias.iter_mut().enumerate() {
        *b += PRIOR * libm::log((real[k] / rt) / (learned[k] / lt));
    }
    JudgeWeights {
        inputs,
        bits: BITS,
        bias: bias.map(|b| b as f32),
        tables: w.iter().map(|&x| x as f32).collect(),
    }
}

/// How a set of pairs was judged: (origin, labelled fate, reported fate)
/// → count.
#[derive(Clone, Debug, Default)]
pub struct PairScores {
    pub repos: usize,
    pub confusion: BTreeMap<(Origin, Fate, Fate), usize>,
    pub misses: Vec<String>,
}

impl PairScores {
    fn count(&self, f: impl Fn(Origin, Fate, Fate) -> bool) -> usize {
        self.confusion
            .iter()
            .filter(|((o, l, r), _)| f(*o, *l, *r))
            .map(|(_, n)| n)
            .sum()
    }
}

/// Scores `items`, each judged by the judge `judge` gives for its person.
pub fn score(items: &[&JudgeItem], judge: impl Fn(&JudgeItem) -> Fate, misses: bool) -> PairScores {
    let mut repos: Vec<Option<u32>> = items.iter().map(|i| i.repo).collect();
    repos.sort_unstable();
    repos.dedup();
    let mut s = PairScores {
        repos: repos.len(),
        ..PairScores::default()
    };
    for item in items {
        let reported = judge(item);
        *s.confusion
            .entry((item.origin, item.fate, reported))
            .or_default() += 1;
        if misses && reported != item.fate {
            s.misses.push(format!(
                "{:?} {} → {}: {} || {}",
                item.origin,
                item.fate.id(),
                reported.id(),
                item.rule.replace('\n', " "),
                item.line.clone().unwrap_or_else(|| item
                    .after
                    .split_whitespace()
                    .take(30)
                    .collect::<Vec<_>>()
                    .join(" "))
            ));
        }
    }
    s
}

/// The table of a set of pairs: by kind, what the judge called them, and
/// the four figures the judge is held to.
pub fn report(s: &PairScores, title: &str) -> String {
    let total = s.count(|_, _, _| true);
    let exact = s.count(|_, l, r| l == r);
    let carried = s.count(|_, l, _| l == Fate::Kept);
    let carried_lost = s.count(|_, l, r| l == Fate::Kept && r.is_loss());
    let lost = s.count(|_, l, _| l.is_loss());
    let caught = s.count(|_, l, r| l.is_loss() && r.is_loss());
    let contra = s.count(|_, l, _| l == Fate::Contradicted);
    let contra_right = s.count(|_, l, r| l == Fate::Contradicted && r == Fate::Contradicted);
    let mut out = format!(
        "### {title}: {total} pairs of {} people\n\n\
         Exact {exact} / {total} = {}; carried called lost {carried_lost} / {carried} = {}; \
         lost caught {caught} / {lost} = {}; contradictions right {contra_right} / {contra} = {}.\n\n",
        s.repos,
        share(exact, total),
        share(carried_lost, carried),
        share(caught, lost),
        share(contra_right, contra),
    );
    out.push_str(
        "| pair | labelled | pairs | kept | weakened | dropped | contradicted | right |\n\
         | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |\n",
    );
    let mut origins: Vec<(Origin, Fate)> = s.confusion.keys().map(|(o, l, _)| (*o, *l)).collect();
    origins.sort_unstable();
    origins.dedup();
    for (origin, label) in origins {
        let name = match origin {
            Origin::Real => "real compaction".to_string(),
            Origin::Written(k) => k.id().to_string(),
            Origin::Verdict => "verdict set".to_string(),
            Origin::Audit => "audit pair".to_string(),
        };
        let by = |r: Fate| s.count(|o, l, x| o == origin && l == label && x == r);
        let n = s.count(|o, l, _| o == origin && l == label);
        let _ = writeln!(
            out,
            "| {name} | {} | {n} | {} | {} | {} | {} | {} |",
            label.id(),
            by(Fate::Kept),
            by(Fate::Weakened),
            by(Fate::Dropped),
            by(Fate::Contradicted),
            share(by(label), n),
        );
    }
    out
}

/// What a judge model is trained from, hashed (FNV-1a 64): the trainer's
/// version, how a reading becomes features (the slots of a few fixed
/// pairs), and the texts given (labels of the people it learns from, pair
/// files, the verdict sets' dev half).
pub fn inputs_hash<'a>(texts: impl IntoIterator<Item = (&'a str, &'a str)>) -> u64 {
    let mut bytes: Vec<u8> = Vec::new();
    bytes.extend_from_slice(&TRAINER.to_le_bytes());
    bytes.extend_from_slice(&BITS.to_le_bytes());
    for (rule, after) in PROBES {
        for s in read(rule, &After::new(after)).slots(rule, after, BITS) {
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        bytes.push(0xff);
    }
    for (name, text) in texts {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
    }
    crate::anchor::fnv64(&bytes)
}

/// Pairs whose features tell when the reading changed.
const PROBES: [(&str, &str); 6] = [
    (
        "You may deploy on Sundays.",
        "Constraints:\n- Deploying on Sundays is not allowed.\n",
    ),
    (
        "We are still on libfoo 2.3.1, do not bump.",
        "Dependency libfoo was upgraded to 2.4.0; tests pass.\n",
    ),
    (
        "never push to main without asking me first",
        "Constraints:\n- Always ask before pushing to main.\nNext steps:\n- Push the fix to main.\n",
    ),
    (
        "use at most 3 retries",
        "Notes:\n- Retries were raised to 5, as decided earlier.\n",
    ),
    (
        "don't touch the vendored code",
        "6. All user messages:\n   - \"don't touch the vendored code\"\n",
    ),
    ("answer in Chinese", "Work so far: the parser is fixed.\n"),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn templates_fill_from_the_rule() {
        let rule = "Never push to `main`, ask me first.";
        assert_eq!(
            fill("Next: {1-2} {3} now.", rule).unwrap(),
            "Next: push to main now."
        );
        assert_eq!(fill("{0} {{x}", rule).unwrap(), "Never {x}");
        assert_eq!(
            fill("不要{#0-1}。", "提交代码前先跑测试").unwrap(),
            "不要提交。"
        );
        assert!(fill("{#5-40}", "short").is_err());
        assert!(fill("{9}", rule).is_err());
        assert!(fill("{a}", rule).is_err());
        assert!(fill("{2", rule).is_err());
    }

    #[test]
    fn a_pair_file_reads() {
        let text = "# pairs\n00c0eca74c80b6d6 L1:244-301#7fb8dbcd plan_breach plan Next: {0-2}.\n";
        let p = parse_pairs("x.pairs", text).unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].kind, PairKind::PlanBreach);
        assert_eq!(p[0].at, At::Plan);
        assert_eq!(p[0].template, "Next: {0-2}.");
        assert!(parse_pairs("x", "zz L1:1-2#0 kept state x\n").is_err());
        assert!(parse_pairs("x", "00c0eca74c80b6d6 L1:1-2#0 odd state x\n").is_err());
        assert!(parse_pairs("x", "00c0eca74c80b6d6 L1:1-2#0 reworded here x\n").is_err());
    }

    #[test]
    fn lines_go_where_they_are_said_to() {
        let base = "1. Intent:\n   Fix it.\n2. Notes:\n   - a\n7. Pending Tasks:\n   - b\n";
        let plan = insert(base, "run it", At::Plan, 3);
        assert!(plan.contains("Pending Tasks:\n- run it\n   - b"), "{plan}");
        let state = insert(base, "keep it", At::State, 3);
        let at = state.find("- keep it").unwrap();
        assert!(at < state.find("Pending").unwrap(), "{state}");
        assert!(insert("Done.", "go", At::Plan, 0).ends_with("Next steps:\n- go\n"));
    }

    #[test]
    fn training_learns_a_separable_set() {
        let ex: Vec<JudgeExample> = (0..40)
            .map(|i| JudgeExample {
                repo: None,
                slots: alloc::vec![0, 1 + (i % 4) as u32],
                class: i % 4,
                origin: Origin::Verdict,
            })
            .collect();
        let refs: Vec<&JudgeExample> = ex.iter().collect();
        let w = train(&refs, 1, SETTINGS);
        let bytes = w.to_bytes();
        let m = drift_session::judge::model::JudgeModel::from_bytes(&bytes).unwrap();
        for k in 0..4 {
            let c = m.chances(&[0, 1 + k as u32]);
            let best = (0..4).max_by(|&a, &b| c[a].total_cmp(&c[b])).unwrap();
            assert_eq!(best, k);
        }
    }
}
