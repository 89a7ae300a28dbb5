//! Where a natural question's search spends its time at 100,000 entries: the natural
//! set's entries over and over in one project, each mode timed over the questions, and
//! the keyword ranking's parts on their own. `cargo run --release -p mooring-bench --bin
//! natural_speed`. Needs the model (`scripts/fetch-model.sh`).

use std::time::{Duration, Instant};

use mooring_bench::natural;
use mooring_core::backend::{MemoryBackend, SearchQuery};
use mooring_core::search::{Mode, Request, content_words, find};
use mooring_core::{NewProject, Registry, Store, semantic};

fn pct(sorted: &[Duration], p: f64) -> f64 {
    sorted[((sorted.len() - 1) as f64 * p) as usize].as_secs_f64() * 1e3
}

fn timed(label: &str, questions: &[String], mut f: impl FnMut(&str)) {
    let mut times: Vec<Duration> = questions
        .iter()
        .map(|q| {
            let t = Instant::now();
            f(q);
            t.elapsed()
        })
        .collect();
    times.sort();
    println!("| {label} | {:.2} ms | {:.2} ms |", pct(&times, 0.5), pct(&times, 0.99));
}

fn main() {
    if let Err(a) = semantic::model() {
        eprintln!("natural_speed: no model ({a:?}); run scripts/fetch-model.sh first");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let store = Store::open_in(dir.path()).unwrap();
    let set = natural::load();
    Registry::new(&store).create(NewProject { name: "natural".into(), ..NewProject::default() }).unwrap();
    natural::hundred_thousand(&store, &set, "natural");
    semantic::index_pending(&store, None).unwrap();
    if std::env::args().any(|a| a == "--optimize") {
        let t = Instant::now();
        mooring_core::search::optimize_index(&store).unwrap();
        println!("full-text index merged into one segment in {:.0} ms", t.elapsed().as_secs_f64() * 1e3);
    }
    let asked: Vec<String> = set.questions.iter().step_by(5).map(|q| q.text.clone()).collect();
    println!("| {} natural questions, 100,000 entries | p50 | p99 |\n|---|---|---|", asked.len());
    for mode in [Mode::Hybrid, Mode::Semantic, Mode::Keyword] {
        let run = |q: &str| {
            let r = Request { query: q, project: Some("natural"), kind: None, limit: 10, mode };
            std::hint::black_box(find(&store, &r).unwrap());
        };
        asked.iter().for_each(|q| run(q));
        timed(mode.as_str(), &asked, run);
    }
    for (label, any, least) in [("every word", false, 1), ("any word", true, 1), ("two words", true, 2)] {
        timed(label, &asked, |q| {
            let words = content_words(q);
            let sq =
                SearchQuery { words: &words, project: Some("natural"), kind: None, limit: 20, any, least };
            std::hint::black_box(store.search_memory(&sq).unwrap());
        });
    }
    timed("per-prompt recall", &asked, |q| {
        std::hint::black_box(mooring_core::recall::recall(&store, "natural", q, &[]).unwrap());
    });
}
