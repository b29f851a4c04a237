//! The rule finder's model, learned from the labels: `cargo xtask train`.
//!
//! Every unit the finder reads in a labelled log ([`drift_session::rules::givers`],
//! then [`candidates`]) is an example: a rule when it holds a labelled
//! rule of that message (its words are at least half the shorter's), else
//! not. Units of the user, a brief and the answers count whole (every one
//! of those was labelled); units of instruction files, skills and hooks,
//! whose long bodies readers labelled in part, count only when they are
//! rules (the rule corpus's documents give such texts' sentences that are
//! none); a tool's output, whose policies are rare, counts one unit in
//! [`TOOL_SAMPLE`] of those that are none. A unit a label calls withdrawn is left
//! out. The frozen group is never read.
//!
//! The model is logistic regression on the hashed features, trained by
//! AdaGrad in a fixed order with `f64` sums, so the same labels and logs
//! give the same bytes: one table for every unit but a tool's, one for a
//! tool's output (learned from it alone, and faster: [`TOOLS`]). The form
//! of a rule is a softmax over the same features, learned from the rules
//! alone. The thresholds are chosen on units the model did not learn from
//! (three folds by person inside the training set): for each giver, the
//! chance that gives the best F1 on its units (a tool's, on the rule
//! corpus's tool documents, labelled whole); "possibly a rule" starts
//! where F2 is best (recall weighing four times precision: it is shown
//! folded, never restated).
//!
//! Folds are by person: [`folds`] puts every repository in one of `k`
//! folds, balancing the user's labelled rules.

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

use drift_session::rules::model::{Featurizer, Giver, Scratch, Text, Weights, candidates};
use drift_session::rules::{Authority, RuleForm, TextOrigin, givers};

use crate::labels::{By, Split};
use crate::real::Case;
use crate::text::{SAME, overlap, words};

/// The bits of the rule table.
pub const BITS: u32 = 18;
/// The bits of each form's table.
pub const FORM_BITS: u32 = 15;
/// The F-beta a rule's threshold is chosen for: F1, a rule found and a
/// rule reported right weigh the same.
pub const SURE: f64 = 1.0;
/// The F-beta the threshold of "possibly a rule" is chosen for.
pub const POSSIBLE: f64 = 2.0;
/// Changes whenever training changes what it writes: part of the hash of
/// what a model was trained from.
pub const TRAINER: u64 = 4;

/// One unit, as the trainer sees it.
#[derive(Clone, Debug)]
pub struct Example {
    /// Its feature slots.
    pub slots: Vec<u32>,
    /// A standing rule.
    pub rule: bool,
    /// Its labelled form, when a rule.
    pub form: Option<RuleForm>,
    /// How much it counts.
    pub weight: f32,
    /// The person: the repository of its log.
    pub repo: u32,
    /// A unit of the user's own (typed, queued, a rejection's reason, an
    /// answer).
    pub users: bool,
    /// Who it is from, for its threshold.
    pub class: Giver,
    /// How many units it stands for: a tool's units that are no rule are
    /// learned from one in [`TOOL_SAMPLE`], each standing for that many.
    pub count: f32,
    /// Who wrote it, for counting how many people a feature is seen with:
    /// its person, or for the rule corpus, its document (written on
    /// purpose in general words, each of another domain).
    pub author: u32,
}

/// The form a label names (its `form`, else its `kind`).
fn form_of(form: &str, kind: &str) -> Option<RuleForm> {
    RuleForm::from_id(form)
        .or_else(|| RuleForm::from_id(kind))
        .or((form == "carve-out").then_some(RuleForm::CarveOut))
}

/// Every example of `cases` (the frozen group left out).
pub fn examples(cases: &[&Case]) -> Vec<Example> {
    examples_with(cases, &Featurizer::new(BITS))
}

