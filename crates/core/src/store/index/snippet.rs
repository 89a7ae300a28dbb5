//! A hit's passage: twelve tokens of its content around the query's words, the words in
//! [brackets], cut here with the keyword index's own tokenizer rather than by FTS5's
//! `snippet()`. That needs the row found again by `MATCH … AND rowid = ?`, and every
//! such lookup walks each query word's posting list up to the row: 1.3–1.8 ms for the
//! 20 passages of an any-word search at 100,000 entries, against microseconds here.
//!
//! The window is chosen as FTS5 chooses it: each match starts a candidate, a query word
//! not yet in the window scores 1,000 and a repeat 1, and the best is centred on its
//! matches; `…` marks text left out.

use std::ffi::{c_char, c_int, c_void};
use std::ops::Range;
use std::ptr;

use rusqlite::Connection;
use rusqlite::ffi;

use crate::error::{Error, Result};
use crate::store::backend::Word;

/// Tokens a passage shows at most (FTS5's `snippet(…, 12)` as before).
const WINDOW: usize = 12;

/// A token as the index stores it (stemmed, folded), and where it stands in the text.
type Token = (String, Range<usize>);

/// The keyword index's tokenizer (`porter unicode61`, as the table declares it), opened
/// for one search's passages.
pub(in crate::store) struct Tokenizer {
    methods: ffi::fts5_tokenizer,
    made: *mut ffi::Fts5Tokenizer,
}

impl Tokenizer {
    /// The tokenizer of `conn`'s FTS5.
    pub(in crate::store) fn open(conn: &Connection) -> Result<Self> {
        let unavailable =
            || Error::storage("FTS5 did not hand out its porter tokenizer; search cannot cut passages");
        // SAFETY: as `rank::register`: the statement lives only within this block, and
        // the API pointer SQLite writes is used only when non-null. The tokenizer is made
        // by the methods FTS5 returned, with arguments that outlive the call.
        unsafe {
            let api = super::rank::fts5_api(conn).ok_or_else(unavailable)?;
            let find = (*api).xFindTokenizer.ok_or_else(unavailable)?;
            let mut user: *mut c_void = ptr::null_mut();
            let mut methods: ffi::fts5_tokenizer = std::mem::zeroed();
            if find(api, c"porter".as_ptr(), &mut user, &mut methods) != ffi::SQLITE_OK {
                return Err(unavailable());
            }
            let create = methods.xCreate.ok_or_else(unavailable)?;
            let mut args = [c"unicode61".as_ptr()];
            let mut made: *mut ffi::Fts5Tokenizer = ptr::null_mut();
            if create(user, args.as_mut_ptr(), 1, &mut made) != ffi::SQLITE_OK || made.is_null() {
                return Err(unavailable());
            }
            Ok(Self { methods, made })
        }
    }

    /// The tokens of `text`, tokenized with `flags` (`FTS5_TOKENIZE_…`).
    fn tokens(&self, text: &str, flags: c_int) -> Vec<Token> {
        unsafe extern "C" fn each(
            ctx: *mut c_void,
            tflags: c_int,
            token: *const c_char,
            len: c_int,
            start: c_int,
            end: c_int,
        ) -> c_int {
            // SAFETY: `ctx` is the vector `tokens` passed in; `token` holds `len` bytes
            // for the length of this call.
            unsafe {
                if tflags & ffi::FTS5_TOKEN_COLOCATED != 0 {
                    return ffi::SQLITE_OK;
                }
                let out = &mut *ctx.cast::<Vec<Token>>();
                let bytes = std::slice::from_raw_parts(token.cast::<u8>(), usize::try_from(len).unwrap_or(0));
                let (Ok(start), Ok(end)) = (usize::try_from(start), usize::try_from(end)) else {
                    return ffi::SQLITE_OK;
                };
                out.push((String::from_utf8_lossy(bytes).into_owned(), start..end));
            }
            ffi::SQLITE_OK
        }
        let mut out: Vec<Token> = Vec::new();
        let (Some(tokenize), Ok(len)) = (self.methods.xTokenize, c_int::try_from(text.len())) else {
            return out;
        };
        // SAFETY: `made` came from this tokenizer's `xCreate`; the text and the vector
        // outlive the call, which is synchronous.
        unsafe {
            tokenize(
                self.made,
                (&mut out as *mut Vec<Token>).cast::<c_void>(),
                flags,
                text.as_ptr().cast::<c_char>(),
                len,
                Some(each),
            );
        }
        out
    }

    /// What a token must be to match `words`: each word's tokens, and whether it is a
    /// prefix.
    pub(in crate::store) fn terms(&self, words: &[Word]) -> Vec<(String, bool)> {
        let mut out = Vec::new();
        for w in words {
            let flags = ffi::FTS5_TOKENIZE_QUERY | if w.prefix { ffi::FTS5_TOKENIZE_PREFIX } else { 0 };
            out.extend(self.tokens(&w.text, flags).into_iter().map(|(t, _)| (t, w.prefix)));
        }
        out
    }

