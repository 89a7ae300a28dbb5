//! WAL checkpoints off the request path. SQLite's automatic checkpoint runs inside the
//! commit that crosses 1,000 WAL pages, so one write in a few hundred paid for copying
//! the log into the database and syncing it (`remember` p99 4 ms against a 0.3 ms p50),
//! and on the hub's single thread every other request waited behind it. Here a thread
//! with its own connection runs a passive checkpoint a few times a second instead; passive
//! checkpoints never block readers or writers.
//!
//! A passive checkpoint never starts the log over, though: the next writer does that, and
//! only if every frame was folded back before it began. Under a steady run of writes
//! (2,000 `remember` calls in a row) some always came in between, and the log grew to
//! 115 MB; each write then went to new file space, which the file system zeroes first
//! (a fifth of the server's CPU per `remember`, in `pwrite`). So once the log is past
//! 1,000 frames, the thread runs a restarting checkpoint while it holds the
//! process's writer back: it folds back what came in since the passive one, and the next
//! write starts the log over, into file space already there. (Waiting for the writer
//! through SQLite's busy timeout instead lost the race to a steady writer every time.)
//!
//! This thread does not merge the full-text index when idle, though it was tried: a
//! merged index made a search on a thousand entries a quarter cheaper (136 → 100 µs), but
//! on a million entries the searches across all projects that must find the 10,000
//! newest matches of a common word doubled (p99 23 → 49 ms), as one long doclist is slower
//! to walk newest-first than many short ones. FTS5's own automerge stays in charge.

use std::path::Path;
use std::sync::{Arc, Condvar, Mutex, Weak};
use std::thread::JoinHandle;
use std::time::Duration;

use rusqlite::{Connection, OpenFlags};

/// How often the log is folded back, and when it is started over.
#[derive(Clone, Copy)]
pub(crate) struct Rounds {
    /// Time between checkpoints.
    pub every: Duration,
    /// Frames in the log past which it is started over.
    pub restart_frames: i64,
}

/// A round a quarter second; a restart past 1,000 frames (about 4 MB, SQLite's own
/// checkpoint point).
const ROUNDS: Rounds = Rounds { every: Duration::from_millis(250), restart_frames: 1000 };

/// The background checkpointer of one database; stops (after a last checkpoint) on drop.
pub struct Checkpointer {
    stop: Arc<(Mutex<bool>, Condvar)>,
    thread: Option<JoinHandle<()>>,
}

impl Checkpointer {
    /// Start checkpointing `path`; `None` (and SQLite's own checkpoints stay on) if the
    /// thread or its connection cannot be had. `writer` is the process's writing
    /// connection, held while the log restarts.
    pub fn start(path: &Path, writer: Weak<Mutex<Connection>>) -> Option<Self> {
        Self::start_with(path, writer, ROUNDS)
    }

    /// [`Checkpointer::start`] with other rounds (tests scale them down).
    pub(crate) fn start_with(path: &Path, writer: Weak<Mutex<Connection>>, rounds: Rounds) -> Option<Self> {
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
                    // to no one: waiting now would hold a short command's exit for a round.
                    if !*stopped {
                        let (guard, _) =
                            cvar.wait_timeout(stopped, rounds.every).unwrap_or_else(|p| p.into_inner());
                        stopped = guard;
                    }
                    checkpoint(&conn, &writer, rounds.restart_frames);
                    if *stopped {
                        break;
                    }
                }
            })
            .ok()?;
        Some(Self { stop, thread: Some(thread) })
    }
}

fn checkpoint(conn: &Connection, writer: &Weak<Mutex<Connection>>, restart_frames: i64) {
    // (busy, frames in the log, frames folded back)
    let frames = conn.query_row("PRAGMA wal_checkpoint(PASSIVE)", [], |r| r.get::<_, i64>(1));
    match frames {
        Ok(frames) if frames > restart_frames => {
            // Gone: the store is closing, and its last connection's close folds the log back.
            let Some(writer) = writer.upgrade() else { return };
            let _held = writer.lock().unwrap_or_else(|p| p.into_inner());
            // Busy (a reader on an old snapshot past the busy timeout, another process's
            // write): the next round tries again.
            if let Err(e) = conn.query_row("PRAGMA wal_checkpoint(RESTART)", [], |_| Ok(())) {
                tracing::debug!(error = %e, "WAL restart skipped");
            }
        }
        Ok(_) => {}
        Err(e) => tracing::debug!(error = %e, "WAL checkpoint skipped"),
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
    use std::sync::{Arc, Mutex};
    use std::time::Instant;

    use rusqlite::{Connection, OpenFlags};

    use crate::store::{Store, settings};

    #[test]
    fn commits_reach_the_database_file_without_a_checkpoint_in_any_commit() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        store.checkpoint_in_background().unwrap();
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

    /// Two writers that never pause (a tool's writes and the indexer's), and the log's
    /// size once they are done, with rounds and a restart point scaled down.
    fn steady_writes(restart_frames: i64) -> u64 {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(super::super::DB_FILE);
        drop(Store::open_in(dir.path()).unwrap());
        let writer = Connection::open(&path).unwrap();
        writer.pragma_update(None, "wal_autocheckpoint", 0).unwrap();
        writer.busy_timeout(std::time::Duration::from_secs(5)).unwrap();
        let writer = Arc::new(Mutex::new(writer));
        let rounds = super::Rounds { every: std::time::Duration::from_millis(5), restart_frames };
        let checkpointer = super::Checkpointer::start_with(&path, Arc::downgrade(&writer), rounds).unwrap();
        let value = "v".repeat(3000);
        let done = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|s| {
            // Reads alongside on their own connection, as searches and the indexer make them.
            s.spawn(|| {
                let reader = Connection::open(&path).unwrap();
                while !done.load(std::sync::atomic::Ordering::Relaxed) {
                    let _: i64 = reader.query_row("SELECT count(*) FROM settings", [], |r| r.get(0)).unwrap();
                }
            });
            let writers: Vec<_> = ["tool", "indexer"]
                .map(|who| {
                    let (writer, value) = (&writer, &value);
                    s.spawn(move || {
                        for n in 0..4000 {
                            let key = format!("{who}{n}");
                            settings::set(&writer.lock().unwrap(), &key, value, "2026-01-01T00:00:00.000Z")
                                .unwrap();
                            // A tool's writes come one call at a time: the lock is free
                            // between them. Re-taken at once, it starved the checkpointer
                            // on a busy machine (61 MB while other tests ran).
                            std::thread::yield_now();
                        }
                    })
                })
                .into_iter()
                .collect();
            writers.into_iter().for_each(|w| w.join().unwrap());
            done.store(true, std::sync::atomic::Ordering::Relaxed);
        });
        drop(checkpointer);
        std::fs::metadata(format!("{}-wal", path.display())).unwrap().len()
    }

    #[test]
    fn a_steady_run_of_writes_starts_the_log_over() {
        // 8,000 writes of a 3 KB row; without the restart the log ends near 140 MB, with
        // it near 8 MB (the most written between two rounds).
        let log = steady_writes(50);
        assert!(log < 32 << 20, "the log grew to {log} bytes");
    }
}
