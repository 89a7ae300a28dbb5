//! The words of what a person or an agent typed, as a search reads them: split at
//! punctuation and lowercased, a prefix star kept, and a question's stop words left out.

use crate::store::backend::Word;

/// The words a person typed: letters, digits and `_` (operators and punctuation split
/// words and are otherwise ignored), lowercase, at most 32, all required. A word ending in
/// `*` matches as a prefix; others match whole (stemmed) words, which keeps common
/// prefixes from expanding into thousands of terms.
pub fn words(text: &str) -> Vec<Word> {
    let mut words = Vec::new();
    for raw in text.split_whitespace() {
        let prefix = raw.ends_with('*');
        let parts: Vec<&str> =
            raw.split(|c: char| !c.is_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
        let last = parts.len().saturating_sub(1);
        for (i, w) in parts.into_iter().enumerate() {
            words.push(Word { text: w.to_lowercase(), prefix: prefix && i == last });
        }
    }
    words.truncate(32);
    words
}

/// Words that say nothing about what a prompt is about.
const STOP: &[&str] = &[
    "the", "and", "for", "are", "but", "not", "you", "all", "any", "can", "had", "her", "was", "one", "our",
    "out", "has", "have", "what", "when", "where", "which", "who", "why", "how", "this", "that", "these",
    "those", "with", "from", "into", "about", "again", "did", "does", "done", "doing", "should", "would",
    "could", "will", "just", "then", "than", "them", "they", "their", "there", "here", "your", "yours", "we",
    "us", "its", "it's", "let", "lets", "please", "make", "use", "used", "using", "get", "got", "need",
    "want", "like", "some", "more", "most", "also", "very", "now", "new", "old", "way", "still", "yet",
    "one", "two", "tell", "show", "look", "know", "think", "see", "add", "fix", "run", "try", "code", "file",
];

/// The words of a question that say what it is about: no stop words (what, did, when…),
/// each once, prefixes kept, at most 32. Empty when every word is a stop word.
pub fn content_words(query: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    for w in words(query) {
        // One letter is a possessive's `s` or an initial, never what a question is about.
        if w.text.chars().count() < 2
            || STOP.contains(&w.text.as_str())
            || SHORT_STOP.contains(&w.text.as_str())
        {
            continue;
        }
        if !out.iter().any(|o| o.text == w.text) {
            out.push(w);
        }
    }
    out
}

/// Short words that say nothing (the prompt's own list skips every word under three
/// letters; a search keeps short ones like `db`, `ui`, `ci`).
const SHORT_STOP: &[&str] = &[
    "a", "an", "is", "it", "of", "to", "in", "on", "at", "by", "or", "be", "do", "we", "i", "me", "my", "so",
    "as", "if", "no", "up", "he", "she", "his", "him", "hers", "was", "were", "been", "being", "am", "are",
    "does", "did", "has", "had", "there", "any", "some", "about", "ever",
];

/// Why a keyword search has nothing to match: every word of the query is a stop word.
pub const ONLY_STOP_WORDS: &str = "the query has only common words (what, did, the, when…), which match \
     nothing by keyword; add a word that says what it is about";

/// The words of `prompt` that could say what it is about (at most 12, no stop words).
pub fn meaningful(prompt: &str) -> Vec<Word> {
    let mut out: Vec<Word> = Vec::new();
    for w in words(prompt) {
        if w.text.chars().count() < 3
            || STOP.contains(&w.text.as_str())
            || out.iter().any(|o| o.text == w.text)
        {
            continue;
        }
        out.push(Word { prefix: false, text: w.text });
        if out.len() == 12 {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_lowercase_split_at_punctuation_and_keep_a_prefix_star() {
        let text = |q: &str| words(q).into_iter().map(|w| (w.text, w.prefix)).collect::<Vec<_>>();
        assert_eq!(text("Leader election"), [("leader".into(), false), ("election".into(), false)]);
        assert_eq!(
            text("NOT \"x\" OR y*"),
            [("not".into(), false), ("x".into(), false), ("or".into(), false), ("y".into(), true)]
        );
        assert_eq!(
            text("lead* raft-log"),
            [("lead".into(), true), ("raft".into(), false), ("log".into(), false)]
        );
        assert!(words("  ?? ").is_empty());
    }

    #[test]
    fn a_questions_content_words_leave_its_stop_words_and_single_letters_out() {
        let text = |q: &str| content_words(q).into_iter().map(|w| w.text).collect::<Vec<_>>();
        assert_eq!(text("When did we move the ledger to Postgres?"), ["move", "ledger", "postgres"]);
        assert_eq!(text("What's the CI db's status, and the CI?"), ["ci", "db", "status"]);
        assert_eq!(text("Raft OR river NOT leader"), ["raft", "river", "leader"]);
        assert_eq!(text("lead* election"), ["lead", "election"]);
        assert_eq!(content_words("Wo läuft der Zähler?").len(), 4, "other languages keep their words");
        assert!(text("what did we do about it?").is_empty());
        assert!(content_words("lead*")[0].prefix);
    }
}
