//! Secrets are never stored verbatim: memory, handovers, context locks and the person's
//! notes on questions pass through [`scrub`] before they are written. Each secret found is
//! replaced by `[redacted:<kind>]`, and `<private>…</private>` spans are dropped whole;
//! the caller tells the agent what was taken out and why.
//!
//! The rules are gitleaks' (`gitleaks.json`, a maintained rule set; provenance and
//! licence in `NOTICE`) plus a few of Mooring's own for free text (`rules.toml`). Each
//! rule is tried only when one of its keywords occurs in the text: one automaton pass
//! decides, so ordinary text costs little.

use std::sync::{LazyLock, OnceLock};

use regex::Regex;
use regex::bytes::{Regex as BytesRegex, RegexBuilder, RegexSet, RegexSetBuilder};
use serde::{Deserialize, Serialize};

mod keywords;

/// What was taken out of a text before it was stored.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Redactions {
    /// Kinds of secret found, each once (`aws-access-key-id`, `private`, …).
    pub kinds: Vec<String>,
    /// How many values were replaced or dropped.
    pub count: usize,
    /// A sentence for the agent.
    pub message: String,
}

impl Redactions {
    /// Fold another scan's findings in.
    pub fn merge(&mut self, other: Redactions) {
        for k in other.kinds {
            if !self.kinds.contains(&k) {
                self.kinds.push(k);
            }
        }
        self.count += other.count;
        self.message = message(&self.kinds, self.count);
    }

    /// Scrub `text`, adding what was found here; returns the text to store.
    pub fn clean(&mut self, text: &str) -> String {
        let (out, found) = scrub(text);
        self.merge(found);
        out
    }

    /// Scrub every string value in `value` (object keys stay), but for the values of the
    /// keys in `skip` (a record's own fields: ids, hashes).
    pub fn clean_json(&mut self, value: &mut serde_json::Value, skip: &[&str]) {
        walk_strings(value, skip, &mut |s| *s = self.clean(s));
    }

    /// [`Redactions::clean_json`], and then every value it took out of one string taken
    /// out of every other string of `value` too: a secret the scanner recognised in one
    /// field (a command line that names it) is not left verbatim in another (the agent's
    /// last word, where nothing labels it).
    pub fn clean_json_whole(&mut self, value: &mut serde_json::Value, skip: &[&str]) {
        let mut values = Vec::new();
        walk_strings(value, skip, &mut |s| {
            let (out, found, mut v) = scrub_keeping(s);
            self.merge(found);
            values.append(&mut v);
            *s = out;
        });
        values.retain(|(v, _)| v.chars().count() >= MIN_SHARED_SECRET);
        if values.is_empty() {
            return;
        }
        // Longest first, so a value that holds another is taken out whole.
        values.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(&b.0)));
        values.dedup_by(|a, b| a.0 == b.0);
        let mut more = 0;
        walk_strings(value, skip, &mut |s| {
            for (secret, id) in &values {
                let n = s.matches(secret.as_str()).count();
                if n > 0 {
                    *s = s.replace(secret.as_str(), &format!("[redacted:{id}]"));
                    more += n;
                }
            }
        });
        self.count += more;
        self.message = message(&self.kinds, self.count);
    }

    /// `None` when nothing was found.
    pub fn into_option(self) -> Option<Redactions> {
        (self.count > 0).then_some(self)
    }
}

/// Every string value of `value` (object keys stay), but for the values of the keys in
/// `skip`.
fn walk_strings(value: &mut serde_json::Value, skip: &[&str], f: &mut dyn FnMut(&mut String)) {
    use serde_json::Value;
    match value {
        Value::String(s) => f(s),
        Value::Array(items) => items.iter_mut().for_each(|v| walk_strings(v, skip, f)),
        Value::Object(map) => {
            for (_, v) in map.iter_mut().filter(|(k, _)| !skip.contains(&k.as_str())) {
                walk_strings(v, skip, f);
            }
        }
        _ => {}
    }
}

// `RULES`, `OWN_FROM`, `ALLOW_SETS` and `ALLOW_COMPILED`, made by `build.rs` from `gitleaks.json` (see
// `NOTICE`) and Mooring's own `rules.toml` (gitleaks' TOML shape: what gitleaks does not
// cover in free text, such as bearer tokens, passwords in URLs, `NAME=value` secrets in
// prose). Keywords and stopwords are lower-cased; rules and allowlists for file paths
// are left out.
include!(concat!(env!("OUT_DIR"), "/secret_rules.rs"));

