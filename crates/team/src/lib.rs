//! Team mode: a team's shared projects and memory in PostgreSQL, behind the storage seam
//! of `mooring_core::store::backend`. Each machine keeps its own SQLite store for what is local
//! (code paths, focus, agent sessions, questions, settings).
//!
//! The domain is synchronous (SQLite answers in microseconds), PostgreSQL is reached with
//! `tokio-postgres`. A [`PgStore`] owns a small runtime of its own and hands each call to
//! it, waiting for the answer: a caller on any runtime (or none) blocks only itself, as
//! it would on a SQLite read, and never enters a runtime inside another.

mod access;
pub mod config;
mod conninfo;
mod edits;
mod errors;
pub mod keep;
pub mod listen;
mod locks;
mod memory;
mod projects;
pub mod routed;
mod rows;
mod share;
mod sql;
mod stats;
pub mod sync;
#[cfg(feature = "testing")]
pub mod testing;
pub mod tls;
mod vectors;

use std::future::Future;

use deadpool_postgres::{Hook, HookError, Manager, ManagerConfig, Pool, RecyclingMethod};
use mooring_core::{Error, Result};

pub use access::{Role, TeamView};
pub use edits::SharedEdit;
pub use errors::db_error;

refinery::embed_migrations!("migrations");

/// Most connections one Mooring holds to the team database.
const POOL_SIZE: usize = 8;
/// Key of the advisory lock that lets one instance migrate at a time.
const MIGRATION_LOCK: i64 = 0x6d6f_6f72_696e_6701;
/// How long a call waits for a connection before saying the database is unreachable.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);

/// The team database.
pub struct PgStore {
    runtime: Option<tokio::runtime::Runtime>,
    pool: Pool,
    /// How to connect (for the connection that listens for changes).
    config: tokio_postgres::Config,
    /// TLS for every connection, as the URL's `sslmode` says.
    connector: tokio_postgres_rustls::MakeRustlsConnect,
    /// The URL's TLS settings.
    tls: tls::Tls,
    /// The person this instance acts for: their name and id in the team.
    person: String,
    /// The person's id, known once the database has answered (schema brought up to
    /// date and the person registered at first contact, so a Mooring that starts during
    /// an outage connects when the database returns).
    person_id: std::sync::OnceLock<i64>,
    /// Since when the database has been out of reach, if it is.
    down_since: std::sync::Mutex<Option<String>>,
    /// Team projects' vectors held between searches by meaning.
    vectors: mooring_core::store::index::vector_index::Cache,
}

impl PgStore {
    /// Connect to `url` (a `postgres://` URL or key=value settings; the password comes
    /// separately so it never sits in a URL, a command line or a log) as the person named
    /// `person` (joining the team under that name the first time), and bring the schema
    /// up to date.
    pub fn connect(url: &str, password: Option<&str>, person: &str) -> Result<Self> {
        let store = Self::open(url, password, person)?;
        store.me()?;
        Ok(store)
    }

    /// Set up the connection to `url` without reaching the database yet: the first call
    /// that needs it does (and every call after an outage).
    pub fn open(url: &str, password: Option<&str>, person: &str) -> Result<Self> {
        let person = person.trim().to_owned();
        if person.is_empty() || person.chars().count() > 100 || person.chars().any(char::is_control) {
            return Err(Error::invalid("person", "a person's name is 1 to 100 printable characters"));
        }
        let (bare, tls) = tls::Tls::split(url)?;
        let mut config: tokio_postgres::Config = bare.parse().map_err(|e| {
            Error::invalid(
                "url",
                format!("not a PostgreSQL connection string ({e}); use postgres://user@host:port/db"),
            )
        })?;
        if config.get_password().is_some() {
            return Err(Error::invalid(
                "url",
                "the URL carries a password; leave it out and give it from a file or the prompt",
            ));
        }
        config.ssl_mode(tls.ssl_mode());
        let connector = tls.connector()?;
        if let Some(p) = password {
            config.password(p);
        }
        config.application_name("mooring");
        config.connect_timeout(CONNECT_TIMEOUT);
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .thread_name("mooring-team")
            .enable_all()
            .build()
            .map_err(|e| Error::storage(format!("cannot start the team database worker: {e}")))?;
        let manager = Manager::from_config(
            config.clone(),
            connector.clone(),
            ManagerConfig { recycling_method: RecyclingMethod::Fast },
        );
        let pool = {
            let _inside = runtime.enter();
            let named = person.clone();
            Pool::builder(manager)
                .post_create(Hook::async_fn(move |client, _| {
                    let named = named.clone();
                    Box::pin(async move {
                        // Row security (migration V9) shows each connection only its
                        // person's projects.
                        client
                            .execute("SELECT set_config('mooring.person', $1, false)", &[&named])
                            .await
                            .map(|_| ())
                            .map_err(HookError::Backend)
                    })
                }))
                .max_size(POOL_SIZE)
                .runtime(deadpool_postgres::Runtime::Tokio1)
                .create_timeout(Some(CONNECT_TIMEOUT))
                .wait_timeout(Some(CONNECT_TIMEOUT))
                .build()
                .map_err(|e| Error::storage(format!("cannot set up the team database pool: {e}")))?
        };
        Ok(Self {
            runtime: Some(runtime),
            pool,
            config,
            connector,
            tls,
            person,
            person_id: std::sync::OnceLock::new(),
            down_since: std::sync::Mutex::new(None),
            vectors: Default::default(),
        })
    }

