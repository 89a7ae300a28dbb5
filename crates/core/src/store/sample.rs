//! Where a project's word-count sample starts (see `memory::idf_in_scope`), held between
//! searches: finding the 2,000th newest entry walks 2,000 index entries, which was a
//! sixth of a write's duplicate check at 20,000 entries. The bound moves only as entries
//! arrive, so a held one is good until a few hundred more have been written.

use std::collections::HashMap;
use std::sync::Mutex;

use rusqlite::{Connection, params};

use crate::error::Result;
use crate::store::Cached as _;

/// Entries newer than a held bound a sample may grow by before the bound is found again:
/// the sample is then the newest 2,000 to 2,256 entries, which moves a word's IDF by
/// at most a twentieth.
const SLACK: i64 = 256;

/// Each project's sample bound with the project's newest id when it was found.
#[derive(Debug, Default)]
pub struct SampleBounds(Mutex<HashMap<Option<i64>, (i64, i64)>>);

impl SampleBounds {
    /// The id the sample of `project` (every project's when `None`) starts at, as
    /// [`super::memory::sample_bound`] finds it, or a held one at most [`SLACK`] ids old.
    pub fn bound(&self, conn: &Connection, project: Option<i64>) -> Result<i64> {
        let newest = newest(conn, project)?;
        let held = self.0.lock().unwrap_or_else(|p| p.into_inner()).get(&project).copied();
        if let Some((bound, at)) = held
            && newest >= at
            && newest - at < SLACK
        {
            return Ok(bound);
        }
        let bound = super::memory::sample_bound(conn, project)?;
        self.0.lock().unwrap_or_else(|p| p.into_inner()).insert(project, (bound, newest));
        Ok(bound)
    }
}

/// The newest entry id of `project` (of all when `None`), 0 when there is none: one seek.
fn newest(conn: &Connection, project: Option<i64>) -> Result<i64> {
    let id: Option<i64> = match project {
        Some(id) => {
            conn.row("SELECT max(id) FROM memory WHERE project_id = ?1", params![id], |r| r.get(0))?
        }
        None => conn.row("SELECT max(id) FROM memory", [], |r| r.get(0))?,
    };
    Ok(id.unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_held_bound_is_found_again_once_the_project_has_grown_past_the_slack() {
        let conn = Connection::open_in_memory().unwrap();
        conn.execute_batch(
            "CREATE TABLE memory (id INTEGER PRIMARY KEY, project_id INTEGER);
             CREATE INDEX memory_by_project_id ON memory(project_id, id);",
        )
        .unwrap();
        let add = |n: i64| {
            for _ in 0..n {
                conn.execute("INSERT INTO memory (project_id) VALUES (1)", []).unwrap();
            }
        };
        let bounds = SampleBounds::default();
        add(2_100);
        let first = bounds.bound(&conn, Some(1)).unwrap();
        assert_eq!(first, 101, "the 2,000th newest of 2,100");
        add(SLACK - 1);
        assert_eq!(bounds.bound(&conn, Some(1)).unwrap(), first, "held while the sample grew by less");
        add(1);
        assert_eq!(bounds.bound(&conn, Some(1)).unwrap(), 101 + SLACK, "found again");
        conn.execute("DELETE FROM memory WHERE id > 1000", []).unwrap();
        assert_eq!(bounds.bound(&conn, Some(1)).unwrap(), 0, "fewer than a sample after a forget");
    }
}
