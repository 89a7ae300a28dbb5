//! The store operations both store benchmarks time, on whichever backend they are given:
//! project `le` holds the seeded entries, writes go to `other`.

use std::hint::black_box;

use criterion::Criterion;
use mooring_core::memory::{self, ListQuery, NewEntry};
use mooring_core::store::backend::MemoryBackend;

/// list_memory (limit 10), search_memory (a word in 1 % of entries) and remember.
pub fn memory_ops(c: &mut Criterion, group: &str, store: &dyn MemoryBackend) {
    let query = ListQuery { limit: Some(10), ..Default::default() };
    let mut group = c.benchmark_group(group);
    group.bench_function("list_memory limit 10", |b| {
        b.iter(|| black_box(memory::list(store, "le", &query).unwrap()))
    });
    group.bench_function("search_memory 1% word", |b| {
        b.iter(|| black_box(mooring_core::search::search(store, "zeppelin", Some("le"), None, 10).unwrap()))
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
                ..NewEntry::default()
            };
            black_box(memory::remember(store, "other", &new, None).unwrap())
        })
    });
    group.finish();
}
