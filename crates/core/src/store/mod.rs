//! The SQLite store: one file, WAL, foreign keys, migrations at open, writes in
//! transactions. One query module per table.

pub mod backend;
pub mod datadir;
pub mod index;
pub mod routing;
pub mod rows;

mod checkpoint;
pub mod choices;
pub mod claims;
pub mod code_paths;
pub mod commits_seen;
pub mod events;
pub mod injections;
pub mod live_sessions;
pub mod locks;
pub mod memory;
pub mod migrations;
pub mod phone_messages;
pub mod phone_posts;
pub mod projects;
mod readers;
pub mod recall_given;
pub mod registry_version;
pub mod rerank_vectors;
#[cfg(test)]
mod scope_tests;
pub mod seam;
pub mod session_notes;
pub mod sessions;
pub mod settings;
mod sqlite_alloc;
pub mod team_projects;
pub mod vectors;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, TryLockError};
use std::time::Duration;

use rusqlite::config::DbConfig;
use rusqlite::{Connection, OpenFlags, Transaction, TransactionBehavior};

use crate::error::{Error, Result};

/// `execute` and `query_row` through the connection's statement cache: the same few
/// statements run on every tool call, and parsing their SQL again each time was a top
/// cost in the server's profile.
pub trait Cached {
    /// `execute` with a cached statement.
    fn exec<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize>;
    /// `query_row` with a cached statement.
    fn row<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>;
}

impl Cached for Connection {
    fn exec<P: rusqlite::Params>(&self, sql: &str, params: P) -> rusqlite::Result<usize> {
        self.prepare_cached(sql)?.execute(params)
    }

    fn row<T, P, F>(&self, sql: &str, params: P, f: F) -> rusqlite::Result<T>
    where
        P: rusqlite::Params,
        F: FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
    {
        self.prepare_cached(sql)?.query_row(params, f)
    }
}

/// File name of the database inside the data directory.
pub const DB_FILE: &str = "mooring.db";

/// How long a writer waits for another process's lock before giving up.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

/// The database, shared by every surface of one process.
pub struct Store {
    /// The writer's connection; the checkpointer holds it back for a log restart.
    conn: Arc<Mutex<Connection>>,
    /// Read connections for when `conn` is busy (file databases only).
    readers: Option<readers::Readers>,
    path: Option<PathBuf>,
    /// The background checkpointer of a process that serves (see
    /// [`Store::checkpoint_in_background`]). Dropped after `conn` and the readers: its
    /// last checkpoint, and its close as the last connection, fold the log back.
    checkpointer: OnceLock<checkpoint::Checkpointer>,
    /// Projects' vectors held between searches by meaning.
    pub(crate) vectors: crate::store::index::vector_index::Cache,
    /// Projects' word-count sample bounds held between searches.
    samples: index::sample::SampleBounds,
}

impl Store {
    /// Open (creating if needed) `mooring.db` in `data_dir` and bring its schema up to date.
    pub fn open_in(data_dir: &Path) -> Result<Self> {
        crate::store::datadir::ensure(data_dir)?;
        Self::open_file(&data_dir.join(DB_FILE))
    }

    /// Open a database file directly and migrate it.
    pub fn open_file(path: &Path) -> Result<Self> {
        sqlite_process_settings();
        create_private(path);
        let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
            | OpenFlags::SQLITE_OPEN_CREATE
            | OpenFlags::SQLITE_OPEN_NO_MUTEX
            | OpenFlags::SQLITE_OPEN_URI;
        let conn = Connection::open_with_flags(path, flags).map_err(|e| {
            Error::storage(format!(
                "cannot open the database at {}: {e}; check the permissions of the data directory",
                path.display()
            ))
        })?;
        Self::prepare(conn, Some(path.to_path_buf()))
    }

    /// A private in-memory database, for tests and dry runs.
    pub fn open_in_memory() -> Result<Self> {
        sqlite_process_settings();
        Self::prepare(Connection::open_in_memory()?, None)
    }