/// Allowlist set `i`, compiled on first use (one hit's allowlist, not all of them:
/// compiling them all was a third of a one-off process's work); `None` if Rust's regex
/// refuses it.
fn allow_set(i: usize) -> Option<&'static RegexSet> {
    ALLOW_COMPILED[i].get_or_init(|| RegexSetBuilder::new(ALLOW_SETS[i]).unicode(false).build().ok()).as_ref()
}

/// What part of a hit an allowlist looks at.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Secret,
    Match,
    Line,
}

/// A hit this matches is not a secret (a placeholder, a variable reference, a stopword).
struct Allow {
    target: Target,
    all: bool,
    /// Its patterns: an index into [`ALLOW_SETS`].
    set: Option<usize>,
    stopwords: &'static [&'static str],
}

impl Allow {
    fn allows(&self, secret: &str, whole: &str, line: &str) -> bool {
        let text = match self.target {
            Target::Secret => secret,
            Target::Match => whole,
            Target::Line => line,
        };
        let by_regex = self.set.and_then(allow_set).map(|r| r.is_match(text.as_bytes()));
        let lower = secret.to_ascii_lowercase();
        let by_word = (!self.stopwords.is_empty()).then(|| self.stopwords.iter().any(|w| lower.contains(w)));
        let checks = [by_regex, by_word];
        let mut present = checks.iter().flatten().peekable();
        if present.peek().is_none() {
            return false;
        }
        if self.all { present.all(|b| *b) } else { present.any(|b| *b) }
    }
}

/// A rule as `build.rs` wrote it.
struct Rule {
    id: &'static str,
    pattern: &'static str,
    /// Compiled at the first text holding one of the rule's keywords: a text meets a few
    /// rules, and compiling all few hundred up front cost 12 MB of resident memory.
    compiled: OnceLock<Option<BytesRegex>>,
    keywords: &'static [&'static str],
    /// The capture group that is the secret; `None`: the first group, else the whole match.
    group: Option<usize>,
    entropy: Option<f64>,
    allow: &'static [Allow],
}

impl Rule {
    /// The rule's pattern, compiled on first use; `None` if Rust's regex refuses it.
    fn regex(&self) -> Option<&BytesRegex> {
        self.compiled
            .get_or_init(|| {
                // Secrets are ASCII: patterns run over bytes with ASCII classes, which is
                // what keeps them cheap to build and to run (Unicode `\w` and `(?i)` are not).
                RegexBuilder::new(self.pattern)
                    .unicode(false)
                    .size_limit(1 << 24)
                    .build()
                    .inspect_err(|e| tracing::debug!(rule = %self.id, error = %e, "secret rule refused"))
                    .ok()
            })
            .as_ref()
    }
}

/// How many rules are in force, and how many patterns Rust's regex could not take
/// (compiling every rule: for tests and diagnostics, not the hot path).
pub fn rule_counts() -> (usize, usize) {
    let refused = RULES.iter().filter(|r| r.regex().is_none()).count();
    (RULES.len() - refused, refused)
}

static PRIVATE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?is)<private>.*?(?:</private>|\z)").expect("valid pattern"));
static IDENTIFIER: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^[A-Za-z_][A-Za-z_]*(?:(?:\.|::|->)[A-Za-z_][A-Za-z0-9_]*)*$").expect("valid pattern")
});
static HASH_OR_UUID: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:[0-9a-f]{7,64}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$",
    )
    .expect("valid pattern")
});

/// The text with every secret replaced by `[redacted:<kind>]` and `<private>` spans
/// removed, and what was done.
pub fn scrub(text: &str) -> (String, Redactions) {
    let (out, found, _) = scrub_keeping(text);
    (out, found)
}

