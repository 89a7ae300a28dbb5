//! Turn the tiktoken vocabulary (`base64 rank` per line) into one blob the crate embeds:
//! `u32 n`, then `n + 1` little-endian `u32` offsets, then every token's bytes in rank
//! order. Lookups read the blob in place, so the table costs no heap beyond its index.

use std::io::Read;
use std::path::PathBuf;

use base64::Engine;

fn main() {
    let src = "data/o200k_base.tiktoken.gz";
    println!("cargo::rerun-if-changed={src}");
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
    let mut out = Vec::with_capacity(4 + offsets.len() * 4 + bytes.len());
    out.extend_from_slice(&n.to_le_bytes());
    for o in offsets {
        out.extend_from_slice(&o.to_le_bytes());
    }
    out.extend_from_slice(&bytes);
    let path = PathBuf::from(std::env::var("OUT_DIR").expect("set by cargo")).join("o200k.bin");
    std::fs::write(path, out).expect("OUT_DIR is writable");
}
