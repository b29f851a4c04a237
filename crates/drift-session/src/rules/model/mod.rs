//! The trained rule finder: which units of a text are standing rules, of
//! what form, and how sure it is.
//!
//! A text is cut into units by structure ([`candidates()`]: sentences, list
//! items, table rows, answers; never the harness's own text), each unit is
//! read as hashed features ([`features`]: its words, who gave it, its
//! shape), and a linear model learned from labelled real sessions gives
//! the chance that it is a rule and, when it is, its form. The weights are
//! data (`crates/drift-session/model/finder.bin`), written by `cargo
//! xtask train` from the labels of `eval/real/` and the logs of
//! `../shared/real-logs/`, and read here without copying: the CLI, the hook
//! and the page run this one model.
//!
//! The file, little-endian:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | `DRIFTRM2` |
//! | 8 | FNV-1a 64 of what it was trained from (labels, logs, trainer) |
//! | 4, 4 | the bits of the rule table and of the form tables |
//! | 4 × 5, 4 × 5 | for each [`Giver`] class, the chance from which a unit is a rule, and from which "possibly a rule" |
//! | 4 | the scale of the rule table |
//! | 2^bits | the rule table, `i8` |
//! | 4 × 11 | each form's bias, `f32` |
//! | 4 | the scale of the form tables |
//! | 11 × 2^form bits | the form tables, `i8`, one per [`RuleForm`] in order |

pub mod candidates;
pub mod features;

use alloc::vec::Vec;
use core::fmt;

use super::{RuleForm, TextOrigin};
pub use crate::weights::ModelError;
use crate::weights::{Reader, quantize};
pub use candidates::{Candidate, Shape, candidates};
pub use features::{Featurizer, Scratch, Text, TextStats};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"DRIFTRM3";

/// Who a unit is from, for its thresholds: what a rule is worth, and how
/// often units are rules, differ between them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Giver {
    /// The user's own words (typed, queued, a rejection's reason, answers).
    User = 0,
    /// A subagent's brief.
    Brief = 1,
    /// Text that only instructs: system prompts, instruction files,
    /// skills, hooks.
    Standing = 2,
    /// A tool's output.
    Tool = 3,
    /// What a summary or the model restates.
    Restated = 4,
}

impl Giver {
    /// Every class, in file order.
    pub const ALL: [Giver; 5] = [
        Giver::User,
        Giver::Brief,
        Giver::Standing,
        Giver::Tool,
        Giver::Restated,
    ];

    /// The class of a unit from `origin`, restated or not.
    pub const fn of(origin: TextOrigin, restated: bool) -> Giver {
        if restated {
            return Giver::Restated;
        }
        match origin {
            TextOrigin::Typed | TextOrigin::Rejection | TextOrigin::Answers => Giver::User,
            TextOrigin::Brief => Giver::Brief,
            TextOrigin::Standing(_) => Giver::Standing,
            TextOrigin::Tool => Giver::Tool,
        }
    }
}

/// The model this crate ships.
static SHIPPED: &[u8] = include_bytes!("../../../model/finder.bin");

/// A model read from bytes, borrowing them.
#[derive(Clone, Copy)]
pub struct Model<'a> {
    /// What it was trained from.
    pub inputs: u64,
    bits: u32,
    form_bits: u32,
    /// For each [`Giver`] class, a unit is a rule from this chance on.
    pub threshold: [f32; 5],
    /// For each class, from this chance on, "possibly a rule".
    pub possible: [f32; 5],
    rule_scale: f32,
    rule: &'a [u8],
    tool_scale: f32,
    tool: &'a [u8],
    form_bias: [f32; 11],
    form_scale: f32,
    forms: &'a [u8],
}

impl fmt::Debug for Model<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Model")
            .field("inputs", &format_args!("{:016x}", self.inputs))
            .field("bits", &self.bits)
            .field("form_bits", &self.form_bits)
            .field("threshold", &self.threshold)
            .field("possible", &self.possible)
            .finish_non_exhaustive()
    }
}

/// What the model says of one unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Prediction {
    /// The chance that it is a standing rule, 0 to 1.
    pub chance: f32,
    /// Its form, were it a rule.
    pub form: RuleForm,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + libm::expf(-x))
}

