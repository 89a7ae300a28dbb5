//! WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the
//! commit that crosses 1,000 WAL pages, so one write in a few hundred paid for copying
//! the log into the database and syncing it (`remember` p99 4 ms against a 0.3 ms p50),
//! and on the hub's single thread every other request waited behind it. Here a thread
//! with its own connection runs a passive checkpoint a few times a second instead; passive
//! checkpoints never block readers or writers.
//!
//! This thread does not merge the full-text index when idle, though it was tried: a
//! merged index made a search on a thousand entries a quarter cheaper (136 → 100 µs), but
//! on a million entries the searches across all projects that must find the 10,000
//! newest matches of a common word doubled (p99 23 → 49 ms), as one long doclist is slower
//! to walk newest-first than many short ones. FTS5's own automerge stays in charge.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How often the log is folded back.
const EVERY: Duration = Duration::from_millis(250);

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
        let stop = Arc::new((Mutex::new(false), Condvar::new()));
        let signal = stop.clone();
        let thread = std::thread::Builder::new()
            .name("mooring-checkpoint".into())
            .spawn(move || {
                let (lock, cvar) = &*signal;
                let mut stopped = lock.lock().unwrap_or_else(|p| p.into_inner());
                loop {
                    // A stop that came before this thread first took the lock was signalled
                    // to no one: waiting now would hold a short command's exit for EVERY.
                    if !*stopped {
                        let (guard, _) = cvar.wait_timeout(stopped, EVERY).unwrap_or_else(|p| p.into_inner());
                        stopped = guard;
                    }
                    checkpoint(&conn);
                    if *stopped {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Self { stop, thread: Some(thread) })
    }
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

    use crate::store::{Store, settings};

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
}
