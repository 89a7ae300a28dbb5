//! o200k's pre-tokenizer. Its last alternative, `\s+(?!\S)`, needs a look-ahead that
//! finite automata lack; as in the `bpe-openai` crate, it is written `\s+\s` and the
//! look-ahead character is given back after the match (`\s+$` covers the end of text).
//! The pattern (`pattern.rs`) is compiled by the build script into a sparse DFA of about
//! 143 KB that the binary carries and reads in place: compiling it at a process's first
//! count took 3 ms and 3 MB.

use regex_automata::dfa::Automaton;
use regex_automata::dfa::sparse::DFA;
use regex_automata::{Anchored, Input};

static SPLIT_DFA: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/o200k_split.dfa"));

/// Splits text into pre-tokens.
pub struct Splitter {
    dfa: DFA<&'static [u8]>,
}

impl Splitter {
    /// Read the embedded DFA (checked as it is read: about 0.1 ms, once per process).
    pub fn new() -> Self {
        let (dfa, _) = DFA::from_bytes(SPLIT_DFA).expect("the build script wrote a valid DFA");
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
