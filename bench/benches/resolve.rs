//! Path resolution cost: it should grow with the depth of the working directory and
//! stay flat as the number of projects grows.

use std::hint::black_box;

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use mooring_bench::{deep_path, index_with};
use mooring_core::{Hints, resolve};

fn by_project_count(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let cwd = deep_path(&root, 6);
    std::fs::create_dir_all(&cwd).unwrap();
    let mut group = c.benchmark_group("match_path/projects");
    for n in [10, 1_000, 100_000] {
        let index = index_with(n, &root);
        group.bench_with_input(BenchmarkId::from_parameter(n), &index, |b, index| {
            b.iter(|| black_box(index.match_path(black_box(&cwd))))
        });
    }
    group.finish();
}

fn by_depth(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let index = index_with(1_000, &root);
    let mut group = c.benchmark_group("match_path/depth");
    for depth in [1, 8, 32] {
        let cwd = deep_path(&root, depth);
        std::fs::create_dir_all(&cwd).unwrap();
        group.bench_with_input(BenchmarkId::from_parameter(depth), &cwd, |b, cwd| {
            b.iter(|| black_box(index.match_path(black_box(cwd))))
        });
    }
    group.finish();
}

fn full_resolution(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    let cwd = deep_path(&root, 6);
    std::fs::create_dir_all(&cwd).unwrap();
    let index = index_with(1_000, &root);
    let hints = Hints { cwd: Some(cwd.display().to_string()), focus: Some("p9".into()), ..Hints::default() };
    c.bench_function("resolve/cwd_1000_projects", |b| {
        b.iter(|| black_box(resolve(&index, black_box(&hints))))
    });
}

criterion_group!(benches, by_project_count, by_depth, full_resolution);
criterion_main!(benches);
