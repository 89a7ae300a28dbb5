//! The model's tokenizer: Llama's SentencePiece-style BPE (spaces become `▁`, one `▁` in
//! front, merges by rank, unknown characters as UTF-8 byte tokens), read from the
//! `tokenizer.json` the model ships with. The `tokenizers` crate builds the same tokenizer
//! in 65 ms; a prompt hook has 180 ms in all, so this builds it in a few (the tests check
//! both give the same ids).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use serde::Deserialize;

mod compact;
mod table;

/// The vocabulary and the merges, ready to encode.
pub struct Bpe {
    /// The single-character tokens (what a word is split into before merging): the rest
    /// of the vocabulary is only reached through `merges`, so it is not kept.
    chars: FxHashMap<char, u32>,
    /// The merges, grouped by their left token (see [`Merges`]).
    merges: Merges,
    /// `<0x00>`…`<0xFF>`, for characters the vocabulary lacks.
    bytes: [u32; 256],
}

#[derive(Deserialize)]
struct File<'a> {
    #[serde(borrow)]
    model: ModelPart<'a>,
}

// Read borrowing from the file's text (a token with an escape in it is the exception),
// not as 93,000 strings allocated and freed at every load: the model's load went from
// 17.4 to 15.3 ms (`--bench embed`, start profile).
#[derive(Deserialize)]
struct ModelPart<'a> {
    #[serde(rename = "type", borrow)]
    kind: Cow<'a, str>,
    #[serde(borrow)]
    vocab: FxHashMap<Cow<'a, str>, u32>,
    #[serde(borrow)]
    merges: Vec<Cow<'a, str>>,
    #[serde(default)]
    byte_fallback: bool,
}

/// Longest text encoded, in characters (a vector averages over the first 512 tokens).
const MOST_CHARS: usize = 4096;

impl Bpe {
    /// Read `tokenizer.json`'s text; the error says what is missing.
    pub fn from_json(text: &str) -> Result<Self, String> {
        let file: File<'_> = serde_json::from_str(text).map_err(|e| e.to_string())?;
        let m = file.model;
        if m.kind != "BPE" || !m.byte_fallback {
            return Err(format!("model.type is {:?}; a byte-fallback BPE is needed", m.kind));
        }
        let mut bytes = [0u32; 256];
        for (b, slot) in bytes.iter_mut().enumerate() {
            *slot = *m
                .vocab
                .get(format!("<0x{b:02X}>").as_str())
                .ok_or_else(|| format!("the vocabulary lacks <0x{b:02X}>"))?;
        }
        let most_id = m.vocab.values().copied().max().unwrap_or(0);
        let mut merges = Merges::sized(most_id, m.merges.len());
        let mut joined = String::new();
        for (rank, line) in m.merges.iter().enumerate() {
            let Some((a, b)) = line.split_once(' ') else {
                return Err(format!("merge {rank} ({line:?}) is not two tokens"));
            };
            let id = |t: &str| {
                m.vocab
                    .get(t)
                    .copied()
                    .ok_or_else(|| format!("merge {rank} names {t:?}, not in the vocabulary"))
            };
            joined.clear();
            joined.push_str(a);
            joined.push_str(b);
            let merged = id(&joined)?;
            merges.insert(Merge { left: id(a)?, right: id(b)?, rank: rank as u32, merged });
        }
        let mut chars = FxHashMap::default();
        for (token, &id) in &m.vocab {
            let mut it = token.chars();
            if let (Some(c), None) = (it.next(), it.next()) {
                chars.insert(c, id);
            }
        }
        Ok(Self { chars, merges, bytes })
    }

    /// The token ids of `text`, as the model was trained to see them.
    pub fn encode(&self, text: &str) -> Vec<u32> {
        if text.is_empty() {
            return Vec::new();
        }
        let mut normalized = String::with_capacity(text.len().min(MOST_CHARS * 4) + 3);
        normalized.push('▁');
        for c in text.chars().take(MOST_CHARS) {
            normalized.push(if c == ' ' { '▁' } else { c });
        }
        let mut out = Vec::new();
        // Merges join pieces within a word (a `▁` and what follows it up to the next
        // `▁`), so words are merged one by one: quadratic in a word, not in the text.
        let mut start = 0;
        let starts: Vec<usize> = normalized
            .char_indices()
            .filter(|&(i, c)| c == '▁' && i > 0 && !normalized[..i].ends_with('▁'))
            .map(|(i, _)| i)
            .chain([normalized.len()])
            .collect();
        for end in starts {
            self.word(&normalized[start..end], &mut out);
            start = end;
        }
        out
    }

