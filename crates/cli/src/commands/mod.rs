//! One module per top-level command.

pub mod choice;
pub mod doctor;
pub mod hook;
pub mod memory;
pub mod projects;
pub mod resolve;
pub mod serve;
pub mod setup;
pub mod stdio;
pub mod team;
pub mod transfer;

use std::path::PathBuf;

use mooring_core::{Error, Store, datadir};

use crate::output::Failure;

/// What every command gets: where the data is, how to print, where the person is.
pub struct Ctx {
    /// Resolved data directory.
    pub data_dir: PathBuf,
    /// `--json` given.
    pub json: bool,
    /// The shell's working directory (relative paths are taken from here).
    pub cwd: PathBuf,
}

impl Ctx {
    /// Build from the global flags.
    pub fn new(data_dir: Option<PathBuf>, json: bool) -> Result<Self, Failure> {
        let cwd = std::env::current_dir().map_err(|e| {
            Error::invalid("cwd", format!("the current directory is unreadable ({e}); cd somewhere else"))
        })?;
        let data_dir = datadir::resolve(data_dir.as_deref())?;
        Ok(Self { data_dir, json, cwd })
    }

    /// A multi-threaded runtime for the commands that serve.
    pub fn runtime(&self) -> Result<tokio::runtime::Runtime, Failure> {
        build_runtime(tokio::runtime::Builder::new_multi_thread())
    }

    /// A single-threaded runtime, for a command that serves one client: rmcp runs each
    /// request as a task, and on a work-stealing pool every one of them crossed threads
    /// (wake-ups that cost more CPU than a small tool call).
    pub fn single_thread_runtime(&self) -> Result<tokio::runtime::Runtime, Failure> {
        build_runtime(tokio::runtime::Builder::new_current_thread())
    }

    /// Open the database, migrating it if needed.
    pub fn store(&self) -> Result<Store, Failure> {
        Ok(Store::open_in(&self.data_dir)?)
    }

    /// The team database, when this machine has joined one (not contacted yet).
    pub fn team(&self) -> Result<Option<mooring_team::PgStore>, Failure> {
        let Some(c) = mooring_team::config::load(&self.data_dir)? else { return Ok(None) };
        Ok(Some(mooring_team::PgStore::open(&c.url, c.password.as_deref(), &c.person)?))
    }

    /// The database, and where each project's memory lives (the team database for team
    /// projects, once a team is joined).
    pub fn memory(&self) -> Result<(std::sync::Arc<Store>, mooring_core::routing::Routed), Failure> {
        let store = std::sync::Arc::new(self.store()?);
        let (memory, _team) = mooring_team::memory_for(&self.data_dir, store.clone())?;
        Ok((store, memory))
    }
}

fn build_runtime(mut builder: tokio::runtime::Builder) -> Result<tokio::runtime::Runtime, Failure> {
    builder
        .enable_all()
        .build()
        .map_err(|e| Failure::from(Error::storage(format!("cannot start the async runtime: {e}"))))
}
