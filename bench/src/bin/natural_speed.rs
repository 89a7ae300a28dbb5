//! Where a natural question's search spends its time at 100,000 entries: the natural
//! set's entries over and over in one project, each mode timed over the questions, and
//! the keyword ranking's parts on their own. `cargo run --release -p mooring-bench --bin
//! natural_speed`. Needs the model (`scripts/fetch-model.sh`).

use std::time::{Duration, Instant};

use mooring_bench::natural;
use mooring_core::search::{Mode, Request, content_words, find};
use mooring_core::store::backend::{MemorySearch as _, SearchQuery};
use mooring_core::{NewProject, Registry, Store, search::semantic};

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

/// How many of the exact 20 nearest the sketch's shortlist keeps (and whether the nearest
/// is the same): the price of comparing only the shortlist exactly. The set holds each
/// entry many times over, nearly alike, so ranks are compared by score (an entry's copy
/// with the same cosine counts as kept).
fn shortlist_recall(store: &Store, asked: &[String]) {
    use mooring_core::store::index::vector_index::Cache;
    use mooring_core::store::vectors::Sqlite;
    let cache = Cache::default();
    let project = Registry::new(store).get("natural").unwrap().id;
    let (mut kept, mut first, mut all) = (0usize, 0usize, 0usize);
    store
        .read(|c| {
            for q in asked {
                let v = semantic::embed(q).unwrap();
                let exact = cache.nearest_exactly(&Sqlite(c), project, semantic::MODEL, &v, 20)?;
                let fast = cache.nearest(&Sqlite(c), project, semantic::MODEL, &v, None, 20)?;
                let same = |k: usize| fast.get(k).is_some_and(|f| f.1 >= exact[k].1 - 1e-4);
                kept += (0..exact.len()).filter(|&k| same(k)).count();
                first += usize::from(!exact.is_empty() && same(0));
                all += exact.len();
            }
            Ok(())
        })
        .unwrap();
    println!(
        "sketch shortlist: {:.1} % of the exact 20 nearest kept, the same nearest for {:.1} % of questions",
        100.0 * kept as f64 / all.max(1) as f64,
        100.0 * first as f64 / asked.len().max(1) as f64
    );
}

fn main() {
    if let Err(a) = semantic::model() {
        eprintln!("natural_speed: no model ({a:?}); run scripts/fetch-model.sh first");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let started = Instant::now();
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
    eprintln!("set up in {:.1} s", started.elapsed().as_secs_f64());
    let asked: Vec<String> = set.questions.iter().step_by(5).map(|q| q.text.clone()).collect();
    shortlist_recall(&store, &asked);
    println!("| {} natural questions, 100,000 entries | p50 | p99 |\n|---|---|---|", asked.len());
    // `--only hybrid|semantic|keyword` times one mode alone (for a profiler).
    let only = std::env::args().skip_while(|a| a != "--only").nth(1);
    for mode in [Mode::Hybrid, Mode::Semantic, Mode::Keyword] {
        if only.as_deref().is_some_and(|o| o != mode.as_str()) {
            continue;
        }
        let run = |q: &str| {
            let r = Request { query: q, project: Some("natural"), kind: None, limit: 10, mode };
            std::hint::black_box(find(&store, &r).unwrap());
        };
        // Warm, or with `--only` keep a profiler busy on this mode alone for a while.
        let rounds = if only.is_some() { 10 } else { 1 };
        (0..rounds).for_each(|_| asked.iter().for_each(|q| run(q)));
        timed(mode.as_str(), &asked, run);
    }
    if only.is_some() {
        return;
    }
    for (label, any, least) in [("every word", false, 1), ("any word", true, 1), ("two words", true, 2)] {
        timed(label, &asked, |q| {
            let words = content_words(q);
            let sq = SearchQuery {
                words: &words,
                project: Some("natural"),
                kind: None,
                limit: 20,
                any,
                least,
                rarest: 0,
            };
            std::hint::black_box(store.search_memory(&sq).unwrap());
        });
    }
    timed("per-prompt recall", &asked, |q| {
        std::hint::black_box(mooring_core::search::recall::recall(&store, "natural", q, &[]).unwrap());
    });
}
