//! BERT's uncased WordPiece tokenizer, as the `tokenizers` crate runs it for MiniLM
//! (BertNormalizer, BertPreTokenizer, WordPiece, `[CLS] … [SEP]`); the tests check it
//! against that crate. Written here because the crate and its 80 dependencies took 1.6
//! minutes of a 2-core release build for the 100 lines below.

use rustc_hash::FxHashMap;
use unicode_categories::UnicodeCategories as _;
use unicode_normalization::UnicodeNormalization as _;

/// Longest word looked up; longer ones are `[UNK]`, as in `tokenizers`.
const LONGEST_WORD: usize = 100;

/// A vocabulary and the ids of its markers.
pub struct WordPiece {
    ids: FxHashMap<String, u32>,
    unknown: u32,
    start: u32,
    end: u32,
}

impl WordPiece {
    /// Read `vocab.txt`: one token a line, its id its line number.
    pub fn from_vocab(text: &str) -> Result<Self, String> {
        let ids: FxHashMap<String, u32> =
            text.lines().enumerate().map(|(i, t)| (t.to_owned(), i as u32)).collect();
        let id = |t: &str| ids.get(t).copied().ok_or_else(|| format!("the vocabulary has no {t} token"));
        Ok(Self { unknown: id("[UNK]")?, start: id("[CLS]")?, end: id("[SEP]")?, ids })
    }

    /// How many tokens the vocabulary holds.
    pub fn size(&self) -> usize {
        self.ids.len()
    }

    /// `text`'s ids between `[CLS]` and `[SEP]`, at most `most` in all.
    pub fn encode(&self, text: &str, most: usize) -> Vec<u32> {
        let mut out = vec![self.start];
        let room = most.saturating_sub(2);
        for word in pre_tokenize(&normalize(text)) {
            if out.len() > room {
                break;
            }
            self.word(&word, &mut out);
        }
        out.truncate(room + 1);
        out.push(self.end);
        out
    }

    /// One word's pieces, longest first from the left; `[UNK]` if any part has none.
    fn word(&self, word: &str, out: &mut Vec<u32>) {
        if word.chars().count() > LONGEST_WORD {
            out.push(self.unknown);
            return;
        }
        let mark = out.len();
        let mut start = 0;
        let mut piece = String::new();
        while start < word.len() {
            let mut end = word.len();
            let found = loop {
                piece.clear();
                if start > 0 {
                    piece.push_str("##");
                }
                piece.push_str(&word[start..end]);
                if let Some(&id) = self.ids.get(&piece) {
                    break Some(id);
                }
                match word[start..end].char_indices().next_back() {
                    Some((last, _)) if last > 0 => end = start + last,
                    _ => break None,
                }
            };
            match found {
                Some(id) => out.push(id),
                None => {
                    out.truncate(mark);
                    out.push(self.unknown);
                    return;
                }
            }
            start = end;
        }
    }
}

/// BertNormalizer with MiniLM's settings: control characters out, whitespace as spaces,
/// CJK ideographs spaced apart, accents stripped, lower case.
fn normalize(text: &str) -> String {
    let mut spaced = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\0' || c == '\u{fffd}' || (!matches!(c, '\t' | '\n' | '\r') && c.is_other()) {
            continue;
        }
        if c.is_whitespace() {
            spaced.push(' ');
        } else if is_cjk(c) {
            spaced.extend([' ', c, ' ']);
        } else {
            spaced.push(c);
        }
    }
    spaced.nfd().filter(|c| !c.is_mark_nonspacing()).flat_map(char::to_lowercase).collect()
}

/// BertPreTokenizer: words split on whitespace, each punctuation mark a word of its own.
fn pre_tokenize(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        let punct = c.is_ascii_punctuation() || c.is_punctuation();
        if c.is_whitespace() || punct {
            if !word.is_empty() {
                words.push(std::mem::take(&mut word));
            }
            if punct {
                words.push(c.to_string());
            }
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn is_cjk(c: char) -> bool {
    matches!(
        c as u32,
        0x4E00..=0x9FFF
            | 0x3400..=0x4DBF
            | 0x20000..=0x2A6DF
            | 0x2A700..=0x2B73F
            | 0x2B740..=0x2B81F
            | 0x2B920..=0x2CEAF
            | 0xF900..=0xFAFF
            | 0x2F800..=0x2FA1F
    )
}
