//! Counting o200k tokens: Mooring's own counter beside `bpe-openai` (the crate it
//! replaced) on prose, code and a hostile run; memory and load time are printed by
//! `cargo run --release -p mooring-bench --bin tokens-footprint`.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};

fn counting(c: &mut Criterion) {
    let readme = include_str!("../../README.md");
    let code = include_str!("../../crates/core/src/memory/preamble.rs");
    let hostile = "=-".repeat(20_000);
    mooring_tokens::warm();
    let _ = bpe_openai::o200k_base().count("warm");
    let mut g = c.benchmark_group("tokens");
    for (name, text) in [("readme", readme), ("rust", code), ("hostile-40KB", hostile.as_str())] {
        g.throughput(Throughput::Bytes(text.len() as u64));
        g.bench_function(format!("mooring/{name}"), |b| b.iter(|| mooring_tokens::count(black_box(text))));
        g.bench_function(format!("bpe-openai/{name}"), |b| {
            b.iter(|| bpe_openai::o200k_base().count(black_box(text)))
        });
    }
    g.finish();
}

criterion_group!(benches, counting);
criterion_main!(benches);