impl<'a> Model<'a> {
    /// The model this crate ships (the crate's tests hold it whole; were
    /// it not, a model that finds nothing).
    pub fn shipped() -> Model<'static> {
        match Model::from_bytes(SHIPPED) {
            Ok(m) => m,
            Err(_) => Model::empty(),
        }
    }

    /// A model that finds nothing (every weight zero).
    pub const fn empty() -> Model<'static> {
        Model {
            inputs: 0,
            bits: 0,
            form_bits: 0,
            threshold: [1.0; 5],
            possible: [1.0; 5],
            rule_scale: 0.0,
            rule: &[0],
            tool_scale: 0.0,
            tool: &[0],
            form_bias: [0.0; 11],
            form_scale: 0.0,
            forms: &[0; 11],
        }
    }

    /// Reads a model from `bytes`, borrowing its tables.
    ///
    /// # Errors
    ///
    /// A [`ModelError`] when the bytes are not a whole model.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<Model<'a>, ModelError> {
        let mut r = Reader::new(bytes);
        if r.take(8)? != MAGIC {
            return Err(ModelError::NotAModel);
        }
        let inputs = r.u64()?;
        let bits = r.u32()?;
        let form_bits = r.u32()?;
        if !(1..=24).contains(&bits) || !(1..=24).contains(&form_bits) {
            return Err(ModelError::BadSize);
        }
        let mut threshold = [0.0; 5];
        for t in &mut threshold {
            *t = r.f32()?;
        }
        let mut possible = [0.0; 5];
        for p in &mut possible {
            *p = r.f32()?;
        }
        let rule_scale = r.f32()?;
        let rule = r.take(1 << bits)?;
        let tool_scale = r.f32()?;
        let tool = r.take(1 << bits)?;
        let mut form_bias = [0.0; 11];
        for b in &mut form_bias {
            *b = r.f32()?;
        }
        let form_scale = r.f32()?;
        let forms = r.take(11 << form_bits)?;
        Ok(Model {
            inputs,
            bits,
            form_bits,
            threshold,
            possible,
            rule_scale,
            rule,
            tool_scale,
            tool,
            form_bias,
            form_scale,
            forms,
        })
    }

    /// The bits of its feature table: what [`Featurizer::new`] is given.
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// What the model says of a unit from `class` with feature slots
    /// `slots`: a tool's output is read by its own table (what a tool
    /// prints is mostly data, and its policies are worded otherwise than
    /// people's rules), every other unit by the rule table.
    pub fn predict(&self, class: Giver, slots: &[u32]) -> Prediction {
        let w = |table: &[u8], i: usize| f32::from(table.get(i).copied().unwrap_or(0) as i8);
        let (table, scale) = if class == Giver::Tool {
            (self.tool, self.tool_scale)
        } else {
            (self.rule, self.rule_scale)
        };
        let mut score = 0.0f32;
        for &s in slots {
            score += w(table, s as usize);
        }
        let chance = sigmoid(score * scale);
        let fmask = (1usize << self.form_bits) - 1;
        let mut best = (f32::NEG_INFINITY, RuleForm::Obligation);
        for (k, form) in RuleForm::ALL.iter().enumerate() {
            let base = k << self.form_bits;
            let mut s = 0.0f32;
            for &slot in slots {
                s += w(self.forms, base + (slot as usize & fmask));
            }
            let s = self.form_bias[k] + s * self.form_scale;
            if s > best.0 {
                best = (s, *form);
            }
        }
        Prediction {
            chance,
            form: best.1,
        }
    }
}

/// A model's weights in `f32`, as a trainer holds them, and written out as
/// the file [`Model::from_bytes`] reads.
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    /// What it was trained from (see [`Model::inputs`]).
    pub inputs: u64,
    /// The bits of the rule table.
    pub bits: u32,
    /// The bits of each form's table.
    pub form_bits: u32,
    /// For each [`Giver`] class, a unit is a rule from this chance on.
    pub threshold: [f32; 5],
    /// For each class, from this chance on, "possibly a rule".
    pub possible: [f32; 5],
    /// `2^bits` weights of the rule, for every unit but a tool's.
    pub rule: Vec<f32>,
    /// `2^bits` weights of the rule, for a tool's output.
    pub tool: Vec<f32>,
    /// Each form's bias.
    pub form_bias: [f32; 11],
    /// `11 × 2^form_bits` weights, one table per form.
    pub forms: Vec<f32>,
}

impl Weights {
    /// The model file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.inputs.to_le_bytes());
        out.extend_from_slice(&self.bits.to_le_bytes());
        out.extend_from_slice(&self.form_bits.to_le_bytes());
        for t in self.threshold.iter().chain(&self.possible) {
            out.extend_from_slice(&t.to_bits().to_le_bytes());
        }
        for table in [&self.rule, &self.tool] {
            let (scale, q) = quantize(table);
            out.extend_from_slice(&scale.to_bits().to_le_bytes());
            out.extend_from_slice(&q);
        }
        for b in self.form_bias {
            out.extend_from_slice(&b.to_bits().to_le_bytes());
        }
        let (scale, q) = quantize(&self.forms);
        out.extend_from_slice(&scale.to_bits().to_le_bytes());
        out.extend_from_slice(&q);
        out
    }
}

