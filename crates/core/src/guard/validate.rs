//! Field rules for project data that are not slugs or paths.

use crate::error::{Error, Result};

/// Longest display name.
pub const MAX_NAME: usize = 120;
/// Longest description.
pub const MAX_DESCRIPTION: usize = 4000;
/// Longest repository URL.
pub const MAX_URL: usize = 2048;

/// Characters that show nothing or reorder what is shown: zero-width ones and the
/// bidirectional controls (an override can make `txt.exe` read as `exe.txt`).
pub fn is_invisible(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2060}'..='\u{2069}' | '\u{FEFF}' | '\u{00AD}')
}

/// Whether `text` has something a person can see.
pub fn has_visible(text: &str) -> bool {
    text.chars().any(|c| !c.is_whitespace() && !is_invisible(c))
}

/// A display name: trimmed, non-empty, one line, at most [`MAX_NAME`] characters.
pub fn name(input: &str) -> Result<String> {
    let name = input.trim();
    if name.is_empty() {
        return Err(Error::invalid(
            "name",
            "name is empty; give the project a name, e.g. \"Leader Election\"",
        ));
    }
    if name.chars().count() > MAX_NAME {
        return Err(Error::invalid(
            "name",
            format!("name is {} characters long; use at most {MAX_NAME}", name.chars().count()),
        ));
    }
    if name.chars().any(char::is_control) {
        return Err(Error::invalid(
            "name",
            "name contains a line break or control character; use one line of text",
        ));
    }
    if name.chars().any(|c| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')) {
        return Err(Error::invalid(
            "name",
            "name contains a bidirectional override, which changes how text reads; use plain text",
        ));
    }
    if !has_visible(name) {
        return Err(Error::invalid(
            "name",
            "name has no visible characters (only zero-width or control ones); give a real name",
        ));
    }
    Ok(name.to_owned())
}

/// A description: at most [`MAX_DESCRIPTION`] characters, no control characters but
/// line breaks and tabs.
pub fn description(input: &str) -> Result<String> {
    let text = input.trim();
    if text.chars().count() > MAX_DESCRIPTION {
        return Err(Error::invalid(
            "description",
            format!("description is {} characters long; use at most {MAX_DESCRIPTION}", text.chars().count()),
        ));
    }
    if text.chars().any(|c| c.is_control() && c != '\n' && c != '\t') {
        return Err(Error::invalid("description", "description contains control characters; use plain text"));
    }
    // It sits in every preamble and, in a team, with every member: no secret stays.
    Ok(crate::guard::redact::scrub(text).0)
}

/// A repository URL: `http(s)://`, `ssh://`, `git://`, `file://` or scp-style `user@host:path`.
/// Empty clears it.
pub fn repo_url(input: &str) -> Result<Option<String>> {
    let text = input.trim();
    if text.is_empty() {
        return Ok(None);
    }
    let bad = |why: &str| {
        Error::invalid(
            "repo_url",
            format!(
                "repo_url '{text}' {why}; use e.g. https://github.com/me/app or git@github.com:me/app.git"
            ),
        )
    };
    if text.len() > MAX_URL {
        return Err(bad("is too long"));
    }
    if text.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(bad("contains spaces"));
    }
    if let Ok(url) = url::Url::parse(text) {
        let known = matches!(url.scheme(), "http" | "https" | "ssh" | "git" | "git+ssh" | "file");
        if !known {
            return Err(bad(&format!("has the scheme '{}', which is not a repository scheme", url.scheme())));
        }
        if url.scheme() != "file" && url.host_str().is_none_or(str::is_empty) {
            return Err(bad("has no host"));
        }
        return Ok(Some(text.to_owned()));
    }
    if is_scp_like(text) {
        return Ok(Some(text.to_owned()));
    }
    Err(bad("is not a URL"))
}

/// `git@github.com:me/app.git`: user@host:path with no scheme.
fn is_scp_like(text: &str) -> bool {
    let Some((user_host, path)) = text.split_once(':') else {
        return false;
    };
    let Some((user, host)) = user_host.split_once('@') else {
        return false;
    };
    let word = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || "._-".contains(c));
    word(user) && word(host) && !path.is_empty() && !path.starts_with('/')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(name("  Leader Election ").unwrap(), "Leader Election");
        for bad in ["", "   ", "two\nlines", &"x".repeat(121)] {
            assert_eq!(name(bad).unwrap_err().field.as_deref(), Some("name"));
        }
    }

    #[test]
    fn descriptions() {
        assert_eq!(description("a\nb").unwrap(), "a\nb");
        let kept = description("Staging uses ghp_Z7k2Qm9xZ7k2Qm9xZ7k2Qm9xZ7k2Qm9xAb1c for CI").unwrap();
        assert!(!kept.contains("ghp_Z7k2") && kept.contains("[redacted:"), "{kept}");
        for bad in ["bell\u{7}", &"x".repeat(4001)] {
            assert_eq!(description(bad).unwrap_err().field.as_deref(), Some("description"));
        }
    }

    #[test]
    fn repo_urls() {
        for good in [
            "https://github.com/me/app",
            "ssh://git@host/me/app.git",
            "git@github.com:me/app.git",
            "file:///srv/git/app",
        ] {
            assert_eq!(repo_url(good).unwrap().as_deref(), Some(good));
        }
        assert_eq!(repo_url("  ").unwrap(), None);
        for bad in ["not a url", "ftp://host/x", "https://", "javascript:alert(1)", "git@host:/abs", "app"] {
            let err = repo_url(bad).unwrap_err();
            assert_eq!(err.field.as_deref(), Some("repo_url"), "{bad}");
        }
    }
}
