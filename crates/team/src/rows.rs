//! Rows of the team database as the domain's types.

use mooring_core::humanize::ago;
use mooring_core::store::rows::{Links, MemoryRow};
use mooring_core::{Project, ProjectStats, ProjectStatus};
use tokio_postgres::Row;

/// A timestamp as the domain writes them (RFC 3339, milliseconds, UTC).
macro_rules! ts {
    ($col:literal) => {
        concat!("to_char(", $col, " AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')")
    };
}
pub(crate) use ts;

/// Columns of a project, in [`project`]'s order.
pub(crate) const PROJECT_COLUMNS: &str = concat!(
    "p.id, p.slug, p.name, p.description, p.status, p.repo_url, ",
    ts!("p.created_at"),
    ", ",
    ts!("p.updated_at"),
    ", ",
    ts!("p.last_used_at"),
    ", ",
    ts!("p.archived_at")
);

/// A project row (its code paths are each machine's own, so none here).
pub(crate) fn project(r: &Row) -> Project {
    let last_used_at: Option<String> = r.get(8);
    Project {
        id: r.get(0),
        slug: r.get(1),
        name: r.get(2),
        description: r.get(3),
        status: r.get::<_, &str>(4).parse().unwrap_or(ProjectStatus::Archived),
        repo_url: r.get(5),
        notes_path: None,
        code_paths: Vec::new(),
        stats: ProjectStats::default(),
        created_at: r.get(6),
        updated_at: r.get(7),
        last_used: ago(last_used_at.as_deref(), chrono::Utc::now()),
        last_used_at,
        archived_at: r.get(9),
    }
}

/// Columns of a memory entry, in [`memory`]'s order.
pub(crate) const MEMORY_COLUMNS: &str = concat!(
    "m.id, m.project_id, m.kind, m.title, m.content, m.tags, m.status, m.data::text, m.written_by, ",
    ts!("m.created_at"),
    ", ",
    ts!("m.updated_at"),
    ", ",
    ts!("m.forgotten_at"),
    ", m.author, m.superseded_by, ",
    ts!("m.superseded_at"),
    ", m.folded_into, ",
    ts!("m.folded_at"),
    ", m.key"
);

/// How many columns [`MEMORY_COLUMNS`] names: a query's own columns follow from here.
pub(crate) const MEMORY_COLUMN_COUNT: usize = 18;

/// A memory row.
pub(crate) fn memory(r: &Row) -> MemoryRow {
    MemoryRow {
        id: r.get(0),
        project_id: r.get(1),
        kind: r.get(2),
        title: r.get(3),
        content: r.get(4),
        tags: r.get(5),
        status: r.get(6),
        data: r.get(7),
        written_by: r.get(8),
        created_at: r.get(9),
        updated_at: r.get(10),
        forgotten_at: r.get(11),
        author: r.get(12),
        links: Links {
            superseded_by: r.get(13),
            superseded_at: r.get(14),
            folded_into: r.get(15),
            folded_at: r.get(16),
        },
        key: r.get(17),
    }
}
