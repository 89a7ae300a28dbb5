//! What re-ranking costs (the `rerank` setting): loading the sentence encoder, encoding an
//! entry (done once, by the indexer) and a question, and a hybrid search of the natural
//! set's questions with and without it, p50 / p99 in process. Needs both models
//! (`scripts/fetch-model.sh --reranker`).

use std::time::{Duration, Instant};

use mooring_bench::natural::{load, seed};
use mooring_core::search::rerank;
use mooring_core::search::{Mode, Request};

fn percentiles(mut t: Vec<Duration>) -> String {
    t.sort();
    let at = |p: f64| t[((t.len() as f64 - 1.0) * p).round() as usize].as_secs_f64() * 1e3;
    format!("{:.2} / {:.2} ms (n = {})", at(0.5), at(0.99), t.len())
}

fn main() {
    if mooring_core::search::semantic::model().is_err() {
        eprintln!("rerank: no model; run scripts/fetch-model.sh --reranker first");
        return;
    }
    let started = Instant::now();
    let encoder = match rerank::encoder() {
        Ok(e) => e,
        Err(why) => {
            eprintln!("rerank: {why}");
            return;
        }
    };
    println!("loading the encoder: {:.0} ms", started.elapsed().as_secs_f64() * 1e3);
    let dir = tempfile::tempdir().unwrap();
    let store = mooring_core::Store::open_in(dir.path()).unwrap();
    let set = load();
    seed(&store, &set);
    let sample: Vec<&str> = set.memory.entries.iter().step_by(20).map(|e| e.3.as_str()).collect();
    let timed = |text: &str| {
        let t = Instant::now();
        std::hint::black_box(encoder.embed(text));
        t.elapsed()
    };
    println!("encoding an entry: {}", percentiles(sample.iter().map(|t| timed(t)).collect()));
    let questions: Vec<_> = set.questions.iter().filter(|q| q.split == "held").step_by(3).collect();
    println!("encoding a question: {}", percentiles(questions.iter().map(|q| timed(&q.text)).collect()));
    let t = Instant::now();
    let n = rerank::index_pending(&store, None).unwrap();
    println!("encoding the set's {n} entries: {:.0} s", t.elapsed().as_secs_f64());
    for on in [false, true] {
        let times = questions
            .iter()
            .map(|q| {
                let r = Request {
                    query: &q.text,
                    project: Some(&q.project),
                    kind: None,
                    limit: 10,
                    mode: Mode::Hybrid,
                };
                let t = Instant::now();
                std::hint::black_box(rerank::find(&store, on, &r).unwrap());
                t.elapsed()
            })
            .collect();
        let name = if on { "re-ranked" } else { "as fused" };
        println!("hybrid search, {} entries, {name}: {}", set.memory.entries.len(), percentiles(times));
    }
}
