//! The write path's guard, as CI runs it: in a project of 10,000 entries (a made-up year,
//! `mooring_bench::year`), `remember` with its check for earlier entries it repeats or
//! contradicts (`search::similar`) against the bare write, each timed on this thread's
//! CPU clock over a few hundred writes, with the hub's upkeep between them as the hub
//! runs it. It fails (exit 1) when the check makes a write more than 10 times dearer: a
//! ratio within one run, which machine noise cannot reach. Here it is 4.5 to 5 (the check
//! reads two keyword walks and the nearest vectors; the write is one row and its index
//! entries); a change that made every write 30 to 60 times dearer went unnoticed for a
//! round once.
//!
//!     cargo build --profile start -p mooring-bench --bin write-guard
//!     target/start/write-guard [--entries 10000] [--writes 300]

use std::hint::black_box;

use mooring_bench::arg;
use mooring_core::memory;
use mooring_core::search::{semantic, similar};
use mooring_core::store::backend::MemoryUpkeep as _;

/// How much dearer than the bare write a write with its check may be.
const MOST: f64 = 10.0;

fn main() {
    let entries: usize = arg("--entries", 10_000);
    let writes: usize = arg("--writes", 300);
    let dir = tempfile::tempdir().expect("a temporary directory");
    let store = mooring_bench::year::project(dir.path(), entries);
    let by_meaning = semantic::model().is_ok();
    let upkeep = || {
        let _ = semantic::index_pending(&store, None);
        store.tidy_index().expect("the keyword index tidied");
    };
    let mut i = 0;
    let mut next = || {
        i += 1;
        mooring_bench::year::probe(i)
    };
    let (mut bare, mut checked) = (Vec::with_capacity(writes), Vec::with_capacity(writes));
    // Interleaved, so both see the same project as it grows.
    for _ in 0..writes {
        upkeep();
        let entry = next();
        let t = thread_cpu_ms();
        black_box(memory::remember(&store, "year", &entry, None).expect("a write"));
        bare.push(thread_cpu_ms() - t);
        upkeep();
        let entry = next();
        let t = thread_cpu_ms();
        black_box(similar::remember(&store, "year", &entry, None, &[]).expect("a write with its check"));
        checked.push(thread_cpu_ms() - t);
    }
    let checked_p99 = quantile(&mut checked.clone(), 0.99);
    let (bare, checked) = (median(bare), median(checked));
    let ratio = checked / bare.max(1e-6);
    println!(
        "write guard, {entries} entries{}: bare write {bare:.3} ms CPU p50, with its check {checked:.3} ms \
         (p99 {checked_p99:.3}): {ratio:.1}x (at most {MOST}x)",
        if by_meaning { ", by meaning too" } else { ", by words only (no model installed)" }
    );
    if ratio > MOST {
        eprintln!("write guard: the check makes a write {ratio:.1} times dearer than the bare write");
        std::process::exit(1);
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    quantile(&mut v, 0.5)
}

/// The `q` quantile of `v` (sorted here).
fn quantile(v: &mut [f64], q: f64) -> f64 {
    v.sort_by(f64::total_cmp);
    v[((v.len() - 1) as f64 * q).round() as usize]
}

/// This thread's CPU time, in ms.
fn thread_cpu_ms() -> f64 {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid timespec to write into.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as f64 * 1e3 + t.tv_nsec as f64 / 1e6
}
