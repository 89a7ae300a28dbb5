//! o200k's pre-tokenizer. Its last alternative, `\s+(?!\S)`, needs a look-ahead that
//! finite automata lack; as in the `bpe-openai` crate, it is written `\s+\s` and the
//! look-ahead character is given back after the match (`\s+$` covers the end of text).

use regex_automata::meta::Regex;
use regex_automata::{Anchored, Input};

/// The pattern alternatives, in tiktoken's order.
const LETTERS_LOWER: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?";
const LETTERS_UPPER: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?";
const REST: &str = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+$";

/// Splits text into pre-tokens.
pub struct Splitter {
    re: Regex,
}

impl Splitter {
    /// Compile the pattern (a few milliseconds, once per process).
    pub fn new() -> Self {
        let first = format!("{LETTERS_LOWER}|{LETTERS_UPPER}|{REST}");
        let re = Regex::new_many(&[first.as_str(), r"\s+\s", r"\s+"]).expect("the o200k pattern compiles");
        Self { re }
    }

    /// The pre-tokens of `text`, in order; together they are `text`.
    pub fn split<'a>(&'a self, text: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        let mut at = 0;
        std::iter::from_fn(move || {
            let m = self.re.find(Input::new(text).range(at..).anchored(Anchored::Yes))?;
            let start = at;
            let mut end = m.end();
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
