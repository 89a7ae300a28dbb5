//! The o200k vocabulary: token bytes by rank, read in place from the embedded blob, and
//! a hash index from bytes to rank (about 1.3 MB of heap for 200,000 tokens).

use std::hash::BuildHasher;

use foldhash::fast::FixedState;
use hashbrown::HashTable;

static BLOB: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k.bin"));

fn word(at: usize) -> u32 {
    u32::from_le_bytes(BLOB[at..at + 4].try_into().expect("four bytes"))
}

/// Number of tokens in the vocabulary.
fn len() -> usize {
    word(0) as usize
}

/// The bytes of the token with this rank.
pub fn token(rank: u32) -> &'static [u8] {
    let base = 4 + (len() + 1) * 4;
    let at = 4 + rank as usize * 4;
    &BLOB[base + word(at) as usize..base + word(at + 4) as usize]
}

/// Bytes → rank.
pub struct Ranks {
    index: HashTable<u32>,
    hasher: FixedState,
}

impl Ranks {
    /// Index every token of the vocabulary.
    pub fn load() -> Self {
        let hasher = FixedState::with_seed(0x6d6f6f72696e67);
        let n = len();
        let mut index = HashTable::with_capacity(n);
        for rank in 0..n as u32 {
            let h = hasher.hash_one(token(rank));
            index.insert_unique(h, rank, |&r| hasher.hash_one(token(r)));
        }
        Self { index, hasher }
    }

    /// The rank of these bytes, if they are a token.
    #[inline]
    pub fn get(&self, bytes: &[u8]) -> Option<u32> {
        let h = self.hasher.hash_one(bytes);
        self.index.find(h, |&r| token(r) == bytes).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_is_a_token_and_ranks_round_trip() {
        let r = Ranks::load();
        assert!(r.index.len() > 199_000, "{}", r.index.len());
        for b in 0..=255u8 {
            assert!(r.get(&[b]).is_some(), "byte {b}");
        }
        for rank in [0, 1, 1000, 150_000, r.index.len() as u32 - 1] {
            assert_eq!(r.get(token(rank)), Some(rank));
        }
        assert_eq!(r.get(b"no such token at all, surely"), None);
    }
}
