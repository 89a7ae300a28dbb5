//! The hash of a token's bytes. The build script lays the vocabulary's index out with it
//! and the crate looks tokens up with it, so both include this one file.

/// A 64-bit hash of `bytes`: a folded multiply over their first and last eight bytes
/// (and every sixteen between, for a long one), as `wyhash` and `foldhash` do: tokens are
/// short, and a byte-at-a-time loop was a fifth of counting.
#[inline]
pub fn hash(bytes: &[u8]) -> u64 {
    const K1: u64 = 0x2d35_8dcc_aa6c_78a5;
    const K2: u64 = 0x8bb8_4b93_962e_acc9;
    let n = bytes.len();
    let mut seed = K1 ^ n as u64;
    let (a, b) = if n <= 16 {
        if n >= 8 {
            (read8(bytes, 0), read8(bytes, n - 8))
        } else if n >= 4 {
            (read4(bytes, 0), read4(bytes, n - 4))
        } else if n > 0 {
            (u64::from(bytes[0]) << 16 | u64::from(bytes[n / 2]) << 8 | u64::from(bytes[n - 1]), 0)
        } else {
            (0, 0)
        }
    } else {
        let mut i = 0;
        while i + 16 < n {
            seed = fold(read8(bytes, i) ^ K2, read8(bytes, i + 8) ^ seed);
            i += 16;
        }
        (read8(bytes, n - 16), read8(bytes, n - 8))
    };
    fold(a ^ K2, b ^ seed)
}

#[inline]
fn fold(a: u64, b: u64) -> u64 {
    let m = u128::from(a) * u128::from(b);
    (m as u64) ^ ((m >> 64) as u64)
}

#[inline]
fn read8(b: &[u8], i: usize) -> u64 {
    u64::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3], b[i + 4], b[i + 5], b[i + 6], b[i + 7]])
}

#[inline]
fn read4(b: &[u8], i: usize) -> u64 {
    u64::from(u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]))
}

/// Slots of the index: a power of two, about four for every three tokens (1 MB; twice as
/// many counted 4% faster and can keep twice the pages resident).
pub const SLOTS: usize = 1 << 18;
/// Bits of a slot that hold the token's rank; the rest hold bits of its hash, so a
/// probe compares a token's bytes only when those agree.
pub const RANK_BITS: u32 = 18;
/// A slot no token holds.
pub const EMPTY: u32 = u32::MAX;

/// Where a token with hash `h` is looked for first, and the hash bits its slot keeps.
pub fn place(h: u64) -> (usize, u32) {
    (h as usize & (SLOTS - 1), ((h >> 46) as u32) << RANK_BITS)
}
