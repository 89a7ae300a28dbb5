//! A vector's sign sketch: one bit per dimension, set where the vector (taken from its
//! project's centre) is positive. A query's alignment with the signs estimates its
//! product with the vector, so a search reads 32 bytes an entry instead of 256 to find a
//! shortlist, and compares only that shortlist exactly. Comparing every vector exactly
//! is bound by memory, not arithmetic: 100,000 of them took 4.4 ms however the products
//! were computed; their sketches about 2 ms.

/// Projects with fewer vectors are compared exactly: a shortlist would be most of them.
pub const SKETCH_FROM: usize = 4_096;

/// Entries compared exactly after the sketch: at least this many, or
/// [`SHORTLIST_PER_HIT`] for each hit asked for. Tuned on the natural set's questions at
/// 100,000 entries (`bench/src/bin/natural_speed.rs`), the exact 20 nearest kept: 1,000
/// keep 94.4 % (the nearest itself for 98.1 % of questions) in 2.9 ms; 2,000 keep 97.3 %
/// (99.5 %) in 3.2 ms; every vector compared took 7.3 ms.
const SHORTLIST_LEAST: usize = 2_000;
/// See [`SHORTLIST_LEAST`].
const SHORTLIST_PER_HIT: usize = 100;

/// How many entries a search for `limit` hits compares exactly.
pub fn shortlist_len(limit: usize) -> usize {
    (limit * SHORTLIST_PER_HIT).max(SHORTLIST_LEAST)
}

/// How many a search compares exactly when it reads their vectors back from the
/// database (projects held by their sketches only): half as many, since each read costs
/// about 4 µs (2,000 of them took 9 ms of an 11 ms search at 100,000 entries; 1,000 keep
/// 94.4 % of the exact 20 nearest, the nearest itself for 98.1 % of questions).
pub fn read_back_len(limit: usize) -> usize {
    shortlist_len(limit) / 2
}

/// 64-bit words a sketch of `dim` dimensions takes.
pub fn words(dim: usize) -> usize {
    dim.div_ceil(64)
}

/// Append the sketch of `values` (one bit each, set where positive) to `out`.
pub fn push(values: impl Iterator<Item = f32>, dim: usize, out: &mut Vec<u64>) {
    let start = out.len();
    out.resize(start + words(dim), 0);
    for (i, x) in values.enumerate().take(dim) {
        if x > 0.0 {
            out[start + i / 64] |= 1 << (i % 64);
        }
    }
}

/// Bits the query keeps per dimension when compared with sketches.
const QUERY_BITS: usize = 4;

/// The sketches in `sketches` (laid end to end) most aligned with `query`, for the
/// positions `keep` accepts: the `n` highest `Σ query[d]` over each sketch's set bits, as
/// (that sum, position), highest first.
///
/// The query keeps four bits a dimension rather than one, so each product is four
/// population counts of a plane of the query's bits against the sketch: on the natural
/// set at 100,000 entries a shortlist of 1,000 by comparing sketch with sketch kept 86 %
/// of the exact 20 nearest, this one 94 % (see `bench/src/bin/natural_speed.rs`).
pub fn nearest(query: &[f32], sketches: &[u64], keep: impl Fn(usize) -> bool, n: usize) -> Vec<(f32, usize)> {
    let w = words(query.len());
    if w == 0 || n == 0 {
        return Vec::new();
    }
    // Each dimension as a level 0..=15 of the query's range; plane b holds bit b of each.
    let most = query.iter().fold(0f32, |m, x| m.max(x.abs())).max(1e-12);
    let top = ((1 << QUERY_BITS) - 1) as f32;
    let mut planes = vec![0u64; QUERY_BITS * w];
    for (d, x) in query.iter().enumerate() {
        let level = ((x / most + 1.0) * 0.5 * top).round() as u32;
        for b in 0..QUERY_BITS {
            if level >> b & 1 == 1 {
                planes[b * w + d / 64] |= 1 << (d % 64);
            }
        }
    }
    let mut out = Vec::with_capacity(sketches.len() / w);
    aligned(&planes, w, sketches, &keep, &mut out);
    // Σ level over set bits − ones·top/2 is Σ query over set bits, in levels.
    let unit = most * 2.0 / top;
    out.iter_mut().for_each(|o| o.0 *= unit);
    let by = |a: &(f32, usize), b: &(f32, usize)| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1));
    if out.len() > n {
        out.select_nth_unstable_by(n - 1, by);
        out.truncate(n);
    }
    out.sort_unstable_by(by);
    out
}

/// Each kept sketch's alignment with the query's planes, in levels, pushed to `out`:
/// compiled a second time with the processor's population count and chosen at run time
/// (x86-64's baseline counts bits in a dozen instructions a word: 5 ms against 2 ms for
/// 100,000 sketches).
fn aligned(
    planes: &[u64],
    w: usize,
    sketches: &[u64],
    keep: &dyn Fn(usize) -> bool,
    out: &mut Vec<(f32, usize)>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor was just found to count bits.
        unsafe { aligned_popcnt(planes, w, sketches, keep, out) };
        return;
    }
    aligned_inline(planes, w, sketches, keep, out);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
fn aligned_popcnt(
    planes: &[u64],
    w: usize,
    sketches: &[u64],
    keep: &dyn Fn(usize) -> bool,
    out: &mut Vec<(f32, usize)>,
) {
    aligned_inline(planes, w, sketches, keep, out);
}

#[inline(always)]
fn aligned_inline(
    planes: &[u64],
    w: usize,
    sketches: &[u64],
    keep: &dyn Fn(usize) -> bool,
    out: &mut Vec<(f32, usize)>,
) {
    let half = ((1 << QUERY_BITS) - 1) as f32 * 0.5;
    // Index loops, not zipped iterators: a build that did not inline the iterators'
    // constructors spent more time in them than counting.
    for (i, s) in sketches.chunks_exact(w).enumerate() {
        if !keep(i) {
            continue;
        }
        let (mut sum, mut ones) = (0u32, 0u32);
        for k in 0..w {
            let word = s[k];
            ones += word.count_ones();
            for b in 0..QUERY_BITS {
                sum += (word & planes[b * w + k]).count_ones() << b;
            }
        }
        out.push((sum as f32 - ones as f32 * half, i));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sketches_keep_the_nearest_and_leave_out_what_is_not_wanted() {
        let dim = 128;
        // Vector k points along dimensions k..k+40: neighbours share most of their signs.
        let vector = |k: usize| (0..dim).map(move |d| if (k..k + 40).contains(&d) { 1.0 } else { -1.0 });
        let mut sketches = Vec::new();
        for k in 0..80 {
            push(vector(k), dim, &mut sketches);
        }
        assert_eq!(sketches.len(), 80 * words(dim));
        let query: Vec<f32> = vector(30).collect();
        let near = nearest(&query, &sketches, |_| true, 3);
        assert_eq!(near[0].1, 30);
        let mut rest: Vec<usize> = near[1..].iter().map(|n| n.1).collect();
        rest.sort();
        assert_eq!(rest, [29, 31], "the next nearest differ in two dimensions each");
        let odd = nearest(&query, &sketches, |i| i % 2 == 1, 2);
        assert!(odd.iter().all(|n| n.1 % 2 == 1), "{odd:?}");
        assert_eq!(nearest(&query, &sketches, |_| true, 500).len(), 80);
    }
}
