//! The one way a session's project is decided, for the MCP gate, `mooring resolve` and
//! the hooks alike: the resolution order (`resolve`) with what it reads from the
//! session's directories — `.mooring.toml` markers where a directory decides or nothing
//! does (a session's own choice makes them moot), its git checkout only when nothing
//! above the git levels decides — and what it records: a marker's directory bound to its
//! project, a clone found by its remote bound as a code path of its project.
//!
//! Markers and checkouts are files from a repository: callers that must answer in time
//! run this on a thread they can abandon (the server does).

use std::path::PathBuf;

use crate::error::Result;
use crate::projects::live_index::LiveIndex;
use crate::projects::markers::{self, Applied};
use crate::projects::registry::clones;
use crate::projects::resolve::{Hints, Level, Resolution, git_facts, resolve};
use crate::store::Store;

/// What deciding came to.
#[derive(Debug, Clone)]
pub struct Decided {
    /// The resolution, every level explained.
    pub resolution: Resolution,
    /// Markers bound, offered for creation, or unreadable.
    pub markers: Applied,
    /// A clone's checkout bound as a code path of the project its remote decided.
    pub bound_clone: Option<PathBuf>,
    /// The hints as finally used (with the git facts, when read).
    pub hints: Hints,
}

impl Decided {
    /// Whether the registry changed (a marker or a clone bound): what shows projects
    /// should refresh.
    pub fn changed_projects(&self) -> bool {
        !self.markers.bound.is_empty() || self.bound_clone.is_some()
    }
}

/// Whether deciding from this first resolution would read files: markers where a
/// directory decides (unless known to have none), git where nothing above it does.
pub fn reads_files(first: &Resolution, hints: &Hints) -> bool {
    (by_directory(first) && !markers::known_unmarked(hints)) || needs_git(first)
}

fn by_directory(r: &Resolution) -> bool {
    matches!(r.decided_by, None | Some(Level::Workspace | Level::Roots | Level::Cwd | Level::Focus))
}

fn needs_git(r: &Resolution) -> bool {
    matches!(r.decided_by, None | Some(Level::Focus))
}

/// Decide the project `hints` give, reading and binding as the module says.
pub fn decide(store: &Store, index: &LiveIndex, mut hints: Hints) -> Result<Decided> {
    let mut resolution = resolve(&index.get(store)?.index, &hints);
    // The common case, a directory looked at moments ago with no marker above it, costs
    // no file-system walk.
    let markers = if by_directory(&resolution) && !markers::known_unmarked(&hints) {
        markers::apply(store, &index.get(store)?.index, &hints)?
    } else {
        Applied::default()
    };
    if !markers.bound.is_empty() {
        resolution = resolve(&index.get(store)?.index, &hints);
    }
    if needs_git(&resolution)
        && let Some(facts) = git_facts(&hints)
    {
        hints.git = Some(facts);
        resolution = resolve(&index.get(store)?.index, &hints);
    }
    let bound_clone = clones::bind_if_decided(store, &resolution, &hints)?;
    Ok(Decided { resolution, markers, bound_clone, hints })
}
