//! What a sentence embedding costs: loading the model (once per process, on first use)
//! and embedding a 300-character entry, on the model `scripts/fetch-model.sh` installs.

use std::hint::black_box;
use std::path::PathBuf;

use criterion::{Criterion, criterion_group, criterion_main};

fn model_dir() -> PathBuf {
    mooring_embed::models_root().join(mooring_embed::STATIC_MODEL)
}

fn embed(c: &mut Criterion) {
    let dir = model_dir();
    let started = std::time::Instant::now();
    let model = match mooring_embed::Model::load(&dir) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("{e}: run scripts/fetch-model.sh first");
            return;
        }
    };
    eprintln!("embed: loading the model took {:?}", started.elapsed());
    let entry = "Leader election: leases live in etcd with a 15 s TTL and are renewed every 5 s; \
                 a leader that misses two renewals steps down, and the standby takes over after \
                 jitter. Decided after the March outage, when Consul sessions expired during a GC \
                 pause and two leaders wrote to the ledger.";
    assert!((280..=320).contains(&entry.len()), "{} characters", entry.len());
    let mut group = c.benchmark_group("embed");
    group.bench_function("a 300-character entry", |b| b.iter(|| black_box(model.embed(black_box(entry)))));
    group.bench_function("a 10-word prompt", |b| {
        b.iter(|| black_box(model.embed(black_box("How often do we refresh the leader's lease?"))))
    });
    group.finish();
}

criterion_group!(benches, embed);
criterion_main!(benches);