    /// The acting person's id: at first contact, bring the schema up to date and
    /// register the person.
    fn me(&self) -> Result<i64> {
        if let Some(id) = self.person_id.get() {
            return Ok(*id);
        }
        let person = self.person.clone();
        let id = self.run(|pool| async move {
            let mut client = pool.get().await.map_err(errors::pool_error)?;
            client.execute("SELECT pg_advisory_lock($1)", &[&MIGRATION_LOCK]).await.map_err(db_error)?;
            let done = migrations::runner().run_async(&mut **client).await;
            client.execute("SELECT pg_advisory_unlock($1)", &[&MIGRATION_LOCK]).await.map_err(db_error)?;
            done.map_err(|e| Error::storage(format!("cannot bring the team database up to date: {e}")))?;
            let row = client
                .query_one(
                    "INSERT INTO people (name) VALUES ($1) ON CONFLICT (name) DO UPDATE SET name = excluded.name
                     RETURNING id",
                    &[&person],
                )
                .await
                .map_err(db_error)?;
            Ok(row.get::<_, i64>(0))
        })?;
        Ok(*self.person_id.get_or_init(|| id))
    }

    /// How connections to the team database are protected, in one line.
    pub fn tls(&self) -> &'static str {
        self.tls.describe()
    }

    /// Whether someone between this machine and the database could read or pose as it:
    /// a remote host reached without checking its certificate.
    pub fn exposed(&self, url: &str) -> bool {
        !self.tls.trusted_path(url)
    }

    /// The person this instance acts for.
    pub fn person(&self) -> &str {
        &self.person
    }

    /// Since when the team database has been out of reach (RFC 3339), if it is now.
    pub fn down_since(&self) -> Option<String> {
        self.down_since.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Run `work` on the store's runtime with a handle to the pool; wait for its answer.
    fn run<T, F, Fut>(&self, work: F) -> Result<T>
    where
        F: FnOnce(Pool) -> Fut,
        Fut: Future<Output = Result<T>> + Send + 'static,
        T: Send + 'static,
    {
        let runtime = self.runtime.as_ref().ok_or_else(|| Error::storage("the team database is closed"))?;
        let future = work(self.pool.clone());
        let (tx, rx) = std::sync::mpsc::sync_channel(1);
        runtime.spawn(async move {
            let _ = tx.send(future.await);
        });
        let result = rx.recv().map_err(|_| Error::storage("the team database worker stopped"))?;
        self.note_reach(result)
    }

    /// Remember when the database went out of reach and say so in the error; forget it
    /// at the first answer.
    fn note_reach<T>(&self, result: Result<T>) -> Result<T> {
        let mut since = self.down_since.lock().unwrap_or_else(|p| p.into_inner());
        match result {
            Err(mut e) if e.code == mooring_core::ErrorCode::Unavailable => {
                let at = since.get_or_insert_with(mooring_core::humanize::now);
                e.message = format!("the team database has been unreachable since {at}: {}", e.message);
                Err(e)
            }
            other => {
                *since = None;
                other
            }
        }
    }
}

impl Drop for PgStore {
    fn drop(&mut self) {
        // Dropped from async code (the server's), a runtime must not wait for its tasks.
        if let Some(runtime) = self.runtime.take() {
            runtime.shutdown_background();
        }
    }
}

impl PgStore {
    /// One round trip to the database: how long it took.
    pub fn ping(&self) -> Result<std::time::Duration> {
        self.me()?;
        self.run(|pool| async move {
            let client = pool.get().await.map_err(errors::pool_error)?;
            let started = std::time::Instant::now();
            client.simple_query("SELECT 1").await.map_err(db_error)?;
            Ok(started.elapsed())
        })
    }

    /// Whether the database enforces membership itself (row security): not for a role
    /// that is a superuser or bypasses row security.
    pub fn row_security(&self) -> Result<bool> {
        self.run(|pool| async move {
            let client = pool.get().await.map_err(errors::pool_error)?;
            let row = client
                .query_one(
                    "SELECT NOT (rolsuper OR rolbypassrls) FROM pg_roles WHERE rolname = current_user",
                    &[],
                )
                .await
                .map_err(db_error)?;
            Ok(row.get(0))
        })
    }

    /// The TLS version a connection to the team database speaks (`TLSv1.3`), or `None`
    /// when it is plain text, as the server sees it.
    pub fn encryption(&self) -> Result<Option<String>> {
        self.run(|pool| async move {
            let client = pool.get().await.map_err(errors::pool_error)?;
            let row = client
                .query_opt("SELECT version FROM pg_stat_ssl WHERE pid = pg_backend_pid() AND ssl", &[])
                .await
                .map_err(db_error)?;
            Ok(row.map(|r| r.get(0)))
        })
    }
}

/// The memory backend for a data directory: with a joined team, team projects go to the
/// team database (its project list brought onto this machine first, if it answers) and
/// the rest stay local; without one, everything is local.
pub fn memory_for(
    data_dir: &std::path::Path,
    local: std::sync::Arc<mooring_core::Store>,
) -> Result<(mooring_core::store::routing::Routed, Option<std::sync::Arc<PgStore>>)> {
    let Some(config) = config::load(data_dir)? else {
        return Ok((mooring_core::store::routing::Routed::local(local), None));
    };
    let team = std::sync::Arc::new(PgStore::open(&config.url, config.password.as_deref(), &config.person)?);
    if let Some(note) = sync::refresh_or_stale(&local, &team).stale_note() {
        tracing::warn!("{note}");
    }
    Ok((mooring_core::store::routing::Routed::with_team(local, team.clone()), Some(team)))
}