/// [`examples`], with the features `featurizer` gives.
pub fn examples_with(cases: &[&Case], featurizer: &Featurizer) -> Vec<Example> {
    let mut scratch = Scratch::default();
    let mut slots = Vec::new();
    let mut out = Vec::new();
    for case in cases {
        if case.labels.split == Split::Frozen {
            continue;
        }
        let lines = case.lines();
        let repo = case.labels.repo.unwrap_or(0);
        // The labelled rules with their words and lines, and the lines of
        // the units labelled withdrawn.
        let rules: Vec<(
            Vec<usize>,
            alloc::collections::BTreeSet<alloc::string::String>,
            Option<RuleForm>,
        )> = case
            .labels
            .rules
            .iter()
            .filter_map(|r| {
                let text = r.anchor.decode(&lines).ok()?;
                let mut at = vec![r.anchor.line];
                at.extend(r.restated.iter().copied());
                Some((at, words(&text), form_of(&r.form, &r.kind)))
            })
            .collect();
        let withdrawn: Vec<(usize, alloc::collections::BTreeSet<alloc::string::String>)> = case
            .labels
            .nonrules
            .iter()
            .filter(|n| n.why == "withdrawn")
            .filter_map(|n| Some((n.anchor.line, words(&n.anchor.decode(&lines).ok()?))))
            .collect();
        let mut tool_units = 0usize;
        for g in givers(&case.transcript) {
            let m = &case.transcript.messages[g.message];
            let users = matches!(
                g.origin,
                TextOrigin::Typed | TextOrigin::Rejection | TextOrigin::Answers
            ) && g.authority == Authority::User;
            let text = Text::new(&m.text, g.origin, &g.context);
            for c in candidates(&m.text, g.origin) {
                let unit = words(c.span.of(&m.text));
                if unit.is_empty() {
                    continue;
                }
                let hit = rules
                    .iter()
                    .find(|(at, w, _)| at.contains(&m.record) && overlap(w, &unit) >= SAME);
                if hit.is_none()
                    && withdrawn
                        .iter()
                        .any(|(line, w)| *line == m.record && overlap(w, &unit) >= SAME)
                {
                    continue;
                }
                let rule = hit.is_some();
                let mut count = 1.0;
                let weight = match (rule, g.origin, g.authority) {
                    (true, _, _) => 1.0,
                    (false, TextOrigin::Tool, _) | (false, _, Authority::ToolPolicy) => {
                        tool_units += 1;
                        if !tool_units.is_multiple_of(TOOL_SAMPLE) {
                            continue;
                        }
                        count = TOOL_SAMPLE as f32;
                        1.0
                    }
                    // Instruction files, skills and hooks were labelled in
                    // part (their long bodies): a unit no label names is no
                    // evidence it is none. The corpus gives their negatives.
                    (false, TextOrigin::Standing(_), _) => continue,
                    (false, _, _) => 1.0,
                };
                featurizer.features(&text, &c, &mut scratch, &mut slots);
                out.push(Example {
                    slots: slots.clone(),
                    rule,
                    form: hit.and_then(|h| h.2),
                    weight,
                    repo,
                    users,
                    class: Giver::of(g.origin, c.restated),
                    count,
                    author: repo,
                });
            }
        }
    }
    out
}

/// How much a unit of the rule corpus counts against one of a person's.
pub const CORPUS_WEIGHT: f32 = 1.0;

/// A tool's units that are no rule are learned from one in this many.
pub const TOOL_SAMPLE: usize = 8;

/// The group of the rule corpus's documents: the project's own writing,
/// one group however many files.
pub const CORPUS: u32 = 0xC000_0000;

/// The examples the finder learns from: every unit of `cases` (the frozen
/// group left out) and of the rule corpus's documents.
pub fn dataset(cases: &[&Case], corpus: &[crate::corpus::Document]) -> Vec<Example> {
    let featurizer = Featurizer::new(BITS);
    let mut out = examples_with(cases, &featurizer);
    out.extend(corpus_examples(corpus, &featurizer, CORPUS));
    out
}

/// The examples of the rule corpus's documents, as the person `repo`.
pub fn corpus_examples(
    docs: &[crate::corpus::Document],
    featurizer: &Featurizer,
    repo: u32,
) -> Vec<Example> {
    let mut scratch = Scratch::default();
    let mut slots = Vec::new();
    let mut out = Vec::new();
    let context = drift_session::rules::Context::default();
    for (n, d) in docs.iter().enumerate() {
        let rules: Vec<(
            alloc::collections::BTreeSet<alloc::string::String>,
            Option<RuleForm>,
        )> = d.rules.iter().map(|(t, f)| (words(t), *f)).collect();
        let text = Text::new(&d.text, d.origin, &context);
        for c in candidates(&d.text, d.origin) {
            let unit = words(c.span.of(&d.text));
            if unit.is_empty() {
                continue;
            }
            let hit = rules.iter().find(|(w, _)| overlap(w, &unit) >= SAME);
            featurizer.features(&text, &c, &mut scratch, &mut slots);
            out.push(Example {
                slots: slots.clone(),
                rule: hit.is_some(),
                form: hit.and_then(|h| h.1),
                weight: CORPUS_WEIGHT,
                repo,
                users: false,
                class: Giver::of(d.origin, c.restated),
                count: 1.0,
                author: repo.wrapping_add(1 + u32::try_from(n).unwrap_or(u32::MAX)),
            });
        }
    }
    out
}

