//! The resolution index kept in memory and swapped whole. Every change that can alter
//! resolution bumps `registry_version` (triggers, any process); a resolution reads that
//! one integer and rebuilds the index only when it moved. Readers hold an `Arc` to the
//! index they started with, so none sees a half-applied change.

use std::sync::Arc;

use arc_swap::ArcSwapOption;
use rusqlite::Connection;

use crate::error::Result;
use crate::projects::resolve::ProjectIndex;
use crate::store::Store;

/// One consistent index and the registry version it was built from.
#[derive(Debug)]
pub struct Snapshot {
    /// `registry_version` when built.
    pub version: i64,
    /// The index.
    pub index: ProjectIndex,
}

/// The shared, atomically replaced index.
#[derive(Debug, Default)]
pub struct LiveIndex {
    current: ArcSwapOption<Snapshot>,
}

impl LiveIndex {
    /// Empty; the first `get` builds it.
    pub fn new() -> Self {
        Self::default()
    }

    /// The current index, rebuilt first if the registry changed since it was built.
    pub fn get(&self, store: &Store) -> Result<Arc<Snapshot>> {
        let version = store.read(crate::store::registry_version::get)?;
        if let Some(snap) = self.current.load_full().filter(|s| s.version == version) {
            return Ok(snap);
        }
        let fresh = Arc::new(store.read(load)?);
        self.current.store(Some(fresh.clone()));
        Ok(fresh)
    }
}

/// Version and contents read in one transaction, so they agree.
fn load(conn: &Connection) -> Result<Snapshot> {
    let tx = conn.unchecked_transaction()?;
    let version = crate::store::registry_version::get(&tx)?;
    let index = ProjectIndex::load(&tx)?;
    tx.finish()?;
    Ok(Snapshot { version, index })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::projects::registry::{NewProject, Registry};
    use std::path::Path;

    #[test]
    fn rebuilds_only_after_a_registry_change() {
        let dir = tempfile::tempdir().unwrap();
        let code = dir.path().join("code");
        std::fs::create_dir(&code).unwrap();
        let store = Store::open_in(&dir.path().join("data")).unwrap();
        let live = LiveIndex::new();
        let first = live.get(&store).unwrap();
        assert!(first.index.match_path(&code).is_none());
        assert!(Arc::ptr_eq(&first, &live.get(&store).unwrap()), "rebuilt without a change");

        let new = NewProject {
            name: "Web".into(),
            code_paths: vec![code.display().to_string()],
            ..NewProject::default()
        };
        Registry::new(&store).create(new).unwrap();
        let second = live.get(&store).unwrap();
        assert!(second.version > first.version);
        assert_eq!(second.index.match_path(&code.join("src")).unwrap().slug, "web");
        // The old snapshot a reader still holds is unchanged.
        assert!(first.index.match_path(Path::new(&code)).is_none());

        // Memory writes do not touch the registry version.
        let note = crate::memory::NewEntry { kind: "note".into(), content: "x".into(), ..Default::default() };
        crate::memory::remember(&store, "web", &note, None).unwrap();
        assert!(Arc::ptr_eq(&second, &live.get(&store).unwrap()));
    }
}