/// [`scrub`], and each value it took out with the rule that found it, so a caller
/// holding several texts of one record can take the same value out of all of them.
/// The values never leave the caller.
fn scrub_keeping(text: &str) -> (String, Redactions, Vec<(String, String)>) {
    let mut found = Redactions::default();
    let mut values = Vec::new();
    let mut out = text.to_owned();
    if memchr_private(&out) {
        let n = PRIVATE.find_iter(&out).count();
        out = PRIVATE.replace_all(&out, "[private: not stored]").into_owned();
        found.kinds.push("private".into());
        found.count += n;
    }
    let rules = &RULES;
    let mut wanted = vec![false; rules.len()];
    keywords::KEYWORDS.mark(&out.to_ascii_lowercase(), &mut wanted);
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    for (rule, _) in rules.iter().zip(&wanted).filter(|(_, w)| **w) {
        let Some(regex) = rule.regex() else { continue };
        for caps in regex.captures_iter(out.as_bytes()) {
            let Some(whole) = caps.get(0) else { continue };
            let group = match rule.group {
                Some(g) => caps.get(g),
                None => caps.iter().skip(1).flatten().next().or(Some(whole)),
            };
            let Some(m) = group else { continue };
            // Byte classes can stop inside a character: widen to whole characters.
            let (start, end) = (floor_char(&out, m.start()), ceil_char(&out, m.end()));
            let (w0, w1) = (floor_char(&out, whole.start()), ceil_char(&out, whole.end()));
            let secret = &out[start..end];
            if secret.is_empty()
                || !plausible(rule.id, secret)
                || rule.entropy.is_some_and(|min| entropy(secret) < min)
                || rule.allow.iter().any(|a| a.allows(secret, &out[w0..w1], line_of(&out, w0)))
            {
                continue;
            }
            spans.push((start, end, rule.id));
        }
    }
    if spans.is_empty() {
        found.message = message(&found.kinds, found.count);
        return (out, found, values);
    }
    // Longest first where two rules overlap; then replace from the end so offsets hold.
    spans.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)));
    let mut kept: Vec<(usize, usize, &str)> = Vec::new();
    for s in spans {
        match kept.last_mut() {
            Some(last) if s.0 < last.1 => last.1 = last.1.max(s.1),
            _ => kept.push(s),
        }
    }
    for (start, end, id) in kept.iter().rev() {
        values.push((out[*start..*end].to_owned(), (*id).to_owned()));
        out.replace_range(*start..*end, &format!("[redacted:{id}]"));
        if !found.kinds.iter().any(|k| k == id) {
            found.kinds.push((*id).to_owned());
        }
    }
    found.count += kept.len();
    found.message = message(&found.kinds, found.count);
    (out, found, values)
}

/// The shortest value taken out everywhere once found somewhere: shorter ones (a short
/// password) would strike ordinary words elsewhere in the record.
const MIN_SHARED_SECRET: usize = 8;

fn floor_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

fn ceil_char(text: &str, mut at: usize) -> usize {
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// The line of `text` around byte `at`.
fn line_of(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    &text[start..end]
}

/// Whether a `<private>` tag (any case) may be in the text.
fn memchr_private(text: &str) -> bool {
    text.as_bytes().windows(9).any(|w| w.eq_ignore_ascii_case(b"<private>"))
}

/// A generic "name = value" hit must look like a secret, not code: no identifier path,
/// no reference to an environment variable, no git hash or UUID.
fn plausible(rule: &str, value: &str) -> bool {
    if rule == "aws-secret-near-key-id" {
        // Base64 of random bytes mixes cases; a commit id (hex) or a word run does not.
        return value.chars().any(|c| c.is_ascii_uppercase())
            && value.chars().any(|c| c.is_ascii_lowercase())
            && value.chars().any(|c| c.is_ascii_digit());
    }
    if rule != "secret-assignment" && rule != "generic-api-key" {
        return true;
    }
    let reference = value.starts_with('$')
        || value.starts_with('%')
        || value.contains("env.")
        || value.contains("environ");
    let has_digit = value.chars().any(|c| c.is_ascii_digit());
    let has_symbol = value.chars().any(|c| !c.is_ascii_alphanumeric() && c != '_' && c != '.' && c != '-');
    !reference && !IDENTIFIER.is_match(value) && !HASH_OR_UUID.is_match(value) && (has_digit || has_symbol)
}

/// Shannon entropy in bits per character.
fn entropy(s: &str) -> f64 {
    // Secrets are ASCII; any other byte is counted as one more symbol.
    let mut counts = [0u32; 256];
    for b in s.bytes() {
        counts[usize::from(b)] += 1;
    }
    let n = s.len() as f64;
    counts.iter().filter(|&&c| c > 0).map(|&c| f64::from(c) / n).map(|p| -p * p.log2()).sum()
}

fn message(kinds: &[String], count: usize) -> String {
    if count == 0 {
        return String::new();
    }
    format!(
        "Mooring removed {count} secret value(s) before storing this ({}): secrets are never kept in \
         project memory, where every later session would read them. Refer to a secret by where it \
         lives (\"the deploy key in 1Password\", \"$STRIPE_KEY\") instead.",
        kinds.join(", ")
    )
}

#[cfg(test)]
mod tests;
