//! The team database ranks by meaning as the embedded store does: the labelled set's
//! entries (`bench/labelled/set.json`) written to both, every question asked of both.

use std::path::Path;

use mooring_core::memory::{NewEntry, remember};
use mooring_core::search::{Mode, Request, find};
use mooring_core::store::backend::{MemoryBackend, MemoryUpkeep as _};
use mooring_core::{NewProject, Registry, Store};
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};
use serde_json::Value;

/// Projects of the set written to both stores (about 840 entries, 100 questions).
const PROJECTS: &[&str] = &["atlas", "ember"];

/// The ranking of a question: each hit's content (ids differ between the stores) and
/// its score.
fn ranking(store: &dyn MemoryBackend, project: &str, query: &str, mode: Mode) -> Vec<(String, f64)> {
    let r = Request { query, project: Some(project), kind: None, limit: 10, mode };
    let found = find(store, &r).unwrap();
    assert_eq!((found.mode, found.note.as_deref()), (mode, None), "{query}");
    found.hits.into_iter().map(|h| (h.entry.content, h.score)).collect()
}

fn same_order(a: &[(String, f64)], b: &[(String, f64)]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.0 == y.0)
}

#[test]
fn the_team_database_ranks_by_meaning_and_fuses_as_sqlite_does() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bench/labelled/set.json");
    let set: Value = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    let pg = Postgres::start();
    let team = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Ada").unwrap();
    let local = Store::open_in_memory().unwrap();
    for name in PROJECTS {
        team.create_project(NewProject { name: (*name).into(), ..Default::default() }).unwrap();
        Registry::new(&local).create(NewProject { name: (*name).into(), ..Default::default() }).unwrap();
    }
    let mut written = 0;
    for e in set["entries"].as_array().unwrap() {
        let project = e["project"].as_str().unwrap();
        if !PROJECTS.contains(&project) {
            continue;
        }
        let entry = NewEntry {
            kind: e["kind"].as_str().unwrap().into(),
            content: e["content"].as_str().unwrap().into(),
            ..NewEntry::default()
        };
        remember(&team, project, &entry, None).unwrap();
        remember(&local, project, &entry, None).unwrap();
        written += 1;
    }
    let team_indexed = mooring_core::search::semantic::index_pending(&team, None).unwrap();
    let local_indexed = mooring_core::search::semantic::index_pending(&local, None).unwrap();
    assert_eq!((team_indexed, local_indexed), (written, written));
    assert_eq!(
        team.vector_progress(None).unwrap().map(|p| (p.waiting, p.stored as usize)),
        Some((0, written))
    );

    let (mut asked, mut least_shared, mut shared_total, mut same_best) = (0, usize::MAX, 0, 0);
    for q in set["queries"].as_array().unwrap() {
        let (project, text) = (q["project"].as_str().unwrap(), q["query"].as_str().unwrap());
        if !PROJECTS.contains(&project) {
            continue;
        }
        asked += 1;
        // Same vectors, same arithmetic: the same entries in the same order, the same
        // cosines.
        let (a, b) =
            (ranking(&team, project, text, Mode::Semantic), ranking(&local, project, text, Mode::Semantic));
        assert!(same_order(&a, &b), "{text}:\n{a:?}\n{b:?}");
        assert!(a.iter().zip(&b).all(|(x, y)| (x.1 - y.1).abs() < 1e-6), "{text}");
        // The fusion weighs each keyword hit by its score over the best one's, and the
        // two keyword rankings are two formulas (BM25 with IDF on SQLite, `ts_rank`
        // here) that choose the same entries (IDF in the project, the same common
        // words) but can order near-ties apart: the same best for nine questions in
        // ten (a question whose only matched word is in many entries ties them all),
        // and at least half the rest.
        let (ha, hb) =
            (ranking(&team, project, text, Mode::Hybrid), ranking(&local, project, text, Mode::Hybrid));
        assert!(!ha.is_empty(), "{text}");
        let set =
            |r: &[(String, f64)]| r.iter().map(|x| x.0.clone()).collect::<std::collections::BTreeSet<_>>();
        let shared = set(&ha).intersection(&set(&hb)).count();
        least_shared = least_shared.min(shared);
        assert!(shared * 10 >= ha.len().max(hb.len()) * 5, "{text}:\n{ha:?}\n{hb:?}");
        shared_total += shared;
        same_best += usize::from(ha[0].0 == hb[0].0);
    }
    eprintln!(
        "hybrid: the same best hit for {same_best} of {asked} questions; at least {least_shared} of 10 hits shared, {shared_total} in all"
    );
    assert!(same_best * 10 >= asked * 9, "the same best hit for only {same_best} of {asked} questions");
    assert!(asked >= 90, "{asked}");
}
