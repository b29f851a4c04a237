//! What the test files of this crate share (each uses part of it).
#![allow(dead_code)]

use proptest::prelude::*;

/// Text of fewer than `most` pieces, each piece equally likely to be one of
/// `words`, a code fence, a full stop, a line break, a non-ASCII word, a
/// short lowercase word or a few printable characters.
pub fn texty(words: &[&'static str], most: usize) -> impl Strategy<Value = String> {
    let mut pieces = words.to_vec();
    pieces.extend(["\n```\n", ". ", "\n", "ünï "]);
    let fixed = u32::try_from(pieces.len()).expect("a few pieces");
    let piece = prop_oneof![
        fixed => prop::sample::select(pieces).prop_map(str::to_string),
        1 => "[a-z]{1,8} ",
        1 => "\\PC{1,6}",
    ];
    prop::collection::vec(piece, 0..most).prop_map(|v| v.concat())
}