    fn prepare(mut conn: Connection, path: Option<PathBuf>) -> Result<Self> {
        configure(&conn)?;
        if path.is_some() {
            let mode: String = conn.pragma_update_and_check(None, "journal_mode", "wal", |r| r.get(0))?;
            if !mode.eq_ignore_ascii_case("wal") {
                tracing::warn!(mode, "SQLite refused WAL mode");
            }
            conn.pragma_update(None, "synchronous", "NORMAL")?;
        }
        migrations::migrations().to_latest(&mut conn)?;
        let conn = Arc::new(Mutex::new(conn));
        let readers = path.as_deref().map(readers::Readers::new);
        Ok(Self {
            conn,
            readers,
            path,
            checkpointer: OnceLock::new(),
            vectors: crate::store::index::vector_index::Cache::default(),
            samples: index::sample::SampleBounds::default(),
        })
    }

    /// Fold the log back from a thread of its own from now on, instead of inside the
    /// commit that crosses SQLite's checkpoint point: for a process that serves (the hub,
    /// a stdio server, the desktop), where that commit would hold up every request. A
    /// short command keeps SQLite's own checkpoints: the thread, its connection and its
    /// last checkpoint at exit cost a prompt hook a third of its time (three `fsync`s
    /// while the hub had the database open), for the few pages a command writes. Once is
    /// enough; a store in memory has no log.
    pub fn checkpoint_in_background(&self) -> Result<()> {
        let Some(path) = self.path.as_deref() else { return Ok(()) };
        if self.checkpointer.get().is_some() {
            return Ok(());
        }
        if let Some(started) = checkpoint::Checkpointer::start(path, Arc::downgrade(&self.conn))
            && self.checkpointer.set(started).is_ok()
        {
            self.lock().pragma_update(None, "wal_autocheckpoint", 0)?;
        }
        Ok(())
    }

    /// Where the database lives (`None` in memory).
    pub fn path(&self) -> Option<&Path> {
        self.path.as_deref()
    }

