//! The judge's model: from a rule read against a summary ([`Reading`]'s
//! features) to the chance of each fate.
//!
//! A linear model over hashed features, one table per fate, learned from
//! labelled before/after pairs across people by `drift-eval`'s `train`
//! (`cargo xtask train`) and read here from bytes without copying. The
//! file, little-endian:
//!
//! | bytes | what |
//! | --- | --- |
//! | 8 | `DRIFTJM1` |
//! | 8 | FNV-1a 64 of what it was trained from (labels, pairs, trainer) |
//! | 4 | the bits of each table |
//! | 4 × 4 | each fate's bias, `f32` |
//! | 4 | the scale of the tables |
//! | 4 × 2^bits | the tables, `i8`, one per fate of [`JUDGED`] in order |
//!
//! [`Reading`]: super::Reading

use alloc::vec::Vec;
use core::fmt;

use crate::audit::Fate;
pub use crate::weights::ModelError;
use crate::weights::{Reader, quantize};

/// The file's first bytes.
pub const MAGIC: &[u8; 8] = b"DRIFTJM1";

/// The fates the model chooses among, in the file's order.
pub const JUDGED: [Fate; 4] = [
    Fate::Kept,
    Fate::Weakened,
    Fate::Dropped,
    Fate::Contradicted,
];

/// The model this crate ships.
static SHIPPED: &[u8] = include_bytes!("../../model/judge.bin");

/// The judge's weights, borrowed from the bytes they were read from.
#[derive(Clone, Copy)]
pub struct JudgeModel<'a> {
    inputs: u64,
    bits: u32,
    bias: [f32; 4],
    scale: f32,
    tables: &'a [u8],
}

impl fmt::Debug for JudgeModel<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("JudgeModel")
            .field("inputs", &self.inputs)
            .field("bits", &self.bits)
            .finish_non_exhaustive()
    }
}

impl<'a> JudgeModel<'a> {
    /// The model this crate ships (the crate's tests hold it whole; were
    /// it not, a model that calls every rule dropped).
    pub fn shipped() -> JudgeModel<'static> {
        JudgeModel::from_bytes(SHIPPED).unwrap_or(JudgeModel::empty())
    }

    /// A model with every weight zero but the bias for "dropped".
    pub const fn empty() -> JudgeModel<'static> {
        JudgeModel {
            inputs: 0,
            bits: 0,
            bias: [0.0, 0.0, 1.0, 0.0],
            scale: 0.0,
            tables: &[0; 4],
        }
    }

    /// Reads a model from `bytes`, borrowing its tables.
    ///
    /// # Errors
    ///
    /// A [`ModelError`] when the bytes are not a whole model.
    pub fn from_bytes(bytes: &'a [u8]) -> Result<JudgeModel<'a>, ModelError> {
        let mut r = Reader::new(bytes);
        if r.take(8).ok() != Some(MAGIC.as_slice()) {
            return Err(ModelError::NotAModel);
        }
        let inputs = r.u64()?;
        let bits = r.u32()?;
        if !(1..=20).contains(&bits) {
            return Err(ModelError::BadSize);
        }
        let mut bias = [0.0; 4];
        for b in &mut bias {
            *b = r.f32()?;
        }
        let scale = r.f32()?;
        let tables = r.take(4usize << bits)?;
        Ok(JudgeModel {
            inputs,
            bits,
            bias,
            scale,
            tables,
        })
    }

    /// The bits of its feature tables.
    pub const fn bits(&self) -> u32 {
        self.bits
    }

    /// What it was trained from: FNV-1a 64 of its inputs.
    pub const fn inputs(&self) -> u64 {
        self.inputs
    }

    /// The chance of each fate of [`JUDGED`] for feature slots `slots`.
    pub fn chances(&self, slots: &[u32]) -> [f32; 4] {
        let mut score = self.bias;
        for (k, s) in score.iter_mut().enumerate() {
            let base = k << self.bits;
            let mut sum = 0.0f32;
            for &slot in slots {
                let w = self.tables.get(base + slot as usize).copied().unwrap_or(0) as i8;
                sum += f32::from(w);
            }
            *s += sum * self.scale;
        }
        softmax(score)
    }
}

/// Scores to chances.
pub fn softmax(score: [f32; 4]) -> [f32; 4] {
    let max = score.iter().copied().fold(f32::NEG_INFINITY, f32::max);
    let mut e = score.map(|s| libm::expf(s - max));
    let total: f32 = e.iter().sum();
    for x in &mut e {
        *x /= total;
    }
    e
}

/// A judge model's weights in `f32`, as a trainer holds them, written out
/// as the file [`JudgeModel::from_bytes`] reads.
#[derive(Clone, Debug, PartialEq)]
pub struct JudgeWeights {
    /// What it was trained from.
    pub inputs: u64,
    /// The bits of each table.
    pub bits: u32,
    /// Each fate's bias, in [`JUDGED`] order.
    pub bias: [f32; 4],
    /// `4 × 2^bits` weights, one table per fate.
    pub tables: Vec<f32>,
}

impl JudgeWeights {
    /// The model file.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::new();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&self.inputs.to_le_bytes());
        out.extend_from_slice(&self.bits.to_le_bytes());
        for b in self.bias {
            out.extend_from_slice(&b.to_bits().to_le_bytes());
        }
        let (scale, q) = quantize(&self.tables);
        out.extend_from_slice(&scale.to_bits().to_le_bytes());
        out.extend_from_slice(&q);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_model_reads_whole() {
        let m = JudgeModel::from_bytes(SHIPPED).expect("the shipped judge model reads");
        assert!(m.bits() >= 8);
        assert_ne!(m.inputs(), 0);
    }

    #[test]
    fn bad_bytes_are_named() {
        assert_eq!(
            JudgeModel::from_bytes(b"DRIFTRM3xxxxxxxx").unwrap_err(),
            ModelError::NotAModel
        );
        assert_eq!(
            JudgeModel::from_bytes(b"DRIFTJM1").unwrap_err(),
            ModelError::Truncated
        );
        let w = JudgeWeights {
            inputs: 7,
            bits: 2,
            bias: [0.5, 0.0, 0.0, 0.0],
            tables: alloc::vec![0.0; 16],
        };
        let bytes = w.to_bytes();
        let m = JudgeModel::from_bytes(&bytes).unwrap();
        assert!(m.chances(&[0, 1])[0] > 0.25);
        assert_eq!(
            JudgeModel::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            ModelError::Truncated
        );
    }
}
