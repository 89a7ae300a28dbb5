//! Logging for the binaries: `MOORING_LOG` filters, and every line passes through
//! [`mooring_core::guard::secret::redact`] on its way to stderr, so no level (trace included,
//! and whatever a library logs) prints a token or a session id.

use std::io::Write;
use std::sync::{OnceLock, RwLock};

use tracing_subscriber::EnvFilter;
use tracing_subscriber::fmt::MakeWriter;

/// Exact values to scrub besides the prefixed ones (a token from before prefixes).
static EXTRA: OnceLock<RwLock<Vec<String>>> = OnceLock::new();

/// Log to stderr at `default` level unless `MOORING_LOG` says otherwise.
pub fn init(default: &str) {
    let filter = EnvFilter::try_from_env("MOORING_LOG").unwrap_or_else(|_| EnvFilter::new(default));
    let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(Redacting).try_init();
}

/// Scrub this exact value from every later line too.
pub fn also_redact(secret: &str) {
    if secret.len() < 8 {
        return;
    }
    let lock = EXTRA.get_or_init(|| RwLock::new(Vec::new()));
    let mut list = lock.write().unwrap_or_else(|p| p.into_inner());
    if !list.iter().any(|s| s == secret) {
        list.push(secret.to_owned());
    }
}

/// The line as it may be written.
pub fn scrub(line: &str) -> String {
    // Mooring's own tokens and ids, then any secret the scanner knows (a password in a
    // command an error quotes, a key in a request a library logs).
    let mut out = mooring_core::guard::redact::scrub(&mooring_core::guard::secret::redact(line)).0;
    if let Some(lock) = EXTRA.get() {
        for secret in lock.read().unwrap_or_else(|p| p.into_inner()).iter() {
            if out.contains(secret.as_str()) {
                out = out.replace(secret.as_str(), "…");
            }
        }
    }
    out
}

/// Hands the formatter a buffer per event and writes it scrubbed.
struct Redacting;

impl<'a> MakeWriter<'a> for Redacting {
    type Writer = LineBuffer;
    fn make_writer(&'a self) -> LineBuffer {
        LineBuffer(Vec::with_capacity(256))
    }
}

/// One event's text; written to stderr, scrubbed, when the formatter is done with it.
struct LineBuffer(Vec<u8>);

impl Write for LineBuffer {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Drop for LineBuffer {
    fn drop(&mut self) {
        if self.0.is_empty() {
            return;
        }
        let line = scrub(&String::from_utf8_lossy(&self.0));
        let _ = std::io::stderr().lock().write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn registered_values_are_scrubbed_with_the_prefixed_ones() {
        also_redact("0123456789abcdef0123456789abcdef");
        let s = mooring_core::guard::secret::random_id(mooring_core::guard::secret::MCP_SESSION);
        let out = scrub(&format!("token 0123456789abcdef0123456789abcdef session {s}"));
        assert!(!out.contains("0123456789abcdef0123456789abcdef") && !out.contains(&s[4..]), "{out}");
    }

    #[test]
    fn secrets_the_scanner_knows_never_reach_the_log() {
        let key = format!("sk-or-v1-{}", "0f1e2d3c4b5a".repeat(5) + "abcd");
        let out = scrub(&format!("WARN hook failed: command `mysql -u root -pHunter2Secret db` key={key}"));
        assert!(!out.contains(&key) && !out.contains("Hunter2Secret"), "{out}");
        assert!(out.contains("hook failed"), "the rest of the line stays: {out}");
    }
}
