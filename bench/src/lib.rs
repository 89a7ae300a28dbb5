//! Fixtures shared by the benchmarks.

use std::path::{Path, PathBuf};

use mooring_core::{PathState, ProjectIndex, ProjectStatus};

/// An index of `projects` projects, each with one code path `root/pN`.
pub fn index_with(projects: usize, root: &Path) -> ProjectIndex {
    let mut index = ProjectIndex::default();
    for i in 0..projects {
        let slug = format!("p{i}");
        index.add_project(&slug, ProjectStatus::Active);
        index.add_path(root.join(&slug), &slug, PathState::Present);
    }
    index
}

/// `root/p0/d1/d2/…/d{depth}`.
pub fn deep_path(root: &Path, depth: usize) -> PathBuf {
    let mut p = root.join("p0");
    for d in 1..=depth {
        p.push(format!("d{d}"));
    }
    p
}