    /// The passage of `content` for `terms` (see the module's note).
    pub(in crate::store) fn passage(&self, content: &str, terms: &[(String, bool)]) -> String {
        let tokens = self.tokens(content, ffi::FTS5_TOKENIZE_DOCUMENT);
        let matched: Vec<Option<usize>> = tokens
            .iter()
            .map(|(t, _)| {
                terms.iter().position(|(q, prefix)| if *prefix { t.starts_with(q.as_str()) } else { t == q })
            })
            .collect();
        let spans: Vec<Range<usize>> = tokens.into_iter().map(|(_, r)| r).collect();
        cut(content, &spans, &matched)
    }
}

impl Drop for Tokenizer {
    fn drop(&mut self) {
        if let Some(delete) = self.methods.xDelete {
            // SAFETY: `made` came from `xCreate` and is deleted once.
            unsafe { delete(self.made) }
        }
    }
}

/// The passage of `text` whose tokens stand at `spans`, `matched` saying which query term
/// each token is (if any).
fn cut(text: &str, spans: &[Range<usize>], matched: &[Option<usize>]) -> String {
    let n = spans.len();
    if n == 0 {
        return String::new();
    }
    let (start, end) = window(matched);
    let mut out = String::new();
    let mut at = if start == 0 { 0 } else { spans[start].start };
    if start > 0 {
        out.push('…');
    }
    for i in start..end {
        let span = &spans[i];
        out.push_str(text.get(at..span.start).unwrap_or_default());
        let word = text.get(span.clone()).unwrap_or_default();
        if matched[i].is_some() {
            out.push('[');
            out.push_str(word);
            out.push(']');
        } else {
            out.push_str(word);
        }
        at = span.end;
    }
    if end == n {
        out.push_str(text.get(at..).unwrap_or_default());
    } else {
        out.push('…');
    }
    out
}

/// The tokens `start..end` a passage shows: the best-scoring window of [`WINDOW`] tokens
/// starting at a match, centred on its matches (the first tokens when none matches).
fn window(matched: &[Option<usize>]) -> (usize, usize) {
    let n = matched.len();
    if n <= WINDOW {
        return (0, n);
    }
    let mut best: Option<(u64, usize)> = None;
    for first in (0..n).filter(|&i| matched[i].is_some()) {
        let upto = (first + WINDOW).min(n);
        let (mut score, mut seen, mut last) = (0u64, Vec::new(), first);
        for (i, m) in matched.iter().enumerate().take(upto).skip(first) {
            let Some(term) = m else { continue };
            score += if seen.contains(term) { 1 } else { 1_000 };
            seen.push(*term);
            last = i;
        }
        let spare = WINDOW - (last - first + 1);
        let start = first.saturating_sub(spare / 2).min(n - WINDOW);
        if best.is_none_or(|(s, _)| score > s) {
            best = Some((score, start));
        }
    }
    let start = best.map_or(0, |(_, s)| s);
    (start, start + WINDOW)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Store;

    fn passage(content: &str, words: &[(&str, bool)]) -> String {
        let store = Store::open_in_memory().unwrap();
        store
            .read(|c| {
                let t = Tokenizer::open(c)?;
                let words: Vec<Word> =
                    words.iter().map(|(w, prefix)| Word { text: (*w).into(), prefix: *prefix }).collect();
                Ok(t.passage(content, &t.terms(&words)))
            })
            .unwrap()
    }

    #[test]
    fn a_short_text_is_shown_whole_with_its_stemmed_and_prefixed_words_marked() {
        assert_eq!(
            passage("Raft leaders renew, every 5 s.", &[("leader", false)]),
            "Raft [leaders] renew, every 5 s."
        );
        assert_eq!(passage("The leadership team", &[("lead", true)]), "The [leadership] team");
        assert_eq!(passage("Café au lait", &[("cafe", false)]), "[Café] au lait");
    }

    #[test]
    fn a_long_text_shows_the_window_with_the_most_different_words_centred() {
        let text = "one two three four five six seven eight nine ten raft eleven twelve thirteen \
                    fourteen fifteen sixteen ledger seventeen eighteen nineteen twenty raft end";
        let cut = passage(text, &[("raft", false), ("ledger", false)]);
        assert_eq!(
            cut,
            "…nine ten [raft] eleven twelve thirteen fourteen fifteen sixteen [ledger] seventeen eighteen…"
        );
        let none = passage(text, &[("absent", false)]);
        assert_eq!(none, "one two three four five six seven eight nine ten raft eleven…");
        let tail = passage(text, &[("end", false)]);
        assert!(tail.starts_with('…') && tail.ends_with("twenty raft [end]"), "{tail}");
    }
}
