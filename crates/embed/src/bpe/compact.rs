//! The tokenizer in a compact form of ids only, written once beside the model and read by
//! every later process: building it from `tokenizer.json` (the JSON, then 61,000 merges
//! looked up by string) was a third of a one-off `mooring memory search`'s 25 ms.
//!
//! Little-endian: `MBPE`, a version, the key of the `tokenizer.json` it was made from
//! (its length and modification time, so an edited or replaced tokenizer is read again),
//! whether the merges are wide, then the 256 byte tokens, the single characters as
//! `(char, id)`, and the merges: packed ones as their table's slots (`bits`, then
//! `1 << bits` pairs: see `table`), read back without rebuilding anything; wide ones as
//! a count and `(left, right, rank, merged)` each. A file that is not whole and
//! consistent is not used (version 1, a list to hash again, is made anew).

use rustc_hash::FxHashMap;

use super::{Bpe, Merges, table::Table};

const MAGIC: &[u8; 4] = b"MBPE";
const VERSION: u32 = 2;

impl Bpe {
    /// This tokenizer in the compact form, made from the tokenizer file `key` names.
    pub fn to_compact(&self, key: [u64; 2]) -> Vec<u8> {
        let mut out = Vec::with_capacity(1 << 20);
        out.extend_from_slice(MAGIC);
        let put = |out: &mut Vec<u8>, v: u32| out.extend_from_slice(&v.to_le_bytes());
        put(&mut out, VERSION);
        for k in key {
            put(&mut out, k as u32);
            put(&mut out, (k >> 32) as u32);
        }
        put(&mut out, u32::from(matches!(self.merges, Merges::Wide(_))));
        self.bytes.iter().for_each(|&b| put(&mut out, b));
        put(&mut out, self.chars.len() as u32);
        for (&c, &id) in &self.chars {
            put(&mut out, c as u32);
            put(&mut out, id);
        }
        match &self.merges {
            Merges::Small(table) => {
                let (bits, slots) = table.slots();
                put(&mut out, bits);
                slots.iter().flatten().for_each(|&v| put(&mut out, v));
            }
            Merges::Wide(map) => {
                put(&mut out, map.len() as u32);
                for (&(left, right), &(rank, merged)) in map {
                    [left, right, rank, merged].into_iter().for_each(|v| put(&mut out, v));
                }
            }
        }
        out
    }

    /// The tokenizer in `bytes`, if they are a whole compact form made from `key`.
    pub fn from_compact(bytes: &[u8], key: [u64; 2]) -> Option<Self> {
        let body = bytes.strip_prefix(MAGIC)?;
        let mut words = body.chunks_exact(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        if body.len() % 4 != 0 || words.next()? != VERSION {
            return None;
        }
        for k in key {
            let (low, high) = (words.next()?, words.next()?);
            if u64::from(low) | u64::from(high) << 32 != k {
                return None;
            }
        }
        let wide = words.next()? != 0;
        let mut byte_tokens = [0u32; 256];
        for slot in &mut byte_tokens {
            *slot = words.next()?;
        }
        let n_chars = words.next()? as usize;
        // Counts are checked against what is left before anything is reserved for them.
        if n_chars > words.len() / 2 {
            return None;
        }
        let mut chars = FxHashMap::default();
        chars.reserve(n_chars);
        for _ in 0..n_chars {
            let c = char::from_u32(words.next()?)?;
            chars.insert(c, words.next()?);
        }
        let merges = if wide {
            let n_merges = words.next()? as usize;
            if n_merges != words.len() / 4 || words.len() % 4 != 0 {
                return None;
            }
            let mut map = FxHashMap::default();
            map.reserve(n_merges);
            for _ in 0..n_merges {
                let (left, right, rank, merged) =
                    (words.next()?, words.next()?, words.next()?, words.next()?);
                map.entry((left, right)).or_insert((rank, merged));
            }
            Merges::Wide(map)
        } else {
            let bits = words.next()?;
            if bits > 28 || words.len() != 2 << bits {
                return None;
            }
            // The rest of the file is the slots: read in one pass over its bytes.
            let rest = &body[body.len() - 4 * words.len()..];
            let word = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
            let slots = rest.chunks_exact(8).map(|s| [word(&s[..4]), word(&s[4..])]).collect();
            Merges::Small(Table::from_slots(bits, slots)?)
        };
        Some(Self { chars, merges, bytes: byte_tokens })
    }
}
