//! Two Moorings writing to one team project at once: each instance (its own store,
//! connection pool and person) runs `--threads` writers calling `remember` for `--secs`,
//! against a PostgreSQL started here. Reports writes/s in all and per instance with
//! p50/p99, then checks every acknowledged write is stored, and how long a write takes to
//! be announced to the other instance.
//!
//!     cargo run --release -p mooring-bench --bin team-writers -- [--secs S] [--threads N]

use std::sync::Arc;

use mooring_bench::arg;
use std::time::{Duration, Instant};

use mooring_core::NewProject;
use mooring_core::memory::{ListQuery, NewEntry, list, remember};
use mooring_team::testing::{PASSWORD, Postgres};
use mooring_team::{PgStore, Role};

fn main() {
    let secs: f64 = arg("--secs", 3.0);
    let threads: usize = arg("--threads", 4);
    let pg = Postgres::start();
    let url = pg.fresh_db();
    let ada = Arc::new(PgStore::connect(&url, Some(PASSWORD), "Ada").unwrap());
    let bob = Arc::new(PgStore::connect(&url, Some(PASSWORD), "Bob").unwrap());
    ada.create_project(NewProject { name: "Billing".into(), ..Default::default() }).unwrap();
    ada.set_member("billing", "Bob", Role::Member).unwrap();
    let started = Instant::now();
    let mut handles = Vec::new();
    for (who, store) in [("ada", ada.clone()), ("bob", bob.clone())] {
        for t in 0..threads {
            let store = store.clone();
            handles.push(std::thread::spawn(move || {
                let mut lat = Vec::new();
                let mut i = 0;
                while started.elapsed().as_secs_f64() < secs {
                    i += 1;
                    let new = NewEntry {
                        kind: "note".into(),
                        content: format!("{who} {t} {i}"),
                        ..Default::default()
                    };
                    let t0 = Instant::now();
                    remember(&*store, "billing", &new, None).expect("write");
                    lat.push(t0.elapsed());
                }
                (who, lat)
            }));
        }
    }
    let results: Vec<(&str, Vec<Duration>)> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let wall = started.elapsed().as_secs_f64();
    let mut all: Vec<Duration> = Vec::new();
    for who in ["ada", "bob"] {
        let mut lat: Vec<Duration> =
            results.iter().filter(|(w, _)| *w == who).flat_map(|(_, l)| l.clone()).collect();
        lat.sort();
        println!(
            "instance {who}: {} writes, {:.0} writes/s, p50 {:.2} ms, p99 {:.2} ms",
            lat.len(),
            lat.len() as f64 / wall,
            ms(&lat, 0.5),
            ms(&lat, 0.99)
        );
        all.extend(lat);
    }
    all.sort();
    println!(
        "both ({threads} writers each): {:.0} writes/s, p50 {:.2} ms, p99 {:.2} ms",
        all.len() as f64 / wall,
        ms(&all, 0.5),
        ms(&all, 0.99)
    );
    let mut stored = 0;
    let mut before = None;
    loop {
        let page =
            list(&*ada, "billing", &ListQuery { limit: Some(200), before, ..Default::default() }).unwrap();
        stored += page.entries.len();
        match page.next_before {
            Some(b) => before = Some(b),
            None => break,
        }
    }
    assert_eq!(stored, all.len(), "every acknowledged write is stored");
    println!("stored: {stored} (every acknowledged write)");

    // How long a change takes to reach the other instance: from the start of Ada's write
    // to Bob's announcement of it (PostgreSQL sends the announcement at commit, so it
    // often arrives before Ada's acknowledgement does: timing from the acknowledgement
    // would read zero).
    let (tx, rx) = std::sync::mpsc::channel::<Instant>();
    let tx = std::sync::Mutex::new(tx);
    bob.listen(Arc::new(move |c| {
        if !c.is_resync() {
            let _ = tx.lock().unwrap().send(Instant::now());
        }
    }));
    std::thread::sleep(Duration::from_millis(500));
    while rx.try_recv().is_ok() {}
    let (mut lags, mut writes) = (Vec::new(), Vec::new());
    for i in 0..50 {
        let new = NewEntry { kind: "note".into(), content: format!("announced {i}"), ..Default::default() };
        let started = Instant::now();
        remember(&*ada, "billing", &new, None).expect("write");
        writes.push(started.elapsed());
        let arrived = rx.recv_timeout(Duration::from_secs(5)).expect("announced");
        lags.push(arrived.saturating_duration_since(started));
        std::thread::sleep(Duration::from_millis(20));
    }
    lags.sort();
    writes.sort();
    println!(
        "announcement at the other instance, from the start of the write: p50 {:.2} ms, max {:.2} ms \
         (the write itself: p50 {:.2} ms; 50 writes)",
        ms(&lags, 0.5),
        ms(&lags, 1.0),
        ms(&writes, 0.5)
    );
}

fn ms(sorted: &[Duration], q: f64) -> f64 {
    sorted.get(((sorted.len() as f64 - 1.0) * q).round() as usize).map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
}
