//! WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the
//! commit that crosses 1,000 WAL pages, so one write in a few hundred paid for copying
//! the log into the database and syncing it (`remember` p99 4 ms against a 0.3 ms p50),
//! and on the hub's single thread every other request waited behind it. Here a thread
//! with its own connection runs a passive checkpoint a few times a second instead; passive
//! checkpoints never block readers or writers.
//!
//! The same thread keeps the full-text index lean. Each write adds a small FTS5 segment
//! and automerge only folds them in at eight per level, so a search seeks through many
//! segments per term; merging them level by level once the database has been quiet for a
//! second made a search on a thousand entries a quarter cheaper (store bench). It waits
//! for quiet so a merge step never holds the write lock while a client writes.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OpenFlags};

/// How often the log is folded back.
const EVERY: Duration = Duration::from_millis(250);
/// How long without a commit from anyone before the index is merged.
const QUIET: Duration = Duration::from_secs(1);
/// Index pages one merge step writes (one short transaction each).
const MERGE_PAGES: i64 = 64;

/// The background checkpointer of one database; stops (after a last checkpoint) on drop.
pub struct Checkpointer {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Start checkpointing `path`; `None` (and SQLite's own checkpoints stay on) if the
    /// thread or its connection cannot be had.
    pub fn start(path: &Path) -> Option<Self> {
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
        let conn = Connection::open_with_flags(path, flags).ok()?;
        conn.busy_timeout(Duration::from_millis(50)).ok()?;
        // Merges read and write index pages once; a small cache keeps them from staying
        // resident (the connection lives as long as the process).
        conn.pragma_update(None, "cache_size", -256).ok()?;
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = stop.clone();
        let thread = std::thread::Builder::new()
            .name("mooring-checkpoint".into())
            .spawn(move || {
                let (lock, cvar) = &*signal;
                let stopping = || *lock.lock().unwrap_or_else(|p| p.into_inner());
                let mut merger = Merger::new();
                loop {
                    let stopped = lock.lock().unwrap_or_else(|p| p.into_inner());
                    // A stop asked for while merging was not waited for: check first.
                    if !*stopped {
                        let (guard, _) = cvar.wait_timeout(stopped, EVERY).unwrap_or_else(|p| p.into_inner());
                        if !*guard {
                            drop(guard);
                            merger.tick(&conn, &stopping);
                            checkpoint(&conn);
                            continue;
                        }
                    }
                    checkpoint(&conn);
                    break;
                }
            })
            .ok()?;
        Some(Self { stop, thread: Some(thread) })
    }
}

/// When the full-text index was last merged, by the database's change counter.
struct Merger {
    /// `PRAGMA data_version` at the last tick: it moves on every commit by another
    /// connection, in this process or any other.
    seen: Option<i64>,
    last_change: Instant,
    /// The version the index was last merged at (`None`: not since this process opened).
    merged: Option<i64>,
}

impl Merger {
    fn new() -> Self {
        Self { seen: None, last_change: Instant::now(), merged: None }
    }

    /// Merge once the database has been quiet for [`QUIET`] since a change, a step at a
    /// time, giving up at the first commit by someone else (the next quiet spell resumes).
    fn tick(&mut self, conn: &Connection, stopping: &dyn Fn() -> bool) {
        let Ok(version) = data_version(conn) else { return };
        if self.seen != Some(version) {
            self.seen = Some(version);
            self.last_change = Instant::now();
        }
        if self.merged == Some(version) || self.last_change.elapsed() < QUIET {
            return;
        }
        loop {
            match merge_step(conn) {
                Ok(true) if !stopping() && data_version(conn).ok() == Some(version) => {}
                Ok(true) => return,
                Ok(false) => break,
                Err(e) => {
                    tracing::debug!(error = %e, "search index merge skipped");
                    return;
                }
            }
        }
        self.merged = Some(version);
        let _ = conn.release_memory();
    }
}

fn data_version(conn: &Connection) -> rusqlite::Result<i64> {
    conn.query_row("PRAGMA data_version", [], |r| r.get(0))
}

/// One bounded merge; whether it did any work (FTS5 changes the count by two or more
/// when it merged something).
fn merge_step(conn: &Connection) -> rusqlite::Result<bool> {
    let before = conn.total_changes();
    conn.execute("INSERT INTO memory_fts(memory_fts, rank) VALUES ('merge', ?1)", [MERGE_PAGES])?;
    Ok(conn.total_changes() - before >= 2)
}

fn checkpoint(conn: &Connection) {
    if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |_| Ok(())) {
        tracing::debug!(error = %e, "WAL checkpoint skipped");
    }
}

impl Drop for Checkpointer {
    fn drop(&mut self) {
        let (lock, cvar) = &*self.stop;
        *lock.lock().unwrap_or_else(|p| p.into_inner()) = true;
        cvar.notify_one();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use rusqlite::{Connection, OpenFlags};

    use crate::memory::{NewEntry, remember};
    use crate::store::{Store, settings};
    use crate::{NewProject, Registry};

    #[test]
    fn commits_reach_the_database_file_without_a_checkpoint_in_any_commit() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        let auto: i64 =
            store.read(|c| Ok(c.pragma_query_value(None, "wal_autocheckpoint", |r| r.get(0))?)).unwrap();
        assert_eq!(auto, 0, "commits never checkpoint themselves");
        store
            .write(|tx| {
                for i in 0..200 {
                    settings::set(tx, &format!("k{i}"), "v", "2026-01-01T00:00:00.000Z")?;
                }
                Ok(())
            })
            .unwrap();
        // `immutable=1` reads the database file alone, ignoring the log.
        let file = format!("file:{}?immutable=1", dir.path().join(super::super::DB_FILE).display());
        let started = Instant::now();
        loop {
            let c = Connection::open_with_flags(
                &file,
                OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_URI,
            )
            .unwrap();
            let n: i64 = c
                .query_row("SELECT count(*) FROM settings WHERE key LIKE 'k%'", [], |r| r.get(0))
                .unwrap_or(0);
            if n == 200 {
                break;
            }
            assert!(started.elapsed() < std::time::Duration::from_secs(5), "the log was never folded back");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }

    #[test]
    fn a_quiet_database_has_its_search_index_merged_and_still_finds_everything() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        Registry::new(&store).create(NewProject { name: "Alpha".into(), ..Default::default() }).unwrap();
        for i in 0..120 {
            let entry = NewEntry {
                kind: "note".into(),
                content: format!("note {i} about zeppelins"),
                ..Default::default()
            };
            remember(&store, "alpha", &entry, None).unwrap();
        }
        let segments = || -> i64 {
            store
                .read(|c| {
                    Ok(c.query_row("SELECT count(DISTINCT segid) FROM memory_fts_idx", [], |r| r.get(0))?)
                })
                .unwrap()
        };
        // One commit per entry: a segment each, folded eight at a time by automerge alone.
        let before = segments();
        assert!(before > 4, "{before} segments");
        let started = Instant::now();
        while segments() > 3 {
            assert!(
                started.elapsed() < std::time::Duration::from_secs(10),
                "never merged: {} segments",
                segments()
            );
            std::thread::sleep(std::time::Duration::from_millis(100));
        }
        let hits = crate::search::search(&store, "zeppelins", Some("alpha"), None, 200).unwrap();
        assert_eq!(hits.len(), 120);
    }
}
