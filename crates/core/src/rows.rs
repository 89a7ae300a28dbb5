//! The rows of a project's shared records as every store returns them: memory entries
//! and context-lock versions. They belong to the storage seam (`backend`), which both the
//! SQLite store and the team's PostgreSQL store implement, so neither store owns them.

/// A memory row as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
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
    /// Created (RFC 3339).
    pub created_at: String,
    /// Last changed (RFC 3339).
    pub updated_at: String,
    /// When it was forgotten, if it was.
    pub forgotten_at: Option<String>,
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