    /// Run reads: on the writer's connection when it is free, else on a read connection
    /// (WAL readers do not wait for writers), else once the writer's is free.
    pub fn read<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        match self.conn.try_lock() {
            Ok(conn) => return f(&conn),
            Err(TryLockError::Poisoned(p)) => return f(&p.into_inner()),
            Err(TryLockError::WouldBlock) => {}
        }
        if let Some(reader) = self.readers.as_ref().and_then(readers::Readers::acquire) {
            return f(&reader);
        }
        f(&self.lock())
    }

    /// Run reads of several statements in one read transaction: in autocommit each
    /// statement took and let go of the log's read lock (`fcntl` calls on its shared
    /// memory), about a twentieth of a write's check.
    pub fn read_together<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.read(|c| {
            if !c.is_autocommit() {
                return f(c);
            }
            c.exec("BEGIN", [])?;
            let _end = EndRead(c);
            f(c)
        })
    }

    /// Run a read that passes once over much of the database (holding every vector for
    /// search by meaning) with a small page cache: at full size the pages it passed
    /// stayed cached, 4.5 MB of a stdio server's 10 MB heap at 8,000 entries, of no use
    /// to the searches after it. The cache gets its size back afterwards.
    pub fn read_passing<T>(&self, f: impl FnOnce(&Connection) -> Result<T>) -> Result<T> {
        self.read(|c| {
            c.pragma_update(None, "cache_size", -PASSING_CACHE_KIB)?;
            let _restore = RestoreCache(c);
            f(c)
        })
    }

    /// Run writes in one immediate transaction: all of it lands, or none of it.
    pub fn write<T>(&self, f: impl FnOnce(&Transaction<'_>) -> Result<T>) -> Result<T> {
        let mut conn = self.lock();
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        let value = f(&tx)?;
        tx.commit()?;
        Ok(value)
    }

    /// Drop the page caches of every connection not in use (they refill from the
    /// operating system's cache on the next read): what a quiet server need not hold.
    pub fn release_memory(&self) {
        let writer = self.conn.try_lock().ok();
        let readers = self.readers.iter().flat_map(readers::Readers::idle);
        for conn in writer.into_iter().chain(readers) {
            if let Err(e) = conn.release_memory() {
                tracing::debug!(error = %e, "could not release SQLite's cache");
            }
        }
    }

    fn lock(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (the transaction rolls
        // back on drop), so a poisoned mutex is safe to reuse.
        self.conn.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// Ends the read transaction `read_together` began, also when its reads panic: a
/// connection left inside one would read an old snapshot from then on and hold the
/// log's read lock against checkpoints.
struct EndRead<'c>(&'c Connection);

impl Drop for EndRead<'_> {
    fn drop(&mut self) {
        if self.0.is_autocommit() {
            return;
        }
        // Ending a read: nothing to keep, and nothing the caller could do if it failed.
        if let Err(e) = self.0.exec("COMMIT", []) {
            tracing::debug!(error = %e, "could not end a read transaction");
        }
    }
}

/// What every connection to the database gets, the writer and the readers alike.
/// Page cache of each connection (KiB; SQLite's default is 2 MB). A search by keyword
/// and one by meaning run at once on two connections; at 2 MB each (512 KiB for readers)
/// the keyword walk of 100,000 entries kept re-reading its index pages, and a natural
/// question's hybrid search took 5.4 ms at p50, 4.0 ms at 8 MB. Pages are cached only
/// as read, and a quiet process drops them (`Store::release_memory`).
const CACHE_KIB: i64 = 8 * 1024;

/// Page cache of a read that passes over the database once ([`Store::read_passing`]):
/// room for the b-tree's inner pages, which such a read keeps coming back to.
const PASSING_CACHE_KIB: i64 = 256;

/// Gives a connection's page cache its usual size back, also when the read failed.
struct RestoreCache<'c>(&'c Connection);

impl Drop for RestoreCache<'_> {
    fn drop(&mut self) {
        // A connection left with the small cache would only be slower.
        if let Err(e) = self.0.pragma_update(None, "cache_size", -CACHE_KIB) {
            tracing::debug!(error = %e, "could not give the page cache its size back");
        }
    }
}

/// SQLite's process-wide settings, made before its first connection (afterwards SQLite
/// refuses them and keeps its defaults, which only costs speed). Without memory
/// statistics, SQLite's allocator takes no global lock: a lock and an unlock around
/// every `malloc`, `realloc` and `free` were a tenth of a write's duplicate check (FTS5
/// reallocates as it walks a doclist backwards). Mooring never reads those statistics.
/// The allocator grows a reallocated block by half again (see `sqlite_alloc`).
pub(crate) fn sqlite_process_settings() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        // SAFETY: `sqlite3_config` takes this option with one int; called once, before
        // this process's first connection (SQLite answers SQLITE_MISUSE and changes
        // nothing when it is already initialised).
        let rc = unsafe {
            rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MEMSTATUS, 0 as std::ffi::c_int)
        };
        if rc != rusqlite::ffi::SQLITE_OK {
            tracing::debug!(rc, "SQLite was initialised before its memory statistics could be turned off");
        }
        let methods = sqlite_alloc::methods();
        // SAFETY: `SQLITE_CONFIG_MALLOC` takes a pointer to a `sqlite3_mem_methods`, which
        // SQLite copies; the same once-only timing as above.
        let rc =
            unsafe { rusqlite::ffi::sqlite3_config(rusqlite::ffi::SQLITE_CONFIG_MALLOC, &raw const methods) };
        if rc != rusqlite::ffi::SQLITE_OK {
            tracing::debug!(rc, "SQLite was initialised before its allocator could be set");
        }
    });
}

