//! o200k's pre-tokenizer pattern, as three patterns searched at once (see `split`). The
//! build script compiles it to a DFA and the crate reads that DFA in place, so both
//! include this one file.

/// Letters, lower-case last.
const LETTERS_LOWER: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?";
/// Letters, upper-case first.
const LETTERS_UPPER: &str = r"[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?";
/// Numbers, punctuation, line breaks and trailing space.
const REST: &str = r"\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+$";

/// The patterns, in tiktoken's order of alternatives: pattern 1 is `\s+(?!\S)` written
/// `\s+\s`, its look-ahead character given back after the match.
pub fn patterns() -> [String; 3] {
    [format!("{LETTERS_LOWER}|{LETTERS_UPPER}|{REST}"), r"\s+\s".to_owned(), r"\s+".to_owned()]
}
