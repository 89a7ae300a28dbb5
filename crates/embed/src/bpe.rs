//! The model's tokenizer: Llama's SentencePiece-style BPE (spaces become `▁`, one `▁` in
//! front, merges by rank, unknown characters as UTF-8 byte tokens), read from the
//! `tokenizer.json` the model ships with. The `tokenizers` crate builds the same tokenizer
//! in 65 ms; a prompt hook has 180 ms in all, so this builds it in a few (the tests check
//! both give the same ids).

use std::borrow::Cow;

use rustc_hash::FxHashMap;

use serde::Deserialize;

/// The vocabulary and the merges, ready to encode.
pub struct Bpe {
    /// The single-character tokens (what a word is split into before merging): the rest
    /// of the vocabulary is only reached through `merges`, so it is not kept.
    chars: FxHashMap<char, u32>,
    /// `(left, right)` → `(rank, merged id)`.
    merges: FxHashMap<(u32, u32), (u32, u32)>,
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
        let mut merges = FxHashMap::default();
        merges.reserve(m.merges.len());
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
            merges.entry((id(a)?, id(b)?)).or_insert((rank as u32, merged));
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
                    && let Some(&(rank, id)) = self.merges.get(&(a, b))
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
