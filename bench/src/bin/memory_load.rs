//! Memory at scale: builds a store of P projects and N memory entries (default 1,000 and
//! 1,000,000), then reports insert throughput, search p50/p99 (one project and all
//! projects) and preamble build p50.
//!
//!     cargo run --release -p mooring-bench --bin memory-load -- [PROJECTS] [ENTRIES] [--optimize]
//!
//! `MEMORY_LOAD_KEEP=DIR` builds the store in DIR and leaves it there.

use std::time::{Duration, Instant};

use mooring_core::memory::preamble::{self, Caps};
use mooring_core::memory::{NewEntry, remember_batch};
use mooring_core::{NewProject, Registry, Store, search};

const WORDS: &[&str] = &[
    "leader",
    "election",
    "etcd",
    "lease",
    "renewal",
    "timeout",
    "raft",
    "consensus",
    "quorum",
    "cache",
    "latency",
    "index",
    "schema",
    "migration",
    "rollout",
    "canary",
    "metrics",
    "grafana",
    "alert",
    "budget",
    "token",
    "session",
    "handover",
    "tls",
    "certificate",
    "proxy",
    "sidecar",
    "deploy",
    "rollback",
    "queue",
    "kafka",
    "partition",
    "replica",
    "snapshot",
    "compaction",
    "backup",
    "restore",
    "failover",
    "region",
    "zone",
];

/// Distinct words in the generated corpus.
const VOCABULARY: usize = 20_000;

/// A small deterministic generator (xorshift), so runs are comparable.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// A word from a Zipf-like vocabulary: a few very common domain words, a long tail
    /// of rarer ones (as in real notes), so queries match realistic fractions of entries.
    fn word(&mut self) -> String {
        let r = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        let rank = (VOCABULARY as f64 * r * r * r) as usize;
        match WORDS.get(rank) {
            Some(w) => (*w).to_owned(),
            None => format!("{}{rank:x}", WORDS[rank % WORDS.len()]),
        }
    }
    fn sentence(&mut self, n: usize) -> String {
        (0..n).map(|_| self.word()).collect::<Vec<_>>().join(" ")
    }
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i]
}

fn report(label: &str, mut samples: Vec<Duration>) {
    samples.sort();
    println!(
        "{label:<34} p50 {:>8.3} ms   p99 {:>8.3} ms   ({} runs)",
        percentile(&samples, 0.5).as_secs_f64() * 1e3,
        percentile(&samples, 0.99).as_secs_f64() * 1e3,
        samples.len()
    );
}

fn main() {
    let mut args = std::env::args().skip(1);
    let projects: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000);
    let entries: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(1_000_000);
    // MEMORY_LOAD_KEEP=DIR: build the store in DIR and leave it there (to try queries on).
    let kept = std::env::var_os("MEMORY_LOAD_KEEP").map(std::path::PathBuf::from);
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = kept.as_deref().unwrap_or(tmp.path());
    let store = Store::open_in(dir).expect("store");
    let registry = Registry::new(&store);
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);

    let started = Instant::now();
    for i in 0..projects {
        let description = rng.sentence(8);
        registry
            .create(NewProject {
                name: format!("Project {i}"),
                description: Some(description),
                ..Default::default()
            })
            .expect("project");
    }
    println!("{projects} projects created in {:.2} s", started.elapsed().as_secs_f64());

    let per_project = entries / projects.max(1);
    let kinds = ["decision", "note", "summary", "blocker", "note", "decision", "note", "note"];
    let batch_size = per_project.clamp(1, 1_000);
    let started = Instant::now();
    let mut written = 0usize;
    // Some stored texts, to search for words that are really there.
    let mut samples: Vec<(String, String)> = Vec::new();
    for i in 0..projects {
        let slug = format!("project-{i}");
        let mut left = per_project;
        while left > 0 {
            let n = left.min(batch_size);
            let batch: Vec<NewEntry> = (0..n)
                .map(|j| NewEntry {
                    kind: kinds[(j + i) % kinds.len()].into(),
                    title: Some(rng.sentence(4)),
                    content: rng.sentence(30),
                    tags: vec![rng.word()],
                    ..NewEntry::default()
                })
                .collect();
            if let Some(e) = batch.get(left % n) {
                samples.push((slug.clone(), e.content.clone()));
            }
            written += remember_batch(&store, &slug, &batch, None).expect("batch");
            left -= n;
        }
    }
    let secs = started.elapsed().as_secs_f64();
    println!(
        "{written} entries inserted in {secs:.1} s: {:.0} inserts/s (batches of {batch_size})",
        written as f64 / secs
    );

    // `--optimize`: merge the full-text index into one segment first (what a maintenance
    // pass would do), to compare against the index as a million inserts left it.
    if std::env::args().any(|a| a == "--optimize") {
        let t = Instant::now();
        search::optimize_index(&store).expect("optimize");
        println!("search index merged in {:.1} s", t.elapsed().as_secs_f64());
    }
    let runs = 400;
    let mut slowest: Vec<(Duration, String)> = Vec::new();
    let mut scoped = Vec::with_capacity(runs);
    let mut everywhere = Vec::with_capacity(runs);
    let mut slowest_everywhere: Vec<(Duration, String)> = Vec::new();
    let mut hits = 0usize;
    for r in 0..runs {
        // Alternate: one word drawn like the corpus, and two words of a stored entry.
        let (slug, q) = if r % 2 == 0 {
            (format!("project-{}", rng.next() as usize % projects), rng.word())
        } else {
            let (slug, text) = &samples[rng.next() as usize % samples.len()];
            let words: Vec<&str> = text.split(' ').collect();
            let a = words[rng.next() as usize % words.len()];
            let b = words[rng.next() as usize % words.len()];
            (slug.clone(), format!("{a} {b}"))
        };
        let t = Instant::now();
        hits += search::search(&store, &q, Some(&slug), None, 10).expect("search").len();
        scoped.push(t.elapsed());
        slowest.push((t.elapsed(), q.clone()));
        if r % 4 == 1 {
            let t = Instant::now();
            search::search(&store, &q, None, None, 10).expect("search");
            everywhere.push(t.elapsed());
            slowest_everywhere.push((t.elapsed(), q.clone()));
        }
    }
    report("search, one project", scoped);
    slowest.sort();
    for (d, q) in slowest.iter().rev().take(5) {
        println!("  slow: {:.1} ms for {q:?}", d.as_secs_f64() * 1e3);
    }
    report("search, all projects", everywhere);
    slowest_everywhere.sort();
    for (d, q) in slowest_everywhere.iter().rev().take(3) {
        println!("  slow: {:.1} ms for {q:?}", d.as_secs_f64() * 1e3);
    }
    println!("  ({:.1} hits per project search on average)", hits as f64 / runs as f64);

    let caps = Caps::default();
    let mut builds = Vec::new();
    let mut tokens = 0;
    for _ in 0..100 {
        let slug = format!("project-{}", rng.next() as usize % projects);
        let t = Instant::now();
        tokens = preamble::build(&store, &store, &slug, None, caps).expect("preamble").tokens;
        builds.push(t.elapsed());
    }
    report("preamble build (4000-token budget)", builds);
    println!("  (last preamble: {tokens} tokens)");
    let size = std::fs::metadata(dir.join("mooring.db")).map(|m| m.len()).unwrap_or(0);
    println!("database: {:.0} MiB", size as f64 / 1_048_576.0);
}
