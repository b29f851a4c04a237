//! Ids to their positions, for validation: a table of positions hashed by
//! id (open addressing), so each insertion and lookup costs one hash and,
//! almost always, one comparison of ids, in place of a tree's dozen. The
//! hash is fixed (no randomness: the engine is deterministic).

use alloc::vec::Vec;

/// An empty slot.
const EMPTY: u32 = u32::MAX;

/// Ids, each with the position it was inserted at.
#[derive(Debug)]
pub(crate) struct Ids<'a> {
    ids: Vec<&'a str>,
    /// Positions into `ids`, a power of two of them, at least twice as many
    /// as there can be ids.
    slots: Vec<u32>,
}

impl<'a> Ids<'a> {
    /// Room for `count` ids.
    pub(crate) fn with_capacity(count: usize) -> Ids<'a> {
        let size = (count.max(4) * 2).next_power_of_two();
        Ids {
            ids: Vec::with_capacity(count),
            slots: alloc::vec![EMPTY; size],
        }
    }

    /// The slot of `id`: where it is, or the empty slot where it would go.
    fn slot(&self, id: &str) -> usize {
        let mask = self.slots.len() - 1;
        let mut i = hash(id) as usize & mask;
        loop {
            match self.slots[i] {
                EMPTY => return i,
                at if self.ids[at as usize] == id => return i,
                _ => i = (i + 1) & mask,
            }
        }
    }

    /// Adds `id` at the next position; `Err` with the position it already
    /// has if it is there.
    pub(crate) fn insert(&mut self, id: &'a str) -> Result<usize, usize> {
        if (self.ids.len() + 1) * 2 > self.slots.len() {
            self.grow();
        }
        let i = self.slot(id);
        match self.slots[i] {
            EMPTY => {
                let at = self.ids.len();
                self.slots[i] = at as u32;
                self.ids.push(id);
                Ok(at)
            }
            at => Err(at as usize),
        }
    }

    /// The position of `id`.
    pub(crate) fn get(&self, id: &str) -> Option<usize> {
        match self.slots[self.slot(id)] {
            EMPTY => None,
            at => Some(at as usize),
        }
    }

    fn grow(&mut self) {
        let mask = self.slots.len() * 2 - 1;
        let mut slots = alloc::vec![EMPTY; mask + 1];
        for (at, id) in self.ids.iter().enumerate() {
            let mut i = hash(id) as usize & mask;
            while slots[i] != EMPTY {
                i = (i + 1) & mask;
            }
            slots[i] = at as u32;
        }
        self.slots = slots;
    }
}

/// Eight bytes at a time, each word multiplied in, finished with a
/// multiply-xorshift so the low bits (the slot) depend on every byte.
fn hash(id: &str) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let bytes = id.as_bytes();
    let mut h = (bytes.len() as u64).wrapping_mul(K);
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K).rotate_left(31);
    }
    let rest = words.remainder();
    let mut w = [0u8; 8];
    w[..rest.len()].copy_from_slice(rest);
    h = (h ^ u64::from_le_bytes(w)).wrapping_mul(K);
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    h ^ (h >> 32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::format;
    use alloc::string::String;

    #[test]
    fn finds_every_id_and_refuses_a_second_of_one() {
        let names: Vec<String> = (0..1000).map(|i| format!("fact-{i}")).collect();
        // Start small: the table grows as ids come.
        let mut ids = Ids::with_capacity(1);
        for (i, name) in names.iter().enumerate() {
            assert_eq!(ids.insert(name), Ok(i));
        }
        for (i, name) in names.iter().enumerate() {
            assert_eq!(ids.get(name), Some(i));
            assert_eq!(ids.insert(name), Err(i));
        }
        assert_eq!(ids.get("fact-1000"), None);
        assert_eq!(ids.get(""), None);
        let mut ids = Ids::with_capacity(3);
        assert_eq!(ids.insert(""), Ok(0));
        assert_eq!(ids.get(""), Some(0));
    }
}
