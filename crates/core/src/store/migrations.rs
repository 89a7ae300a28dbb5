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
}
