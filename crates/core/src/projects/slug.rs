//! Slugs: the short, stable names projects are addressed by.

use crate::error::{Error, Result};

/// Longest slug accepted.
pub const MAX_SLUG_LEN: usize = 64;

/// Words that routing, the CLI and chat commands use; a project may not take them.
pub const RESERVED: &[&str] = &[
    "projects", "project", "new", "list", "help", "active", "archive", "resume", "decide", "blocker",
    "handoff", "all", "none", "default",
    // The phone's command words (`crate::remote::commands`), and their Turkish spellings.
    "resolve", "away", "back", "start", "pair", "projeler", "proje",
];

/// Check a slug given by a person or an agent.
pub fn validate(slug: &str) -> Result<()> {
    if slug.is_empty() {
        return Err(Error::invalid(
            "slug",
            "slug is empty; use lowercase letters, digits and hyphens, e.g. 'leader-election'",
        ));
    }
    if slug.len() > MAX_SLUG_LEN {
        return Err(Error::invalid(
            "slug",
            format!("slug is {} characters long; use at most {MAX_SLUG_LEN}", slug.chars().count()),
        ));
    }
    let mut chars = slug.chars();
    let first_ok = chars.next().is_some_and(|c| c.is_ascii_lowercase() || c.is_ascii_digit());
    let rest_ok = chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-');
    if !first_ok || !rest_ok {
        return Err(Error::invalid(
            "slug",
            format!(
                "slug '{slug}' must start with a lowercase letter or digit and contain only \
                 lowercase letters, digits and hyphens, e.g. '{}'",
                suggestion(slug)
            ),
        ));
    }
    if RESERVED.contains(&slug) {
        return Err(Error::invalid(
            "slug",
            format!("slug '{slug}' is a reserved word; choose another, e.g. '{slug}-project'"),
        ));
    }
    Ok(())
}

/// Derive a slug from a display name ("Leader Election Refactor" → `leader-election-refactor`).
pub fn from_name(name: &str) -> Result<String> {
    let slug = suggestion(name);
    if slug.is_empty() {
        return Err(Error::invalid(
            "name",
            format!(
                "cannot derive a slug from the name '{name}'; give one with --slug (letters, \
                 digits and hyphens)"
            ),
        ));
    }
    validate(&slug)?;
    Ok(slug)
}

/// `base-2`, `base-3`, …: the first candidate for which `taken` is false.
pub fn next_free(base: &str, taken: impl Fn(&str) -> bool) -> String {
    (2u32..)
        .map(|n| {
            let suffix = format!("-{n}");
            let room = MAX_SLUG_LEN - suffix.len();
            let stem = truncate(base, room);
            format!("{stem}{suffix}")
        })
        .find(|candidate| !taken(candidate))
        .unwrap_or_else(|| base.to_owned())
}

/// Best-effort slug for any text: lowercase ASCII words joined by single hyphens.
pub(crate) fn suggestion(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let c = fold_accent(c);
        if c.is_ascii_alphanumeric() {
            out.push(c.to_ascii_lowercase());
        } else if !out.is_empty() && !out.ends_with('-') {
            out.push('-');
        }
    }
    truncate(out.trim_end_matches('-'), MAX_SLUG_LEN).to_owned()
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    s[..max].trim_end_matches('-')
}

/// Common Latin accents to their base letter, so "Café Ünïcode" slugs as `cafe-unicode`.
fn fold_accent(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'À' | 'Á' | 'Â' | 'Ã' | 'Ä' | 'Å' => 'a',
        'è' | 'é' | 'ê' | 'ë' | 'È' | 'É' | 'Ê' | 'Ë' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'Ì' | 'Í' | 'Î' | 'Ï' => 'i',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'Ò' | 'Ó' | 'Ô' | 'Õ' | 'Ö' | 'Ø' => 'o',
        'ù' | 'ú' | 'û' | 'ü' | 'Ù' | 'Ú' | 'Û' | 'Ü' => 'u',
        'ç' | 'Ç' => 'c',
        'ñ' | 'Ñ' => 'n',
        'ý' | 'ÿ' | 'Ý' => 'y',
        'ß' => 's',
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn generates_from_names() {
        assert_eq!(from_name("Leader Election Refactor").unwrap(), "leader-election-refactor");
        assert_eq!(from_name("  API v2 -- (beta) ").unwrap(), "api-v2-beta");
        assert_eq!(from_name("Café Ünïcode").unwrap(), "cafe-unicode");
        assert_eq!(from_name("2026 Roadmap").unwrap(), "2026-roadmap");
    }

    #[test]
    fn generated_slug_is_capped_without_trailing_hyphen() {
        let long = "word ".repeat(40);
        let slug = from_name(&long).unwrap();
        assert!(slug.len() <= MAX_SLUG_LEN);
        assert!(!slug.ends_with('-'));
    }

    #[test]
    fn names_without_letters_are_refused_on_the_name_field() {
        let err = from_name("!!! ???").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("name"));
        assert!(err.message.contains("--slug"));
    }

    #[test]
    fn generated_reserved_word_is_refused() {
        let err = from_name("Projects").unwrap_err();
        assert_eq!(err.field.as_deref(), Some("slug"));
        assert!(err.message.contains("reserved"));
    }

    #[test]
    fn validation_refuses_each_broken_rule() {
        for bad in ["", "-leading", "Upper", "under_score", "sp ace", "dot.ted", "ünï", &"a".repeat(65)] {
            let err = validate(bad).unwrap_err();
            assert_eq!(err.field.as_deref(), Some("slug"), "{bad}");
        }
        for word in RESERVED {
            assert!(validate(word).unwrap_err().message.contains("reserved"));
        }
    }

    #[test]
    fn validation_accepts_good_slugs() {
        for good in ["a", "0day", "leader-election", "x-", &"a".repeat(64)] {
            validate(good).unwrap();
        }
    }

    #[test]
    fn next_free_counts_up_and_fits() {
        let taken = ["le-2", "le-3"];
        assert_eq!(next_free("le", |s| taken.contains(&s)), "le-4");
        let long = "a".repeat(64);
        let next = next_free(&long, |_| false);
        assert_eq!(next.len(), 64);
        assert!(next.ends_with("-2"));
    }
}
