//! The `registry_version` table: one counter that every change able to alter resolution
//! bumps (triggers, any process), so a resolution rebuilds its index only when it moved.

use rusqlite::Connection;

use crate::error::Result;

/// The registry's change counter.
pub fn get(conn: &Connection) -> Result<i64> {
    // Cached: this runs before every resolution.
    Ok(conn.prepare_cached("SELECT v FROM registry_version WHERE id = 1")?.query_row([], |r| r.get(0))?)
}
