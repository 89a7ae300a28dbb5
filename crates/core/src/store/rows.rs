//! The rows of a project's shared records as every store returns them: memory entries
//! and context-lock versions, and the one shape of a new entry every store writes. They
//! belong to the storage seam (`backend`), which both the SQLite store and the team's
//! PostgreSQL store implement, so neither store owns them.

use std::borrow::Cow;

/// A validated memory entry, ready to store (secrets already taken out): the one shape
/// every store writes. Made from borrowed text; [`NewMemoryRow::into_owned`] for a store
/// that hands it to another runtime.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMemoryRow<'a> {
    /// Kind's storage name.
    pub kind: Cow<'a, str>,
    /// Title.
    pub title: Cow<'a, str>,
    /// Content, secrets already taken out.
    pub content: Cow<'a, str>,
    /// Tags, space separated.
    pub tags: Cow<'a, str>,
    /// `open` for a new blocker.
    pub status: Option<Cow<'a, str>>,
    /// The structured form (JSON) of a kind that has one (a handover's fields).
    pub data: Option<Cow<'a, str>>,
    /// Who writes it; `None` only where nobody can tell.
    pub author: Option<crate::model::Author>,
    /// The writing client's name when no session names it (a session-less MCP client).
    pub written_by: Option<Cow<'a, str>>,
    /// What the entry is found by, for a kind kept one per key (a captured session's
    /// key, a week's digest's).
    pub key: Option<Cow<'a, str>>,
}

impl NewMemoryRow<'_> {
    /// The same entry, owning its text.
    pub fn into_owned(self) -> NewMemoryRow<'static> {
        NewMemoryRow {
            kind: Cow::Owned(self.kind.into_owned()),
            title: Cow::Owned(self.title.into_owned()),
            content: Cow::Owned(self.content.into_owned()),
            tags: Cow::Owned(self.tags.into_owned()),
            status: self.status.map(|s| Cow::Owned(s.into_owned())),
            data: self.data.map(|d| Cow::Owned(d.into_owned())),
            author: self.author,
            written_by: self.written_by.map(|w| Cow::Owned(w.into_owned())),
            key: self.key.map(|k| Cow::Owned(k.into_owned())),
        }
    }
}

/// A memory row as stored.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct MemoryRow {
    /// Row id.
    pub id: i64,
    /// Owning project's id.
    pub project_id: i64,
    /// Kind (`handover`, `decision`, …).
    pub kind: String,
    /// Title.
    pub title: String,
    /// Text for people and search.
    pub content: String,
    /// Tags, space separated.
    pub tags: String,
    /// `open`/`resolved` for blockers.
    pub status: Option<String>,
    /// Structured form, as JSON, when the kind has one.
    pub data: Option<String>,
    /// The name of the client that wrote it (never its session id, which is a secret).
    pub written_by: Option<String>,
    /// Who wrote it ([`crate::model::Author`]'s stored name), when recorded.
    pub author: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
    /// When it was forgotten, if it was.
    pub forgotten_at: Option<String>,
    /// How it stands to other entries.
    #[serde(default)]
    pub links: Links,
    /// What it is found by (see [`NewMemoryRow::key`]).
    #[serde(default)]
    pub key: Option<String>,
}

/// How an entry stands to other entries: columns of their own in both stores, so no
/// decision reads them out of an entry's `data`.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Links {
    /// The newer entry that supersedes it.
    pub superseded_by: Option<i64>,
    /// When it was superseded (RFC 3339).
    pub superseded_at: Option<String>,
    /// The weekly digest a captured session was folded into; kept when the session is
    /// brought back, so it is not folded again.
    pub folded_into: Option<i64>,
    /// When it was folded (RFC 3339).
    pub folded_at: Option<String>,
}

/// A stored lock version.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LockRow {
    /// Topic.
    pub topic: String,
    /// Version, from 1.
    pub version: i64,
    /// Content.
    pub content: String,
    /// Tags, space separated.
    pub tags: String,
    /// The name of the client that locked it (never its session id, which is a secret).
    pub written_by: Option<String>,
    /// Created (RFC 3339).
    pub created_at: String,
}
