//! Mooring's domain: projects and their code paths, the SQLite store, and the
//! resolution of a session's project. No HTTP and no GUI live here.

pub mod activity;
pub mod backend;
#[cfg(any(test, feature = "backend-suite"))]
pub mod backend_suite;
pub mod capture;
pub mod choice;
pub mod datadir;
pub mod decide;
pub mod error;
pub mod event_words;
pub mod git;
pub mod handover;
pub mod humanize;
pub mod lifecycle;
pub mod live_index;
pub mod locks;
pub mod markers;
pub mod memory;
pub mod model;
pub mod paths;
pub mod preamble;
#[cfg(test)]
mod proptests;
pub mod query_words;
pub mod quoted;
pub mod recall;
pub mod recommend;
pub mod redact;
pub mod registry;
pub mod rerank;
pub mod resolve;
pub mod routing;
pub mod rows;
pub mod search;
pub mod secret;
pub mod semantic;
pub mod session;
pub mod slug;
pub mod store;
pub mod transfer;
pub mod untrusted;
pub mod validate;
pub mod vector_centre;
pub mod vector_index;
pub mod vector_sketch;
pub mod watch;

pub use error::{Error, ErrorCode, Result};
pub use model::{CodePath, Event, PathState, Project, ProjectStats, ProjectStatus};
pub use registry::{Changed, NewProject, ProjectEdit, Registry};
pub use resolve::{Hints, Level, Outcome, ProjectIndex, Resolution, resolve};
pub use store::Store;
