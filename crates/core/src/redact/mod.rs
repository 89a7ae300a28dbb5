//! Secrets are never stored verbatim: memory, handovers, context locks and the person's
//! notes on questions pass through [`scrub`] before they are written. Each secret found is
//! replaced by `[redacted:<kind>]`, and `<private>…</private>` spans are dropped whole;
//! the caller tells the agent what was taken out and why.
//!
//! The rules live in `rules.toml` (gitleaks' rule shape). Each is tried only when one of
//! its keywords occurs in the text, so ordinary text costs a few substring searches.

use std::sync::LazyLock;

use regex::Regex;
use serde::{Deserialize, Serialize};

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

    /// `None` when nothing was found.
    pub fn into_option(self) -> Option<Redactions> {
        (self.count > 0).then_some(self)
    }
}

#[derive(Debug, Deserialize)]
struct RuleFile {
    rules: Vec<RuleDef>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct RuleDef {
    id: String,
    #[allow(dead_code)]
    description: String,
    regex: String,
    keywords: Vec<String>,
    #[serde(default)]
    secret_group: usize,
    entropy: Option<f64>,
}

struct Rule {
    id: String,
    regex: Regex,
    keywords: Vec<String>,
    group: usize,
    entropy: Option<f64>,
}

static RULES: LazyLock<Vec<Rule>> = LazyLock::new(|| {
    let file: RuleFile = toml::from_str(include_str!("rules.toml")).expect("rules.toml is valid");
    file.rules
        .into_iter()
        .map(|r| Rule {
            regex: Regex::new(&r.regex).unwrap_or_else(|e| panic!("rule {}: {e}", r.id)),
            id: r.id,
            keywords: r.keywords,
            group: r.secret_group,
            entropy: r.entropy,
        })
        .collect()
});

/// Every rule's keywords in one automaton: one pass over the text says which rules to try.
static KEYWORDS: LazyLock<(aho_corasick::AhoCorasick, Vec<usize>)> = LazyLock::new(|| {
    let mut words = Vec::new();
    let mut owner = Vec::new();
    for (i, rule) in RULES.iter().enumerate() {
        for k in &rule.keywords {
            words.push(k.clone());
            owner.push(i);
        }
    }
    let ac = aho_corasick::AhoCorasick::builder()
        .ascii_case_insensitive(true)
        .build(&words)
        .expect("keywords build an automaton");
    (ac, owner)
});

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
    let mut found = Redactions::default();
    let mut out = text.to_owned();
    if memchr_private(&out) {
        let n = PRIVATE.find_iter(&out).count();
        out = PRIVATE.replace_all(&out, "[private: not stored]").into_owned();
        found.kinds.push("private".into());
        found.count += n;
    }
    let (keywords, owner) = &*KEYWORDS;
    let mut wanted = vec![false; RULES.len()];
    for m in keywords.find_overlapping_iter(&out) {
        wanted[owner[m.pattern().as_usize()]] = true;
    }
    let mut spans: Vec<(usize, usize, &str)> = Vec::new();
    for (rule, _) in RULES.iter().zip(&wanted).filter(|(_, w)| **w) {
        for caps in rule.regex.captures_iter(&out) {
            let Some(m) = caps.get(rule.group) else { continue };
            if !plausible(&rule.id, m.as_str()) || rule.entropy.is_some_and(|min| entropy(m.as_str()) < min) {
                continue;
            }
            spans.push((m.start(), m.end(), rule.id.as_str()));
        }
    }
    if spans.is_empty() {
        found.message = message(&found.kinds, found.count);
        return (out, found);
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
        out.replace_range(*start..*end, &format!("[redacted:{id}]"));
        if !found.kinds.iter().any(|k| k == id) {
            found.kinds.push((*id).to_owned());
        }
    }
    found.count += kept.len();
    found.message = message(&found.kinds, found.count);
    (out, found)
}

/// Whether a `<private>` tag (any case) may be in the text.
fn memchr_private(text: &str) -> bool {
    text.as_bytes().windows(9).any(|w| w.eq_ignore_ascii_case(b"<private>"))
}

/// A generic "name = value" hit must look like a secret, not code: no identifier path,
/// no reference to an environment variable, no git hash or UUID.
fn plausible(rule: &str, value: &str) -> bool {
    if rule != "secret-assignment" {
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
#[path = "tests.rs"]
mod tests;
