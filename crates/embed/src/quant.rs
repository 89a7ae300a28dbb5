//! Vectors as stored: one byte per dimension and a scale, a quarter of F32's size, which
//! keeps a project's scan in memory bandwidth. A quantized unit vector keeps its cosines
//! within a hundredth (the test below); quality on the labelled set is measured with it.

/// A unit vector quantized to `i8` with one scale: `value ≈ q · scale`.
#[derive(Debug, Clone, PartialEq)]
pub struct Quantized {
    /// `max |v| / 127`.
    pub scale: f32,
    /// The components.
    pub values: Vec<i8>,
}

impl Quantized {
    /// Quantize `v`.
    pub fn new(v: &[f32]) -> Self {
        let max = v.iter().fold(0f32, |m, x| m.max(x.abs()));
        let scale = if max > 0.0 { max / 127.0 } else { 1.0 };
        Self { scale, values: v.iter().map(|x| (x / scale).round().clamp(-127.0, 127.0) as i8).collect() }
    }

    /// The stored form: the scale (4 bytes, little-endian) and the components.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(4 + self.values.len());
        out.extend_from_slice(&self.scale.to_le_bytes());
        out.extend(self.values.iter().map(|&q| q as u8));
        out
    }

    /// Read the stored form back; `None` if it is not `dim` components long.
    pub fn from_bytes(bytes: &[u8], dim: usize) -> Option<Self> {
        if bytes.len() != 4 + dim {
            return None;
        }
        let scale = f32::from_le_bytes(bytes[..4].try_into().ok()?);
        scale.is_finite().then(|| Self { scale, values: bytes[4..].iter().map(|&b| b as i8).collect() })
    }
}

/// The dot product of two quantized vectors' components (scale it by both scales): in
/// integers, a third of the time of an F32 × i8 product over 100,000 vectors.
pub fn dot_i8(a: &[i8], b: &[i8]) -> i32 {
    dot_i8_inline(a, b)
}

/// The dot products of `query` with each `query.len()`-long row of `rows`, appended to
/// `out`: [`dot_i8`] over a whole project, compiled a second time for AVX2 and chosen
/// once per call when the processor has it (x86-64's baseline, SSE2, widens eight lanes
/// at a time; AVX2 sixteen).
pub fn dots_i8(query: &[i8], rows: &[i8], out: &mut Vec<i32>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor was just found to support AVX2.
        unsafe { dots_avx2(query, rows, out) };
        return;
    }
    dots_plain(query, rows, out);
}

/// [`dots_i8`] for the rows at `positions` only (a write's check compares the newest
/// 2,000 of a project: one call, with AVX2 where the processor has it).
pub fn dots_i8_at(query: &[i8], rows: &[i8], positions: &[usize], out: &mut Vec<i32>) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor was just found to support AVX2.
        unsafe { dots_at_avx2(query, rows, positions, out) };
        return;
    }
    dots_at_plain(query, rows, positions, out);
}

fn dots_at_plain(query: &[i8], rows: &[i8], positions: &[usize], out: &mut Vec<i32>) {
    let d = query.len();
    out.extend(positions.iter().map(|&i| dot_i8_inline(query, &rows[i * d..(i + 1) * d])));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dots_at_avx2(query: &[i8], rows: &[i8], positions: &[usize], out: &mut Vec<i32>) {
    let d = query.len();
    let wide = Widened::new(query);
    out.extend(positions.iter().map(|&i| wide.dot(&rows[i * d..(i + 1) * d])));
}

fn dots_plain(query: &[i8], rows: &[i8], out: &mut Vec<i32>) {
    if query.is_empty() {
        return;
    }
    out.extend(rows.chunks_exact(query.len()).map(|row| dot_i8(query, row)));
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn dots_avx2(query: &[i8], rows: &[i8], out: &mut Vec<i32>) {
    if query.is_empty() {
        return;
    }
    let wide = Widened::new(query);
    out.extend(rows.chunks_exact(query.len()).map(|row| wide.dot(row)));
}

/// A query widened to 16 bits once, for AVX2's multiply-add of 16-bit pairs
/// (`vpmaddwd`): a row's 16 bytes are widened by one load and meet the query's in one
/// multiply-add and one add. The compiler's own vectorizing of `dot_i8` widened every
/// byte to 32 bits: a write's check at 100,000 entries compares about 1,300 rows, and
/// their products took 0.38 million instructions (callgrind) against about 0.2 million
/// now. Every product of two bytes, and the sum of two, fits 32 bits, so the sums are
/// exactly `dot_i8`'s, whatever the bytes.
#[cfg(target_arch = "x86_64")]
struct Widened {
    values: Vec<i16>,
}

#[cfg(target_arch = "x86_64")]
impl Widened {
    fn new(query: &[i8]) -> Self {
        Self { values: query.iter().map(|&x| i16::from(x)).collect() }
    }

    /// The dot product with `row`, as long as the query.
    #[target_feature(enable = "avx2")]
    fn dot(&self, row: &[i8]) -> i32 {
        use std::arch::x86_64::*;
        let n = self.values.len().min(row.len());
        let whole = n / 16 * 16;
        // Two sums, 32 bytes a turn: half the loop's own instructions.
        let (mut acc, mut acc2) = (_mm256_setzero_si256(), _mm256_setzero_si256());
        let mut at = 0;
        let step = |at: usize| {
            // SAFETY: called with `at + 16 <= whole <= n`: within both slices; unaligned loads.
            let (r, q) = unsafe {
                (
                    _mm_loadu_si128(row.as_ptr().add(at).cast()),
                    _mm256_loadu_si256(self.values.as_ptr().add(at).cast()),
                )
            };
            _mm256_madd_epi16(q, _mm256_cvtepi8_epi16(r))
        };
        while at + 32 <= whole {
            acc = _mm256_add_epi32(acc, step(at));
            acc2 = _mm256_add_epi32(acc2, step(at + 16));
            at += 32;
        }
        if at < whole {
            acc = _mm256_add_epi32(acc, step(at));
            at += 16;
        }
        debug_assert_eq!(at, whole);
        let acc = _mm256_add_epi32(acc, acc2);
        let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256::<1>(acc));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b01_00_11_10>(s));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32::<0b10_11_00_01>(s));
        let tail: i32 = self.values[whole..n]
            .iter()
            .zip(&row[whole..n])
            .map(|(&q, &r)| i32::from(q) * i32::from(r))
            .sum();
        _mm_cvtsi128_si32(s) + tail
    }
}

