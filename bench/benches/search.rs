//! What search by meaning costs, on the real model: embedding entries (the indexer),
//! hybrid, semantic and keyword search in a project of 100,000 entries (p50/p99 over the
//! labelled set's questions), the first search of a process (it reads the project's
//! vectors), resident memory of the model and the vectors, and what the vector queue's
//! trigger adds to `remember` (last: it drops the trigger). `-- --million` also fills ten
//! projects to 1,000,000 entries and times a search in one of them and across all;
//! natural questions are timed over a project of 100,000 entries in the natural set's words;
//! `-- --team` times the same project of 100,000 as a team project, in a PostgreSQL on
//! this machine.

mod seed;

use std::time::{Duration, Instant};

use mooring_bench::{labelled, natural};
use mooring_core::memory::{NewEntry, remember};
use mooring_core::search::{Mode, Request, find};
use mooring_core::store::backend::{MemoryBackend, MemorySearch as _};
use mooring_core::{NewProject, Registry, Store, search::semantic};

fn rss_mb() -> f64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let kb: f64 = status
        .lines()
        .find(|l| l.starts_with("VmRSS:"))
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|v| v.parse().ok())
        .unwrap_or(0.0);
    kb / 1024.0
}

fn pct(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

/// Time every question once in `project` (all projects when `None`); p50 and p99 in ms.
fn timed(store: &dyn MemoryBackend, questions: &[String], project: Option<&str>, mode: Mode) -> (f64, f64) {
    let mut times: Vec<Duration> = questions
        .iter()
        .map(|q| {
            let r = Request { query: q, project, kind: None, limit: 10, mode };
            let t = Instant::now();
            std::hint::black_box(find(store, &r).unwrap());
            t.elapsed()
        })
        .collect();
    times.sort();
    (pct(&times, 0.5), pct(&times, 0.99))
}

fn fill(store: &Store, slug: &str) {
    Registry::new(store).create(NewProject { name: slug.into(), ..NewProject::default() }).unwrap();
    seed::hundred_thousand(store, slug);
}

/// Index everything waiting in `store`, printing the time per entry (`what` it includes).
fn index_timed(store: &dyn MemoryBackend, label: &str, what: &str) {
    let t = Instant::now();
    let n = semantic::index_pending(store, None).unwrap();
    let took = t.elapsed().as_secs_f64();
    println!("{label}: {n} entries in {took:.1} s ({:.1} µs each: {what})", took * 1e6 / n.max(1) as f64);
}

/// The first hybrid search of the process in project `big` (it reads the project's
/// vectors), in ms.
fn first_search(store: &dyn MemoryBackend, question: &str) -> f64 {
    let first = Request { query: question, project: Some("big"), kind: None, limit: 10, mode: Mode::Hybrid };
    let t = Instant::now();
    find(store, &first).unwrap();
    t.elapsed().as_secs_f64() * 1e3
}

/// Each mode's p50 and p99 over the questions in project `big`, as table rows.
fn modes_table(store: &dyn MemoryBackend, questions: &[String], title: &str) {
    println!("\n| {title} | p50 | p99 |\n|---|---|---|");
    for mode in [Mode::Hybrid, Mode::Semantic, Mode::Keyword] {
        // A round untimed first: a running hub's read connections have their pages
        // cached; the first search's cost is measured on its own.
        timed(store, questions, Some("big"), mode);
        let (p50, p99) = timed(store, questions, Some("big"), mode);
        println!("| {} | {p50:.2} ms | {p99:.2} ms |", mode.as_str());
    }
}

/// The project of 100,000 as a team project: indexing, the first search, then each mode.
fn team(questions: &[String]) {
    let pg = mooring_team::testing::Postgres::start();
    let team = mooring_team::PgStore::connect(&pg.fresh_db(), Some(mooring_team::testing::PASSWORD), "Bench")
        .unwrap();
    team.create_project(NewProject { name: "big".into(), ..NewProject::default() }).unwrap();
    let t = Instant::now();
    seed::hundred_thousand(&team, "big");
    println!("\nteam: 100,000 entries written in {:.1} s", t.elapsed().as_secs_f64());
    index_timed(&team, "team indexer", "claim, embed, store");
    let ms = first_search(&team, &questions[0]);
    println!("team: first hybrid search of the process: {ms:.1} ms (reads the project's vectors)");
    modes_table(&team, questions, "team project of 100,000 entries");
    let few = &questions[..20];
    let newest = |q: &String| {
        let v = semantic::embed(q).unwrap();
        let nq = mooring_core::store::backend::NearestQuery {
            vector: &v,
            model: semantic::MODEL,
            project: Some("big"),
            kind: None,
            limit: 10,
            newest: Some(10_000),
            least: None,
        };
        let t = Instant::now();
        std::hint::black_box(team.nearest_memory(&nq).unwrap());
        t.elapsed()
    };
    let mut times: Vec<Duration> = few.iter().map(newest).collect();
    times.sort();
    println!(
        "| by meaning among the newest 10,000, read afresh (a prompt hook's) | {:.1} ms | {:.1} ms |",
        pct(&times, 0.5),
        pct(&times, 0.99)
    );
}

fn main() {
    let million = std::env::args().any(|a| a == "--million");
    let rss_start = rss_mb();
    let t = Instant::now();
    if let Err(a) = semantic::model() {
        eprintln!("search: no model ({a:?}); run scripts/fetch-model.sh first");
        return;
    }
    let load = t.elapsed();
    let rss_model = rss_mb();
    println!("model: loaded in {:.1} ms, {:.1} MB resident", load.as_secs_f64() * 1e3, rss_model - rss_start);
    let set = labelled::load();
    let questions: Vec<String> = set.queries.iter().map(|q| q.text.clone()).collect();
    if std::env::args().any(|a| a == "--team") {
        team(&questions);
        return;
    }

    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    fill(&store, "big");
    index_timed(&store, "indexer", "embed, quantize, store");
    let rss_before = rss_mb();
    let ms = first_search(&store, &questions[0]);
    println!(
        "first hybrid search of the process in 100,000 entries: {ms:.1} ms (reads the project's vectors); \
         they hold {:.1} MB resident",
        rss_mb() - rss_before
    );
    modes_table(&store, &questions, "100,000 entries, one project");

    // Natural questions (stop words, several content words, most sharing only some with
    // any entry: the any-word ranking runs) over a project of 100,000 entries in the
    // natural set's words.
    let natural = natural::load();
    let asked: Vec<String> = natural.questions.iter().step_by(5).map(|q| q.text.clone()).collect();
    Registry::new(&store).create(NewProject { name: "natural".into(), ..NewProject::default() }).unwrap();
    natural::hundred_thousand(&store, &natural, "natural");
    semantic::index_pending(&store, None).unwrap();
    // What a running hub's indexer does over its ticks after writes: the keyword index
    // merged (here at once).
    mooring_core::search::optimize_index(&store).unwrap();
    println!(
        "\n| natural questions ({}), 100,000 entries in the natural set's words | p50 | p99 |",
        asked.len()
    );
    println!("|---|---|---|");
    for mode in [Mode::Hybrid, Mode::Semantic, Mode::Keyword] {
        timed(&store, &asked, Some("natural"), mode);
        let (p50, p99) = timed(&store, &asked, Some("natural"), mode);
        println!("| {} | {p50:.2} ms | {p99:.2} ms |", mode.as_str());
    }
    // A prompt hook's recall on the same project, in process (the hook adds its start).
    let mut times: Vec<Duration> = asked
        .iter()
        .map(|q| {
            let t = Instant::now();
            std::hint::black_box(mooring_core::search::recall::recall(&store, "natural", q, &[]).unwrap());
            t.elapsed()
        })
        .collect();
    times.sort();
    println!("| per-prompt recall | {:.2} ms | {:.2} ms |", pct(&times, 0.5), pct(&times, 0.99));

    if million {
        for i in 1..9 {
            fill(&store, &format!("p{i}"));
        }
        let t = Instant::now();
        semantic::index_pending(&store, None).unwrap();
        println!("\n1,000,000 entries: the other 800,000 indexed in {:.0} s", t.elapsed().as_secs_f64());
        println!("| 1,000,000 entries | p50 | p99 |\n|---|---|---|");
        let (p50, p99) = timed(&store, &questions, Some("p5"), Mode::Hybrid);
        println!("| hybrid, one project of 100,000 | {p50:.2} ms | {p99:.2} ms |");
        let few = &asked[..100];
        timed(&store, few, None, Mode::Hybrid);
        for mode in [Mode::Hybrid, Mode::Semantic, Mode::Keyword] {
            let (p50, p99) = timed(&store, few, None, mode);
            println!(
                "| {}, every project (100 natural questions) | {p50:.1} ms | {p99:.1} ms |",
                mode.as_str()
            );
        }
        println!("resident after all: {:.0} MB", rss_mb());
    }

    // What the queue's trigger adds to `remember`: the same writes with it and without it.
    Registry::new(&store).create(NewProject { name: "writes".into(), ..NewProject::default() }).unwrap();
    let write = |label: &str| {
        let mut times: Vec<Duration> = (0..2_000)
            .map(|i| {
                let e = NewEntry {
                    kind: "note".into(),
                    content: format!("{label} note {i}"),
                    ..NewEntry::default()
                };
                let t = Instant::now();
                remember(&store, "writes", &e, None).unwrap();
                t.elapsed()
            })
            .collect();
        times.sort();
        (pct(&times, 0.5), pct(&times, 0.99))
    };
    let with = write("queued");
    store
        .write(|tx| {
            tx.execute_batch("DROP TRIGGER memory_queued_when_added")?;
            Ok(())
        })
        .unwrap();
    let without = write("unqueued");
    println!(
        "\nremember: p50 {:.3} ms / p99 {:.3} ms with the vector queue; {:.3} / {:.3} ms without",
        with.0, with.1, without.0, without.1
    );
}
