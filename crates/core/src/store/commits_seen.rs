//! Noticing writes other processes make to the store (`mooring` commands, the clients'
//! hooks capturing a session, another `mooring stdio`): SQLite's `data_version`, asked
//! on one connection of our own, moves whenever any other connection commits.

use std::path::Path;

use rusqlite::{Connection, OpenFlags};

use crate::error::Result;

/// A read-only connection that tells whether anyone committed since it last looked.
pub struct CommitsSeen {
    conn: Connection,
    seen: i64,
}

impl CommitsSeen {
    /// Watch the database at `db`.
    pub fn open(db: &Path) -> Result<Self> {
        let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(db, flags)?;
        let seen = version(&conn)?;
        Ok(Self { conn, seen })
    }

    /// Whether another connection committed since the last call.
    pub fn changed(&mut self) -> Result<bool> {
        let now = version(&self.conn)?;
        let moved = now != self.seen;
        self.seen = now;
        Ok(moved)
    }
}

fn version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA data_version", [], |r| r.get(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn another_connections_commit_is_seen_once_and_a_read_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("t.db");
        let writer = Connection::open(&db).unwrap();
        writer.execute_batch("CREATE TABLE t (x INTEGER)").unwrap();
        let mut seen = CommitsSeen::open(&db).unwrap();
        assert!(!seen.changed().unwrap());
        writer.query_row("SELECT count(*) FROM t", [], |r| r.get::<_, i64>(0)).unwrap();
        assert!(!seen.changed().unwrap(), "a read is not a change");
        writer.execute("INSERT INTO t VALUES (1)", []).unwrap();
        assert!(seen.changed().unwrap());
        assert!(!seen.changed().unwrap(), "seen once");
    }
}