/// What a model is trained from, hashed (FNV-1a 64): the trainer's
/// version, how texts become features ([`Featurizer::fingerprint`]), the
/// label files of the people it learns from (each its name
/// and text, in order of name; a label file names its log by the log's
/// hash, so the logs are in it too) and the rule corpus's files.
pub fn inputs_hash<'a>(
    labels: impl IntoIterator<Item = (&'a str, &'a str)>,
    corpus: impl IntoIterator<Item = &'a str>,
) -> u64 {
    let mut bytes: Vec<u8> = Vec::new();
    bytes.extend_from_slice(&TRAINER.to_le_bytes());
    bytes.extend_from_slice(&Featurizer::new(BITS).fingerprint().to_le_bytes());
    bytes.extend_from_slice(&BITS.to_le_bytes());
    bytes.extend_from_slice(&FORM_BITS.to_le_bytes());
    for (name, text) in labels {
        bytes.extend_from_slice(name.as_bytes());
        bytes.push(0);
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
    }
    for text in corpus {
        bytes.extend_from_slice(text.as_bytes());
        bytes.push(0);
    }
    crate::anchor::fnv64(&bytes)
}

/// A generator of the same numbers every time (xorshift64).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
}

/// The examples' indices in a fixed shuffled order.
fn order(n: usize, seed: u64) -> Vec<usize> {
    let mut idx: Vec<usize> = (0..n).collect();
    let mut rng = Rng(seed | 1);
    for i in (1..n).rev() {
        let j = (rng.next() % (i as u64 + 1)) as usize;
        idx.swap(i, j);
    }
    idx
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + libm::exp(-x))
}

/// How training goes.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    pub epochs: usize,
    pub rate: f64,
    pub l2: f64,
    /// The most a rule counts over a unit that is none.
    pub lift: f64,
    /// A feature is learned only when units of this many people hold it:
    /// what one person alone says is no evidence about the next.
    pub min_people: usize,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            epochs: 8,
            rate: 0.01,
            l2: 1e-5,
            lift: 3.0,
            min_people: 3,
        }
    }
}

/// For each feature slot, whether units of at least `min` people hold it.
fn shared(examples: &[&Example], min: usize) -> Vec<bool> {
    let n = 1usize << BITS;
    // The people seen with each slot: a count and the last person counted
    // (examples come person by person, mostly), then a check by sets for
    // the slots near the bar.
    let mut people: BTreeMap<u32, alloc::collections::BTreeSet<u32>> = BTreeMap::new();
    for e in examples {
        for &k in &e.slots {
            let set = people.entry(k).or_default();
            if set.len() < min {
                set.insert(e.author);
            }
        }
    }
    let mut out = vec![false; n];
    for (k, set) in people {
        if set.len() >= min {
            out[k as usize] = true;
        }
    }
    out
}

/// The rule table learned from `examples` (logistic regression, AdaGrad).
pub fn train_rule(examples: &[&Example], s: Settings) -> Vec<f64> {
    let n = 1usize << BITS;
    let learned = shared(examples, s.min_people);
    let mut w = vec![0.0f64; n];
    let mut g2 = vec![1e-8f64; n];
    let positives: f64 = examples
        .iter()
        .filter(|e| e.rule)
        .map(|e| f64::from(e.weight))
        .sum();
    let total: f64 = examples.iter().map(|e| f64::from(e.weight)).sum();
    // Rules are rare: they count as much as the rest together.
    let lift = if positives > 0.0 {
        ((total - positives) / positives).clamp(1.0, s.lift)
    } else {
        1.0
    };
    for epoch in 0..s.epochs {
        for &i in &order(examples.len(), 0x9e37_79b9_7f4a_7c15 ^ epoch as u64) {
            let e = examples[i];
            let score: f64 = e.slots.iter().map(|&k| w[k as usize]).sum();
            let y = if e.rule { 1.0 } else { 0.0 };
            let weight = f64::from(e.weight) * if e.rule { lift } else { 1.0 };
            let g = (sigmoid(score) - y) * weight;
            for &k in &e.slots {
                let k = k as usize;
                if !learned[k] {
                    continue;
                }
                let grad = g + s.l2 * w[k];
                g2[k] += grad * grad;
                w[k] -= s.rate * grad / libm::sqrt(g2[k]);
            }
        }
    }
    w
}

