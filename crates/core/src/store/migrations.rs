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
    include_str!("../../migrations/0017_memory_links.sql"),
    include_str!("../../migrations/0018_live_sessions_and_claims.sql"),
    include_str!("../../migrations/0019_session_notes.sql"),
    include_str!("../../migrations/0020_keyword_index_smaller_pages.sql"),
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

    #[test]
    fn links_kept_in_data_move_to_their_columns_and_leave_data() {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        conn.pragma_update(None, "foreign_keys", "ON").unwrap();
        Migrations::new(SCHEMA[..16].iter().map(|sql| M::up(sql)).collect()).to_latest(&mut conn).unwrap();
        conn.execute_batch(
            r#"INSERT INTO projects (id, slug, name, description, status, created_at, updated_at)
                 VALUES (1, 'p', 'P', '', 'active', 't', 't');
             INSERT INTO memory (id, project_id, kind, title, content, data, created_at, updated_at) VALUES
               (1, 1, 'decision', 'Old', 'invoices on the first', '{"superseded_by":2,"superseded_at":"t1"}', 't', 't'),
               (2, 1, 'decision', 'New', 'invoices on the fifteenth', NULL, 't', 't'),
               (3, 1, 'session', 'Folded', 'asked: retries', '{"key":"claude-code:a","client":"claude-code","superseded_by":5,"superseded_at":"t2","folded_at":"t2"}', 't', 't'),
               (4, 1, 'session', 'Brought back', 'asked: docs', '{"key":"claude-code:b","client":"claude-code","folded_at":"t2"}', 't', 't'),
               (5, 1, 'context_carry', 'Week', 'two sessions', '{"key":"digest:2026-W07","week_of":"2026-02-09","sessions":[3,4],"requests":2}', 't', 't'),
               (6, 1, 'blocker', 'Certs', 'certs late', '{"resolution":"arrived"}', 't', 't'),
               (7, 1, 'note', 'Broken', 'not json data', 'not json', 't', 't');"#,
        )
        .unwrap();
        migrations().to_latest(&mut conn).unwrap();
        type Linked =
            (Option<i64>, Option<String>, Option<i64>, Option<String>, Option<String>, Option<String>);
        let row = |id: i64| -> Linked {
            conn.query_row(
                "SELECT superseded_by, superseded_at, folded_into, folded_at, key, data FROM memory WHERE id = ?1",
                [id],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?)),
            )
            .unwrap()
        };
        assert_eq!(row(1), (Some(2), Some("t1".into()), None, None, None, Some("{}".into())));
        assert_eq!(row(2), (None, None, None, None, None, None));
        let folded = row(3);
        assert_eq!((folded.0, folded.2, folded.3.as_deref()), (Some(5), Some(5), Some("t2")));
        assert_eq!(folded.4.as_deref(), Some("claude-code:a"));
        assert_eq!(
            folded.5.as_deref(),
            Some(r#"{"key":"claude-code:a","client":"claude-code"}"#),
            "the record keeps its key"
        );
        let back = row(4);
        assert_eq!(
            (back.0, back.2, back.3.as_deref()),
            (None, Some(5), Some("t2")),
            "brought back, still its digest's"
        );
        let digest = row(5);
        assert_eq!(digest.4.as_deref(), Some("digest:2026-W07"));
        assert_eq!(
            digest.5.as_deref(),
            Some(r#"{"key":"digest:2026-W07","week_of":"2026-02-09","requests":2}"#)
        );
        assert_eq!(row(6).5.as_deref(), Some(r#"{"resolution":"arrived"}"#), "what an entry says stays");
        assert_eq!(row(7).5.as_deref(), Some("not json"), "data that is no JSON is left as it was");
        let found: i64 = conn
            .query_row("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH 'invoices'", [], |r| r.get(0))
            .unwrap();
        assert_eq!(found, 2, "the keyword index is as it was");
    }
}
