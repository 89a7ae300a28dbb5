//! The SQLite side of the storage seam (`crate::store::backend`): a project's memory in the
//! embedded store, each call one transaction; one file per trait of the seam.

mod reads;
mod search;
mod upkeep;
mod writes;

use crate::error::Result;
use crate::store::memory as q;
use crate::store::rows::MemoryRow;

/// A live (not forgotten) row of a project.
fn live(conn: &rusqlite::Connection, project_id: i64, id: i64) -> Result<Option<MemoryRow>> {
    Ok(q::get(conn, project_id, id)?.filter(|r| r.forgotten_at.is_none()))
}
