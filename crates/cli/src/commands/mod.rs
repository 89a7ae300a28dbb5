//! The commands, one module per command or per family of small ones (`memory` holds
//! `memory`, `context`, `token` and `config`; `choice` the question commands and their settings).

pub mod adopt;
pub mod after_exit;
pub mod away;
pub mod choice;
pub mod doctor;
pub mod hook;
mod hook_ask;
mod hook_capture;
mod hook_claims;
mod hook_log;
pub mod memory;
mod person;
pub mod projects;
pub mod remote;
pub mod resolve;
pub mod secret_input;
pub mod serve;
pub mod sessions;
mod sessions_live;
pub mod setup;
pub mod stdio;
pub mod team;
pub mod transfer;

use std::cell::{Cell, OnceCell};
use std::path::PathBuf;
use std::sync::Arc;

use mooring_core::{Error, Store, store::datadir};
use mooring_team::PgStore;
use mooring_team::sync::Listed;

use crate::output::{Failure, warn_all};

/// What every command gets: where the data is, how to print, where the person is.
pub struct Ctx {
    /// Resolved data directory.
    pub data_dir: PathBuf,
    /// `--json` given.
    pub json: bool,
    /// The shell's working directory (relative paths are taken from here).
    pub cwd: PathBuf,
    /// The team database, once asked for: one per command.
    team: OnceCell<Option<Arc<PgStore>>>,
    /// The team's project list as this command read it (`None` without a team).
    listed: OnceCell<Option<Listed>>,
    /// Keep the stale-list note off stderr (the hook logs it instead).
    pub quiet: Cell<bool>,
}

impl Ctx {
    /// Build from the global flags.
    pub fn new(data_dir: Option<PathBuf>, json: bool) -> Result<Self, Failure> {
        let cwd = std::env::current_dir().map_err(|e| {
            Error::invalid("cwd", format!("the current directory is unreadable ({e}); cd somewhere else"))
        })?;
        let data_dir = datadir::resolve(data_dir.as_deref())?;
        Ok(Self::at(data_dir, json, cwd))
    }

    /// For an already resolved data directory and working directory.
    pub fn at(data_dir: PathBuf, json: bool, cwd: PathBuf) -> Self {
        Self { data_dir, json, cwd, team: OnceCell::new(), listed: OnceCell::new(), quiet: Cell::new(false) }
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

    /// The database with this machine's list of team projects brought up to date first
    /// (one query to the team, at most once per command), for every command that reads
    /// the project list: a project shared or joined elsewhere is there, one left is gone.
    /// An unreachable team leaves the list as last seen, and says so on stderr.
    pub fn listed_store(&self) -> Result<Store, Failure> {
        let store = self.store()?;
        self.refresh_team_list(&store)?;
        Ok(store)
    }

    fn refresh_team_list(&self, store: &Store) -> Result<(), Failure> {
        if self.listed.get().is_some() {
            return Ok(());
        }
        let listed = self.team()?.map(|team| mooring_team::sync::refresh_or_stale(store, &team));
        if let Some(note) = listed.as_ref().and_then(Listed::stale_note)
            && !self.quiet.get()
        {
            warn_all(&[note]);
        }
        let _ = self.listed.set(listed);
        Ok(())
    }

    /// How the team's list was read, for a command's JSON: `None` without a team.
    pub fn team_list_json(&self) -> Option<serde_json::Value> {
        let listed = self.listed.get()?.as_ref()?;
        Some(serde_json::json!({
            "reachable": matches!(listed, Listed::Current(_)),
            "stale_note": listed.stale_note(),
        }))
    }

    /// Why the team's list may be out of date, if this command found it so.
    pub fn stale_note(&self) -> Option<String> {
        self.listed.get()?.as_ref()?.stale_note()
    }

    /// The team database, when this machine has joined one (not contacted here).
    pub fn team(&self) -> Result<Option<Arc<PgStore>>, Failure> {
        if let Some(team) = self.team.get() {
            return Ok(team.clone());
        }
        let team = match mooring_team::config::load(&self.data_dir)? {
            None => None,
            Some(c) => Some(Arc::new(PgStore::open(&c.url, c.password.as_deref(), &c.person)?)),
        };
        Ok(self.team.get_or_init(|| team).clone())
    }

    /// The database (its team project list current, as [`Ctx::listed_store`]), and
    /// where each project's memory lives (the team database for team projects).
    pub fn memory(&self) -> Result<(Arc<Store>, mooring_core::store::routing::Routed), Failure> {
        let store = Arc::new(self.listed_store()?);
        let memory = match self.team()? {
            Some(team) => mooring_core::store::routing::Routed::with_team(store.clone(), team),
            None => mooring_core::store::routing::Routed::local(store.clone()),
        };
        Ok((store, memory))
    }
}

fn build_runtime(mut builder: tokio::runtime::Builder) -> Result<tokio::runtime::Runtime, Failure> {
    builder
        .enable_all()
        .build()
        .map_err(|e| Failure::from(Error::storage(format!("cannot start the async runtime: {e}"))))
}