#[inline(always)]
fn dot_i8_inline(a: &[i8], b: &[i8]) -> i32 {
    let mut acc = [0i32; 16];
    let (a16, ar) = a.as_chunks::<16>();
    let (b16, br) = b.as_chunks::<16>();
    for (x, y) in a16.iter().zip(b16) {
        for l in 0..16 {
            acc[l] += i32::from(x[l]) * i32::from(y[l]);
        }
    }
    let tail: i32 = ar.iter().zip(br).map(|(x, y)| i32::from(*x) * i32::from(*y)).sum();
    acc.iter().sum::<i32>() + tail
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantizing_keeps_the_cosine_within_a_hundredth_and_round_trips() {
        let a: Vec<f32> = (0..256).map(|i| ((i * 37 % 101) as f32 - 50.0) / 400.0).collect();
        let norm = a.iter().map(|x| x * x).sum::<f32>().sqrt();
        let a: Vec<f32> = a.iter().map(|x| x / norm).collect();
        let q = Quantized::new(&a);
        assert_eq!(Quantized::from_bytes(&q.to_bytes(), 256), Some(q.clone()));
        assert_eq!(Quantized::from_bytes(&q.to_bytes(), 128), None, "wrong length");
        assert_eq!(Quantized::new(&[0.0; 4]).values, [0; 4]);
        let both = dot_i8(&q.values, &q.values) as f32 * q.scale * q.scale;
        assert!((both - 1.0).abs() < 0.01, "{both}");
    }

    #[test]
    fn every_row_s_product_is_the_one_dot_i8_gives_whichever_instructions_run() {
        let q: Vec<i8> = (0..260).map(|i| ((i * 37 % 255) - 127) as i8).collect();
        let rows: Vec<i8> = (0..260 * 9).map(|i| ((i * 91 % 255) - 127) as i8).collect();
        let want: Vec<i32> = rows.chunks_exact(260).map(|r| dot_i8(&q, r)).collect();
        let mut got = Vec::new();
        dots_i8(&q, &rows, &mut got);
        assert_eq!(got, want);
        let mut plain = Vec::new();
        dots_plain(&q, &rows, &mut plain);
        assert_eq!(plain, want);
        let at = [7, 0, 3];
        let (mut some, mut some_plain) = (Vec::new(), Vec::new());
        dots_i8_at(&q, &rows, &at, &mut some);
        dots_at_plain(&q, &rows, &at, &mut some_plain);
        assert_eq!(some, [want[7], want[0], want[3]]);
        assert_eq!(some_plain, some);
        // The extremes too: -128 (never quantized, but read from a database) by -128.
        let q = vec![-128i8; 40];
        let rows: Vec<i8> = [vec![-128i8; 40], vec![127i8; 40]].concat();
        let mut got = Vec::new();
        dots_i8(&q, &rows, &mut got);
        assert_eq!(got, [40 * 128 * 128, -40 * 128 * 127]);
        // A length with an odd 16 bytes and a tail: 53 = 32 + 16 + 5.
        let q: Vec<i8> = (0..53).map(|i| (i * 29 % 255 - 127) as i8).collect();
        let rows: Vec<i8> = (0..53 * 3).map(|i| (i * 53 % 255 - 127) as i8).collect();
        let mut got = Vec::new();
        dots_i8_at(&q, &rows, &[2, 0], &mut got);
        assert_eq!(got, [dot_i8(&q, &rows[106..]), dot_i8(&q, &rows[..53])]);
    }
}