/// How the forms are learned: words decide a rule's form more than its
/// speaker's habits (never, only, before, if, at most), so faster, with
/// fewer people required, and each form weighed against how rare it is.
pub const FORMS: Settings = Settings {
    epochs: 10,
    rate: 0.1,
    l2: 1e-5,
    lift: 1.0,
    min_people: 2,
};

/// The form tables learned from the rules of `examples` (softmax, each
/// form weighed by one over the square root of how often it is labelled).
pub fn train_forms(examples: &[&Example], s: Settings) -> ([f64; 11], Vec<f64>) {
    let size = 1usize << FORM_BITS;
    let mask = size - 1;
    let mut w = vec![0.0f64; 11 * size];
    let mut g2 = vec![1e-8f64; 11 * size];
    let mut bias = [0.0f64; 11];
    let mut bias_g2 = [1e-8f64; 11];
    let learned = shared(examples, s.min_people);
    let rules: Vec<(&Example, usize)> = examples
        .iter()
        .filter_map(|e| {
            let f = e.form?;
            Some((*e, RuleForm::ALL.iter().position(|x| *x == f)?))
        })
        .collect();
    let mut counts = [0usize; 11];
    for &(_, y) in &rules {
        counts[y] += 1;
    }
    let most = counts.iter().copied().max().unwrap_or(1) as f64;
    let weigh = |y: usize| libm::sqrt(most / counts[y].max(1) as f64);
    for epoch in 0..s.epochs {
        for &i in &order(rules.len(), 0x51ed_270b_2710_cafe ^ epoch as u64) {
            let (e, y) = rules[i];
            let weight = weigh(y);
            let mut scores = [0.0f64; 11];
            for (k, sc) in scores.iter_mut().enumerate() {
                *sc = bias[k]
                    + e.slots
                        .iter()
                        .map(|&j| w[k * size + (j as usize & mask)])
                        .sum::<f64>();
            }
            let max = scores.iter().fold(f64::NEG_INFINITY, |m, &v| m.max(v));
            let mut z = 0.0;
            for sc in &mut scores {
                *sc = libm::exp(*sc - max);
                z += *sc;
            }
            for k in 0..11 {
                let g = (scores[k] / z - if k == y { 1.0 } else { 0.0 }) * weight;
                bias_g2[k] += g * g;
                bias[k] -= s.rate * g / libm::sqrt(bias_g2[k]);
                for &j in e.slots.iter().filter(|&&j| learned[j as usize]) {
                    let at = k * size + (j as usize & mask);
                    let grad = g + s.l2 * w[at];
                    g2[at] += grad * grad;
                    w[at] -= s.rate * grad / libm::sqrt(g2[at]);
                }
            }
        }
    }
    (bias, w)
}

/// Puts every repository of `repos` (with how many of the user's rules it
/// holds) in one of `k` folds: the repositories with most rules first, each
/// to the fold with fewest so far (ties by hash), so folds are alike.
pub fn folds(repos: &BTreeMap<u32, usize>, k: usize) -> BTreeMap<u32, usize> {
    let mut by: Vec<(u32, usize)> = repos.iter().map(|(&r, &n)| (r, n)).collect();
    by.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut load = vec![0usize; k.max(1)];
    let mut out = BTreeMap::new();
    for (repo, n) in by {
        let (fold, _) = load
            .iter()
            .enumerate()
            .min_by_key(|&(i, l)| (*l, i))
            .unwrap_or((0, &0));
        load[fold] += n.max(1);
        out.insert(repo, fold);
    }
    out
}

/// The threshold with the best F-beta, given each unit's chance, whether
/// it is a rule, and how many units it stands for (beta below one weighs
/// precision above recall).
fn best_threshold(scored: &[(f64, bool, f64)], beta: f64) -> f64 {
    let mut sorted: Vec<(f64, bool, f64)> = scored.to_vec();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let positives: f64 = sorted.iter().filter(|s| s.1).map(|s| s.2).sum();
    let (mut tp, mut fp) = (0.0f64, 0.0f64);
    let mut best = (0.0f64, 0.5f64);
    for (i, &(p, rule, count)) in sorted.iter().enumerate() {
        if rule {
            tp += count;
        } else {
            fp += count;
        }
        // Only between two distinct chances.
        if sorted.get(i + 1).is_some_and(|n| n.0 == p) {
            continue;
        }
        let b2 = beta * beta;
        let f = (1.0 + b2) * tp / ((1.0 + b2) * tp + b2 * (positives - tp) + fp);
        if f > best.0 {
            best = (f, p);
        }
    }
    best.1
}

