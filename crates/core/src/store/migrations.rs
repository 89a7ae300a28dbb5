//! Schema versions, embedded in the binary and applied at open.

use rusqlite_migration::{M, Migrations};

/// The SQL of each schema version, oldest first. Append; never edit a released one.
pub const SCHEMA: &[&str] = &[
    include_str!("../../migrations/0001_registry.sql"),
    include_str!("../../migrations/0002_sessions_memory_choices.sql"),
    include_str!("../../migrations/0003_path_watch.sql"),
    include_str!("../../migrations/0004_team_projects.sql"),
    include_str!("../../migrations/0005_kept_authors.sql"),
    include_str!("../../migrations/0006_lock_topic_gone.sql"),
    include_str!("../../migrations/0007_captured_sessions.sql"),
    include_str!("../../migrations/0008_memory_vectors.sql"),
    include_str!("../../migrations/0009_vectors_in_stored_order.sql"),
    include_str!("../../migrations/0010_rerank_vectors.sql"),
    include_str!("../../migrations/0011_phone_messages.sql"),
    include_str!("../../migrations/0012_phone_message_routes.sql"),
    include_str!("../../migrations/0013_injections.sql"),
    include_str!("../../migrations/0014_memory_author.sql"),
    include_str!("../../migrations/0015_keyword_index_merges_by_level.sql"),
    include_str!("../../migrations/0016_phone_posts.sql"),
];

/// The migration set `rusqlite_migration` applies (tracked in `PRAGMA user_version`).
pub fn migrations() -> Migrations<'static> {
    Migrations::new(SCHEMA.iter().map(|sql| M::up(sql)).collect())
}

/// The version a fully migrated database reports.
pub fn latest_version() -> usize {
    SCHEMA.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn migrations_are_valid() {
        migrations().validate().unwrap();
    }

    #[test]
    fn the_session_kind_rebuild_keeps_every_entry_searchable_and_counted() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        Migrations::new(SCHEMA[..6].iter().map(|sql| M::up(sql)).collect()).to_latest(&mut conn).unwrap();
        conn.execute_batch(
            "INSERT INTO projects (id, slug, name, description, status, created_at, updated_at)
                 VALUES (1, 'p', 'P', '', 'active', 't', 't');
             INSERT INTO memory (project_id, kind, title, content, created_at, updated_at, written_by)
                 VALUES (1, 'decision', 'Raft', 'elections use raft', 't', 't', 'Ada'),
                        (1, 'blocker', 'Flaky', 'the clock test flakes', 't', 't', NULL);
             UPDATE memory SET status = 'open' WHERE kind = 'blocker';",
        )
        .unwrap();
        let counts = |c: &rusqlite::Connection| -> (i64, i64, i64) {
            c.query_row(
                "SELECT decisions, open_blockers, memory_total FROM project_stats WHERE project_id = 1",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap()
        };
        let before = counts(&conn);
        migrations().to_latest(&mut conn).unwrap();
        assert_eq!(counts(&conn), before);
        let hit: String = conn
            .query_row("SELECT title FROM memory_fts WHERE memory_fts MATCH 'raft'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(hit, "Raft");
        let author: Option<String> = conn
            .query_row("SELECT written_by FROM memory WHERE kind = 'decision'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(author.as_deref(), Some("Ada"));
        conn.execute(
            "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
             VALUES (1, 'session', 'Add retries', 'asked: add retries', 't', 't')",
            [],
        )
        .unwrap();
        assert_eq!(counts(&conn).2, before.2 + 1);
        let found: i64 = conn
            .query_row("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH 'retries'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(found, 1, "the new kind is searchable");
    }
}