fn configure(conn: &Connection) -> Result<()> {
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // Room for every statement the tools run, so none is parsed twice.
    conn.set_prepared_statement_cache_capacity(128);
    // Without the query planner stability guarantee, SQLite plans around bound values
    // (`LIMIT ?` among them) and re-parses such a cached statement at every new binding:
    // 12% of a `list_memory` call went to re-preparing it.
    conn.set_db_config(DbConfig::SQLITE_DBCONFIG_ENABLE_QPSG, true)?;
    conn.pragma_update(None, "foreign_keys", true)?;
    conn.pragma_update(None, "cache_size", -CACHE_KIB)?;
    index::rank::register(conn)
}

/// The schema version stored in a connection (`PRAGMA user_version`).
pub fn schema_version(conn: &Connection) -> Result<usize> {
    let v: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    Ok(usize::try_from(v).unwrap_or(0))
}

/// Create the database file 0600 before SQLite does (it would use the umask, often 0644);
/// SQLite gives its `-wal` and `-shm` files the database file's mode.
fn create_private(path: &Path) {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    // Already there (the usual case) or not creatable: SQLite's open says what is wrong.
    let _ = options.open(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_together_end_their_transaction_even_when_they_fail_or_panic() {
        let store = Store::open_in_memory().unwrap();
        let failed: Result<()> = store.read_together(|_| Err(crate::error::Error::storage("no")));
        assert!(failed.is_err());
        let panicked = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let _ = store.read_together(|c| -> Result<()> {
                assert!(!c.is_autocommit(), "inside one transaction");
                panic!("a read that panics");
            });
        }));
        assert!(panicked.is_err());
        store
            .read(|c| {
                assert!(c.is_autocommit(), "the connection is out of the read transaction");
                Ok(())
            })
            .unwrap();
    }

    /// Bytes of page cache a connection holds now.
    fn cache_used(c: &Connection) -> i32 {
        let (mut now, mut high) = (0, 0);
        // SAFETY: the handle is this open connection's, used on its own thread; the call
        // only reads counters into the two integers given.
        let rc = unsafe {
            rusqlite::ffi::sqlite3_db_status(
                c.handle(),
                rusqlite::ffi::SQLITE_DBSTATUS_CACHE_USED,
                &mut now,
                &mut high,
                0,
            )
        };
        assert_eq!(rc, rusqlite::ffi::SQLITE_OK);
        now
    }

    #[test]
    fn a_passing_read_keeps_its_pages_out_of_the_cache_and_gives_the_cache_its_size_back() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        store
            .write(|tx| {
                tx.execute_batch("CREATE TABLE big(x BLOB)")?;
                for _ in 0..3000 {
                    tx.execute("INSERT INTO big VALUES (zeroblob(1000))", [])?;
                }
                Ok(())
            })
            .unwrap();
        let scan = |c: &Connection| -> Result<i32> {
            let n: i64 = c.query_row("SELECT count(*) FROM big WHERE length(x) = 1000", [], |r| r.get(0))?;
            assert_eq!(n, 3000);
            Ok(cache_used(c))
        };
        store.release_memory();
        let passing = store.read_passing(scan).unwrap();
        store.release_memory();
        let usual = store.read(scan).unwrap();
        assert!(usual > 2 * 1024 * 1024, "an ordinary read caches what it read ({usual} bytes)");
        // About 270 KB alone (its 256 KB cap and the pages' headers); up to 515 KB while
        // other tests' connections read beside it (410 KB once failed a bound of 400 KB
        // in a full run): a fifth of what the ordinary read kept either way.
        assert!(
            passing < usual / 4,
            "a passing read held {passing} bytes of cache (an ordinary one {usual})"
        );
        let size: i64 = store.read(|c| Ok(c.pragma_query_value(None, "cache_size", |r| r.get(0))?)).unwrap();
        assert_eq!(size, -CACHE_KIB);
    }

    #[test]
    fn cached_statements_are_not_parsed_again_when_their_bindings_change() {
        let store = Store::open_in_memory().unwrap();
        let sql = "SELECT id FROM projects WHERE (?1 IS NULL OR slug = ?1) ORDER BY id LIMIT ?2";
        store
            .read(|c| {
                for limit in 1..5 {
                    let mut st = c.prepare_cached(sql)?;
                    st.query_map(rusqlite::params![Option::<String>::None, limit], |r| r.get::<_, i64>(0))?
                        .for_each(drop);
                }
                let st = c.prepare_cached(sql)?;
                assert_eq!(st.get_status(rusqlite::StatementStatus::RePrepare), 0);
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn opens_with_wal_foreign_keys_and_latest_schema() {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        store
            .read(|c| {
                let mode: String = c.pragma_query_value(None, "journal_mode", |r| r.get(0))?;
                assert_eq!(mode, "wal");
                let fk: i64 = c.pragma_query_value(None, "foreign_keys", |r| r.get(0))?;
                assert_eq!(fk, 1);
                assert_eq!(schema_version(c)?, migrations::latest_version());
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn upgrades_a_version_one_database_keeping_its_data() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join(DB_FILE);
        {
            let mut conn = Connection::open(&file).unwrap();
            let v1 =
                rusqlite_migration::Migrations::new(vec![rusqlite_migration::M::up(migrations::SCHEMA[0])]);
            v1.to_latest(&mut conn).unwrap();
            conn.exec(
                "INSERT INTO projects (slug, name, created_at, updated_at)
                 VALUES ('old', 'Old One', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z')",
                [],
            )
            .unwrap();
            assert_eq!(schema_version(&conn).unwrap(), 1);
        }
        let store = Store::open_file(&file).unwrap();
        store
            .read(|c| {
                assert_eq!(schema_version(c)?, migrations::latest_version());
                let name: String = c.row("SELECT name FROM projects WHERE slug = 'old'", [], |r| r.get(0))?;
                assert_eq!(name, "Old One");
                for table in ["settings", "sessions", "memory", "memory_fts", "context_locks", "choices"] {
                    let n: i64 =
                        c.row("SELECT count(*) FROM sqlite_master WHERE name = ?1", [table], |r| r.get(0))?;
                    assert_eq!(n, 1, "{table} missing after upgrade");
                }
                Ok(())
            })
            .unwrap();
    }

    #[test]
    fn events_are_append_only_and_locks_never_rewritten() {
        let store = Store::open_in_memory().unwrap();
        let err = store
            .write(|tx| {
                tx.exec("INSERT INTO events (project_slug, kind, at) VALUES ('x', 'created', 'now')", [])?;
                tx.exec("UPDATE events SET kind = 'forged'", [])?;
                Ok(())
            })
            .unwrap_err();
        assert!(err.message.contains("append-only"));
        let n: i64 = store.read(|c| Ok(c.row("SELECT count(*) FROM events", [], |r| r.get(0))?)).unwrap();
        assert_eq!(n, 0, "the failed transaction must leave nothing behind");
    }

    #[test]
    fn memory_full_text_index_follows_rows() {
        let store = Store::open_in_memory().unwrap();
        let hits: i64 = store
            .write(|tx| {
                tx.exec(
                    "INSERT INTO projects (slug, name, created_at, updated_at) VALUES ('p', 'P', 't', 't')",
                    [],
                )?;
                tx.exec(
                    "INSERT INTO memory (project_id, kind, title, content, created_at, updated_at)
                     VALUES (1, 'decision', 'Use raft', 'We elect leaders with raft', 't', 't')",
                    [],
                )?;
                Ok(tx.row("SELECT count(*) FROM memory_fts WHERE memory_fts MATCH 'leader'", [], |r| {
                    r.get(0)
                })?)
            })
            .unwrap();
        assert_eq!(hits, 1, "porter stemming should match 'leaders' for 'leader'");
    }
}
