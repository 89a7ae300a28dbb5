//! Read connections beside the writer, opened when reads first contend. In WAL mode a
//! reader never waits for a writer, but with one connection behind one mutex every
//! request did: with 64 HTTP sessions the server's threads queued on it. A process that
//! never sees two reads at once (one stdio client) never opens a reader, so it pays no
//! memory for their page caches.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, OnceLock};

use rusqlite::{Connection, OpenFlags};

use crate::error::Result;

/// Readers at most: with the writer's connection, one for each of the (at most four)
/// HTTP threads that can read at once.
const MAX_READERS: usize = 3;

/// Lazily opened read-only connections to one database file.
pub(super) struct Readers {
    path: PathBuf,
    slots: [OnceLock<Option<Mutex<Connection>>>; MAX_READERS],
}

impl Readers {
    /// Readers of the database at `path` (none open yet).
    pub(super) fn new(path: &Path) -> Self {
        Self { path: path.to_path_buf(), slots: Default::default() }
    }

    /// A free reader, opening one if every open one is busy; `None` when none can be had
    /// (all busy and no room, or the file cannot be opened again), so the caller waits
    /// for the writer's connection instead.
    pub(super) fn acquire(&self) -> Option<MutexGuard<'_, Connection>> {
        for slot in &self.slots {
            let Some(reader) = slot.get_or_init(|| self.open()) else { continue };
            if let Ok(guard) = reader.try_lock() {
                return Some(guard);
            }
        }
        None
    }

    /// Every open reader not in use right now.
    pub(super) fn idle(&self) -> impl Iterator<Item = MutexGuard<'_, Connection>> {
        self.slots.iter().filter_map(|s| s.get()?.as_ref()?.try_lock().ok())
    }

    fn open(&self) -> Option<Mutex<Connection>> {
        match open_reader(&self.path) {
            Ok(conn) => Some(Mutex::new(conn)),
            Err(e) => {
                tracing::warn!(error = %e, "could not open a read connection; reads share the writer's");
                None
            }
        }
    }
}

/// A connection that can only read: `query_only` turns a write by mistake into an error
/// rather than a write outside the writer's transactions.
fn open_reader(path: &Path) -> Result<Connection> {
    let flags =
        OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX | OpenFlags::SQLITE_OPEN_URI;
    let conn = Connection::open_with_flags(path, flags)?;
    super::configure(&conn)?;
    conn.pragma_update(None, "query_only", true)?;
    Ok(conn)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{Cached as _, Store};

    #[test]
    fn a_reader_sees_committed_writes_and_refuses_to_write() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        store
            .write(|tx| {
                tx.exec("INSERT INTO settings (key, value, updated_at) VALUES ('k', 'v', 't')", [])?;
                Ok(())
            })
            .unwrap();
        let readers = Readers::new(store.path().unwrap());
        let reader = readers.acquire().unwrap();
        let v: String = reader.row("SELECT value FROM settings WHERE key = 'k'", [], |r| r.get(0)).unwrap();
        assert_eq!(v, "v");
        let err = reader.exec("DELETE FROM settings", []).unwrap_err();
        assert!(err.to_string().contains("readonly"), "{err}");
        // A second caller gets the next reader while the first is held.
        let second = readers.acquire().unwrap();
        assert!(!std::ptr::eq(&*reader, &*second));
        drop(second);
        // Only the reader not in use counts as idle (its cache may be released).
        assert_eq!(readers.idle().count(), 1);
    }

    #[test]
    fn reads_contending_with_a_held_connection_use_a_reader() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        let held = store.lock();
        // The writer's connection is held: this read must not wait for it.
        let n: i64 = store.read(|c| Ok(c.row("SELECT count(*) FROM projects", [], |r| r.get(0))?)).unwrap();
        assert_eq!(n, 0);
        // Releasing memory skips the held connection instead of waiting for it.
        store.release_memory();
        drop(held);
        store.release_memory();
        let n: i64 = store.read(|c| Ok(c.row("SELECT count(*) FROM projects", [], |r| r.get(0))?)).unwrap();
        assert_eq!(n, 0);
    }
}
