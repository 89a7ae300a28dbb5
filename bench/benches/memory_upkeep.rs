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
        let store = mooring_bench::year::project(dir.path(), n);
        let mut i = 0;
        let mut next = || {
            i += 1;
            mooring_bench::year::probe(i)
        };
        group.bench_with_input(BenchmarkId::new("alone", n), &n, |b, _| {
            b.iter(|| black_box(memory::remember(&store, "year", &next(), None).unwrap()))
        });
        // The hub's upkeep, counted in: each second it embeds what was written and merges
        // the keyword index a bounded step (here every 500 writes: a burst); unmerged,
        // every query's setup walks many small segments.
        let mut written = 0u32;
        group.bench_with_input(BenchmarkId::new("with candidates", n), &n, |b, _| {
            b.iter(|| {
                written += 1;
                if written.is_multiple_of(500) {
                    use mooring_core::store::backend::MemoryUpkeep as _;
                    let _ = mooring_core::search::semantic::index_pending(&store, None);
                    store.tidy_index().unwrap();
                }
                black_box(
                    mooring_core::search::similar::remember(&store, "year", &next(), None, &[]).unwrap(),
                )
            })
        });
        percentiles(&store, n, &mut next);
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

/// This thread's CPU time, in ms.
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write into.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}

/// The figure is a percentile of the write's own CPU, which criterion's mean
/// does not give: 2,000 more `remember`s with their check, each timed on this thread's
/// clock, and the hub's upkeep (embedding them and merging the keyword index, on its own
/// thread in the hub) timed apart, per write. Twice: steady, a write a second or slower
/// (the hub's upkeep runs between any two writes: an agent's pace), and in a burst of
/// 500 writes between two upkeeps (an import).
fn percentiles(store: &Store, n: usize, next: &mut impl FnMut() -> NewEntry) {
    use mooring_core::store::backend::MemoryUpkeep as _;
    // What the criterion runs wrote is the hub's backlog, not this measurement's.
    let _ = mooring_core::search::semantic::index_pending(store, None);
    store.tidy_index().unwrap();
    for (pace, every) in [("steady", 1u32), ("burst", 500)] {
        let (mut calls, mut upkeep) = (Vec::with_capacity(2_000), 0.0);
        for i in 1..=2_000u32 {
            if i.is_multiple_of(every) {
                let t = thread_cpu_ms();
                let _ = mooring_core::search::semantic::index_pending(store, None);
                store.tidy_index().unwrap();
                upkeep += thread_cpu_ms() - t;
            }
            let entry = next();
            let t = thread_cpu_ms();
            black_box(mooring_core::search::similar::remember(store, "year", &entry, None, &[]).unwrap());
            calls.push(thread_cpu_ms() - t);
        }
        calls.sort_by(f64::total_cmp);
        let at = |q: f64| calls[((calls.len() - 1) as f64 * q).round() as usize];
        eprintln!(
            "remember with candidates at {n} entries, {pace}, CPU per call: p50 {:.3} ms, p99 {:.3} ms; the hub's upkeep {:.3} ms a write",
            at(0.5),
            at(0.99),
            upkeep / calls.len() as f64
        );
    }
}

/// A project with a year of captured sessions, five a working day (1,300), the newest
/// today.
fn year_of_sessions() -> (tempfile::TempDir, Store) {
    use mooring_core::store::backend::MemoryWrites as _;
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    Registry::new(&store).create(NewProject { name: "Year".into(), ..NewProject::default() }).unwrap();
    let now = chrono::Utc::now();
    for i in 0..SESSIONS {
        let at = now - chrono::Duration::minutes((SESSIONS - i) as i64 * 365 * 24 * 60 / SESSIONS as i64);
        let mut r = mooring_bench::year::session(i, at);
        let key = r.key.clone();
        let (row, _) = mooring_core::capture::entry(&mut r).unwrap();
        store.put_session("year", &key, &row, memory::check_writable).unwrap();
    }
    (dir, store)
}

const SESSIONS: usize = 1_300;

/// The weekly roll-up: the first one over a year of sessions (every digest written,
/// every old session folded), and the hourly one after it (nothing changed).
fn roll_up(c: &mut Criterion) {
    use mooring_core::capture::digest::roll_up;
    let mut group = c.benchmark_group("roll_up");
    group.sample_size(10);
    let mut firsts = Vec::new();
    for _ in 0..5 {
        let (_dir, store) = year_of_sessions();
        let t = std::time::Instant::now();
        let done = roll_up(&store, "year", 14, chrono::Utc::now()).unwrap();
        firsts.push(t.elapsed());
        assert!(done.weeks >= 50 && done.folded > 1_200, "{done:?}");
    }
    firsts.sort();
    eprintln!("first roll-up of {SESSIONS} sessions: median {:?} (of {:?})", firsts[2], firsts);
    let (_dir, store) = year_of_sessions();
    roll_up(&store, "year", 14, chrono::Utc::now()).unwrap();
    let digests = memory::list(
        &store,
        "year",
        &memory::ListQuery { kind: Some("context_carry".into()), limit: Some(200), ..Default::default() },
    )
    .unwrap()
    .entries;
    let longest = digests.iter().map(|d| mooring_tokens::count(&d.content)).max().unwrap_or(0);
    eprintln!("{} digests, the longest {longest} tokens", digests.len());
    group.bench_function("rebuild, nothing changed (1,300 sessions)", |b| {
        b.iter(|| black_box(roll_up(&store, "year", 14, chrono::Utc::now()).unwrap()))
    });
    group.finish();
}

criterion_group!(benches, candidate_check, roll_up);
criterion_main!(benches);
