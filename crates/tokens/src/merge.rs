//! Byte-pair merging of one pre-token: repeatedly merge the adjacent pair whose bytes
//! have the lowest rank (leftmost on ties), as tiktoken does. Short pieces use a scan on
//! the stack; long ones a heap, so a hostile 100 KB run of punctuation stays O(n log n).

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use crate::table::Ranks;

/// Longest piece merged on the stack.
const SMALL: usize = 64;
const NONE: u32 = u32::MAX;

/// Number of tokens `piece` becomes.
pub fn count(ranks: &Ranks, piece: &[u8]) -> usize {
    match piece.len() {
        0 | 1 => piece.len(),
        _ if ranks.get(piece).is_some() => 1,
        n if n <= SMALL => small(ranks, piece),
        _ => large(ranks, piece),
    }
}

fn rank_of(ranks: &Ranks, bytes: &[u8]) -> u32 {
    ranks.get(bytes).unwrap_or(NONE)
}

/// Parts as start offsets; `rank[i]` is the rank of merging part `i` with part `i + 1`.
pub(crate) fn small(ranks: &Ranks, p: &[u8]) -> usize {
    let n = p.len();
    let mut start = [0u8; SMALL + 1];
    let mut rank = [NONE; SMALL];
    for (i, s) in start.iter_mut().enumerate().take(n + 1) {
        *s = i as u8;
    }
    for i in 0..n - 1 {
        rank[i] = rank_of(ranks, &p[i..i + 2]);
    }
    let mut parts = n;
    loop {
        let (mut best, mut at) = (NONE, 0);
        for (i, &r) in rank[..parts - 1].iter().enumerate() {
            if r < best {
                (best, at) = (r, i);
            }
        }
        if best == NONE {
            return parts;
        }
        start.copy_within(at + 2..parts + 1, at + 1);
        rank.copy_within(at + 2..parts, at + 1);
        parts -= 1;
        let span = |a: usize, b: usize| &p[start[a] as usize..start[b] as usize];
        rank[at] = if at + 1 < parts { rank_of(ranks, span(at, at + 2)) } else { NONE };
        if at > 0 {
            rank[at - 1] = rank_of(ranks, span(at - 1, at + 1));
        }
    }
}

/// Parts as a linked list over byte offsets with a heap of candidate merges; entries
/// whose part has since changed are skipped when popped.
pub(crate) fn large(ranks: &Ranks, p: &[u8]) -> usize {
    let n = p.len();
    let end = n as u32;
    let mut next: Vec<u32> = (1..=end).collect();
    let mut prev: Vec<u32> = (0..end).map(|i| i.wrapping_sub(1)).collect();
    let mut rank = vec![NONE; n];
    let mut heap = BinaryHeap::with_capacity(n);
    for i in 0..n - 1 {
        rank[i] = rank_of(ranks, &p[i..i + 2]);
        if rank[i] != NONE {
            heap.push(Reverse((rank[i], i as u32)));
        }
    }
    let mut parts = n;
    while let Some(Reverse((r, i))) = heap.pop() {
        let iu = i as usize;
        if rank[iu] != r {
            continue;
        }
        let j = next[iu] as usize;
        let k = next[j];
        next[iu] = k;
        if k < end {
            prev[k as usize] = i;
        }
        rank[j] = NONE;
        parts -= 1;
        rank[iu] = if k < end { rank_of(ranks, &p[iu..next[k as usize] as usize]) } else { NONE };
        if rank[iu] != NONE {
            heap.push(Reverse((rank[iu], i)));
        }
        if i > 0 {
            let h = prev[iu] as usize;
            rank[h] = rank_of(ranks, &p[h..k as usize]);
            if rank[h] != NONE {
                heap.push(Reverse((rank[h], h as u32)));
            }
        }
    }
    parts
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both strategies agree on every piece length around the switch-over.
    #[test]
    fn the_stack_and_heap_strategies_agree() {
        let ranks = Ranks::load();
        let samples = [
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
            "=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-=-",
            "Überfluß-Straßenbahn-Haltestelle-Ölförderung-Ärztekammer-Äpfel!!",
            "supercalifragilisticexpialidocious_antidisestablishmentarianism1",
        ];
        for s in samples {
            for len in 2..=s.len().min(SMALL) {
                let p = &s.as_bytes()[..len];
                assert_eq!(small(&ranks, p), large(&ranks, p), "{:?}", String::from_utf8_lossy(p));
            }
        }
    }
}
