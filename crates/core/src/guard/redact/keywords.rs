//! Which secret rules a text wakes: every rule names keywords, and only a rule one of
//! whose keywords is in the text runs its pattern.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{LazyLock, OnceLock};

use super::RULES;

/// Every rule's distinct keywords, each with the rules that name it.
pub(super) static KEYWORDS: LazyLock<Keywords> = LazyLock::new(|| {
    let mut words: Vec<&'static str> = Vec::new();
    let mut owners: Vec<Vec<usize>> = Vec::new();
    let mut at: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, rule) in RULES.iter().enumerate() {
        for &k in rule.keywords {
            let n = *at.entry(k).or_insert_with(|| {
                words.push(k);
                owners.push(Vec::new());
                words.len() - 1
            });
            owners[n].push(i);
        }
    }
    Keywords { words, owners, automaton: OnceLock::new(), scanned: AtomicUsize::new(0) }
});

/// Text a process scans keyword by keyword before it builds the automaton. Building it
/// (270 keywords) took 0.31 ms, a twentieth of a prompt hook that scrubs one prompt;
/// looking for each keyword in turn in a 90-byte text takes 2 µs. So scanning 16 KB
/// word by word costs about one build, and past it the build pays (as with renting skis
/// until their price is spent): a server or an import builds it once and scans each
/// text in one pass (0.5 µs), a hook never builds it.
const SCAN_BEFORE_BUILDING: usize = 16 << 10;

/// The keywords, and the automaton that finds them all in one pass once it pays.
pub(super) struct Keywords {
    pub(super) words: Vec<&'static str>,
    owners: Vec<Vec<usize>>,
    automaton: OnceLock<aho_corasick::AhoCorasick>,
    scanned: AtomicUsize,
}

impl Keywords {
    /// Mark in `wanted` every rule one of whose keywords is in `lower` (lower-cased text).
    pub(super) fn mark(&self, lower: &str, wanted: &mut [bool]) {
        let seen = self.scanned.fetch_add(lower.len(), Ordering::Relaxed) + lower.len();
        match self.automaton.get() {
            Some(a) => self.mark_in_one_pass(a, lower, wanted),
            None if seen > SCAN_BEFORE_BUILDING => {
                self.mark_in_one_pass(self.automaton.get_or_init(|| self.build()), lower, wanted)
            }
            None => self.mark_word_by_word(lower, wanted),
        }
    }

    pub(super) fn mark_in_one_pass(
        &self,
        automaton: &aho_corasick::AhoCorasick,
        lower: &str,
        wanted: &mut [bool],
    ) {
        for m in automaton.find_overlapping_iter(lower) {
            self.owners[m.pattern().as_usize()].iter().for_each(|&i| wanted[i] = true);
        }
    }

    pub(super) fn mark_word_by_word(&self, lower: &str, wanted: &mut [bool]) {
        // `str::contains` over `memchr::memmem::find`: the latter sets up a searcher per
        // call, seven times dearer on a short text.
        for (word, owners) in self.words.iter().zip(&self.owners) {
            if lower.contains(word) {
                owners.iter().for_each(|&i| wanted[i] = true);
            }
        }
    }

    /// Built from the keywords as they are (lower-cased by `build.rs`) and run over the
    /// text lower-cased, as a non-contiguous NFA: the builder's default (a DFA over both
    /// cases) cost 3.9 million instructions to build, and a text is scanned once either way.
    pub(super) fn build(&self) -> aho_corasick::AhoCorasick {
        aho_corasick::AhoCorasick::builder()
            .kind(Some(aho_corasick::AhoCorasickKind::NoncontiguousNFA))
            .build(&self.words)
            .expect("keywords build an automaton")
    }
}
