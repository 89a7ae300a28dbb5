//! Turn the tiktoken vocabulary (`base64 rank` per line) into what the crate embeds: a
//! blob of `u32 n`, then `n + 1` little-endian `u32` offsets, then every token's bytes in
//! rank order; and the index from bytes to rank, an open-addressed table of little-endian
//! `u32` slots (see `src/hash.rs`); and the pre-tokenizer's pattern as a dense DFA. All
//! are read in place: a process that counts tokens builds nothing and touches only the
//! pages its lookups reach.

#[path = "src/hash.rs"]
mod hash;
#[path = "src/pattern.rs"]
mod pattern;

use std::io::Read;
use std::path::PathBuf;

use base64::Engine;

fn main() {
    let src = "data/o200k_base.tiktoken.gz";
    println!("cargo::rerun-if-changed={src}");
    println!("cargo::rerun-if-changed=src/hash.rs");
    println!("cargo::rerun-if-changed=src/pattern.rs");
    let gz = std::fs::read(src).expect("the vocabulary ships with the crate");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gz[..]).read_to_string(&mut text).expect("valid gzip");
    let mut offsets = vec![0u32];
    let mut bytes = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let (b64, rank) = line.split_once(' ').expect("`token rank` lines");
        assert_eq!(rank.parse::<usize>().expect("numeric rank"), i, "ranks are dense and ordered");
        let token = base64::engine::general_purpose::STANDARD.decode(b64).expect("base64 token");
        bytes.extend_from_slice(&token);
        offsets.push(u32::try_from(bytes.len()).expect("under 4 GiB"));
    }
    let n = u32::try_from(offsets.len() - 1).expect("fits");
    let index = index(&offsets, &bytes);
    let mut out = Vec::with_capacity(4 + offsets.len() * 4 + bytes.len());
    out.extend_from_slice(&n.to_le_bytes());
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&bytes);
    let dir = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo"));
    std::fs::write(dir.join("o200k.bin"), out).expect("OUT_DIR is writable");
    std::fs::write(dir.join("o200k_index.bin"), index).expect("OUT_DIR is writable");
    std::fs::write(dir.join("o200k_split.dfa"), split_dfa()).expect("OUT_DIR is writable");
}

/// The pre-tokenizer as a dense DFA (anchored, leftmost-first across its patterns),
/// serialized in the target's byte order without the alignment padding (the crate
/// embeds it aligned).
fn split_dfa() -> Vec<u8> {
    use regex_automata::dfa::{StartKind, dense};
    let patterns = pattern::patterns();
    let dense = dense::Builder::new()
        .configure(
            dense::Config::new()
                .match_kind(regex_automata::MatchKind::LeftmostFirst)
                .start_kind(StartKind::Anchored),
        )
        .build_many(&patterns)
        .expect("the o200k pattern compiles");
    let (bytes, padding) = match std::env::var("CARGO_CFG_TARGET_ENDIAN").as_deref() {
        Ok("big") => dense.to_bytes_big_endian(),
        _ => dense.to_bytes_little_endian(),
    };
    bytes[padding..].to_vec()
}
/// The index's slots, each token at the first free one from where its hash points.
fn index(offsets: &[u32], bytes: &[u8]) -> Vec<u8> {
    let n = offsets.len() - 1;
    assert!(n < (1 << hash::RANK_BITS) - 1, "ranks fit their bits, and no slot of a token is EMPTY");
    assert!(n * 5 < hash::SLOTS * 4, "the index stays under four fifths full");
    let mut slots = vec![hash::EMPTY; hash::SLOTS];
    for rank in 0..n {
        let token = &bytes[offsets[rank] as usize..offsets[rank + 1] as usize];
        let (mut at, tag) = hash::place(hash::hash(token));
        while slots[at] != hash::EMPTY {
            at = (at + 1) & (hash::SLOTS - 1);
        }
        slots[at] = tag | rank as u32;
    }
    slots.iter().flat_map(|s| s.to_le_bytes()).collect()
}
