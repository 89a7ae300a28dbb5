//! Context locks: a topic's agreed content, versioned. Locking again adds a version;
//! nothing is overwritten.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::humanize::ago;
use crate::memory::{MAX_CONTENT, check_writable, tags};
use crate::store::backend::{MemoryBackend, MemoryReads, NewLock};
use crate::store::rows::LockRow;

/// A lock version.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Lock {
    /// Project slug.
    pub project: String,
    /// Topic.
    pub topic: String,
    /// Version, from 1.
    pub version: i64,
    /// Content.
    pub content: String,
    /// Tags.
    pub tags: Vec<String>,
    /// The client that wrote it, by name (`claude-code`); session ids are never shown.
    pub written_by: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Created, for people.
    pub created: String,
    /// Secrets taken out before this was stored (only on the write that stored it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub redacted: Option<crate::guard::redact::Redactions>,
}

impl Lock {
    fn from_row(row: LockRow, slug: &str) -> Self {
        Self {
            project: slug.to_owned(),
            topic: row.topic,
            version: row.version,
            content: row.content,
            tags: row.tags.split_whitespace().map(str::to_owned).collect(),
            written_by: row.written_by,
            created: ago(Some(&row.created_at), chrono::Utc::now()),
            created_at: row.created_at,
            redacted: None,
        }
    }
}

/// A topic: lowercase words joined by `-`, `_`, `.` or `/`, at most 100 characters.
pub fn topic(input: &str) -> Result<String> {
    let t = input.trim().to_ascii_lowercase();
    let ok = !t.is_empty()
        && t.len() <= 100
        && t.chars().all(|c| c.is_ascii_alphanumeric() || "-_./".contains(c))
        && t.chars().next().is_some_and(|c| c.is_ascii_alphanumeric());
    if !ok {
        return Err(Error::invalid(
            "topic",
            format!(
                "topic {input:?} must be lowercase letters, digits and - _ . / (at most 100), e.g. \"api-contract\""
            ),
        ));
    }
    Ok(t)
}

/// The rules for one version: a valid topic and content that is there and not too long.
/// Returns the normalized topic.
pub fn check_version(topic_in: &str, content: &str) -> Result<String> {
    let topic = topic(topic_in)?;
    let content = content.trim();
    if !crate::guard::validate::has_visible(content) {
        return Err(Error::invalid("content", "content is empty; give the text to lock"));
    }
    if content.chars().count() > MAX_CONTENT {
        return Err(Error::invalid("content", format!("content is longer than {MAX_CONTENT} characters")));
    }
    if content.contains('\0') {
        return Err(Error::invalid("content", "content contains a NUL character; send plain text"));
    }
    Ok(topic)
}

/// Lock a new version of a topic.
pub fn lock(
    store: &dyn MemoryBackend,
    slug: &str,
    topic_in: &str,
    content: &str,
    tag_in: &[String],
    session: Option<&str>,
) -> Result<Lock> {
    let topic = check_version(topic_in, content)?;
    let content = content.trim();
    let tags = tags("tags", tag_in)?.join(" ");
    let (content, redacted) = crate::guard::redact::scrub(content);
    let new = NewLock { topic: &topic, content: &content, tags: &tags };
    let (slug, row) = store.lock_next(slug, &new, session, check_writable)?;
    let mut stored = Lock::from_row(row, &slug);
    stored.redacted = redacted.into_option();
    Ok(stored)
}

/// A topic's latest version, or the version asked for.
pub fn read(store: &dyn MemoryReads, slug: &str, topic_in: &str, version: Option<i64>) -> Result<Lock> {
    let topic = topic(topic_in)?;
    if version.is_some_and(|v| v < 1) {
        return Err(Error::invalid("version", "version starts at 1"));
    }
    let (slug, row) = store.lock_get(slug, &topic, version)?;
    let row = row.ok_or_else(|| {
        let what =
            version.map(|v| format!("version {v} of topic '{topic}'")).unwrap_or(format!("topic '{topic}'"));
        Error::not_found("topic", format!("no {what} in '{slug}'; recall_context without a topic lists them"))
    })?;
    Ok(Lock::from_row(row, &slug))
}

/// The latest version of every topic.
pub fn topics(store: &dyn MemoryReads, slug: &str) -> Result<Vec<Lock>> {
    let (slug, rows) = store.lock_topics(slug)?;
    Ok(rows.into_iter().map(|r| Lock::from_row(r, &slug)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{NewProject, Registry, Store};

    #[test]
    fn locking_twice_adds_versions_and_keeps_both() {
        let store = Store::open_in_memory().unwrap();
        Registry::new(&store).create(NewProject { name: "Alpha".into(), ..Default::default() }).unwrap();
        let v1 = lock(&store, "alpha", "API-Contract", "v1 text", &[], Some("s")).unwrap();
        let v2 = lock(&store, "alpha", "api-contract", "v2 text", &["api".into()], None).unwrap();
        assert_eq!((v1.version, v2.version), (1, 2));
        assert_eq!(read(&store, "alpha", "api-contract", None).unwrap().content, "v2 text");
        assert_eq!(read(&store, "alpha", "api-contract", Some(1)).unwrap().content, "v1 text");
        assert_eq!(topics(&store, "alpha").unwrap().len(), 1);
        assert_eq!(
            read(&store, "alpha", "api-contract", Some(3)).unwrap_err().field.as_deref(),
            Some("topic")
        );
        for bad in ["", "has space", "-lead", &"x".repeat(101)] {
            assert_eq!(
                lock(&store, "alpha", bad, "c", &[], None).unwrap_err().field.as_deref(),
                Some("topic")
            );
        }
        assert_eq!(
            lock(&store, "alpha", "t", "  ", &[], None).unwrap_err().field.as_deref(),
            Some("content")
        );
    }
}
