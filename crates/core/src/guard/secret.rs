//! Unguessable identifiers (session ids, question and pick tokens, the API token) and
//! the redaction that keeps them out of logs.
//!
//! Every secret Mooring makes carries a short prefix and 256 random bits, so a log line
//! can be scrubbed by pattern without knowing the values.

use std::borrow::Cow;
use std::sync::LazyLock;

use regex::Regex;

/// Prefix of the local API token.
pub const API_TOKEN: &str = "mat";
/// Prefix of a question's token.
pub const QUESTION_TOKEN: &str = "mqt";
/// Prefix of a pick window's token.
pub const PICK_TOKEN: &str = "mpt";
/// Prefix of an MCP (Streamable HTTP) session id.
pub const MCP_SESSION: &str = "mcs";
/// Prefix of a `mooring stdio` process's session id.
pub const SHIM_SESSION: &str = "msh";

/// `PREFIX_` and 64 hex digits of fresh randomness from the operating system.
pub fn random_id(prefix: &str) -> String {
    let bytes = random_bytes::<32>();
    let mut out = String::with_capacity(prefix.len() + 65);
    out.push_str(prefix);
    out.push('_');
    for b in bytes {
        out.push_str(&format!("{b:02x}"));
    }
    out
}

/// `N` random bytes from the operating system.
pub fn random_bytes<const N: usize>() -> [u8; N] {
    let mut bytes = [0u8; N];
    // The OS generator failing means no secret can be made safely; nothing sensible
    // can continue without one.
    getrandom::fill(&mut bytes).expect("the operating system's random number generator failed");
    bytes
}

/// Whether `id` has the shape of an identity Mooring made: one of our prefixes and at
/// least 128 bits of hex. A client cannot pick a weak or shared identity for itself.
pub fn is_strong_id(id: &str) -> bool {
    let Some((prefix, rest)) = id.split_once('_') else { return false };
    [MCP_SESSION, SHIM_SESSION].contains(&prefix)
        && (32..=128).contains(&rest.len())
        && rest.chars().all(|c| c.is_ascii_hexdigit())
}

/// Byte strings equal, in time independent of where they differ (for secrets).
pub fn same(a: impl AsRef<[u8]>, b: impl AsRef<[u8]>) -> bool {
    let (a, b) = (a.as_ref(), b.as_ref());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

static PREFIXED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"\b(mat|mqt|mpt|mcs|msh)_[0-9a-fA-F]{16,}").expect("valid redaction pattern")
});
static QUERY_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"([?&](?:t|token)=)[^&\s"'<>\\]+"#).expect("valid redaction pattern"));
static FLAG_TOKEN: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(--token[ =]|Bearer )[^\s"'\\]+"#).expect("valid redaction pattern"));

/// The line with every secret Mooring makes replaced by `PREFIX_…` (or `…` where only
/// its position tells it is one: `?t=`, `--token`, `Bearer`).
pub fn redact(line: &str) -> Cow<'_, str> {
    let mut out = Cow::Borrowed(line);
    if let Cow::Owned(s) = PREFIXED.replace_all(&out, "${1}_…") {
        out = Cow::Owned(s);
    }
    if let Cow::Owned(s) = QUERY_TOKEN.replace_all(&out, "${1}…") {
        out = Cow::Owned(s);
    }
    if let Cow::Owned(s) = FLAG_TOKEN.replace_all(&out, "${1}…") {
        out = Cow::Owned(s);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_prefixed_256_bit_and_distinct() {
        let a = random_id(MCP_SESSION);
        let b = random_id(MCP_SESSION);
        assert_ne!(a, b);
        assert_eq!(a.len(), 3 + 1 + 64);
        assert!(a.starts_with("mcs_") && a[4..].chars().all(|c| c.is_ascii_hexdigit()));
        assert!(is_strong_id(&a) && is_strong_id(&random_id(SHIM_SESSION)));
        for weak in ["shim-1", "msh_abc", "stdio-1234", "mqt_0123456789abcdef0123456789abcdef", "msh_zz"] {
            assert!(!is_strong_id(weak), "{weak}");
        }
    }

    #[test]
    fn every_kind_of_secret_is_scrubbed() {
        let q = random_id(QUESTION_TOKEN);
        let s = random_id(SHIM_SESSION);
        let line = format!(
            "url=http://127.0.0.1:7423/choice/c-1?t={q} session={s} cmd=\"mooring choice answer c-1 --token abc123\" \
             auth=Bearer 0123456789abcdef pick=/pick/p-1?t=legacyvalue&x=1"
        );
        let out = redact(&line);
        for secret in [q.as_str(), &q[4..], s.as_str(), &s[4..], "abc123", "0123456789abcdef", "legacyvalue"]
        {
            assert!(!out.contains(secret), "{secret} survived in {out}");
        }
        assert!(out.contains("session=msh_…"), "{out}");
        assert!(out.contains("&x=1"), "the rest of the line stays: {out}");
        assert_eq!(redact("nothing secret here"), "nothing secret here");
    }
}
