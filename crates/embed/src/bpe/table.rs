//! The packed merges as an open-addressed table, in the very layout the compact file
//! stores, so a process reads it back as it is: rebuilding a hash map of 61,000 merges
//! was 14.7 of a one-off prompt hook's 31 million instructions.

/// Marks an empty slot's answer: no packed answer is this (a rank fits 16 bits only for
/// fewer than 65,535 merges, so `rank << 16 | merged` never reaches it).
const EMPTY: u32 = u32::MAX;

/// `key` → `value` (both packed `u32`s), probed linearly from the key's Fibonacci hash
/// over a power of two of slots, at most half of them full.
#[derive(Debug, Clone)]
pub(super) struct Table {
    slots: Vec<[u32; 2]>,
    bits: u32,
    len: usize,
}

impl Table {
    /// Room for `count` pairs.
    pub(super) fn with_room(count: usize) -> Self {
        let bits = (count.max(8) * 2).next_power_of_two().trailing_zeros();
        Self { slots: vec![[0, EMPTY]; 1 << bits], bits, len: 0 }
    }

    /// The table in `slots` (`1 << bits` of them, as [`Table::slots`] gave them), if it
    /// is one: the right size, at most half full, every answer packable.
    pub(super) fn from_slots(bits: u32, slots: Vec<[u32; 2]>) -> Option<Self> {
        if !(3..=28).contains(&bits) || slots.len() != 1 << bits {
            return None;
        }
        let len = slots.iter().filter(|s| s[1] != EMPTY).count();
        (len * 2 <= slots.len()).then_some(Self { slots, bits, len })
    }

    /// Its slots and their count's power of two, as the compact file stores them.
    pub(super) fn slots(&self) -> (u32, &[[u32; 2]]) {
        (self.bits, &self.slots)
    }

    fn home(&self, key: u32) -> usize {
        (u64::from(key).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - self.bits)) as usize
    }

    /// Add `key` → `value` unless `key` is in already (the first stays).
    pub(super) fn insert(&mut self, key: u32, value: u32) {
        debug_assert_ne!(value, EMPTY);
        if (self.len + 1) * 2 > self.slots.len() {
            let mut bigger =
                Self { slots: vec![[0, EMPTY]; self.slots.len() * 2], bits: self.bits + 1, len: 0 };
            self.pairs().for_each(|(k, v)| bigger.insert(k, v));
            *self = bigger;
        }
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let slot = &mut self.slots[i];
            if slot[1] == EMPTY {
                *slot = [key, value];
                self.len += 1;
                return;
            }
            if slot[0] == key {
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// The value of `key`.
    #[inline]
    pub(super) fn get(&self, key: u32) -> Option<u32> {
        let mask = self.slots.len() - 1;
        let mut i = self.home(key);
        loop {
            let [k, v] = self.slots[i];
            if v == EMPTY {
                return None;
            }
            if k == key {
                return Some(v);
            }
            i = (i + 1) & mask;
        }
    }

    /// Every pair, in no order.
    pub(super) fn pairs(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        self.slots.iter().filter(|s| s[1] != EMPTY).map(|s| (s[0], s[1]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_table_keeps_the_first_answer_grows_past_half_and_reads_back_from_its_slots() {
        let mut t = Table::with_room(2);
        for k in 0..100u32 {
            t.insert(k * 65_537, k);
        }
        t.insert(5 * 65_537, 999);
        assert_eq!(t.get(5 * 65_537), Some(5), "the first stays");
        assert_eq!(t.get(7), None);
        assert_eq!(t.pairs().count(), 100);
        let (bits, slots) = t.slots();
        let back = Table::from_slots(bits, slots.to_vec()).unwrap();
        assert!((0..100u32).all(|k| back.get(k * 65_537) == Some(k)));
        assert!(Table::from_slots(bits, slots[1..].to_vec()).is_none(), "cut short");
        let full = vec![[1, 2]; 1 << bits];
        assert!(Table::from_slots(bits, full).is_none(), "a full table would never end a probe");
    }
}
