//! o200k's pre-tokenizer. Its last alternative, `\s+(?!\S)`, needs a look-ahead that
//! finite automata lack; as in the `bpe-openai` crate, it is written `\s+\s` and the
//! look-ahead character is given back after the match (`\s+$` covers the end of text).
//! The pattern (`pattern.rs`) is compiled by the build script into a dense DFA (2.8 MB)
//! that the binary carries and reads in place, a page at a time as text reaches its
//! states: compiling it at a process's first count took 3 ms and 3 MB, and counting runs
//! faster on it than on the lazy DFA (a 3 KB readme 99 -> 71 us). Its sparse form (143
//! KB) counted half as fast.

use regex_automata::dfa::Automaton;
use regex_automata::dfa::dense::DFA;
use regex_automata::util::wire::AlignAs;
use regex_automata::{Anchored, Input};

/// The DFA's transitions are `u32`s read in place: the bytes must sit on a 4-byte boundary.
static SPLIT_DFA: &AlignAs<[u8], u32> =
    &AlignAs { _align: [], bytes: *include_bytes!(concat!(env!("OUT_DIR"), "/o200k_split.dfa")) };

/// Splits text into pre-tokens.
pub struct Splitter {
    dfa: DFA<&'static [u32]>,
}

impl Splitter {
    /// Read the embedded DFA in place. Checking it as it is read walked all 2.8 MB of it
    /// into memory at every process's first count; `a_checked_read_accepts_the_embedded_dfa`
    /// checks it once, in the tests, instead.
    pub fn new() -> Self {
        // SAFETY: the bytes are what the build script serialized from a DFA that
        // regex-automata built, with this same crate version (one in Cargo.lock for the
        // build script and the crate) and the target's byte order, embedded whole and
        // aligned to `u32`: what `from_bytes_unchecked` requires. The test below reads
        // them through the checked `from_bytes`.
        let (dfa, _) =
            unsafe { DFA::from_bytes_unchecked(&SPLIT_DFA.bytes) }.expect("the build script wrote a DFA");
        Self { dfa }
    }

    /// The pre-tokens of `text`, in order; together they are `text`.
    pub fn split<'a>(&'a self, text: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let mut at = 0;
        std::iter::from_fn(move || {
            let input = Input::new(text).range(at..).anchored(Anchored::Yes);
            // A DFA without look-around cannot give up (no quit bytes, no heuristics).
            let m = self.dfa.try_search_fwd(&input).ok()??;
            let start = at;
            let mut end = m.offset();
            if m.pattern().as_usize() == 1 {
                let last = text[start..end].chars().next_back().map_or(0, char::len_utf8);
                end -= last;
            }
            at = end;
            (end > start).then(|| &text[start..end])
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checked_read_accepts_the_embedded_dfa() {
        let (checked, _) = DFA::from_bytes(&SPLIT_DFA.bytes).expect("a valid DFA");
        let text = "Hello  world's 12345\n\n  indented\tEND   ";
        let unchecked = Splitter::new();
        let by_checked = Splitter { dfa: checked };
        assert_eq!(unchecked.split(text).collect::<Vec<_>>(), by_checked.split(text).collect::<Vec<_>>());
    }

    #[test]
    fn pieces_cover_the_text_and_spaces_before_a_word_go_with_it() {
        let s = Splitter::new();
        let text = "Hello  world's 12345\n\n  indented\tEND   ";
        let pieces: Vec<&str> = s.split(text).collect();
        assert_eq!(pieces.concat(), text);
        assert_eq!(
            pieces,
            ["Hello", " ", " world's", " ", "123", "45", "\n\n", " ", " indented", "\tEND", "   "]
        );
    }
}
