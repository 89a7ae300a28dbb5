//! Fixtures shared by the benchmarks.

pub mod labelled;
pub mod natural;
pub mod public;
pub mod year;

use std::path::{Path, PathBuf};

use mooring_core::memory::{NewEntry, remember_batch};
use mooring_core::{NewProject, PathState, ProjectIndex, ProjectStatus, Registry, Store};

/// The value after `name` on the command line, or `default`.
pub fn arg<T: std::str::FromStr>(name: &str, default: T) -> T {
    let args: Vec<String> = std::env::args().collect();
    args.iter()
        .position(|a| a == name)
        .and_then(|i| args.get(i + 1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

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

/// A data directory with project `le` (code path `dir/code/le`, returned canonical) holding
/// `entries` memory entries, one in a hundred with the word "zeppelin", and an empty
/// project `other` for writes.
pub fn seed_memory(dir: &Path, entries: usize) -> PathBuf {
    let store = Store::open_in(dir).unwrap();
    let code = dir.join("code/le");
    std::fs::create_dir_all(&code).unwrap();
    let reg = Registry::new(&store);
    reg.create(NewProject {
        name: "Leader Election".into(),
        slug: Some("le".into()),
        code_paths: vec![code.display().to_string()],
        ..Default::default()
    })
    .unwrap();
    reg.create(NewProject { name: "Other".into(), ..Default::default() }).unwrap();
    remember_batch(&store, "le", &seed_entries(entries), None).unwrap();
    code.canonicalize().unwrap()
}

/// The entries [`seed_memory`] writes: titles on lease renewal, a rare word ("zeppelin")
/// in 1 % of them.
pub fn seed_entries(entries: usize) -> Vec<NewEntry> {
    (0..entries)
        .map(|i| NewEntry {
            kind: ["decision", "note", "summary"][i % 3].into(),
            title: Some(format!("Entry {i} on lease renewal")),
            content: format!(
                "Entry {i}: renewals retry twice with a 10 s TTL{}.",
                if i % 100 == 0 { "; zeppelin" } else { "" }
            ),
            tags: vec![],
            ..NewEntry::default()
        })
        .collect()
}

/// Team projects `le` (holding `entries` seeded entries) and `other` in the team database
/// at `url`, created by the person "Bench"; the store, acting as that person.
pub fn seed_team_projects(url: &str, password: &str, entries: usize) -> mooring_team::PgStore {
    let team = mooring_team::PgStore::connect(url, Some(password), "Bench").unwrap();
    for (name, slug) in [("Leader Election", "le"), ("Other", "other")] {
        team.create_project(NewProject { name: name.into(), slug: Some(slug.into()), ..Default::default() })
            .unwrap();
    }
    remember_batch(&team, "le", &seed_entries(entries), None).unwrap();
    team
}

/// The same data directory as [`seed_memory`], but a member of a team on the PostgreSQL
/// at `url` (database password `password`): `le` and `other` are team projects whose
/// memory lives there, `le` bound to this machine's checkout `dir/code/le`.
pub fn seed_team_memory(dir: &Path, entries: usize, url: &str, password: &str) -> PathBuf {
    use mooring_team::config::{self, TeamConfig};
    let team = mooring_team::PgStore::connect(url, Some(password), "Bench").unwrap();
    for (name, slug) in [("Leader Election", "le"), ("Other", "other")] {
        team.create_project(NewProject { name: name.into(), slug: Some(slug.into()), ..Default::default() })
            .unwrap();
    }
    remember_batch(&team, "le", &seed_entries(entries), None).unwrap();
    let store = Store::open_in(dir).unwrap();
    config::save(
        dir,
        &TeamConfig { url: url.into(), person: "Bench".into(), password: Some(password.into()) },
    )
    .unwrap();
    mooring_team::sync::refresh(&store, &team).unwrap();
    let code = dir.join("code/le");
    std::fs::create_dir_all(&code).unwrap();
    let edit =
        mooring_core::ProjectEdit { add_code_paths: vec![code.display().to_string()], ..Default::default() };
    Registry::new(&store).edit("le", edit).unwrap();
    code.canonicalize().unwrap()
}