/// What decided a rule the model found, as reports name it.
pub const CUE: &str = "learned";

/// A chance as thousandths.
pub fn thousandths(chance: f32) -> u16 {
    libm::roundf(chance.clamp(0.0, 1.0) * 1000.0) as u16
}

/// Reads text for rules with a model: the finder this crate ships
/// ([`super::SessionFinder`]) is this with [`Model::shipped`].
#[derive(Clone, Copy, Debug)]
pub struct ModelFinder<'a> {
    /// Its model.
    pub model: Model<'a>,
}

/// A unit the model read, with what it said.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Scored {
    /// The unit.
    pub candidate: Candidate,
    /// Who it is from, for its thresholds.
    pub class: Giver,
    /// What the model says of it.
    pub prediction: Prediction,
}

impl super::RuleFinder for ModelFinder<'_> {
    fn find(&self, text: &str, origin: TextOrigin, context: &super::Context) -> Vec<super::Rule> {
        self.score(text, origin, context)
            .into_iter()
            .filter(|s| s.prediction.chance >= self.model.possible[s.class as usize])
            .map(|s| super::Rule {
                span: s.candidate.span,
                kind: s.prediction.form.kind(),
                form: s.prediction.form,
                cue: CUE,
                quoted: s.candidate.restated,
                confidence: thousandths(s.prediction.chance),
                sure: s.prediction.chance >= self.model.threshold[s.class as usize],
            })
            .collect()
    }
}

impl ModelFinder<'_> {
    /// Every unit of `text` from `origin` with the model's word on it.
    pub fn score(&self, text: &str, origin: TextOrigin, context: &super::Context) -> Vec<Scored> {
        let featurizer = Featurizer::new(self.model.bits.max(1));
        let mut scratch = Scratch::default();
        let mut slots = Vec::new();
        let t = Text::new(text, origin, context);
        candidates(text, origin)
            .into_iter()
            .map(|candidate| {
                featurizer.features(&t, &candidate, &mut scratch, &mut slots);
                let class = Giver::of(origin, candidate.restated);
                Scored {
                    candidate,
                    class,
                    prediction: self.model.predict(class, &slots),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_reads_back_what_was_written() {
        let mut w = Weights {
            inputs: 7,
            bits: 4,
            form_bits: 2,
            threshold: [0.5; 5],
            possible: [0.3; 5],
            rule: alloc::vec![0.0; 16],
            tool: alloc::vec![0.0; 16],
            form_bias: [0.0; 11],
            forms: alloc::vec![0.0; 44],
        };
        w.rule[3] = 2.0;
        w.rule[5] = -1.0;
        w.tool[3] = -2.0;
        w.form_bias[1] = 0.5;
        let bytes = w.to_bytes();
        let m = Model::from_bytes(&bytes).unwrap();
        assert_eq!((m.inputs, m.bits, m.form_bits), (7, 4, 2));
        let p = m.predict(Giver::User, &[3]);
        assert!((p.chance - sigmoid(2.0)).abs() < 1e-6);
        assert_eq!(p.form, RuleForm::Obligation);
        assert!(m.predict(Giver::User, &[5]).chance < 0.5);
        // A tool's output is read by its own table.
        assert!((m.predict(Giver::Tool, &[3]).chance - sigmoid(-2.0)).abs() < 1e-6);
        assert_eq!(
            Model::from_bytes(&bytes[..20]).unwrap_err(),
            ModelError::Truncated
        );
        assert_eq!(
            Model::from_bytes(b"not a model at all").unwrap_err(),
            ModelError::NotAModel
        );
    }

    #[test]
    fn the_shipped_model_reads_whole() {
        let m = Model::from_bytes(SHIPPED).expect("model/finder.bin is a whole model");
        assert!(m.bits >= 10 && m.form_bits >= 8);
        for class in Giver::ALL {
            let (sure, possible) = (m.threshold[class as usize], m.possible[class as usize]);
            assert!(
                (0.0..=1.0).contains(&possible) && possible <= sure && sure <= 1.0,
                "{class:?}: possible {possible}, sure {sure}"
            );
        }
        // It finds a plain rule and leaves a plain report.
        let finder = ModelFinder { model: m };
        let context = super::super::Context::default();
        let found = |text: &str| {
            super::super::RuleFinder::find(&finder, text, TextOrigin::Typed, &context)
                .iter()
                .any(|r| r.sure)
        };
        assert!(found("Never push to main without a review."));
        assert!(!found("The build took four minutes."));
    }
}
