//! The search engine's storage beside the tables: the ranking function FTS5 calls
//! (`rank`), the sample a search counts its words in (`sample`), passages cut around
//! the words asked (`snippet`), and each project's vectors held in memory
//! (`vector_index`). The tables these read are the store's query modules.

pub mod keyword;
pub(crate) mod rank;
pub(crate) mod sample;
pub(crate) mod snippet;
pub mod vector_index;

use crate::store::backend::Word;

/// The words as an FTS5 query: each quoted (operators and punctuation stay plain text),
/// all required, a prefix word with its `*`.
pub fn fts_terms(words: &[Word], any: bool) -> String {
    let quoted: Vec<String> =
        words.iter().map(|w| format!("\"{}\"{}", w.text, if w.prefix { "*" } else { "" })).collect();
    quoted.join(if any { " OR " } else { " " })
}
