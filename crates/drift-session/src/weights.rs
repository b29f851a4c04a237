//! The bytes of a trained model (the rule finder's, the judge's): read
//! little-endian off a slice without copying, and why bytes may not be a
//! whole model; tables stored as `i8` with one scale.

use alloc::vec::Vec;
use core::fmt;

/// Why bytes are not a model.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ModelError {
    /// They do not start with the model's magic bytes.
    NotAModel,
    /// They end before the tables their header names.
    Truncated,
    /// A table's size is out of range.
    BadSize,
}

impl fmt::Display for ModelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ModelError::NotAModel => {
                "not a model of this build (its first bytes are not its header)"
            }
            ModelError::Truncated => "a model cut short",
            ModelError::BadSize => "a model with a table of an impossible size",
        })
    }
}

impl core::error::Error for ModelError {}

/// Reads little-endian fields off a byte slice.
pub(crate) struct Reader<'a> {
    bytes: &'a [u8],
}

impl<'a> Reader<'a> {
    pub(crate) const fn new(bytes: &'a [u8]) -> Reader<'a> {
        Reader { bytes }
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8], ModelError> {
        if self.bytes.len() < n {
            return Err(ModelError::Truncated);
        }
        let (head, rest) = self.bytes.split_at(n);
        self.bytes = rest;
        Ok(head)
    }

    pub(crate) fn u32(&mut self) -> Result<u32, ModelError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    pub(crate) fn f32(&mut self) -> Result<f32, ModelError> {
        self.u32().map(f32::from_bits)
    }

    pub(crate) fn u64(&mut self) -> Result<u64, ModelError> {
        let b = self.take(8)?;
        let mut a = [0u8; 8];
        a.copy_from_slice(b);
        Ok(u64::from_le_bytes(a))
    }
}

/// `values` as `i8` with one scale: the largest magnitude maps to 127.
pub(crate) fn quantize(values: &[f32]) -> (f32, Vec<u8>) {
    let max = values.iter().fold(0.0f32, |m, v| m.max(v.abs()));
    let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
    let q = values
        .iter()
        .map(|v| libm::roundf(v / scale).clamp(-127.0, 127.0) as i8 as u8)
        .collect();
    (scale, q)
}