/// How the tool table is learned: faster than the rule table, as its
/// policies are worded alike from one workspace to the next ("frozen
/// until", "needs approval from") and the rule corpus holds most of them.
pub const TOOLS: Settings = Settings {
    epochs: 8,
    rate: 0.05,
    l2: 1e-5,
    lift: 3.0,
    min_people: 3,
};

/// The rule table, learned from every unit but a tool's (`s`), and the
/// tool table, from a tool's units ([`TOOLS`]).
fn tables(examples: &[&Example], s: Settings) -> (Vec<f64>, Vec<f64>) {
    let (tools, rest): (Vec<&Example>, Vec<&Example>) = examples
        .iter()
        .copied()
        .partition(|e| e.class == Giver::Tool);
    (train_rule(&rest, s), train_rule(&tools, TOOLS))
}

/// The model learned from `examples`: the rule table from every unit but
/// a tool's, the tool table from a tool's units ([`TOOLS`]), the forms
/// from the rules. Thresholds are chosen on three folds of the examples by
/// person (the rule corpus's by document), for each [`Giver`] class on its
/// own units not learned from (a class with too few rules to choose on
/// takes the user's); `inputs` is what it was trained from.
pub fn train(examples: &[&Example], inputs: u64, s: Settings) -> Weights {
    let mut per_repo: BTreeMap<u32, usize> = BTreeMap::new();
    for e in examples {
        *per_repo.entry(e.repo).or_default() += usize::from(e.rule && e.users);
    }
    let inner = folds(&per_repo, 3);
    // A person's units are in their person's fold; the rule corpus's, in
    // their document's.
    let fold_of = |e: &Example| -> Option<usize> {
        if e.repo == CORPUS {
            Some(e.author as usize % 3)
        } else {
            inner.get(&e.repo).copied()
        }
    };
    let mut scored: [Vec<(f64, bool, f64)>; 5] = Default::default();
    let mut corpus_tools: Vec<(f64, bool, f64)> = Vec::new();
    for f in 0..3 {
        let rest: Vec<&Example> = examples
            .iter()
            .copied()
            .filter(|e| fold_of(e) != Some(f))
            .collect();
        let (rule, tool) = tables(&rest, s);
        for e in examples.iter().filter(|e| fold_of(e) == Some(f)) {
            let tool_unit = e.class == Giver::Tool;
            let w = if tool_unit { &tool } else { &rule };
            let score: f64 = e.slots.iter().map(|&k| w[k as usize]).sum();
            let unit = (sigmoid(score), e.rule, f64::from(e.count));
            if e.repo != CORPUS {
                scored[e.class as usize].push(unit);
            } else if tool_unit {
                corpus_tools.push(unit);
            }
        }
    }
    let choose = |beta: f64| -> [f32; 5] {
        let user = best_threshold(&scored[Giver::User as usize], beta);
        let mut out = [user as f32; 5];
        for class in Giver::ALL {
            // A tool's output is chosen on the rule corpus, whose tool
            // documents are labelled whole (people's logs hold few
            // policies a tool showed, and their readers marked those, not
            // every line of every output), and held at least to the bar
            // of the user's own words: what a tool printed is no surer a
            // rule than what the user said.
            let units = if class == Giver::Tool {
                &corpus_tools
            } else {
                &scored[class as usize]
            };
            if units.iter().filter(|u| u.1).count() >= MIN_RULES {
                out[class as usize] = best_threshold(units, beta) as f32;
            }
            if class == Giver::Tool {
                out[class as usize] = out[class as usize].max(user as f32);
            }
        }
        out
    };
    let threshold = choose(SURE);
    let mut possible = choose(POSSIBLE);
    for (p, t) in possible.iter_mut().zip(&threshold) {
        *p = p.min(*t);
    }
    let (rule, tool) = tables(examples, s);
    let (form_bias, forms) = train_forms(examples, FORMS);
    Weights {
        inputs,
        bits: BITS,
        form_bits: FORM_BITS,
        threshold,
        possible,
        rule: rule.iter().map(|&v| v as f32).collect(),
        tool: tool.iter().map(|&v| v as f32).collect(),
        form_bias: form_bias.map(|v| v as f32),
        forms: forms.iter().map(|&v| v as f32).collect(),
    }
}

/// A class needs this many rules among its units to have a threshold of
/// its own.
const MIN_RULES: usize = 30;

/// Whether a label's giver is the user (for counting rules per person).
pub fn users(by: By) -> bool {
    by == By::User
}
