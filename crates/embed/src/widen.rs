//! Adding a token's row of halves (little-endian F16, as the model stores them) to a
//! sum of F32s: with F16C, eight halves widened and added in three instructions; else by
//! the `half` crate, a row at a time. Either way each half converts exactly and each sum
//! is one F32 addition in the same order, so the vectors are the same bits.

/// `out[i] += row's i-th half`, for each `i` (`row` holds `2 * out.len()` bytes).
pub(crate) fn add_row(out: &mut [f32], row: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("f16c") && std::arch::is_x86_feature_detected!("avx") {
        // SAFETY: the processor was just found to support F16C and AVX.
        unsafe { add_row_f16c(out, row) };
        return;
    }
    add_row_plain(out, row);
}

fn add_row_plain(out: &mut [f32], row: &[u8]) {
    use half::slice::{HalfBitsSliceExt as _, HalfFloatSliceExt as _};
    // A few halves at a time through buffers on the stack: this runs once per token of
    // every embedding where F16C is missing (arm64 among them), and allocates nothing.
    const AT_ONCE: usize = 64;
    let (mut bits, mut wide) = ([0u16; AT_ONCE], [0f32; AT_ONCE]);
    for (out, row) in out.chunks_mut(AT_ONCE).zip(row.chunks(AT_ONCE * 2)) {
        let n = out.len().min(row.len() / 2);
        for (b, pair) in bits.iter_mut().zip(row.as_chunks::<2>().0) {
            *b = u16::from_le_bytes(*pair);
        }
        bits[..n].reinterpret_cast::<half::f16>().convert_to_f32_slice(&mut wide[..n]);
        for (o, v) in out[..n].iter_mut().zip(&wide[..n]) {
            *o += v;
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx,f16c")]
fn add_row_f16c(out: &mut [f32], row: &[u8]) {
    use std::arch::x86_64::*;
    let n = out.len().min(row.len() / 2);
    let whole = n / 8 * 8;
    let mut at = 0;
    while at < whole {
        // SAFETY: `at + 8 <= whole <= n`: the 8 floats of `out` and the 16 bytes of `row`
        // read and written are inside both slices; the loads and the store are unaligned.
        unsafe {
            let halves = _mm_loadu_si128(row.as_ptr().add(at * 2).cast());
            let sum = _mm256_add_ps(_mm256_loadu_ps(out.as_ptr().add(at)), _mm256_cvtph_ps(halves));
            _mm256_storeu_ps(out.as_mut_ptr().add(at), sum);
        }
        at += 8;
    }
    add_row_plain(&mut out[whole..n], &row[whole * 2..n * 2]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_half_adds_the_same_bits_whichever_instructions_run() {
        // Every finite half's bits, and a few sums that round, over an odd length.
        let halves: Vec<u16> = (0..=u16::MAX).step_by(7).filter(|&b| b & 0x7c00 != 0x7c00).collect();
        let row: Vec<u8> = halves.iter().flat_map(|b| b.to_le_bytes()).collect();
        let start: Vec<f32> = (0..halves.len()).map(|i| (i as f32 * 0.37).sin() * 3.0).collect();
        let mut want = start.clone();
        for (o, &b) in want.iter_mut().zip(&halves) {
            *o += half::f16::from_bits(b).to_f32();
        }
        let mut got = start.clone();
        add_row(&mut got, &row);
        assert_eq!(
            got.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
            want.iter().map(|v| v.to_bits()).collect::<Vec<_>>()
        );
        let mut plain = start;
        add_row_plain(&mut plain, &row);
        assert_eq!(plain, got);
    }
}
