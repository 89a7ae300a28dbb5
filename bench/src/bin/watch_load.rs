//! Resolution and the code-path watcher at scale:
//! 1. resolution with R registered code paths (default 100,000) through the server's path
//!    (in-memory index checked against `registry_version`, full 7-level resolve), p50/p99;
//! 2. watcher start-up with W real code directories (default 10,000) and its watch count;
//! 3. the delay from renaming a registered directory to resolution following it, p50/p99.
//!
//!     cargo run --release -p mooring-bench --bin watch-load -- [R] [W]

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use mooring_core::projects::live_index::LiveIndex;
use mooring_core::projects::resolve::{Hints, resolve};
use mooring_core::projects::watch::PathWatcher;
use mooring_core::{Result, Store};

fn main() {
    let mut args = std::env::args().skip(1).map(|a| a.parse::<usize>().expect("counts are whole numbers"));
    let resolve_paths = args.next().unwrap_or(100_000);
    let watch_paths = args.next().unwrap_or(10_000);
    let tmp = tempfile::tempdir().expect("temp dir");
    let root = std::fs::canonicalize(tmp.path()).expect("canonical temp dir");

    resolution(&root.join("r"), resolve_paths);
    watcher(&root.join("w"), watch_paths);
}

/// Projects `p{i}` with one code path each, `base/g{i % 1000}/p{i}`, in one transaction.
fn register(store: &Store, base: &Path, n: usize, on_disk: bool) -> Result<Vec<PathBuf>> {
    let paths: Vec<PathBuf> =
        (0..n).map(|i| base.join(format!("g{}", i % 1000)).join(format!("p{i}"))).collect();
    if on_disk {
        for p in &paths {
            std::fs::create_dir_all(p).expect("create code dir");
        }
    }
    let now = mooring_core::humanize::now();
    store.write(|tx| {
        let mut project = tx.prepare("INSERT INTO projects (slug, name, created_at, updated_at) VALUES (?1, ?1, ?2, ?2)")?;
        let mut path = tx.prepare(
            "INSERT INTO code_paths (project_id, path, state, added_at, dev, ino) VALUES (?1, ?2, 'present', ?3, ?4, ?5)",
        )?;
        for (i, p) in paths.iter().enumerate() {
            project.execute((format!("p{i}"), &now))?;
            let id = tx.last_insert_rowid();
            let fid = mooring_core::paths::file_id(p).ok().flatten().map(|(d, i)| (d as i64, i as i64));
            path.execute((id, p.display().to_string(), &now, fid.map(|f| f.0), fid.map(|f| f.1)))?;
        }
        Ok(())
    })?;
    Ok(paths)
}

fn percentiles(mut samples: Vec<Duration>) -> (Duration, Duration) {
    samples.sort();
    let at = |q: f64| samples[((samples.len() as f64 * q) as usize).min(samples.len() - 1)];
    (at(0.50), at(0.99))
}

fn resolution(base: &Path, n: usize) {
    let store = Store::open_in(&base.join("data")).expect("store");
    let started = Instant::now();
    let paths = register(&store, base, n, false).expect("register");
    println!("registered {n} code paths in {:.2?}", started.elapsed());
    let live = LiveIndex::new();
    let started = Instant::now();
    live.get(&store).expect("index");
    println!("index build (first resolution after a change): {:.2?}", started.elapsed());

    // Agents run in directories that exist: give the first 1,000 projects a deep one.
    let present = n.min(1000);
    for p in &paths[..present] {
        std::fs::create_dir_all(p.join("src/module/deep")).expect("create working dir");
    }
    let lookups = 100_000;
    let mut full = Vec::with_capacity(lookups);
    let mut matched = 0;
    for k in 0..lookups {
        let cwd = paths[(k * 7919) % present].join("src/module/deep");
        let hints = Hints { cwd: Some(cwd.display().to_string()), ..Hints::default() };
        let t = Instant::now();
        let snap = live.get(&store).expect("index");
        let r = resolve(&snap.index, &hints);
        full.push(t.elapsed());
        matched += usize::from(r.project.is_some());
    }
    assert_eq!(matched, lookups, "every lookup should resolve");
    let (p50, p99) = percentiles(full);
    println!("resolution with {n} code paths (version check + 7 levels): p50 {p50:.2?}  p99 {p99:.2?}");

    let mut check = Vec::with_capacity(lookups);
    for _ in 0..lookups {
        let t = Instant::now();
        live.get(&store).expect("index");
        check.push(t.elapsed());
    }
    let (p50, p99) = percentiles(check);
    println!("  of which the registry version check: p50 {p50:.2?}  p99 {p99:.2?}");

    let snap = live.get(&store).expect("index");
    let mut only = Vec::with_capacity(lookups);
    for k in 0..lookups {
        let cwd = paths[(k * 7919) % present].join("src/module/deep");
        let t = Instant::now();
        let hit = snap.index.match_path(&cwd);
        only.push(t.elapsed());
        assert!(hit.is_some());
    }
    let (p50, p99) = percentiles(only);
    println!("path match alone with {n} code paths: p50 {p50:.2?}  p99 {p99:.2?}");
}

fn watcher(base: &Path, n: usize) {
    let store = Arc::new(Store::open_in(&base.join("data")).expect("store"));
    let started = Instant::now();
    let paths = register(&store, base, n, true).expect("register");
    println!("created and registered {n} code directories in {:.2?}", started.elapsed());
    let started = Instant::now();
    let w = PathWatcher::start(store.clone(), Box::new(|| {})).expect("watcher");
    println!(
        "watcher start-up with {n} code paths: {:.2?} ({} watches; limit 2N = {})",
        started.elapsed(),
        w.watch_count(),
        2 * n
    );

    let live = LiveIndex::new();
    let mut delays = Vec::new();
    let mut current = paths[0].clone();
    for round in 0..30 {
        let next = current.with_file_name(format!("p0-renamed-{round}"));
        let probe = next.join("src");
        let t = Instant::now();
        std::fs::rename(&current, &next).expect("rename");
        loop {
            let snap = live.get(&store).expect("index");
            if snap.index.match_path(&probe).is_some_and(|h| h.slug == "p0") {
                break;
            }
            assert!(t.elapsed() < Duration::from_secs(10), "resolution never followed the rename");
            std::thread::sleep(Duration::from_millis(2));
        }
        delays.push(t.elapsed());
        current = next;
    }
    let (p50, p99) = percentiles(delays);
    println!("rename to resolution following it (30 renames): p50 {p50:.2?}  p99 {p99:.2?}");
    drop(w);
}
