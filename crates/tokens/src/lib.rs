//! Exact o200k token counts (the tokenizer of OpenAI's current models, and the budget unit
//! of Mooring's context preamble) in a few megabytes of memory: the vocabulary is embedded
//! as a compact blob with its hash index and read in place; pieces are merged as
//! tiktoken merges them. Equality with a reference implementation is tested in
//! `tests/exact.rs`.

mod merge;
mod split;
mod table;

use std::sync::LazyLock;

struct O200k {
    ranks: table::Ranks,
    splitter: split::Splitter,
}

static O200K: LazyLock<O200k> =
    LazyLock::new(|| O200k { ranks: table::Ranks::load(), splitter: split::Splitter::new() });

/// The o200k token count of `text`.
pub fn count(text: &str) -> usize {
    let t = &*O200K;
    t.splitter.split(text).map(|piece| merge::count(&t.ranks, piece.as_bytes())).sum()
}

/// Load the vocabulary now rather than at the first count.
pub fn warm() {
    LazyLock::force(&O200K);
}
