//! The store operations of `benches/store.rs` on the other backend: a team project in a
//! PostgreSQL on this machine (started from Debian's binaries), the same 1,000 entries,
//! next to the embedded SQLite store. The difference is what a team pays per call for a
//! database several machines share (a loopback round trip or more per call).

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_core::NewProject;
use mooring_core::memory::{self, ListQuery, NewEntry, remember_batch};
use mooring_team::PgStore;
use mooring_team::testing::{PASSWORD, Postgres};

fn team_store_ops(c: &mut Criterion) {
    let pg = Postgres::start();
    let store = PgStore::connect(&pg.fresh_db(), Some(PASSWORD), "Bench").unwrap();
    store
        .create_project(NewProject {
            name: "Leader Election".into(),
            slug: Some("le".into()),
            ..Default::default()
        })
        .unwrap();
    store.create_project(NewProject { name: "Other".into(), ..Default::default() }).unwrap();
    remember_batch(&store, "le", &mooring_bench::seed_entries(1_000), None).unwrap();
    let query = ListQuery { limit: Some(10), ..Default::default() };
    let mut group = c.benchmark_group("team store");
    group.bench_function("list_memory limit 10", |b| {
        b.iter(|| black_box(memory::list(&store, "le", &query).unwrap()))
    });
    group.bench_function("search_memory 1% word", |b| {
        b.iter(|| black_box(mooring_core::search::search(&store, "zeppelin", Some("le"), None, 10).unwrap()))
    });
    let mut i = 0;
    group.bench_function("remember", |b| {
        b.iter(|| {
            i += 1;
            let new = NewEntry {
                kind: "note".into(),
                title: None,
                content: format!("load note {i}"),
                tags: vec![],
            };
            black_box(memory::remember(&store, "other", &new, None).unwrap())
        })
    });
    group.finish();
}

criterion_group!(benches, team_store_ops);
criterion_main!(benches);
