//! Mooring's domain, no HTTP and no GUI. Its rooms, each depending only on those listed
//! after it: `remote` (the phone's commands and messages), `search` (search, recall per prompt, by meaning, re-ranking), `capture`
//! (session records from the clients' transcripts), `choice` (questions for the person),
//! `memory` (entries, locks, handovers, the preamble, transfer), `projects` (registry and
//! resolution), `settings` (the person's settings, typed), `store` (SQLite, the storage seam, the vector index) and `guard` (what
//! crosses Mooring's edges); `error`, `model`, `humanize` and `paths` are the ground.

#[cfg(any(test, feature = "backend-suite"))]
pub mod backend_suite;
pub mod capture;
pub mod choice;
pub mod error;
pub mod guard;
pub mod humanize;
pub mod memory;
pub mod model;
pub mod paths;
pub mod projects;
#[cfg(test)]
mod proptests;
pub mod remote;
pub mod search;
pub mod settings;
pub mod store;

pub use error::{Error, ErrorCode, Result};
pub use model::{ChoiceStatus, CodePath, Event, PathState, Project, ProjectStats, ProjectStatus};
pub use projects::registry::{Changed, NewProject, ProjectEdit, Registry};
pub use projects::resolve::{Hints, Level, Outcome, ProjectIndex, Resolution, resolve};
pub use store::Store;