    fn word(&self, word: &str, out: &mut Vec<u32>) {
        // Each symbol: a vocabulary id, or `None` for a character the vocabulary lacks.
        let mut symbols: Vec<(Option<u32>, &str)> = Vec::with_capacity(word.len());
        for (i, c) in word.char_indices() {
            let s = &word[i..i + c.len_utf8()];
            symbols.push((self.chars.get(&c).copied(), s));
        }
        loop {
            let mut best: Option<(u32, usize, u32)> = None;
            for i in 0..symbols.len().saturating_sub(1) {
                if let (Some(a), Some(b)) = (symbols[i].0, symbols[i + 1].0)
                    && let Some((rank, id)) = self.merges.get(a, b)
                    && best.is_none_or(|(r, _, _)| rank < r)
                {
                    best = Some((rank, i, id));
                }
            }
            let Some((_, i, id)) = best else { break };
            symbols[i].0 = Some(id);
            symbols.remove(i + 1);
        }
        for (id, s) in symbols {
            match id {
                Some(id) => out.push(id),
                None => out.extend(s.bytes().map(|b| self.bytes[b as usize])),
            }
        }
    }
}

/// One merge: `left` and `right` become `merged`, in the order of `rank`.
#[derive(Debug, Clone, Copy)]
struct Merge {
    left: u32,
    right: u32,
    rank: u32,
    merged: u32,
}

/// The merges, `(left, right)` → `(rank, merged id)`. When every id and rank fits in 16
/// bits (the model's 32,000 tokens and 61,000 merges do), a pair and its answer are one
/// `u32` each in a table the compact file holds as it is (1 MB; pairs of `u32` pairs in a
/// map held 2.2 MB). A sorted array was smaller still but made every embedding a fifth
/// slower.
enum Merges {
    /// Packed: `left << 16 | right` → `rank << 16 | merged`.
    Small(table::Table),
    /// A tokenizer too big to pack.
    Wide(FxHashMap<(u32, u32), (u32, u32)>),
}

impl Merges {
    /// Room for `count` merges of tokens whose ids go up to `most_id`: packed when every
    /// id and rank fits in 16 bits (and fewer than 65,535 merges: see `table`).
    fn sized(most_id: u32, count: usize) -> Self {
        if u16::try_from(most_id).is_ok() && count < usize::from(u16::MAX) {
            Self::Small(table::Table::with_room(count))
        } else {
            let mut map = FxHashMap::default();
            map.reserve(count);
            Self::Wide(map)
        }
    }

    /// Add `m` (given in the file's order): a pair listed twice keeps its first rank.
    fn insert(&mut self, m: Merge) {
        match self {
            Self::Small(table) => table.insert(m.left << 16 | m.right, m.rank << 16 | m.merged),
            Self::Wide(map) => {
                map.entry((m.left, m.right)).or_insert((m.rank, m.merged));
            }
        }
    }

    /// `(rank, merged id)` of `left` followed by `right`, if they merge.
    #[inline]
    fn get(&self, left: u32, right: u32) -> Option<(u32, u32)> {
        match self {
            Self::Small(table) => {
                if left > u32::from(u16::MAX) || right > u32::from(u16::MAX) {
                    return None;
                }
                table.get(left << 16 | right).map(|v| (v >> 16, v & 0xFFFF))
            }
            Self::Wide(map) => map.get(&(left, right)).copied(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_pack_when_they_fit_and_a_pair_listed_twice_keeps_its_first_rank() {
        for big in [0u32, 70_000] {
            let merge = |left, right, rank, merged| Merge { left, right, rank, merged };
            let mut m = Merges::sized(3 + big, 3);
            for one in [merge(1 + big, 2, 0, 5), merge(1 + big, 2, 7, 9), merge(3, 1 + big, 1, 6)] {
                m.insert(one);
            }
            assert_eq!(matches!(m, Merges::Small(_)), big == 0, "packed only when every id fits 16 bits");
            assert_eq!(m.get(1 + big, 2), Some((0, 5)));
            assert_eq!(m.get(3, 1 + big), Some((1, 6)));
            assert_eq!(m.get(2, 1 + big), None);
            assert_eq!(m.get(90_001, 2), None, "an id past 16 bits is no packed pair");
        }
    }
}
