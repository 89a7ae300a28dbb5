//! The store operations of `benches/store.rs` on the other backend: a team project in a
//! PostgreSQL on this machine (started from Debian's binaries), the same 1,000 entries,
//! next to the embedded SQLite store. The difference is what a team pays per call for a
//! database several machines share (a loopback round trip or more per call).

use criterion::{Criterion, criterion_group, criterion_main};
use mooring_team::testing::{PASSWORD, Postgres};

mod common;

fn team_store_ops(c: &mut Criterion) {
    let pg = Postgres::start();
    let store = mooring_bench::seed_team_projects(&pg.fresh_db(), PASSWORD, 1_000);
    common::memory_ops(c, "team store", &store);
}

criterion_group!(benches, team_store_ops);
criterion_main!(benches);
