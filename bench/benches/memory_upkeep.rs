//! What keeping memory in shape costs on the write path: `remember` alone, and with the
//! check for the earlier entries the new one likely repeats or contradicts
//! (`search::similar`), in a project of 1,000 and of 100,000 entries (a made-up year,
//! `mooring_bench::year`). With `MOORING_MODELS` pointing at the installed model, the
//! check also compares meaning against every vector of the project, as the hub does.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mooring_core::memory::{self, NewEntry};
use mooring_core::{NewProject, Registry, Store};

fn candidate_check(c: &mut Criterion) {
    let mut group = c.benchmark_group("remember");
    group.sample_size(30);
    for n in [1_000usize, 100_000] {
        let dir = tempfile::tempdir().unwrap();
        let store = Store::open_in(dir.path()).unwrap();
        Registry::new(&store).create(NewProject { name: "Year".into(), ..NewProject::default() }).unwrap();
        for chunk in mooring_bench::year::entries(n).chunks(5_000) {
            memory::remember_batch(&store, "year", chunk, None).unwrap();
        }
        // The hub gives entries their vectors in the background, and keeps them warm.
        let _ = mooring_core::search::semantic::index_pending(&store, None);
        let mut i = 0;
        let mut next = || {
            i += 1;
            NewEntry {
                kind: "decision".into(),
                content: format!("The ledger moves from MySQL to Postgres in week {}", i % 52),
                ..NewEntry::default()
            }
        };
        group.bench_with_input(BenchmarkId::new("alone", n), &n, |b, _| {
            b.iter(|| black_box(memory::remember(&store, "year", &next(), None).unwrap()))
        });
        group.bench_with_input(BenchmarkId::new("with candidates", n), &n, |b, _| {
            b.iter(|| {
                black_box(
                    mooring_core::search::similar::remember(&store, "year", &next(), None, &[]).unwrap(),
                )
            })
        });
        let probe = memory::remember(&store, "year", &next(), None).unwrap();
        let found = mooring_core::search::similar::candidates(&store, &probe).unwrap();
        eprintln!(
            "{n} entries: {} candidates for {:?}: {:?}",
            found.len(),
            probe.title,
            found.iter().map(|c| &c.title).collect::<Vec<_>>()
        );
    }
    group.finish();
}

criterion_group!(benches, candidate_check);
criterion_main!(benches);
